/* test_trace_vec.c - segment vectors (trace_vec.c): elements across blocks, draining into one array (remapped, slid or copied; parts side by side on threads), and giving back the blocks a pass has read (pf_segvec_release). */
#include "check.h"

#include <stdint.h>

#include "profana/parallel.h"

#include "../../src/trace/trace_vec.h"

/* A vector of n 40-byte elements (a launch record's size: 16,384 to a 640 KiB block), element
 * i holding i in its first and last word. */
typedef struct rec40 {
    int64_t first, mid[3], last;
} rec40;

static int fill_from(pf_segvec *v, size_t n, size_t first)
{
    pf_segvec_init(v, sizeof(rec40));
    for (size_t i = 0; i < n; i++) {
        rec40 *r = pf_segvec_push(v);
        if (!r)
            return -1;
        r->first = r->last = (int64_t)(first + i);
    }
    return 0;
}

static int fill(pf_segvec *v, size_t n)
{
    return fill_from(v, n, 0);
}

static void test_blocks(void)
{
    pf_segvec v;
    CHECK("40-byte elements: 16384 a block (the largest power of two within 1 MiB)",
          (pf_segvec_init(&v, sizeof(rec40)), v.per_block == 16384 && v.block_bytes == 16384 * 40));
    CHECK("three blocks and a part filled", fill(&v, 3 * 16384 + 5) == 0 && v.n_blocks == 4);
    const rec40 *r = pf_segvec_at(&v, 2 * 16384 + 3);
    CHECK("element 32771 in the third block", r->first == 32771 && r->last == 32771);
    pf_segvec_free(&v);
    CHECK("freed: empty and reusable", v.n == 0 && v.n_blocks == 0 && v.elem == sizeof(rec40));
}

static void test_drain(void)
{
    pf_segvec v;
    size_t n = 2 * 16384 + 7;
    rec40 *all = pf_model_alloc(n * sizeof *all, 0); /* 1.3 MB: malloc'd, anywhere in a page */
    CHECK("drain: filled", fill(&v, n) == 0 && all != NULL);
    pf_segvec_drain(&v, all);
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++)
        wrong += all[i].first != (int64_t)i || all[i].last != (int64_t)i;
    CHECK("drain: every element in order", wrong == 0);
    CHECK("drain: the vector is empty", v.n == 0 && v.n_blocks == 0);
    free(all);

    n = 4 * 16384 + 1; /* 2.6 MB: page-aligned, so the full blocks are remapped */
    all = pf_model_alloc(n * sizeof *all, 0);
    CHECK("drain (remapped): filled", fill(&v, n) == 0 && all != NULL && (uintptr_t)all % 4096 == 0);
    pf_segvec_drain(&v, all);
    wrong = 0;
    for (size_t i = 0; i < n; i++)
        wrong += all[i].first != (int64_t)i || all[i].last != (int64_t)i;
    CHECK("drain (remapped): every element in order", wrong == 0);
    free(all);
}

/* Parts drained side by side into one array, as the model build does: each part but the
 * first starts inside a page (40-byte elements), so its pages are remapped past that page's
 * end and slid down, while the neighbouring parts write the pages they share. Sizes: empty,
 * less than a page, a page and a bit, exactly a block, blocks and a bit, one element. */
enum { N_PARTS = 9 };
static const size_t part_n[N_PARTS] = {16384 + 3, 0, 50, 103, 16384, 3 * 16384 + 11, 1, 2 * 16384 - 1, 777};

typedef struct parts_job {
    pf_segvec v[N_PARTS];
    size_t at[N_PARTS];
    rec40 *all;
} parts_job;

static void drain_range(void *ctx, size_t lo, size_t hi, size_t r)
{
    parts_job *j = ctx;
    (void)r;
    for (size_t i = lo; i < hi; i++)
        pf_segvec_drain(&j->v[i], j->all + j->at[i]);
}

static size_t parts_fill(parts_job *j)
{
    size_t n = 0, bad = 0;
    for (size_t i = 0; i < N_PARTS; i++) {
        j->at[i] = n;
        bad += fill_from(&j->v[i], part_n[i], n) != 0;
        n += part_n[i];
    }
    j->all = pf_model_alloc(n * sizeof *j->all, 0);
    return bad || !j->all ? 0 : n;
}

static size_t parts_wrong(const parts_job *j, size_t n)
{
    size_t wrong = 0;
    for (size_t i = 0; i < n; i++)
        wrong += j->all[i].first != (int64_t)i || j->all[i].last != (int64_t)i || j->all[i].mid[1] != 0;
    return wrong;
}

static void test_drain_parts(void)
{
    parts_job j;
    size_t n = parts_fill(&j);
    CHECK("parts: 115,632 elements, a page-aligned array", n == 115632 && (uintptr_t)j.all % 4096 == 0);
    pf_parallel_ranges(N_PARTS, 4, drain_range, &j); /* four threads, neighbours at once */
    CHECK("parts drained on 4 threads: every element in order", n && parts_wrong(&j, n) == 0);
    free(j.all);

    n = parts_fill(&j);
    for (size_t i = N_PARTS; i-- > 0;) /* the later part first: its slide must not reach back */
        pf_segvec_drain(&j.v[i], j.all + j.at[i]);
    CHECK("parts drained last to first: every element in order", n && parts_wrong(&j, n) == 0);
    CHECK("parts drained: the vectors are empty", j.v[0].n == 0 && j.v[5].n_blocks == 0);
    free(j.all);

    pf_segvec v;
    rec40 *all = pf_model_alloc(3 * 16384 * sizeof *all, 0);
    CHECK("one element in, a block and a bit: filled", fill(&v, 16384 + 200) == 0 && all != NULL);
    all[0].first = all[16384 + 201].first = -7; /* the neighbours' elements, either side */
    pf_segvec_drain(&v, all + 1);
    size_t wrong = all[0].first != -7 || all[16384 + 201].first != -7;
    for (size_t i = 0; i < 16384 + 200; i++)
        wrong += all[1 + i].first != (int64_t)i || all[1 + i].last != (int64_t)i;
    CHECK("one element in: in order, the elements either side untouched", wrong == 0);
    free(all);
}

static void test_drain_threads(void)
{
    size_t mb = (size_t)1 << 20;
    CHECK("drain threads: 13 MB in 8 parts at -j 2: one", pf_segvec_drain_threads(13 * mb, 8, 2) == 1);
    CHECK("drain threads: 16 MB in 8 parts at -j 2: two", pf_segvec_drain_threads(16 * mb, 8, 2) == 2);
    CHECK("drain threads: 45 MB in 64 parts at -j 16: sixteen", pf_segvec_drain_threads(45 * mb, 64, 16) == 16);
    CHECK("drain threads: at most one a part", pf_segvec_drain_threads(45 * mb, 3, 16) == 3);
    CHECK("drain threads: one part, or -j 1: one",
          pf_segvec_drain_threads(45 * mb, 1, 16) == 1 && pf_segvec_drain_threads(45 * mb, 8, 1) == 1);
}

static void test_release(void)
{
    pf_segvec v;
    CHECK("release: filled", fill(&v, 3 * 16384 + 5) == 0);
    pf_segvec_release(&v, 16384 - 1);
    CHECK("release before the end of block 0: nothing given back", v.blocks[0] != NULL);
    pf_segvec_release(&v, 2 * 16384);
    CHECK("release up to element 32768: blocks 0 and 1 given back, 2 and 3 kept",
          v.blocks[0] == NULL && v.blocks[1] == NULL && v.blocks[2] != NULL && v.blocks[3] != NULL);
    const rec40 *r = pf_segvec_at(&v, 2 * 16384);
    CHECK("release: element 32768 still read", r->first == 32768 && r->last == 32768);
    CHECK("release: the count stays", v.n == 3 * 16384 + 5);
    pf_segvec_release(&v, v.n);
    CHECK("release up to the end: every full block given back, the part-filled last kept", v.blocks[2] == NULL &&
          v.blocks[3] != NULL);
    pf_segvec_free(&v); /* frees what is left, skips what was given back */
    CHECK("release then free: empty", v.n == 0 && v.n_blocks == 0);
}

int main(void)
{
    test_blocks();
    test_drain();
    test_drain_parts();
    test_drain_threads();
    test_release();
    CHECK_DONE();
}
