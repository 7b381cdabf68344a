/* pipeline.h - what the files of pf_analysis_run share (not a public interface): a device's accumulator, and each stage's entry: group keys, device lists, categories, rows, device tasks, threads. */
#ifndef PROFANA_ANALYSIS_PIPELINE_H
#define PROFANA_ANALYSIS_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

#include "profana/analysis.h"
#include "profana/ptrmap.h"
#include "profana/waits.h"

/* One trace device's accumulator while its report is made. */
typedef struct dev_acc {
    pf_device_report *rep;             /* its report, in place in an->devices: never copied, as
                                          a report is 10 KB and a trace may have 65,536 devices;
                                          NULL: the device ran nothing */
    size_t cap_rows;
    pf_ptrmap map;
    pf_ptrmap names;                   /* distinct kernel names: index into name_cats */
    uint16_t *name_cats;               /* per name, a bit per category it ran in (one map,
                                          not one a category: 65,536 devices of a kernel each) */
    pf_ptrmap missing_map;
    size_t *acts, n_acts;              /* its selected activities in file order (pf_an_list_device_acts) */
} dev_acc;

_Static_assert(PF_CAT_COUNT <= 16, "dev_acc.name_cats holds a bit per category");

/* ---- group keys (group_keys.c) ---- */

/* printf into buf[*len, n), moving *len past what was written; -1 (and *len = n) when it
 * does not fit. */
int pf_an_append(char *buf, size_t n, size_t *len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* --group shape: the key of every op that launched a selected activity of a device, by op
 * index, built (and interned in an->keys, which one thread at a time may use) once per op,
 * before the devices are grouped on several threads. *out (caller frees) is NULL for other
 * groups. Returns 0, or -1 when memory runs out. */
int pf_an_shape_keys(pf_analysis *an, const dev_acc *accs, const char ***out);

/* The key of a's group: its kernel name, its op's name, or its op's shape key (shape_keys:
 * pf_an_shape_keys'); a launch without an op is grouped by its kernel name. Inline: it is
 * asked once per activity. */
static inline const char *pf_an_group_key(const pf_analysis *an, const char *const *shape_keys, const pf_activity *a)
{
    if (an->opts.group == PF_GROUP_KERNEL || a->op < 0)
        return a->name;
    if (an->opts.group == PF_GROUP_OP)
        return an->trace->ops[a->op].name;
    return shape_keys[a->op];
}

/* ---- device lists (device_lists.c) ---- */

/* *out: an accumulator per trace device (caller frees), with a report in an->devices (in
 * device order) for each device that ran an activity, its device entry and its Total and
 * category rows started; the active devices found on `threads` threads. Returns 0, or -1
 * when memory runs out. */
int pf_an_setup_devices(pf_analysis *an, size_t threads, dev_acc **out);

/* Each device's selected activities (accs[d].acts, slices of *all, which the caller frees),
 * so that what is done per device costs its own activities, not all of them. Also the
 * device's dtypes of work (any activity) and its selected activities by kind. On `threads`
 * threads, in file order. Returns 0, or -1 when memory runs out. */
int pf_an_list_device_acts(pf_analysis *an, dev_acc *accs, size_t threads, size_t **all);

/* ---- categories (cat_cache.c) ---- */

/* Every activity's category into an->cats (allocated here), on `threads` threads. Returns 0,
 * or -1 when memory runs out. */
int pf_an_categories(pf_analysis *an, size_t threads);

/* ---- rows (rows.c) ---- */


/* Adds activity i of device d to its group (whose index goes to *row), the Total, its
 * category and the why-counters. Returns 0, or -1 when memory runs out. */
int pf_an_add_to_group(const pf_analysis *an, const char *const *shape_keys, dev_acc *d, size_t i, int32_t *row);

/* qsort's order of rows: most time first, then by key. */
int pf_an_row_cmp(const void *x, const void *y);

/* ---- device tasks (device_tasks.c) ---- */

/* Groups the selected activities of every device, counts the invocations of each group,
 * their spread, each device's busy time and waits (into *waits, one per trace device, which
 * the caller frees), on up to an->opts.jobs threads; *threads receives how many ran. num:
 * each activity's step (pf_steps_numbers), NULL when the trace has none. Returns 0, or -1
 * when memory runs out. */
int pf_an_group_devices(pf_analysis *an, dev_acc *accs, const int64_t *num, pf_waits **waits, size_t *threads);

/* ---- threads (analysis_threads.c) ---- */

/* How many threads each stage of pf_analysis_run runs on. */
typedef struct pf_an_threads {
    size_t jobs;                       /* -j, at least 1 */
    size_t work;                       /* a pass over the activities: the categories, the work
                                          shares (pf_work_threads) */
    size_t pool;                       /* the stages run two side by side: 2 at -j 2 and more,
                                          else 1 (one after the other) */
    size_t work_beside;                /* the work, beside the steps (on one) */
    size_t phases, lists;              /* the serving phases, beside the devices' lists */
} pf_an_threads;

/* The plan for t at -j jobs, the phases wanting phase_threads (pf_phases_threads). */
pf_an_threads pf_an_threads_plan(const pf_trace *t, int jobs, size_t phase_threads);

/* The most threads the aggregation ran at once: the plan's, or group_threads (what
 * pf_an_group_devices ran on), for --timings. */
size_t pf_an_threads_aggregation(const pf_an_threads *p, size_t group_threads);

/* The ranges of the devices' passes over the activities at `threads` (a resolved -j), fewer
 * when the trace declares many devices (each range keeps counters for all of them). */
size_t pf_an_list_parts(const pf_trace *t, size_t threads);

/* The threads of the devices' tasks at -j jobs: at most two tasks of a device at once. */
size_t pf_an_device_pool(const pf_trace *t, int jobs);

/* ---- serving phases spread to the forward (phase_spread.c) ---- */

enum { PF_SPREAD_MODULES = 1, PF_SPREAD_LAUNCHES = 2 };

/* After the attention calls' phases (by_query[i]: activity i's phase comes from its attention
 * call's query length) and without step annotations: each launched activity still without a
 * phase takes that of the forward it sits in. First the outermost nn.Module call of its launch
 * thread that holds its launch (with_stack traces), when attention calls with a phase were
 * launched inside it (both prefill and decode: mixed); then, in launch order, the phase of the
 * phased launches around it, and where those differ, the earlier's up to the widest gap between
 * two launches and the later's after it (the host's work between two forwards: sampling, the
 * stopping test). *how: PF_SPREAD_* bits of the steps that gave a phase. Returns 0, or -1 when
 * memory ran out. Called by pf_phases_compute_on. */
int pf_an_phase_spread(const pf_trace *t, unsigned char *phase, const unsigned char *by_query, int *how);

#endif
