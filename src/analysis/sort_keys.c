/* sort_keys.c - LSD radix sort of (key, value) pairs: the analysis's per-activity sorts in O(n). */
#include "sort_keys.h"

#include <assert.h>
#include <string.h>

enum { DIGIT_BITS = 11, DIGITS = 1 << DIGIT_BITS };

void pf_sort_kv(pf_kv *v, pf_kv *tmp, size_t n)
{
    assert((v && tmp) || n == 0);
    if (n < 2)
        return;
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
