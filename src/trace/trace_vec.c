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

/* Copies a block's first used bytes to d, in pieces, each piece's pages given back once
 * copied: threads draining at once then hold a piece each beyond the events, not a block each
 * (a 1 GB trace at -j 16 held 32 MB more while its parts were copied). Not smaller: each unmap
 * stops every thread of the process to flush its TLB (16-core host, 4 GB trace at -j 16: the
 * model build took 0.100-0.112 s with 64 KB pieces, 0.063-0.064 s with 256 KB and
 * 0.051-0.058 s with 1 MB, whose peak rose 11-12 MB during the build against 4 MB). */
static void block_copy(char *block, size_t bytes, size_t used, char *d)
{
    assert(block != NULL && d != NULL);
    assert(used <= bytes);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    enum { PIECE = 256 << 10 };
    size_t piece = PIECE > page ? PIECE - PIECE % page : page, at = 0;
    for (; used - at > piece; at += piece) {
        memcpy(d + at, block + at, piece);
        munmap(block + at, piece);
    }
    memcpy(d + at, block + at, used - at);
    munmap(block + at, bytes - at);
}

/* How many bytes of block b (< v->n_blocks) hold elements: all but the last's. */
static size_t block_used(const pf_segvec *v, size_t b)
{
    assert(b < v->n_blocks);
    size_t k = v->n - b * v->per_block;
    return (k < v->per_block ? k : v->per_block) * v->elem;
}

/* Moves the first bytes of v's elements to d without copying them through fresh memory, and
 * returns how many (a whole number of pages). Their pages are remapped to d's first page
 * boundary t on, and then, when d is not on one, slid down the t - d bytes in place. A part
 * drained after the first starts anywhere in a page, and a copy faults in a fresh zeroed page
 * for every 4 KB it writes: on the 2-core machine the 300 MB trace's activities took
 * 4.5-4.9 ms to copy at -j 2 (0.4 ms remapped at -j 1). Only pages that land before the last
 * page boundary of [d, d + total) move so: the pages around d and d + total may hold a
 * neighbouring part's elements, which another thread writes (it writes only the bytes outside
 * [d, d + total), as this call writes only those inside). The blocks moved whole are NULL in
 * v->blocks; of a block moved in part, the pages after the moved ones stay in place. */
static size_t pages_slide(pf_segvec *v, char *d, size_t total)
{
    assert(v != NULL && d != NULL);
    size_t page = (size_t)sysconf(_SC_PAGESIZE), bb = v->block_bytes, moved = 0;
    uintptr_t t = ((uintptr_t)d + page - 1) & ~(uintptr_t)(page - 1);
    uintptr_t end = ((uintptr_t)d + total) & ~(uintptr_t)(page - 1);
    if (bb % page != 0 || end <= t)
        return 0;
    for (size_t b = 0; b < v->n_blocks; b++) {
        size_t used = block_used(v, b), room = end - (t + moved), m = used < room ? used : room;
        m -= m % page;
        if (m == 0)
            break;
        if (mremap(v->blocks[b], m, m, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)(t + moved)) == MAP_FAILED) {
            /* A move refused late (ENOMEM) may have unmapped the target already: pages there
             * again, for the copy (the room is this part's alone, nothing written there yet). */
            mmap((void *)(t + moved), m, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
            break;
        }
        moved += m;
        if (m < bb)
            break;
        v->blocks[b] = NULL;
    }
    if (moved && t != (uintptr_t)d)
        memmove(d, (void *)t, moved);
    return moved;
}

void pf_segvec_drain(pf_segvec *v, void *dst)
{
    assert(v != NULL);
    assert(dst != NULL || v->n == 0);
    size_t total = v->n * v->elem, moved = v->n ? pages_slide(v, dst, total) : 0;
    size_t bb = v->block_bytes;
    for (size_t b = moved / bb; b < v->n_blocks; b++) {
        /* of a block moved in part, the pages after the moved ones */
        size_t off = b == moved / bb ? moved % bb : 0;
        block_copy(v->blocks[b] + off, bb - off, block_used(v, b) - off, (char *)dst + b * bb + off);
        v->blocks[b] = NULL;
    }
    pf_segvec_free(v);
}

size_t pf_segvec_drain_threads(size_t bytes, size_t parts, size_t jobs)
{
    if (bytes < ((size_t)16 << 20) || parts <= 1 || jobs <= 1)
        return 1;
    return jobs < parts ? jobs : parts;
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
     * for arrays that segment vectors drain into: their parts' pages are remapped into them (no
     * faults), and threads copying the ends of parts into one each held a 2 MB page. */
    if (huge && n >= 4 * (size_t)HUGE) {
        uintptr_t a = ((uintptr_t)p + HUGE - 1) & ~(uintptr_t)(HUGE - 1);
        uintptr_t b = ((uintptr_t)p + n) & ~(uintptr_t)(HUGE - 1);
        if (b > a)
            madvise((void *)a, b - a, MADV_HUGEPAGE);
    }
#endif
    return p;
}
