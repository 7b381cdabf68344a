/* kernel_role.h - a kernel's part in its op's work: the math kernel that carries the op's FLOPs, a library's helper that carries none, or neither. */
/* layer: analysis (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_KERNEL_ROLE_H
#define PROFANA_KERNEL_ROLE_H

/* What a kernel does for the op that launched it (docs/analysis.md, "How work is attributed"). */
typedef enum pf_kernel_role {
    PF_KERNEL_HELPER = 0,      /* a library's helper (cuBLAS's split-K reduction, cuDNN's attention-
                                * backward dot(dO, O) and dQ conversion, layout transforms): never
                                * given its op's FLOPs */
    PF_KERNEL_PLAIN = 1,       /* any other kernel: given its op's FLOPs only when the op has no
                                * math kernel */
    PF_KERNEL_MATH = 2         /* does the op's matrix arithmetic: given its FLOPs */
} pf_kernel_role;

/* The role of a kernel by its name alone. A math kernel is filed gemm, conv or attention by its
 * name (categories.h) and names the arithmetic in a whole word: the name is cut into words at
 * every character that is not a letter or digit, between letters and digits, and at a capital
 * after a lower-case letter (camelCase), so "conv" is no word of "convert_dq_to_16bits" nor
 * "fmha" of "fmha_reduce_head" once that is listed a helper. Helpers are a list of names
 * (substrings, case as written) checked first. name is not NULL. */
pf_kernel_role pf_kernel_role_of(const char *name);

#endif
