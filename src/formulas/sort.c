/* sort.c - byte and FLOP formulas of sorting and scans along one dim: sort, topk, cumsum, cumprod. */
#include "families.h"

#include <assert.h>
#include <string.h>

/* sort(self, dim, descending) or sort.stable(self, stable, dim, descending): read self,
 * write the sorted values at its type and their int64 indices; topk(self, k, dim, largest,
 * sorted): the same with the dim cut to k. Comparisons count no FLOP, as the reductions'
 * do. */
int pf_sort(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    const pf_arg *self = &call->args[0];
    int size = pf_type_size(self->type), topk = strstr(call->name, "topk") != NULL;
    int64_t n = pf_arg_numel(self), k = 0, dim = -1, out = n;
    if (!pf_arg_is_tensor(self) || n < 0 || size <= 0)
        return PF_FORMULA_BAD_ARGS;
    if (topk) {
        if (call->nargs < 2 || pf_concrete_int(pf_concrete_at(call, 1), &k) < 0 || k < 0)
            return PF_FORMULA_BAD_ARGS;
        const char *d = pf_concrete_at(call, 2);
        if (*d && pf_concrete_int(d, &dim) < 0)
            return PF_FORMULA_BAD_ARGS;
        if (self->ndim > 0) {
            if (dim < 0)
                dim += self->ndim;
            if (dim < 0 || dim >= self->ndim || k > self->dims[dim])
                return PF_FORMULA_MISMATCH;
            out = self->dims[dim] > 0 ? n / self->dims[dim] * k : 0;
        } else {
            out = k;
        }
    }
    w->flop = 0;
    w->bytes = (double)n * size + (double)out * (size + 8);
    w->dtype = pf_dtype_from_type_string(self->type);
    w->matrix = PF_MATRIX_NONE;
    w->source = "sort";
    pf_ex_rule(w, "sort.c", "the input");
    if (topk)
        pf_ex(w, PF_EX_SIZES, "k=%lld along dim %lld: %lld values and indices", (long long)k, (long long)dim,
              (long long)out);
    pf_ex(w, PF_EX_BYTES, "input + values + int64 indices = ");
    pf_ex_tensor(w, PF_EX_BYTES, self);
    pf_ex(w, PF_EX_BYTES, " + %lld*%d + %lld*8", (long long)out, size, (long long)out);
    return PF_FORMULA_OK;
}

/* cumsum(self, dim, dtype?) and cumprod: read self, write as many elements at dtype (or
 * self's type); one add (multiply) per element. */
int pf_scan(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    const pf_arg *self = &call->args[0];
    int64_t n = pf_arg_numel(self);
    int size;
    if (!pf_arg_is_tensor(self) || n < 0 || pf_type_size(self->type) <= 0)
        return PF_FORMULA_BAD_ARGS;
    if (pf_result_size(call, pf_spec_of(call), pf_type_size(self->type), &size) != PF_FORMULA_OK)
        return PF_FORMULA_BAD_ARGS;
    w->flop = (double)n;
    w->bytes = (double)n * (pf_type_size(self->type) + size);
    w->dtype = pf_dtype_from_type_string(self->type);
    w->matrix = PF_MATRIX_NONE;
    w->source = "scan";
    pf_ex_rule(w, "sort.c", "the input");
    pf_ex(w, PF_EX_FLOP, "one per element = %lld", (long long)n);
    pf_ex(w, PF_EX_BYTES, "input + output = ");
    pf_ex_tensor(w, PF_EX_BYTES, self);
    pf_ex(w, PF_EX_BYTES, " + %lld*%d", (long long)n, size);
    return PF_FORMULA_OK;
}
