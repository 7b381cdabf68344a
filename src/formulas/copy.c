/* copy.c - byte estimates of the ops that move data without arithmetic: cat and stack of a tensor list, and the index lookups (index_select, embedding, gather, index). */
#include "families.h"

#include <assert.h>

/* cat(tensors, dim[, out]) and stack read the list and write as many elements. PyTorch 2.11
 * records the TensorList as "Input Dims" [[8, 512, 1024], [8, 512, 1024], ...] with the
 * type "TensorList" and no element type, and not the output; cat promotes its inputs, so
 * no other argument tells the type either. The element size comes from an out= tensor when
 * there is one (exact); without it from the command line's DTYPE (call->assumed_size),
 * which the source marks "estimate~dtype" so it is never read as measured; with neither,
 * the bytes stay unknown rather than guessed. */
int pf_est_cat(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    enum { OUT = 2 };
    const pf_arg *list = call->nargs > 0 ? &call->args[0] : NULL;
    if (list && list->is_list && pf_op_lists_unrecorded(call))
        return pf_lists_unrecorded(w); /* [] for a list whose kernel ran: shapes not recorded */
    if (!list || !list->is_list || list->list_numel < 0)
        return PF_FORMULA_BAD_ARGS;
    const char *from = "the list's type";
    int size = pf_type_size(list->type), assumed = 0;
    if (size <= 0 && call->nargs > OUT && pf_arg_is_tensor(&call->args[OUT])) {
        size = pf_type_size(call->args[OUT].type);
        from = "the out= tensor's type";
    }
    if (size <= 0 && call->assumed_size > 0) {
        size = call->assumed_size;
        from = "assumed: the command line's DTYPE (the trace records no element type for a TensorList)";
        assumed = 1;
    }
    double n = (double)list->list_numel;
    pf_estimate_done(call, w, 0, n == 0 ? 0 : size > 0 ? 2.0 * n * size : -1);
    w->assumed_dtype = assumed && n > 0;
    if (w->assumed_dtype)
        w->source = "estimate~dtype";
    pf_ex_rule(w, "copy.c", "the largest tensor input");
    pf_ex(w, PF_EX_SIZES, "TensorList of %lld elements; ", (long long)list->list_numel);
    if (size > 0)
        pf_ex(w, PF_EX_SIZES, "element size %d bytes, from %s", size, from);
    else
        pf_ex(w, PF_EX_SIZES, "element size unknown (no out= tensor, no DTYPE given)");
    pf_ex(w, PF_EX_BYTES, "2*numel(list)*s = 2*%lld*", (long long)list->list_numel);
    if (size > 0)
        pf_ex(w, PF_EX_BYTES, "%d", size);
    else
        pf_ex(w, PF_EX_BYTES, "?");
    return PF_FORMULA_OK;
}

/* The table (argument 0) and the index tensor of a lookup. */
static int lookup_args(const pf_op_call *call, const pf_op_spec *s, const pf_arg **src,
                       const pf_arg **index)
{
    if (!s->index_at || call->nargs <= s->index_at)
        return PF_FORMULA_BAD_ARGS;
    *src = &call->args[0];
    *index = &call->args[s->index_at];
    if (!pf_arg_is_tensor(*src) || !pf_arg_is_tensor(*index))
        return PF_FORMULA_BAD_ARGS;
    return pf_arg_numel(*src) < 0 || pf_arg_numel(*index) < 0 ? PF_FORMULA_BAD_ARGS : PF_FORMULA_OK;
}

/* Only the n elements picked are read, then written: counting the whole table would charge
 * a vocabulary's bytes to a lookup of a few rows. */
static int lookup_done(const pf_op_call *call, pf_work *w, const pf_arg *src,
                       const pf_arg *index, int64_t n)
{
    int size = pf_type_size(src->type);
    if (n < 0)
        return PF_FORMULA_BAD_ARGS;
    /* an expanded index (Input Strides [1, 0]) is read once per distinct element */
    double bytes = size > 0 ? pf_bytes_add(pf_tensor_read_bytes(index), 2.0 * (double)n * size) : -1;
    pf_ex_rule(w, "copy.c", "the largest tensor input");
    pf_ex(w, PF_EX_SIZES, "table ");
    pf_ex_shape(w, PF_EX_SIZES, src);
    pf_ex(w, PF_EX_SIZES, ", index ");
    pf_ex_shape(w, PF_EX_SIZES, index);
    pf_ex(w, PF_EX_SIZES, ": %lld elements picked, read once and written once", (long long)n);
    pf_ex(w, PF_EX_BYTES, "index + 2*picked*s = ");
    pf_ex_tensor_read(w, PF_EX_BYTES, index);
    pf_ex(w, PF_EX_BYTES, " + 2*%lld*%d", (long long)n, size);
    return pf_estimate_done(call, w, 0, bytes);
}

/* Elements of src in one slice along dim: the product of its other dims. */
static int64_t slice_numel(const pf_arg *src, int64_t dim)
{
    int64_t n = 1;
    for (int i = 0; i < src->ndim; i++)
        if (i != dim)
            n = pf_mul_nonneg(n, src->dims[i]);
    return n;
}

/* index_select(self, dim, index) and embedding(weight, indices) (dim 0): each index picks
 * a slice of the table along dim. */
int pf_est_index_rows(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    const pf_op_spec *s = pf_spec_of(call);
    const pf_arg *src, *index;
    int64_t dim = 0;
    int rc = lookup_args(call, s, &src, &index);
    if (rc != PF_FORMULA_OK)
        return rc;
    if (s->dim_at && pf_concrete_int(pf_concrete_at(call, s->dim_at), &dim) < 0)
        return PF_FORMULA_BAD_ARGS;
    int rank = src->ndim > 0 ? src->ndim : 1;
    dim = dim < 0 ? dim + rank : dim;
    if (dim < 0 || dim >= rank)
        return PF_FORMULA_MISMATCH;
    int64_t n = pf_mul_nonneg(pf_arg_numel(index), slice_numel(src, dim));
    return lookup_done(call, w, src, index, n);
}

/* gather(self, dim, index): one element per index. */
int pf_est_gather(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    const pf_arg *src, *index;
    int rc = lookup_args(call, pf_spec_of(call), &src, &index);
    return rc != PF_FORMULA_OK ? rc : lookup_done(call, w, src, index, pf_arg_numel(index));
}

/* index(self, indices): the elements picked are the broadcast shape of the index tensors
 * times the dims of self they do not index. Kineto records the Tensor?[] list as nothing
 * (Input Dims [], type ""), and a TensorList's total elements would not say how many dims
 * the indices cover: the bytes are unknown, never self's whole size guessed (a lookup of a
 * few rows of a large table would show far above the DRAM peak). 0 FLOP. */
int pf_est_index_list(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    enum { INDICES = 1 };
    if (call->nargs <= INDICES || !pf_arg_is_tensor(&call->args[0]))
        return PF_FORMULA_BAD_ARGS;
    const pf_arg *list = &call->args[INDICES];
    pf_estimate_done(call, w, 0, -1);
    pf_ex_rule(w, "copy.c", "the largest tensor input");
    pf_ex(w, PF_EX_SIZES, "self ");
    pf_ex_shape(w, PF_EX_SIZES, &call->args[0]);
    pf_ex(w, PF_EX_SIZES, list->is_list ? "; the index list's shapes are not kept, so the elements picked are unknown"
                                        : "; the index list is not recorded, so the elements picked are unknown");
    pf_ex(w, PF_EX_BYTES, "unknown");
    return PF_FORMULA_OK;
}
