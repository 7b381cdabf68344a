/* reduce.c - byte estimates of the reductions (sum, mean, amax, argmax, norm, var, ...): the output is the input without the reduced dims. */
#include "families.h"

#include <assert.h>

/* Removes the listed dims from self's element count; keepdim would keep them as 1, which
 * gives the same count, so it is not read. A 0-d input accepts dim 0 or -1. */
static int reduce_listed(const pf_arg *self, const int64_t *dims, int count, int64_t *numel)
{
    int rank = self->ndim > 0 ? self->ndim : 1;
    int reduced[PF_MAX_DIMS] = {0};
    for (int i = 0; i < count; i++) {
        int64_t d = dims[i] < 0 ? dims[i] + rank : dims[i];
        if (d < 0 || d >= rank || reduced[d])
            return PF_FORMULA_MISMATCH;
        reduced[d] = 1;
    }
    *numel = 1;
    for (int i = 0; i < self->ndim; i++)
        if (!reduced[i])
            *numel = pf_mul_nonneg(*numel, self->dims[i]);
    return *numel < 0 ? PF_FORMULA_BAD_ARGS : PF_FORMULA_OK;
}

/* Elements of the output. No dims ("" or "[]") reduce every dim. *listed says whether dims
 * were named. */
static int reduced_numel(const pf_arg *self, const char *text, int64_t *numel, int *listed)
{
    int64_t dims[PF_MAX_DIMS + 1];
    int count = *text ? pf_concrete_int_list(text, dims, PF_MAX_DIMS + 1) : 0;
    if (count < 0)
        return PF_FORMULA_BAD_ARGS;
    *listed = count > 0;
    if (count == 0) {
        *numel = 1;
        return PF_FORMULA_OK;
    }
    return count > PF_MAX_DIMS ? PF_FORMULA_MISMATCH : reduce_listed(self, dims, count, numel);
}

/* The text of the dims argument. The overloads with dims have keepdim after them, so a call
 * that ends at the dims' place is an overload without (sum(self, dtype), var(self,
 * unbiased), norm(self, p, dtype)): "", every dim. */
static const char *dims_text(const pf_op_call *call, const pf_op_spec *s)
{
    if (!s->dim_at || call->nargs <= s->dim_at + 1)
        return "";
    return pf_concrete_at(call, s->dim_at);
}

/* Reads the input once and writes the reduced output, plus int64 indices for the overloads
 * that return them (max.dim). A tensor where the dim goes is the element-wise overload
 * (max.other). */
int pf_est_reduce(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    const pf_op_spec *s = pf_spec_of(call);
    int64_t n;
    int size, listed;
    if (call->nargs < 1 || !pf_arg_is_tensor(&call->args[0]) || pf_arg_numel(&call->args[0]) < 0)
        return PF_FORMULA_BAD_ARGS;
    if (s->dim_at && s->dim_at < call->nargs && pf_arg_is_tensor(&call->args[s->dim_at]))
        return pf_est_pointwise(call, w);
    const char *dims = dims_text(call, s);
    int rc = reduced_numel(&call->args[0], dims, &n, &listed);
    if (rc == PF_FORMULA_OK)
        rc = pf_result_size(call, s, pf_type_size(call->args[0].type), &size);
    if (rc != PF_FORMULA_OK)
        return rc;
    int indices = s->indices && listed;
    double out = (double)n * (size + (indices ? 8 : 0));
    pf_ex_rule(w, "reduce.c", "the largest tensor input");
    pf_ex(w, PF_EX_SIZES, "input ");
    pf_ex_shape(w, PF_EX_SIZES, &call->args[0]);
    pf_ex(w, PF_EX_SIZES, " reduced over dims %s (arg %d)", *dims ? dims : "[] (all)", s->dim_at);
    if (*dims)
        pf_ex(w, PF_EX_SIZES, ", keepdim %s (the same element count either way)",
              *pf_concrete_at(call, s->dim_at + 1) ? pf_concrete_at(call, s->dim_at + 1) : "not recorded");
    pf_ex(w, PF_EX_SIZES, ": output %lld elements of %d bytes%s", (long long)n, size,
          indices ? ", and int64 indices" : "");
    pf_ex(w, PF_EX_BYTES, "inputs + output%s = ", indices ? " + indices" : "");
    pf_ex_tensor_args(w, PF_EX_BYTES, call);
    pf_ex(w, PF_EX_BYTES, " + %lld*%d", (long long)n, size);
    if (indices)
        pf_ex(w, PF_EX_BYTES, " + %lld*8", (long long)n);
    return pf_estimate_done(call, w, 0, pf_bytes_add(pf_tensor_args_bytes(call), out));
}
