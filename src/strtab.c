/* strtab.c - string interning with an open-addressing hash table over an arena of blocks. */
#include "profana/strtab.h"

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

struct pf_strtab {
    slot *slots;
    size_t cap, count;
    block *blocks;
};

enum { BLOCK_SIZE = 1 << 16 };

static uint64_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= UINT64_C(1099511628211);
    }
    return h;
}

pf_strtab *pf_strtab_new(void)
{
    pf_strtab *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->cap = 1024;
    t->slots = calloc(t->cap, sizeof *t->slots);
    if (!t->slots) {
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
    free(t->slots);
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

static int grow(pf_strtab *t)
{
    size_t cap = t->cap * 2;
    slot *slots = calloc(cap, sizeof *slots);
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

const char *pf_strtab_intern(pf_strtab *t, const char *s, size_t n)
{
    uint64_t h = hash_bytes(s, n);
    size_t i = h & (t->cap - 1);
    for (; t->slots[i].str; i = (i + 1) & (t->cap - 1)) {
        const slot *sl = &t->slots[i];
        if (sl->hash == h && sl->len == n && memcmp(sl->str, s, n) == 0)
            return sl->str;
    }
    char *copy = arena_alloc(t, n + 1);
    if (!copy)
        return NULL;
    memcpy(copy, s, n);
    copy[n] = 0;
    t->slots[i] = (slot){copy, n, h};
    t->count++;
    if (t->count * 2 > t->cap && grow(t))
        return NULL;
    return copy;
}

size_t pf_strtab_count(const pf_strtab *t)
{
    return t->count;
}
