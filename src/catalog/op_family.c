/* op_family.c - the one table of ATen ops (family, formula, the arguments that describe a call) and its lookup. */
#include "profana/op_family.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* A row: E(op, family, formula, spec, key, category). Positions follow native_functions.yaml,
 * as src/formulas/ reads them. */
#define E(o, fam, form, sp, k, cat) {.op = "aten::" o, .family = PF_FAM_##fam, .formula = PF_OPF_##form, .spec = sp, .key = k, .by_kernel = cat}
/* A custom op of a serving library (vLLM's _C, _C_cache_ops; SGLang's sgl_kernel, sglang;
 * aiter; FlashInfer), named in full. Their categories go by the kernel's name (KERNEL). */
#define X(o, fam, form, sp, k, cat) {.op = o, .family = PF_FAM_##fam, .formula = PF_OPF_##form, .spec = sp, .key = k, .by_kernel = cat}

/* ---- spec: what the estimate formulas read (pf_op_spec) ---- */
#define SPEC(...) (&(const pf_op_spec){__VA_ARGS__})
#define NO_SPEC NULL
/* Element-wise arithmetic costs one FLOP per element written; comparisons write bool. max
 * and min set flop for their element-wise overload (max.other); as reductions they count none. */
#define ARITH SPEC(.flop = 1)
#define COMPARE SPEC(.flop = 1, .result = PF_RESULT_BOOL)
/* The same, for ops with an .out overload: n is the functional schema's argument count
 * (kwarg-only ones included, as Kineto records them), where out= is appended. */
#define ARITH_OUT(n) SPEC(.flop = 1, .out_at = n)
#define COMPARE_OUT(n) SPEC(.flop = 1, .result = PF_RESULT_BOOL, .out_at = n)

/* ---- key: the arguments the diff's --group shape matching keys a call by (pf_op_key) ---- */
#define ARGS(...) (&(const pf_op_key){sizeof((signed char[]){__VA_ARGS__}), {__VA_ARGS__}, 0})
#define NO_KEY NULL
#define ALL_TENSORS (&(const pf_op_key){0, {0}, 0})
/* q, k, v: enough to tell attention calls apart (for the ops without a layout below). */
#define QKV_FORWARD ARGS(0, 1, 2)
#define QKV_BACKWARD ARGS(1, 2, 3)

/* ---- convolutions: C(op, family, formula, key, category, the positions of pf_conv_args) ----
 * Positions in the order of PF_CONV_*: input, weight, bias, stride, padding, dilation,
 * transposed, output_padding, groups, then convolution_backward's grad_output, bias_sizes and
 * output_mask, then what the op implies; from native_functions.yaml, checked against the
 * traces in testdata (cudnn_convolution records padding before stride; miopen_convolution a
 * None bias before both). formulas/conv.c reads them; the key is built from them:
 * CONV_KEY input, weight, stride, padding, dilation, groups (the bias is left out, since
 * cuDNN's op adds it in a separate kernel and MIOpen's takes it as an argument); CONV_T_KEY
 * also output_padding; CONV_B_KEY grad_output, input, weight, stride, padding, dilation,
 * groups, output_mask; NO_CONV_KEY none (the diff does not match the op by family). */
#define NA (-1)
#define TRANSPOSED PF_CONV_IMPLIES_TRANSPOSED
#define DEPTHWISE PF_CONV_IMPLIES_DEPTHWISE
#define C(o, fam, form, keyof, cat, ...)                                                           \
    {.op = "aten::" o, .family = PF_FAM_##fam, .formula = PF_OPF_##form, .key = keyof(__VA_ARGS__), \
     .by_kernel = cat, .conv = CONV_POS(__VA_ARGS__)}
#define CONV_POS(in, w, b, st, pad, dil, tr, opad, grp, go, bs, mask, imp)                        \
    (&(const pf_conv_args){{in, w, b, st, pad, dil, tr, opad, grp, go, bs, mask}, imp})
#define CONV_KEY(in, w, b, st, pad, dil, tr, opad, grp, go, bs, mask, imp) ARGS(in, w, st, pad, dil, grp)
#define CONV_T_KEY(in, w, b, st, pad, dil, tr, opad, grp, go, bs, mask, imp) ARGS(in, w, st, pad, opad, dil, grp)
#define CONV_B_KEY(in, w, b, st, pad, dil, tr, opad, grp, go, bs, mask, imp) ARGS(go, in, w, st, pad, dil, grp, mask)
#define NO_CONV_KEY(...) NO_KEY

/* ---- fused attention: A(op, family, category, the positions of pf_attn_args) ----
 * seq_first, backward, grad_out, q, out, lse, bias, cum_q, max_q, causal, mask_type,
 * want_lse. From native_functions.yaml (PyTorch 2.5+), checked against eager_fp32.json
 * (_efficient_attention_*: [4, 256, 16, 64] is [B, S, H, D], custom_mask_type 1 at 9 and 14)
 * and eager_bf16.json (_cudnn_attention_*: is_causal True at 10 and 14). The _efficient ops'
 * max_seqlen arguments are not lengths in dense calls (the trace shows 16 for S = 256), so
 * formulas/attention.c reads them only for variable-length ones. The key is q, k, v: enough
 * to tell attention calls apart (the scale, dropout and causal flags sit at different places
 * and in different forms per backend), shown as [B, H, S, D] whatever the backend takes. */
#define A(o, fam, cat, ...)                                                                        \
    {.op = "aten::" o, .family = PF_FAM_##fam, .formula = PF_OPF_ATTENTION, .key = ATTN_KEY(__VA_ARGS__), \
     .by_kernel = cat, .attn = ATTN_POS(__VA_ARGS__)}
#define ATTN_POS(sf, bw, go, q, o, l, b, cq, mq, c, mt, wl) (&(const pf_attn_args){sf, bw, go, q, o, l, b, cq, mq, c, mt, wl})
#define ATTN_KEY(sf, bw, go, q, o, l, b, cq, mq, c, mt, wl) (&(const pf_op_key){3, {q, q + 1, q + 2}, sf})

/* ---- category: FAMILY, the categories go by the family; KERNEL, by the kernel's name ---- */
#define FAMILY 0
#define KERNEL 1

/* Lookups run once per op invocation, so the table is searched by bisection: keep it sorted
 * by strcmp of the op name (the unit tests check). */
static const pf_op_entry ops[] = {
    X("_C::batched_rotary_embedding",      ELEMENTWISE,        ROTARY,        NO_SPEC, NO_KEY, KERNEL),
    X("_C::fatrelu_and_mul",               ELEMENTWISE,        SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("_C::fused_add_rms_norm",            NORM,               SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("_C::gelu_and_mul",                  ELEMENTWISE,        SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("_C::gelu_tanh_and_mul",             ELEMENTWISE,        SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("_C::mul_and_silu",                  ELEMENTWISE,        SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("_C::paged_attention_v1",            ATTENTION,          VARLEN_ATTENTION, NO_SPEC, NO_KEY, KERNEL),
    X("_C::paged_attention_v2",            ATTENTION,          VARLEN_ATTENTION, NO_SPEC, NO_KEY, KERNEL),
    X("_C::rms_norm",                      NORM,               SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("_C::rotary_embedding",              ELEMENTWISE,        ROTARY,        NO_SPEC, NO_KEY, KERNEL),
    X("_C::silu_and_mul",                  ELEMENTWISE,        SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("_C::swigluoai_and_mul",             ELEMENTWISE,        SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("_C_cache_ops::concat_and_cache_mla", COPY,               KV_CACHE_WRITE, NO_SPEC, NO_KEY, KERNEL),
    X("_C_cache_ops::reshape_and_cache",   COPY,               KV_CACHE_WRITE, NO_SPEC, NO_KEY, KERNEL),
    X("_C_cache_ops::reshape_and_cache_flash", COPY,               KV_CACHE_WRITE, NO_SPEC, NO_KEY, KERNEL),
    X("aiter::add_rmsnorm",                NORM,               SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("aiter::gelu_and_mul",               ELEMENTWISE,        SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("aiter::gelu_tanh_and_mul",          ELEMENTWISE,        SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("aiter::mha_batch_prefill",          ATTENTION,          VARLEN_ATTENTION, NO_SPEC, NO_KEY, KERNEL),
    X("aiter::rms_norm",                   NORM,               SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("aiter::rmsnorm",                    NORM,               SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("aiter::rmsnorm2d_fwd",              NORM,               SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("aiter::rmsnorm2d_fwd_with_add",     NORM,               SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("aiter::rmsnorm2d_fwd_with_add_ck",  NORM,               SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("aiter::silu_and_mul",               ELEMENTWISE,        SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    E("_addmm_activation",               GEMM,               NONE,          NO_SPEC, ALL_TENSORS, FAMILY),
    C("_conv_depthwise2d", CONV, CONV_FORWARD, NO_CONV_KEY, FAMILY, 0, 1, 3, 4, 5, 6, NA, NA, NA, NA, NA, NA, DEPTHWISE),
    C("_convolution", CONV, CONV_FORWARD, CONV_KEY, FAMILY, 0, 1, 2, 3, 4, 5, 6, 7, 8, NA, NA, NA, 0),
    A("_cudnn_attention_backward", ATTENTION_BACKWARD, FAMILY, 0,  1,  0, 1,  4,  5,  8,  9, 11, 14, NA, NA),
    A("_cudnn_attention_forward", ATTENTION, FAMILY, 0,  0, NA, 0, NA, NA,  3,  4,  6, 10, NA,  8),
    E("_cudnn_rnn",                        GEMM,               RNN,           NO_SPEC, NO_KEY, KERNEL),
    E("_cudnn_rnn_backward",               GEMM,               RNN,           NO_SPEC, NO_KEY, KERNEL),
    A("_efficient_attention_backward", ATTENTION_BACKWARD, FAMILY, 1,  1,  0, 1,  5, 10,  4,  6,  8, NA, 14, NA),
    A("_efficient_attention_forward", ATTENTION, FAMILY, 1,  0, NA, 0, NA, NA,  3,  4,  6, NA,  9, 10),
    E("_fft_c2c",                          ELEMENTWISE,        FFT,           NO_SPEC, NO_KEY, KERNEL),
    E("_fft_c2r",                          ELEMENTWISE,        FFT,           NO_SPEC, NO_KEY, KERNEL),
    E("_fft_r2c",                          ELEMENTWISE,        FFT,           NO_SPEC, NO_KEY, KERNEL),
    A("_flash_attention_backward", ATTENTION_BACKWARD, FAMILY, 1,  1,  0, 1,  4,  5, NA,  6,  8, 11, NA, NA),
    A("_flash_attention_forward", ATTENTION, FAMILY, 1,  0, NA, 0, NA, NA, NA,  3,  5,  8, NA, NA),
    E("_fused_adam_",                      ELEMENTWISE,        FUSED_OPTIM,   NO_SPEC, NO_KEY, KERNEL),
    E("_fused_adamw_",                     ELEMENTWISE,        FUSED_OPTIM,   NO_SPEC, NO_KEY, KERNEL),
    E("_fused_rms_norm",                 NORM,               LIKE_INPUT,    NO_SPEC, NO_KEY, FAMILY),
    E("_fused_rms_norm_backward",        NORM,               LIKE_INPUT,    NO_SPEC, NO_KEY, FAMILY),
    E("_fused_sgd_",                       ELEMENTWISE,        FUSED_OPTIM,   NO_SPEC, NO_KEY, KERNEL),
    E("_grouped_mm",                     GEMM,               GROUPED_MM,    NO_SPEC, NO_KEY, FAMILY),
    E("_index_put_impl_",                INDEX,              INDEX_PUT,     NO_SPEC, NO_KEY, KERNEL),
    E("_int_mm",                         GEMM,               INT_MM,        NO_SPEC, ALL_TENSORS, FAMILY),
    E("_log_softmax",                    NORM,               LIKE_INPUT,    SPEC(.float_at = 2), NO_KEY, FAMILY),
    E("_log_softmax_backward_data",      NORM,               LIKE_INPUT,    SPEC(.dtype_at = 3), NO_KEY, FAMILY),
    E("_native_batch_norm_legit",        NORM,               LIKE_INPUT,    NO_SPEC, NO_KEY, FAMILY),
    E("_native_batch_norm_legit_no_training", NORM, LIKE_INPUT, NO_SPEC, NO_KEY, FAMILY),
    E("_safe_softmax",                   NORM,               LIKE_INPUT,    SPEC(.dtype_at = 2), NO_KEY, FAMILY),
    A("_scaled_dot_product_cudnn_attention", ATTENTION, FAMILY, 0,  0, NA, 0, NA, NA,  3, NA, NA,  6, NA,  4),
    A("_scaled_dot_product_cudnn_attention_backward", ATTENTION_BACKWARD, FAMILY, 0,  1,  0, 1,  4,  5,  8,  9, 11, 14, NA, NA),
    A("_scaled_dot_product_efficient_attention", ATTENTION, FAMILY, 0,  0, NA, 0, NA, NA,  3, NA, NA,  6, NA,  4),
    A("_scaled_dot_product_efficient_attention_backward", ATTENTION_BACKWARD, FAMILY, 0,  1,  0, 1,  5,  6,  4, NA, NA, 11, NA, NA),
    A("_scaled_dot_product_flash_attention", ATTENTION, FAMILY, 0,  0, NA, 0, NA, NA, NA, NA, NA,  4, NA, NA),
    A("_scaled_dot_product_flash_attention_backward", ATTENTION_BACKWARD, FAMILY, 0,  1,  0, 1,  4,  5, NA,  6,  8, 11, NA, NA),
    E("_scaled_dot_product_fused_attention_overrideable", ATTENTION, NONE, NO_SPEC, QKV_FORWARD, FAMILY),
    E("_scaled_dot_product_fused_attention_overrideable_backward", ATTENTION_BACKWARD, NONE, NO_SPEC, QKV_BACKWARD, FAMILY),
    E("_scaled_grouped_mm",              GEMM,               GROUPED_MM,    NO_SPEC, NO_KEY, FAMILY),
    E("_scaled_mm",                      GEMM,               SCALED_MM,     NO_SPEC, ARGS(0, 1), FAMILY),
    C("_slow_conv2d_forward", CONV, CONV_FORWARD, NO_CONV_KEY, FAMILY, 0, 1, 3, 4, 5, NA, NA, NA, NA, NA, NA, NA, 0),
    E("_softmax",                        NORM,               LIKE_INPUT,    SPEC(.float_at = 2), NO_KEY, FAMILY),
    E("_softmax_backward_data",          NORM,               LIKE_INPUT,    SPEC(.dtype_at = 3), NO_KEY, FAMILY),
    E("_to_copy",                        COPY,               LIKE_INPUT,    SPEC(.dtype_at = 1), NO_KEY, FAMILY),
    E("_weight_int4pack_mm",             GEMM,               NONE,          NO_SPEC, NO_KEY, FAMILY),
    E("_weight_int8pack_mm",             GEMM,               NONE,          NO_SPEC, NO_KEY, FAMILY),
    E("abs",                             ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, FAMILY),
    E("abs_",                            ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("acos",                            ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, KERNEL),
    E("add",                             ELEMENTWISE,        POINTWISE,     ARITH_OUT(3), NO_KEY, FAMILY),
    E("add_",                            ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("addbmm",                          BMM,                NONE,          NO_SPEC, ALL_TENSORS, FAMILY),
    E("addcdiv",                         ELEMENTWISE,        POINTWISE,     ARITH_OUT(4), NO_KEY, FAMILY),
    E("addcdiv_",                        ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("addcmul",                         ELEMENTWISE,        POINTWISE,     ARITH_OUT(4), NO_KEY, FAMILY),
    E("addcmul_",                        ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("addmm",                           GEMM,               ADDMM,         NO_SPEC, ALL_TENSORS, FAMILY),
    E("addmv",                           GEMV,               NONE,          NO_SPEC, ALL_TENSORS, FAMILY),
    E("all",                             REDUCE,             REDUCE,        SPEC(.result = PF_RESULT_BOOL, .dim_at = 1), NO_KEY, FAMILY),
    E("amax",                            REDUCE,             REDUCE,        SPEC(.dim_at = 1), NO_KEY, FAMILY),
    E("amin",                            REDUCE,             REDUCE,        SPEC(.dim_at = 1), NO_KEY, FAMILY),
    E("aminmax",                         REDUCE,             NONE,          NO_SPEC, NO_KEY, FAMILY),
    E("any",                             REDUCE,             REDUCE,        SPEC(.result = PF_RESULT_BOOL, .dim_at = 1), NO_KEY, FAMILY),
    E("arange",                          ELEMENTWISE,        ARANGE,        NO_SPEC, NO_KEY, FAMILY),
    E("argmax",                          REDUCE,             REDUCE,        SPEC(.result = PF_RESULT_LONG, .dim_at = 1), NO_KEY, FAMILY),
    E("argmin",                          REDUCE,             REDUCE,        SPEC(.result = PF_RESULT_LONG, .dim_at = 1), NO_KEY, FAMILY),
    E("asin",                            ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, KERNEL),
    E("atan",                            ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, KERNEL),
    E("atan2",                           ELEMENTWISE,        POINTWISE,     ARITH_OUT(2), NO_KEY, KERNEL),
    E("baddbmm",                         BMM,                BADDBMM,       NO_SPEC, ALL_TENSORS, FAMILY),
    E("batch_norm_backward",             NORM,               LIKE_INPUT,    NO_SPEC, NO_KEY, FAMILY),
    E("bernoulli",                       COPY,               NONE,          NO_SPEC, NO_KEY, FAMILY),
    E("bernoulli_",                      COPY,               OVERWRITE,     NO_SPEC, NO_KEY, FAMILY),
    E("bitwise_and",                     ELEMENTWISE,        POINTWISE,     ARITH_OUT(2), NO_KEY, FAMILY),
    E("bitwise_not",                     ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, FAMILY),
    E("bitwise_or",                      ELEMENTWISE,        POINTWISE,     ARITH_OUT(2), NO_KEY, FAMILY),
    E("bitwise_xor",                     ELEMENTWISE,        POINTWISE,     ARITH_OUT(2), NO_KEY, KERNEL),
    E("bmm",                             BMM,                BMM,           NO_SPEC, ALL_TENSORS, FAMILY),
    E("cat",                             COPY,               CAT,           NO_SPEC, NO_KEY, FAMILY),
    E("ceil",                            ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, FAMILY),
    E("clamp",                           ELEMENTWISE,        POINTWISE,     ARITH_OUT(3), NO_KEY, FAMILY),
    E("clamp_",                          ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("clamp_max",                       ELEMENTWISE,        POINTWISE,     ARITH_OUT(2), NO_KEY, FAMILY),
    E("clamp_max_",                      ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("clamp_min",                       ELEMENTWISE,        POINTWISE,     ARITH_OUT(2), NO_KEY, FAMILY),
    E("clamp_min_",                      ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("clone",                           COPY,               LIKE_INPUT,    NO_SPEC, NO_KEY, FAMILY),
    E("contiguous",                      COPY,               LIKE_INPUT,    NO_SPEC, NO_KEY, KERNEL),
    C("convolution", CONV, CONV_FORWARD, CONV_KEY, FAMILY, 0, 1, 2, 3, 4, 5, 6, 7, 8, NA, NA, NA, 0),
    C("convolution_backward", CONV_BACKWARD, CONV_BACKWARD, CONV_B_KEY, FAMILY, 1, 2, NA, 4, 5, 6, 7, 8, 9, 0, 3, 10, 0),
    C("convolution_overrideable", CONV, CONV_FORWARD, CONV_KEY, FAMILY, 0, 1, 2, 3, 4, 5, 6, 7, 8, NA, NA, NA, 0),
    E("copy",                            COPY,               NONE,          NO_SPEC, NO_KEY, FAMILY),
    E("copy_",                           COPY,               OVERWRITE,     NO_SPEC, NO_KEY, FAMILY),
    E("cos",                             ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, FAMILY),
    E("cosh",                            ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, KERNEL),
    E("count_nonzero",                   REDUCE,             NONE,          NO_SPEC, NO_KEY, FAMILY),
    E("cudnn_batch_norm",                NORM,               LIKE_INPUT,    NO_SPEC, NO_KEY, FAMILY),
    E("cudnn_batch_norm_backward",       NORM,               LIKE_INPUT,    NO_SPEC, NO_KEY, FAMILY),
    C("cudnn_convolution", CONV, CONV_FORWARD, CONV_KEY, FAMILY, 0, 1, NA, 3, 2, 4, NA, NA, 5, NA, NA, NA, 0),
    C("cudnn_convolution_transpose", CONV_TRANSPOSE, CONV_FORWARD, CONV_T_KEY, FAMILY, 0, 1, NA, 4, 2, 5, NA, 3, 6, NA, NA, NA, TRANSPOSED),
    E("cumprod",                         REDUCE,             SCAN,          SPEC(.dtype_at = 2), NO_KEY, KERNEL),
    E("cumsum",                          REDUCE,             SCAN,          SPEC(.dtype_at = 2), NO_KEY, KERNEL),
    E("div",                             ELEMENTWISE,        POINTWISE,     ARITH_OUT(2), NO_KEY, FAMILY),
    E("div_",                            ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("dot",                             GEMV,               NONE,          NO_SPEC, NO_KEY, FAMILY),
    E("elu",                             ELEMENTWISE,        POINTWISE,     ARITH, NO_KEY, FAMILY),
    E("elu_",                            ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("elu_backward",                    ELEMENTWISE,        POINTWISE,     ARITH, NO_KEY, FAMILY),
    E("embedding",                       INDEX,              INDEX_ROWS,    SPEC(.index_at = 1), NO_KEY, FAMILY),
    E("embedding_dense_backward",        INDEX,              EMBEDDING_BACKWARD, NO_SPEC, NO_KEY, KERNEL),
    E("eq",                              ELEMENTWISE,        POINTWISE,     COMPARE_OUT(2), NO_KEY, FAMILY),
    E("erf",                             ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, FAMILY),
    E("erfinv",                          ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, KERNEL),
    E("exp",                             ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, FAMILY),
    E("exp2",                            ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, FAMILY),
    E("exp_",                            ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("expm1",                           ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, FAMILY),
    E("exponential_",                    COPY,               OVERWRITE,     NO_SPEC, NO_KEY, KERNEL),
    E("fill",                            COPY,               NONE,          NO_SPEC, NO_KEY, FAMILY),
    E("fill_",                           COPY,               OVERWRITE,     NO_SPEC, NO_KEY, FAMILY),
    E("floor",                           ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, FAMILY),
    E("floor_",                          ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("fmod",                            ELEMENTWISE,        POINTWISE,     ARITH_OUT(2), NO_KEY, FAMILY),
    E("frac",                            ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, KERNEL),
    E("gather",                          INDEX,              GATHER,        SPEC(.index_at = 2), NO_KEY, FAMILY),
    E("ge",                              ELEMENTWISE,        POINTWISE,     COMPARE_OUT(2), NO_KEY, FAMILY),
    E("gelu",                            ELEMENTWISE,        POINTWISE,     ARITH_OUT(2), NO_KEY, FAMILY),
    E("gelu_",                           ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("gelu_backward",                   ELEMENTWISE,        POINTWISE,     ARITH_OUT(3), NO_KEY, FAMILY),
    E("gt",                              ELEMENTWISE,        POINTWISE,     COMPARE_OUT(2), NO_KEY, FAMILY),
    E("hardsigmoid",                     ELEMENTWISE,        POINTWISE,     ARITH, NO_KEY, FAMILY),
    E("hardsigmoid_backward",            ELEMENTWISE,        POINTWISE,     ARITH, NO_KEY, KERNEL),
    E("hardswish",                       ELEMENTWISE,        POINTWISE,     ARITH, NO_KEY, FAMILY),
    E("hardswish_backward",              ELEMENTWISE,        POINTWISE,     ARITH, NO_KEY, KERNEL),
    E("hardtanh",                        ELEMENTWISE,        POINTWISE,     ARITH, NO_KEY, FAMILY),
    E("hardtanh_",                       ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("hardtanh_backward",               ELEMENTWISE,        POINTWISE,     ARITH, NO_KEY, FAMILY),
    E("index",                           INDEX,              INDEX_LIST,    NO_SPEC, NO_KEY, FAMILY),
    E("index_add",                       INDEX,              NONE,          NO_SPEC, NO_KEY, FAMILY),
    E("index_add_",                      INDEX,              INDEX_WRITE,   SPEC(.flop = 1), NO_KEY, FAMILY),
    E("index_copy_",                     INDEX,              INDEX_WRITE,   NO_SPEC, NO_KEY, KERNEL),
    E("index_put",                       INDEX,              NONE,          NO_SPEC, NO_KEY, FAMILY),
    E("index_put_",                      INDEX,              INDEX_PUT,     NO_SPEC, NO_KEY, FAMILY),
    E("index_select",                    INDEX,              INDEX_ROWS,    SPEC(.dim_at = 1, .index_at = 2), NO_KEY, FAMILY),
    E("isinf",                           ELEMENTWISE,        POINTWISE,     COMPARE, NO_KEY, KERNEL),
    E("isnan",                           ELEMENTWISE,        POINTWISE,     COMPARE, NO_KEY, KERNEL),
    E("le",                              ELEMENTWISE,        POINTWISE,     COMPARE_OUT(2), NO_KEY, FAMILY),
    E("leaky_relu",                      ELEMENTWISE,        POINTWISE,     ARITH, NO_KEY, FAMILY),
    E("leaky_relu_",                     ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("leaky_relu_backward",             ELEMENTWISE,        POINTWISE,     ARITH, NO_KEY, FAMILY),
    E("lerp",                            ELEMENTWISE,        POINTWISE,     ARITH_OUT(3), NO_KEY, FAMILY),
    E("lerp_",                           ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("linalg_vector_norm",              REDUCE,             REDUCE,        SPEC(.dtype_at = 4, .dim_at = 2), NO_KEY, FAMILY),
    E("linear",                          GEMM,               NONE,          NO_SPEC, ALL_TENSORS, FAMILY),
    E("log",                             ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, FAMILY),
    E("log10",                           ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, KERNEL),
    E("log1p",                           ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, FAMILY),
    E("log2",                            ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, FAMILY),
    E("log_",                            ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("log_softmax",                     NORM,               LIKE_INPUT,    SPEC(.dtype_at = 2), NO_KEY, FAMILY),
    E("logical_and",                     ELEMENTWISE,        POINTWISE,     COMPARE_OUT(2), NO_KEY, FAMILY),
    E("logical_not",                     ELEMENTWISE,        POINTWISE,     COMPARE_OUT(1), NO_KEY, FAMILY),
    E("logical_or",                      ELEMENTWISE,        POINTWISE,     COMPARE_OUT(2), NO_KEY, FAMILY),
    E("logical_xor",                     ELEMENTWISE,        POINTWISE,     COMPARE_OUT(2), NO_KEY, KERNEL),
    E("logit",                           ELEMENTWISE,        POINTWISE,     ARITH, NO_KEY, KERNEL),
    E("logsumexp",                       REDUCE,             REDUCE,        SPEC(.dim_at = 1), NO_KEY, FAMILY),
    E("lt",                              ELEMENTWISE,        POINTWISE,     COMPARE_OUT(2), NO_KEY, FAMILY),
    E("masked_fill",                     ELEMENTWISE,        POINTWISE,     ARITH, NO_KEY, FAMILY),
    E("masked_fill_",                    ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("matmul",                          GEMM,               NONE,          NO_SPEC, ALL_TENSORS, FAMILY),
    E("max",                             REDUCE,             REDUCE,        SPEC(.flop = 1, .dim_at = 1, .indices = 1), NO_KEY, FAMILY),
    E("max_pool2d_with_indices",           REDUCE,             MAX_POOL,      NO_SPEC, NO_KEY, KERNEL),
    E("max_pool2d_with_indices_backward",  REDUCE,             MAX_POOL,      NO_SPEC, NO_KEY, KERNEL),
    E("max_pool3d_with_indices",           REDUCE,             MAX_POOL,      NO_SPEC, NO_KEY, KERNEL),
    E("max_pool3d_with_indices_backward",  REDUCE,             MAX_POOL,      NO_SPEC, NO_KEY, KERNEL),
    E("maximum",                         ELEMENTWISE,        POINTWISE,     ARITH_OUT(2), NO_KEY, FAMILY),
    E("mean",                            REDUCE,             REDUCE,        SPEC(.dtype_at = 3, .dim_at = 1), NO_KEY, FAMILY),
    E("min",                             REDUCE,             REDUCE,        SPEC(.flop = 1, .dim_at = 1, .indices = 1), NO_KEY, FAMILY),
    E("minimum",                         ELEMENTWISE,        POINTWISE,     ARITH_OUT(2), NO_KEY, FAMILY),
    E("miopen_batch_norm",               NORM,               LIKE_INPUT,    NO_SPEC, NO_KEY, FAMILY),
    E("miopen_batch_norm_backward",      NORM,               LIKE_INPUT,    NO_SPEC, NO_KEY, FAMILY),
    C("miopen_convolution", CONV, CONV_FORWARD, CONV_KEY, FAMILY, 0, 1, 2, 4, 3, 5, NA, NA, 6, NA, NA, NA, 0),
    C("miopen_convolution_transpose", CONV_TRANSPOSE, NONE, CONV_T_KEY, FAMILY, 0, 1, 2, 5, 3, 6, NA, 4, 7, NA, NA, NA, TRANSPOSED),
    C("miopen_depthwise_convolution", CONV, NONE, CONV_KEY, FAMILY, 0, 1, 2, 4, 3, 5, NA, NA, 6, NA, NA, NA, 0),
    E("mish",                            ELEMENTWISE,        POINTWISE,     ARITH, NO_KEY, FAMILY),
    C("mkldnn_convolution", CONV, CONV_FORWARD, CONV_KEY, FAMILY, 0, 1, 2, 4, 3, 5, NA, NA, 6, NA, NA, NA, 0),
    E("mm",                              GEMM,               MM,            NO_SPEC, ALL_TENSORS, FAMILY),
    E("mul",                             ELEMENTWISE,        POINTWISE,     ARITH_OUT(2), NO_KEY, FAMILY),
    E("mul_",                            ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("mv",                              GEMV,               NONE,          NO_SPEC, ALL_TENSORS, FAMILY),
    E("nan_to_num",                      ELEMENTWISE,        POINTWISE,     ARITH, NO_KEY, KERNEL),
    E("nansum",                          REDUCE,             REDUCE,        SPEC(.dtype_at = 3, .dim_at = 1), NO_KEY, FAMILY),
    E("native_batch_norm",               NORM,               LIKE_INPUT,    NO_SPEC, NO_KEY, FAMILY),
    E("native_batch_norm_backward",      NORM,               LIKE_INPUT,    NO_SPEC, NO_KEY, FAMILY),
    E("native_dropout",                  ELEMENTWISE,        DROPOUT,       ARITH, NO_KEY, FAMILY),
    E("native_dropout_backward",         ELEMENTWISE,        POINTWISE,     ARITH, NO_KEY, FAMILY),
    E("native_group_norm",               NORM,               LIKE_INPUT,    NO_SPEC, NO_KEY, FAMILY),
    E("native_group_norm_backward",      NORM,               LIKE_INPUT,    NO_SPEC, NO_KEY, FAMILY),
    E("native_layer_norm",               NORM,               LIKE_INPUT,    NO_SPEC, NO_KEY, FAMILY),
    E("native_layer_norm_backward",      NORM,               LIKE_INPUT,    NO_SPEC, NO_KEY, FAMILY),
    E("ne",                              ELEMENTWISE,        POINTWISE,     COMPARE_OUT(2), NO_KEY, FAMILY),
    E("neg",                             ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, FAMILY),
    E("neg_",                            ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("nll_loss_backward",               INDEX,              NLL_LOSS_BACKWARD, NO_SPEC, NO_KEY, KERNEL),
    E("nll_loss_forward",                REDUCE,             NLL_LOSS,      NO_SPEC, NO_KEY, KERNEL),
    E("norm",                            REDUCE,             REDUCE,        SPEC(.dtype_at = 4, .dim_at = 2), NO_KEY, FAMILY),
    E("normal",                          COPY,               NONE,          NO_SPEC, NO_KEY, FAMILY),
    E("normal_",                         COPY,               OVERWRITE,     NO_SPEC, NO_KEY, FAMILY),
    E("pow",                             ELEMENTWISE,        POINTWISE,     ARITH_OUT(2), NO_KEY, FAMILY),
    E("pow_",                            ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("prod",                            REDUCE,             REDUCE,        SPEC(.dtype_at = 3, .dim_at = 1), NO_KEY, FAMILY),
    E("random_",                         COPY,               OVERWRITE,     NO_SPEC, NO_KEY, KERNEL),
    E("reciprocal",                      ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, FAMILY),
    E("reciprocal_",                     ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("relu",                            ELEMENTWISE,        POINTWISE,     ARITH, NO_KEY, FAMILY),
    E("relu_",                           ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("remainder",                       ELEMENTWISE,        POINTWISE,     ARITH_OUT(2), NO_KEY, FAMILY),
    E("round",                           ELEMENTWISE,        POINTWISE,     ARITH, NO_KEY, FAMILY),
    E("round_",                          ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("rsqrt",                           ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, FAMILY),
    E("rsqrt_",                          ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("rsub",                            ELEMENTWISE,        POINTWISE,     ARITH, NO_KEY, FAMILY),
    E("scaled_dot_product_attention",    ATTENTION,          NONE,          NO_SPEC, QKV_FORWARD, FAMILY),
    E("scatter",                         COPY,               LIKE_INPUT,    NO_SPEC, NO_KEY, FAMILY),
    E("scatter_",                        COPY,               SCATTER,       NO_SPEC, NO_KEY, FAMILY),
    E("scatter_add",                     COPY,               LIKE_INPUT,    NO_SPEC, NO_KEY, FAMILY),
    E("scatter_add_",                    COPY,               SCATTER,       SPEC(.flop = 1), NO_KEY, FAMILY),
    E("sigmoid",                         ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, FAMILY),
    E("sigmoid_",                        ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("sigmoid_backward",                ELEMENTWISE,        POINTWISE,     ARITH_OUT(2), NO_KEY, FAMILY),
    E("sign",                            ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, FAMILY),
    E("silu",                            ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, FAMILY),
    E("silu_",                           ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("silu_backward",                   ELEMENTWISE,        POINTWISE,     ARITH_OUT(2), NO_KEY, FAMILY),
    E("sin",                             ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, FAMILY),
    E("sinh",                            ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, KERNEL),
    E("softmax",                         NORM,               LIKE_INPUT,    SPEC(.dtype_at = 2), NO_KEY, FAMILY),
    E("softplus",                        ELEMENTWISE,        POINTWISE,     ARITH, NO_KEY, FAMILY),
    E("softplus_backward",               ELEMENTWISE,        POINTWISE,     ARITH, NO_KEY, KERNEL),
    E("sort",                              REDUCE,             SORT,          NO_SPEC, NO_KEY, KERNEL),
    E("sqrt",                            ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, FAMILY),
    E("sqrt_",                           ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("square",                          ELEMENTWISE,        POINTWISE,     ARITH, NO_KEY, KERNEL),
    E("stack",                           COPY,               CAT,           NO_SPEC, NO_KEY, KERNEL),
    E("std",                             REDUCE,             REDUCE,        SPEC(.dim_at = 1), NO_KEY, FAMILY),
    E("std_mean",                        REDUCE,             NONE,          NO_SPEC, NO_KEY, FAMILY),
    E("sub",                             ELEMENTWISE,        POINTWISE,     ARITH_OUT(3), NO_KEY, FAMILY),
    E("sub_",                            ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("sum",                             REDUCE,             REDUCE,        SPEC(.dtype_at = 3, .dim_at = 1), NO_KEY, FAMILY),
    E("tan",                             ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, KERNEL),
    E("tanh",                            ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, FAMILY),
    E("tanh_",                           ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("tanh_backward",                   ELEMENTWISE,        POINTWISE,     ARITH_OUT(2), NO_KEY, FAMILY),
    E("threshold",                       ELEMENTWISE,        POINTWISE,     ARITH, NO_KEY, FAMILY),
    E("threshold_",                      ELEMENTWISE,        INPLACE,       ARITH, NO_KEY, FAMILY),
    E("threshold_backward",              ELEMENTWISE,        POINTWISE,     ARITH_OUT(3), NO_KEY, FAMILY),
    E("topk",                              REDUCE,             SORT,          NO_SPEC, NO_KEY, KERNEL),
    E("trunc",                           ELEMENTWISE,        POINTWISE,     ARITH_OUT(1), NO_KEY, KERNEL),
    E("uniform",                         COPY,               NONE,          NO_SPEC, NO_KEY, FAMILY),
    E("uniform_",                        COPY,               OVERWRITE,     NO_SPEC, NO_KEY, FAMILY),
    E("var",                             REDUCE,             REDUCE,        SPEC(.dim_at = 1), NO_KEY, FAMILY),
    E("var_mean",                        REDUCE,             NONE,          NO_SPEC, NO_KEY, FAMILY),
    E("vdot",                            GEMV,               NONE,          NO_SPEC, NO_KEY, FAMILY),
    E("where",                           ELEMENTWISE,        POINTWISE,     ARITH_OUT(3), NO_KEY, FAMILY),
    E("xlogy",                           ELEMENTWISE,        POINTWISE,     ARITH_OUT(2), NO_KEY, KERNEL),
    E("zero",                            COPY,               NONE,          NO_SPEC, NO_KEY, FAMILY),
    E("zero_",                           COPY,               OVERWRITE,     NO_SPEC, NO_KEY, FAMILY),
    X("flash_attn::_flash_attn_varlen_forward", ATTENTION,          VARLEN_ATTENTION, NO_SPEC, NO_KEY, KERNEL),
    X("flashinfer::fused_add_rmsnorm",     NORM,               SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("flashinfer::gelu_and_mul",          ELEMENTWISE,        SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("flashinfer::gelu_tanh_and_mul",     ELEMENTWISE,        SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("flashinfer::rmsnorm",               NORM,               SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("flashinfer::silu_and_mul",          ELEMENTWISE,        SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("sgl_kernel::fused_add_rmsnorm",     NORM,               SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("sgl_kernel::gelu_and_mul",          ELEMENTWISE,        SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("sgl_kernel::gelu_tanh_and_mul",     ELEMENTWISE,        SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("sgl_kernel::gemma_fused_add_rmsnorm", NORM,               SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("sgl_kernel::gemma_rmsnorm",         NORM,               SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("sgl_kernel::rmsnorm",               NORM,               SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("sgl_kernel::rotary_embedding",      ELEMENTWISE,        ROTARY,        NO_SPEC, NO_KEY, KERNEL),
    X("sgl_kernel::silu_and_mul",          ELEMENTWISE,        SERVING_IO,    NO_SPEC, NO_KEY, KERNEL),
    X("sglang::inplace_fused_experts",     GEMM,               FUSED_MOE,     NO_SPEC, NO_KEY, KERNEL),
    X("sglang::outplace_fused_experts",    GEMM,               FUSED_MOE,     NO_SPEC, NO_KEY, KERNEL),
    X("sglang::store_cache",               COPY,               KV_CACHE_WRITE, NO_SPEC, NO_KEY, KERNEL),
    X("vllm::inplace_fused_experts",       GEMM,               FUSED_MOE,     NO_SPEC, NO_KEY, KERNEL),
    X("vllm::moe_forward",                 GEMM,               MOE_FORWARD,   NO_SPEC, NO_KEY, KERNEL),
    X("vllm::outplace_fused_experts",      GEMM,               FUSED_MOE,     NO_SPEC, NO_KEY, KERNEL),
};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static int cmp_op(const void *key, const void *entry)
{
    return strcmp(key, ((const pf_op_entry *)entry)->op);
}

/* Families of ATen ops too many to list one by one: every _foreach_ op (an element-wise op
 * over tensor lists, about 60 of them with their in-place forms) and every upsample_ op
 * (nearest, linear, bilinear, bicubic, trilinear; 1-D to 3-D; backwards; _upsample_*_exact).
 * Inductor names each launch of its flex attention template after the template and a
 * counter (triton_tem_fused_flex_attention_0, ..._backward_1); the backward is listed first,
 * since its name starts with the forward's. Their categories stay the kernel's (Triton
 * template). */
static const pf_op_entry prefixed[] = {
    X("triton_tem_fused_flex_attention_backward", ATTENTION_BACKWARD, FLEX_ATTENTION, NO_SPEC, NO_KEY, KERNEL),
    X("triton_tem_fused_flex_attention", ATTENTION,         FLEX_ATTENTION, NO_SPEC, NO_KEY, KERNEL),
    E("_foreach_",                       ELEMENTWISE,        FOREACH,       NO_SPEC, NO_KEY, KERNEL),
    E("_upsample_",                      COPY,               UPSAMPLE,      NO_SPEC, NO_KEY, KERNEL),
    E("upsample_",                       COPY,               UPSAMPLE,      NO_SPEC, NO_KEY, KERNEL),
};

const pf_op_entry *pf_op_family_lookup(const char *op_name)
{
    if (!op_name)
        return NULL;
    const pf_op_entry *e = bsearch(op_name, ops, (size_t)COUNT(ops), sizeof ops[0], cmp_op);
    for (int i = 0; !e && i < COUNT(prefixed); i++)
        if (strncmp(op_name, prefixed[i].op, strlen(prefixed[i].op)) == 0)
            e = &prefixed[i];
    return e;
}

int pf_op_family_reads_nested(const char *op_name)
{
    const pf_op_entry *e = pf_op_family_lookup(op_name);
    return e && e->formula == PF_OPF_MOE_FORWARD;
}

const pf_op_entry *pf_op_family_prefixes(int *count)
{
    *count = COUNT(prefixed);
    return prefixed;
}

const char *pf_op_family_name(pf_family f)
{
    static const char *const names[PF_FAM_COUNT] = {
        [PF_FAM_GEMM] = "gemm", [PF_FAM_BMM] = "bmm", [PF_FAM_GEMV] = "gemv", [PF_FAM_CONV] = "conv",
        [PF_FAM_CONV_BACKWARD] = "conv_backward", [PF_FAM_CONV_TRANSPOSE] = "conv_transpose",
        [PF_FAM_ATTENTION] = "attention", [PF_FAM_ATTENTION_BACKWARD] = "attention_backward",
        [PF_FAM_NORM] = "norm", [PF_FAM_REDUCE] = "reduce", [PF_FAM_ELEMENTWISE] = "elementwise",
        [PF_FAM_COPY] = "copy", [PF_FAM_INDEX] = "index",
    };
    assert(f >= 0 && f < PF_FAM_COUNT); /* a family of the enum */
    return names[f];
}

const pf_op_entry *pf_op_family_table(int *count)
{
    *count = COUNT(ops);
    return ops;
}
