/* names.h - the one rule that shortens kernel signatures and op keys for tables and charts, and tells apart names that would read the same. */
/* layer: catalog (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_NAMES_H
#define PROFANA_NAMES_H

#include <stddef.h>

/* The short form of a row key into buf (n bytes; cut at n-1 bytes). A C++ kernel signature
 * (kernel != 0) loses "void", its namespaces, its argument list and its template arguments
 * but for the name of the first one that is not a number (ATen's functor): "void
 * at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::BFloat16>,
 * ...>(int, ...)" -> "vectorized_elementwise_kernel<CUDAFunctor_add>"; a return type with
 * templates of its own (std::enable_if<!(false), void>::type) goes whole; a function named
 * only "kernel" keeps its scope, and "<...>" when its first argument is a scalar type
 * ("gemvx::kernel<...>"); a mangled name (_Z...) is demangled first (pf_demangle), kept as it
 * is when it cannot be. A plain name (nvjet_*, "Memset (Device)") and every op key (kernel ==
 * 0) stay as they are. Returns buf. */
const char *pf_name_short(const char *key, int kernel, char *buf, size_t n);

/* Cuts s, in place, to limit characters (UTF-8 aware) by putting "..." in the middle: kernel
 * variants differ at the end (..._NNT, ..._TNT), ops at the start. limit <= 3 or a name that
 * fits: unchanged. */
void pf_name_cut(char *s, int limit);

/* Short names (pf_name_short) for the n keys of one table, distinct where the keys are: keys
 * whose short names collide get, before the closing '>', the first words of their template
 * and argument lists (namespaces left out) that differ, joined by "...":
 * "reduce_kernel<ReduceOp...BFloat16>" and "reduce_kernel<ReduceOp...float>"; keys that differ
 * only in namespaces or punctuation get " #2", " #3" in table order. out[i] is malloc'd (the
 * caller frees each). Returns 0, or -1 when memory runs out (out then all NULL). */
int pf_names_short_set(const char *const *keys, size_t n, int kernel, char **out);

#endif
