/* trace_chunk.h - one part of traceEvents parsed by one thread: the records it files its events as (trace_records.c), the element loop over it and where parts start (trace_elements.c) (not a public interface). */
#ifndef PROFANA_TRACE_CHUNK_H
#define PROFANA_TRACE_CHUNK_H

#include <stddef.h>
#include <stdint.h>

#include "profana/error.h"
#include "profana/strtab.h"
#include "trace_vec.h"
#include "trace_window.h"

typedef enum pf_chunk_end {
    PF_END_STOPPED,            /* reached its end: the next element starts at next */
    PF_END_ARRAY,              /* the array closed: next is the offset after ']' */
    PF_END_CUT,                /* the text ended inside the array (see cut_at, cut_inside) */
    PF_END_ERROR               /* err holds the message */
} pf_chunk_end;

typedef struct pf_chunk {
    pf_segvec acts, cpu, ops, steps; /* pf_activity, pf_cpu_event, pf_op_rec, pf_step */
    pf_segvec launches, cpu_steps; /* pf_launch_rec; pf_step (CPU-side ProfilerStep#N) */
    pf_segvec marks;           /* pf_host_mark */
    pf_segvec autograd;        /* pf_autograd_op (scanner's autograd only) */
    pf_segvec act_ext;         /* int64_t per activity: its External id (-1 none), until linking */
    pf_segvec launch_names;    /* pf_launch_name per launch record (scanner's launch_names only) */
    size_t n_events, n_bad_events, n_steps;
    size_t n_host;             /* host events with a duration, kept in cpu or not */
    size_t n_unknown_gpu;      /* GPU-like events of an unknown category */
    const char *unknown_cat;   /* the first one's category (interned), for the warning */
    int64_t start;             /* offset of its first element; -1 when none was found */
    pf_chunk_end end;
    int64_t next;
    int64_t cut_at;            /* PF_END_CUT: where the text ended */
    int cut_inside;            /* PF_END_CUT: 1 inside an element, 0 between two */
    pf_error err;
} pf_chunk;

void pf_chunk_init(pf_chunk *c);
void pf_chunk_free(pf_chunk *c);

/* What one parsing thread owns. */
typedef struct pf_scanner {
    pf_window *w;
    pf_strcache *strs;
    struct pf_shapes *shapes;  /* the event shapes this thread has seen (trace_event.h) */
    const char *path;
    int depth;                 /* nesting depth of the array's elements (the limit counts it) */
    int launch_names;          /* keep each launch call's kernel name and External id
                                  (pf_load_opts.launches: a graph capture's trace) */
    int op_spans_only;         /* pf_load_opts.op_spans_only */
    int autograd;              /* pf_load_opts.autograd */
    char *key;                 /* scratch for pf_op_rec.key */
    size_t key_cap;
} pf_scanner;

/* Files the event at sc->w->buf[start] ('{'), whose members f found, into c by its phase and
 * category (trace_records.c): an activity, a host interval, an op record, a step, a launch,
 * or nothing. Returns 0, or -1 with c->err set (out of memory only: unreadable fields count
 * the event as bad). */
struct ev_fields;
int pf_scan_add_event(pf_scanner *sc, pf_chunk *c, const struct ev_fields *f, size_t start);

/* Where parsing begins in the window: right after the array's '[', or at an element. */
typedef enum pf_scan_from { PF_FROM_OPEN, PF_FROM_ELEMENT } pf_scan_from;

/* Parses elements of the events array from sc->w->buf[at] into c until the array ends, the
 * text ends, an error, or the next element starts at or after offset stop_at. Every outcome
 * is in c->end. */
void pf_scan_events(pf_scanner *sc, pf_chunk *c, size_t at, pf_scan_from from, int64_t stop_at);

/* The first offset in [from, limit) where an event seems to start ('{' after "}," and
 * before '"'), in *start; -1 when the text ends with none, PF_NO_START_HERE when none starts
 * before limit (the text reaching past it: a long event or a long stretch of whitespace).
 * A guess that the chunk before confirms (it must end exactly there), so a false one costs
 * time, never correctness. 0 or -1 on a read error. */
enum { PF_NO_START_HERE = -2 };
int pf_scan_find_start(pf_window *w, int64_t from, int64_t limit, int64_t *start, pf_error *err);

/* How far before from pf_scan_find_start reads (the "}," before an event at from). */
enum { PF_SCAN_BACK = 64 };


#endif
