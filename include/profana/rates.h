/* rates.h - the rate rule: which peak a launch is measured against, achieved TFLOP/s and GB/s, percent of peak, and compute- or memory-bound. */
/* layer: analysis (README: Where things are) */
#ifndef PROFANA_RATES_H
#define PROFANA_RATES_H

#include "profana/devices.h"
#include "profana/dtype.h"

/* The order of a rate's arithmetic. The results differ only in the last bit, but that bit
 * shows in --augment_trace's 12 digits and in --explain's JSON, so each command keeps its
 * own order until one is chosen (a later change):
 *   PF_RATE_DIVIDE (--analysis, --explain): rate = work / s / unit;
 *                                           percent = 100 * work / peak / s
 *   PF_RATE_SCALE (--augment_trace --extra): rate = work / s * (1 / unit);
 *                                           percent = work / peak / s * 100
 * where s = ns * 1e-9. */
typedef enum pf_rate_order { PF_RATE_DIVIDE = 0, PF_RATE_SCALE } pf_rate_order;

/* The dtype whose peak a launch's work is measured against: d as the formula or the trace
 * gave it; default_dtype (the DTYPE positional) when d is PF_DT_UNKNOWN; PF_DT_TF32 for fp32
 * work on matrix units (matrix != 0: GEMM, convolution) when tf32 (--tf32) is set.
 * default_dtype is a known dtype. */
pf_dtype pf_peak_dtype(pf_dtype d, int matrix, pf_dtype default_dtype, int tf32);

/* Peak FLOP/s of a device for a dtype; 0 when info is NULL, d is not a dtype of the table
 * (PF_DT_UNKNOWN), or the table has no such path (0 TFLOP/s). */
double pf_peak_flops(const pf_device_info *info, pf_dtype d);

/* Peak DRAM bandwidth in bytes/s; 0 when info is NULL or lists none. */
double pf_peak_bytes(const pf_device_info *info);

/* Seconds that work (FLOP or bytes) takes at peak_per_s: work / peak_per_s. No work takes
 * 0 s, with or without a peak. < 0 (unknown) when work is unknown (< 0), or when there is
 * work and no peak (peak_per_s <= 0). */
double pf_at_peak_s(double work, double peak_per_s);

/* The achieved rate of work done in ns nanoseconds, in units of unit per second (1e12:
 * TFLOP/s, 1e9: GB/s); < 0 (unknown) when work < 0 or ns <= 0. unit > 0. */
double pf_rate(double work, double ns, double unit, pf_rate_order order);

/* Percent of peak: work done in ns nanoseconds against peak_per_s (work / peak_per_s is the
 * time the work takes at peak, as a share of ns). Work already in seconds at peak (summed
 * over launches of several dtypes) is passed with peak_per_s 1. < 0 (unknown) when work < 0,
 * peak_per_s <= 0 or ns <= 0. Above 100 when a formula or a peak is wrong. */
double pf_pct_of_peak(double work, double peak_per_s, double ns, pf_rate_order order);

/* The roofline test: "compute" when the work takes longer at peak compute (flop_peak_s)
 * than at peak bandwidth (byte_peak_s), "memory" otherwise; comparing times rather than the
 * intensity with the ridge point stays right when the work mixes dtypes. NULL when either
 * is unknown (< 0) or both are 0. */
const char *pf_bound(double flop_peak_s, double byte_peak_s);

#endif
