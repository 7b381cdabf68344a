/* mem.h - memory chores shared by the loader, the analysis and the writers: growing an array, zeroing one for reads before writes, and handing a mapped file's read pages back. */
/* layer: util (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_MEM_H
#define PROFANA_MEM_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Makes *p (an array of *cap elements of elem bytes, or NULL with *cap 0) hold at least
 * need elements, doubling from first so that appending one at a time costs amortised
 * O(1). On success *p and *cap are updated and 0 is returned; on failure (no memory, or a
 * size that overflows size_t) -1 is returned and *p, still owned by the caller, is
 * unchanged. */
static inline int pf_grow(void **p, size_t *cap, size_t need, size_t elem, size_t first)
{
    if (need <= *cap)
        return 0;
    size_t nc = *cap ? *cap : first ? first : 1;
    while (nc < need) {
        if (nc > SIZE_MAX / 2)
            return -1;
        nc *= 2;
    }
    if (elem && nc > SIZE_MAX / elem)
        return -1;
    void *np = realloc(*p, nc * elem);
    if (!np)
        return -1;
    *p = np;
    *cap = nc;
    return 0;
}

/* An array of n elements of elem bytes, all zero bytes, with its pages written: for a table
 * whose slots are read before they are written (a hash table's probes, sums added to), where
 * calloc's fresh pages would map the shared zero page on the read and fault again to copy it
 * on the write, flushing the TLB of every other thread of the process (an interrupt each:
 * pf_work_shares' pass 1 took three times as long at -j 2 as at -j 1 on the 2-core machine).
 * NULL when memory runs out or n * elem overflows; free it with free. */
static inline void *pf_zalloc(size_t n, size_t elem)
{
    if (elem && n > SIZE_MAX / elem)
        return NULL;
    size_t bytes = n * elem;
    void *p = malloc(bytes > 0 ? bytes : 1);
    void *(*volatile set)(void *, int, size_t) = memset; /* else the compiler makes it calloc */
    return p ? set(p, 0, bytes) : NULL;
}

/* Hands back to the kernel the whole pages of mapped memory inside [from, upto): the text
 * stays readable (it is read from the file again), but memory then follows the reading,
 * not the file. Partial pages at either end are kept: their other part may still be read. */
static inline void pf_pages_drop(const char *from, const char *upto)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t a = ((uintptr_t)from + page - 1) & ~(page - 1);
    uintptr_t b = (uintptr_t)upto & ~(page - 1);
    if (b > a)
        madvise((void *)a, b - a, MADV_DONTNEED);
}

#endif
