/* families.h - private to src/formulas: the formula of each op family, which registry.c calls. */
#ifndef PROFANA_FORMULAS_FAMILIES_H
#define PROFANA_FORMULAS_FAMILIES_H

#include "args.h"

/* Each formula of formula_list.h is a pf_formula_fn: the op table (op_family.h) names it per
 * op, registry.c calls it. A family module includes this header for its own prototypes; only
 * reduce.c calls another family (max.other, an element-wise overload, is pf_est_pointwise). */
#define PF_FORMULA(id, fn, word) int fn(const pf_op_call *call, pf_work *w);
#include "profana/formula_list.h"
#undef PF_FORMULA

/* No formula: the generic guess (generic.c). Returns
 * PF_FORMULA_OK, or -1 when the call has no tensor argument (w untouched then). */
int pf_estimate_unlisted(const pf_op_call *call, pf_work *w);

#endif
