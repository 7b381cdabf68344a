/* sequences.c - repeated kernel sequences per device: runs of consecutive kernels on a stream counted by name, longest first, a sequence dropped when one kernel longer occurs as often. */
#include "profana/sequences.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* A device's kernels, stream after stream, each by start time. */
typedef struct kseq {
    size_t *acts;              /* activity indices */
    const char **names;        /* their kernel names (interned: equal names, equal pointers) */
    size_t *stream_end;        /* per position: where its stream's run ends */
    int64_t *pre;              /* prefix sums of durations: pre[k] = sum of the first k */
    size_t n;
} kseq;

/* A sequence seen: its first occurrence's start, how often, its time, where the last counted
 * occurrence ended (non-overlapping counting), whether a longer one replaces it. */
typedef struct entry {
    size_t start;
    uint64_t hash;
    int64_t count, total_ns;
    size_t last_end;
    int used, dropped;
} entry;

typedef struct table {
    entry *e;
    size_t cap;
    int len;
} table;

static uint64_t seq_hash(const char *const *names, int len)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (int k = 0; k < len; k++) {
        h ^= (uint64_t)(uintptr_t)names[k];
        h *= UINT64_C(1099511628211);
        h ^= h >> 29;
    }
    return h;
}

/* The slot of the sequence names[0, len), found or empty. */
static entry *lookup(table *t, const kseq *s, const char *const *names, uint64_t h)
{
    size_t i = (size_t)h & (t->cap - 1);
    for (;; i = (i + 1) & (t->cap - 1)) {
        entry *e = &t->e[i];
        if (!e->used || (e->hash == h && memcmp(s->names + e->start, names, (size_t)t->len * sizeof *names) == 0))
            return e;
    }
}

/* Every window of len kernels within one stream, counted left to right without overlaps. */
static int build_table(table *t, const kseq *s, int len)
{
    size_t cap = 16;
    while (cap < 2 * s->n + 2)
        cap *= 2;
    t->e = calloc(cap, sizeof *t->e);
    t->cap = cap;
    t->len = len;
    if (!t->e)
        return -1;
    for (size_t i = 0; i + (size_t)len <= s->n; i++) {
        if (i + (size_t)len > s->stream_end[i])
            continue;
        uint64_t h = seq_hash(s->names + i, len);
        entry *e = lookup(t, s, s->names + i, h);
        if (!e->used)
            *e = (entry){.start = i, .hash = h, .used = 1};
        if (i < e->last_end && e->count > 0)
            continue; /* overlaps the occurrence counted last */
        e->count++;
        e->total_ns += s->pre[i + (size_t)len] - s->pre[i];
        e->last_end = i + (size_t)len;
    }
    return 0;
}

/* A sequence one longer (in longer) that occurs as often as its first or last len kernels
 * (in t) replaces them. */
static void drop_covered(table *t, const table *longer, const kseq *s)
{
    for (size_t i = 0; i < longer->cap; i++) {
        const entry *x = &longer->e[i];
        if (!x->used || x->count < 2)
            continue;
        for (int side = 0; side < 2; side++) {
            const char *const *part = s->names + x->start + (size_t)side;
            entry *e = lookup(t, s, part, seq_hash(part, t->len));
            if (e->used && e->count == x->count)
                e->dropped = 1;
        }
    }
}

static int emit(const table *t, const kseq *s, const pf_trace *tr, pf_seq_row **rows, size_t *n, size_t *cap)
{
    for (size_t i = 0; i < t->cap; i++) {
        const entry *e = &t->e[i];
        if (!e->used || e->dropped || e->count < 2)
            continue;
        if (*n == *cap) {
            size_t nc = *cap ? 2 * *cap : 64;
            pf_seq_row *r = realloc(*rows, nc * sizeof *r);
            if (!r)
                return -1;
            *rows = r;
            *cap = nc;
        }
        pf_seq_row *r = &(*rows)[(*n)++];
        memset(r, 0, sizeof *r);
        r->len = t->len;
        r->count = e->count;
        r->total_ns = e->total_ns;
        for (int k = 0; k < t->len; k++) {
            const pf_activity *a = &tr->acts[s->acts[e->start + (size_t)k]];
            r->kernels[k] = s->names[e->start + (size_t)k];
            r->ops[k] = a->op >= 0 ? tr->ops[a->op].name : NULL;
        }
    }
    return 0;
}

static int by_total(const void *x, const void *y)
{
    const pf_seq_row *a = x, *b = y;
    if (a->total_ns != b->total_ns)
        return a->total_ns > b->total_ns ? -1 : 1;
    if (a->len != b->len)
        return a->len > b->len ? -1 : 1;
    for (int k = 0; k < a->len; k++) {
        int c = strcmp(a->kernels[k], b->kernels[k]);
        if (c)
            return c;
    }
    return 0;
}

/* Kernels by stream, then start, then file order. */
static int kernel_order(const pf_activity *acts, size_t x, size_t y)
{
    const pf_activity *a = &acts[x], *b = &acts[y];
    if (a->stream != b->stream)
        return a->stream < b->stream ? -1 : 1;
    if (a->ts_ns != b->ts_ns)
        return a->ts_ns < b->ts_ns ? -1 : 1;
    return (x > y) - (x < y);
}

/* A merge sort of idx[0, n) by kernel_order (qsort has no context argument in C11). */
static void sort_kernels(const pf_activity *acts, size_t *idx, size_t *tmp, size_t n)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    sort_kernels(acts, idx, tmp, h);
    sort_kernels(acts, idx + h, tmp, n - h);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = kernel_order(acts, idx[j], idx[i]) < 0 ? idx[j++] : idx[i++];
    while (i < h)
        tmp[k++] = idx[i++];
    while (j < n)
        tmp[k++] = idx[j++];
    memcpy(idx, tmp, n * sizeof *idx);
}

static void kseq_free(kseq *s)
{
    free(s->acts), free(s->names), free(s->stream_end), free(s->pre);
}

static int kseq_build(const pf_analysis *an, int dev_id, kseq *s, int64_t *kernel_ns)
{
    const pf_trace *t = an->trace;
    memset(s, 0, sizeof *s);
    size_t n = 0;
    for (size_t i = 0; i < t->n_acts; i++)
        n += t->acts[i].device == dev_id && t->acts[i].kind == PF_ACT_KERNEL && pf_analysis_selected(an, i);
    size_t k1 = n ? n : 1;
    size_t *tmp = malloc(k1 * sizeof *tmp);
    s->acts = malloc(k1 * sizeof *s->acts);
    s->names = malloc(k1 * sizeof *s->names);
    s->stream_end = malloc(k1 * sizeof *s->stream_end);
    s->pre = malloc((n + 1) * sizeof *s->pre);
    if (!tmp || !s->acts || !s->names || !s->stream_end || !s->pre) {
        free(tmp);
        kseq_free(s);
        return -1;
    }
    for (size_t i = 0; i < t->n_acts; i++)
        if (t->acts[i].device == dev_id && t->acts[i].kind == PF_ACT_KERNEL && pf_analysis_selected(an, i))
            s->acts[s->n++] = i;
    sort_kernels(t->acts, s->acts, tmp, s->n);
    free(tmp);
    s->pre[0] = 0;
    for (size_t k = 0; k < n; k++) {
        const pf_activity *a = &t->acts[s->acts[k]];
        s->names[k] = a->name;
        s->pre[k + 1] = s->pre[k] + a->dur_ns;
    }
    *kernel_ns = s->pre[n];
    for (size_t k = n; k-- > 0;) /* where each stream's run ends */
        s->stream_end[k] = k + 1 < n && t->acts[s->acts[k + 1]].stream == t->acts[s->acts[k]].stream
                               ? s->stream_end[k + 1]
                               : k + 1;
    return 0;
}

static int device_sequences(const pf_analysis *an, pf_seq_device *d, size_t max_rows)
{
    kseq s;
    if (kseq_build(an, d->report->device->id, &s, &d->kernel_ns))
        return -1;
    table cur = {0}, longer = {0};
    size_t cap = 0;
    int rc = 0;
    for (int len = PF_SEQ_MAX; len >= PF_SEQ_MIN && rc == 0; len--) {
        rc = build_table(&cur, &s, len);
        if (rc == 0 && longer.e) {
            drop_covered(&cur, &longer, &s);
            rc = emit(&longer, &s, an->trace, &d->rows, &d->n_rows, &cap);
        }
        free(longer.e);
        longer = cur;
        cur = (table){0};
    }
    if (rc == 0 && longer.e)
        rc = emit(&longer, &s, an->trace, &d->rows, &d->n_rows, &cap);
    free(longer.e);
    free(cur.e);
    kseq_free(&s);
    if (rc)
        return -1;
    if (d->n_rows > 1)
        qsort(d->rows, d->n_rows, sizeof *d->rows, by_total);
    if (max_rows && d->n_rows > max_rows)
        d->n_rows = max_rows;
    return 0;
}

int pf_seq_view_build(const pf_analysis *an, size_t max_rows, pf_seq_view **out, pf_error *err)
{
    assert(an && out && err);
    *out = NULL;
    pf_seq_view *v = calloc(1, sizeof *v);
    if (!v || !(v->devices = calloc(an->n_devices ? (size_t)an->n_devices : 1, sizeof *v->devices))) {
        free(v);
        return pf_fail(err, "out of memory");
    }
    v->n_devices = an->n_devices;
    for (int d = 0; d < an->n_devices; d++) {
        v->devices[d].report = &an->devices[d];
        if (device_sequences(an, &v->devices[d], max_rows)) {
            pf_seq_view_free(v);
            return pf_fail(err, "out of memory");
        }
    }
    *out = v;
    return 0;
}

void pf_seq_view_free(pf_seq_view *v)
{
    if (!v)
        return;
    for (int d = 0; d < v->n_devices; d++)
        free(v->devices[d].rows);
    free(v->devices);
    free(v);
}
