/* combine_write.c - the combine engine's second pass: each input's events copied with their planned changes (on every core), the deviceProperties merged, and the whole output laid out around the first input's text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "combine_internal.h"
#include "profana/splice.h"
#include "profana/trace.h"

/* ---- one event ---- */

/* Plans replacing an integer with v, keeping its quotes if it had them. */
static int put_int(pf_splice *sp, const char *s, const size_t span[2], int64_t v)
{
    char buf[32];
    int q = s[span[0]] == '"';
    int n = snprintf(buf, sizeof buf, "%s%lld%s", q ? "\"" : "", (long long)v, q ? "\"" : "");
    return pf_splice_put(sp, span[0], span[1], buf, (size_t)n);
}

/* Moves an integer by `by` when it lies in [lo, hi]; other values stay as written. */
static int shift_int(pf_splice *sp, const char *s, const size_t span[2], int64_t by, int64_t lo, int64_t hi)
{
    int64_t v;
    if (by == 0 || cb_read_int(s, span, &v) || v < lo || v > hi || cb_add_ok(v, by, &v))
        return 0;
    return put_int(sp, s, span, v);
}

static int put_pid(const cb_input *in, pf_splice *sp, const size_t pid[2])
{
    const char *s = in->s;
    int64_t v;
    if (!pid[1])
        return 0;
    if (s[pid[0]] != '"' && cb_read_int(s, pid, &v) == 0) {
        const cb_int_pid *p = pf_cb_find_pid(&in->u, v);
        return p && p->to != v ? put_int(sp, s, pid, p->to) : 0;
    }
    size_t n = pid[1] - pid[0];
    for (size_t i = 0; i < in->u.n_spids; i++) {
        const cb_str_pid *p = &in->u.spids[i];
        if (cb_str_pid_eq(p, s + pid[0], n))
            return p->to ? pf_splice_put(sp, pid[0], pid[1], p->to, strlen(p->to)) : 0;
    }
    return 0;
}

/* Kineto's ts: microseconds with three decimals, rewritten exactly in integer nanoseconds.
 * Returns 0, -1 when memory runs out, -2 when the moved time does not fit. */
static int put_ts(const cb_input *in, pf_splice *sp, const size_t ts[2])
{
    int64_t ns;
    if (in->ts_shift_ns == 0 || !ts[1] || pf_json_us_to_ns(in->s, ts[0], ts[1], &ns))
        return 0;
    if (cb_add_ok(ns, in->ts_shift_ns, &ns) || ns == INT64_MIN)
        return -2;
    char buf[40];
    unsigned long long a = ns < 0 ? (unsigned long long)-ns : (unsigned long long)ns;
    int n = snprintf(buf, sizeof buf, "%s%llu.%03llu", ns < 0 ? "-" : "", a / 1000, a % 1000);
    return pf_splice_put(sp, ts[0], ts[1], buf, (size_t)n);
}

/* Moves the args' devices and ids and puts the tag in (in place of one already there, else
 * after the last member). */
static int put_args(const cb_input *in, pf_splice *sp, const size_t args[2])
{
    const char *s = in->s;
    size_t p = args[0], last;
    pf_jmember m;
    pf_jerr e;
    int rc = 0, tagged = 0;
    pf_json_obj_begin(s, in->len, &p, &e);
    last = p;
    while (rc == 0 && pf_json_obj_next(s, in->len, &p, &m, &e) == 1) {
        size_t span[2] = {m.val_start, m.val_end};
        last = m.val_end;
        switch (cb_arg_kind(s, &m)) {
        case CB_ARG_DEVICE:
            rc = shift_int(sp, s, span, in->dev_shift, 0, CB_MAX_DEVICE);
            break;
        case CB_ARG_ID:
            rc = shift_int(sp, s, span, in->id_shift, INT64_MIN, INT64_MAX);
            break;
        case CB_ARG_SOURCE:
            rc = pf_splice_put(sp, span[0], span[1], in->source, strlen(in->source));
            tagged = 1;
            break;
        default:
            break;
        }
    }
    if (rc || tagged)
        return rc;
    char buf[160];
    int n = snprintf(buf, sizeof buf, "%s\"profana_source\": %s", last == args[0] + 1 ? "" : ", ", in->source);
    return pf_splice_put(sp, last, last, buf, (size_t)n);
}

/* Where the event's last member ends: just past '{' when it has none. The event is valid
 * JSON, so only whitespace lies between its last value (which never ends in whitespace)
 * and its closing '}'. */
static size_t last_member_end(const char *s, size_t start, size_t end)
{
    size_t q = end - 1;
    while (q > start + 1 && (s[q - 1] == ' ' || s[q - 1] == '\n' || s[q - 1] == '\r' || s[q - 1] == '\t'))
        q--;
    return q;
}

/* An event without args gets args holding the tag. */
static int put_new_args(const cb_input *in, pf_splice *sp, size_t start, const pf_event_extent *x)
{
    size_t at = last_member_end(in->s, start, x->end);
    char buf[160];
    int n = snprintf(buf, sizeof buf, "%s\"args\": {\"profana_source\": %s}", at == start + 1 ? "" : ", ",
                     in->source);
    return pf_splice_put(sp, at, at, buf, (size_t)n);
}

/* Plans event k's changes (runs on several threads at once): 0, or -1 with e set. */
static int plan_event(void *ctx, size_t k, pf_splice *sp, pf_jerr *e)
{
    const cb_input *in = ctx;
    size_t start = in->starts[k];
    pf_event_extent x;
    if (in->s[start] != '{')
        return 0;
    if (pf_event_scan(NULL, in->s, in->len, start, in->ev_depth, &x, e))
        return -1;
    const size_t *ts = x.member[PF_EV_TS], *id = x.member[PF_EV_ID], *args = x.member[PF_EV_ARGS];
    int rc = put_pid(in, sp, x.member[PF_EV_PID]);
    if (rc == 0 && (rc = put_ts(in, sp, ts)) == -2) {
        *e = (pf_jerr){ts[0], "ts out of range once moved to the first input's base time", 0};
        return -1;
    }
    if (rc == 0 && id[1] && cb_is_flow(in->s, &x))
        rc = shift_int(sp, in->s, id, in->id_shift, INT64_MIN, INT64_MAX);
    if (rc == 0 && args[1] && in->s[args[0]] == '{')
        rc = put_args(in, sp, args);
    else if (rc == 0 && !args[1])
        rc = put_new_args(in, sp, start, &x);
    if (rc)
        *e = (pf_jerr){start, "out of memory", 0};
    return rc ? -1 : 0;
}

static size_t event_start(void *ctx, size_t k)
{
    const cb_input *in = ctx;
    return in->starts[k];
}

static void input_written(void *ctx, size_t upto)
{
    const cb_input *in = ctx;
    pf_source_done(in->s, in->len, in->mapped, upto);
}

static int write_bytes(FILE *f, const char *p, size_t n)
{
    return n == 0 || fwrite(p, 1, n, f) == n ? 0 : -1;
}

/* Writes an input's events with their changes (planned on several threads), from *cursor
 * (at or before the first event) to the end of the last. */
static int write_events(const cb_run *c, const cb_input *in, size_t *cursor)
{
    pf_splice_items items = {in->n_events, event_start, plan_event, (void *)in, input_written};
    pf_jerr e;
    int rc = pf_splice_write_parallel(in->s, *cursor, in->end_ev, &items, c->jobs, c->of->f, &e);
    *cursor = in->end_ev;
    if (rc == -2)
        return pf_outfile_write_error(c->of, c->err);
    if (rc && strcmp(e.what, "out of memory") == 0)
        return pf_fail(c->err, "out of memory");
    return rc ? pf_cb_scan_error(in, &e, c->err) : 0;
}

/* ---- deviceProperties ---- */

static int append(cb_props *pr, const char *p, size_t n)
{
    if (cb_grow((void **)&pr->text, &pr->cap, pr->len + n + 1, 1))
        return -1;
    memcpy(pr->text + pr->len, p, n);
    pr->len += n;
    pr->text[pr->len] = '\0';
    return 0;
}

/* Records an entry's (id, name); *dup = 1 when the merged list has it already. */
static int seen_entry(cb_props *pr, int64_t id, const char *name, size_t name_len, int *dup)
{
    *dup = 0;
    for (size_t i = 0; i < pr->n_seen && !*dup; i++)
        *dup = pr->seen[i].id == id && pr->seen[i].name_len == name_len &&
               memcmp(pr->seen[i].name, name, name_len) == 0;
    if (*dup)
        return 0;
    if (cb_grow((void **)&pr->seen, &pr->cap_seen, pr->n_seen + 1, sizeof *pr->seen))
        return -1;
    pr->seen[pr->n_seen].id = id;
    pr->seen[pr->n_seen].name = name;
    pr->seen[pr->n_seen].name_len = name_len;
    pr->n_seen++;
    return 0;
}

/* One entry of input `in`: kept when its (shifted id, name) is new, with "id" rewritten (to
 * as_id, shifted, when as_id >= 0: a copy of the entry for another device). */
static int merge_entry(cb_props *pr, const cb_input *in, size_t vs, size_t ve, int keep_text, int64_t as_id)
{
    const char *s = in->s;
    size_t q = vs, id_sp[2] = {0, 0}, name_sp[2] = {0, 0};
    pf_jmember m;
    pf_jerr e;
    int64_t id = -1;
    int dup;
    pf_json_obj_begin(s, in->len, &q, &e);
    while (pf_json_obj_next(s, in->len, &q, &m, &e) == 1) {
        if (pf_json_key_is(s, &m, "id"))
            id_sp[0] = m.val_start, id_sp[1] = m.val_end;
        else if (pf_json_key_is(s, &m, "name"))
            name_sp[0] = m.val_start, name_sp[1] = m.val_end;
    }
    if (id_sp[1] && cb_read_int(s, id_sp, &id) == 0)
        id = (as_id >= 0 ? as_id : id) + in->dev_shift;
    if (seen_entry(pr, id, s + name_sp[0], name_sp[1] - name_sp[0], &dup))
        return -1;
    if (dup || !keep_text)
        return 0;
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%lld", (long long)id);
    int rc = pr->n_entries++ ? append(pr, ", ", 2) : 0;
    if (id_sp[1] && (in->dev_shift || as_id >= 0)) {
        rc = rc || append(pr, s + vs, id_sp[0] - vs) || append(pr, buf, (size_t)n) ||
             append(pr, s + id_sp[1], ve - id_sp[1]);
    } else {
        rc = rc || append(pr, s + vs, ve - vs);
    }
    return rc;
}

/* A trace that declares one model runs all its devices on it (the loader's rule for an
 * undeclared device: ROCm traces declare device 0 and run on device 2). Merged with another
 * trace, the combined deviceProperties declares two models and the rule no longer holds, so
 * the one entry is written for each of the input's other device ids (up to this many; the
 * ids without events change nothing in an analysis). */
#define ONE_MODEL_IDS 64

static int declare_the_one_model(cb_props *pr, const cb_input *in, const size_t one[2])
{
    size_t q = one[0];
    pf_jmember m;
    pf_jerr e;
    int64_t own = -1;
    pf_json_obj_begin(in->s, in->len, &q, &e);
    while (pf_json_obj_next(in->s, in->len, &q, &m, &e) == 1)
        if (pf_json_key_is(in->s, &m, "id") && cb_read_int(in->s, (size_t[2]){m.val_start, m.val_end}, &own))
            own = -1;
    if (own < 0 || in->u.max_dev > ONE_MODEL_IDS)
        return 0;
    for (int64_t d = 0; d <= in->u.max_dev; d++)
        if (d != own && merge_entry(pr, in, one[0], one[1], 1, d))
            return -1;
    return 0;
}

/* The first input's entries are kept in place; the later inputs' new ones are appended. */
int pf_cb_merge_props(const cb_run *c, cb_props *pr)
{
    for (int k = 0; k < c->n; k++) {
        const cb_input *in = &c->in[k];
        size_t p = in->props[0], vs, ve;
        pf_jerr e;
        if (!in->props[1])
            continue;
        size_t one[2] = {0, 0};
        int entries = 0;
        pf_json_arr_begin(in->s, in->len, &p, &e);
        while (pf_json_arr_next(in->s, in->len, &p, &vs, &ve, &e) == 1)
            if (in->s[vs] == '{') {
                if (merge_entry(pr, in, vs, ve, k > 0, -1))
                    return -1;
                one[0] = vs, one[1] = ve, entries++;
            }
        if (entries == 1 && declare_the_one_model(pr, in, one))
            return -1;
    }
    return 0;
}

/* Plans the merged deviceProperties into the first input's text. */
static int put_props(const cb_input *first, const cb_props *pr, pf_splice *sp)
{
    if (!pr->len)
        return 0;
    if (first->props[1]) {
        /* After the last entry, or just inside an empty array. */
        size_t p = first->props[0], at, vs, ve;
        pf_jerr e;
        int any = 0;
        pf_json_arr_begin(first->s, first->len, &p, &e);
        at = p;
        while (pf_json_arr_next(first->s, first->len, &p, &vs, &ve, &e) == 1)
            at = ve, any = 1;
        if (pf_splice_put(sp, at, at, ", ", any ? 2 : 0))
            return -1;
        return pf_splice_put(sp, at, at, pr->text, pr->len);
    }
    size_t at = first->top + 1;
    return pf_splice_put(sp, at, at, "\n  \"deviceProperties\": [", 24) ||
           pf_splice_put(sp, at, at, pr->text, pr->len) || pf_splice_put(sp, at, at, "],", 2);
}

/* ---- the whole output ---- */

/* The later inputs' events, after the first input's. */
static int write_later_events(const cb_run *c)
{
    int any = c->in[0].n_events > 0;
    for (int k = 1; k < c->n; k++) {
        const cb_input *in = &c->in[k];
        size_t cur = in->first_ev;
        if (!in->n_events)
            continue;
        if (any && write_bytes(c->of->f, ",\n  ", 4))
            return pf_outfile_write_error(c->of, c->err);
        any = 1;
        if (write_events(c, in, &cur))
            return -1;
    }
    return 0;
}

int pf_cb_write(const cb_run *c, const cb_props *pr)
{
    FILE *out = c->of->f;
    const cb_input *first = &c->in[0];
    pf_splice sp;
    pf_splice_init(&sp);
    size_t cursor = 0;
    int rc = 0, before = first->props[1] && first->props[0] < first->events;
    int wrap = !first->is_object && pr->len;
    if (wrap) {
        /* A bare event array has nowhere for deviceProperties: it becomes an object. */
        cursor = first->top;
        rc = write_bytes(out, "{\"deviceProperties\": [", 22) || write_bytes(out, pr->text, pr->len) ||
             write_bytes(out, "], \"traceEvents\": ", 18);
    } else if (before || !first->props[1]) {
        rc = put_props(first, pr, &sp);
    }
    if (rc == 0)
        rc = pf_splice_flush(&sp, first->s, &cursor, out);
    rc = rc ? pf_outfile_write_error(c->of, c->err) : write_events(c, first, &cursor);
    if (rc == 0)
        rc = write_later_events(c);
    if (rc == 0 && !wrap && first->props[1] && !before && put_props(first, pr, &sp))
        rc = pf_fail(c->err, "out of memory");
    if (rc == 0 && (pf_splice_flush(&sp, first->s, &cursor, out) ||
                    write_bytes(out, first->s + cursor, first->len - cursor) ||
                    (wrap && write_bytes(out, "}\n", 2))))
        rc = pf_outfile_write_error(c->of, c->err);
    pf_splice_free(&sp);
    return rc;
}
