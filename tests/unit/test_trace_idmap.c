/* test_trace_idmap.c - the loader's id -> first record maps (src/trace/trace_idmap.c): dense and hashed, the least index winning whatever order threads put them in, the key INT64_MIN, and distinct ids counted; every expectation from a plain serial scan written here. */
#include <pthread.h>
#include <stdint.h>

#include "check.h"
#include "../../src/trace/trace_idmap.h"

enum { N = 200000, THREADS = 4 };

/* Ids with repeats: the i-th put's id (spread: hashed; compact: dense). */
static int64_t id_of(size_t i, int spread)
{
    int64_t base = (int64_t)(i % (N / 3)); /* each id three times, the repeats far apart */
    return spread ? base * 7919 - 500000 : base + 1000;
}

typedef struct job {
    pf_idmap *m;
    int spread;
    size_t from, step;
} job;

/* Every THREADS-th put from the end backwards: the larger indexes often land first. */
static void *put_some(void *arg)
{
    const job *j = arg;
    for (size_t k = N; k-- > 0;)
        if (k % j->step == j->from)
            pf_idmap_put_min(j->m, id_of(k, j->spread), (int32_t)k);
    return NULL;
}

static void check_filled(const char *what, int spread)
{
    pf_idmap m;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < N; i++) {
        lo = id_of(i, spread) < lo ? id_of(i, spread) : lo;
        hi = id_of(i, spread) > hi ? id_of(i, spread) : hi;
    }
    CHECK(what, pf_idmap_init(&m, lo, hi, N) == 0);
    CHECK(spread ? "spread ids: hashed" : "compact ids: dense", spread ? m.direct == NULL : m.direct != NULL);
    pthread_t th[THREADS];
    job jobs[THREADS];
    for (size_t t = 0; t < THREADS; t++) {
        jobs[t] = (job){&m, spread, t, THREADS};
        pthread_create(&th[t], NULL, put_some, &jobs[t]);
    }
    for (size_t t = 0; t < THREADS; t++)
        pthread_join(th[t], NULL);
    /* the first put of id_of(i) is at i % (N / 3): what a serial scan in order keeps */
    size_t wrong = 0;
    for (size_t i = 0; i < N; i++)
        wrong += pf_idmap_get(&m, id_of(i, spread)) != (int32_t)(i % (N / 3));
    CHECK(spread ? "hashed: every id maps to its first put" : "dense: every id maps to its first put", wrong == 0);
    CHECK(spread ? "hashed: N / 3 distinct ids (1 thread)" : "dense: N / 3 distinct ids (1 thread)",
          pf_idmap_count(&m, 1) == N / 3);
    CHECK(spread ? "hashed: N / 3 distinct ids (4 threads)" : "dense: N / 3 distinct ids (4 threads)",
          pf_idmap_count(&m, 4) == N / 3);
    CHECK(spread ? "hashed: an id never put: -1" : "dense: an id outside the range: -1",
          pf_idmap_get(&m, spread ? 3 : hi + 1) == -1 && pf_idmap_get(&m, lo - 1) == -1);
    pf_idmap_free(&m);
}

int main(void)
{
    check_filled("compact ids: made", 0);
    check_filled("spread ids: made", 1);

    pf_idmap m;
    CHECK("extreme ids: made", pf_idmap_init(&m, INT64_MIN, INT64_MAX, 3) == 0);
    CHECK("extreme ids: hashed", m.direct == NULL);
    CHECK("extreme ids: INT64_MIN absent", pf_idmap_get(&m, INT64_MIN) == -1);
    pf_idmap_put_min(&m, INT64_MIN, 5);
    pf_idmap_put_min(&m, INT64_MAX, 9);
    pf_idmap_put_min(&m, INT64_MIN, 2);
    pf_idmap_put_min(&m, INT64_MIN, 7);
    CHECK("extreme ids: INT64_MIN keeps its least index", pf_idmap_get(&m, INT64_MIN) == 2);
    CHECK("extreme ids: INT64_MAX", pf_idmap_get(&m, INT64_MAX) == 9);
    CHECK("extreme ids: 2 distinct", pf_idmap_count(&m, 2) == 2);
    pf_idmap_free(&m);

    CHECK("no puts: made", pf_idmap_init(&m, INT64_MAX, INT64_MIN, 0) == 0);
    CHECK("no puts: nothing there", pf_idmap_get(&m, 0) == -1 && pf_idmap_count(&m, 1) == 0);
    pf_idmap_free(&m);
    CHECK_DONE();
}
