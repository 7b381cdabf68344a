/* row_stats.c - the spread of each row's times: nearest-rank p50, p90, p99 and the population standard deviation, per launch (--group kernel) or per op invocation (op, shape). */
#include "profana/analysis.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>

#include "profana/satmath.h"

/* One sample: a launch, or the summed time of one op invocation on the device. */
typedef struct sample {
    int64_t key;               /* the invocation: its op index, or -1 - activity index */
    int32_t row;
    int64_t ns;
} sample;

static int by_key(const void *x, const void *y)
{
    const sample *a = x, *b = y;
    return (a->key > b->key) - (a->key < b->key);
}

static int by_row_ns(const void *x, const void *y)
{
    const sample *a = x, *b = y;
    if (a->row != b->row)
        return (a->row > b->row) - (a->row < b->row);
    return (a->ns > b->ns) - (a->ns < b->ns);
}

static int by_ns(const void *x, const void *y)
{
    const sample *a = x, *b = y;
    return (a->ns > b->ns) - (a->ns < b->ns);
}

/* Nearest rank: the smallest value with at least p% of the n values at or below it, i.e.
 * the ceil(p n / 100)-th smallest (1-based), in integer arithmetic so that p90 of 10 values
 * is the 9th, not a rounding's neighbour. */
static int64_t nearest_rank(const sample *s, size_t n, int p)
{
    assert(n > 0 && p > 0 && p <= 100);
    size_t rank = ((size_t)p * n + 99) / 100;
    return s[rank ? rank - 1 : 0].ns;
}

/* Fills r's spread from its sorted samples s[0, n). */
static void spread(pf_row *r, const sample *s, size_t n)
{
    if (!n)
        return;
    r->p50_ns = nearest_rank(s, n, 50);
    r->p90_ns = nearest_rank(s, n, 90);
    r->p99_ns = nearest_rank(s, n, 99);
    double mean = 0, ss = 0;
    for (size_t i = 0; i < n; i++)
        mean += (double)s[i].ns;
    mean /= (double)n;
    for (size_t i = 0; i < n; i++)
        ss += ((double)s[i].ns - mean) * ((double)s[i].ns - mean);
    r->std_ns = sqrt(ss / (double)n);
    r->has_spread = 1;
}

/* Sums the samples of one invocation (same key) into one, in place; returns how many are left. */
static size_t merge_invocations(sample *s, size_t n)
{
    qsort(s, n, sizeof *s, by_key);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && s[i].key >= 0 && s[i].key == s[m - 1].key) {
            s[m - 1].ns = pf_sat_add(s[m - 1].ns, s[i].ns);
            continue;
        }
        s[m++] = s[i];
    }
    return m;
}

int pf_row_spread(const pf_trace *t, int per_invocation, const size_t *acts, size_t n_acts, const int32_t *act_row,
                  pf_row *rows, size_t n_rows, pf_row *total)
{
    assert(t && (acts || !n_acts) && act_row && (rows || !n_rows) && total);
    sample *s = malloc((n_acts ? n_acts : 1) * sizeof *s);
    if (!s)
        return -1;
    size_t n = 0;
    for (size_t k = 0; k < n_acts; k++) {
        size_t i = acts[k];
        if (act_row[i] < 0)
            continue;
        const pf_activity *a = &t->acts[i];
        int64_t key = per_invocation && a->op >= 0 ? a->op : -1 - (int64_t)i;
        s[n++] = (sample){key, act_row[i], a->dur_ns};
    }
    if (per_invocation)
        n = merge_invocations(s, n);
    qsort(s, n, sizeof *s, by_row_ns);
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && s[j].row == s[i].row; j++)
            ;
        if ((size_t)s[i].row < n_rows)
            spread(&rows[s[i].row], s + i, j - i);
    }
    qsort(s, n, sizeof *s, by_ns);
    spread(total, s, n);
    free(s);
    return 0;
}
