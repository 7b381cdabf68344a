/* cat_cache.c - every activity's category (pf_category_of, a scan of a rule table), cached per distinct (kind, kernel, op) in each range of activities. */
#include "pipeline.h"

#include <assert.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "profana/categories.h"
#include "profana/mem.h"
#include "profana/parallel.h"

/* Categorising is a scan of a rule table: cached per distinct (kind, kernel, op), which
 * are interned pointers; a trace has a few hundred of them, so the cache starts small and
 * doubles when half full. */
typedef struct cat_slot {
    const char *name, *op;     /* name NULL: a free slot */
    unsigned char kind, cat;
} cat_slot;

typedef struct cat_cache {
    cat_slot *slots;
    size_t cap, n;             /* cap a power of two, at least twice n */
} cat_cache;

static cat_slot *cat_slot_of(const cat_cache *c, const char *name, const char *op, int kind)
{
    assert(c->cap && (c->cap & (c->cap - 1)) == 0 && c->n < c->cap); /* a free slot ends the probe */
    uint64_t h = ((uint64_t)(uintptr_t)name * UINT64_C(0x9E3779B97F4A7C15)) ^
                 ((uint64_t)(uintptr_t)op * UINT64_C(0xC2B2AE3D27D4EB4F)) ^ (uint64_t)kind;
    size_t i = (size_t)(h >> 17) & (c->cap - 1);
    while (c->slots[i].name && (c->slots[i].name != name || c->slots[i].op != op || c->slots[i].kind != kind))
        i = (i + 1) & (c->cap - 1);
    return &c->slots[i];
}

static int cat_grow(cat_cache *c)
{
    cat_cache bigger = {pf_zalloc(c->cap ? 2 * c->cap : 64, sizeof(cat_slot)), c->cap ? 2 * c->cap : 64, c->n};
    if (!bigger.slots)
        return -1;
    for (size_t i = 0; i < c->cap; i++)
        if (c->slots[i].name)
            *cat_slot_of(&bigger, c->slots[i].name, c->slots[i].op, c->slots[i].kind) = c->slots[i];
    free(c->slots);
    *c = bigger;
    return 0;
}

/* a's category (op: the name of its op, NULL when none); -1 when memory runs out. */
static int cached_category(cat_cache *c, const pf_activity *a, const char *op)
{
    assert(a->name);
    if (2 * (c->n + 1) > c->cap && cat_grow(c))
        return -1;
    cat_slot *s = cat_slot_of(c, a->name, op, (int)a->kind);
    if (!s->name) {
        *s = (cat_slot){a->name, op, (unsigned char)a->kind, (unsigned char)pf_category_of(a->kind, a->name, op)};
        c->n++;
    }
    return s->cat;
}

/* pf_an_categories' ranges, each with a cache of its own (a category is a function of
 * (kind, kernel, op) alone). */
typedef struct cats_job {
    pf_analysis *an;
    atomic_int failed;         /* memory ran out in a range */
} cats_job;

static void cats_range(void *ctx, size_t lo, size_t hi, size_t r)
{
    cats_job *j = ctx;
    const pf_trace *t = j->an->trace;
    cat_cache c = {0};
    (void)r;
    for (size_t i = lo; i < hi; i++) {
        const pf_activity *a = &t->acts[i];
        int cat = cached_category(&c, a, a->op >= 0 ? t->ops[a->op].name : NULL);
        if (cat < 0) {
            atomic_store(&j->failed, 1);
            break;
        }
        j->an->cats[i] = (unsigned char)cat;
    }
    free(c.slots);
}

/* pipeline.h */
int pf_an_categories(pf_analysis *an, size_t threads)
{
    assert(an && !an->cats && threads >= 1);
    const pf_trace *t = an->trace;
    an->cats = malloc(t->n_acts ? t->n_acts : 1);
    if (!an->cats)
        return -1;
    cats_job j = {an, 0};
    pf_parallel_ranges(t->n_acts, threads, cats_range, &j);
    return atomic_load(&j.failed) ? -1 : 0;
}
