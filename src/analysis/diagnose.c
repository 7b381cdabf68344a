/* diagnose.c - one device's findings ranked by the time a fix would recover: the host-side causes of its idle time (named regions, syncs, launch overhead, unnamed host work) beside the GPU-side patterns (diag_patterns.c). */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "profana/collectives.h"

/* A host-side cause below this share of the idle time is not a finding of its own. */
#define MIN_IDLE_SHARE 0.05
/* Graph replays that carry more than this share of GPU time leave nothing for graphs to do. */
#define GRAPHED_SHARE 0.5

/* " (N us a step)" when the device has steps. */
static void per_step(char *buf, size_t cap, int64_t ns, int64_t steps)
{
    if (steps > 0)
        snprintf(buf, cap, ", %.3f us a step over %lld steps", (double)ns / 1e3 / (double)steps, (long long)steps);
    else
        buf[0] = 0;
}

static int cmp_window(const void *x, const void *y)
{
    const pf_host_mark *a = *(pf_host_mark *const *)x, *b = *(pf_host_mark *const *)y;
    return a->ts_ns < b->ts_ns ? -1 : a->ts_ns > b->ts_ns;
}

/* The launches on the device made inside the marks named `name` (the optimizer step's, every
 * instance), and how many of them were foreach or fused ops: one pass over the activities,
 * each looked up among the windows by time. */
static int optimizer_launches(const pf_analysis *an, int dev, const char *name, int64_t *n, int64_t *grouped)
{
    const pf_trace *t = an->trace;
    size_t k = 0;
    for (size_t i = 0; i < t->n_marks; i++)
        k += t->marks[i].name == name;
    const pf_host_mark **win = malloc((k ? k : 1) * sizeof *win);
    if (!win)
        return -1;
    k = 0;
    for (size_t i = 0; i < t->n_marks; i++)
        if (t->marks[i].name == name)
            win[k++] = &t->marks[i];
    qsort(win, k, sizeof *win, cmp_window);
    for (size_t i = 0; i < t->n_acts; i++) {
        const pf_activity *a = &t->acts[i];
        if (a->device != dev || a->launch_ts_ns == PF_NO_LAUNCH)
            continue;
        size_t lo = 0, hi = k; /* the last window starting at or before the launch */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (win[mid]->ts_ns <= a->launch_ts_ns)
                lo = mid + 1;
            else
                hi = mid;
        }
        const pf_host_mark *w = lo ? win[lo - 1] : NULL;
        if (!w || w->thread != a->launch_thread || a->launch_ts_ns >= w->ts_ns + w->dur_ns)
            continue;
        (*n)++;
        const char *op = a->op >= 0 ? t->ops[a->op].name : "";
        *grouped += strstr(op, "_foreach_") || strstr(op, "_fused_") || strstr(op, "fused");
    }
    free(win);
    return 0;
}

/* An annotation Inductor or torch.compile writes around a compiled graph's run: the host time
 * under it is the wrapper's Python and launches. */
static int compiled_region(const char *name)
{
    return strncmp(name, "## Call CompiledFxGraph", 23) == 0 || strstr(name, "CompiledFunction") ||
           strstr(name, "Torch-Compiled Region");
}

static int region_finding(const pf_analysis *an, const pf_device_report *d, const pf_diagnosis *g,
                          const pf_idle_cover *c, pf_diag_list *l)
{
    int opt = c->kind == PF_MARK_ANNOTATION && strncmp(c->name, "Optimizer.step#", 15) == 0;
    int64_t n = 0, grouped = 0;
    if (opt && optimizer_launches(an, d->device->id, c->name, &n, &grouped))
        return -1;
    int unfused = opt && n > 0 && 2 * grouped < n;
    int launchy = 2 * c->short_ns >= c->idle_ns;
    pf_finding *f = pf_diag_add(l, unfused ? "unfused_optimizer" : c->kind == PF_MARK_PYTHON ? "host_python" : "host_region");
    if (!f)
        return -1;
    f->time_us = (double)c->idle_ns / 1e3;
    f->pct = pf_diag_pct(f->time_us, g->span_ns);
    char step[96], outer[128] = "", nm[80];
    per_step(step, sizeof step, c->idle_ns, g->steps);
    if (c->outer) {
        char on[80];
        snprintf(outer, sizeof outer, " (inside record_function \"%s\")", pf_diag_name(on, sizeof on, c->outer));
    }
    snprintf(f->evidence, sizeof f->evidence, "GPU idle %.3f us (%.2f%% of its idle time%s) while the launching thread was in %s \"%s\"%s%s",
             (double)c->idle_ns / 1e3, g->idle_ns > 0 ? 100.0 * (double)c->idle_ns / (double)g->idle_ns : 0, step,
             c->kind == PF_MARK_PYTHON ? "Python frame" : "record_function", pf_diag_name(nm, sizeof nm, c->name), outer,
             launchy ? "; most of it in gaps under 1 ms between launches" : "");
    if (unfused)
        snprintf(f->advice, sizeof f->advice,
                 "the optimizer launches per parameter (%lld kernels, %lld of them foreach or fused): "
                 "torch.optim ... (fused=True) or (foreach=True)",
                 (long long)n, (long long)grouped);
    else if (opt)
        snprintf(f->advice, sizeof f->advice, "the optimizer step holds the host: capture it with torch.compile or fewer, larger parameters");
    else if (compiled_region(c->name) || (c->outer && compiled_region(c->outer)))
        snprintf(f->advice, sizeof f->advice,
                 "the compiled graph's wrapper launching its kernels one by one: "
                 "torch.compile(mode=\"reduce-overhead\") replays them as one CUDA graph");
    else if (strstr(c->name, "DataLoader") || (c->outer && strstr(c->outer, "DataLoader")))
        snprintf(f->advice, sizeof f->advice, "%s",
                 (c->outer && strstr(c->outer, "_SingleProcessDataLoaderIter")) ||
                         strstr(c->name, "_SingleProcessDataLoaderIter")
                     ? "the DataLoader loads in the training process (num_workers=0): DataLoader(num_workers=N, "
                       "pin_memory=True, prefetch_factor=2+) moves this work to worker processes; CUDA graphs "
                       "cannot remove CPU work"
                     : "the batch is not ready when the GPU is: more DataLoader workers, a larger prefetch_factor, "
                       "pin_memory=True, or cheaper transforms; CUDA graphs cannot remove CPU work");
    else if (launchy)
        snprintf(f->advice, sizeof f->advice,
                 "launch-bound inside this region: fewer, larger kernels (torch.compile) or CUDA graphs for it");
    else
        snprintf(f->advice, sizeof f->advice,
                 "CPU work here keeps the GPU waiting: take it off the training thread (DataLoader num_workers, "
                 "prefetch_factor, pin_memory) or make it faster; CUDA graphs cannot remove CPU work");
    return 0;
}

static int sync_finding(const pf_diagnosis *g, pf_diag_list *l)
{
    pf_finding *f = pf_diag_add(l, "sync");
    if (!f)
        return -1;
    f->time_us = (double)g->sync_idle_ns / 1e3;
    f->pct = pf_diag_pct(f->time_us, g->span_ns);
    char step[96];
    per_step(step, sizeof step, g->sync_idle_ns, g->steps);
    snprintf(f->evidence, sizeof f->evidence,
             "%lld times the host sat in a blocking call when the GPU ran dry (most often %s%s%s), and the GPU "
             "then idled %.3f us until the next launch%s",
             (long long)g->sync_n, g->sync_call ? g->sync_call : "-", g->sync_op ? " in " : "",
             g->sync_op ? g->sync_op : "", (double)g->sync_idle_ns / 1e3, step);
    int item = g->sync_op && (strstr(g->sync_op, "item") || strstr(g->sync_op, "_local_scalar_dense"));
    int device = g->sync_call && strstr(g->sync_call, "DeviceSynchronize");
    snprintf(f->advice, sizeof f->advice, "%s",
             item ? "each .item() (or .cpu(), .tolist(), print of a GPU tensor) waits for the GPU: keep the values "
                    "on the GPU and read them once per N steps"
             : device ? "torch.cuda.synchronize() drains the GPU each time: remove it from the loop (time with CUDA "
                        "events or the profiler instead)"
                      : "each blocking call drains the GPU's queue: make copies non_blocking from pinned memory and "
                        "move reads of GPU values out of the loop");
    return 0;
}

static int unnamed_findings(const pf_device_report *d, const pf_diagnosis *g, pf_diag_list *l)
{
    double min = MIN_IDLE_SHARE * (double)g->idle_ns;
    char step[96];
    if ((double)g->uncovered_short_ns >= min && (double)d->graphed_ns < GRAPHED_SHARE * (double)d->total.total_ns) {
        pf_finding *f = pf_diag_add(l, "launch_overhead");
        if (!f)
            return -1;
        f->time_us = (double)g->uncovered_short_ns / 1e3;
        f->pct = pf_diag_pct(f->time_us, g->span_ns);
        per_step(step, sizeof step, g->uncovered_short_ns, g->steps);
        snprintf(f->evidence, sizeof f->evidence,
                 "GPU idle %.3f us in %lld gaps under 1 ms between kernels, the host dispatching and launching as fast as it "
                 "can%s",
                 f->time_us, (long long)(g->gap_count[0] + g->gap_count[1] + g->gap_count[2]), step);
        /* graphs remove launch cost only: where most of the idle is in long gaps or syncs,
         * they are not the lever, and saying so first would send the reader the wrong way */
        if (2 * g->uncovered_short_ns >= g->idle_ns)
            snprintf(f->advice, sizeof f->advice,
                     "launch-bound: CUDA graphs (torch.compile(mode=\"reduce-overhead\") or torch.cuda.CUDAGraph), "
                     "fewer and larger kernels (torch.compile, larger batches)");
        else
            snprintf(f->advice, sizeof f->advice,
                     "launch-bound stretches: fewer and larger kernels (torch.compile, larger batches); most of "
                     "the idle time is elsewhere, in the longer gaps");
    }
    if ((double)g->latency_ns >= min) {
        pf_finding *f = pf_diag_add(l, "launch_latency");
        if (!f)
            return -1;
        f->time_us = (double)g->latency_ns / 1e3;
        f->pct = pf_diag_pct(f->time_us, g->span_ns);
        snprintf(f->evidence, sizeof f->evidence,
                 "GPU idle %.3f us after the work was launched: it was in the queue in time but started late",
                 f->time_us);
        snprintf(f->advice, sizeof f->advice,
                 "look for what holds the stream: waits on events of other streams, a copy or sync on another "
                 "stream, or a device-wide barrier");
    }
    if ((double)g->uncovered_long_ns >= min) {
        pf_finding *f = pf_diag_add(l, "host_unnamed");
        if (!f)
            return -1;
        f->time_us = (double)g->uncovered_long_ns / 1e3;
        f->pct = pf_diag_pct(f->time_us, g->span_ns);
        per_step(step, sizeof step, g->uncovered_long_ns, g->steps);
        snprintf(f->evidence, sizeof f->evidence,
                 "GPU idle %.3f us in gaps of 1 ms or more while the launching thread was in no annotation or "
                 "Python frame the trace names%s",
                 f->time_us, step);
        snprintf(f->advice, sizeof f->advice,
                 "CPU work between launches: record with with_stack=True or wrap the suspect code (data loading, "
                 "preprocessing, logging) in torch.profiler.record_function to name it; CUDA graphs cannot remove "
                 "CPU work");
    }
    return 0;
}

static int host_findings(const pf_analysis *an, const pf_device_report *d, const pf_diagnosis *g, pf_diag_list *l)
{
    double min = MIN_IDLE_SHARE * (double)g->idle_ns;
    if (g->sync_n && (double)g->sync_idle_ns >= min && sync_finding(g, l))
        return -1;
    for (size_t i = 0; i < g->n_covers && i < 4; i++)
        if ((double)g->covers[i].idle_ns >= min && region_finding(an, d, g, &g->covers[i], l))
            return -1;
    return unnamed_findings(d, g, l);
}

/* Communication kernels exposed beyond compute: on one rank their time mixes the transfer with
 * waiting for the other ranks, which only --ranks can tell apart. */
static int comm_finding(const pf_analysis *an, const pf_waits *w, const pf_diagnosis *g, pf_diag_list *l)
{
    const pf_breakdown *b = &w->breakdown;
    if (b->communication_ns <= 0 || (double)b->communication_ns < 0.05 * (double)b->span_ns)
        return 0;
    pf_finding *f = pf_diag_add(l, "communication");
    if (!f)
        return -1;
    f->time_us = (double)b->communication_ns / 1e3;
    f->pct = pf_diag_pct(f->time_us, g->span_ns);
    snprintf(f->evidence, sizeof f->evidence,
             "communication kernels hold %.3f us of the span that no compute overlaps (%.3f us in all); on one "
             "rank that time includes waiting for the later ranks at each collective",
             f->time_us, (double)b->communication_total_ns / 1e3);
    const pf_coll_table *c = an->colls;
    if (c && c->total_ns > 0) { /* the excess over each kind's fastest instance (collectives.c) */
        size_t n = strlen(f->evidence);
        snprintf(f->evidence + n, sizeof f->evidence - n,
                 "; includes waiting for later ranks: about %.0f%% (each collective's excess over the fastest of its "
                 "kind and size); see --ranks",
                 100.0 * (double)(c->total_ns - c->transfer_ns) / (double)c->total_ns);
    }
    snprintf(f->advice, sizeof f->advice,
             "--ranks over every rank's trace tells the transfer from the waiting and names the late rank; "
             "overlap the transfer with compute (bucketing, prefetching)");
    return 0;
}

static int cmp_finding(const void *x, const void *y)
{
    const pf_finding *a = x, *b = y;
    return a->time_us > b->time_us ? -1 : a->time_us < b->time_us;
}

static int64_t device_steps(const pf_analysis *an, int dev)
{
    int64_t n = 0;
    for (size_t i = 0; i < an->n_steps; i++)
        n += an->steps[i].device == dev;
    return n;
}

int pf_diagnose(const pf_analysis *an, const pf_device_report *d, pf_diagnosis *g, pf_error *err)
{
    assert(an != NULL && d != NULL && g != NULL);
    memset(g, 0, sizeof *g);
    /* d's own waits, by its place among the reports: a search of them per device was
     * quadratic in the devices (65,536 in a trace) */
    const pf_waits *w = NULL;
    if (an->waits && d >= an->devices && d < an->devices + an->n_devices)
        w = &an->waits[d - an->devices];
    g->span_ns = d->busy.end_ns - d->busy.start_ns;
    g->idle_ns = w ? w->breakdown.idle_ns : 0;
    g->steps = device_steps(an, d->device->id);
    pf_diag_list l = {0};
    int rc = (w && pf_diag_gaps(an, w, g)) || host_findings(an, d, g, &l) || (w && comm_finding(an, w, g, &l)) ||
             pf_diag_patterns(an, d, g->span_ns, &l);
    if (rc) {
        free(l.f);
        pf_diagnosis_free(g);
        return pf_fail(err, "out of memory");
    }
    if (l.n)
        qsort(l.f, (size_t)l.n, sizeof *l.f, cmp_finding);
    g->findings = l.f;
    g->n_findings = l.n;
    return 0;
}

void pf_diagnosis_free(pf_diagnosis *g)
{
    if (!g)
        return;
    free(g->covers);
    free(g->findings);
    memset(g, 0, sizeof *g);
}
