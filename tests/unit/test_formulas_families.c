/* test_formulas_families.c - unit tests of the 2026 op families (grouped and int8 GEMMs, fused optimizers, _foreach_, cuDNN RNN, FFT, upsample, max pooling, sort/topk/cumsum) and the serving ops (vLLM, SGLang, aiter), each against figures worked out by hand from the shapes. */
#include <string.h>

#include "check.h"
#include "formula_fixtures.h"
#include "profana/formulas.h"
#include "profana/op_family.h"

#define I8(...) tensor("signed char", __VA_ARGS__)
#define U8(...) tensor("unsigned char", __VA_ARGS__)
#define C64(...) tensor("c10::complex<float>", __VA_ARGS__)

static void ok(const char *name, int rc, const pf_work *w, double flop, double bytes, pf_dtype dt, int matrix,
               int ub, const char *source)
{
    check_work(name, rc, w, flop, bytes, dt, matrix, ub, 0, source);
}

/* ---- GEMMs ---- */

static void test_grouped_mm(void)
{
    pf_work w;
    /* 2-D x 3-D: [64, 32] x [4, 32, 16], offs int [4]: every row through one expert, out [64, 16].
     * flop 2*64*16*32 = 65536; bytes 64*32*2 + 4*32*16*2 + 4*4 + 64*16*2 = 4096 + 4096 + 16 + 2048 */
    int rc = RUN("aten::_grouped_mm", &w, BF16(2, 64, 32), BF16(3, 4, 32, 16), I32(1, 4), NONE, NONE);
    ok("grouped 2d x 3d", rc, &w, 65536, 10256, PF_DT_BF16, PF_MATRIX_GEMM, 0, "gemm");
    /* 3-D x 3-D: [4, 8, 32] x [4, 32, 16] -> [4, 8, 16]: flop 2*4*8*16*32 = 32768;
     * bytes 2048 + 4096 + 4*8*16*2 (1024) = 7168 */
    rc = RUN("aten::_grouped_mm", &w, BF16(3, 4, 8, 32), BF16(3, 4, 32, 16));
    ok("grouped 3d x 3d", rc, &w, 32768, 7168, PF_DT_BF16, PF_MATRIX_GEMM, 0, "gemm");
    /* 2-D x 2-D, K cut into 4 groups by offs: [8, 64] x [64, 16] -> [4, 8, 16]:
     * flop 2*8*16*64 = 16384; bytes 1024 + 2048 + 16 + 4*8*16*2 (1024) = 4112 */
    rc = RUN("aten::_grouped_mm", &w, BF16(2, 8, 64), BF16(2, 64, 16), I32(1, 4));
    ok("grouped 2d x 2d", rc, &w, 16384, 4112, PF_DT_BF16, PF_MATRIX_GEMM, 0, "gemm");
    rc = RUN("aten::_grouped_mm", &w, BF16(2, 8, 64), BF16(2, 64, 16));
    check_refused("grouped 2d x 2d without offs", rc, &w, PF_FORMULA_BAD_ARGS);
    rc = RUN("aten::_grouped_mm", &w, BF16(3, 4, 8, 32), BF16(3, 3, 32, 16));
    check_refused("grouped 3d x 3d, groups differ", rc, &w, PF_FORMULA_MISMATCH);
    rc = RUN("aten::_grouped_mm", &w, BF16(2, 64, 32), BF16(3, 4, 16, 16), I32(1, 4));
    check_refused("grouped inner dims differ", rc, &w, PF_FORMULA_MISMATCH);
    /* _scaled_grouped_mm(fp8 [64, 32], fp8 [4, 32, 16], row-wise scale_a [64] fp32, scale_b
     * [4, 16] fp32, offs [4]) -> bf16 [64, 16]: 2048 + 2048 + 256 + 256 + 16 + 2048 = 6672 */
    rc = RUN("aten::_scaled_grouped_mm", &w, FP8(2, 64, 32), FP8(3, 4, 32, 16), F32(1, 64), F32(2, 4, 16),
             I32(1, 4), NONE, NONE, NONE, VAL("False"));
    ok("scaled grouped", rc, &w, 65536, 6672, PF_DT_FP8, PF_MATRIX_GEMM, 0, "gemm");
}

static void test_int_and_scaled_mm(void)
{
    pf_work w;
    /* _int_mm(int8 [32, 64], int8 [64, 16]) -> int32 [32, 16]: flop 2*32*16*64 = 65536;
     * bytes 2048 + 1024 + 32*16*4 = 5120 */
    int rc = RUN("aten::_int_mm", &w, I8(2, 32, 64), I8(2, 64, 16));
    ok("int_mm", rc, &w, 65536, 5120, PF_DT_INT8, PF_MATRIX_GEMM, 0, "gemm");
    /* row-wise _scaled_mm: scale_a [1024, 1] and scale_b [1, 2048] fp32 are read:
     * 524288 + 1048576 + 4096 + 8192 + 1024*2048*2 (4194304) = 5779456 */
    rc = RUN("aten::_scaled_mm", &w, FP8(2, 1024, 512), FP8(2, 512, 2048), F32(2, 1024, 1), F32(2, 1, 2048), NONE,
             NONE, VAL("15"), VAL("False"));
    ok("scaled_mm row-wise", rc, &w, 2147483648.0, 5779456, PF_DT_FP8, PF_MATRIX_GEMM, 0, "gemm");
    /* block-wise: scale_a [1024, 4], scale_b [4, 16] (128-blocks of K and N): 16384 + 256 */
    rc = RUN("aten::_scaled_mm", &w, FP8(2, 1024, 512), FP8(2, 512, 2048), F32(2, 1024, 4), F32(2, 4, 16), NONE,
             NONE, VAL("15"), VAL("False"));
    ok("scaled_mm block-wise", rc, &w, 2147483648.0, 524288 + 1048576 + 16384 + 256 + 4194304, PF_DT_FP8,
       PF_MATRIX_GEMM, 0, "gemm");
}

/* ---- tensor lists ---- */

static void test_optimizers(void)
{
    pf_work w;
    /* _fused_adamw_(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs (empty: no amsgrad),
     * state_steps (4 scalars), lr, ...): 1000 elements per list at DTYPE fp32: params and both
     * moments read and written 2*3000, grads read 1000: 7000*4 = 28000, steps 4*4 = 16;
     * flop one per element written: 3000 */
    int rc = RUN_EX("aten::_fused_adamw_", PF_DT_FP32, NULL, &w, tensor_list(1000), tensor_list(1000),
                    tensor_list(1000), tensor_list(1000), tensor_list(0), tensor_list(4), VAL("0.001"), VAL("0.9"),
                    VAL("0.999"), VAL("0.01"), VAL("1e-08"), VAL("False"), VAL("False"), NONE, NONE);
    ok("fused adamw", rc, &w, 3000, 28016, PF_DT_UNKNOWN, PF_MATRIX_NONE, 0, "optimizer~dtype");
    CHECK("fused adamw: assumed dtype flagged", w.assumed_dtype == 1);
    /* with amsgrad the max list is read and written too: +2*1000*4 */
    rc = RUN_EX("aten::_fused_adam_", PF_DT_FP32, NULL, &w, tensor_list(1000), tensor_list(1000), tensor_list(1000),
                tensor_list(1000), tensor_list(1000), tensor_list(4), VAL("0.001"));
    ok("fused adam amsgrad", rc, &w, 4000, 36016, PF_DT_UNKNOWN, PF_MATRIX_NONE, 0, "optimizer~dtype");
    /* without DTYPE the element size is unknown: bytes unknown, not guessed */
    rc = RUN("aten::_fused_adamw_", &w, tensor_list(1000), tensor_list(1000), tensor_list(1000), tensor_list(1000),
             tensor_list(0), tensor_list(4), VAL("0.001"));
    CHECK("fused adamw without DTYPE: bytes unknown", rc == PF_FORMULA_OK && w.bytes == -1 && w.flop == 3000);
    /* _fused_sgd_(params, grads, momentum buffers) in bf16: (2*2000 + 1000)*2 = 10000 */
    rc = RUN_EX("aten::_fused_sgd_", PF_DT_BF16, NULL, &w, tensor_list(1000), tensor_list(1000), tensor_list(1000),
                VAL("0"), VAL("0.9"));
    ok("fused sgd", rc, &w, 2000, 10000, PF_DT_UNKNOWN, PF_MATRIX_NONE, 0, "optimizer~dtype");
    /* every list recorded [] (a T5 step's _fused_adamw_, 6.6% of a MoE step's GPU time): no
     * figures, not 0 bytes, with DTYPE or without; the explanation says why */
    pf_explain ex;
    rc = RUN_EX("aten::_fused_adamw_", PF_DT_BF16, &ex, &w, bare_list(), bare_list(), bare_list(), bare_list(),
                bare_list(), bare_list(), VAL("0.0001"), VAL("0.9"), VAL("0.999"), VAL("0.01"), VAL("1e-08"),
                VAL("False"), VAL("False"), NONE, NONE);
    check_refused("fused adamw, lists []", rc, &w, PF_FORMULA_UNRECORDED);
    CHECK("fused adamw, lists []: explained", strstr(ex.sizes, "tensor-list shapes not recorded") != NULL);
    rc = RUN("aten::_fused_sgd_", &w, bare_list(), bare_list(), bare_list(), VAL("0"), VAL("0.9"));
    check_refused("fused sgd, lists []", rc, &w, PF_FORMULA_UNRECORDED);
}

static void test_foreach(void)
{
    pf_work w;
    /* _foreach_add_(self, other) in place, bf16: read 200, write 100: 300*2 = 600 */
    int rc = RUN_EX("aten::_foreach_add_", PF_DT_BF16, NULL, &w, tensor_list(100), tensor_list(100), VAL("1"));
    ok("foreach add_", rc, &w, 100, 600, PF_DT_UNKNOWN, PF_MATRIX_NONE, 0, "foreach~dtype");
    /* _foreach_mul(self, scalar) out of place: read 100, a new list of 100 written: 400 */
    rc = RUN_EX("aten::_foreach_mul", PF_DT_BF16, NULL, &w, tensor_list(100), VAL("2"));
    ok("foreach mul", rc, &w, 100, 400, PF_DT_UNKNOWN, PF_MATRIX_NONE, 0, "foreach~dtype");
    /* _foreach_zero_ writes without reading: 200 */
    rc = RUN_EX("aten::_foreach_zero_", PF_DT_BF16, NULL, &w, tensor_list(100));
    ok("foreach zero_", rc, &w, 100, 200, PF_DT_UNKNOWN, PF_MATRIX_NONE, 0, "foreach~dtype");
    /* _foreach_norm reads every element and writes one value per tensor (left out): 200 */
    rc = RUN_EX("aten::_foreach_norm", PF_DT_BF16, NULL, &w, tensor_list(100), VAL("2"));
    ok("foreach norm", rc, &w, 100, 200, PF_DT_UNKNOWN, PF_MATRIX_NONE, 0, "foreach~dtype");
    /* a 0-d fp32 tensor alpha is read at its own size: 400 + 4 */
    rc = RUN_EX("aten::_foreach_mul_", PF_DT_BF16, NULL, &w, tensor_list(100), F32(0));
    ok("foreach mul_ by a tensor", rc, &w, 100, 404, PF_DT_FP32, PF_MATRIX_NONE, 0, "foreach~dtype");
    rc = RUN_EX("aten::_foreach_add_", PF_DT_BF16, NULL, &w, F32(1, 4), tensor_list(100));
    check_refused("foreach without a list first", rc, &w, PF_FORMULA_BAD_ARGS);
    /* lists recorded [] (a ResNet's DDP _foreach_add_(list, list, alpha), a T5 step's
     * _foreach_add_(list, 1)): unknown, not 0 */
    rc = RUN_EX("aten::_foreach_add_", PF_DT_BF16, NULL, &w, bare_list(), bare_list(), VAL("-0.001"));
    check_refused("foreach add_, lists []", rc, &w, PF_FORMULA_UNRECORDED);
    rc = RUN_EX("aten::_foreach_sqrt", PF_DT_BF16, NULL, &w, bare_list());
    check_refused("foreach sqrt, list []", rc, &w, PF_FORMULA_UNRECORDED);
}

/* ---- RNN ---- */

static void test_rnn(void)
{
    pf_work w;
    /* LSTM (mode 2), [T=5, B=2, I=10], hidden 20, one layer, one direction: 10 tokens;
     * flop 2*10*4*20*(10 + 20) = 48000. Weights: the list of 4*20*30 + 2*4*20 = 2560 at the
     * input's 4 bytes = 10240; input 400, hx and cx [1, 2, 20] 160 each read and hy, cy
     * written: 640; output [5, 2, 20] 800: 12080 */
    int rc = RUN("aten::_cudnn_rnn", &w, F32(3, 5, 2, 10), tensor_list(2560), VAL("4"), NONE, F32(3, 1, 2, 20),
                 F32(3, 1, 2, 20), VAL("2"), VAL("20"), VAL("0"), VAL("1"), VAL("False"), VAL("0."), VAL("True"),
                 VAL("False"), LIST("[]"), NONE);
    ok("lstm forward", rc, &w, 48000, 12080, PF_DT_FP32, PF_MATRIX_GEMM, 0, "rnn");
    /* GRU (mode 3), two layers, bidirectional: per token and direction 3*20*(10 + 20) +
     * 3*20*(40 + 20) = 5400; 2*10*2*5400 = 216000. weight_buf [8000] fp32 given: 32000;
     * hx, cx: [4, 2, 20] 640 each (cx given, counted); output 10*2*20*4 = 1600:
     * 400 + 32000 + 2*(640 + 640) + 1600 = 36560 */
    rc = RUN("aten::_cudnn_rnn", &w, F32(3, 5, 2, 10), tensor_list(8000), VAL("4"), F32(1, 8000), F32(3, 4, 2, 20),
             F32(3, 4, 2, 20), VAL("3"), VAL("20"), VAL("0"), VAL("2"), VAL("False"), VAL("0."), VAL("True"),
             VAL("True"), LIST("[]"), NONE);
    ok("gru bidirectional 2 layers", rc, &w, 216000, 36560, PF_DT_FP32, PF_MATRIX_GEMM, 0, "rnn");
    /* backward of the LSTM, all four gradients: flop 2*48000; reads input 400, weights 10240,
     * hx 160, cx 160, output 800, grad_output 800, reserve [100] fp32 400 = 12960; writes dx
     * 400, dhx 160, dcx 160, dw 10240 = 10960: 23920 */
    rc = RUN("aten::_cudnn_rnn_backward", &w, F32(3, 5, 2, 10), tensor_list(2560), VAL("4"), NONE, F32(3, 1, 2, 20),
             F32(3, 1, 2, 20), F32(3, 5, 2, 20), F32(3, 5, 2, 20), NONE, NONE, VAL("2"), VAL("20"), VAL("0"),
             VAL("1"), VAL("False"), VAL("0."), VAL("True"), VAL("False"), LIST("[]"), NONE, F32(1, 100),
             LIST("[True, True, True, True]"));
    ok("lstm backward", rc, &w, 96000, 23920, PF_DT_FP32, PF_MATRIX_GEMM, 0, "rnn");
    /* only the data gradients: one forward's FLOPs, dw not written: 23920 - 10240 */
    rc = RUN("aten::_cudnn_rnn_backward", &w, F32(3, 5, 2, 10), tensor_list(2560), VAL("4"), NONE, F32(3, 1, 2, 20),
             F32(3, 1, 2, 20), F32(3, 5, 2, 20), F32(3, 5, 2, 20), NONE, NONE, VAL("2"), VAL("20"), VAL("0"),
             VAL("1"), VAL("False"), VAL("0."), VAL("True"), VAL("False"), LIST("[]"), NONE, F32(1, 100),
             LIST("[True, True, True, False]"));
    ok("lstm backward data only", rc, &w, 48000, 13680, PF_DT_FP32, PF_MATRIX_GEMM, 0, "rnn");
    rc = RUN("aten::_cudnn_rnn", &w, F32(3, 5, 2, 10), tensor_list(2560), VAL("4"), NONE, F32(3, 1, 2, 20),
             F32(3, 1, 2, 20), VAL("7"), VAL("20"), VAL("0"), VAL("1"), VAL("False"), VAL("0."), VAL("True"),
             VAL("False"), LIST("[]"), NONE);
    check_refused("rnn unknown mode", rc, &w, PF_FORMULA_BAD_ARGS);
}

/* ---- FFT: 5*N*log2(N) per complex transform of N points, half for real ones ---- */

static void test_fft(void)
{
    pf_work w;
    /* r2c of [4, 1024] fp32 over dim 1, onesided: 4 transforms of 1024 real points:
     * 2.5*4*1024*10 = 102400; bytes 4096*4 + 4*513*8 = 16384 + 16416 = 32800 */
    int rc = RUN("aten::_fft_r2c", &w, F32(2, 4, 1024), LIST("[1]"), VAL("0"), VAL("True"));
    ok("fft r2c", rc, &w, 102400, 32800, PF_DT_FP32, PF_MATRIX_NONE, 0, "fft");
    /* c2r back to 1024 real points: the same FLOPs, the same bytes the other way */
    rc = RUN("aten::_fft_c2r", &w, C64(2, 4, 513), LIST("[1]"), VAL("0"), VAL("1024"));
    ok("fft c2r", rc, &w, 102400, 32800, PF_DT_FP32, PF_MATRIX_NONE, 0, "fft");
    /* c2c of [4, 256] complex64: 5*4*256*8 = 40960; bytes 2*1024*8 = 16384 */
    rc = RUN("aten::_fft_c2c", &w, C64(2, 4, 256), LIST("[-1]"), VAL("0"), VAL("True"));
    ok("fft c2c", rc, &w, 40960, 16384, PF_DT_FP32, PF_MATRIX_NONE, 0, "fft");
    /* 2-D c2c over [8, 16] of [2, 8, 16]: N = 128, 5*256*7 = 8960; bytes 2*256*8 = 4096 */
    rc = RUN("aten::_fft_c2c", &w, C64(3, 2, 8, 16), LIST("[1, 2]"), VAL("0"), VAL("True"));
    ok("fft 2-D c2c", rc, &w, 8960, 4096, PF_DT_FP32, PF_MATRIX_NONE, 0, "fft");
    rc = RUN("aten::_fft_c2c", &w, C64(2, 4, 256), LIST("[2]"), VAL("0"), VAL("True"));
    check_refused("fft dim out of range", rc, &w, PF_FORMULA_MISMATCH);
}

/* ---- upsample, max pooling ---- */

static void test_upsample(void)
{
    pf_work w;
    /* nearest [2, 3, 8, 8] -> [2, 3, 16, 16]: 1536 written; bytes (384 + 1536)*4 = 7680; 0 FLOP */
    int rc = RUN("aten::upsample_nearest2d", &w, F32(4, 2, 3, 8, 8), LIST("[16, 16]"), NONE, NONE);
    ok("upsample nearest", rc, &w, 0, 7680, PF_DT_FP32, PF_MATRIX_NONE, 0, "upsample");
    /* the .vec overload with scale_factors instead of output_size: the same */
    rc = RUN("aten::upsample_nearest2d", &w, F32(4, 2, 3, 8, 8), NONE, LIST("[2., 2.]"));
    ok("upsample nearest by scale", rc, &w, 0, 7680, PF_DT_FP32, PF_MATRIX_NONE, 0, "upsample");
    /* bilinear: 4 multiplies and 3 adds per output element: 7*1536 = 10752 */
    rc = RUN("aten::upsample_bilinear2d", &w, F32(4, 2, 3, 8, 8), LIST("[16, 16]"), VAL("False"), NONE, NONE);
    ok("upsample bilinear", rc, &w, 10752, 7680, PF_DT_FP32, PF_MATRIX_NONE, 0, "upsample");
    /* trilinear [1, 1, 2, 2, 2] -> [4, 4, 4]: 15*64 = 960; bytes (8 + 64)*4 = 288 */
    rc = RUN("aten::upsample_trilinear3d", &w, F32(5, 1, 1, 2, 2, 2), LIST("[4, 4, 4]"), VAL("False"));
    ok("upsample trilinear", rc, &w, 960, 288, PF_DT_FP32, PF_MATRIX_NONE, 0, "upsample");
    /* backward(grad_output [2, 3, 16, 16], output_size, input_size [2, 3, 8, 8]):
     * read 1536*4, write 384*4 = 7680 */
    rc = RUN("aten::upsample_nearest2d_backward", &w, F32(4, 2, 3, 16, 16), LIST("[16, 16]"), LIST("[2, 3, 8, 8]"),
             NONE, NONE);
    ok("upsample nearest backward", rc, &w, 0, 7680, PF_DT_FP32, PF_MATRIX_NONE, 0, "upsample");
    rc = RUN("aten::_upsample_nearest_exact2d", &w, F32(4, 2, 3, 8, 8), LIST("[16, 16]"), NONE, NONE);
    ok("upsample nearest exact (prefix)", rc, &w, 0, 7680, PF_DT_FP32, PF_MATRIX_NONE, 0, "upsample");
    rc = RUN("aten::upsample_nearest2d", &w, F32(4, 2, 3, 8, 8), NONE, NONE);
    check_refused("upsample without a size", rc, &w, PF_FORMULA_BAD_ARGS);
}

static void test_max_pool(void)
{
    {
        /* the fuzzer's find: a backward with one argument was read at args[1] before its
         * count was checked (ASan in make check catches a regression) */
        pf_work w0;
        CHECK("max pool backward with one argument: bad-args, nothing read past it",
              RUN("aten::max_pool2d_with_indices_backward", &w0, BF16(4, 1, 1, 2, 2)) == PF_FORMULA_BAD_ARGS);
    }
    pf_work w;
    /* cnn_fp32's max_pool2d_with_indices([32, 64, 64, 64], [2, 2]): out [32, 64, 32, 32] =
     * 2097152; bytes 8388608*4 + 2097152*(4 + 8) = 33554432 + 25165824 = 58720256 */
    int rc = RUN("aten::max_pool2d_with_indices", &w, F32(4, 32, 64, 64, 64), LIST("[2, 2]"), LIST("[]"),
                 LIST("[0, 0]"), LIST("[1, 1]"), VAL("False"));
    ok("max_pool2d", rc, &w, 0, 58720256, PF_DT_FP32, PF_MATRIX_NONE, 0, "pool");
    /* its backward reads grad [32,64,32,32] and indices, writes grad_input like self:
     * 2097152*4 + 2097152*8 + 8388608*4 = 58720256 */
    rc = RUN("aten::max_pool2d_with_indices_backward", &w, F32(4, 32, 64, 32, 32), F32(4, 32, 64, 64, 64),
             LIST("[2, 2]"), LIST("[]"), LIST("[0, 0]"), LIST("[1, 1]"), VAL("False"), LONG(4, 32, 64, 32, 32));
    ok("max_pool2d backward", rc, &w, 0, 58720256, PF_DT_FP32, PF_MATRIX_NONE, 0, "pool");
    /* [1, 1, 6, 6], kernel 3, stride 2: floor mode 2x2 out, 36*4 + 4*12 = 192; ceil mode 3x3,
     * 144 + 9*12 = 252 */
    rc = RUN("aten::max_pool2d_with_indices", &w, F32(4, 1, 1, 6, 6), LIST("[3, 3]"), LIST("[2, 2]"),
             LIST("[0, 0]"), LIST("[1, 1]"), VAL("False"));
    ok("max_pool2d floor", rc, &w, 0, 192, PF_DT_FP32, PF_MATRIX_NONE, 0, "pool");
    rc = RUN("aten::max_pool2d_with_indices", &w, F32(4, 1, 1, 6, 6), LIST("[3]"), LIST("[2]"), LIST("[0]"),
             LIST("[1]"), VAL("True"));
    ok("max_pool2d ceil", rc, &w, 0, 252, PF_DT_FP32, PF_MATRIX_NONE, 0, "pool");
    /* 3-D: [1, 4, 8, 8, 8], kernel 2: 4*64 out: 2048*4 + 256*12 = 11264 */
    rc = RUN("aten::max_pool3d_with_indices", &w, F32(5, 1, 4, 8, 8, 8), LIST("[2, 2, 2]"), LIST("[]"),
             LIST("[0, 0, 0]"), LIST("[1, 1, 1]"), VAL("False"));
    ok("max_pool3d", rc, &w, 0, 11264, PF_DT_FP32, PF_MATRIX_NONE, 0, "pool");
}

/* ---- sort, topk, cumsum ---- */

static void test_sort_scan(void)
{
    pf_work w;
    /* topk(float [8, 1000], 5): 40 values and int64 indices: 32000 + 40*12 = 32480 */
    int rc = RUN("aten::topk", &w, F32(2, 8, 1000), VAL("5"), VAL("-1"), VAL("True"), VAL("True"));
    ok("topk", rc, &w, 0, 32480, PF_DT_FP32, PF_MATRIX_NONE, 0, "sort");
    rc = RUN("aten::topk", &w, F32(2, 8, 1000), VAL("5"), VAL("0"), VAL("True"), VAL("True"));
    ok("topk along dim 0", rc, &w, 0, 32000 + 5000 * 12, PF_DT_FP32, PF_MATRIX_NONE, 0, "sort");
    rc = RUN("aten::topk", &w, F32(2, 8, 1000), VAL("9"), VAL("0"), VAL("True"), VAL("True"));
    check_refused("topk k above the dim", rc, &w, PF_FORMULA_MISMATCH);
    /* sort(bf16 [4, 100]): 800 + 400*(2 + 8) = 4800 */
    rc = RUN("aten::sort", &w, BF16(2, 4, 100), VAL("-1"), VAL("False"));
    ok("sort", rc, &w, 0, 4800, PF_DT_BF16, PF_MATRIX_NONE, 0, "sort");
    /* cumsum(float [4, 100], 1): one add per element, 400; 400*4*2 = 3200 */
    rc = RUN("aten::cumsum", &w, F32(2, 4, 100), VAL("1"), NONE);
    ok("cumsum", rc, &w, 400, 3200, PF_DT_FP32, PF_MATRIX_NONE, 0, "scan");
    /* dtype=7 (double): 1600 + 400*8 = 4800 */
    rc = RUN("aten::cumsum", &w, F32(2, 4, 100), VAL("1"), VAL("7"));
    ok("cumsum to double", rc, &w, 400, 4800, PF_DT_FP32, PF_MATRIX_NONE, 0, "scan");
}

/* ---- serving ops ---- */

static void test_serving_io(void)
{
    pf_work w;
    /* sgl_kernel::silu_and_mul(out [15360, 12288], input [15360, 24576]) of the SGLang trace:
     * read 15360*24576*2 = 754974720, write 15360*12288*2 = 377487360: 1132462080; two FLOP
     * (activation, product) per element written: 377487360 */
    int rc = RUN("sgl_kernel::silu_and_mul", &w, BF16(2, 15360, 12288), BF16(2, 15360, 24576));
    ok("silu_and_mul", rc, &w, 377487360, 1132462080, PF_DT_BF16, PF_MATRIX_NONE, 0, "estimate");
    rc = RUN("_C::gelu_and_mul", &w, BF16(2, 4, 8), BF16(2, 4, 16));
    ok("gelu_and_mul", rc, &w, 64, 192, PF_DT_BF16, PF_MATRIX_NONE, 0, "estimate");
    /* _C::rms_norm(out, input [888, 2880], weight [2880], eps): 2*888*2880*2 + 5760 = 10235520 */
    rc = RUN("_C::rms_norm", &w, BF16(2, 888, 2880), BF16(2, 888, 2880), BF16(1, 2880), VAL("1e-05"));
    ok("rms_norm", rc, &w, 0, 10235520, PF_DT_BF16, PF_MATRIX_NONE, 0, "estimate");
    /* _C::fused_add_rms_norm(input, residual, weight, eps): both read and written in place:
     * 4*888*2880*2 + 5760 = 20465280 */
    rc = RUN("_C::fused_add_rms_norm", &w, BF16(2, 888, 2880), BF16(2, 888, 2880), BF16(1, 2880), VAL("1e-05"));
    ok("fused_add_rms_norm", rc, &w, 0, 20465280, PF_DT_BF16, PF_MATRIX_NONE, 0, "estimate");
    /* aiter::add_rmsnorm(out, input, residual_in, residual_out, weight, eps) of the SGLang
     * trace, [15360, 4096]: 4*15360*4096*2 + 8192 = 503324672 */
    rc = RUN("aiter::add_rmsnorm", &w, BF16(2, 15360, 4096), BF16(2, 15360, 4096), BF16(2, 15360, 4096),
             BF16(2, 15360, 4096), BF16(1, 4096), VAL("1e-06"));
    ok("aiter add_rmsnorm", rc, &w, 0, 503324672, PF_DT_BF16, PF_MATRIX_NONE, 0, "estimate");
    /* aiter::rmsnorm(out, input, weight, eps): 2*15360*4096*2 + 8192 = 251666432 */
    rc = RUN("aiter::rmsnorm", &w, BF16(2, 15360, 4096), BF16(2, 15360, 4096), BF16(1, 4096), VAL("1e-06"));
    ok("aiter rmsnorm", rc, &w, 0, 251666432, PF_DT_BF16, PF_MATRIX_NONE, 0, "estimate");
    /* aiter::rms_norm(input [32, 2880], weight, eps, 0) returns out: 2*184320 + 5760 = 374400 */
    rc = RUN("aiter::rms_norm", &w, BF16(2, 32, 2880), BF16(1, 2880), VAL("1e-05"), VAL("0"));
    ok("aiter rms_norm", rc, &w, 0, 374400, PF_DT_BF16, PF_MATRIX_NONE, 0, "estimate");
    rc = RUN("_C::rms_norm", &w, BF16(2, 888, 2880), VAL("1"));
    check_refused("rms_norm missing tensors", rc, &w, PF_FORMULA_BAD_ARGS);
}

static void test_kv_cache(void)
{
    pf_work w;
    /* reshape_and_cache_flash of the vLLM B200 trace: key and value [888, 1, 64] bf16 read
     * (113664 each), the same 56832 elements written into each fp8 (uint8) cache: 113664,
     * slot_mapping [888] int64 7104, k_scale and v_scale 0-d fp32 8: 348104. The caches
     * ([4213816, 16, 1, 64], 4.3 GB each) are not read. */
    int rc = RUN("_C_cache_ops::reshape_and_cache_flash", &w, BF16(3, 888, 1, 64), BF16(3, 888, 1, 64),
                 U8(4, 4213816, 16, 1, 64), U8(4, 4213816, 16, 1, 64), LONG(1, 888), NONE, F32(0), F32(0));
    ok("reshape_and_cache_flash", rc, &w, 0, 348104, PF_DT_BF16, PF_MATRIX_NONE, 0, "kv-cache");
    /* sglang::store_cache(k, v [15360, 1024] bf16, k_cache, v_cache [835874, 1024], indices
     * [15360] int64): 4*15360*1024*2 + 15360*8 = 125829120 + 122880 = 125952000 */
    rc = RUN("sglang::store_cache", &w, BF16(2, 15360, 1024), BF16(2, 15360, 1024), BF16(2, 835874, 1024),
             BF16(2, 835874, 1024), LONG(1, 15360), VAL("2048"), VAL("0"));
    ok("store_cache", rc, &w, 0, 125952000, PF_DT_BF16, PF_MATRIX_NONE, 0, "kv-cache");
    /* concat_and_cache_mla(kv_c [4, 512], k_pe [4, 64], kv_cache fp8, slots [4]):
     * (2048 + 256)*2 read + 2304 written at 1 byte + 32 + a 0-d fp32 scale 4 = 6948 */
    rc = RUN("_C_cache_ops::concat_and_cache_mla", &w, BF16(2, 4, 512), BF16(2, 4, 64), U8(3, 100, 16, 576),
             LONG(1, 4), NONE, F32(0));
    ok("concat_and_cache_mla", rc, &w, 0, 4096 + 512 + 2304 + 32 + 4, PF_DT_BF16, PF_MATRIX_NONE, 0, "kv-cache");
}

static void test_rotary(void)
{
    pf_work w;
    /* _C::rotary_embedding(positions [888], query [888, 512], key [888, 64], 64, cache
     * [131072, 64], True) of the vLLM trace: 511488 elements rotated in place, 3 FLOP each:
     * 1534464; bytes 2*511488*2 + 888 cache rows*64*2 (113664) + 7104 = 2166720 */
    int rc = RUN("_C::rotary_embedding", &w, LONG(1, 888), BF16(2, 888, 512), BF16(2, 888, 64), VAL("64"),
                 BF16(2, 131072, 64), VAL("True"));
    ok("rotary", rc, &w, 1534464, 2166720, PF_DT_BF16, PF_MATRIX_NONE, 0, "rotary");
    /* partial rotary: head 128, rot_dim 64, q [10, 256], no key: 1280 rotated; 3840 FLOP;
     * 5120 + 10*64*2 + 80 = 6480 */
    rc = RUN("sgl_kernel::rotary_embedding", &w, LONG(1, 10), BF16(2, 10, 256), NONE, VAL("128"),
             BF16(2, 4096, 64), VAL("True"));
    ok("rotary partial, no key", rc, &w, 3840, 6480, PF_DT_BF16, PF_MATRIX_NONE, 0, "rotary");
}

static void test_varlen_attention(void)
{
    pf_work w;
    /* aiter::mha_batch_prefill of the SGLang trace: q [15360, 32, 128], paged k/v [835874, 8,
     * 128], cu_seqlens_q [16] (15 sequences), max_seqlen_q = max_seqlen_k = 1024, causal:
     * 15*1024 = 15360 tokens, so every sequence is 1024 long: exact.
     * flop 2*15*32*1024*1024*(128 + 128)/2 = 128849018880;
     * bytes q + out 2*15360*32*128*2 = 251658240, K and V of 15*1024 tokens x 8 heads x 128
     * x 2 bytes x 2 = 62914560, cu_seqlens_q, kv_indptr [16] and kv_page_indices [15616]
     * int32 = 62592: 314635392 */
    pf_arg args[18];
    args[0] = BF16(3, 15360, 32, 128);
    args[1] = args[2] = BF16(3, 835874, 8, 128);
    args[3] = args[4] = I32(1, 16);
    args[5] = I32(1, 15616);
    args[6] = args[7] = VAL("1024");
    args[8] = VAL("0.");
    args[9] = VAL("0.088388347648318447");
    args[10] = VAL("0.");
    args[11] = VAL("False");
    args[12] = VAL("True");
    args[13] = args[14] = VAL("-1");
    args[15] = VAL("0");
    args[16] = args[17] = VAL("False");
    int rc = run_args("aiter::mha_batch_prefill", &w, args, 18);
    ok("mha_batch_prefill", rc, &w, 128849018880.0, 314635392.0, PF_DT_BF16, PF_MATRIX_GEMM, 0, "attention");
    /* 1000 packed tokens over 15 sequences: some shorter than 1024, the figures a ceiling */
    args[0] = BF16(3, 1000, 32, 128);
    rc = run_args("aiter::mha_batch_prefill", &w, args, 18);
    ok("mha_batch_prefill ragged", rc, &w, 128849018880.0, 2.0 * 1000 * 32 * 128 * 2 + 62914560 + 62592,
       PF_DT_BF16, PF_MATRIX_GEMM, 1, "attention~ub");
    /* paged_attention_v1(out, query [4, 32, 128], key_cache [100, 8, 16, 16, 8], value_cache
     * [100, 8, 128, 16], 8, scale, block_tables [4, 32], seq_lens [4], 16, max_seq_len 512):
     * decode, one query per sequence, up to 512 keys: 2*4*32*1*512*256 = 33554432;
     * q + out 65536, K and V 2*4*512*8*128*2 = 8388608, 512 + 16: 8454672; a ceiling */
    rc = RUN("_C::paged_attention_v1", &w, BF16(3, 4, 32, 128), BF16(3, 4, 32, 128), BF16(5, 100, 8, 16, 16, 8),
             BF16(4, 100, 8, 128, 16), VAL("8"), VAL("0.08"), I32(2, 4, 32), I32(1, 4), VAL("16"), VAL("512"));
    ok("paged_attention_v1", rc, &w, 33554432, 8454672, PF_DT_BF16, PF_MATRIX_GEMM, 1, "attention~ub");
    rc = RUN("_C::paged_attention_v1", &w, BF16(3, 4, 32, 128), BF16(3, 4, 32, 128), BF16(5, 100, 7, 16, 16, 8),
             BF16(4, 100, 7, 128, 16), VAL("7"), VAL("0.08"), I32(2, 4, 32), I32(1, 4), VAL("16"), VAL("512"));
    check_refused("paged attention, heads not a multiple", rc, &w, PF_FORMULA_MISMATCH);
}

static void test_fused_moe(void)
{
    pf_work w;
    /* outplace_fused_experts(hidden [4, 64], w1 [8, 256, 64], w2 [8, 64, 128], topk_weights
     * [4, 2], topk_ids [4, 2]): 8 routed rows through 256*64 + 64*128 = 24576 weights:
     * 2*8*24576 = 393216 FLOP. Up to min(8, 4*2) = 8 experts reached: all weights, 262144 +
     * 131072; hidden read and output written 2*512; routing 32 + 32: 394304, a ceiling */
    int rc = RUN("vllm::outplace_fused_experts", &w, BF16(2, 4, 64), BF16(3, 8, 256, 64), BF16(3, 8, 64, 128),
                 F32(2, 4, 2), I32(2, 4, 2));
    ok("fused moe", rc, &w, 393216, 394304, PF_DT_BF16, PF_MATRIX_GEMM, 1, "moe~ub");
    /* one token, top-2: 2 of 8 experts at most: 393216*2/8 = 98304; 256 + 8 + 8 */
    rc = RUN("sglang::inplace_fused_experts", &w, BF16(2, 1, 64), BF16(3, 8, 256, 64), BF16(3, 8, 64, 128),
             F32(2, 1, 2), I32(2, 1, 2));
    ok("fused moe one token", rc, &w, 98304, 98576, PF_DT_BF16, PF_MATRIX_GEMM, 1, "moe~ub");
    rc = RUN("vllm::outplace_fused_experts", &w, BF16(2, 4, 64), BF16(3, 8, 256, 64), BF16(3, 7, 64, 128),
             F32(2, 4, 2), I32(2, 4, 2));
    check_refused("fused moe experts differ", rc, &w, PF_FORMULA_MISMATCH);
}

/* vllm::moe_forward(hidden, router_logits, layer_name) with the given nested ops. */
static int run_moe_forward(pf_work *w, const pf_arg *hidden, int tokens, const pf_op_call *nested, int n_nested)
{
    pf_arg args[3] = {*hidden, BF16(2, tokens, 8), scalar("", "")};
    pf_op_nest nest = {nested, n_nested};
    pf_op_call call = {.name = "vllm::moe_forward", .nargs = 3, .args = args, .nested = n_nested ? &nest : NULL};
    return pf_formula_apply(&call, w);
}

static void test_moe_forward(void)
{
    pf_work w;
    pf_arg h4 = BF16(2, 4, 64), h1 = BF16(2, 1, 64);
    pf_arg topk[] = {BF16(2, 4, 8), VAL("2"), VAL("True")};
    pf_arg topk1[] = {BF16(2, 1, 8), VAL("2"), VAL("True")};
    pf_arg softmax[] = {F32(2, 4, 2), I32(2, 4, 2), I32(2, 4, 2), BF16(2, 4, 8)};
    pf_arg view_w1[] = {U8(3, 8, 32, 256), LIST("[8, 32, 256]")}; /* mxfp4: K = 2*32 = 64 */
    pf_arg view_w2[] = {U8(3, 8, 64, 64), LIST("[8, 64, 64]")};   /* I = 2*64 = 128 = 256/2 */
    pf_arg view_h[] = {BF16(2, 4, 64), LIST("[256]")};
    pf_arg bf_w1[] = {BF16(3, 8, 64, 256)}, bf_w2[] = {BF16(3, 8, 128, 64)};
    pf_arg bad_w2[] = {U8(3, 8, 64, 32)};
    pf_op_call packed[] = {{.name = "TopK", .nargs = 3, .args = topk}, {.name = "aten::view", .nargs = 2, .args = view_h},
                           {.name = "aten::view", .nargs = 2, .args = view_w1}, {.name = "aten::view", .nargs = 2, .args = view_w1},
                           {.name = "aten::view", .nargs = 2, .args = view_w2}};
    /* T=4, H=64, k=2, E=8; w1 [8, 64, 256] unpacked (N1 = 256), w2 [8, 128, 64] (I = 128,
     * gated): 2*4*2*(64*256 + 128*64) = 393216 FLOP. Bytes: hidden read and output written
     * 2*512, logits 64, every weight (min(8, 4*2) = 8 experts reached) 65536 + 32768: 99392 */
    int rc = run_moe_forward(&w, &h4, 4, packed, 5);
    ok("moe_forward packed weights from nested views", rc, &w, 393216, 99392, PF_DT_BF16, PF_MATRIX_GEMM, 1,
       "moe~ub");
    /* one token, top-2: 2 of 8 experts at most: 98304*2/8 = 24576; 2*128 + 16; FLOP 2*1*2*24576 */
    pf_op_call one[] = {{.name = "TopK", .nargs = 3, .args = topk1}, {.name = "aten::view", .nargs = 2, .args = view_w1},
                        {.name = "aten::view", .nargs = 2, .args = view_w2}};
    rc = run_moe_forward(&w, &h1, 1, one, 3);
    ok("moe_forward one token", rc, &w, 98304, 24848, PF_DT_BF16, PF_MATRIX_GEMM, 1, "moe~ub");
    /* bf16 weights, k from topk_softmax's weights [4, 2]: the same FLOP; weights
     * (131072 + 65536)*2 bytes + 1024 + 64 */
    pf_op_call plain[] = {{.name = "_moe_C::topk_softmax", .nargs = 4, .args = softmax}, {.name = "aten::view", .nargs = 1, .args = bf_w1},
                          {.name = "aten::view", .nargs = 1, .args = bf_w2}};
    rc = run_moe_forward(&w, &h4, 4, plain, 3);
    ok("moe_forward bf16 weights, topk_softmax", rc, &w, 393216, 394304, PF_DT_BF16, PF_MATRIX_GEMM, 1, "moe~ub");
    rc = run_moe_forward(&w, &h4, 4, NULL, 0);
    check_refused("moe_forward without nested ops", rc, &w, PF_FORMULA_UNRECORDED);
    rc = run_moe_forward(&w, &h4, 4, packed, 3); /* no second weight */
    check_refused("moe_forward with one weight", rc, &w, PF_FORMULA_UNRECORDED);
    pf_op_call nochain[] = {{.name = "TopK", .nargs = 3, .args = topk}, {.name = "aten::view", .nargs = 2, .args = view_w1},
                            {.name = "aten::view", .nargs = 1, .args = bad_w2}};
    rc = run_moe_forward(&w, &h4, 4, nochain, 3);
    check_refused("moe_forward weights that do not chain", rc, &w, PF_FORMULA_MISMATCH);
    CHECK("moe_forward reads its nested ops", pf_op_family_reads_nested("vllm::moe_forward"));
    CHECK("fused_experts does not", !pf_op_family_reads_nested("vllm::outplace_fused_experts"));
}

static void test_registry_words(void)
{
    CHECK_STR("rnn word", pf_formula_lookup("aten::_cudnn_rnn")->family, "rnn");
    CHECK_STR("fft word", pf_formula_lookup("aten::_fft_r2c")->family, "fft");
    CHECK_STR("foreach by prefix", pf_formula_lookup("aten::_foreach_addcmul_")->family, "foreach");
    CHECK_STR("upsample by prefix", pf_formula_lookup("aten::upsample_bicubic2d_backward")->family, "upsample");
    CHECK_STR("kv-cache word", pf_formula_lookup("sglang::store_cache")->family, "kv-cache");
    CHECK_STR("grouped mm", pf_formula_lookup("aten::_grouped_mm")->family, "gemm");
    CHECK_STR("serving attention", pf_formula_lookup("aiter::mha_batch_prefill")->family, "attention");
    CHECK("a prefix alone is no op", pf_formula_lookup("aten::_foreach") == NULL);
}

int main(void)
{
    test_grouped_mm();
    test_moe_forward();
    test_int_and_scaled_mm();
    test_optimizers();
    test_foreach();
    test_rnn();
    test_fft();
    test_upsample();
    test_max_pool();
    test_sort_scan();
    test_serving_io();
    test_kv_cache();
    test_rotary();
    test_varlen_attention();
    test_fused_moe();
    test_registry_words();
    CHECK_DONE();
}
