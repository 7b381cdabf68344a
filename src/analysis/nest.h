/* nest.h - host intervals nested per thread (not a public interface): module calls, backward ops; the innermost one holding an instant, the outermost above it. Shared by the module view (modules.c) and the phase spread (phase_spread.c). */
#ifndef PROFANA_ANALYSIS_NEST_H
#define PROFANA_ANALYSIS_NEST_H

#include <stddef.h>
#include <stdint.h>

/* The name prefix of a module call's Python event ("nn.Module: Linear_0"). */
#define PF_NEST_MODULE_PREFIX "nn.Module: "

/* Whether a Python event's name is a module call; NULL is not. */
int pf_nest_is_module_call(const char *name);

/* A host interval; parent: the innermost interval of the same thread that holds it (-1 none),
 * an index into the sorted array. tag: what it stands for (a path id, an autograd op, a mark). */
typedef struct pf_nest_span {
    uint64_t thread;
    int64_t ts, end;
    int32_t parent;
    int32_t tag;
} pf_nest_span;

/* Sorts s[0, n) by thread and start (outer first) and links each to its parent. An interval
 * that overlaps the one before without being inside it (not nested: a trace's rounding) is
 * taken as its sibling. s non-NULL unless n is 0. */
void pf_nest_build(pf_nest_span *s, size_t n);

/* The first interval of the built s that starts after (thread, x) in its order: n when none. */
size_t pf_nest_after(const pf_nest_span *s, size_t n, uint64_t thread, int64_t x);

/* The innermost interval of the built s on thread holding instant x (start <= x <= end), -1
 * none: the last one starting at or before x, else the closest of its ancestors holding x. */
int32_t pf_nest_find(const pf_nest_span *s, size_t n, uint64_t thread, int64_t x);

/* The outermost interval above k (k itself when it has no parent); k >= 0. */
int32_t pf_nest_root(const pf_nest_span *s, int32_t k);

#endif
