/* rates.h - the rate rule: which peak a launch is measured against, achieved TFLOP/s and GB/s, percent of peak, and compute- or memory-bound. */
/* layer: analysis (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_RATES_H
#define PROFANA_RATES_H

#include "profana/devices.h"
#include "profana/dtype.h"

/* Which fp32 matrix work is measured against the TF32 peak (pf_analysis_opts.tf32).
 *   PF_TF32_PYTORCH (default): where PyTorch's defaults run it on TF32: convolutions
 *     (torch.backends.cudnn.allow_tf32 is True) and any kernel whose name shows TF32
 *     tensor-core math (pf_kernel_shows_tf32); fp32 GEMMs and attention stay fp32
 *     (torch.backends.cuda.matmul.allow_tf32 is False)
 *   PF_TF32_ALL (--tf32): all fp32 work on matrix units (GEMM, convolution, attention)
 *   PF_TF32_NONE (--no-tf32): none: all fp32 work at the fp32 peak. */
typedef enum pf_tf32 { PF_TF32_PYTORCH = 0, PF_TF32_ALL = 1, PF_TF32_NONE = 2 } pf_tf32;

/* The dtype whose peak an op's work is measured against: d as the formula or the trace gave
 * it; default_dtype (the DTYPE positional) when d is PF_DT_UNKNOWN; then PF_DT_TF32 for fp32
 * work on matrix units as tf32 (a pf_tf32) says, matrix being the formula's pf_work.matrix
 * (PF_MATRIX_CONV for a convolution, PF_MATRIX_GEMM for GEMM and attention, 0 for none).
 * default_dtype is a known dtype. The kernel that ran the work may still make fp32 tf32:
 * pf_peak_dtype_kernel. */
pf_dtype pf_peak_dtype(pf_dtype d, int matrix, pf_dtype default_dtype, int tf32);

/* 1 when a kernel's name shows TF32 tensor-core math: it contains "tf32" (cuBLAS and cuDNN
 * "sm80_xmma_..._tf32f32_...", CUTLASS "..._tf32_..."), or "tensorop_s1688gemm" directly
 * followed by "_" and a tile size digit (CUTLASS SM80 "cutlass_80_tensorop_s1688gemm_128x64_...":
 * fp32 operands on the 16x8x8 TF32 MMA; "tensorop_bf16_s1688gemm_bf16" and
 * "tensorop_s1688gemm_f16_" name half operands and do not match). Case-sensitive. */
int pf_kernel_shows_tf32(const char *name);

/* The peak dtype of work run by the kernel named kernel (NULL: none known): peak, as
 * pf_peak_dtype gave it, except PF_DT_TF32 for fp32 work on a kernel whose name shows TF32
 * math (pf_kernel_shows_tf32), unless tf32 is PF_TF32_NONE. */
pf_dtype pf_peak_dtype_kernel(pf_dtype peak, const char *kernel, int tf32);

/* Peak FLOP/s of a device for a dtype, at the clock it ran at: the datasheet peak times
 * info->clock_mhz / info->tensor_mhz when clock_mhz is set (--clock), the one place a clock
 * scales a peak. 0 when info is NULL, d is not a dtype of the table (PF_DT_UNKNOWN), the
 * table has no such path (0 TFLOP/s), or a clock is set and the entry's is unknown. */
double pf_peak_flops(const pf_device_info *info, pf_dtype d);

/* The measured achievable peak FLOP/s of a device for a dtype (a --device-file entry's
 * "achievable", written by tools/measure_peaks.py at the clock the GPU ran at, so never
 * scaled by --clock); 0 when info is NULL, d is no table dtype, or none was measured. */
double pf_achievable_flops(const pf_device_info *info, pf_dtype d);

/* The measured achievable bandwidth in bytes/s (a device-to-device copy); 0 when none. */
double pf_achievable_bytes(const pf_device_info *info);

/* 1 when info carries any measured achievable figure: the tables then show "% of achievable"
 * beside "% of datasheet". */
int pf_has_achievable(const pf_device_info *info);

/* Peak DRAM bandwidth in bytes/s; 0 when info is NULL or lists none. */
double pf_peak_bytes(const pf_device_info *info);

/* Seconds that work (FLOP or bytes) takes at peak_per_s: work / peak_per_s. No work takes
 * 0 s, with or without a peak. < 0 (unknown) when work is unknown (< 0), or when there is
 * work and no peak (peak_per_s <= 0). */
double pf_at_peak_s(double work, double peak_per_s);

/* The achieved rate of work done in ns nanoseconds, in units of unit per second (1e12:
 * TFLOP/s, 1e9: GB/s): work / (ns * 1e-9) / unit, the one order of every command, so that
 * --analysis, --explain and --augment_trace --extra agree to the last bit. < 0 (unknown)
 * when work < 0 or ns <= 0. unit > 0. */
double pf_rate(double work, double ns, double unit);

/* Percent of peak of work that takes at_peak_s seconds at peak (pf_at_peak_s, or the sum of
 * it over launches of several dtypes) and took ns nanoseconds: 100 * at_peak_s / (ns * 1e-9),
 * the one rule of a row, an --augment_trace --extra event and --explain. < 0 (unknown) when
 * at_peak_s < 0 or ns <= 0. Above 100 when a formula or a peak is wrong. */
double pf_pct_of_peak(double at_peak_s, double ns);

/* Percent of DRAM peak of bytes that take byte_peak_s seconds at peak bandwidth and took ns
 * nanoseconds (pf_pct_of_peak), or < 0 (unknown) with *cache_served = 1 when that is above
 * 100 while a call's bytes (call_bytes) less the device's last-level cache (info->cache_mb)
 * would move within the peak at that rate: the bytes then moved faster than DRAM can move
 * them, so part of them (at most the cache's size) came from the cache and DRAM's share is
 * not known. Above 100 without that excuse stays (a formula or a peak is
 * wrong). cache_served may be NULL. */
double pf_dram_pct(double byte_peak_s, double ns, double call_bytes, const pf_device_info *info,
                   int *cache_served);

/* The roofline test: "compute" when the work takes longer at peak compute (flop_peak_s)
 * than at peak bandwidth (byte_peak_s), "memory" otherwise; comparing times rather than the
 * intensity with the ridge point stays right when the work mixes dtypes. NULL when either
 * is unknown (< 0) or both are 0. The one bound rule of rows and --explain. */
const char *pf_bound(double flop_peak_s, double byte_peak_s);

#endif
