/* trace_model.c - the model after scanning: devices, External-id links, notes, and freeing. */
#include <assert.h>
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/i64map.h"
#include "profana/jscan.h"
#include "profana/mem.h"
#include "profana/op_family.h"
#include "trace_internal.h"

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
    va_list ap;
    va_start(ap, fmt);
    int rc = add_line(&t->notes, &t->n_notes, fmt, ap);
    va_end(ap);
    return rc;
}

int pf_trace_warn(pf_trace *t, const char *fmt, ...)
{
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
    free(t->cpu);
    t->cpu = NULL;
    t->n_cpu = 0;
}

/* t->devices is sorted by id once built (pf_trace_devices_from_props): a binary search, so
 * that a trace of many devices costs no time per device per activity. */
const pf_device *pf_trace_device(const pf_trace *t, int id)
{
    int lo = 0, hi = t->n_devices;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (t->devices[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->n_devices && t->devices[lo].id == id ? &t->devices[lo] : NULL;
}

/* ---- devices ---- */

/* Casting a double outside the int64 range is undefined: such values count as absent. */
static int64_t json_int_field(const cJSON *o, const char *key, int64_t dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= -9.0e18 && v->valuedouble <= 9.0e18))
        return dflt;
    return (int64_t)v->valuedouble;
}

static pf_device *device_add(pf_trace *t, int id)
{
    /* Room doubles when the count reaches a power of two (the capacity is implied by the
     * count): 65,536 devices are 17 reallocations, not 65,536 copies of a growing array. */
    size_t n = (size_t)t->n_devices;
    if ((n & (n - 1)) == 0) {
        pf_device *grown = realloc(t->devices, (n ? 2 * n : 1) * sizeof *grown);
        if (!grown)
            return NULL;
        t->devices = grown;
    }
    pf_device *d = &t->devices[t->n_devices++];
    memset(d, 0, sizeof *d);
    d->id = id;
    d->name = "";
    return d;
}

const char *pf_trace_intern_text(pf_trace *t, const char *s)
{
    char *clean = pf_json_text_dup(s);
    const char *r = clean ? pf_strtab_intern(t->strings, clean, strlen(clean)) : NULL;
    free(clean);
    return r;
}

/* While t->devices is built (unsorted), `seen` (PF_DEVICE_IDS bytes) says which ids it holds. */
#define PF_DEVICE_IDS 65536

static int device_from_json(pf_trace *t, const cJSON *o, unsigned char *seen)
{
    int64_t id = json_int_field(o, "id", -1);
    if (!cJSON_IsObject(o) || id < 0 || id >= PF_DEVICE_IDS || seen[id])
        return 0; /* an entry we cannot key is ignored; its events still get a device */
    seen[id] = 1;
    pf_device *d = device_add(t, (int)id);
    if (!d)
        return -1;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name");
    if (cJSON_IsString(name))
        d->name = pf_trace_intern_text(t, name->valuestring);
    if (!d->name)
        return -1;
    d->num_sms = (int)json_int_field(o, "numSms", 0);
    d->total_mem = json_int_field(o, "totalGlobalMem", 0);
    d->cc_major = (int)json_int_field(o, "computeMajor", 0);
    d->cc_minor = (int)json_int_field(o, "computeMinor", 0);
    d->warp_size = (int)json_int_field(o, "warpSize", 0);
    d->declared = 1;
    return 0;
}

/* The model every declared device shares, or NULL when they differ or none is declared. */
static const pf_device *single_declared_model(const pf_trace *t)
{
    const pf_device *first = NULL;
    for (int i = 0; i < t->n_devices; i++) {
        const pf_device *d = &t->devices[i];
        if (!d->declared)
            continue;
        if (first && (strcmp(first->name, d->name) != 0 || first->num_sms != d->num_sms))
            return NULL;
        if (!first)
            first = d;
    }
    return first;
}

/* ROCm traces may declare device 0 while the events run on device 2: an undeclared device
 * takes the model when only one model is declared. */
/* One note per undeclared device up to this many, then one line for the rest. */
#define UNDECLARED_NOTED 8

static int add_undeclared_devices(pf_trace *t, unsigned char *seen)
{
    const pf_device *model = single_declared_model(t);
    pf_device copy = model ? *model : (pf_device){0}; /* device_add may move the model */
    size_t n = 0;
    for (size_t i = 0; i < t->n_acts; i++) {
        int id = t->acts[i].device;
        if (id < 0 || id >= PF_DEVICE_IDS || seen[id])
            continue;
        seen[id] = 1;
        pf_device *d = device_add(t, id);
        if (!d)
            return -1;
        if (model) {
            *d = copy;
            d->id = id;
            d->declared = 0;
            d->inherited = 1;
        }
        if (n++ >= UNDECLARED_NOTED)
            continue;
        if (model ? pf_trace_note(t, "device %d is not in deviceProperties; it takes the one model declared there (%s)",
                                  id, copy.name)
                  : pf_trace_note(t, "device %d is not in deviceProperties: its model is unknown", id))
            return -1;
    }
    if (n > UNDECLARED_NOTED && pf_trace_note(t, "%zu more devices are not in deviceProperties%s%s%s", n - UNDECLARED_NOTED,
                                              model ? "; they take the one model declared there (" : ": their model is unknown",
                                              model ? copy.name : "", model ? ")" : ""))
        return -1;
    return 0;
}

static int cmp_device(const void *a, const void *b)
{
    const pf_device *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

int pf_trace_devices_from_props(pf_trace *t, char *text, size_t len, pf_error *err)
{
    unsigned char *seen = calloc(PF_DEVICE_IDS, 1);
    int rc = seen ? 0 : -1;
    if (rc == 0 && len) {
        pf_json_fix_surrogates(text, len); /* one lone \ud800 would cost cJSON the whole list */
        cJSON *arr = cJSON_ParseWithLength(text, len);
        const cJSON *o;
        if (cJSON_IsArray(arr))
            cJSON_ArrayForEach(o, arr) if (!rc) rc = device_from_json(t, o, seen);
        cJSON_Delete(arr);
    }
    if (rc == 0)
        rc = add_undeclared_devices(t, seen);
    free(seen);
    if (rc)
        return pf_fail(err, "%s: out of memory", t->path);
    if (t->n_devices > 1)
        qsort(t->devices, (size_t)t->n_devices, sizeof *t->devices, cmp_device);
    return 0;
}

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

/* Maps each record's External id to its index in the sequence (the first of a repeated id
 * wins; the repeats are counted). */
static int map_ids(pf_trace *t, const op_recs *r, id_map *m)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t v = 0; v < r->n_vecs; v++)
        for (size_t i = 0; i < r->vecs[v]->n; i++) {
            const pf_op_rec *rec = pf_segvec_at(r->vecs[v], i);
            lo = rec->ext_id < lo ? rec->ext_id : lo;
            hi = rec->ext_id > hi ? rec->ext_id : hi;
        }
    int dense = r->n && hi < INT64_MAX ? id_map_init_dense(m, lo, hi + 1, r->n) : 0;
    if (r->n > INT32_MAX || dense < 0 || (dense == 0 && pf_i64map_reserve(&m->hashed, r->n)))
        return -1;
    int32_t g = 0;
    for (size_t v = 0; v < r->n_vecs; v++)
        for (size_t i = 0; i < r->vecs[v]->n; i++, g++) {
            const pf_op_rec *rec = pf_segvec_at(r->vecs[v], i);
            t->n_duplicate_ids += (size_t)id_map_put(m, rec->ext_id, g);
        }
    return 0;
}

/* t->ops from the records that `keep` marks, in order; renum[g] becomes record g's op index.
 * Frees the records block by block. */
static int build_ops(pf_trace *t, const op_recs *r, const unsigned char *keep, int32_t *renum)
{
    size_t n = 0, g = 0;
    for (size_t i = 0; i < r->n; i++)
        n += keep[i];
    if (!(t->ops = pf_model_alloc((n ? n : 1) * sizeof *t->ops)))
        return -1;
    for (size_t v = 0; v < r->n_vecs; v++) {
        for (size_t i = 0; i < r->vecs[v]->n; i++, g++) {
            renum[g] = -1;
            if (!keep[g])
                continue;
            const pf_op_rec *rec = pf_segvec_at(r->vecs[v], i);
            pf_cpu_op *op = &t->ops[t->n_ops];
            memset(op, 0, sizeof *op);
            op->name = rec->name;
            op->ext_id = rec->ext_id;
            op->src_off = rec->src_off;
            op->args = rec->args;
            op->kernel_flop = op->kernel_num_gb = -1;
            op->call.name = rec->key;
            renum[g] = (int32_t)t->n_ops++;
        }
        pf_segvec_free(r->vecs[v]);
    }
    return 0;
}

/* Links each activity to the first op of its External id (a->op holds the record's index
 * until build_ops numbers the kept ones) and marks the ops to keep: the linked ones, or all. */
static void link_acts(pf_trace *t, const id_map *m, unsigned char *keep)
{
    for (size_t i = 0; i < t->n_acts; i++) {
        pf_activity *a = &t->acts[i];
        a->op = a->ext_id >= 0 ? id_map_get(m, a->ext_id) : -1;
        if (a->op < 0)
            t->n_unlinked++;
        else
            keep[a->op] = 1;
    }
    /* a capture's kernel launches: their ops are what a replay's kernels take */
    for (size_t i = 0; i < t->n_launches; i++) {
        pf_launch *l = &t->launches[i];
        l->op = l->kernel && l->ext_id >= 0 ? id_map_get(m, l->ext_id) : -1;
        if (l->op >= 0)
            keep[l->op] = 1;
    }
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

static int link_records(pf_trace *t, const op_recs *r, int all_ops)
{
    id_map m = {0};
    nests ns = {0};
    unsigned char *keep = malloc(r->n ? r->n : 1);
    int32_t *renum = malloc((r->n ? r->n : 1) * sizeof *renum);
    int rc = keep && renum ? map_ids(t, r, &m) : -1;
    if (rc == 0) {
        memset(keep, all_ops ? 1 : 0, r->n);
        link_acts(t, &m, keep);
        rc = find_nests(t, r, keep, &ns);
    }
    id_map_free(&m);
    if (rc == 0)
        rc = build_ops(t, r, keep, renum);
    free(keep);
    if (rc == 0)
        rc = resolve_ops(t, renum, &ns);
    nests_free(&ns);
    free(renum);
    return rc;
}

int pf_trace_link(pf_trace *t, pf_segvec *const *vecs, const size_t *cpu_base, size_t n_vecs, int all_ops,
                  pf_error *err)
{
    op_recs r = {vecs, cpu_base, n_vecs, 0};
    for (size_t v = 0; v < n_vecs; v++)
        r.n += vecs[v]->n;
    int rc = link_records(t, &r, all_ops);
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
