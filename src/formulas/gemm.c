/* gemm.c - FLOP and byte formulas of the matrix products: mm, addmm, bmm, baddbmm, _int_mm and _scaled_mm. */
#include "families.h"

#include <assert.h>

/* Where the operands of one GEMM op sit in its schema. */
typedef struct gemm_layout {
    int rank;     /* dims of A and B: 2, or 3 for the batched ops */
    int self;     /* the added tensor C, -1 when the op has none */
    int a;        /* A; B follows it */
    int min_args; /* arguments the formula needs */
    int n_inputs; /* schema arguments; the out= variant appends the output after them */
    int extra;    /* first of the optional tensors read beside A and B (scales, bias), up to
                   * n_inputs; 0 none */
} gemm_layout;

/* mm(self, mat2), addmm(self, mat1, mat2, beta, alpha), bmm(self, mat2),
 * baddbmm(self, batch1, batch2, beta, alpha),
 * _scaled_mm(self, mat2, scale_a, scale_b, bias?, scale_result?, out_dtype?, use_fast_accum). */
static const gemm_layout mm_layout = {2, -1, 0, 2, 2, 0};
static const gemm_layout addmm_layout = {2, 0, 1, 3, 5, 0};
static const gemm_layout bmm_layout = {3, -1, 0, 2, 2, 0};
static const gemm_layout baddbmm_layout = {3, 0, 1, 3, 5, 0};
static const gemm_layout scaled_mm_layout = {2, -1, 0, 4, 8, 2};

enum { SCALED_MM_OUT_DTYPE = 6 };

/* The product's dims: out = [batch?, m, n], reduced over k. */
typedef struct gemm_dims {
    int64_t batch, m, n, k;
    int64_t out[3];
    int out_rank;
} gemm_dims;

static int gemm_read_dims(const pf_arg *a, const pf_arg *b, int rank, gemm_dims *g)
{
    if (!pf_arg_is_tensor(a) || !pf_arg_is_tensor(b))
        return PF_FORMULA_BAD_ARGS;
    if (pf_arg_numel(a) < 0 || pf_arg_numel(b) < 0)
        return PF_FORMULA_BAD_ARGS;
    if (a->ndim != rank || b->ndim != rank)
        return PF_FORMULA_MISMATCH;
    if (rank == 3 && a->dims[0] != b->dims[0])
        return PF_FORMULA_MISMATCH;
    if (a->dims[rank - 1] != b->dims[rank - 2])
        return PF_FORMULA_MISMATCH;
    g->batch = rank == 3 ? a->dims[0] : 1;
    g->m = a->dims[rank - 2];
    g->k = a->dims[rank - 1];
    g->n = b->dims[rank - 1];
    g->out_rank = rank;
    g->out[0] = g->batch;
    g->out[rank - 2] = g->m;
    g->out[rank - 1] = g->n;
    return PF_FORMULA_OK;
}

/* C must broadcast to the product's shape: right-aligned, each dim 1 or equal. */
static int broadcasts_to(const pf_arg *c, const gemm_dims *g)
{
    if (c->ndim > g->out_rank)
        return 0;
    for (int i = 1; i <= c->ndim; i++) {
        int64_t d = c->dims[c->ndim - i];
        if (d != 1 && d != g->out[g->out_rank - i])
            return 0;
    }
    return 1;
}

static int gemm_check_self(const pf_arg *c, const gemm_dims *g)
{
    if (!pf_arg_is_tensor(c) || pf_arg_numel(c) < 0)
        return PF_FORMULA_BAD_ARGS;
    return broadcasts_to(c, g) ? PF_FORMULA_OK : PF_FORMULA_MISMATCH;
}

/* Element size of the result: an out= tensor's type wins, then the op's own rule
 * (out_size; 0 when the result has A's type). 0 = unknown. */
static int gemm_out_size(const pf_op_call *call, const gemm_layout *l, int out_size)
{
    if (call->nargs > l->n_inputs)
        return pf_type_size(call->args[l->n_inputs].type);
    return out_size > 0 ? out_size : pf_type_size(call->args[l->a].type);
}

/* flop 2*[b*]M*N*K; bytes: A, B (and C) as recorded, the output [b,]M,N at its size. */
static void gemm_explain(const pf_op_call *call, const gemm_layout *l, const gemm_dims *g, int size,
                         pf_work *w)
{
    int batched = l->rank == 3;
    pf_ex_rule(w, "gemm.c", "the operands (the slower of the two)");
    if (batched)
        pf_ex(w, PF_EX_SIZES, "b=%lld ", (long long)g->batch);
    pf_ex(w, PF_EX_SIZES, "M=%lld K=%lld N=%lld", (long long)g->m, (long long)g->k, (long long)g->n);
    if (l->self >= 0) {
        pf_ex(w, PF_EX_SIZES, "; C ");
        pf_ex_shape(w, PF_EX_SIZES, &call->args[l->self]);
    }
    if (batched)
        pf_ex(w, PF_EX_FLOP, "2*b*M*N*K = 2*%lld*", (long long)g->batch);
    else
        pf_ex(w, PF_EX_FLOP, "2*M*N*K = 2*");
    pf_ex(w, PF_EX_FLOP, "%lld*%lld*%lld", (long long)g->m, (long long)g->n, (long long)g->k);
    pf_ex(w, PF_EX_BYTES, "%s%s + out = ", l->self >= 0 ? "C + A + B" : "A + B",
          l->extra ? " + scales and bias" : "");
    if (l->self >= 0) {
        pf_ex_tensor(w, PF_EX_BYTES, &call->args[l->self]);
        pf_ex(w, PF_EX_BYTES, " + ");
    }
    pf_ex_tensor(w, PF_EX_BYTES, &call->args[l->a]);
    pf_ex(w, PF_EX_BYTES, " + ");
    pf_ex_tensor(w, PF_EX_BYTES, &call->args[l->a + 1]);
    for (int i = l->extra; l->extra && i < l->n_inputs && i < call->nargs; i++) {
        if (!pf_arg_is_tensor(&call->args[i]))
            continue;
        pf_ex(w, PF_EX_BYTES, " + ");
        pf_ex_tensor(w, PF_EX_BYTES, &call->args[i]);
    }
    if (batched)
        pf_ex(w, PF_EX_BYTES, " + %lld*", (long long)g->batch);
    else
        pf_ex(w, PF_EX_BYTES, " + ");
    pf_ex(w, PF_EX_BYTES, "%lld*%lld*", (long long)g->m, (long long)g->n);
    if (size > 0)
        pf_ex(w, PF_EX_BYTES, "%d", size);
    else
        pf_ex(w, PF_EX_BYTES, "? (output type unknown)");
}

static int gemm_apply(const pf_op_call *call, const gemm_layout *l, int out_size, pf_work *w)
{
    const pf_arg *args = call->args;
    gemm_dims g;
    if (call->nargs < l->min_args || call->nargs > l->n_inputs + 1)
        return PF_FORMULA_BAD_ARGS;
    if (call->nargs > l->n_inputs && !pf_arg_is_tensor(&args[l->n_inputs]))
        return PF_FORMULA_BAD_ARGS;
    int rc = gemm_read_dims(&args[l->a], &args[l->a + 1], l->rank, &g);
    if (rc == PF_FORMULA_OK && l->self >= 0)
        rc = gemm_check_self(&args[l->self], &g);
    if (rc != PF_FORMULA_OK)
        return rc;
    int64_t out_numel = pf_mul_nonneg(pf_mul_nonneg(g.batch, g.m), g.n);
    if (out_numel < 0)
        return PF_FORMULA_BAD_ARGS;
    int size = gemm_out_size(call, l, out_size);
    double bytes = pf_bytes_add(pf_tensor_bytes(&args[l->a]), pf_tensor_bytes(&args[l->a + 1]));
    if (l->self >= 0)
        bytes = pf_bytes_add(bytes, pf_tensor_bytes(&args[l->self]));
    for (int i = l->extra; l->extra && i < l->n_inputs && i < call->nargs; i++)
        if (pf_arg_is_tensor(&args[i]))
            bytes = pf_bytes_add(bytes, pf_tensor_bytes(&args[i]));
    /* the operands' element types choose the peak (pf_dtype_of_operands); packed FP4 operands
     * record half the reduction dim they multiply over */
    const char *scale = l->extra ? (l->extra < call->nargs ? args[l->extra].type : "") : NULL;
    const char *ta = args[l->a].type, *tb = args[l->a + 1].type;
    int packing = pf_dtype_packing(ta, scale) == 2 && pf_dtype_packing(tb, scale) == 2 ? 2 : 1;
    w->flop = 2.0 * (double)g.batch * (double)g.m * (double)g.n * (double)g.k * packing;
    w->bytes = size > 0 ? pf_bytes_add(bytes, (double)out_numel * size) : -1;
    w->dtype = pf_dtype_of_operands(ta, tb, scale);
    w->matrix = PF_MATRIX_GEMM;
    w->source = "gemm";
    gemm_explain(call, l, &g, size, w);
    if (packing == 2)
        pf_ex(w, PF_EX_FLOP, " * 2 (FP4 packed two to a byte: K is twice the recorded %lld)", (long long)g.k);
    return PF_FORMULA_OK;
}

int pf_gemm_mm(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    return gemm_apply(call, &mm_layout, 0, w);
}

int pf_gemm_addmm(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    return gemm_apply(call, &addmm_layout, 0, w);
}

int pf_gemm_bmm(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    return gemm_apply(call, &bmm_layout, 0, w);
}

int pf_gemm_baddbmm(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    return gemm_apply(call, &baddbmm_layout, 0, w);
}

/* The scaled GEMM writes bf16 (2 bytes) unless out_dtype names another type; an absent
 * optional is recorded as "". Returns the size, or 0 when out_dtype is unreadable. */
static int scaled_mm_out_size(const pf_op_call *call)
{
    int64_t code;
    if (call->nargs <= SCALED_MM_OUT_DTYPE)
        return 2;
    const char *text = call->args[SCALED_MM_OUT_DTYPE].concrete;
    if (!text || !*text)
        return 2;
    if (pf_concrete_int(text, &code) < 0)
        return 0;
    return pf_scalar_type_size(code);
}

/* torch._int_mm multiplies int8 matrices into int32 (4 bytes). */
int pf_gemm_int_mm(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    return gemm_apply(call, &mm_layout, 4, w);
}

/* The scales are read: 0-d tensor-wise scales are 4 bytes, but row-wise ([M, 1], [1, N])
 * and block-wise ([M, K/128], [K/128, N/128]) ones grow with the operands; so are the bias
 * and scale_result when given. */
int pf_gemm_scaled_mm(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    int size = scaled_mm_out_size(call);
    if (size == 0)
        return PF_FORMULA_BAD_ARGS;
    return gemm_apply(call, &scaled_mm_layout, size, w);
}
