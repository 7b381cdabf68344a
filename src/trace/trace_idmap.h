/* trace_idmap.h - maps from External ids and correlation ids to the first record with each, filled by several threads at once (trace_idmap.c; not a public interface). */
#ifndef PROFANA_TRACE_IDMAP_H
#define PROFANA_TRACE_IDMAP_H

#include <stddef.h>
#include <stdint.h>

/* id -> the least record index put with it. Kineto numbers its ids consecutively, so when
 * the ids are dense the map is a plain array indexed by id - base (direct != NULL), which
 * stays in cache where hashed slots would miss on every id. Ids in dense runs far apart (the
 * External ids of several profiled runs in one file, of a combined trace) get the array in
 * pages of PF_IDMAP_PAGE ids, only where some id falls (pages != NULL): ids in file order
 * then walk a page at a time, where hashing them missed the cache on nearly every put and
 * lookup. Otherwise open addressing over keys[] (INT64_MIN marks a free slot; the key
 * INT64_MIN itself keeps its value in min_val), or over keys32[] (id - base, UINT32_MAX a free
 * slot) when every id lies within 2^32 - 1 of the least: 8 bytes a slot, not 12 (a 1 GB
 * generated trace's correlation map, hashed, raised the run's peak by 12 MB). Either way a put is one atomic step on a
 * slot: threads fill the map together, and since the least index wins, the map is the same
 * whatever order they come in. */
enum { PF_IDMAP_PAGE_BITS = 10, PF_IDMAP_PAGE = 1 << PF_IDMAP_PAGE_BITS };

typedef struct pf_idmap {
    int32_t *direct;           /* value of id base + i; -1 none */
    int64_t base;
    size_t range;
    int32_t **pages;           /* paged: value of id base + i in pages[i / PF_IDMAP_PAGE], NULL: none */
    size_t n_pages;            /* pages[] entries, of which `used` are allocated (in block) */
    unsigned char *want;       /* while marking: per page, whether an id falls in it */
    int32_t *block;
    size_t used, n_puts;
    int64_t *keys;             /* hashed: cap slots, a power of two, at most 70% used */
    uint32_t *keys32;          /* hashed, narrow ids: id - base; UINT32_MAX a free slot */
    int32_t *vals;             /* -1 none */
    size_t cap;
    int32_t min_val;           /* the value of the key INT64_MIN; -1 none */
} pf_idmap;

/* An empty map for n puts of ids within [lo, hi] (lo > hi: no id; n <= INT32_MAX): dense
 * when there are at least a quarter as many puts as values in the range; else, when the range
 * has at most n pages, one to be paged or hashed once the ids are known (pf_idmap_marking);
 * else hashed. Returns 0, or -1 when memory runs out; either way pf_idmap_free frees m. */
int pf_idmap_init(pf_idmap *m, int64_t lo, int64_t hi, size_t n);

/* Whether m waits for its ids: then every id to be put goes to pf_idmap_mark, and
 * pf_idmap_ready follows, before the first put. */
int pf_idmap_marking(const pf_idmap *m);

/* Notes that id will be put (within the bounds given to pf_idmap_init); safe to call from
 * several threads at once (no other call on m meanwhile). */
void pf_idmap_mark(pf_idmap *m, int64_t id);

/* Ends the marking: pages for the marked ids when they take no more memory than hashed
 * slots for n puts would, else hashed slots. Returns 0, or -1 when memory runs out. */
int pf_idmap_ready(pf_idmap *m);

/* Puts id -> g unless a smaller g is there already; safe to call from several threads at
 * once (no other call on m meanwhile). id within the bounds given to pf_idmap_init. */
void pf_idmap_put_min(pf_idmap *m, int64_t id, int32_t g);

/* Asks for the memory a later put or get of id reads (hashed slots miss the cache); no
 * effect on the map. */
void pf_idmap_prefetch(const pf_idmap *m, int64_t id);

/* The value of id, or -1 when none was put. */
int32_t pf_idmap_get(const pf_idmap *m, int64_t id);

/* The distinct ids put in the map, counted on up to `jobs` threads. */
size_t pf_idmap_count(const pf_idmap *m, size_t jobs);

/* Frees the map's arrays; m is then empty. */
void pf_idmap_free(pf_idmap *m);

#endif
