/* trace_vec.c - growable arrays in system-mapped blocks, so that a chunk's events can move into the model without a second copy in memory. */
#define _GNU_SOURCE /* mremap */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trace_vec.h"

/* Big enough that the mapping calls do not matter, small enough that a half-filled last
 * block per array and chunk costs little (untouched pages cost nothing). */
enum { BLOCK_BYTES = 1 << 20 };

void pf_segvec_init(pf_segvec *v, size_t elem)
{
    assert(v != NULL);
    assert(elem > 0);
    memset(v, 0, sizeof *v);
    v->elem = elem;
    while (((size_t)2 << v->shift) * elem <= BLOCK_BYTES)
        v->shift++;
    v->per_block = (size_t)1 << v->shift;
    v->block_bytes = v->per_block * elem;
}

/* Blocks get their pages as they are touched, so that memory follows the work: with every
 * block after a vector's first mapped with its pages present (MAP_POPULATE, one call rather
 * than a page fault per 4 KB), each chunk's last block of each vector was resident whole,
 * which at -j 2 on a 300 MB trace cost 15 MB of peak memory (78 MB against 64 MB at -j 1;
 * 64 MB at both without it, for no measurable time). */
static char *block_new(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void *pf_segvec_push(pf_segvec *v)
{
    assert(v != NULL && v->elem > 0);
    size_t b = v->n >> v->shift, i = v->n & (v->per_block - 1);
    if (b == v->n_blocks) {
        if (v->n_blocks == v->cap_blocks) {
            size_t cap = v->cap_blocks ? v->cap_blocks * 2 : 16;
            char **nb = realloc(v->blocks, cap * sizeof *nb);
            if (!nb)
                return NULL;
            v->blocks = nb;
            v->cap_blocks = cap;
        }
        if (!(v->blocks[v->n_blocks] = block_new(v->block_bytes)))
            return NULL;
        v->n_blocks++;
    }
    v->n++;
    return v->blocks[b] + i * v->elem; /* fresh mappings are zeroed */
}

/* A full block that lands on a page boundary of dst moves there by remapping its pages:
 * no copy, and no fresh zeroed pages for dst (a trace read by one thread has all its events
 * in one part, so only its last block is copied). Anything else, or a failed remap, is copied. */
static void block_drain(char *block, size_t bytes, size_t used, char *d)
{
    assert(block != NULL && d != NULL);
    assert(used <= bytes);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (used == bytes && bytes % page == 0 && (uintptr_t)d % page == 0 &&
        mremap(block, bytes, bytes, MREMAP_MAYMOVE | MREMAP_FIXED, d) != MAP_FAILED)
        return;
    /* Copied in pieces, each piece's pages given back once copied: threads draining at once
     * then hold a piece each beyond the events, not a block each (a 1 GB trace at -j 16 held
     * 32 MB more while its parts were copied). Not smaller: each unmap stops every thread of
     * the process to flush its TLB (16-core host, 4 GB trace at -j 16: the model build took
     * 0.100-0.112 s with 64 KB pieces, 0.063-0.064 s with 256 KB and 0.051-0.058 s with 1 MB,
     * whose peak rose 11-12 MB during the build against 4 MB). */
    enum { PIECE = 256 << 10 };
    size_t piece = PIECE > page ? PIECE - PIECE % page : page, at = 0;
    for (; used - at > piece; at += piece) {
        memcpy(d + at, block + at, piece);
        munmap(block + at, piece);
    }
    memcpy(d + at, block + at, used - at);
    munmap(block + at, bytes - at);
}

void pf_segvec_drain(pf_segvec *v, void *dst)
{
    assert(v != NULL);
    assert(dst != NULL || v->n == 0);
    char *d = dst;
    for (size_t b = 0; b < v->n_blocks; b++) {
        size_t k = v->n - b * v->per_block;
        if (k > v->per_block)
            k = v->per_block;
        block_drain(v->blocks[b], v->block_bytes, k * v->elem, d);
        d += k * v->elem;
        v->blocks[b] = NULL;
    }
    pf_segvec_free(v);
}

void pf_segvec_release(pf_segvec *v, size_t upto)
{
    assert(v != NULL && upto <= v->n);
    for (size_t b = 0; b < (upto >> v->shift); b++)
        if (v->blocks[b]) {
            munmap(v->blocks[b], v->block_bytes);
            v->blocks[b] = NULL;
        }
}

void pf_segvec_free(pf_segvec *v)
{
    assert(v != NULL);
    for (size_t b = 0; b < v->n_blocks; b++)
        if (v->blocks[b])
            munmap(v->blocks[b], v->block_bytes);
    free(v->blocks);
    pf_segvec_init(v, v->elem);
}

void *pf_model_alloc(size_t n, int huge)
{
    enum { HUGE = 2 << 20 };
    /* Page-aligned when large, so that the blocks of a segment vector can be remapped into it. */
    void *p = NULL;
    if (n < HUGE ? !(p = malloc(n ? n : 1)) : posix_memalign(&p, (size_t)sysconf(_SC_PAGESIZE), n) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    /* Large arrays fill completely: whole 2 MB pages mean a fault per 2 MB, not per 4 KB. Not
     * for arrays that segment vectors drain into: one thread remaps their blocks (no faults),
     * and several threads copying into one each held a 2 MB page ahead of what they had copied. */
    if (huge && n >= 4 * (size_t)HUGE) {
        uintptr_t a = ((uintptr_t)p + HUGE - 1) & ~(uintptr_t)(HUGE - 1);
        uintptr_t b = ((uintptr_t)p + n) & ~(uintptr_t)(HUGE - 1);
        if (b > a)
            madvise((void *)a, b - a, MADV_HUGEPAGE);
    }
#endif
    return p;
}
