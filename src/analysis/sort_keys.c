/* sort_keys.c - stable O(n) sorts of (key, value) pairs for the analysis's per-activity sorts: a pass when in order, the few late keys merged in when mostly ascending, else LSD radix. */
#include "sort_keys.h"

#include <assert.h>
#include <string.h>

enum { DIGIT_BITS = 11, DIGITS = 1 << DIGIT_BITS };

/* LSD radix sort of v[0, n) (tmp: room for n), as many passes as the keys' spread needs. */
static void radix(pf_kv *v, pf_kv *tmp, size_t n)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < n; i++) {
        lo = v[i].key < lo ? v[i].key : lo;
        hi = v[i].key > hi ? v[i].key : hi;
    }
    uint64_t spread = hi - lo;
    pf_kv *src = v, *dst = tmp;
    for (int shift = 0; shift < 64 && (spread >> shift) != 0; shift += DIGIT_BITS) {
        size_t count[DIGITS + 1] = {0};
        for (size_t i = 0; i < n; i++)
            count[((src[i].key - lo) >> shift & (DIGITS - 1)) + 1]++;
        if (count[((src[0].key - lo) >> shift & (DIGITS - 1)) + 1] == n)
            continue; /* one digit value: this pass would not move anything */
        for (size_t d = 1; d <= DIGITS; d++)
            count[d] += count[d - 1];
        for (size_t i = 0; i < n; i++)
            dst[count[(src[i].key - lo) >> shift & (DIGITS - 1)]++] = src[i];
        pf_kv *x = src;
        src = dst;
        dst = x;
    }
    if (src != v)
        memcpy(v, src, n * sizeof *v);
}

/* Elements below the running maximum of the keys before them, at most limit; more: limit + 1. */
static size_t count_below(const pf_kv *v, size_t n, size_t limit)
{
    size_t below = 0;
    uint64_t max = 0;
    for (size_t i = 0; i < n && below <= limit; i++) {
        if (i > 0 && v[i].key < max)
            below++;
        else
            max = v[i].key;
    }
    return below;
}

/* Activities in file order come in long runs of start times: most keys are at or above every
 * key before them (the ascending part A), a few are not (B). A stays in place, B is sorted on
 * its own and merged in. Stable: a key of B equal to one of A comes after it in the input
 * (else that A key would be below the larger key that put the B one in B), and so in the
 * result too (A's first on ties). */
static void sort_mostly_ascending(pf_kv *v, pf_kv *tmp, size_t n)
{
    size_t na = 0, nb = 0;
    uint64_t max = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && v[i].key < max) {
            tmp[nb++] = v[i];
        } else {
            max = v[i].key;
            v[na++] = v[i]; /* na <= i: in place */
        }
    }
    radix(tmp, v + na, nb); /* v[na, n) is free: nb slots */
    size_t i = na, j = nb, k = n;
    while (j > 0) /* from the back: on a tie B's goes last */
        v[--k] = i > 0 && v[i - 1].key > tmp[j - 1].key ? v[--i] : tmp[--j];
}

void pf_sort_kv(pf_kv *v, pf_kv *tmp, size_t n)
{
    assert((v && tmp) || n == 0);
    if (n < 2)
        return;
    size_t below = count_below(v, n, n / 4);
    if (below == 0) /* common: the activities of one stream, in file order */
        return;
    if (below <= n / 4)
        sort_mostly_ascending(v, tmp, n);
    else
        radix(v, tmp, n);
}
