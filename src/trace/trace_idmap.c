/* trace_idmap.c - id -> first record maps that several threads fill at once: a plain array for dense ids, pages of one for dense runs far apart, open addressing with atomic slots otherwise. */
#include "trace_idmap.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "profana/parallel.h"

#define EMPTY INT64_MIN

/* Fibonacci hashing, as pf_i64map's: consecutive ids spread over the slots. */
static size_t slot_hash(int64_t k, size_t cap)
{
    uint64_t h = (uint64_t)k * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> 17) & (cap - 1);
}

static int init_dense(pf_idmap *m, int64_t lo, size_t range)
{
    if (!(m->direct = malloc(range * sizeof *m->direct)))
        return -1;
    memset(m->direct, 0xff, range * sizeof *m->direct);
    m->base = lo;
    m->range = range;
    return 0;
}

/* The slots open addressing takes for n puts: at most 70% used. 0 when too many. */
static size_t hashed_cap(size_t n)
{
    size_t cap = 16;
    while (n > cap / 10 * 7) {
        if (cap > SIZE_MAX / 2 / sizeof(int64_t))
            return 0;
        cap *= 2;
    }
    return cap;
}

/* Hashed slots for n puts of ids within [lo, lo + range) (range 0: unknown): 32-bit keys
 * relative to lo when the range allows (never UINT32_MAX, the free mark). */
static int init_hashed(pf_idmap *m, size_t n, int64_t lo, uint64_t range)
{
    size_t cap = hashed_cap(n);
    if (!cap)
        return -1;
    int narrow = range && range <= UINT32_MAX;
    if (narrow) {
        m->keys32 = malloc(cap * sizeof *m->keys32);
        m->base = lo;
    } else {
        m->keys = malloc(cap * sizeof *m->keys);
    }
    m->vals = malloc(cap * sizeof *m->vals);
    if ((!m->keys && !m->keys32) || !m->vals)
        return -1;
    if (narrow)
        memset(m->keys32, 0xff, cap * sizeof *m->keys32);
    for (size_t i = 0; !narrow && i < cap; i++)
        m->keys[i] = EMPTY;
    memset(m->vals, 0xff, cap * sizeof *m->vals);
    m->cap = cap;
    return 0;
}

/* The 32-bit key of id (narrow hashed map): id - base; UINT32_MAX (the free mark) when id
 * lies outside the map's ids. */
static uint32_t key32(const pf_idmap *m, int64_t id)
{
    uint64_t k = (uint64_t)id - (uint64_t)m->base;
    return id < m->base || k >= UINT32_MAX ? UINT32_MAX : (uint32_t)k;
}

int pf_idmap_init(pf_idmap *m, int64_t lo, int64_t hi, size_t n)
{
    assert(m != NULL && n <= INT32_MAX);
    memset(m, 0, sizeof *m);
    m->min_val = -1;
    uint64_t range = lo <= hi && hi < INT64_MAX ? (uint64_t)hi - (uint64_t)lo + 1 : 0;
    if (n && range && range / 4 <= n)
        return init_dense(m, lo, (size_t)range);
    if (n && range && (range - 1) / PF_IDMAP_PAGE < n) { /* a directory of at most n pages: marked first */
        m->n_pages = (size_t)((range - 1) / PF_IDMAP_PAGE) + 1;
        m->base = lo;
        m->range = (size_t)range;
        m->n_puts = n;
        return (m->want = calloc(m->n_pages, 1)) ? 0 : -1;
    }
    return init_hashed(m, n, lo, range);
}

int pf_idmap_marking(const pf_idmap *m)
{
    assert(m != NULL);
    return m->want != NULL;
}

void pf_idmap_mark(pf_idmap *m, int64_t id)
{
    assert(m != NULL && m->want != NULL);
    assert(id >= m->base && (uint64_t)id - (uint64_t)m->base < m->range);
    size_t p = (size_t)(((uint64_t)id - (uint64_t)m->base) >> PF_IDMAP_PAGE_BITS);
    /* every writer writes 1: the same marks in any order; the test is atomic too, as a plain
     * read beside another thread's atomic store is a data race (ThreadSanitizer) */
    if (!__atomic_load_n(&m->want[p], __ATOMIC_RELAXED))
        __atomic_store_n(&m->want[p], 1, __ATOMIC_RELAXED);
}

int pf_idmap_ready(pf_idmap *m)
{
    assert(m != NULL && m->want != NULL);
    size_t used = 0;
    for (size_t p = 0; p < m->n_pages; p++)
        used += m->want[p];
    size_t cap = hashed_cap(m->n_puts);
    uint64_t range = m->range;
    size_t key_bytes = range <= UINT32_MAX ? sizeof *m->keys32 : sizeof *m->keys;
    int paged = cap && used * PF_IDMAP_PAGE * sizeof(int32_t) + m->n_pages * sizeof(int32_t *) <=
                           cap * (key_bytes + sizeof *m->vals);
    if (!paged) {
        int64_t lo = m->base;
        free(m->want);
        m->want = NULL;
        m->n_pages = m->range = 0;
        m->base = 0;
        return init_hashed(m, m->n_puts, lo, range);
    }
    m->pages = calloc(m->n_pages, sizeof *m->pages);
    m->block = malloc((used ? used : 1) * PF_IDMAP_PAGE * sizeof *m->block);
    if (!m->pages || !m->block)
        return -1;
    memset(m->block, 0xff, used * PF_IDMAP_PAGE * sizeof *m->block);
    for (size_t p = 0, k = 0; p < m->n_pages; p++)
        if (m->want[p])
            m->pages[p] = m->block + k++ * PF_IDMAP_PAGE;
    m->used = used;
    free(m->want);
    m->want = NULL;
    return 0;
}

/* Puts g into *slot unless a smaller index is there: the least wins, whoever comes first. */
static void put_min(int32_t *slot, int32_t g)
{
    int32_t cur = __atomic_load_n(slot, __ATOMIC_RELAXED);
    while ((cur < 0 || g < cur) && !__atomic_compare_exchange_n(slot, &cur, g, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

void pf_idmap_put_min(pf_idmap *m, int64_t id, int32_t g)
{
    assert(m != NULL && g >= 0 && m->want == NULL);
    if (m->direct) {
        assert(id >= m->base && (uint64_t)id - (uint64_t)m->base < m->range);
        put_min(&m->direct[id - m->base], g);
        return;
    }
    if (m->pages) {
        assert(id >= m->base && (uint64_t)id - (uint64_t)m->base < m->range);
        uint64_t off = (uint64_t)id - (uint64_t)m->base;
        int32_t *page = m->pages[off >> PF_IDMAP_PAGE_BITS];
        assert(page != NULL); /* marked */
        put_min(&page[off & (PF_IDMAP_PAGE - 1)], g);
        return;
    }
    /* A free slot is claimed by one thread; a slot's key never changes once set, so a
     * probe that passes a slot with another key is right to go on. */
    if (m->keys32) {
        uint32_t k = key32(m, id);
        assert(k != UINT32_MAX); /* within the bounds given to pf_idmap_init */
        for (size_t i = slot_hash(k, m->cap);; i = (i + 1) & (m->cap - 1)) {
            uint32_t cur = __atomic_load_n(&m->keys32[i], __ATOMIC_ACQUIRE);
            if (cur == UINT32_MAX &&
                __atomic_compare_exchange_n(&m->keys32[i], &cur, k, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
                cur = k;
            if (cur == k) {
                put_min(&m->vals[i], g);
                return;
            }
        }
    }
    if (id == EMPTY) {
        put_min(&m->min_val, g);
        return;
    }
    for (size_t i = slot_hash(id, m->cap);; i = (i + 1) & (m->cap - 1)) {
        int64_t cur = __atomic_load_n(&m->keys[i], __ATOMIC_ACQUIRE);
        if (cur == EMPTY &&
            __atomic_compare_exchange_n(&m->keys[i], &cur, id, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            cur = id;
        if (cur == id) {
            put_min(&m->vals[i], g);
            return;
        }
    }
}

void pf_idmap_prefetch(const pf_idmap *m, int64_t id)
{
    assert(m != NULL);
    if (!m->cap) /* dense, paged or empty: ids in file order walk their arrays */
        return;
    if (m->keys32) {
        size_t i = slot_hash(key32(m, id), m->cap);
        __builtin_prefetch(&m->keys32[i]);
        __builtin_prefetch(&m->vals[i]);
        return;
    }
    size_t i = slot_hash(id, m->cap);
    __builtin_prefetch(&m->keys[i]);
    __builtin_prefetch(&m->vals[i]);
}

int32_t pf_idmap_get(const pf_idmap *m, int64_t id)
{
    assert(m != NULL && m->want == NULL);
    if (m->direct)
        return id >= m->base && (uint64_t)id - (uint64_t)m->base < m->range ? m->direct[id - m->base] : -1;
    if (m->pages) {
        uint64_t off = (uint64_t)id - (uint64_t)m->base;
        if (id < m->base || off >= m->range)
            return -1;
        const int32_t *page = m->pages[off >> PF_IDMAP_PAGE_BITS];
        return page ? page[off & (PF_IDMAP_PAGE - 1)] : -1;
    }
    if (m->keys32) {
        uint32_t k = key32(m, id);
        if (k == UINT32_MAX)
            return -1;
        for (size_t i = slot_hash(k, m->cap); m->keys32[i] != UINT32_MAX; i = (i + 1) & (m->cap - 1))
            if (m->keys32[i] == k)
                return m->vals[i];
        return -1;
    }
    if (id == EMPTY)
        return m->min_val;
    if (!m->cap)
        return -1;
    for (size_t i = slot_hash(id, m->cap); m->keys[i] != EMPTY; i = (i + 1) & (m->cap - 1))
        if (m->keys[i] == id)
            return m->vals[i];
    return -1;
}

typedef struct count_job {
    const pf_idmap *m;
    size_t per[PF_THREADS_MAX]; /* per range: the ids it found */
} count_job;

static void count_range(void *ctx, size_t lo, size_t hi, size_t r)
{
    count_job *j = ctx;
    size_t n = 0;
    for (size_t i = lo; i < hi; i++)
        n += j->m->direct ? j->m->direct[i] >= 0
             : j->m->block ? j->m->block[i] >= 0
             : j->m->keys32 ? j->m->keys32[i] != UINT32_MAX
                           : j->m->keys[i] != EMPTY;
    j->per[r] = n;
}

size_t pf_idmap_count(const pf_idmap *m, size_t jobs)
{
    assert(m != NULL && jobs >= 1 && m->want == NULL);
    size_t slots = m->direct ? m->range : m->block ? m->used * PF_IDMAP_PAGE : m->cap, n = m->min_val >= 0;
    size_t w = slots < 65536 ? 1 : jobs < PF_THREADS_MAX ? jobs : PF_THREADS_MAX;
    count_job j = {.m = m};
    pf_parallel_ranges(slots, w, count_range, &j);
    for (size_t r = 0; r < w; r++)
        n += j.per[r];
    return n;
}

void pf_idmap_free(pf_idmap *m)
{
    assert(m != NULL);
    free(m->direct);
    free(m->pages);
    free(m->want);
    free(m->block);
    free(m->keys);
    free(m->keys32);
    free(m->vals);
    memset(m, 0, sizeof *m);
    m->min_val = -1;
}
