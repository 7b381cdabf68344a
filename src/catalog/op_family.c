/* op_family.c - the table of ATen ops per family (what they compute, not which library ran them) and its lookup. */
#include "profana/op_family.h"

#include <stdlib.h>
#include <string.h>

#define ALL_TENSORS 0, {0}
/* input, weight, stride, padding, dilation, groups: the bias is left out, since cuDNN's op
 * adds it in a separate kernel and MIOpen's takes it as an argument. */
#define CONV_ARGS(st, pad, dil, grp) 6, {0, 1, st, pad, dil, grp}
/* q, k, v: enough to tell attention calls apart; the scale, dropout and causal flags sit at
 * different places and in different forms (is_causal, custom_mask_type) per backend. */
#define QKV_FORWARD 3, {0, 1, 2}
#define QKV_BACKWARD 3, {1, 2, 3}

/* Positions from native_functions.yaml, the same as src/formulas/conv.c and attention.c read.
 * Sorted by strcmp of the op name (bisection; the unit tests check the order). */
static const pf_op_family families[] = {
    {"aten::_addmm_activation", "gemm", ALL_TENSORS, 0},
    {"aten::_convolution", "convolution", CONV_ARGS(3, 4, 5, 8), 0},
    {"aten::_cudnn_attention_backward", "attention_backward", QKV_BACKWARD, 0},
    {"aten::_cudnn_attention_forward", "attention", QKV_FORWARD, 0},
    {"aten::_efficient_attention_backward", "attention_backward", QKV_BACKWARD, 1},
    {"aten::_efficient_attention_forward", "attention", QKV_FORWARD, 1},
    {"aten::_flash_attention_backward", "attention_backward", QKV_BACKWARD, 1},
    {"aten::_flash_attention_forward", "attention", QKV_FORWARD, 1},
    {"aten::_int_mm", "gemm", ALL_TENSORS, 0},
    {"aten::_scaled_dot_product_cudnn_attention", "attention", QKV_FORWARD, 0},
    {"aten::_scaled_dot_product_cudnn_attention_backward", "attention_backward", QKV_BACKWARD, 0},
    {"aten::_scaled_dot_product_efficient_attention", "attention", QKV_FORWARD, 0},
    {"aten::_scaled_dot_product_efficient_attention_backward", "attention_backward", QKV_BACKWARD, 0},
    {"aten::_scaled_dot_product_flash_attention", "attention", QKV_FORWARD, 0},
    {"aten::_scaled_dot_product_flash_attention_backward", "attention_backward", QKV_BACKWARD, 0},
    {"aten::_scaled_dot_product_fused_attention_overrideable", "attention", QKV_FORWARD, 0},
    {"aten::_scaled_dot_product_fused_attention_overrideable_backward", "attention_backward", QKV_BACKWARD, 0},
    {"aten::_scaled_mm", "gemm", 2, {0, 1}, 0},
    {"aten::addbmm", "bmm", ALL_TENSORS, 0},
    {"aten::addmm", "gemm", ALL_TENSORS, 0},
    {"aten::addmv", "gemv", ALL_TENSORS, 0},
    {"aten::baddbmm", "bmm", ALL_TENSORS, 0},
    {"aten::bmm", "bmm", ALL_TENSORS, 0},
    {"aten::convolution", "convolution", CONV_ARGS(3, 4, 5, 8), 0},
    /* grad_output, input, weight, stride, padding, dilation, groups, output_mask */
    {"aten::convolution_backward", "convolution_backward", 8, {0, 1, 2, 4, 5, 6, 9, 10}, 0},
    {"aten::convolution_overrideable", "convolution", CONV_ARGS(3, 4, 5, 8), 0},
    {"aten::cudnn_convolution", "convolution", CONV_ARGS(3, 2, 4, 5), 0},
    {"aten::cudnn_convolution_transpose", "convolution_transpose", 7, {0, 1, 4, 2, 3, 5, 6}, 0},
    {"aten::linear", "gemm", ALL_TENSORS, 0},
    {"aten::matmul", "gemm", ALL_TENSORS, 0},
    {"aten::miopen_convolution", "convolution", CONV_ARGS(4, 3, 5, 6), 0},
    {"aten::miopen_convolution_transpose", "convolution_transpose", 7, {0, 1, 5, 3, 4, 6, 7}, 0},
    {"aten::miopen_depthwise_convolution", "convolution", CONV_ARGS(4, 3, 5, 6), 0},
    {"aten::mkldnn_convolution", "convolution", CONV_ARGS(4, 3, 5, 6), 0},
    {"aten::mm", "gemm", ALL_TENSORS, 0},
    {"aten::mv", "gemv", ALL_TENSORS, 0},
    {"aten::scaled_dot_product_attention", "attention", QKV_FORWARD, 0},
};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static int cmp_op(const void *key, const void *entry)
{
    return strcmp(key, ((const pf_op_family *)entry)->op);
}

const pf_op_family *pf_op_family_lookup(const char *op_name)
{
    if (!op_name)
        return NULL;
    return bsearch(op_name, families, (size_t)COUNT(families), sizeof families[0], cmp_op);
}

const pf_op_family *pf_op_family_table(int *count)
{
    *count = COUNT(families);
    return families;
}
