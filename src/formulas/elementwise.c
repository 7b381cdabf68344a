/* elementwise.c - byte estimates of element-wise, in-place, copy and normalisation ops. */
#include "families.h"

/* The widest type of the highest promotion category among the tensors of args[0..n) that
 * have dims, or among the 0-d ones when none has (PyTorch lets a 0-d tensor, like a wrapped
 * Python number, set the type only then). 0 when there is no tensor. */
static int promoted_size(const pf_arg *args, int n)
{
    for (int pass = 0; pass < 2; pass++) {
        int best_cat = -1, best_size = 0;
        for (int i = 0; i < n; i++) {
            const pf_arg *a = &args[i];
            if (!pf_arg_is_tensor(a) || (pass == 0) != (a->ndim > 0))
                continue;
            int cat = pf_type_category(a->type), size = pf_type_size(a->type);
            if (cat > best_cat || (cat == best_cat && size > best_size)) {
                best_cat = cat;
                best_size = size;
            }
        }
        if (best_cat >= 0)
            return best_size;
    }
    return 0;
}

/* Bytes of every tensor argument plus n elements of the given size written. */
static double read_all_write(const pf_op_call *call, int64_t n, int size)
{
    return pf_bytes_add(pf_tensor_args_bytes(call), (double)n * size);
}

/* "inputs + what = <each tensor argument> + " : the start of most estimates' byte texts. */
static void ex_inputs_plus(pf_work *w, const pf_op_call *call, const char *what)
{
    pf_ex(w, PF_EX_BYTES, "inputs + %s = ", what);
    pf_ex_tensor_args(w, PF_EX_BYTES, call);
    pf_ex(w, PF_EX_BYTES, " + ");
}

/* One FLOP per element written, when the op's row says it does arithmetic. */
static void ex_flop_per_element(pf_work *w, const pf_op_spec *s, const char *what, const pf_arg *shape)
{
    if (!s->flop)
        return;
    pf_ex(w, PF_EX_FLOP, "numel(%s) = ", what);
    for (int i = 0; i < shape->ndim; i++)
        pf_ex(w, PF_EX_FLOP, i ? "*%lld" : "%lld", (long long)shape->dims[i]);
    if (!shape->ndim)
        pf_ex(w, PF_EX_FLOP, "1");
}

/* The elements of a shape at an element size: "8*512*1024*2". */
static void ex_written(pf_work *w, const pf_arg *shape, int size)
{
    for (int i = 0; i < shape->ndim; i++)
        pf_ex(w, PF_EX_BYTES, "%lld*", (long long)shape->dims[i]);
    pf_ex(w, PF_EX_BYTES, "%d", size);
}

/* Out-of-place: the output has the broadcast shape of the inputs. */
int pf_est_pointwise(const pf_op_call *call, pf_work *w)
{
    const pf_op_spec *s = pf_spec_of(call);
    int64_t n;
    int size;
    int rc = pf_broadcast_numel(call->args, call->nargs, &n);
    if (rc == PF_FORMULA_OK)
        rc = pf_result_size(call, s, promoted_size(call->args, call->nargs), &size);
    if (rc != PF_FORMULA_OK)
        return rc;
    if (w->explain) {
        pf_arg shape;
        pf_broadcast_shape(call->args, call->nargs, &shape);
        pf_ex_rule(w, "elementwise.c", "the largest tensor input");
        pf_ex(w, PF_EX_SIZES, "output: the inputs' broadcast shape ");
        pf_ex_shape(w, PF_EX_SIZES, &shape);
        pf_ex(w, PF_EX_SIZES, ", %lld elements of %d bytes (the result type)", (long long)n, size);
        ex_flop_per_element(w, s, "output", &shape);
        ex_inputs_plus(w, call, "output");
        ex_written(w, &shape, size);
    }
    return pf_estimate_done(call, w, s->flop ? (double)n : 0, read_all_write(call, n, size));
}

/* self is argument 0, and an in-place op cannot change its shape: the others must
 * broadcast to it. Returns self's element count through *n. */
static int check_self(const pf_op_call *call, int64_t *n)
{
    int64_t all;
    if (call->nargs < 1 || !pf_arg_is_tensor(&call->args[0]))
        return PF_FORMULA_BAD_ARGS;
    int rc = pf_broadcast_numel(call->args, call->nargs, &all);
    if (rc != PF_FORMULA_OK)
        return rc;
    *n = pf_arg_numel(&call->args[0]);
    return all == *n ? PF_FORMULA_OK : PF_FORMULA_MISMATCH;
}

/* add_, mul_, ...: reads self and the other inputs, writes self. */
int pf_est_inplace(const pf_op_call *call, pf_work *w)
{
    int64_t n;
    int rc = check_self(call, &n);
    if (rc != PF_FORMULA_OK)
        return rc;
    double bytes = pf_bytes_add(pf_tensor_args_bytes(call), pf_tensor_bytes(&call->args[0]));
    pf_ex_rule(w, "elementwise.c", "the largest tensor input");
    pf_ex(w, PF_EX_SIZES, "in place: self ");
    pf_ex_shape(w, PF_EX_SIZES, &call->args[0]);
    pf_ex(w, PF_EX_SIZES, " is read and written, %lld elements", (long long)n);
    ex_flop_per_element(w, pf_spec_of(call), "self", &call->args[0]);
    ex_inputs_plus(w, call, "self written");
    pf_ex_tensor(w, PF_EX_BYTES, &call->args[0]);
    return pf_estimate_done(call, w, pf_spec_of(call)->flop ? (double)n : 0, bytes);
}

/* copy_, fill_, zero_, the random fills: self is written, never read, so the bytes of the
 * tensor arguments (self's counted once, as the write) are the whole traffic. */
int pf_est_overwrite(const pf_op_call *call, pf_work *w)
{
    int64_t n;
    int rc = check_self(call, &n);
    if (rc != PF_FORMULA_OK)
        return rc;
    pf_ex_rule(w, "elementwise.c", "the largest tensor input");
    pf_ex(w, PF_EX_SIZES, "self ");
    pf_ex_shape(w, PF_EX_SIZES, &call->args[0]);
    pf_ex(w, PF_EX_SIZES, " is written, not read; %lld elements", (long long)n);
    pf_ex(w, PF_EX_BYTES, "self written + other inputs = ");
    pf_ex_tensor_args(w, PF_EX_BYTES, call);
    return pf_estimate_done(call, w, 0, pf_tensor_args_bytes(call));
}

/* Normalisations, softmax, clone, _to_copy, scatter: the output has the shape of argument
 * 0 (weights and statistics broadcast along other dims than element-wise ones would) and
 * its type, unless a dtype= or half_to_float argument says otherwise. */
int pf_est_like_input(const pf_op_call *call, pf_work *w)
{
    const pf_op_spec *s = pf_spec_of(call);
    int size;
    if (call->nargs < 1 || !pf_arg_is_tensor(&call->args[0]))
        return PF_FORMULA_BAD_ARGS;
    int64_t n = pf_arg_numel(&call->args[0]);
    int rc = pf_result_size(call, s, pf_type_size(call->args[0].type), &size);
    if (rc == PF_FORMULA_OK && n < 0)
        rc = PF_FORMULA_BAD_ARGS;
    if (rc != PF_FORMULA_OK)
        return rc;
    pf_ex_rule(w, "elementwise.c", "the largest tensor input");
    pf_ex(w, PF_EX_SIZES, "output: the shape of argument 0 ");
    pf_ex_shape(w, PF_EX_SIZES, &call->args[0]);
    pf_ex(w, PF_EX_SIZES, ", %lld elements of %d bytes", (long long)n, size);
    ex_flop_per_element(w, s, "output", &call->args[0]);
    ex_inputs_plus(w, call, "output");
    ex_written(w, &call->args[0], size);
    return pf_estimate_done(call, w, s->flop ? (double)n : 0, read_all_write(call, n, size));
}
