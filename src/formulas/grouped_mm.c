/* grouped_mm.c - FLOP and byte formulas of the grouped GEMMs of MoE layers: _grouped_mm and _scaled_grouped_mm, in their four shapes. */
#include "families.h"

#include <assert.h>
#include <string.h>

/* _grouped_mm(self, mat2, offs?, bias?, out_dtype?);
 * _scaled_grouped_mm(self, mat2, scale_a, scale_b, offs?, bias?, scale_result?, out_dtype?,
 * use_fast_accum). offs holds the groups' cumulative ends along the dimension that is cut. */
typedef struct grouped_layout {
    int offs, out_dtype, first_extra, n_inputs;
    int out_dflt; /* element size of the output when out_dtype is not given; 0 = self's */
} grouped_layout;

static const grouped_layout plain = {2, 4, 2, 5, 0};
static const grouped_layout scaled = {4, 7, 2, 9, 2};

/* The groups' product, whichever operand is cut by offs:
 * 2-D x 3-D  [T, K] x [G, K, N]: the rows of self split among G experts -> [T, N]
 * 3-D x 3-D  [G, M, K] x [G, K, N]: a batched product -> [G, M, N]
 * 2-D x 2-D  [M, K] x [K, N], K split into G groups by offs -> [G, M, N]
 * 3-D x 2-D  [G, M, K] x [K, N], N split into G groups by offs -> [M, N] */
typedef struct grouped_dims {
    int64_t m, n, k;   /* the product over all groups: 2*m*n*k FLOP */
    int64_t out_numel;
} grouped_dims;

static int read_dims(const pf_arg *a, const pf_arg *b, const pf_arg *offs, grouped_dims *g)
{
    int64_t groups = offs && offs->ndim == 1 ? offs->dims[0] : -1;
    int ra = a->ndim, rb = b->ndim;
    if (ra < 2 || ra > 3 || rb < 2 || rb > 3)
        return PF_FORMULA_MISMATCH;
    if (a->dims[ra - 1] != b->dims[rb - 2])
        return PF_FORMULA_MISMATCH;
    g->k = a->dims[ra - 1];
    g->n = b->dims[rb - 1];
    if (ra == 2 && rb == 3) {
        g->m = a->dims[0];
        g->out_numel = pf_mul_nonneg(g->m, g->n);
    } else if (ra == 3 && rb == 3) {
        if (a->dims[0] != b->dims[0])
            return PF_FORMULA_MISMATCH;
        g->m = pf_mul_nonneg(a->dims[0], a->dims[1]);
        g->out_numel = pf_mul_nonneg(g->m, g->n);
    } else if (ra == 2) {
        if (groups < 1)
            return PF_FORMULA_BAD_ARGS; /* the groups' count comes only from offs */
        g->m = a->dims[0];
        g->out_numel = pf_mul_nonneg(groups, pf_mul_nonneg(g->m, g->n));
    } else {
        g->m = a->dims[1];
        g->out_numel = pf_mul_nonneg(g->m, g->n);
    }
    return g->out_numel < 0 ? PF_FORMULA_BAD_ARGS : PF_FORMULA_OK;
}

static int out_size(const pf_op_call *call, const grouped_layout *l)
{
    const char *text = pf_concrete_at(call, l->out_dtype);
    int64_t code;
    if (*text)
        return pf_concrete_int(text, &code) < 0 ? 0 : pf_scalar_type_size(code);
    return l->out_dflt ? l->out_dflt : pf_type_size(call->args[0].type);
}

static void explain(pf_work *w, const pf_op_call *call, const grouped_layout *l, const grouped_dims *g,
                    int size)
{
    pf_ex_rule(w, "grouped_mm.c", "the operands (the slower of the two)");
    pf_ex(w, PF_EX_SIZES, "A ");
    pf_ex_shape(w, PF_EX_SIZES, &call->args[0]);
    pf_ex(w, PF_EX_SIZES, " x B ");
    pf_ex_shape(w, PF_EX_SIZES, &call->args[1]);
    pf_ex(w, PF_EX_SIZES, ": over all groups M=%lld K=%lld N=%lld, output %lld elements",
          (long long)g->m, (long long)g->k, (long long)g->n, (long long)g->out_numel);
    pf_ex(w, PF_EX_FLOP, "2*M*N*K = 2*%lld*%lld*%lld", (long long)g->m, (long long)g->n, (long long)g->k);
    pf_ex(w, PF_EX_BYTES, "A + B + offs, scales, bias + out = ");
    pf_ex_tensor(w, PF_EX_BYTES, &call->args[0]);
    pf_ex(w, PF_EX_BYTES, " + ");
    pf_ex_tensor(w, PF_EX_BYTES, &call->args[1]);
    for (int i = l->first_extra; i < l->n_inputs && i < call->nargs; i++) {
        if (!pf_arg_is_tensor(&call->args[i]))
            continue;
        pf_ex(w, PF_EX_BYTES, " + ");
        pf_ex_tensor(w, PF_EX_BYTES, &call->args[i]);
    }
    pf_ex(w, PF_EX_BYTES, " + %lld*%d", (long long)g->out_numel, size);
}

int pf_grouped_mm(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    const grouped_layout *l = strstr(call->name, "_scaled_grouped_mm") ? &scaled : &plain;
    const pf_arg *a = &call->args[0], *b = call->nargs > 1 ? &call->args[1] : NULL;
    if (!b || !pf_arg_is_tensor(a) || !pf_arg_is_tensor(b) || pf_arg_numel(a) < 0 || pf_arg_numel(b) < 0)
        return PF_FORMULA_BAD_ARGS;
    const pf_arg *offs = l->offs < call->nargs && pf_arg_is_tensor(&call->args[l->offs]) ? &call->args[l->offs] : NULL;
    grouped_dims g;
    int rc = read_dims(a, b, offs, &g);
    if (rc != PF_FORMULA_OK)
        return rc;
    int size = out_size(call, l);
    if (size <= 0)
        return PF_FORMULA_BAD_ARGS;
    double bytes = pf_bytes_add(pf_tensor_bytes(a), pf_tensor_bytes(b));
    for (int i = l->first_extra; i < l->n_inputs && i < call->nargs; i++)
        if (pf_arg_is_tensor(&call->args[i]))
            bytes = pf_bytes_add(bytes, pf_tensor_bytes(&call->args[i]));
    const char *scale = l == &scaled ? (2 < call->nargs ? call->args[2].type : "") : NULL;
    int packing = pf_dtype_packing(a->type, scale) == 2 && pf_dtype_packing(b->type, scale) == 2 ? 2 : 1;
    w->flop = 2.0 * (double)g.m * (double)g.n * (double)g.k * packing; /* FP4: K recorded packed */
    w->bytes = pf_bytes_add(bytes, (double)g.out_numel * size);
    w->dtype = pf_dtype_of_operands(a->type, b->type, scale);
    w->matrix = PF_MATRIX_GEMM;
    w->source = "gemm";
    explain(w, call, l, &g, size);
    return PF_FORMULA_OK;
}
