/* test_formulas.c - unit tests of the GEMM and convolution formulas, the Concrete Inputs parsers and the registry. */
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "formula_fixtures.h"
#include "profana/formulas.h"
#include "profana/op_family.h"

/* ---- fixtures ---- */

/* GEMM and convolution: matrix units (a convolution's apart: PyTorch runs fp32 ones on TF32
 * by default), exact figures. */
static void check_ok(const char *name, int rc, const pf_work *w, double flop, double bytes,
                     pf_dtype dtype, const char *source)
{
    int matrix = strcmp(source, "conv") == 0 ? PF_MATRIX_CONV : PF_MATRIX_GEMM;
    check_work(name, rc, w, flop, bytes, dtype, matrix, 0, 0, source);
}

/* ---- args.c ---- */

static void test_int_lists(void)
{
    int64_t v[4] = {0};
    CHECK("int list [1, 1]", pf_concrete_int_list("[1, 1]", v, 4) == 2 && v[0] == 1 && v[1] == 1);
    CHECK("int list []", pf_concrete_int_list("[]", v, 4) == 0);
    CHECK("int list bare 2", pf_concrete_int_list("2", v, 4) == 1 && v[0] == 2);
    CHECK("int list spaces", pf_concrete_int_list(" [ 4 ,5 ] ", v, 4) == 2 && v[0] == 4 && v[1] == 5);
    CHECK("int list negative", pf_concrete_int_list("[-3, 0]", v, 4) == 2 && v[0] == -3 && v[1] == 0);
    CHECK("int list truncated to max",
          pf_concrete_int_list("[2, 3, 4]", v, 2) == 2 && v[0] == 2 && v[1] == 3);
    CHECK("int list garbage", pf_concrete_int_list("abc", v, 4) == -1);
    CHECK("int list bad element", pf_concrete_int_list("[1, x]", v, 4) == -1);
    CHECK("int list bad tail past max", pf_concrete_int_list("[1, 2, x]", v, 1) == -1);
    CHECK("int list trailing comma", pf_concrete_int_list("[1,]", v, 4) == -1);
    CHECK("int list nested", pf_concrete_int_list("[[1, 2]]", v, 4) == -1);
    CHECK("int list missing comma", pf_concrete_int_list("[1 2]", v, 4) == -1);
    CHECK("int list unclosed", pf_concrete_int_list("[1, 2", v, 4) == -1);
    CHECK("int list empty text", pf_concrete_int_list("", v, 4) == -1);
    CHECK("int list NULL", pf_concrete_int_list(NULL, v, 4) == -1);
    CHECK("int list float", pf_concrete_int_list("[1.5]", v, 4) == -1);
}

static void test_ints_and_bools(void)
{
    int64_t x = 0;
    int b[4] = {0};
    CHECK("int 512", pf_concrete_int("512", &x) == 0 && x == 512);
    CHECK("int max", pf_concrete_int("9223372036854775807", &x) == 0 && x == INT64_MAX);
    CHECK("int min", pf_concrete_int("-9223372036854775808", &x) == 0 && x == INT64_MIN);
    CHECK("int overflow", pf_concrete_int("9223372036854775808", &x) == -1);
    CHECK("int huge", pf_concrete_int("99999999999999999999999", &x) == -1);
    CHECK("int float text", pf_concrete_int("0.", &x) == -1);
    CHECK("int exponent", pf_concrete_int("1e3", &x) == -1);
    CHECK("int empty", pf_concrete_int("", &x) == -1);
    CHECK("int sign only", pf_concrete_int("-", &x) == -1);
    CHECK("bool True", pf_concrete_bool("True") == 1);
    CHECK("bool False", pf_concrete_bool("False") == 0);
    CHECK("bool 1", pf_concrete_bool("1") == 1);
    CHECK("bool 0", pf_concrete_bool("0") == 0);
    CHECK("bool garbage", pf_concrete_bool("abc") == -1);
    CHECK("bool empty", pf_concrete_bool("") == -1);
    CHECK("bool NULL", pf_concrete_bool(NULL) == -1);
    CHECK("bool list", pf_concrete_bool_list("[True, False, True]", b, 4) == 3 && b[0] == 1 &&
                           b[1] == 0 && b[2] == 1);
    CHECK("bool list empty", pf_concrete_bool_list("[]", b, 4) == 0);
    CHECK("bool list garbage element", pf_concrete_bool_list("[True, maybe]", b, 4) == -1);
    CHECK("bool list not a list", pf_concrete_bool_list("True", b, 4) == -1);
}

static void test_numel_and_bytes(void)
{
    pf_arg big = F32(2, 0, 0);
    big.dims[0] = big.dims[1] = (int64_t)1 << 32; /* 2^64 elements: past int64 */
    pf_arg fits = F32(2, 0, 0);
    fits.dims[0] = fits.dims[1] = (int64_t)1 << 31; /* 2^62 */
    pf_arg list = {.is_list = 1, .list_numel = 10, .type = "TensorList", .concrete = ""};
    pf_arg negative = F32(2, 3, -1);
    CHECK("numel [2, 3, 4] = 24", pf_arg_numel(&(pf_arg){.ndim = 3, .dims = {2, 3, 4}, .type = "float"}) == 24);
    CHECK("numel 0-d tensor = 1", pf_arg_numel(&(pf_arg){.ndim = 0, .type = "float", .concrete = ""}) == 1);
    CHECK("numel Scalar = 0", pf_arg_numel(&(pf_arg){.ndim = 0, .type = "Scalar", .concrete = "1"}) == 0);
    CHECK("numel None = 0", pf_arg_numel(&(pf_arg){.ndim = 0, .type = "", .concrete = ""}) == 0);
    CHECK("numel list", pf_arg_numel(&list) == 10);
    CHECK("numel overflow", pf_arg_numel(&big) == -1);
    CHECK("numel 2^62", pf_arg_numel(&fits) == (int64_t)1 << 62);
    CHECK("numel negative dim", pf_arg_numel(&negative) == -1);
    /* bf16 [2, 3]: 6 x 2 = 12; long [5]: 5 x 8 = 40 */
    CHECK_NEAR("bytes bf16 [2, 3]", pf_arg_bytes(&(pf_arg){.ndim = 2, .dims = {2, 3}, .type = "c10::BFloat16"}), 12);
    CHECK_NEAR("bytes long [5]", pf_arg_bytes(&(pf_arg){.ndim = 1, .dims = {5}, .type = "long int"}), 40);
    CHECK_NEAR("bytes Scalar", pf_arg_bytes(&(pf_arg){.ndim = 0, .type = "Scalar", .concrete = "2"}), 0);
    CHECK("bytes overflow unknown", pf_arg_bytes(&big) < 0);
}

/* ---- gemm.c ---- */

static void test_mm(void)
{
    pf_work w;
    /* 2 x 2048 x 512 x 512 = 1073741824; (2048x512 + 512x512 + 2048x512) x 2
     * = (1048576 + 262144 + 1048576) x 2 = 4718592 */
    int rc = RUN("aten::mm", &w, BF16(2, 2048, 512), BF16(2, 512, 512));
    check_ok("mm bf16", rc, &w, 1073741824.0, 4718592.0, PF_DT_BF16, "gemm");
    /* out= variant: 2 x 64 x 16 x 32 = 65536; (64x32 + 32x16 + 64x16) x 4 = 3584 x 4 = 14336 */
    rc = RUN("aten::mm", &w, F32(2, 64, 32), F32(2, 32, 16), F32(2, 64, 16));
    check_ok("mm out variant", rc, &w, 65536.0, 14336.0, PF_DT_FP32, "gemm");
}

static void test_addmm(void)
{
    pf_work w;
    /* cnn_fp32's linear: 2 x 32 x 100 x 256 = 1638400;
     * (32x256 + 256x100 + 32x100 + bias 100) x 4 = (8192 + 25600 + 3200 + 100) x 4 = 148368 */
    int rc = RUN("aten::addmm", &w, F32(1, 100), F32(2, 32, 256), F32(2, 256, 100), VAL("1"), VAL("1"));
    check_ok("addmm 1-D bias", rc, &w, 1638400.0, 148368.0, PF_DT_FP32, "gemm");
    /* compiled trace's out= variant: 2 x 4096 x 1024 x 1024 = 8589934592;
     * (4096x1024 + 1024x1024 + 4096x1024 + 1024) x 2 = 9438208 x 2 = 18876416 */
    rc = RUN("aten::addmm", &w, BF16(1, 1024), BF16(2, 4096, 1024), BF16(2, 1024, 1024), VAL("1"),
             VAL("1"), BF16(2, 4096, 1024));
    check_ok("addmm out variant", rc, &w, 8589934592.0, 18876416.0, PF_DT_BF16, "gemm");
    rc = RUN("aten::addmm", &w, F32(1, 7), F32(2, 32, 256), F32(2, 256, 100), VAL("1"), VAL("1"));
    check_refused("addmm bias not broadcastable", rc, &w, PF_FORMULA_MISMATCH);
}

static void test_bmm(void)
{
    pf_work w;
    /* 2 x 16 x 256 x 256 x 512 = 1073741824; 16 x (256x512 + 512x256 + 256x256) x 4
     * = 16 x 327680 x 4 = 20971520 */
    int rc = RUN("aten::bmm", &w, F32(3, 16, 256, 512), F32(3, 16, 512, 256));
    check_ok("bmm", rc, &w, 1073741824.0, 20971520.0, PF_DT_FP32, "gemm");
    /* baddbmm adds C [16, 256, 256]: 20971520 + 16 x 256 x 256 x 4 = 20971520 + 4194304 = 25165824 */
    rc = RUN("aten::baddbmm", &w, F32(3, 16, 256, 256), F32(3, 16, 256, 512), F32(3, 16, 512, 256),
             VAL("1"), VAL("1"));
    check_ok("baddbmm", rc, &w, 1073741824.0, 25165824.0, PF_DT_FP32, "gemm");
    rc = RUN("aten::bmm", &w, F32(3, 4, 8, 16), F32(3, 2, 16, 8));
    check_refused("bmm batch differs", rc, &w, PF_FORMULA_MISMATCH);
    rc = RUN("aten::bmm", &w, F32(2, 8, 16), F32(2, 16, 8));
    check_refused("bmm on 2-D", rc, &w, PF_FORMULA_MISMATCH);
}

static void test_scaled_mm(void)
{
    pf_work w;
    /* fp8 [1024, 512] x [512, 2048] -> bf16 (out_dtype 15): 2 x 1024 x 2048 x 512 = 2147483648;
     * 1024x512 x 1 + 512x2048 x 1 + two fp32 0-d scales 2 x 4 + 1024x2048 x 2
     * = 524288 + 1048576 + 8 + 4194304 = 5767176 */
    int rc = RUN("aten::_scaled_mm", &w, FP8(2, 1024, 512), FP8(2, 512, 2048), F32(0), F32(0), NONE,
                 NONE, VAL("15"), VAL("False"));
    check_ok("scaled_mm bf16 out", rc, &w, 2147483648.0, 5767176.0, PF_DT_FP8, "gemm");
    /* out_dtype 6 = float: 524288 + 1048576 + 8 + 1024x2048 x 4 (8388608) = 9961480 */
    rc = RUN("aten::_scaled_mm", &w, FP8(2, 1024, 512), FP8(2, 512, 2048), F32(0), F32(0), NONE,
             NONE, VAL("6"), VAL("False"));
    check_ok("scaled_mm fp32 out", rc, &w, 2147483648.0, 9961480.0, PF_DT_FP8, "gemm");
    /* only the four required args: output defaults to 2 bytes, 5767176 as above */
    rc = RUN("aten::_scaled_mm", &w, FP8(2, 1024, 512), FP8(2, 512, 2048), F32(0), F32(0));
    check_ok("scaled_mm defaults", rc, &w, 2147483648.0, 5767176.0, PF_DT_FP8, "gemm");
    rc = RUN("aten::_scaled_mm", &w, FP8(2, 1024, 512), FP8(2, 512, 2048), F32(0), F32(0), NONE,
             NONE, VAL("bf16"), VAL("False"));
    check_refused("scaled_mm garbage out_dtype", rc, &w, PF_FORMULA_BAD_ARGS);
}

static void test_gemm_refusals(void)
{
    pf_work w;
    pf_arg huge = F32(2, 0, 0);
    huge.dims[0] = huge.dims[1] = (int64_t)1 << 40;
    int rc = RUN("aten::mm", &w, F32(2, 64, 32), F32(2, 16, 64));
    check_refused("mm inner dims differ", rc, &w, PF_FORMULA_MISMATCH);
    CHECK("mismatch leaves dtype unknown", w.dtype == PF_DT_UNKNOWN && w.matrix == 0);
    rc = RUN("aten::mm", &w, F32(2, 64, 32));
    check_refused("mm one arg", rc, &w, PF_FORMULA_BAD_ARGS);
    rc = RUN("aten::mm", &w, F32(2, 64, 32), F32(2, 32, 16), F32(2, 64, 16), F32(2, 64, 16));
    check_refused("mm four args", rc, &w, PF_FORMULA_BAD_ARGS);
    rc = RUN("aten::mm", &w, F32(2, 64, 32), VAL("2"));
    check_refused("mm scalar operand", rc, &w, PF_FORMULA_BAD_ARGS);
    rc = RUN("aten::mm", &w, huge, F32(2, 16, 16));
    check_refused("mm numel overflow", rc, &w, PF_FORMULA_BAD_ARGS);
    rc = RUN("aten::addmm", &w, VAL("1"), F32(2, 32, 256), F32(2, 256, 100), VAL("1"), VAL("1"));
    check_refused("addmm scalar self", rc, &w, PF_FORMULA_BAD_ARGS);
}

/* ---- conv.c: the three convolutions of cnn_fp32.json, through cudnn_convolution ---- */

static void test_conv_cnn_trace(void)
{
    pf_work w;
    /* [32,3,64,64] * [64,3,3,3], s1 p1: out (64 + 2 - 2 - 1)/1 + 1 = 64 -> [32,64,64,64].
     * FLOP 2 x 32 x 64 x 4096 x 3 x 9 = 452984832.
     * bytes (393216 + 1728 + 8388608) x 4 = 8783552 x 4 = 35134208 */
    int rc = RUN("aten::cudnn_convolution", &w, F32(4, 32, 3, 64, 64), F32(4, 64, 3, 3, 3),
                 LIST("[1, 1]"), LIST("[1, 1]"), LIST("[1, 1]"), VAL("1"), VAL("False"),
                 VAL("False"), VAL("True"));
    check_ok("conv 3x3 s1 p1", rc, &w, 452984832.0, 35134208.0, PF_DT_FP32, "conv");
    /* [32,64,32,32] * [128,64,3,3], padding 1 then stride 2: out (32 + 2 - 2 - 1)/2 + 1 = 16.
     * FLOP 2 x 32 x 128 x 256 x 64 x 9 = 1207959552.
     * bytes (2097152 + 73728 + 1048576) x 4 = 3219456 x 4 = 12877824 */
    rc = RUN("aten::cudnn_convolution", &w, F32(4, 32, 64, 32, 32), F32(4, 128, 64, 3, 3),
             LIST("[1, 1]"), LIST("[2, 2]"), LIST("[1, 1]"), VAL("1"), VAL("False"), VAL("False"),
             VAL("True"));
    check_ok("conv 3x3 s2 p1", rc, &w, 1207959552.0, 12877824.0, PF_DT_FP32, "conv");
    /* 1x1 on [32,128,16,16] -> [32,256,16,16]: FLOP 2 x 32 x 256 x 256 x 128 = 536870912.
     * bytes (1048576 + 32768 + 2097152) x 4 = 3178496 x 4 = 12713984.
     * The three sum to 2197815296 a step, x 3 steps = 6593.446 MFLOP: PyTorch's aten::conv2d. */
    rc = RUN("aten::cudnn_convolution", &w, F32(4, 32, 128, 16, 16), F32(4, 256, 128, 1, 1),
             LIST("[0, 0]"), LIST("[1, 1]"), LIST("[1, 1]"), VAL("1"), VAL("False"), VAL("False"),
             VAL("True"));
    check_ok("conv 1x1", rc, &w, 536870912.0, 12713984.0, PF_DT_FP32, "conv");
    /* the same 3x3 s1 through aten::convolution, with its bias [64]: 35134208 + 64 x 4 = 35134464 */
    rc = RUN("aten::convolution", &w, F32(4, 32, 3, 64, 64), F32(4, 64, 3, 3, 3), F32(1, 64),
             LIST("[1, 1]"), LIST("[1, 1]"), LIST("[1, 1]"), VAL("False"), LIST("[0, 0]"), VAL("1"));
    check_ok("convolution with bias", rc, &w, 452984832.0, 35134464.0, PF_DT_FP32, "conv");
    /* stride "[2]" and padding "1" broadcast over both dims: same as the s2 p1 case */
    rc = RUN("aten::cudnn_convolution", &w, F32(4, 32, 64, 32, 32), F32(4, 128, 64, 3, 3),
             LIST("1"), LIST("[2]"), LIST("[1, 1]"), VAL("1"), VAL("False"), VAL("False"), VAL("True"));
    check_ok("conv broadcast params", rc, &w, 1207959552.0, 12877824.0, PF_DT_FP32, "conv");
}

static void test_conv_groups(void)
{
    pf_work w;
    /* groups 4: [2,8,10,10] * [16,2,3,3] -> out (10 - 2 - 1)/1 + 1 = 8, [2,16,8,8].
     * FLOP 2 x 2 x 16 x 64 x (8/4 = 2) x 9 = 73728. bytes (1600 + 288 + 2048) x 4 = 15744 */
    int rc = RUN("aten::convolution", &w, F32(4, 2, 8, 10, 10), F32(4, 16, 2, 3, 3), NONE,
                 LIST("[1, 1]"), LIST("[0, 0]"), LIST("[1, 1]"), VAL("False"), LIST("[0, 0]"), VAL("4"));
    check_ok("conv groups 4", rc, &w, 73728.0, 15744.0, PF_DT_FP32, "conv");
    /* depthwise [1,4,6,6] * [4,1,3,3], p1: out 6, [1,4,6,6]. FLOP 2 x 1 x 4 x 36 x 1 x 9 = 2592.
     * bytes (144 + 36 + 144) x 4 = 1296. _conv_depthwise2d has no groups argument: groups = Cin. */
    rc = RUN("aten::_conv_depthwise2d", &w, F32(4, 1, 4, 6, 6), F32(4, 4, 1, 3, 3), LIST("[3, 3]"),
             NONE, LIST("[1, 1]"), LIST("[1, 1]"), LIST("[1, 1]"));
    check_ok("conv depthwise2d", rc, &w, 2592.0, 1296.0, PF_DT_FP32, "conv");
    rc = RUN("aten::convolution", &w, F32(4, 1, 4, 6, 6), F32(4, 4, 1, 3, 3), NONE, LIST("[1, 1]"),
             LIST("[1, 1]"), LIST("[1, 1]"), VAL("False"), LIST("[0, 0]"), VAL("4"));
    check_ok("conv depthwise via groups", rc, &w, 2592.0, 1296.0, PF_DT_FP32, "conv");
}

static void test_conv_strides(void)
{
    pf_work w;
    /* s2 p2 d2 on [1,2,17,17] * [3,2,3,3]: out (17 + 4 - 2x2 - 1)/2 + 1 = 16/2 + 1 = 9.
     * FLOP 2 x 1 x 3 x 81 x 2 x 9 = 8748. bytes (578 + 54 + 243) x 4 = 875 x 4 = 3500 */
    int rc = RUN("aten::convolution", &w, F32(4, 1, 2, 17, 17), F32(4, 3, 2, 3, 3), NONE,
                 LIST("[2, 2]"), LIST("[2, 2]"), LIST("[2, 2]"), VAL("False"), LIST("[0, 0]"), VAL("1"));
    check_ok("conv strided dilated", rc, &w, 8748.0, 3500.0, PF_DT_FP32, "conv");
    /* per-dim params on [1,1,10,11] * [1,1,3,3], stride [2,3], padding [1,0], dilation [1,2]:
     * H (10 + 2 - 2 - 1)/2 + 1 = 5; W (11 + 0 - 4 - 1)/3 + 1 = 3. FLOP 2 x 15 x 9 = 270.
     * bytes (110 + 9 + 15) x 4 = 536 */
    rc = RUN("aten::convolution", &w, F32(4, 1, 1, 10, 11), F32(4, 1, 1, 3, 3), NONE, LIST("[2, 3]"),
             LIST("[1, 0]"), LIST("[1, 2]"), VAL("False"), LIST("[0, 0]"), VAL("1"));
    check_ok("conv per-dim params", rc, &w, 270.0, 536.0, PF_DT_FP32, "conv");
}

static void test_conv_1d_3d(void)
{
    pf_work w;
    /* 1-D [4,3,50] * [6,3,5], p2: out (50 + 4 - 4 - 1)/1 + 1 = 50. FLOP 2 x 4 x 6 x 50 x 3 x 5
     * = 36000. bytes (600 + 90 + 1200) x 4 = 7560 */
    int rc = RUN("aten::convolution", &w, F32(3, 4, 3, 50), F32(3, 6, 3, 5), NONE, LIST("[1]"),
                 LIST("[2]"), LIST("[1]"), VAL("False"), LIST("[0]"), VAL("1"));
    check_ok("conv 1-D", rc, &w, 36000.0, 7560.0, PF_DT_FP32, "conv");
    /* 3-D [2,4,8,8,8] * [8,4,3,3,3], p1: out 8 each. FLOP 2 x 2 x 8 x 512 x 4 x 27 = 1769472.
     * bytes (4096 + 864 + 8192) x 4 = 13152 x 4 = 52608 */
    rc = RUN("aten::convolution", &w, F32(5, 2, 4, 8, 8, 8), F32(5, 8, 4, 3, 3, 3), NONE,
             LIST("[1, 1, 1]"), LIST("[1, 1, 1]"), LIST("[1, 1, 1]"), VAL("False"),
             LIST("[0, 0, 0]"), VAL("1"));
    check_ok("conv 3-D", rc, &w, 1769472.0, 52608.0, PF_DT_FP32, "conv");
}

static void test_conv_transposed(void)
{
    pf_work w;
    /* [2,8,5,5] * weight [Cin 8, Cout 4, 3, 3], s2 p1 output_padding 1:
     * out (5-1) x 2 - 2 + 2 + 1 + 1 = 10 -> [2,4,10,10]. FLOP 2 x 2 x 8 x 25 x 4 x 9 = 28800.
     * bytes (400 + 288 + 800) x 4 = 1488 x 4 = 5952 */
    int rc = RUN("aten::cudnn_convolution_transpose", &w, F32(4, 2, 8, 5, 5), F32(4, 8, 4, 3, 3),
                 LIST("[1, 1]"), LIST("[1, 1]"), LIST("[2, 2]"), LIST("[1, 1]"), VAL("1"),
                 VAL("False"), VAL("False"), VAL("True"));
    check_ok("cudnn_convolution_transpose", rc, &w, 28800.0, 5952.0, PF_DT_FP32, "conv");
    rc = RUN("aten::convolution", &w, F32(4, 2, 8, 5, 5), F32(4, 8, 4, 3, 3), NONE, LIST("[2, 2]"),
             LIST("[1, 1]"), LIST("[1, 1]"), VAL("True"), LIST("[1, 1]"), VAL("1"));
    check_ok("convolution transposed=True", rc, &w, 28800.0, 5952.0, PF_DT_FP32, "conv");
    /* groups 2: [1,4,3,3] * [Cin 4, Cout/g 2, 2, 2] -> Cout 4, out (3-1) + 1 + 1 = 4.
     * FLOP 2 x 1 x 4 x 9 x 2 x 4 = 576. bytes (36 + 32 + 64) x 4 = 528 */
    rc = RUN("aten::convolution", &w, F32(4, 1, 4, 3, 3), F32(4, 4, 2, 2, 2), NONE, LIST("[1, 1]"),
             LIST("[0, 0]"), LIST("[1, 1]"), VAL("True"), LIST("[0, 0]"), VAL("2"));
    check_ok("convolution transposed groups 2", rc, &w, 576.0, 528.0, PF_DT_FP32, "conv");
}

/* cnn_fp32's stride-2 backward: grad_out [32,128,16,16], input [32,64,32,32], weight [128,64,3,3]. */
static int run_backward(pf_work *w, const char *bias_sizes, const char *mask, int grad_h)
{
    return RUN("aten::convolution_backward", w, F32(4, 32, 128, grad_h, grad_h),
               F32(4, 32, 64, 32, 32), F32(4, 128, 64, 3, 3), LIST(bias_sizes), LIST("[2, 2]"),
               LIST("[1, 1]"), LIST("[1, 1]"), VAL("False"), LIST("[0, 0]"), VAL("1"), LIST(mask));
}

static void test_conv_backward(void)
{
    pf_work w;
    /* forward FLOP 1207959552 (see the s2 case) x 2 = 2415919104. bytes: grad_out 1048576 +
     * input 2097152 + weight 73728 + grad_input 2097152 + grad_weight 73728 + grad_bias 128
     * = 5390464 x 4 = 21561856 */
    int rc = run_backward(&w, "[128]", "[True, True, True]", 16);
    check_ok("conv backward all", rc, &w, 2415919104.0, 21561856.0, PF_DT_FP32, "conv");
    /* weight only: 1207959552; bytes 1048576 + 2097152 + 73728 + 73728 = 3293184 x 4 = 13172736 */
    rc = run_backward(&w, "[128]", "[False, True, False]", 16);
    check_ok("conv backward weight only", rc, &w, 1207959552.0, 13172736.0, PF_DT_FP32, "conv");
    /* bias_sizes absent: grad_bias has Cout = 128 elements: 13172736 + 128 x 4 = 13173248 */
    rc = run_backward(&w, "", "[False, True, True]", 16);
    check_ok("conv backward bias from Cout", rc, &w, 1207959552.0, 13173248.0, PF_DT_FP32, "conv");
    rc = run_backward(&w, "[128]", "[True, True, True]", 15);
    check_refused("conv backward grad_out shape", rc, &w, PF_FORMULA_MISMATCH);
    rc = run_backward(&w, "[128]", "[True, False]", 16);
    check_refused("conv backward short mask", rc, &w, PF_FORMULA_BAD_ARGS);
    rc = run_backward(&w, "[128]", "abc", 16);
    check_refused("conv backward garbage mask", rc, &w, PF_FORMULA_BAD_ARGS);
}

/* aten::convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups) */
static int run_convolution(pf_work *w, pf_arg input, pf_arg weight, const char *stride,
                           const char *transposed, const char *groups)
{
    return RUN("aten::convolution", w, input, weight, NONE, LIST(stride), LIST("[0, 0]"),
               LIST("[1, 1]"), VAL(transposed), LIST("[0, 0]"), VAL(groups));
}

static void test_conv_refusals(void)
{
    pf_work w;
    int rc = run_convolution(&w, F32(4, 32, 3, 64, 64), F32(4, 64, 4, 3, 3), "[1, 1]", "False", "1");
    check_refused("conv channel mismatch", rc, &w, PF_FORMULA_MISMATCH);
    rc = run_convolution(&w, F32(4, 2, 8, 10, 10), F32(4, 6, 2, 3, 3), "[1, 1]", "False", "4");
    check_refused("conv Cout not divisible by groups", rc, &w, PF_FORMULA_MISMATCH);
    rc = run_convolution(&w, F32(4, 1, 1, 2, 2), F32(4, 1, 1, 3, 3), "[1, 1]", "False", "1");
    check_refused("conv window larger than input", rc, &w, PF_FORMULA_MISMATCH);
    rc = run_convolution(&w, F32(4, 1, 1, 8, 8), F32(4, 1, 1, 3, 3), "[1, 1]", "False", "0");
    check_refused("conv groups 0", rc, &w, PF_FORMULA_MISMATCH);
    rc = run_convolution(&w, F32(4, 1, 1, 8, 8), F32(4, 1, 1, 3, 3), "[0, 1]", "False", "1");
    check_refused("conv stride 0", rc, &w, PF_FORMULA_MISMATCH);
    rc = run_convolution(&w, F32(4, 1, 1, 8, 8), F32(4, 1, 1, 3, 3), "[1, 1, 1]", "False", "1");
    check_refused("conv stride of 3 dims on 2-D", rc, &w, PF_FORMULA_MISMATCH);
    rc = run_convolution(&w, F32(4, 1, 1, 8, 8), F32(3, 1, 1, 3), "[1, 1]", "False", "1");
    check_refused("conv input and weight ranks differ", rc, &w, PF_FORMULA_MISMATCH);
    rc = run_convolution(&w, F32(4, 1, 1, 8, 8), F32(4, 1, 1, 3, 3), "abc", "False", "1");
    check_refused("conv garbage stride", rc, &w, PF_FORMULA_BAD_ARGS);
    rc = run_convolution(&w, F32(4, 1, 1, 8, 8), F32(4, 1, 1, 3, 3), "[1, 1]", "abc", "1");
    check_refused("conv garbage transposed", rc, &w, PF_FORMULA_BAD_ARGS);
    rc = run_convolution(&w, F32(4, 1, 1, 8, 8), F32(4, 1, 1, 3, 3), "[1, 1]", "False", "abc");
    check_refused("conv garbage groups", rc, &w, PF_FORMULA_BAD_ARGS);
    rc = run_convolution(&w, F32(4, 1, 1, 8, 8), NONE, "[1, 1]", "False", "1");
    check_refused("conv weight missing", rc, &w, PF_FORMULA_BAD_ARGS);
    rc = RUN("aten::cudnn_convolution", &w, F32(4, 1, 1, 8, 8), F32(4, 1, 1, 3, 3), LIST("[1, 1]"));
    check_refused("conv too few args", rc, &w, PF_FORMULA_BAD_ARGS);
}

/* ---- registry.c ---- */

static void test_registry(void)
{
    static const char *const wanted[] = {
        "aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::_scaled_mm",
        "aten::convolution", "aten::_convolution", "aten::cudnn_convolution",
        "aten::cudnn_convolution_transpose", "aten::miopen_convolution",
        "aten::mkldnn_convolution", "aten::convolution_overrideable", "aten::_slow_conv2d_forward",
        "aten::_conv_depthwise2d", "aten::convolution_backward",
    };
    int n = -1, sorted = 1, self_found = 1, registered = 0;
    const pf_op_entry *t = pf_op_family_table(&n);
    CHECK("table has rows", t && n >= (int)(sizeof wanted / sizeof wanted[0]));
    for (int i = 0; i < n; i++) {
        if (i > 0 && strcmp(t[i - 1].op, t[i].op) >= 0)
            sorted = 0;
        const pf_formula *f = pf_formula_lookup(t[i].op);
        /* a formula for exactly the op table's rows that name one */
        if ((f != NULL) != (t[i].formula != PF_OPF_NONE) || (f && !f->family))
            self_found = 0;
        registered += f != NULL;
    }
    CHECK("table sorted by name, no duplicates", sorted);
    CHECK("every row with a formula found by lookup", self_found);
    CHECK("registry has rows", registered >= (int)(sizeof wanted / sizeof wanted[0]));
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++)
        CHECK(wanted[i], pf_formula_lookup(wanted[i]) != NULL);
    CHECK_STR("mm family", pf_formula_lookup("aten::mm")->family, "gemm");
    CHECK_STR("convolution_backward family", pf_formula_lookup("aten::convolution_backward")->family, "conv");
    CHECK("plain name not registered", pf_formula_lookup("mm") == NULL);
    CHECK("conv2d wrapper not registered", pf_formula_lookup("aten::conv2d") == NULL);
    CHECK("NULL name", pf_formula_lookup(NULL) == NULL);
}

/* An unregistered op with tensor arguments gets the generic estimate (see
 * test_formulas_elementwise.c); one with no tensor at all has nothing to estimate from. */
static void test_apply_unknown(void)
{
    pf_work w;
    int rc = RUN("aten::mystery_op", &w, VAL("1"));
    CHECK("apply: no tensor arguments returns -1", rc == -1);
    CHECK("apply: no tensor arguments gives no figures", w.flop == -1 && w.bytes == -1 && w.source == NULL);
}

int main(void)
{
    test_int_lists();
    test_ints_and_bools();
    test_numel_and_bytes();
    test_mm();
    test_addmm();
    test_bmm();
    test_scaled_mm();
    test_gemm_refusals();
    test_conv_cnn_trace();
    test_conv_groups();
    test_conv_strides();
    test_conv_1d_3d();
    test_conv_transposed();
    test_conv_backward();
    test_conv_refusals();
    test_registry();
    test_apply_unknown();
    CHECK_DONE();
}
