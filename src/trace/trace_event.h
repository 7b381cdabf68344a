/* trace_event.h - one event's members as the loader's event parsers find them, and the per-thread cache of event shapes (not a public interface). */
#ifndef PROFANA_TRACE_EVENT_H
#define PROFANA_TRACE_EVENT_H

#include <stddef.h>
#include <stdint.h>

#include "../json/jscan_prim.h"
#include "profana/trace_scan.h"

/* Members of an event and of its args that the model (and pf_event_scan's callers) read:
 * the event's are pf_ev_member's, so that ev_fields.ev is pf_event_extent.member. */
enum {
    E_PH = PF_EV_PH,
    E_TS = PF_EV_TS,
    E_CAT = PF_EV_CAT,
    E_DUR = PF_EV_DUR,
    E_PID = PF_EV_PID,
    E_TID = PF_EV_TID,
    E_NAME = PF_EV_NAME,
    E_ARGS = PF_EV_ARGS,
    E_ID = PF_EV_ID,
    N_EV = PF_EV_MEMBERS
};
/* A_GRID, A_BLOCK, A_KERNEL: a kernel's launch geometry and a launch call's kernel name (graph
 * replays are matched to their capture by them). A_SEQ, A_FWD: an op's autograd sequence
 * number and, on a backward op, its forward thread ("Fwd thread id"). The op's members
 * (A_DIMS on) come last: op_key spells them in order. */
enum {
    A_EXT, A_DEVICE, A_STREAM, A_CORR, A_BYTES, A_GRID, A_BLOCK, A_KERNEL, A_SEQ, A_FWD, A_DIMS, A_TYPES, A_CONC, A_KFLOP, A_KGB,
    A_STRIDES, A_KFILE, N_ARG
};

/* A field id in records and shapes: E_* for the event's members, ARG_FIELD(A_*) for args'. */
#define ARG_FIELD(a) (N_EV + (a))

/* Extents (in the window) of the members found; [0, 0) when absent. slow: found by the
 * validating scanner, whose rules for repeated keys the args readers then follow. */
typedef struct ev_fields {
    size_t ev[N_EV][2];
    size_t arg[N_ARG][2];
    int slow;
    int plain_name;            /* the name is printable ASCII without escapes */
} ev_fields;

/* What a fast parser says of an event: parsed; unusual (let a slower one decide); the
 * window ends inside it. */
enum { FAST_OK, FAST_SLOW, FAST_TRUNC };

/* The name value at s[*p] ('"'), read by both event parsers: a name of printable ASCII
 * without escapes (the common case) is noted in f and *p moves past it: FAST_OK. FAST_TRUNC
 * when the text ends inside it; FAST_SLOW when the general string reader must take it. */
static inline int ev_plain_name(const char *s, size_t len, size_t *p, ev_fields *f)
{
    int ascii = 1;
    size_t q = js_plain_run(s, len, *p + 1, &ascii);
    if (q >= len)
        return FAST_TRUNC;
    f->plain_name = s[q] == '"' && ascii;
    if (!f->plain_name)
        return FAST_SLOW;
    *p = q + 1;
    return FAST_OK;
}

/* Every member value of one event in order (args' members in place of the args object),
 * which is what an event shape is learnt from. n is -1 when the event has too many. */
enum { REC_MAX = 48 };
typedef struct ev_record {
    int n;
    size_t vs[REC_MAX], ve[REC_MAX];
    int8_t field[REC_MAX];     /* E_*, ARG_FIELD(A_*), or -1 */
    uint8_t depth[REC_MAX];    /* nesting depth of the value */
    size_t args_open, args_close; /* the args object's '{' and '}'; args_close 0: none */
} ev_record;

/* ---- finding an event's members (trace_fields.c) ---- */

/* The member an event key k[0, n) names (E_*), or -1 for one the model does not read. */
int pf_ev_event_key(const char *k, size_t n);

/* The args member a key k[0, n) names (A_*; "external id" is older Kineto's A_EXT), or -1. */
int pf_ev_args_key(const char *k, size_t n);

/* The event at s[p] ('{', depth deep) in one pass: FAST_OK with f filled, *end past the event
 * and rec listing its values (for pf_shapes_learn); FAST_TRUNC when s[0, len) ends inside it;
 * FAST_SLOW for anything unusual (escaped keys, repeated keys, odd spacing before ':' and
 * such are left to the validating scanner, which then decides). */
int pf_ev_fast(const char *s, size_t len, size_t p, int depth, ev_fields *f, size_t *end, ev_record *rec);

/* The members of the event at s[start] ('{'), which the validating scanner has accepted: the
 * last of a repeated event key wins, the first of a repeated args key the formulas read.
 * f->slow is set: the args readers then iterate args themselves. */
void pf_ev_slow(const char *s, size_t len, size_t start, ev_fields *f);

/* Event shapes: the text of an event between its variable values (keys, punctuation, the
 * spacing, and the ph and cat values, which tell event kinds apart). Kineto writes a few
 * dozen shapes over and over, so most events match one: a comparison of the constant text
 * and a scan of each value replace reading every key. The text that matches was valid
 * JSON when the shape was learnt, so a match validates the event as the scanner would. */
typedef struct pf_shapes pf_shapes;

pf_shapes *pf_shapes_new(void);
void pf_shapes_free(pf_shapes *sh);

/* Matches the event at s[p] ('{') against the known shapes. FAST_OK with f filled (as
 * fast_event fills it) and *end past the event; FAST_SLOW when no shape fits; FAST_TRUNC
 * when the text ends while one still fits. */
int pf_shapes_match(pf_shapes *sh, const char *s, size_t len, size_t p, ev_fields *f, size_t *end);

/* Learns the shape of the event s[start, end) whose values rec lists. */
void pf_shapes_learn(pf_shapes *sh, const char *s, size_t start, size_t end, const ev_record *rec);

#endif
