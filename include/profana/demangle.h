/* demangle.h - Itanium C++ ABI names (_Z...) made readable, as GNU c++filt writes them, for the kernels ROCm libraries leave mangled. */
/* layer: util (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_DEMANGLE_H
#define PROFANA_DEMANGLE_H

/* The demangled form of mangled ("_Z" followed by an encoding, as ck_tile, aiter, CK and
 * CUTLASS kernels are named in ROCm traces), malloc'd (the caller frees it), written the way
 * GNU c++filt writes it: "_ZN5aiter3fooIiEEvPT_" -> "void aiter::foo<int>(int*)". NULL for a
 * name that is not mangled, one this demangler does not know (some expressions in template
 * arguments, special names but vtables, typeinfo and guard variables) or a malformed one,
 * and when memory runs out: the caller shows the name as it is. Bounded in time and memory
 * whatever the input: nesting and the expanded output are capped. */
char *pf_demangle(const char *mangled);

#endif
