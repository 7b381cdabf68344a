/* parallel.h - how many threads a parallel step runs (-j), and ranges of work spread over them. */
/* layer: util (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_PARALLEL_H
#define PROFANA_PARALLEL_H

#include <stddef.h>

/* The most threads profana runs at once in one parallel step; -j asks for at most this many. */
#define PF_THREADS_MAX 64

/* The number of threads `jobs` asks for (0: one per CPU this process may use), at most
 * PF_THREADS_MAX. */
size_t pf_parallel_workers(int jobs);

/* The same rule on a host of `cpus` CPUs (0 counts as 1): a host of more than PF_THREADS_MAX
 * CPUs gets PF_THREADS_MAX threads by default, as an explicit -j above it does. */
size_t pf_parallel_workers_for(int jobs, size_t cpus);

/* Calls fn(ctx, lo, hi, r) for r = 0 .. workers - 1 on that many threads at once (inline
 * when a thread cannot start), range r being the r-th of `workers` consecutive, nearly equal
 * ranges covering [0, n) (possibly empty); so fn can keep per-range state that the caller
 * then merges in range order. workers must be at least 1; every range runs, on at most
 * PF_THREADS_MAX threads (a thread then takes several ranges in turn). */
void pf_parallel_ranges(size_t n, size_t workers, void (*fn)(void *ctx, size_t lo, size_t hi, size_t r),
                        void *ctx);

#endif
