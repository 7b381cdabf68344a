/* sort_keys.c - LSD radix sort of (key, value) pairs: the analysis's per-activity sorts in O(n). */
#include "sort_keys.h"

#include <assert.h>
#include <string.h>

enum { DIGIT_BITS = 11, DIGITS = 1 << DIGIT_BITS };

/* Merges the sorted a[0, na) and b[0, nb) into out, stably (a tie: a's first). */
static void merge(const pf_kv *a, size_t na, const pf_kv *b, size_t nb, pf_kv *out)
{
    size_t i = 0, j = 0, k = 0;
    while (i < na && j < nb)
        out[k++] = b[j].key < a[i].key ? b[j++] : a[i++];
    while (i < na)
        out[k++] = a[i++];
    while (j < nb)
        out[k++] = b[j++];
}

void pf_sort_kv(pf_kv *v, pf_kv *tmp, size_t n)
{
    assert((v && tmp) || n == 0);
    if (n < 2)
        return;
    uint64_t lo = UINT64_MAX, hi = 0;
    int sorted = 1;
    for (size_t i = 0; i < n; i++) {
        lo = v[i].key < lo ? v[i].key : lo;
        hi = v[i].key > hi ? v[i].key : hi;
        sorted &= i == 0 || v[i - 1].key <= v[i].key;
    }
    if (sorted) /* common: the activities of one stream, in file order */
        return;
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

void pf_sort_kv2(pf_kv *v, pf_kv *tmp, size_t n, size_t split)
{
    assert(((v && tmp) || n == 0) && split <= n);
    pf_sort_kv(v, tmp, split);
    pf_sort_kv(v + split, tmp, n - split);
    merge(v, split, v + split, n - split, tmp);
    memcpy(v, tmp, n * sizeof *v);
}
