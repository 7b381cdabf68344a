/* waits.h - why the GPU waits: per device, its span split into compute, exposed communication, copies, fills and idle; idle time by cause; launch delays; queue depth per stream; the split per profiler step. */
/* layer: analysis (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_WAITS_H
#define PROFANA_WAITS_H

#include <stddef.h>
#include <stdint.h>

#include "profana/error.h"

struct pf_analysis;

/* A span split exclusively: compute + communication + memcpy + memset + idle = span.
 * compute is the union of the kernels that are not communication, copies or fills (by the
 * category rule, pf_category_of); communication the union of the communication kernels less
 * compute (the exposed part); memcpy the union of the copies less the two before; memset
 * likewise; idle the span less the union of every activity. */
typedef struct pf_breakdown {
    int64_t span_ns;                   /* first activity start to last activity end */
    int64_t compute_ns, communication_ns, memcpy_ns, memset_ns, idle_ns;
    int64_t communication_total_ns;    /* union of the communication kernels */
} pf_breakdown;

/* The idle time split by what ended each gap (consecutive busy intervals of the device: the
 * union of its activities). The activity that ends a gap is the one that starts at its end
 * (several: the first in file order); its launch call (found by correlation id) tells why:
 * host_wait is the part of the gap before the call ended (the CPU had not asked yet),
 * launch_latency the rest (asked in time, started late); unattributed the gaps whose ending
 * activity has no launch call in the trace. The span starts at the first activity, so there
 * is no gap before it: the three sum to idle_ns. */
typedef struct pf_idle_causes {
    int64_t host_wait_ns, launch_latency_ns, unattributed_ns;
    int64_t gaps;                      /* gaps of positive length */
} pf_idle_causes;

/* One idle gap [from, to) split by its cause: host wait on [from, split), launch latency on
 * [split, to); unattributed (split == from) when the activity that ends it has no launch call. */
typedef struct pf_gap {
    int64_t from, split, to;
    int attributed;
    uint64_t thread;                   /* the launching thread of the activity that ends it
                                          (pf_activity.launch_thread); 0 unknown */
} pf_gap;

enum { PF_WAITS_BINS = 5 };            /* kernel durations: < 5, 5-10, 10-50, 50-100, >= 100 us */

/* Over the kernels whose launch call is in the trace. */
typedef struct pf_launch_stats {
    int64_t count;
    int64_t call_ns_sum;               /* summed durations of their launch calls */
    int64_t delay_p50_ns, delay_p99_ns; /* kernel start - launch call end, nearest rank; 0 when
                                          count is 0 (may be negative: a kernel can start before
                                          its call returns) */
    int64_t launch_bound;              /* kernels shorter than their launch call */
    int64_t hist_count[PF_WAITS_BINS], hist_ns[PF_WAITS_BINS];
} pf_launch_stats;

/* One stream's queue: an activity is queued from the start of its launch call (its own start
 * when that is earlier or unknown) to its end; depth over the device's span (clipped to it). */
typedef struct pf_queue {
    int64_t stream;
    int64_t max_depth;                 /* over the stretches of positive length */
    double mean_depth;                 /* time-weighted over the span; 0 for an empty span */
    int64_t empty_ns;                  /* time in the span at depth 0 */
} pf_queue;

/* One profiler step's breakdown on the device: its activities (pf_steps_numbers' rule) over
 * their own span. */
typedef struct pf_step_breakdown {
    int64_t number;
    int64_t count;
    pf_breakdown b;
} pf_step_breakdown;

typedef struct pf_waits {
    pf_breakdown breakdown;
    pf_idle_causes idle;
    pf_launch_stats launch;
    pf_queue *queues;                  /* by stream id */
    size_t n_queues;
    pf_step_breakdown *steps;          /* by step number; none when the trace has no steps */
    size_t n_steps;
    pf_gap *gaps;                      /* the gaps behind idle, in time order (idle.gaps of them) */
} pf_waits;

/* The parts of one device's figures, computed apart (at once, on several threads): 0 the
 * breakdown and the gaps, 1 the launches, 2 the queues, 3 the steps. */
enum { PF_WAITS_PARTS = 4 };

/* Part `part` (0 .. PF_WAITS_PARTS - 1) of the figures of one device's activities idx[0, n)
 * (those in the --step selection, in file order) into *w (zeroed before its first part),
 * writing only that part's fields. num: each activity's step (pf_steps_numbers), NULL when
 * the trace has no steps. Needs an->cats. Returns 0, or -1 when memory runs out. Called by
 * pf_analysis_run, which fills an->waits: one pf_waits per an->devices entry (same
 * order), over each device's activities in the --step selection. */
int pf_waits_part(const struct pf_analysis *an, const int64_t *num, const size_t *idx, size_t n, int part,
                  pf_waits *w);

/* Frees n pf_waits and the array. NULL is a no-op. */
void pf_waits_free(pf_waits *w, size_t n);

/* 100 x (1 - communication / communication_total): how much of the communication compute
 * hid; -1 (unknown) when there is no communication. */
double pf_breakdown_overlap_pct(const pf_breakdown *b);

/* The mean launch call in us; 0 when there are no launches. */
double pf_launch_call_mean_us(const pf_launch_stats *l);

/* The histogram bin's name ("<5", "5-10", "10-50", "50-100", ">=100"); bin in [0, PF_WAITS_BINS). */
const char *pf_waits_bin_name(int bin);

#endif
