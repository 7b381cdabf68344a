/* trace_model.c - the model's assembly: notes and warnings, freeing, External-id links from kernels to ops (in parallel for large traces), nested ops, the parse of linked ops' args, and launch calls by correlation id. */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/i64map.h"
#include "profana/mem.h"
#include "profana/op_family.h"
#include "profana/parallel.h"
#include "trace_model.h"
#include "trace_records.h"
#include "trace_vec.h"

static int add_line(char ***lines, int *n, const char *fmt, va_list ap)
{
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    char **l = realloc(*lines, (size_t)(*n + 1) * sizeof *l);
    if (!l)
        return -1;
    *lines = l;
    if (!(l[*n] = strdup(buf)))
        return -1;
    ++*n;
    return 0;
}

int pf_trace_note(pf_trace *t, const char *fmt, ...)
{
    assert(t != NULL && fmt != NULL);
    va_list ap;
    va_start(ap, fmt);
    int rc = add_line(&t->notes, &t->n_notes, fmt, ap);
    va_end(ap);
    return rc;
}

int pf_trace_warn(pf_trace *t, const char *fmt, ...)
{
    assert(t != NULL && fmt != NULL);
    va_list ap;
    va_start(ap, fmt);
    int rc = add_line(&t->warnings, &t->n_warnings, fmt, ap);
    va_end(ap);
    return rc;
}

/* What the ops point into: arg arrays that they share (one per distinct args text) and the
 * calls of nested ops (pf_op_call.nested). */
struct pf_trace_store {
    void **arrays;
    size_t n, cap;
};

static int store_add(pf_trace *t, void *a)
{
    struct pf_trace_store *st = t->store;
    if (!st && !(st = t->store = calloc(1, sizeof *st)))
        return -1;
    if (pf_grow((void **)&st->arrays, &st->cap, st->n + 1, sizeof *st->arrays, 64))
        return -1;
    st->arrays[st->n++] = a;
    return 0;
}

static void store_free(struct pf_trace_store *st)
{
    if (!st)
        return;
    for (size_t i = 0; i < st->n; i++)
        free(st->arrays[i]);
    free(st->arrays);
    free(st);
}

static void free_lines(char **lines, int n)
{
    for (int i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
}

void pf_trace_free(pf_trace *t)
{
    if (!t)
        return;
    store_free(t->store);
    free_lines(t->notes, t->n_notes);
    free_lines(t->warnings, t->n_warnings);
    for (size_t i = 0; i < t->n_adopted; i++)
        pf_trace_free(t->adopted[i]);
    free(t->adopted);
    free(t->launches);
    free(t->ops);
    free(t->acts);
    free(t->cpu);
    free(t->gpu_steps);
    free(t->cpu_steps);
    free(t->devices);
    pf_strtab_free(t->strings);
    free(t);
}

void pf_trace_drop_host(pf_trace *t)
{
    assert(t != NULL);
    free(t->cpu);
    t->cpu = NULL;
    t->n_cpu = 0;
}

#ifndef NDEBUG
/* For assert() only: whether the chunks' host intervals start in order in t->cpu. */
static int bases_ascending(const size_t *base, size_t n)
{
    for (size_t v = 1; v < n; v++)
        if (base[v - 1] > base[v])
            return 0;
    return 1;
}
#endif

/* ---- External id links ---- */

/* External id -> index of the first op record with it. Kineto numbers External ids
 * consecutively, so when the ids are dense the map is a plain array indexed by id - base
 * (direct != NULL): filled and read in file order, it stays in cache where hashed slots would
 * miss on every id. Otherwise a pf_i64map sized once for every cpu_op's id. */
typedef struct id_map {
    pf_i64map hashed;
    int32_t *direct;           /* value of id base + i; -1 none */
    int64_t base;
    size_t range;
} id_map;

/* A dense map for ids in [lo, hi) when there are at least a quarter as many ids as
 * values in the range; 1 when made, 0 when the hashed map suits better, -1 out of memory. */
static int id_map_init_dense(id_map *m, int64_t lo, int64_t hi, size_t n)
{
    uint64_t range = (uint64_t)hi - (uint64_t)lo;
    if (hi <= lo || range / 4 > n)
        return 0;
    m->direct = malloc((size_t)range * sizeof *m->direct);
    if (!m->direct)
        return -1;
    memset(m->direct, 0xff, (size_t)range * sizeof *m->direct);
    m->base = lo;
    m->range = (size_t)range;
    return 1;
}

static void id_map_free(id_map *m)
{
    pf_i64map_free(&m->hashed);
    free(m->direct);
}

/* Inserts k -> v unless k is there; returns 1 when k was already present, 0 when added (the
 * hashed map was sized for every id: it never grows here, so never fails). */
static int id_map_put(id_map *m, int64_t k, int32_t v)
{
    if (m->direct) {
        int32_t *slot = &m->direct[k - m->base];
        if (*slot >= 0)
            return 1;
        *slot = v;
        return 0;
    }
    int added;
    int64_t got = pf_i64map_find_or_add(&m->hashed, k, (uint32_t)v, &added);
    assert(got >= 0);
    (void)got;
    return !added;
}

static int32_t id_map_get(const id_map *m, int64_t k)
{
    if (m->direct)
        return k >= m->base && (uint64_t)k - (uint64_t)m->base < m->range ? m->direct[k - m->base] : -1;
    uint32_t v;
    return pf_i64map_get(&m->hashed, k, &v) ? (int32_t)v : -1;
}

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
    parsed *slots = calloc(cap, sizeof *slots);
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
    if (p->op.call.args && store_add(t, (void *)p->op.call.args)) {
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

/* The op records of every chunk as one sequence, in file order. */
typedef struct op_recs {
    pf_segvec *const *vecs;
    const size_t *cpu_base;    /* per vector: where its chunk's host intervals start in t->cpu */
    size_t n_vecs, n;
} op_recs;

/* The sequence split over threads by vectors (each chunk's records stay on one thread):
 * start[v] is the sequence index of vector v's first record. */
typedef struct ids_job {
    const op_recs *r;
    const size_t *start;
    id_map *m;
    int64_t *lo, *hi;          /* per range: the least and greatest id it saw */
    size_t *filled;            /* per range of the dense array: its slots in use */
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

/* Puts g into a dense slot unless a smaller index is there: the first record of an id in
 * file order wins, whichever thread gets there first. */
static void dense_put_min(int32_t *slot, int32_t g)
{
    int32_t cur = __atomic_load_n(slot, __ATOMIC_RELAXED);
    while ((cur < 0 || g < cur) && !__atomic_compare_exchange_n(slot, &cur, g, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

static void ids_fill(void *ctx, size_t v0, size_t v1, size_t k)
{
    ids_job *j = ctx;
    (void)k;
    for (size_t v = v0; v < v1; v++)
        for (size_t i = 0; i < j->r->vecs[v]->n; i++) {
            const pf_op_rec *rec = pf_segvec_at(j->r->vecs[v], i);
            dense_put_min(&j->m->direct[rec->ext_id - j->m->base], (int32_t)(j->start[v] + i));
        }
}

static void ids_count(void *ctx, size_t lo, size_t hi, size_t k)
{
    ids_job *j = ctx;
    size_t n = 0;
    for (size_t i = lo; i < hi; i++)
        n += j->m->direct[i] >= 0;
    j->filled[k] = n;
}

/* Maps each record's External id to its index in the sequence (the first of a repeated id
 * wins; the repeats are counted), on up to `jobs` threads when the map is dense; the map is
 * the same for every number of threads. */
static int map_ids(pf_trace *t, const op_recs *r, id_map *m, size_t jobs)
{
    assert(t != NULL && r != NULL && m != NULL && jobs >= 1);
    size_t w = r->n < 65536 ? 1 : jobs < r->n_vecs ? jobs : r->n_vecs ? r->n_vecs : 1; /* small: no threads */
    ids_job j = {r, NULL, m, NULL, NULL, NULL};
    size_t *start = malloc((r->n_vecs + 1) * sizeof *start);
    j.lo = malloc(w * sizeof *j.lo);
    j.hi = malloc(w * sizeof *j.hi);
    j.filled = malloc(w * sizeof *j.filled);
    int rc = start && j.lo && j.hi && j.filled ? 0 : -1;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    if (rc == 0) {
        start[0] = 0;
        for (size_t v = 0; v < r->n_vecs; v++)
            start[v + 1] = start[v] + r->vecs[v]->n;
        j.start = start;
        pf_parallel_ranges(r->n_vecs, w, ids_bounds, &j);
        for (size_t k = 0; k < w; k++) {
            lo = j.lo[k] < lo ? j.lo[k] : lo;
            hi = j.hi[k] > hi ? j.hi[k] : hi;
        }
    }
    int dense = rc == 0 && r->n && hi < INT64_MAX ? id_map_init_dense(m, lo, hi + 1, r->n) : 0;
    if (rc || r->n > INT32_MAX || dense < 0 || (dense == 0 && pf_i64map_reserve(&m->hashed, r->n)))
        rc = -1;
    if (rc == 0 && dense) {
        pf_parallel_ranges(r->n_vecs, w, ids_fill, &j);
        pf_parallel_ranges(m->range, w, ids_count, &j);
        size_t filled = 0;
        for (size_t k = 0; k < w; k++)
            filled += j.filled[k];
        t->n_duplicate_ids += r->n - filled;
    } else if (rc == 0) {
        int32_t g = 0;
        for (size_t v = 0; v < r->n_vecs; v++)
            for (size_t i = 0; i < r->vecs[v]->n; i++, g++) {
                const pf_op_rec *rec = pf_segvec_at(r->vecs[v], i);
                t->n_duplicate_ids += (size_t)id_map_put(m, rec->ext_id, g);
            }
    }
    free(start);
    free(j.lo);
    free(j.hi);
    free(j.filled);
    return rc;
}

typedef struct ops_job {
    pf_trace *t;
    const op_recs *r;
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
static int build_ops(pf_trace *t, const op_recs *r, const unsigned char *keep, int32_t *renum, size_t jobs)
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
    if (!(t->ops = pf_model_alloc((n ? n : 1) * sizeof *t->ops))) {
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
    const id_map *m;
    size_t *unlinked;          /* per range */
} acts_job;

static void acts_link_range(void *ctx, size_t lo, size_t hi, size_t k)
{
    acts_job *j = ctx;
    size_t n = 0;
    for (size_t i = lo; i < hi; i++) {
        pf_activity *a = &j->t->acts[i];
        a->op = a->ext_id >= 0 ? id_map_get(j->m, a->ext_id) : -1;
        n += a->op < 0;
    }
    j->unlinked[k] = n;
}

/* Links each activity to the first op of its External id (a->op holds the record's index
 * until build_ops numbers the kept ones; looked up on up to `jobs` threads) and marks the
 * ops to keep: the linked ones, or all. Returns 0 or -1 (out of memory). */
static int link_acts(pf_trace *t, const id_map *m, unsigned char *keep, size_t jobs)
{
    assert(t != NULL && m != NULL && keep != NULL && jobs >= 1);
    size_t w = t->n_acts / 65536 + 1 < jobs ? t->n_acts / 65536 + 1 : jobs; /* a range: 64 Ki at least */
    acts_job j = {t, m, malloc(w * sizeof(size_t))};
    if (!j.unlinked)
        return -1;
    pf_parallel_ranges(t->n_acts, w, acts_link_range, &j);
    for (size_t k = 0; k < w; k++)
        t->n_unlinked += j.unlinked[k];
    free(j.unlinked);
    for (size_t i = 0; i < t->n_acts; i++)
        if (t->acts[i].op >= 0)
            keep[t->acts[i].op] = 1;
    /* a capture's kernel launches: their ops are what a replay's kernels take */
    for (size_t i = 0; i < t->n_launches; i++) {
        pf_launch *l = &t->launches[i];
        l->op = l->kernel && l->ext_id >= 0 ? id_map_get(m, l->ext_id) : -1;
        if (l->op >= 0)
            keep[l->op] = 1;
    }
    return 0;
}

/* ---- nested ops ---- */

/* An op whose formula reads the ops recorded inside it (pf_op_family_reads_nested) keeps the
 * records that follow it in the file on its thread and lie within its span: Kineto writes an
 * op's children right after it. The look-ahead is bounded so that a malformed trace cannot
 * make linking quadratic, and so is what one op keeps; a nest ends at the next op that reads
 * its own (what all nests keep is then bounded by the trace's records). */
#define NEST_SCAN 4096
#define NEST_MAX 1024

typedef struct nest_rec {
    const char *name, *key;
} nest_rec;

typedef struct nest {
    int32_t parent;            /* its record's index in the sequence */
    size_t first, n;           /* its children in nests.recs */
} nest;

typedef struct nests {
    nest *list;
    size_t n, cap;
    nest_rec *recs;
    size_t n_recs, cap_recs;
} nests;

static void nests_free(nests *ns)
{
    free(ns->list);
    free(ns->recs);
}

/* The host interval of record rec of chunk v, or NULL when its times were not read. */
static const pf_cpu_event *rec_span(const pf_trace *t, const op_recs *r, size_t v, const pf_op_rec *rec)
{
    if (rec->cpu_at == PF_NO_CPU)
        return NULL;
    size_t at = r->cpu_base[v] + rec->cpu_at;
    assert(at < t->n_cpu && t->cpu[at].name == rec->name);
    return &t->cpu[at];
}

/* The record after (v, i) in file order, moving the cursor there; NULL at the end. */
static const pf_op_rec *rec_after(const op_recs *r, size_t *v, size_t *i)
{
    for (++*i; *v < r->n_vecs; ++*v, *i = 0)
        if (*i < r->vecs[*v]->n)
            return pf_segvec_at(r->vecs[*v], *i);
    return NULL;
}

static int push_child(nests *ns, const pf_op_rec *rec)
{
    if (pf_grow((void **)&ns->recs, &ns->cap_recs, ns->n_recs + 1, sizeof *ns->recs, 64))
        return -1;
    ns->recs[ns->n_recs++] = (nest_rec){rec->name, rec->key};
    return 0;
}

/* Record g at cursor (v, i), whose span is p: its children. */
static int add_nest(const pf_trace *t, nests *ns, const op_recs *r, const pf_cpu_event *p, int32_t g, size_t v,
                    size_t i)
{
    if (pf_grow((void **)&ns->list, &ns->cap, ns->n + 1, sizeof *ns->list, 16))
        return -1;
    nest *n = &ns->list[ns->n++];
    *n = (nest){g, ns->n_recs, 0};
    int64_t end = p->ts_ns + p->dur_ns;
    const pf_op_rec *rec;
    for (int k = 0; k < NEST_SCAN && n->n < NEST_MAX && (rec = rec_after(r, &v, &i)); k++) {
        const pf_cpu_event *c = rec_span(t, r, v, rec);
        if (!c || c->thread != p->thread)
            continue;
        if (c->ts_ns > end)
            break;
        if (c->ts_ns < p->ts_ns || c->ts_ns + c->dur_ns > end)
            continue;
        /* an op that reads its own nested ops owns what follows: nests do not overlap, so
         * what they keep in all is at most one entry per record of the trace (ops nested
         * each inside the previous kept up to NEST_MAX entries each: 4.8 GB for 39 MB) */
        if (pf_op_family_reads_nested(rec->name))
            break;
        if (push_child(ns, rec))
            return -1;
        n->n++;
    }
    return 0;
}

/* The children of every kept record whose op reads them. */
static int find_nests(const pf_trace *t, const op_recs *r, const unsigned char *keep, nests *ns)
{
    int32_t g = 0;
    for (size_t v = 0; v < r->n_vecs; v++)
        for (size_t i = 0; i < r->vecs[v]->n; i++, g++) {
            const pf_op_rec *rec = pf_segvec_at(r->vecs[v], i);
            if (!keep[g] || !pf_op_family_reads_nested(rec->name))
                continue;
            const pf_cpu_event *p = rec_span(t, r, v, rec);
            if (p && add_nest(t, ns, r, p, g, v, i))
                return -1;
        }
    return 0;
}

/* Each nest's op gets the calls of its children (args parsed through the same cache). */
static int resolve_nests(pf_trace *t, args_cache *c, const nests *ns, const int32_t *renum)
{
    for (size_t k = 0; k < ns->n; k++) {
        const nest *n = &ns->list[k];
        int32_t op = renum[n->parent];
        if (op < 0 || n->n == 0)
            continue;
        /* one block: the nest, then its calls */
        pf_op_nest *block = calloc(1, sizeof *block + n->n * sizeof(pf_op_call));
        if (!block || store_add(t, block)) {
            free(block);
            return -1;
        }
        pf_op_call *calls = (pf_op_call *)(block + 1);
        for (size_t j = 0; j < n->n; j++) {
            const nest_rec *nr = &ns->recs[n->first + j];
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
static int resolve_ops(pf_trace *t, const int32_t *renum, const nests *ns)
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

static int link_records(pf_trace *t, const op_recs *r, int all_ops, size_t jobs)
{
    id_map m = {0};
    nests ns = {0};
    unsigned char *keep = malloc(r->n ? r->n : 1);
    int32_t *renum = malloc((r->n ? r->n : 1) * sizeof *renum);
    int rc = keep && renum ? map_ids(t, r, &m, jobs) : -1;
    if (rc == 0) {
        memset(keep, all_ops ? 1 : 0, r->n);
        rc = link_acts(t, &m, keep, jobs);
    }
    if (rc == 0)
        rc = find_nests(t, r, keep, &ns);
    id_map_free(&m);
    if (rc == 0)
        rc = build_ops(t, r, keep, renum, jobs);
    free(keep);
    if (rc == 0)
        rc = resolve_ops(t, renum, &ns);
    nests_free(&ns);
    free(renum);
    return rc;
}

int pf_trace_link(pf_trace *t, pf_segvec *const *vecs, const size_t *cpu_base, size_t n_vecs, int all_ops,
                  size_t jobs, pf_error *err)
{
    assert(t != NULL && err != NULL);
    assert(vecs != NULL || n_vecs == 0);
    assert(cpu_base != NULL || n_vecs == 0);
    assert(bases_ascending(cpu_base, n_vecs));
    op_recs r = {vecs, cpu_base, n_vecs, 0};
    for (size_t v = 0; v < n_vecs; v++)
        r.n += vecs[v]->n;
    int rc = link_records(t, &r, all_ops, jobs ? jobs : 1);
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

/* ---- launch calls ---- */

/* The launch records of every chunk in one array, in file order; the vectors are emptied. */
static pf_launch_rec *flatten_launches(pf_segvec *const *vecs, size_t n_vecs, size_t *n)
{
    *n = 0;
    for (size_t v = 0; v < n_vecs; v++)
        *n += vecs[v]->n;
    pf_launch_rec *all = pf_model_alloc((*n ? *n : 1) * sizeof *all);
    size_t at = 0;
    for (size_t v = 0; v < n_vecs; v++) {
        size_t k = vecs[v]->n; /* draining empties the vector */
        if (all)
            pf_segvec_drain(vecs[v], all + at);
        at += k;
        pf_segvec_free(vecs[v]);
    }
    return all;
}

/* Correlation id -> index of the first record with it. A later record of another process
 * with the same id (ranks of a combined trace number their calls alike) makes the first
 * ambiguous (*ambiguous[first] = 1): no activity can tell which call launched it. */
static int map_launches(const pf_launch_rec *l, size_t n, id_map *m, unsigned char *ambiguous)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        lo = l[i].correlation < lo ? l[i].correlation : lo;
        hi = l[i].correlation > hi ? l[i].correlation : hi;
    }
    int dense = n && hi < INT64_MAX ? id_map_init_dense(m, lo, hi + 1, n) : 0;
    if (n > INT32_MAX || dense < 0 || (dense == 0 && pf_i64map_reserve(&m->hashed, n)))
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (!id_map_put(m, l[i].correlation, (int32_t)i))
            continue;
        int32_t first = id_map_get(m, l[i].correlation);
        if (l[first].process != l[i].process)
            ambiguous[first] = 1;
    }
    return 0;
}

/* Whether the trace has GPU-side steps but no activity's launch is known: --step then falls
 * back to the GPU-side annotations, which hold only the profiling thread's launches. */
static int note_fallback(pf_trace *t)
{
    if (t->n_launched || !t->n_gpu_steps || !t->n_acts)
        return 0;
    return pf_trace_note(t, "no GPU activity has its launch call (cuda_runtime/cuda_driver with its correlation) "
                            "in the trace: --step and --steps use the GPU-side ProfilerStep annotations, which hold "
                            "only the work launched on the profiling thread");
}

/* The records as the model keeps them for a capture trace (ops linked by pf_trace_link). */
static int keep_launches(pf_trace *t, const pf_launch_rec *l, size_t n, const unsigned char *ran)
{
    if (!(t->launches = malloc((n ? n : 1) * sizeof *t->launches)))
        return -1;
    for (size_t i = 0; i < n; i++)
        t->launches[i] = (pf_launch){l[i].kernel, l[i].kind, -1, ran[i], l[i].ext_id, l[i].correlation,
                                     l[i].ts_ns, l[i].process, l[i].geometry};
    t->n_launches = n;
    return 0;
}

/* What the launch call g tells of activity a: when, from which process, whether a graph
 * replayed it, and its geometry when its own event lacks one. */
static void take_launch(pf_trace *t, pf_activity *a, const pf_launch_rec *g)
{
    a->launch_ts_ns = g->ts_ns;
    a->launch_dur_ns = g->dur_ns;
    a->launch_process = g->process;
    a->graph = g->kind == PF_LAUNCH_GRAPH;
    if (!a->geometry && !a->graph)
        a->geometry = g->geometry;
    t->n_launched++;
}

int pf_trace_link_launches(pf_trace *t, pf_segvec *const *vecs, size_t n_vecs, int keep, pf_error *err)
{
    assert(t != NULL && err != NULL);
    assert(vecs != NULL || n_vecs == 0);
    size_t n, ambiguous_acts = 0;
    id_map m = {0};
    pf_launch_rec *l = flatten_launches(vecs, n_vecs, &n);
    unsigned char *ambiguous = l ? calloc(n ? n : 1, 1) : NULL;
    unsigned char *ran = l ? calloc(n ? n : 1, 1) : NULL;
    int rc = ambiguous && ran ? map_launches(l, n, &m, ambiguous) : -1;
    for (size_t i = 0; rc == 0 && i < t->n_acts; i++) {
        pf_activity *a = &t->acts[i];
        int32_t g = a->correlation >= 0 ? id_map_get(&m, a->correlation) : -1;
        a->launch_ts_ns = PF_NO_LAUNCH;
        a->launch_dur_ns = 0;
        a->launch_process = 0;
        if (g >= 0 && ambiguous[g])
            ambiguous_acts++;
        if (g >= 0)
            ran[g] = 1;
        if (g < 0 || ambiguous[g])
            continue;
        take_launch(t, a, &l[g]);
    }
    id_map_free(&m);
    if (rc == 0 && keep)
        rc = keep_launches(t, l, n, ran);
    free(ambiguous);
    free(ran);
    free(l);
    if (rc == 0 && ambiguous_acts)
        rc = pf_trace_note(t, "%zu GPU activities share their correlation id with launch calls of several processes: "
                              "they belong to no profiler step", ambiguous_acts);
    if (rc == 0)
        rc = note_fallback(t);
    return rc ? pf_fail(err, "%s: out of memory", t->path) : 0;
}
