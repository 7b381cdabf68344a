/* trace_scan.c - parses a stretch of traceEvents into a chunk: one pass over each event of the usual shape, the validating scanner for any other; and the text window it reads through. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../json/jscan_prim.h"
#include "profana/mem.h"
#include "trace_event.h"
#include "trace_internal.h"

/* ---- the window ---- */

enum { WINDOW_READ = 256 << 10 };

/* The unfilled end of the buffer is poisoned (see PF_ASAN). */
#ifdef PF_ASAN
#include <sanitizer/asan_interface.h>
static void window_guard(const pf_window *w, int on)
{
    if (on)
        ASAN_POISON_MEMORY_REGION(w->buf + w->len, w->cap - w->len);
    else
        ASAN_UNPOISON_MEMORY_REGION(w->buf, w->cap);
}
#else
static void window_guard(const pf_window *w, int on)
{
    (void)w;
    (void)on;
}
#endif

/* A mapped window gives its pages back in steps of this many bytes; growing gzip text in
 * steps of its segments, so that the inflater, which holds only a few, need not wait. */
#define DONE_STEP (INT64_C(4) << 20)

int pf_window_init(pf_window *w, pf_reader *r, int64_t at)
{
    memset(w, 0, sizeof *w);
    w->r = r;
    const char *map;
    if (pf_reader_mapping(r, &map, &w->len)) {
        w->buf = (char *)map; /* read-only: a mapped window is never refilled */
        w->cap = w->len;
        w->eof = w->mapped = 1;
        return 0;
    }
    w->base = at;
    if (pf_reader_growing(r, &w->growing, NULL)) {
        w->buf = (char *)w->growing + at;
        return 0;
    }
    w->cap = WINDOW_READ;
    w->buf = malloc(w->cap);
    if (!w->buf)
        return -1;
    window_guard(w, 1);
    return 0;
}

void pf_window_seek(pf_window *w, int64_t at)
{
    if (w->mapped)
        return;
    w->base = at;
    w->len = 0;
    w->eof = 0;
    if (w->growing) {
        w->buf = (char *)w->growing + at;
        return;
    }
    window_guard(w, 0);
    window_guard(w, 1);
}

/* Room for the next read: an element that fills the whole buffer doubles it, so a huge
 * event is re-scanned a logarithmic number of times, not once per read. */
static int window_room(pf_window *w, size_t keep, pf_error *err)
{
    size_t cap = w->cap;
    if (keep == 0 && w->len == w->cap)
        cap *= 2;
    else if (w->cap - w->len < WINDOW_READ / 4)
        cap = w->len + WINDOW_READ;
    if (cap == w->cap)
        return 0;
    char *nb = realloc(w->buf, cap);
    if (!nb)
        return pf_fail(err, "%s: out of memory (an event of %zu bytes)", pf_reader_name(w->r), w->len);
    w->buf = nb;
    w->cap = cap;
    return 0;
}

static int window_fill(pf_window *w, size_t keep, pf_error *err);

/* Growing text: the window slides over it and takes in whatever is inflated by now. */
static int window_grow(pf_window *w, size_t keep, pf_error *err)
{
    w->base += (int64_t)keep;
    w->buf += keep;
    w->len -= keep;
    if (w->releases)
        pf_reader_release(w->r, w->base);
    if (w->eof)
        return 0;
    long n = pf_reader_wait(w->r, w->base + (int64_t)w->len, err);
    if (n < 0)
        return -1;
    w->eof = n == 0;
    w->len += (size_t)n;
    return 0;
}

int pf_window_more(pf_window *w, size_t keep, pf_error *err)
{
    if (w->mapped)
        return 0;
    if (w->growing)
        return window_grow(w, keep, err);
    window_guard(w, 0);
    int rc = window_fill(w, keep, err);
    window_guard(w, 1);
    return rc;
}

static int window_fill(pf_window *w, size_t keep, pf_error *err)
{
    size_t rest = w->len - keep;
    if (keep) {
        memmove(w->buf, w->buf + keep, rest);
        w->base += (int64_t)keep;
        w->len = rest;
    }
    if (w->eof)
        return 0;
    if (window_room(w, keep, err))
        return -1;
    size_t want = w->len + WINDOW_READ < w->cap ? w->len + WINDOW_READ : w->cap;
    while (w->len < want) {
        long n = pf_reader_read(w->r, w->buf + w->len, want - w->len, w->base + (int64_t)w->len, err);
        if (n < 0)
            return -1;
        if (n == 0) {
            w->eof = 1;
            break;
        }
        w->len += (size_t)n;
    }
    return 0;
}

void pf_window_free(pf_window *w)
{
    if (!w->mapped && !w->growing && w->buf) {
        window_guard(w, 0);
        free(w->buf);
    }
    w->buf = NULL;
}

void pf_window_done(pf_window *w, int64_t from, int64_t upto)
{
    if (w->growing && w->releases)
        pf_reader_release(w->r, upto);
    if (!w->mapped || upto <= from)
        return;
    pf_pages_drop(w->buf + from, w->buf + upto);
    pf_reader_count(w->r, (size_t)(upto - from));
}

/* ---- chunks ---- */

void pf_chunk_init(pf_chunk *c)
{
    memset(c, 0, sizeof *c);
    pf_segvec_init(&c->acts, sizeof(pf_activity));
    pf_segvec_init(&c->cpu, sizeof(pf_cpu_event));
    pf_segvec_init(&c->ops, sizeof(pf_op_rec));
    pf_segvec_init(&c->steps, sizeof(pf_step));
    pf_segvec_init(&c->launches, sizeof(pf_launch_rec));
    pf_segvec_init(&c->cpu_steps, sizeof(pf_step));
    c->start = -1;
}

void pf_chunk_free(pf_chunk *c)
{
    pf_segvec_free(&c->acts);
    pf_segvec_free(&c->cpu);
    pf_segvec_free(&c->ops);
    pf_segvec_free(&c->steps);
    pf_segvec_free(&c->launches);
    pf_segvec_free(&c->cpu_steps);
}

/* ---- the fields of one event ---- */

static int event_key(const char *k, size_t n)
{
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

static int args_key(const char *k, size_t n)
{
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
        return memcmp(k, "kernel_num_gb", 13) == 0 ? A_KGB : memcmp(k, "Input Strides", 13) == 0 ? A_STRIDES : -1;
    case 15:
        return memcmp(k, "Concrete Inputs", 15) == 0 ? A_CONC : -1;
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
        int k = args_key(s + ks, ke - ks);
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
static int fast_event(const char *s, size_t len, size_t p, int depth, ev_fields *f, size_t *end, ev_record *rec)
{
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
        int k = event_key(s + ks, ke - ks);
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
static void slow_fields(const char *s, size_t len, size_t start, ev_fields *f)
{
    pf_jerr e;
    pf_jmember m;
    size_t p = start;
    memset(f, 0, sizeof *f);
    f->slow = 1;
    pf_json_obj_begin(s, len, &p, &e);
    while (pf_json_obj_next(s, len, &p, &m, &e) == 1) {
        int k = event_key(s + m.key_start, m.key_end - m.key_start);
        if (k >= 0)
            set_span(f->ev[k], &m);
    }
    const size_t *a = f->ev[E_ARGS];
    if (a[1] == a[0] || s[a[0]] != '{')
        return;
    p = a[0];
    pf_json_obj_begin(s, len, &p, &e);
    while (pf_json_obj_next(s, len, &p, &m, &e) == 1) {
        int k = args_key(s + m.key_start, m.key_end - m.key_start);
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
    _Static_assert(sizeof x->member == sizeof ((ev_fields *)0)->ev, "pf_event_extent.member is ev_fields.ev");
    assert(start < len && s[start] == '{');
    ev_fields f;
    size_t end = 0;
    int r = sc ? pf_shapes_match(sc->shapes, s, len, start, &f, &end) : FAST_SLOW;
    if (r != FAST_OK) {
        ev_record rec;
        r = fast_event(s, len, start, depth, &f, &end, &rec);
        if (r == FAST_OK && sc)
            pf_shapes_learn(sc->shapes, s, start, end, &rec);
    }
    if (r != FAST_OK) {
        end = start;
        if (pf_json_skip_at(s, len, &end, depth, e))
            return -1;
        slow_fields(s, len, start, &f);
    }
    memcpy(x->member, f.ev, sizeof x->member);
    x->end = end;
    return 0;
}

/* ---- from fields to the model ---- */

/* Fields of a GPU activity's args. */
typedef struct act_args {
    int64_t ext_id, device, stream, correlation, bytes;
    int has_device, has_stream;
    size_t grid[2], block[2], kernel[2]; /* extents of their values; [0, 0) absent */
} act_args;

static int span_is(const char *s, const size_t sp[2], const char *quoted)
{
    size_t n = strlen(quoted);
    return sp[1] - sp[0] == n && memcmp(s + sp[0], quoted, n) == 0;
}

static void read_int_span(const char *s, const size_t sp[2], int64_t *v, int *ok)
{
    int64_t x;
    if (sp[1] && pf_json_int(s, sp[0], sp[1], &x) == 0) {
        *v = x;
        if (ok)
            *ok = 1;
    }
}

/* The validating scanner's reading of args: for a repeated key the last readable one wins. */
static void slow_act_args(const char *s, size_t len, const size_t sp[2], act_args *a)
{
    if (sp[1] == sp[0] || s[sp[0]] != '{')
        return;
    pf_jerr e;
    pf_jmember m;
    size_t p = sp[0];
    pf_json_obj_begin(s, len, &p, &e);
    while (pf_json_obj_next(s, len, &p, &m, &e) == 1) {
        size_t v[2] = {m.val_start, m.val_end};
        switch (args_key(s + m.key_start, m.key_end - m.key_start)) {
        case A_EXT:
            read_int_span(s, v, &a->ext_id, NULL);
            break;
        case A_DEVICE:
            read_int_span(s, v, &a->device, &a->has_device);
            break;
        case A_STREAM:
            read_int_span(s, v, &a->stream, &a->has_stream);
            break;
        case A_CORR:
            read_int_span(s, v, &a->correlation, NULL);
            break;
        case A_BYTES:
            read_int_span(s, v, &a->bytes, NULL);
            break;
        case A_GRID:
            memcpy(a->grid, v, sizeof v);
            break;
        case A_BLOCK:
            memcpy(a->block, v, sizeof v);
            break;
        case A_KERNEL:
            memcpy(a->kernel, v, sizeof v);
            break;
        default:
            break;
        }
    }
}

static void get_act_args(const pf_window *w, const ev_fields *f, act_args *a)
{
    a->ext_id = a->correlation = a->bytes = -1;
    a->device = a->stream = 0;
    a->has_device = a->has_stream = 0;
    memset(a->grid, 0, sizeof a->grid);
    memset(a->block, 0, sizeof a->block);
    memset(a->kernel, 0, sizeof a->kernel);
    if (f->slow) {
        slow_act_args(w->buf, w->len, f->ev[E_ARGS], a);
        return;
    }
    read_int_span(w->buf, f->arg[A_EXT], &a->ext_id, NULL);
    read_int_span(w->buf, f->arg[A_DEVICE], &a->device, &a->has_device);
    read_int_span(w->buf, f->arg[A_STREAM], &a->stream, &a->has_stream);
    read_int_span(w->buf, f->arg[A_CORR], &a->correlation, NULL);
    read_int_span(w->buf, f->arg[A_BYTES], &a->bytes, NULL);
    memcpy(a->grid, f->arg[A_GRID], sizeof a->grid);
    memcpy(a->block, f->arg[A_BLOCK], sizeof a->block);
    memcpy(a->kernel, f->arg[A_KERNEL], sizeof a->kernel);
}

/* A launch geometry: the whole numbers of its grid and of its block ("[32, 2, 1]"), hashed in
 * order, so that spacing does not matter; 0 when either is absent. */
static uint64_t geometry_of(const char *s, const act_args *a)
{
    if (!a->grid[1] || !a->block[1])
        return 0;
    uint64_t h = UINT64_C(1469598103934665603);
    const size_t *parts[2] = {a->grid, a->block};
    for (int k = 0; k < 2; k++) {
        uint64_t v = 0;
        int in = 0;
        for (size_t i = parts[k][0]; i <= parts[k][1]; i++) {
            int digit = i < parts[k][1] && s[i] >= '0' && s[i] <= '9';
            if (digit) {
                v = v * 10 + (uint64_t)(s[i] - '0');
                in = 1;
            } else if (in) {
                h = (h ^ v) * UINT64_C(1099511628211);
                v = 0;
                in = 0;
            }
        }
        h = (h ^ UINT64_C(0xff)) * UINT64_C(1099511628211); /* grid [1,2] block [3] != grid [1] block [2,3] */
    }
    return h ? h : 1;
}

/* An op's External id: the first one in its args (unreadable: the op cannot be linked). */
static int64_t op_ext_id(const pf_window *w, const ev_fields *f)
{
    const char *s = w->buf;
    const size_t *sp = f->ev[E_ARGS];
    int64_t id = -1;
    if (!f->slow) {
        read_int_span(s, f->arg[A_EXT], &id, NULL);
        return id;
    }
    if (sp[1] == sp[0] || s[sp[0]] != '{')
        return -1;
    pf_jerr e;
    pf_jmember m;
    size_t p = sp[0];
    pf_json_obj_begin(s, w->len, &p, &e);
    while (pf_json_obj_next(s, w->len, &p, &m, &e) == 1) {
        if (pf_json_key_is(s, &m, "External id")) {
            size_t v[2] = {m.val_start, m.val_end};
            read_int_span(s, v, &id, NULL);
            break;
        }
    }
    return id;
}

/* Interns a JSON string value, decoding escapes only when there are any. */
static const char *intern_string(pf_scanner *sc, const size_t sp[2], int plain)
{
    const char *s = sc->w->buf;
    if (sp[1] - sp[0] < 2 || s[sp[0]] != '"')
        return NULL;
    if (!plain && !memchr(s + sp[0] + 1, '\\', sp[1] - sp[0] - 2)) {
        plain = 1;
        for (size_t i = sp[0] + 1; i + 1 < sp[1] && plain; i++)
            plain = (unsigned char)s[i] < 0x7F; /* DEL and non-ASCII: pf_json_string's rule */
    }
    if (plain)
        return pf_strcache_intern(sc->strs, s + sp[0] + 1, sp[1] - sp[0] - 2);
    size_t n;
    char *dec = pf_json_string(s, sp[0], sp[1], &n);
    if (!dec)
        return NULL;
    const char *r = pf_strcache_intern(sc->strs, dec, n);
    free(dec);
    return r;
}

/* Times beyond these are not from a profiler (2^50 ns is 13 days): refusing them keeps
 * every sum and every ts + dur far from int64 overflow. */
#define PF_MAX_DUR_NS (INT64_C(1) << 50)
#define PF_MAX_TS_NS (INT64_C(1) << 61)

static int read_times(const char *s, const ev_fields *f, int64_t *ts, int64_t *dur)
{
    const size_t *t = f->ev[E_TS], *d = f->ev[E_DUR];
    if (pf_json_us_to_ns(s, t[0], t[1], ts) || pf_json_us_to_ns(s, d[0], d[1], dur))
        return -1;
    if (*dur < 0 || *dur > PF_MAX_DUR_NS || *ts > PF_MAX_TS_NS || *ts < -PF_MAX_TS_NS)
        return -1;
    return 0;
}

/* The device of a GPU-side event: args.device, else pid (ROCm and annotations). */
static int event_device(const char *s, const ev_fields *f, const act_args *aa, int64_t *dev)
{
    int64_t pid = 0;
    const size_t *sp = f->ev[E_PID];
    *dev = aa->device;
    if (!aa->has_device && sp[1] && pf_json_int(s, sp[0], sp[1], &pid) == 0)
        *dev = pid;
    return *dev < 0 || *dev > 65535 ? -1 : 0;
}

static int out_of_memory(pf_scanner *sc, pf_chunk *c)
{
    return pf_fail(&c->err, "%s: out of memory", sc->path);
}

/* Where the event's args object is, relative to the event's start (see pf_src_args). */
static pf_src_args src_args(const char *s, const ev_fields *f, size_t start)
{
    const size_t *sp = f->ev[E_ARGS];
    pf_src_args a = {0, 0};
    if (sp[1] > sp[0] && s[sp[0]] == '{' && sp[0] - start <= UINT32_MAX && sp[1] - sp[0] <= UINT32_MAX) {
        a.at = (uint32_t)(sp[0] - start);
        a.len = (uint32_t)(sp[1] - sp[0]);
    }
    return a;
}

static int add_activity(pf_scanner *sc, pf_chunk *c, const ev_fields *f, pf_act_kind kind, size_t start)
{
    const char *s = sc->w->buf;
    pf_activity a = {0};
    a.kind = kind;
    a.src_off = sc->w->base + (int64_t)start;
    a.args = src_args(s, f, start);
    if (read_times(s, f, &a.ts_ns, &a.dur_ns) || !f->ev[E_NAME][1] ||
        !(a.name = intern_string(sc, f->ev[E_NAME], f->plain_name))) {
        c->n_bad_events++;
        return 0;
    }
    act_args aa;
    int64_t dev;
    get_act_args(sc->w, f, &aa);
    if (event_device(s, f, &aa, &dev)) {
        c->n_bad_events++;
        return 0;
    }
    a.device = (int)dev;
    a.stream = aa.stream;
    a.ext_id = aa.ext_id;
    a.correlation = aa.correlation;
    a.bytes = aa.bytes;
    a.geometry = geometry_of(s, &aa);
    a.op = -1;
    pf_activity *slot = pf_segvec_push(&c->acts);
    if (!slot)
        return out_of_memory(sc, c);
    *slot = a;
    return 0;
}

static uint64_t hash_span(const char *s, const size_t sp[2], uint64_t h)
{
    for (size_t i = sp[0]; i < sp[1]; i++) {
        h ^= (unsigned char)s[i];
        h *= UINT64_C(1099511628211);
    }
    return h;
}

static int add_cpu_event(pf_scanner *sc, pf_chunk *c, const ev_fields *f, const char *op_name)
{
    const char *s = sc->w->buf;
    pf_cpu_event e = {.name = op_name};
    if (read_times(s, f, &e.ts_ns, &e.dur_ns))
        return 0;
    e.thread = hash_span(s, f->ev[E_TID], hash_span(s, f->ev[E_PID], UINT64_C(1469598103934665603)));
    pf_cpu_event *slot = pf_segvec_push(&c->cpu);
    if (!slot)
        return out_of_memory(sc, c);
    *slot = e;
    return 0;
}

static void put(char *buf, size_t *n, const char *s, size_t len)
{
    memcpy(buf + *n, s, len);
    *n += len;
}

/* The args members the formulas read, as one small JSON object interned as text: ops with
 * equal shapes share one copy and one parse. NULL when there are none. */
static int op_key(pf_scanner *sc, const ev_fields *f, const char **key)
{
    static const char *const names[] = {"\"Input Dims\":", "\"Input type\":", "\"Concrete Inputs\":",
                                        "\"kernel_flop\":", "\"kernel_num_gb\":", "\"Input Strides\":",
                                        "\"kernel_file\":"};
    size_t need = 0;
    for (int k = A_DIMS; k < N_ARG; k++)
        if (f->arg[k][1])
            need += 1 + strlen(names[k - A_DIMS]) + f->arg[k][1] - f->arg[k][0];
    *key = NULL;
    if (need++ == 0)
        return 0;
    if (need > sc->key_cap) {
        char *nb = realloc(sc->key, need);
        if (!nb)
            return -1;
        sc->key = nb;
        sc->key_cap = need;
    }
    size_t n = 0;
    for (int k = A_DIMS; k < N_ARG; k++) {
        const size_t *sp = f->arg[k];
        if (!sp[1])
            continue;
        char sep = n ? ',' : '{';
        put(sc->key, &n, &sep, 1);
        put(sc->key, &n, names[k - A_DIMS], strlen(names[k - A_DIMS]));
        put(sc->key, &n, sc->w->buf + sp[0], sp[1] - sp[0]);
    }
    sc->key[n++] = '}';
    *key = pf_strcache_intern(sc->strs, sc->key, n);
    return *key ? 0 : -1;
}

static int add_cpu_op(pf_scanner *sc, pf_chunk *c, const ev_fields *f, size_t start)
{
    const char *name = f->ev[E_NAME][1] ? intern_string(sc, f->ev[E_NAME], f->plain_name) : NULL;
    if (!name) {
        c->n_bad_events++;
        return 0;
    }
    size_t before = c->cpu.n;
    if (add_cpu_event(sc, c, f, name))
        return -1;
    int64_t id = op_ext_id(sc->w, f);
    if (id < 0)
        return 0; /* cannot be linked: only its CPU time counts */
    /* its interval is the one just kept, if its times could be read */
    uint32_t cpu_at = c->cpu.n == before || c->cpu.n > PF_NO_CPU ? PF_NO_CPU : (uint32_t)(c->cpu.n - 1);
    pf_op_rec rec = {.name = name, .ext_id = id, .src_off = sc->w->base + (int64_t)start,
                     .args = src_args(sc->w->buf, f, start), .cpu_at = cpu_at};
    pf_op_rec *slot;
    if (op_key(sc, f, &rec.key) || !(slot = pf_segvec_push(&c->ops)))
        return out_of_memory(sc, c);
    *slot = rec;
    return 0;
}

static int is_profiler_step(const char *s, const ev_fields *f)
{
    static const char prefix[] = "\"ProfilerStep#";
    size_t n = sizeof prefix - 1;
    const size_t *sp = f->ev[E_NAME];
    return sp[1] - sp[0] > n && memcmp(s + sp[0], prefix, n) == 0;
}

/* N of a ProfilerStep#N name (is_profiler_step said it starts so); -1 when the rest is not a number. */
static int64_t step_number(const char *s, const ev_fields *f)
{
    static const char prefix[] = "\"ProfilerStep#";
    const size_t *sp = f->ev[E_NAME];
    size_t p = sp[0] + sizeof prefix - 1;
    int64_t n = 0;
    for (; p + 1 < sp[1] && s[p] >= '0' && s[p] <= '9' && n < INT64_C(1) << 40; p++)
        n = n * 10 + (s[p] - '0');
    return p + 1 == sp[1] ? n : -1;
}

/* A process: the hash of its pid text (the same text, the same process), never 0. */
static uint64_t process_key(const char *s, const ev_fields *f)
{
    uint64_t h = hash_span(s, f->ev[E_PID], UINT64_C(1469598103934665603));
    return h ? h : 1;
}

static int push_step(pf_scanner *sc, pf_chunk *c, pf_segvec *v, const pf_step *st)
{
    pf_step *slot = pf_segvec_push(v);
    if (!slot)
        return out_of_memory(sc, c);
    *slot = *st;
    return 0;
}

static int add_gpu_step(pf_scanner *sc, pf_chunk *c, const ev_fields *f)
{
    const char *s = sc->w->buf;
    pf_step st = {0};
    act_args aa;
    int64_t dev;
    get_act_args(sc->w, f, &aa);
    st.number = step_number(s, f);
    if (st.number < 0 || read_times(s, f, &st.ts_ns, &st.dur_ns) || event_device(s, f, &aa, &dev)) {
        c->n_bad_events++;
        return 0;
    }
    st.device = (int)dev;
    return push_step(sc, c, &c->steps, &st);
}

/* A CPU-side ProfilerStep#N window: its process, not its thread, decides which launches it holds. */
static int add_cpu_step(pf_scanner *sc, pf_chunk *c, const ev_fields *f)
{
    const char *s = sc->w->buf;
    pf_step st = {.device = -1};
    st.number = step_number(s, f);
    if (st.number < 0 || read_times(s, f, &st.ts_ns, &st.dur_ns)) {
        c->n_bad_events++;
        return 0;
    }
    st.process = process_key(s, f);
    return push_step(sc, c, &c->cpu_steps, &st);
}

static int span_has(const char *s, const size_t sp[2], const char *lit)
{
    size_t n = strlen(lit);
    for (size_t i = sp[0]; i + n <= sp[1]; i++)
        if (memcmp(s + i, lit, n) == 0)
            return 1;
    return 0;
}

/* A graph launch replays kernels that have no op of their own; a capture's begin splits a
 * capture trace into its graphs. CUDA and HIP spell both alike after the prefix. */
static pf_launch_kind launch_kind(const char *s, const ev_fields *f)
{
    const size_t *sp = f->ev[E_NAME];
    if (span_has(s, sp, "GraphLaunch"))
        return PF_LAUNCH_GRAPH;
    return span_has(s, sp, "StreamBeginCapture") ? PF_LAUNCH_BEGIN_CAPTURE : PF_LAUNCH_CALL;
}

/* A runtime or driver call: a host interval, and with a correlation id a possible launch. */
static int add_launch(pf_scanner *sc, pf_chunk *c, const ev_fields *f)
{
    const char *s = sc->w->buf;
    act_args aa;
    pf_launch_rec l = {.ext_id = -1};
    if (add_cpu_event(sc, c, f, NULL))
        return -1;
    get_act_args(sc->w, f, &aa);
    if (aa.correlation < 0 || read_times(s, f, &l.ts_ns, &l.dur_ns))
        return 0;
    l.correlation = aa.correlation;
    l.process = process_key(s, f);
    l.geometry = geometry_of(s, &aa);
    l.kind = launch_kind(s, f);
    if (sc->launch_names) {
        l.ext_id = aa.ext_id;
        if (aa.kernel[1] && !(l.kernel = intern_string(sc, aa.kernel, 0)))
            return out_of_memory(sc, c);
    }
    pf_launch_rec *slot = pf_segvec_push(&c->launches);
    if (!slot)
        return out_of_memory(sc, c);
    *slot = l;
    return 0;
}

/* An event of a category profana does not know that looks like GPU activity (a stream or a
 * device, and a correlation id, as kernels have): counted, so that it is not silently lost. */
static int note_unknown(pf_scanner *sc, pf_chunk *c, const ev_fields *f)
{
    act_args aa;
    get_act_args(sc->w, f, &aa);
    if (aa.correlation < 0 || !(aa.has_stream || aa.has_device))
        return 0;
    if (c->n_unknown_gpu++ == 0 && f->ev[E_CAT][1] && !(c->unknown_cat = intern_string(sc, f->ev[E_CAT], 0)))
        return out_of_memory(sc, c);
    return 0;
}

/* What an event's category makes of it. */
typedef enum cat_kind {
    CAT_OTHER,                 /* not GPU-like, or a kind profana does not read */
    CAT_KERNEL,
    CAT_MEMCPY,
    CAT_MEMSET,
    CAT_CPU_OP,
    CAT_GPU_ANNOTATION,        /* gpu_user_annotation: GPU-side ProfilerStep#N */
    CAT_USER_ANNOTATION,       /* a host interval; ProfilerStep#N ones are the CPU-side steps */
    CAT_RUNTIME,               /* cuda_runtime, cuda_driver: host intervals that launch GPU work */
    CAT_HOST,                  /* overhead, python_function */
    CAT_KNOWN                  /* known and not read, though GPU-like: cuda_sync */
} cat_kind;

static int lit_is(const char *c, size_t n, const char *quoted)
{
    return memcmp(c, quoted, n) == 0;
}

/* The category by its quoted text, told apart by length first. Host-side intervals nest on
 * their thread; the per-op CPU times come from that nesting. Older Kineto (PyTorch 1.8,
 * 1.9) spelt the categories Kernel, Memcpy, Memset, Runtime and Operator. */
static cat_kind category(const char *s, const size_t sp[2])
{
    const char *c = s + sp[0];
    size_t n = sp[1] - sp[0];
    switch (n) {
    case 8:
        return lit_is(c, n, "\"kernel\"")   ? CAT_KERNEL
               : lit_is(c, n, "\"Kernel\"") ? CAT_KERNEL
               : lit_is(c, n, "\"cpu_op\"") ? CAT_CPU_OP
               : lit_is(c, n, "\"Memcpy\"") ? CAT_MEMCPY
               : lit_is(c, n, "\"Memset\"") ? CAT_MEMSET
                                            : CAT_OTHER;
    case 9:
        return lit_is(c, n, "\"Runtime\"") ? CAT_RUNTIME : CAT_OTHER;
    case 10:
        return lit_is(c, n, "\"overhead\"") ? CAT_HOST : lit_is(c, n, "\"Operator\"") ? CAT_CPU_OP : CAT_OTHER;
    case 11:
        return lit_is(c, n, "\"cuda_sync\"") ? CAT_KNOWN : CAT_OTHER;
    case 12:
        return lit_is(c, n, "\"gpu_memcpy\"") ? CAT_MEMCPY : lit_is(c, n, "\"gpu_memset\"") ? CAT_MEMSET : CAT_OTHER;
    case 13:
        return lit_is(c, n, "\"cuda_driver\"") ? CAT_RUNTIME : CAT_OTHER;
    case 14:
        return lit_is(c, n, "\"cuda_runtime\"") ? CAT_RUNTIME : CAT_OTHER;
    case 17:
        return lit_is(c, n, "\"user_annotation\"")   ? CAT_USER_ANNOTATION
               : lit_is(c, n, "\"python_function\"") ? CAT_HOST
                                                    : CAT_OTHER;
    case 21:
        return lit_is(c, n, "\"gpu_user_annotation\"") ? CAT_GPU_ANNOTATION : CAT_OTHER;
    default:
        return CAT_OTHER;
    }
}

int pf_event_cat_gpu(const char *s, const size_t cat[2])
{
    switch (category(s, cat)) {
    case CAT_KERNEL:
    case CAT_MEMCPY:
    case CAT_MEMSET:
    case CAT_GPU_ANNOTATION:
        return 1;
    default:
        return 0;
    }
}

/* Files the event of an object at start by its phase and category. */
static int add_event(pf_scanner *sc, pf_chunk *c, const ev_fields *f, size_t start)
{
    const char *s = sc->w->buf;
    if (f->ev[E_PH][1] && !span_is(s, f->ev[E_PH], "\"X\""))
        return 0;
    switch (category(s, f->ev[E_CAT])) {
    case CAT_KERNEL:
        return add_activity(sc, c, f, PF_ACT_KERNEL, start);
    case CAT_MEMCPY:
        return add_activity(sc, c, f, PF_ACT_MEMCPY, start);
    case CAT_MEMSET:
        return add_activity(sc, c, f, PF_ACT_MEMSET, start);
    case CAT_CPU_OP: /* older Kineto wrote ProfilerStep#N as an Operator */
        if (is_profiler_step(s, f) && add_cpu_step(sc, c, f))
            return -1;
        c->n_steps += (size_t)is_profiler_step(s, f);
        return add_cpu_op(sc, c, f, start);
    case CAT_GPU_ANNOTATION:
        return is_profiler_step(s, f) ? add_gpu_step(sc, c, f) : 0;
    case CAT_USER_ANNOTATION:
        if (is_profiler_step(s, f) && add_cpu_step(sc, c, f))
            return -1;
        c->n_steps += (size_t)is_profiler_step(s, f);
        return add_cpu_event(sc, c, f, NULL);
    case CAT_RUNTIME:
        return add_launch(sc, c, f);
    case CAT_HOST:
        return add_cpu_event(sc, c, f, NULL);
    case CAT_KNOWN:
        return 0;
    default:
        return note_unknown(sc, c, f);
    }
}

/* ---- the element loop ---- */

enum { EL_OK, EL_MORE, EL_CUT, EL_ERROR };

static int syntax_error(pf_scanner *sc, pf_chunk *c, const pf_jerr *e)
{
    pf_fail(&c->err, "%s: byte %lld: %s", sc->path, (long long)(sc->w->base + (int64_t)e->pos), e->what);
    return EL_ERROR;
}

static int truncated(const pf_window *w)
{
    return w->eof ? EL_CUT : EL_MORE;
}

/* The largest element of traceEvents (64 MiB). A profiler's events are at most some KB (a
 * 10 MB kernel name is tested); one larger is not an event but a broken or hostile file, and
 * reading it from a pipe or gzip costs time that grows with the square of its size. */
#define PF_MAX_EVENT_BYTES ((size_t)64 << 20)

static int element_at(pf_scanner *sc, pf_chunk *c, size_t p, size_t *end);

/* One element at p (element_at), refused when larger than PF_MAX_EVENT_BYTES: as soon as as
 * much of it is read, so that no more is. */
static int element(pf_scanner *sc, pf_chunk *c, size_t p, size_t *end)
{
    int r = element_at(sc, c, p, end);
    size_t n = r == EL_OK ? *end - p : r == EL_MORE ? sc->w->len - p : 0;
    if (n > PF_MAX_EVENT_BYTES)
        return syntax_error(sc, c, &(pf_jerr){p, "an event larger than 64 MiB (the limit for one event)", 0});
    return r;
}

/* One element at p: counted, and filed when it is an event. */
static int element_at(pf_scanner *sc, pf_chunk *c, size_t p, size_t *end)
{
    const pf_window *w = sc->w;
    ev_fields f;
    int r = FAST_SLOW;
    if (w->buf[p] == '{' && (r = pf_shapes_match(sc->shapes, w->buf, w->len, p, &f, end)) == FAST_SLOW) {
        ev_record rec;
        r = fast_event(w->buf, w->len, p, sc->depth, &f, end, &rec);
        if (r == FAST_OK)
            pf_shapes_learn(sc->shapes, w->buf, p, *end, &rec);
    }
    if (r == FAST_TRUNC)
        return truncated(w);
    if (r == FAST_SLOW) {
        pf_jerr e;
        size_t q = p;
        if (pf_json_skip_at(w->buf, w->len, &q, sc->depth, &e))
            return e.truncated ? truncated(w) : syntax_error(sc, c, &e);
        if (q >= w->len && !w->eof)
            return EL_MORE; /* a number may go on in the next read */
        *end = q;
        if (w->buf[p] != '{') {
            c->n_events++;
            c->n_bad_events++;
            return EL_OK;
        }
        slow_fields(w->buf, w->len, p, &f);
    }
    c->n_events++;
    return add_event(sc, c, &f, p) ? EL_ERROR : EL_OK;
}

enum { SEP_ELEMENT, SEP_END, SEP_MORE, SEP_CUT, SEP_ERROR };

/* Before an element: ']' ends the array; after an element a ',' must come first. Mirrors
 * the scanner's array iteration, so errors name the same bytes. */
/* The separator before an element: whitespace, ',' (not before the first), whitespace.
 * *comma says the ',' was read already (by a call that then ran out of text); *p moves past
 * what was read, also when more text is needed, so that whitespace is never read twice
 * (a long stretch of it costs linear time, and the window need not keep it). */
static int separator(pf_scanner *sc, pf_chunk *c, size_t *p, int first, int *comma)
{
    const pf_window *w = sc->w;
    const char *s = w->buf;
    size_t q = js_ws(s, w->len, *p);
    *p = q;
    if (q >= w->len)
        return w->eof ? SEP_CUT : SEP_MORE;
    if (s[q] == ']' && !*comma) {
        *p = q + 1;
        return SEP_END;
    }
    if (!first && !*comma) {
        if (s[q] != ',') {
            syntax_error(sc, c, &(pf_jerr){q, "expected ',' or ']'", 0});
            return SEP_ERROR;
        }
        *comma = 1;
        q = js_ws(s, w->len, q + 1);
        *p = q;
        if (q >= w->len)
            return w->eof ? SEP_CUT : SEP_MORE;
    }
    if (s[q] == ']') {
        syntax_error(sc, c, &(pf_jerr){q, "trailing comma", 0});
        return SEP_ERROR;
    }
    return SEP_ELEMENT;
}

static void parse_events(pf_scanner *sc, pf_chunk *c, size_t at, pf_scan_from from, int64_t stop_at, int64_t *done)
{
    pf_window *w = sc->w;
    int first = from == PF_FROM_OPEN, at_element = from == PF_FROM_ELEMENT, comma = 0;
    int64_t step = w->growing ? PF_GROWING_SEGMENT : DONE_STEP;
    for (;;) {
        if (w->base + (int64_t)at - *done >= step) {
            pf_window_done(w, *done, w->base + (int64_t)at);
            *done = w->base + (int64_t)at;
        }
        size_t p = at, end = 0;
        int sep = !at_element ? separator(sc, c, &p, first, &comma) : p < w->len ? SEP_ELEMENT : w->eof ? SEP_CUT : SEP_MORE;
        int el = EL_OK;
        if (sep == SEP_ELEMENT && w->base + (int64_t)p >= stop_at) {
            c->end = PF_END_STOPPED;
            c->next = w->base + (int64_t)p;
            return;
        }
        if (sep == SEP_ELEMENT && (el = element(sc, c, p, &end)) == EL_OK) {
            at = end;
            first = at_element = comma = 0;
            continue;
        }
        if (sep == SEP_END) {
            c->end = PF_END_ARRAY;
            c->next = w->base + (int64_t)p;
            return;
        }
        if (sep == SEP_CUT || el == EL_CUT) {
            c->end = PF_END_CUT;
            c->cut_at = w->base + (int64_t)w->len;
            c->cut_inside = el == EL_CUT;
            return;
        }
        /* Read more and parse this element again, from its separator on (from what the
         * separator did not read yet: whitespace read is not read again). */
        if (sep == SEP_MORE || sep == SEP_ELEMENT)
            at = p; /* an element cut by the window's end is read again from its start */
        if (sep == SEP_ERROR || el == EL_ERROR || pf_window_more(w, at, &c->err)) {
            c->end = PF_END_ERROR;
            return;
        }
        at = 0;
    }
}

void pf_scan_events(pf_scanner *sc, pf_chunk *c, size_t at, pf_scan_from from, int64_t stop_at)
{
    int64_t done = sc->w->base + (int64_t)at;
    parse_events(sc, c, at, from, stop_at, &done);
    int64_t end = c->end == PF_END_CUT ? c->cut_at : c->end == PF_END_ERROR ? done : c->next;
    pf_window_done(sc->w, done, end);
}

/* ---- where a chunk starts ---- */

/* Whether the ',' at q sits between two events: "}" before it, "{" and a key (or "}")
 * after it. -1 when the window ends too soon to tell. */
static int between_events(const pf_window *w, size_t q)
{
    const char *s = w->buf;
    size_t b = q;
    while (b > 0 && js_is_ws(s[b - 1]))
        b--;
    if (b == 0 || s[b - 1] != '}')
        return 0;
    size_t f = js_ws(s, w->len, q + 1);
    if (f >= w->len)
        return w->eof ? 0 : -1;
    if (s[f] != '{')
        return 0;
    size_t k = js_ws(s, w->len, f + 1);
    if (k >= w->len)
        return w->eof ? 0 : -1;
    return s[k] == '"' || s[k] == '}';
}

int pf_scan_find_start(pf_window *w, int64_t from, int64_t limit, int64_t *start, pf_error *err)
{
    enum { BACK = PF_SCAN_BACK };
    /* Start reading a little early: the "}," before an event at from lies before it. */
    int64_t back = from > BACK ? from - BACK : 0;
    pf_window_seek(w, back);
    size_t p = (size_t)(back - w->base);
    *start = -1;
    for (;;) {
        const char *hit = p < w->len ? memchr(w->buf + p, ',', w->len - p) : NULL;
        size_t q = hit ? (size_t)(hit - w->buf) : w->len;
        /* Past the part: a start there is the next part's to find. Looking no further keeps
         * the parts' searches from all running through one long stretch (quadratic time). */
        if (w->base + (int64_t)q >= limit && (hit || !w->eof)) {
            *start = PF_NO_START_HERE;
            return 0;
        }
        int r = hit ? between_events(w, q) : -1;
        int64_t at = r == 1 ? w->base + (int64_t)js_ws(w->buf, w->len, q + 1) : -1;
        if (r == 1 && at >= limit) {
            *start = PF_NO_START_HERE;
            return 0;
        }
        if (r == 1 && at >= from) {
            *start = at;
            return 0;
        }
        if (r == 1)
            r = 0;
        if (r == 0) {
            p = q + 1;
            continue;
        }
        if (w->eof)
            return 0;
        /* Read on, keeping a little text before q to look back into. */
        size_t keep = q > BACK ? q - BACK : 0;
        if (pf_window_more(w, keep, err))
            return -1;
        p = q - keep;
    }
}
