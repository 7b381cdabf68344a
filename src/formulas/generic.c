/* generic.c - the estimate for ops no formula knows: bytes from their tensor arguments, FLOPs unknown. */
#include "families.h"

#include <string.h>

/* The tensor or tensor list with the most elements; NULL when there is none. */
static const pf_arg *largest_tensor_arg(const pf_op_call *call)
{
    const pf_arg *best = NULL;
    for (int i = 0; i < call->nargs; i++) {
        const pf_arg *a = &call->args[i];
        if ((a->is_list || pf_arg_is_tensor(a)) && (!best || pf_arg_numel(a) > pf_arg_numel(best)))
            best = a;
    }
    return best;
}

/* Inductor's Triton launches (named triton_*) pass their outputs as arguments: the tensor
 * arguments are the whole traffic. Anything else is assumed to read every tensor argument
 * and write one output as large as the largest. */
int pf_estimate_unlisted(const pf_op_call *call, pf_work *w)
{
    const pf_arg *largest = largest_tensor_arg(call);
    if (!largest)
        return -1;
    int triton = call->name && strncmp(call->name, "triton_", 7) == 0;
    double bytes = pf_tensor_args_bytes(call);
    if (!triton)
        bytes = pf_bytes_add(bytes, pf_tensor_bytes(largest));
    pf_estimate_done(call, w, -1, bytes);
    w->generic = !triton;
    pf_ex_rule(w, "generic.c", "the largest tensor input");
    pf_ex(w, PF_EX_SIZES, triton ? "no formula: an Inductor launch, its outputs among its arguments"
                                 : "no formula: every tensor argument read, an output as large as the largest");
    pf_ex(w, PF_EX_BYTES, triton ? "tensor arguments = " : "tensor arguments + largest = ");
    pf_ex_tensor_args(w, PF_EX_BYTES, call);
    if (!triton) {
        pf_ex(w, PF_EX_BYTES, " + ");
        pf_ex_tensor(w, PF_EX_BYTES, largest);
    }
    return PF_FORMULA_OK;
}
