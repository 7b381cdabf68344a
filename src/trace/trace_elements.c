/* trace_elements.c - the element loop over a stretch of traceEvents (separators, limits, refills of the window, each event handed to the records) and where a thread's stretch starts. */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "../json/jscan_prim.h"
#include "trace_chunk.h"
#include "trace_event.h"
#include "trace_records.h"

_Static_assert(sizeof(pf_activity) == 112, "pf_activity's bit-fields share their words");
_Static_assert(PF_ACT_MEMSET < 4, "pf_activity.kind holds every pf_act_kind in 2 bits");

void pf_chunk_init(pf_chunk *c)
{
    assert(c != NULL);
    memset(c, 0, sizeof *c);
    pf_segvec_init(&c->acts, sizeof(pf_activity));
    pf_segvec_init(&c->cpu, sizeof(pf_cpu_event));
    pf_segvec_init(&c->marks, sizeof(pf_host_mark));
    pf_segvec_init(&c->autograd, sizeof(pf_autograd_op));
    pf_segvec_init(&c->ops, sizeof(pf_op_rec));
    pf_segvec_init(&c->steps, sizeof(pf_step));
    pf_segvec_init(&c->launches, sizeof(pf_launch_rec));
    pf_segvec_init(&c->cpu_steps, sizeof(pf_step));
    pf_segvec_init(&c->act_ext, sizeof(int64_t));
    pf_segvec_init(&c->launch_names, sizeof(pf_launch_name));
    c->start = -1;
}

void pf_chunk_free(pf_chunk *c)
{
    assert(c != NULL);
    pf_segvec_free(&c->acts);
    pf_segvec_free(&c->cpu);
    pf_segvec_free(&c->marks);
    pf_segvec_free(&c->autograd);
    pf_segvec_free(&c->ops);
    pf_segvec_free(&c->steps);
    pf_segvec_free(&c->launches);
    pf_segvec_free(&c->cpu_steps);
    pf_segvec_free(&c->act_ext);
    pf_segvec_free(&c->launch_names);
}

/* ---- the element loop ---- */

enum { EL_OK, EL_MORE, EL_CUT, EL_ERROR };

static int syntax_error(pf_scanner *sc, pf_chunk *c, const pf_jerr *e)
{
    assert(sc != NULL && c != NULL && e != NULL && e->what != NULL);
    pf_fail(&c->err, "%s: byte %lld: %s", sc->path, (long long)(sc->w->base + (int64_t)e->pos), e->what);
    return EL_ERROR;
}

static int truncated(const pf_window *w)
{
    assert(w != NULL);
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
    assert(sc != NULL && c != NULL && end != NULL);
    assert(p < sc->w->len);
    int r = element_at(sc, c, p, end);
    size_t n = r == EL_OK ? *end - p : r == EL_MORE ? sc->w->len - p : 0;
    if (n > PF_MAX_EVENT_BYTES)
        return syntax_error(sc, c, &(pf_jerr){p, "an event larger than 64 MiB (the limit for one event)", 0});
    return r;
}

/* One element at p: counted, and filed when it is an event. */
static int element_at(pf_scanner *sc, pf_chunk *c, size_t p, size_t *end)
{
    assert(sc != NULL && c != NULL && end != NULL);
    assert(p < sc->w->len);
    const pf_window *w = sc->w;
    ev_fields f;
    int r = FAST_SLOW;
    if (w->buf[p] == '{' && (r = pf_shapes_match(sc->shapes, w->buf, w->len, p, &f, end)) == FAST_SLOW) {
        ev_record rec;
        r = pf_ev_fast(w->buf, w->len, p, sc->depth, &f, end, &rec);
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
        pf_ev_slow(w->buf, w->len, p, &f);
    }
    c->n_events++;
    return pf_scan_add_event(sc, c, &f, p) ? EL_ERROR : EL_OK;
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
    assert(sc != NULL && c != NULL && p != NULL && comma != NULL);
    assert(*p <= sc->w->len);
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
    assert(at <= sc->w->len);
    assert(from == PF_FROM_OPEN || from == PF_FROM_ELEMENT);
    assert(done != NULL);
    pf_window *w = sc->w;
    int first = from == PF_FROM_OPEN, at_element = from == PF_FROM_ELEMENT, comma = 0;
    int64_t step = w->growing ? PF_GROWING_SEGMENT : w->done_step;
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
    assert(sc != NULL && sc->w != NULL && sc->strs != NULL && sc->shapes != NULL && c != NULL);
    assert(at <= sc->w->len);
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
    assert(w != NULL);
    assert(q < w->len && w->buf[q] == ',');
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
    assert(w != NULL && start != NULL && err != NULL);
    assert(from >= 0);
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
