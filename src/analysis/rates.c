/* rates.c - the one rate rule (include/profana/rates.h), and the rates of an analysis's rows built on it. */
#include <assert.h>
#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "profana/analysis.h"
#include "profana/formulas.h"
#include "profana/rates.h"

pf_dtype pf_peak_dtype(pf_dtype d, int matrix, pf_dtype default_dtype, int tf32)
{
    assert(default_dtype >= 0 && default_dtype < PF_DT_COUNT);
    if (d == PF_DT_UNKNOWN)
        d = default_dtype;
    if (d != PF_DT_FP32 || !matrix)
        return d;
    if (tf32 == PF_TF32_ALL || (tf32 == PF_TF32_PYTORCH && matrix == PF_MATRIX_CONV))
        return PF_DT_TF32;
    return d;
}

/* "tensorop_s1688gemm_" followed by a digit at p: the fp32-operand CUTLASS SM80 kernels. */
static int cutlass_s1688_fp32(const char *name)
{
    static const char tag[] = "tensorop_s1688gemm_";
    for (const char *p = strstr(name, tag); p; p = strstr(p + 1, tag))
        if (isdigit((unsigned char)p[sizeof tag - 1]))
            return 1;
    return 0;
}

int pf_kernel_shows_tf32(const char *name)
{
    return name && (strstr(name, "tf32") || cutlass_s1688_fp32(name));
}

pf_dtype pf_peak_dtype_kernel(pf_dtype peak, const char *kernel, int tf32)
{
    if (peak == PF_DT_FP32 && tf32 != PF_TF32_NONE && pf_kernel_shows_tf32(kernel))
        return PF_DT_TF32;
    return peak;
}

double pf_peak_flops(const pf_device_info *info, pf_dtype d)
{
    if (!info || d < 0 || d >= PF_DT_COUNT)
        return 0;
    if (info->clock_mhz <= 0)
        return info->peak_tflops[d] * 1e12;
    /* --clock: the datasheet peak assumes tensor_mhz; without it the scaled peak is unknown */
    return info->tensor_mhz > 0 ? info->peak_tflops[d] * 1e12 * (info->clock_mhz / info->tensor_mhz) : 0;
}

double pf_achievable_flops(const pf_device_info *info, pf_dtype d)
{
    if (!info || d < 0 || d >= PF_DT_COUNT)
        return 0;
    return info->achievable_tflops[d] > 0 ? info->achievable_tflops[d] * 1e12 : 0;
}

double pf_achievable_bytes(const pf_device_info *info)
{
    return info && info->achievable_gbps > 0 ? info->achievable_gbps * 1e9 : 0;
}

int pf_has_achievable(const pf_device_info *info)
{
    if (!info)
        return 0;
    for (int k = 0; k < PF_DT_COUNT; k++)
        if (info->achievable_tflops[k] > 0)
            return 1;
    return info->achievable_gbps > 0;
}

double pf_peak_bytes(const pf_device_info *info)
{
    return info && info->peak_gbps > 0 ? info->peak_gbps * 1e9 : 0;
}

double pf_at_peak_s(double work, double peak_per_s)
{
    if (work < 0)
        return -1;
    if (work == 0)
        return 0;
    return peak_per_s > 0 ? work / peak_per_s : -1;
}

double pf_rate(double work, double ns, double unit)
{
    assert(unit > 0);
    if (!(work >= 0) || ns <= 0)
        return -1;
    double r = work / (ns * 1e-9) / unit; /* a figure that is not finite is unknown */
    return isfinite(r) ? r : -1;
}

double pf_pct_of_peak(double at_peak_s, double ns)
{
    if (!(at_peak_s >= 0) || ns <= 0)
        return -1;
    double p = 100.0 * at_peak_s / (ns * 1e-9);
    return isfinite(p) ? p : -1;
}

double pf_dram_pct(double byte_peak_s, double ns, double call_bytes, const pf_device_info *info,
                   int *cache_served)
{
    double pct = pf_pct_of_peak(byte_peak_s, ns);
    /* Above DRAM's peak, a call's bytes can only have come partly from the last-level cache:
     * at most its size of them (inputs the previous kernel left there). When the rest, moved at
     * this rate, stays within the peak, the rate is cache-helped, not a wrong figure. */
    double cache = info ? info->cache_mb * 1048576.0 : 0;
    double beyond = call_bytes - cache;
    int cached = pct > 100 && cache > 0 && call_bytes > 0 && (beyond <= 0 || pct * beyond / call_bytes <= 100);
    if (cache_served)
        *cache_served = cached;
    return cached ? -1 : pct;
}

const char *pf_bound(double flop_peak_s, double byte_peak_s)
{
    if (flop_peak_s < 0 || byte_peak_s < 0 || (flop_peak_s == 0 && byte_peak_s == 0))
        return NULL;
    return flop_peak_s > byte_peak_s ? "compute" : "memory";
}

/* ---- rows ---- */

/* A group whose launches are only partly covered would show a rate that is neither the
 * kernels' nor zero, so it shows none; the Total row is the whole device's average. */
int pf_row_has_flop(const pf_row *r)
{
    /* a sum too large for a double (launches whose figures are absurd) is unknown, not infinite */
    return r->flop_known > 0 && (r->is_total || (r->flop_known == r->count && r->flop_elsewhere_n < r->count)) &&
           isfinite(r->flop);
}

int pf_row_has_bytes(const pf_row *r)
{
    return r->bytes_known > 0 && (r->is_total || r->bytes_known == r->count) && isfinite(r->bytes);
}

/* The row's seconds at peak compute; unknown without a device, when the row shows no FLOPs,
 * or when a launch with work had no peak for its dtype. */
static double row_flop_peak_s(const pf_row *r, const pf_device_info *info)
{
    return info && pf_row_has_flop(r) && r->peak_ok ? r->flop_peak_s : -1;
}

/* The row's seconds at peak bandwidth; unknown without one, or when it shows no bytes. */
static double row_byte_peak_s(const pf_row *r, const pf_device_info *info)
{
    return pf_peak_bytes(info) > 0 && pf_row_has_bytes(r) ? r->byte_peak_s : -1;
}

double pf_row_tflops(const pf_row *r)
{
    return pf_rate(pf_row_has_flop(r) ? r->flop : -1, (double)r->total_ns, 1e12);
}

double pf_row_gbps(const pf_row *r)
{
    return pf_rate(pf_row_has_bytes(r) ? r->bytes : -1, (double)r->total_ns, 1e9);
}

/* The seconds at peak are summed over the row's launches, each at its dtype's peak. */
static double row_flops_pct_raw(const pf_row *r, const pf_device_info *info)
{
    return pf_pct_of_peak(row_flop_peak_s(r, info), (double)r->total_ns);
}

double pf_row_flops_pct(const pf_row *r, const pf_device_info *info)
{
    return pf_row_guess_over(r, info) ? -1 : row_flops_pct_raw(r, info);
}

/* Bytes of one invocation on average (one launch for kernel rows): what has to fit in the
 * cache for the row to have been served from it. */
static double row_call_bytes(const pf_row *r)
{
    return r->invocations > 0 ? r->bytes / (double)r->invocations : -1;
}

static double row_bw_pct_raw(const pf_row *r, const pf_device_info *info)
{
    return pf_dram_pct(row_byte_peak_s(r, info), (double)r->total_ns, row_call_bytes(r), info, NULL);
}

double pf_row_flops_ach_pct(const pf_row *r, const pf_device_info *info)
{
    int known = pf_has_achievable(info) && pf_row_has_flop(r) && r->ach_ok;
    return pf_pct_of_peak(known ? r->flop_ach_s : -1, (double)r->total_ns);
}

double pf_row_bw_ach_pct(const pf_row *r, const pf_device_info *info)
{
    int known = pf_achievable_bytes(info) > 0 && pf_row_has_bytes(r);
    return pf_pct_of_peak(known ? r->byte_ach_s : -1, (double)r->total_ns);
}

int pf_row_guess_over(const pf_row *r, const pf_device_info *info)
{
    return r->generic_n > 0 && !r->is_total &&
           (row_bw_pct_raw(r, info) > 100 || row_flops_pct_raw(r, info) > 100);
}

/* A generic guess above the peak is a ceiling: its percentage is unknown (pf_row_guess_over). */
double pf_row_bw_pct(const pf_row *r, const pf_device_info *info)
{
    return pf_row_guess_over(r, info) ? -1 : row_bw_pct_raw(r, info);
}

int pf_row_cache_served(const pf_row *r, const pf_device_info *info)
{
    int cached = 0;
    pf_dram_pct(row_byte_peak_s(r, info), (double)r->total_ns, row_call_bytes(r), info, &cached);
    return cached;
}

const char *pf_row_bound(const pf_row *r, const pf_device_info *info)
{
    return pf_bound(row_flop_peak_s(r, info), row_byte_peak_s(r, info));
}

/* A row known in part (pf_row_part_tflops): FLOPs on some launches, not all, and not a row
 * whose launches all carry theirs elsewhere. */
static int part_flop(const pf_row *r)
{
    return !r->is_total && !pf_row_has_flop(r) && r->flop_known > 0 && r->flop_elsewhere_n < r->count &&
           r->flop > 0 && isfinite(r->flop) && r->flop_known_ns > 0;
}

static int part_bytes(const pf_row *r)
{
    return !r->is_total && !pf_row_has_bytes(r) && r->bytes_known > 0 && r->bytes > 0 && isfinite(r->bytes) &&
           r->bytes_known_ns > 0;
}

double pf_row_part_tflops(const pf_row *r)
{
    assert(r);
    return part_flop(r) ? pf_rate(r->flop, (double)r->flop_known_ns, 1e12) : -1;
}

double pf_row_part_gbps(const pf_row *r)
{
    assert(r);
    return part_bytes(r) ? pf_rate(r->bytes, (double)r->bytes_known_ns, 1e9) : -1;
}

double pf_row_part_flops_pct(const pf_row *r, const pf_device_info *info)
{
    assert(r);
    return info && part_flop(r) && r->peak_ok ? pf_pct_of_peak(r->flop_peak_s, (double)r->flop_known_ns) : -1;
}

double pf_row_part_bw_pct(const pf_row *r, const pf_device_info *info)
{
    assert(r);
    return pf_peak_bytes(info) > 0 && part_bytes(r) ? pf_pct_of_peak(r->byte_peak_s, (double)r->bytes_known_ns) : -1;
}
