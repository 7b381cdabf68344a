/* diagnose.h - why a device's step is slow and what to change: findings ranked by the time a fix would recover, from what the host was doing in the GPU's idle gaps and from patterns of the GPU work (docs/analysis.md, "Findings"). */
/* layer: analysis (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_DIAGNOSE_H
#define PROFANA_DIAGNOSE_H

#include <stddef.h>
#include <stdint.h>

#include "profana/analysis.h"
#include "profana/error.h"

enum { PF_FINDING_TEXT = 400 };

/* One finding. time_us is an estimate of what a fix recovers (each kind's rule is in
 * docs/analysis.md), never more than the time it is about; < 0 when it cannot be known. */
typedef struct pf_finding {
    const char *kind;                  /* "host_region", "sync", "eager_attention", ... */
    double time_us;
    double pct;                        /* time_us as a share of the device's span; < 0 unknown */
    char evidence[PF_FINDING_TEXT];    /* what was seen: names, counts, shapes, times */
    char advice[PF_FINDING_TEXT];      /* one line: what to change */
} pf_finding;

/* Idle gaps by length: < 10 us, 10-100 us, 0.1-1 ms, 1-10 ms, >= 10 ms. */
enum { PF_GAP_BINS = 5 };

/* The idle time one host-side name covers (the innermost annotation or Python frame on the
 * launching thread while the GPU waited), or that follows syncs. */
typedef struct pf_idle_cover {
    const char *name;                  /* interned; NULL: covered by no mark */
    int kind;                          /* pf_mark_kind of the name */
    const char *outer;                 /* the innermost annotation around it, if a Python frame;
                                          NULL none */
    int64_t idle_ns;
    int64_t gaps;                      /* gaps it took time from */
    int64_t short_ns;                  /* of idle_ns, in gaps shorter than 1 ms */
} pf_idle_cover;

typedef struct pf_diagnosis {
    int64_t span_ns, idle_ns;
    int64_t steps;                     /* profiler steps on the device; 0 when none */
    int64_t gap_count[PF_GAP_BINS], gap_ns[PF_GAP_BINS];
    pf_idle_cover *covers;             /* by idle_ns, largest first */
    size_t n_covers;
    int64_t uncovered_short_ns, uncovered_long_ns; /* host wait under no mark, in gaps < 1 ms
                                                      and >= 1 ms */
    int64_t latency_ns;                /* launch latency of the gaps (waits.h) no sync explains */
    int64_t sync_n, sync_idle_ns;      /* blocking calls the GPU drained under, and the idle
                                          of the gaps that begin under them */
    const char *sync_call, *sync_op;   /* the most frequent such call and the blocking op
                                          around it (aten::item ...); NULL none */
    pf_finding *findings;              /* by time_us, largest first; unknown times last */
    int n_findings;
} pf_diagnosis;

/* Diagnoses one device of an analysis run with opts.idle_gaps (its gaps). Returns 0 and fills
 * *g (free with pf_diagnosis_free), or -1 with err set when memory runs out. */
int pf_diagnose(const pf_analysis *an, const pf_device_report *d, pf_diagnosis *g, pf_error *err);

/* Frees what pf_diagnose allocated; g is then zeroed. */
void pf_diagnosis_free(pf_diagnosis *g);

/* The gap-length bin's name ("<10us", "10-100us", "0.1-1ms", "1-10ms", ">=10ms"). */
const char *pf_gap_bin_name(int bin);

#endif
