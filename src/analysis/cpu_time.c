/* cpu_time.c - per-op CPU time from the nesting of host intervals on each thread, as key_averages() reports it. */
#define _GNU_SOURCE /* qsort_r */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>

#include "profana/analysis.h"
#include "profana/i64map.h"
#include "profana/mem.h"
#include "profana/ptrmap.h"
#include "profana/satmath.h"

/* Threads numbered in order of first appearance. A trace holds few threads and millions of
 * intervals: the intervals are grouped by thread with a counting pass, not sorted whole. */
typedef struct threads {
    pf_i64map number;          /* a thread's hash -> its number */
    size_t n;                  /* threads numbered */
    size_t *count;             /* per thread: its intervals, then where its next one goes */
    size_t cap_count;
} threads;

/* The number of thread h, numbering it when new. Returns 0, or -1 when memory runs out. */
static int thread_number(threads *m, uint64_t h, size_t *rank)
{
    int added;
    if (m->n >= UINT32_MAX || pf_grow((void **)&m->count, &m->cap_count, m->n + 1, sizeof *m->count, 16))
        return -1;
    int64_t r = pf_i64map_find_or_add(&m->number, (int64_t)h, (uint32_t)m->n, &added);
    if (r < 0)
        return -1;
    if (added)
        m->count[m->n++] = 0;
    *rank = (size_t)r;
    return 0;
}

static void threads_free(threads *m)
{
    pf_i64map_free(&m->number);
    free(m->count);
}

/* Parent (earlier start, then longer) first. */
static int by_time(const void *x, const void *y, void *ctx)
{
    const pf_cpu_event *cpu = ctx, *a = &cpu[*(const size_t *)x], *b = &cpu[*(const size_t *)y];
    if (a->ts_ns != b->ts_ns)
        return (a->ts_ns > b->ts_ns) - (a->ts_ns < b->ts_ns);
    return (a->dur_ns < b->dur_ns) - (a->dur_ns > b->dur_ns);
}

static int sorted(const pf_cpu_event *cpu, const size_t *ord, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (by_time(&ord[i - 1], &ord[i], (void *)cpu) > 0)
            return 0;
    return 1;
}

/* ord: the intervals grouped by thread, each thread's in time order. Within a thread they
 * keep file order, which Kineto writes nearly sorted: a thread is sorted only when it is
 * not (qsort_r is a stable merge sort here, so equal intervals keep file order). */
static int order_by_thread(const pf_trace *t, size_t *ord)
{
    threads m = {0};
    size_t rank;
    for (size_t i = 0; i < t->n_cpu; i++) {
        if (thread_number(&m, t->cpu[i].thread, &rank)) {
            threads_free(&m);
            return -1;
        }
        m.count[rank]++;
    }
    for (size_t r = 0, at = 0; r < m.n; r++) {
        size_t c = m.count[r];
        m.count[r] = at;
        at += c;
    }
    for (size_t i = 0; i < t->n_cpu; i++) {
        uint32_t r = 0;
        int found = pf_i64map_get(&m.number, (int64_t)t->cpu[i].thread, &r);
        assert(found); /* the first pass numbered every thread */
        (void)found;
        ord[m.count[r]++] = i;
    }
    for (size_t r = 0, from = 0; r < m.n; from = m.count[r++]) {
        size_t n = m.count[r] - from;
        if (!sorted(t->cpu, ord + from, n))
            qsort_r(ord + from, n, sizeof *ord, by_time, (void *)t->cpu);
    }
    threads_free(&m);
    return 0;
}

/* Adds each interval's duration to its innermost enclosing interval on the same thread:
 * self time is duration minus the children's, as the profiler computes it. child[i] is the
 * children's time of interval ord[i]. */
static int nest(const pf_cpu_event *cpu, const size_t *ord, size_t n, int64_t *child)
{
    size_t *stack = NULL, cap = 0, top = 0;
    for (size_t i = 0; i < n; i++) {
        const pf_cpu_event *e = &cpu[ord[i]];
        while (top > 0) {
            const pf_cpu_event *p = &cpu[ord[stack[top - 1]]];
            if (p->thread == e->thread && e->ts_ns < p->ts_ns + p->dur_ns)
                break;
            top--;
        }
        if (top > 0)
            child[stack[top - 1]] = pf_sat_add(child[stack[top - 1]], e->dur_ns);
        if (pf_grow((void **)&stack, &cap, top + 1, sizeof *stack, 64)) {
            free(stack);
            return -1;
        }
        stack[top++] = i;
    }
    free(stack);
    return 0;
}

/* Sums calls, total and self time per name into res (room for every distinct name). */
static int sum_by_name(const pf_trace *t, const size_t *ord, const int64_t *child, pf_op_cpu *res,
                       size_t *n_res)
{
    pf_ptrmap where = {0};
    size_t n = 0;
    for (size_t i = 0; i < t->n_cpu; i++) {
        const pf_cpu_event *e = &t->cpu[ord[i]];
        if (!e->name)
            continue;
        int added;
        int64_t k = pf_ptrmap_find_or_add(&where, e->name, n, &added);
        if (k < 0) {
            pf_ptrmap_free(&where);
            return -1;
        }
        if (added)
            res[n++].name = e->name;
        pf_op_cpu *r = &res[k];
        r->calls++;
        r->total_ns = pf_sat_add(r->total_ns, e->dur_ns);
        r->self_ns = pf_sat_add(r->self_ns, e->dur_ns - child[i]);
    }
    pf_ptrmap_free(&where);
    *n_res = n;
    return 0;
}

int pf_cpu_op_times(const pf_trace *t, pf_op_cpu **out, size_t *n_out)
{
    assert(t && out && n_out);
    assert(!t->op_spans_only); /* self times need every host interval on the op's thread */
    *out = NULL;
    *n_out = 0;
    size_t n = t->n_cpu ? t->n_cpu : 1;
    size_t *ord = malloc(n * sizeof *ord);
    int64_t *child = calloc(n, sizeof *child);
    pf_op_cpu *res = calloc(pf_strtab_count(t->strings) + 1, sizeof *res);
    int rc = ord && child && res ? 0 : -1;
    if (rc == 0)
        rc = order_by_thread(t, ord);
    if (rc == 0)
        rc = nest(t->cpu, ord, t->n_cpu, child);
    if (rc == 0)
        rc = sum_by_name(t, ord, child, res, n_out);
    free(ord);
    free(child);
    if (rc) {
        free(res);
        *n_out = 0;
        return -1;
    }
    *out = res;
    return 0;
}
