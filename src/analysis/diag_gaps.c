/* diag_gaps.c - what the host was doing while the GPU waited: each idle gap's host-wait part attributed, instant by instant, to the innermost annotation or Python frame on the thread that launched the work ending it; gaps that begin while that thread is blocked in a sync counted apart. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "profana/ptrmap.h"

/* CPU and GPU clocks of one trace agree to the microsecond; a sync that returns this much
 * before the GPU drained still waited for it. */
#define SYNC_SLACK_NS 5000

typedef struct marks_by_thread {
    const pf_host_mark *m;             /* the trace's marks */
    size_t *region, n_region;          /* annotations and frames by (thread, ts, longest first) */
    size_t *sync, n_sync;              /* syncs and blocking ops by (thread, ts) */
} marks_by_thread;

static int cmp_mark(const void *x, const void *y, const pf_host_mark *m)
{
    const pf_host_mark *a = &m[*(const size_t *)x], *b = &m[*(const size_t *)y];
    if (a->thread != b->thread)
        return a->thread < b->thread ? -1 : 1;
    if (a->ts_ns != b->ts_ns)
        return a->ts_ns < b->ts_ns ? -1 : 1;
    if (a->dur_ns != b->dur_ns) /* the outer of two that start together first */
        return a->dur_ns > b->dur_ns ? -1 : 1;
    return *(const size_t *)x < *(const size_t *)y ? -1 : 1;
}

/* qsort has no context argument in C11: sort an array of (mark, index) pairs instead. */
typedef struct mark_ref {
    const pf_host_mark *m;
    size_t i;
} mark_ref;

static int cmp_ref(const void *x, const void *y)
{
    const mark_ref *a = x, *b = y;
    size_t ia = a->i, ib = b->i;
    return cmp_mark(&ia, &ib, a->m);
}

static int sort_marks(const pf_host_mark *m, size_t *idx, size_t n)
{
    mark_ref *r = malloc((n ? n : 1) * sizeof *r);
    if (!r)
        return -1;
    for (size_t k = 0; k < n; k++)
        r[k] = (mark_ref){m, idx[k]};
    qsort(r, n, sizeof *r, cmp_ref);
    for (size_t k = 0; k < n; k++)
        idx[k] = r[k].i;
    free(r);
    return 0;
}

/* Python frames that name no code of the user's: builtins and torch's own frames (their time
 * goes to the frame that called them: "forward_batch_info.py(443): ...", not
 * "torch/utils/_device.py(99): __torch_function__"). */
static int is_builtin(const pf_host_mark *m)
{
    return m->kind == PF_MARK_PYTHON && (strncmp(m->name, "<built-in", 9) == 0 || strncmp(m->name, "torch/", 6) == 0 ||
                                         strstr(m->name, "/torch/") != NULL);
}

static int split_marks(const pf_trace *t, marks_by_thread *mt)
{
    memset(mt, 0, sizeof *mt);
    mt->m = t->marks;
    size_t n = t->n_marks ? t->n_marks : 1;
    mt->region = malloc(n * sizeof *mt->region);
    mt->sync = malloc(n * sizeof *mt->sync);
    if (!mt->region || !mt->sync)
        return -1;
    for (size_t i = 0; i < t->n_marks; i++) {
        const pf_host_mark *k = &t->marks[i];
        if (k->kind == PF_MARK_SYNC || k->kind == PF_MARK_BLOCKING_OP)
            mt->sync[mt->n_sync++] = i;
        else if (k->dur_ns > 0 && !is_builtin(k))
            mt->region[mt->n_region++] = i;
    }
    return sort_marks(t->marks, mt->region, mt->n_region) || sort_marks(t->marks, mt->sync, mt->n_sync);
}

/* The first index in idx[0, n) whose mark is on thread th (or past it): idx sorted by thread. */
static size_t first_of_thread(const pf_host_mark *m, const size_t *idx, size_t n, uint64_t th)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m[idx[mid]].thread < th)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The covers being summed: by name, in a map to their slots. */
typedef struct covers {
    pf_ptrmap map;
    pf_idle_cover *c;
    size_t n, cap;
} covers;

static int cover_add(covers *cv, const pf_host_mark *top, const pf_host_mark *ann, int64_t ns, int64_t gap_len,
                     int new_gap)
{
    assert(top != NULL && ns > 0);
    int added;
    int64_t k = pf_ptrmap_find_or_add(&cv->map, top->name, cv->n, &added);
    if (k < 0)
        return -1;
    if (added) {
        if (cv->n == cv->cap) {
            size_t cap = cv->cap ? 2 * cv->cap : 16;
            pf_idle_cover *nc = realloc(cv->c, cap * sizeof *nc);
            if (!nc)
                return -1;
            cv->c = nc;
            cv->cap = cap;
        }
        cv->c[cv->n++] = (pf_idle_cover){top->name, top->kind, ann && ann != top ? ann->name : NULL, 0, 0, 0};
    }
    pf_idle_cover *c = &cv->c[k];
    c->idle_ns += ns;
    c->gaps += new_gap;
    c->short_ns += gap_len < PF_DIAG_SHORT_GAP_NS ? ns : 0;
    return 0;
}

/* The open marks of one thread at the sweep's instant, innermost on top, each with the
 * innermost annotation at or below it. */
typedef struct open_stack {
    const pf_host_mark **m, **ann;
    size_t n, cap;
} open_stack;

static int stack_push(open_stack *s, const pf_host_mark *k)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 32;
        const pf_host_mark **nm = realloc(s->m, cap * sizeof *nm), **na = nm ? realloc(s->ann, cap * sizeof *na) : NULL;
        if (nm)
            s->m = nm;
        if (!nm || !na)
            return -1;
        s->ann = na;
        s->cap = cap;
    }
    s->ann[s->n] = k->kind == PF_MARK_ANNOTATION ? k : s->n ? s->ann[s->n - 1] : NULL;
    s->m[s->n++] = k;
    return 0;
}

static void stack_pop_ended(open_stack *s, int64_t at)
{
    while (s->n && s->m[s->n - 1]->ts_ns + s->m[s->n - 1]->dur_ns <= at)
        s->n--;
}

/* One thread's sweep: its cursor in the sorted region marks and its open stack. */
typedef struct sweep {
    const pf_host_mark *m;
    const size_t *idx;
    size_t at, end;                    /* cursor and end of this thread's marks */
    uint64_t thread;
    open_stack st;
} sweep;

static void sweep_start(sweep *s, const marks_by_thread *mt, uint64_t th)
{
    s->m = mt->m;
    s->idx = mt->region;
    s->thread = th;
    s->at = first_of_thread(mt->m, mt->region, mt->n_region, th);
    s->end = s->at;
    while (s->end < mt->n_region && mt->m[mt->region[s->end]].thread == th)
        s->end++;
    s->st.n = 0;
}

/* Pushes the marks that start before `before`. */
static int sweep_advance(sweep *s, int64_t before)
{
    while (s->at < s->end && s->m[s->idx[s->at]].ts_ns < before) {
        const pf_host_mark *k = &s->m[s->idx[s->at++]];
        stack_pop_ended(&s->st, k->ts_ns);
        if (stack_push(&s->st, k))
            return -1;
    }
    return 0;
}

/* Attributes [a, b) of one gap (of length gap_len) instant by instant to the innermost open
 * mark. When the gap began while the host sat in a sync that returned at sync_end (else
 * INT64_MIN), the time until then, and later time under no mark or under a mark that was open
 * around the sync, follows the sync (into g->sync_idle_ns); work that began after it keeps its
 * own time: a Python function that runs 140 ms after a copy returned is that function's. */
static int attribute_host(sweep *s, covers *cv, int64_t a, int64_t b, int64_t gap_len, int64_t sync_end,
                          pf_diagnosis *g)
{
    assert(a < b);
    const pf_host_mark *last = NULL;
    for (int64_t t = a; t < b;) {
        if (sweep_advance(s, t + 1)) /* every mark that starts by t is open (or ended) */
            return -1;
        stack_pop_ended(&s->st, t);
        int64_t next = b;
        const pf_host_mark *top = s->st.n ? s->st.m[s->st.n - 1] : NULL;
        if (top && top->ts_ns + top->dur_ns < next)
            next = top->ts_ns + top->dur_ns;
        if (s->at < s->end && s->m[s->idx[s->at]].ts_ns < next)
            next = s->m[s->idx[s->at]].ts_ns;
        if (t < sync_end && sync_end < next)
            next = sync_end;
        assert(next > t);
        if (t < sync_end || (sync_end != INT64_MIN && (!top || top->ts_ns < sync_end))) {
            g->sync_idle_ns += next - t;
        } else if (top) {
            if (cover_add(cv, top, s->st.ann[s->st.n - 1], next - t, gap_len, top != last))
                return -1;
            last = top;
        } else if (gap_len < PF_DIAG_SHORT_GAP_NS) {
            g->uncovered_short_ns += next - t;
        } else {
            g->uncovered_long_ns += next - t;
        }
        t = next;
    }
    return 0;
}

/* The sync or blocking op on thread th that the host sat in when the GPU drained at `from`
 * (the latest to start by then that ends at or after it), or that holds most of the gap
 * [from, to) (a synchronous copy that waits while the GPU idles); NULL none. *op: a blocking
 * op around it, if any. */
static const pf_host_mark *sync_at(const marks_by_thread *mt, uint64_t th, int64_t from, int64_t to,
                                   const pf_host_mark **op)
{
    const pf_host_mark *m = mt->m;
    size_t lo = first_of_thread(m, mt->sync, mt->n_sync, th), hi = lo, end = mt->n_sync;
    while (hi < end) { /* the first of the thread's marks that starts after from + slack */
        size_t mid = hi + (end - hi) / 2;
        if (m[mt->sync[mid]].thread == th && m[mt->sync[mid]].ts_ns <= from + SYNC_SLACK_NS)
            hi = mid + 1;
        else
            end = mid;
    }
    /* the first that starts inside the gap, if it holds most of it */
    if (hi < mt->n_sync && m[mt->sync[hi]].thread == th && m[mt->sync[hi]].ts_ns < to) {
        const pf_host_mark *c = &m[mt->sync[hi]];
        int64_t c_end = c->ts_ns + c->dur_ns < to ? c->ts_ns + c->dur_ns : to;
        if (2 * (c_end - c->ts_ns) >= to - from) {
            *op = NULL;
            return c;
        }
    }
    const pf_host_mark *call = NULL;
    *op = NULL;
    /* a blocking op holds its sync call: look at the last few that began */
    for (size_t k = hi; k > lo && hi - k < 4; k--) {
        const pf_host_mark *c = &m[mt->sync[k - 1]];
        if (c->ts_ns + c->dur_ns < from - SYNC_SLACK_NS)
            continue;
        if (c->kind == PF_MARK_SYNC && !call)
            call = c;
        else if (c->kind == PF_MARK_BLOCKING_OP && !*op)
            *op = c;
    }
    return call ? call : *op;
}

static int gap_bin(int64_t len)
{
    return len < 10000 ? 0 : len < 100000 ? 1 : len < 1000000 ? 2 : len < 10000000 ? 3 : 4;
}

const char *pf_gap_bin_name(int bin)
{
    static const char *const names[PF_GAP_BINS] = {"<10us", "10-100us", "0.1-1ms", "1-10ms", ">=10ms"};
    assert(bin >= 0 && bin < PF_GAP_BINS);
    return names[bin];
}

/* Counts the sync calls that drained the GPU, by name, keeping the most frequent. */
typedef struct sync_names {
    const char *call[8], *op[8];
    int64_t n[8];
    int k;
} sync_names;

static void sync_count(sync_names *sn, const pf_host_mark *call, const pf_host_mark *op)
{
    const char *name = call->name, *opn = op ? op->name : NULL;
    for (int i = 0; i < sn->k; i++)
        if (sn->call[i] == name && sn->op[i] == opn) {
            sn->n[i]++;
            return;
        }
    if (sn->k < 8) {
        sn->call[sn->k] = name;
        sn->op[sn->k] = opn;
        sn->n[sn->k++] = 1;
    }
}

static int cmp_gap_thread(const void *x, const void *y)
{
    const pf_gap *a = *(pf_gap *const *)x, *b = *(pf_gap *const *)y;
    if (a->thread != b->thread)
        return a->thread < b->thread ? -1 : 1;
    return a->from < b->from ? -1 : a->from > b->from;
}

static int cmp_cover(const void *x, const void *y)
{
    const pf_idle_cover *a = x, *b = y;
    return a->idle_ns > b->idle_ns ? -1 : a->idle_ns < b->idle_ns;
}

/* The distinct launching threads of the gaps, in first-seen order; -1 when there are more
 * than cap (then the gaps are sorted by thread instead). */
static int gap_threads(const pf_waits *w, uint64_t *th, int cap)
{
    int n = 0;
    for (int64_t i = 0; i < w->idle.gaps; i++) {
        uint64_t t = w->gaps[i].thread;
        int k = 0;
        while (k < n && th[k] != t)
            k++;
        if (k == n) {
            if (n == cap)
                return -1;
            th[n++] = t;
        }
    }
    return n;
}

/* One gap of a sweep over its thread: its bins, then the sync or the marks that cover it. */
static int walk_one(const pf_gap *gp, const marks_by_thread *mt, sweep *s, covers *cv, sync_names *sn,
                    pf_diagnosis *g)
{
    int64_t len = gp->to - gp->from;
    g->gap_count[gap_bin(len)]++;
    g->gap_ns[gap_bin(len)] += len;
    if (!gp->attributed || !gp->thread)
        return 0;
    const pf_host_mark *op, *call = mt->n_sync ? sync_at(mt, gp->thread, gp->from, gp->to, &op) : NULL;
    int64_t sync_end = INT64_MIN;
    if (call && call->ts_ns > gp->from + SYNC_SLACK_NS) { /* it holds most of the gap: all of it */
        g->sync_n++;
        g->sync_idle_ns += len;
        sync_count(sn, call, op);
        return 0;
    }
    g->latency_ns += call ? 0 : gp->to - gp->split;
    if (call) {
        g->sync_n++;
        g->sync_idle_ns += gp->to - gp->split; /* the launch latency part too */
        sync_end = call->ts_ns + call->dur_ns;
        sync_count(sn, call, op);
    }
    if (gp->split <= gp->from)
        return 0;
    if (s->at == s->end && !s->st.n && sync_end == INT64_MIN) { /* no mark left on this thread */
        if (len < PF_DIAG_SHORT_GAP_NS)
            g->uncovered_short_ns += gp->split - gp->from;
        else
            g->uncovered_long_ns += gp->split - gp->from;
        return 0;
    }
    return attribute_host(s, cv, gp->from, gp->split, len, sync_end, g);
}

/* The gaps walked thread by thread, each in time order (each thread's marks swept once): one
 * pass over the gaps a thread when there are few threads, else the gaps sorted by thread. */
static int walk_gaps(const pf_waits *w, const marks_by_thread *mt, covers *cv, sync_names *sn, pf_diagnosis *g)
{
    uint64_t th[16];
    int n_th = gap_threads(w, th, 16), rc = 0;
    sweep s = {0};
    if (n_th >= 0) {
        for (int k = 0; k < n_th && rc == 0; k++) {
            sweep_start(&s, mt, th[k]);
            for (int64_t i = 0; i < w->idle.gaps && rc == 0; i++)
                rc = w->gaps[i].thread == th[k] ? walk_one(&w->gaps[i], mt, &s, cv, sn, g) : 0;
        }
    } else {
        size_t n = (size_t)w->idle.gaps;
        const pf_gap **order = malloc((n ? n : 1) * sizeof *order);
        if (!order)
            return -1;
        for (size_t i = 0; i < n; i++)
            order[i] = &w->gaps[i];
        qsort(order, n, sizeof *order, cmp_gap_thread);
        for (size_t i = 0; i < n && rc == 0; i++) {
            if (i == 0 || order[i - 1]->thread != order[i]->thread)
                sweep_start(&s, mt, order[i]->thread);
            rc = walk_one(order[i], mt, &s, cv, sn, g);
        }
        free(order);
    }
    free(s.st.m);
    free(s.st.ann);
    return rc;
}

int pf_diag_gaps(const pf_analysis *an, const pf_waits *w, pf_diagnosis *g)
{
    assert(an != NULL && w != NULL && g != NULL);
    if (!w->gaps)
        return 0; /* the analysis kept no gaps: nothing to attribute */
    marks_by_thread mt;
    covers cv = {0};
    sync_names sn = {0};
    int rc = split_marks(an->trace, &mt) || walk_gaps(w, &mt, &cv, &sn, g) ? -1 : 0;
    free(mt.region);
    free(mt.sync);
    pf_ptrmap_free(&cv.map);
    if (rc) {
        free(cv.c);
        return -1;
    }
    if (cv.n) /* qsort wants a non-NULL base even for none (UBSan) */
        qsort(cv.c, cv.n, sizeof *cv.c, cmp_cover);
    g->covers = cv.c;
    g->n_covers = cv.n;
    int best = -1;
    for (int i = 0; i < sn.k; i++)
        if (best < 0 || sn.n[i] > sn.n[best])
            best = i;
    if (best >= 0) {
        g->sync_call = sn.call[best];
        g->sync_op = sn.op[best];
    }
    return 0;
}
