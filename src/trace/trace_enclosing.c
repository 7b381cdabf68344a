/* trace_enclosing.c - links by nesting: a GPU activity whose External id matches no cpu_op takes the innermost op recorded around its launch call on the same thread (HTA's rule), the ops of those threads sorted once and swept beside the calls, threads on several cores. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>

#include "profana/parallel.h"
#include "trace_model.h"
#include "trace_records.h"
#include "trace_vec.h"

/* An op record's or a launch call's host interval on its thread; idx: the record's index in
 * the sequence (ops) or the activity's (calls). */
typedef struct span_key {
    uint64_t thread;
    int64_t ts, end;
    int32_t idx;
} span_key;

/* How far below the top of the open ops one call looks for one that ends after it. With
 * ops nested as Kineto records them the first or second looked at is the one; ops that
 * overlap without nesting (a malformed trace) cannot make the sweep quadratic. */
#define ENCLOSE_SCAN 64

/* Ops by thread, start, end latest first (an outer op before the ops it encloses), file order. */
static int cmp_ops(const void *pa, const void *pb)
{
    const span_key *a = pa, *b = pb;
    if (a->thread != b->thread)
        return a->thread < b->thread ? -1 : 1;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    if (a->end != b->end)
        return a->end > b->end ? -1 : 1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

/* Calls by thread, start, then activity: any order of one thread's calls by start serves. */
static int cmp_calls(const void *pa, const void *pb)
{
    const span_key *a = pa, *b = pb;
    if (a->thread != b->thread)
        return a->thread < b->thread ? -1 : 1;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

/* Whether activity a is to be linked by nesting: no op by External id, a launch call known
 * that is not a graph launch (a replay's kernels take their ops from the capture). */
static int wants_op(const pf_activity *a)
{
    return a->op < 0 && a->launch_ts_ns != PF_NO_LAUNCH && !a->graph;
}

/* The index of thread in the sorted distinct threads th[0..n), or -1. */
static long thread_at(const uint64_t *th, size_t n, uint64_t thread)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (th[mid] < thread)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && th[lo] == thread ? (long)lo : -1;
}

/* One thread's sweep: ops o[0..no) and calls c[0..nc) sorted by start; open holds the ops
 * begun and not known to have ended, outermost first. res[q]: the record of the innermost
 * op enclosing call q (the open op nearest the top that ends no earlier), -1 none. */
static void sweep(const span_key *o, size_t no, const span_key *c, size_t nc, int32_t *open, int32_t *res)
{
    size_t top = 0, i = 0;
    for (size_t q = 0; q < nc; q++) {
        for (; i < no && o[i].ts <= c[q].ts; i++) {
            while (top && o[open[top - 1]].end < o[i].ts)
                top--;
            open[top++] = (int32_t)i;
        }
        while (top && o[open[top - 1]].end < c[q].ts)
            top--;
        res[q] = -1;
        for (size_t k = top, s = 0; k > 0 && s < ENCLOSE_SCAN; k--, s++)
            if (o[open[k - 1]].end >= c[q].end) {
                res[q] = o[open[k - 1]].idx;
                break;
            }
    }
}

/* The threads' sweeps spread over workers: thread k's ops are ops[oat[k]..oat[k+1]), its
 * calls calls[cat[k]..cat[k+1]). */
typedef struct enclose_job {
    span_key *ops;
    const span_key *calls;
    const size_t *oat, *cat;
    int32_t *res;              /* per call, in the calls' order */
    int *failed;               /* per range: out of memory */
} enclose_job;

static void enclose_range(void *ctx, size_t k0, size_t k1, size_t w)
{
    const enclose_job *j = ctx;
    for (size_t k = k0; k < k1 && !j->failed[w]; k++) {
        span_key *o = j->ops + j->oat[k];
        size_t no = j->oat[k + 1] - j->oat[k];
        /* in file order, ops of one thread mostly come sorted already */
        int sorted = 1;
        for (size_t i = 1; i < no && sorted; i++)
            sorted = cmp_ops(&o[i - 1], &o[i]) <= 0;
        if (!sorted)
            qsort(o, no, sizeof *o, cmp_ops);
        int32_t *open = malloc((no ? no : 1) * sizeof *open);
        if (!open) {
            j->failed[w] = 1;
            return;
        }
        sweep(o, no, j->calls + j->cat[k], j->cat[k + 1] - j->cat[k], open, j->res + j->cat[k]);
        free(open);
    }
}

/* The calls of the activities that want an op, sorted by thread and start; NULL when there
 * are none (*n 0) or memory runs out (*n nonzero). */
static span_key *gather_calls(const pf_trace *t, size_t *n)
{
    *n = 0;
    for (size_t i = 0; i < t->n_acts; i++)
        *n += (size_t)wants_op(&t->acts[i]);
    if (*n == 0)
        return NULL;
    span_key *c = malloc(*n * sizeof *c);
    if (!c)
        return NULL;
    size_t q = 0;
    for (size_t i = 0; i < t->n_acts; i++) {
        const pf_activity *a = &t->acts[i];
        if (wants_op(a))
            c[q++] = (span_key){a->launch_thread, a->launch_ts_ns, a->launch_ts_ns + a->launch_dur_ns, (int32_t)i};
    }
    qsort(c, *n, sizeof *c, cmp_calls);
    return c;
}

/* The calls' distinct threads (th, sorted) and where each one's calls begin (cat[k]). */
static size_t call_threads(const span_key *c, size_t nc, uint64_t *th, size_t *cat)
{
    size_t n = 0;
    for (size_t q = 0; q < nc; q++)
        if (q == 0 || c[q].thread != c[q - 1].thread) {
            th[n] = c[q].thread;
            cat[n++] = q;
        }
    cat[n] = nc;
    return n;
}

/* The op records on those threads with a span, grouped by thread in file order (a counting
 * pass, then each placed): oat[k] where thread k's begin. NULL when memory runs out. */
static span_key *gather_ops(const pf_op_recs *r, const uint64_t *th, size_t nt, size_t *oat)
{
    int32_t *tk = malloc((r->n ? r->n : 1) * sizeof *tk);
    if (!tk)
        return NULL;
    for (size_t k = 0; k <= nt; k++)
        oat[k] = 0;
    for (size_t v = 0, g = 0; v < r->n_vecs; v++)
        for (size_t i = 0; i < r->vecs[v]->n; i++, g++) {
            const pf_op_rec *rec = pf_segvec_at(r->vecs[v], i);
            long k = rec->ts_ns == PF_NO_SPAN ? -1 : thread_at(th, nt, rec->thread);
            tk[g] = (int32_t)k;
            if (k >= 0)
                oat[k + 1]++;
        }
    for (size_t k = 0; k < nt; k++)
        oat[k + 1] += oat[k];
    span_key *o = malloc((oat[nt] ? oat[nt] : 1) * sizeof *o);
    size_t *at = malloc((nt ? nt : 1) * sizeof *at);
    for (size_t k = 0; o && at && k < nt; k++)
        at[k] = oat[k];
    for (size_t v = 0, g = 0; o && at && v < r->n_vecs; v++)
        for (size_t i = 0; i < r->vecs[v]->n; i++, g++) {
            if (tk[g] < 0)
                continue;
            const pf_op_rec *rec = pf_segvec_at(r->vecs[v], i);
            o[at[tk[g]]++] = (span_key){rec->thread, rec->ts_ns, rec->ts_ns + rec->dur_ns, (int32_t)g};
        }
    free(tk);
    if (!at) {
        free(o);
        return NULL;
    }
    free(at);
    return o;
}

/* Each call's enclosing op on its thread (res[q], in the calls' order), the threads spread
 * over up to jobs workers. Returns 0 or -1 (out of memory). */
static int enclose(span_key *o, const span_key *c, size_t nc, const size_t *oat, const size_t *cat, size_t nt,
                   int32_t *res, size_t jobs)
{
    size_t w = pf_trace_workers(oat[nt] + nc, nt, jobs);
    int *failed = calloc(w, sizeof *failed);
    if (!failed)
        return -1;
    enclose_job j = {o, c, oat, cat, res, failed};
    pf_parallel_ranges(nt, w, enclose_range, &j);
    int rc = 0;
    for (size_t k = 0; k < w; k++)
        rc |= failed[k] ? -1 : 0;
    free(failed);
    return rc;
}

int pf_link_enclosing(pf_trace *t, const pf_op_recs *r, unsigned char *keep, size_t jobs, size_t *n_nested)
{
    assert(t != NULL && r != NULL && (keep != NULL || r->n == 0) && n_nested != NULL && jobs >= 1);
    *n_nested = 0;
    size_t nc;
    span_key *c = gather_calls(t, &nc);
    if (!c || r->n == 0) {
        free(c);
        return c || nc == 0 || r->n == 0 ? 0 : -1;
    }
    uint64_t *th = malloc(nc * sizeof *th);
    size_t *cat = malloc((nc + 1) * sizeof *cat), *oat = malloc((nc + 1) * sizeof *oat);
    int32_t *res = malloc(nc * sizeof *res);
    span_key *o = NULL;
    int rc = th && cat && oat && res ? 0 : -1;
    size_t nt = rc == 0 ? call_threads(c, nc, th, cat) : 0;
    if (rc == 0 && !(o = gather_ops(r, th, nt, oat)))
        rc = -1;
    if (rc == 0)
        rc = enclose(o, c, nc, oat, cat, nt, res, jobs);
    for (size_t q = 0; rc == 0 && q < nc; q++) {
        if (res[q] < 0)
            continue;
        pf_activity *a = &t->acts[c[q].idx];
        a->op = res[q]; /* the record's index, as link_acts leaves an External-id link */
        a->nested = 1;
        keep[res[q]] = 1;
        ++*n_nested;
    }
    free(c);
    free(th);
    free(cat);
    free(oat);
    free(res);
    free(o);
    return rc;
}
