/* optim.c - byte and FLOP formulas of the ops over tensor lists: the fused optimizers (_fused_adam_, _fused_adamw_, _fused_sgd_) and the _foreach_* ops. */
#include "families.h"

#include <assert.h>
#include <string.h>

/* The trace records a TensorList as its shapes ("Input Dims" [[4096, 4096], [4096], ...])
 * with the type "TensorList" and no element type, so a list's bytes are its element count
 * times the command line's DTYPE (call->assumed_size; source "...~dtype"), unknown without
 * one. The element count is exact. Recent PyTorch may record every list as [] without its
 * shapes: then the op has no figures (source "unrecorded"), never 0 bytes. */
static int list_size(const pf_op_call *call, int *assumed)
{
    *assumed = 0;
    for (int i = 0; i < call->nargs; i++) {
        int s = call->args[i].is_list ? pf_type_size(call->args[i].type) : 0;
        if (s > 0)
            return s;
    }
    *assumed = call->assumed_size > 0;
    return call->assumed_size;
}

static int64_t list_numel(const pf_op_call *call, int pos)
{
    if (pos >= call->nargs)
        return 0;
    const pf_arg *a = &call->args[pos];
    return a->is_list ? a->list_numel : -1;
}

static void finish(const pf_op_call *call, pf_work *w, double flop, double elems, int size, int assumed,
                   const char *source)
{
    pf_estimate_done(call, w, flop, elems == 0 ? 0 : size > 0 ? elems * size : -1);
    w->assumed_dtype = assumed && elems > 0;
    w->source = w->assumed_dtype ? (strcmp(source, "optimizer") == 0 ? "optimizer~dtype" : "foreach~dtype")
                                 : source;
    if (size > 0)
        pf_ex(w, PF_EX_SIZES, "; element size %d bytes%s", size,
              assumed ? ", assumed: the command line's DTYPE (a TensorList records no element type)" : "");
    else
        pf_ex(w, PF_EX_SIZES, "; element size unknown (a TensorList records no element type; no DTYPE given)");
}

/* Where the lists of one fused optimizer sit, and how each is touched. */
typedef struct optim_layout {
    const char *op;
    int rw[4];          /* lists read and written: params, moments (-1 = none) */
    int read_only;      /* grads */
    int steps;          /* state_steps: fp32 scalars, read (-1 none) */
} optim_layout;

/* _fused_adam(w)_(params, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, lr,
 * ...): max_exp_avg_sqs is empty unless amsgrad. _fused_sgd_(params, grads,
 * momentum_buffer_list, ...): the buffers are empty without momentum. */
static const optim_layout optim_layouts[] = {
    {"aten::_fused_adam_", {0, 2, 3, 4}, 1, 5},
    {"aten::_fused_adamw_", {0, 2, 3, 4}, 1, 5},
    {"aten::_fused_sgd_", {0, 2, -1, -1}, 1, -1},
};

/* Bytes: every read-write list twice (params, moments), grads once, state_steps as fp32
 * scalars; FLOP: one per element written (as the element-wise ops count), the work of the
 * update rule itself (about a dozen operations per Adam element) not being spelt out. */
int pf_fused_optim(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    const optim_layout *l = NULL;
    for (size_t i = 0; i < sizeof optim_layouts / sizeof optim_layouts[0]; i++)
        if (strcmp(call->name, optim_layouts[i].op) == 0)
            l = &optim_layouts[i];
    if (!l || call->nargs < 3)
        return PF_FORMULA_BAD_ARGS;
    if (pf_op_lists_unrecorded(call))
        return pf_lists_unrecorded(w);
    double written = 0;
    for (int i = 0; i < 4; i++) {
        int64_t n = l->rw[i] < 0 ? 0 : list_numel(call, l->rw[i]);
        if (n < 0)
            return PF_FORMULA_BAD_ARGS;
        written += (double)n;
    }
    int64_t grads = list_numel(call, l->read_only), steps = l->steps < 0 ? 0 : list_numel(call, l->steps);
    if (grads < 0 || steps < 0)
        return PF_FORMULA_BAD_ARGS;
    int assumed, size = list_size(call, &assumed);
    pf_ex_rule(w, "optim.c", "the largest tensor input");
    pf_ex(w, PF_EX_SIZES, "elements: params and state read and written %.0f, grads read %lld, state_steps %lld",
          written, (long long)grads, (long long)steps);
    pf_ex(w, PF_EX_FLOP, "one per element written = %.0f", written);
    pf_ex(w, PF_EX_BYTES, "(2*%.0f + %lld)*s + %lld*4", written, (long long)grads, (long long)steps);
    finish(call, w, written, 2.0 * written + (double)grads, size, assumed, "optimizer");
    if (w->bytes >= 0)
        w->bytes += (double)steps * 4.0;
    return PF_FORMULA_OK;
}

/* What a _foreach_ op does with its first list: writes it in place (name ending in "_"),
 * or writes a new list as large (out-of-place); zero_ and copy_ do not read it; the norms
 * and max reduce each tensor to one value, which the formula leaves out. */
static int foreach_reads_self(const char *op)
{
    return strcmp(op, "aten::_foreach_zero_") != 0 && strcmp(op, "aten::_foreach_copy_") != 0;
}

static int foreach_reduces(const char *op)
{
    return strcmp(op, "aten::_foreach_norm") == 0 || strcmp(op, "aten::_foreach_max") == 0;
}

/* Bytes: every tensor list read (self not, for zero_ and copy_), single tensors (a tensor
 * alpha, a scale) read, the result list (self, or a new one as large) written; FLOP: one
 * per element written, or per element reduced. */
int pf_foreach(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    if (call->nargs > 0 && pf_op_lists_unrecorded(call))
        return pf_lists_unrecorded(w);
    if (!call->args[0].is_list || call->args[0].list_numel < 0)
        return PF_FORMULA_BAD_ARGS;
    size_t len = strlen(call->name);
    int inplace = len > 0 && call->name[len - 1] == '_', reduces = foreach_reduces(call->name);
    double self = (double)call->args[0].list_numel, lists = 0, tensors = 0;
    for (int i = 0; i < call->nargs; i++) {
        const pf_arg *a = &call->args[i];
        if (i == 0 && !foreach_reads_self(call->name))
            continue;
        if (a->is_list)
            lists += (double)a->list_numel;
        else if (pf_arg_is_tensor(a))
            tensors = pf_bytes_add(tensors, pf_tensor_bytes(a));
    }
    double written = reduces ? 0 : self;
    int assumed, size = list_size(call, &assumed);
    pf_ex_rule(w, "optim.c", "the largest tensor input");
    pf_ex(w, PF_EX_SIZES, "%s; elements: lists read %.0f, written %.0f", reduces ? "a reduction per tensor"
          : inplace ? "in place: the first list written" : "a new list as large as the first written",
          lists, written);
    pf_ex(w, PF_EX_FLOP, "one per element %s = %.0f", reduces ? "reduced" : "written", self);
    pf_ex(w, PF_EX_BYTES, "(%.0f + %.0f)*s + single tensors %.0f", lists, written, tensors);
    finish(call, w, self, lists + written, size, assumed, "foreach");
    w->bytes = pf_bytes_add(w->bytes, tensors);
    return PF_FORMULA_OK;
}
