/* critical_path.h - the critical path of each profiler step (--group critical-path): HTA's graph of CPU ops, launches, GPU activities and syncs, its longest path split into CPU, GPU compute, communication, copies and waiting. */
/* layer: analysis (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_CRITICAL_PATH_H
#define PROFANA_CRITICAL_PATH_H

#include <stddef.h>
#include <stdint.h>

#include "profana/analysis.h"
#include "profana/error.h"

/* What a stretch of the path is (HTA's bound_by, copies apart): host work (a cpu_op, a
 * launch or sync call), a kernel, a communication kernel, a memcpy or memset, the delay from
 * a launch call's start to its activity's start on an idle stream, the gap between two
 * activities of a stream. */
typedef enum pf_cp_part {
    PF_CP_CPU = 0,
    PF_CP_GPU,
    PF_CP_COMM,
    PF_CP_COPY,
    PF_CP_LAUNCH,
    PF_CP_GAP,
    PF_CP_NPARTS
} pf_cp_part;

/* The part's name as JSON and CSV write it ("cpu", "gpu", "comm", "copy", "launch", "gap"). */
const char *pf_cp_part_name(pf_cp_part p);

/* One op, call or kernel name and the time its stretches hold on a path. */
typedef struct pf_cp_item {
    const char *name;          /* interned in the trace; "(launch call)" for a launch call */
    pf_cp_part part;           /* PF_CP_CPU, _GPU, _COMM or _COPY */
    int64_t ns;                /* its time on the path */
    int64_t count;             /* its stretches on the path */
} pf_cp_item;

/* One step's critical path. */
typedef struct pf_cp_step {
    int64_t number;            /* N of ProfilerStep#N; -1: the whole trace (no steps) */
    int64_t ts_ns, dur_ns;     /* the CPU-side window (the whole trace: its host and launch span) */
    int64_t length_ns;         /* the path's weight: the sum of part_ns */
    int64_t start_ns, end_ns;  /* the path's first and last point in time (0, 0: no path) */
    int64_t part_ns[PF_CP_NPARTS];
    size_t n_host, n_acts;     /* host events and GPU activities in the graph */
    size_t n_sync_edges;       /* GPU -> sync-call edges in the graph */
    size_t n_sync_on_path;     /* of them, on the path */
    pf_cp_item *items;         /* by time, most first, at most max_items of them */
    size_t n_items;
} pf_cp_step;

typedef struct pf_cp_view {
    pf_cp_step *steps;         /* by start */
    size_t n_steps;
    int whole_trace;           /* 1: the trace has no ProfilerStep window: one path over it */
    size_t no_launch;          /* GPU activities left out: no launch call in the trace */
    pf_cp_item *items;         /* over every step: by time, at most max_items */
    size_t n_items;
    int64_t part_ns[PF_CP_NPARTS]; /* over every step */
    int64_t length_ns;
} pf_cp_view;

/* The critical path of each CPU-side ProfilerStep#N window of an->trace (the one of
 * an->opts.step when it names one; the whole trace when there is none), as HTA's
 * critical_path_analysis defines it, with the simplifications of docs/analysis.md, "Critical
 * path". Needs the host intervals (the trace loaded without pf_load_opts.op_spans_only).
 * Keeps the max_items contributors with the most time per step and over all (0: all).
 * Returns 0 and *out (free with pf_cp_view_free), or -1 with err set when memory runs out. */
int pf_cp_view_build(const pf_analysis *an, size_t max_items, pf_cp_view **out, pf_error *err);

void pf_cp_view_free(pf_cp_view *v);

#endif
