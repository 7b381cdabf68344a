/* infer.c - figures for a kernel without a launching op, from the linked launches of the same kernel name and launch geometry in the same trace. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>

#include "profana/analysis.h"
#include "profana/mem.h"
#include "profana/parallel.h"
#include "tasks.h"

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

static uint64_t key_hash(const char *name, uint64_t geometry)
{
    return ((uint64_t)(uintptr_t)name * UINT64_C(0x9E3779B97F4A7C15)) ^ geometry;
}

static seen *slot_of(seen *tab, size_t cap, const char *name, uint64_t geometry)
{
    uint64_t h = key_hash(name, geometry);
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
    seen *tab = pf_zalloc(cap, sizeof *tab); /* probed before written */
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

/* Each activity's part in pass A: P (< PF_THREADS_MAX) it teaches its key in table P,
 * ASKS + P it takes its figures from table P, NONE neither. A key's table is a function of
 * the key alone, so every launch of one key is learnt by one pass, in activity order. */
enum { ASKS = PF_THREADS_MAX, NONE = 255 };
_Static_assert(2 * PF_THREADS_MAX <= NONE, "a part fits a byte");

typedef struct infer_job {
    const pf_trace *t;
    pf_act_work *w;
    unsigned char *part;       /* per activity */
    seen_tab *tabs;            /* per part */
    size_t parts;
} infer_job;

/* Pass A over [lo, hi): each activity's part. A graph replay's kernel without its capture
 * linked to the op that launched the graph has no figures of its own, and teaches nothing. */
static void part_range(void *ctx, size_t lo, size_t hi, size_t r)
{
    infer_job *j = ctx;
    (void)r;
    for (size_t i = lo; i < hi; i++) {
        const pf_activity *a = &j->t->acts[i];
        if (!usable(a)) {
            j->part[i] = NONE;
            continue;
        }
        /* the key's high 32 bits scaled to [0, parts) (slot_of indexes by its low ones) */
        size_t p = (size_t)(((key_hash(a->name, a->geometry) >> 32) * j->parts) >> 32);
        j->part[i] = (unsigned char)(a->op >= 0 && !j->w[i].graph_replay ? p : ASKS + p);
    }
}

/* Pass B, task p: table p learns its keys' launches, in activity order. */
static int learn_part(void *ctx, size_t p, size_t worker)
{
    const infer_job *j = ctx;
    (void)worker;
    for (size_t i = 0; i < j->t->n_acts; i++)
        if (j->part[i] == p && learn(&j->tabs[p], &j->t->acts[i], &j->w[i]))
            return -1;
    return 0;
}

/* Pass C over [lo, hi): the figures of the activities that ask, from their key's table. */
static void infer_range(void *ctx, size_t lo, size_t hi, size_t r)
{
    infer_job *j = ctx;
    (void)r;
    for (size_t i = lo; i < hi; i++) {
        if (j->part[i] < ASKS || j->part[i] == NONE)
            continue;
        const seen_tab *tab = &j->tabs[j->part[i] - ASKS];
        const pf_activity *a = &j->t->acts[i];
        if (!tab->used)
            continue;
        const seen *s = slot_of(tab->tab, tab->cap, a->name, a->geometry);
        if (!s->name || !s->agree)
            continue;
        pf_act_work *w = &j->w[i];
        *w = s->w;
        w->flop = s->w.flop >= 0 ? s->w.flop / (double)s->n : -1;
        w->bytes = s->w.bytes >= 0 ? s->w.bytes / (double)s->n : -1;
        w->source = "inferred";
        w->inferred = 1;
        w->no_formula = w->no_shapes = w->graph_replay = w->compiled_region = w->lists_unrecorded = 0;
    }
}

int pf_work_infer(const pf_trace *t, pf_act_work *w, size_t threads)
{
    assert(t && (w || t->n_acts == 0) && threads >= 1 && threads <= PF_THREADS_MAX);
    infer_job j = {t, w, malloc(t->n_acts ? t->n_acts : 1), calloc(threads, sizeof(seen_tab)), threads};
    int rc = j.part && j.tabs ? 0 : -1;
    if (rc == 0) {
        pf_parallel_ranges(t->n_acts, threads, part_range, &j);
        pf_tasks_run(threads, threads, learn_part, &j, &rc);
    }
    if (rc == 0)
        pf_parallel_ranges(t->n_acts, threads, infer_range, &j);
    for (size_t p = 0; j.tabs && p < threads; p++)
        free(j.tabs[p].tab);
    free(j.tabs);
    free(j.part);
    return rc ? -1 : 0;
}
