/* parallel.c - the one rule for how many threads a parallel step runs, and ranges of work run on them. */
#include "profana/parallel.h"

#include <assert.h>
#include <pthread.h>

#include "profana/cpus.h"

size_t pf_parallel_workers_for(int jobs, size_t cpus)
{
    assert(jobs >= 0); /* 0: one per CPU */
    size_t w = jobs > 0 ? (size_t)jobs : cpus > 0 ? cpus : 1;
    return w > PF_THREADS_MAX ? PF_THREADS_MAX : w;
}

size_t pf_parallel_workers(int jobs)
{
    return pf_parallel_workers_for(jobs, jobs > 0 ? 0 : pf_cpu_count());
}

typedef struct range_job {
    void (*fn)(void *ctx, size_t lo, size_t hi, size_t r);
    void *ctx;
    size_t n, workers, first; /* this thread runs ranges first, first + PF_THREADS_MAX, ... */
} range_job;

static void *run_range(void *arg)
{
    const range_job *j = arg;
    for (size_t r = j->first; r < j->workers; r += PF_THREADS_MAX)
        j->fn(j->ctx, j->n * r / j->workers, j->n * (r + 1) / j->workers, r);
    return NULL;
}

void pf_parallel_ranges(size_t n, size_t workers, void (*fn)(void *ctx, size_t lo, size_t hi, size_t r),
                        void *ctx)
{
    assert(workers >= 1 && fn);
    /* More ranges than threads: each thread takes every PF_THREADS_MAX-th range, so every
     * range runs (a caller's per-range state is always filled) on at most that many threads. */
    size_t threads = workers < 1 ? 1 : workers < PF_THREADS_MAX ? workers : PF_THREADS_MAX;
    range_job jb[PF_THREADS_MAX];
    pthread_t th[PF_THREADS_MAX];
    int started[PF_THREADS_MAX] = {0};
    jb[0] = (range_job){fn, ctx, n, workers, 0}; /* run by this thread */
    for (size_t t = 1; t < threads; t++) {
        jb[t] = (range_job){fn, ctx, n, workers, t};
        started[t] = pthread_create(&th[t], NULL, run_range, &jb[t]) == 0;
    }
    run_range(&jb[0]);
    for (size_t t = 1; t < threads; t++) {
        if (started[t])
            pthread_join(th[t], NULL);
        else
            run_range(&jb[t]);
    }
}
