/* combine_internal.h - the combine engine's parts shared by its files: the inputs as read and surveyed, the plan that moves their ids, the small readers both passes use (not a public interface). */
#ifndef PROFANA_COMBINE_INTERNAL_H
#define PROFANA_COMBINE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "profana/error.h"
#include "profana/jscan.h"
#include "profana/mem.h"
#include "profana/outfile.h"
#include "profana/trace_scan.h"

/* The loader's limit on device ids. */
#define CB_MAX_DEVICE 65535

/* A string pid: its JSON text (quotes included) and what it becomes. */
typedef struct cb_str_pid {
    const char *text;
    size_t len;
    char *to;                  /* new JSON text; NULL = unchanged */
} cb_str_pid;

typedef struct cb_int_pid {
    int64_t from, to;
} cb_int_pid;

/* What a run of events uses: pids, devices, linking ids (runs surveyed in parallel, then
 * merged in order), and the first error met. */
typedef struct cb_usage {
    cb_int_pid *pids;          /* distinct integer pids, sorted by from once surveyed */
    size_t n_pids, cap_pids;
    cb_str_pid *spids;         /* distinct string pids, by length then text once surveyed */
    size_t n_spids, cap_spids;
    int64_t max_dev;           /* -1 when no device */
    int64_t min_id, max_id;    /* External id, correlation, flow and Python ids */
    int has_ids;
    int failed;                /* e says why */
    pf_jerr e;
} cb_usage;

typedef struct cb_input {
    const char *path;
    char *s;
    size_t len;
    int mapped, is_object;
    int ev_depth;              /* nesting depth of the events (3 in an object, 2 in a bare array) */
    size_t top;                /* the top-level '{' or '[' */
    size_t events;             /* the traceEvents '[' */
    size_t first_ev, end_ev;   /* from the first event to the end of the last; both just past
                                  '[' when there are none */
    size_t n_events;
    size_t *starts;            /* each event's first byte */
    size_t props[2];           /* deviceProperties value; props[1] == 0 when absent */
    int64_t rank, base_ns;
    int has_rank, has_base;
    cb_usage u;                /* what its events use */
    /* the plan */
    int64_t gpu_slots, dev_shift, id_shift, ts_shift_ns;
    char source[96];           /* profana_source value */
} cb_input;

/* One run of the engine. */
typedef struct cb_run {
    cb_input *in;
    int n;
    int jobs;                  /* threads (-j); 0 = one per core */
    const pf_outfile *of;      /* OUT, while writing */
    pf_error *err;
} cb_run;

/* The merged deviceProperties. */
typedef struct cb_props {
    char *text;                /* the entries appended to the first input's, each ", {...}" */
    size_t len, cap;
    struct {
        int64_t id;
        const char *name;
        size_t name_len;
    } *seen;
    size_t n_seen, cap_seen, n_entries;
} cb_props;

/* ---- combine_read.c: pass 1 ---- */

/* Reads input in->path whole, validates it, finds its top-level members and its events, and
 * surveys what they use (on `jobs` threads). Returns 0 or -1 with err set. */
int pf_cb_read_input(cb_input *in, int jobs, pf_error *err);

/* Frees what pf_cb_read_input and the plan gave in. */
void pf_cb_free_input(cb_input *in);

/* The entry of in->u.pids for pid v, or NULL. */
const cb_int_pid *pf_cb_find_pid(const cb_usage *u, int64_t v);

/* Sets err from a scanner error in input in: "PATH: byte N: what". Returns -1. */
int pf_cb_scan_error(const cb_input *in, const pf_jerr *e, pf_error *err);

/* ---- combine_plan.c ---- */

/* Plans how each input's pids, devices, ids and times move, and its profana_source tag.
 * Returns 0 or -1 with c->err set. */
int pf_cb_plan(cb_run *c);

/* ---- combine_write.c: pass 2 ---- */

/* Collects the later inputs' deviceProperties entries with their ids moved, leaving out
 * repeats. Returns 0 or -1 (out of memory). */
int pf_cb_merge_props(const cb_run *c, cb_props *pr);

/* Writes the combined trace to c->of. Returns 0 or -1 with c->err set. */
int pf_cb_write(const cb_run *c, const cb_props *pr);

/* ---- small readers shared by both passes ---- */

static inline int cb_grow(void **p, size_t *cap, size_t need, size_t elem)
{
    return pf_grow(p, cap, need, elem, 16);
}

/* *r = a + b; -1 when that overflows int64 (a crafted trace must not make it undefined). */
static inline int cb_add_ok(int64_t a, int64_t b, int64_t *r)
{
    return __builtin_add_overflow(a, b, r) ? -1 : 0;
}

/* A JSON integer, quoted ones ("7") too: some producers write ids as strings. */
static inline int cb_read_int(const char *s, const size_t sp[2], int64_t *v)
{
    return sp[1] > sp[0] && pf_json_int(s, sp[0], sp[1], v) == 0 ? 0 : -1;
}

static inline int cb_span_is(const char *s, const size_t sp[2], const char *quoted)
{
    size_t n = strlen(quoted);
    return sp[1] - sp[0] == n && memcmp(s + sp[0], quoted, n) == 0;
}

/* Flow events ("ph": "s", "f", "t") tie their ends together by "id". */
static inline int cb_is_flow(const char *s, const pf_event_extent *x)
{
    const size_t *ph = x->member[PF_EV_PH];
    return cb_span_is(s, ph, "\"s\"") || cb_span_is(s, ph, "\"f\"") || cb_span_is(s, ph, "\"t\"");
}

/* A key compared by length first: every args member of every event goes through here. */
#define CB_KEY_IS(s, m, lit) \
    ((m)->key_end - (m)->key_start == sizeof(lit) - 1 && memcmp((s) + (m)->key_start, lit, sizeof(lit) - 1) == 0)

enum cb_arg_kind { CB_ARG_OTHER, CB_ARG_DEVICE, CB_ARG_ID, CB_ARG_SOURCE };

/* Args that name a device or an id linking events (kernel to op, launch to kernel, Python
 * caller to callee), and profana's own tag. */
static inline enum cb_arg_kind cb_arg_kind(const char *s, const pf_jmember *m)
{
    if (CB_KEY_IS(s, m, "device"))
        return CB_ARG_DEVICE;
    if (CB_KEY_IS(s, m, "profana_source"))
        return CB_ARG_SOURCE;
    if (CB_KEY_IS(s, m, "External id") || CB_KEY_IS(s, m, "correlation") || CB_KEY_IS(s, m, "Python id") ||
        CB_KEY_IS(s, m, "Python parent id"))
        return CB_ARG_ID;
    return CB_ARG_OTHER;
}

static inline int cb_str_pid_eq(const cb_str_pid *a, const char *text, size_t n)
{
    return a->len == n && memcmp(a->text, text, n) == 0;
}

#endif
