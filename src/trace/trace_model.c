/* trace_model.c - the model's assembly: notes and warnings, freeing, External-id links from kernels to ops, nested ops, the parse of linked ops' args, and launch calls by correlation id; the maps, lookups and nests of large traces on several threads. */
#include <assert.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/mem.h"
#include "profana/op_family.h"
#include "profana/parallel.h"
#include "trace_idmap.h"
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
    free(t->marks);
    free(t->gpu_steps);
    free(t->cpu_steps);
    free(t->devices);
    pf_strtab_free(t->strings);
    free(t);
}

/* ---- External id links ---- */

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
    size_t n_vecs, n;
} op_recs;

/* The sequence split over threads by vectors (each chunk's records stay on one thread):
 * start[v] is the sequence index of vector v's first record. */
typedef struct ids_job {
    const op_recs *r;
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

/* Threads for n items of work over `parts` parts: one for a small job (under 64 Ki items,
 * where starting threads costs more than it saves), else up to one a part. */
static size_t workers_for(size_t n, size_t parts, size_t jobs)
{
    return n < 65536 ? 1 : jobs < parts ? jobs : parts ? parts : 1;
}

/* Maps each record's External id to its index in the sequence (the first of a repeated id
 * wins; the repeats are counted), on up to `jobs` threads; the map is the same for every
 * number of threads. */
static int map_ids(pf_trace *t, const op_recs *r, pf_idmap *m, size_t jobs)
{
    assert(t != NULL && r != NULL && m != NULL && jobs >= 1);
    size_t w = workers_for(r->n, r->n_vecs, jobs);
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
        a->op = j->ext[i] >= 0 ? pf_idmap_get(j->m, j->ext[i]) : -1;
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
        l->op = l->kernel && l->ext_id >= 0 ? pf_idmap_get(m, l->ext_id) : -1;
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

/* Record rec's host interval in *span; 0 when its times could not be read. */
static int rec_span(const pf_op_rec *rec, pf_cpu_event *span)
{
    *span = (pf_cpu_event){rec->name, rec->thread, rec->ts_ns, rec->dur_ns};
    return rec->ts_ns != PF_NO_SPAN;
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

/* pf_op_family_reads_nested by interned name: a few hundred names, hundreds of thousands of
 * records. A slot holds one name (pointer) and its answer; -1: empty. */
typedef struct nested_names {
    const char *name[256];
    signed char reads[256];
} nested_names;

static int reads_nested(nested_names *nn, const char *name)
{
    size_t h = (size_t)(((uint64_t)(uintptr_t)name * UINT64_C(0x9E3779B97F4A7C15)) >> 56);
    if (nn->reads[h] < 0 || nn->name[h] != name) {
        nn->name[h] = name;
        nn->reads[h] = (signed char)(pf_op_family_reads_nested(name) != 0);
    }
    return nn->reads[h];
}

/* Record g at cursor (v, i), whose span is p: its children. */
static int add_nest(nests *ns, nested_names *nn, const op_recs *r, const pf_cpu_event *p,
                    int32_t g, size_t v, size_t i)
{
    assert(ns != NULL && nn != NULL && r != NULL && p != NULL);
    if (pf_grow((void **)&ns->list, &ns->cap, ns->n + 1, sizeof *ns->list, 16))
        return -1;
    nest *n = &ns->list[ns->n++];
    *n = (nest){g, ns->n_recs, 0};
    int64_t end = p->ts_ns + p->dur_ns;
    const pf_op_rec *rec;
    for (int k = 0; k < NEST_SCAN && n->n < NEST_MAX && (rec = rec_after(r, &v, &i)); k++) {
        pf_cpu_event span;
        const pf_cpu_event *c = &span;
        if (!rec_span(rec, &span) || c->thread != p->thread)
            continue;
        if (c->ts_ns > end)
            break;
        /* the next op on this thread that reads its own nested ops owns what follows, inside
         * this span or not: so nests do not overlap, and what they keep in all is at most one
         * entry per record of the trace (ops that each began inside the previous and ended
         * after it kept up to NEST_MAX entries each, the same children again and again) */
        if (reads_nested(nn, rec->name))
            break;
        if (c->ts_ns < p->ts_ns || c->ts_ns + c->dur_ns > end)
            continue;
        if (push_child(ns, rec))
            return -1;
        n->n++;
    }
    return 0;
}

/* find_nests over a range of vectors: its own nests (children indexed within them). */
typedef struct nests_job {
    const op_recs *r;
    const unsigned char *keep;
    const size_t *start;       /* per vector: its first record's index in the sequence */
    nests *parts;              /* per range */
    int *failed;               /* per range: out of memory */
} nests_job;

static void nests_range(void *ctx, size_t v0, size_t v1, size_t k)
{
    const nests_job *j = ctx;
    nested_names nn;
    memset(nn.reads, 0xff, sizeof nn.reads);
    for (size_t v = v0; v < v1 && !j->failed[k]; v++)
        for (size_t i = 0; i < j->r->vecs[v]->n && !j->failed[k]; i++) {
            const pf_op_rec *rec = pf_segvec_at(j->r->vecs[v], i);
            int32_t g = (int32_t)(j->start[v] + i);
            if (!j->keep[g] || !reads_nested(&nn, rec->name))
                continue;
            pf_cpu_event p;
            j->failed[k] = rec_span(rec, &p) && add_nest(&j->parts[k], &nn, j->r, &p, g, v, i);
        }
}

/* The ranges' nests, in order, into ns (the parts are freed). */
static int join_nests(nests *ns, nests *parts, size_t w)
{
    size_t n = 0, n_recs = 0;
    for (size_t k = 0; k < w; k++) {
        n += parts[k].n;
        n_recs += parts[k].n_recs;
    }
    if (w == 1 || n == 0) { /* one part, or nothing: taken as it is */
        *ns = parts[0];
        for (size_t k = 1; k < w; k++)
            nests_free(&parts[k]);
        return 0;
    }
    ns->list = malloc(n * sizeof *ns->list);
    ns->recs = malloc((n_recs ? n_recs : 1) * sizeof *ns->recs);
    int rc = ns->list && ns->recs ? 0 : -1;
    for (size_t k = 0; k < w; k++) {
        for (size_t q = 0; rc == 0 && q < parts[k].n; q++) {
            ns->list[ns->n] = parts[k].list[q];
            ns->list[ns->n++].first += ns->n_recs;
        }
        if (rc == 0 && parts[k].n_recs)
            memcpy(ns->recs + ns->n_recs, parts[k].recs, parts[k].n_recs * sizeof *ns->recs);
        ns->n_recs += rc == 0 ? parts[k].n_recs : 0;
        nests_free(&parts[k]);
    }
    ns->cap = ns->n;
    ns->cap_recs = ns->n_recs;
    return rc;
}

/* The children of every kept record whose op reads them, on up to `jobs` threads (each
 * chunk's records on one; the look-ahead reads on into the next chunks): the same nests, in
 * file order, for every number of threads. */
static int find_nests(const op_recs *r, const unsigned char *keep, nests *ns, size_t jobs)
{
    size_t w = workers_for(r->n, r->n_vecs, jobs);
    size_t *start = malloc((r->n_vecs + 1) * sizeof *start);
    nests *parts = calloc(w, sizeof *parts);
    int *failed = calloc(w, sizeof *failed);
    int rc = start && parts && failed ? 0 : -1;
    if (rc == 0) {
        start[0] = 0;
        for (size_t v = 0; v < r->n_vecs; v++)
            start[v + 1] = start[v] + r->vecs[v]->n;
        nests_job j = {r, keep, start, parts, failed};
        pf_parallel_ranges(r->n_vecs, w, nests_range, &j);
        for (size_t k = 0; k < w; k++)
            rc |= failed[k] ? -1 : 0;
    }
    if (rc == 0)
        rc = join_nests(ns, parts, w);
    else
        for (size_t k = 0; parts && k < w; k++)
            nests_free(&parts[k]);
    free(start);
    free(parts);
    free(failed);
    return rc;
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

static int link_records(pf_trace *t, const int64_t *act_ext, const op_recs *r, int all_ops, size_t jobs)
{
    pf_idmap m = {0};
    nests ns = {0};
    unsigned char *keep = malloc(r->n ? r->n : 1);
    int32_t *renum = malloc((r->n ? r->n : 1) * sizeof *renum);
    int rc = keep && renum ? map_ids(t, r, &m, jobs) : -1;
    if (rc == 0) {
        memset(keep, all_ops ? 1 : 0, r->n);
        rc = link_acts(t, act_ext, &m, keep, jobs);
    }
    if (rc == 0)
        rc = find_nests(r, keep, &ns, jobs);
    pf_idmap_free(&m);
    if (rc == 0)
        rc = build_ops(t, r, keep, renum, jobs);
    free(keep);
    if (rc == 0)
        rc = resolve_ops(t, renum, &ns);
    nests_free(&ns);
    free(renum);
    return rc;
}

int pf_trace_link(pf_trace *t, const int64_t *act_ext, pf_segvec *const *vecs, size_t n_vecs, int all_ops, size_t jobs,
                  pf_error *err)
{
    assert(t != NULL && err != NULL);
    assert(act_ext != NULL || t->n_acts == 0);
    assert(vecs != NULL || n_vecs == 0);
    op_recs r = {vecs, n_vecs, 0};
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

/* ---- launch calls ---- */

/* The launch records of every chunk in one array, in file order, and what links them to
 * the activities: the work of each step spread over up to `jobs` threads. */
typedef struct launches_job {
    pf_segvec *const *vecs;
    const size_t *at;          /* per vector: where its records go in l */
    pf_launch_rec *l;
    size_t n;
    pf_idmap m;
    unsigned char *ambiguous, *ran;
    pf_trace *t;
    int64_t *lo, *hi;          /* per range: the least and greatest correlation id */
    size_t *launched, *ambiguous_acts; /* per range of activities */
} launches_job;

static void drain_range(void *ctx, size_t v0, size_t v1, size_t k)
{
    const launches_job *j = ctx;
    (void)k;
    for (size_t v = v0; v < v1; v++)
        pf_segvec_drain(j->vecs[v], j->l + j->at[v]);
}

/* The records in one array (the vectors emptied); NULL when memory runs out. */
static pf_launch_rec *flatten_launches(launches_job *j, size_t n_vecs, size_t jobs)
{
    size_t *at = malloc((n_vecs + 1) * sizeof *at);
    if (at)
        at[0] = 0;
    for (size_t v = 0; at && v < n_vecs; v++)
        at[v + 1] = at[v] + j->vecs[v]->n;
    j->n = at ? at[n_vecs] : 0;
    j->l = at ? pf_model_alloc((j->n ? j->n : 1) * sizeof *j->l, 0) : NULL;
    j->at = at;
    if (j->l)
        pf_parallel_ranges(n_vecs, pf_segvec_drain_threads(j->n * sizeof *j->l, n_vecs, jobs), drain_range, j);
    for (size_t v = 0; v < n_vecs; v++)
        pf_segvec_free(j->vecs[v]);
    free(at);
    j->at = NULL;
    return j->l;
}

static void corr_bounds(void *ctx, size_t lo, size_t hi, size_t k)
{
    launches_job *j = ctx;
    int64_t a = INT64_MAX, b = INT64_MIN;
    for (size_t i = lo; i < hi; i++) {
        a = j->l[i].correlation < a ? j->l[i].correlation : a;
        b = j->l[i].correlation > b ? j->l[i].correlation : b;
    }
    j->lo[k] = a;
    j->hi[k] = b;
}

static void corr_mark(void *ctx, size_t lo, size_t hi, size_t k)
{
    launches_job *j = ctx;
    (void)k;
    for (size_t i = lo; i < hi; i++)
        pf_idmap_mark(&j->m, j->l[i].correlation);
}

/* How far ahead a pass over ids asks for their slots of a hashed map. */
enum { PREFETCH_AHEAD = 16 };

static void corr_fill(void *ctx, size_t lo, size_t hi, size_t k)
{
    launches_job *j = ctx;
    (void)k;
    for (size_t i = lo; i < hi; i++) {
        if (i + PREFETCH_AHEAD < hi)
            pf_idmap_prefetch(&j->m, j->l[i + PREFETCH_AHEAD].correlation);
        pf_idmap_put_min(&j->m, j->l[i].correlation, (int32_t)i);
    }
}

/* A record after the first of its id, of another process, makes the first ambiguous. */
static void corr_ambiguous(void *ctx, size_t lo, size_t hi, size_t k)
{
    launches_job *j = ctx;
    (void)k;
    for (size_t i = lo; i < hi; i++) {
        int32_t first = pf_idmap_get(&j->m, j->l[i].correlation);
        if ((size_t)first != i && j->l[first].process != j->l[i].process)
            __atomic_store_n(&j->ambiguous[first], 1, __ATOMIC_RELAXED); /* every writer writes 1 */
    }
}

/* Correlation id -> index of the first record with it. A later record of another process
 * with the same id (ranks of a combined trace number their calls alike) makes the first
 * ambiguous (ambiguous[first] = 1): no activity can tell which call launched it. */
static int map_launches(launches_job *j, size_t jobs)
{
    size_t w = workers_for(j->n, j->n, jobs);
    j->lo = malloc(w * sizeof *j->lo);
    j->hi = malloc(w * sizeof *j->hi);
    if (!j->lo || !j->hi || j->n > INT32_MAX)
        return -1;
    pf_parallel_ranges(j->n, w, corr_bounds, j);
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t k = 0; k < w; k++) {
        lo = j->lo[k] < lo ? j->lo[k] : lo;
        hi = j->hi[k] > hi ? j->hi[k] : hi;
    }
    if (pf_idmap_init(&j->m, lo, hi, j->n))
        return -1;
    if (pf_idmap_marking(&j->m)) {
        pf_parallel_ranges(j->n, w, corr_mark, j);
        if (pf_idmap_ready(&j->m))
            return -1;
    }
    pf_parallel_ranges(j->n, w, corr_fill, j);
    if (pf_idmap_count(&j->m, w) < j->n) /* some id repeats: a pass of lookups (a slot scan is cheaper) */
        pf_parallel_ranges(j->n, w, corr_ambiguous, j);
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
/* The names beside the records in one array, in file order (the vectors emptied); NULL when
 * memory runs out. */
static pf_launch_name *flatten_names(pf_segvec *const *names, size_t n_vecs, size_t n)
{
    pf_launch_name *all = malloc((n ? n : 1) * sizeof *all);
    size_t at = 0;
    for (size_t v = 0; v < n_vecs; v++) {
        size_t k = names[v]->n; /* draining empties the vector */
        if (all)
            pf_segvec_drain(names[v], all + at);
        at += k;
        pf_segvec_free(names[v]);
    }
    assert(!all || at == n);
    return all;
}

static int keep_launches(pf_trace *t, const pf_launch_rec *l, pf_segvec *const *names, size_t n_vecs, size_t n,
                         const unsigned char *ran)
{
    pf_launch_name *nm = flatten_names(names, n_vecs, n);
    if (!nm || !(t->launches = malloc((n ? n : 1) * sizeof *t->launches))) {
        free(nm);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        t->launches[i] = (pf_launch){nm[i].kernel, (pf_launch_kind)l[i].kind, -1, ran[i], nm[i].ext_id, l[i].correlation,
                                     l[i].ts_ns, l[i].process, l[i].geometry};
    t->n_launches = n;
    free(nm);
    return 0;
}

/* Each activity of the range gets what its launch call tells: when, from which process,
 * whether a graph replayed it, and its geometry when its own event lacks one. */
static void acts_launch_range(void *ctx, size_t lo, size_t hi, size_t k)
{
    launches_job *j = ctx;
    size_t launched = 0, ambiguous_acts = 0;
    for (size_t i = lo; i < hi; i++) {
        if (i + PREFETCH_AHEAD < hi)
            pf_idmap_prefetch(&j->m, j->t->acts[i + PREFETCH_AHEAD].correlation);
        pf_activity *a = &j->t->acts[i];
        int32_t g = a->correlation >= 0 ? pf_idmap_get(&j->m, a->correlation) : -1;
        a->launch_ts_ns = PF_NO_LAUNCH;
        a->launch_dur_ns = 0;
        a->launch_process = 0;
        a->launch_thread = 0;
        if (g < 0)
            continue;
        __atomic_store_n(&j->ran[g], 1, __ATOMIC_RELAXED); /* every writer writes 1 */
        if (j->ambiguous[g]) {
            ambiguous_acts++;
            continue;
        }
        const pf_launch_rec *c = &j->l[g];
        a->launch_ts_ns = c->ts_ns;
        a->launch_dur_ns = c->dur_ns;
        a->launch_process = c->process;
        a->launch_thread = c->thread;
        a->graph = c->kind == PF_LAUNCH_GRAPH;
        if (!a->geometry && !a->graph)
            a->geometry = c->geometry;
        launched++;
    }
    j->launched[k] = launched;
    j->ambiguous_acts[k] = ambiguous_acts;
}

int pf_trace_link_launches(pf_trace *t, pf_segvec *const *vecs, pf_segvec *const *names, size_t n_vecs, int keep,
                           size_t jobs, pf_error *err)
{
    assert(t != NULL && err != NULL);
    assert((vecs != NULL && names != NULL) || n_vecs == 0);
    jobs = jobs ? jobs : 1;
    size_t ambiguous_acts = 0, w = workers_for(t->n_acts, t->n_acts, jobs);
    launches_job j = {.vecs = vecs, .t = t};
    int rc = flatten_launches(&j, n_vecs, jobs) ? 0 : -1;
    j.ambiguous = rc == 0 ? calloc(j.n ? j.n : 1, 1) : NULL;
    j.ran = rc == 0 ? calloc(j.n ? j.n : 1, 1) : NULL;
    j.launched = malloc(w * sizeof *j.launched);
    j.ambiguous_acts = malloc(w * sizeof *j.ambiguous_acts);
    if (rc == 0)
        rc = j.ambiguous && j.ran && j.launched && j.ambiguous_acts ? map_launches(&j, jobs) : -1;
    if (rc == 0) {
        pf_parallel_ranges(t->n_acts, w, acts_launch_range, &j);
        for (size_t k = 0; k < w; k++) {
            t->n_launched += j.launched[k];
            ambiguous_acts += j.ambiguous_acts[k];
        }
    }
    pf_idmap_free(&j.m);
    if (rc == 0 && keep)
        rc = keep_launches(t, j.l, names, n_vecs, j.n, j.ran);
    for (size_t v = 0; v < n_vecs; v++)
        pf_segvec_free(names[v]);
    free(j.ambiguous);
    free(j.ran);
    free(j.l);
    free(j.lo);
    free(j.hi);
    free(j.launched);
    free(j.ambiguous_acts);
    if (rc == 0 && ambiguous_acts)
        rc = pf_trace_note(t, "%zu GPU activities share their correlation id with launch calls of several processes: "
                              "they belong to no profiler step", ambiguous_acts);
    if (rc == 0)
        rc = note_fallback(t);
    return rc ? pf_fail(err, "%s: out of memory", t->path) : 0;
}
