/* loss.c - byte estimates of the negative log-likelihood loss (nll_loss_forward, nll_loss_backward): one element per row of the log-probabilities, never the whole matrix. */
#include "families.h"

#include <assert.h>

/* Rows and classes of self ([N, C], or [C] for one sample) and the optional class weights
 * (argument weight_at: a tensor, or an undefined one recorded as nothing). */
typedef struct nll_shape {
    int64_t rows, classes;
    const pf_arg *weight;      /* NULL: none */
} nll_shape;

static int nll_shape_of(const pf_op_call *call, int self_at, int target_at, int weight_at, nll_shape *sh)
{
    if (call->nargs <= weight_at || !pf_arg_is_tensor(&call->args[self_at]) ||
        !pf_arg_is_tensor(&call->args[target_at]))
        return PF_FORMULA_BAD_ARGS;
    const pf_arg *self = &call->args[self_at], *target = &call->args[target_at];
    if (self->ndim < 1 || self->ndim > 2 || pf_arg_numel(self) < 0 || pf_type_size(self->type) <= 0)
        return self->ndim > 2 ? PF_FORMULA_MISMATCH : PF_FORMULA_BAD_ARGS;
    sh->rows = self->ndim == 2 ? self->dims[0] : 1;
    sh->classes = self->dims[self->ndim - 1];
    sh->weight = pf_arg_is_tensor(&call->args[weight_at]) ? &call->args[weight_at] : NULL;
    if (pf_arg_numel(target) != sh->rows || (sh->weight && pf_arg_numel(sh->weight) != sh->classes))
        return PF_FORMULA_MISMATCH;
    return PF_FORMULA_OK;
}

/* Bytes of the class weights read: one per row at most, min(N, C) distinct ones, since which
 * classes the targets name is not recorded (the figures become an upper bound). */
static double weight_bytes(const nll_shape *sh)
{
    if (!sh->weight)
        return 0;
    int64_t n = sh->rows < sh->classes ? sh->rows : sh->classes;
    int size = pf_type_size(sh->weight->type);
    return size > 0 ? (double)n * size : -1;
}

static void ex_weight(pf_work *w, const nll_shape *sh)
{
    if (!sh->weight)
        return;
    int64_t n = sh->rows < sh->classes ? sh->rows : sh->classes;
    pf_ex(w, PF_EX_SIZES, "; class weights: at most min(N, C) = %lld read (an upper bound: the targets' classes "
          "are not recorded)", (long long)n);
    pf_ex(w, PF_EX_BYTES, " + %lld*%d", (long long)n, pf_type_size(sh->weight->type));
}

/* Marks the figures an upper bound when they count class weights. */
static int done(const pf_op_call *call, pf_work *w, const nll_shape *sh, double flop, double bytes)
{
    pf_estimate_done(call, w, flop, bytes);
    if (sh->weight) {
        w->upper_bound = 1;
        w->source = "estimate~ub";
    }
    return PF_FORMULA_OK;
}

/* nll_loss_forward(self [N, C], target [N], weight?, reduction, ignore_index) -> (output,
 * total_weight): each row's target picks one log-probability, so N elements of self are
 * read (not N*C: the generic guess counted the whole matrix and put an LLM step's loss at
 * 1,215% of the DRAM peak), the targets read, and written: the per-row losses (reduction
 * none, 0) or one value and total_weight. FLOP: one per row (the sum's add, or the
 * negation), as the element-wise ops count. */
int pf_est_nll_loss(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    enum { SELF = 0, TARGET = 1, WEIGHT = 2, REDUCTION = 3 };
    nll_shape sh;
    int64_t reduction;
    int rc = nll_shape_of(call, SELF, TARGET, WEIGHT, &sh);
    if (rc != PF_FORMULA_OK)
        return rc;
    if (pf_concrete_int(pf_concrete_at(call, REDUCTION), &reduction) < 0 || reduction < 0 || reduction > 2)
        return PF_FORMULA_BAD_ARGS;
    const pf_arg *self = &call->args[SELF], *target = &call->args[TARGET];
    int size = pf_type_size(self->type);
    double written = reduction == 0 ? (double)sh.rows * size : 2.0 * size;
    double bytes = pf_bytes_add(pf_bytes_add((double)sh.rows * size, pf_tensor_read_bytes(target)),
                                pf_bytes_add(written, weight_bytes(&sh)));
    pf_ex_rule(w, "loss.c", "the largest tensor input");
    pf_ex(w, PF_EX_SIZES, "self ");
    pf_ex_shape(w, PF_EX_SIZES, self);
    pf_ex(w, PF_EX_SIZES, ": N=%lld rows, one element each read; reduction %lld (%s)", (long long)sh.rows,
          (long long)reduction, reduction == 0 ? "none: N losses written" : "one loss and total_weight written");
    pf_ex(w, PF_EX_FLOP, "N = %lld", (long long)sh.rows);
    pf_ex(w, PF_EX_BYTES, "N*s + target + written = %lld*%d + ", (long long)sh.rows, size);
    pf_ex_tensor_read(w, PF_EX_BYTES, target);
    if (reduction == 0)
        pf_ex(w, PF_EX_BYTES, " + %lld*%d", (long long)sh.rows, size);
    else
        pf_ex(w, PF_EX_BYTES, " + 2*%d", size);
    ex_weight(w, &sh);
    return done(call, w, &sh, (double)sh.rows, bytes);
}

/* nll_loss_backward(grad_output, self [N, C], target [N], weight?, reduction, ignore_index,
 * total_weight) -> grad_input [N, C]: PyTorch zeroes grad_input first (grad_input.zero_(),
 * a nested aten::zero_ with its own row and kernel) and then writes one element per row,
 * -grad (times the weight, over total_weight when averaged). This op's own kernel reads
 * grad_output, the targets and total_weight and writes N elements; self is not read (its
 * shape only). FLOP: one per row. */
int pf_est_nll_loss_backward(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    enum { GRAD = 0, SELF = 1, TARGET = 2, WEIGHT = 3, TOTAL_WEIGHT = 6 };
    nll_shape sh;
    int rc = nll_shape_of(call, SELF, TARGET, WEIGHT, &sh);
    if (rc != PF_FORMULA_OK)
        return rc;
    const pf_arg *grad = &call->args[GRAD], *self = &call->args[SELF], *target = &call->args[TARGET];
    if (!pf_arg_is_tensor(grad))
        return PF_FORMULA_BAD_ARGS;
    const pf_arg *total = call->nargs > TOTAL_WEIGHT && pf_arg_is_tensor(&call->args[TOTAL_WEIGHT])
                              ? &call->args[TOTAL_WEIGHT] : NULL;
    int size = pf_type_size(self->type);
    double bytes = pf_bytes_add(pf_bytes_add(pf_tensor_read_bytes(grad), pf_tensor_read_bytes(target)),
                                pf_bytes_add(total ? pf_tensor_read_bytes(total) : 0, (double)sh.rows * size));
    bytes = pf_bytes_add(bytes, weight_bytes(&sh));
    pf_ex_rule(w, "loss.c", "the largest tensor input");
    pf_ex(w, PF_EX_SIZES, "self ");
    pf_ex_shape(w, PF_EX_SIZES, self);
    pf_ex(w, PF_EX_SIZES, ": N=%lld rows, one element of grad_input written each (the nested aten::zero_ "
          "writes the rest, on its own row)", (long long)sh.rows);
    pf_ex(w, PF_EX_FLOP, "N = %lld", (long long)sh.rows);
    pf_ex(w, PF_EX_BYTES, "grad_output + target + total_weight + N*s = ");
    pf_ex_tensor_read(w, PF_EX_BYTES, grad);
    pf_ex(w, PF_EX_BYTES, " + ");
    pf_ex_tensor_read(w, PF_EX_BYTES, target);
    pf_ex(w, PF_EX_BYTES, " + ");
    if (total)
        pf_ex_tensor_read(w, PF_EX_BYTES, total);
    else
        pf_ex(w, PF_EX_BYTES, "0");
    pf_ex(w, PF_EX_BYTES, " + %lld*%d", (long long)sh.rows, size);
    ex_weight(w, &sh);
    return done(call, w, &sh, (double)sh.rows, bytes);
}
