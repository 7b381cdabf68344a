/* i64map.h - a map from int64 keys (External ids, thread hashes: any value, 0 and negatives included) to 32-bit indexes, by open addressing. */
/* layer: util (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_I64MAP_H
#define PROFANA_I64MAP_H

#include <stddef.h>
#include <stdint.h>

/* Slots hold keys in keys[] with INT64_MIN marking a free one, so that a probe compares one
 * int64 per slot; the key INT64_MIN itself is kept aside (has_min, min_val). Values are
 * indexes below 2^32 (record and thread numbers; the loader caps records at INT32_MAX):
 * 12 bytes a slot, where the map holds every cpu_op's id. At most 70% of the slots are
 * used. A zeroed pf_i64map is an empty map. */
typedef struct pf_i64map {
    int64_t *keys;
    uint32_t *vals;
    size_t cap, n;             /* cap: 0 or a power of two; n: keys in slots */
    int has_min;               /* INT64_MIN is a key; its value is min_val */
    uint32_t min_val;
} pf_i64map;

/* Makes room for n keys in all without growing again (a caller that knows how many keys
 * come sizes the map once). Returns 0, or -1 when memory runs out (the map unchanged). */
int pf_i64map_reserve(pf_i64map *m, size_t n);

/* The value stored for key, with *added 0; or, when key is new, stores next for it and
 * returns next with *added 1. Returns -1 when memory runs out (the map unchanged). */
int64_t pf_i64map_find_or_add(pf_i64map *m, int64_t key, uint32_t next, int *added);

/* 1 and *val set when key is in the map; 0 otherwise (*val untouched). */
int pf_i64map_get(const pf_i64map *m, int64_t key, uint32_t *val);

/* Frees the map's arrays; m is then empty. */
void pf_i64map_free(pf_i64map *m);

#endif
