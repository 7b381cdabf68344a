/* test_formulas_elementwise.c - unit tests of the byte estimates: element-wise, in-place, reductions, normalisation, copies, index ops, the generic fallback and Inductor launches. */
#include <stdarg.h>
#include <stdint.h>

#include "check.h"
#include "formula_fixtures.h"
#include "profana/formulas.h"
#include "profana/op_family.h"

/* ---- fixtures ---- */

/* An estimate: source "estimate", no matrix units, not an upper bound. */
static void check_est(const char *name, int rc, const pf_work *w, double flop, double bytes,
                      pf_dtype dtype, int generic)
{
    check_work(name, rc, w, flop, bytes, dtype, 0, 0, generic, "estimate");
}

#define CHECK_EST(name, rc, w, flop, bytes, dtype) check_est(name, rc, w, flop, bytes, dtype, 0)

/* ---- element-wise, out of place ---- */

static void test_broadcast_binary(void)
{
    pf_work w;
    /* [32,64,64,64] + [1,64,1,1] (a bias over channels): output [32,64,64,64] = 8388608
     * elements, one FLOP each. bytes: 8388608 x 4 = 33554432 read + 64 x 4 = 256 read +
     * 33554432 written = 67109120 */
    int rc = RUN("aten::add", &w, F32(4, 32, 64, 64, 64), F32(4, 1, 64, 1, 1), VAL("1"));
    CHECK_EST("add broadcast", rc, &w, 8388608.0, 67109120.0, PF_DT_FP32);
    /* [5] < [5, 1] broadcasts to [5, 5] = 25 bools: 5 x 8 + 5 x 8 + 25 x 1 = 105 */
    rc = RUN("aten::lt", &w, LONG(1, 5), LONG(2, 5, 1));
    CHECK_EST("lt broadcast to bool", rc, &w, 25.0, 105.0, PF_DT_UNKNOWN);
    /* [1, 768] / [1, 1] (owlv2): 768 x 2 + 1 x 2 + 768 x 2 = 3074 */
    rc = RUN("aten::div", &w, BF16(2, 1, 768), BF16(2, 1, 1));
    CHECK_EST("div by a column", rc, &w, 768.0, 3074.0, PF_DT_BF16);
    rc = RUN("aten::add", &w, F32(2, 4, 3), F32(2, 4, 2), VAL("1"));
    check_refused("add shapes do not broadcast", rc, &w, PF_FORMULA_MISMATCH);
    rc = RUN("aten::mul", &w, VAL("2"), VAL("3"));
    check_refused("mul without a tensor", rc, &w, PF_FORMULA_BAD_ARGS);
}

static void test_type_promotion(void)
{
    pf_work w;
    /* eager_bf16's mul: float [8,512,1024] by a 0-d double, which does not promote: the
     * output is float. 4194304 x 4 = 16777216 read + 8 + 16777216 written = 33554440 */
    int rc = RUN("aten::mul", &w, F32(3, 8, 512, 1024), F64(0));
    CHECK_EST("mul by 0-d double stays float", rc, &w, 4194304.0, 33554440.0, PF_DT_FP32);
    /* bf16 [4, 4] + float [4]: float wins among tensors with dims. 32 + 16 + 16 x 4 = 112 */
    rc = RUN("aten::add", &w, BF16(2, 4, 4), F32(1, 4), VAL("1"));
    CHECK_EST("bf16 + float gives float", rc, &w, 16.0, 112.0, PF_DT_BF16);
    /* owlv2's where(bool [1,1,1], 0-d bf16, bf16 [1,5184,1]): bool is the lowest category,
     * the output bf16 [1,5184,1]. 1 + 2 + 10368 read + 10368 written = 20739 */
    rc = RUN("aten::where", &w, BOOL(3, 1, 1, 1), BF16(0), BF16(3, 1, 5184, 1));
    CHECK_EST("where", rc, &w, 5184.0, 20739.0, PF_DT_BF16);
    /* owlv2's sub(0-d double, bf16 [1,1,5,5], alpha): only 0-d tensors are wider, so bf16.
     * 8 + 50 + 50 = 108 */
    rc = RUN("aten::sub", &w, F64(0), BF16(4, 1, 1, 5, 5), VAL("1"));
    CHECK_EST("0-d double minus bf16", rc, &w, 25.0, 108.0, PF_DT_BF16);
    /* all 0-d: the 0-d types decide. exp of a 0-d bf16: 2 + 2 = 4 */
    rc = RUN("aten::exp", &w, BF16(0));
    CHECK_EST("exp of a 0-d tensor", rc, &w, 1.0, 4.0, PF_DT_BF16);
}

static void test_unary(void)
{
    pf_work w;
    /* gelu(bf16 [8,512,4096], approximate): 16777216 elements, 33554432 B each way = 67108864 */
    int rc = RUN("aten::gelu", &w, BF16(3, 8, 512, 4096), NONE);
    CHECK_EST("gelu", rc, &w, 16777216.0, 67108864.0, PF_DT_BF16);
    /* cnn_fp32's threshold_backward(grad, self, 0) on [32,256,16,16] = 2097152 elements:
     * 2 x 8388608 read + 8388608 written = 25165824 */
    rc = RUN("aten::threshold_backward", &w, F32(4, 32, 256, 16, 16), F32(4, 32, 256, 16, 16), VAL("0"));
    CHECK_EST("threshold_backward", rc, &w, 2097152.0, 25165824.0, PF_DT_FP32);
    /* clamp_min(self, 0) on [32,64,64,64]: 33554432 + 33554432 = 67108864 */
    rc = RUN("aten::clamp_min", &w, F32(4, 32, 64, 64, 64), VAL("0"));
    CHECK_EST("clamp_min", rc, &w, 8388608.0, 67108864.0, PF_DT_FP32);
}

/* ---- in place ---- */

static void test_inplace(void)
{
    pf_work w;
    /* cnn_fp32's add_ of the channel bias: reads self 33554432 and other 256, writes self
     * 33554432: 67109120, the same as the out-of-place add */
    int rc = RUN("aten::add_", &w, F32(4, 32, 64, 64, 64), F32(4, 1, 64, 1, 1), VAL("1"));
    CHECK_EST("add_ broadcast", rc, &w, 8388608.0, 67109120.0, PF_DT_FP32);
    /* eager_bf16's optimizer add_ [1024] + [1024]: 2048 + 2048 read + 2048 written = 6144 */
    rc = RUN("aten::add_", &w, BF16(1, 1024), BF16(1, 1024), VAL("1"));
    CHECK_EST("add_ same shape", rc, &w, 1024.0, 6144.0, PF_DT_BF16);
    /* masked_fill_(float [5,5], bool [5,5], 0): 100 + 25 read + 100 written = 225 */
    rc = RUN("aten::masked_fill_", &w, F32(2, 5, 5), BOOL(2, 5, 5), VAL("0"));
    CHECK_EST("masked_fill_", rc, &w, 25.0, 225.0, PF_DT_FP32);
    rc = RUN("aten::add_", &w, F32(4, 1, 64, 1, 1), F32(4, 32, 64, 64, 64), VAL("1"));
    check_refused("add_ cannot grow self", rc, &w, PF_FORMULA_MISMATCH);
    rc = RUN("aten::add_", &w, VAL("1"), F32(1, 4), VAL("1"));
    check_refused("add_ self not a tensor", rc, &w, PF_FORMULA_BAD_ARGS);
}

static void test_overwrite(void)
{
    pf_work w;
    /* fill_ writes self only: float [5, 5] = 100; the 0-d fill of the traces: 4 */
    int rc = RUN("aten::fill_", &w, F32(2, 5, 5), VAL("-3.3895313892515355e+38"));
    CHECK_EST("fill_", rc, &w, 0.0, 100.0, PF_DT_FP32);
    rc = RUN("aten::fill_", &w, F32(0), VAL("1."));
    CHECK_EST("fill_ 0-d", rc, &w, 0.0, 4.0, PF_DT_FP32);
    /* zero_ bf16 [16]: 32 */
    rc = RUN("aten::zero_", &w, BF16(1, 16));
    CHECK_EST("zero_", rc, &w, 0.0, 32.0, PF_DT_BF16);
    /* eager_bf16's copy_(float [8,512,1024], bf16 src): reads src 4194304 x 2 = 8388608,
     * writes self 4194304 x 4 = 16777216: 25165824. dtype of the largest input: the first */
    rc = RUN("aten::copy_", &w, F32(3, 8, 512, 1024), BF16(3, 8, 512, 1024), VAL("False"));
    CHECK_EST("copy_ with a cast", rc, &w, 0.0, 25165824.0, PF_DT_FP32);
    /* a broadcast copy_: src [64] into [4, 64]: 256 read + 1024 written = 1280 */
    rc = RUN("aten::copy_", &w, F32(2, 4, 64), F32(1, 64), VAL("False"));
    CHECK_EST("copy_ broadcast", rc, &w, 0.0, 1280.0, PF_DT_FP32);
    rc = RUN("aten::copy_", &w, F32(1, 4), F32(1, 5), VAL("False"));
    check_refused("copy_ sizes differ", rc, &w, PF_FORMULA_MISMATCH);
}

/* ---- reductions ---- */

/* sum(self, dim, keepdim, dtype) */
static int run_sum(pf_work *w, pf_arg self, const char *dim, const char *keepdim, const char *dtype)
{
    return RUN("aten::sum", w, self, LIST(dim), VAL(keepdim), scalar("", dtype));
}

static void test_reduce(void)
{
    pf_work w;
    /* eager_bf16's bias gradient: sum over [0] of bf16 [4096, 1024], keepdim True -> [1, 1024]:
     * 8388608 read + 1024 x 2 = 2048 written = 8390656; no FLOP for reductions */
    int rc = run_sum(&w, BF16(2, 4096, 1024), "[0]", "True", "");
    CHECK_EST("sum keepdim", rc, &w, 0.0, 8390656.0, PF_DT_BF16);
    /* without keepdim the output is [1024]: the same count, the same bytes */
    rc = run_sum(&w, BF16(2, 4096, 1024), "[0]", "False", "");
    CHECK_EST("sum no keepdim", rc, &w, 0.0, 8390656.0, PF_DT_BF16);
    /* cnn_fp32's loss: sum over [] reduces every dim of [32, 100]: 12800 + 4 = 12804 */
    rc = run_sum(&w, F32(2, 32, 100), "[]", "False", "");
    CHECK_EST("sum over []", rc, &w, 0.0, 12804.0, PF_DT_FP32);
    /* dtype 6 (float) on bf16 [4, 8] over [1]: 64 read + 4 x 4 = 16 written = 80 */
    rc = run_sum(&w, BF16(2, 4, 8), "[1]", "False", "6");
    CHECK_EST("sum dtype float", rc, &w, 0.0, 80.0, PF_DT_BF16);
    /* cnn_fp32's mean over [2, 3] of [32,256,16,16] -> [32, 256] = 8192:
     * 8388608 + 32768 = 8421376 */
    rc = RUN("aten::mean", &w, F32(4, 32, 256, 16, 16), LIST("[2, 3]"), VAL("False"), NONE);
    CHECK_EST("mean over two dims", rc, &w, 0.0, 8421376.0, PF_DT_FP32);
    /* owlv2's linalg_vector_norm(bf16 [1, 768], 2, [-1], True, dtype): 1536 + 2 = 1538 */
    rc = RUN("aten::linalg_vector_norm", &w, BF16(2, 1, 768), VAL("2"), LIST("[-1]"), VAL("True"), NONE);
    CHECK_EST("linalg_vector_norm dim -1", rc, &w, 0.0, 1538.0, PF_DT_BF16);
    /* owlv2's argmax(int [1, 5], -1, False): 20 read + one int64 = 28 */
    rc = RUN("aten::argmax", &w, I32(2, 1, 5), VAL("-1"), VAL("False"));
    CHECK_EST("argmax writes int64", rc, &w, 0.0, 28.0, PF_DT_UNKNOWN);
    /* sum(self, dtype) ends where the dims go: the overload without dims, every dim reduced.
     * One element, counted at the input's size: 64 + 2 = 66 */
    rc = RUN("aten::sum", &w, BF16(2, 4, 8), VAL("6"));
    CHECK_EST("sum(self, dtype)", rc, &w, 0.0, 66.0, PF_DT_BF16);
    /* norm.ScalarOpt_dim(float [4, 8], p, [1], keepdim): 128 + 4 x 4 = 144; the 3-argument
     * norm(self, p, dtype) reduces every dim: 128 + 4 = 132 */
    rc = RUN("aten::norm", &w, F32(2, 4, 8), VAL("2"), LIST("[1]"), VAL("False"));
    CHECK_EST("norm over [1]", rc, &w, 0.0, 144.0, PF_DT_FP32);
    rc = RUN("aten::norm", &w, F32(2, 4, 8), VAL("2"), VAL("6"));
    CHECK_EST("norm(self, p, dtype)", rc, &w, 0.0, 132.0, PF_DT_FP32);
    /* var(self, unbiased) likewise: 40 + 4 = 44 */
    rc = RUN("aten::var", &w, F32(1, 10), VAL("True"));
    CHECK_EST("var(self, unbiased)", rc, &w, 0.0, 44.0, PF_DT_FP32);
}

static void test_reduce_max(void)
{
    pf_work w;
    /* max.dim(float [4, 6], 1, False): values 4 x 4 = 16 and int64 indices 4 x 8 = 32;
     * 96 + 16 + 32 = 144 */
    int rc = RUN("aten::max", &w, F32(2, 4, 6), VAL("1"), VAL("False"));
    CHECK_EST("max.dim with indices", rc, &w, 0.0, 144.0, PF_DT_FP32);
    /* max(self): one value, no indices: 96 + 4 = 100 */
    rc = RUN("aten::max", &w, F32(2, 4, 6));
    CHECK_EST("max of everything", rc, &w, 0.0, 100.0, PF_DT_FP32);
    /* max.other(a, b) is element-wise: 96 + 96 + 96 = 288, one FLOP per element */
    rc = RUN("aten::max", &w, F32(2, 4, 6), F32(2, 4, 6));
    CHECK_EST("max.other element-wise", rc, &w, 24.0, 288.0, PF_DT_FP32);
}

static void test_reduce_refusals(void)
{
    pf_work w;
    int rc = run_sum(&w, F32(2, 4, 8), "[2]", "False", "");
    check_refused("sum dim out of range", rc, &w, PF_FORMULA_MISMATCH);
    rc = run_sum(&w, F32(2, 4, 8), "[1, -1]", "False", "");
    check_refused("sum dim twice", rc, &w, PF_FORMULA_MISMATCH);
    rc = run_sum(&w, F32(2, 4, 8), "[x]", "False", "");
    check_refused("sum garbage dims", rc, &w, PF_FORMULA_BAD_ARGS);
    rc = run_sum(&w, F32(2, 4, 8), "[1]", "False", "99");
    check_refused("sum unknown dtype code", rc, &w, PF_FORMULA_BAD_ARGS);
}

/* ---- normalisation and softmax ---- */

static void test_norm(void)
{
    pf_work w;
    /* eager_bf16's native_layer_norm(bf16 [8,512,1024], [1024], weight, bias, eps):
     * 8388608 + 2048 + 2048 read + 8388608 written = 16781312; no FLOP */
    int rc = RUN("aten::native_layer_norm", &w, BF16(3, 8, 512, 1024), LIST("[1024]"),
                 BF16(1, 1024), BF16(1, 1024), VAL("1.0000000000000001e-05"));
    CHECK_EST("native_layer_norm", rc, &w, 0.0, 16781312.0, PF_DT_BF16);
    /* cnn_fp32's cudnn_batch_norm: [32,64,64,64] and four [64] (which would not broadcast
     * element-wise against it): 33554432 + 4 x 256 read + 33554432 written = 67109888 */
    rc = RUN("aten::cudnn_batch_norm", &w, F32(4, 32, 64, 64, 64), F32(1, 64), F32(1, 64),
             F32(1, 64), F32(1, 64), VAL("True"), VAL("0.1"), VAL("1e-05"));
    CHECK_EST("cudnn_batch_norm", rc, &w, 0.0, 67109888.0, PF_DT_FP32);
    /* explicit_bf16's _softmax(bf16 [16,256,256], -1, half_to_float False): 1048576 x 2 each
     * way = 4194304 */
    rc = RUN("aten::_softmax", &w, BF16(3, 16, 256, 256), VAL("-1"), VAL("False"));
    CHECK_EST("_softmax", rc, &w, 0.0, 4194304.0, PF_DT_BF16);
    /* half_to_float True writes float: 2097152 + 4194304 = 6291456 */
    rc = RUN("aten::_softmax", &w, BF16(3, 16, 256, 256), VAL("-1"), VAL("True"));
    CHECK_EST("_softmax half_to_float", rc, &w, 0.0, 6291456.0, PF_DT_BF16);
    /* _softmax_backward_data(grad float, out float, dim, input_dtype 15 = bf16): 2 x 4194304
     * read + 1048576 x 2 written = 10485760 */
    rc = RUN("aten::_softmax_backward_data", &w, F32(3, 16, 256, 256), F32(3, 16, 256, 256),
             VAL("-1"), VAL("15"));
    CHECK_EST("_softmax_backward_data to bf16", rc, &w, 0.0, 10485760.0, PF_DT_FP32);
}

/* ---- copies ---- */

static void test_copies(void)
{
    pf_work w;
    /* _to_copy(float [4, 8], dtype 15 = bf16, layout, device, pin_memory, non_blocking,
     * memory_format): 128 read + 32 x 2 = 64 written = 192 */
    int rc = RUN("aten::_to_copy", &w, F32(2, 4, 8), VAL("15"), NONE, NONE, NONE, VAL("False"), NONE);
    CHECK_EST("_to_copy to bf16", rc, &w, 0.0, 192.0, PF_DT_FP32);
    /* dtype 7 = double: 128 + 256 = 384 */
    rc = RUN("aten::_to_copy", &w, F32(2, 4, 8), VAL("7"), NONE, NONE, NONE, VAL("False"), NONE);
    CHECK_EST("_to_copy to double", rc, &w, 0.0, 384.0, PF_DT_FP32);
    /* no dtype: the input's type, 128 + 128 = 256 */
    rc = RUN("aten::_to_copy", &w, F32(2, 4, 8), NONE, NONE, NONE, NONE, VAL("False"), NONE);
    CHECK_EST("_to_copy same type", rc, &w, 0.0, 256.0, PF_DT_FP32);
    rc = RUN("aten::clone", &w, BF16(2, 4, 8), NONE);
    CHECK_EST("clone", rc, &w, 0.0, 128.0, PF_DT_BF16);
    rc = RUN("aten::_to_copy", &w, F32(2, 4, 8), VAL("bf16"), NONE, NONE, NONE, VAL("False"), NONE);
    check_refused("_to_copy garbage dtype", rc, &w, PF_FORMULA_BAD_ARGS);
}

static void test_cat(void)
{
    pf_work w;
    /* eager_bf16's cat of three [8,512,1024] along 2: 12582912 elements read and written.
     * A TensorList records no element type, so an out= tensor gives it: bf16,
     * 2 x 12582912 x 2 = 50331648 */
    int rc = RUN("aten::cat", &w, tensor_list(12582912), VAL("2"), BF16(3, 8, 512, 3072));
    CHECK_EST("cat with out=", rc, &w, 0.0, 50331648.0, PF_DT_BF16);
    /* without it the bytes stay unknown rather than guessed */
    rc = RUN("aten::cat", &w, tensor_list(12582912), VAL("2"));
    CHECK_EST("cat, element size unknown", rc, &w, 0.0, -1.0, PF_DT_UNKNOWN);
    rc = RUN("aten::cat", &w, tensor_list(0), VAL("0"));
    CHECK_EST("cat of nothing", rc, &w, 0.0, 0.0, PF_DT_UNKNOWN);
    /* the list recorded [] without its shapes (a ResNet's DDP flatten: its cat kernel ran
     * 3.9 us): unknown, not a cat of nothing */
    rc = RUN("aten::cat", &w, bare_list(), VAL("0"));
    check_refused("cat, list []", rc, &w, PF_FORMULA_UNRECORDED);
    rc = RUN("aten::cat", &w, F32(1, 4), VAL("0"));
    check_refused("cat of a tensor, not a list", rc, &w, PF_FORMULA_BAD_ARGS);
}

/* The trace records cat's TensorList as "Input Dims" [[8, 512, 1024] x 3], type "TensorList",
 * and not the output: the analysis passes DTYPE as the assumed element size, and the source
 * says so ("estimate~dtype"). */
static void test_cat_assumed(void)
{
    pf_work w;
    /* eager_bf16's cat with DTYPE bf16: 2 x 12582912 x 2 = 50331648 (what its
     * CatArrayBatchedCopy<OpaqueType<2u>> kernel moves) */
    int rc = RUN_EX("aten::cat", PF_DT_BF16, NULL, &w, tensor_list(12582912), VAL("2"));
    CHECK("cat assumed bf16: ok", rc == PF_FORMULA_OK);
    CHECK_NEAR("cat assumed bf16: bytes", w.bytes, 50331648.0);
    CHECK_NEAR("cat assumed bf16: no flop", w.flop, 0.0);
    CHECK_STR("cat assumed bf16: source marked", w.source, "estimate~dtype");
    CHECK("cat assumed bf16: flagged, not generic", w.assumed_dtype == 1 && w.generic == 0);
    /* eager_fp32's cat of three [4, 256, 1024] = 3145728 elements with DTYPE fp32:
     * 2 x 3145728 x 4 = 25165824 */
    rc = RUN_EX("aten::cat", PF_DT_FP32, NULL, &w, tensor_list(3145728), VAL("2"));
    CHECK_NEAR("cat assumed fp32: bytes", w.bytes, 25165824.0);
    /* an out= tensor is the real type and wins over DTYPE: fp32 out, DTYPE bf16 -> 4 bytes,
     * 2 x 3145728 x 4 = 25165824, not marked */
    rc = RUN_EX("aten::cat", PF_DT_BF16, NULL, &w, tensor_list(3145728), VAL("2"), F32(3, 4, 256, 3072));
    CHECK_NEAR("cat out= over DTYPE: bytes", w.bytes, 25165824.0);
    CHECK_STR("cat out= over DTYPE: source", w.source, "estimate");
    CHECK("cat out= over DTYPE: not flagged", w.assumed_dtype == 0);
    /* stack(tensors, dim) the same way: two [16] fp16 with DTYPE fp16: 2 x 32 x 2 = 128 */
    rc = RUN_EX("aten::stack", PF_DT_FP16, NULL, &w, tensor_list(32), VAL("0"));
    CHECK_NEAR("stack assumed fp16: bytes", w.bytes, 128.0);
    CHECK_STR("stack assumed fp16: source", w.source, "estimate~dtype");
    /* an empty list moves nothing and assumes nothing */
    rc = RUN_EX("aten::cat", PF_DT_BF16, NULL, &w, tensor_list(0), VAL("0"));
    CHECK("empty cat: 0 bytes, unmarked", rc == PF_FORMULA_OK && w.bytes == 0 && strcmp(w.source, "estimate") == 0);
    /* ops with no formula keep their unknown bytes: the assumption is the list formulas' */
    rc = RUN_EX("aten::_chunk_cat", PF_DT_BF16, NULL, &w, tensor_list(100), tensor_list(100));
    CHECK("generic list op stays unknown", rc == PF_FORMULA_OK && w.bytes == -1 && w.assumed_dtype == 0);
}

/* Broadcasting both ways, keepdim on a middle dim, in-place by a scalar. */
static void test_more_shapes(void)
{
    pf_work w;
    /* [4, 1, 8] * [1, 6, 1] -> [4, 6, 8] = 192 elements, larger than either input.
     * bytes 32 x 4 + 6 x 4 + 192 x 4 = 128 + 24 + 768 = 920 */
    int rc = RUN("aten::mul", &w, F32(3, 4, 1, 8), F32(3, 1, 6, 1));
    CHECK_EST("mul broadcast both ways", rc, &w, 192.0, 920.0, PF_DT_FP32);
    /* amax(bf16 [8, 512, 1024], [1], keepdim True) -> [8, 1, 1024] = 8192 elements:
     * 8388608 + 16384 = 8404992; keepdim False -> [8, 1024], the same count and bytes */
    rc = RUN("aten::amax", &w, BF16(3, 8, 512, 1024), LIST("[1]"), VAL("True"));
    CHECK_EST("amax keepdim True", rc, &w, 0.0, 8404992.0, PF_DT_BF16);
    rc = RUN("aten::amax", &w, BF16(3, 8, 512, 1024), LIST("[1]"), VAL("False"));
    CHECK_EST("amax keepdim False", rc, &w, 0.0, 8404992.0, PF_DT_BF16);
    /* mean(float [32, 256, 16, 16], [-1, -2], keepdim True, dtype) -> [32, 256, 1, 1]:
     * 8388608 + 8192 x 4 = 8421376 */
    rc = RUN("aten::mean", &w, F32(4, 32, 256, 16, 16), LIST("[-1, -2]"), VAL("True"), NONE);
    CHECK_EST("mean keepdim negative dims", rc, &w, 0.0, 8421376.0, PF_DT_FP32);
    /* mul_(bf16 [2048], Scalar 0.5): reads self 4096, writes self 4096 = 8192, 2048 FLOP */
    rc = RUN("aten::mul_", &w, BF16(1, 2048), VAL("0.5"));
    CHECK_EST("mul_ by a scalar", rc, &w, 2048.0, 8192.0, PF_DT_BF16);
    /* sigmoid_ of float [10, 10]: 400 read + 400 written = 800, 100 FLOP */
    rc = RUN("aten::sigmoid_", &w, F32(2, 10, 10));
    CHECK_EST("sigmoid_ unary in place", rc, &w, 100.0, 800.0, PF_DT_FP32);
}

/* ---- index ops: only the picked slices are read ---- */

static void test_index(void)
{
    pf_work w;
    /* owlv2's index_select(bf16 [49408, 768], 0, long [5]): 5 rows of 768 = 3840 elements,
     * read and written: 40 + 2 x 3840 x 2 = 15400 */
    int rc = RUN("aten::index_select", &w, BF16(2, 49408, 768), VAL("0"), LONG(1, 5));
    CHECK_EST("index_select rows", rc, &w, 0.0, 15400.0, PF_DT_BF16);
    /* along dim 1 of [6, 10] with 3 indices: 3 columns of 6 = 18: 24 + 2 x 18 x 4 = 168 */
    rc = RUN("aten::index_select", &w, F32(2, 6, 10), VAL("1"), LONG(1, 3));
    CHECK_EST("index_select columns", rc, &w, 0.0, 168.0, PF_DT_FP32);
    /* embedding(float [1000, 16], long [4, 8], padding_idx, scale_grad_by_freq, sparse):
     * 32 rows of 16 = 512: 256 + 2 x 512 x 4 = 4352 */
    rc = RUN("aten::embedding", &w, F32(2, 1000, 16), LONG(2, 4, 8), VAL("-1"), VAL("False"),
             VAL("False"));
    CHECK_EST("embedding", rc, &w, 0.0, 4352.0, PF_DT_FP32);
    /* gather(float [10, 20], 1, long [10, 5], sparse_grad): 50 elements: 400 + 2 x 50 x 4 = 800 */
    rc = RUN("aten::gather", &w, F32(2, 10, 20), VAL("1"), LONG(2, 10, 5), VAL("False"));
    CHECK_EST("gather", rc, &w, 0.0, 800.0, PF_DT_FP32);
    rc = RUN("aten::index_select", &w, F32(2, 6, 10), VAL("2"), LONG(1, 3));
    check_refused("index_select dim out of range", rc, &w, PF_FORMULA_MISMATCH);
}

/* ---- no formula: the generic estimate and Inductor launches ---- */

static void test_generic(void)
{
    pf_work w;
    /* an op with no formula, given the arguments of cnn_fp32's max_pool2d_with_indices_backward
     * (grad [32,64,32,32], self [32,64,64,64], kernel, stride, padding, dilation, ceil_mode,
     * indices long [32,64,32,32]): every tensor
     * read, 2097152 x 4 + 8388608 x 4 + 2097152 x 8 = 58720256, plus an output as large as
     * self, 33554432: 92274688. FLOP unknown */
    int rc = RUN("aten::fractional_max_pool2d_backward", &w, F32(4, 32, 64, 32, 32),
                 F32(4, 32, 64, 64, 64), LIST("[2, 2]"), LIST("[]"), LIST("[0, 0]"),
                 LIST("[1, 1]"), VAL("False"), LONG(4, 32, 64, 32, 32));
    check_work("generic", rc, &w, -1.0, 92274688.0, PF_DT_FP32, 0, 0, 1, "generic");
    CHECK("generic: the op has no formula", w.no_formula == 1);
    CHECK("generic op has no formula", pf_formula_lookup("aten::fractional_max_pool2d_backward") == NULL);
    /* a list of unknown element size leaves the bytes unknown, still generic */
    rc = RUN("aten::_chunk_cat", &w, tensor_list(100), tensor_list(100));
    check_work("generic with tensor lists", rc, &w, -1.0, -1.0, PF_DT_UNKNOWN, 0, 0, 1, "generic");
    rc = RUN("aten::linspace", &w, VAL("0"), VAL("5"), VAL("11"));
    CHECK("no tensor argument: -1", rc == -1 && w.flop == -1 && w.bytes == -1 && !w.source);
    rc = run_args("aten::relu", &w, NULL, 0);
    CHECK("no arguments recorded: -1", rc == -1 && w.flop == -1 && w.bytes == -1 && !w.source);
    rc = run_args("aten::mystery", &w, NULL, 0);
    CHECK("unknown op, no arguments: -1", rc == -1 && w.bytes == -1 && !w.source);
}

static void test_triton(void)
{
    pf_work w;
    /* compiled_bf16_b8's triton_poi_fused_gelu_view_2(bf16 [4096,4096], bf16 [8,512,4096],
     * xnumel): the output is one of the arguments, so 2 x 16777216 x 2 = 67108864, no more */
    int rc = RUN("triton_poi_fused_gelu_view_2", &w, BF16(2, 4096, 4096), BF16(3, 8, 512, 4096),
                 VAL("16777216"));
    check_work("triton launch", rc, &w, -1.0, 67108864.0, PF_DT_BF16, 0, 0, 1, "generic");
    CHECK("triton launch: no op to write a formula for", w.no_formula == 0);
    /* a slice kernel: q out of a fused qkv [1024, 3072] bf16 into [1024, 1024], xnumel
     * 1048576: each pointer at most 1048576 elements, 2 x 1048576 x 2 = 4194304 (not the
     * whole qkv's 6291456 + 2097152) */
    rc = RUN("triton_poi_fused_slice_0", &w, BF16(2, 1024, 3072), BF16(2, 1024, 1024), VAL("1048576"));
    check_work("triton slice: xnumel caps", rc, &w, -1.0, 4194304.0, PF_DT_BF16, 0, 0, 1, "generic");
    /* a reduction over a slice: bf16 [64, 8192] read at xnumel 64 x rnumel 4096 = 262144
     * elements (524288 bytes), fp32 [64] written (256): 524544 */
    rc = RUN("triton_red_fused_sum_0", &w, BF16(2, 64, 8192), F32(1, 64), VAL("64"), VAL("4096"));
    check_work("triton reduction: xnumel x rnumel caps", rc, &w, -1.0, 524544.0, PF_DT_BF16, 0, 0, 1, "generic");
    /* a size symbol ks0 = 2 before them loosens the cap (524288 elements), never tightens it:
     * 1048576 + 256 */
    rc = RUN("triton_per_fused_sum_0", &w, BF16(2, 64, 8192), F32(1, 64), VAL("2"), VAL("64"), VAL("4096"));
    check_work("triton reduction with a size symbol", rc, &w, -1.0, 1048832.0, PF_DT_BF16, 0, 0, 1, "generic");
    /* a dropout's load_seed_offset 0 before xnumel 1024 and r0_numel 512 is no size: the cap
     * is 524288 (BERT's fused layer norm), not 0: 2 x 524288 x 2 = 2097152 */
    rc = RUN("triton_per_fused_native_dropout_native_layer_norm_1", &w, BF16(2, 1024, 512), BF16(2, 1024, 512),
             VAL("0"), VAL("1024"), VAL("512"));
    check_work("triton launch, seed offset 0 before the sizes", rc, &w, -1.0, 2097152.0, PF_DT_BF16, 0, 0, 1,
               "generic");
    /* xnumel itself 0: nothing iterated, 0 */
    rc = RUN("triton_poi_fused_slice_0", &w, BF16(2, 1024, 3072), BF16(2, 1024, 1024), VAL("0"));
    check_work("triton launch, xnumel 0", rc, &w, -1.0, 0.0, PF_DT_BF16, 0, 0, 1, "generic");
    /* no integer at the end, or a template launch: every argument whole, 8388608 */
    rc = RUN("triton_poi_fused_slice_0", &w, BF16(2, 1024, 3072), BF16(2, 1024, 1024), VAL("0.5"));
    check_work("triton launch, no integer: whole", rc, &w, -1.0, 8388608.0, PF_DT_BF16, 0, 0, 1, "generic");
    rc = RUN("triton_tem_fused_mm_0", &w, BF16(2, 1024, 3072), BF16(2, 1024, 1024), VAL("1048576"));
    check_work("triton template: whole", rc, &w, -1.0, 8388608.0, PF_DT_BF16, 0, 0, 1, "generic");
}

/* Custom ops write into their arguments (vLLM's and SGLang's out-first ops, caches): the
 * generic guess invents no output, and declines a cache it would count whole. */
static void test_generic_custom(void)
{
    pf_work w;
    /* silu_and_mul(out bf16 [15360, 12288], in bf16 [15360, 24576]) as SGLang records it:
     * 15360 x 12288 x 2 + 15360 x 24576 x 2 = 377487360 + 754974720 = 1132462080 */
    int rc = RUN("mylib::silu_and_mul", &w, BF16(2, 15360, 12288), BF16(2, 15360, 24576));
    check_work("custom op, out first", rc, &w, -1.0, 1132462080.0, PF_DT_BF16, 0, 0, 1, "generic");
    CHECK("custom op: no formula", w.no_formula == 1);
    /* store_cache(k, v [15360, 1024] bf16, k_cache, v_cache [835874, 1024] bf16, loc long
     * [15360]): the caches have 54 times the rows and elements of k: bytes unknown */
    rc = RUN("mylib::store_cache", &w, BF16(2, 15360, 1024), BF16(2, 15360, 1024), BF16(2, 835874, 1024),
             BF16(2, 835874, 1024), LONG(1, 15360), VAL("2048"), VAL("0"));
    CHECK("cache argument: bytes unknown", rc == PF_FORMULA_OK && w.bytes == -1 && w.generic == 1);
    /* a view of the same elements under another shape is no table: [8, 512, 1024] and
     * [4096, 1024] bf16, 2 x 4194304 x 2 = 16777216 */
    rc = RUN("mylib::copy_view", &w, BF16(3, 8, 512, 1024), BF16(2, 4096, 1024));
    check_work("view, no table", rc, &w, -1.0, 16777216.0, PF_DT_BF16, 0, 0, 1, "generic");
    /* an ATen in-place op with no formula: self [4, 8] fp32 and other [4, 8] read, self
     * written: 128 + 128 + 128 = 384 */
    rc = RUN("aten::mystery_", &w, F32(2, 4, 8), F32(2, 4, 8));
    check_work("aten in place", rc, &w, -1.0, 384.0, PF_DT_FP32, 0, 0, 1, "generic");
    /* a functional ATen op: read both, write one as large as the largest: 128 + 64 + 128 */
    rc = RUN("aten::mystery", &w, F32(2, 4, 8), F32(1, 16));
    check_work("aten functional", rc, &w, -1.0, 320.0, PF_DT_FP32, 0, 0, 1, "generic");
}

/* Input Strides: a stride-0 (expanded) dim is read once by element-wise and index kernels,
 * never by a GEMM, whose operand ATen first makes contiguous. */
static void test_expanded(void)
{
    pf_work w;
    /* SGLang's gather(bf16 [151936, 4096], 0, long [15360, 4096] strides [1, 0], False,
     * out bf16 [15360, 4096]): the index is read once per row, 15360 x 8 = 122880; the
     * 62914560 picked elements read and written, 2 x 62914560 x 2 = 251658240: 251781120 */
    pf_arg index = LONG(2, 15360, 4096);
    index.expanded = 1u << 1;
    int rc = RUN("aten::gather", &w, BF16(2, 151936, 4096), VAL("0"), index, VAL("False"), BF16(2, 15360, 4096));
    CHECK_EST("gather, expanded index", rc, &w, 0.0, 251781120.0, PF_DT_BF16);
    /* add(fp32 [64, 32], fp32 [64, 32] strides [0, 0]): reads 8192 + 4, writes 8192 */
    pf_arg bias = F32(2, 64, 32);
    bias.expanded = 3u;
    rc = RUN("aten::add", &w, F32(2, 64, 32), bias, VAL("1"));
    CHECK_EST("add, expanded operand", rc, &w, 2048.0, 16388.0, PF_DT_FP32);
    /* mm(bf16 [512, 2048], bf16 [2048, 512] strides [0, 0]) as explicit_bf16.json records its
     * backward: the GEMM reads a contiguous copy, (MK + KN + MN) x 2 = 4718592 */
    pf_arg grad = BF16(2, 2048, 512);
    grad.expanded = 3u;
    rc = RUN("aten::mm", &w, BF16(2, 512, 2048), grad);
    CHECK_NEAR("mm, expanded operand: every element", w.bytes, 4718592.0);
}

/* aten::index: Kineto records no Tensor?[] list, so the elements picked are unknown. */
static void test_index_list(void)
{
    pf_work w;
    int rc = RUN("aten::index", &w, BF16(2, 15360, 4096), NONE);
    CHECK("index, list not recorded: bytes unknown", rc == PF_FORMULA_OK && w.bytes == -1 && w.flop == 0);
    CHECK_STR("index: an estimate, not a generic guess", w.source, "estimate");
    CHECK("index: not generic", w.generic == 0 && w.no_formula == 0);
}

static void test_registered(void)
{
    static const char *const ops[] = {
        "aten::add", "aten::sub", "aten::mul", "aten::div", "aten::pow", "aten::where",
        "aten::maximum", "aten::minimum", "aten::neg", "aten::exp", "aten::log", "aten::sqrt",
        "aten::rsqrt", "aten::sigmoid", "aten::tanh", "aten::relu", "aten::gelu", "aten::silu",
        "aten::clamp_min", "aten::threshold_backward", "aten::gelu_backward", "aten::copy_",
        "aten::fill_", "aten::zero_", "aten::native_layer_norm", "aten::native_layer_norm_backward",
        "aten::native_batch_norm", "aten::native_batch_norm_backward", "aten::cudnn_batch_norm",
        "aten::cudnn_batch_norm_backward", "aten::native_group_norm",
        "aten::native_group_norm_backward", "aten::_fused_rms_norm", "aten::_fused_rms_norm_backward",
        "aten::softmax", "aten::_softmax", "aten::_log_softmax", "aten::_softmax_backward_data",
        "aten::_log_softmax_backward_data", "aten::sum", "aten::mean", "aten::amax", "aten::amin",
        "aten::max", "aten::min", "aten::argmax", "aten::argmin", "aten::norm", "aten::var",
        "aten::std", "aten::prod", "aten::cat", "aten::index_select", "aten::embedding",
        "aten::gather", "aten::scatter", "aten::clone", "aten::_to_copy", "aten::contiguous",
    };
    int n = -1, sorted = 1;
    const pf_op_entry *t = pf_op_family_table(&n);
    for (int i = 1; i < n; i++)
        sorted &= strcmp(t[i - 1].op, t[i].op) < 0;
    CHECK("table sorted with the estimate rows", sorted);
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        CHECK(ops[i], pf_formula_lookup(ops[i]) != NULL);
}

int main(void)
{
    test_broadcast_binary();
    test_type_promotion();
    test_unary();
    test_inplace();
    test_overwrite();
    test_reduce();
    test_reduce_max();
    test_reduce_refusals();
    test_norm();
    test_copies();
    test_cat();
    test_cat_assumed();
    test_more_shapes();
    test_index();
    test_generic();
    test_triton();
    test_generic_custom();
    test_expanded();
    test_index_list();
    test_registered();
    CHECK_DONE();
}
