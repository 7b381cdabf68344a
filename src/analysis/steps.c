/* steps.c - which GPU activities belong to each profiler step, for --step and --steps: the work launched inside each CPU-side ProfilerStep#N window, else inside the GPU-side annotations. */
#include <stdlib.h>

#include "profana/analysis.h"
#include "profana/satmath.h"

/* ---- GPU-side annotations (a trace without launch calls) ---- */

static int cmp_step(const void *x, const void *y)
{
    const pf_step_report *a = x, *b = y;
    if (a->device != b->device)
        return a->device < b->device ? -1 : 1;
    if (a->ts_ns != b->ts_ns)
        return a->ts_ns < b->ts_ns ? -1 : 1;
    return (a->number > b->number) - (a->number < b->number);
}

/* The step on the activity's device whose annotation holds the activity's start; -1 none.
 * Steps are sorted by device, then start; annotations of one device do not overlap. */
static long gpu_step_of(const pf_step_report *s, size_t n, const pf_activity *a)
{
    size_t lo = 0, hi = n;
    while (lo < hi) { /* first step after (device, ts) */
        size_t mid = lo + (hi - lo) / 2;
        if (s[mid].device < a->device || (s[mid].device == a->device && s[mid].ts_ns <= a->ts_ns))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return -1;
    const pf_step_report *c = &s[lo - 1];
    return c->device == a->device && a->ts_ns < c->ts_ns + c->dur_ns ? (long)(lo - 1) : -1;
}

static int gpu_side_steps(pf_analysis *an, long *owner)
{
    const pf_trace *t = an->trace;
    an->n_steps = t->n_gpu_steps;
    if (!(an->steps = calloc(t->n_gpu_steps ? t->n_gpu_steps : 1, sizeof *an->steps)))
        return -1;
    for (size_t k = 0; k < t->n_gpu_steps; k++) {
        const pf_step *g = &t->gpu_steps[k];
        an->steps[k] = (pf_step_report){.number = g->number, .device = g->device, .ts_ns = g->ts_ns, .dur_ns = g->dur_ns};
    }
    qsort(an->steps, an->n_steps, sizeof *an->steps, cmp_step);
    for (size_t i = 0; i < t->n_acts; i++)
        owner[i] = gpu_step_of(an->steps, an->n_steps, &t->acts[i]);
    return 0;
}

/* ---- CPU-side windows: the work launched inside them ---- */

/* Windows in display order: by start, then process. */
static int cmp_window(const void *x, const void *y)
{
    const pf_step *a = x, *b = y;
    if (a->ts_ns != b->ts_ns)
        return a->ts_ns < b->ts_ns ? -1 : 1;
    return (a->process > b->process) - (a->process < b->process);
}

/* A window in lookup order (by process, then start), with its place in display order. */
typedef struct lookup {
    uint64_t process;
    int64_t ts_ns, end_ns;
    size_t win;
} lookup;

static int cmp_lookup(const void *x, const void *y)
{
    const lookup *a = x, *b = y;
    if (a->process != b->process)
        return a->process < b->process ? -1 : 1;
    return (a->ts_ns > b->ts_ns) - (a->ts_ns < b->ts_ns);
}

/* The window (display index) of the activity's launch process that holds its launch call's
 * start; -1 none. The windows of one process (ProfilerStep#N on the thread that calls
 * prof.step()) do not overlap. */
static long window_of(const lookup *l, size_t n, const pf_activity *a)
{
    if (a->launch_ts_ns == PF_NO_LAUNCH)
        return -1;
    size_t lo = 0, hi = n;
    while (lo < hi) { /* first window after (process, ts) */
        size_t mid = lo + (hi - lo) / 2;
        if (l[mid].process < a->launch_process ||
            (l[mid].process == a->launch_process && l[mid].ts_ns <= a->launch_ts_ns))
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return -1;
    const lookup *c = &l[lo - 1];
    return c->process == a->launch_process && a->launch_ts_ns < c->end_ns ? (long)c->win : -1;
}

/* A (window, device) pair as one sortable key: window-major, so keys sort in display order. */
static uint64_t pair_key(long win, int device)
{
    return (uint64_t)win * 65537u + (uint64_t)(device + 1);
}

static int cmp_key(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* Rows: one per (window, device) with activities, and one (device -1) per window without
 * any; keys[0, nk) are the sorted distinct pairs of the activities. The rows' keys, sorted as
 * the rows are, turn each activity's window (owner[i]) into its row. */
static int window_rows(pf_analysis *an, const pf_step *w, size_t nw, const uint64_t *keys, size_t nk, long *owner)
{
    const pf_trace *t = an->trace;
    size_t n = 0, p = 0;
    uint64_t *rkeys = malloc((nk + nw + 1) * sizeof *rkeys);
    an->steps = calloc(nk + nw + 1, sizeof *an->steps);
    if (!rkeys || !an->steps) {
        free(rkeys);
        return -1;
    }
    for (size_t k = 0; k < nw; k++) {
        pf_step_report base = {.number = w[k].number, .device = -1, .ts_ns = w[k].ts_ns, .dur_ns = w[k].dur_ns};
        if (p == nk || keys[p] / 65537u != k) {
            rkeys[n] = pair_key((long)k, -1);
            an->steps[n++] = base;
        }
        for (; p < nk && keys[p] / 65537u == k; p++) {
            rkeys[n] = keys[p];
            an->steps[n] = base;
            an->steps[n++].device = (int)(keys[p] % 65537u) - 1;
        }
    }
    an->n_steps = n;
    for (size_t i = 0; i < t->n_acts; i++) {
        if (owner[i] < 0)
            continue;
        uint64_t key = pair_key(owner[i], t->acts[i].device);
        const uint64_t *hit = bsearch(&key, rkeys, n, sizeof *rkeys, cmp_key);
        owner[i] = (long)(hit - rkeys); /* every pair of an activity is a row */
    }
    free(rkeys);
    return 0;
}

static int cpu_side_steps(pf_analysis *an, long *owner)
{
    const pf_trace *t = an->trace;
    size_t nw = t->n_cpu_steps;
    pf_step *w = malloc((nw ? nw : 1) * sizeof *w);
    lookup *l = malloc((nw ? nw : 1) * sizeof *l);
    uint64_t *keys = malloc((t->n_acts ? t->n_acts : 1) * sizeof *keys);
    int rc = w && l && keys ? 0 : -1;
    if (rc == 0) {
        size_t nk = 0;
        for (size_t k = 0; k < nw; k++)
            w[k] = t->cpu_steps[k];
        qsort(w, nw, sizeof *w, cmp_window);
        for (size_t k = 0; k < nw; k++)
            l[k] = (lookup){w[k].process, w[k].ts_ns, w[k].ts_ns + w[k].dur_ns, k};
        qsort(l, nw, sizeof *l, cmp_lookup);
        for (size_t i = 0; i < t->n_acts; i++) {
            owner[i] = window_of(l, nw, &t->acts[i]);
            if (owner[i] >= 0)
                keys[nk++] = pair_key(owner[i], t->acts[i].device);
        }
        qsort(keys, nk, sizeof *keys, cmp_key);
        size_t u = 0;
        for (size_t k = 0; k < nk; k++)
            if (u == 0 || keys[k] != keys[u - 1])
                keys[u++] = keys[k];
        rc = window_rows(an, w, nw, keys, u, owner);
    }
    free(w);
    free(l);
    free(keys);
    return rc;
}

/* ---- both ---- */

static int selection_wanted(const pf_analysis *an, const pf_step_report *s)
{
    return an->opts.step == PF_STEP_ALL || s->number == an->opts.step;
}

static int check_selection(const pf_analysis *an, pf_error *err)
{
    if (an->opts.step == PF_STEP_EVERY)
        return 0;
    if (an->n_steps == 0)
        return pf_fail(err, "%s: --step: the trace has no %s (record with a torch.profiler schedule and prof.step())",
                       an->trace->path,
                       an->steps_gpu_side ? "GPU-side ProfilerStep annotation (and no launch calls)"
                                          : "ProfilerStep annotation on the CPU side");
    for (size_t k = 0; k < an->n_steps; k++)
        if (selection_wanted(an, &an->steps[k]))
            return 0;
    return pf_fail(err, "%s: --step %lld: no ProfilerStep#%lld in the trace (see --steps)", an->trace->path,
                   (long long)an->opts.step, (long long)an->opts.step);
}

/* Busy time of each step: one counting sort groups the activities by step, so the cost is
 * one pass over the activities, not one per step (a long trace has hundreds of steps). */
static int steps_busy(pf_analysis *an, const long *owner)
{
    const pf_trace *t = an->trace;
    size_t *start = calloc(an->n_steps + 1, sizeof *start);
    size_t *idx = malloc((t->n_acts ? t->n_acts : 1) * sizeof *idx);
    int rc = start && idx ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < t->n_acts; i++)
        if (owner[i] >= 0)
            start[owner[i] + 1]++;
    for (size_t k = 0; rc == 0 && k < an->n_steps; k++)
        start[k + 1] += start[k];
    for (size_t i = 0; rc == 0 && i < t->n_acts; i++)
        if (owner[i] >= 0)
            idx[start[owner[i]]++] = i; /* start[k] ends at the end of step k's slice */
    for (size_t k = 0; rc == 0 && k < an->n_steps; k++) {
        size_t lo = k ? start[k - 1] : 0;
        pf_busy b;
        rc = pf_busy_compute(t->acts, idx + lo, start[k] - lo, &b);
        if (rc == 0) {
            an->steps[k].busy_ns = b.busy_ns;
            an->steps[k].gpu_start_ns = b.start_ns;
            an->steps[k].gpu_end_ns = b.end_ns;
            free(b.streams);
        }
    }
    free(start);
    free(idx);
    return rc;
}

/* an->steps and, per activity, its step's row (owner[i], -1 none): the one rule of which
 * step an activity belongs to. Returns 0, or -1 when memory runs out. */
static int step_owners(pf_analysis *an, long **owner)
{
    const pf_trace *t = an->trace;
    *owner = malloc((t->n_acts ? t->n_acts : 1) * sizeof **owner);
    an->steps_gpu_side = t->n_launched == 0;
    if (*owner && (an->steps_gpu_side ? gpu_side_steps(an, *owner) : cpu_side_steps(an, *owner)) == 0)
        return 0;
    free(*owner);
    *owner = NULL;
    return -1;
}

int pf_steps_numbers(const pf_trace *t, int64_t *num, pf_error *err)
{
    pf_analysis an = {.trace = t};
    long *owner;
    if (step_owners(&an, &owner)) {
        free(an.steps);
        return pf_fail(err, "out of memory");
    }
    for (size_t i = 0; i < t->n_acts; i++)
        num[i] = owner[i] >= 0 ? an.steps[owner[i]].number : PF_NO_STEP;
    free(owner);
    free(an.steps);
    return 0;
}

int pf_steps_compute(pf_analysis *an, int64_t *num, pf_error *err)
{
    const pf_trace *t = an->trace;
    long *owner;
    if (step_owners(an, &owner))
        return pf_fail(err, "out of memory");
    if (check_selection(an, err)) {
        free(owner);
        return -1;
    }
    if (an->opts.step != PF_STEP_EVERY && !(an->selected = calloc(t->n_acts ? t->n_acts : 1, 1))) {
        free(owner);
        return pf_fail(err, "out of memory");
    }
    for (size_t i = 0; i < t->n_acts; i++) {
        if (num)
            num[i] = owner[i] >= 0 ? an->steps[owner[i]].number : PF_NO_STEP;
        if (owner[i] < 0)
            continue;
        const pf_activity *a = &t->acts[i];
        pf_step_report *s = &an->steps[owner[i]];
        s->count++;
        s->sum_ns = pf_sat_add(s->sum_ns, a->dur_ns);
        s->cat_ns[an->cats[i]] = pf_sat_add(s->cat_ns[an->cats[i]], a->dur_ns);
        if (an->selected)
            an->selected[i] = (unsigned char)selection_wanted(an, s);
    }
    int rc = steps_busy(an, owner);
    free(owner);
    return rc ? pf_fail(err, "out of memory") : 0;
}
