/* attribute.c - decides which activity carries each op invocation's work, and what that work is. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "profana/analysis.h"
#include "profana/formulas.h"
#include "profana/rates.h"

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
    return pf_peak_dtype(d, matrix, o->default_dtype, o->tf32);
}

/* Figures the trace itself carries on the op (kernel_flop / kernel_num_gb: Inductor's, or an
 * earlier --augment_trace's) are taken as they are. The peak is still chosen from the op's
 * inputs where a formula reads them (its dtype and matrix units, so DTYPE and --tf32 apply as
 * to the formula's own figures): analysing an augmented trace gives the input's answer. */
static void trace_work(const pf_cpu_op *op, const pf_analysis_opts *o, const pf_work *fw, int formula_ok,
                       pf_act_work *w)
{
    w->flop = op->kernel_flop;
    /* kernel_num_gb is a whole number of bytes / 1e9 (Inductor's num_bytes, or ours): back
     * to that whole number, not one an ulp off it. A count too large for a double is unknown. */
    double b = op->kernel_num_gb >= 0 && isfinite(op->kernel_num_gb * 1e9) ? op->kernel_num_gb * 1e9 : -1;
    w->bytes = b >= 0 && fabs(b - nearbyint(b)) < 1e-6 ? nearbyint(b) : b;
    w->source = "inductor";
    w->dtype = peak_dtype(o, formula_ok ? fw->dtype : PF_DT_UNKNOWN, formula_ok ? fw->matrix : 0);
    if (formula_ok) {
        w->no_formula = fw->no_formula;
        w->upper_bound = fw->upper_bound;
    }
}

static void op_work(const pf_trace *t, const pf_analysis_opts *o, const pf_cpu_op *op, pf_act_work *w)
{
    pf_work fw = {0};
    int rc = -1;
    (void)t;
    /* a TensorList has no element type in the trace: its bytes assume the default dtype */
    if (!op->bad_args)
        rc = pf_op_figures(op, o, NULL, &fw);
    if (op->kernel_flop >= 0 || op->kernel_num_gb >= 0) {
        trace_work(op, o, &fw, rc == PF_FORMULA_OK, w);
        return;
    }
    if (op->bad_args) {
        w->source = "bad-args";
        return;
    }
    /* No arguments at all on an op that launched GPU work: the profiler ran without
     * record_shapes (its default). That, not a missing formula, is why figures are absent. */
    if (op->call.nargs == 0) {
        w->no_shapes = 1;
        return;
    }
    if (rc < 0) {
        w->no_formula = 1;
        return;
    }
    w->no_formula = fw.no_formula;
    w->generic = fw.generic;
    w->upper_bound = fw.upper_bound;
    w->lower_bound = fw.lower_bound;
    w->flop = fw.flop;
    w->bytes = fw.bytes;
    w->source = fw.source;
    w->dtype = peak_dtype(o, fw.dtype, fw.matrix);
}

static void work_init(const pf_analysis_opts *o, pf_act_work *w)
{
    w->flop = w->bytes = -1;
    w->dtype = peak_dtype(o, PF_DT_UNKNOWN, 0);
    w->source = NULL;
    w->no_formula = w->upper_bound = w->lower_bound = w->no_shapes = w->generic = w->inferred = 0;
}

/* DRAM bytes of a copy of n bytes: a device-to-device copy reads them and writes them on
 * the same device's memory (2n); host<->device and peer copies touch this device's memory
 * once (n). Kineto names the kind: "Memcpy DtoD (Device -> Device)", "Memcpy HtoD (...)". */
static double copy_bytes(const pf_activity *a)
{
    return strncmp(a->name, "Memcpy DtoD", 11) == 0 ? 2.0 * (double)a->bytes : (double)a->bytes;
}

/* A copy's or fill's own bytes; 1 when a is not a kernel (its work is then complete). */
static int transfer_work(const pf_activity *a, pf_act_work *w)
{
    if (a->kind == PF_ACT_KERNEL)
        return 0;
    if (a->bytes >= 0) {
        w->flop = 0;
        w->bytes = a->kind == PF_ACT_MEMCPY ? copy_bytes(a) : (double)a->bytes;
        w->source = a->kind == PF_ACT_MEMCPY ? "memcpy" : "memset";
    }
    return 1;
}

/* The op's other kernels (a split-K reduction, a helper) are known to carry none of its
 * work: zero, not unknown, so the op's group still shows its figures. */
static void share(int carries_op_work, pf_act_work *w)
{
    if (!carries_op_work && w->source) {
        w->flop = w->flop >= 0 ? 0 : -1;
        w->bytes = w->bytes >= 0 ? 0 : -1;
    }
}

void pf_work_of(const pf_trace *t, const pf_analysis_opts *o, size_t i, int carries_op_work,
                pf_act_work *w)
{
    const pf_activity *a = &t->acts[i];
    work_init(o, w);
    if (transfer_work(a, w) || a->op < 0)
        return;
    op_work(t, o, &t->ops[a->op], w);
    w->dtype = pf_peak_dtype_kernel(w->dtype, a->name, o->tf32);
    share(carries_op_work, w);
}

/* ---- every activity at once: one formula run per distinct op invocation ---- */

/* What op_work reads of an op. Ops whose args read the same share one parse (call.args),
 * so a training loop's thousands of invocations are a few hundred distinct keys. */
typedef struct work_key {
    const char *name;
    const pf_arg *args;
    int nargs, bad_args;
    double kernel_flop, kernel_num_gb;
    const char *kernel_file;   /* interned: one Triton launch's module */
} work_key;

typedef struct memo_slot {
    work_key k;
    pf_act_work w;
    int used;
} memo_slot;

typedef struct work_memo {
    memo_slot *slots;
    size_t cap, n;
} work_memo;

static work_key key_of(const pf_cpu_op *op)
{
    return (work_key){op->call.name, op->call.args, op->call.nargs, op->bad_args, op->kernel_flop,
                      op->kernel_num_gb, op->kernel_file};
}

static int same_key(const work_key *a, const work_key *b)
{
    return a->name == b->name && a->args == b->args && a->nargs == b->nargs && a->bad_args == b->bad_args &&
           a->kernel_flop == b->kernel_flop && a->kernel_num_gb == b->kernel_num_gb &&
           a->kernel_file == b->kernel_file;
}

static size_t key_hash(const work_key *k, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)k->name * UINT64_C(0x9E3779B97F4A7C15);
    h ^= (uint64_t)(uintptr_t)k->args * UINT64_C(0xC2B2AE3D27D4EB4F);
    h ^= (uint64_t)k->nargs;
    return (size_t)(h >> 20) & (cap - 1);
}

static memo_slot *memo_find(work_memo *m, const work_key *k)
{
    size_t i = key_hash(k, m->cap);
    while (m->slots[i].used && !same_key(&m->slots[i].k, k))
        i = (i + 1) & (m->cap - 1);
    return &m->slots[i];
}

static int memo_grow(work_memo *m)
{
    work_memo bigger = {calloc(m->cap ? m->cap * 2 : 256, sizeof(memo_slot)), m->cap ? m->cap * 2 : 256, m->n};
    if (!bigger.slots)
        return -1;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].used)
            *memo_find(&bigger, &m->slots[i].k) = m->slots[i];
    free(m->slots);
    *m = bigger;
    return 0;
}

/* The op's work (before share), computed on its key's first use; NULL when memory runs out. */
static const pf_act_work *memo_work(work_memo *m, const pf_trace *t, const pf_analysis_opts *o,
                                    const pf_cpu_op *op)
{
    if ((m->n + 1) * 2 > m->cap && memo_grow(m))
        return NULL;
    work_key k = key_of(op);
    memo_slot *s = memo_find(m, &k);
    if (!s->used) {
        s->used = 1;
        s->k = k;
        work_init(o, &s->w);
        op_work(t, o, op, &s->w);
        m->n++;
    }
    return &s->w;
}

int pf_work_all(const pf_trace *t, const pf_analysis_opts *o, const unsigned char *carrier, pf_act_work *w)
{
    work_memo m = {0};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < t->n_acts; i++) {
        const pf_activity *a = &t->acts[i];
        work_init(o, &w[i]);
        if (transfer_work(a, &w[i]) || a->op < 0)
            continue;
        const pf_act_work *ow = memo_work(&m, t, o, &t->ops[a->op]);
        if (!ow) {
            rc = -1;
            break;
        }
        w[i] = *ow;
        w[i].dtype = pf_peak_dtype_kernel(w[i].dtype, a->name, o->tf32);
        share(carrier[i], &w[i]);
    }
    free(m.slots);
    return rc;
}
