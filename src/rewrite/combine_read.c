/* combine_read.c - the combine engine's first pass: an input read whole and validated, its top-level members and events found, and what its events use (pids, devices, linking ids) surveyed on every core. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "combine_internal.h"
#include "profana/parallel.h"
#include "profana/trace.h"

int pf_cb_scan_error(const cb_input *in, const pf_jerr *e, pf_error *err)
{
    if (e->truncated)
        return pf_fail(err, "%s: byte %zu: trace is cut off (unexpected end of input)", in->path, e->pos);
    return pf_fail(err, "%s: byte %zu: %s", in->path, e->pos, e->what);
}

/* ---- the top level ---- */

static void read_rank(cb_input *in, size_t obj)
{
    const char *s = in->s;
    size_t p = obj;
    pf_jmember d;
    pf_jerr e;
    pf_json_obj_begin(s, in->len, &p, &e);
    while (pf_json_obj_next(s, in->len, &p, &d, &e) == 1)
        if (pf_json_key_is(s, &d, "rank"))
            in->has_rank = cb_read_int(s, (size_t[2]){d.val_start, d.val_end}, &in->rank) == 0;
}

static int read_top_member(cb_input *in, const pf_jmember *m, pf_error *err)
{
    const char *s = in->s;
    size_t sp[2] = {m->val_start, m->val_end};
    if (pf_json_key_is(s, m, "traceEvents")) {
        if (in->events)
            return pf_fail(err, "%s: byte %zu: traceEvents appears twice", in->path, m->key_start);
        if (s[m->val_start] != '[')
            return pf_fail(err, "%s: byte %zu: traceEvents is not an array", in->path, m->val_start);
        in->events = m->val_start;
    } else if (pf_json_key_is(s, m, "deviceProperties") && s[m->val_start] == '[') {
        in->props[0] = m->val_start;
        in->props[1] = m->val_end;
    } else if (pf_json_key_is(s, m, "baseTimeNanoseconds")) {
        in->has_base = cb_read_int(s, sp, &in->base_ns) == 0;
    } else if (pf_json_key_is(s, m, "distributedInfo") && s[m->val_start] == '{') {
        read_rank(in, m->val_start);
    }
    return 0;
}

static int read_top_object(cb_input *in, size_t *pos, pf_error *err)
{
    pf_jerr e;
    pf_jmember m;
    int r;
    in->is_object = 1;
    in->ev_depth = 3;
    if (pf_json_obj_begin(in->s, in->len, pos, &e))
        return pf_cb_scan_error(in, &e, err);
    while ((r = pf_json_obj_next(in->s, in->len, pos, &m, &e)) == 1)
        if (read_top_member(in, &m, err))
            return -1;
    if (r < 0)
        return pf_cb_scan_error(in, &e, err);
    if (!in->events)
        return pf_fail(err, "%s: byte %zu: no \"traceEvents\" array: not a Kineto/chrome trace", in->path, in->len);
    return 0;
}

/* Validates the whole text (the event passes then need not) and finds the top level's parts. */
static int read_top(cb_input *in, pf_error *err)
{
    pf_jerr e;
    size_t pos = in->len >= 3 && memcmp(in->s, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    pos = pf_json_ws(in->s, in->len, pos);
    in->top = pos;
    if (pos >= in->len)
        return pf_fail(err, "%s: byte %zu: empty file, expected a JSON trace object", in->path, pos);
    if (in->s[pos] == '[') {
        in->events = pos;
        in->ev_depth = 2;
        if (pf_json_skip(in->s, in->len, &pos, &e))
            return pf_cb_scan_error(in, &e, err);
    } else if (read_top_object(in, &pos, err)) {
        return -1;
    }
    if (pf_json_ws(in->s, in->len, pos) < in->len)
        return pf_fail(err, "%s: byte %zu: unexpected data after the trace", in->path,
                       pf_json_ws(in->s, in->len, pos));
    return 0;
}

/* ---- what the events use ---- */

static void note_id(cb_usage *u, int64_t v)
{
    if (!u->has_ids || v < u->min_id)
        u->min_id = v;
    if (!u->has_ids || v > u->max_id)
        u->max_id = v;
    u->has_ids = 1;
}

static void note_device(cb_usage *u, int64_t d)
{
    if (d >= 0 && d <= CB_MAX_DEVICE && d > u->max_dev)
        u->max_dev = d;
}

/* Pids are collected as they come, a run of equal ones once (events come in runs of one
 * process), and made distinct by sorting once all are in (distinct_pids). */
static int add_int_pid(cb_usage *u, int64_t v)
{
    if (u->n_pids && u->pids[u->n_pids - 1].from == v)
        return 0;
    if (cb_grow((void **)&u->pids, &u->cap_pids, u->n_pids + 1, sizeof *u->pids))
        return -1;
    u->pids[u->n_pids++] = (cb_int_pid){v, v};
    return 0;
}

static int add_str_pid(cb_usage *u, const char *text, size_t n)
{
    if (u->n_spids && cb_str_pid_eq(&u->spids[u->n_spids - 1], text, n))
        return 0;
    if (cb_grow((void **)&u->spids, &u->cap_spids, u->n_spids + 1, sizeof *u->spids))
        return -1;
    u->spids[u->n_spids++] = (cb_str_pid){text, n, NULL};
    return 0;
}

static int cmp_pid(const void *a, const void *b)
{
    const cb_int_pid *x = a, *y = b;
    return (x->from > y->from) - (x->from < y->from);
}

static int cmp_str_pid(const void *a, const void *b)
{
    const cb_str_pid *x = a, *y = b;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    return memcmp(x->text, y->text, x->len);
}

const cb_int_pid *pf_cb_find_pid(const cb_usage *u, int64_t v)
{
    cb_int_pid key = {v, v};
    return u->n_pids ? bsearch(&key, u->pids, u->n_pids, sizeof *u->pids, cmp_pid) : NULL;
}

/* Sorts the pids and drops repeats: integer pids by value, string pids by length, then text. */
static void distinct_pids(cb_usage *u)
{
    size_t n = 0;
    if (u->n_pids)
        qsort(u->pids, u->n_pids, sizeof *u->pids, cmp_pid);
    for (size_t i = 0; i < u->n_pids; i++)
        if (n == 0 || u->pids[n - 1].from != u->pids[i].from)
            u->pids[n++] = u->pids[i];
    u->n_pids = n;
    n = 0;
    if (u->n_spids)
        qsort(u->spids, u->n_spids, sizeof *u->spids, cmp_str_pid);
    for (size_t i = 0; i < u->n_spids; i++)
        if (n == 0 || !cb_str_pid_eq(&u->spids[n - 1], u->spids[i].text, u->spids[i].len))
            u->spids[n++] = u->spids[i];
    u->n_spids = n;
}

static int note_pid(cb_usage *u, const char *s, const size_t pid[2])
{
    int64_t v;
    if (!pid[1])
        return 0;
    if (s[pid[0]] != '"' && cb_read_int(s, pid, &v) == 0)
        return add_int_pid(u, v);
    return add_str_pid(u, s + pid[0], pid[1] - pid[0]);
}

/* Every device and linking id in the args object; a GPU-side event without a device names
 * it by its pid. */
static void survey_args(const cb_input *in, cb_usage *u, const pf_event_extent *x, int gpu)
{
    const char *s = in->s;
    size_t p = x->member[PF_EV_ARGS][0];
    pf_jmember m;
    pf_jerr e;
    int64_t v;
    int has_device = 0;
    pf_json_obj_begin(s, in->len, &p, &e);
    /* Validated by read_top: iteration cannot fail. */
    while (pf_json_obj_next(s, in->len, &p, &m, &e) == 1) {
        enum cb_arg_kind k = cb_arg_kind(s, &m);
        if (k == CB_ARG_OTHER || k == CB_ARG_SOURCE || cb_read_int(s, (size_t[2]){m.val_start, m.val_end}, &v))
            continue;
        if (k == CB_ARG_DEVICE) {
            note_device(u, v);
            has_device = 1;
        } else {
            note_id(u, v);
        }
    }
    if (gpu && !has_device && cb_read_int(s, x->member[PF_EV_PID], &v) == 0)
        note_device(u, v);
}

/* Records what one event uses; 0, or -1 with u->e set. */
static int survey_event(const cb_input *in, pf_event_scanner *sc, cb_usage *u, size_t start)
{
    pf_event_extent x;
    int64_t v;
    const char *s = in->s;
    if (s[start] != '{')
        return 0;
    if (pf_event_scan(sc, s, in->len, start, in->ev_depth, &x, &u->e))
        return -1;
    if (note_pid(u, s, x.member[PF_EV_PID])) {
        u->e = (pf_jerr){start, "out of memory", 0};
        return -1;
    }
    if (x.member[PF_EV_ID][1] && cb_is_flow(s, &x) && cb_read_int(s, x.member[PF_EV_ID], &v) == 0)
        note_id(u, v);
    int gpu = pf_event_cat_gpu(s, x.member[PF_EV_CAT]);
    const size_t *args = x.member[PF_EV_ARGS];
    if (args[1] && s[args[0]] == '{')
        survey_args(in, u, &x, gpu);
    else if (gpu && cb_read_int(s, x.member[PF_EV_PID], &v) == 0)
        note_device(u, v);
    return 0;
}

/* deviceProperties ids are devices too. */
static void survey_props(cb_input *in)
{
    size_t p = in->props[0], vs, ve;
    pf_jerr e;
    if (!in->props[1])
        return;
    pf_json_arr_begin(in->s, in->len, &p, &e);
    while (pf_json_arr_next(in->s, in->len, &p, &vs, &ve, &e) == 1) {
        size_t q = vs;
        pf_jmember m;
        int64_t v;
        if (in->s[vs] != '{')
            continue;
        pf_json_obj_begin(in->s, in->len, &q, &e);
        while (pf_json_obj_next(in->s, in->len, &q, &m, &e) == 1)
            if (CB_KEY_IS(in->s, &m, "id") && cb_read_int(in->s, (size_t[2]){m.val_start, m.val_end}, &v) == 0)
                note_device(&in->u, v);
    }
}

/* Where each event starts (the text was validated by read_top). */
static int index_events(cb_input *in, pf_error *err)
{
    size_t pos = in->events, vs, ve, cap = 0;
    pf_jerr e;
    pf_json_arr_begin(in->s, in->len, &pos, &e);
    in->first_ev = in->end_ev = pos;
    while (pf_json_arr_next(in->s, in->len, &pos, &vs, &ve, &e) == 1) {
        if (cb_grow((void **)&in->starts, &cap, in->n_events + 1, sizeof *in->starts))
            return pf_fail(err, "%s: out of memory", in->path);
        if (in->n_events == 0)
            in->first_ev = vs;
        in->starts[in->n_events++] = vs;
        in->end_ev = ve;
    }
    return 0;
}

typedef struct survey_ctx {
    const cb_input *in;
    cb_usage *parts;
} survey_ctx;

static void survey_range(void *ctx, size_t lo, size_t hi, size_t r)
{
    survey_ctx *c = ctx;
    cb_usage *u = &c->parts[r];
    /* The loader's memory of event shapes, one per thread; without one (no memory) every
     * event is read member by member, to the same extents. */
    pf_event_scanner *sc = pf_event_scanner_new();
    u->max_dev = -1;
    for (size_t k = lo; k < hi && !u->failed; k++)
        u->failed = survey_event(c->in, sc, u, c->in->starts[k]) != 0;
    pf_event_scanner_free(sc);
}

/* Adds what one run used to the input's usage. */
static int merge_usage(cb_usage *into, const cb_usage *u)
{
    for (size_t i = 0; i < u->n_pids; i++)
        if (add_int_pid(into, u->pids[i].from))
            return -1;
    for (size_t i = 0; i < u->n_spids; i++)
        if (add_str_pid(into, u->spids[i].text, u->spids[i].len))
            return -1;
    note_device(into, u->max_dev);
    if (u->has_ids) {
        note_id(into, u->min_id);
        note_id(into, u->max_id);
    }
    return 0;
}

/* The runs' usages joined in order: the first error (by event order) wins. */
static int join_parts(cb_input *in, cb_usage *parts, size_t workers, pf_error *err)
{
    int rc = 0;
    for (size_t r = 0; r < workers && rc == 0; r++) {
        if (parts[r].failed && strcmp(parts[r].e.what, "out of memory") == 0)
            rc = pf_fail(err, "%s: out of memory", in->path);
        else if (parts[r].failed)
            rc = pf_cb_scan_error(in, &parts[r].e, err);
        else if (merge_usage(&in->u, &parts[r]))
            rc = pf_fail(err, "%s: out of memory", in->path);
    }
    for (size_t r = 0; r < workers; r++) {
        free(parts[r].pids);
        free(parts[r].spids);
    }
    return rc;
}

static int survey(cb_input *in, int jobs, pf_error *err)
{
    in->u.max_dev = -1;
    if (index_events(in, err))
        return -1;
    size_t workers = pf_parallel_workers(jobs);
    cb_usage *parts = calloc(workers, sizeof *parts);
    if (!parts)
        return pf_fail(err, "%s: out of memory", in->path);
    survey_ctx c = {in, parts};
    pf_parallel_ranges(in->n_events, workers, survey_range, &c);
    int rc = join_parts(in, parts, workers, err);
    free(parts);
    distinct_pids(&in->u);
    if (rc == 0)
        survey_props(in);
    return rc;
}

int pf_cb_read_input(cb_input *in, int jobs, pf_error *err)
{
    assert(in->path);
    if (pf_source_read(in->path, &in->s, &in->len, &in->mapped, err))
        return -1;
    if (read_top(in, err) || survey(in, jobs, err)) {
        pf_source_changed(in->path, in->len, err);
        return -1;
    }
    return 0;
}

void pf_cb_free_input(cb_input *in)
{
    if (in->s)
        pf_source_release(in->s, in->len, in->mapped);
    for (size_t i = 0; i < in->u.n_spids; i++)
        free(in->u.spids[i].to);
    free(in->u.spids);
    free(in->u.pids);
    free(in->starts);
}
