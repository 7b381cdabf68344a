/* trace_idmap.h - maps from External ids and correlation ids to the first record with each, filled by several threads at once (trace_idmap.c; not a public interface). */
#ifndef PROFANA_TRACE_IDMAP_H
#define PROFANA_TRACE_IDMAP_H

#include <stddef.h>
#include <stdint.h>

/* id -> the least record index put with it. Kineto numbers its ids consecutively, so when
 * the ids are dense the map is a plain array indexed by id - base (direct != NULL), which
 * stays in cache where hashed slots would miss on every id; otherwise open addressing over
 * keys[] (INT64_MIN marks a free slot; the key INT64_MIN itself keeps its value in min_val).
 * Either way a put is one atomic step on a slot: threads fill the map together, and since the
 * least index wins, the map is the same whatever order they come in. */
typedef struct pf_idmap {
    int32_t *direct;           /* value of id base + i; -1 none */
    int64_t base;
    size_t range;
    int64_t *keys;             /* hashed: cap slots, a power of two, at most 70% used */
    int32_t *vals;             /* -1 none */
    size_t cap;
    int32_t min_val;           /* the value of the key INT64_MIN; -1 none */
} pf_idmap;

/* An empty map for n puts of ids within [lo, hi] (lo > hi: no id; n <= INT32_MAX): dense
 * when there are at least a quarter as many puts as values in the range, else hashed.
 * Returns 0, or -1 when memory runs out; either way pf_idmap_free frees m. */
int pf_idmap_init(pf_idmap *m, int64_t lo, int64_t hi, size_t n);

/* Puts id -> g unless a smaller g is there already; safe to call from several threads at
 * once (no other call on m meanwhile). id within the bounds given to pf_idmap_init. */
void pf_idmap_put_min(pf_idmap *m, int64_t id, int32_t g);

/* The value of id, or -1 when none was put. */
int32_t pf_idmap_get(const pf_idmap *m, int64_t id);

/* The distinct ids put in the map, counted on up to `jobs` threads. */
size_t pf_idmap_count(const pf_idmap *m, size_t jobs);

/* Frees the map's arrays; m is then empty. */
void pf_idmap_free(pf_idmap *m);

#endif
