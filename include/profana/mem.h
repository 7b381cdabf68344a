/* mem.h - two memory chores shared by the loader and the writers: growing an array, and handing a mapped file's read pages back. */
/* layer: util (README: Where things are) */
#ifndef PROFANA_MEM_H
#define PROFANA_MEM_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
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
