/* elementwise.c - byte estimates of element-wise (out= written, not read), in-place, copy, normalisation, arange and dropout ops. */
#include "families.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* The out= destination of an element-wise call: a tensor as the last argument, at or after
 * the spec's out_at (the .out overload appends it to the functional schema's arguments).
 * NULL when the call is the functional overload. */
static const pf_arg *out_arg(const pf_op_call *call, const pf_op_spec *s)
{
    if (!s->out_at || call->nargs <= s->out_at)
        return NULL;
    const pf_arg *a = &call->args[call->nargs - 1];
    return pf_arg_is_tensor(a) ? a : NULL;
}

/* Out-of-place: the output has the broadcast shape of the inputs. With an out= tensor
 * (aten::mul(self, other, out), DDP's gradient scaling) the inputs are the arguments before
 * it and the output is out, written at its type and never read: its recorded shape may be
 * one PyTorch resizes, so the element count is still the inputs' broadcast. */
int pf_est_pointwise(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    const pf_op_spec *s = pf_spec_of(call);
    const pf_arg *out = out_arg(call, s);
    pf_op_call in = *call;
    in.nargs -= out != NULL;
    int64_t n;
    int size = out ? pf_type_size(out->type) : 0;
    int rc = pf_broadcast_numel(in.args, in.nargs, &n);
    if (rc == PF_FORMULA_OK && size <= 0)
        rc = pf_result_size(&in, s, promoted_size(in.args, in.nargs), &size);
    if (rc != PF_FORMULA_OK)
        return rc;
    if (w->explain) {
        pf_arg shape;
        pf_broadcast_shape(in.args, in.nargs, &shape);
        pf_ex_rule(w, "elementwise.c", "the largest tensor input");
        pf_ex(w, PF_EX_SIZES, "output: the inputs' broadcast shape ");
        pf_ex_shape(w, PF_EX_SIZES, &shape);
        pf_ex(w, PF_EX_SIZES, ", %lld elements of %d bytes (%s)", (long long)n, size,
              out ? "the out= tensor's type; out= is written, not read" : "the result type");
        ex_flop_per_element(w, s, "output", &shape);
        ex_inputs_plus(w, &in, out ? "out= written" : "output");
        ex_written(w, &shape, size);
    }
    return pf_estimate_done(call, w, s->flop ? (double)n : 0, read_all_write(&in, n, size));
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
    assert(pf_formula_args_ok(call, w));
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
    assert(pf_formula_args_ok(call, w));
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
    assert(pf_formula_args_ok(call, w));
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

/* A Scalar argument's value as a number ("0", "238", "1e-05"). -1 when it is not one. */
static int concrete_number(const char *text, double *v)
{
    char *end;
    if (!text || !*text)
        return -1;
    *v = strtod(text, &end);
    return *end == '\0' && isfinite(*v) ? 0 : -1;
}

/* 1 when a Scalar's text is an integer ("238", not "2.5"): arange then makes int64. */
static int integer_text(const char *text)
{
    return strpbrk(text, ".eEnN") == NULL;
}

/* arange's element size: the out= tensor's type (arange.start_out(start, end, step, out),
 * the overload the others call, so the one whose kernel runs), else the dtype= code, else
 * int64 when start, end and step are all integers. Floating bounds without a dtype take the
 * default dtype, which the trace does not record: 0 (unknown). */
static int arange_size(const pf_op_call *call, int out, int dtype_at, int nbounds)
{
    int64_t code;
    if (out >= 0)
        return pf_type_size(call->args[out].type);
    const char *dt = dtype_at >= 0 ? pf_concrete_at(call, dtype_at) : "";
    if (*dt)
        return pf_concrete_int(dt, &code) == 0 ? pf_scalar_type_size(code) : 0;
    for (int i = 0; i < nbounds; i++)
        if (!integer_text(pf_concrete_at(call, i)))
            return 0;
    return 8;
}

/* arange(end, dtype, layout, device, pin_memory), arange.start(start, end, dtype, ...),
 * arange.start_step(start, end, step, dtype, ...), arange.out(end, out),
 * arange.start_out(start, end, step, out): ceil((end - start) / step) elements written,
 * nothing read (an out= tensor's recorded shape is the empty one PyTorch resizes). One FLOP
 * per element (start + i*step), as the element-wise ops count arithmetic. */
int pf_est_arange(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    int n = call->nargs, out = -1, nbounds, dtype_at = -1;
    if (n >= 2 && pf_arg_is_tensor(&call->args[n - 1])) {
        out = n - 1;
        nbounds = n - 1;
    } else {
        nbounds = n == 5 ? 1 : n == 6 ? 2 : n == 7 ? 3 : 0;
        dtype_at = nbounds;
    }
    double b[3] = {0, 0, 1}, v;
    if (nbounds < 1 || nbounds > 3)
        return PF_FORMULA_BAD_ARGS;
    for (int i = 0; i < nbounds; i++) {
        if (concrete_number(pf_concrete_at(call, i), &v) < 0)
            return PF_FORMULA_BAD_ARGS;
        b[nbounds == 1 ? 1 : i] = v;
    }
    if (b[2] == 0)
        return PF_FORMULA_BAD_ARGS;
    double count = ceil((b[1] - b[0]) / b[2]);
    /* PyTorch refuses a length beyond int64 (and the bytes must stay finite) */
    if (!(count < 9.2e18))
        return PF_FORMULA_BAD_ARGS;
    count = count > 0 ? count : 0;
    int size = arange_size(call, out, dtype_at, nbounds);
    pf_ex_rule(w, "elementwise.c", "the largest tensor input");
    pf_ex(w, PF_EX_SIZES, "start %g, end %g, step %g: %.0f elements of ", b[0], b[1], b[2], count);
    if (size > 0)
        pf_ex(w, PF_EX_SIZES, "%d bytes", size);
    else
        pf_ex(w, PF_EX_SIZES, "unknown size (floating bounds, no dtype: the default dtype is not recorded)");
    pf_ex(w, PF_EX_FLOP, "ceil((end - start) / step) = %.0f", count);
    pf_ex(w, PF_EX_BYTES, "written = %.0f*", count);
    if (size > 0)
        pf_ex(w, PF_EX_BYTES, "%d", size);
    else
        pf_ex(w, PF_EX_BYTES, "?");
    return pf_estimate_done(call, w, count, size > 0 ? count * size : -1);
}

/* native_dropout(input, p, train): reads input, writes the output (input's type) and a bool
 * mask as large (the random numbers are made in registers). One FLOP per element (the
 * scaling), as the element-wise ops count. */
int pf_est_dropout(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    if (call->nargs < 1 || !pf_arg_is_tensor(&call->args[0]))
        return PF_FORMULA_BAD_ARGS;
    const pf_arg *in = &call->args[0];
    int64_t n = pf_arg_numel(in);
    int size = pf_type_size(in->type);
    if (n < 0)
        return PF_FORMULA_BAD_ARGS;
    pf_ex_rule(w, "elementwise.c", "the largest tensor input");
    pf_ex(w, PF_EX_SIZES, "input ");
    pf_ex_shape(w, PF_EX_SIZES, in);
    pf_ex(w, PF_EX_SIZES, ": %lld elements; output of its type and a bool mask written", (long long)n);
    ex_flop_per_element(w, pf_spec_of(call), "output", in);
    pf_ex(w, PF_EX_BYTES, "input + output + mask = ");
    pf_ex_tensor_read(w, PF_EX_BYTES, in);
    pf_ex(w, PF_EX_BYTES, " + ");
    ex_written(w, in, size > 0 ? size : 0);
    pf_ex(w, PF_EX_BYTES, " + ");
    ex_written(w, in, 1);
    double bytes = size > 0 ? pf_bytes_add(pf_tensor_read_bytes(in), (double)n * (size + 1)) : -1;
    return pf_estimate_done(call, w, pf_spec_of(call)->flop ? (double)n : 0, bytes);
}
