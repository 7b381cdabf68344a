/* trace_launches.c - each GPU activity's launch call by correlation id (when, from which process, a graph launch, its geometry), and the launches a capture trace keeps; the map and lookups of large traces on several threads. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>

#include "profana/parallel.h"
#include "trace_idmap.h"
#include "trace_model.h"
#include "trace_records.h"
#include "trace_vec.h"

/* The launch records of every chunk in one array, in file order, and what links them to
 * the activities: the work of each step spread over up to `jobs` threads. */
typedef struct launches_job {
    pf_segvec *const *vecs;
    const size_t *at;          /* per vector: where its records go in l */
    pf_launch_rec *l;
    size_t n;
    pf_idmap m;
    unsigned char *ambiguous, *ran;
    pf_trace *t;
    int64_t *lo, *hi;          /* per range: the least and greatest correlation id */
    size_t *launched, *ambiguous_acts; /* per range of activities */
} launches_job;

static void drain_range(void *ctx, size_t v0, size_t v1, size_t k)
{
    const launches_job *j = ctx;
    (void)k;
    for (size_t v = v0; v < v1; v++)
        pf_segvec_drain(j->vecs[v], j->l + j->at[v]);
}

/* The records in one array (the vectors emptied); NULL when memory runs out. */
static pf_launch_rec *flatten_launches(launches_job *j, size_t n_vecs, size_t jobs)
{
    size_t *at = malloc((n_vecs + 1) * sizeof *at);
    if (at)
        at[0] = 0;
    for (size_t v = 0; at && v < n_vecs; v++)
        at[v + 1] = at[v] + j->vecs[v]->n;
    j->n = at ? at[n_vecs] : 0;
    j->l = at ? pf_model_alloc((j->n ? j->n : 1) * sizeof *j->l, 0) : NULL;
    j->at = at;
    if (j->l)
        pf_parallel_ranges(n_vecs, pf_segvec_drain_threads(j->n * sizeof *j->l, n_vecs, jobs), drain_range, j);
    for (size_t v = 0; v < n_vecs; v++)
        pf_segvec_free(j->vecs[v]);
    free(at);
    j->at = NULL;
    return j->l;
}

static void corr_bounds(void *ctx, size_t lo, size_t hi, size_t k)
{
    launches_job *j = ctx;
    int64_t a = INT64_MAX, b = INT64_MIN;
    for (size_t i = lo; i < hi; i++) {
        a = j->l[i].correlation < a ? j->l[i].correlation : a;
        b = j->l[i].correlation > b ? j->l[i].correlation : b;
    }
    j->lo[k] = a;
    j->hi[k] = b;
}

static void corr_mark(void *ctx, size_t lo, size_t hi, size_t k)
{
    launches_job *j = ctx;
    (void)k;
    for (size_t i = lo; i < hi; i++)
        pf_idmap_mark(&j->m, j->l[i].correlation);
}

/* How far ahead a pass over ids asks for their slots of a hashed map. */
enum { PREFETCH_AHEAD = 16 };

static void corr_fill(void *ctx, size_t lo, size_t hi, size_t k)
{
    launches_job *j = ctx;
    (void)k;
    for (size_t i = lo; i < hi; i++) {
        if (i + PREFETCH_AHEAD < hi)
            pf_idmap_prefetch(&j->m, j->l[i + PREFETCH_AHEAD].correlation);
        pf_idmap_put_min(&j->m, j->l[i].correlation, (int32_t)i);
    }
}

/* A record after the first of its id, of another process, makes the first ambiguous. */
static void corr_ambiguous(void *ctx, size_t lo, size_t hi, size_t k)
{
    launches_job *j = ctx;
    (void)k;
    for (size_t i = lo; i < hi; i++) {
        int32_t first = pf_idmap_get(&j->m, j->l[i].correlation);
        if ((size_t)first != i && j->l[first].process != j->l[i].process)
            __atomic_store_n(&j->ambiguous[first], 1, __ATOMIC_RELAXED); /* every writer writes 1 */
    }
}

/* Correlation id -> index of the first record with it. A later record of another process
 * with the same id (ranks of a combined trace number their calls alike) makes the first
 * ambiguous (ambiguous[first] = 1): no activity can tell which call launched it. */
static int map_launches(launches_job *j, size_t jobs)
{
    size_t w = pf_trace_workers(j->n, j->n, jobs);
    j->lo = malloc(w * sizeof *j->lo);
    j->hi = malloc(w * sizeof *j->hi);
    if (!j->lo || !j->hi || j->n > INT32_MAX)
        return -1;
    pf_parallel_ranges(j->n, w, corr_bounds, j);
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t k = 0; k < w; k++) {
        lo = j->lo[k] < lo ? j->lo[k] : lo;
        hi = j->hi[k] > hi ? j->hi[k] : hi;
    }
    if (pf_idmap_init(&j->m, lo, hi, j->n))
        return -1;
    if (pf_idmap_marking(&j->m)) {
        pf_parallel_ranges(j->n, w, corr_mark, j);
        if (pf_idmap_ready(&j->m))
            return -1;
    }
    pf_parallel_ranges(j->n, w, corr_fill, j);
    if (pf_idmap_count(&j->m, w) < j->n) /* some id repeats: a pass of lookups (a slot scan is cheaper) */
        pf_parallel_ranges(j->n, w, corr_ambiguous, j);
    return 0;
}

/* Whether the trace has GPU-side steps but no activity's launch is known: --step then falls
 * back to the GPU-side annotations, which hold only the profiling thread's launches. */
static int note_fallback(pf_trace *t)
{
    if (t->n_launched || !t->n_gpu_steps || !t->n_acts)
        return 0;
    return pf_trace_note(t, "no GPU activity has its launch call (cuda_runtime/cuda_driver with its correlation) "
                            "in the trace: --step and --steps use the GPU-side ProfilerStep annotations, which hold "
                            "only the work launched on the profiling thread");
}

/* The records as the model keeps them for a capture trace (ops linked by pf_trace_link). */
/* The names beside the records in one array, in file order (the vectors emptied); NULL when
 * memory runs out. */
static pf_launch_name *flatten_names(pf_segvec *const *names, size_t n_vecs, size_t n)
{
    pf_launch_name *all = malloc((n ? n : 1) * sizeof *all);
    size_t at = 0;
    for (size_t v = 0; v < n_vecs; v++) {
        size_t k = names[v]->n; /* draining empties the vector */
        if (all)
            pf_segvec_drain(names[v], all + at);
        at += k;
        pf_segvec_free(names[v]);
    }
    assert(!all || at == n);
    return all;
}

static int keep_launches(pf_trace *t, const pf_launch_rec *l, pf_segvec *const *names, size_t n_vecs, size_t n,
                         const unsigned char *ran)
{
    pf_launch_name *nm = flatten_names(names, n_vecs, n);
    if (!nm || !(t->launches = malloc((n ? n : 1) * sizeof *t->launches))) {
        free(nm);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        t->launches[i] = (pf_launch){nm[i].kernel, (pf_launch_kind)l[i].kind, -1, ran[i], nm[i].ext_id, l[i].correlation,
                                     l[i].ts_ns, l[i].process, l[i].geometry, nm[i].has_ext};
    t->n_launches = n;
    free(nm);
    return 0;
}

/* Each activity of the range gets what its launch call tells: when, from which process,
 * whether a graph replayed it, and its geometry when its own event lacks one. */
static void acts_launch_range(void *ctx, size_t lo, size_t hi, size_t k)
{
    launches_job *j = ctx;
    size_t launched = 0, ambiguous_acts = 0;
    for (size_t i = lo; i < hi; i++) {
        if (i + PREFETCH_AHEAD < hi)
            pf_idmap_prefetch(&j->m, j->t->acts[i + PREFETCH_AHEAD].correlation);
        pf_activity *a = &j->t->acts[i];
        int32_t g = a->has_correlation ? pf_idmap_get(&j->m, a->correlation) : -1;
        a->launch_ts_ns = PF_NO_LAUNCH;
        a->launch_dur_ns = 0;
        a->launch_process = 0;
        a->launch_thread = 0;
        if (g < 0)
            continue;
        __atomic_store_n(&j->ran[g], 1, __ATOMIC_RELAXED); /* every writer writes 1 */
        if (j->ambiguous[g]) {
            ambiguous_acts++;
            continue;
        }
        const pf_launch_rec *c = &j->l[g];
        a->launch_ts_ns = c->ts_ns;
        a->launch_dur_ns = c->dur_ns;
        a->launch_process = c->process;
        a->launch_thread = c->thread;
        a->graph = c->kind == PF_LAUNCH_GRAPH;
        if (!a->geometry && !a->graph)
            a->geometry = c->geometry;
        launched++;
    }
    j->launched[k] = launched;
    j->ambiguous_acts[k] = ambiguous_acts;
}

int pf_trace_link_launches(pf_trace *t, pf_segvec *const *vecs, pf_segvec *const *names, size_t n_vecs, int keep,
                           size_t jobs, pf_error *err)
{
    assert(t != NULL && err != NULL);
    assert((vecs != NULL && names != NULL) || n_vecs == 0);
    jobs = jobs ? jobs : 1;
    size_t ambiguous_acts = 0, w = pf_trace_workers(t->n_acts, t->n_acts, jobs);
    launches_job j = {.vecs = vecs, .t = t};
    int rc = flatten_launches(&j, n_vecs, jobs) ? 0 : -1;
    j.ambiguous = rc == 0 ? calloc(j.n ? j.n : 1, 1) : NULL;
    j.ran = rc == 0 ? calloc(j.n ? j.n : 1, 1) : NULL;
    j.launched = malloc(w * sizeof *j.launched);
    j.ambiguous_acts = malloc(w * sizeof *j.ambiguous_acts);
    if (rc == 0)
        rc = j.ambiguous && j.ran && j.launched && j.ambiguous_acts ? map_launches(&j, jobs) : -1;
    if (rc == 0) {
        pf_parallel_ranges(t->n_acts, w, acts_launch_range, &j);
        for (size_t k = 0; k < w; k++) {
            t->n_launched += j.launched[k];
            ambiguous_acts += j.ambiguous_acts[k];
        }
    }
    pf_idmap_free(&j.m);
    if (rc == 0 && keep)
        rc = keep_launches(t, j.l, names, n_vecs, j.n, j.ran);
    for (size_t v = 0; v < n_vecs; v++)
        pf_segvec_free(names[v]);
    free(j.ambiguous);
    free(j.ran);
    free(j.l);
    free(j.lo);
    free(j.hi);
    free(j.launched);
    free(j.ambiguous_acts);
    if (rc == 0 && ambiguous_acts)
        rc = pf_trace_note(t, "%zu GPU activities share their correlation id with launch calls of several processes: "
                              "they belong to no profiler step", ambiguous_acts);
    if (rc == 0)
        rc = note_fallback(t);
    return rc ? pf_fail(err, "%s: out of memory", t->path) : 0;
}
