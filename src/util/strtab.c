/* strtab.c - string interning with an open-addressing hash table over an arena of blocks, and per-thread caches in front of it. */
#include "profana/strtab.h"
#include "profana/mem.h"

#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct block {
    struct block *next;
    size_t used, cap;
    char data[];
} block;

typedef struct slot {
    const char *str;
    size_t len;
    uint64_t hash;
} slot;

/* Open addressing over slots; capacity a power of two, at most half full. */
typedef struct table {
    slot *slots;
    size_t cap, count;
} table;

struct pf_strtab {
    table tab;
    block *blocks;
    pthread_mutex_t lock;      /* taken by pf_strcache_intern only */
};

struct pf_strcache {
    table tab;                 /* pointers into the shared table's strings */
    pf_strtab *shared;
};

enum { BLOCK_SIZE = 1 << 16, FIRST_CAP = 1024 };

/* Names are long (templated kernel names run to hundreds of bytes): hash 8 bytes a step. */
static uint64_t hash_bytes(const char *s, size_t n)
{
    const uint64_t k = UINT64_C(0xbf58476d1ce4e5b9);
    uint64_t h = UINT64_C(0x9E3779B97F4A7C15) ^ (uint64_t)n;
    uint64_t w;
    for (; n >= 8; s += 8, n -= 8) {
        memcpy(&w, s, 8);
        h = (h ^ w) * k;
        h ^= h >> 31;
    }
    if (n) {
        w = 0;
        memcpy(&w, s, n);
        h = (h ^ w) * k;
        h ^= h >> 31;
    }
    h *= UINT64_C(0x94d049bb133111eb);
    return h ^ (h >> 29);
}

static int table_init(table *t)
{
    t->cap = FIRST_CAP;
    t->count = 0;
    t->slots = pf_zalloc(t->cap, sizeof *t->slots); /* probed before written */
    return t->slots ? 0 : -1;
}

static slot *table_find(const table *t, const char *s, size_t n, uint64_t h)
{
    size_t i = h & (t->cap - 1);
    for (; t->slots[i].str; i = (i + 1) & (t->cap - 1)) {
        slot *sl = &t->slots[i];
        if (sl->hash == h && sl->len == n && memcmp(sl->str, s, n) == 0)
            return sl;
    }
    return &t->slots[i];
}

static int table_grow(table *t)
{
    size_t cap = t->cap * 2;
    slot *slots = pf_zalloc(cap, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->slots[i].str)
            continue;
        size_t j = t->slots[i].hash & (cap - 1);
        while (slots[j].str)
            j = (j + 1) & (cap - 1);
        slots[j] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    return 0;
}

/* Fills the empty slot sl (from table_find) and keeps the table at most half full. */
static int table_add(table *t, slot *sl, const char *str, size_t n, uint64_t h)
{
    *sl = (slot){str, n, h};
    t->count++;
    return t->count * 2 > t->cap ? table_grow(t) : 0;
}

pf_strtab *pf_strtab_new(void)
{
    pf_strtab *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    if (table_init(&t->tab) || pthread_mutex_init(&t->lock, NULL)) {
        free(t->tab.slots);
        free(t);
        return NULL;
    }
    return t;
}

void pf_strtab_free(pf_strtab *t)
{
    if (!t)
        return;
    for (block *b = t->blocks, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(t->tab.slots);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

static char *arena_alloc(pf_strtab *t, size_t n)
{
    block *b = t->blocks;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > BLOCK_SIZE ? n : BLOCK_SIZE;
        b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->cap = cap;
        b->used = 0;
        b->next = t->blocks;
        t->blocks = b;
    }
    char *p = b->data + b->used;
    b->used += n;
    return p;
}

static const char *intern_hashed(pf_strtab *t, const char *s, size_t n, uint64_t h)
{
    slot *sl = table_find(&t->tab, s, n, h);
    if (sl->str)
        return sl->str;
    char *copy = arena_alloc(t, n + 1);
    if (!copy)
        return NULL;
    memcpy(copy, s, n);
    copy[n] = 0;
    return table_add(&t->tab, sl, copy, n, h) ? NULL : copy;
}

const char *pf_strtab_intern(pf_strtab *t, const char *s, size_t n)
{
    assert(t && (s || n == 0));
    return intern_hashed(t, s, n, hash_bytes(s, n));
}

size_t pf_strtab_count(const pf_strtab *t)
{
    assert(t);
    return t->tab.count;
}

pf_strcache *pf_strcache_new(pf_strtab *shared)
{
    assert(shared);
    pf_strcache *c = calloc(1, sizeof *c);
    if (!c || table_init(&c->tab)) {
        free(c);
        return NULL;
    }
    c->shared = shared;
    return c;
}

void pf_strcache_free(pf_strcache *c)
{
    if (!c)
        return;
    free(c->tab.slots);
    free(c);
}

const char *pf_strcache_intern(pf_strcache *c, const char *s, size_t n)
{
    assert(c && (s || n == 0));
    uint64_t h = hash_bytes(s, n);
    slot *sl = table_find(&c->tab, s, n, h);
    if (sl->str)
        return sl->str;
    /* The shared copy never changes once made, so reading it later needs no lock. */
    pthread_mutex_lock(&c->shared->lock);
    const char *str = intern_hashed(c->shared, s, n, h);
    pthread_mutex_unlock(&c->shared->lock);
    if (!str || table_add(&c->tab, sl, str, n, h))
        return NULL;
    return str;
}
