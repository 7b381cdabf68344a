/* trace_load.c - the loader: scans the trace text event by event and fills the model without a JSON tree. */
#include "profana/trace.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/jscan.h"
#include "trace_internal.h"

typedef struct loader {
    pf_trace *t;
    const char *s;
    size_t len;
    const char *path;
    size_t cap_acts, cap_ops, cap_cpu, cap_steps;
    size_t dev_props_start, dev_props_end; /* deviceProperties extent; 0,0 when absent */
    pf_error *err;
} loader;

/* Extents of the event fields the model needs, found in one pass over the members. */
typedef struct event_fields {
    size_t ph[2], cat[2], name[2], ts[2], dur[2], pid[2], tid[2], args[2];
} event_fields;

/* Fields of a GPU activity's args. */
typedef struct act_args {
    int64_t ext_id, device, stream, correlation, bytes;
    int has_device;
} act_args;

static int syntax_error(loader *L, const pf_jerr *e)
{
    if (e->truncated)
        return pf_fail(L->err, "%s: byte %zu: trace is cut off (unexpected end of input)", L->path,
                       e->pos);
    return pf_fail(L->err, "%s: byte %zu: %s", L->path, e->pos, e->what);
}

static int span_is(const loader *L, const size_t sp[2], const char *quoted)
{
    size_t n = strlen(quoted);
    return sp[1] - sp[0] == n && memcmp(L->s + sp[0], quoted, n) == 0;
}

static int grow(void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t nc = *cap ? *cap * 2 : 1024;
    while (nc < need)
        nc *= 2;
    void *p = realloc(*arr, nc * elem);
    if (!p)
        return -1;
    *arr = p;
    *cap = nc;
    return 0;
}

/* Interns a JSON string value, decoding escapes only when there are any. */
static const char *intern_string(loader *L, const size_t sp[2])
{
    const char *s = L->s;
    if (sp[1] - sp[0] < 2 || s[sp[0]] != '"')
        return NULL;
    if (!memchr(s + sp[0] + 1, '\\', sp[1] - sp[0] - 2)) {
        int plain = 1;
        for (size_t i = sp[0] + 1; i + 1 < sp[1] && plain; i++)
            plain = (unsigned char)s[i] < 0x80;
        if (plain)
            return pf_strtab_intern(L->t->strings, s + sp[0] + 1, sp[1] - sp[0] - 2);
    }
    size_t n;
    char *dec = pf_json_string(s, sp[0], sp[1], &n);
    if (!dec)
        return NULL;
    const char *r = pf_strtab_intern(L->t->strings, dec, n);
    free(dec);
    return r;
}

static void set_span(size_t sp[2], const pf_jmember *m)
{
    sp[0] = m->val_start;
    sp[1] = m->val_end;
}

/* Records the extent of each field the model reads; the rest are validated and skipped. */
static int scan_event_fields(loader *L, size_t start, event_fields *f)
{
    pf_jerr e;
    pf_jmember m;
    size_t p = start;
    memset(f, 0, sizeof *f);
    if (pf_json_obj_begin(L->s, L->len, &p, &e))
        return syntax_error(L, &e);
    int r;
    while ((r = pf_json_obj_next(L->s, L->len, &p, &m, &e)) == 1) {
        const char *k = L->s + m.key_start;
        switch (m.key_end - m.key_start) {
        case 2:
            if (k[0] == 'p' && k[1] == 'h')
                set_span(f->ph, &m);
            else if (k[0] == 't' && k[1] == 's')
                set_span(f->ts, &m);
            break;
        case 3:
            if (memcmp(k, "cat", 3) == 0)
                set_span(f->cat, &m);
            else if (memcmp(k, "dur", 3) == 0)
                set_span(f->dur, &m);
            else if (memcmp(k, "pid", 3) == 0)
                set_span(f->pid, &m);
            else if (memcmp(k, "tid", 3) == 0)
                set_span(f->tid, &m);
            break;
        case 4:
            if (memcmp(k, "name", 4) == 0)
                set_span(f->name, &m);
            else if (memcmp(k, "args", 4) == 0)
                set_span(f->args, &m);
            break;
        default:
            break;
        }
    }
    return r < 0 ? syntax_error(L, &e) : 0;
}

static void read_int_member(const loader *L, const pf_jmember *m, int64_t *v, int *ok)
{
    int64_t x;
    if (pf_json_int(L->s, m->val_start, m->val_end, &x) == 0) {
        *v = x;
        if (ok)
            *ok = 1;
    }
}

static void scan_act_args(loader *L, const size_t sp[2], act_args *a)
{
    a->ext_id = a->correlation = a->bytes = -1;
    a->device = a->stream = 0;
    a->has_device = 0;
    if (sp[1] == sp[0] || L->s[sp[0]] != '{')
        return;
    pf_jerr e;
    pf_jmember m;
    size_t p = sp[0];
    pf_json_obj_begin(L->s, L->len, &p, &e);
    /* The extent was validated by scan_event_fields, so iteration cannot fail here. */
    while (pf_json_obj_next(L->s, L->len, &p, &m, &e) == 1) {
        if (pf_json_key_is(L->s, &m, "External id"))
            read_int_member(L, &m, &a->ext_id, NULL);
        else if (pf_json_key_is(L->s, &m, "device"))
            read_int_member(L, &m, &a->device, &a->has_device);
        else if (pf_json_key_is(L->s, &m, "stream"))
            read_int_member(L, &m, &a->stream, NULL);
        else if (pf_json_key_is(L->s, &m, "correlation"))
            read_int_member(L, &m, &a->correlation, NULL);
        else if (pf_json_key_is(L->s, &m, "bytes"))
            read_int_member(L, &m, &a->bytes, NULL);
    }
}

static int activity_kind(const loader *L, const event_fields *f, pf_act_kind *kind)
{
    if (span_is(L, f->cat, "\"kernel\""))
        *kind = PF_ACT_KERNEL;
    else if (span_is(L, f->cat, "\"gpu_memcpy\""))
        *kind = PF_ACT_MEMCPY;
    else if (span_is(L, f->cat, "\"gpu_memset\""))
        *kind = PF_ACT_MEMSET;
    else
        return 0;
    return 1;
}

/* Times beyond these are not from a profiler (2^50 ns is 13 days): refusing them keeps
 * every sum and every ts + dur far from int64 overflow. */
#define PF_MAX_DUR_NS (INT64_C(1) << 50)
#define PF_MAX_TS_NS (INT64_C(1) << 61)

static int read_times(const loader *L, const event_fields *f, int64_t *ts, int64_t *dur)
{
    if (pf_json_us_to_ns(L->s, f->ts[0], f->ts[1], ts) || pf_json_us_to_ns(L->s, f->dur[0], f->dur[1], dur))
        return -1;
    if (*dur < 0 || *dur > PF_MAX_DUR_NS || *ts > PF_MAX_TS_NS || *ts < -PF_MAX_TS_NS)
        return -1;
    return 0;
}

/* The device of a GPU-side event: args.device, else pid (ROCm and annotations). */
static int event_device(const loader *L, const event_fields *f, const act_args *aa, int64_t *dev)
{
    int64_t pid = 0;
    *dev = aa->device;
    if (!aa->has_device && f->pid[1] && pf_json_int(L->s, f->pid[0], f->pid[1], &pid) == 0)
        *dev = pid;
    return *dev < 0 || *dev > 65535 ? -1 : 0;
}

static int add_activity(loader *L, const event_fields *f, pf_act_kind kind, size_t start)
{
    pf_trace *t = L->t;
    pf_activity a = {0};
    a.kind = kind;
    a.src_off = (int64_t)start;
    if (read_times(L, f, &a.ts_ns, &a.dur_ns) || !f->name[1]) {
        t->n_bad_events++;
        return 0;
    }
    a.name = intern_string(L, f->name);
    if (!a.name) {
        t->n_bad_events++;
        return 0;
    }
    act_args aa;
    int64_t dev;
    scan_act_args(L, f->args, &aa);
    if (event_device(L, f, &aa, &dev)) {
        t->n_bad_events++;
        return 0;
    }
    a.device = (int)dev;
    a.stream = aa.stream;
    a.ext_id = aa.ext_id;
    a.correlation = aa.correlation;
    a.bytes = aa.bytes;
    a.op = -1;
    if (grow((void **)&t->acts, &L->cap_acts, t->n_acts + 1, sizeof *t->acts))
        return pf_fail(L->err, "%s: out of memory", L->path);
    t->acts[t->n_acts++] = a;
    return 0;
}

static int64_t args_ext_id(const loader *L, const size_t sp[2])
{
    if (sp[1] == sp[0] || L->s[sp[0]] != '{')
        return -1;
    pf_jerr e;
    pf_jmember m;
    size_t p = sp[0];
    int64_t id = -1;
    pf_json_obj_begin(L->s, L->len, &p, &e);
    while (pf_json_obj_next(L->s, L->len, &p, &m, &e) == 1) {
        if (pf_json_key_is(L->s, &m, "External id")) {
            read_int_member(L, &m, &id, NULL);
            break;
        }
    }
    return id;
}

static int add_cpu_event(loader *L, const event_fields *f, const char *op_name);

static int add_cpu_op(loader *L, const event_fields *f, size_t start)
{
    pf_trace *t = L->t;
    const char *name = f->name[1] ? intern_string(L, f->name) : NULL;
    if (!name) {
        t->n_bad_events++;
        return 0;
    }
    if (add_cpu_event(L, f, name))
        return -1;
    int64_t id = args_ext_id(L, f->args);
    if (id < 0)
        return 0; /* cannot be linked: only its CPU time counts */
    if (grow((void **)&t->ops, &L->cap_ops, t->n_ops + 1, sizeof *t->ops))
        return pf_fail(L->err, "%s: out of memory", L->path);
    pf_cpu_op *op = &t->ops[t->n_ops++];
    memset(op, 0, sizeof *op);
    op->name = name;
    op->ext_id = id;
    op->kernel_flop = op->kernel_num_gb = -1;
    op->args_start = f->args[0];
    op->args_end = f->args[1];
    op->src_off = (int64_t)start;
    return 0;
}

static uint64_t hash_span(const loader *L, const size_t sp[2], uint64_t h)
{
    for (size_t i = sp[0]; i < sp[1]; i++) {
        h ^= (unsigned char)L->s[i];
        h *= UINT64_C(1099511628211);
    }
    return h;
}

/* Host-side intervals nest on their thread; the per-op CPU times come from that nesting. */
static int is_host_interval(const loader *L, const event_fields *f)
{
    static const char *const cats[] = {"\"cpu_op\"", "\"cuda_runtime\"", "\"cuda_driver\"", "\"overhead\"",
                                       "\"user_annotation\"", "\"python_function\""};
    for (size_t i = 0; i < sizeof cats / sizeof cats[0]; i++)
        if (span_is(L, f->cat, cats[i]))
            return 1;
    return 0;
}

static int add_cpu_event(loader *L, const event_fields *f, const char *op_name)
{
    pf_trace *t = L->t;
    pf_cpu_event c = {.name = op_name};
    if (read_times(L, f, &c.ts_ns, &c.dur_ns))
        return 0;
    c.thread = hash_span(L, f->tid, hash_span(L, f->pid, UINT64_C(1469598103934665603)));
    if (grow((void **)&t->cpu, &L->cap_cpu, t->n_cpu + 1, sizeof *t->cpu))
        return pf_fail(L->err, "%s: out of memory", L->path);
    t->cpu[t->n_cpu++] = c;
    return 0;
}

static int is_profiler_step(const loader *L, const event_fields *f)
{
    static const char prefix[] = "\"ProfilerStep#";
    size_t n = sizeof prefix - 1;
    return f->name[1] - f->name[0] > n && memcmp(L->s + f->name[0], prefix, n) == 0;
}

static int add_gpu_step(loader *L, const event_fields *f)
{
    pf_trace *t = L->t;
    static const char prefix[] = "\"ProfilerStep#";
    pf_step st = {0};
    act_args aa;
    int64_t dev;
    scan_act_args(L, f->args, &aa);
    size_t p = f->name[0] + sizeof prefix - 1;
    int64_t n = 0;
    for (; p + 1 < f->name[1] && L->s[p] >= '0' && L->s[p] <= '9' && n < INT64_C(1) << 40; p++)
        n = n * 10 + (L->s[p] - '0');
    if (p + 1 != f->name[1] || read_times(L, f, &st.ts_ns, &st.dur_ns) || event_device(L, f, &aa, &dev)) {
        t->n_bad_events++;
        return 0;
    }
    st.number = n;
    st.device = (int)dev;
    if (grow((void **)&t->gpu_steps, &L->cap_steps, t->n_gpu_steps + 1, sizeof *t->gpu_steps))
        return pf_fail(L->err, "%s: out of memory", L->path);
    t->gpu_steps[t->n_gpu_steps++] = st;
    return 0;
}

static int load_event(loader *L, size_t start, size_t end)
{
    (void)end;
    if (L->s[start] != '{') {
        L->t->n_bad_events++;
        return 0;
    }
    event_fields f;
    if (scan_event_fields(L, start, &f))
        return -1;
    if (f.ph[1] && !span_is(L, f.ph, "\"X\""))
        return 0;
    pf_act_kind kind;
    if (activity_kind(L, &f, &kind))
        return add_activity(L, &f, kind, start);
    if (span_is(L, f.cat, "\"cpu_op\""))
        return add_cpu_op(L, &f, start);
    if (span_is(L, f.cat, "\"gpu_user_annotation\"") && is_profiler_step(L, &f))
        return add_gpu_step(L, &f);
    if (is_host_interval(L, &f) && add_cpu_event(L, &f, NULL))
        return -1;
    if (span_is(L, f.cat, "\"user_annotation\"") && is_profiler_step(L, &f))
        L->t->n_steps++;
    return 0;
}

static int load_events(loader *L, size_t *pos)
{
    pf_jerr e;
    size_t vs, ve;
    if (pf_json_arr_begin(L->s, L->len, pos, &e))
        return pf_fail(L->err, "%s: byte %zu: traceEvents is not an array", L->path, e.pos);
    int r;
    while ((r = pf_json_arr_next(L->s, L->len, pos, &vs, &ve, &e)) == 1) {
        L->t->n_events++;
        if (load_event(L, vs, ve))
            return -1;
    }
    return r < 0 ? syntax_error(L, &e) : 0;
}

static int load_object(loader *L, size_t pos)
{
    pf_jerr e;
    pf_jmember m;
    int have_events = 0;
    if (pf_json_obj_begin(L->s, L->len, &pos, &e))
        return syntax_error(L, &e);
    int r;
    while ((r = pf_json_obj_next(L->s, L->len, &pos, &m, &e)) == 1) {
        if (pf_json_key_is(L->s, &m, "traceEvents")) {
            size_t p = m.val_start;
            if (have_events)
                return pf_fail(L->err, "%s: byte %zu: traceEvents appears twice", L->path, m.key_start);
            have_events = 1;
            if (load_events(L, &p))
                return -1;
        } else if (pf_json_key_is(L->s, &m, "deviceProperties")) {
            L->dev_props_start = m.val_start;
            L->dev_props_end = m.val_end;
        }
    }
    if (r < 0)
        return syntax_error(L, &e);
    pos = pf_json_ws(L->s, L->len, pos);
    if (pos < L->len)
        return pf_fail(L->err, "%s: byte %zu: unexpected data after the trace object", L->path, pos);
    if (!have_events)
        return pf_fail(L->err, "%s: byte %zu: no \"traceEvents\" array: not a Kineto/chrome trace",
                       L->path, L->len);
    return 0;
}

static int load_top(loader *L)
{
    size_t pos = 0;
    if (L->len >= 3 && memcmp(L->s, "\xEF\xBB\xBF", 3) == 0)
        pos = 3; /* a UTF-8 byte order mark: harmless, some editors write it */
    pos = pf_json_ws(L->s, L->len, pos);
    if (pos >= L->len)
        return pf_fail(L->err, "%s: byte %zu: empty file, expected a JSON trace object", L->path,
                       pos);
    if (L->s[pos] == '{')
        return load_object(L, pos);
    if (L->s[pos] == '[') {
        if (load_events(L, &pos))
            return -1;
        pos = pf_json_ws(L->s, L->len, pos);
        if (pos < L->len)
            return pf_fail(L->err, "%s: byte %zu: unexpected data after the event array", L->path,
                           pos);
        return 0;
    }
    return pf_fail(L->err, "%s: byte %zu: expected '{' (a Kineto trace object) or '[' (an event array)",
                   L->path, pos);
}

int pf_trace_load(const char *path, pf_trace **out, pf_error *err)
{
    return pf_trace_load_opts(path, NULL, out, err);
}

int pf_trace_load_opts(const char *path, const pf_load_opts *opts, pf_trace **out, pf_error *err)
{
    (void)opts;
    *out = NULL;
    pf_trace *t = calloc(1, sizeof *t);
    if (!t || !(t->strings = pf_strtab_new())) {
        free(t);
        return pf_fail(err, "%s: out of memory", path);
    }
    t->path = path;
    char *buf = NULL;
    size_t len = 0;
    int mapped = 0;
    if (pf_source_read(path, &buf, &len, &mapped, err)) {
        pf_trace_free(t);
        return -1;
    }
    loader L = {.t = t, .s = buf, .len = len, .path = path, .err = err};
    int rc = load_top(&L);
    if (rc == 0)
        rc = pf_trace_devices_from_props(t, buf + L.dev_props_start,
                                         L.dev_props_end - L.dev_props_start, err);
    if (rc == 0)
        rc = pf_trace_link(t, buf, err);
    pf_source_release(buf, len, mapped);
    if (rc) {
        pf_trace_free(t);
        return -1;
    }
    *out = t;
    return 0;
}
