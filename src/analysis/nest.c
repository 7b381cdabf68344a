/* nest.c - host intervals nested per thread (nest.h): sorted by thread and start, each linked to its parent, and searched for the innermost interval holding an instant. */
#include "nest.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

int pf_nest_is_module_call(const char *name)
{
    return name && strncmp(name, PF_NEST_MODULE_PREFIX, sizeof PF_NEST_MODULE_PREFIX - 1) == 0;
}

static int nest_cmp(const void *x, const void *y)
{
    const pf_nest_span *a = x, *b = y;
    if (a->thread != b->thread)
        return a->thread < b->thread ? -1 : 1;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    if (a->end != b->end)
        return a->end > b->end ? -1 : 1; /* the outer first */
    return (a->tag > b->tag) - (a->tag < b->tag);
}

void pf_nest_build(pf_nest_span *s, size_t n)
{
    assert(s || n == 0);
    if (n > 1)
        qsort(s, n, sizeof *s, nest_cmp);
    for (size_t i = 0; i < n; i++) {
        int32_t p = i ? (int32_t)(i - 1) : -1;
        while (p >= 0 && (s[p].thread != s[i].thread || s[p].end < s[i].end))
            p = s[p].parent;
        s[i].parent = p;
    }
}

size_t pf_nest_after(const pf_nest_span *s, size_t n, uint64_t thread, int64_t x)
{
    assert(s || n == 0);
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s[mid].thread < thread || (s[mid].thread == thread && s[mid].ts <= x))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int32_t pf_nest_find(const pf_nest_span *s, size_t n, uint64_t thread, int64_t x)
{
    size_t lo = pf_nest_after(s, n, thread, x);
    if (lo == 0 || s[lo - 1].thread != thread)
        return -1;
    int32_t k = (int32_t)(lo - 1);
    while (k >= 0 && s[k].end < x)
        k = s[k].parent;
    return k;
}

int32_t pf_nest_root(const pf_nest_span *s, int32_t k)
{
    assert(s && k >= 0);
    while (s[k].parent >= 0)
        k = s[k].parent;
    return k;
}
