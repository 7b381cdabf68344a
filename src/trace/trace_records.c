/* trace_records.c - turns one event's members into the chunk's records: GPU activities, host intervals, op records, steps and launch calls, by the event's phase and category. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../json/jscan_prim.h"
#include "trace_chunk.h"
#include "trace_event.h"
#include "trace_records.h"
#include "trace_values.h"

/* Interns a JSON string value, decoding escapes only when there are any. */
static const char *intern_string(pf_scanner *sc, const size_t sp[2], int plain)
{
    assert(sc != NULL && sc->strs != NULL);
    assert(sp[0] <= sp[1] && sp[1] <= sc->w->len);
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

static int out_of_memory(pf_scanner *sc, pf_chunk *c)
{
    assert(sc != NULL && c != NULL);
    return pf_fail(&c->err, "%s: out of memory", sc->path);
}

/* Where the event's args object is, relative to the event's start (see pf_src_args). */
static pf_src_args src_args(const char *s, const ev_fields *f, size_t start)
{
    assert(s != NULL && f != NULL);
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
    assert(sc != NULL && c != NULL && f != NULL);
    assert(start < sc->w->len);
    const char *s = sc->w->buf;
    pf_activity a = {0};
    a.kind = kind;
    a.src_off = sc->w->base + (int64_t)start;
    a.args = src_args(s, f, start);
    if (pf_ev_times(s, f, &a.ts_ns, &a.dur_ns) || !f->ev[E_NAME][1] ||
        !(a.name = intern_string(sc, f->ev[E_NAME], f->plain_name))) {
        c->n_bad_events++;
        return 0;
    }
    pf_act_args aa;
    int64_t dev;
    pf_ev_act_args(s, sc->w->len, f, &aa);
    if (pf_ev_device(s, f, &aa, &dev)) {
        c->n_bad_events++;
        return 0;
    }
    a.device = (int)dev;
    a.stream = aa.stream;
    a.correlation = aa.correlation;
    a.has_correlation = (unsigned)aa.has_corr;
    a.has_ext = (unsigned)aa.has_ext;
    a.bytes = aa.bytes;
    a.geometry = pf_ev_geometry(s, &aa);
    a.op = -1;
    pf_activity *slot = pf_segvec_push(&c->acts);
    int64_t *ext = slot ? pf_segvec_push(&c->act_ext) : NULL;
    if (!ext)
        return out_of_memory(sc, c);
    *slot = a;
    *ext = aa.ext_id;
    return 0;
}

/* The event's host interval; -1 when its times cannot be read. */
static int host_span(const pf_scanner *sc, const ev_fields *f, pf_cpu_event *e)
{
    assert(sc != NULL && f != NULL && e != NULL);
    const char *s = sc->w->buf;
    if (pf_ev_times(s, f, &e->ts_ns, &e->dur_ns))
        return -1;
    e->thread = pf_ev_hash_span(s, f->ev[E_TID], pf_ev_hash_span(s, f->ev[E_PID], UINT64_C(1469598103934665603)));
    return 0;
}

/* A host interval. Only per-op CPU times read these: with op_spans_only (the caller will not
 * ask for them) it is only counted. span: the event's, when already read. */
static int add_cpu_event(pf_scanner *sc, pf_chunk *c, const ev_fields *f, const char *op_name, const pf_cpu_event *span)
{
    assert(sc != NULL && c != NULL && f != NULL);
    pf_cpu_event e = {.name = op_name};
    c->n_host++;
    if (sc->op_spans_only)
        return 0;
    if (span)
        e = *span;
    else if (host_span(sc, f, &e))
        return 0;
    pf_cpu_event *slot = pf_segvec_push(&c->cpu);
    if (!slot)
        return out_of_memory(sc, c);
    *slot = e;
    return 0;
}

/* A host-side mark (pf_host_mark): named, on its thread; an event whose name or times cannot
 * be read is left out (the host interval counts it already). */
static int add_mark(pf_scanner *sc, pf_chunk *c, const ev_fields *f, pf_mark_kind kind, const char *name)
{
    assert(sc != NULL && c != NULL && f != NULL);
    pf_cpu_event e;
    if (!name && f->ev[E_NAME][1] && !(name = intern_string(sc, f->ev[E_NAME], f->plain_name)))
        return out_of_memory(sc, c);
    if (!name || host_span(sc, f, &e))
        return 0;
    pf_host_mark *slot = pf_segvec_push(&c->marks);
    if (!slot)
        return out_of_memory(sc, c);
    *slot = (pf_host_mark){name, e.thread, e.ts_ns, e.dur_ns, (int)kind};
    return 0;
}

/* An op with an autograd sequence number: a forward op ("Fwd thread id" 0 or absent), or a
 * backward one (the id of the forward thread, from 1). */
static int add_autograd(pf_scanner *sc, pf_chunk *c, const ev_fields *f, const pf_cpu_event *span)
{
    assert(sc != NULL && c != NULL && f != NULL && span != NULL);
    const char *s = sc->w->buf;
    int64_t seq = pf_ev_op_int(s, sc->w->len, f, A_SEQ, "Sequence number");
    if (seq < 0)
        return 0;
    pf_autograd_op *slot = pf_segvec_push(&c->autograd);
    if (!slot)
        return out_of_memory(sc, c);
    *slot = (pf_autograd_op){span->thread, span->ts_ns, span->dur_ns, seq,
                             pf_ev_op_int(s, sc->w->len, f, A_FWD, "Fwd thread id") > 0};
    return 0;
}

/* The event's name without its quotes (escapes left as written: the rules match plain names). */
static const char *name_text(const pf_scanner *sc, const ev_fields *f, size_t *len)
{
    assert(sc != NULL && f != NULL && len != NULL);
    const size_t *sp = f->ev[E_NAME];
    *len = sp[1] - sp[0] >= 2 ? sp[1] - sp[0] - 2 : 0;
    return sc->w->buf + sp[0] + (sp[1] > sp[0]);
}

static void put(char *buf, size_t *n, const char *s, size_t len)
{
    assert(buf != NULL && s != NULL);
    memcpy(buf + *n, s, len);
    *n += len;
}

/* The args members the formulas read, as one small JSON object interned as text: ops with
 * equal shapes share one copy and one parse. NULL when there are none. */
static int op_key(pf_scanner *sc, const ev_fields *f, const char **key)
{
    assert(sc != NULL && f != NULL && key != NULL);
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
    assert(sc != NULL && c != NULL && f != NULL);
    assert(start < sc->w->len);
    const char *name = f->ev[E_NAME][1] ? intern_string(sc, f->ev[E_NAME], f->plain_name) : NULL;
    if (!name) {
        c->n_bad_events++;
        return 0;
    }
    pf_cpu_event span = {.name = name};
    int timed = host_span(sc, f, &span) == 0;
    if (timed && add_cpu_event(sc, c, f, name, &span))
        return -1;
    c->n_host += !timed; /* add_cpu_event counts the others */
    size_t nlen;
    const char *ntext = name_text(sc, f, &nlen);
    if (timed && pf_mark_is_blocking_op(ntext, nlen) && add_mark(sc, c, f, PF_MARK_BLOCKING_OP, name))
        return -1;
    if (timed && sc->autograd && add_autograd(sc, c, f, &span))
        return -1;
    int64_t id;
    if (!pf_ev_op_ext_id(sc->w->buf, sc->w->len, f, &id))
        return 0; /* cannot be linked: only its CPU time counts */
    pf_op_rec rec = {.name = name, .ext_id = id, .src_off = sc->w->base + (int64_t)start,
                     .args = src_args(sc->w->buf, f, start), .thread = span.thread,
                     .ts_ns = timed ? span.ts_ns : PF_NO_SPAN, .dur_ns = span.dur_ns};
    pf_op_rec *slot;
    if (op_key(sc, f, &rec.key) || !(slot = pf_segvec_push(&c->ops)))
        return out_of_memory(sc, c);
    *slot = rec;
    return 0;
}

static int push_step(pf_scanner *sc, pf_chunk *c, pf_segvec *v, const pf_step *st)
{
    assert(sc != NULL && c != NULL && v != NULL && st != NULL);
    assert(v->elem == sizeof *st);
    pf_step *slot = pf_segvec_push(v);
    if (!slot)
        return out_of_memory(sc, c);
    *slot = *st;
    return 0;
}

static int add_gpu_step(pf_scanner *sc, pf_chunk *c, const ev_fields *f)
{
    assert(sc != NULL && c != NULL && f != NULL);
    const char *s = sc->w->buf;
    pf_step st = {0};
    pf_act_args aa;
    int64_t dev;
    pf_ev_act_args(s, sc->w->len, f, &aa);
    st.number = pf_ev_step_number(s, f);
    if (st.number < 0 || pf_ev_times(s, f, &st.ts_ns, &st.dur_ns) || pf_ev_device(s, f, &aa, &dev)) {
        c->n_bad_events++;
        return 0;
    }
    st.device = (int)dev;
    return push_step(sc, c, &c->steps, &st);
}

/* A CPU-side ProfilerStep#N window: its process, not its thread, decides which launches it holds. */
static int add_cpu_step(pf_scanner *sc, pf_chunk *c, const ev_fields *f)
{
    assert(sc != NULL && c != NULL && f != NULL);
    const char *s = sc->w->buf;
    pf_step st = {.device = -1};
    st.number = pf_ev_step_number(s, f);
    if (st.number < 0 || pf_ev_times(s, f, &st.ts_ns, &st.dur_ns)) {
        c->n_bad_events++;
        return 0;
    }
    st.process = pf_ev_process(s, f);
    return push_step(sc, c, &c->cpu_steps, &st);
}

/* A runtime or driver call: a host interval, and with a correlation id a possible launch. */
static int add_launch(pf_scanner *sc, pf_chunk *c, const ev_fields *f)
{
    assert(sc != NULL && c != NULL && f != NULL);
    const char *s = sc->w->buf;
    pf_act_args aa;
    pf_launch_rec l = {0};
    pf_launch_name nm = {.ext_id = -1};
    if (add_cpu_event(sc, c, f, NULL, NULL))
        return -1;
    size_t nlen;
    const char *ntext = name_text(sc, f, &nlen);
    if (pf_mark_is_sync(ntext, nlen) && add_mark(sc, c, f, PF_MARK_SYNC, NULL))
        return -1;
    pf_ev_act_args(s, sc->w->len, f, &aa);
    if (!aa.has_corr || pf_ev_times(s, f, &l.ts_ns, &l.dur_ns))
        return 0;
    l.correlation = aa.correlation;
    l.process = pf_ev_process(s, f);
    l.thread = pf_ev_hash_span(s, f->ev[E_TID], pf_ev_hash_span(s, f->ev[E_PID], UINT64_C(1469598103934665603)));
    l.geometry = pf_ev_geometry(s, &aa);
    l.kind = pf_ev_launch_kind(s, f);
    if (sc->launch_names) {
        nm.ext_id = aa.ext_id;
        nm.has_ext = aa.has_ext;
        if (aa.kernel[1] && !(nm.kernel = intern_string(sc, aa.kernel, 0)))
            return out_of_memory(sc, c);
    }
    pf_launch_rec *slot = pf_segvec_push(&c->launches);
    pf_launch_name *name = slot && sc->launch_names ? pf_segvec_push(&c->launch_names) : NULL;
    if (!slot || (sc->launch_names && !name))
        return out_of_memory(sc, c);
    *slot = l;
    if (name)
        *name = nm;
    return 0;
}

/* An event of a category profana does not know that looks like GPU activity (a stream or a
 * device, and a correlation id, as kernels have): counted, so that it is not silently lost. */
static int note_unknown(pf_scanner *sc, pf_chunk *c, const ev_fields *f)
{
    assert(sc != NULL && c != NULL && f != NULL);
    pf_act_args aa;
    pf_ev_act_args(sc->w->buf, sc->w->len, f, &aa);
    if (!aa.has_corr || !(aa.has_stream || aa.has_device))
        return 0;
    if (c->n_unknown_gpu++ == 0 && f->ev[E_CAT][1] && !(c->unknown_cat = intern_string(sc, f->ev[E_CAT], 0)))
        return out_of_memory(sc, c);
    return 0;
}

/* Files the event of an object at start by its phase and category. */
int pf_scan_add_event(pf_scanner *sc, pf_chunk *c, const ev_fields *f, size_t start)
{
    assert(sc != NULL && sc->w != NULL && c != NULL && f != NULL);
    assert(start < sc->w->len && sc->w->buf[start] == '{');
    const char *s = sc->w->buf;
    if (f->ev[E_PH][1] && !pf_ev_span_is(s, f->ev[E_PH], "\"X\""))
        return 0;
    switch (pf_ev_category(s, f->ev[E_CAT])) {
    case CAT_KERNEL:
        return add_activity(sc, c, f, PF_ACT_KERNEL, start);
    case CAT_MEMCPY:
        return add_activity(sc, c, f, PF_ACT_MEMCPY, start);
    case CAT_MEMSET:
        return add_activity(sc, c, f, PF_ACT_MEMSET, start);
    case CAT_CPU_OP: /* older Kineto wrote ProfilerStep#N as an Operator */
        if (pf_ev_is_step(s, f) && add_cpu_step(sc, c, f))
            return -1;
        c->n_steps += (size_t)pf_ev_is_step(s, f);
        return add_cpu_op(sc, c, f, start);
    case CAT_GPU_ANNOTATION:
        return pf_ev_is_step(s, f) ? add_gpu_step(sc, c, f) : 0;
    case CAT_USER_ANNOTATION:
        if (pf_ev_is_step(s, f) && add_cpu_step(sc, c, f))
            return -1;
        c->n_steps += (size_t)pf_ev_is_step(s, f);
        if (!pf_ev_is_step(s, f) && add_mark(sc, c, f, PF_MARK_ANNOTATION, NULL))
            return -1;
        return add_cpu_event(sc, c, f, NULL, NULL);
    case CAT_RUNTIME:
        return add_launch(sc, c, f);
    case CAT_HOST:
        if (pf_ev_span_is(s, f->ev[E_CAT], "\"python_function\"") && add_mark(sc, c, f, PF_MARK_PYTHON, NULL))
            return -1;
        return add_cpu_event(sc, c, f, NULL, NULL);
    case CAT_KNOWN:
        return 0;
    default:
        return note_unknown(sc, c, f);
    }
}
