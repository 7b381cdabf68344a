/* ptrmap.c - open-addressing map from interned string pointers to indexes (include/profana/ptrmap.h). */
#include "profana/ptrmap.h"
#include "profana/mem.h"

#include <assert.h>
#include <stdlib.h>

static size_t ptr_hash(const void *p, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)p * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> 20) & (cap - 1);
}

static int map_grow(pf_ptrmap *m)
{
    size_t cap = m->cap ? m->cap * 2 : 2; /* small: a map a device, and 65,536 devices of a kernel each */
    const char **keys = pf_zalloc(cap, sizeof *keys); /* probed before written */
    size_t *vals = malloc(cap * sizeof *vals);
    if (!keys || !vals) {
        free(keys);
        free(vals);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i])
            continue;
        size_t j = ptr_hash(m->keys[i], cap);
        while (keys[j])
            j = (j + 1) & (cap - 1);
        keys[j] = m->keys[i];
        vals[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
    return 0;
}

int64_t pf_ptrmap_find_or_add(pf_ptrmap *m, const char *key, size_t next, int *added)
{
    assert(m && key); /* NULL marks an empty slot */
    if ((m->n + 1) * 2 > m->cap && map_grow(m))
        return -1;
    size_t i = ptr_hash(key, m->cap);
    for (; m->keys[i]; i = (i + 1) & (m->cap - 1))
        if (m->keys[i] == key) {
            *added = 0;
            return (int64_t)m->vals[i];
        }
    m->keys[i] = key;
    m->vals[i] = next;
    m->n++;
    *added = 1;
    return (int64_t)next;
}

void pf_ptrmap_free(pf_ptrmap *m)
{
    assert(m);
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->n = 0;
}
