/* nccl_inspector.c - NCCL Inspector logs read: each JSON object of a process's log (header, metadata, coll_perf) to one record of communicator, rank, collective, sequence number, size, time and start. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/inspector.h"
#include "profana/jscan.h"
#include "profana/trace.h"

/* The text being read and where errors go. */
typedef struct reader {
    const char *path, *s;
    size_t len;
    pf_error *err;
} reader;

static int bad(const reader *r, size_t at, const char *what)
{
    return pf_fail(r->err, "%s: byte %zu: %s", r->path, at, what);
}

/* A string member into buf (cut to cap - 1 bytes). */
static int text_of(const reader *r, const pf_jmember *m, char *buf, size_t cap, const char *what)
{
    if (r->s[m->val_start] != '"')
        return bad(r, m->val_start, what);
    char *v = pf_json_string(r->s, m->val_start, m->val_end, NULL);
    if (!v)
        return pf_fail(r->err, "%s: out of memory", r->path);
    snprintf(buf, cap, "%s", v);
    free(v);
    return 0;
}

static int int_of(const reader *r, const pf_jmember *m, int64_t lo, int64_t hi, int64_t *v, const char *what)
{
    if (r->s[m->val_start] == '"' || pf_json_int(r->s, m->val_start, m->val_end, v) || *v < lo || *v > hi)
        return bad(r, m->val_start, what);
    return 0;
}

/* Microseconds (integer or not) as ns, at least 0. */
static int us_of(const reader *r, const pf_jmember *m, int64_t *ns, const char *what)
{
    if (r->s[m->val_start] == '"' || pf_json_us_to_ns(r->s, m->val_start, m->val_end, ns) || *ns < 0)
        return bad(r, m->val_start, what);
    return 0;
}

/* Iterates the object at [at, end): calls f for each member. */
typedef int (*member_fn)(const reader *r, const pf_jmember *m, void *ctx);

static int members(const reader *r, size_t at, size_t end, member_fn f, void *ctx)
{
    size_t p = at;
    pf_jmember m;
    pf_jerr e;
    int k;
    if (r->s[at] != '{' || pf_json_obj_begin(r->s, end, &p, &e))
        return bad(r, at, "expected an object");
    while ((k = pf_json_obj_next(r->s, end, &p, &m, &e)) == 1)
        if (f(r, &m, ctx))
            return -1;
    return k < 0 ? bad(r, e.pos, e.what) : 0;
}

/* What one record has given so far. */
enum { H_ID = 1, H_RANK = 2, H_NRANKS = 4, C_COLL = 8, C_SN = 16, C_EXEC = 32 };

typedef struct rec_ctx {
    pf_insp_rec *rec;
    unsigned seen;
    char host[256];
    int has_host;
} rec_ctx;

static int header_member(const reader *r, const pf_jmember *m, void *ctx)
{
    rec_ctx *c = ctx;
    int64_t v;
    if (pf_json_key_is(r->s, m, "id")) {
        c->seen |= H_ID;
        return text_of(r, m, c->rec->comm, sizeof c->rec->comm, "header.id: expected the communicator's id as a string");
    }
    if (pf_json_key_is(r->s, m, "rank")) {
        c->seen |= H_RANK;
        if (int_of(r, m, 0, 1 << 24, &v, "header.rank: expected a whole number from 0"))
            return -1;
        c->rec->rank = (int)v;
    } else if (pf_json_key_is(r->s, m, "n_ranks")) {
        c->seen |= H_NRANKS;
        if (int_of(r, m, 1, 1 << 24, &v, "header.n_ranks: expected a whole number from 1"))
            return -1;
        c->rec->n_ranks = (int)v;
    } else if (pf_json_key_is(r->s, m, "nnodes")) {
        if (int_of(r, m, 0, 1 << 24, &v, "header.nnodes: expected a whole number"))
            return -1;
        c->rec->nnodes = (int)v;
    }
    return 0;
}

static int metadata_member(const reader *r, const pf_jmember *m, void *ctx)
{
    rec_ctx *c = ctx;
    if (pf_json_key_is(r->s, m, "hostname") && r->s[m->val_start] == '"') {
        c->has_host = 1;
        return text_of(r, m, c->host, sizeof c->host, "metadata.hostname: expected a string");
    }
    return 0;
}

/* The earliest kernel_start_ts of the kernel_events array at m. */
static int kernel_starts(const reader *r, const pf_jmember *m, int64_t *first)
{
    size_t p = m->val_start, a, b;
    pf_jerr e;
    int k;
    if (r->s[p] != '[' || pf_json_arr_begin(r->s, m->val_end, &p, &e))
        return bad(r, m->val_start, "kernel_events: expected an array");
    while ((k = pf_json_arr_next(r->s, m->val_end, &p, &a, &b, &e)) == 1) {
        size_t q = a;
        pf_jmember km;
        if (r->s[a] != '{' || pf_json_obj_begin(r->s, b, &q, &e))
            return bad(r, a, "kernel_events: expected objects");
        while (pf_json_obj_next(r->s, b, &q, &km, &e) == 1) {
            int64_t ns;
            if (!pf_json_key_is(r->s, &km, "kernel_start_ts"))
                continue;
            if (us_of(r, &km, &ns, "kernel_start_ts: expected microseconds"))
                return -1;
            if (*first < 0 || ns < *first)
                *first = ns;
        }
    }
    return k < 0 ? bad(r, e.pos, e.what) : 0;
}

typedef struct trace_ts {
    int64_t coll_start, kernel_start;
} trace_ts;

static int event_ts_member(const reader *r, const pf_jmember *m, void *ctx)
{
    trace_ts *t = ctx;
    if (pf_json_key_is(r->s, m, "coll_start_ts"))
        return us_of(r, m, &t->coll_start, "coll_start_ts: expected microseconds");
    if (pf_json_key_is(r->s, m, "kernel_events"))
        return kernel_starts(r, m, &t->kernel_start);
    return 0;
}

static int perf_member(const reader *r, const pf_jmember *m, void *ctx)
{
    rec_ctx *c = ctx;
    pf_insp_rec *x = c->rec;
    if (pf_json_key_is(r->s, m, "coll")) {
        c->seen |= C_COLL;
        return text_of(r, m, x->coll, sizeof x->coll, "coll_perf.coll: expected the collective's name as a string");
    }
    if (pf_json_key_is(r->s, m, "coll_sn")) {
        c->seen |= C_SN;
        return int_of(r, m, 0, INT64_MAX, &x->sn, "coll_perf.coll_sn: expected a whole number from 0");
    }
    if (pf_json_key_is(r->s, m, "coll_msg_size_bytes"))
        return int_of(r, m, 0, INT64_MAX, &x->bytes, "coll_perf.coll_msg_size_bytes: expected a whole number from 0");
    if (pf_json_key_is(r->s, m, "coll_exec_time_us")) {
        c->seen |= C_EXEC;
        return us_of(r, m, &x->exec_ns, "coll_perf.coll_exec_time_us: expected microseconds from 0");
    }
    if (pf_json_key_is(r->s, m, "coll_busbw_gbs")) {
        double v;
        if (r->s[m->val_start] == '"' || pf_json_double(r->s, m->val_start, m->val_end, &v) || v < 0)
            return bad(r, m->val_start, "coll_perf.coll_busbw_gbs: expected a number from 0");
        x->busbw_gbps = v;
        return 0;
    }
    if (pf_json_key_is(r->s, m, "event_trace_ts")) {
        trace_ts t = {-1, -1};
        if (members(r, m->val_start, m->val_end, event_ts_member, &t))
            return -1;
        x->start_ns = t.kernel_start >= 0 ? t.kernel_start : t.coll_start;
    }
    return 0;
}

static int record_member(const reader *r, const pf_jmember *m, void *ctx)
{
    if (pf_json_key_is(r->s, m, "header"))
        return members(r, m->val_start, m->val_end, header_member, ctx);
    if (pf_json_key_is(r->s, m, "metadata"))
        return members(r, m->val_start, m->val_end, metadata_member, ctx);
    if (pf_json_key_is(r->s, m, "coll_perf"))
        return members(r, m->val_start, m->val_end, perf_member, ctx);
    return 0;
}

static const struct {
    unsigned bit;
    const char *name;
} required[] = {{H_ID, "header.id"},   {H_RANK, "header.rank"}, {H_NRANKS, "header.n_ranks"},
                {C_COLL, "coll_perf.coll"}, {C_SN, "coll_perf.coll_sn"}, {C_EXEC, "coll_perf.coll_exec_time_us"}};

/* One record at [at, end) into *x; the log's host from its first record that has one. */
static int read_record(const reader *r, size_t at, size_t end, pf_insp_rec *x, pf_insp_log *log)
{
    *x = (pf_insp_rec){.bytes = -1, .busbw_gbps = -1, .start_ns = -1};
    rec_ctx c = {.rec = x};
    if (members(r, at, end, record_member, &c))
        return -1;
    for (size_t k = 0; k < sizeof required / sizeof required[0]; k++)
        if (!(c.seen & required[k].bit)) {
            char what[96];
            snprintf(what, sizeof what, "a record without %s", required[k].name);
            return bad(r, at, what);
        }
    if (x->rank >= x->n_ranks)
        return bad(r, at, "header.rank is not below header.n_ranks");
    if (c.has_host && !log->host && !(log->host = strdup(c.host)))
        return pf_fail(r->err, "%s: out of memory", r->path);
    return 0;
}

static int read_all(const reader *r, pf_insp_log *out)
{
    size_t cap = 0, p = pf_json_ws(r->s, r->len, 0);
    while (p < r->len) {
        size_t at = p;
        pf_jerr e;
        if (r->s[p] != '{')
            return bad(r, p, "expected a JSON object (an Inspector record)");
        if (pf_json_skip(r->s, r->len, &p, &e))
            return bad(r, e.pos, e.what);
        if (out->n == cap) {
            size_t ncap = cap ? 2 * cap : 64;
            pf_insp_rec *grown = realloc(out->recs, ncap * sizeof *grown);
            if (!grown)
                return pf_fail(r->err, "%s: out of memory", r->path);
            out->recs = grown;
            cap = ncap;
        }
        if (read_record(r, at, p, &out->recs[out->n], out))
            return -1;
        out->n++;
        p = pf_json_ws(r->s, r->len, p);
    }
    if (out->n == 0)
        return pf_fail(r->err, "%s: no records", r->path);
    return 0;
}

int pf_inspector_read(const char *path, pf_insp_log *out, pf_error *err)
{
    assert(path && out && err);
    char *text;
    size_t len;
    int mapped;
    *out = (pf_insp_log){0};
    if (!(out->path = strdup(path)))
        return pf_fail(err, "%s: out of memory", path);
    if (pf_source_read(path, &text, &len, &mapped, err)) {
        pf_inspector_free(out);
        return -1;
    }
    reader r = {path, text, len, err};
    int rc = read_all(&r, out);
    pf_source_release(text, len, mapped);
    if (rc)
        pf_inspector_free(out);
    return rc;
}

void pf_inspector_free(pf_insp_log *l)
{
    if (!l)
        return;
    free(l->path);
    free(l->host);
    free(l->recs);
    *l = (pf_insp_log){0};
}

int pf_inspector_sniff(const char *path)
{
    assert(path);
    char head[64];
    pf_error err;
    long n = pf_source_head(path, head, sizeof head, &err);
    return n > 0 && pf_inspector_sniff_text(head, (size_t)n);
}

int pf_inspector_sniff_text(const char *head, size_t len)
{
    static const char key[] = "\"header\"";
    size_t n = len; /* only the first member's key is looked at */
    if (!head || n == 0)
        return 0;
    size_t p = pf_json_ws(head, n, 0);
    if (p >= n || head[p] != '{')
        return 0;
    p = pf_json_ws(head, n, p + 1);
    return n - p >= sizeof key - 1 && memcmp(head + p, key, sizeof key - 1) == 0;
}
