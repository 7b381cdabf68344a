/* test_formulas_writes.c - unit tests, by hand values, of what ops write rather than read: out= arguments, in-place writes through an index (index_copy_, index_add_, scatter_, index_put_), embedding_dense_backward, nll_loss, arange, dropout and the softmax backwards. */
#include <stdint.h>

#include "check.h"
#include "formula_fixtures.h"
#include "profana/formulas.h"

static void check_est(const char *name, int rc, const pf_work *w, double flop, double bytes, pf_dtype dtype)
{
    check_work(name, rc, w, flop, bytes, dtype, 0, 0, 0, "estimate");
}

static void check_ub(const char *name, int rc, const pf_work *w, double flop, double bytes, pf_dtype dtype)
{
    check_work(name, rc, w, flop, bytes, dtype, 0, 1, 0, "estimate~ub");
}

/* ---- out= is written, not read ---- */

static void test_out_arg(void)
{
    pf_work w;
    /* DDP's gradient scaling, mul(self [8192,2048] bf16, 0-d double, out [8192,2048] bf16):
     * read self 8192*2048*2 = 33554432 + the scalar 8, write out 33554432 = 67108872
     * (counting out as read too gave 100663304). FLOP one per element: 16777216 */
    int rc = RUN("aten::mul", &w, BF16(2, 8192, 2048), F64(0), BF16(2, 8192, 2048));
    check_est("mul(self, scalar, out)", rc, &w, 16777216.0, 67108872.0, PF_DT_BF16);
    /* the same as mul_out's DDP rows of the MI300 ResNet trace: [1000,512] bf16:
     * 1024000 + 8 + 1024000 = 2048008 */
    rc = RUN("aten::mul", &w, BF16(2, 1000, 512), F64(0), BF16(2, 1000, 512));
    check_est("mul(self, scalar, out) [1000,512]", rc, &w, 512000.0, 2048008.0, PF_DT_BF16);
    /* rnn_fft's mul(0-d double, float [64,8192], out float [64,8192]):
     * 8 + 2097152 read + 2097152 written = 4194312 */
    rc = RUN("aten::mul", &w, F64(0), F32(2, 64, 8192), F32(2, 64, 8192));
    check_est("mul(0-d, other, out)", rc, &w, 524288.0, 4194312.0, PF_DT_FP32);
    /* add.out(self [4,4], other [4], alpha, out [4,4]) fp32: 64 + 16 read, 64 written = 144 */
    rc = RUN("aten::add", &w, F32(2, 4, 4), F32(1, 4), VAL("1"), F32(2, 4, 4));
    check_est("add(self, other, alpha, out)", rc, &w, 16.0, 144.0, PF_DT_FP32);
    /* add without out: alpha is last, no destination among the arguments: 64 + 16 + 64 */
    rc = RUN("aten::add", &w, F32(2, 4, 4), F32(1, 4), VAL("1"));
    check_est("add(self, other, alpha)", rc, &w, 16.0, 144.0, PF_DT_FP32);
    /* div.Tensor_mode(self, other, rounding_mode): a third argument that is no tensor is no
     * out=: 16 + 16 + 16 = 48 */
    rc = RUN("aten::div", &w, F32(1, 4), F32(1, 4), scalar("str", "floor"));
    check_est("div(self, other, rounding_mode)", rc, &w, 4.0, 48.0, PF_DT_FP32);
    /* out= of another type sets the element size written: eq(f32 [10], f32 [10], out bool
     * [10]): 40 + 40 + 10 = 90 */
    rc = RUN("aten::eq", &w, F32(1, 10), F32(1, 10), BOOL(1, 10));
    check_est("eq(self, other, out bool)", rc, &w, 10.0, 90.0, PF_DT_FP32);
    /* an empty out= that PyTorch resizes: the inputs' broadcast still says how many
     * elements are written: 400 + 400 + 100*4 = 1200 */
    rc = RUN("aten::mul", &w, F32(1, 100), F32(1, 100), F32(1, 0));
    check_est("mul with an empty out= to resize", rc, &w, 100.0, 1200.0, PF_DT_FP32);
    /* where(cond [1], self [10], other [10]) has three tensors and no out=: 1 + 40 + 40 +
     * 40 = 121 */
    rc = RUN("aten::where", &w, BOOL(1, 1), F32(1, 10), F32(1, 10));
    check_est("where without out=", rc, &w, 10.0, 121.0, PF_DT_FP32);
    /* where.self_out(cond, self, other, out): 1 + 40 + 40 read + 40 written = 121 */
    rc = RUN("aten::where", &w, BOOL(1, 1), F32(1, 10), F32(1, 10), F32(1, 10));
    check_est("where with out=", rc, &w, 10.0, 121.0, PF_DT_FP32);
    /* unary exp.out(self [256] bf16, out): 512 + 512 = 1024 */
    rc = RUN("aten::exp", &w, BF16(1, 256), BF16(1, 256));
    check_est("exp(self, out)", rc, &w, 256.0, 1024.0, PF_DT_BF16);
    /* a generic ATen op named *_out writes into its arguments: each tensor once, no output
     * invented: 4000 + 4000 = 8000 (the functional rule would add 4000) */
    rc = RUN("aten::_some_op_out", &w, F32(1, 1000), F32(1, 1000));
    check_work("generic *_out", rc, &w, -1.0, 8000.0, PF_DT_FP32, 0, 0, 1, "generic");
}

/* ---- in-place writes through an index ---- */

static void test_index_copy(void)
{
    pf_work w;
    /* kv_decode's KV-cache update: index_copy_(self [16,32,2048,128] bf16, dim 2, index [1]
     * long, source [16,32,1,128] bf16): index 8 + source 16*32*128*2 = 131072 read, as many
     * elements of self written, 131072: 262152 (not the 268 MB cache) */
    int rc = RUN("aten::index_copy_", &w, BF16(4, 16, 32, 2048, 128), VAL("2"), LONG(1, 1), BF16(4, 16, 32, 1, 128));
    check_est("index_copy_ KV cache", rc, &w, 0.0, 262152.0, PF_DT_BF16);
    /* a negative dim counts from the end: dim -2 is 2 */
    rc = RUN("aten::index_copy_", &w, BF16(4, 16, 32, 2048, 128), VAL("-2"), LONG(1, 1), BF16(4, 16, 32, 1, 128));
    check_est("index_copy_ dim -2", rc, &w, 0.0, 262152.0, PF_DT_BF16);
    /* two indices for a source with one slice along dim */
    rc = RUN("aten::index_copy_", &w, BF16(4, 16, 32, 2048, 128), VAL("2"), LONG(1, 2), BF16(4, 16, 32, 1, 128));
    check_refused("index_copy_ index/source disagree", rc, &w, PF_FORMULA_MISMATCH);
    rc = RUN("aten::index_copy_", &w, BF16(2, 16, 32), VAL("5"), LONG(1, 1), BF16(2, 16, 1));
    check_refused("index_copy_ dim out of range", rc, &w, PF_FORMULA_MISMATCH);
    rc = RUN("aten::index_copy_", &w, BF16(2, 16, 32), VAL(""), LONG(1, 1), BF16(2, 16, 1));
    check_refused("index_copy_ dim unrecorded", rc, &w, PF_FORMULA_BAD_ARGS);
    /* index_add_(self [100,64] f32, 0, index [10], source [10,64], alpha): index 80 +
     * source 2560 read, the 640 elements of self it adds to read and written 2*2560:
     * 7760; one FLOP per element added, 640 */
    rc = RUN("aten::index_add_", &w, F32(2, 100, 64), VAL("0"), LONG(1, 10), F32(2, 10, 64), VAL("1"));
    check_est("index_add_", rc, &w, 640.0, 7760.0, PF_DT_FP32);
}

static void test_scatter(void)
{
    pf_work w;
    /* scatter_(self [8,1000] f32, 1, index [8,1], src [8,1]): 8 elements: index 64 + 8*(4
     * read of src + 4 written) = 128 */
    int rc = RUN("aten::scatter_", &w, F32(2, 8, 1000), VAL("1"), LONG(2, 8, 1), F32(2, 8, 1));
    check_est("scatter_ src", rc, &w, 0.0, 128.0, PF_DT_FP32);
    /* scatter_.value(self, 1, index [8,1], 1.0): 64 + 8*4 = 96 */
    rc = RUN("aten::scatter_", &w, F32(2, 8, 1000), VAL("1"), LONG(2, 8, 1), VAL("1.0"));
    check_est("scatter_ value", rc, &w, 0.0, 96.0, PF_DT_FP32);
    /* src larger than index: only the index's positions are read. index [8,5], src [8,10]:
     * 40 elements: 320 + 40*(4 + 4) = 640 */
    rc = RUN("aten::scatter_", &w, F32(2, 8, 1000), VAL("1"), LONG(2, 8, 5), F32(2, 8, 10));
    check_est("scatter_ src larger than index", rc, &w, 0.0, 640.0, PF_DT_FP32);
    /* scatter_add_(self [8,1000], 1, index [8,5], src [8,5]): 40 elements read from src,
     * read and written in self: 320 + 40*(4 + 2*4) = 800; 40 FLOP */
    rc = RUN("aten::scatter_add_", &w, F32(2, 8, 1000), VAL("1"), LONG(2, 8, 5), F32(2, 8, 5));
    check_est("scatter_add_", rc, &w, 40.0, 800.0, PF_DT_FP32);
    /* scatter_.reduce(self, dim, index, src, "add") accumulates too: 800, 40 FLOP */
    rc = RUN("aten::scatter_", &w, F32(2, 8, 1000), VAL("1"), LONG(2, 8, 5), F32(2, 8, 5), scalar("str", "add"));
    check_est("scatter_ reduce", rc, &w, 40.0, 800.0, PF_DT_FP32);
    rc = RUN("aten::scatter_", &w, F32(2, 8, 1000), VAL("1"), LONG(1, 8), F32(2, 8, 5));
    check_refused("scatter_ index rank differs from self", rc, &w, PF_FORMULA_MISMATCH);
}

static void test_index_put(void)
{
    pf_work w;
    /* _index_put_impl_(self [1000,64] f32, indices (a Tensor?[]: recorded as nothing),
     * values [10,64], accumulate True, unsafe): the 10 indices' bytes are not in the trace,
     * so the bytes are unknown; the 640 adds are known */
    int rc = RUN("aten::_index_put_impl_", &w, F32(2, 1000, 64), NONE, F32(2, 10, 64), VAL("True"), VAL("False"));
    check_est("_index_put_impl_ list unrecorded", rc, &w, 640.0, -1.0, PF_DT_FP32);
    /* a list that records its element type (long): 10*8 = 80 + values 2560 + 2*2560 = 7760 */
    pf_arg list = tensor_list(10);
    list.type = "long int";
    rc = RUN("aten::_index_put_impl_", &w, F32(2, 1000, 64), list, F32(2, 10, 64), VAL("True"), VAL("False"));
    check_est("_index_put_impl_ typed list", rc, &w, 640.0, 7760.0, PF_DT_FP32);
    /* index_put_(self, indices, values [10,64], False): 80 + 2560 + 2560 = 5200, 0 FLOP */
    rc = RUN("aten::index_put_", &w, F32(2, 1000, 64), list, F32(2, 10, 64), VAL("False"));
    check_est("index_put_ typed list", rc, &w, 0.0, 5200.0, PF_DT_FP32);
    /* x[mask] = 0: a 0-d values broadcast over a part the trace does not size: unknown */
    rc = RUN("aten::index_put_", &w, F32(2, 1000, 64), list, F32(0), VAL("False"));
    check_est("index_put_ 0-d values", rc, &w, 0.0, -1.0, PF_DT_FP32);
    rc = RUN("aten::index_put_", &w, F32(2, 1000, 64), list, F32(2, 10, 64), VAL("maybe"));
    check_refused("index_put_ accumulate unreadable", rc, &w, PF_FORMULA_BAD_ARGS);
}

static void test_embedding_backward(void)
{
    pf_work w;
    /* embedding_dense_backward(grad [8,512,768] bf16, indices [8,512], 32000, -1, False):
     * n = 4096 indices, D = 768. Read indices 4096*8 = 32768 and grad 4096*768*2 =
     * 6291456; written at most min(4096, 32000) = 4096 rows of 768 bf16 = 6291456:
     * 12615680, an upper bound. FLOP 4096*768 = 3145728 */
    int rc = RUN("aten::embedding_dense_backward", &w, BF16(3, 8, 512, 768), LONG(2, 8, 512), VAL("32000"),
                 VAL("-1"), VAL("False"));
    check_ub("embedding_dense_backward", rc, &w, 3145728.0, 12615680.0, PF_DT_BF16);
    /* 10 rows in the table: at most 10 rows written, 10*768*2 = 15360: 6339584 */
    rc = RUN("aten::embedding_dense_backward", &w, BF16(3, 8, 512, 768), LONG(2, 8, 512), VAL("10"), VAL("-1"),
             VAL("False"));
    check_ub("embedding_dense_backward small table", rc, &w, 3145728.0, 6339584.0, PF_DT_BF16);
    rc = RUN("aten::embedding_dense_backward", &w, BF16(3, 8, 511, 768), LONG(2, 8, 512), VAL("10"), VAL("-1"),
             VAL("False"));
    check_refused("embedding_dense_backward grad/indices disagree", rc, &w, PF_FORMULA_MISMATCH);
}

static void test_nll_loss(void)
{
    pf_work w;
    /* an LLM step's nll_loss_forward(log-probs [4096,32000] f32, target [4096] long, no
     * weight, reduction 1 (mean), ignore_index): one element per row read 4096*4 = 16384,
     * targets 32768, the loss and total_weight written 2*4: 49160 (the generic guess
     * counted the matrix twice, 1048608776). FLOP one per row, 4096 */
    int rc = RUN("aten::nll_loss_forward", &w, F32(2, 4096, 32000), LONG(1, 4096), NONE, VAL("1"), VAL("-100"));
    check_est("nll_loss_forward mean", rc, &w, 4096.0, 49160.0, PF_DT_FP32);
    /* reduction 0 (none): 4096 losses written, 16384 + 32768 + 16384 = 65536 */
    rc = RUN("aten::nll_loss_forward", &w, F32(2, 4096, 32000), LONG(1, 4096), NONE, VAL("0"), VAL("-100"));
    check_est("nll_loss_forward none", rc, &w, 4096.0, 65536.0, PF_DT_FP32);
    /* class weights [32000]: at most min(4096, 32000) read, 16384: 65544, an upper bound */
    rc = RUN("aten::nll_loss_forward", &w, F32(2, 4096, 32000), LONG(1, 4096), F32(1, 32000), VAL("1"), VAL("-100"));
    check_ub("nll_loss_forward weighted", rc, &w, 4096.0, 65544.0, PF_DT_FP32);
    /* one sample: self [10], target 0-d: 4 + 8 + 8 = 20 */
    rc = RUN("aten::nll_loss_forward", &w, F32(1, 10), LONG(0), NONE, VAL("2"), VAL("-100"));
    check_est("nll_loss_forward one sample", rc, &w, 1.0, 20.0, PF_DT_FP32);
    rc = RUN("aten::nll_loss_forward", &w, F32(2, 4096, 32000), LONG(1, 4095), NONE, VAL("1"), VAL("-100"));
    check_refused("nll_loss_forward target rows differ", rc, &w, PF_FORMULA_MISMATCH);
    rc = RUN("aten::nll_loss_forward", &w, F32(2, 4096, 32000), LONG(1, 4096), NONE, VAL("7"), VAL("-100"));
    check_refused("nll_loss_forward bad reduction", rc, &w, PF_FORMULA_BAD_ARGS);
    /* nll_loss_backward(grad_output 0-d f32, self [4096,32000], target [4096], no weight,
     * 1, -100, total_weight 0-d): grad_input is zeroed by a nested aten::zero_; this op
     * writes one element per row: 4 + 32768 + 4 + 4096*4 = 49160. FLOP 4096 */
    rc = RUN("aten::nll_loss_backward", &w, F32(0), F32(2, 4096, 32000), LONG(1, 4096), NONE, VAL("1"),
             VAL("-100"), F32(0));
    check_est("nll_loss_backward", rc, &w, 4096.0, 49160.0, PF_DT_FP32);
    /* reduction none: grad_output [4096]: 16384 + 32768 + 4 + 16384 = 65540 */
    rc = RUN("aten::nll_loss_backward", &w, F32(1, 4096), F32(2, 4096, 32000), LONG(1, 4096), NONE, VAL("0"),
             VAL("-100"), F32(0));
    check_est("nll_loss_backward none", rc, &w, 4096.0, 65540.0, PF_DT_FP32);
}

static void test_arange(void)
{
    pf_work w;
    /* SGLang's arange.start_out(223, 238, 1, out long [0]): 15 int64 written = 120 */
    int rc = RUN("aten::arange", &w, VAL("223"), VAL("238"), VAL("1"), LONG(1, 0));
    check_est("arange start_out", rc, &w, 15.0, 120.0, PF_DT_UNKNOWN);
    /* SGLang's arange.start(223, 238, dtype 4 = int64, layout, device, pin_memory): 120 */
    rc = RUN("aten::arange", &w, VAL("223"), VAL("238"), VAL("4"), NONE, NONE, VAL("False"));
    check_est("arange start with dtype", rc, &w, 15.0, 120.0, PF_DT_UNKNOWN);
    /* owlv2's arange(5, dtype None, ...): integer bounds make int64: 5*8 = 40 */
    rc = RUN("aten::arange", &w, VAL("5"), NONE, NONE, NONE, VAL("False"));
    check_est("arange end", rc, &w, 5.0, 40.0, PF_DT_UNKNOWN);
    /* arange.start_step(0, 10, 3, dtype 6 = float, ...): ceil(10/3) = 4 floats = 16 */
    rc = RUN("aten::arange", &w, VAL("0"), VAL("10"), VAL("3"), VAL("6"), NONE, NONE, VAL("False"));
    check_est("arange start_step float", rc, &w, 4.0, 16.0, PF_DT_UNKNOWN);
    /* arange(0, 1.5, 0.5, out float [0]): 3 floats = 12 */
    rc = RUN("aten::arange", &w, VAL("0"), VAL("1.5"), VAL("0.5"), F32(1, 0));
    check_est("arange float out", rc, &w, 3.0, 12.0, PF_DT_FP32);
    /* arange(2.5) without dtype: the default dtype is not recorded: 3 elements, bytes unknown */
    rc = RUN("aten::arange", &w, VAL("2.5"), NONE, NONE, NONE, VAL("False"));
    check_est("arange float end, default dtype", rc, &w, 3.0, -1.0, PF_DT_UNKNOWN);
    /* an empty range writes nothing */
    rc = RUN("aten::arange", &w, VAL("5"), VAL("1"), VAL("1"), LONG(1, 0));
    check_est("arange empty", rc, &w, 0.0, 0.0, PF_DT_UNKNOWN);
    rc = RUN("aten::arange", &w, VAL("0"), VAL("5"), VAL("0"), LONG(1, 0));
    check_refused("arange step 0", rc, &w, PF_FORMULA_BAD_ARGS);
    rc = RUN("aten::arange", &w, VAL("-1e308"), VAL("1e308"), VAL("1e-308"), LONG(1, 0));
    check_refused("arange of an overflowing length", rc, &w, PF_FORMULA_BAD_ARGS);
    rc = RUN("aten::arange", &w, VAL("0"), VAL("1.7e308"), VAL("1"), LONG(1, 0));
    check_refused("arange longer than int64", rc, &w, PF_FORMULA_BAD_ARGS);
    rc = RUN("aten::arange", &w, VAL("0"), VAL("five"), VAL("1"), LONG(1, 0));
    check_refused("arange bound unreadable", rc, &w, PF_FORMULA_BAD_ARGS);
}

static void test_dropout_softmax(void)
{
    pf_work w;
    /* native_dropout(input [8,512,768] bf16, 0.1, True): 3145728 elements: input 6291456
     * read, output 6291456 and bool mask 3145728 written = 15728640; one FLOP each */
    int rc = RUN("aten::native_dropout", &w, BF16(3, 8, 512, 768), VAL("0.1"), VAL("True"));
    check_est("native_dropout", rc, &w, 3145728.0, 15728640.0, PF_DT_BF16);
    /* native_dropout_backward(grad [8,512,768] bf16, mask bool, scale 1.111): 6291456 +
     * 3145728 read, 6291456 written = 15728640 */
    rc = RUN("aten::native_dropout_backward", &w, BF16(3, 8, 512, 768), BOOL(3, 8, 512, 768), VAL("1.1111"));
    check_est("native_dropout_backward", rc, &w, 3145728.0, 15728640.0, PF_DT_BF16);
    /* _softmax_backward_data(grad [8,12,512,512] f32, output, dim -1, input_dtype 15
     * (bf16)): 25165824 elements: 2*100663296 read + 25165824*2 written = 251658240; 0 FLOP
     * (as the norms count) */
    rc = RUN("aten::_softmax_backward_data", &w, F32(4, 8, 12, 512, 512), F32(4, 8, 12, 512, 512), VAL("-1"),
             VAL("15"));
    check_est("_softmax_backward_data to bf16", rc, &w, 0.0, 251658240.0, PF_DT_FP32);
    /* _log_softmax_backward_data(grad [4096,32000] f32, output, 1, float 6): 3*524288000 */
    rc = RUN("aten::_log_softmax_backward_data", &w, F32(2, 4096, 32000), F32(2, 4096, 32000), VAL("1"), VAL("6"));
    check_est("_log_softmax_backward_data", rc, &w, 0.0, 1572864000.0, PF_DT_FP32);
}

static void test_explain(void)
{
    pf_explain ex;
    pf_work w;
    int rc = RUN_EX("aten::index_copy_", PF_DT_UNKNOWN, &ex, &w, BF16(4, 16, 32, 2048, 128), VAL("2"), LONG(1, 1),
                    BF16(4, 16, 32, 1, 128));
    CHECK("explain index_copy_: ok", rc == PF_FORMULA_OK);
    CHECK_STR("explain index_copy_: bytes", ex.bytes, "index + source + part of self = 1*8 + 16*32*1*128*2 + 65536*2");
    rc = RUN_EX("aten::mul", PF_DT_UNKNOWN, &ex, &w, BF16(2, 8192, 2048), F64(0), BF16(2, 8192, 2048));
    CHECK_STR("explain mul out=: bytes", ex.bytes, "inputs + out= written = 8192*2048*2 + 8 + 8192*2048*2");
}

int main(void)
{
    test_out_arg();
    test_index_copy();
    test_scatter();
    test_index_put();
    test_embedding_backward();
    test_nll_loss();
    test_arange();
    test_dropout_softmax();
    test_explain();
    CHECK_DONE();
}
