/* row_stats.c - the spread of each row's times: nearest-rank p50, p90, p99 and the population standard deviation, per launch (--group kernel) or per op invocation (op, shape). */
#include "profana/analysis.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profana/satmath.h"
#include "sort_keys.h"

/* One sample: a launch, or the summed time of one op invocation on the device. */
typedef struct sample {
    int64_t key;               /* the invocation: its op index, or -1 - activity index */
    int32_t row;
    int64_t ns;
} sample;

/* Nearest rank: the smallest value with at least p% of the n values at or below it, i.e.
 * the ceil(p n / 100)-th smallest (1-based), in integer arithmetic so that p90 of 10 values
 * is the 9th, not a rounding's neighbour. */
static int64_t nearest_rank(const int64_t *ns, size_t n, int p)
{
    assert(n > 0 && p > 0 && p <= 100);
    size_t rank = ((size_t)p * n + 99) / 100;
    return ns[rank ? rank - 1 : 0];
}

/* Fills r's spread from its sorted times ns[0, n). */
static void spread(pf_row *r, const int64_t *ns, size_t n)
{
    if (!n)
        return;
    r->p50_ns = nearest_rank(ns, n, 50);
    r->p90_ns = nearest_rank(ns, n, 90);
    r->p99_ns = nearest_rank(ns, n, 99);
    double mean = 0, ss = 0;
    for (size_t i = 0; i < n; i++)
        mean += (double)ns[i];
    mean /= (double)n;
    for (size_t i = 0; i < n; i++)
        ss += ((double)ns[i] - mean) * ((double)ns[i] - mean);
    r->std_ns = sqrt(ss / (double)n);
    r->has_spread = 1;
}

/* Sums the samples of one invocation (same key) into one, in key order (a stable sort: an
 * invocation's times are added in file order); returns how many are left in s. kv and tmp
 * have room for n. */
static size_t merge_invocations(sample *s, size_t n, pf_kv *kv, pf_kv *tmp, sample *out)
{
    for (size_t i = 0; i < n; i++)
        kv[i] = (pf_kv){pf_key_i64(s[i].key), i};
    pf_sort_kv(kv, tmp, n);
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        const sample *x = &s[kv[k].val];
        if (m && x->key >= 0 && x->key == out[m - 1].key) {
            out[m - 1].ns = pf_sat_add(out[m - 1].ns, x->ns);
            continue;
        }
        out[m++] = *x;
    }
    memcpy(s, out, m * sizeof *s);
    return m;
}

/* The samples' times by row, each row's ascending, into by_row, and all of them ascending
 * into all (the order sorting by (row, time) and by time gives: equal times are equal
 * values); start[r] .. start[r + 1] is row r's part of by_row (a row >= n_rows goes to none),
 * fill is room for n_rows + 2 more counters. */
static void sort_times(const sample *s, size_t n, size_t n_rows, pf_kv *kv, pf_kv *tmp, int64_t *all,
                       int64_t *by_row, size_t *start, size_t *fill)
{
    /* all and by_row may lie in tmp: it is scratch only until the sort returns */
    for (size_t i = 0; i < n; i++)
        kv[i] = (pf_kv){pf_key_i64(s[i].ns), (uint64_t)s[i].row < n_rows ? (uint64_t)s[i].row : n_rows};
    pf_sort_kv(kv, tmp, n);
    memset(start, 0, (n_rows + 2) * sizeof *start);
    for (size_t i = 0; i < n; i++)
        start[kv[i].val + 1]++;
    for (size_t r = 0; r <= n_rows; r++)
        start[r + 1] += start[r];
    memcpy(fill, start, (n_rows + 2) * sizeof *fill);
    for (size_t i = 0; i < n; i++) {
        int64_t ns = (int64_t)(kv[i].key ^ (UINT64_C(1) << 63));
        all[i] = ns;
        by_row[fill[kv[i].val]++] = ns;
    }
}

int pf_row_spread(const pf_trace *t, int per_invocation, const size_t *acts, size_t n_acts, const int32_t *act_row,
                  pf_row *rows, size_t n_rows, pf_row *total)
{
    assert(t && (acts || !n_acts) && act_row && (rows || !n_rows) && total);
    size_t cap = n_acts ? n_acts : 1;
    /* After the sort, its scratch tmp (16 bytes a sample) holds the two time arrays (8 bytes
     * each): this pass is among the highest points of a run's memory. */
    sample *s = malloc(cap * sizeof *s);
    pf_kv *kv = malloc(cap * sizeof *kv), *tmp = malloc(cap * sizeof *tmp);
    size_t *start = malloc((n_rows + 2) * sizeof *start), *fill = malloc((n_rows + 2) * sizeof *fill);
    int rc = s && kv && tmp && start && fill ? 0 : -1;
    size_t n = 0;
    for (size_t k = 0; rc == 0 && k < n_acts; k++) {
        size_t i = acts[k];
        if (act_row[i] < 0)
            continue;
        const pf_activity *a = &t->acts[i];
        int64_t key = per_invocation && a->op >= 0 ? a->op : -1 - (int64_t)i;
        s[n++] = (sample){key, act_row[i], a->dur_ns};
    }
    if (rc == 0 && per_invocation) {
        sample *out = malloc(cap * sizeof *out);
        if (out)
            n = merge_invocations(s, n, kv, tmp, out);
        else
            rc = -1;
        free(out);
    }
    if (rc == 0 && n) {
        int64_t *all = (int64_t *)(void *)tmp, *by_row = all + n;
        sort_times(s, n, n_rows, kv, tmp, all, by_row, start, fill);
        for (size_t r = 0; r < n_rows; r++)
            spread(&rows[r], by_row + start[r], start[r + 1] - start[r]);
        spread(total, all, n);
    }
    free(s);
    free(kv);
    free(tmp);
    free(start);
    free(fill);
    return rc;
}
