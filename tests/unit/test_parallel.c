/* test_parallel.c - unit tests of the thread-count rule and the ranges (src/util/parallel.c): -j and the CPU count both capped at PF_THREADS_MAX, every range run exactly once. */
#include <stddef.h>

#include "check.h"
#include "profana/parallel.h"

static void test_workers(void)
{
    CHECK("-j 1 on 256 CPUs: 1", pf_parallel_workers_for(1, 256) == 1);
    CHECK("-j 8 on 2 CPUs: 8 (asked for)", pf_parallel_workers_for(8, 2) == 8);
    CHECK("-j 100: 64", pf_parallel_workers_for(100, 2) == 64);
    CHECK("default on 2 CPUs: 2", pf_parallel_workers_for(0, 2) == 2);
    CHECK("default on 64 CPUs: 64", pf_parallel_workers_for(0, 64) == 64);
    CHECK("default on 65 CPUs: 64", pf_parallel_workers_for(0, 65) == 64);
    CHECK("default on 256 CPUs: 64", pf_parallel_workers_for(0, 256) == 64);
    CHECK("default on 0 CPUs: 1", pf_parallel_workers_for(0, 0) == 1);
    CHECK("default on this host: 1 .. 64", pf_parallel_workers(0) >= 1 && pf_parallel_workers(0) <= 64);
}

enum { RANGES = 200, ITEMS = 1000 };

typedef struct seen {
    int hits[ITEMS];
    int range_of[ITEMS];
} seen;

/* Each range writes only its own items, so no two threads touch one slot. */
static void mark(void *ctx, size_t lo, size_t hi, size_t r)
{
    seen *s = ctx;
    for (size_t i = lo; i < hi; i++) {
        s->hits[i]++;
        s->range_of[i] = (int)r;
    }
}

/* More ranges than PF_THREADS_MAX threads: every item is covered once, by ranges in order. */
static void test_ranges(void)
{
    static seen s;
    pf_parallel_ranges(ITEMS, RANGES, mark, &s);
    int once = 1, ordered = 1;
    for (size_t i = 0; i < ITEMS; i++) {
        once &= s.hits[i] == 1;
        ordered &= i == 0 || s.range_of[i] >= s.range_of[i - 1];
    }
    CHECK("200 ranges over 1000 items: each item once", once);
    CHECK("200 ranges over 1000 items: ranges consecutive", ordered);
    CHECK("the last item in the last range", s.range_of[ITEMS - 1] == RANGES - 1);
}

int main(void)
{
    test_workers();
    test_ranges();
    return check_failures != 0;
}
