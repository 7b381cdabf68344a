/* attribute.c - decides which activity carries each op invocation's work, and what that work is. */
#include <stdlib.h>

#include "profana/analysis.h"

unsigned char *pf_work_carriers(const pf_trace *t)
{
    unsigned char *carrier = calloc(t->n_acts ? t->n_acts : 1, 1);
    int64_t *best = malloc((t->n_ops ? t->n_ops : 1) * sizeof *best);
    if (!carrier || !best) {
        free(carrier);
        free(best);
        return NULL;
    }
    for (size_t i = 0; i < t->n_ops; i++)
        best[i] = -1;
    /* An op invocation that launched a memset and a GEMM (or a split-K GEMM and its
     * reduction) has its work counted once, on its longest kernel. memcpy and memset
     * carry their own bytes instead. */
    for (size_t i = 0; i < t->n_acts; i++) {
        const pf_activity *a = &t->acts[i];
        if (a->op < 0 || a->kind != PF_ACT_KERNEL)
            continue;
        int64_t b = best[a->op];
        if (b < 0 || a->dur_ns > t->acts[b].dur_ns)
            best[a->op] = (int64_t)i;
    }
    for (size_t i = 0; i < t->n_ops; i++)
        if (best[i] >= 0)
            carrier[best[i]] = 1;
    free(best);
    return carrier;
}

static pf_dtype peak_dtype(const pf_analysis_opts *o, pf_dtype d, int matrix)
{
    if (d == PF_DT_UNKNOWN)
        d = o->default_dtype;
    if (d == PF_DT_FP32 && matrix && o->tf32)
        d = PF_DT_TF32;
    return d;
}

static void op_work(const pf_trace *t, const pf_analysis_opts *o, const pf_cpu_op *op, pf_act_work *w)
{
    /* Inductor measured its own kernels: take its figures as they are. */
    if (op->kernel_flop >= 0 || op->kernel_num_gb >= 0) {
        w->flop = op->kernel_flop;
        w->bytes = op->kernel_num_gb >= 0 ? op->kernel_num_gb * 1e9 : -1;
        w->source = "inductor";
        w->dtype = peak_dtype(o, PF_DT_UNKNOWN, 0);
        return;
    }
    if (op->bad_args) {
        w->source = "bad-args";
        return;
    }
    pf_work fw;
    /* a TensorList has no element type in the trace: its bytes assume the default dtype */
    int rc = pf_formula_apply_ex(&op->call, o->default_dtype, NULL, &fw);
    (void)t;
    if (rc < 0) {
        w->no_formula = 1;
        return;
    }
    w->no_formula = fw.generic;
    w->upper_bound = fw.upper_bound;
    w->flop = fw.flop;
    w->bytes = fw.bytes;
    w->source = fw.source;
    w->dtype = peak_dtype(o, fw.dtype, fw.matrix);
}

void pf_work_of(const pf_trace *t, const pf_analysis_opts *o, size_t i, int carries_op_work,
                pf_act_work *w)
{
    const pf_activity *a = &t->acts[i];
    w->flop = w->bytes = -1;
    w->dtype = peak_dtype(o, PF_DT_UNKNOWN, 0);
    w->source = NULL;
    w->no_formula = w->upper_bound = 0;
    if (a->kind != PF_ACT_KERNEL) {
        if (a->bytes >= 0) {
            w->flop = 0;
            w->bytes = (double)a->bytes;
            w->source = a->kind == PF_ACT_MEMCPY ? "memcpy" : "memset";
        }
        return;
    }
    if (a->op < 0)
        return;
    op_work(t, o, &t->ops[a->op], w);
    /* The op's other kernels (a split-K reduction, a helper) are known to carry none of
     * its work: zero, not unknown, so the op's group still shows its figures. */
    if (!carries_op_work && w->source) {
        w->flop = w->flop >= 0 ? 0 : -1;
        w->bytes = w->bytes >= 0 ? 0 : -1;
    }
}
