/* i64map.c - open-addressing map from int64 keys to indexes (include/profana/i64map.h). */
#include "profana/i64map.h"

#include <assert.h>
#include <stdlib.h>

#define EMPTY INT64_MIN

/* Fibonacci hashing: consecutive ids (Kineto's External ids) spread over the slots. */
static size_t slot_hash(int64_t k, size_t cap)
{
    uint64_t h = (uint64_t)k * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> 17) & (cap - 1);
}

/* The slot of key, or the free slot where it would go. cap > 0, key != EMPTY. */
static size_t slot_of(const pf_i64map *m, int64_t key)
{
    size_t i = slot_hash(key, m->cap);
    while (m->keys[i] != EMPTY && m->keys[i] != key)
        i = (i + 1) & (m->cap - 1);
    return i;
}

/* Whether cap slots hold n keys within the 70% load. */
static int fits(size_t cap, size_t n)
{
    return n <= cap / 10 * 7 + cap % 10 * 7 / 10;
}

/* Moves every key into cap slots (a power of two that fits them). */
static int rehash(pf_i64map *m, size_t cap)
{
    pf_i64map bigger = {.cap = cap, .n = m->n, .has_min = m->has_min, .min_val = m->min_val};
    bigger.keys = malloc(cap * sizeof *bigger.keys);
    bigger.vals = malloc(cap * sizeof *bigger.vals);
    if (!bigger.keys || !bigger.vals) {
        free(bigger.keys);
        free(bigger.vals);
        return -1;
    }
    for (size_t i = 0; i < cap; i++)
        bigger.keys[i] = EMPTY;
    for (size_t i = 0; i < m->cap; i++) {
        if (m->keys[i] == EMPTY)
            continue;
        size_t j = slot_of(&bigger, m->keys[i]);
        bigger.keys[j] = m->keys[i];
        bigger.vals[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    *m = bigger;
    return 0;
}

int pf_i64map_reserve(pf_i64map *m, size_t n)
{
    assert(m && m->n <= m->cap);
    size_t cap = m->cap ? m->cap : 16;
    while (!fits(cap, n)) {
        if (cap > SIZE_MAX / 2 / sizeof *m->keys)
            return -1;
        cap *= 2;
    }
    return cap == m->cap ? 0 : rehash(m, cap);
}

int64_t pf_i64map_find_or_add(pf_i64map *m, int64_t key, uint32_t next, int *added)
{
    assert(m && added);
    assert(m->cap == 0 || (m->cap & (m->cap - 1)) == 0); /* 0 or a power of two */
    if (key == EMPTY) {
        *added = !m->has_min;
        if (*added) {
            m->has_min = 1;
            m->min_val = next;
        }
        return (int64_t)m->min_val;
    }
    if (!m->cap || !fits(m->cap, m->n + 1)) {
        if (pf_i64map_reserve(m, m->n + 1))
            return -1;
    }
    size_t i = slot_of(m, key);
    *added = m->keys[i] == EMPTY;
    if (*added) {
        m->keys[i] = key;
        m->vals[i] = next;
        m->n++;
    }
    return (int64_t)m->vals[i];
}

int pf_i64map_get(const pf_i64map *m, int64_t key, uint32_t *val)
{
    assert(m && val);
    if (key == EMPTY) {
        if (m->has_min)
            *val = m->min_val;
        return m->has_min;
    }
    if (!m->cap)
        return 0;
    size_t i = slot_of(m, key);
    if (m->keys[i] == EMPTY)
        return 0;
    *val = m->vals[i];
    return 1;
}

void pf_i64map_free(pf_i64map *m)
{
    assert(m);
    free(m->keys);
    free(m->vals);
    *m = (pf_i64map){0};
}
