/* ptrmap.h - a map from interned strings, by pointer, to indexes: the analysis's groups and the CPU times' names. */
/* layer: util (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_PTRMAP_H
#define PROFANA_PTRMAP_H

#include <stddef.h>
#include <stdint.h>

/* Keys are interned (pf_strtab), so one pointer is one string and hashing the pointer is
 * enough. A zeroed pf_ptrmap is an empty map. */
typedef struct pf_ptrmap {
    const char **keys;
    size_t *vals;
    size_t cap, n;
} pf_ptrmap;

/* The index stored for key (non-NULL), with *added 0; or, when key is new, stores next for
 * it and returns next with *added 1. Returns -1 when memory runs out (the map unchanged). */
int64_t pf_ptrmap_find_or_add(pf_ptrmap *m, const char *key, size_t next, int *added);

/* Frees the map's arrays (not the keys); m is then empty. */
void pf_ptrmap_free(pf_ptrmap *m);

#endif
