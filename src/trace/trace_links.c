/* trace_links.c - links kernels to their ops by External id (else by nesting, trace_enclosing.c): the id map, the ops built from the records that are linked (or all), their args parsed once per distinct text, the nests' calls; the map and lookups of large traces on several threads. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "profana/mem.h"
#include "profana/parallel.h"
#include "trace_idmap.h"
#include "trace_model.h"
#include "trace_records.h"
#include "trace_vec.h"

/* Parsed args by interned args text: ops with equal args share one parse. */
typedef struct parsed {
    const char *key;
    pf_cpu_op op;              /* call, Inductor figures, bad_args */
} parsed;

typedef struct args_cache {
    parsed *slots;
    size_t cap, count;
} args_cache;

/* Keys are interned: one pointer, one text. */
static size_t key_hash(const char *key, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)key * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> 17) & (cap - 1);
}

static int cache_grow(args_cache *c)
{
    size_t cap = c->cap ? c->cap * 2 : 256;
    parsed *slots = pf_zalloc(cap, sizeof *slots); /* probed before written */
    if (!slots)
        return -1;
    for (size_t i = 0; i < c->cap; i++) {
        if (!c->slots[i].key)
            continue;
        size_t j = key_hash(c->slots[i].key, cap);
        while (slots[j].key)
            j = (j + 1) & (cap - 1);
        slots[j] = c->slots[i];
    }
    free(c->slots);
    c->slots = slots;
    c->cap = cap;
    return 0;
}

/* The parse of key, made on first use. NULL when memory runs out. */
static const parsed *cache_get(pf_trace *t, args_cache *c, const char *key)
{
    if ((c->count + 1) * 2 > c->cap && cache_grow(c))
        return NULL;
    size_t i = key_hash(key, c->cap);
    for (; c->slots[i].key; i = (i + 1) & (c->cap - 1))
        if (c->slots[i].key == key)
            return &c->slots[i];
    parsed *p = &c->slots[i];
    p->key = key;
    p->op.kernel_flop = p->op.kernel_num_gb = -1;
    /* Malformed args only cost the ops their figures (counted), never the run. */
    pf_trace_parse_op_args(t, &p->op, key, strlen(key));
    if (p->op.call.args && pf_trace_store_add(t, (void *)p->op.call.args)) {
        free((void *)p->op.call.args);
        p->key = NULL;
        return NULL;
    }
    c->count++;
    return p;
}

/* A kept op's call.name holds its args text (what the parse is looked up by) until it is
 * resolved: then the parse and the op's name are there. */
static int resolve_op(pf_trace *t, args_cache *c, pf_cpu_op *op)
{
    const char *key = op->call.name;
    op->call.name = op->name;
    if (!key)
        return 0;
    const parsed *p = cache_get(t, c, key);
    if (!p)
        return -1;
    op->call.nargs = p->op.call.nargs;
    op->call.args = p->op.call.args;
    op->kernel_flop = p->op.kernel_flop;
    op->kernel_num_gb = p->op.kernel_num_gb;
    op->kernel_file = p->op.kernel_file;
    op->bad_args = p->op.bad_args;
    return 0;
}

/* The sequence split over threads by vectors (each chunk's records stay on one thread):
 * start[v] is the sequence index of vector v's first record. */
typedef struct ids_job {
    const pf_op_recs *r;
    const size_t *start;
    pf_idmap *m;
    int64_t *lo, *hi;          /* per range: the least and greatest id it saw */
} ids_job;

static void ids_bounds(void *ctx, size_t v0, size_t v1, size_t k)
{
    ids_job *j = ctx;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t v = v0; v < v1; v++)
        for (size_t i = 0; i < j->r->vecs[v]->n; i++) {
            const pf_op_rec *rec = pf_segvec_at(j->r->vecs[v], i);
            lo = rec->ext_id < lo ? rec->ext_id : lo;
            hi = rec->ext_id > hi ? rec->ext_id : hi;
        }
    j->lo[k] = lo;
    j->hi[k] = hi;
}

/* The pages the ids fall in, when the map is to know them (pf_idmap_marking). */
static void ids_mark(void *ctx, size_t v0, size_t v1, size_t k)
{
    ids_job *j = ctx;
    (void)k;
    for (size_t v = v0; v < v1; v++)
        for (size_t i = 0; i < j->r->vecs[v]->n; i++)
            pf_idmap_mark(j->m, ((const pf_op_rec *)pf_segvec_at(j->r->vecs[v], i))->ext_id);
}

/* The first record of an id in file order wins, whichever thread gets there first. */
static void ids_fill(void *ctx, size_t v0, size_t v1, size_t k)
{
    ids_job *j = ctx;
    (void)k;
    for (size_t v = v0; v < v1; v++)
        for (size_t i = 0; i < j->r->vecs[v]->n; i++) {
            const pf_op_rec *rec = pf_segvec_at(j->r->vecs[v], i);
            pf_idmap_put_min(j->m, rec->ext_id, (int32_t)(j->start[v] + i));
        }
}

/* Maps each record's External id to its index in the sequence (the first of a repeated id
 * wins; the repeats are counted), on up to `jobs` threads; the map is the same for every
 * number of threads. */
static int map_ids(pf_trace *t, const pf_op_recs *r, pf_idmap *m, size_t jobs)
{
    assert(t != NULL && r != NULL && m != NULL && jobs >= 1);
    size_t w = pf_trace_workers(r->n, r->n_vecs, jobs);
    ids_job j = {r, NULL, m, NULL, NULL};
    size_t *start = malloc((r->n_vecs + 1) * sizeof *start);
    j.lo = malloc(w * sizeof *j.lo);
    j.hi = malloc(w * sizeof *j.hi);
    int rc = start && j.lo && j.hi && r->n <= INT32_MAX ? 0 : -1;
    if (rc == 0) {
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        start[0] = 0;
        for (size_t v = 0; v < r->n_vecs; v++)
            start[v + 1] = start[v] + r->vecs[v]->n;
        j.start = start;
        pf_parallel_ranges(r->n_vecs, w, ids_bounds, &j);
        for (size_t k = 0; k < w; k++) {
            lo = j.lo[k] < lo ? j.lo[k] : lo;
            hi = j.hi[k] > hi ? j.hi[k] : hi;
        }
        rc = pf_idmap_init(m, lo, hi, r->n);
    }
    if (rc == 0 && pf_idmap_marking(m)) {
        pf_parallel_ranges(r->n_vecs, w, ids_mark, &j);
        rc = pf_idmap_ready(m);
    }
    if (rc == 0) {
        pf_parallel_ranges(r->n_vecs, w, ids_fill, &j);
        t->n_duplicate_ids += r->n - pf_idmap_count(m, w);
    }
    free(start);
    free(j.lo);
    free(j.hi);
    return rc;
}

typedef struct ops_job {
    pf_trace *t;
    const pf_op_recs *r;
    const unsigned char *keep;
    int32_t *renum;
    const size_t *start, *at; /* per vector: its first record's index; the kept records before it */
} ops_job;

static void ops_range(void *ctx, size_t v0, size_t v1, size_t k)
{
    const ops_job *j = ctx;
    (void)k;
    for (size_t v = v0; v < v1; v++) {
        size_t g = j->start[v], o = j->at[v];
        for (size_t i = 0; i < j->r->vecs[v]->n; i++, g++) {
            j->renum[g] = -1;
            if ((i & (j->r->vecs[v]->per_block - 1)) == 0) /* the records behind: ops grow as they go */
                pf_segvec_release(j->r->vecs[v], i);
            if (!j->keep[g])
                continue;
            const pf_op_rec *rec = pf_segvec_at(j->r->vecs[v], i);
            pf_cpu_op *op = &j->t->ops[o];
            memset(op, 0, sizeof *op);
            op->name = rec->name;
            op->ext_id = rec->ext_id;
            op->src_off = rec->src_off;
            op->args = rec->args;
            op->kernel_flop = op->kernel_num_gb = -1;
            op->call.name = rec->key;
            j->renum[g] = (int32_t)o++;
        }
        pf_segvec_free(j->r->vecs[v]);
    }
}

/* t->ops from the records that `keep` marks, in order; renum[g] becomes record g's op index.
 * Frees the records block by block. Vectors are spread over up to `jobs` threads, each
 * writing its kept records at their place: the same ops for every number of threads. */
static int build_ops(pf_trace *t, const pf_op_recs *r, const unsigned char *keep, int32_t *renum, size_t jobs)
{
    assert(t != NULL && r != NULL && (keep != NULL && renum != NULL) && jobs >= 1);
    size_t *start = malloc((r->n_vecs + 1) * sizeof *start), *at = malloc((r->n_vecs + 1) * sizeof *at);
    if (!start || !at) {
        free(start);
        free(at);
        return -1;
    }
    start[0] = at[0] = 0;
    for (size_t v = 0, g = 0; v < r->n_vecs; v++) {
        size_t kept = 0;
        for (size_t i = 0; i < r->vecs[v]->n; i++, g++)
            kept += keep[g];
        start[v + 1] = start[v] + r->vecs[v]->n;
        at[v + 1] = at[v] + kept;
    }
    size_t n = at[r->n_vecs];
    if (!(t->ops = pf_model_alloc((n ? n : 1) * sizeof *t->ops, 1))) {
        free(start);
        free(at);
        return -1;
    }
    ops_job j = {t, r, keep, renum, start, at};
    size_t w = r->n < 65536 ? 1 : jobs < r->n_vecs ? jobs : r->n_vecs ? r->n_vecs : 1; /* small: no threads */
    pf_parallel_ranges(r->n_vecs, w, ops_range, &j);
    t->n_ops = n;
    free(start);
    free(at);
    return 0;
}

typedef struct acts_job {
    pf_trace *t;
    const int64_t *ext;        /* per activity: its External id, -1 none */
    const pf_idmap *m;
    unsigned char *keep;
    size_t *unlinked;          /* per range */
} acts_job;

static void acts_link_range(void *ctx, size_t lo, size_t hi, size_t k)
{
    acts_job *j = ctx;
    size_t n = 0;
    for (size_t i = lo; i < hi; i++) {
        pf_activity *a = &j->t->acts[i];
        a->op = a->has_ext ? pf_idmap_get(j->m, j->ext[i]) : -1;
        n += a->op < 0;
        if (a->op >= 0) /* every writer writes 1: the same marks in any order */
            __atomic_store_n(&j->keep[a->op], 1, __ATOMIC_RELAXED);
    }
    j->unlinked[k] = n;
}

/* Links each activity to the first op of its External id (a->op holds the record's index
 * until build_ops numbers the kept ones; looked up on up to `jobs` threads) and marks the
 * ops to keep: the linked ones, or all. Returns 0 or -1 (out of memory). */
static int link_acts(pf_trace *t, const int64_t *ext, const pf_idmap *m, unsigned char *keep, size_t jobs)
{
    assert(t != NULL && (ext != NULL || t->n_acts == 0) && m != NULL && keep != NULL && jobs >= 1);
    size_t w = t->n_acts / 65536 + 1 < jobs ? t->n_acts / 65536 + 1 : jobs; /* a range: 64 Ki at least */
    acts_job j = {t, ext, m, keep, malloc(w * sizeof(size_t))};
    if (!j.unlinked)
        return -1;
    pf_parallel_ranges(t->n_acts, w, acts_link_range, &j);
    for (size_t k = 0; k < w; k++)
        t->n_unlinked += j.unlinked[k];
    free(j.unlinked);
    /* a capture's kernel launches: their ops are what a replay's kernels take */
    for (size_t i = 0; i < t->n_launches; i++) {
        pf_launch *l = &t->launches[i];
        l->op = l->kernel && l->has_ext ? pf_idmap_get(m, l->ext_id) : -1;
        if (l->op >= 0)
            keep[l->op] = 1;
    }
    return 0;
}

/* Each nest's op gets the calls of its children (args parsed through the same cache). */
static int resolve_nests(pf_trace *t, args_cache *c, const pf_nests *ns, const int32_t *renum)
{
    for (size_t k = 0; k < ns->n; k++) {
        const pf_nest *n = &ns->list[k];
        int32_t op = renum[n->parent];
        if (op < 0 || n->n == 0)
            continue;
        /* one block: the nest, then its calls */
        pf_op_nest *block = calloc(1, sizeof *block + n->n * sizeof(pf_op_call));
        if (!block || pf_trace_store_add(t, block)) {
            free(block);
            return -1;
        }
        pf_op_call *calls = (pf_op_call *)(block + 1);
        for (size_t j = 0; j < n->n; j++) {
            const pf_nest_rec *nr = &ns->recs[n->first + j];
            calls[j].name = nr->name;
            const parsed *p = nr->key ? cache_get(t, c, nr->key) : NULL;
            if (nr->key && !p)
                return -1;
            if (p && !p->op.bad_args) {
                calls[j].nargs = p->op.call.nargs;
                calls[j].args = p->op.call.args;
            }
        }
        block->calls = calls;
        block->n = (int)n->n;
        t->ops[op].call.nested = block;
    }
    return 0;
}

/* Every kept op gets its args parsed (once per distinct args text); only linked ops need
 * them, so the others (kept for --explain) go without. */
static int resolve_ops(pf_trace *t, const int32_t *renum, const pf_nests *ns)
{
    args_cache c = {0};
    unsigned char *linked = calloc(t->n_ops ? t->n_ops : 1, 1);
    int rc = linked ? 0 : -1;
    for (size_t i = 0; linked && i < t->n_acts; i++) {
        pf_activity *a = &t->acts[i];
        if (a->op < 0)
            continue;
        a->op = renum[a->op];
        linked[a->op] = 1;
    }
    for (size_t i = 0; linked && i < t->n_launches; i++) {
        pf_launch *l = &t->launches[i];
        if (l->op < 0)
            continue;
        l->op = renum[l->op];
        linked[l->op] = 1;
    }
    for (size_t i = 0; rc == 0 && i < t->n_ops; i++) {
        if (linked[i])
            rc = resolve_op(t, &c, &t->ops[i]);
        else
            t->ops[i].call.name = NULL;
    }
    if (rc == 0)
        rc = resolve_nests(t, &c, ns, renum);
    free(linked);
    free(c.slots);
    return rc;
}

static int link_records(pf_trace *t, const int64_t *act_ext, const pf_op_recs *r, int all_ops, size_t jobs)
{
    pf_idmap m = {0};
    pf_nests ns = {0};
    unsigned char *keep = malloc(r->n ? r->n : 1);
    int32_t *renum = malloc((r->n ? r->n : 1) * sizeof *renum);
    int rc = keep && renum ? map_ids(t, r, &m, jobs) : -1;
    if (rc == 0) {
        memset(keep, all_ops ? 1 : 0, r->n);
        rc = link_acts(t, act_ext, &m, keep, jobs);
    }
    if (rc == 0) /* where the External id finds no op: the op around the launch call */
        rc = pf_link_enclosing(t, r, keep, jobs, &t->n_nested);
    t->n_unlinked -= rc == 0 ? t->n_nested : 0;
    if (rc == 0)
        rc = pf_nests_find(r, keep, &ns, jobs);
    pf_idmap_free(&m);
    if (rc == 0)
        rc = build_ops(t, r, keep, renum, jobs);
    free(keep);
    if (rc == 0)
        rc = resolve_ops(t, renum, &ns);
    pf_nests_free(&ns);
    free(renum);
    return rc;
}

int pf_trace_link(pf_trace *t, const int64_t *act_ext, pf_segvec *const *vecs, size_t n_vecs, int all_ops, size_t jobs,
                  pf_error *err)
{
    assert(t != NULL && err != NULL);
    assert(act_ext != NULL || t->n_acts == 0);
    assert(vecs != NULL || n_vecs == 0);
    pf_op_recs r = {vecs, n_vecs, 0};
    for (size_t v = 0; v < n_vecs; v++)
        r.n += vecs[v]->n;
    int rc = link_records(t, act_ext, &r, all_ops, jobs ? jobs : 1);
    if (rc)
        return pf_fail(err, "%s: out of memory", t->path);
    size_t bad = 0;
    for (size_t i = 0; i < t->n_ops; i++)
        bad += (size_t)t->ops[i].bad_args;
    if (t->n_duplicate_ids &&
        pf_trace_note(t, "%zu cpu_ops repeat an earlier External id; kernels link to the first", t->n_duplicate_ids))
        return pf_fail(err, "out of memory");
    if (bad && pf_trace_note(t, "%zu linked cpu_ops have malformed args; their kernels get no figures", bad))
        return pf_fail(err, "out of memory");
    if (t->n_bad_events &&
        pf_trace_note(t, "%zu events skipped: a field could not be read (bad ts/dur/name/device)", t->n_bad_events))
        return pf_fail(err, "out of memory");
    return 0;
}
