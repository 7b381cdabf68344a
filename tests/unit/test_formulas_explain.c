/* test_formulas_explain.c - unit tests of the formulas' explanations (--explain): the expressions name the right sizes, and their numbers give back the figures. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "formula_fixtures.h"
#include "profana/formulas.h"

/* ---- an evaluator for the explanations' arithmetic: + * / and parentheses over integers ---- */

typedef struct parser {
    const char *p;
    int bad;
} parser;

static double parse_sum(parser *ps);

static void skip_spaces(parser *ps)
{
    while (*ps->p == ' ')
        ps->p++;
}

static double parse_atom(parser *ps)
{
    skip_spaces(ps);
    if (*ps->p == '(') {
        ps->p++;
        double v = parse_sum(ps);
        skip_spaces(ps);
        if (*ps->p++ != ')')
            ps->bad = 1;
        return v;
    }
    if (!isdigit((unsigned char)*ps->p)) {
        ps->bad = 1;
        return 0;
    }
    char *end;
    double v = strtod(ps->p, &end);
    ps->p = end;
    return v;
}

static double parse_product(parser *ps)
{
    double v = parse_atom(ps);
    for (;;) {
        skip_spaces(ps);
        if (*ps->p != '*' && *ps->p != '/')
            return v;
        char op = *ps->p++;
        double x = parse_atom(ps);
        v = op == '*' ? v * x : v / x;
    }
}

static double parse_sum(parser *ps)
{
    double v = parse_product(ps);
    for (;;) {
        skip_spaces(ps);
        if (*ps->p != '+')
            return v;
        ps->p++;
        v += parse_product(ps);
    }
}

/* The value of the numbers after the last " = " of an explanation; -1 when unreadable. */
static double eval_expr(const char *text)
{
    const char *last = NULL;
    for (const char *s = strstr(text, " = "); s; s = strstr(s + 1, " = "))
        last = s;
    parser ps = {last ? last + 3 : text, 0};
    double v = parse_sum(&ps);
    skip_spaces(&ps);
    return ps.bad || *ps.p ? -1 : v;
}

/* The explanation of an accepted call: its expressions give back its figures. */
static void check_explained(const char *name, int rc, const pf_work *w, const pf_explain *ex, const char *module)
{
    char label[200];
    snprintf(label, sizeof label, "%s: ok", name);
    CHECK(label, rc == PF_FORMULA_OK && w->explain == ex);
    snprintf(label, sizeof label, "%s: module", name);
    CHECK_STR(label, ex->module, module);
    snprintf(label, sizeof label, "%s: bytes expression gives the bytes", name);
    CHECK_NEAR(label, eval_expr(ex->bytes), w->bytes);
    if (w->flop > 0) {
        snprintf(label, sizeof label, "%s: flop expression gives the flop", name);
        CHECK_NEAR(label, eval_expr(ex->flop), w->flop);
    }
}

#define HAS(name, text, part) CHECK(name, strstr((text), (part)) != NULL)

/* ---- GEMM ---- */

static void test_gemm(void)
{
    pf_work w;
    pf_explain ex;
    /* explicit_bf16's first aten::mm: [512, 2048] x [2048, 512] */
    int rc = RUN_EX("aten::mm", PF_DT_BF16, &ex, &w, BF16(2, 512, 2048), BF16(2, 2048, 512));
    check_explained("mm", rc, &w, &ex, "gemm.c");
    CHECK_STR("mm: flop text", ex.flop, "2*M*N*K = 2*512*512*2048");
    CHECK_STR("mm: bytes text", ex.bytes, "A + B + out = 512*2048*2 + 2048*512*2 + 512*512*2");
    CHECK_STR("mm: sizes", ex.sizes, "M=512 K=2048 N=512");
    CHECK_STR("mm: dtype rule", ex.dtype_rule, "the operands (the slower of the two)");
    rc = RUN_EX("aten::bmm", PF_DT_BF16, &ex, &w, BF16(3, 16, 256, 64), BF16(3, 16, 64, 256));
    check_explained("bmm", rc, &w, &ex, "gemm.c");
    CHECK_STR("bmm: flop text", ex.flop, "2*b*M*N*K = 2*16*256*256*64");
    rc = RUN_EX("aten::addmm", PF_DT_FP32, &ex, &w, F32(1, 1024), F32(2, 4096, 1024), F32(2, 1024, 1024), VAL("1"),
                VAL("1"));
    check_explained("addmm", rc, &w, &ex, "gemm.c");
    CHECK_STR("addmm: bytes text", ex.bytes, "C + A + B + out = 1024*4 + 4096*1024*4 + 1024*1024*4 + 4096*1024*4");
    /* a refused call keeps no expression: nothing to mistake for figures */
    rc = RUN_EX("aten::mm", PF_DT_BF16, &ex, &w, BF16(2, 512, 2048), BF16(2, 1024, 512));
    CHECK("mm mismatch: no expressions", rc == PF_FORMULA_MISMATCH && !ex.flop[0] && !ex.bytes[0]);
    CHECK_STR("mm mismatch: source", w.source, "mismatch");
    /* without an explanation asked for, none is pointed to */
    rc = RUN("aten::mm", &w, BF16(2, 512, 2048), BF16(2, 2048, 512));
    CHECK("plain apply: no explanation", rc == PF_FORMULA_OK && w.explain == NULL);
}

/* ---- convolution: cnn_fp32's first cudnn_convolution and a convolution_backward ---- */

static void test_conv(void)
{
    pf_work w;
    pf_explain ex;
    int rc = RUN_EX("aten::cudnn_convolution", PF_DT_FP32, &ex, &w, F32(4, 32, 3, 64, 64), F32(4, 64, 3, 3, 3),
                    LIST("[1, 1]"), LIST("[1, 1]"), LIST("[1, 1]"), VAL("1"), VAL("False"), VAL("False"),
                    VAL("True"));
    check_explained("cudnn_convolution", rc, &w, &ex, "conv.c");
    CHECK_STR("conv: flop text", ex.flop, "2*N*Cout*prod(out)*(Cin/g)*prod(k) = 2*32*64*64*64*3*3*3");
    HAS("conv: output shape read", ex.sizes, "-> output [32, 64, 64, 64]");
    /* convolution_backward(grad_out, input, weight, bias_sizes, stride, padding, dilation,
     * transposed, output_padding, groups, output_mask) with every gradient */
    rc = RUN_EX("aten::convolution_backward", PF_DT_FP32, &ex, &w, F32(4, 32, 256, 16, 16),
                F32(4, 32, 128, 16, 16), F32(4, 256, 128, 1, 1), LIST("[256]"), LIST("[1, 1]"), LIST("[0, 0]"),
                LIST("[1, 1]"), VAL("False"), LIST("[0, 0]"), VAL("1"), LIST("[True, True, True]"));
    check_explained("convolution_backward", rc, &w, &ex, "conv.c");
    HAS("conv backward: flop text", ex.flop, "(grad_input + grad_weight)*2*N*Cout");
    HAS("conv backward: mask read", ex.sizes, "output_mask [True, True, True]");
}

/* ---- attention ---- */

static void test_attention(void)
{
    pf_work w;
    pf_explain ex;
    /* eager_bf16's _cudnn_attention_forward, causal */
    int rc = RUN_EX("aten::_cudnn_attention_forward", PF_DT_BF16, &ex, &w, BF16(4, 8, 16, 512, 64),
                    BF16(4, 8, 16, 512, 64), BF16(4, 8, 16, 512, 64), NONE, NONE, NONE, VAL("512"), VAL("512"),
                    VAL("True"), VAL("0."), VAL("True"), VAL("False"), NONE);
    check_explained("cudnn forward", rc, &w, &ex, "attention.c");
    CHECK_STR("cudnn forward: flop text", ex.flop, "2*B*H*Sq*Sk*(D + Dv)/2 = 2*8*16*512*512*(64 + 64)/2");
    HAS("cudnn forward: causal flag read", ex.sizes, "is_causal True (arg 10): causal, FLOPs halved");
    HAS("cudnn forward: sizes", ex.sizes, "B=8 H=16 Hkv=16 Sq=512 Sk=512 D=64 Dv=64");
    HAS("cudnn forward: logsumexp term", ex.bytes, " + 8*16*512*4");
    /* efficient backward (eager_fp32): custom_mask_type 1 at 14 */
    rc = RUN_EX("aten::_efficient_attention_backward", PF_DT_FP32, &ex, &w, F32(4, 4, 256, 16, 64),
                F32(4, 4, 256, 16, 64), F32(4, 4, 256, 16, 64), F32(4, 4, 256, 16, 64), NONE,
                F32(4, 4, 256, 16, 64), NONE, NONE, VAL("16"), VAL("16"), F32(3, 4, 16, 256), VAL("0."),
                LONG(0), LONG(0), VAL("1"), VAL("False"), NONE, NONE, NONE, VAL("False"));
    check_explained("efficient backward", rc, &w, &ex, "attention.c");
    HAS("efficient backward: flop text", ex.flop, "(3*D + 2*Dv)/2 = 2*4*16*256*256*(3*64 + 2*64)/2");
    HAS("efficient backward: mask read", ex.sizes, "custom_mask_type 1 (arg 14)");
    /* a variable-length flash backward says it is an upper bound */
    rc = RUN_EX("aten::_flash_attention_backward", PF_DT_BF16, &ex, &w, BF16(3, 300, 8, 64), BF16(3, 300, 8, 64),
                BF16(3, 300, 2, 64), BF16(3, 300, 2, 64), BF16(3, 300, 8, 64), F32(2, 8, 300), I32(1, 4), I32(1, 4),
                VAL("128"), VAL("128"), VAL("0."), VAL("True"), tensor("long int", 1, 2), NONE, NONE);
    check_explained("flash backward varlen", rc, &w, &ex, "attention.c");
    HAS("varlen: marked", ex.sizes, "an upper bound");
    CHECK_STR("varlen: source", w.source, "attention~ub");
}

/* ---- estimates ---- */

static void test_estimates(void)
{
    pf_work w;
    pf_explain ex;
    int rc = RUN_EX("aten::add", PF_DT_FP32, &ex, &w, F32(4, 32, 64, 64, 64), F32(4, 1, 64, 1, 1), VAL("1"));
    check_explained("add broadcast", rc, &w, &ex, "elementwise.c");
    CHECK_STR("add: flop text", ex.flop, "numel(output) = 32*64*64*64");
    CHECK_STR("add: bytes text", ex.bytes, "inputs + output = 32*64*64*64*4 + 1*64*1*1*4 + 32*64*64*64*4");
    rc = RUN_EX("aten::add_", PF_DT_BF16, &ex, &w, BF16(1, 1024), BF16(1, 1024), VAL("1"));
    check_explained("add_", rc, &w, &ex, "elementwise.c");
    CHECK_STR("add_: bytes text", ex.bytes, "inputs + self written = 1024*2 + 1024*2 + 1024*2");
    rc = RUN_EX("aten::copy_", PF_DT_BF16, &ex, &w, F32(3, 8, 512, 1024), BF16(3, 8, 512, 1024), VAL("False"));
    check_explained("copy_", rc, &w, &ex, "elementwise.c");
    rc = RUN_EX("aten::sum", PF_DT_BF16, &ex, &w, BF16(2, 4096, 1024), LIST("[0]"), VAL("True"), NONE);
    check_explained("sum keepdim", rc, &w, &ex, "reduce.c");
    HAS("sum: keepdim read", ex.sizes, "keepdim True");
    HAS("sum: output", ex.sizes, "output 1024 elements of 2 bytes");
    rc = RUN_EX("aten::max", PF_DT_FP32, &ex, &w, F32(2, 4, 6), VAL("1"), VAL("False"));
    check_explained("max.dim", rc, &w, &ex, "reduce.c");
    HAS("max.dim: indices", ex.bytes, "+ 4*8");
    rc = RUN_EX("aten::native_layer_norm", PF_DT_BF16, &ex, &w, BF16(3, 8, 512, 1024), LIST("[1024]"),
                BF16(1, 1024), BF16(1, 1024), VAL("1e-05"));
    check_explained("native_layer_norm", rc, &w, &ex, "elementwise.c");
    rc = RUN_EX("aten::index_select", PF_DT_BF16, &ex, &w, BF16(2, 49408, 768), VAL("0"), LONG(1, 5));
    check_explained("index_select", rc, &w, &ex, "copy.c");
    CHECK_STR("index_select: bytes text", ex.bytes, "index + 2*picked*s = 5*8 + 2*3840*2");
    rc = RUN_EX("aten::cat", PF_DT_BF16, &ex, &w, tensor_list(12582912), VAL("2"));
    check_explained("cat assumed", rc, &w, &ex, "copy.c");
    CHECK_STR("cat: bytes text", ex.bytes, "2*numel(list)*s = 2*12582912*2");
    HAS("cat: says the size is assumed", ex.sizes, "assumed: the command line's DTYPE");
    rc = RUN_EX("aten::fractional_max_pool2d_backward", PF_DT_FP32, &ex, &w, F32(4, 32, 64, 32, 32),
                F32(4, 32, 64, 64, 64), LIST("[2, 2]"), LIST("[]"), LIST("[0, 0]"), LIST("[1, 1]"), VAL("False"),
                LONG(4, 32, 64, 32, 32));
    check_explained("generic", rc, &w, &ex, "generic.c");
    HAS("generic: says so", ex.sizes, "no formula");
    rc = RUN_EX("triton_poi_fused_gelu_view_2", PF_DT_BF16, &ex, &w, BF16(2, 4096, 4096), BF16(3, 8, 512, 4096),
                VAL("16777216"));
    check_explained("triton", rc, &w, &ex, "generic.c");
    CHECK_STR("triton: bytes text", ex.bytes, "tensor arguments = 4096*4096*2 + 8*512*4096*2");
    /* a slice kernel: the fused qkv counted at xnumel 1048576 elements */
    rc = RUN_EX("triton_poi_fused_slice_0", PF_DT_BF16, &ex, &w, BF16(2, 1024, 3072), BF16(2, 1024, 1024),
                VAL("1048576"));
    check_explained("triton slice", rc, &w, &ex, "generic.c");
    CHECK_STR("triton slice: bytes text", ex.bytes, "tensor arguments = 1048576*2 + 1024*1024*2");
    HAS("triton slice: says why", ex.sizes, "1 pointer(s) counted at 1048576 elements");
}

/* An explanation too long for its field ends in "..." and stays inside it. */
static void test_cut(void)
{
    pf_arg args[64];
    pf_work w;
    pf_explain ex;
    for (int i = 0; i < 64; i++)
        args[i] = F32(4, 1000, 1000, 10, 10);
    pf_op_call call = {.name = "aten::some_unlisted_op", .nargs = 64, .args = args};
    int rc = pf_formula_apply_ex(&call, PF_DT_FP32, &ex, &w);
    size_t n = strlen(ex.bytes);
    CHECK("long explanation: accepted", rc == PF_FORMULA_OK);
    CHECK("long explanation: inside its field", n < PF_EXPLAIN_LEN);
    CHECK("long explanation: cut with ...", n >= 3 && strcmp(ex.bytes + n - 3, "...") == 0);
}

int main(void)
{
    test_gemm();
    test_conv();
    test_attention();
    test_estimates();
    test_cut();
    CHECK_DONE();
}
