/* modules.c - the module view (--group module): each GPU activity to the nn.Module call that launched it, or through its backward op's sequence number to the module whose forward made that autograd node; rows per path and per class. */
#include "profana/modules.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "profana/i64map.h"
#include "profana/ptrmap.h"
#include "nest.h"

/* Whether mark m is one of the view's ranges: a module call, or a user annotation. */
static int is_range(const pf_host_mark *m, int annotations)
{
    return annotations ? m->kind == PF_MARK_ANNOTATION && m->name
                       : m->kind == PF_MARK_PYTHON && pf_nest_is_module_call(m->name);
}

/* ---- module paths and classes ---- */

typedef struct path_info {
    const char *path, *name, *cls;
    int depth;
    int32_t parent;            /* path id, -1 none */
    int32_t cls_id;
    int64_t calls;
} path_info;

typedef struct builder {
    const pf_analysis *an;
    const pf_trace *t;
    pf_module_view *v;
    pf_nest_span *mods;           /* module calls; tag: path id */
    size_t n_mods;
    pf_nest_span *bwd;            /* backward ops; tag: index into t->autograd */
    size_t n_bwd;
    pf_i64map fwd_of_seq;      /* sequence number -> index into t->autograd of its first forward op */
    path_info *paths;
    size_t n_paths;
    pf_ptrmap path_ids, cls_ids;
    const char **cls_names;
    size_t n_cls;
    int32_t **row_of;          /* per device, per path id: its row (-1 none yet) */
    int32_t **cls_row;         /* per device, per class id */
    pf_module_row **rows, **crows; /* per device, growing */
    size_t *n_rows, *n_crows;
} builder;

/* "Qwen2DecoderLayer" of "Qwen2DecoderLayer_12": the name without its trailing _N. */
static size_t class_len(const char *name)
{
    size_t n = strlen(name), k = n;
    while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9')
        k--;
    return k > 0 && k < n && name[k - 1] == '_' ? k - 1 : n;
}

/* Whether a call starting at ts counts under --step: inside a selected ProfilerStep window
 * (CPU side; with GPU-side steps, and without --step, every call counts). */
static int call_selected(const pf_analysis *an, int64_t ts)
{
    if (an->opts.step == PF_STEP_EVERY || an->steps_gpu_side)
        return 1;
    for (size_t k = 0; k < an->n_steps; k++) {
        const pf_step_report *s = &an->steps[k];
        if ((an->opts.step == PF_STEP_ALL || s->number == an->opts.step) && s->ts_ns <= ts && ts <= s->ts_ns + s->dur_ns)
            return 1;
    }
    return 0;
}

static int add_path(builder *b, size_t i)
{
    pf_nest_span *s = &b->mods[i];
    const char *name = b->t->marks[s->tag].name + (b->v->annotations ? 0 : sizeof PF_NEST_MODULE_PREFIX - 1);
    int32_t up_id = s->parent >= 0 ? b->mods[s->parent].tag : -1;
    const path_info *up = up_id >= 0 ? &b->paths[up_id] : NULL;
    int up_depth = up ? up->depth : -1;
    size_t nl = strlen(name), ul = up ? strlen(up->path) : 0;
    char *buf = malloc(ul + nl + 2);
    if (!buf)
        return -1;
    if (up) {
        memcpy(buf, up->path, ul);
        buf[ul++] = '/';
    }
    memcpy(buf + ul, name, nl + 1);
    const char *path = pf_strtab_intern(b->v->paths, buf, ul + nl);
    free(buf);
    if (!path)
        return -1;
    int added;
    int64_t id = pf_ptrmap_find_or_add(&b->path_ids, path, b->n_paths, &added);
    if (id < 0 || id >= INT32_MAX)
        return -1;
    if (added) {
        path_info *p = realloc(b->paths, (b->n_paths + 1) * sizeof *p);
        if (!p)
            return -1;
        b->paths = p;
        const char *cls = pf_strtab_intern(b->v->paths, name, b->v->annotations ? nl : class_len(name));
        int cadded;
        int64_t cid = cls ? pf_ptrmap_find_or_add(&b->cls_ids, cls, b->n_cls, &cadded) : -1;
        if (cid < 0 || cid >= INT32_MAX)
            return -1;
        if (cadded) {
            const char **cn = realloc(b->cls_names, (b->n_cls + 1) * sizeof *cn);
            if (!cn)
                return -1;
            b->cls_names = cn;
            cn[b->n_cls++] = cls;
        }
        p[b->n_paths++] = (path_info){path, path + ul, cls, up_depth + 1, up_id, (int32_t)cid, 0};
    }
    b->paths[id].calls += call_selected(b->an, s->ts);
    s->tag = (int32_t)id;
    return 0;
}

/* The module calls of the trace (Python events "nn.Module: ...") or its annotations, nested,
 * with their paths. */
static int collect_modules(builder *b)
{
    const pf_trace *t = b->t;
    size_t n = 0;
    for (size_t i = 0; i < t->n_marks; i++)
        n += is_range(&t->marks[i], b->v->annotations);
    if (n > INT32_MAX || !(b->mods = malloc((n ? n : 1) * sizeof *b->mods)))
        return -1;
    for (size_t i = 0; i < t->n_marks; i++) {
        const pf_host_mark *m = &t->marks[i];
        if (is_range(m, b->v->annotations))
            b->mods[b->n_mods++] = (pf_nest_span){m->thread, m->ts_ns, m->ts_ns + m->dur_ns, -1, (int32_t)i};
    }
    pf_nest_build(b->mods, b->n_mods);
    b->v->n_module_calls = (int64_t)b->n_mods;
    for (size_t i = 0; i < b->n_mods; i++) /* a parent sorts before its children */
        if (add_path(b, i))
            return -1;
    return 0;
}

/* The backward ops, nested per thread, and each sequence number's forward op. */
static int collect_autograd(builder *b)
{
    const pf_trace *t = b->t;
    if (t->n_autograd > INT32_MAX || !(b->bwd = malloc((t->n_autograd ? t->n_autograd : 1) * sizeof *b->bwd)))
        return -1;
    for (size_t i = 0; i < t->n_autograd; i++) {
        const pf_autograd_op *o = &t->autograd[i];
        if (o->backward) {
            b->bwd[b->n_bwd++] = (pf_nest_span){o->thread, o->ts_ns, o->ts_ns + o->dur_ns, -1, (int32_t)i};
            continue;
        }
        int added;
        if (pf_i64map_find_or_add(&b->fwd_of_seq, o->seq, (uint32_t)i, &added) < 0)
            return -1;
    }
    pf_nest_build(b->bwd, b->n_bwd);
    b->v->n_backward_ops = (int64_t)b->n_bwd;
    return 0;
}

/* ---- rows ---- */

static pf_module_row *row_for(builder *b, int d, int32_t path, int by_class)
{
    int32_t *slot = by_class ? &b->cls_row[d][path] : &b->row_of[d][path];
    pf_module_row **rows = by_class ? &b->crows[d] : &b->rows[d];
    size_t *n = by_class ? &b->n_crows[d] : &b->n_rows[d];
    if (*slot < 0) {
        pf_module_row *r = realloc(*rows, (*n + 1) * sizeof *r);
        if (!r)
            return NULL;
        *rows = r;
        memset(&r[*n], 0, sizeof r[*n]);
        const path_info *p = by_class ? NULL : &b->paths[path];
        r[*n].path = p ? p->path : b->cls_names[path];
        r[*n].name = p ? p->name : b->cls_names[path];
        r[*n].depth = p ? p->depth : 0;
        r[*n].parent = -1;
        pf_row_init(&r[*n].fig, r[*n].path);
        *slot = (int32_t)(*n)++;
    }
    return &(*rows)[*slot];
}

static void row_take(pf_module_row *r, const pf_analysis *an, size_t i, int d, int bwd, int self)
{
    const pf_activity *a = &an->trace->acts[i];
    int64_t *ns = bwd ? &r->bwd_ns : &r->fwd_ns;
    *ns += a->dur_ns;
    if (self)
        *(bwd ? &r->self_bwd_ns : &r->self_fwd_ns) += a->dur_ns;
    pf_row_add_activity(&r->fig, a, &an->work[i], an->devices[d].info, (pf_category)an->cats[i]);
}

/* Activity i of device d to path p and every path above it, and to their classes (each
 * class once however often it nests in itself). */
static int attribute(builder *b, size_t i, int d, int32_t p, int bwd)
{
    int32_t seen[64];
    int n_seen = 0;
    for (int32_t q = p; q >= 0; q = b->paths[q].parent) {
        pf_module_row *r = row_for(b, d, q, 0);
        if (!r)
            return -1;
        row_take(r, b->an, i, d, bwd, q == p);
        int32_t c = b->paths[q].cls_id, dup = 0;
        for (int k = 0; k < n_seen; k++)
            dup |= seen[k] == c;
        if (dup || n_seen == 64)
            continue;
        seen[n_seen++] = c;
        if (!(r = row_for(b, d, c, 1)))
            return -1;
        row_take(r, b->an, i, d, bwd, q == p);
    }
    return 0;
}

/* Whether backward ops run on thread (b->bwd is sorted by thread). */
static int backward_thread(const builder *b, uint64_t thread)
{
    size_t k = pf_nest_after(b->bwd, b->n_bwd, thread, INT64_MAX); /* past the thread's last */
    return k > 0 && b->bwd[k - 1].thread == thread;
}

/* Where activity i's time goes: its module path (forward or backward), else -1. */
static int32_t path_of(const builder *b, const pf_activity *a, int *bwd, int *in_backward)
{
    *bwd = *in_backward = 0;
    if (a->launch_ts_ns == PF_NO_LAUNCH || !a->launch_thread)
        return -1;
    int32_t k = pf_nest_find(b->mods, b->n_mods, a->launch_thread, a->launch_ts_ns);
    if (k >= 0)
        return b->mods[k].tag;
    int32_t o = pf_nest_find(b->bwd, b->n_bwd, a->launch_thread, a->launch_ts_ns);
    if (o < 0) { /* autograd's thread outside a node with a number (AccumulateGrad has none) */
        *in_backward = backward_thread(b, a->launch_thread);
        return -1;
    }
    *in_backward = 1;
    uint32_t f;
    if (!pf_i64map_get(&b->fwd_of_seq, b->t->autograd[b->bwd[o].tag].seq, &f))
        return -1;
    const pf_autograd_op *fw = &b->t->autograd[f];
    k = pf_nest_find(b->mods, b->n_mods, fw->thread, fw->ts_ns);
    *bwd = k >= 0;
    return k >= 0 ? b->mods[k].tag : -1;
}

static int device_index(const pf_analysis *an, int id)
{
    for (int d = 0; d < an->n_devices; d++)
        if (an->devices[d].device->id == id)
            return d;
    return -1;
}

static int attribute_all(builder *b)
{
    const pf_analysis *an = b->an;
    int last_id = 0, last_d = -1;
    for (size_t i = 0; i < b->t->n_acts; i++) {
        if (!pf_analysis_selected(an, i))
            continue;
        const pf_activity *a = &b->t->acts[i];
        if (last_d < 0 || a->device != last_id) {
            last_id = a->device;
            last_d = device_index(an, a->device);
        }
        if (last_d < 0)
            continue;
        pf_module_device *md = &b->v->devices[last_d];
        md->gpu_ns += a->dur_ns;
        int bwd, in_backward;
        int32_t p = path_of(b, a, &bwd, &in_backward);
        if (p < 0) {
            *(in_backward ? &md->bwd_unattributed_ns : &md->outside_ns) += a->dur_ns;
            continue;
        }
        *(bwd ? &md->bwd_ns : &md->fwd_ns) += a->dur_ns;
        if (attribute(b, i, last_d, p, bwd))
            return -1;
    }
    return 0;
}

static int64_t row_total(const pf_module_row *r)
{
    return r->fwd_ns + r->bwd_ns;
}

static int by_total(const void *x, const void *y)
{
    const pf_module_row *a = *(const pf_module_row *const *)x, *b = *(const pf_module_row *const *)y;
    int64_t ta = row_total(a), tb = row_total(b);
    if (ta != tb)
        return ta > tb ? -1 : 1;
    return strcmp(a->path, b->path);
}

static int by_total_rows(const void *x, const void *y)
{
    const pf_module_row *a = x, *b = y;
    return by_total(&a, &b);
}

/* The rows of device d in tree order: each parent, then its children by total time. */
static int tree_order(builder *b, int d)
{
    size_t n = b->n_rows[d], k1 = n ? n : 1;
    pf_module_row *src = b->rows[d];
    pf_module_row **ord = malloc(k1 * sizeof *ord);
    pf_module_row *out = malloc(k1 * sizeof *out);
    int32_t *stack = malloc(k1 * sizeof *stack), *first = malloc(k1 * sizeof *first), *next = malloc(k1 * sizeof *next);
    if (!ord || !out || !stack || !first || !next) {
        free(ord), free(out), free(stack), free(first), free(next);
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        ord[k] = &src[k];
        first[k] = -1;
    }
    qsort(ord, n, sizeof *ord, by_total);
    /* children lists, largest first: each row (smallest first) goes to the head of its parent's
     * list; every ancestor of an attributed path has a row */
    size_t top = 0, m = 0;
    for (size_t k = n; k-- > 0;) {
        int32_t r = (int32_t)(ord[k] - src), up = b->paths[src[r].fig.op].parent;
        if (up < 0) {
            stack[top++] = r; /* roots: the largest pops first */
            continue;
        }
        int32_t pr = b->row_of[d][up];
        assert(pr >= 0);
        next[r] = first[pr];
        first[pr] = r;
    }
    while (top > 0) {
        int32_t r = stack[--top];
        out[m] = src[r];
        int32_t at = (int32_t)m++;
        /* push the children in reverse, so that the largest pops first */
        size_t from = top;
        for (int32_t c = first[r]; c >= 0; c = next[c]) {
            src[c].parent = at;
            stack[top++] = c;
        }
        for (size_t lo = from, hi = top; hi > lo + 1; lo++, hi--) {
            int32_t t = stack[lo];
            stack[lo] = stack[hi - 1];
            stack[hi - 1] = t;
        }
    }
    assert(m == n);
    for (size_t k = 0; k < n; k++)
        out[k].fig.op = -1;
    free(ord), free(stack), free(first), free(next), free(src);
    b->rows[d] = out;
    return 0;
}

static int finish(builder *b)
{
    for (int d = 0; d < b->v->n_devices; d++) {
        /* each row remembers its path id in fig.op until the tree is ordered */
        for (size_t p = 0; p < b->n_paths; p++)
            if (b->row_of[d][p] >= 0) {
                pf_module_row *r = &b->rows[d][b->row_of[d][p]];
                r->fig.op = (int32_t)p;
                r->calls = b->paths[p].calls;
            }
        for (size_t c = 0; c < b->n_cls; c++)
            if (b->cls_row[d][c] >= 0)
                b->crows[d][b->cls_row[d][c]].calls = 0;
        for (size_t p = 0; p < b->n_paths; p++)
            if (b->cls_row[d][b->paths[p].cls_id] >= 0)
                b->crows[d][b->cls_row[d][b->paths[p].cls_id]].calls += b->paths[p].calls;
        if (tree_order(b, d))
            return -1;
        if (b->n_crows[d] > 1)
            qsort(b->crows[d], b->n_crows[d], sizeof *b->crows[d], by_total_rows);
        pf_module_device *md = &b->v->devices[d];
        md->rows = b->rows[d], md->n_rows = b->n_rows[d];
        md->classes = b->crows[d], md->n_classes = b->n_crows[d];
        b->rows[d] = b->crows[d] = NULL;
    }
    return 0;
}

static int builder_alloc(builder *b)
{
    int nd = b->v->n_devices;
    size_t np = b->n_paths ? b->n_paths : 1, nc = b->n_cls ? b->n_cls : 1, k = nd ? (size_t)nd : 1;
    if (!(b->row_of = calloc(k, sizeof *b->row_of)) || !(b->cls_row = calloc(k, sizeof *b->cls_row)) ||
        !(b->rows = calloc(k, sizeof *b->rows)) || !(b->crows = calloc(k, sizeof *b->crows)) ||
        !(b->n_rows = calloc(k, sizeof *b->n_rows)) || !(b->n_crows = calloc(k, sizeof *b->n_crows)))
        return -1;
    for (int d = 0; d < nd; d++) {
        if (!(b->row_of[d] = malloc(np * sizeof **b->row_of)) || !(b->cls_row[d] = malloc(nc * sizeof **b->cls_row)))
            return -1;
        memset(b->row_of[d], 0xff, np * sizeof **b->row_of); /* -1 */
        memset(b->cls_row[d], 0xff, nc * sizeof **b->cls_row);
    }
    return 0;
}

static void builder_free(builder *b)
{
    int nd = b->v ? b->v->n_devices : 0;
    for (int d = 0; d < nd; d++) {
        if (b->row_of)
            free(b->row_of[d]);
        if (b->cls_row)
            free(b->cls_row[d]);
        if (b->rows)
            free(b->rows[d]);
        if (b->crows)
            free(b->crows[d]);
    }
    free(b->row_of), free(b->cls_row), free(b->rows), free(b->crows), free(b->n_rows), free(b->n_crows);
    free(b->mods), free(b->bwd), free(b->paths), free(b->cls_names);
    pf_i64map_free(&b->fwd_of_seq);
    pf_ptrmap_free(&b->path_ids);
    pf_ptrmap_free(&b->cls_ids);
}

int pf_module_view_build(const pf_analysis *an, int annotations, pf_module_view **out, pf_error *err)
{
    assert(an && an->trace && out && err);
    *out = NULL;
    builder b = {.an = an, .t = an->trace};
    pf_module_view *v = calloc(1, sizeof *v);
    if (!v || !(v->paths = pf_strtab_new()) ||
        !(v->devices = calloc(an->n_devices ? (size_t)an->n_devices : 1, sizeof *v->devices))) {
        if (v)
            pf_strtab_free(v->paths);
        free(v);
        return pf_fail(err, "out of memory");
    }
    v->n_devices = an->n_devices;
    v->annotations = annotations;
    for (int d = 0; d < an->n_devices; d++)
        v->devices[d].report = &an->devices[d];
    b.v = v;
    int bad = collect_modules(&b) || collect_autograd(&b) || builder_alloc(&b) || attribute_all(&b) || finish(&b);
    builder_free(&b);
    if (bad) {
        pf_module_view_free(v);
        return pf_fail(err, "out of memory");
    }
    *out = v;
    return 0;
}

void pf_module_view_free(pf_module_view *v)
{
    if (!v)
        return;
    for (int d = 0; d < v->n_devices; d++) {
        free(v->devices[d].rows);
        free(v->devices[d].classes);
    }
    free(v->devices);
    pf_strtab_free(v->paths);
    free(v);
}
