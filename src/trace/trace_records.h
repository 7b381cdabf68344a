/* trace_records.h - the compact records of ops and launch calls that the parsing threads keep until linking (written by trace_records.c, read by trace_links.c, trace_nested.c and trace_launches.c; not a public interface). */
#ifndef PROFANA_TRACE_RECORDS_H
#define PROFANA_TRACE_RECORDS_H

#include <stdint.h>

#include "profana/trace.h"

/* A cpu_op with an External id, kept compact until linking decides which ops the model
 * needs. key is the interned text of the args members the formulas read ("Input Dims",
 * "Input type", "Concrete Inputs", kernel_flop, kernel_num_gb), so equal args parse once;
 * NULL when it has none of them. */
typedef struct pf_op_rec {
    const char *name;
    const char *key;
    int64_t ext_id;
    int64_t src_off;
    pf_src_args args;
    uint64_t thread;           /* its host interval, which the nested-op search reads: thread */
    int64_t ts_ns, dur_ns;     /* (hash of pid and tid), start and duration; ts_ns PF_NO_SPAN
                                  when its times could not be read. Its own copy, not an index
                                  into the host intervals: with pf_load_opts.op_spans_only
                                  those are not kept (record and interval: 80 bytes -> 64) */
} pf_op_rec;

#define PF_NO_SPAN INT64_MIN

/* A host call that may have launched GPU work (cuda_runtime, cuda_driver): its correlation id
 * names the GPU activity it launched. Kept until linking gives each activity its launch. */
typedef struct pf_launch_rec {
    int64_t correlation;
    int64_t ts_ns;
    int64_t dur_ns;            /* the call's duration */
    uint64_t geometry;         /* its grid and block (pf_activity.geometry); 0 none */
    uint64_t thread;           /* hash of its pid and tid (pf_activity.launch_thread) */
    uint64_t process : 62;     /* hash of its pid text (pf_ev_process: 62 bits), never 0 */
    uint64_t kind : 2;         /* pf_launch_kind (48 bytes a record -> 40) */
} pf_launch_rec;

_Static_assert(PF_LAUNCH_BEGIN_CAPTURE < 4, "pf_launch_rec.kind holds every pf_launch_kind in 2 bits");

/* What a launch call names, beside its record, only where the calls are kept (launch_names:
 * a graph capture's trace): the other traces' records are a quarter smaller without it (a
 * 300 MB trace's scan held 2.6 MB less). */
typedef struct pf_launch_name {
    int64_t ext_id;            /* as pf_launch.ext_id */
    const char *kernel;        /* the kernel it launched; NULL none */
    int has_ext;               /* ext_id read (pf_launch.has_ext) */
} pf_launch_name;

#endif
