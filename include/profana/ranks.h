/* ranks.h - many ranks' traces side by side: per-rank GPU, busy, communication and exposed communication time, and collectives matched across ranks (--ranks). */
/* layer: analysis (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_RANKS_H
#define PROFANA_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include "profana/devices.h"
#include "profana/error.h"
#include "profana/trace.h"

/* Sizes of the fixed text fields of a collective (longer values are cut, which only merges
 * groups whose names agree in the first 95 bytes). */
enum { PF_COLL_NAME_MAX = 48, PF_COLL_PG_MAX = 96 };

/* One communication kernel of a rank: an activity of category communication. */
typedef struct pf_comm_rec {
    char name[PF_COLL_NAME_MAX]; /* args "Collective name" ("allreduce"); "" when the kernel
                                    and its launching op carry none (launched before the
                                    profiler's window opened, or no record_shapes) */
    char pg[PF_COLL_PG_MAX];   /* args "Process Group Name"; "" when unknown */
    int group_size;            /* args "Group size"; 0 when unknown */
    int64_t bytes;             /* the buffer nccl-tests calls the size: the larger of In and
                                  Out msg nelems times the element size of args "dtype";
                                  -1 when unknown */
    int64_t ts_ns, dur_ns;
    int64_t seq;               /* args "Seq" (PyTorch's per-process-group collective sequence
                                  number; TraceLens' "seq_num") when has_seq; else 0 */
    int has_seq;               /* 0: the trace (or a --summary file) records none */
} pf_comm_rec;

/* Time of one rank, or of one profiler step of it, summed over its devices. */
typedef struct pf_rank_times {
    int64_t gpu_ns;            /* summed durations of every GPU activity */
    int64_t busy_ns;           /* per device, union of the activity intervals; summed */
    int64_t span_ns;           /* per device, first start to last end; summed */
    int64_t comm_ns;           /* per device, union of the communication kernels; summed */
    int64_t exposed_ns;        /* per device, communication time covered by no compute kernel
                                  (a kernel of another category) on that device; summed */
    int64_t idle_ns;           /* span_ns - busy_ns */
    int64_t compute_ns;        /* per device, union of the compute kernels (neither
                                  communication nor copies); summed. 0 in a summary without it */
} pf_rank_times;

/* One ProfilerStep#N of a rank: the GPU activities that belong to it by --steps' rule
 * (pf_steps_numbers). */
typedef struct pf_rank_step {
    int64_t number;            /* N */
    pf_rank_times t;
} pf_rank_step;

/* What a window of a rank's GPU time went to, exclusively (a stretch covered by a compute
 * kernel is compute even where a copy or a communication kernel overlaps it; by a copy and no
 * compute, copy; by communication alone, comm; by nothing, idle): the four add up to the
 * window's length. */
typedef enum pf_win_cause { PF_WIN_COMPUTE, PF_WIN_COPY, PF_WIN_COMM, PF_WIN_IDLE, PF_WIN_CAUSES } pf_win_cause;

enum { PF_WIN_TOP = 4 /* labels kept per window, most compute time first */ };

/* The window before one communication kernel on its device: from the end of the latest
 * communication kernel that started before it on that device (the previous collective, which
 * ends on every rank at about the same time) to its own start (ranks_windows.c). */
typedef struct pf_comm_window {
    int64_t start_ns;          /* the window's start; -1: no window (the device's first) */
    int64_t cause_ns[PF_WIN_CAUSES];
    int32_t top_label[PF_WIN_TOP]; /* index into pf_rank_summary.labels of the launching op
                                  (its name), else the kernel (short name), with the most
                                  compute time in the window; -1 unused */
    int64_t top_ns[PF_WIN_TOP];/* their kernels' durations within the window, summed */
    int32_t top_shape[PF_WIN_TOP]; /* index into labels of that label's shape set: the
                                  distinct inputs of its kernels' calls in the window, as
                                  --group shape spells them, sorted and joined by " | " (at
                                  most 3, then "| +N more"); -1 unknown (a kernel without an
                                  op or without recorded shapes) */
    int64_t gap_ns;            /* the window's longest idle stretch */
    int32_t gap_label;         /* the annotation or Python frame on the launching thread of the
                                  activity that ended the gap that covers at least half of the
                                  gap's length before that launch, shortest first; -1 none */
} pf_comm_window;

enum { PF_RANK_KERNELS = 64 /* kernel names kept per rank, most time first */ };

/* A compute kernel name's count and summed duration over a rank's trace. */
typedef struct pf_kernel_time {
    int32_t label;             /* index into pf_rank_summary.labels (the short name) */
    int64_t count, sum_ns;
} pf_kernel_time;

/* What --ranks keeps of one rank's trace: small, so that many ranks fit in memory. It is
 * what a --summary file holds (pf_rank_summary_read; written by pf_view_rank_summary). */
typedef struct pf_rank_summary {
    char *path;                /* owned copy of the trace's path as given */
    const char *given;         /* the file named to pf_ranks_load (a trace or a summary),
                                  borrowed from its paths while it runs; NULL otherwise */
    char *node;                /* the trace's host_name (the node the rank ran on), owned;
                                  NULL when unknown */
    int rank;                  /* distributedInfo.rank; else the position in the order given */
    int rank_from_trace;       /* 1 when rank came from distributedInfo.rank */
    int n_devices;             /* devices with GPU activity */
    const pf_device_info *info;/* the device-table entry of its devices when they all match
                                  the same one; NULL otherwise */
    pf_rank_times all;         /* the whole trace */
    pf_rank_step *steps;       /* steps with GPU activity, by number; NULL when none */
    size_t n_steps;
    pf_comm_rec *comms;        /* communication kernels by start time */
    size_t n_comms;
    pf_comm_window *wins;      /* wins[i]: the window before comms[i]; NULL: none recorded (a
                                  summary written without them) */
    char **labels;             /* the names the windows and kernels refer to (owned) */
    size_t n_labels;
    pf_kernel_time *kernels;   /* the PF_RANK_KERNELS compute kernels with the most time, most
                                  first; NULL when none */
    size_t n_kernels;
    int64_t compute_sum_ns;    /* every compute kernel's duration, summed */
} pf_rank_summary;

/* The version a --summary file carries as "profana_summary"; a reader refuses any other text
 * (2, 0, 1.0). */
enum { PF_RANK_SUMMARY_VERSION = 1 };

/* Whether path holds a summary (its text, gzip inflated, starts with the object member
 * "profana_summary", after whitespace, or with "schema" and then it): 1 yes, 0 no (a trace, or unreadable: the loader
 * words that error). Reads only the first bytes. */
int pf_rank_summary_sniff(const char *path);

/* The same test on a text of len bytes (its first members only are looked at). */
int pf_rank_summary_sniff_text(const char *head, size_t len);

/* Reads a --summary file into *out (free its members as pf_ranks_free does). The rank is -1
 * when the summary's trace named none. Returns 0, or -1 with err set to one line: "PATH:
 * byte N: ..." for malformed JSON, a missing, mistyped or repeated member, or figures that
 * cannot be (busy above span, exposed above comm), "PATH: a profana summary of version V;
 * this profana reads version 1 ..." for another version, "PATH: a profana document of schema
 * S; ..." for another leading "schema" (a summary may open with PF_JSON_SCHEMA or without it). */
int pf_rank_summary_read(const char *path, pf_rank_summary *out, pf_error *err);

/* pf_rank_summary_read of a text already read (path names it in errors). */
int pf_rank_summary_parse(const char *path, const char *text, size_t len, pf_rank_summary *out, pf_error *err);

/* Summarises one loaded trace. path is copied. When the trace has communication kernels,
 * reads its text again (the model keeps no kernel args) for each one's collective args (from
 * the kernel's args, else from its launching op's), so path must name the file t was loaded
 * from (not standard input): a plain file is mapped and only the pages of those args are
 * read; gzip is inflated whole again. Returns 0, or -1 with err set. rank is -1 when the trace
 * names none (pf_ranks_assign fills it). culprits 1: also the windows, labels and kernels that
 * --ranks' culprits compare (ranks_windows.c: a sort of every activity); 0: they stay NULL (the
 * collectives table of --analysis, which needs only the kernels' args). */
int pf_rank_summarize(const pf_trace *t, const char *path, int culprits, pf_rank_summary *out, pf_error *err);

/* Loads and summarises paths[0, n) on up to lo->jobs threads at once, one file per thread
 * (each thread's memory bounded by its trace; a path that holds a summary,
 * pf_rank_summary_sniff, is read instead), then assigns ranks (pf_ranks_assign). On
 * success *out holds n summaries sorted by rank (free with pf_ranks_free). On error returns
 * -1 with err set from the first failing file in the order given; warnings and notes of the
 * loads are dropped except the first cut-off warning, which *warning receives (caller frees;
 * NULL when none). */
int pf_ranks_load(const char *const *paths, size_t n, const pf_load_opts *lo, pf_rank_summary **out,
                  char **warning, pf_error *err);

/* Gives every summary without a rank from its trace its position in the given order, then
 * sorts s by rank. Returns 0, or -1 with err set when two traces have the same rank (naming
 * the files given, ->given, else the traces' paths). */
int pf_ranks_assign(pf_rank_summary *s, size_t n, pf_error *err);

/* Frees what one summary owns (not s itself) and zeroes it. */
void pf_rank_summary_clear(pf_rank_summary *s);

/* Frees n summaries and the array. NULL is a no-op. */
void pf_ranks_free(pf_rank_summary *s, size_t n);

/* Where the ranks of a matched collective ran, by their traces' host_name. */
enum { PF_NODES_UNKNOWN = 0, PF_NODES_ONE = 1, PF_NODES_MANY = 2 };

/* The matched instances of one kind of placement (within a node, across nodes): how many,
 * and their transfer time (the fastest rank's kernel) and skew, summed. */
typedef struct pf_node_split {
    int64_t count, transfer_ns, skew_ns;
} pf_node_split;

/* One collective kind and message size on one process group, over every instance matched
 * across the ranks. */
typedef struct pf_coll_row {
    const char *name;          /* points into a summary's pf_comm_rec */
    const char *pg;
    int64_t bytes;             /* -1 unknown */
    int group_size;
    int64_t count;             /* matched instances */
    int64_t transfer_ns;       /* summed over instances: the fastest rank's kernel time */
    int64_t skew_ns;           /* summed over instances: last minus first kernel start */
    int64_t skew_max_ns;       /* the largest instance's skew */
    double algbw_gbps;         /* count * bytes / transfer_ns; < 0 unknown */
    double busbw_gbps;         /* algbw times nccl-tests' factor; < 0 unknown */
    double link_pct;           /* busbw over the link's peak per direction; < 0 unknown (and
                                  across nodes: the network's peak is not known) */
    int nodes;                 /* where its ranks ran: PF_NODES_ONE (one node: intra-node),
                                  PF_NODES_MANY (several: inter-node), PF_NODES_UNKNOWN (a
                                  rank without host_name) */
} pf_coll_row;

/* Per rank, how often it was the last to start a matched collective and the waiting that
 * imposed: the sum over the other ranks of (its start - their start). */
typedef struct pf_straggler {
    int rank;
    int64_t late;
    int64_t wait_ns;
} pf_straggler;

/* qsort's order of stragglers (ranks_match.c): the most waiting imposed first, then the most
 * times last, then by rank. x and y point to pf_straggler. */
int pf_straggler_cmp(const void *x, const void *y);

/* One rank's kernel of a matched instance. */
typedef struct pf_coll_member {
    size_t rank;               /* index into the summaries given to pf_ranks_match */
    size_t comm;               /* index into that summary's comms */
} pf_coll_member;

/* One instance matched on every rank of its group: its kernels members[first, first + n). */
typedef struct pf_coll_instance {
    size_t first, n;
    int64_t seq;               /* its sequence number, else its order within its group */
} pf_coll_instance;

typedef struct pf_ranks_report {
    pf_coll_row *rows;         /* by name, process group, bytes */
    size_t n_rows;
    int64_t matched;           /* instances found on every rank of their group */
    int64_t unmatched;         /* collective kernels (with args) whose instance misses a rank
                                  of its group or disagrees in kind or size */
    int64_t no_args;           /* communication kernels without collective args: not matched */
    int64_t by_seq;            /* of the matched instances, those matched on their sequence
                                  number (every rank's kernels of their group carry one) */
    pf_node_split intra, inter;/* the matched instances whose ranks all ran on one node, and
                                  those whose ranks ran on several (by host_name) */
    int64_t node_unknown;      /* matched instances with a rank whose node is unknown (no
                                  host_name): while any, intra and inter are incomplete */
    size_t n_nodes;            /* distinct host_name over the ranks; 0 when a rank has none */
    double link_gbps;          /* the ranks' link peak per direction; < 0 unknown */
    const char *link_source;
    const pf_device_info *link_info; /* the ranks' common device entry (link_pct per row's
                                  group size: pf_devices_link_for); NULL when they differ */
    pf_straggler *stragglers;  /* one per rank, most waiting imposed first */
    size_t n_stragglers;
    pf_coll_instance *instances; /* every matched instance, by group and sequence */
    size_t n_instances;
    pf_coll_member *members;   /* their kernels, by rank within an instance */
    size_t n_members;
} pf_ranks_report;

/* Matches collectives across the ranks s[0, n) (sorted by rank): by process group and the
 * collective's sequence number where every kernel of that group on every rank carries one
 * (pf_comm_rec.seq), else its order among that group's collectives on each rank; an instance counts when
 * every rank of its group (Group size of them) has it with the same kind and size. Returns
 * 0 and fills *r (free with pf_ranks_report_free), or -1 with err set when memory runs out. */
int pf_ranks_match(const pf_rank_summary *s, size_t n, pf_ranks_report *r, pf_error *err);

void pf_ranks_report_free(pf_ranks_report *r);

/* nccl-tests' bus-bandwidth factor for a collective of n ranks, from its name as PyTorch
 * writes it (`allreduce`, `_allgather_base`, `reduce_scatter_tensor_coalesced`, ...):
 * all-reduce 2(n-1)/n; all-gather, reduce-scatter and all-to-all (n-1)/n; broadcast,
 * reduce, send and recv 1. < 0 when the name is none of these or n < 1. */
double pf_coll_bus_factor(const char *name, int n);

#endif
