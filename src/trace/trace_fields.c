/* trace_fields.c - finds the members of one event that the model reads: one pass over an event of the usual spelling, the validating scanner's member iteration for any other; and what its category makes of it. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../json/jscan_prim.h"
#include "trace_event.h"

int pf_ev_event_key(const char *k, size_t n)
{
    assert(k != NULL || n == 0);
    switch (n) {
    case 2:
        return k[0] == 'p' && k[1] == 'h'   ? E_PH
               : k[0] == 't' && k[1] == 's' ? E_TS
               : k[0] == 'i' && k[1] == 'd' ? E_ID
                                            : -1;
    case 3:
        return memcmp(k, "cat", 3) == 0 ? E_CAT
               : memcmp(k, "dur", 3) == 0 ? E_DUR
               : memcmp(k, "pid", 3) == 0 ? E_PID
               : memcmp(k, "tid", 3) == 0 ? E_TID
                                           : -1;
    case 4:
        return memcmp(k, "name", 4) == 0 ? E_NAME : memcmp(k, "args", 4) == 0 ? E_ARGS : -1;
    default:
        return -1;
    }
}

int pf_ev_args_key(const char *k, size_t n)
{
    assert(k != NULL || n == 0);
    switch (n) {
    case 4:
        return memcmp(k, "grid", 4) == 0 ? A_GRID : -1;
    case 5:
        return memcmp(k, "bytes", 5) == 0 ? A_BYTES : memcmp(k, "block", 5) == 0 ? A_BLOCK : -1;
    case 6:
        return memcmp(k, "device", 6) == 0   ? A_DEVICE
               : memcmp(k, "stream", 6) == 0 ? A_STREAM
               : memcmp(k, "kernel", 6) == 0 ? A_KERNEL
                                             : -1;
    case 10:
        return memcmp(k, "Input Dims", 10) == 0 ? A_DIMS : memcmp(k, "Input type", 10) == 0 ? A_TYPES : -1;
    case 11:
        return memcmp(k, "External id", 11) == 0 || memcmp(k, "external id", 11) == 0 ? A_EXT /* older Kineto */
               : memcmp(k, "correlation", 11) == 0 ? A_CORR
               : memcmp(k, "kernel_flop", 11) == 0 ? A_KFLOP
               : memcmp(k, "kernel_file", 11) == 0 ? A_KFILE
                                                   : -1;
    case 13:
        return memcmp(k, "kernel_num_gb", 13) == 0   ? A_KGB
               : memcmp(k, "Input Strides", 13) == 0 ? A_STRIDES
               : memcmp(k, "Fwd thread id", 13) == 0 ? A_FWD
                                                     : -1;
    case 15:
        return memcmp(k, "Concrete Inputs", 15) == 0 ? A_CONC : memcmp(k, "Sequence number", 15) == 0 ? A_SEQ : -1;
    default:
        return -1;
    }
}

/* A key at *p ('"') and its ':'; leaves *p at the value. Escaped keys go the slow way. */
static int fast_key(const char *s, size_t len, size_t *p, size_t *ks, size_t *ke)
{
    if (s[*p] != '"')
        return FAST_SLOW;
    int ascii = 1;
    size_t q = js_plain_run(s, len, *p + 1, &ascii);
    if (q >= len)
        return FAST_TRUNC;
    if (s[q] != '"')
        return FAST_SLOW;
    *ks = *p + 1;
    *ke = q;
    if (q + 3 < len && s[q + 1] == ':' && s[q + 2] == ' ' && !js_is_ws(s[q + 3])) {
        *p = q + 3; /* "key": value, the usual spacing */
        return FAST_OK;
    }
    q = js_ws(s, len, q + 1);
    if (q >= len)
        return FAST_TRUNC;
    if (s[q] != ':')
        return FAST_SLOW;
    q = js_ws(s, len, q + 1);
    if (q >= len)
        return FAST_TRUNC;
    *p = q;
    return FAST_OK;
}

static int fast_skip(const char *s, size_t len, size_t *p, int depth)
{
    pf_jerr e;
    char c = s[*p];
    int r = c == '"' ? js_skip_string(s, len, p, &e)
            : c == '-' || (c >= '0' && c <= '9') ? js_skip_number(s, len, p, &e)
                                                 : js_skip_value(s, len, p, depth, &e);
    if (r == 0)
        return FAST_OK;
    return e.truncated ? FAST_TRUNC : FAST_SLOW;
}

/* After a member's value: ',' and the next key, or the closing '}'. */
static int fast_next(const char *s, size_t len, size_t *p, int *closed)
{
    *closed = 0;
    if (js_comma_space(s, len, p))
        return FAST_OK;
    size_t q = js_ws(s, len, *p);
    if (q >= len)
        return FAST_TRUNC;
    *closed = s[q] == '}';
    if (*closed) {
        *p = q + 1;
        return FAST_OK;
    }
    if (s[q] != ',')
        return FAST_SLOW;
    q = js_ws(s, len, q + 1);
    if (q >= len)
        return FAST_TRUNC;
    *p = q;
    return FAST_OK;
}

/* An opening '{' at *p: 1 when the object is empty (*p past it), 0 at its first key. */
static int fast_open(const char *s, size_t len, size_t *p)
{
    size_t q = js_ws(s, len, *p + 1);
    if (q >= len)
        return -1;
    *p = s[q] == '}' ? q + 1 : q;
    return s[q] == '}';
}

/* Notes a member value for learning the event's shape. */
static void record(ev_record *rec, size_t vs, size_t ve, int field, int depth)
{
    if (rec->n < 0 || rec->n == REC_MAX || depth > 255) {
        rec->n = -1;
        return;
    }
    rec->vs[rec->n] = vs;
    rec->ve[rec->n] = ve;
    rec->field[rec->n] = (int8_t)field;
    rec->depth[rec->n++] = (uint8_t)depth;
}

/* The args object at *p: the extents of the members the model reads; their values are
 * depth deep. */
static int fast_args(const char *s, size_t len, size_t *p, int depth, ev_fields *f, ev_record *rec)
{
    unsigned seen = 0;
    int r = fast_open(s, len, p), closed = 0;
    if (r)
        return r < 0 ? FAST_TRUNC : FAST_OK;
    while (!closed) {
        size_t ks, ke;
        if ((r = fast_key(s, len, p, &ks, &ke)) != FAST_OK)
            return r;
        int k = pf_ev_args_key(s + ks, ke - ks);
        size_t vs = *p;
        if ((r = fast_skip(s, len, p, depth)) != FAST_OK)
            return r;
        if (k >= 0) {
            if (seen & (1u << k))
                return FAST_SLOW; /* a repeated key: the slow path knows which one counts */
            seen |= 1u << k;
            f->arg[k][0] = vs;
            f->arg[k][1] = *p;
        }
        record(rec, vs, *p, k >= 0 ? ARG_FIELD(k) : -1, depth);
        if ((r = fast_next(s, len, p, &closed)) != FAST_OK)
            return r;
    }
    return FAST_OK;
}

/* One member's value: args are read member by member, a plain name is noted as such. */
static int fast_value(const char *s, size_t len, size_t *p, int k, int depth, ev_fields *f, ev_record *rec)
{
    if (k == E_ARGS && s[*p] == '{')
        return fast_args(s, len, p, depth + 1, f, rec);
    if (k == E_NAME && s[*p] == '"') {
        int r = ev_plain_name(s, len, p, f);
        if (r != FAST_SLOW)
            return r;
    }
    return fast_skip(s, len, p, depth);
}

/* An event at p ('{', depth deep) in one pass: FAST_OK with *end past it, FAST_TRUNC when the
 * window ends inside it, FAST_SLOW for anything unusual (the validating scanner then decides). */
int pf_ev_fast(const char *s, size_t len, size_t p, int depth, ev_fields *f, size_t *end, ev_record *rec)
{
    assert(s != NULL && f != NULL && end != NULL && rec != NULL);
    assert(p < len && s[p] == '{');
    memset(f, 0, sizeof *f);
    rec->n = 0;
    rec->args_open = rec->args_close = 0;
    unsigned seen = 0;
    int r = fast_open(s, len, &p), closed = 0;
    if (r) {
        *end = p;
        return r < 0 ? FAST_TRUNC : FAST_OK;
    }
    while (!closed) {
        size_t ks, ke;
        if ((r = fast_key(s, len, &p, &ks, &ke)) != FAST_OK)
            return r;
        int k = pf_ev_event_key(s + ks, ke - ks);
        size_t vs = p;
        int args_object = k == E_ARGS && s[p] == '{';
        if ((r = fast_value(s, len, &p, k, depth + 1, f, rec)) != FAST_OK)
            return r;
        if (k >= 0) {
            if (seen & (1u << k))
                return FAST_SLOW;
            seen |= 1u << k;
            f->ev[k][0] = vs;
            f->ev[k][1] = p;
        }
        if (!args_object) { /* args' members were recorded in its place */
            record(rec, vs, p, k, depth + 1);
        } else {
            rec->args_open = vs;
            rec->args_close = p - 1;
        }
        if ((r = fast_next(s, len, &p, &closed)) != FAST_OK)
            return r;
    }
    *end = p;
    return FAST_OK;
}

/* ---- the slow path: the validating scanner's member iteration ---- */

static void set_span(size_t sp[2], const pf_jmember *m)
{
    sp[0] = m->val_start;
    sp[1] = m->val_end;
}

/* The event's members (the last of a repeated key wins) and the first occurrence of each
 * args member the op signature reads. The event was validated, so iteration cannot fail. */
void pf_ev_slow(const char *s, size_t len, size_t start, ev_fields *f)
{
    assert(s != NULL && f != NULL);
    assert(start < len && s[start] == '{');
    pf_jerr e;
    pf_jmember m;
    size_t p = start;
    memset(f, 0, sizeof *f);
    f->slow = 1;
    pf_json_obj_begin(s, len, &p, &e);
    while (pf_json_obj_next(s, len, &p, &m, &e) == 1) {
        int k = pf_ev_event_key(s + m.key_start, m.key_end - m.key_start);
        if (k >= 0)
            set_span(f->ev[k], &m);
    }
    const size_t *a = f->ev[E_ARGS];
    if (a[1] == a[0] || s[a[0]] != '{')
        return;
    p = a[0];
    pf_json_obj_begin(s, len, &p, &e);
    while (pf_json_obj_next(s, len, &p, &m, &e) == 1) {
        int k = pf_ev_args_key(s + m.key_start, m.key_end - m.key_start);
        if (k >= A_DIMS && !f->arg[k][1])
            set_span(f->arg[k], &m);
    }
}

/* ---- one event for a caller holding the whole text (trace_scan.h) ---- */

struct pf_event_scanner {
    pf_shapes *shapes;
};

pf_event_scanner *pf_event_scanner_new(void)
{
    pf_event_scanner *sc = calloc(1, sizeof *sc);
    if (sc && !(sc->shapes = pf_shapes_new())) {
        free(sc);
        return NULL;
    }
    return sc;
}

void pf_event_scanner_free(pf_event_scanner *sc)
{
    if (!sc)
        return;
    pf_shapes_free(sc->shapes);
    free(sc);
}

/* The loader's element step (see element()) over a text that is all there: a known shape,
 * else the one-pass parser, else the validating scanner, which also says what is wrong. */
int pf_event_scan(pf_event_scanner *sc, const char *s, size_t len, size_t start, int depth, pf_event_extent *x,
                  pf_jerr *e)
{
    assert(x != NULL && e != NULL);
    _Static_assert(sizeof x->member == sizeof ((ev_fields *)0)->ev, "pf_event_extent.member is ev_fields.ev");
    assert(start < len && s[start] == '{');
    ev_fields f;
    size_t end = 0;
    int r = sc ? pf_shapes_match(sc->shapes, s, len, start, &f, &end) : FAST_SLOW;
    if (r != FAST_OK) {
        ev_record rec;
        r = pf_ev_fast(s, len, start, depth, &f, &end, &rec);
        if (r == FAST_OK && sc)
            pf_shapes_learn(sc->shapes, s, start, end, &rec);
    }
    if (r != FAST_OK) {
        end = start;
        if (pf_json_skip_at(s, len, &end, depth, e))
            return -1;
        pf_ev_slow(s, len, start, &f);
    }
    memcpy(x->member, f.ev, sizeof x->member);
    x->end = end;
    return 0;
}
