/* test_sort_keys.c - unit tests of the analysis's O(n) sort (src/analysis/sort_keys.c) and task pool (src/analysis/tasks.c): the sort gives exactly a stable comparison sort's order (checked against an insertion sort written here) on random, sorted, run-structured, mostly ascending, equal and signed keys; every task runs once. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../src/analysis/sort_keys.h"
#include "../../src/analysis/tasks.h"

/* The oracle: a stable insertion sort by key (O(n^2), small n only). */
static void insertion_sort(pf_kv *v, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        pf_kv x = v[i];
        size_t j = i;
        for (; j > 0 && v[j - 1].key > x.key; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

static uint64_t rng_state = 88172645463325252u;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Sorts a copy with pf_sort_kv and compares every pair with the oracle's. */
static void check_sort(const char *name, const pf_kv *in, size_t n)
{
    pf_kv *a = malloc((n + 1) * sizeof *a), *want = malloc((n + 1) * sizeof *want), *tmp = malloc((n + 1) * sizeof *tmp);
    if (!a || !want || !tmp) {
        CHECK(name, 0);
        return;
    }
    for (size_t i = 0; i < n; i++)
        a[i] = want[i] = in[i];
    insertion_sort(want, n);
    pf_sort_kv(a, tmp, n);
    int same = 1;
    for (size_t i = 0; i < n; i++)
        same &= a[i].key == want[i].key && a[i].val == want[i].val;
    char label[160];
    snprintf(label, sizeof label, "%s: pf_sort_kv = stable sort", name);
    CHECK(label, same);
    free(a);
    free(want);
    free(tmp);
}

enum { N = 3000 };

static void test_sorts(void)
{
    static pf_kv v[N];
    for (size_t i = 0; i < N; i++) /* full 64-bit keys: every radix pass runs */
        v[i] = (pf_kv){rng(), i};
    check_sort("random 64-bit keys", v, N);
    for (size_t i = 0; i < N; i++) /* many ties: stability shows */
        v[i] = (pf_kv){rng() % 7, i};
    check_sort("keys 0..6", v, N);
    for (size_t i = 0; i < N; i++)
        v[i] = (pf_kv){42, i};
    check_sort("one key", v, N);
    for (size_t i = 0; i < N; i++)
        v[i] = (pf_kv){1000 + i, i};
    check_sort("sorted already", v, N);
    for (size_t i = 0; i < N; i++) /* ascending runs, as activities in file order */
        v[i] = (pf_kv){(uint64_t)(i % 250) * 1000 + (i / 250) * 7 + rng() % 3, i};
    check_sort("ascending runs", v, N);
    for (size_t i = 0; i < N; i++) /* ascending, one in ten late (below an earlier key) */
        v[i] = (pf_kv){i % 10 == 3 ? (uint64_t)i * 10 - 500 - rng() % 400 : (uint64_t)i * 10 + 5000, i};
    check_sort("mostly ascending, a tenth late", v, N);
    for (size_t i = 0; i < N; i++) /* the same with ties between the late ones and the rest */
        v[i] = (pf_kv){i % 7 == 0 ? (uint64_t)(i / 2) : (uint64_t)i, i};
    check_sort("mostly ascending with ties", v, N);
    for (size_t i = 0; i < N; i++) /* just under a quarter late, in blocks */
        v[i] = (pf_kv){(i / 100) % 5 == 4 ? (uint64_t)(i - 300) : (uint64_t)i, i};
    check_sort("mostly ascending, late blocks", v, N);
    for (size_t i = 0; i < N; i++) /* timestamps around a large epoch, signed */
        v[i] = (pf_kv){pf_key_i64(INT64_C(1700000000000000000) + (int64_t)(rng() % 40000000000u) - 20000000000), i};
    check_sort("epoch timestamps", v, N);
    for (size_t i = 0; i < N; i++)
        v[i] = (pf_kv){pf_key_i64((int64_t)(rng() % 2001) - 1000), i};
    check_sort("negative and positive", v, N);
    check_sort("empty", v, 0);
    check_sort("one", v, 1);
    CHECK("pf_key_i64 keeps order: -1 < 0", pf_key_i64(-1) < pf_key_i64(0));
    CHECK("pf_key_i64 keeps order: INT64_MIN < INT64_MAX", pf_key_i64(INT64_MIN) < pf_key_i64(INT64_MAX));
}

enum { TASKS = 500 };

typedef struct task_seen {
    int hits[TASKS];
    int fail_at;
} task_seen;

/* Each task writes only its own slot. */
static int mark_task(void *ctx, size_t task, size_t worker)
{
    task_seen *s = ctx;
    s->hits[task]++;
    (void)worker;
    return (int)task == s->fail_at;
}

static void test_tasks(void)
{
    static const size_t workers[] = {1, 2, 3, 7, 64, 1000};
    for (size_t w = 0; w < sizeof workers / sizeof workers[0]; w++) {
        static task_seen s;
        memset(&s, 0, sizeof s);
        s.fail_at = -1;
        int failed = 0;
        size_t threads = pf_tasks_run(TASKS, workers[w], mark_task, &s, &failed);
        int once = 1;
        for (size_t k = 0; k < TASKS; k++)
            once &= s.hits[k] == 1;
        char label[120];
        snprintf(label, sizeof label, "tasks at %zu workers: each runs once", workers[w]);
        CHECK(label, once);
        snprintf(label, sizeof label, "tasks at %zu workers: none failed", workers[w]);
        CHECK(label, failed == 0);
        snprintf(label, sizeof label, "tasks at %zu workers: threads = min(workers, 64)", workers[w]);
        CHECK(label, threads == (workers[w] < 64 ? workers[w] : 64) && threads == pf_tasks_threads(TASKS, workers[w]));
    }
    static task_seen s;
    memset(&s, 0, sizeof s);
    s.fail_at = 123;
    int failed = 0;
    pf_tasks_run(TASKS, 2, mark_task, &s, &failed);
    int once = 1;
    for (size_t k = 0; k < TASKS; k++)
        once &= s.hits[k] == 1;
    CHECK("a failed task is reported, and the others still run", failed == 1 && once);
    CHECK("no tasks: one thread", pf_tasks_threads(0, 8) == 1 && pf_tasks_run(0, 8, mark_task, &s, NULL) == 1);
    CHECK("3 tasks on 8 workers: 3 threads", pf_tasks_threads(3, 8) == 3);
}

int main(void)
{
    test_sorts();
    test_tasks();
    return check_failures ? 1 : 0;
}
