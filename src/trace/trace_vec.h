/* trace_vec.h - growable arrays in blocks that the parsing threads fill and the model drains (trace_vec.c) (not a public interface). */
#ifndef PROFANA_TRACE_VEC_H
#define PROFANA_TRACE_VEC_H

#include <stddef.h>

/* Elements live in fixed blocks mapped from the system, so that moving them into one array
 * returns each block as soon as it is copied: never two copies of the events at once. */
typedef struct pf_segvec {
    char **blocks;
    size_t n_blocks, cap_blocks;
    size_t elem, n;
    size_t per_block;          /* a power of two (1 << shift): no division per element */
    size_t block_bytes;
    unsigned shift;
} pf_segvec;

void pf_segvec_init(pf_segvec *v, size_t elem);

/* A new element at the end (zeroed), or NULL when memory runs out. */
void *pf_segvec_push(pf_segvec *v);

/* Element i (< v->n). */
static inline void *pf_segvec_at(const pf_segvec *v, size_t i)
{
    return v->blocks[i >> v->shift] + (i & (v->per_block - 1)) * v->elem;
}

/* Moves the elements in order to dst (room for v->n) and empties v: their pages are remapped
 * to dst's first page boundary on and slid down to dst in place, except those that would land
 * past the last page boundary of the elements' room, which are copied. Writes only the bytes
 * of that room, so parts of one array drain into it on threads at once. */
void pf_segvec_drain(pf_segvec *v, void *dst);

/* How many of `jobs` threads (at least 1) drain `parts` vectors holding `bytes` in all into one
 * array: one below 16 MB, where a thread's start (0.1-0.2 ms) costs more than it saves (the
 * 2-core machine, 300 MB trace at -j 2: its 13 MB of activities drained in 1.47-1.52 ms on
 * two threads, 1.22-1.33 ms on one; its 6 MB of launch records in 1.0-1.3 ms on two, 0.1 ms
 * on one), else at most one a vector. */
size_t pf_segvec_drain_threads(size_t bytes, size_t parts, size_t jobs);

/* Gives back the blocks wholly before element upto (<= v->n), whose elements must not be read
 * again: a pass that reads v once in order then holds one block of it, not all of it. v
 * keeps its count; pf_segvec_free frees the rest. */
void pf_segvec_release(pf_segvec *v, size_t upto);

/* Frees everything; v is then empty (and reusable). */
void pf_segvec_free(pf_segvec *v);

/* malloc for one of the model's arrays (freed with free); large ones (2 MB and more) are
 * page-aligned, for pf_segvec_drain, and with huge (an array written in place, not drained
 * into) backed by huge pages where the system offers them. */
void *pf_model_alloc(size_t n, int huge);

#endif
