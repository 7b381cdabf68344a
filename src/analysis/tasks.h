/* tasks.h - independent pieces of the analysis (per device, per kind of figure) run on -j threads, each writing only its own results, so the output does not depend on the thread count. */
#ifndef PROFANA_ANALYSIS_TASKS_H
#define PROFANA_ANALYSIS_TASKS_H

#include <stddef.h>

/* Runs fn(ctx, task, worker) once for every task in [0, n) on min(workers, n) threads (at
 * least 1), each thread taking the next task not yet taken (so a long task does not hold up
 * the ones behind it); worker, in [0, threads), names the thread for per-thread scratch
 * (one task at a time per worker). A task must write only what is its own. Returns the
 * number of threads used; *failed (non-NULL) is set to 1 when any fn returned non-zero
 * (every task still runs). */
size_t pf_tasks_run(size_t n, size_t workers, int (*fn)(void *ctx, size_t task, size_t worker), void *ctx,
                    int *failed);

/* The number of threads pf_tasks_run(n, workers, ...) runs on. */
size_t pf_tasks_threads(size_t n, size_t workers);

#endif
