/* ranks_inspector.h - --ranks over NCCL Inspector logs: every rank's collectives matched by communicator and sequence number, each one's arrivals, late rank and skew, joined with the Kineto ranks' matched collectives. */
/* layer: analysis (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_RANKS_INSPECTOR_H
#define PROFANA_RANKS_INSPECTOR_H

#include <stddef.h>
#include <stdint.h>

#include "profana/error.h"
#include "profana/inspector.h"
#include "profana/ranks.h"

/* How an instance's skew and late rank are known. */
enum {
    PF_SKEW_FROM_START = 1,    /* every record has its start: last start minus first */
    PF_SKEW_FROM_DURATION = 2  /* a record without event_trace_ts: every rank ends together, so
                                  the longest time minus the shortest, the shortest's rank late */
};

/* One record of an instance. */
typedef struct pf_insp_member {
    size_t log, rec;           /* index into the report's logs and that log's recs */
} pf_insp_member;

/* One collective of a communicator found in the log of every rank of it. */
typedef struct pf_insp_instance {
    const char *comm, *coll;   /* point into the first member's record */
    int64_t sn, bytes;         /* bytes: the first member's, -1 unknown */
    int n_ranks;
    size_t first, n;           /* members[first, first + n), by rank within the communicator */
    int late;                  /* the late rank (a log's rank); -1 when none is (a tie) */
    int64_t skew_ns;
    int skew_from;             /* PF_SKEW_FROM_* */
    int64_t kineto;            /* index into pf_ranks_report.instances of the Kineto instance
                                  joined to it; -1 none */
} pf_insp_instance;

typedef struct pf_insp_report {
    pf_insp_log *logs;         /* one per file, sorted by rank */
    int *rank;                 /* rank[i]: logs[i]'s rank: its rank in the communicator of the
                                  most ranks it logs (the world's, in a job whose default group
                                  spans every rank) */
    size_t n_logs;
    pf_insp_instance *inst;    /* by communicator and sequence number */
    size_t n_inst;
    pf_insp_member *members;
    size_t n_members;
    int64_t incomplete;        /* records whose instance lacks a rank of its communicator (or
                                  disagrees in collective) */
    pf_straggler *stragglers;  /* per log, most waiting imposed first */
    size_t n_stragglers;
    int64_t joined;            /* instances joined with a Kineto instance */
    int64_t join_pairs;        /* communicators paired with a Kineto process group */
} pf_insp_report;

/* Reads the Inspector logs paths[0, n) on up to jobs threads, matches their records by
 * communicator and sequence number (an instance counts when all n_ranks ranks of its
 * communicator logged it with the same collective), measures each, and joins them with the
 * Kineto ranks' matched instances rep (over s[0, ns)): a communicator pairs with the process
 * group whose ranks are the same set, and an instance with the group's instance whose sequence
 * number plus the pair's offset is its coll_sn, the offset being the one of smallest magnitude
 * under which the group's first 32 instances all agree in kind with the communicator's
 * (docs/ranks.md, "NCCL Inspector logs"). Returns 0 with *out filled (free with
 * pf_insp_report_free), or -1 with err set: a log's reading error, or two logs of one rank. */
int pf_ranks_inspector(const char *const *paths, size_t n, int jobs, const pf_rank_summary *s, size_t ns,
                       const pf_ranks_report *rep, pf_insp_report *out, pf_error *err);

void pf_insp_report_free(pf_insp_report *r);

/* The collective's kind, the same for PyTorch's names and NCCL's ("_allgather_base",
 * "all_gather_into_tensor", "AllGather" -> "allgather"): allreduce, allgather, reducescatter,
 * alltoall, broadcast, reduce, send, recv; NULL for another. */
const char *pf_coll_canon(const char *name);

#endif
