/* infer.c - figures for a kernel without a launching op, from the linked launches of the same kernel name and launch geometry in the same trace. */
#include <stdint.h>
#include <stdlib.h>

#include "profana/analysis.h"

/* What the linked launches of one (name, geometry) say, as long as they all say the same. */
typedef struct seen {
    const char *name;          /* NULL: a free slot */
    uint64_t geometry;
    pf_act_work w;             /* the first one's, its flop and bytes summed over all */
    int64_t n;
    int agree;                 /* 0 once two of them differ */
} seen;

/* Launches of one kernel whose ops did the same work: their shares of it differ only by
 * their time, so their mean is the kernel's. */
static int same_work(const pf_act_work *a, const pf_act_work *b)
{
    return a->op_flop == b->op_flop && a->op_bytes == b->op_bytes && (a->flop < 0) == (b->flop < 0) &&
           (a->bytes < 0) == (b->bytes < 0) && a->dtype == b->dtype && a->upper_bound == b->upper_bound &&
           a->elsewhere == b->elsewhere && a->generic == b->generic;
}

static seen *slot_of(seen *tab, size_t cap, const char *name, uint64_t geometry)
{
    uint64_t h = ((uint64_t)(uintptr_t)name * UINT64_C(0x9E3779B97F4A7C15)) ^ geometry;
    size_t i = (size_t)(h >> 17) & (cap - 1);
    while (tab[i].name && (tab[i].name != name || tab[i].geometry != geometry))
        i = (i + 1) & (cap - 1);
    return &tab[i];
}

/* Kernels can be told apart only by name and geometry: without a geometry nothing is inferred. */
static int usable(const pf_activity *a)
{
    return a->kind == PF_ACT_KERNEL && a->geometry != 0;
}

/* The table of (name, geometry) seen so far: sized by the distinct keys, not by the activities
 * (a table of two slots an activity was 39 MB at 300 MB, the highest point of a run). */
typedef struct seen_tab {
    seen *tab;
    size_t cap, used;          /* cap a power of two, at least twice used */
} seen_tab;

static int tab_grow(seen_tab *t)
{
    size_t cap = t->cap ? 2 * t->cap : 1024;
    seen *tab = calloc(cap, sizeof *tab);
    if (!tab)
        return -1;
    for (size_t i = 0; i < t->cap; i++)
        if (t->tab[i].name)
            *slot_of(tab, cap, t->tab[i].name, t->tab[i].geometry) = t->tab[i];
    free(t->tab);
    t->tab = tab;
    t->cap = cap;
    return 0;
}

static int learn(seen_tab *t, const pf_activity *a, const pf_act_work *w)
{
    if (2 * (t->used + 1) > t->cap && tab_grow(t))
        return -1;
    seen *s = slot_of(t->tab, t->cap, a->name, a->geometry);
    int known = w->source && (w->flop >= 0 || w->bytes >= 0);
    if (!s->name) {
        *s = (seen){a->name, a->geometry, *w, 1, known};
        t->used++;
        return 0;
    }
    s->agree = s->agree && known && same_work(&s->w, w);
    s->w.flop += w->flop >= 0 ? w->flop : 0;
    s->w.bytes += w->bytes >= 0 ? w->bytes : 0;
    s->n++;
    return 0;
}

int pf_work_infer(const pf_trace *t, pf_act_work *w)
{
    seen_tab tab = {NULL, 0, 0};
    /* a graph replay's kernel without its capture linked to the op that launched the graph:
     * it has no figures of its own, and teaches nothing */
    for (size_t i = 0; i < t->n_acts; i++)
        if (t->acts[i].op >= 0 && !w[i].graph_replay && usable(&t->acts[i]) && learn(&tab, &t->acts[i], &w[i])) {
            free(tab.tab);
            return -1;
        }
    for (size_t i = 0; tab.used && i < t->n_acts; i++) {
        const pf_activity *a = &t->acts[i];
        if ((a->op >= 0 && !w[i].graph_replay) || !usable(a))
            continue;
        const seen *s = slot_of(tab.tab, tab.cap, a->name, a->geometry);
        if (!s->name || !s->agree)
            continue;
        w[i] = s->w;
        w[i].flop = s->w.flop >= 0 ? s->w.flop / (double)s->n : -1;
        w[i].bytes = s->w.bytes >= 0 ? s->w.bytes / (double)s->n : -1;
        w[i].source = "inferred";
        w[i].inferred = 1;
        w[i].no_formula = w[i].no_shapes = w[i].graph_replay = w[i].compiled_region = 0;
    }
    free(tab.tab);
    return 0;
}
