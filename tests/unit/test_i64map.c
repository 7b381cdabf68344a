/* test_i64map.c - unit tests of the int64-keyed map (src/util/i64map.c): any key, 0 and negatives and INT64_MIN included, against a plain array of the keys stored. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "profana/i64map.h"

static int64_t add(pf_i64map *m, int64_t key, uint32_t next, int *added)
{
    return pf_i64map_find_or_add(m, key, next, added);
}

static void test_empty(void)
{
    pf_i64map m = {0};
    uint32_t v = 77;
    CHECK("zeroed map: 0 absent", pf_i64map_get(&m, 0, &v) == 0 && v == 77);
    CHECK("zeroed map: INT64_MIN absent", pf_i64map_get(&m, INT64_MIN, &v) == 0 && v == 77);
    CHECK("zeroed map: -1 absent", pf_i64map_get(&m, -1, &v) == 0);
    pf_i64map_free(&m);
    CHECK("free of an empty map leaves it empty", m.cap == 0 && m.n == 0 && !m.keys);
}

/* The values that tend to be sentinels are ordinary keys. */
static void test_special_keys(void)
{
    static const int64_t keys[] = {0, -1, 1, INT64_MIN, INT64_MAX, INT64_MIN + 1, -2, 42};
    enum { N = sizeof keys / sizeof keys[0] };
    pf_i64map m = {0};
    int added, all_added = 1, all_again = 1, all_found = 1;
    for (size_t i = 0; i < N; i++)
        all_added &= add(&m, keys[i], (uint32_t)(i * 10), &added) == (int64_t)(i * 10) && added == 1;
    CHECK("special keys: each added with its value", all_added);
    for (size_t i = 0; i < N; i++)
        all_again &= add(&m, keys[i], 999, &added) == (int64_t)(i * 10) && added == 0;
    CHECK("special keys: added again keeps the first value", all_again);
    for (size_t i = 0; i < N; i++) {
        uint32_t v = 0;
        all_found &= pf_i64map_get(&m, keys[i], &v) == 1 && v == i * 10;
    }
    CHECK("special keys: each found", all_found);
    uint32_t v = 5;
    CHECK("absent key near them", pf_i64map_get(&m, 2, &v) == 0 && v == 5);
    CHECK("INT64_MIN kept aside, not in the slots", m.has_min && m.n == N - 1);
    pf_i64map_free(&m);
    CHECK("free: INT64_MIN gone too", pf_i64map_get(&m, INT64_MIN, &v) == 0);
}

/* reserve(n) sizes the map so that n keys go in without growing. */
static void test_reserve(void)
{
    pf_i64map m = {0};
    CHECK("reserve 1000", pf_i64map_reserve(&m, 1000) == 0);
    size_t cap = m.cap;
    CHECK("capacity a power of two, at most 70% full", cap && (cap & (cap - 1)) == 0 && cap * 7 >= 1000 * 10);
    int added, ok = 1;
    for (int64_t k = 0; k < 1000; k++)
        ok &= add(&m, k * 7 - 3500, (uint32_t)k, &added) == k && added;
    CHECK("1000 keys in", ok);
    CHECK("no growth after reserve", m.cap == cap && m.n == 1000);
    CHECK("reserve of fewer keeps the capacity", pf_i64map_reserve(&m, 10) == 0 && m.cap == cap);
    uint32_t v;
    CHECK("found after reserve", pf_i64map_get(&m, 999 * 7 - 3500, &v) && v == 999);
    pf_i64map_free(&m);
}

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A key from a small pool (many repeats), a stride that collides in the low bits, or any
 * 64-bit value. */
static int64_t random_key(uint64_t *s, int i)
{
    uint64_t r = next_rand(s);
    switch (i % 3) {
    case 0:
        return (int64_t)(r % 5000) - 2500;
    case 1:
        return (int64_t)((r % 4000) << 20);
    default:
        return (int64_t)r;
    }
}

/* Growing from empty through many keys; every answer checked against a linear search. */
static void test_against_array(void)
{
    enum { OPS = 30000 };
    int64_t *seen = malloc(OPS * sizeof *seen);
    size_t n_seen = 0;
    pf_i64map m = {0};
    uint64_t s = 0x2545F4914F6CDD1D;
    int ok = 1;
    for (int i = 0; seen && i < OPS; i++) {
        int64_t k = random_key(&s, i);
        size_t want = n_seen;
        for (size_t j = 0; j < n_seen; j++)
            if (seen[j] == k) {
                want = j;
                break;
            }
        int added;
        int64_t got = add(&m, k, (uint32_t)n_seen, &added);
        ok &= got == (int64_t)want && added == (want == n_seen);
        if (want == n_seen)
            seen[n_seen++] = k;
    }
    CHECK("find_or_add agrees with a linear search", ok);
    CHECK("key count", m.n + (size_t)m.has_min == n_seen);
    int found = 1;
    for (size_t j = 0; j < n_seen; j++) {
        uint32_t v = UINT32_MAX;
        found &= pf_i64map_get(&m, seen[j], &v) == 1 && v == j;
    }
    CHECK("every key found with its index", found);
    int absent = 1;
    for (int i = 0; i < 2000; i++) {
        int64_t k = (int64_t)next_rand(&s) | 1; /* odd, far out: almost surely new */
        int known = 0;
        for (size_t j = 0; j < n_seen && !known; j++)
            known = seen[j] == k;
        uint32_t v;
        absent &= known || pf_i64map_get(&m, k, &v) == 0;
    }
    CHECK("keys never added are absent", absent);
    CHECK("at most 70% of the slots used", m.n * 10 <= m.cap * 7);
    pf_i64map_free(&m);
    free(seen);
}

int main(void)
{
    test_empty();
    test_special_keys();
    test_reserve();
    test_against_array();
    CHECK_DONE();
}
