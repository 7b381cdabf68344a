/* tasks.c - a shared counter of tasks over pf_parallel_ranges' threads: each thread takes the next task until none is left. */
#include "tasks.h"

#include <assert.h>
#include <stdatomic.h>

#include "profana/parallel.h"

typedef struct task_pool {
    int (*fn)(void *ctx, size_t task, size_t worker);
    void *ctx;
    size_t n;
    atomic_size_t next;
    atomic_int failed;
} task_pool;

static void take_tasks(void *arg, size_t lo, size_t hi, size_t r)
{
    (void)lo;
    (void)hi;
    task_pool *p = arg;
    for (size_t k; (k = atomic_fetch_add(&p->next, 1)) < p->n;)
        if (p->fn(p->ctx, k, r))
            atomic_store(&p->failed, 1);
}

size_t pf_tasks_threads(size_t n, size_t workers)
{
    size_t threads = workers < n ? workers : n;
    return threads < 1 ? 1 : threads > PF_THREADS_MAX ? PF_THREADS_MAX : threads;
}

size_t pf_tasks_run(size_t n, size_t workers, int (*fn)(void *ctx, size_t task, size_t worker), void *ctx,
                    int *failed)
{
    assert(fn);
    size_t threads = pf_tasks_threads(n, workers);
    task_pool p = {.fn = fn, .ctx = ctx, .n = n};
    atomic_init(&p.next, 0);
    atomic_init(&p.failed, 0);
    if (threads == 1)
        take_tasks(&p, 0, 1, 0); /* no thread to start */
    else
        pf_parallel_ranges(threads, threads, take_tasks, &p);
    if (failed && atomic_load(&p.failed))
        *failed = 1;
    return threads;
}
