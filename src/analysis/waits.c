/* waits.c - why the GPU waits (include/profana/waits.h): one sweep over each device's activity boundaries gives the exclusive breakdown and the idle gaps with the activity that ends each; launch delays and per-stream queue depth from the launch calls. */
#include "profana/waits.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "profana/analysis.h"
#include "profana/satmath.h"
#include "sort_keys.h"

/* What an activity is for the breakdown, in the order of precedence: an instant covered by
 * compute counts as compute, else communication, else a copy, else a fill. */
enum { CLS_COMPUTE, CLS_COMM, CLS_MEMCPY, CLS_MEMSET, CLS_COUNT };

/* A boundary of an activity's interval is a pf_kv: key the time (pf_key_i64), value the
 * activity's index shifted left by one, its low bit 1 for an end. No edge record is kept
 * beside the sort's entries: this pass is among the highest points of a run's memory. */
static int64_t edge_t(const pf_kv *e)
{
    return (int64_t)(e->key ^ (UINT64_C(1) << 63));
}

static size_t edge_act(const pf_kv *e)
{
    return (size_t)(e->val >> 1);
}

static int edge_start(const pf_kv *e)
{
    return !(e->val & 1);
}

/* By time; at one instant starts before ends, so touching intervals are one busy interval;
 * then file order, so the first activity in the file ends a gap when several start at once. */
static int cmp_edge(const void *x, const void *y)
{
    const pf_kv *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    if ((a->val & 1) != (b->val & 1))
        return (a->val & 1) ? 1 : -1;
    return (a->val > b->val) - (a->val < b->val);
}

/* The class by the category rule: communication is a kernel the rule calls communication
 * (NCCL, RCCL, the custom all-reduces); ROCm's copy and fill kernels are copies and fills. */
static uint8_t class_of(const pf_analysis *an, size_t i)
{
    pf_category c = (pf_category)an->cats[i];
    if (c == PF_CAT_MEMCPY)
        return CLS_MEMCPY;
    if (c == PF_CAT_MEMSET)
        return CLS_MEMSET;
    if (c == PF_CAT_COMMUNICATION && an->trace->acts[i].kind == PF_ACT_KERNEL) /* the category first: */
        return CLS_COMM; /* reading the activity, out of cache on a large trace, is the cost of a sweep */
    return CLS_COMPUTE;
}

/* Whether idx[0, n) ascends (file order). */
static int ascending(const size_t *idx, size_t n)
{
    for (size_t k = 1; k < n; k++)
        if (idx[k] <= idx[k - 1])
            return 0;
    return 1;
}

/* The edges of acts idx[0, n) into e[0, 2n), sorted by cmp_edge; tmp has room for 2n. */
/* The starts of activities idx[0, n) in e[0, n) and their ends in e[n, 2n), each sorted in
 * cmp_edge's order (tmp: room for n). The sweep merges the two as it goes: cmp_edge's order of
 * all the edges (a total one) with no merged copy, whose room was a third of this pass's
 * memory at its height. */
static void fill_edges(const pf_analysis *an, const size_t *idx, size_t n, pf_kv *e, pf_kv *tmp)
{
    /* each half in file order: when idx ascends, a stable sort by time gives cmp_edge's
     * order, in O(n) when mostly in order already */
    for (size_t k = 0; k < n; k++) {
        const pf_activity *a = &an->trace->acts[idx[k]];
        e[k] = (pf_kv){pf_key_i64(a->ts_ns), (uint64_t)idx[k] << 1};
        e[n + k] = (pf_kv){pf_key_i64(pf_sat_add(a->ts_ns, a->dur_ns)), (uint64_t)idx[k] << 1 | 1};
    }
    int asc = ascending(idx, n);
    for (int half = 0; half < 2; half++) {
        if (asc)
            pf_sort_kv(e + (size_t)half * n, tmp, n);
        else if (n)
            qsort(e + (size_t)half * n, n, sizeof *e, cmp_edge);
    }
}

/* The edges of fill_edges in cmp_edge's order: the next of the starts s[0, n) and the ends
 * e[0, n), a start first at one instant (as cmp_edge). */
typedef struct edge_merge {
    const pf_kv *s, *e;
    size_t n, i, j;
} edge_merge;

static const pf_kv *next_edge(edge_merge *m)
{
    if (m->i < m->n && (m->j == m->n || !(m->e[m->j].key < m->s[m->i].key)))
        return &m->s[m->i++];
    return m->j < m->n ? &m->e[m->j++] : NULL;
}

/* Adds the gap [from, to) to c (and to gaps[c->gaps] when gaps is not NULL), split by the
 * launch call of activity a, which ends it. */
static void attribute_gap(const pf_activity *a, int64_t from, int64_t to, pf_idle_causes *c, pf_gap *gaps)
{
    int64_t len = pf_sat_sub(to, from); /* saturated: a span past 2^63 ns (times at int64's ends) */
    if (len <= 0)
        return;
    pf_gap g = {from, from, to, a->launch_ts_ns != PF_NO_LAUNCH, a->launch_thread};
    if (!g.attributed) {
        c->unattributed_ns = pf_sat_add(c->unattributed_ns, len);
    } else {
        int64_t call_end = pf_sat_add(a->launch_ts_ns, a->launch_dur_ns);
        int64_t host = call_end <= from ? 0 : call_end >= to ? len : pf_sat_sub(call_end, from);
        g.split = call_end <= from ? from : call_end >= to ? to : call_end;
        c->host_wait_ns = pf_sat_add(c->host_wait_ns, host);
        c->launch_latency_ns = pf_sat_add(c->launch_latency_ns, pf_sat_sub(len, host));
    }
    if (gaps)
        gaps[c->gaps] = g;
    c->gaps++;
}

/* The breakdown of the edges of n activities from fill_edges (e[0, 2n)) and, when causes is
 * not NULL, the idle gaps by cause (each into gaps, when not NULL: room for n). Between two
 * consecutive instants the open intervals are constant: the stretch goes to the first class
 * with an open interval, or to idle when none is open. */
static void sweep(const pf_analysis *an, const pf_kv *e, size_t n, pf_breakdown *b, pf_idle_causes *causes,
                  pf_gap *gaps)
{
    int64_t open[CLS_COUNT] = {0}, total = 0, gap_from = 0, prev = 0, first = 0;
    int64_t *part[CLS_COUNT] = {&b->compute_ns, &b->communication_ns, &b->memcpy_ns, &b->memset_ns};
    memset(b, 0, sizeof *b);
    if (n == 0)
        return;
    edge_merge m = {e, e + n, n, 0, 0};
    const pf_kv *x;
    for (size_t k = 0; (x = next_edge(&m)) != NULL; k++) {
        int64_t t = edge_t(x);
        size_t act = edge_act(x);
        int start = edge_start(x), cls_k = class_of(an, act);
        first = k == 0 ? t : first;
        if (k > 0 && t > prev) {
            int64_t len = pf_sat_sub(t, prev);
            int cls = 0;
            while (cls < CLS_COUNT && open[cls] == 0)
                cls++;
            if (cls < CLS_COUNT)
                *part[cls] = pf_sat_add(*part[cls], len);
            else
                b->idle_ns = pf_sat_add(b->idle_ns, len);
            if (open[CLS_COMM])
                b->communication_total_ns = pf_sat_add(b->communication_total_ns, len);
        }
        if (start && total == 0 && causes && k > 0)
            attribute_gap(&an->trace->acts[act], gap_from, t, causes, gaps);
        open[cls_k] += start ? 1 : -1;
        total += start ? 1 : -1;
        if (total == 0)
            gap_from = t;
        prev = t;
    }
    b->span_ns = prev - first; /* in time order */
}

/* ---- launches ---- */

/* The nearest-rank percentile p (0 < p <= 100) of the sorted v[0, n) (keys of pf_key_i64), n > 0. */
static int64_t nearest_rank(const pf_kv *v, size_t n, int p)
{
    size_t rank = ((size_t)p * n + 99) / 100;
    return (int64_t)(v[rank ? rank - 1 : 0].key ^ (UINT64_C(1) << 63));
}

static int bin_of(int64_t dur_ns)
{
    static const int64_t upper[PF_WAITS_BINS - 1] = {5000, 10000, 50000, 100000};
    int b = 0;
    while (b < PF_WAITS_BINS - 1 && dur_ns >= upper[b])
        b++;
    return b;
}

static int launch_stats(const pf_trace *t, const size_t *idx, size_t n, pf_launch_stats *l)
{
    pf_kv *delay = malloc((n ? n : 1) * sizeof *delay), *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!delay || !tmp) {
        free(delay);
        free(tmp);
        return -1;
    }
    memset(l, 0, sizeof *l);
    for (size_t k = 0; k < n; k++) {
        const pf_activity *a = &t->acts[idx[k]];
        if (a->kind != PF_ACT_KERNEL || a->launch_ts_ns == PF_NO_LAUNCH)
            continue;
        delay[l->count++] = (pf_kv){pf_key_i64(pf_sat_sub(a->ts_ns, pf_sat_add(a->launch_ts_ns, a->launch_dur_ns))), 0};
        l->call_ns_sum = pf_sat_add(l->call_ns_sum, a->launch_dur_ns);
        l->launch_bound += !a->graph && a->dur_ns < a->launch_dur_ns; /* a graph launch is one call for all its kernels */
        int b = bin_of(a->dur_ns);
        l->hist_count[b]++;
        l->hist_ns[b] = pf_sat_add(l->hist_ns[b], a->dur_ns);
    }
    if (l->count) {
        pf_sort_kv(delay, tmp, (size_t)l->count);
        l->delay_p50_ns = nearest_rank(delay, (size_t)l->count, 50);
        l->delay_p99_ns = nearest_rank(delay, (size_t)l->count, 99);
    }
    free(delay);
    free(tmp);
    return 0;
}

/* ---- queues ---- */

/* The queued interval [queued, end) of the activities idx[0, n) of one device, clipped to
 * [lo, hi]. Its edges are not stored: an edge is the value (k << 2 | nonempty << 1 | is_end)
 * of a pf_kv (nonempty: the interval is not empty), whose time and stream are read back from
 * activity idx[k] (this pass was the highest point of a run's memory: a 24-byte edge record
 * beside the sort's two 16-byte entries), or its time from the key while it is one. */
typedef struct qspan {
    const pf_trace *t;
    const size_t *idx;
    int64_t lo, hi;
} qspan;

static int64_t q_from(const qspan *q, const pf_activity *a)
{
    int64_t from = a->launch_ts_ns != PF_NO_LAUNCH && a->launch_ts_ns < a->ts_ns ? a->launch_ts_ns : a->ts_ns;
    return from < q->lo ? q->lo : from;
}

static int64_t q_to(const qspan *q, const pf_activity *a)
{
    int64_t to = pf_sat_add(a->ts_ns, a->dur_ns);
    return to > q->hi ? q->hi : to;
}

static const pf_activity *q_act(const qspan *q, uint64_t v)
{
    return &q->t->acts[q->idx[v >> 2]];
}

/* What an edge adds to the depth: a start +1 (0 for an empty interval, whose start only gives
 * its stream a row), an end -1. */
static int q_delta(uint64_t v)
{
    return v & 1 ? -1 : (int)(v >> 1 & 1);
}

/* The time of an edge. */
static int64_t q_time(const qspan *q, uint64_t v)
{
    const pf_activity *a = q_act(q, v);
    return v & 1 ? q_to(q, a) : q_from(q, a);
}

/* The starts kv[0, split) and the ends kv[split, m), keyed by their times (pf_key_i64), each
 * by stream, then time (by time, then stably by stream), sorted apart: one_queue merges a
 * stream's two as it goes (a merged copy was a third of this pass's memory at its height);
 * tmp has room for split, the larger half. Each half is mostly in order already. one: all
 * the edges are of one stream: then sorted by time alone and keyed by it (the common case:
 * a pass that reads every edge's activity runs out of cache on a large trace), else keyed
 * by their streams (pf_key_i64). */
static void sort_qedges(const qspan *q, pf_kv *kv, size_t m, size_t split, pf_kv *tmp, int one)
{
    assert(split <= m && m - split <= split);
    pf_sort_kv(kv, tmp, split);
    pf_sort_kv(kv + split, tmp, m - split);
    if (one)
        return;
    for (size_t k = 0; k < m; k++)
        kv[k].key = pf_key_i64(q_act(q, kv[k].val)->stream);
    pf_sort_kv(kv, tmp, split);
    pf_sort_kv(kv + split, tmp, m - split);
}

/* The next edge of one stream's starts a[0, na) and ends b[0, nb) (each sorted by time; keyed
 * by it when timed): its time and what it adds to the depth (at one instant the order does
 * not matter: one_queue adds them all before it measures the next stretch). 0 when none is
 * left. */
typedef struct qmerge {
    const qspan *q;
    const pf_kv *a, *b;
    size_t na, nb, i, j;
    int timed;
} qmerge;

static int64_t qmerge_time(const qmerge *m, const pf_kv *e)
{
    return m->timed ? (int64_t)(e->key ^ (UINT64_C(1) << 63)) : q_time(m->q, e->val);
}

static int next_qedge(qmerge *m, int64_t *t, int *delta)
{
    int64_t ta = m->i < m->na ? qmerge_time(m, &m->a[m->i]) : 0;
    int64_t tb = m->j < m->nb ? qmerge_time(m, &m->b[m->j]) : 0;
    const pf_kv *e;
    if (m->i < m->na && (m->j == m->nb || ta <= tb)) {
        e = &m->a[m->i++];
        *t = ta;
    } else if (m->j < m->nb) {
        e = &m->b[m->j++];
        *t = tb;
    } else {
        return 0;
    }
    *delta = q_delta(e->val);
    return 1;
}

/* One stream's starts a[0, na) and ends b[0, nb), each sorted by time (keyed by it when
 * timed), over the span [lo, hi]. */
static void one_queue(const qspan *q, const pf_kv *a, size_t na, const pf_kv *b, size_t nb, int timed,
                      pf_queue *out)
{
    assert(na > 0);
    int64_t depth = 0, at = q->lo;
    __int128 weighted = 0; /* depth x time: past int64 on a span of 2^63 ns at a depth of 2 */
    *out = (pf_queue){.stream = q_act(q, a[0].val)->stream};
    qmerge m = {q, a, b, na, nb, 0, 0, timed};
    for (int more = 1; more;) {
        int delta = 0;
        int64_t t;
        more = next_qedge(&m, &t, &delta);
        if (!more)
            t = q->hi;
        if (t > at) { /* depth is constant on [at, t) */
            if (depth > out->max_depth)
                out->max_depth = depth;
            if (depth == 0)
                out->empty_ns = pf_sat_add(out->empty_ns, pf_sat_sub(t, at));
            weighted += (__int128)depth * ((__int128)t - at);
            at = t;
        }
        depth += delta;
    }
    out->mean_depth = q->hi > q->lo ? (double)weighted / (double)((__int128)q->hi - q->lo) : 0;
}

/* The queue of each stream of activities idx[0, n), one entry a stream in w->queues. */
static int queues(const pf_trace *t, const size_t *idx, size_t n, int64_t lo, int64_t hi, pf_waits *w)
{
    const qspan q = {t, idx, lo, hi};
    pf_kv *kv = malloc((2 * n + 1) * sizeof *kv), *tmp = malloc((n + 1) * sizeof *tmp);
    int rc = kv && tmp ? 0 : -1;
    size_t m = n; /* the starts in kv[0, n), the ends after them */
    int one = 1;
    for (size_t k = 0; rc == 0 && k < n; k++) {
        const pf_activity *a = &t->acts[idx[k]];
        int64_t from = q_from(&q, a), to = q_to(&q, a);
        one &= a->stream == t->acts[idx[0]].stream;
        kv[k] = (pf_kv){pf_key_i64(from), (uint64_t)k << 2 | (uint64_t)(to > from) << 1};
        if (to > from)
            kv[m++] = (pf_kv){pf_key_i64(to), (uint64_t)k << 2 | 3};
    }
    if (rc == 0)
        sort_qedges(&q, kv, m, n, tmp, one);
    free(tmp);
    /* every stream has starts (an end is kept only beside its start): its queue is a run of
     * the starts by stream, and the run of the ends with the same key, when there is one */
    size_t streams = one && n;
    for (size_t i = 0; rc == 0 && !one && i < n; i++) /* keys: the streams */
        streams += i == 0 || kv[i].key != kv[i - 1].key;
    if (rc == 0 && !(w->queues = calloc(streams ? streams : 1, sizeof *w->queues)))
        rc = -1;
    const pf_kv *ends = kv + n;
    size_t n_ends = m - n;
    for (size_t i = 0, j, e0 = 0, e1; rc == 0 && i < n; i = j, e0 = e1) {
        for (j = i + 1; j < n && (one || kv[j].key == kv[i].key); j++)
            ;
        for (e1 = e0; e1 < n_ends && (one || ends[e1].key == kv[i].key); e1++)
            ;
        one_queue(&q, kv + i, j - i, ends + e0, e1 - e0, one, &w->queues[w->n_queues++]);
    }
    free(kv);
    return rc;
}

/* ---- steps ---- */

/* (step, activity) pairs: by step, then by activity (file order). */
static int cmp_step_kv(const void *x, const void *y)
{
    const pf_kv *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->val > b->val) - (a->val < b->val);
}

/* The activities of idx[0, n) that lie in a step, as (step key, activity) pairs ordered by
 * step then file order, in *out (the caller frees); returns their count, or -1 when memory
 * runs out. */
static long steps_sorted(const int64_t *num, const size_t *idx, size_t n, pf_kv **out)
{
    pf_kv *kv = malloc((n ? n : 1) * sizeof *kv);
    size_t m = 0;
    *out = kv;
    if (!kv)
        return -1;
    for (size_t k = 0; k < n; k++)
        if (num[idx[k]] != PF_NO_STEP)
            kv[m++] = (pf_kv){pf_key_i64(num[idx[k]]), idx[k]};
    if (!ascending(idx, n)) {
        qsort(kv, m, sizeof *kv, cmp_step_kv);
        return (long)m;
    }
    pf_kv *tmp = malloc((m ? m : 1) * sizeof *tmp); /* a stable sort by step keeps file order */
    if (!tmp)
        return -1;
    pf_sort_kv(kv, tmp, m);
    free(tmp);
    return (long)m;
}

/* The breakdown of each step's activities among idx[0, n); num: each activity's step. The
 * edge buffers are sized by the largest step, not the device: they are the highest point of
 * a run's memory when several steps each hold a fraction of the activities. */
static int step_breakdowns(const pf_analysis *an, const int64_t *num, const size_t *idx, size_t n, pf_waits *w)
{
    pf_kv *s;
    long sm = steps_sorted(num, idx, n, &s);
    if (sm < 0) {
        free(s);
        return -1;
    }
    size_t m = (size_t)sm, n_steps = 0, big = 0;
    for (size_t i = 0, j; i < m; i = j) {
        for (j = i; j < m && s[j].key == s[i].key; j++)
            ;
        n_steps++;
        big = j - i > big ? j - i : big;
    }
    size_t *sub = malloc((big ? big : 1) * sizeof *sub);
    pf_kv *e = malloc((2 * big + 1) * sizeof *e), *tmp = malloc((big + 1) * sizeof *tmp);
    w->steps = calloc(n_steps ? n_steps : 1, sizeof *w->steps);
    int rc = sub && e && tmp && w->steps ? 0 : -1;
    for (size_t i = 0, j; rc == 0 && i < m; i = j) {
        for (j = i; j < m && s[j].key == s[i].key; j++)
            sub[j - i] = (size_t)s[j].val;
        pf_step_breakdown *sb = &w->steps[w->n_steps++];
        sb->number = (int64_t)(s[i].key ^ (UINT64_C(1) << 63));
        sb->count = (int64_t)(j - i);
        fill_edges(an, sub, j - i, e, tmp);
        sweep(an, e, j - i, &sb->b, NULL, NULL);
    }
    free(s);
    free(sub);
    free(e);
    free(tmp);
    return rc;
}

/* ---- per device ---- */

/* The breakdown and the idle gaps of one device's activities idx[0, n). */
static int device_breakdown(const pf_analysis *an, const size_t *idx, size_t n, pf_waits *w)
{
    pf_kv *e = malloc((2 * n + 1) * sizeof *e), *tmp = malloc((n + 1) * sizeof *tmp);
    int rc = e && tmp ? 0 : -1;
    if (rc == 0)
        fill_edges(an, idx, n, e, tmp);
    free(tmp); /* before the gaps are made: the sort's scratch and the gaps never live together */
    /* a gap ends at an activity's start; kept only for the timeline */
    if (rc == 0 && an->opts.idle_gaps && !(w->gaps = malloc((n + 1) * sizeof *w->gaps)))
        rc = -1;
    if (rc == 0)
        sweep(an, e, n, &w->breakdown, &w->idle, w->gaps);
    free(e);
    return rc;
}

/* The queues of one device's activities idx[0, n) over their span: the earliest to the
 * latest of their edges (the first and last of the breakdown's sorted edges; a negative
 * duration's end comes before its start). */
static int device_queues(const pf_trace *t, const size_t *idx, size_t n, pf_waits *w)
{
    int64_t lo = 0, hi = 0;
    for (size_t k = 0; k < n; k++) {
        const pf_activity *a = &t->acts[idx[k]];
        int64_t end = pf_sat_add(a->ts_ns, a->dur_ns);
        int64_t first = end < a->ts_ns ? end : a->ts_ns, last = end > a->ts_ns ? end : a->ts_ns;
        lo = k == 0 || first < lo ? first : lo;
        hi = k == 0 || last > hi ? last : hi;
    }
    return queues(t, idx, n, lo, hi, w);
}

int pf_waits_part(const pf_analysis *an, const int64_t *num, const size_t *idx, size_t n, int part, pf_waits *w)
{
    assert(an && an->cats && (idx || n == 0) && part >= 0 && part < PF_WAITS_PARTS && w);
    switch (part) {
    case 0:
        return device_breakdown(an, idx, n, w);
    case 1:
        return launch_stats(an->trace, idx, n, &w->launch);
    case 2:
        return device_queues(an->trace, idx, n, w);
    default:
        return num ? step_breakdowns(an, num, idx, n, w) : 0;
    }
}

void pf_waits_free(pf_waits *w, size_t n)
{
    if (!w)
        return;
    for (size_t k = 0; k < n; k++) {
        free(w[k].queues);
        free(w[k].steps);
        free(w[k].gaps);
    }
    free(w);
}

double pf_breakdown_overlap_pct(const pf_breakdown *b)
{
    assert(b);
    if (b->communication_total_ns <= 0)
        return -1;
    return 100.0 * (1.0 - (double)b->communication_ns / (double)b->communication_total_ns);
}

double pf_launch_call_mean_us(const pf_launch_stats *l)
{
    assert(l);
    return l->count ? (double)l->call_ns_sum / 1e3 / (double)l->count : 0;
}

const char *pf_waits_bin_name(int bin)
{
    static const char *const names[PF_WAITS_BINS] = {"<5", "5-10", "10-50", "50-100", ">=100"};
    assert(bin >= 0 && bin < PF_WAITS_BINS);
    return names[bin];
}
