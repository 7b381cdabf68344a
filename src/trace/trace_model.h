/* trace_model.h - the model's assembly from the parts' records (trace_model.c; the whole: trace_assemble.c; devices: trace_devices.c; links: trace_links.c; nested ops: trace_nested.c; launch calls: trace_launches.c), and what the loader's other files ask of it (not a public interface). */
#ifndef PROFANA_TRACE_MODEL_H
#define PROFANA_TRACE_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "profana/trace.h"
#include "trace_vec.h"

/* Text of the trace already decoded by cJSON (a device name, an input type), interned as
 * every name is kept: valid UTF-8 without control characters (pf_json_text_dup). NULL when
 * memory runs out. */
const char *pf_trace_intern_text(pf_trace *t, const char *s);

/* Builds t->devices from the deviceProperties text (len 0 when absent) and the devices
 * the activities run on; lone surrogate escapes in text are rewritten in place
 * (pf_json_fix_surrogates). Returns 0 or -1 with err set. */
int pf_trace_devices_from_props(pf_trace *t, char *text, size_t len, pf_error *err);

/* Links activities (and t->launches, when kept) to the op records of the chunks (in order)
 * by External id (act_ext[i]: activity i's, -1 none), builds t->ops from the linked records
 * (all_ops: from all of them), in file order, and parses the args of linked ops once per
 * distinct args text. Frees the records (block by block as the ops are built). The External-id map and the
 * activities' lookups run on up to jobs threads (the result is the same for every jobs >= 1).
 * Returns 0 or -1 with err set (out of memory only). */
int pf_trace_link(pf_trace *t, const int64_t *act_ext, pf_segvec *const *ops, size_t n_vecs, int all_ops, size_t jobs,
                  pf_error *err);

/* Gives each activity the start and process of the launch call with its correlation id
 * (launch_ts_ns, launch_process; PF_NO_LAUNCH when none, or when calls of two processes
 * share the id), whether it was a graph launch, and its geometry when its own args lack it;
 * counts them in t->n_launched. keep: the records, with the names beside them (names[v]: a
 * pf_launch_name per record of launches[v]), become t->launches (ops linked later by
 * pf_trace_link); else they are freed. The id map and the lookups run on up to jobs threads
 * (the result is the same for every jobs >= 1; 0 counts as 1). Returns 0 or -1 with err set
 * (out of memory only). */
int pf_trace_link_launches(pf_trace *t, pf_segvec *const *launches, pf_segvec *const *names, size_t n_vecs,
                           int keep, size_t jobs, pf_error *err);

/* Makes the model of t from the parts of traceEvents that count (chunks[kept[i]] for i below
 * n_kept, in file order; their records are moved out) and the deviceProperties text (props,
 * props_len 0 when absent; fixed in place): events, the unknown-category warning, launch
 * calls, devices and External-id links, on up to pf_parallel_workers(opts->jobs) threads,
 * with opts->timings' laps. Returns 0 or -1 with err set. */
struct pf_chunk;
int pf_trace_assemble(pf_trace *t, struct pf_chunk *const *chunks, const size_t *kept, size_t n_kept, char *props,
                      size_t props_len, const pf_load_opts *opts, pf_error *err);

/* Appends a warning (printf-style) to t->warnings. Returns 0 or -1 when memory runs out. */
int pf_trace_warn(pf_trace *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- what the assembly's files share (defined in trace_model.c and trace_nested.c) ---- */

/* Keeps a (heap block that ops point into: an args array, a nest's calls) until
 * pf_trace_free. Returns 0 or -1 when memory runs out (a is then not kept). */
int pf_trace_store_add(pf_trace *t, void *a);

/* Threads for n items of work over `parts` parts: one for a small job (under 64 Ki items,
 * where starting threads costs more than it saves), else up to one a part (at most jobs >= 1). */
size_t pf_trace_workers(size_t n, size_t parts, size_t jobs);

/* The op records of every chunk as one sequence, in file order. */
typedef struct pf_op_recs {
    pf_segvec *const *vecs;
    size_t n_vecs, n;
} pf_op_recs;

/* The records nested in ops that read them (pf_nests_find). */
typedef struct pf_nest_rec {
    const char *name, *key;
} pf_nest_rec;

typedef struct pf_nest {
    int32_t parent;            /* its record's index in the sequence */
    size_t first, n;           /* its children in pf_nests.recs */
} pf_nest;

typedef struct pf_nests {
    pf_nest *list;
    size_t n, cap;
    pf_nest_rec *recs;
    size_t n_recs, cap_recs;
} pf_nests;

/* The children of every kept record (keep[g] for record g of r) whose op reads its nested
 * ops (pf_op_family_reads_nested), in file order, into ns (zeroed by the caller), on up to
 * jobs threads: the same nests for every jobs >= 1. Returns 0 or -1 (out of memory). */
int pf_nests_find(const pf_op_recs *r, const unsigned char *keep, pf_nests *ns, size_t jobs);

void pf_nests_free(pf_nests *ns);

/* Links by nesting (docs/analysis.md, "How work is attributed"): each activity that no
 * External id linked (op < 0) whose launch call is known and is not a graph launch takes the
 * innermost record of r (with a span) enclosing that call on the call's thread (same pid and
 * tid; op start <= call start, call end <= op end; innermost: the latest start, then the
 * earliest end, then the last in file order): a->op becomes the record's index in the
 * sequence (as the External-id links leave it), a->nested 1, keep[index] 1; *n_nested counts
 * them. Nothing is sorted when no activity wants an op. The threads' sweeps run on up to jobs
 * threads (the result is the same for every jobs >= 1). Returns 0 or -1 (out of memory). */
int pf_link_enclosing(pf_trace *t, const pf_op_recs *r, unsigned char *keep, size_t jobs, size_t *n_nested);

#endif
