/* categories.h - the category of each GPU activity (Triton kind, GEMM, conv, ...) from its op and kernel name. */
/* layer: analysis (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_CATEGORIES_H
#define PROFANA_CATEGORIES_H

#include "profana/trace.h"

/* The categories, in the order reports list them. The first five Triton ones are Inductor's
 * own (its `-p` report groups kernels the same way); the rest split the library kernels. */
typedef enum pf_category {
    PF_CAT_TRITON_POINTWISE,
    PF_CAT_TRITON_REDUCTION,
    PF_CAT_TRITON_PERSISTENT_REDUCTION,
    PF_CAT_TRITON_TEMPLATE,
    PF_CAT_TRITON_FOREACH,
    PF_CAT_TRITON_OTHER,
    PF_CAT_GEMM,
    PF_CAT_CONV,
    PF_CAT_ATTENTION,
    PF_CAT_ELEMENTWISE,
    PF_CAT_REDUCTION,
    PF_CAT_NORMALIZATION,
    PF_CAT_COMMUNICATION,
    PF_CAT_MEMCPY,
    PF_CAT_MEMSET,
    PF_CAT_OTHER,
    PF_CAT_COUNT
} pf_category;

/* The category's name as reports print it: "triton_pointwise", "triton_reduction",
 * "triton_persistent_reduction", "triton_template", "triton_foreach", "triton_other", "gemm",
 * "conv", "attention", "elementwise", "reduction", "normalization", "communication", "memcpy",
 * "memset", "other". A value outside [0, PF_CAT_COUNT) gives "other". Never NULL. */
const char *pf_category_name(pf_category c);

/* The category of one GPU activity, from one ordered rule table; the first rule that matches
 * decides:
 *   1. the kind: a memcpy or memset activity is PF_CAT_MEMCPY / PF_CAT_MEMSET whatever launched
 *      it (so are ROCm's runtime copy/fill kernels, "__amd_rocclr_copy..." / "_fill...");
 *   2. Inductor's Triton prefixes (triton_poi_, _red_, _per_, _tem_, _for_, then any triton_),
 *      on the op name first, then on the kernel name;
 *   3. the family of op_name, the innermost cpu_op that launched the activity (aten::addmm is
 *      GEMM even when its kernel is a cuBLAS split-K helper or a copy of the bias): name
 *      patterns (collectives, attention, convolution, norms, pooling, foreach) and the op
 *      table's families (op_family.h);
 *   4. the kernel name, when there is no op or its op is in no family (autograd:: wrappers,
 *      unknown ops);
 *   5. otherwise PF_CAT_OTHER.
 * kernel_name and op_name may be NULL (unnamed, or an activity linked to no cpu_op). Op rules
 * are case-sensitive (ATen names are lower case); kernel rules are case-sensitive except the
 * library words that vendors spell in several cases (gemm/Gemm, MIOpen/miopen, fmha/Fmha,
 * softmax/SoftMax, ...). Pure: no state, no allocation; a linear scan of ~100 short patterns,
 * so callers that see millions of activities cache the answer per distinct (kernel, op). */
pf_category pf_category_of(pf_act_kind kind, const char *kernel_name, const char *op_name);

#endif
