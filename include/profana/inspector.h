/* inspector.h - NCCL Inspector logs (NCCL's ext-profiler/inspector plugin): one JSON object per collective and communicator of a process, read into records for --ranks. */
/* layer: trace (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_INSPECTOR_H
#define PROFANA_INSPECTOR_H

#include <stddef.h>
#include <stdint.h>

#include "profana/error.h"

enum { PF_INSP_COMM_MAX = 48, PF_INSP_COLL_MAX = 32 };

/* One collective of one communicator on one process, as the plugin wrote it (docs/ranks.md,
 * "NCCL Inspector logs"). */
typedef struct pf_insp_rec {
    char comm[PF_INSP_COMM_MAX]; /* header.id: the communicator's hash ("0x7f8c496ae9f661") */
    int rank;                  /* header.rank: the process's rank in that communicator */
    int n_ranks;               /* header.n_ranks */
    int nnodes;                /* header.nnodes; 0 when absent */
    char coll[PF_INSP_COLL_MAX]; /* coll_perf.coll ("AllReduce") */
    int64_t sn;                /* coll_perf.coll_sn: the collective's sequence number in its
                                  communicator */
    int64_t bytes;             /* coll_perf.coll_msg_size_bytes; -1 when absent */
    int64_t exec_ns;           /* coll_perf.coll_exec_time_us, in ns */
    double busbw_gbps;         /* coll_perf.coll_busbw_gbs; < 0 when absent */
    int64_t start_ns;          /* when the rank reached it: the earliest kernel_start_ts of
                                  coll_perf.event_trace_ts.kernel_events (the GPU's start),
                                  else its coll_start_ts (the host's call), in ns; -1 when the
                                  record has no event_trace_ts (NCCL_INSPECTOR_DUMP_VERBOSE=0) */
} pf_insp_rec;

/* One process's log: every record of the file, in file order. */
typedef struct pf_insp_log {
    char *path;                /* owned copy of the path given */
    char *host;                /* metadata.hostname of its first record that has one, owned;
                                  NULL when none */
    pf_insp_rec *recs;
    size_t n;
} pf_insp_log;

/* Whether path holds an Inspector log: its text (gzip inflated) opens, after whitespace, with
 * an object whose first member is "header". Reads only the first bytes; 0 for anything
 * else, or an unreadable file. */
int pf_inspector_sniff(const char *path);

/* The same test on a text of len bytes (its first member's key only is looked at). */
int pf_inspector_sniff_text(const char *head, size_t len);

/* Reads the log at path (plain or gzip): a sequence of JSON objects separated by whitespace
 * (one a line as the plugin writes them, or pretty-printed). Returns 0 with *out filled (free
 * with pf_inspector_free), or -1 with err set to one line "PATH: byte N: ..." for malformed
 * JSON, a record that is not an object, a missing or mistyped member (header.id, rank, n_ranks,
 * coll_perf.coll, coll_sn, coll_exec_time_us), a rank outside [0, n_ranks) or negative figures;
 * "PATH: no records" for a log without any. */
int pf_inspector_read(const char *path, pf_insp_log *out, pf_error *err);

/* Frees what a log owns and zeroes it. */
void pf_inspector_free(pf_insp_log *l);

#endif
