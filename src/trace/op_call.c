/* op_call.c - element counts and bytes of a recorded op argument, for the loader (TensorList sizes) and the formulas. */
#include "profana/op_call.h"

#include <assert.h>
#include "profana/dtype.h"
#include "profana/satmath.h"

/* A Scalar or an absent optional (type "" and no dims) has no elements: returning 0 keeps
 * such arguments out of byte sums and "largest input" choices. */
int64_t pf_arg_numel(const pf_arg *a)
{
    assert(a != NULL);
    if (!a)
        return -1;
    if (a->is_list)
        return a->list_numel >= 0 ? a->list_numel : -1;
    if (a->ndim < 0 || a->ndim > PF_MAX_DIMS)
        return -1;
    if (a->ndim == 0)
        return pf_type_size(a->type) > 0 ? 1 : 0;
    int64_t n = 1;
    for (int i = 0; i < a->ndim && n >= 0; i++)
        n = pf_mul_nonneg(n, a->dims[i]);
    return n;
}

int64_t pf_arg_stored_numel(const pf_arg *a)
{
    assert(a != NULL);
    if (!a || a->is_list || !a->expanded || a->ndim <= 0 || a->ndim > PF_MAX_DIMS)
        return pf_arg_numel(a);
    int64_t n = 1;
    for (int i = 0; i < a->ndim && n >= 0; i++)
        n = pf_mul_nonneg(n, a->expanded >> i & 1u ? 1 : a->dims[i]);
    return n;
}

double pf_arg_bytes(const pf_arg *a)
{
    assert(a != NULL);
    int64_t n = pf_arg_numel(a);
    if (n < 0)
        return -1;
    return (double)n * pf_type_size(a->type);
}

int pf_op_lists_unrecorded(const pf_op_call *call)
{
    assert(call != NULL);
    for (int i = 0; i < call->nargs; i++)
        if (call->args[i].is_list && call->args[i].list_numel < 0)
            return 1;
    return 0;
}
