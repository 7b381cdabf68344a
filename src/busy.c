/* busy.c - GPU busy time: the union of activity intervals per device and per stream. */
#include <stdlib.h>

#include "profana/analysis.h"
#include "profana/satmath.h"

/* qsort has no context argument, so the comparators sort interval copies, not indices. */
typedef struct span {
    int64_t stream, start, end;
} span;

static int by_start(const void *x, const void *y)
{
    const span *a = x, *b = y;
    return (a->start > b->start) - (a->start < b->start);
}

static int by_stream_start(const void *x, const void *y)
{
    const span *a = x, *b = y;
    if (a->stream != b->stream)
        return (a->stream > b->stream) - (a->stream < b->stream);
    return by_start(x, y);
}

/* Union length of spans sorted by start. */
static int64_t union_ns(const span *s, size_t n)
{
    int64_t total = 0, cur_s = 0, cur_e = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || s[i].start > cur_e) {
            total = pf_sat_add(total, cur_e - cur_s);
            cur_s = s[i].start;
            cur_e = s[i].end;
        } else if (s[i].end > cur_e) {
            cur_e = s[i].end;
        }
    }
    return pf_sat_add(total, cur_e - cur_s);
}

static int per_stream(span *s, size_t n, pf_busy *b)
{
    qsort(s, n, sizeof *s, by_stream_start);
    size_t groups = 0;
    for (size_t i = 0; i < n; i++)
        groups += i == 0 || s[i].stream != s[i - 1].stream;
    b->streams = calloc(groups ? groups : 1, sizeof *b->streams);
    if (!b->streams)
        return -1;
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i; j < n && s[j].stream == s[i].stream; j++)
            ;
        pf_stream_busy *st = &b->streams[b->n_streams++];
        st->stream = s[i].stream;
        st->count = (int64_t)(j - i);
        st->busy_ns = union_ns(s + i, j - i);
    }
    return 0;
}

int pf_busy_compute(const pf_activity *acts, const size_t *idx, size_t n, pf_busy *b)
{
    *b = (pf_busy){0};
    if (n == 0)
        return 0;
    span *s = malloc(n * sizeof *s);
    if (!s)
        return -1;
    b->start_ns = INT64_MAX;
    b->end_ns = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        const pf_activity *a = &acts[idx[i]];
        s[i] = (span){a->stream, a->ts_ns, a->ts_ns + a->dur_ns};
        b->sum_ns = pf_sat_add(b->sum_ns, a->dur_ns);
        if (s[i].start < b->start_ns)
            b->start_ns = s[i].start;
        if (s[i].end > b->end_ns)
            b->end_ns = s[i].end;
    }
    qsort(s, n, sizeof *s, by_start);
    b->busy_ns = union_ns(s, n);
    int rc = per_stream(s, n, b);
    free(s);
    return rc;
}

int pf_busy_where(const pf_trace *t, int (*keep)(const void *ctx, size_t i), const void *ctx, pf_busy *b)
{
    size_t *idx = malloc((t->n_acts ? t->n_acts : 1) * sizeof *idx);
    if (!idx)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < t->n_acts; i++)
        if (keep(ctx, i))
            idx[n++] = i;
    int rc = pf_busy_compute(t->acts, idx, n, b);
    free(idx);
    return rc;
}
