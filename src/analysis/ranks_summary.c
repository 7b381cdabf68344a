/* ranks_summary.c - a --summary file read back into the pf_rank_summary that --ranks keeps of a trace, so that --ranks over summaries runs the code it runs over traces; and telling a summary from a trace by its first bytes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/jscan.h"
#include "profana/ranks.h"

/* A member's value read as what the summary's layout says it is. */
typedef struct reader {
    const char *path, *s;
    size_t len;
    pf_error *err;
} reader;

/* A kernel's start and duration within what the loader keeps of a trace (trace_values.h:
 * PF_MAX_TS_NS, PF_MAX_DUR_NS; docs/reliability.md, "Limits"), so that no difference of two starts or sum of
 * a start and a duration overflows; sums over many kernels saturate (satmath.h). */
#define SUMMARY_MAX_TS_NS (INT64_C(1) << 61)
#define SUMMARY_MAX_DUR_NS (INT64_C(1) << 50)

static int bad(const reader *r, size_t at, const char *what)
{
    return pf_fail(r->err, "%s: byte %zu: %s", r->path, at, what);
}

/* A member given a second time: which value is meant is not known, so neither is taken. */
static int twice(const reader *r, const pf_jmember *m)
{
    return pf_fail(r->err, "%s: byte %zu: \"%.*s\" given twice", r->path, m->key_start,
                   (int)(m->key_end - m->key_start > 64 ? 64 : m->key_end - m->key_start), r->s + m->key_start);
}

/* An integer in [lo, hi] at m's value. */
static int read_int(const reader *r, const pf_jmember *m, int64_t lo, int64_t hi, int64_t *v)
{
    if (r->s[m->val_start] == '"' || pf_json_int(r->s, m->val_start, m->val_end, v) || *v < lo || *v > hi)
        return bad(r, m->val_start, "expected a whole number in the summary's range");
    return 0;
}

static int is_null(const reader *r, const pf_jmember *m)
{
    return m->val_end - m->val_start == 4 && memcmp(r->s + m->val_start, "null", 4) == 0;
}

/* A string, or null (buf ""), into buf of cap bytes (cut as the trace's reading cuts it). */
static int read_text(const reader *r, const pf_jmember *m, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (is_null(r, m))
        return 0;
    if (r->s[m->val_start] != '"')
        return bad(r, m->val_start, "expected a string or null");
    char *v = pf_json_string(r->s, m->val_start, m->val_end, NULL);
    if (!v)
        return pf_fail(r->err, "%s: out of memory", r->path);
    snprintf(buf, cap, "%s", v);
    free(v);
    return 0;
}

enum { T_GPU, T_BUSY, T_SPAN, T_COMM, T_EXPOSED, T_COUNT };
static const char *const time_keys[T_COUNT] = {"gpu_ns", "busy_ns", "span_ns", "comm_ns", "exposed_ns"};

/* Sets one of the time members when m is one; 1 when it was, 0 when m is another, -1 on error. */
static int read_time(const reader *r, const pf_jmember *m, pf_rank_times *t, unsigned *seen)
{
    int64_t *field[T_COUNT] = {&t->gpu_ns, &t->busy_ns, &t->span_ns, &t->comm_ns, &t->exposed_ns};
    for (int k = 0; k < T_COUNT; k++)
        if (pf_json_key_is(r->s, m, time_keys[k])) {
            if (*seen >> k & 1)
                return twice(r, m);
            *seen |= 1u << k;
            return read_int(r, m, 0, INT64_MAX, field[k]) ? -1 : 1;
        }
    return 0;
}

/* Every time member present, and busy within span; idle follows (span - busy). */
static int times_done(const reader *r, size_t at, pf_rank_times *t, unsigned seen)
{
    for (int k = 0; k < T_COUNT; k++)
        if (!(seen >> k & 1))
            return pf_fail(r->err, "%s: byte %zu: the summary has no \"%s\" here", r->path, at, time_keys[k]);
    if (t->busy_ns > t->span_ns)
        return bad(r, at, "busy_ns is larger than span_ns");
    /* exposed communication is the part of comm_ns no compute kernel covers */
    if (t->exposed_ns > t->comm_ns)
        return bad(r, at, "exposed_ns is larger than comm_ns");
    t->idle_ns = t->span_ns - t->busy_ns;
    return 0;
}

/* Iterates the objects of the array at m: calls each(r, at, end, i, ctx) for object i. */
typedef int (*each_obj)(const reader *r, size_t at, size_t end, size_t i, void *ctx);

static int count_items(const reader *r, const pf_jmember *m, size_t *n)
{
    size_t p = m->val_start, a, b;
    pf_jerr e;
    *n = 0;
    if (r->s[p] != '[' || pf_json_arr_begin(r->s, m->val_end, &p, &e))
        return bad(r, m->val_start, "expected an array");
    int k;
    while ((k = pf_json_arr_next(r->s, m->val_end, &p, &a, &b, &e)) == 1)
        ++*n;
    return k < 0 ? bad(r, e.pos, e.what) : 0;
}

static int for_each(const reader *r, const pf_jmember *m, each_obj f, void *ctx)
{
    size_t p = m->val_start, a, b, i = 0;
    pf_jerr e;
    if (pf_json_arr_begin(r->s, m->val_end, &p, &e))
        return bad(r, e.pos, e.what);
    while (pf_json_arr_next(r->s, m->val_end, &p, &a, &b, &e) == 1) {
        if (r->s[a] != '{')
            return bad(r, a, "expected an object");
        if (f(r, a, b, i++, ctx))
            return -1;
    }
    return 0;
}

static int read_step(const reader *r, size_t at, size_t end, size_t i, void *ctx)
{
    pf_rank_summary *s = ctx;
    pf_rank_step *st = &s->steps[i];
    size_t p = at;
    pf_jmember m;
    pf_jerr e;
    unsigned seen = 0;
    int has_number = 0, k;
    pf_json_obj_begin(r->s, end, &p, &e);
    while ((k = pf_json_obj_next(r->s, end, &p, &m, &e)) == 1) {
        int t = read_time(r, &m, &st->t, &seen);
        if (t < 0)
            return -1;
        if (t == 0 && pf_json_key_is(r->s, &m, "compute_ns") && read_int(r, &m, 0, INT64_MAX, &st->t.compute_ns))
            return -1;
        if (t == 0 && pf_json_key_is(r->s, &m, "step")) {
            if (has_number)
                return twice(r, &m);
            has_number = 1;
            if (read_int(r, &m, INT64_MIN + 1, INT64_MAX, &st->number))
                return -1;
        }
    }
    if (k < 0)
        return bad(r, e.pos, e.what);
    if (!has_number)
        return bad(r, at, "a step without \"step\"");
    if (i > 0 && st->number <= st[-1].number)
        return bad(r, at, "steps out of order (they are listed by number, once each)");
    s->n_steps = i + 1;
    return times_done(r, at, &st->t, seen);
}

static int read_comm(const reader *r, size_t at, size_t end, size_t i, void *ctx)
{
    pf_rank_summary *s = ctx;
    pf_comm_rec *c = &s->comms[i];
    static const char *const keys[] = {"name", "process_group", "group_size", "bytes", "ts_ns", "dur_ns"};
    size_t p = at;
    pf_jmember m;
    pf_jerr e;
    unsigned seen = 0;
    int k;
    int64_t v;
    *c = (pf_comm_rec){.bytes = -1};
    pf_json_obj_begin(r->s, end, &p, &e);
    while ((k = pf_json_obj_next(r->s, end, &p, &m, &e)) == 1) {
        int rc = 0, which = -1;
        for (int j = 0; j < 6 && which < 0; j++)
            which = pf_json_key_is(r->s, &m, keys[j]) ? j : -1;
        if (which < 0)
            continue;
        if (seen >> which & 1)
            return twice(r, &m);
        seen |= 1u << which;
        int null = is_null(r, &m);
        if (which == 0)
            rc = read_text(r, &m, c->name, sizeof c->name);
        else if (which == 1)
            rc = read_text(r, &m, c->pg, sizeof c->pg);
        else if (which == 2 && !null && (rc = read_int(r, &m, 1, 1 << 24, &v)) == 0)
            c->group_size = (int)v;
        else if (which == 3 && !null)
            rc = read_int(r, &m, 0, INT64_MAX, &c->bytes);
        else if (which == 4)
            rc = read_int(r, &m, -SUMMARY_MAX_TS_NS, SUMMARY_MAX_TS_NS, &c->ts_ns);
        else if (which == 5)
            rc = read_int(r, &m, 0, SUMMARY_MAX_DUR_NS, &c->dur_ns);
        if (rc)
            return -1;
    }
    if (k < 0)
        return bad(r, e.pos, e.what);
    for (int j = 0; j < 6; j++)
        if (!(seen >> j & 1))
            return pf_fail(r->err, "%s: byte %zu: a communication kernel without \"%s\"", r->path, at, keys[j]);
    if (i > 0 && c->ts_ns < c[-1].ts_ns)
        return bad(r, at, "communication kernels out of start order");
    s->n_comms = i + 1;
    return 0;
}

/* ---- what the culprits compare (optional members: a summary without them has no windows) ---- */

/* The whole numbers of the array at [at, end) into v[0, n), each in [lo, hi]: exactly n. The
 * array was validated as JSON with the member that holds it (pf_json_obj_next), so its
 * elements are found by their separators instead of being validated again: walking each
 * window's numbers a third time was a tenth of --ranks over 10,000 summaries. */
static int read_ints(const reader *r, size_t at, size_t end, int64_t *v, int n, int64_t lo, int64_t hi)
{
    const char *s = r->s;
    int k = 0;
    if (s[at] != '[')
        return bad(r, at, "expected an array of whole numbers");
    size_t p = pf_json_ws(s, end, at + 1);
    while (p < end && s[p] != ']') {
        size_t a = p, b = p;
        /* a number (the only elements wanted) ends at a separator, a blank or the bracket */
        while (b < end && s[b] != ',' && s[b] != ']' && s[b] != ' ' && s[b] != '\t' && s[b] != '\n' && s[b] != '\r')
            b++;
        if (k == n || s[a] == '"' || s[a] == '[' || s[a] == '{' || pf_json_int(s, a, b, &v[k]) || v[k] < lo ||
            v[k] > hi)
            return bad(r, a, k == n ? "too many numbers in the array" : "expected a whole number in the summary's range");
        k++;
        p = pf_json_ws(s, end, b);
        if (p < end && s[p] == ',')
            p = pf_json_ws(s, end, p + 1);
    }
    return k == n ? 0 : bad(r, at, "too few numbers in the array");
}

/* The items of the array member m, each by f(r, at, end, i, s); *n receives their count and
 * *arr room for them (size bytes each). */
typedef int (*each_item)(const reader *r, size_t at, size_t end, size_t i, pf_rank_summary *s);

static int read_items(const reader *r, const pf_jmember *m, size_t size, void **arr, size_t *n, each_item f,
                      pf_rank_summary *s)
{
    if (*arr)
        return bad(r, m->key_start, "a member given twice");
    /* one pass, the room doubling: counting the items first walked every window twice */
    size_t p = m->val_start, a, b, cap = 0;
    pf_jerr e;
    int k;
    *n = 0;
    if (r->s[p] != '[' || pf_json_arr_begin(r->s, m->val_end, &p, &e))
        return bad(r, m->val_start, "expected an array");
    if (!(*arr = calloc(1, size)))
        return pf_fail(r->err, "%s: out of memory", r->path);
    cap = 1;
    while ((k = pf_json_arr_next(r->s, m->val_end, &p, &a, &b, &e)) == 1) {
        if (*n == cap) {
            void *grown = realloc(*arr, 2 * cap * size);
            if (!grown)
                return pf_fail(r->err, "%s: out of memory", r->path);
            memset((char *)grown + cap * size, 0, cap * size);
            *arr = grown;
            cap *= 2;
        }
        if (f(r, a, b, (*n)++, s))
            return -1;
    }
    return k < 0 ? bad(r, e.pos, e.what) : 0;
}

static int read_label(const reader *r, size_t at, size_t end, size_t i, pf_rank_summary *s)
{
    (void)end;
    if (r->s[at] != '"')
        return bad(r, at, "expected a label (a string)");
    if (!(s->labels[i] = pf_json_string(r->s, at, end, NULL)))
        return pf_fail(r->err, "%s: out of memory", r->path);
    s->n_labels = i + 1;
    return 0;
}

enum { WIN_FIELDS = 7 + 2 * PF_WIN_TOP };

static int read_window(const reader *r, size_t at, size_t end, size_t i, pf_rank_summary *s)
{
    int64_t v[WIN_FIELDS];
    if (read_ints(r, at, end, v, WIN_FIELDS, -1, SUMMARY_MAX_TS_NS))
        return -1;
    pf_comm_window *w = &s->wins[i];
    w->start_ns = v[0];
    for (int c = 0; c < PF_WIN_CAUSES; c++)
        w->cause_ns[c] = v[1 + c];
    w->gap_ns = v[5];
    w->gap_label = (int32_t)(v[6] < INT32_MAX ? v[6] : INT32_MAX);
    for (int k = 0; k < PF_WIN_TOP; k++) {
        w->top_label[k] = (int32_t)(v[7 + 2 * k] < INT32_MAX ? v[7 + 2 * k] : INT32_MAX);
        w->top_ns[k] = v[8 + 2 * k];
        w->top_shape[k] = -1; /* unknown unless "window_shapes" follows */
    }
    return 0;
}

/* "window_shapes", after "windows" (a summary of an older profana has none: the shapes stay
 * unknown): one array of PF_WIN_TOP shape-set labels per window, for its top labels in order. */
static int read_window_shapes(const reader *r, const pf_jmember *m, pf_rank_summary *s, size_t n_wins)
{
    size_t p = m->val_start, a, b, i = 0;
    pf_jerr e;
    int k;
    if (!s->wins)
        return bad(r, m->key_start, "\"window_shapes\" without \"windows\" before it");
    if (r->s[p] != '[' || pf_json_arr_begin(r->s, m->val_end, &p, &e))
        return bad(r, m->val_start, "expected an array");
    while ((k = pf_json_arr_next(r->s, m->val_end, &p, &a, &b, &e)) == 1) {
        int64_t v[PF_WIN_TOP];
        if (i == n_wins)
            return bad(r, a, "\"window_shapes\" lists more windows than \"windows\"");
        if (read_ints(r, a, b, v, PF_WIN_TOP, -1, INT32_MAX))
            return -1;
        for (int j = 0; j < PF_WIN_TOP; j++)
            s->wins[i].top_shape[j] = (int32_t)v[j];
        i++;
    }
    if (k < 0)
        return bad(r, e.pos, e.what);
    return i == n_wins ? 0 : bad(r, m->val_start, "\"window_shapes\" lists fewer windows than \"windows\"");
}

static int read_kernel(const reader *r, size_t at, size_t end, size_t i, pf_rank_summary *s)
{
    int64_t v[3];
    if (read_ints(r, at, end, v, 3, 0, SUMMARY_MAX_TS_NS))
        return -1;
    s->kernels[i] = (pf_kernel_time){(int32_t)(v[0] < INT32_MAX ? v[0] : INT32_MAX), v[1], v[2]};
    return 0;
}

/* The windows and kernels refer to labels that exist; one window per communication kernel. */
static int culprit_done(const reader *r, size_t at, pf_rank_summary *s, size_t n_wins)
{
    int64_t nl = (int64_t)s->n_labels;
    if (s->wins && n_wins != s->n_comms)
        return bad(r, at, "\"windows\" does not list one window per communication kernel");
    for (size_t i = 0; s->wins && i < n_wins; i++) {
        const pf_comm_window *w = &s->wins[i];
        if (w->gap_label >= nl || w->gap_label < -1)
            return bad(r, at, "a window names a label that \"labels\" lacks");
        for (int k = 0; k < PF_WIN_TOP; k++)
            if (w->top_label[k] >= nl || w->top_label[k] < -1 || w->top_shape[k] >= nl ||
                (w->top_shape[k] >= 0 && w->top_label[k] < 0))
                return bad(r, at, "a window names a label that \"labels\" lacks");
    }
    for (size_t i = 0; i < s->n_kernels; i++)
        if (s->kernels[i].label >= nl)
            return bad(r, at, "a kernel names a label that \"labels\" lacks");
    return 0;
}

/* An array member: its objects read into a fresh array of their count. */
static int read_array(const reader *r, const pf_jmember *m, size_t size, void **arr, each_obj f, pf_rank_summary *s)
{
    size_t n;
    if (*arr)
        return bad(r, m->key_start, "a member given twice");
    if (count_items(r, m, &n))
        return -1;
    if (!(*arr = calloc(n ? n : 1, size)))
        return pf_fail(r->err, "%s: out of memory", r->path);
    return for_each(r, m, f, s);
}

/* The device-table entry whose key is name exactly; NULL when none (another profana's). */
static const pf_device_info *entry_by_key(const char *name)
{
    int n;
    const pf_device_info *t = pf_devices_table(&n);
    for (int i = 0; name[0] && i < n; i++)
        if (strcmp(t[i].key, name) == 0)
            return &t[i];
    return NULL;
}

static int read_version(const reader *r, const pf_jmember *m)
{
    int64_t v;
    if (!pf_json_key_is(r->s, m, "profana_summary") || r->s[m->val_start] == '"' ||
        pf_json_int(r->s, m->val_start, m->val_end, &v))
        return bad(r, m->key_start, "not a profana summary (its first member is not \"profana_summary\": N)");
    /* the version is the integer the writer prints; 1.0 or 1.5 is not a version it wrote */
    char want[24];
    int n = snprintf(want, sizeof want, "%d", PF_RANK_SUMMARY_VERSION);
    if ((size_t)n != m->val_end - m->val_start || memcmp(r->s + m->val_start, want, (size_t)n) != 0)
        return pf_fail(r->err, "%s: a profana summary of version %.*s; this profana reads version %d (write it again "
                               "with this profana's --summary)",
                       r->path, (int)(m->val_end - m->val_start > 24 ? 24 : m->val_end - m->val_start),
                       r->s + m->val_start, PF_RANK_SUMMARY_VERSION);
    return 0;
}

/* The "schema" member a summary opens with (those written before it open with the version):
 * PF_JSON_SCHEMA, or an error naming the one found. */
static int read_schema(const reader *r, const pf_jmember *m)
{
    static const char want[] = "\"" PF_JSON_SCHEMA "\"";
    size_t n = m->val_end - m->val_start;
    if (n == sizeof want - 1 && memcmp(r->s + m->val_start, want, n) == 0)
        return 0;
    return pf_fail(r->err, "%s: a profana document of schema %.*s; this profana reads %s (write it again with this "
                           "profana's --summary)",
                   r->path, (int)(n > 24 ? 24 : n), r->s + m->val_start, PF_JSON_SCHEMA);
}

/* The top-level members other than the times, by their bit in seen after the times' bits. */
enum { M_TRACE, M_COMMS, M_RANK, M_DEVICE, M_DEVICES, M_STEPS, M_SHAPES, M_COUNT };
static const char *const member_keys[M_COUNT] = {"trace",   "comm_kernels", "rank", "device",
                                                 "devices", "steps",        "window_shapes"};

/* One top-level member after the version; each at most once. */
static int read_member(const reader *r, const pf_jmember *m, pf_rank_summary *s, unsigned *seen, size_t *n_wins)
{
    int64_t v;
    int t = read_time(r, m, &s->all, seen);
    if (t)
        return t < 0 ? -1 : 0;
    for (int k = 0; k < M_COUNT; k++)
        if (pf_json_key_is(r->s, m, member_keys[k])) {
            if (*seen >> (T_COUNT + k) & 1)
                return twice(r, m);
            *seen |= 1u << (T_COUNT + k);
        }
    char text[PF_COLL_PG_MAX > 4096 ? PF_COLL_PG_MAX : 4096];
    if (pf_json_key_is(r->s, m, "trace")) {
        if (r->s[m->val_start] != '"' || !(s->path = pf_json_string(r->s, m->val_start, m->val_end, NULL)))
            return bad(r, m->val_start, "expected the trace's path as a string");
    } else if (pf_json_key_is(r->s, m, "rank")) {
        if (!is_null(r, m) && read_int(r, m, 0, 1 << 24, &v))
            return -1;
        s->rank = is_null(r, m) ? -1 : (int)v;
        s->rank_from_trace = s->rank >= 0;
    } else if (pf_json_key_is(r->s, m, "device")) {
        if (read_text(r, m, text, sizeof text))
            return -1;
        s->info = entry_by_key(text);
    } else if (pf_json_key_is(r->s, m, "host_name")) {
        if (s->node)
            return twice(r, m);
        if (is_null(r, m))
            return 0;
        if (r->s[m->val_start] != '"' || !(s->node = pf_json_string(r->s, m->val_start, m->val_end, NULL)))
            return bad(r, m->val_start, "expected the node's host name as a string or null");
    } else if (pf_json_key_is(r->s, m, "devices")) {
        if (read_int(r, m, 0, 1 << 16, &v))
            return -1;
        s->n_devices = (int)v;
    } else if (pf_json_key_is(r->s, m, "steps")) {
        return read_array(r, m, sizeof *s->steps, (void **)&s->steps, read_step, s);
    } else if (pf_json_key_is(r->s, m, "comm_kernels")) {
        return read_array(r, m, sizeof *s->comms, (void **)&s->comms, read_comm, s);
    } else if (pf_json_key_is(r->s, m, "compute_sum_ns")) {
        return read_int(r, m, 0, INT64_MAX, &s->compute_sum_ns);
    } else if (pf_json_key_is(r->s, m, "compute_ns")) {
        return read_int(r, m, 0, INT64_MAX, &s->all.compute_ns);
    } else if (pf_json_key_is(r->s, m, "labels")) {
        size_t n;
        return read_items(r, m, sizeof *s->labels, (void **)&s->labels, &n, read_label, s);
    } else if (pf_json_key_is(r->s, m, "windows")) {
        return read_items(r, m, sizeof *s->wins, (void **)&s->wins, n_wins, read_window, s);
    } else if (pf_json_key_is(r->s, m, "window_shapes")) {
        return read_window_shapes(r, m, s, *n_wins);
    } else if (pf_json_key_is(r->s, m, "kernels")) {
        return read_items(r, m, sizeof *s->kernels, (void **)&s->kernels, &s->n_kernels, read_kernel, s);
    }
    return 0;
}

static int read_text_summary(const reader *r, pf_rank_summary *s)
{
    size_t p = pf_json_ws(r->s, r->len, 0);
    pf_jmember m;
    pf_jerr e;
    unsigned seen = 0;
    size_t n_wins = 0;
    int k, n = 0, schema = 0;
    if (p >= r->len || r->s[p] != '{' || pf_json_obj_begin(r->s, r->len, &p, &e))
        return bad(r, p, "expected a JSON object (a profana summary)");
    while ((k = pf_json_obj_next(r->s, r->len, &p, &m, &e)) == 1) {
        int rc;
        if (n == 0 && pf_json_key_is(r->s, &m, "schema")) {
            rc = read_schema(r, &m);
            schema = 1;
        } else {
            rc = n == schema ? read_version(r, &m) : read_member(r, &m, s, &seen, &n_wins);
        }
        if (rc)
            return -1;
        n++;
    }
    if (k < 0)
        return bad(r, e.pos, e.what);
    if (n == schema)
        return bad(r, p, "not a profana summary (an empty object)");
    if (pf_json_ws(r->s, r->len, p) != r->len)
        return bad(r, pf_json_ws(r->s, r->len, p), "text after the summary's object");
    if (!(seen >> (T_COUNT + M_TRACE) & 1))
        return bad(r, p, "the summary has no \"trace\"");
    if (!(seen >> (T_COUNT + M_COMMS) & 1))
        return bad(r, p, "the summary has no \"comm_kernels\"");
    if (culprit_done(r, p, s, n_wins))
        return -1;
    return times_done(r, p, &s->all, seen);
}

int pf_rank_summary_read(const char *path, pf_rank_summary *out, pf_error *err)
{
    char *text;
    size_t len;
    int mapped;
    *out = (pf_rank_summary){.rank = -1};
    if (pf_source_read(path, &text, &len, &mapped, err))
        return -1;
    int rc = pf_rank_summary_parse(path, text, len, out, err);
    pf_source_release(text, len, mapped);
    return rc;
}

int pf_rank_summary_parse(const char *path, const char *text, size_t len, pf_rank_summary *out, pf_error *err)
{
    *out = (pf_rank_summary){.rank = -1};
    reader r = {path, text, len, err};
    int rc = read_text_summary(&r, out);
    if (rc) {
        free(out->path);
        free(out->node);
        free(out->steps);
        free(out->comms);
        free(out->wins);
        free(out->kernels);
        for (size_t i = 0; out->labels && i < out->n_labels; i++)
            free(out->labels[i]);
        free(out->labels);
        *out = (pf_rank_summary){.rank = -1};
    }
    return rc;
}

int pf_rank_summary_sniff(const char *path)
{
    char head[128];
    pf_error err;
    long n = pf_source_head(path, head, sizeof head, &err);
    return n > 0 && pf_rank_summary_sniff_text(head, (size_t)n);
}

int pf_rank_summary_sniff_text(const char *head, size_t len)
{
    static const char key[] = "\"profana_summary\"";
    size_t n = len; /* only the first members are looked at: the scans stop at them */
    if (!head || n == 0)
        return 0;
    static const char schema[] = "\"schema\"";
    size_t p = pf_json_ws(head, n, 0);
    if (p >= n || head[p] != '{')
        return 0;
    p = pf_json_ws(head, n, p + 1);
    if (n - p >= sizeof schema - 1 && memcmp(head + p, schema, sizeof schema - 1) == 0) {
        /* the schema's value is "profana/N", without a comma: the version member follows the first one */
        const char *comma = memchr(head + p, ',', n - p);
        if (!comma)
            return 0;
        p = pf_json_ws(head, n, (size_t)(comma - head) + 1);
    }
    return n - p >= sizeof key - 1 && memcmp(head + p, key, sizeof key - 1) == 0;
}
