/* steps.c - which GPU activities fall inside each GPU-side ProfilerStep#N annotation, for --step and --steps. */
#include <stdlib.h>

#include "profana/analysis.h"
#include "profana/satmath.h"

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
static long step_of(const pf_step_report *s, size_t n, const pf_activity *a)
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

static int selection_wanted(const pf_analysis *an, const pf_step_report *s)
{
    return an->opts.step == PF_STEP_ALL || s->number == an->opts.step;
}

static int check_selection(const pf_analysis *an, pf_error *err)
{
    if (an->opts.step == PF_STEP_EVERY)
        return 0;
    if (an->n_steps == 0)
        return pf_fail(err, "%s: --step: the trace has no GPU-side ProfilerStep annotation (record with a "
                            "torch.profiler schedule and prof.step())", an->trace->path);
    for (size_t k = 0; k < an->n_steps; k++)
        if (selection_wanted(an, &an->steps[k]))
            return 0;
    return pf_fail(err, "%s: --step %lld: no GPU-side ProfilerStep#%lld in the trace (see --steps)", an->trace->path,
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
            free(b.streams);
        }
    }
    free(start);
    free(idx);
    return rc;
}

int pf_steps_compute(pf_analysis *an, pf_error *err)
{
    const pf_trace *t = an->trace;
    an->n_steps = t->n_gpu_steps;
    an->steps = calloc(t->n_gpu_steps ? t->n_gpu_steps : 1, sizeof *an->steps);
    long *owner = malloc((t->n_acts ? t->n_acts : 1) * sizeof *owner);
    if (!an->steps || !owner) {
        free(owner);
        return pf_fail(err, "out of memory");
    }
    for (size_t k = 0; k < t->n_gpu_steps; k++) {
        const pf_step *g = &t->gpu_steps[k];
        an->steps[k] = (pf_step_report){.number = g->number, .device = g->device, .ts_ns = g->ts_ns, .dur_ns = g->dur_ns};
    }
    qsort(an->steps, an->n_steps, sizeof *an->steps, cmp_step);
    if (check_selection(an, err)) {
        free(owner);
        return -1;
    }
    if (an->opts.step != PF_STEP_EVERY && !(an->selected = calloc(t->n_acts ? t->n_acts : 1, 1))) {
        free(owner);
        return pf_fail(err, "out of memory");
    }
    for (size_t i = 0; i < t->n_acts; i++) {
        const pf_activity *a = &t->acts[i];
        owner[i] = step_of(an->steps, an->n_steps, a);
        if (owner[i] < 0)
            continue;
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
