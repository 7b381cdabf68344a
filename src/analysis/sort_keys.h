/* sort_keys.h - a stable O(n) sort of (key, value) pairs by an unsigned 64-bit key, for the analysis's per-activity sorts (qsort's O(n log n) compares cost more than the rest of a pass). */
#ifndef PROFANA_ANALYSIS_SORT_KEYS_H
#define PROFANA_ANALYSIS_SORT_KEYS_H

#include <stddef.h>
#include <stdint.h>

typedef struct pf_kv {
    uint64_t key;
    uint64_t val;
} pf_kv;

/* Sorts v[0, n) by key, stably (equal keys keep their order). Keys in order already cost one
 * pass; mostly ascending keys (at most a quarter below an earlier key: activities in file
 * order) are sorted by moving only those; else least significant digit first, as many passes
 * as the keys' spread (largest - smallest) needs. tmp has room for n and its contents are
 * lost. The result is the one order a stable sort gives, whatever the method. */
void pf_sort_kv(pf_kv *v, pf_kv *tmp, size_t n);

/* A signed value as an unsigned key of the same order. */
static inline uint64_t pf_key_i64(int64_t x)
{
    return (uint64_t)x ^ (UINT64_C(1) << 63);
}

#endif
