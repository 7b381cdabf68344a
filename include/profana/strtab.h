/* strtab.h - string interning: one stable copy of each distinct name, so the model can compare pointers. */
/* layer: util (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_STRTAB_H
#define PROFANA_STRTAB_H

#include <stddef.h>

typedef struct pf_strtab pf_strtab;

/* Creates an empty table. Returns NULL when memory runs out. */
pf_strtab *pf_strtab_new(void);

/* Frees the table and every string it handed out. NULL is a no-op. */
void pf_strtab_free(pf_strtab *t);

/* Returns the table's copy of s[0..n) (NUL-terminated, owned by the table, valid until
 * pf_strtab_free). Equal strings give the same pointer. NULL when memory runs out.
 * Not thread-safe: while threads intern through pf_strcache, call it from none of them. */
const char *pf_strtab_intern(pf_strtab *t, const char *s, size_t n);

/* Number of distinct strings held. */
size_t pf_strtab_count(const pf_strtab *t);

/* A per-thread front of a table that several threads fill at once: lookups hit a private
 * hash table, and only strings new to the thread take the shared table's lock, so every
 * thread gets the same pointer for equal strings. */
typedef struct pf_strcache pf_strcache;

/* Creates a cache in front of shared. Returns NULL when memory runs out. */
pf_strcache *pf_strcache_new(pf_strtab *shared);

/* Frees the cache (not the strings, which the shared table owns). NULL is a no-op. */
void pf_strcache_free(pf_strcache *c);

/* pf_strtab_intern on the shared table, safe to call from several threads, each with its
 * own cache. NULL when memory runs out. */
const char *pf_strcache_intern(pf_strcache *c, const char *s, size_t n);

#endif
