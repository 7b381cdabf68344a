/* cmd_combine.c - `--combine IN1 IN2 [IN...] OUT`: one trace with every event of every input, colliding process, device and event ids moved apart, each event tagged with its input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/cli.h"
#include "profana/jscan.h"
#include "profana/mem.h"
#include "profana/outfile.h"
#include "profana/numtext.h"
#include "profana/parallel.h"
#include "profana/splice.h"

/* Kineto reserves pids 0..15 for GPUs ("GPU N" process labels) and puts device N's events
 * on pid N: pids below max(16, 1 + the largest device id) move with the devices. */
#define GPU_PID_SLOTS 16
/* Other colliding pids move by this much per input: above any Linux pid (at most 2^22). */
#define HOST_PID_STEP INT64_C(10000000)
/* The loader's limit on device ids. */
#define MAX_DEVICE 65535

/* A string pid: its JSON text (quotes included) and what it becomes. */
typedef struct str_pid {
    const char *text;
    size_t len;
    char *to;                  /* new JSON text; NULL = unchanged */
} str_pid;

typedef struct int_pid {
    int64_t from, to;
} int_pid;

/* What a run of events uses: pids, devices, linking ids (runs surveyed in parallel, then
 * merged in order), and the first error met. */
typedef struct usage {
    int_pid *pids;             /* distinct integer pids, sorted by from after planning */
    size_t n_pids, cap_pids;
    str_pid *spids;
    size_t n_spids, cap_spids;
    int64_t max_dev;           /* -1 when no device */
    int64_t min_id, max_id;    /* External id, correlation, flow and Python ids */
    int has_ids;
    int failed;                /* e says why */
    pf_jerr e;
} usage;

typedef struct input {
    const char *path;
    char *s;
    size_t len;
    int mapped, is_object;
    size_t top;                /* the top-level '{' or '[' */
    size_t events;             /* the traceEvents '[' */
    size_t first_ev, end_ev;   /* from the first event to the end of the last; both just past
                                  '[' when there are none */
    size_t n_events;
    size_t *starts;            /* each event's first byte */
    size_t props[2];           /* deviceProperties value; props[1] == 0 when absent */
    int64_t rank, base_ns;
    int has_rank, has_base;
    usage u;                   /* what its events use */
    /* the plan */
    int64_t gpu_slots, dev_shift, id_shift, ts_shift_ns;
    char source[96];           /* profana_source value */
} input;

typedef struct combine {
    input *in;
    int n;
    int jobs;                  /* threads (-j); 0 = one per core */
    const pf_outfile *of;      /* OUT, while writing */
    pf_error *err;
} combine;

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    return pf_grow(p, cap, need, elem, 16);
}

/* *r = a + b; -1 when that overflows int64 (a crafted trace must not make it undefined). */
static int add_ok(int64_t a, int64_t b, int64_t *r)
{
    return __builtin_add_overflow(a, b, r) ? -1 : 0;
}

static int scan_error(const input *in, const pf_jerr *e, pf_error *err)
{
    if (e->truncated)
        return pf_fail(err, "%s: byte %zu: trace is cut off (unexpected end of input)", in->path, e->pos);
    return pf_fail(err, "%s: byte %zu: %s", in->path, e->pos, e->what);
}

/* A JSON integer, quoted ones ("7") too: some producers write ids as strings. */
static int read_int(const char *s, const size_t sp[2], int64_t *v)
{
    return sp[1] > sp[0] && pf_json_int(s, sp[0], sp[1], v) == 0 ? 0 : -1;
}

/* ---- the top level ---- */

static int read_top_member(input *in, const pf_jmember *m, pf_error *err)
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
        in->has_base = read_int(s, sp, &in->base_ns) == 0;
    } else if (pf_json_key_is(s, m, "distributedInfo") && s[m->val_start] == '{') {
        size_t p = m->val_start;
        pf_jmember d;
        pf_jerr e;
        pf_json_obj_begin(s, in->len, &p, &e);
        while (pf_json_obj_next(s, in->len, &p, &d, &e) == 1)
            if (pf_json_key_is(s, &d, "rank"))
                in->has_rank = read_int(s, (size_t[2]){d.val_start, d.val_end}, &in->rank) == 0;
    }
    return 0;
}

static int read_top(input *in, pf_error *err)
{
    pf_jerr e;
    pf_jmember m;
    size_t pos = in->len >= 3 && memcmp(in->s, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    pos = pf_json_ws(in->s, in->len, pos);
    in->top = pos;
    if (pos >= in->len)
        return pf_fail(err, "%s: byte %zu: empty file, expected a JSON trace object", in->path, pos);
    if (in->s[pos] == '[') {
        in->events = pos;
        if (pf_json_skip(in->s, in->len, &pos, &e))
            return scan_error(in, &e, err);
    } else {
        int r;
        in->is_object = 1;
        if (pf_json_obj_begin(in->s, in->len, &pos, &e))
            return scan_error(in, &e, err);
        while ((r = pf_json_obj_next(in->s, in->len, &pos, &m, &e)) == 1)
            if (read_top_member(in, &m, err))
                return -1;
        if (r < 0)
            return scan_error(in, &e, err);
        if (!in->events)
            return pf_fail(err, "%s: byte %zu: no \"traceEvents\" array: not a Kineto/chrome trace",
                           in->path, in->len);
    }
    if (pf_json_ws(in->s, in->len, pos) < in->len)
        return pf_fail(err, "%s: byte %zu: unexpected data after the trace", in->path,
                       pf_json_ws(in->s, in->len, pos));
    return 0;
}

/* ---- one event ---- */

typedef struct ev_fields {
    size_t pid[2], ts[2], id[2], ph[2], cat[2], args[2];
    size_t last_end;           /* end of the last member; just past '{' when none */
} ev_fields;

/* A key compared by length first: every event's every member goes through here. */
#define KEY_IS(s, m, lit) \
    ((m)->key_end - (m)->key_start == sizeof(lit) - 1 && memcmp((s) + (m)->key_start, lit, sizeof(lit) - 1) == 0)

static void set_span(size_t sp[2], const pf_jmember *m)
{
    sp[0] = m->val_start;
    sp[1] = m->val_end;
}

static int scan_event(const input *in, size_t start, ev_fields *f, pf_jerr *e)
{
    size_t p = start;
    pf_jmember m;
    int r;
    const char *s = in->s;
    memset(f, 0, sizeof *f);
    if (pf_json_obj_begin(s, in->len, &p, e))
        return -1;
    f->last_end = p;
    while ((r = pf_json_obj_next(s, in->len, &p, &m, e)) == 1) {
        f->last_end = m.val_end;
        if (KEY_IS(s, &m, "pid"))
            set_span(f->pid, &m);
        else if (KEY_IS(s, &m, "ts"))
            set_span(f->ts, &m);
        else if (KEY_IS(s, &m, "id"))
            set_span(f->id, &m);
        else if (KEY_IS(s, &m, "ph"))
            set_span(f->ph, &m);
        else if (KEY_IS(s, &m, "cat"))
            set_span(f->cat, &m);
        else if (KEY_IS(s, &m, "args"))
            set_span(f->args, &m);
    }
    return r < 0 ? -1 : 0;
}

static int span_is(const char *s, const size_t sp[2], const char *quoted)
{
    size_t n = strlen(quoted);
    return sp[1] - sp[0] == n && memcmp(s + sp[0], quoted, n) == 0;
}

/* Flow events ("ph": "s", "f", "t") tie their ends together by "id". */
static int is_flow(const char *s, const ev_fields *f)
{
    return span_is(s, f->ph, "\"s\"") || span_is(s, f->ph, "\"f\"") || span_is(s, f->ph, "\"t\"");
}

static int is_gpu_event(const char *s, const ev_fields *f)
{
    return span_is(s, f->cat, "\"kernel\"") || span_is(s, f->cat, "\"gpu_memcpy\"") ||
           span_is(s, f->cat, "\"gpu_memset\"") || span_is(s, f->cat, "\"gpu_user_annotation\"");
}

enum arg_kind { ARG_OTHER, ARG_DEVICE, ARG_ID, ARG_SOURCE };

/* Args that name a device or an id linking events (kernel to op, launch to kernel, Python
 * caller to callee), and profana's own tag. */
static enum arg_kind arg_kind_of(const char *s, const pf_jmember *m)
{
    if (KEY_IS(s, m, "device"))
        return ARG_DEVICE;
    if (KEY_IS(s, m, "profana_source"))
        return ARG_SOURCE;
    if (KEY_IS(s, m, "External id") || KEY_IS(s, m, "correlation") || KEY_IS(s, m, "Python id") ||
        KEY_IS(s, m, "Python parent id"))
        return ARG_ID;
    return ARG_OTHER;
}

/* ---- pass 1: what each input uses ---- */

static void note_id(usage *u, int64_t v)
{
    if (!u->has_ids || v < u->min_id)
        u->min_id = v;
    if (!u->has_ids || v > u->max_id)
        u->max_id = v;
    u->has_ids = 1;
}

static void note_device(usage *u, int64_t d)
{
    if (d >= 0 && d <= MAX_DEVICE && d > u->max_dev)
        u->max_dev = d;
}

/* Pids are collected as they come, a run of equal ones once (events come in runs of one
 * process), and made distinct by sorting once all are in (distinct_pids). */
static int add_int_pid(usage *u, int64_t v)
{
    if (u->n_pids && u->pids[u->n_pids - 1].from == v)
        return 0;
    if (grow((void **)&u->pids, &u->cap_pids, u->n_pids + 1, sizeof *u->pids))
        return -1;
    u->pids[u->n_pids++] = (int_pid){v, v};
    return 0;
}

static int str_pid_eq(const str_pid *a, const char *text, size_t n)
{
    return a->len == n && memcmp(a->text, text, n) == 0;
}

static int add_str_pid(usage *u, const char *text, size_t n)
{
    if (u->n_spids && str_pid_eq(&u->spids[u->n_spids - 1], text, n))
        return 0;
    if (grow((void **)&u->spids, &u->cap_spids, u->n_spids + 1, sizeof *u->spids))
        return -1;
    u->spids[u->n_spids++] = (str_pid){text, n, NULL};
    return 0;
}

static int cmp_pid(const void *a, const void *b)
{
    const int_pid *x = a, *y = b;
    return (x->from > y->from) - (x->from < y->from);
}

static int cmp_str_pid(const void *a, const void *b)
{
    const str_pid *x = a, *y = b;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    return memcmp(x->text, y->text, x->len);
}

/* Sorts the pids and drops repeats: integer pids by value, string pids by length, then text. */
static void distinct_pids(usage *u)
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
        if (n == 0 || !str_pid_eq(&u->spids[n - 1], u->spids[i].text, u->spids[i].len))
            u->spids[n++] = u->spids[i];
    u->n_spids = n;
}

static int note_pid(usage *u, const char *s, const ev_fields *f)
{
    int64_t v;
    if (!f->pid[1])
        return 0;
    if (s[f->pid[0]] != '"' && read_int(s, f->pid, &v) == 0)
        return add_int_pid(u, v);
    return add_str_pid(u, s + f->pid[0], f->pid[1] - f->pid[0]);
}

static void survey_args(const input *in, usage *u, const ev_fields *f, int gpu)
{
    const char *s = in->s;
    size_t p = f->args[0];
    pf_jmember m;
    pf_jerr e;
    int64_t v;
    int has_device = 0;
    pf_json_obj_begin(s, in->len, &p, &e);
    /* Validated by scan_event: iteration cannot fail. */
    while (pf_json_obj_next(s, in->len, &p, &m, &e) == 1) {
        enum arg_kind k = arg_kind_of(s, &m);
        if (k == ARG_OTHER || k == ARG_SOURCE || read_int(s, (size_t[2]){m.val_start, m.val_end}, &v))
            continue;
        if (k == ARG_DEVICE) {
            note_device(u, v);
            has_device = 1;
        } else {
            note_id(u, v);
        }
    }
    if (gpu && !has_device && read_int(s, f->pid, &v) == 0)
        note_device(u, v);
}

/* Records what one event uses; 0, or -1 with u->e set. */
static int survey_event(const input *in, usage *u, size_t start)
{
    ev_fields f;
    int64_t v;
    if (in->s[start] != '{')
        return 0;
    if (scan_event(in, start, &f, &u->e))
        return -1;
    if (note_pid(u, in->s, &f)) {
        u->e = (pf_jerr){start, "out of memory", 0};
        return -1;
    }
    if (f.id[1] && is_flow(in->s, &f) && read_int(in->s, f.id, &v) == 0)
        note_id(u, v);
    int gpu = is_gpu_event(in->s, &f);
    if (f.args[1] && in->s[f.args[0]] == '{')
        survey_args(in, u, &f, gpu);
    else if (gpu && read_int(in->s, f.pid, &v) == 0)
        note_device(u, v);
    return 0;
}

static void survey_props(input *in)
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
            if (KEY_IS(in->s, &m, "id") && read_int(in->s, (size_t[2]){m.val_start, m.val_end}, &v) == 0)
                note_device(&in->u, v);
    }
}

/* Where each event starts (the text was validated by read_top). */
static int index_events(input *in, pf_error *err)
{
    size_t pos = in->events, vs, ve, cap = 0;
    pf_jerr e;
    pf_json_arr_begin(in->s, in->len, &pos, &e);
    in->first_ev = in->end_ev = pos;
    while (pf_json_arr_next(in->s, in->len, &pos, &vs, &ve, &e) == 1) {
        if (grow((void **)&in->starts, &cap, in->n_events + 1, sizeof *in->starts))
            return pf_fail(err, "%s: out of memory", in->path);
        if (in->n_events == 0)
            in->first_ev = vs;
        in->starts[in->n_events++] = vs;
        in->end_ev = ve;
    }
    return 0;
}

typedef struct survey_ctx {
    const input *in;
    usage *parts;
} survey_ctx;

static void survey_range(void *ctx, size_t lo, size_t hi, size_t r)
{
    survey_ctx *c = ctx;
    usage *u = &c->parts[r];
    u->max_dev = -1;
    for (size_t k = lo; k < hi && !u->failed; k++)
        u->failed = survey_event(c->in, u, c->in->starts[k]) != 0;
}

/* Adds what one run used to the input's usage. */
static int merge_usage(usage *into, const usage *u)
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

static int survey(input *in, int jobs, pf_error *err)
{
    in->u.max_dev = -1;
    if (index_events(in, err))
        return -1;
    size_t workers = pf_parallel_workers(jobs);
    usage *parts = calloc(workers, sizeof *parts);
    if (!parts)
        return pf_fail(err, "%s: out of memory", in->path);
    survey_ctx c = {in, parts};
    pf_parallel_ranges(in->n_events, workers, survey_range, &c);
    int rc = 0;
    for (size_t r = 0; r < workers && rc == 0; r++) {
        if (parts[r].failed && strcmp(parts[r].e.what, "out of memory") == 0)
            rc = pf_fail(err, "%s: out of memory", in->path);
        else if (parts[r].failed)
            rc = scan_error(in, &parts[r].e, err);
        else if (merge_usage(&in->u, &parts[r]))
            rc = pf_fail(err, "%s: out of memory", in->path);
    }
    for (size_t r = 0; r < workers; r++) {
        free(parts[r].pids);
        free(parts[r].spids);
    }
    free(parts);
    distinct_pids(&in->u);
    if (rc == 0)
        survey_props(in);
    return rc;
}

/* ---- the plan: how each input's pids, devices, ids and times move ---- */

/* What earlier inputs hold in the output: their GPU blocks (device ids and GPU pids,
 * [lo, hi)), every other integer pid (a hash set: a trace may hold many), string pids. */
typedef struct taken {
    int64_t (*blocks)[2];
    size_t n_blocks, cap_blocks;
    int64_t *set;              /* open addressing; INT64_MIN (never a pid) marks a free slot */
    size_t set_n, set_cap;
    str_pid *s;
    size_t ns, caps;
} taken;

static size_t slot_of(const taken *tk, int64_t v)
{
    return (size_t)(((uint64_t)v * UINT64_C(0x9E3779B97F4A7C15)) >> 7) & (tk->set_cap - 1);
}

static int in_set(const taken *tk, int64_t v)
{
    if (!tk->set_cap)
        return 0;
    for (size_t i = slot_of(tk, v); tk->set[i] != INT64_MIN; i = (i + 1) & (tk->set_cap - 1))
        if (tk->set[i] == v)
            return 1;
    return 0;
}

static int set_add(taken *tk, int64_t v);

/* Doubles the set (kept at most half full). */
static int set_grow(taken *tk)
{
    int64_t *old = tk->set;
    size_t old_cap = tk->set_cap, cap = old_cap ? old_cap * 2 : 64;
    tk->set = malloc(cap * sizeof *tk->set);
    if (!tk->set) {
        tk->set = old;
        return -1;
    }
    for (size_t i = 0; i < cap; i++)
        tk->set[i] = INT64_MIN;
    tk->set_cap = cap;
    tk->set_n = 0;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i] != INT64_MIN)
            set_add(tk, old[i]);
    free(old);
    return 0;
}

static int set_add(taken *tk, int64_t v)
{
    if (in_set(tk, v))
        return 0;
    if ((tk->set_n + 1) * 2 > tk->set_cap && set_grow(tk))
        return -1;
    size_t i = slot_of(tk, v);
    while (tk->set[i] != INT64_MIN)
        i = (i + 1) & (tk->set_cap - 1);
    tk->set[i] = v;
    tk->set_n++;
    return 0;
}

static int is_taken(const taken *tk, int64_t v)
{
    for (size_t i = 0; i < tk->n_blocks; i++)
        if (v >= tk->blocks[i][0] && v < tk->blocks[i][1])
            return 1;
    return in_set(tk, v);
}

static int is_gpu_slot(const input *in, int64_t pid)
{
    return pid >= 0 && pid < in->gpu_slots;
}

/* Whether the input's GPU block, moved by shift, meets anything given out: another block,
 * or (for the GPU pids it has) a pid. */
static int block_clashes(const input *in, const taken *tk, int64_t shift)
{
    int64_t lo = shift, hi = shift + in->gpu_slots;
    for (size_t i = 0; i < tk->n_blocks; i++)
        if (lo < tk->blocks[i][1] && tk->blocks[i][0] < hi)
            return 1;
    for (size_t i = 0; i < in->u.n_pids; i++)
        if (is_gpu_slot(in, in->u.pids[i].from) && in_set(tk, in->u.pids[i].from + shift))
            return 1;
    return 0;
}

/* The device shift: 0 when the input's GPU block (ids 0 .. max(15, largest device)) meets
 * nothing given out, else the first shift from the end of the earlier blocks that does not. */
static int plan_devices(input *in, taken *tk, int64_t *dev_end, pf_error *err)
{
    in->gpu_slots = in->u.max_dev + 1 > GPU_PID_SLOTS ? in->u.max_dev + 1 : GPU_PID_SLOTS;
    in->dev_shift = 0;
    if (block_clashes(in, tk, 0))
        for (in->dev_shift = *dev_end; block_clashes(in, tk, in->dev_shift);)
            in->dev_shift++;
    if (in->u.max_dev + in->dev_shift > MAX_DEVICE)
        return pf_fail(err, "%s: too many devices to combine (device ids above %d)", in->path, MAX_DEVICE);
    if (in->dev_shift + in->gpu_slots > *dev_end)
        *dev_end = in->dev_shift + in->gpu_slots;
    if (grow((void **)&tk->blocks, &tk->cap_blocks, tk->n_blocks + 1, sizeof *tk->blocks))
        return pf_fail(err, "out of memory");
    tk->blocks[tk->n_blocks][0] = in->dev_shift;
    tk->blocks[tk->n_blocks][1] = in->dev_shift + in->gpu_slots;
    tk->n_blocks++;
    return 0;
}

static int has_pid(const input *in, int64_t v)
{
    int_pid key = {v, v};
    return in->u.n_pids && bsearch(&key, in->u.pids, in->u.n_pids, sizeof *in->u.pids, cmp_pid);
}

/* GPU pids move with the devices; other pids move only when taken, to p + k * step (then
 * further by n * step until free). */
static int plan_int_pids(input *in, int k, int n, taken *tk, pf_error *err)
{
    for (size_t i = 0; i < in->u.n_pids; i++) {
        int_pid *p = &in->u.pids[i];
        int bad = 0;
        if (is_gpu_slot(in, p->from)) {
            p->to = p->from + in->dev_shift;
        } else if (is_taken(tk, p->from)) {
            bad = add_ok(p->from, k * HOST_PID_STEP, &p->to);
            while (!bad && (is_taken(tk, p->to) || has_pid(in, p->to)))
                bad = add_ok(p->to, n * HOST_PID_STEP, &p->to);
        }
        if (bad)
            return pf_fail(err, "%s: pid %lld is too large to move", in->path, (long long)p->from);
        if (set_add(tk, p->to))
            return pf_fail(err, "out of memory");
    }
    return 0;
}

static int str_taken(const taken *tk, const char *t, size_t len)
{
    for (size_t i = 0; i < tk->ns; i++)
        if (str_pid_eq(&tk->s[i], t, len))
            return 1;
    return 0;
}

/* A taken string pid "Spans" of input K becomes "Spans [K]" (again until free). */
static int plan_str_pids(input *in, int k, taken *tk)
{
    for (size_t i = 0; i < in->u.n_spids; i++) {
        str_pid *p = &in->u.spids[i];
        const char *t = p->text;
        size_t len = p->len;
        while (str_taken(tk, t, len)) {
            char *nt = malloc(len + 24);
            if (!nt)
                return -1;
            len = (size_t)snprintf(nt, len + 24, "%.*s [%d]\"", (int)(len - 1), t, k + 1);
            free(p->to);
            p->to = nt;
            t = nt;
        }
        if (grow((void **)&tk->s, &tk->caps, tk->ns + 1, sizeof *tk->s))
            return -1;
        tk->s[tk->ns++] = (str_pid){t, len, NULL};
    }
    return 0;
}

static int plan(combine *c)
{
    taken tk = {0};
    int64_t dev_end = 0, id_end = 0;
    int rc = 0;
    for (int k = 0; k < c->n && rc == 0; k++) {
        input *in = &c->in[k];
        rc = plan_devices(in, &tk, &dev_end, c->err);
        if (rc == 0)
            rc = plan_int_pids(in, k, c->n, &tk, c->err);
        if (rc == 0 && plan_str_pids(in, k, &tk))
            rc = pf_fail(c->err, "out of memory");
        /* Ids of a later input start above every earlier one when the ranges overlap. */
        in->id_shift = k > 0 && in->u.has_ids && in->u.min_id < id_end ? id_end : 0;
        int64_t end = 0;
        if (rc == 0 && in->u.has_ids && (add_ok(in->u.max_id, in->id_shift, &end) || add_ok(end, 1, &end)))
            rc = pf_fail(c->err, "%s: ids too large to move above the earlier inputs'", in->path);
        if (in->u.has_ids && end > id_end)
            id_end = end;
        in->ts_shift_ns = 0;
        if (rc == 0 && in->has_base && c->in[0].has_base &&
            __builtin_sub_overflow(in->base_ns, c->in[0].base_ns, &in->ts_shift_ns))
            rc = pf_fail(c->err, "%s: baseTimeNanoseconds too far from the first input's", in->path);
        int o = snprintf(in->source, sizeof in->source, "{\"input\": %d", k + 1);
        if (in->has_rank)
            o += snprintf(in->source + o, sizeof in->source - (size_t)o, ", \"rank\": %lld", (long long)in->rank);
        snprintf(in->source + o, sizeof in->source - (size_t)o, "}");
    }
    free(tk.blocks);
    free(tk.set);
    free(tk.s);
    return rc;
}

/* ---- pass 2: writing ---- */

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
    if (by == 0 || read_int(s, span, &v) || v < lo || v > hi || add_ok(v, by, &v))
        return 0;
    return put_int(sp, s, span, v);
}

static int put_pid(const input *in, pf_splice *sp, const ev_fields *f)
{
    const char *s = in->s;
    int64_t v;
    if (!f->pid[1])
        return 0;
    if (s[f->pid[0]] != '"' && read_int(s, f->pid, &v) == 0) {
        int_pid key = {v, v};
        const int_pid *p = in->u.n_pids ? bsearch(&key, in->u.pids, in->u.n_pids, sizeof *in->u.pids, cmp_pid) : NULL;
        return p && p->to != v ? put_int(sp, s, f->pid, p->to) : 0;
    }
    size_t n = f->pid[1] - f->pid[0];
    for (size_t i = 0; i < in->u.n_spids; i++)
        if (in->u.spids[i].len == n && memcmp(in->u.spids[i].text, s + f->pid[0], n) == 0)
            return in->u.spids[i].to ? pf_splice_put(sp, f->pid[0], f->pid[1], in->u.spids[i].to,
                                                   strlen(in->u.spids[i].to))
                                   : 0;
    return 0;
}

/* Kineto's ts: microseconds with three decimals, rewritten exactly in integer nanoseconds.
 * Returns 0, -1 when memory runs out, -2 when the moved time does not fit. */
static int put_ts(const input *in, pf_splice *sp, const ev_fields *f)
{
    int64_t ns;
    if (in->ts_shift_ns == 0 || !f->ts[1] || pf_json_us_to_ns(in->s, f->ts[0], f->ts[1], &ns))
        return 0;
    if (add_ok(ns, in->ts_shift_ns, &ns) || ns == INT64_MIN)
        return -2;
    char buf[40];
    unsigned long long a = ns < 0 ? (unsigned long long)-ns : (unsigned long long)ns;
    int n = snprintf(buf, sizeof buf, "%s%llu.%03llu", ns < 0 ? "-" : "", a / 1000, a % 1000);
    return pf_splice_put(sp, f->ts[0], f->ts[1], buf, (size_t)n);
}

static int put_args(const input *in, pf_splice *sp, const ev_fields *f)
{
    const char *s = in->s;
    size_t p = f->args[0], last;
    pf_jmember m;
    pf_jerr e;
    int rc = 0, tagged = 0;
    pf_json_obj_begin(s, in->len, &p, &e);
    last = p;
    while (rc == 0 && pf_json_obj_next(s, in->len, &p, &m, &e) == 1) {
        size_t span[2] = {m.val_start, m.val_end};
        last = m.val_end;
        switch (arg_kind_of(s, &m)) {
        case ARG_DEVICE:
            rc = shift_int(sp, s, span, in->dev_shift, 0, MAX_DEVICE);
            break;
        case ARG_ID:
            rc = shift_int(sp, s, span, in->id_shift, INT64_MIN, INT64_MAX);
            break;
        case ARG_SOURCE:
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
    int n = snprintf(buf, sizeof buf, "%s\"profana_source\": %s", last == f->args[0] + 1 ? "" : ", ",
                     in->source);
    return pf_splice_put(sp, last, last, buf, (size_t)n);
}

/* Plans event k's changes (runs on several threads at once): 0, or -1 with e set. */
static int plan_event(void *ctx, size_t k, pf_splice *sp, pf_jerr *e)
{
    const input *in = ctx;
    size_t start = in->starts[k];
    ev_fields f;
    if (in->s[start] != '{')
        return 0;
    if (scan_event(in, start, &f, e))
        return -1;
    int rc = put_pid(in, sp, &f);
    if (rc == 0 && (rc = put_ts(in, sp, &f)) == -2) {
        *e = (pf_jerr){f.ts[0], "ts out of range once moved to the first input's base time", 0};
        return -1;
    }
    if (rc == 0 && f.id[1] && is_flow(in->s, &f))
        rc = shift_int(sp, in->s, f.id, in->id_shift, INT64_MIN, INT64_MAX);
    if (rc == 0 && f.args[1] && in->s[f.args[0]] == '{')
        rc = put_args(in, sp, &f);
    else if (rc == 0 && !f.args[1]) {
        char buf[160];
        int n = snprintf(buf, sizeof buf, "%s\"args\": {\"profana_source\": %s}",
                         f.last_end == start + 1 ? "" : ", ", in->source);
        rc = pf_splice_put(sp, f.last_end, f.last_end, buf, (size_t)n);
    }
    if (rc)
        *e = (pf_jerr){start, "out of memory", 0};
    return rc ? -1 : 0;
}

static size_t event_start(void *ctx, size_t k)
{
    const input *in = ctx;
    return in->starts[k];
}

static void input_written(void *ctx, size_t upto)
{
    const input *in = ctx;
    pf_source_done(in->s, in->len, in->mapped, upto);
}

static int write_bytes(FILE *f, const char *p, size_t n)
{
    return n == 0 || fwrite(p, 1, n, f) == n ? 0 : -1;
}

/* Writes an input's events with their changes (planned on several threads), from *cursor
 * (at or before the first event) to the end of the last. */
static int write_events(const combine *c, const input *in, size_t *cursor)
{
    pf_splice_items items = {in->n_events, event_start, plan_event, (void *)in, input_written};
    pf_jerr e;
    int rc = pf_splice_write_parallel(in->s, *cursor, in->end_ev, &items, c->jobs, c->of->f, &e);
    *cursor = in->end_ev;
    if (rc == -2)
        return pf_outfile_write_error(c->of, c->err);
    if (rc && strcmp(e.what, "out of memory") == 0)
        return pf_fail(c->err, "out of memory");
    return rc ? scan_error(in, &e, c->err) : 0;
}

/* ---- deviceProperties ---- */

typedef struct props {
    char *text;                /* the entries appended to the first input's, each ", {...}" */
    size_t len, cap;
    struct {
        int64_t id;
        const char *name;
        size_t name_len;
    } *seen;
    size_t n_seen, cap_seen, n_entries;
} props;

static int append(props *pr, const char *p, size_t n)
{
    if (grow((void **)&pr->text, &pr->cap, pr->len + n + 1, 1))
        return -1;
    memcpy(pr->text + pr->len, p, n);
    pr->len += n;
    pr->text[pr->len] = '\0';
    return 0;
}

/* Records an entry's (id, name); 1 when the merged list has it already. */
static int seen_entry(props *pr, int64_t id, const char *name, size_t name_len, int *dup)
{
    *dup = 0;
    for (size_t i = 0; i < pr->n_seen && !*dup; i++)
        *dup = pr->seen[i].id == id && pr->seen[i].name_len == name_len &&
               memcmp(pr->seen[i].name, name, name_len) == 0;
    if (*dup)
        return 0;
    if (grow((void **)&pr->seen, &pr->cap_seen, pr->n_seen + 1, sizeof *pr->seen))
        return -1;
    pr->seen[pr->n_seen].id = id;
    pr->seen[pr->n_seen].name = name;
    pr->seen[pr->n_seen].name_len = name_len;
    pr->n_seen++;
    return 0;
}

/* One entry of input `in`: kept when its (shifted id, name) is new, with "id" rewritten. */
static int merge_entry(props *pr, const input *in, size_t vs, size_t ve, int keep_text)
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
    if (id_sp[1] && read_int(s, id_sp, &id) == 0)
        id += in->dev_shift;
    if (seen_entry(pr, id, s + name_sp[0], name_sp[1] - name_sp[0], &dup))
        return -1;
    if (dup || !keep_text)
        return 0;
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%lld", (long long)id);
    int rc = pr->n_entries++ ? append(pr, ", ", 2) : 0;
    if (id_sp[1] && in->dev_shift) {
        rc = rc || append(pr, s + vs, id_sp[0] - vs) || append(pr, buf, (size_t)n) ||
             append(pr, s + id_sp[1], ve - id_sp[1]);
    } else {
        rc = rc || append(pr, s + vs, ve - vs);
    }
    return rc;
}

/* The first input's entries are kept in place; the later inputs' new ones are appended. */
static int merge_props(const combine *c, props *pr)
{
    for (int k = 0; k < c->n; k++) {
        const input *in = &c->in[k];
        size_t p = in->props[0], vs, ve;
        pf_jerr e;
        if (!in->props[1])
            continue;
        pf_json_arr_begin(in->s, in->len, &p, &e);
        while (pf_json_arr_next(in->s, in->len, &p, &vs, &ve, &e) == 1)
            if (in->s[vs] == '{' && merge_entry(pr, in, vs, ve, k > 0))
                return -1;
    }
    return 0;
}

/* Plans the merged deviceProperties into the first input's text. */
static int put_props(const input *first, const props *pr, pf_splice *sp)
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

static int write_combined(const combine *c, const props *pr)
{
    FILE *out = c->of->f;
    const input *first = &c->in[0];
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
    int any = first->n_events > 0;
    for (int k = 1; k < c->n && rc == 0; k++) {
        const input *in = &c->in[k];
        size_t cur = in->first_ev;
        if (!in->n_events)
            continue;
        if (any && write_bytes(out, ",\n  ", 4))
            rc = pf_outfile_write_error(c->of, c->err);
        any = 1;
        if (rc == 0)
            rc = write_events(c, in, &cur);
    }
    if (rc == 0 && !wrap && first->props[1] && !before && put_props(first, pr, &sp))
        rc = pf_fail(c->err, "out of memory");
    if (rc == 0 && (pf_splice_flush(&sp, first->s, &cursor, out) ||
                    write_bytes(out, first->s + cursor, first->len - cursor) ||
                    (wrap && write_bytes(out, "}\n", 2))))
        rc = pf_outfile_write_error(c->of, c->err);
    pf_splice_free(&sp);
    return rc;
}

static int read_inputs(combine *c, pf_error *err)
{
    for (int k = 0; k < c->n; k++) {
        input *in = &c->in[k];
        if (pf_source_read(in->path, &in->s, &in->len, &in->mapped, err))
            return -1;
        if (read_top(in, err) || survey(in, c->jobs, err))
            return -1;
    }
    return 0;
}

static void free_inputs(combine *c)
{
    for (int k = 0; k < c->n; k++) {
        input *in = &c->in[k];
        if (in->s)
            pf_source_release(in->s, in->len, in->mapped);
        for (size_t i = 0; i < in->u.n_spids; i++)
            free(in->u.spids[i].to);
        free(in->u.spids);
        free(in->u.pids);
        free(in->starts);
    }
    free(c->in);
}

static int check_paths(const pf_cli *cli, int n, const char *outp)
{
    int stdin_uses = 0;
    for (int k = 0; k < n; k++) {
        stdin_uses += strcmp(cli->pos[k], "-") == 0;
        if (pf_same_file(cli->pos[k], outp))
            return pf_cli_usage_error("--combine: OUT '%s' is also input %d; write to another file", outp,
                                      k + 1);
    }
    if (stdin_uses > 1)
        return pf_cli_usage_error("--combine: standard input ('-') can be only one of the inputs");
    return 0;
}

int cmd_combine(const pf_cli *cli)
{
    int n = cli->npos - 1;
    const char *outp = cli->pos[n];
    int rc = check_paths(cli, n, outp);
    if (rc)
        return rc;
    pf_error err;
    combine c = {.in = calloc((size_t)n, sizeof *c.in), .n = n, .jobs = cli->load.jobs, .err = &err};
    if (!c.in)
        return pf_cli_error("out of memory");
    for (int k = 0; k < n; k++)
        c.in[k].path = cli->pos[k];
    props pr = {0};
    rc = read_inputs(&c, &err);
    if (rc == 0)
        rc = plan(&c);
    if (rc == 0 && merge_props(&c, &pr))
        rc = pf_fail(&err, "out of memory");
    if (rc == 0) {
        pf_outfile of;
        rc = pf_outfile_open(&of, outp, &err);
        c.of = &of;
        if (rc == 0 && write_combined(&c, &pr) == 0)
            rc = pf_outfile_commit(&of, &err);
        else if (rc == 0) {
            pf_outfile_abort(&of);
            rc = -1;
        }
    }
    free(pr.text);
    free(pr.seen);
    free_inputs(&c);
    return rc ? pf_cli_error(err.msg) : PF_EXIT_OK;
}
