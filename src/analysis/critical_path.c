/* critical_path.c - the critical path of each profiler step: HTA's graph (each thread's call stack, launch and stream-order edges, sync edges) built per step window, its longest path split by what each stretch is. */
#include "profana/critical_path.h"

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "profana/categories.h"

enum { H_OP = 0, H_LAUNCH, H_SYNC };

/* Activities looked at behind the last one of a stream to end before a sync call returned,
 * for one launched before the call began (a bound: work launched meanwhile by other threads). */
enum { SYNC_BACK = 64 };

static const char launch_name[] = "(launch call)";
static const char *const part_names[PF_CP_NPARTS] = {"cpu", "gpu", "comm", "copy", "launch", "gap"};

const char *pf_cp_part_name(pf_cp_part p)
{
    assert(p >= 0 && p < PF_CP_NPARTS);
    return part_names[p];
}

/* A host interval of the graph: a cpu_op, a launch call or a blocking call (a launch call that
 * blocks, a synchronous cudaMemcpy, is one H_SYNC event). */
typedef struct cp_host {
    const char *name;
    uint64_t thread;
    int64_t ts, dur;
    int kind;
} cp_host;

/* An activity with its launch call, by the call's start. */
typedef struct cp_act {
    int64_t launch_ts;
    size_t act;
    size_t host;               /* its launch call's index in cp_all.host */
    int64_t prev_end;          /* the end of the activity before it on its stream in the whole
                                  trace (INT64_MIN: none): the stream was idle at the launch
                                  when it ended before the call began */
} cp_act;

/* An activity's place in its stream's order over the whole trace. */
typedef struct cp_pos {
    int device;
    int64_t stream, ts;
    size_t act;
} cp_pos;

/* What every step's graph draws from, sorted once. */
typedef struct cp_all {
    cp_host *host;             /* by start, then thread, longer first, ops before calls */
    size_t n_host;
    cp_act *acts;
    size_t n_acts;
} cp_all;

/* An edge: from node src to node dst, its weight, what it is and what its time is of
 * (attr >= 0: a host event of the step; < 0: activity -attr - 1 of the step; part says which). */
typedef struct cp_edge {
    int32_t src, dst;
    int64_t w;
    int32_t attr;
    int part;                  /* pf_cp_part; E_DEP, E_SYNC: weight 0, no time */
} cp_edge;

enum { E_DEP = -1, E_SYNC = -2 };

/* One step's graph: node 2h, 2h + 1 are host event h's start and end; 2H + 2k, 2H + 2k + 1
 * activity k's. */
typedef struct cp_graph {
    const pf_trace *t;
    const cp_host *host;       /* the step's host events (a stretch of cp_all.host) */
    size_t n_host;
    const cp_act *acts;        /* the step's activities (a stretch of cp_all.acts) */
    size_t n_acts;
    int64_t *node_ts;
    size_t n_nodes;
    cp_edge *e;
    size_t n_e, cap_e;
    size_t n_sync;
} cp_graph;

static int by_host(const void *x, const void *y)
{
    const cp_host *a = x, *b = y;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    if (a->thread != b->thread)
        return a->thread < b->thread ? -1 : 1;
    if (a->dur != b->dur)
        return a->dur > b->dur ? -1 : 1;
    return (a->kind > b->kind) - (a->kind < b->kind);
}

static int by_launch(const void *x, const void *y)
{
    const cp_act *a = x, *b = y;
    if (a->launch_ts != b->launch_ts)
        return a->launch_ts < b->launch_ts ? -1 : 1;
    return (a->act > b->act) - (a->act < b->act);
}

static int by_pos(const void *x, const void *y)
{
    const cp_pos *a = x, *b = y;
    if (a->device != b->device)
        return a->device < b->device ? -1 : 1;
    if (a->stream != b->stream)
        return a->stream < b->stream ? -1 : 1;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    return (a->act > b->act) - (a->act < b->act);
}

/* Per activity, the end of the one before it on its stream (INT64_MIN: none). */
static int64_t *prev_ends(const pf_trace *t)
{
    size_t n = t->n_acts;
    cp_pos *p = malloc((n ? n : 1) * sizeof *p);
    int64_t *prev = malloc((n ? n : 1) * sizeof *prev);
    if (!p || !prev) {
        free(p), free(prev);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        p[i] = (cp_pos){t->acts[i].device, t->acts[i].stream, t->acts[i].ts_ns, i};
    qsort(p, n, sizeof *p, by_pos);
    for (size_t k = 0; k < n; k++) {
        const pf_activity *b = k ? &t->acts[p[k - 1].act] : NULL;
        prev[p[k].act] = b && p[k - 1].device == p[k].device && p[k - 1].stream == p[k].stream ? b->ts_ns + b->dur_ns
                                                                                                : INT64_MIN;
    }
    free(p);
    return prev;
}

static int is_step_name(const char *s)
{
    return strncmp(s, "ProfilerStep#", 13) == 0;
}

/* The host event a launch call is (the same thread, start and duration), found among the
 * events that start with it. */
static size_t find_call(const cp_all *g, uint64_t thread, int64_t ts, int64_t dur)
{
    size_t lo = 0, hi = g->n_host;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (g->host[mid].ts < ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < g->n_host && g->host[i].ts == ts; i++)
        if (g->host[i].thread == thread && g->host[i].dur == dur && g->host[i].kind != H_OP)
            return i;
    return SIZE_MAX;
}

/* Drops repeated calls (a launch call of several activities, a sync call that launches a
 * copy; sorted next to each other): one event each, blocking when any copy was a sync. */
static void merge_calls(cp_all *g)
{
    size_t n = 0;
    for (size_t i = 0; i < g->n_host; i++) {
        const cp_host *h = &g->host[i];
        cp_host *p = n ? &g->host[n - 1] : NULL;
        if (p && h->kind != H_OP && p->kind != H_OP && p->ts == h->ts && p->thread == h->thread && p->dur == h->dur) {
            if (h->kind > p->kind) /* a sync call's name, not "(launch call)" */
                *p = *h;
            continue;
        }
        g->host[n++] = *h;
    }
    g->n_host = n;
}

static int all_build(const pf_trace *t, cp_all *g)
{
    memset(g, 0, sizeof *g);
    size_t cap = t->n_acts; /* counted first: a with_stack trace's host intervals are mostly frames */
    for (size_t i = 0; i < t->n_cpu; i++)
        cap += t->cpu[i].name != NULL;
    for (size_t i = 0; i < t->n_marks; i++)
        cap += t->marks[i].kind == PF_MARK_SYNC;
    g->host = malloc((cap ? cap : 1) * sizeof *g->host);
    g->acts = malloc((t->n_acts ? t->n_acts : 1) * sizeof *g->acts);
    if (!g->host || !g->acts)
        return -1;
    for (size_t i = 0; i < t->n_cpu; i++) {
        const pf_cpu_event *c = &t->cpu[i];
        if (c->name && c->dur_ns > 0 && !is_step_name(c->name))
            g->host[g->n_host++] = (cp_host){c->name, c->thread, c->ts_ns, c->dur_ns, H_OP};
    }
    for (size_t i = 0; i < t->n_marks; i++) {
        const pf_host_mark *m = &t->marks[i];
        if (m->kind == PF_MARK_SYNC && m->dur_ns > 0)
            g->host[g->n_host++] = (cp_host){m->name, m->thread, m->ts_ns, m->dur_ns, H_SYNC};
    }
    for (size_t i = 0; i < t->n_acts; i++) {
        const pf_activity *a = &t->acts[i];
        if (a->launch_ts_ns != PF_NO_LAUNCH && a->launch_dur_ns > 0)
            g->host[g->n_host++] = (cp_host){launch_name, a->launch_thread, a->launch_ts_ns, a->launch_dur_ns, H_LAUNCH};
    }
    qsort(g->host, g->n_host, sizeof *g->host, by_host);
    merge_calls(g);
    int64_t *prev = prev_ends(t);
    if (!prev)
        return -1;
    for (size_t i = 0; i < t->n_acts; i++) {
        const pf_activity *a = &t->acts[i];
        if (a->launch_ts_ns == PF_NO_LAUNCH || a->launch_dur_ns <= 0)
            continue;
        size_t h = find_call(g, a->launch_thread, a->launch_ts_ns, a->launch_dur_ns);
        if (h != SIZE_MAX)
            g->acts[g->n_acts++] = (cp_act){a->launch_ts_ns, i, h, prev[i]};
    }
    free(prev);
    qsort(g->acts, g->n_acts, sizeof *g->acts, by_launch);
    return 0;
}

static int add_edge(cp_graph *g, size_t src, size_t dst, int64_t w, int32_t attr, int part)
{
    assert(g != NULL && src < g->n_nodes && dst < g->n_nodes && src != dst);
    assert(part >= E_SYNC && part < PF_CP_NPARTS);
    if (g->n_e == g->cap_e) {
        size_t nc = g->cap_e ? 2 * g->cap_e : 256;
        cp_edge *e = realloc(g->e, nc * sizeof *e);
        if (!e)
            return -1;
        g->e = e;
        g->cap_e = nc;
    }
    g->e[g->n_e++] = (cp_edge){(int32_t)src, (int32_t)dst, w > 0 ? w : 0, attr, part};
    return 0;
}

static int by_thread(const void *x, const void *y, const void *ctx)
{
    const cp_graph *g = ctx;
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    if (g->host[a].thread != g->host[b].thread)
        return g->host[a].thread < g->host[b].thread ? -1 : 1;
    return (a > b) - (a < b);
}

/* Stream order: device, stream, start, file order. */
static int by_stream(const void *x, const void *y, const void *ctx)
{
    const cp_graph *g = ctx;
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    const pf_activity *p = &g->t->acts[g->acts[a].act], *q = &g->t->acts[g->acts[b].act];
    if (p->device != q->device)
        return p->device < q->device ? -1 : 1;
    if (p->stream != q->stream)
        return p->stream < q->stream ? -1 : 1;
    if (p->ts_ns != q->ts_ns)
        return p->ts_ns < q->ts_ns ? -1 : 1;
    return (g->acts[a].act > g->acts[b].act) - (g->acts[a].act < g->acts[b].act);
}

/* A merge sort of idx[0, n) by cmp over ctx (qsort has no context argument in C11). */
static void sort_idx(size_t *idx, size_t *tmp, size_t n, int (*cmp)(const void *, const void *, const void *),
                     const void *ctx)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    sort_idx(idx, tmp, h, cmp, ctx);
    sort_idx(idx + h, tmp, n - h, cmp, ctx);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = cmp(&idx[j], &idx[i], ctx) < 0 ? idx[j++] : idx[i++];
    while (i < h)
        tmp[k++] = idx[i++];
    while (j < n)
        tmp[k++] = idx[j++];
    memcpy(idx, tmp, n * sizeof *idx);
}

/* Node of host event h's start (end: + 1) and activity k's. */
static size_t host_node(size_t h)
{
    return 2 * h;
}

static size_t act_node(const cp_graph *g, size_t k)
{
    return 2 * g->n_host + 2 * k;
}

/* Leaves the open event on top of the stack (HTA's exit_func): the stretch since the last
 * point is the event's own (none for a blocking call: its wait comes from the GPU). */
static int cpu_exit(cp_graph *g, const size_t *stack, size_t *depth, size_t *last, size_t *last_top)
{
    assert(g != NULL && stack != NULL && *depth > 0 && *last != SIZE_MAX);
    size_t h = stack[*depth - 1];
    int64_t w = g->host[h].kind == H_SYNC ? 0 : g->node_ts[host_node(h) + 1] - g->node_ts[*last];
    if (add_edge(g, *last, host_node(h) + 1, w, (int32_t)h, PF_CP_CPU))
        return -1;
    if (--*depth == 0) {
        *last = SIZE_MAX;
        *last_top = host_node(h) + 1;
    } else {
        *last = host_node(h) + 1;
    }
    return 0;
}

/* Each thread's call stack walked depth first (HTA's _construct_graph_from_call_stack): an
 * edge from each point to the next, the time between them the innermost open event's; the
 * top-level events in a chain of dependencies (no time: the gaps between them are not work). */
static int cpu_edges(cp_graph *g, const size_t *order, size_t *stack)
{
    size_t depth = 0, last = SIZE_MAX, last_top = SIZE_MAX;
    for (size_t k = 0; k <= g->n_host; k++) {
        const cp_host *h = k < g->n_host ? &g->host[order[k]] : NULL;
        while (depth > 0) {
            const cp_host *top = &g->host[stack[depth - 1]];
            if (h && h->thread == top->thread && h->ts + h->dur <= top->ts + top->dur)
                break;
            if (cpu_exit(g, stack, &depth, &last, &last_top))
                return -1;
        }
        if (!h)
            break;
        if (k > 0 && h->thread != g->host[order[k - 1]].thread)
            last_top = SIZE_MAX;
        size_t i = order[k];
        if (depth == 0 && last_top != SIZE_MAX && add_edge(g, last_top, host_node(i), 0, -1, E_DEP))
            return -1;
        if (last != SIZE_MAX &&
            add_edge(g, last, host_node(i), g->node_ts[host_node(i)] - g->node_ts[last], (int32_t)stack[depth - 1], PF_CP_CPU))
            return -1;
        stack[depth++] = i;
        last = host_node(i);
    }
    return 0;
}

static int act_part(const pf_analysis *an, size_t i)
{
    const pf_activity *a = &an->trace->acts[i];
    if (a->kind != PF_ACT_KERNEL)
        return PF_CP_COPY;
    return an->cats && an->cats[i] == PF_CAT_COMMUNICATION ? PF_CP_COMM : PF_CP_GPU;
}

/* Each stream's activities in order (HTA's _construct_graph_from_kernels): an activity's
 * start waits for its launch call when the stream was idle at the call (its activity before,
 * in the whole trace, had ended), else for the step's activity before it; the first of the
 * step on a stream still busy with earlier work waits for neither. */
static int gpu_edges(cp_graph *g, const pf_analysis *an, const size_t *ord)
{
    const pf_activity *acts = g->t->acts;
    for (size_t k = 0; k < g->n_acts; k++) {
        size_t j = ord[k];
        const pf_activity *a = &acts[g->acts[j].act];
        size_t s = act_node(g, j);
        if (add_edge(g, s, s + 1, a->dur_ns, -(int32_t)j - 1, act_part(an, g->acts[j].act)))
            return -1;
        const pf_activity *p = NULL;
        if (k > 0) {
            p = &acts[g->acts[ord[k - 1]].act];
            if (p->device != a->device || p->stream != a->stream)
                p = NULL;
        }
        int rc = 0;
        if (g->acts[j].prev_end < a->launch_ts_ns)
            rc = add_edge(g, host_node(g->acts[j].host), s, a->ts_ns - a->launch_ts_ns, -(int32_t)j - 1, PF_CP_LAUNCH);
        else if (p)
            rc = add_edge(g, act_node(g, ord[k - 1]) + 1, s, a->ts_ns - (p->ts_ns + p->dur_ns), -(int32_t)ord[k - 1] - 1,
                          PF_CP_GAP);
        if (rc)
            return -1;
    }
    return 0;
}

static int64_t act_end(const cp_graph *g, size_t j)
{
    const pf_activity *a = &g->t->acts[g->acts[j].act];
    return a->ts_ns + a->dur_ns;
}

/* A blocking call returns once the work it waits for ends: per stream, an edge from the last
 * activity launched before the call began that ended before it returned (HTA reads the
 * stream from CUPTI's sync rows; a trace seldom has them, so every stream is taken). The
 * streams' runs of ord are found once, so a call costs a binary search per stream. */
static int sync_edges(cp_graph *g, const size_t *ord)
{
    size_t n_streams = 0, *run = malloc((g->n_acts + 1) * sizeof *run);
    if (!run)
        return -1;
    for (size_t k = 0; k < g->n_acts; k++) {
        const pf_activity *a = &g->t->acts[g->acts[ord[k]].act], *b = k ? &g->t->acts[g->acts[ord[k - 1]].act] : NULL;
        if (!b || b->device != a->device || b->stream != a->stream)
            run[n_streams++] = k;
    }
    run[n_streams] = g->n_acts;
    for (size_t h = 0; h < g->n_host; h++) {
        const cp_host *c = &g->host[h];
        if (c->kind != H_SYNC)
            continue;
        int64_t end = c->ts + c->dur;
        for (size_t r = 0; r < n_streams; r++) {
            size_t s0 = run[r], lo = s0, hi = run[r + 1]; /* the first whose end is past the call's */
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (act_end(g, ord[mid]) <= end)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            for (size_t p = lo, back = 0; p > s0 && back < SYNC_BACK; p--, back++) {
                size_t j = ord[p - 1];
                if (g->acts[j].launch_ts < c->ts && act_end(g, j) <= end) {
                    if (add_edge(g, act_node(g, j) + 1, host_node(h) + 1, 0, -1, E_SYNC)) {
                        free(run);
                        return -1;
                    }
                    g->n_sync++;
                    break;
                }
            }
        }
    }
    free(run);
    return 0;
}

/* The longest path (networkx's dag_longest_path, as HTA calls it): nodes in topological
 * order (Kahn's), each taking the in-edge that gives it the most weight, the first of equals
 * in edge order (a thread's own edge before sync edges). *end: the path's last node (the
 * most weight; of equals the latest, then the first; SIZE_MAX: no node); pred[v]: v's edge.
 * Returns 0, or -1 when memory runs out. */
static int longest_path(const cp_graph *g, int64_t *dist, int32_t *pred, size_t *end)
{
    size_t n = g->n_nodes, m = g->n_e, best = SIZE_MAX;
    int rc = -1;
    assert(n < UINT32_MAX && m < INT32_MAX);
    /* in-edges and out-edges of each node as offsets into in_e, out_e (counting sorts that keep
     * the edges' order); deg: in-degrees left, then the queue of nodes whose in-edges are done */
    uint32_t *in_off = calloc(n + 1, sizeof *in_off), *out_off = calloc(n + 1, sizeof *out_off);
    int32_t *in_e = malloc((m ? m : 1) * sizeof *in_e), *out_e = malloc((m ? m : 1) * sizeof *out_e);
    uint32_t *deg = malloc((n ? n : 1) * sizeof *deg), *queue = malloc((n ? n : 1) * sizeof *queue);
    if (!in_off || !out_off || !in_e || !out_e || !deg || !queue)
        goto done;
    for (size_t e = 0; e < m; e++)
        in_off[g->e[e].dst + 1]++, out_off[g->e[e].src + 1]++;
    for (size_t v = 0; v < n; v++)
        in_off[v + 1] += in_off[v], out_off[v + 1] += out_off[v];
    for (size_t v = 0; v < n; v++) /* deg and queue lent as fill cursors first */
        deg[v] = in_off[v], queue[v] = out_off[v];
    for (size_t e = 0; e < m; e++)
        in_e[deg[g->e[e].dst]++] = (int32_t)e, out_e[queue[g->e[e].src]++] = (int32_t)e;
    size_t qh = 0, qt = 0;
    for (size_t v = 0; v < n; v++) {
        deg[v] = in_off[v + 1] - in_off[v];
        if (deg[v] == 0)
            queue[qt++] = (uint32_t)v;
    }
    while (qh < qt) {
        size_t v = queue[qh++];
        dist[v] = 0;
        pred[v] = -1;
        for (size_t k = in_off[v]; k < in_off[v + 1]; k++) {
            const cp_edge *e = &g->e[in_e[k]];
            if (pred[v] < 0 || dist[e->src] + e->w > dist[v])
                dist[v] = dist[e->src] + e->w, pred[v] = in_e[k];
        }
        if (best == SIZE_MAX || dist[v] > dist[best] || (dist[v] == dist[best] && g->node_ts[v] > g->node_ts[best]) ||
            (dist[v] == dist[best] && g->node_ts[v] == g->node_ts[best] && v < best))
            best = v;
        for (size_t k = out_off[v]; k < out_off[v + 1]; k++) {
            size_t d = (size_t)g->e[out_e[k]].dst;
            if (--deg[d] == 0)
                queue[qt++] = (uint32_t)d;
        }
    }
    *end = best;
    rc = 0;
done:
    free(in_off), free(out_off), free(in_e), free(out_e), free(deg), free(queue);
    return rc;
}

/* Adds w ns of name's part to items. */
static int item_add(pf_cp_item **items, size_t *n, size_t *cap, const char *name, int part, int64_t w, int64_t count)
{
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 64;
        pf_cp_item *r = realloc(*items, nc * sizeof *r);
        if (!r)
            return -1;
        *items = r;
        *cap = nc;
    }
    (*items)[(*n)++] = (pf_cp_item){name, (pf_cp_part)part, w, count};
    return 0;
}

static int by_key(const void *x, const void *y)
{
    const pf_cp_item *a = x, *b = y;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->part > b->part) - (a->part < b->part);
}

static int by_time(const void *x, const void *y)
{
    const pf_cp_item *a = x, *b = y;
    if (a->ns != b->ns)
        return a->ns > b->ns ? -1 : 1;
    return by_key(x, y);
}

/* Interned names: one text, one pointer; grouped so, before the text orders them. */
static int by_ptr(const void *x, const void *y)
{
    const pf_cp_item *a = x, *b = y;
    if (a->name != b->name)
        return (uintptr_t)a->name < (uintptr_t)b->name ? -1 : 1;
    return (a->part > b->part) - (a->part < b->part);
}

/* The items of one name and part summed, by time, the max first kept (0: all). */
static void items_merge(pf_cp_item *items, size_t *n, size_t max)
{
    qsort(items, *n, sizeof *items, by_ptr);
    size_t m = 0;
    for (size_t i = 0; i < *n; i++) {
        if (m > 0 && by_ptr(&items[m - 1], &items[i]) == 0) {
            items[m - 1].ns += items[i].ns;
            items[m - 1].count += items[i].count;
        } else {
            items[m++] = items[i];
        }
    }
    qsort(items, m, sizeof *items, by_time);
    *n = max && m > max ? max : m;
}

/* The path back from node end: its time per part and per name into st. */
static int path_walk(const cp_graph *g, const int32_t *pred, size_t end, pf_cp_step *st, size_t *cap)
{
    assert(g != NULL && pred != NULL && end < g->n_nodes && st != NULL);
    size_t v = end;
    st->end_ns = g->node_ts[end];
    for (int32_t ei = pred[v]; ei >= 0; ei = pred[v]) {
        const cp_edge *e = &g->e[ei];
        v = (size_t)e->src;
        st->n_sync_on_path += e->part == E_SYNC;
        if (e->part < 0 || e->w == 0)
            continue;
        st->part_ns[e->part] += e->w;
        st->length_ns += e->w;
        if (e->part >= PF_CP_LAUNCH)
            continue;
        const char *name = e->attr >= 0 ? g->host[e->attr].name : g->t->acts[g->acts[-e->attr - 1].act].name;
        if (item_add(&st->items, &st->n_items, cap, name, e->part, e->w, 1))
            return -1;
    }
    st->start_ns = g->node_ts[v];
    return 0;
}

/* The first of n records of `size` bytes from base whose int64_t at byte offset `off` is ts or
 * later (the records sorted by it): the host events by start, the activities by launch call. */
static size_t first_from(const void *base, size_t n, size_t size, size_t off, int64_t ts)
{
    assert(base != NULL || n == 0);
    assert(off + sizeof(int64_t) <= size);
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int64_t v;
        memcpy(&v, (const char *)base + mid * size + off, sizeof v);
        if (v < ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static size_t host_from(const cp_all *all, int64_t ts)
{
    return first_from(all->host, all->n_host, sizeof *all->host, offsetof(cp_host, ts), ts);
}

static size_t act_from(const cp_all *all, int64_t ts)
{
    return first_from(all->acts, all->n_acts, sizeof *all->acts, offsetof(cp_act, launch_ts), ts);
}

/* One window's graph and path into st (its window and number set). */
static int step_path(const pf_analysis *an, const cp_all *all, pf_cp_step *st, int64_t ws, int64_t we)
{
    assert(an != NULL && all != NULL && st != NULL && ws <= we);
    cp_graph g = {.t = an->trace};
    size_t h0 = host_from(all, ws), h1 = we == INT64_MAX ? all->n_host : host_from(all, we + 1);
    size_t a0 = act_from(all, ws), a1 = we == INT64_MAX ? all->n_acts : act_from(all, we + 1);
    g.host = all->host + h0;
    g.n_host = h1 - h0;
    g.n_acts = a1 - a0;
    cp_act *acts = malloc((g.n_acts ? g.n_acts : 1) * sizeof *acts);
    size_t big = g.n_host > g.n_acts ? g.n_host : g.n_acts;
    g.n_nodes = 2 * (g.n_host + g.n_acts);
    g.node_ts = malloc((g.n_nodes ? g.n_nodes : 1) * sizeof *g.node_ts);
    size_t *order = malloc((big ? big : 1) * sizeof *order), *tmp = malloc((big ? big : 1) * sizeof *tmp);
    int64_t *dist = malloc((g.n_nodes ? g.n_nodes : 1) * sizeof *dist);
    int32_t *pred = malloc((g.n_nodes ? g.n_nodes : 1) * sizeof *pred);
    int rc = -1;
    if (!acts || !g.node_ts || !order || !tmp || !dist || !pred)
        goto done;
    for (size_t k = 0; k < g.n_acts; k++) {
        acts[k] = all->acts[a0 + k];
        acts[k].host -= h0;
    }
    g.acts = acts;
    g.cap_e = g.n_nodes + 64; /* two edges a host event or activity, a few sync edges: no regrowth */
    if (!(g.e = malloc(g.cap_e * sizeof *g.e)))
        goto done;
    for (size_t h = 0; h < g.n_host; h++)
        g.node_ts[2 * h] = g.host[h].ts, g.node_ts[2 * h + 1] = g.host[h].ts + g.host[h].dur;
    for (size_t k = 0; k < g.n_acts; k++) {
        const pf_activity *a = &g.t->acts[acts[k].act];
        g.node_ts[act_node(&g, k)] = a->ts_ns, g.node_ts[act_node(&g, k) + 1] = a->ts_ns + a->dur_ns;
    }
    for (size_t h = 0; h < g.n_host; h++)
        order[h] = h;
    sort_idx(order, tmp, g.n_host, by_thread, &g);
    if (cpu_edges(&g, order, tmp)) /* tmp: the stack */
        goto done;
    for (size_t k = 0; k < g.n_acts; k++)
        order[k] = k;
    sort_idx(order, tmp, g.n_acts, by_stream, &g);
    if (gpu_edges(&g, an, order) || sync_edges(&g, order))
        goto done;
    st->n_host = g.n_host;
    st->n_acts = g.n_acts;
    st->n_sync_edges = g.n_sync;
    size_t cap = 0, end = SIZE_MAX;
    rc = longest_path(&g, dist, pred, &end);
    if (rc == 0 && end != SIZE_MAX)
        rc = path_walk(&g, pred, end, st, &cap);
done:
    free(acts), free(g.node_ts), free(order), free(tmp), free(dist), free(pred), free(g.e);
    return rc;
}

static int by_step_start(const void *x, const void *y)
{
    const pf_step *a = x, *b = y;
    if (a->ts_ns != b->ts_ns)
        return a->ts_ns < b->ts_ns ? -1 : 1;
    return (a->number > b->number) - (a->number < b->number);
}

/* The windows: the CPU-side steps by start (only --step N's when it names one), or the whole
 * trace. */
static int windows(const pf_analysis *an, pf_cp_view *v)
{
    const pf_trace *t = an->trace;
    size_t n = t->n_cpu_steps ? t->n_cpu_steps : 1;
    v->steps = calloc(n, sizeof *v->steps);
    if (!v->steps)
        return -1;
    if (t->n_cpu_steps == 0) {
        v->whole_trace = 1;
        v->steps[0] = (pf_cp_step){.number = -1, .ts_ns = INT64_MIN, .dur_ns = -1};
        v->n_steps = 1;
        return 0;
    }
    pf_step *s = malloc(n * sizeof *s);
    if (!s)
        return -1;
    memcpy(s, t->cpu_steps, n * sizeof *s);
    qsort(s, n, sizeof *s, by_step_start);
    for (size_t i = 0; i < n; i++)
        if (an->opts.step < 0 || s[i].number == an->opts.step)
            v->steps[v->n_steps++] = (pf_cp_step){.number = s[i].number, .ts_ns = s[i].ts_ns, .dur_ns = s[i].dur_ns};
    free(s);
    return 0;
}

int pf_cp_view_build(const pf_analysis *an, size_t max_items, pf_cp_view **out, pf_error *err)
{
    assert(an && an->trace && out && err);
    *out = NULL;
    pf_cp_view *v = calloc(1, sizeof *v);
    cp_all all;
    int rc = !v || all_build(an->trace, &all) || windows(an, v) ? -1 : 0;
    size_t cap = 0;
    for (size_t i = 0; rc == 0 && i < an->trace->n_acts; i++)
        v->no_launch += an->trace->acts[i].launch_ts_ns == PF_NO_LAUNCH;
    for (size_t i = 0; rc == 0 && i < v->n_steps; i++) {
        pf_cp_step *st = &v->steps[i];
        int64_t we = st->dur_ns < 0 ? INT64_MAX : st->ts_ns + st->dur_ns;
        rc = step_path(an, &all, st, st->ts_ns, we);
        if (rc == 0 && st->dur_ns < 0) { /* the whole trace: its host events' span */
            st->ts_ns = all.n_host ? all.host[0].ts : 0;
            st->dur_ns = 0;
            for (size_t h = 0; h < all.n_host; h++)
                if (all.host[h].ts + all.host[h].dur - st->ts_ns > st->dur_ns)
                    st->dur_ns = all.host[h].ts + all.host[h].dur - st->ts_ns;
        }
        if (rc == 0)
            items_merge(st->items, &st->n_items, 0);
        for (size_t k = 0; rc == 0 && k < st->n_items; k++)
            rc = item_add(&v->items, &v->n_items, &cap, st->items[k].name, st->items[k].part, st->items[k].ns,
                          st->items[k].count);
        if (max_items && st->n_items > max_items)
            st->n_items = max_items;
        for (int p = 0; p < PF_CP_NPARTS; p++)
            v->part_ns[p] += st->part_ns[p];
        v->length_ns += st->length_ns;
    }
    if (rc == 0)
        items_merge(v->items, &v->n_items, max_items);
    if (v) {
        free(all.host);
        free(all.acts);
    }
    if (rc) {
        pf_cp_view_free(v);
        return pf_fail(err, "out of memory");
    }
    *out = v;
    return 0;
}

void pf_cp_view_free(pf_cp_view *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->n_steps; i++)
        free(v->steps[i].items);
    free(v->steps);
    free(v->items);
    free(v);
}
