/* registry.c - the table mapping ATen op names to their formula, and the calls that look it up. */
#include "families.h"

#include <stdlib.h>
#include <string.h>

/* Lookups run once per op invocation, so the table is searched by bisection: keep it sorted
 * by strcmp of the op name (the unit tests check). A new family adds rows here. */
static const pf_formula pf_formula_rows[] = {
    {"aten::_conv_depthwise2d", "conv", pf_conv_forward},
    {"aten::_convolution", "conv", pf_conv_forward},
    {"aten::_scaled_mm", "gemm", pf_gemm_scaled_mm},
    {"aten::_slow_conv2d_forward", "conv", pf_conv_forward},
    {"aten::addmm", "gemm", pf_gemm_addmm},
    {"aten::baddbmm", "gemm", pf_gemm_baddbmm},
    {"aten::bmm", "gemm", pf_gemm_bmm},
    {"aten::convolution", "conv", pf_conv_forward},
    {"aten::convolution_backward", "conv", pf_conv_backward},
    {"aten::convolution_overrideable", "conv", pf_conv_forward},
    {"aten::cudnn_convolution", "conv", pf_conv_forward},
    {"aten::cudnn_convolution_transpose", "conv", pf_conv_forward},
    {"aten::miopen_convolution", "conv", pf_conv_forward},
    {"aten::mkldnn_convolution", "conv", pf_conv_forward},
    {"aten::mm", "gemm", pf_gemm_mm},
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

int pf_formula_apply(const pf_op_call *call, pf_work *w)
{
    const pf_formula *f = call && w ? pf_formula_lookup(call->name) : NULL;
    if (!f)
        return -1;
    *w = (pf_work){.flop = -1, .bytes = -1, .dtype = PF_DT_UNKNOWN, .matrix = 0, .source = NULL};
    int rc = call->nargs >= 0 && (call->args || call->nargs == 0) ? f->fn(call, w)
                                                                   : PF_FORMULA_BAD_ARGS;
    if (rc == PF_FORMULA_OK)
        return rc;
    if (rc != PF_FORMULA_MISMATCH)
        rc = PF_FORMULA_BAD_ARGS;
    w->flop = -1;
    w->bytes = -1;
    w->source = rc == PF_FORMULA_MISMATCH ? "mismatch" : "bad-args";
    return rc;
}

const pf_formula *pf_formula_table(int *count)
{
    if (count)
        *count = ROW_COUNT;
    return pf_formula_rows;
}
