/* attribute.c - decides which activities carry each op invocation's work (its FLOPs on the kernels that do the arithmetic, its bytes over all its kernels by time), and what that work is. */
#include <assert.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "profana/analysis.h"
#include "profana/formulas.h"
#include "profana/kernel_role.h"
#include "profana/mem.h"
#include "profana/parallel.h"
#include "profana/ptrmap.h"
#include "profana/rates.h"
#include "profana/satmath.h"
#include "inductor_src.h"

/* pf_kernel_role_of once per distinct kernel name (names are interned). */
typedef struct role_memo {
    pf_ptrmap map;
    unsigned char *role;
    size_t n, cap;
} role_memo;

static int memo_role(role_memo *m, const char *name)
{
    int added;
    int64_t k = pf_ptrmap_find_or_add(&m->map, name, m->n, &added);
    if (k < 0)
        return -1;
    if (!added)
        return m->role[k];
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 64;
        unsigned char *p = realloc(m->role, cap);
        if (!p)
            return -1;
        m->role = p;
        m->cap = cap;
    }
    m->role[m->n] = (unsigned char)pf_kernel_role_of(name);
    return m->role[m->n++];
}

/* Time and launches of an op invocation's kernels: all of them, its math kernels, and those
 * that are no helper (math or plain). Ranges of activities add to them at once: integer sums,
 * so the order of the adds changes nothing (zero bytes, from pf_zalloc, are a zero of these
 * lock-free atomics). */
typedef struct op_time {
    _Atomic int64_t all_ns, math_ns, worker_ns;
    _Atomic int64_t all_n, math_n, worker_n;
} op_time;

/* dur's part of total (of n launches); by count when the launches took no time at all. */
static double part(int64_t dur, int64_t total, int64_t n)
{
    assert(dur >= 0 && total >= 0 && n >= 0);
    if (n <= 0)
        return 0;
    return total > 0 ? (double)dur / (double)total : 1.0 / (double)n;
}

size_t pf_work_threads(const pf_trace *t, int jobs)
{
    assert(t);
    if (t->n_acts < 65536 || jobs <= 1) /* a thread's start costs more than a small trace's work */
        return 1;
    return (size_t)jobs < PF_THREADS_MAX ? (size_t)jobs : PF_THREADS_MAX;
}

/* pf_work_shares' ranges: each sums its kernels into their ops' op_time (pass 1), then cuts
 * each of its kernels' share from its op's sums (pass 2). */
typedef struct shares_job {
    const pf_trace *t;
    op_time *ot;               /* per op */
    unsigned char *role;       /* per activity: its pf_kernel_role (pass 1's) */
    pf_share *sh;
    int shared;                /* several ranges at once */
    atomic_int failed;         /* memory ran out in a range */
} shares_job;

/* *p += v (v >= 0), saturating at INT64_MAX (a malformed trace's durations may reach it), so
 * that the sum does not depend on the order of the adds: a compare-and-swap loop when ranges
 * run at once, else a plain load and store (a locked add made one thread's pass 1 a third
 * slower). */
static void add_to(_Atomic int64_t *p, int64_t v, int shared)
{
    assert(v >= 0);
    if (!shared) {
        atomic_store_explicit(p, pf_sat_add(atomic_load_explicit(p, memory_order_relaxed), v), memory_order_relaxed);
        return;
    }
    int64_t cur = atomic_load_explicit(p, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(p, &cur, pf_sat_add(cur, v), memory_order_relaxed,
                                                  memory_order_relaxed))
        ;
}

static void add_time(op_time *o, int64_t d, int role, int shared)
{
    add_to(&o->all_ns, d, shared);
    add_to(&o->all_n, 1, shared);
    if (role == PF_KERNEL_HELPER)
        return;
    add_to(&o->worker_ns, d, shared);
    add_to(&o->worker_n, 1, shared);
    if (role != PF_KERNEL_MATH)
        return;
    add_to(&o->math_ns, d, shared);
    add_to(&o->math_n, 1, shared);
}

/* Pass 1 over [lo, hi), with a memo of its own (the role is a function of the name). */
static void sum_range(void *ctx, size_t lo, size_t hi, size_t r)
{
    shares_job *j = ctx;
    role_memo mm = {0};
    (void)r;
    for (size_t i = lo; i < hi; i++) {
        const pf_activity *a = &j->t->acts[i];
        if (a->op < 0 || a->kind != PF_ACT_KERNEL)
            continue;
        int m = memo_role(&mm, a->name);
        if (m < 0) {
            atomic_store(&j->failed, 1);
            break;
        }
        j->role[i] = (unsigned char)m;
        add_time(&j->ot[a->op], a->dur_ns > 0 ? a->dur_ns : 0, m, j->shared);
    }
    free(mm.role);
    pf_ptrmap_free(&mm.map);
}

/* The FLOP share of activity i of its op: its part of the op's math kernels' time; when the
 * op has none, of its kernels that are no helper (the fallback: a helper never takes FLOPs);
 * when every kernel is a helper, of them all, so that the op's FLOPs stay on its kernels. */
static double flop_part(const shares_job *j, const op_time *o, size_t i, int64_t d, double bytes_part)
{
    int64_t math_n = atomic_load_explicit(&o->math_n, memory_order_relaxed);
    int64_t worker_n = atomic_load_explicit(&o->worker_n, memory_order_relaxed);
    if (math_n > 0)
        return j->role[i] == PF_KERNEL_MATH ? part(d, atomic_load_explicit(&o->math_ns, memory_order_relaxed), math_n)
                                            : 0;
    if (worker_n > 0)
        return j->role[i] != PF_KERNEL_HELPER
                   ? part(d, atomic_load_explicit(&o->worker_ns, memory_order_relaxed), worker_n)
                   : 0;
    return bytes_part;
}

/* Pass 2 over [lo, hi). FLOPs go to the op's math kernels by their time (flop_part: to its
 * kernels other than helpers when it has none); bytes to all its kernels by time: each kernel
 * then runs at the op's own rate over the kernels that share that work, never above it.
 * memcpy and memset carry their own bytes instead. */
static void share_range(void *ctx, size_t lo, size_t hi, size_t r)
{
    shares_job *j = ctx;
    (void)r;
    for (size_t i = lo; i < hi; i++) {
        const pf_activity *a = &j->t->acts[i];
        if (a->op < 0 || a->kind != PF_ACT_KERNEL)
            continue;
        op_time *o = &j->ot[a->op];
        int64_t d = a->dur_ns > 0 ? a->dur_ns : 0;
        j->sh[i].bytes = part(d, atomic_load_explicit(&o->all_ns, memory_order_relaxed),
                              atomic_load_explicit(&o->all_n, memory_order_relaxed));
        j->sh[i].flop = flop_part(j, o, i, d, j->sh[i].bytes);
    }
}

pf_share *pf_work_shares(const pf_trace *t, size_t threads)
{
    assert(t && threads >= 1);
    shares_job j = {t, pf_zalloc(t->n_ops ? t->n_ops : 1, sizeof(op_time)), calloc(t->n_acts ? t->n_acts : 1, 1),
                    calloc(t->n_acts ? t->n_acts : 1, sizeof(pf_share)), threads > 1, 0};
    if (j.ot && j.role && j.sh) {
        pf_parallel_ranges(t->n_acts, threads, sum_range, &j);
        if (!atomic_load(&j.failed))
            pf_parallel_ranges(t->n_acts, threads, share_range, &j);
    }
    free(j.ot);
    free(j.role);
    if (!j.ot || !j.role || atomic_load(&j.failed)) {
        free(j.sh);
        return NULL;
    }
    return j.sh;
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
    /* a trace that keeps one of the two (kernel_flop without kernel_num_gb): the other half
     * from the kernel's module under --inductor-cache, where the formula read it */
    int from_src = formula_ok && fw->source && strcmp(fw->source, "triton-src") == 0;
    if (from_src && (w->flop < 0 || w->bytes < 0)) {
        w->flop = w->flop >= 0 ? w->flop : fw->flop;
        w->bytes = w->bytes >= 0 ? w->bytes : fw->bytes;
        w->source = "inductor+src";
    }
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
        /* torch.compile's wrappers record no shapes even with record_shapes: the cause is the
         * compiled region, not the profiler's settings */
        if (strncmp(op->name, "Torch-Compiled Region", 21) == 0 || strncmp(op->name, "CompiledFunction", 16) == 0)
            w->compiled_region = 1;
        else
            w->no_shapes = 1;
        return;
    }
    if (rc < 0) {
        w->no_formula = 1;
        return;
    }
    /* recent PyTorch records tensor lists as [] without shapes: the cause of the unknown
     * figures of a fused optimizer or a _foreach_ op (the op's own kernel_num_gb, above, wins) */
    w->lists_unrecorded = fw.bytes < 0 && pf_op_lists_unrecorded(&op->call);
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
    w->no_formula = w->upper_bound = w->lower_bound = w->no_shapes = w->generic = w->inferred = w->elsewhere = 0;
    w->graph_replay = w->compiled_region = w->lists_unrecorded = 0;
    w->op_flop = w->op_bytes = -1;
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
    } else if (a->kind == PF_ACT_MEMSET) {
        /* ROCm records no size on its memsets (the few bytes a convolution's workspace fill
         * writes): 0 bytes, footnoted, rather than blanking the bytes of the op's whole row */
        w->flop = 0;
        w->bytes = 0;
        w->source = "memset~0";
    }
    return 1;
}

/* A kernel replayed by a graph launch, with no op from the graph's capture: the op it links to
 * (CompiledFunction, a model runner's) launched the graph and did none of its work itself, and
 * the trace holds no shapes of the kernels': unknown (1), unless pf_work_infer finds the same
 * kernel outside the replay. */
static int graph_replay(const pf_activity *a, pf_act_work *w)
{
    if (!a->graph || a->captured)
        return 0;
    w->graph_replay = 1;
    return 1;
}

/* The op's work (w, the whole op's) cut to this activity's share of it. A kernel given none
 * of a known, nonzero figure carries it elsewhere (its op's other kernels): marked so that
 * its 0 is not read as measured. */
static void share(pf_share s, pf_act_work *w)
{
    assert(s.flop >= 0 && s.flop <= 1 + 1e-9 && s.bytes >= 0 && s.bytes <= 1 + 1e-9);
    w->op_flop = w->flop;
    w->op_bytes = w->bytes;
    if (!w->source)
        return;
    if (w->flop > 0 && s.flop <= 0)
        w->elsewhere |= PF_ELSEWHERE_FLOP;
    if (w->bytes > 0 && s.bytes <= 0)
        w->elsewhere |= PF_ELSEWHERE_BYTES;
    w->flop = w->flop >= 0 ? w->flop * s.flop : -1;
    w->bytes = w->bytes >= 0 ? w->bytes * s.bytes : -1;
}

void pf_work_of(const pf_trace *t, const pf_analysis_opts *o, size_t i, pf_share s, pf_act_work *w)
{
    const pf_activity *a = &t->acts[i];
    work_init(o, w);
    if (transfer_work(a, w) || graph_replay(a, w) || a->op < 0)
        return;
    op_work(t, o, &t->ops[a->op], w);
    w->dtype = pf_peak_dtype_kernel(w->dtype, a->name, o->tf32);
    share(s, w);
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

/* One range of activities with a memo of its own (ranges run on their own threads). */
typedef struct work_job {
    const pf_trace *t;
    const pf_analysis_opts *o;
    const pf_share *shares;
    pf_act_work *w;
    int *rc;                   /* per range */
} work_job;

static void work_range(void *ctx, size_t lo, size_t hi, size_t r)
{
    const work_job *j = ctx;
    work_memo m = {0};
    int rc = 0;
    for (size_t i = lo; rc == 0 && i < hi; i++) {
        const pf_activity *a = &j->t->acts[i];
        work_init(j->o, &j->w[i]);
        if (transfer_work(a, &j->w[i]) || graph_replay(a, &j->w[i]) || a->op < 0)
            continue;
        const pf_act_work *ow = memo_work(&m, j->t, j->o, &j->t->ops[a->op]);
        if (!ow) {
            rc = -1;
            break;
        }
        j->w[i] = *ow;
        j->w[i].dtype = pf_peak_dtype_kernel(j->w[i].dtype, a->name, j->o->tf32);
        share(j->shares[i], &j->w[i]);
    }
    free(m.slots);
    j->rc[r] = rc;
}

/* Activities in pf_work_threads(t, o->jobs) ranges, each on its own thread; an op's figures
 * are a function of the op alone, so a memo per range gives what one memo would. The ranges
 * share one set of Inductor modules (o->modules, else one made here for the run): a module is
 * read and parsed once, however many launches and ranges name it. */
int pf_work_all(const pf_trace *t, const pf_analysis_opts *o, const pf_share *shares, pf_act_work *w)
{
    assert(t != NULL && o != NULL && (shares != NULL || t->n_acts == 0) && (w != NULL || t->n_acts == 0));
    size_t w_n = pf_work_threads(t, o->jobs);
    int *rc = calloc(w_n, sizeof *rc);
    pf_analysis_opts with = *o;
    pf_modules *own = o->modules ? NULL : (with.modules = pf_modules_new(PF_MODULE_BUDGET_S));
    if (!rc || !with.modules) {
        free(rc);
        pf_modules_free(own);
        return -1;
    }
    work_job j = {t, &with, shares, w, rc};
    pf_parallel_ranges(t->n_acts, w_n, work_range, &j);
    int bad = 0;
    for (size_t r = 0; r < w_n; r++)
        bad |= rc[r];
    free(rc);
    pf_modules_free(own);
    return bad ? -1 : 0;
}
