/* registry.c - each ATen op's formula, read from the op table (op_family.h), and the calls that apply it. */
#include "families.h"

#include <assert.h>
#include <string.h>

#include "profana/op_family.h"

/* The registry's name of each family (--explain shows it). */
static const pf_formula families[PF_FAM_COUNT] = {
    [PF_FAM_GEMM] = {"gemm"},
    [PF_FAM_BMM] = {"gemm"},
    [PF_FAM_GEMV] = {"gemm"},
    [PF_FAM_CONV] = {"conv"},
    [PF_FAM_CONV_BACKWARD] = {"conv"},
    [PF_FAM_CONV_TRANSPOSE] = {"conv"},
    [PF_FAM_ATTENTION] = {"attention"},
    [PF_FAM_ATTENTION_BACKWARD] = {"attention"},
    [PF_FAM_NORM] = {"norm"},
    [PF_FAM_REDUCE] = {"reduce"},
    [PF_FAM_ELEMENTWISE] = {"elementwise"},
    [PF_FAM_COPY] = {"copy"},
    [PF_FAM_INDEX] = {"index"},
};

/* The function of each formula the op table names, and the word of those whose word is not
 * their op family's (formula_list.h). */
static const pf_formula_fn formula_fns[PF_OPF_COUNT] = {
#define PF_FORMULA(id, fn, word) [PF_OPF_##id] = fn,
#include "profana/formula_list.h"
#undef PF_FORMULA
};

static const pf_formula formula_names[PF_OPF_COUNT] = {
#define PF_FORMULA(id, fn, word) [PF_OPF_##id] = {word},
#include "profana/formula_list.h"
#undef PF_FORMULA
};

/* The op's entry when a formula counts its work, else NULL. */
static const pf_op_entry *with_formula(const char *op_name)
{
    const pf_op_entry *e = pf_op_family_lookup(op_name);
    return e && e->formula != PF_OPF_NONE ? e : NULL;
}

const pf_formula *pf_formula_lookup(const char *op_name)
{
    const pf_op_entry *e = with_formula(op_name);
    if (!e)
        return NULL;
    return formula_names[e->formula].family ? &formula_names[e->formula] : &families[e->family];
}

/* Element size of a precision, for tensors whose type the trace does not record. */
static int dtype_size(pf_dtype d)
{
    static const unsigned char sizes[PF_DT_COUNT] = {
        [PF_DT_FP64] = 8, [PF_DT_FP32] = 4, [PF_DT_TF32] = 4, [PF_DT_BF16] = 2,
        [PF_DT_FP16] = 2, [PF_DT_FP8] = 1,  [PF_DT_INT8] = 1,
    };
    return d >= 0 && d < PF_DT_COUNT ? sizes[d] : 0;
}

static void reset_work(pf_work *w, pf_explain *ex, const char *source)
{
    *w = (pf_work){.flop = -1, .bytes = -1, .dtype = PF_DT_UNKNOWN, .source = source, .explain = ex};
}

/* An op that recorded no arguments (shapes were off) has no figures, formula or not. */
static int apply(const pf_op_call *call, pf_work *w)
{
    pf_explain *ex = w->explain;
    if (call->nargs == 0)
        return -1;
    const pf_op_entry *e = with_formula(call->name);
    int sane = call->nargs > 0 && call->args;
    if (!e)
        return sane ? pf_estimate_unlisted(call, w) : -1;
    assert(e->formula > PF_OPF_NONE && e->formula < PF_OPF_COUNT && formula_fns[e->formula]);
    int rc = sane ? formula_fns[e->formula](call, w) : PF_FORMULA_BAD_ARGS;
    if (rc == PF_FORMULA_OK)
        return rc;
    if (rc != PF_FORMULA_MISMATCH && rc != PF_FORMULA_UNRECORDED)
        rc = PF_FORMULA_BAD_ARGS;
    reset_work(w, ex, rc == PF_FORMULA_MISMATCH ? "mismatch" : rc == PF_FORMULA_UNRECORDED ? "unrecorded" : "bad-args");
    /* a refused call has no figures: only the sizes read stay, to show why */
    if (ex)
        ex->flop[0] = ex->bytes[0] = 0;
    return rc;
}

int pf_formula_apply(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    return pf_formula_apply_ex(call, PF_DT_UNKNOWN, NULL, w);
}

int pf_formula_apply_ex(const pf_op_call *call, pf_dtype assumed, pf_explain *ex, pf_work *w)
{
    if (!call || !w)
        return -1;
    if (ex)
        memset(ex, 0, sizeof *ex);
    reset_work(w, ex, NULL);
    pf_op_call c = *call;
    c.assumed_size = dtype_size(assumed);
    return apply(&c, w);
}
