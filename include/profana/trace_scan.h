/* trace_scan.h - the loader's event scanner for a caller that holds a trace's whole text (--combine): where an event ends and where the values of the members the loader reads lie. */
/* layer: trace (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_TRACE_SCAN_H
#define PROFANA_TRACE_SCAN_H

#include <stddef.h>

#include "profana/jscan.h"

/* The members of an event that the loader finds. */
typedef enum pf_ev_member {
    PF_EV_PH,
    PF_EV_TS,
    PF_EV_CAT,
    PF_EV_DUR,
    PF_EV_PID,
    PF_EV_TID,
    PF_EV_NAME,
    PF_EV_ARGS,
    PF_EV_ID,                  /* a flow event's ("ph": "s", "f", "t") link */
    PF_EV_MEMBERS
} pf_ev_member;

/* One event as the scanner finds it: the extent [start, end) of each member's value (JSON
 * text, quotes included), [0, 0) when the event has no such member. A repeated key: its last
 * occurrence, as the validating scanner's member iteration (pf_json_obj_next) would see it. */
typedef struct pf_event_extent {
    size_t member[PF_EV_MEMBERS][2];
    size_t end;                /* just past the event's closing '}' */
} pf_event_extent;

/* What a scanner remembers of the events it has read (the few dozen layouts, "shapes", a
 * profiler writes over and over: a later event of a known shape is read by comparing text).
 * One per thread: a scanner is never shared. */
typedef struct pf_event_scanner pf_event_scanner;

/* A new scanner, or NULL when memory runs out. */
pf_event_scanner *pf_event_scanner_new(void);

/* Frees a scanner. NULL is a no-op. */
void pf_event_scanner_free(pf_event_scanner *sc);

/* Reads the event object at s[start] (which must be '{'), depth levels deep in its document
 * (the top-level value is depth 1: an event of a trace object's traceEvents is depth 3, of a
 * bare event array depth 2; the nesting limit counts from there), exactly as the loader reads
 * it. sc may be NULL: every event is then read member by member, with no memory of shapes.
 * Returns 0 with *x filled; or -1 with *e filled (e->pos the byte where the text stops being
 * valid JSON, e->truncated when the text ends inside the event) and *x undefined. */
int pf_event_scan(pf_event_scanner *sc, const char *s, size_t len, size_t start, int depth, pf_event_extent *x,
                  pf_jerr *e);

/* 1 when the quoted cat text s[cat[0], cat[1]) makes a GPU-side event for the loader (kernel,
 * gpu_memcpy, gpu_memset, gpu_user_annotation, and older Kineto's Kernel, Memcpy, Memset): one whose device is its args.device, else its
 * pid. 0 otherwise, an absent cat ([0, 0)) included. */
int pf_event_cat_gpu(const char *s, const size_t cat[2]);

#endif
