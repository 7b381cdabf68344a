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

static void learn(seen *tab, size_t cap, const pf_activity *a, const pf_act_work *w)
{
    seen *s = slot_of(tab, cap, a->name, a->geometry);
    int known = w->source && (w->flop >= 0 || w->bytes >= 0);
    if (!s->name) {
        *s = (seen){a->name, a->geometry, *w, 1, known};
        return;
    }
    s->agree = s->agree && known && same_work(&s->w, w);
    s->w.flop += w->flop >= 0 ? w->flop : 0;
    s->w.bytes += w->bytes >= 0 ? w->bytes : 0;
    s->n++;
}

int pf_work_infer(const pf_trace *t, pf_act_work *w)
{
    size_t cap = 64;
    while (cap < 2 * t->n_acts)
        cap *= 2;
    seen *tab = calloc(cap, sizeof *tab);
    if (!tab)
        return -1;
    /* a graph replay's kernel without its capture linked to the op that launched the graph:
     * it has no figures of its own, and teaches nothing */
    for (size_t i = 0; i < t->n_acts; i++)
        if (t->acts[i].op >= 0 && !w[i].graph_replay && usable(&t->acts[i]))
            learn(tab, cap, &t->acts[i], &w[i]);
    for (size_t i = 0; i < t->n_acts; i++) {
        const pf_activity *a = &t->acts[i];
        if ((a->op >= 0 && !w[i].graph_replay) || !usable(a))
            continue;
        const seen *s = slot_of(tab, cap, a->name, a->geometry);
        if (!s->name || !s->agree)
            continue;
        w[i] = s->w;
        w[i].flop = s->w.flop >= 0 ? s->w.flop / (double)s->n : -1;
        w[i].bytes = s->w.bytes >= 0 ? s->w.bytes / (double)s->n : -1;
        w[i].source = "inferred";
        w[i].inferred = 1;
        w[i].no_formula = w[i].no_shapes = w[i].graph_replay = w[i].compiled_region = 0;
    }
    free(tab);
    return 0;
}
