/* phase_spread.c - an attention call's serving phase spread to the whole forward it sits in: the outermost nn.Module call that holds it, else the launches between attention calls, split where the phase changes at the widest gap between launches. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "nest.h"
#include "pipeline.h"

/* The module calls of t, nested per thread (pf_nest_build), into *out (*n of them); -1 when
 * memory ran out. */
static int module_calls(const pf_trace *t, pf_nest_span **out, size_t *n)
{
    size_t k = 0;
    pf_nest_span *r = malloc((t->n_marks ? t->n_marks : 1) * sizeof *r);
    if (!r)
        return -1;
    for (size_t i = 0; i < t->n_marks; i++) {
        const pf_host_mark *m = &t->marks[i];
        if (m->kind == PF_MARK_PYTHON && pf_nest_is_module_call(m->name)) {
            r[k] = (pf_nest_span){m->thread, m->ts_ns, m->ts_ns + m->dur_ns, -1, (int32_t)k};
            k++;
        }
    }
    pf_nest_build(r, k);
    *out = r;
    *n = k;
    return 0;
}

/* The top-level module call (one no other call of its thread holds) holding instant ts on
 * thread th, as an index into r; -1 when none. */
static int32_t top_of(const pf_nest_span *r, size_t n, uint64_t th, int64_t ts)
{
    int32_t k = pf_nest_find(r, n, th, ts);
    return k < 0 ? -1 : pf_nest_root(r, k);
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
    pf_nest_span *r;
    size_t n;
    if (module_calls(t, &r, &n))
        return -1;
    unsigned *mask = calloc(n ? n : 1, sizeof *mask); /* per call, its phases' bits (the tops' used) */
    if (!mask) {
        free(r);
        return -1;
    }
    long given = 0;
    for (size_t i = 0; n && i < t->n_acts; i++) {
        const pf_activity *a = &t->acts[i];
        int32_t f;
        if (by_query[i] && a->launch_ts_ns != PF_NO_LAUNCH && (f = top_of(r, n, a->launch_thread, a->launch_ts_ns)) >= 0)
            mask[f] |= 1u << phase[i];
    }
    for (size_t i = 0; n && i < t->n_acts; i++) {
        const pf_activity *a = &t->acts[i];
        int32_t f;
        if (phase[i] == PF_PHASE_NONE && a->launch_ts_ns != PF_NO_LAUNCH &&
            (f = top_of(r, n, a->launch_thread, a->launch_ts_ns)) >= 0 && mask[f]) {
            phase[i] = (unsigned char)mask_phase(mask[f]);
            given++;
        }
    }
    free(mask);
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
