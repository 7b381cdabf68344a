/* test_trace_idmap.c - the loader's id -> first record maps (src/trace/trace_idmap.c): dense, paged and hashed, the least index winning whatever order threads put them in, the key INT64_MIN, and distinct ids counted; every expectation from a plain serial scan written here. */
#include <pthread.h>
#include <stdint.h>

#include "check.h"
#include "../../src/trace/trace_idmap.h"

enum { N = 200000, THREADS = 4 };

/* How the ids lie, and the map that suits them. */
enum { COMPACT, SPREAD, RUNS, SPARSE, WIDE };

/* Ids with repeats: the i-th put's id (COMPACT: dense; SPREAD: hashed, too many pages to
 * mark; RUNS: 14 runs of up to 5,000 consecutive ids a million apart, paged in 78 pages of
 * 1,024 ids (counted by a Python set of page numbers), 312 KB against hashed slots' 6 MB;
 * SPARSE: every 50th id, a range of 3,256 pages, all of them marked: 13 MB paged, so hashed;
 * WIDE: hashed over 6.7e13 ids, beyond 32-bit keys; the others' hashed slots take 32-bit keys). */
static int64_t id_of(size_t i, int spread)
{
    int64_t base = (int64_t)(i % (N / 3)); /* each id three times, the repeats far apart */
    switch (spread) {
    case COMPACT:
        return base + 1000;
    case SPREAD:
        return base * 7919 - 500000;
    case RUNS:
        return base / 5000 * 1000000 + base % 5000 - 3000000;
    case SPARSE:
        return base * 50 + 7;
    default:
        return base * INT64_C(1000000007) - 500000;
    }
}

static const char *const kind_name[] = {"dense", "hashed", "paged", "hashed after marking", "hashed, 64-bit keys"};

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
    char label[160];
    const char *k = kind_name[spread];
    pf_idmap m;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < N; i++) {
        lo = id_of(i, spread) < lo ? id_of(i, spread) : lo;
        hi = id_of(i, spread) > hi ? id_of(i, spread) : hi;
    }
    CHECK(what, pf_idmap_init(&m, lo, hi, N) == 0);
    snprintf(label, sizeof label, "%s: marks its ids first, or not", k);
    CHECK(label, pf_idmap_marking(&m) == (spread == RUNS || spread == SPARSE));
    if (pf_idmap_marking(&m)) {
        for (size_t i = N; i-- > 0;)
            pf_idmap_mark(&m, id_of(i, spread));
        CHECK("marked: ready", pf_idmap_ready(&m) == 0 && !pf_idmap_marking(&m));
    }
    snprintf(label, sizeof label, "%s: the kind of map", k);
    CHECK(label, spread == COMPACT  ? m.direct != NULL
                 : spread == RUNS ? m.pages != NULL && m.used == 78 && m.direct == NULL && m.keys == NULL
                 : spread == WIDE ? m.keys != NULL && m.keys32 == NULL && m.direct == NULL && m.pages == NULL
                                  : m.keys32 != NULL && m.keys == NULL && m.direct == NULL && m.pages == NULL);
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
    snprintf(label, sizeof label, "%s: every id maps to its first put", k);
    CHECK(label, wrong == 0);
    snprintf(label, sizeof label, "%s: N / 3 distinct ids (1 thread)", k);
    CHECK(label, pf_idmap_count(&m, 1) == N / 3);
    snprintf(label, sizeof label, "%s: N / 3 distinct ids (4 threads)", k);
    CHECK(label, pf_idmap_count(&m, 4) == N / 3);
    /* never put: 3 (SPREAD's ids are -500000 + multiples of 7919; SPARSE's 7 + multiples of
     * 50), 500000 (between two runs), ids beside a run in its page and in none */
    snprintf(label, sizeof label, "%s: ids never put, and outside the range: -1", k);
    CHECK(label, pf_idmap_get(&m, spread == COMPACT ? hi + 1 : spread == RUNS ? 500000 : 3) == -1 && pf_idmap_get(&m, lo - 1) == -1 &&
                     pf_idmap_get(&m, hi + 1) == -1 && pf_idmap_get(&m, INT64_MAX) == -1 &&
                     pf_idmap_get(&m, id_of(0, spread) + (spread == SPARSE ? 1 : 0) - (spread == RUNS ? 1 : 0)) ==
                         (spread == COMPACT || spread == SPREAD || spread == WIDE ? 0 : -1) &&
                     (spread != RUNS || (pf_idmap_get(&m, id_of(4999, RUNS) + 1) == -1 &&
                                         pf_idmap_get(&m, id_of(4999, RUNS) + 500000) == -1)));
    pf_idmap_free(&m);
}

int main(void)
{
    check_filled("compact ids: made", COMPACT);
    check_filled("spread ids: made", SPREAD);
    check_filled("runs of ids far apart: made", RUNS);
    check_filled("every 50th id: made", SPARSE);
    check_filled("ids 1e9 apart: made", WIDE);

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

    /* 32-bit keys are id - least id; UINT32_MAX marks a free slot, so the widest narrow range
     * is UINT32_MAX ids (its greatest key UINT32_MAX - 1) */
    int64_t lo = -7;
    CHECK("narrow edge: made", pf_idmap_init(&m, lo, lo + (int64_t)UINT32_MAX - 1, 2) == 0 && m.keys32 != NULL);
    pf_idmap_put_min(&m, lo + (int64_t)UINT32_MAX - 1, 4);
    pf_idmap_put_min(&m, lo, 3);
    CHECK("narrow edge: the greatest id", pf_idmap_get(&m, lo + (int64_t)UINT32_MAX - 1) == 4);
    CHECK("narrow edge: the least id", pf_idmap_get(&m, lo) == 3);
    CHECK("narrow edge: ids outside the range: -1",
          pf_idmap_get(&m, lo - 1) == -1 && pf_idmap_get(&m, lo + (int64_t)UINT32_MAX) == -1 &&
              pf_idmap_get(&m, INT64_MIN) == -1);
    CHECK("narrow edge: 2 distinct", pf_idmap_count(&m, 1) == 2);
    pf_idmap_free(&m);
    CHECK("one id more: 64-bit keys", pf_idmap_init(&m, lo, lo + (int64_t)UINT32_MAX, 2) == 0 && m.keys != NULL);
    pf_idmap_free(&m);

    CHECK("no puts: made", pf_idmap_init(&m, INT64_MAX, INT64_MIN, 0) == 0);
    CHECK("no puts: nothing there", pf_idmap_get(&m, 0) == -1 && pf_idmap_count(&m, 1) == 0);
    pf_idmap_free(&m);
    CHECK_DONE();
}
