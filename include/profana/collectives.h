/* collectives.h - one rank's collectives (--analysis on a trace with communication): per kind, process group, group size and message size, their count, time, algbw, busbw and share of the link. */
/* layer: analysis (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_COLLECTIVES_H
#define PROFANA_COLLECTIVES_H

#include <stddef.h>
#include <stdint.h>

#include "profana/ranks.h"

/* One collective kind and message size of one rank: its communication kernels with the same
 * name, process group, group size and bytes. */
typedef struct pf_coll_kind {
    char name[PF_COLL_NAME_MAX];
    char pg[PF_COLL_PG_MAX];
    int group_size;
    int64_t bytes;             /* -1 unknown */
    int64_t count;
    int64_t total_ns;          /* summed kernel time (this rank's: it includes the wait for
                                  the other ranks, which --ranks takes out) */
    double algbw_gbps;         /* count * bytes / total_ns; < 0 unknown */
    double busbw_gbps;         /* algbw times nccl-tests' factor (pf_coll_bus_factor); < 0 unknown */
    double link_gbps;          /* the link's peak per direction for this group size
                                  (pf_devices_link_for); < 0 unknown */
    double link_pct;           /* busbw over link_gbps; < 0 unknown */
    int64_t min_ns;            /* the fastest instance's kernel time: the rank arrived last (or
                                  nearly) and waited least, the nearest one rank has to the transfer */
    int64_t transfer_ns;       /* the transfer estimate: count * min_ns; total_ns - transfer_ns
                                  estimates the waiting for later ranks */
    double transfer_busbw_gbps;/* busbw over transfer_ns instead of total_ns; < 0 unknown */
} pf_coll_kind;

typedef struct pf_coll_table {
    pf_coll_kind *kinds;       /* by total time, largest first */
    size_t n_kinds;
    int64_t kernels;           /* communication kernels in the trace */
    int64_t no_args;           /* of them, without collective args: in no row */
    int64_t no_args_ns;
    const char *link_source;   /* where the link figure comes from; NULL unknown */
    int64_t total_ns, transfer_ns; /* the rows' total_ns and transfer_ns, summed */
} pf_coll_table;

void pf_coll_table_free(pf_coll_table *t);

#endif
