/* phase_spread.c - an attention call's serving phase spread to the whole forward it sits in: the outermost nn.Module call that holds it, else the launches between attention calls, split where the phase changes at the widest gap between launches. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"

#define MODULE_PREFIX "nn.Module: "

/* A top-level module call (one that no other module call of its thread holds) and the
 * phases of the attention calls launched inside it (a bit per PF_PHASE_*). */
typedef struct fwd_range {
    uint64_t thread;
    int64_t ts, end;
    unsigned mask;
} fwd_range;

static int range_cmp(const void *x, const void *y)
{
    const fwd_range *a = x, *b = y;
    if (a->thread != b->thread)
        return a->thread < b->thread ? -1 : 1;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    return (a->end < b->end) - (a->end > b->end); /* the outer first */
}

/* The top-level module calls of t, sorted by thread and start, into *out (*n of them);
 * -1 when memory ran out. */
static int top_modules(const pf_trace *t, fwd_range **out, size_t *n)
{
    size_t k = 0;
    fwd_range *r = malloc((t->n_marks ? t->n_marks : 1) * sizeof *r);
    if (!r)
        return -1;
    for (size_t i = 0; i < t->n_marks; i++) {
        const pf_host_mark *m = &t->marks[i];
        if (m->kind == PF_MARK_PYTHON && m->name && strncmp(m->name, MODULE_PREFIX, sizeof MODULE_PREFIX - 1) == 0)
            r[k++] = (fwd_range){m->thread, m->ts_ns, m->ts_ns + m->dur_ns, 0};
    }
    if (k > 1)
        qsort(r, k, sizeof *r, range_cmp);
    size_t top = 0; /* keep a call unless the last kept one of its thread holds it */
    for (size_t i = 0; i < k; i++)
        if (!top || r[top - 1].thread != r[i].thread || r[i].ts >= r[top - 1].end)
            r[top++] = r[i];
    *out = r;
    *n = top;
    return 0;
}

/* The top-level module call of thread th holding instant ts; NULL when none. */
static fwd_range *range_of(fwd_range *r, size_t n, uint64_t th, int64_t ts)
{
    size_t lo = 0, hi = n; /* the first range after (th, ts) */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r[mid].thread < th || (r[mid].thread == th && r[mid].ts <= ts))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || r[lo - 1].thread != th || ts >= r[lo - 1].end)
        return NULL;
    return &r[lo - 1];
}

/* The phase a set of phases (bits) gives a forward: the one phase, or mixed. */
static int mask_phase(unsigned mask)
{
    if (mask == 0)
        return PF_PHASE_NONE;
    if (mask == (1u << PF_PHASE_PREFILL) || mask == (1u << PF_PHASE_DECODE) || mask == (1u << PF_PHASE_MIXED))
        return mask == (1u << PF_PHASE_PREFILL) ? PF_PHASE_PREFILL
               : mask == (1u << PF_PHASE_DECODE) ? PF_PHASE_DECODE
                                                 : PF_PHASE_MIXED;
    return PF_PHASE_MIXED;
}

/* Step 1: every activity launched inside a top-level module call that launched attention
 * calls with a phase takes theirs. Returns the activities given one, or -1 (memory). */
static long spread_by_modules(const pf_trace *t, unsigned char *phase, const unsigned char *by_query)
{
    fwd_range *r;
    size_t n;
    if (top_modules(t, &r, &n))
        return -1;
    long given = 0;
    for (size_t i = 0; n && i < t->n_acts; i++) {
        const pf_activity *a = &t->acts[i];
        fwd_range *f;
        if (by_query[i] && a->launch_ts_ns != PF_NO_LAUNCH && (f = range_of(r, n, a->launch_thread, a->launch_ts_ns)))
            f->mask |= 1u << phase[i];
    }
    for (size_t i = 0; n && i < t->n_acts; i++) {
        const pf_activity *a = &t->acts[i];
        fwd_range *f;
        if (phase[i] == PF_PHASE_NONE && a->launch_ts_ns != PF_NO_LAUNCH &&
            (f = range_of(r, n, a->launch_thread, a->launch_ts_ns)) && f->mask) {
            phase[i] = (unsigned char)mask_phase(f->mask);
            given++;
        }
    }
    free(r);
    return given;
}

/* ---- step 2: by launch order ---- */

typedef struct launch {
    int64_t ts;
    size_t act;
} launch;

static int launch_cmp(const void *x, const void *y)
{
    const launch *a = x, *b = y;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    return (a->act > b->act) - (a->act < b->act);
}

/* Gives l[lo, hi) (activities without a phase, between the phased l[lo - 1] and l[hi], or
 * at an end: lo 0 or hi n) a phase: that of the phased neighbours when they agree or only
 * one exists; else the earlier's up to the widest gap between two launches of l[lo - 1, hi]
 * and the later's after it. */
static long fill(const launch *l, size_t n, size_t lo, size_t hi, unsigned char *phase)
{
    assert(lo <= hi && hi <= n);
    if (lo == hi || (lo == 0 && hi == n))
        return 0;
    int before = lo > 0 ? phase[l[lo - 1].act] : PF_PHASE_NONE;
    int after = hi < n ? phase[l[hi].act] : PF_PHASE_NONE;
    size_t split = hi; /* l[lo, split) take before, l[split, hi) after */
    if (before == PF_PHASE_NONE)
        split = lo;
    else if (after != PF_PHASE_NONE && after != before) {
        int64_t widest = -1;
        for (size_t k = lo; k <= hi; k++) { /* the gap before l[k] */
            int64_t gap = l[k].ts - l[k - 1].ts;
            if (gap > widest) {
                widest = gap;
                split = k;
            }
        }
    }
    for (size_t k = lo; k < hi; k++)
        phase[l[k].act] = (unsigned char)(k < split ? before : after);
    return (long)(hi - lo);
}

/* Step 2: the launched activities still without a phase, in launch order, take the phase of
 * the phased ones around them (fill). Returns the activities given one, or -1 (memory). */
static long spread_by_launches(const pf_trace *t, unsigned char *phase)
{
    size_t n = 0;
    launch *l = malloc((t->n_acts ? t->n_acts : 1) * sizeof *l);
    if (!l)
        return -1;
    for (size_t i = 0; i < t->n_acts; i++)
        if (t->acts[i].launch_ts_ns != PF_NO_LAUNCH)
            l[n++] = (launch){t->acts[i].launch_ts_ns, i};
    if (n > 1)
        qsort(l, n, sizeof *l, launch_cmp);
    long given = 0;
    size_t lo = 0;
    for (size_t k = 0; k <= n; k++) {
        if (k < n && phase[l[k].act] == PF_PHASE_NONE)
            continue;
        given += fill(l, n, lo, k, phase);
        lo = k + 1;
    }
    free(l);
    return given;
}

int pf_an_phase_spread(const pf_trace *t, unsigned char *phase, const unsigned char *by_query, int *how)
{
    assert(t && phase && by_query && how);
    *how = 0;
    int any = 0;
    for (size_t i = 0; !any && i < t->n_acts; i++)
        any = by_query[i] && phase[i] != PF_PHASE_NONE;
    if (!any)
        return 0;
    long m = spread_by_modules(t, phase, by_query);
    if (m < 0)
        return -1;
    long l = spread_by_launches(t, phase);
    if (l < 0)
        return -1;
    *how = (m > 0 ? PF_SPREAD_MODULES : 0) | (l > 0 ? PF_SPREAD_LAUNCHES : 0);
    return 0;
}
