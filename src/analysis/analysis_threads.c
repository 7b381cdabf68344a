/* analysis_threads.c - how many threads each stage of pf_analysis_run runs on, and how many ranges its passes over the activities take: the arithmetic, apart from the stages (the figures behind it: docs/performance.md, The analysis's stages and threads). */
#include "pipeline.h"

#include <assert.h>

#include "profana/parallel.h"

/* The work beside the steps, which are one thread's: the work on every thread but that one.
 * Beside the shares, as before, the steps would leave a 2-thread run the shares' whole time.
 * The device lists beside the phases: a quarter of the threads, the phases the rest. */
pf_an_threads pf_an_threads_plan(const pf_trace *t, int jobs, size_t phase_threads)
{
    assert(t && phase_threads >= 1);
    pf_an_threads p;
    p.jobs = jobs > 1 ? (size_t)jobs : 1;
    p.work = pf_work_threads(t, jobs);
    p.pool = p.jobs > 1 ? 2 : 1;
    p.work_beside = p.work > 1 ? p.work - 1 : 1;
    p.lists = p.jobs / 4 ? p.jobs / 4 : 1;
    p.phases = p.pool > 1 && phase_threads > p.jobs - p.lists ? p.jobs - p.lists : phase_threads;
    return p;
}

size_t pf_an_threads_aggregation(const pf_an_threads *p, size_t group_threads)
{
    assert(p);
    size_t threads = group_threads > p->pool ? group_threads : p->pool;
    return threads > p->phases ? threads : p->phases;
}

/* pf_work_threads' ranges (threads is a resolved -j, at most PF_THREADS_MAX), but each range
 * keeps counters for every declared device (up to 37 bytes a device), so no more ranges than
 * keep that within about 4 bytes an activity, what the one-thread pass needs: a trace may
 * declare 65,536 devices in deviceProperties and use two. */
size_t pf_an_list_parts(const pf_trace *t, size_t threads)
{
    assert(threads <= PF_THREADS_MAX);
    size_t nd = t->n_devices > 0 ? (size_t)t->n_devices : 1, most = t->n_acts / (8 * nd);
    size_t parts = pf_work_threads(t, (int)threads);
    return most < 2 ? 1 : parts < most ? parts : most;
}

/* Each task of a device holds scratch of two to six words an activity: more of them at once
 * raise the peak memory for no time, as the grouping task is the longest and one thread runs
 * the other five beside it. */
size_t pf_an_device_pool(const pf_trace *t, int jobs)
{
    assert(t && t->n_devices >= 0);
    size_t pool = jobs > 1 ? (size_t)jobs : 1, most = 2 * (size_t)t->n_devices;
    return pool < most ? pool : most;
}
