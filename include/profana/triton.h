/* triton.h - figures of Inductor's Triton launches: from the generated kernel module's own text (its triton_meta signature and body), or from the trace alone as a lower bound. */
/* layer: formulas (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_TRITON_H
#define PROFANA_TRITON_H

#include <stddef.h>
#include <stdint.h>

#include "profana/formulas.h"
#include "profana/op_call.h"

/* Whether name is an Inductor Triton launch (the cpu_op Inductor records around each launch
 * of its generated kernels is named after the kernel: "triton_poi_fused_gelu_0"). */
int pf_triton_is_launch(const char *name);


/* Elements one pointer of an Inductor pointwise or reduction launch (triton_poi_, triton_red_,
 * triton_per_) can touch: the product of its trailing integer arguments (the size symbols,
 * then ynumel/xnumel/rnumel), by which every pointer is indexed, so a kernel reading a slice
 * of a larger buffer (q out of a fused qkv) moves no more than that. A 0 before the last
 * integer ends the run: a kernel that runs has no size 0, so it is another argument (a
 * dropout's load_seed_offset), and the sizes are the integers after it. -1 for other launches
 * (a template's trailing integers are its grid) or when an integer is missing or unreadable. */
int64_t pf_triton_launch_cap(const pf_op_call *call);

/* A Triton kernel module as profana reads it: the launch parameters (those the def line does
 * not mark tl.constexpr), in launch order, with their role and element size. */
enum { PF_TRITON_MAX_PARAMS = 256 };
typedef enum pf_triton_role {
    PF_TRITON_SCALAR = 0,      /* an integer or float argument (xnumel, ks0, ...) */
    PF_TRITON_IN,              /* in_ptrN (and any other pointer): read */
    PF_TRITON_OUT,             /* out_ptrN: written */
    PF_TRITON_INOUT            /* in_out_ptrN: read and written in place */
} pf_triton_role;

typedef struct pf_triton_param {
    pf_triton_role role;
    int elem_size;             /* bytes of a pointer's element type ("*bf16": 2); 0 scalars */
    int is_numel;              /* xnumel, ynumel, znumel, r0_numel, r1_numel, rnumel: the
                                  iteration space, whose product bounds what a pointer moves */
    int accesses;              /* distinct index expressions the body loads, stores or
                                  atomically updates through this pointer (0 none seen) */
} pf_triton_param;

typedef struct pf_triton_kernel {
    int nparams;
    pf_triton_param params[PF_TRITON_MAX_PARAMS];
    int ops_per_elem;          /* arithmetic operations of the body's tmp statements */
} pf_triton_kernel;

/* Parses the text of an Inductor-generated Triton module (len bytes, not NUL-terminated):
 * the "'signature': {...}" of its triton_meta, the @triton.jit def line and the body up to
 * the next top-level line. Returns 0, or -1 with a static reason in *why when the text is not
 * such a module (no signature, no def line, a pointer type it does not know, too many
 * parameters). Reads nothing outside text[0, len). */
int pf_triton_parse(const char *text, size_t len, pf_triton_kernel *k, const char **why);

/* pf_triton_parse in one pass over the text (linear in len: parentheses matched by a
 * counter and a stack of open indexes at most 200 deep, Python's own limit, beyond which the
 * text is refused), stopped once it has spent budget_s seconds of its thread's CPU time
 * (0: no budget): then -2, with *why saying so, and *k not to be used. */
int pf_triton_parse_within(const char *text, size_t len, double budget_s, pf_triton_kernel *k, const char **why);

/* Figures of an Inductor Triton launch (pf_triton_is_launch(call->name)), filling *w as a
 * formula does (w->explain is written when ex is not NULL: cleared first):
 * - module (len bytes) given and parsed, its parameters matching the call's arguments one for
 *   one: source "triton-src". Bytes as Inductor's estimate_kernel_num_bytes counts them: per
 *   pointer its tensor's bytes, in_out twice, and a pointer to more elements than the
 *   iteration space (xnumel x rnumel) counted at its distinct accesses x the iteration space
 *   (a slice of a larger buffer); FLOPs the body's arithmetic operations per element x the
 *   iteration space (an estimate: a convention, documented in docs/analysis.md,
 *   "Inductor's Triton kernels").
 * - otherwise (module NULL, unparsable or not matching; why_no_module says why, or the
 *   parse's reason is used): source "triton~lb", lower_bound = 1: every tensor argument
 *   once, each at most the product of the launch's trailing integers; a GEMM template
 *   (triton_tem_*mm*) also gets 2*M*N*K from its A, B and output shapes.
 * Returns PF_FORMULA_OK, or -1 when the call has no tensor argument (no figures). */
int pf_triton_work(const pf_op_call *call, const char *module, size_t len, const char *why_no_module,
                   pf_explain *ex, pf_work *w);

/* pf_triton_work over a module parsed already (pf_triton_parse_within): k, or NULL with
 * why_no_module saying why there is none, so that a module many launches name is parsed once. */
int pf_triton_work_parsed(const pf_op_call *call, const pf_triton_kernel *k, const char *why_no_module,
                          pf_explain *ex, pf_work *w);

#endif
