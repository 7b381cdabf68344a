/* trace_graph.c - CUDA/HIP-graph replays: each replayed kernel takes the op that recorded it in the graph's capture trace. */
#include <assert.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "profana/regfile.h"
#include "profana/trace.h"
#include "trace_vec.h"

/* One captured graph: indexes into its trace's launches, in launch order. */
typedef struct graph {
    const pf_trace *cap;
    size_t ci;                 /* cap's index in the caps given */
    size_t *at;
    size_t n;
    uint64_t sig;              /* hash of its kernel names in order (sig_add) */
    uint64_t geo_sig;          /* hash of its names and geometries in order (geo_add) */
    int full;                  /* every launch has a geometry */
} graph;

/* The graphs sorted by sig, then full, then geo_sig: a replay is compared with the graphs of
 * its own signature only, not with every graph (N graphs x N replays was quadratic); and
 * within a signature that many graphs share (one kernel name, issue 48: 80k kernels 56.6 s), a
 * replay whose launches all have a geometry with the graphs of its own geometries only, plus
 * the graphs that lack some geometry (those match any). */
typedef struct graphs {
    graph *g;
    size_t n, cap;
} graphs;

/* FNV-1a over the names, each ended by a NUL so that ("ab", "c") and ("a", "bc") differ. */
static uint64_t sig_add(uint64_t h, const char *name)
{
    const unsigned char *p = (const unsigned char *)name;
    do {
        h = (h ^ *p) * 1099511628211u;
    } while (*p++);
    return h;
}

static const uint64_t SIG_SEED = 14695981039346656037u;

/* A geometry into a signature: its 8 bytes, then the name's. */
static uint64_t geo_add(uint64_t h, uint64_t geometry, const char *name)
{
    for (int b = 0; b < 8; b++)
        h = (h ^ ((geometry >> (8 * b)) & 0xff)) * 1099511628211u;
    return sig_add(h, name);
}

/* What launches and replayed kernels are ordered by (qsort has no context argument): the
 * process and correlation of a replay's graph launch, then the start, then file order. */
typedef struct order_key {
    uint64_t process;
    int64_t correlation, ts_ns;
    size_t i;
} order_key;

static int cmp_order(const void *x, const void *y)
{
    const order_key *a = x, *b = y;
    if (a->process != b->process)
        return a->process < b->process ? -1 : 1;
    if (a->correlation != b->correlation)
        return a->correlation < b->correlation ? -1 : 1;
    if (a->ts_ns != b->ts_ns)
        return a->ts_ns < b->ts_ns ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

static graph *graph_new(graphs *gs, const pf_trace *cap, size_t ci)
{
    if (gs->n == gs->cap) {
        size_t c = gs->cap ? gs->cap * 2 : 8;
        graph *ng = realloc(gs->g, c * sizeof *ng);
        if (!ng)
            return NULL;
        gs->g = ng;
        gs->cap = c;
    }
    graph *g = &gs->g[gs->n++];
    *g = (graph){cap, ci, NULL, 0, 0, 0, 1};
    return g;
}

/* The graphs of one capture trace: its kernel launches whose kernel never ran (recorded, not
 * run), by launch time, a new graph at each *StreamBeginCapture. */
static int capture_graphs(const pf_trace *cap, size_t ci, graphs *gs)
{
    order_key *order = malloc((cap->n_launches ? cap->n_launches : 1) * sizeof *order);
    if (!order)
        return -1;
    for (size_t i = 0; i < cap->n_launches; i++)
        order[i] = (order_key){0, 0, cap->launches[i].ts_ns, i};
    qsort(order, cap->n_launches, sizeof *order, cmp_order);
    graph *g = NULL;
    int rc = 0;
    for (size_t k = 0; rc == 0 && k < cap->n_launches; k++) {
        const pf_launch *l = &cap->launches[order[k].i];
        if (l->kind == PF_LAUNCH_BEGIN_CAPTURE)
            g = NULL;
        if (!l->kernel || l->ran)
            continue;
        if (!g && !(g = graph_new(gs, cap, ci))) {
            rc = -1;
            break;
        }
        if ((g->n & (g->n - 1)) == 0) { /* at 0, 1, 2, 4, ...: room doubled, not one more */
            size_t *at = realloc(g->at, (g->n ? 2 * g->n : 1) * sizeof *at);
            if (!at) {
                rc = -1;
                break;
            }
            g->at = at;
        }
        g->at[g->n++] = order[k].i;
        g->sig = sig_add(g->n == 1 ? SIG_SEED : g->sig, l->kernel);
        g->geo_sig = geo_add(g->n == 1 ? SIG_SEED : g->geo_sig, l->geometry, l->kernel);
        g->full &= l->geometry != 0;
    }
    free(order);
    return rc;
}

/* ---- the replays ---- */

static int same_replay(const pf_activity *a, const pf_activity *b)
{
    return a->launch_process == b->launch_process && a->correlation == b->correlation;
}

/* Whether the replayed kernels idx[0, n) are graph g's launches one for one. */
static int graph_matches(const pf_trace *t, const size_t *idx, size_t n, const graph *g)
{
    if (g->n != n)
        return 0;
    for (size_t k = 0; k < n; k++) {
        const pf_activity *a = &t->acts[idx[k]];
        const pf_launch *l = &g->cap->launches[g->at[k]];
        if (strcmp(a->name, l->kernel) != 0 || (a->geometry && l->geometry && a->geometry != l->geometry))
            return 0;
    }
    return 1;
}

typedef struct graft {
    pf_trace *t;
    size_t cap_ops;            /* room in t->ops */
    int32_t *copy_of;          /* per capture op (of the widest capture): its copy in this replay */
    unsigned char *used;       /* per capture: some replay took its ops (else it is freed) */
    size_t mapped, unmatched, ambiguous;
} graft;

/* Room for one more op in t->ops (its arrays come from pf_model_alloc: copied, not realloc'd). */
static int ops_room(graft *gr)
{
    pf_trace *t = gr->t;
    if (t->n_ops < gr->cap_ops)
        return 0;
    size_t c = gr->cap_ops ? gr->cap_ops * 2 : 64;
    pf_cpu_op *ops = malloc(c * sizeof *ops);
    if (!ops)
        return -1;
    if (t->n_ops)
        memcpy(ops, t->ops, t->n_ops * sizeof *ops);
    free(t->ops);
    t->ops = ops;
    gr->cap_ops = c;
    return 0;
}

/* Replay idx[0, n) takes graph g's ops: one copy of each capture op per replay, so that an op
 * whose kernels a replay runs has its work counted once per replay, on its longest kernel. */
static int take_ops(graft *gr, const size_t *idx, size_t n, const graph *g)
{
    pf_trace *t = gr->t;
    int rc = 0;
    for (size_t k = 0; rc == 0 && k < n; k++) {
        int32_t op = g->cap->launches[g->at[k]].op;
        if (op < 0)
            continue;
        if (gr->copy_of[op] < 0) {
            if (ops_room(gr) || t->n_ops >= INT32_MAX) {
                rc = -1;
                break;
            }
            t->ops[t->n_ops] = g->cap->ops[op];
            gr->copy_of[op] = (int32_t)t->n_ops++;
        }
        pf_activity *a = &t->acts[idx[k]];
        a->op = gr->copy_of[op];
        a->captured = 1;
        t->n_unlinked--;
        gr->mapped++;
    }
    for (size_t k = 0; k < n; k++) {
        int32_t op = g->cap->launches[g->at[k]].op;
        if (op >= 0)
            gr->copy_of[op] = -1;
    }
    return rc;
}

static int by_sig(const void *x, const void *y)
{
    const graph *a = x, *b = y;
    if (a->sig != b->sig)
        return a->sig < b->sig ? -1 : 1;
    if (a->full != b->full)
        return a->full - b->full;
    return (a->geo_sig > b->geo_sig) - (a->geo_sig < b->geo_sig);
}

#ifndef NDEBUG
/* For assert() only: whether gs is sorted by by_sig, as the binary searches need. */
static int graphs_by_sig(const graphs *gs)
{
    for (size_t i = 1; i < gs->n; i++)
        if (by_sig(&gs->g[i - 1], &gs->g[i]) > 0)
            return 0;
    return 1;
}
#endif

/* The first graph of gs (sorted by by_sig) at or after key (sig, full, geo_sig), or gs->n. */
static size_t first_at(const graphs *gs, uint64_t sig, int full, uint64_t geo_sig)
{
    graph key = {.sig = sig, .full = full, .geo_sig = geo_sig};
    size_t lo = 0, hi = gs->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (by_sig(&gs->g[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Counts the graphs of gs[from, ...) that keep the key (sig; and when full, full and geo_sig)
 * and match the replay; stops at two, which makes it ambiguous whatever the rest. */
static void count_hits(const graft *gr, const graphs *gs, size_t from, const graph *key, const size_t *idx,
                       size_t n, const graph **hit, size_t *hits)
{
    for (size_t i = from; *hits < 2 && i < gs->n && gs->g[i].sig == key->sig; i++) {
        if (key->full && (gs->g[i].full != 1 || gs->g[i].geo_sig != key->geo_sig))
            break;
        if (!key->full && gs->g[i].full)
            break;
        if (graph_matches(gr->t, idx, n, &gs->g[i]) && (*hits)++ == 0)
            *hit = &gs->g[i];
    }
}

static int graft_replay(graft *gr, const graphs *gs, const size_t *idx, size_t n)
{
    graph key = {.sig = SIG_SEED, .geo_sig = SIG_SEED, .full = 1};
    for (size_t k = 0; k < n; k++) {
        const pf_activity *a = &gr->t->acts[idx[k]];
        key.sig = sig_add(key.sig, a->name);
        key.geo_sig = geo_add(key.geo_sig, a->geometry, a->name);
        key.full &= a->geometry != 0;
    }
    const graph *hit = NULL;
    size_t hits = 0;
    /* the graphs of its names that lack some geometry match whatever its geometries */
    graph partial = {.sig = key.sig, .full = 0};
    count_hits(gr, gs, first_at(gs, key.sig, 0, 0), &partial, idx, n, &hit, &hits);
    if (key.full) /* the full graphs: those of its very geometries */
        count_hits(gr, gs, first_at(gs, key.sig, 1, key.geo_sig), &key, idx, n, &hit, &hits);
    else /* it lacks some geometry: every full graph of its names may match (a replay without
          * geometries meets each graph of its names: still n x graphs where many graphs share
          * names and none of them matches it; traces give every kernel its grid) */
        for (size_t i = first_at(gs, key.sig, 1, 0); hits < 2 && i < gs->n && gs->g[i].sig == key.sig; i++)
            if (graph_matches(gr->t, idx, n, &gs->g[i]) && hits++ == 0)
                hit = &gs->g[i];
    if (hits != 1) {
        gr->unmatched += hits == 0 ? n : 0;
        gr->ambiguous += hits > 1 ? n : 0;
        return 0;
    }
    gr->used[hit->ci] = 1;
    return take_ops(gr, idx, n, hit);
}

/* The kernels launched by a graph launch and without an op, one replay (its graph launch's
 * correlation) after another, each by start time; *n of them. */
static size_t *replayed_kernels(const pf_trace *t, size_t *n)
{
    size_t *idx = malloc((t->n_acts ? t->n_acts : 1) * sizeof *idx);
    order_key *k = malloc((t->n_acts ? t->n_acts : 1) * sizeof *k);
    *n = 0;
    if (!idx || !k) {
        free(idx);
        free(k);
        return NULL;
    }
    for (size_t i = 0; i < t->n_acts; i++) {
        const pf_activity *a = &t->acts[i];
        if (a->graph && a->op < 0 && a->kind == PF_ACT_KERNEL)
            k[(*n)++] = (order_key){a->launch_process, a->correlation, a->ts_ns, i};
    }
    qsort(k, *n, sizeof *k, cmp_order);
    for (size_t j = 0; j < *n; j++)
        idx[j] = k[j].i;
    free(k);
    return idx;
}

static int adopt(pf_trace *t, pf_trace **caps, size_t n)
{
    pf_trace **a = realloc(t->adopted, (t->n_adopted + n) * sizeof *a);
    if (!a)
        return -1;
    t->adopted = a;
    for (size_t i = 0; i < n; i++)
        a[t->n_adopted++] = caps[i];
    return 0;
}

static int graft_all(graft *gr, pf_trace **caps, size_t n_caps)
{
    graphs gs = {0};
    size_t widest = 1, n = 0;
    int rc = 0;
    for (size_t c = 0; rc == 0 && c < n_caps; c++) {
        rc = capture_graphs(caps[c], c, &gs);
        widest = caps[c]->n_ops > widest ? caps[c]->n_ops : widest;
    }
    if (rc == 0 && gs.n > 1) /* qsort's array may not be NULL, even of 0 elements */
        qsort(gs.g, gs.n, sizeof *gs.g, by_sig);
    assert(rc != 0 || graphs_by_sig(&gs));
    size_t *idx = rc == 0 ? replayed_kernels(gr->t, &n) : NULL;
    if (!idx || !(gr->copy_of = malloc(widest * sizeof *gr->copy_of)))
        rc = -1;
    for (size_t i = 0; rc == 0 && i < widest; i++)
        gr->copy_of[i] = -1;
    for (size_t lo = 0, hi; rc == 0 && lo < n; lo = hi) {
        for (hi = lo + 1; hi < n && same_replay(&gr->t->acts[idx[lo]], &gr->t->acts[idx[hi]]); hi++)
            ;
        rc = graft_replay(gr, &gs, idx + lo, hi - lo);
    }
    for (size_t i = 0; i < gs.n; i++)
        free(gs.g[i].at);
    free(gs.g);
    free(idx);
    free(gr->copy_of);
    return rc;
}

/* The captures no replay took ops from are freed now rather than held with the replay: only
 * caps[i] with used[i] stay adopted (they are the last n_caps of replay->adopted). */
static void release_unused(pf_trace *replay, const unsigned char *used, size_t n_caps)
{
    size_t base = replay->n_adopted - n_caps, k = base;
    for (size_t i = 0; i < n_caps; i++) {
        pf_trace *c = replay->adopted[base + i];
        if (used[i])
            replay->adopted[k++] = c;
        else
            pf_trace_free(c);
    }
    replay->n_adopted = k;
}

int pf_trace_graft_captures(pf_trace *replay, pf_trace **caps, size_t n_caps, size_t *mapped, pf_error *err)
{
    assert(replay != NULL && mapped != NULL && err != NULL);
    assert(caps != NULL || n_caps == 0);
    graft gr = {.t = replay, .cap_ops = replay->n_ops};
    *mapped = 0;
    if (adopt(replay, caps, n_caps))
        return pf_fail(err, "%s: out of memory", replay->path);
    if (!(gr.used = calloc(n_caps ? n_caps : 1, 1)))
        return pf_fail(err, "%s: out of memory", replay->path);
    int rc = graft_all(&gr, caps, n_caps);
    if (rc == 0)
        release_unused(replay, gr.used, n_caps);
    free(gr.used);
    *mapped = gr.mapped;
    if (rc == 0 && gr.unmatched)
        rc = pf_trace_note(replay, "%zu graph-replayed kernels match no captured graph (kernel names, in launch "
                                   "order): they keep no launching op", gr.unmatched);
    if (rc == 0 && gr.ambiguous)
        rc = pf_trace_note(replay, "%zu graph-replayed kernels match several captured graphs alike: they keep no "
                                   "launching op (pass the one capture trace of that graph)", gr.ambiguous);
    return rc ? pf_fail(err, "%s: out of memory", replay->path) : 0;
}

/* ---- which files a --graph-capture path names ---- */

static int push_path(char ***out, size_t *n, const char *dir, const char *name)
{
    char **p = realloc(*out, (*n + 1) * sizeof *p);
    if (!p)
        return -1;
    *out = p;
    size_t len = strlen(dir) + strlen(name) + 2;
    if (!(p[*n] = malloc(len)))
        return -1;
    snprintf(p[*n], len, "%s/%s", dir, name);
    ++*n;
    return 0;
}

/* A regular file whole (a FIFO or a device is never opened: NULL, as for a missing file). */
static char *read_small_file(const char *path, size_t *len)
{
    FILE *f = pf_fopen_regular(path, NULL);
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0;
    *len = 0;
    for (;;) {
        if (*len + 4096 > cap) {
            char *nb = realloc(buf, cap = cap * 2 + 8192);
            if (!nb)
                break;
            buf = nb;
        }
        size_t r = fread(buf + *len, 1, cap - *len, f);
        *len += r;
        if (r == 0)
            break;
    }
    fclose(f);
    return buf;
}

/* vLLM and SGLang name each capture's trace in execution_details.json: [{"file": ...}, ...]. */
static int from_details(const char *dir, const char *details, char ***out, size_t *n, pf_error *err)
{
    size_t len;
    char *text = read_small_file(details, &len);
    if (!text)
        return pf_fail(err, "%s: cannot read", details);
    cJSON *root = cJSON_ParseWithLength(text, len);
    free(text);
    if (!cJSON_IsArray(root)) {
        cJSON_Delete(root);
        return pf_fail(err, "%s: byte 0: expected an array of {\"file\": NAME} objects", details);
    }
    int rc = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, root)
    {
        const cJSON *file = cJSON_GetObjectItemCaseSensitive(e, "file");
        if (!cJSON_IsString(file) || strchr(file->valuestring, '/')) {
            rc = pf_fail(err, "%s: byte 0: an entry without a plain \"file\" name", details);
            break;
        }
        if (push_path(out, n, dir, file->valuestring)) {
            rc = pf_fail(err, "out of memory");
            break;
        }
    }
    cJSON_Delete(root);
    return rc;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Without execution_details.json: every trace file of the directory, by name. */
static int from_listing(const char *dir, char ***out, size_t *n, pf_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return pf_fail(err, "%s: cannot open directory", dir);
    int rc = 0;
    const struct dirent *e;
    while (rc == 0 && (e = readdir(d)))
        if (e->d_name[0] != '.' && (ends_with(e->d_name, ".json") || ends_with(e->d_name, ".json.gz")))
            rc = push_path(out, n, dir, e->d_name) ? pf_fail(err, "out of memory") : 0;
    closedir(d);
    if (rc == 0 && *n == 0)
        rc = pf_fail(err, "%s: no capture trace (*.json, *.json.gz) in the directory", dir);
    if (rc == 0)
        qsort(*out, *n, sizeof **out, cmp_str);
    return rc;
}

/* One file of the list, by device and inode: a capture named twice (or through a second
 * name) is loaded once; 2,000 entries naming one capture loaded 2,000 copies, and every
 * replay then matched 2,000 graphs alike. */
typedef struct file_key {
    dev_t dev;
    ino_t ino;
    size_t i;
} file_key;

static int by_file(const void *x, const void *y)
{
    const file_key *a = x, *b = y;
    if (a->dev != b->dev)
        return a->dev < b->dev ? -1 : 1;
    if (a->ino != b->ino)
        return a->ino < b->ino ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* Drops the later names of a file already in v[0, *n), keeping the order of the rest. A
 * name that cannot be stat'ed stays (the loader says why). Returns 0 or -1 (memory). */
static int drop_repeats(char **v, size_t *n)
{
    file_key *k = malloc((*n ? *n : 1) * sizeof *k);
    unsigned char *drop = calloc(*n ? *n : 1, 1);
    if (!k || !drop) {
        free(k);
        free(drop);
        return -1;
    }
    size_t m = 0;
    struct stat st;
    for (size_t i = 0; i < *n; i++)
        if (stat(v[i], &st) == 0)
            k[m++] = (file_key){st.st_dev, st.st_ino, i};
    qsort(k, m, sizeof *k, by_file);
    for (size_t j = 1; j < m; j++)
        drop[k[j].i] = k[j].dev == k[j - 1].dev && k[j].ino == k[j - 1].ino;
    size_t w = 0;
    for (size_t i = 0; i < *n; i++) {
        if (drop[i])
            free(v[i]);
        else
            v[w++] = v[i];
    }
    *n = w;
    free(k);
    free(drop);
    return 0;
}

int pf_capture_paths(const char *path, char ***out, size_t *n, pf_error *err)
{
    assert(path != NULL && out != NULL && n != NULL && err != NULL);
    struct stat st;
    *out = NULL;
    *n = 0;
    int rc;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        /* a file (or nothing: the loader then says why, as for any trace) */
        rc = (*out = malloc(sizeof **out)) && ((*out)[0] = strdup(path)) ? 0 : pf_fail(err, "out of memory");
        *n = rc == 0;
    } else {
        size_t len = strlen(path) + sizeof "/execution_details.json";
        char *details = malloc(len);
        if (!details)
            return pf_fail(err, "out of memory");
        snprintf(details, len, "%s/execution_details.json", path);
        rc = stat(details, &st) == 0 && S_ISREG(st.st_mode) ? from_details(path, details, out, n, err) : from_listing(path, out, n, err);
        free(details);
        if (rc == 0 && drop_repeats(*out, n))
            rc = pf_fail(err, "out of memory");
    }
    if (rc) {
        for (size_t i = 0; i < *n; i++)
            free((*out)[i]);
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return rc;
}
