/* gen_trace.c - builds a large Kineto trace for `make bench` by replicating the events of real traces with fresh ids and times. */
/*
 * Usage: gen_trace OUT MEGABYTES TEMPLATE.json...
 *
 * Writes OUT: the first template's top-level object with its traceEvents replaced by copies
 * of the templates' events (cycling through the templates) until OUT holds MEGABYTES * 1e6
 * bytes. Each copy shifts every `ts` past the previous copy's span and every id that links
 * events (args "External id", "correlation", "Sequence number", flow "id") past the ids of
 * all earlier copies, so kernels keep linking to their own copy's cpu_op and runtime call.
 * Metadata ("M") events are written once per template. Prints "events copies" on stdout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/jscan.h"
#include "profana/trace.h"

/* A number inside an event that a copy rewrites. */
typedef struct patch {
    size_t start, end;
    int is_time;               /* 1: ts in microseconds; 0: an id */
} patch;

typedef struct event {
    size_t start, end;
    size_t first_patch, n_patches;
    int is_meta;
} event;

typedef struct tmpl {
    char *text;
    size_t len;
    int mapped;
    size_t head_end, tail_start; /* traceEvents' '[' + 1 and its ']' */
    event *events;
    size_t n_events;
    patch *patches;
    size_t n_patches, cap_patches;
    long long max_id;          /* the largest id any patch holds */
    long long t_min, t_max;    /* whole microseconds spanned by ts (+ dur) */
} tmpl;

static void die(const char *msg, const char *path)
{
    fprintf(stderr, "gen_trace: %s: %s\n", path, msg);
    exit(1);
}

static int key_is(const tmpl *t, const pf_jmember *m, const char *k)
{
    return pf_json_key_is(t->text, m, k);
}

static void add_patch(tmpl *t, const pf_jmember *m, int is_time)
{
    if (t->n_patches == t->cap_patches) {
        t->cap_patches = t->cap_patches ? t->cap_patches * 2 : 4096;
        t->patches = realloc(t->patches, t->cap_patches * sizeof *t->patches);
        if (!t->patches)
            die("out of memory", "");
    }
    t->patches[t->n_patches++] = (patch){m->val_start, m->val_end, is_time};
    long long v = atoll(t->text + m->val_start);
    if (!is_time && v > t->max_id)
        t->max_id = v;
}

static int is_number(const tmpl *t, const pf_jmember *m)
{
    char c = t->text[m->val_start];
    return c == '-' || (c >= '0' && c <= '9');
}

/* Records the ids inside args; patches must stay in text order. */
static void scan_args(tmpl *t, const pf_jmember *args)
{
    size_t p = args->val_start;
    pf_jerr e;
    pf_jmember m;
    if (t->text[p] != '{' || pf_json_obj_begin(t->text, t->len, &p, &e))
        return;
    while (pf_json_obj_next(t->text, t->len, &p, &m, &e) == 1)
        if (is_number(t, &m) && (key_is(t, &m, "External id") || key_is(t, &m, "correlation") ||
                                 key_is(t, &m, "Sequence number")))
            add_patch(t, &m, 0);
}

static void scan_event(tmpl *t, event *ev)
{
    size_t p = ev->start;
    pf_jerr e;
    pf_jmember m;
    ev->first_patch = t->n_patches;
    if (pf_json_obj_begin(t->text, t->len, &p, &e))
        die("an event is not an object", "template");
    long long ts = -1, dur = 0;
    while (pf_json_obj_next(t->text, t->len, &p, &m, &e) == 1) {
        if (key_is(t, &m, "ts") && is_number(t, &m)) {
            add_patch(t, &m, 1);
            ts = atoll(t->text + m.val_start);
        } else if (key_is(t, &m, "dur") && is_number(t, &m)) {
            dur = atoll(t->text + m.val_start);
        } else if (key_is(t, &m, "id") && is_number(t, &m)) {
            add_patch(t, &m, 0);
        } else if (key_is(t, &m, "args")) {
            scan_args(t, &m);
        } else if (key_is(t, &m, "ph")) {
            ev->is_meta = memcmp(t->text + m.val_start, "\"M\"", 3) == 0;
        }
    }
    ev->n_patches = t->n_patches - ev->first_patch;
    if (ts > 0 && !ev->is_meta) {
        if (t->t_min < 0 || ts < t->t_min)
            t->t_min = ts;
        if (ts + dur + 1 > t->t_max)
            t->t_max = ts + dur + 1;
    }
}

static void load_template(tmpl *t, const char *path)
{
    pf_error err;
    memset(t, 0, sizeof *t);
    t->t_min = -1;
    if (pf_source_read(path, &t->text, &t->len, &t->mapped, &err))
        die(err.msg, path);
    size_t p = 0;
    pf_jerr e;
    pf_jmember m;
    if (pf_json_obj_begin(t->text, t->len, &p, &e))
        die("not a trace object", path);
    while (pf_json_obj_next(t->text, t->len, &p, &m, &e) == 1) {
        if (!key_is(t, &m, "traceEvents"))
            continue;
        size_t q = m.val_start, vs, ve, cap = 0;
        if (pf_json_arr_begin(t->text, t->len, &q, &e))
            die("traceEvents is not an array", path);
        t->head_end = q;
        while (pf_json_arr_next(t->text, t->len, &q, &vs, &ve, &e) == 1) {
            if (t->n_events == cap) {
                cap = cap ? cap * 2 : 4096;
                t->events = realloc(t->events, cap * sizeof *t->events);
                if (!t->events)
                    die("out of memory", path);
            }
            event *ev = &t->events[t->n_events++];
            memset(ev, 0, sizeof *ev);
            ev->start = vs;
            ev->end = ve;
            scan_event(t, ev);
        }
        t->tail_start = q - 1;
    }
    if (!t->n_events)
        die("no traceEvents", path);
}

/* Writes one number of an event, shifted: ts keeps its fraction text. */
static void put_patch(FILE *out, const tmpl *t, const patch *pt, long long dt, long long did)
{
    const char *s = t->text + pt->start;
    char *rest;
    long long v = strtoll(s, &rest, 10);
    if (pt->is_time) {
        fprintf(out, "%lld", v + dt);
        fwrite(rest, 1, (size_t)(t->text + pt->end - rest), out);
    } else {
        fprintf(out, "%lld", v < 0 ? v : v + did);
    }
}

/* Writes every event of t once (adding to *events); returns the bytes written. */
static size_t put_copy(FILE *out, const tmpl *t, int first_copy, int *first_event, size_t *events, long long dt,
                       long long did)
{
    long before = ftell(out);
    for (size_t i = 0; i < t->n_events; i++) {
        const event *ev = &t->events[i];
        if (ev->is_meta && !first_copy)
            continue;
        fputs(*first_event ? "\n  " : ",\n  ", out);
        *first_event = 0;
        ++*events;
        size_t at = ev->start;
        for (size_t k = 0; k < ev->n_patches; k++) {
            const patch *pt = &t->patches[ev->first_patch + k];
            fwrite(t->text + at, 1, pt->start - at, out);
            put_patch(out, t, pt, dt, did);
            at = pt->end;
        }
        fwrite(t->text + at, 1, ev->end - at, out);
    }
    return (size_t)(ftell(out) - before);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: gen_trace OUT MEGABYTES TEMPLATE.json...\n");
        return 2;
    }
    double target = atof(argv[2]) * 1e6;
    int nt = argc - 3;
    tmpl *ts = calloc((size_t)nt, sizeof *ts);
    int *copies = calloc((size_t)nt, sizeof *copies);
    if (!ts || !copies)
        die("out of memory", "");
    for (int i = 0; i < nt; i++)
        load_template(&ts[i], argv[3 + i]);
    FILE *out = fopen(argv[1], "wb");
    if (!out)
        die("cannot create", argv[1]);
    setvbuf(out, NULL, _IOFBF, 1 << 20);
    fwrite(ts[0].text, 1, ts[0].head_end, out);
    size_t written = ts[0].head_end, events = 0;
    long long t_at = ts[0].t_min, id_at = 0;
    int first_event = 1, n_copies = 0;
    for (int c = 0; written < target; c = (c + 1) % nt) {
        const tmpl *t = &ts[c];
        written += put_copy(out, t, copies[c] == 0, &first_event, &events, t_at - t->t_min, id_at);
        t_at += t->t_max - t->t_min + 1000; /* 1 ms between copies */
        id_at += t->max_id + 1;
        copies[c]++;
        n_copies++;
    }
    fputs("\n", out);
    fwrite(ts[0].text + ts[0].tail_start, 1, ts[0].len - ts[0].tail_start, out);
    if (fclose(out) != 0)
        die("write error", argv[1]);
    printf("%zu %d\n", events, n_copies);
    for (int i = 0; i < nt; i++) {
        pf_source_release(ts[i].text, ts[i].len, ts[i].mapped);
        free(ts[i].events);
        free(ts[i].patches);
    }
    free(ts);
    free(copies);
    return 0;
}
