/* busy.c - GPU busy time: the union of activity intervals per device and per stream. */
#include <stdlib.h>
#include <string.h>

#include "profana/analysis.h"
#include "profana/satmath.h"

/* Interval copies: sorted in place, they keep the union pass sequential in memory. */
typedef struct span {
    int64_t stream, start, end;
} span;

enum { DIGIT_BITS = 11, MAX_STREAMS = 4096 };

/* Sorts s by start, stably: least significant digit first, DIGIT_BITS a pass, as many
 * passes as the spread of the starts needs (a trace of minutes: 3 or 4). tmp holds n. */
static void radix_by_start(span *s, span *tmp, size_t n)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        lo = s[i].start < lo ? s[i].start : lo;
        hi = s[i].start > hi ? s[i].start : hi;
    }
    uint64_t spread = (uint64_t)hi - (uint64_t)lo;
    for (int shift = 0; n && shift < 64 && (spread >> shift) != 0; shift += DIGIT_BITS) {
        size_t count[(1 << DIGIT_BITS) + 1] = {0};
        for (size_t i = 0; i < n; i++)
            count[(((uint64_t)s[i].start - (uint64_t)lo) >> shift & ((1u << DIGIT_BITS) - 1)) + 1]++;
        for (size_t d = 1; d <= (1u << DIGIT_BITS); d++)
            count[d] += count[d - 1];
        for (size_t i = 0; i < n; i++)
            tmp[count[((uint64_t)s[i].start - (uint64_t)lo) >> shift & ((1u << DIGIT_BITS) - 1)]++] = s[i];
        memcpy(s, tmp, n * sizeof *s);
    }
}

/* Sorts s by start, stably; tmp holds n. Activities in file order mostly start in time order:
 * in order, one pass; when at most a quarter start before an earlier start (B), the others
 * (A) stay in place, B is sorted on its own and merged in (as sort_keys.c's pf_sort_kv:
 * stable, A's first on a tie); else radix_by_start over all of them. */
static void sort_by_start(span *s, span *tmp, size_t n)
{
    size_t below = 0;
    int64_t max = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && s[i].start < max)
            below++;
        else
            max = s[i].start;
    }
    if (below == 0)
        return;
    if (below > n / 4) {
        radix_by_start(s, tmp, n);
        return;
    }
    size_t na = 0, nb = 0;
    max = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && s[i].start < max) {
            tmp[nb++] = s[i];
        } else {
            max = s[i].start;
            s[na++] = s[i]; /* na <= i: in place */
        }
    }
    radix_by_start(tmp, s + na, nb); /* s[na, n) is free: nb slots */
    size_t i = na, j = nb, k = n;
    while (j > 0) /* from the back: on a tie B's goes last */
        s[--k] = i > 0 && s[i - 1].start > tmp[j - 1].start ? s[--i] : tmp[--j];
}

/* The rank of stream x among the sorted distinct streams ids[0, n). */
static size_t stream_rank(const int64_t *ids, size_t n, int64_t x)
{
    size_t l = 0, h = n;
    while (l < h) {
        size_t m = l + (h - l) / 2;
        if (ids[m] < x)
            l = m + 1;
        else
            h = m;
    }
    return l;
}

/* The distinct streams of s in order, into ids (room for MAX_STREAMS); 0 when there are more. */
static size_t distinct_streams(const span *s, size_t n, int64_t *ids)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && s[i].stream == s[i - 1].stream)
            continue; /* runs of one stream are the common case */
        size_t r = stream_rank(ids, k, s[i].stream);
        if (r < k && ids[r] == s[i].stream)
            continue;
        if (k == MAX_STREAMS)
            return 0;
        memmove(ids + r + 1, ids + r, (k - r) * sizeof *ids);
        ids[r] = s[i].stream;
        k++;
    }
    return k;
}

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

/* Sorts s (sorted by start) by stream, keeping start order within a stream: a counting
 * sort over the streams' ranks, or qsort when there are very many streams. */
static int sort_by_stream(span *s, span *tmp, size_t n)
{
    /* n spans have at most n streams: a device with one launch does not clear 64 KB */
    size_t cap = n < MAX_STREAMS ? n : MAX_STREAMS;
    int64_t *ids = malloc((cap + 1) * sizeof *ids);
    size_t *count = calloc(cap + 1, sizeof *count);
    size_t k = ids && count ? distinct_streams(s, n, ids) : 0;
    if (ids && count && k == 0)
        qsort(s, n, sizeof *s, by_stream_start);
    if (k == 1) /* one stream: in order already */
        k = 0;
    for (size_t i = 0; k && i < n; i++)
        count[stream_rank(ids, k, s[i].stream) + 1]++;
    for (size_t r = 1; k && r <= k; r++)
        count[r] += count[r - 1];
    for (size_t i = 0; k && i < n; i++)
        tmp[count[stream_rank(ids, k, s[i].stream)]++] = s[i];
    if (k)
        memcpy(s, tmp, n * sizeof *s);
    int rc = ids && count ? 0 : -1;
    free(ids);
    free(count);
    return rc;
}

/* The spans of one stream (sorted by start) that start before an earlier one ends, and the
 * time they share with the earlier ones: a stream runs its work in order, save where
 * programmatic dependent launch (sm_90+) lets the next kernel start early. */
static void stream_overlaps(const span *s, size_t n, pf_stream_busy *st)
{
    int64_t end = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && s[i].start < end) {
            st->overlaps++;
            st->overlap_ns = pf_sat_add(st->overlap_ns, (s[i].end < end ? s[i].end : end) - s[i].start);
        }
        end = s[i].end > end ? s[i].end : end;
    }
}

static int per_stream(span *s, span *tmp, size_t n, pf_busy *b)
{
    if (sort_by_stream(s, tmp, n))
        return -1;
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
        stream_overlaps(s + i, j - i, st);
        b->stream_overlaps += st->overlaps;
        b->stream_overlap_ns = pf_sat_add(b->stream_overlap_ns, st->overlap_ns);
    }
    return 0;
}

int pf_busy_compute(const pf_activity *acts, const size_t *idx, size_t n, pf_busy *b)
{
    *b = (pf_busy){0};
    if (n == 0)
        return 0;
    span *s = malloc(n * sizeof *s), *tmp = malloc(n * sizeof *tmp);
    if (!s || !tmp) {
        free(s);
        free(tmp);
        return -1;
    }
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
    sort_by_start(s, tmp, n);
    b->busy_ns = union_ns(s, n);
    int rc = per_stream(s, tmp, n, b);
    free(s);
    free(tmp);
    return rc;
}
