/* registry.c - the table mapping ATen op names to their formula, and the calls that look it up. */
#include "families.h"

#include <stdlib.h>
#include <string.h>

/* Element-wise arithmetic costs one FLOP per element written; comparisons write bool. */
static const pf_formula_spec arith = {.flop = 1};
static const pf_formula_spec compare = {.flop = 1, .result = PF_RESULT_BOOL};
static const pf_formula_spec no_spec;

/* Rows by family; a spec gives the argument positions its formula reads (families.h). */
#define ROW(op, family, fn, spec) {"aten::" op, family, fn, spec}
#define SPEC(...) (&(const pf_formula_spec){__VA_ARGS__})
#define GEMM(op, fn) ROW(op, "gemm", fn, NULL)
#define CONV(op, fn) ROW(op, "conv", fn, NULL)
#define ATTENTION(op) ROW(op, "attention", pf_attention, NULL)
#define ARITH(op) ROW(op, "elementwise", pf_est_pointwise, &arith)
#define COMPARE(op) ROW(op, "elementwise", pf_est_pointwise, &compare)
#define INPLACE(op) ROW(op, "elementwise", pf_est_inplace, &arith)
#define OVERWRITE(op) ROW(op, "copy", pf_est_overwrite, NULL)
#define NORM(op, spec) ROW(op, "norm", pf_est_like_input, spec)
#define COPY(op, spec) ROW(op, "copy", pf_est_like_input, spec)
#define REDUCE(op, spec) ROW(op, "reduce", pf_est_reduce, spec)
#define INDEX(op, fn, spec) ROW(op, "index", fn, spec)

/* Lookups run once per op invocation, so the table is searched by bisection: keep it sorted
 * by strcmp of the op name (the unit tests check). Positions in the specs follow
 * native_functions.yaml. max and min set flop for their element-wise overload (max.other);
 * as reductions they count none. */
static const pf_formula pf_formula_rows[] = {
    CONV("_conv_depthwise2d", pf_conv_forward),
    CONV("_convolution", pf_conv_forward),
    ATTENTION("_cudnn_attention_backward"),
    ATTENTION("_cudnn_attention_forward"),
    ATTENTION("_efficient_attention_backward"),
    ATTENTION("_efficient_attention_forward"),
    ATTENTION("_flash_attention_backward"),
    ATTENTION("_flash_attention_forward"),
    NORM("_fused_rms_norm", NULL),
    NORM("_fused_rms_norm_backward", NULL),
    NORM("_log_softmax", SPEC(.float_at = 2)),
    NORM("_log_softmax_backward_data", SPEC(.dtype_at = 3)),
    NORM("_native_batch_norm_legit", NULL),
    NORM("_native_batch_norm_legit_no_training", NULL),
    NORM("_safe_softmax", SPEC(.dtype_at = 2)),
    ATTENTION("_scaled_dot_product_cudnn_attention"),
    ATTENTION("_scaled_dot_product_cudnn_attention_backward"),
    ATTENTION("_scaled_dot_product_efficient_attention"),
    ATTENTION("_scaled_dot_product_efficient_attention_backward"),
    ATTENTION("_scaled_dot_product_flash_attention"),
    ATTENTION("_scaled_dot_product_flash_attention_backward"),
    GEMM("_scaled_mm", pf_gemm_scaled_mm),
    CONV("_slow_conv2d_forward", pf_conv_forward),
    NORM("_softmax", SPEC(.float_at = 2)),
    NORM("_softmax_backward_data", SPEC(.dtype_at = 3)),
    COPY("_to_copy", SPEC(.dtype_at = 1)),
    ARITH("abs"),
    INPLACE("abs_"),
    ARITH("acos"),
    ARITH("add"),
    INPLACE("add_"),
    ARITH("addcdiv"),
    INPLACE("addcdiv_"),
    ARITH("addcmul"),
    INPLACE("addcmul_"),
    GEMM("addmm", pf_gemm_addmm),
    REDUCE("all", SPEC(.dim_at = 1, .result = PF_RESULT_BOOL)),
    REDUCE("amax", SPEC(.dim_at = 1)),
    REDUCE("amin", SPEC(.dim_at = 1)),
    REDUCE("any", SPEC(.dim_at = 1, .result = PF_RESULT_BOOL)),
    REDUCE("argmax", SPEC(.dim_at = 1, .result = PF_RESULT_LONG)),
    REDUCE("argmin", SPEC(.dim_at = 1, .result = PF_RESULT_LONG)),
    ARITH("asin"),
    ARITH("atan"),
    ARITH("atan2"),
    GEMM("baddbmm", pf_gemm_baddbmm),
    NORM("batch_norm_backward", NULL),
    OVERWRITE("bernoulli_"),
    ARITH("bitwise_and"),
    ARITH("bitwise_not"),
    ARITH("bitwise_or"),
    ARITH("bitwise_xor"),
    GEMM("bmm", pf_gemm_bmm),
    ROW("cat", "copy", pf_est_cat, NULL),
    ARITH("ceil"),
    ARITH("clamp"),
    INPLACE("clamp_"),
    ARITH("clamp_max"),
    INPLACE("clamp_max_"),
    ARITH("clamp_min"),
    INPLACE("clamp_min_"),
    COPY("clone", NULL),
    COPY("contiguous", NULL),
    CONV("convolution", pf_conv_forward),
    CONV("convolution_backward", pf_conv_backward),
    CONV("convolution_overrideable", pf_conv_forward),
    OVERWRITE("copy_"),
    ARITH("cos"),
    ARITH("cosh"),
    NORM("cudnn_batch_norm", NULL),
    NORM("cudnn_batch_norm_backward", NULL),
    CONV("cudnn_convolution", pf_conv_forward),
    CONV("cudnn_convolution_transpose", pf_conv_forward),
    ROW("cumprod", "reduce", pf_est_like_input, SPEC(.dtype_at = 2)),
    ROW("cumsum", "reduce", pf_est_like_input, SPEC(.dtype_at = 2)),
    ARITH("div"),
    INPLACE("div_"),
    ARITH("elu"),
    INPLACE("elu_"),
    ARITH("elu_backward"),
    INDEX("embedding", pf_est_index_rows, SPEC(.index_at = 1)),
    COMPARE("eq"),
    ARITH("erf"),
    ARITH("erfinv"),
    ARITH("exp"),
    ARITH("exp2"),
    INPLACE("exp_"),
    ARITH("expm1"),
    OVERWRITE("exponential_"),
    OVERWRITE("fill_"),
    ARITH("floor"),
    INPLACE("floor_"),
    ARITH("fmod"),
    ARITH("frac"),
    INDEX("gather", pf_est_gather, SPEC(.index_at = 2)),
    COMPARE("ge"),
    ARITH("gelu"),
    INPLACE("gelu_"),
    ARITH("gelu_backward"),
    COMPARE("gt"),
    ARITH("hardsigmoid"),
    ARITH("hardsigmoid_backward"),
    ARITH("hardswish"),
    ARITH("hardswish_backward"),
    ARITH("hardtanh"),
    INPLACE("hardtanh_"),
    ARITH("hardtanh_backward"),
    INDEX("index_select", pf_est_index_rows, SPEC(.dim_at = 1, .index_at = 2)),
    COMPARE("isinf"),
    COMPARE("isnan"),
    COMPARE("le"),
    ARITH("leaky_relu"),
    INPLACE("leaky_relu_"),
    ARITH("leaky_relu_backward"),
    ARITH("lerp"),
    INPLACE("lerp_"),
    REDUCE("linalg_vector_norm", SPEC(.dim_at = 2, .dtype_at = 4)),
    ARITH("log"),
    ARITH("log10"),
    ARITH("log1p"),
    ARITH("log2"),
    INPLACE("log_"),
    NORM("log_softmax", SPEC(.dtype_at = 2)),
    COMPARE("logical_and"),
    COMPARE("logical_not"),
    COMPARE("logical_or"),
    COMPARE("logical_xor"),
    ARITH("logit"),
    REDUCE("logsumexp", SPEC(.dim_at = 1)),
    COMPARE("lt"),
    ARITH("masked_fill"),
    INPLACE("masked_fill_"),
    REDUCE("max", SPEC(.dim_at = 1, .indices = 1, .flop = 1)),
    ARITH("maximum"),
    REDUCE("mean", SPEC(.dim_at = 1, .dtype_at = 3)),
    REDUCE("min", SPEC(.dim_at = 1, .indices = 1, .flop = 1)),
    ARITH("minimum"),
    NORM("miopen_batch_norm", NULL),
    NORM("miopen_batch_norm_backward", NULL),
    CONV("miopen_convolution", pf_conv_forward),
    ARITH("mish"),
    CONV("mkldnn_convolution", pf_conv_forward),
    GEMM("mm", pf_gemm_mm),
    ARITH("mul"),
    INPLACE("mul_"),
    ARITH("nan_to_num"),
    REDUCE("nansum", SPEC(.dim_at = 1, .dtype_at = 3)),
    NORM("native_batch_norm", NULL),
    NORM("native_batch_norm_backward", NULL),
    ARITH("native_dropout"),
    ARITH("native_dropout_backward"),
    NORM("native_group_norm", NULL),
    NORM("native_group_norm_backward", NULL),
    NORM("native_layer_norm", NULL),
    NORM("native_layer_norm_backward", NULL),
    COMPARE("ne"),
    ARITH("neg"),
    INPLACE("neg_"),
    REDUCE("norm", SPEC(.dim_at = 2, .dtype_at = 4)),
    OVERWRITE("normal_"),
    ARITH("pow"),
    INPLACE("pow_"),
    REDUCE("prod", SPEC(.dim_at = 1, .dtype_at = 3)),
    OVERWRITE("random_"),
    ARITH("reciprocal"),
    INPLACE("reciprocal_"),
    ARITH("relu"),
    INPLACE("relu_"),
    ARITH("remainder"),
    ARITH("round"),
    INPLACE("round_"),
    ARITH("rsqrt"),
    INPLACE("rsqrt_"),
    ARITH("rsub"),
    COPY("scatter", NULL),
    COPY("scatter_add", NULL),
    ARITH("sigmoid"),
    INPLACE("sigmoid_"),
    ARITH("sigmoid_backward"),
    ARITH("sign"),
    ARITH("silu"),
    INPLACE("silu_"),
    ARITH("silu_backward"),
    ARITH("sin"),
    ARITH("sinh"),
    NORM("softmax", SPEC(.dtype_at = 2)),
    ARITH("softplus"),
    ARITH("softplus_backward"),
    ARITH("sqrt"),
    INPLACE("sqrt_"),
    ARITH("square"),
    ROW("stack", "copy", pf_est_cat, NULL),
    REDUCE("std", SPEC(.dim_at = 1)),
    ARITH("sub"),
    INPLACE("sub_"),
    REDUCE("sum", SPEC(.dim_at = 1, .dtype_at = 3)),
    ARITH("tan"),
    ARITH("tanh"),
    INPLACE("tanh_"),
    ARITH("tanh_backward"),
    ARITH("threshold"),
    INPLACE("threshold_"),
    ARITH("threshold_backward"),
    ARITH("trunc"),
    OVERWRITE("uniform_"),
    REDUCE("var", SPEC(.dim_at = 1)),
    ARITH("where"),
    ARITH("xlogy"),
    OVERWRITE("zero_"),
};

enum { ROW_COUNT = (int)(sizeof pf_formula_rows / sizeof pf_formula_rows[0]) };

static int compare_name(const void *key, const void *row)
{
    return strcmp((const char *)key, ((const pf_formula *)row)->op);
}

const pf_formula *pf_formula_lookup(const char *op_name)
{
    if (!op_name)
        return NULL;
    return bsearch(op_name, pf_formula_rows, ROW_COUNT, sizeof pf_formula_rows[0], compare_name);
}

const pf_formula_spec *pf_spec_of(const pf_op_call *call)
{
    const pf_formula *f = pf_formula_lookup(call->name);
    return f && f->spec ? f->spec : &no_spec;
}

/* Element size of a precision, for tensors whose type the trace does not record. */
static int dtype_size(pf_dtype d)
{
    static const unsigned char sizes[PF_DT_COUNT] = {
        [PF_DT_FP64] = 8, [PF_DT_FP32] = 4, [PF_DT_TF32] = 4, [PF_DT_BF16] = 2,
        [PF_DT_FP16] = 2, [PF_DT_FP8] = 1,  [PF_DT_INT8] = 1,
    };
    return d >= 0 && d < PF_DT_COUNT ? sizes[d] : 0;
}

static void reset_work(pf_work *w, pf_explain *ex, const char *source)
{
    *w = (pf_work){.flop = -1, .bytes = -1, .dtype = PF_DT_UNKNOWN, .source = source, .explain = ex};
}

/* An op that recorded no arguments (shapes were off) has no figures, formula or not. */
static int apply(const pf_op_call *call, pf_work *w)
{
    pf_explain *ex = w->explain;
    if (call->nargs == 0)
        return -1;
    const pf_formula *f = pf_formula_lookup(call->name);
    int sane = call->nargs > 0 && call->args;
    if (!f)
        return sane ? pf_estimate_unlisted(call, w) : -1;
    int rc = sane ? f->fn(call, w) : PF_FORMULA_BAD_ARGS;
    if (rc == PF_FORMULA_OK)
        return rc;
    if (rc != PF_FORMULA_MISMATCH)
        rc = PF_FORMULA_BAD_ARGS;
    reset_work(w, ex, rc == PF_FORMULA_MISMATCH ? "mismatch" : "bad-args");
    /* a refused call has no figures: only the sizes read stay, to show why */
    if (ex)
        ex->flop[0] = ex->bytes[0] = 0;
    return rc;
}

int pf_formula_apply(const pf_op_call *call, pf_work *w)
{
    return pf_formula_apply_ex(call, PF_DT_UNKNOWN, NULL, w);
}

int pf_formula_apply_ex(const pf_op_call *call, pf_dtype assumed, pf_explain *ex, pf_work *w)
{
    if (!call || !w)
        return -1;
    if (ex)
        memset(ex, 0, sizeof *ex);
    reset_work(w, ex, NULL);
    pf_op_call c = *call;
    c.assumed_size = dtype_size(assumed);
    return apply(&c, w);
}

const pf_formula *pf_formula_table(int *count)
{
    if (count)
        *count = ROW_COUNT;
    return pf_formula_rows;
}
