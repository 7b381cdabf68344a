/* generic.c - the generic guess for ops no formula knows (source "generic"): bytes from their tensor arguments, FLOPs unknown. */
#include "families.h"

#include <assert.h>
#include <string.h>

#include "profana/dtype.h"
#include "profana/satmath.h"
#include "profana/triton.h"

/* A table or cache argument has more than this many times the rows (leading dim) of the
 * op's smallest 2-D or larger tensor argument. */
enum { TABLE_ROWS_RATIO = 4 };

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

/* Whether a is a tensor of 2 dims or more. */
static int is_matrix(const pf_arg *a)
{
    return !a->is_list && a->ndim >= 2 && a->dims[0] > 0 && pf_arg_numel(a) > 0;
}

/* A tensor argument that is a table or cache the op likely touches only rows of: one of 2
 * dims or more with over TABLE_ROWS_RATIO times both the rows (leading dim) and the elements
 * of the op's such argument with the fewest rows (a KV cache of 835874 slots written at
 * 15360 tokens' slots, a rotary cos/sin cache of 131072 positions read at 888; a view of the
 * same elements under another shape is no table). Counting it whole would charge gigabytes
 * to a kernel that moves megabytes, so the guess is not made. NULL when there is none. */
static const pf_arg *partial_table(const pf_op_call *call)
{
    const pf_arg *fewest = NULL;
    for (int i = 0; i < call->nargs; i++)
        if (is_matrix(&call->args[i]) && (!fewest || call->args[i].dims[0] < fewest->dims[0]))
            fewest = &call->args[i];
    for (int i = 0; fewest && i < call->nargs; i++) {
        const pf_arg *a = &call->args[i];
        if (is_matrix(a) && a->dims[0] / TABLE_ROWS_RATIO > fewest->dims[0] &&
            pf_arg_numel(a) / TABLE_ROWS_RATIO > pf_arg_numel(fewest))
            return a;
    }
    return NULL;
}

/* Whether argument a is counted at cap elements rather than whole (cap < 0: never). */
static int is_capped(const pf_arg *a, int64_t cap)
{
    int size = a->is_list ? 0 : pf_type_size(a->type);
    return cap >= 0 && size > 0 && pf_tensor_read_bytes(a) > (double)cap * size;
}

/* Bytes of every tensor argument, each at most cap elements (cap < 0: whole). */
static double capped_args_bytes(const pf_op_call *call, int64_t cap)
{
    double total = 0;
    for (int i = 0; i < call->nargs && total >= 0; i++) {
        const pf_arg *a = &call->args[i];
        if (!a->is_list && !pf_arg_is_tensor(a))
            continue;
        total = pf_bytes_add(total, is_capped(a, cap) ? (double)cap * pf_type_size(a->type)
                                                      : pf_tensor_read_bytes(a));
    }
    return total;
}

/* The terms of capped_args_bytes: a capped argument as cap*size. */
static void ex_capped_args(pf_work *w, const pf_op_call *call, int64_t cap)
{
    int terms = 0, cut = 0;
    for (int i = 0; i < call->nargs; i++) {
        const pf_arg *a = &call->args[i];
        if (!a->is_list && !pf_arg_is_tensor(a))
            continue;
        if (terms++)
            pf_ex(w, PF_EX_BYTES, " + ");
        if (is_capped(a, cap) && ++cut)
            pf_ex(w, PF_EX_BYTES, "%lld*%d", (long long)cap, pf_type_size(a->type));
        else
            pf_ex_tensor_read(w, PF_EX_BYTES, a);
    }
    if (!terms)
        pf_ex(w, PF_EX_BYTES, "0");
    if (cut)
        pf_ex(w, PF_EX_SIZES, "; %d pointer(s) counted at %lld elements, the product of the launch's "
              "trailing integers (xnumel, rnumel, size symbols): no pointer moves more", cut, (long long)cap);
}

/* What an op's name says of where its outputs go. */
typedef enum out_rule {
    OUT_AMONG_ARGS,   /* custom ops (vLLM, SGLang, aiter, ...) and Triton launches: their
                       * outputs are arguments (out first, caches, in place) */
    OUT_SELF,         /* an ATen in-place op (aten::add_): self is read and written */
    OUT_NEW           /* a functional ATen op: it returns a tensor the trace does not record */
} out_rule;

/* An ATen name ending "_out" (the out= variant named apart) also writes into an argument. */
static out_rule out_rule_of(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (n < 6 || strncmp(name, "aten::", 6) != 0 || (n > 10 && strcmp(name + n - 4, "_out") == 0))
        return OUT_AMONG_ARGS;
    return name[n - 1] == '_' && name[n - 2] != '_' ? OUT_SELF : OUT_NEW;
}

static void explain(pf_work *w, const pf_op_call *call, out_rule rule, const pf_arg *largest,
                    const pf_arg *table, int64_t cap)
{
    static const char *const sizes[] = {
        [OUT_AMONG_ARGS] = ("no formula: its outputs are among its arguments (a custom op's out=, caches, "
                            "in place; an Inductor launch's pointers): each tensor argument moved once"),
        [OUT_SELF] = "no formula: in place, every tensor argument read and self written",
        [OUT_NEW] = "no formula: every tensor argument read, an output as large as the largest written",
    };
    static const char *const terms[] = {
        [OUT_AMONG_ARGS] = "tensor arguments = ",
        [OUT_SELF] = "tensor arguments + self = ",
        [OUT_NEW] = "tensor arguments + largest = ",
    };
    pf_ex_rule(w, "generic.c", "the largest tensor input");
    if (table) {
        pf_ex(w, PF_EX_SIZES, "no formula; argument ");
        pf_ex_shape(w, PF_EX_SIZES, table);
        pf_ex(w, PF_EX_SIZES, " has over %d times the rows of the op's smallest tensor: a table or cache "
                              "it touches only rows of, so the bytes are unknown", TABLE_ROWS_RATIO);
        return;
    }
    pf_ex(w, PF_EX_SIZES, "%s", sizes[rule]);
    pf_ex(w, PF_EX_BYTES, "%s", terms[rule]);
    ex_capped_args(w, call, cap);
    if (rule == OUT_AMONG_ARGS)
        return;
    pf_ex(w, PF_EX_BYTES, " + ");
    pf_ex_tensor(w, PF_EX_BYTES, rule == OUT_SELF ? &call->args[0] : largest);
}

int pf_estimate_unlisted(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    const pf_arg *largest = largest_tensor_arg(call);
    if (!largest)
        return -1;
    out_rule rule = out_rule_of(call->name);
    if (rule == OUT_SELF && !pf_arg_is_tensor(&call->args[0]))
        rule = OUT_NEW;
    const pf_arg *table = partial_table(call);
    int64_t cap = pf_triton_launch_cap(call);
    double bytes = capped_args_bytes(call, cap);
    if (rule != OUT_AMONG_ARGS)
        bytes = pf_bytes_add(bytes, pf_tensor_bytes(rule == OUT_SELF ? &call->args[0] : largest));
    pf_estimate_done(call, w, -1, table ? -1 : bytes);
    w->source = "generic";
    w->generic = 1;
    w->no_formula = !call->name || strncmp(call->name, "triton_", 7) != 0;
    explain(w, call, rule, largest, table, cap);
    return PF_FORMULA_OK;
}
