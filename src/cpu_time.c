/* cpu_time.c - per-op CPU time from the nesting of host intervals on each thread, as key_averages() reports it. */
#include <stdlib.h>

#include "profana/analysis.h"
#include "profana/satmath.h"

typedef struct item {
    const pf_cpu_event *e;
    int64_t child_ns;
} item;

static int by_thread_time(const void *x, const void *y)
{
    const pf_cpu_event *a = ((const item *)x)->e, *b = ((const item *)y)->e;
    if (a->thread != b->thread)
        return (a->thread > b->thread) - (a->thread < b->thread);
    if (a->ts_ns != b->ts_ns)
        return (a->ts_ns > b->ts_ns) - (a->ts_ns < b->ts_ns);
    return (a->dur_ns < b->dur_ns) - (a->dur_ns > b->dur_ns); /* parent (longer) first */
}

/* Adds each interval's duration to its innermost enclosing interval on the same thread:
 * self time is duration minus the children's, as the profiler computes it. */
static int nest(item *it, size_t n)
{
    size_t *stack = malloc((n ? n : 1) * sizeof *stack), top = 0;
    if (!stack)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const pf_cpu_event *e = it[i].e;
        while (top > 0) {
            const pf_cpu_event *p = it[stack[top - 1]].e;
            if (p->thread == e->thread && e->ts_ns < p->ts_ns + p->dur_ns)
                break;
            top--;
        }
        if (top > 0)
            it[stack[top - 1]].child_ns = pf_sat_add(it[stack[top - 1]].child_ns, e->dur_ns);
        stack[top++] = i;
    }
    free(stack);
    return 0;
}

int pf_cpu_op_times(const pf_trace *t, pf_op_cpu **out, size_t *n_out)
{
    *out = NULL;
    *n_out = 0;
    item *it = malloc((t->n_cpu ? t->n_cpu : 1) * sizeof *it);
    if (!it)
        return -1;
    for (size_t i = 0; i < t->n_cpu; i++)
        it[i] = (item){&t->cpu[i], 0};
    qsort(it, t->n_cpu, sizeof *it, by_thread_time);
    int rc = nest(it, t->n_cpu);
    pf_op_cpu *res = calloc(pf_strtab_count(t->strings) + 1, sizeof *res);
    size_t n = 0;
    if (rc == 0 && !res)
        rc = -1;
    /* Few distinct op names: a linear search per name keeps this simple; the results are
     * looked up once per row. */
    for (size_t i = 0; rc == 0 && i < t->n_cpu; i++) {
        const pf_cpu_event *e = it[i].e;
        if (!e->name)
            continue;
        size_t k = 0;
        while (k < n && res[k].name != e->name)
            k++;
        if (k == n)
            res[n++].name = e->name;
        res[k].calls++;
        res[k].total_ns = pf_sat_add(res[k].total_ns, e->dur_ns);
        res[k].self_ns = pf_sat_add(res[k].self_ns, e->dur_ns - it[i].child_ns);
    }
    free(it);
    if (rc) {
        free(res);
        return -1;
    }
    *out = res;
    *n_out = n;
    return 0;
}
