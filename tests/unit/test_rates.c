/* test_rates.c - the rate rule (include/profana/rates.h) on figures worked out by hand: peak dtypes, achieved rates, percent of peak, the roofline bound, and an analysis row's rates. */
#include <stddef.h>

#include "check.h"
#include "profana/analysis.h"
#include "profana/rates.h"

/* A device of our own, so that the figures below do not move with the device table:
 * 989.5 TFLOP/s bf16 (an H100 SXM's dense peak), 494.7 tf32, 66.9 fp32, no fp64 path,
 * 3350 GB/s DRAM. */
static const pf_device_info dev = {
    .key = "test",
    .peak_tflops = {[PF_DT_FP64] = 0, [PF_DT_FP32] = 66.9, [PF_DT_TF32] = 494.7, [PF_DT_BF16] = 989.5},
    .peak_gbps = 3350,
};

static void peak_dtypes(void)
{
    CHECK("peak dtype: a known dtype is its own", pf_peak_dtype(PF_DT_BF16, PF_MATRIX_GEMM, PF_DT_FP16, PF_TF32_ALL) == PF_DT_BF16);
    CHECK("peak dtype: unknown takes DTYPE", pf_peak_dtype(PF_DT_UNKNOWN, 0, PF_DT_FP16, PF_TF32_PYTORCH) == PF_DT_FP16);
    CHECK("peak dtype: fp32 GEMM with --tf32 is tf32",
          pf_peak_dtype(PF_DT_FP32, PF_MATRIX_GEMM, PF_DT_BF16, PF_TF32_ALL) == PF_DT_TF32);
    /* PyTorch's defaults: torch.backends.cuda.matmul.allow_tf32 False, cudnn.allow_tf32 True */
    CHECK("peak dtype: fp32 GEMM by default stays fp32 (matmul allow_tf32 is off)",
          pf_peak_dtype(PF_DT_FP32, PF_MATRIX_GEMM, PF_DT_BF16, PF_TF32_PYTORCH) == PF_DT_FP32);
    CHECK("peak dtype: fp32 convolution by default is tf32 (cudnn allow_tf32 is on)",
          pf_peak_dtype(PF_DT_FP32, PF_MATRIX_CONV, PF_DT_BF16, PF_TF32_PYTORCH) == PF_DT_TF32);
    CHECK("peak dtype: fp32 convolution with --no-tf32 stays fp32",
          pf_peak_dtype(PF_DT_FP32, PF_MATRIX_CONV, PF_DT_BF16, PF_TF32_NONE) == PF_DT_FP32);
    CHECK("peak dtype: bf16 convolution stays bf16",
          pf_peak_dtype(PF_DT_BF16, PF_MATRIX_CONV, PF_DT_FP32, PF_TF32_PYTORCH) == PF_DT_BF16);
    CHECK("peak dtype: fp32 elementwise work with --tf32 stays fp32",
          pf_peak_dtype(PF_DT_FP32, 0, PF_DT_BF16, PF_TF32_ALL) == PF_DT_FP32);
    /* DTYPE fp32 for work of unknown dtype on matrix units: --tf32 applies after DTYPE */
    CHECK("peak dtype: DTYPE fp32 on matrix units with --tf32 is tf32",
          pf_peak_dtype(PF_DT_UNKNOWN, PF_MATRIX_GEMM, PF_DT_FP32, PF_TF32_ALL) == PF_DT_TF32);
}

/* Kernel names as the H100 traces in testdata/ and public traces show them. */
static void tf32_kernels(void)
{
    static const char *const tf32[] = {
        "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4",
        "sm90_xmma_wgrad_indexed_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x64x32",
        "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_128x64_16x6_nn_align4>(cutlass_80_tensorop_s1688gemm_128x64_16x6_nn_align4::Params)",
        "ampere_tf32_s1688gemm_tf32_128x128_16x3_nn",
    };
    static const char *const not_tf32[] = {
        "sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw_tilesize256x64x8_stage3_warpsize2x2x1_g1_ffma",
        "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x64x8_stage3_warpsize1x4x1_ffma_aligna4_alignc4",
        "void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>(cutlass_80_simt_sgemm_256x128_8x4_nn_align1::Params)",
        "void cutlass::Kernel2<cutlass_75_tensorop_bf16_s1688gemm_bf16_256x128_tn_align1>(...)",
        "cutlass_75_tensorop_s1688gemm_f16_256x128_32x2_nn_align8",
        "void wgrad_alg0_engine<float, 128, 5, 5, 3, 3, 3, false, 512>(int, int, int, float const*)",
        "TF32 in capitals is not Kineto's spelling",
    };
    for (size_t i = 0; i < sizeof tf32 / sizeof *tf32; i++)
        CHECK(tf32[i], pf_kernel_shows_tf32(tf32[i]));
    for (size_t i = 0; i < sizeof not_tf32 / sizeof *not_tf32; i++)
        CHECK(not_tf32[i], !pf_kernel_shows_tf32(not_tf32[i]));
    CHECK("no kernel name shows nothing", !pf_kernel_shows_tf32(NULL));
    CHECK("kernel: fp32 work on a tf32 kernel is tf32 by default",
          pf_peak_dtype_kernel(PF_DT_FP32, tf32[0], PF_TF32_PYTORCH) == PF_DT_TF32);
    CHECK("kernel: ... and with --tf32", pf_peak_dtype_kernel(PF_DT_FP32, tf32[2], PF_TF32_ALL) == PF_DT_TF32);
    CHECK("kernel: ... but fp32 with --no-tf32", pf_peak_dtype_kernel(PF_DT_FP32, tf32[0], PF_TF32_NONE) == PF_DT_FP32);
    CHECK("kernel: bf16 work on a tf32-named kernel stays bf16",
          pf_peak_dtype_kernel(PF_DT_BF16, tf32[0], PF_TF32_PYTORCH) == PF_DT_BF16);
    CHECK("kernel: fp32 work on an FFMA kernel stays fp32",
          pf_peak_dtype_kernel(PF_DT_FP32, not_tf32[1], PF_TF32_PYTORCH) == PF_DT_FP32);
    CHECK("kernel: a conv's tf32 stays tf32 on an FFMA kernel",
          pf_peak_dtype_kernel(PF_DT_TF32, not_tf32[0], PF_TF32_PYTORCH) == PF_DT_TF32);
}

static void peaks(void)
{
    CHECK_NEAR("peak: bf16 989.5 TFLOP/s = 9.895e14 FLOP/s", pf_peak_flops(&dev, PF_DT_BF16), 9.895e14);
    CHECK("peak: a path the device lacks (fp64 0) is 0", pf_peak_flops(&dev, PF_DT_FP64) == 0);
    CHECK("peak: no device is 0", pf_peak_flops(NULL, PF_DT_BF16) == 0);
    CHECK("peak: an unknown dtype is 0", pf_peak_flops(&dev, PF_DT_UNKNOWN) == 0);
    CHECK_NEAR("peak: 3350 GB/s = 3.35e12 bytes/s", pf_peak_bytes(&dev), 3.35e12);
    CHECK("peak: no device has no bandwidth", pf_peak_bytes(NULL) == 0);
}

static void at_peak(void)
{
    /* 1e15 FLOP / 9.895e14 FLOP/s = 1000 / 989.5 s = 1.010611419... s */
    CHECK_NEAR("at peak: 1e15 FLOP at 989.5 TFLOP/s takes 1.0106114199 s", pf_at_peak_s(1e15, 9.895e14),
               1000.0 / 989.5);
    CHECK("at peak: no work takes 0 s without a peak", pf_at_peak_s(0, 0) == 0);
    CHECK("at peak: no work takes 0 s with a peak", pf_at_peak_s(0, 9.895e14) == 0);
    CHECK("at peak: work without a peak is unknown", pf_at_peak_s(5, 0) < 0);
    CHECK("at peak: unknown work is unknown", pf_at_peak_s(-1, 9.895e14) < 0);
}

static void achieved(void)
{
    /* 1e12 FLOP in 1 s (1e9 ns): 1e12 FLOP/s = 1 TFLOP/s */
    CHECK_NEAR("rate: 1e12 FLOP in 1 s is 1 TFLOP/s", pf_rate(1e12, 1e9, 1e12), 1.0);
    /* 3.35e9 bytes in 1 ms (1e6 ns): 3.35e9 / 1e-3 = 3.35e12 bytes/s = 3350 GB/s */
    CHECK_NEAR("rate: 3.35e9 bytes in 1 ms is 3350 GB/s", pf_rate(3.35e9, 1e6, 1e9), 3350.0);
    CHECK("rate: unknown work is unknown", pf_rate(-1, 1e6, 1e9) < 0);
    CHECK("rate: no time is unknown", pf_rate(1e9, 0, 1e9) < 0);
    CHECK("rate: no work in some time is 0", pf_rate(0, 1e6, 1e12) == 0);
    /* the one order, bit for bit, of --analysis, --explain and --augment_trace --extra */
    double w = 123456789.0, ns = 4321.0;
    CHECK("rate: work / s / unit", pf_rate(w, ns, 1e12) == w / (ns * 1e-9) / 1e12);
}

static void percent(void)
{
    double peak = pf_peak_flops(&dev, PF_DT_BF16);
    /* 1e15 FLOP in 1 s at 989.5 TFLOP/s: 1e15 / 9.895e14 = 1.0106 s at peak, 100 * 1.0106 / 1
     * = 101.0611419...% (above 100: a formula or a peak is wrong); 1e12 FLOP a thousandth. */
    CHECK_NEAR("pct: 1e15 FLOP in 1 s on a 989.5 TFLOP/s peak is 101.0611419%",
               pf_pct_of_peak(pf_at_peak_s(1e15, peak), 1e9), 100000.0 / 989.5);
    CHECK_NEAR("pct: 1e12 FLOP in 1 s on a 989.5 TFLOP/s peak is 0.1010611419%",
               pf_pct_of_peak(pf_at_peak_s(1e12, peak), 1e9), 100.0 / 989.5);
    /* 3.35e9 bytes in 1 ms at 3.35e12 bytes/s: 1e-3 s at peak over 1e-3 s = 100% */
    CHECK_NEAR("pct: 3.35e9 bytes in 1 ms on 3350 GB/s is 100%",
               pf_pct_of_peak(pf_at_peak_s(3.35e9, pf_peak_bytes(&dev)), 1e6), 100.0);
    /* seconds at peak summed over dtypes: 0.5 ms of a 2 ms launch = 25% */
    CHECK_NEAR("pct: 0.5 ms at peak over 2 ms is 25%", pf_pct_of_peak(0.5e-3, 2e6), 25.0);
    CHECK("pct: no peak is unknown", pf_pct_of_peak(pf_at_peak_s(1e12, 0), 1e9) < 0);
    CHECK("pct: no work is 0 even without a peak", pf_pct_of_peak(pf_at_peak_s(0, 0), 1e9) == 0);
    CHECK("pct: no time is unknown", pf_pct_of_peak(1e-3, 0) < 0);
    CHECK("pct: unknown work is unknown", pf_pct_of_peak(pf_at_peak_s(-1, peak), 1e9) < 0);
    double s = 7.0e11 / peak, ns = 98765.0;
    CHECK("pct: 100 * seconds at peak / s, bit for bit", pf_pct_of_peak(s, ns) == 100.0 * s / (ns * 1e-9));
}

static void bound(void)
{
    /* The ridge point of the test device in bf16: 9.895e14 FLOP/s / 3.35e12 bytes/s =
     * 295.37 FLOP/byte. 300 FLOP per byte lies above it: 3e11 FLOP take 3e11 / 9.895e14 =
     * 3.0318e-4 s at peak, 1e9 bytes 1e9 / 3.35e12 = 2.9851e-4 s: compute-bound. 290 FLOP
     * per byte lies below: 2.9308e-4 s < 2.9851e-4 s: memory-bound. */
    double peak = pf_peak_flops(&dev, PF_DT_BF16), bw = pf_peak_bytes(&dev);
    CHECK_STR("bound: 300 FLOP/byte (above the ridge, 295.37) is compute",
              pf_bound(pf_at_peak_s(3e11, peak), pf_at_peak_s(1e9, bw)), "compute");
    CHECK_STR("bound: 290 FLOP/byte (below the ridge) is memory",
              pf_bound(pf_at_peak_s(2.9e11, peak), pf_at_peak_s(1e9, bw)), "memory");
    CHECK_STR("bound: a tie is memory", pf_bound(1e-3, 1e-3), "memory");
    CHECK_STR("bound: bytes and no FLOPs is memory", pf_bound(0, 1e-3), "memory");
    CHECK("bound: no work says nothing", pf_bound(0, 0) == NULL);
    CHECK("bound: unknown FLOPs say nothing", pf_bound(-1, 1e-3) == NULL);
    CHECK("bound: unknown bytes say nothing", pf_bound(1e-3, -1) == NULL);
}

/* A row of two bf16 launches of 1 ms each: 1e12 FLOP and 1.675e9 bytes in all. */
static pf_row two_launches(void)
{
    pf_row r = {.count = 2, .total_ns = 2000000, .flop = 1e12, .bytes = 1.675e9, .flop_known = 2,
                .bytes_known = 2, .peak_ok = 1};
    r.flop_peak_s = 1e12 / 9.895e14;      /* 1.0106e-3 s */
    r.byte_peak_s = 1.675e9 / 3.35e12;    /* 0.5e-3 s */
    return r;
}

static void rows(void)
{
    pf_row r = two_launches();
    /* 1e12 FLOP in 2 ms: 5e14 FLOP/s = 500 TFLOP/s; 1.675e9 bytes in 2 ms: 837.5 GB/s */
    CHECK_NEAR("row: 1e12 FLOP in 2 ms is 500 TFLOP/s", pf_row_tflops(&r), 500.0);
    CHECK_NEAR("row: 1.675e9 bytes in 2 ms is 837.5 GB/s", pf_row_gbps(&r), 837.5);
    /* 1.0106e-3 s at peak over 2e-3 s: 50.53%; 0.5e-3 s over 2e-3 s: 25% */
    CHECK_NEAR("row: FLOPS % is 100 * 1e12 / 9.895e14 / 2e-3 = 50.5306%", pf_row_flops_pct(&r, &dev),
               100.0 * (1e12 / 9.895e14) / 2e-3);
    CHECK_NEAR("row: BW % is 25%", pf_row_bw_pct(&r, &dev), 25.0);
    CHECK_STR("row: 1.0106 ms at peak compute > 0.5 ms at peak bandwidth: compute", pf_row_bound(&r, &dev),
              "compute");
    CHECK("row: no device, no percent", pf_row_flops_pct(&r, NULL) < 0 && pf_row_bw_pct(&r, NULL) < 0);
    CHECK("row: no device, no bound", pf_row_bound(&r, NULL) == NULL);
    r.flop_known = 1; /* one launch of two without FLOPs: a group row shows none */
    CHECK("row: partly covered, no TFLOP/s", pf_row_tflops(&r) < 0 && !pf_row_has_flop(&r));
    CHECK("row: partly covered, no FLOPS % and no bound", pf_row_flops_pct(&r, &dev) < 0 && !pf_row_bound(&r, &dev));
    r.is_total = 1; /* the Total row: the figures it has, over all its time */
    CHECK_NEAR("row: the Total row shows what it has", pf_row_tflops(&r), 500.0);
    r = two_launches();
    r.peak_ok = 0; /* a launch with work had no peak for its dtype */
    CHECK("row: a launch without a peak: no FLOPS %, no bound", pf_row_flops_pct(&r, &dev) < 0 && !pf_row_bound(&r, &dev));
    CHECK_NEAR("row: ... but its TFLOP/s stand", pf_row_tflops(&r), 500.0);
    r = two_launches();
    r.total_ns = 0;
    CHECK("row: no time, no rates", pf_row_tflops(&r) < 0 && pf_row_flops_pct(&r, &dev) < 0);
}

/* One call of aten::threshold_backward on cnn_fp32.json by hand: grad and self read, grad_input
 * written, each [32,256,16,16] fp32 = 8388608 bytes: 25165824 bytes in 5.056 us. At 3350 GB/s
 * they take 25165824 / 3350e9 = 7.5122e-6 s: 148.58% of DRAM peak. 24 MiB fit a 50 MiB cache:
 * part came from it, so DRAM's share is unknown. Not on a device whose cache is unknown, nor
 * with 60 MiB (62914560 bytes) that do not fit. */
static void dram_pct(void)
{
    pf_device_info cached = dev;
    cached.cache_mb = 50;
    double s = pf_at_peak_s(25165824, 3350e9);
    int c = -1;
    CHECK_NEAR("dram pct: above 100 with no cache known stays", pf_dram_pct(s, 5056, 25165824, &dev, &c),
               100.0 * (25165824 / 3350e9) / 5056e-9);
    CHECK("dram pct: no cache known: not cache-served", c == 0);
    CHECK("dram pct: 24 MiB in a 50 MiB cache at 148.58%: unknown", pf_dram_pct(s, 5056, 25165824, &cached, &c) < 0);
    CHECK("dram pct: ... and cache-served", c == 1);
    double s60 = pf_at_peak_s(62914560, 3350e9);
    /* 60 MiB in 5.056 us is 371.4% of the peak; at most 50 MiB came from the cache, the other
     * 10 MiB at 371.4 * 10/60 = 61.9%: within the peak, so cache-helped */
    CHECK("dram pct: 60 MiB, of which 10 MiB beyond a 50 MiB cache move within the peak: cache-served",
          pf_dram_pct(s60, 5056, 62914560, &cached, &c) < 0 && c == 1);
    /* 200 MiB at 150.0% (41734 ns): the 150 MiB beyond the cache would need 112.5% of the
     * peak, more than DRAM moves: the percentage stays (a formula or peak is wrong) */
    double s200 = pf_at_peak_s(209715200, 3350e9);
    CHECK_NEAR("dram pct: 200 MiB at 150%: the percentage stays", pf_dram_pct(s200, 41734, 209715200, &cached, &c),
               100.0 * (209715200 / 3350e9) / 41734e-9);
    CHECK("dram pct: 200 MiB at 150%: not cache-served", c == 0);
    CHECK_NEAR("dram pct: below 100 is the percentage, cache or not", pf_dram_pct(s, 10000, 25165824, &cached, &c),
               100.0 * (25165824 / 3350e9) / 10000e-9);
    CHECK("dram pct: below 100: not cache-served", c == 0);
    CHECK("dram pct: a NULL flag is allowed", pf_dram_pct(s, 5056, 25165824, &cached, NULL) < 0);
}

int main(void)
{
    dram_pct();
    peak_dtypes();
    tf32_kernels();
    peaks();
    at_peak();
    achieved();
    percent();
    bound();
    rows();
    CHECK_DONE();
}
