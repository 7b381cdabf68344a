/* ranks_culprit.h - why the late rank is late: each late arrival at a matched collective explained by what its window held beyond the median rank's, and per rank the excess by cause, its kernels' speed against the median rank's and a verdict (--ranks). */
/* layer: analysis (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_RANKS_CULPRIT_H
#define PROFANA_RANKS_CULPRIT_H

#include <stddef.h>
#include <stdint.h>

#include "profana/error.h"
#include "profana/ranks.h"

/* A rank arrives late at an instance when its kernel starts last, and more than this after
 * the median rank's (docs/ranks.md, "Culprits"): below it, launch jitter and clock offsets
 * between hosts are as large as the lateness. */
#define PF_CULPRIT_THRESHOLD_NS INT64_C(100000)

/* A kernel slower than the median rank's mean by this factor counts as slower; a rank whose
 * kernels are this much slower, over at least PF_UNIFORM_SHARE percent of its kernel time, is
 * uniformly slow (a clock, thermal or hardware cause rather than its work). */
#define PF_SLOW_RATIO 1.05
#define PF_UNIFORM_SHARE 80.0

/* What a late arrival's excess is named by. */
typedef enum pf_culprit_kind {
    PF_CULPRIT_NONE = 0,       /* no window to compare, or nothing in excess */
    PF_CULPRIT_KERNEL,         /* compute: label is the op (else kernel) with the most excess */
    PF_CULPRIT_GAP,            /* idle: label is the host annotation over the longest gap */
    PF_CULPRIT_COPY,           /* copies and fills */
    PF_CULPRIT_COMM            /* other communication kernels (another group's collectives) */
} pf_culprit_kind;

typedef enum pf_straggler_verdict {
    PF_STRAGGLER_NONE = 0,       /* no clear straggler */
    PF_STRAGGLER_COMPUTE,        /* compute straggler: late for its kernels, or every kernel slower */
    PF_STRAGGLER_DATA,           /* data imbalance: late for kernels whose ops ran on other
                                    shapes than on the median rank (more work, not a slower GPU) */
    PF_STRAGGLER_HOST,           /* host straggler: late for idle GPU time (the host did not launch) */
    PF_STRAGGLER_COPY,           /* late for copies */
    PF_STRAGGLER_COMM            /* late for other collectives (waiting on another group) */
} pf_straggler_verdict;

/* One instance at which a rank arrived late. Text points into the summaries. */
typedef struct pf_late_arrival {
    int rank, ref_rank;        /* the late rank; the median rank it is compared with */
    const char *name, *pg;     /* the collective and its process group */
    int64_t seq;               /* the instance's sequence number, else its order in the group */
    int64_t start_ns;          /* the late rank's kernel start */
    int64_t late_ns;           /* that start minus the median rank's */
    int has_windows;           /* both ranks have a window before the instance */
    int64_t excess_ns[PF_WIN_CAUSES]; /* the late rank's window minus the median rank's, per cause */
    pf_culprit_kind kind;      /* the cause with the most excess */
    const char *label;         /* KERNEL: the op or kernel; GAP: the annotation; NULL none */
    int64_t label_ns;          /* KERNEL: that label's excess; GAP: the idle excess; else the
                                  cause's excess */
    int64_t gap_ns;            /* GAP: the late rank's longest idle stretch in its window */
    const char *shapes;        /* KERNEL: the label's shape set in the late rank's window and in */
    const char *ref_shapes;    /* the median rank's (pf_comm_window.top_shape); NULL unknown */
    int other_shapes;          /* both known and different: the excess is other work (data) */
} pf_late_arrival;

/* One rank over the whole trace. */
typedef struct pf_rank_culprit {
    int rank;
    int64_t late, late_ns;     /* late arrivals, their lateness summed */
    int64_t excess_ns[PF_WIN_CAUSES]; /* over its late arrivals, the positive excess per cause */
    int64_t data_ns;           /* the culprit label's excess over its late arrivals whose label
                                  ran on other shapes than on the median rank (other_shapes) */
    const char *top_label;     /* the label with the most excess over its late arrivals */
    pf_culprit_kind top_kind;
    int64_t top_ns;
    int64_t compute_ns;        /* its compute kernels' durations, summed */
    double compute_ratio;      /* compute_ns over the median rank's; < 0 unknown */
    double kernel_ratio;       /* its kernels' time over what the median rank's mean durations
                                  give for the same counts (kernels of its table found on
                                  another rank); < 0 unknown */
    double slower_pct;         /* percent of that time in kernels PF_SLOW_RATIO slower */
    int uniform;               /* kernel_ratio >= PF_SLOW_RATIO and slower_pct >= PF_UNIFORM_SHARE */
    pf_straggler_verdict verdict;
    double *step_ratio;        /* per step of its summary (steps[k]): its compute_ns over the
                                  median of the ranks' compute_ns in the step of that number;
                                  < 0 unknown (one rank has the step, or the median is 0); NULL
                                  without steps */
} pf_rank_culprit;

typedef struct pf_culprit_report {
    pf_late_arrival *late;     /* most late first */
    size_t n_late;
    pf_rank_culprit *ranks;    /* one per summary, in their order */
    size_t n_ranks;
    int windows;               /* every summary carries windows (a summary written before
                                  them has none) */
} pf_culprit_report;

/* The late arrivals of rep's matched instances over the summaries s[0, n) that rep was
 * matched on, and the per-rank aggregates and verdicts. Returns 0 and fills *out (free with
 * pf_culprit_report_free), or -1 with err set when memory runs out. */
int pf_ranks_culprits(const pf_rank_summary *s, size_t n, const pf_ranks_report *rep, pf_culprit_report *out,
                      pf_error *err);

void pf_culprit_report_free(pf_culprit_report *r);

/* "compute straggler", "data imbalance", "host straggler", "copy straggler", "waits on other
 * collectives", "no clear straggler". */
const char *pf_straggler_verdict_name(pf_straggler_verdict v);

/* "kernel", "host gap", "copy", "comm", "-". */
const char *pf_culprit_kind_name(pf_culprit_kind k);

#endif
