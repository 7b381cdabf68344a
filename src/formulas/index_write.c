/* index_write.c - byte estimates of the ops that write part of a tensor through an index (index_copy_, index_add_, scatter_, scatter_add_, index_put_, embedding_dense_backward): what they read and the part they write, never the whole destination. */
#include "families.h"

#include <assert.h>

/* A tensor argument at pos whose element count and size are known; NULL otherwise. */
static const pf_arg *sized_tensor(const pf_op_call *call, int pos)
{
    if (pos >= call->nargs || !pf_arg_is_tensor(&call->args[pos]))
        return NULL;
    const pf_arg *a = &call->args[pos];
    return pf_arg_numel(a) >= 0 && pf_type_size(a->type) > 0 ? a : NULL;
}

/* The dim argument at pos, made non-negative against self's rank. */
static int read_dim(const pf_op_call *call, int pos, const pf_arg *self, int64_t *dim)
{
    int rank = self->ndim > 0 ? self->ndim : 1;
    if (pf_concrete_int(pf_concrete_at(call, pos), dim) < 0)
        return PF_FORMULA_BAD_ARGS;
    *dim = *dim < 0 ? *dim + rank : *dim;
    return *dim >= 0 && *dim < rank ? PF_FORMULA_OK : PF_FORMULA_MISMATCH;
}

/* index_copy_(self, dim, index, source) and index_add_(self, dim, index, source, alpha):
 * source's slices go to the rows of self along dim that index names. Read: index and
 * source; written: as many elements of self as source has, at most all of self (repeated
 * indices land on the same elements, which stay in the cache while they are added to: an
 * index_add_ of 65,536 rows into 4 writes 4 rows to memory); index_add_ reads them first, to
 * add to them: one FLOP per source element, as add_ counts. A KV-cache update (index_copy_ of one token
 * into a [16, 32, 2048, 128] cache) moves the token, not the cache. */
int pf_est_index_write(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    enum { SELF = 0, DIM = 1, INDEX = 2, SOURCE = 3 };
    const pf_arg *self = sized_tensor(call, SELF), *index = sized_tensor(call, INDEX);
    const pf_arg *source = sized_tensor(call, SOURCE);
    int64_t dim;
    if (!self || !index || !source)
        return PF_FORMULA_BAD_ARGS;
    int rc = read_dim(call, DIM, self, &dim);
    if (rc != PF_FORMULA_OK)
        return rc;
    /* one index per slice of source along dim (a 0-d source takes one index) */
    int64_t slices = source->ndim > dim ? source->dims[dim] : 1;
    if (source->ndim != self->ndim || pf_arg_numel(index) != slices)
        return PF_FORMULA_MISMATCH;
    int accumulate = pf_spec_of(call)->flop;
    int64_t n = pf_arg_numel(source), self_n = pf_arg_numel(self);
    int64_t touched = self_n >= 0 && self_n < n ? self_n : n;
    int size = pf_type_size(self->type);
    double part = (double)touched * size;
    double bytes = pf_bytes_add(pf_bytes_add(pf_tensor_read_bytes(index), pf_tensor_read_bytes(source)),
                                (1 + accumulate) * part);
    pf_ex_rule(w, "index_write.c", "the largest tensor input");
    pf_ex(w, PF_EX_SIZES, "self ");
    pf_ex_shape(w, PF_EX_SIZES, self);
    pf_ex(w, PF_EX_SIZES, ", dim %lld, index ", (long long)dim);
    pf_ex_shape(w, PF_EX_SIZES, index);
    pf_ex(w, PF_EX_SIZES, ", source ");
    pf_ex_shape(w, PF_EX_SIZES, source);
    pf_ex(w, PF_EX_SIZES, ": %lld elements of self %s, %s", (long long)touched,
          accumulate ? "read and written" : "written", touched < n ? "all of it (indices repeat)" : "not the whole of it");
    if (accumulate)
        pf_ex(w, PF_EX_FLOP, "numel(source) = %lld", (long long)n);
    pf_ex(w, PF_EX_BYTES, "index + source + %spart of self = ", accumulate ? "2*" : "");
    pf_ex_tensor_read(w, PF_EX_BYTES, index);
    pf_ex(w, PF_EX_BYTES, " + ");
    pf_ex_tensor_read(w, PF_EX_BYTES, source);
    pf_ex(w, PF_EX_BYTES, " + %s%lld*%d", accumulate ? "2*" : "", (long long)touched, size);
    return pf_estimate_done(call, w, accumulate ? (double)n : 0, bytes);
}

/* scatter_(self, dim, index, src), scatter_.value(self, dim, index, value),
 * scatter_.reduce(self, dim, index, src, reduce), scatter_add_(self, dim, index, src): one
 * element of self per element of index is written, taken from src at the index's own
 * position (src may be larger: only those elements are read). scatter_add_ and the reduce
 * overloads read the elements they update first, one FLOP each. */
int pf_est_scatter(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    enum { SELF = 0, DIM = 1, INDEX = 2, SRC = 3, REDUCE = 4 };
    const pf_arg *self = sized_tensor(call, SELF), *index = sized_tensor(call, INDEX);
    const pf_arg *src = sized_tensor(call, SRC);
    int64_t dim;
    if (!self || !index || (!src && call->nargs > SRC && pf_arg_is_tensor(&call->args[SRC])))
        return PF_FORMULA_BAD_ARGS;
    int rc = read_dim(call, DIM, self, &dim);
    if (rc != PF_FORMULA_OK)
        return rc;
    if (index->ndim != self->ndim || (src && src->ndim != index->ndim))
        return PF_FORMULA_MISMATCH;
    int accumulate = pf_spec_of(call)->flop || *pf_concrete_at(call, REDUCE) != '\0';
    int64_t n = pf_arg_numel(index);
    int size = pf_type_size(self->type), src_size = src ? pf_type_size(src->type) : 0;
    double bytes = pf_bytes_add(pf_tensor_read_bytes(index), (double)n * (src_size + (1 + accumulate) * size));
    pf_ex_rule(w, "index_write.c", "the largest tensor input");
    pf_ex(w, PF_EX_SIZES, "self ");
    pf_ex_shape(w, PF_EX_SIZES, self);
    pf_ex(w, PF_EX_SIZES, ", dim %lld, index ", (long long)dim);
    pf_ex_shape(w, PF_EX_SIZES, index);
    pf_ex(w, PF_EX_SIZES, ": %lld elements of self %s%s", (long long)n, accumulate ? "read and written" : "written",
          src ? ", as many of src read" : ", from a scalar value");
    if (accumulate)
        pf_ex(w, PF_EX_FLOP, "numel(index) = %lld", (long long)n);
    pf_ex(w, PF_EX_BYTES, "index + numel(index)*(src + %sself) = ", accumulate ? "2*" : "");
    pf_ex_tensor_read(w, PF_EX_BYTES, index);
    pf_ex(w, PF_EX_BYTES, " + %lld*(%d + %d*%d)", (long long)n, src_size, 1 + accumulate, size);
    return pf_estimate_done(call, w, accumulate ? (double)n : 0, bytes);
}

/* index_put_(self, indices, values, accumulate) and _index_put_impl_(self, indices, values,
 * accumulate, unsafe) (x[idx] = values; the backward of x[idx]): values is read and as many
 * elements of self written (read too when accumulate, one FLOP each). Kineto records the
 * Tensor?[] index list as nothing (Input Dims [], type "") and a TensorList without an
 * element type, so the indices' bytes, and the total, are unknown unless the list records
 * its type; a 0-d values broadcast over the indexed part (x[mask] = 0) leaves the part
 * written unknown too. The FLOPs stand either way. Never self whole: a few rows of a large
 * tensor would read far above the DRAM peak. */
int pf_est_index_put(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    enum { SELF = 0, INDICES = 1, VALUES = 2, ACCUMULATE = 3 };
    const pf_arg *self = sized_tensor(call, SELF), *values = sized_tensor(call, VALUES);
    if (!self || !values || call->nargs <= ACCUMULATE)
        return PF_FORMULA_BAD_ARGS;
    int accumulate = pf_concrete_bool(pf_concrete_at(call, ACCUMULATE));
    if (accumulate < 0)
        return PF_FORMULA_BAD_ARGS;
    const pf_arg *list = &call->args[INDICES];
    int list_size = list->is_list && list->list_numel >= 0 ? pf_type_size(list->type) : 0;
    int64_t n = pf_arg_numel(values);
    int size = pf_type_size(self->type), known = list_size > 0 && values->ndim > 0;
    double bytes = known ? (double)list->list_numel * list_size + pf_tensor_read_bytes(values) +
                               (1.0 + accumulate) * (double)n * size
                         : -1;
    pf_ex_rule(w, "index_write.c", "the largest tensor input");
    pf_ex(w, PF_EX_SIZES, "self ");
    pf_ex_shape(w, PF_EX_SIZES, self);
    pf_ex(w, PF_EX_SIZES, ", values ");
    pf_ex_shape(w, PF_EX_SIZES, values);
    pf_ex(w, PF_EX_SIZES, ", accumulate %d", accumulate);
    if (!known)
        pf_ex(w, PF_EX_SIZES, values->ndim > 0 ? "; the index list's elements and type are not recorded, so its bytes are unknown"
                                               : "; a 0-d values broadcast over a part the trace does not size: unknown");
    if (accumulate)
        pf_ex(w, PF_EX_FLOP, "numel(values) = %lld", (long long)n);
    if (known)
        pf_ex(w, PF_EX_BYTES, "indices + values + %s%lld*%d = %lld*%d + %lld*%d + ...", accumulate ? "2*" : "",
              (long long)n, size, (long long)list->list_numel, list_size, (long long)n, pf_type_size(values->type));
    else
        pf_ex(w, PF_EX_BYTES, "unknown");
    return pf_estimate_done(call, w, accumulate ? (double)n : 0, bytes);
}

/* embedding_dense_backward(grad_output [..., D], indices [...], num_weights, padding_idx,
 * scale_grad_by_freq): the gradient rows of the indices are summed into the rows of
 * grad_weight [num_weights, D] they name. Read: indices and grad_output; written: the rows
 * named, at most min(n, num_weights) of them (how many distinct indices there are is not in
 * the trace), so the figures are an upper bound (source "estimate~ub"). grad_weight's other
 * rows are zeroed by a nested aten::zeros, an op of its own. FLOP: one add per element of
 * grad_output. */
int pf_est_embedding_backward(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    enum { GRAD = 0, INDICES = 1, NUM_WEIGHTS = 2 };
    const pf_arg *grad = sized_tensor(call, GRAD), *indices = sized_tensor(call, INDICES);
    int64_t rows;
    if (!grad || !indices || grad->ndim < 1 || pf_concrete_int(pf_concrete_at(call, NUM_WEIGHTS), &rows) < 0 || rows < 0)
        return PF_FORMULA_BAD_ARGS;
    int64_t n = pf_arg_numel(indices), d = grad->dims[grad->ndim - 1];
    if (pf_mul_nonneg(n, d) != pf_arg_numel(grad))
        return PF_FORMULA_MISMATCH;
    int64_t written = n < rows ? n : rows;
    int size = pf_type_size(grad->type);
    double bytes = pf_bytes_add(pf_bytes_add(pf_tensor_read_bytes(indices), pf_tensor_read_bytes(grad)),
                                (double)written * d * size);
    pf_ex_rule(w, "index_write.c", "the largest tensor input");
    pf_ex(w, PF_EX_SIZES, "grad_output ");
    pf_ex_shape(w, PF_EX_SIZES, grad);
    pf_ex(w, PF_EX_SIZES, ", %lld indices into %lld rows of %lld: at most %lld rows written (an upper bound: "
          "the distinct indices are not recorded)", (long long)n, (long long)rows, (long long)d, (long long)written);
    pf_ex(w, PF_EX_FLOP, "numel(grad_output) = %lld*%lld", (long long)n, (long long)d);
    pf_ex(w, PF_EX_BYTES, "indices + grad_output + min(n, num_weights)*D*s = ");
    pf_ex_tensor_read(w, PF_EX_BYTES, indices);
    pf_ex(w, PF_EX_BYTES, " + ");
    pf_ex_tensor_read(w, PF_EX_BYTES, grad);
    pf_ex(w, PF_EX_BYTES, " + %lld*%lld*%d", (long long)written, (long long)d, size);
    pf_estimate_done(call, w, (double)n * d, bytes);
    w->upper_bound = 1;
    w->source = "estimate~ub";
    return PF_FORMULA_OK;
}
