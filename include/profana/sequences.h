/* sequences.h - repeated kernel sequences (--group sequence): runs of 2 to 8 consecutive kernels on a stream that recur, by their GPU time, with the ops that launched them: fusion candidates. */
/* layer: analysis (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_SEQUENCES_H
#define PROFANA_SEQUENCES_H

#include <stddef.h>
#include <stdint.h>

#include "profana/analysis.h"
#include "profana/error.h"

enum { PF_SEQ_MIN = 2, PF_SEQ_MAX = 8 };

/* One sequence of kernel names on one device. */
typedef struct pf_seq_row {
    const char *kernels[PF_SEQ_MAX];   /* its kernels' names, in launch order (interned in the trace) */
    const char *ops[PF_SEQ_MAX];       /* the op that launched each, in its first occurrence; NULL none */
    int len;                           /* PF_SEQ_MIN to PF_SEQ_MAX */
    int64_t count;                     /* occurrences that do not overlap (counted left to right
                                          on each stream) */
    int64_t total_ns;                  /* their kernels' summed time */
} pf_seq_row;

typedef struct pf_seq_device {
    const pf_device_report *report;
    pf_seq_row *rows;                  /* by total time, largest first */
    size_t n_rows;
    int64_t kernel_ns;                 /* the device's kernel time (the analysis' selection) */
} pf_seq_device;

typedef struct pf_seq_view {
    pf_seq_device *devices;            /* parallel to the analysis' devices */
    int n_devices;
} pf_seq_view;

/* The repeated kernel sequences of each device over the analysis' selection: on each stream,
 * its kernels (not copies or fills) by start time; a sequence is a run of 2 to 8 consecutive
 * ones, by name; it counts when it occurs twice or more. A sequence is left out when one
 * kernel longer, before or after it, occurs as often (the longer says more). The max_rows
 * with the most time are kept per device (0: all). Returns 0 and *out (free with
 * pf_seq_view_free), or -1 with err set when memory runs out. */
int pf_seq_view_build(const pf_analysis *an, size_t max_rows, pf_seq_view **out, pf_error *err);

void pf_seq_view_free(pf_seq_view *v);

#endif
