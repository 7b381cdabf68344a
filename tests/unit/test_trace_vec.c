/* test_trace_vec.c - segment vectors (trace_vec.c): elements across blocks, draining into one array (remapped or copied), and giving back the blocks a pass has read (pf_segvec_release). */
#include "check.h"

#include <stdint.h>

#include "../../src/trace/trace_vec.h"

/* A vector of n 40-byte elements (a launch record's size: 16,384 to a 640 KiB block), element
 * i holding i in its first and last word. */
typedef struct rec40 {
    int64_t first, mid[3], last;
} rec40;

static int fill(pf_segvec *v, size_t n)
{
    pf_segvec_init(v, sizeof(rec40));
    for (size_t i = 0; i < n; i++) {
        rec40 *r = pf_segvec_push(v);
        if (!r)
            return -1;
        r->first = r->last = (int64_t)i;
    }
    return 0;
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
    rec40 *all = pf_model_alloc(n * sizeof *all, 0); /* 1.3 MB: malloc'd, so mostly copied */
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
    test_release();
    CHECK_DONE();
}
