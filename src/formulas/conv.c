/* conv.c - FLOP and byte formulas of the convolutions: every backend's forward entry point, and convolution_backward. */
#include "families.h"

#include <assert.h>

#include "profana/op_family.h"

/* Positions of a convolution's arguments, which differ per op schema: the op table's
 * (pf_conv_args, src/catalog/op_family.c). */
enum {
    POS_INPUT = PF_CONV_INPUT,
    POS_WEIGHT = PF_CONV_WEIGHT,
    POS_BIAS = PF_CONV_BIAS,
    POS_STRIDE = PF_CONV_STRIDE,
    POS_PADDING = PF_CONV_PADDING,
    POS_DILATION = PF_CONV_DILATION,
    POS_TRANSPOSED = PF_CONV_TRANSPOSED,
    POS_OUTPUT_PADDING = PF_CONV_OUTPUT_PADDING,
    POS_GROUPS = PF_CONV_GROUPS,
    POS_COUNT = PF_CONV_NPOS
};

enum { NO_ARG = -1 };

enum { IMPLIES_TRANSPOSED = PF_CONV_IMPLIES_TRANSPOSED, IMPLIES_DEPTHWISE = PF_CONV_IMPLIES_DEPTHWISE };

typedef pf_conv_args conv_layout;

enum { MAX_SPATIAL = 3 };

/* One convolution's shape, as the formulas need it. */
typedef struct conv_geom {
    const pf_arg *input, *weight;
    int nsp;                         /* spatial dims: 1, 2 or 3 */
    int transposed;
    int64_t groups;
    int64_t stride[MAX_SPATIAL], padding[MAX_SPATIAL], dilation[MAX_SPATIAL];
    int64_t output_padding[MAX_SPATIAL];
    int64_t out[2 + MAX_SPATIAL];    /* [N, Cout, *out_sp] */
    int64_t out_numel;
    double flop;
} conv_geom;

static const conv_layout *find_layout(const char *op)
{
    const pf_op_entry *e = pf_op_family_lookup(op);
    return e ? e->conv : NULL;
}

/* convolution_backward's argument `which` (PF_CONV_GRAD_OUTPUT, _BIAS_SIZES, _OUTPUT_MASK),
 * of a call already checked to hold it. */
static const pf_arg *bwd_arg(const pf_op_call *call, int which)
{
    const conv_layout *l = find_layout(call->name);
    assert(l && l->pos[which] >= 0 && l->pos[which] < call->nargs);
    return &call->args[l->pos[which]];
}

static int layout_min_args(const conv_layout *l)
{
    int last = NO_ARG;
    for (int i = 0; i <= POS_GROUPS; i++) /* convolution_backward's own: pf_conv_backward */
        if (l->pos[i] > last)
            last = l->pos[i];
    return last + 1;
}

static int read_tensors(const pf_op_call *call, const conv_layout *l, conv_geom *g)
{
    g->input = &call->args[l->pos[POS_INPUT]];
    g->weight = &call->args[l->pos[POS_WEIGHT]];
    if (!pf_arg_is_tensor(g->input) || !pf_arg_is_tensor(g->weight))
        return PF_FORMULA_BAD_ARGS;
    if (pf_arg_numel(g->input) < 0 || pf_arg_numel(g->weight) < 0)
        return PF_FORMULA_BAD_ARGS;
    g->nsp = g->weight->ndim - 2;
    if (g->nsp < 1 || g->nsp > MAX_SPATIAL || g->input->ndim != g->weight->ndim)
        return PF_FORMULA_MISMATCH;
    return PF_FORMULA_OK;
}

/* A per-spatial-dim parameter. As PyTorch expands them, a single value (or "[x]") applies
 * to every dim; an empty list, or an op without the argument, means the default. */
static int read_spatial(const pf_op_call *call, int pos, int nsp, int64_t dflt, int64_t *out)
{
    int64_t v[PF_MAX_DIMS];
    int n = 0;
    if (pos != NO_ARG && (n = pf_concrete_int_list(call->args[pos].concrete, v, PF_MAX_DIMS)) < 0)
        return PF_FORMULA_BAD_ARGS;
    if (n > 1 && n != nsp)
        return PF_FORMULA_MISMATCH;
    for (int i = 0; i < nsp; i++) {
        out[i] = n == 0 ? dflt : v[n == 1 ? 0 : i];
        /* the defaults are the smallest legal values: stride and dilation 1, paddings 0 */
        if (out[i] < dflt)
            return PF_FORMULA_MISMATCH;
    }
    return PF_FORMULA_OK;
}

static int read_flags(const pf_op_call *call, const conv_layout *l, conv_geom *g)
{
    int pos = l->pos[POS_TRANSPOSED];
    g->transposed = pos == NO_ARG ? (l->implies & IMPLIES_TRANSPOSED) != 0
                                  : pf_concrete_bool(call->args[pos].concrete);
    if (g->transposed < 0)
        return PF_FORMULA_BAD_ARGS;
    pos = l->pos[POS_GROUPS];
    if (pos == NO_ARG)
        g->groups = (l->implies & IMPLIES_DEPTHWISE) ? g->input->dims[1] : 1;
    else if (pf_concrete_int(call->args[pos].concrete, &g->groups) < 0)
        return PF_FORMULA_BAD_ARGS;
    return g->groups >= 1 ? PF_FORMULA_OK : PF_FORMULA_MISMATCH;
}

static int read_params(const pf_op_call *call, const conv_layout *l, conv_geom *g)
{
    int rc = read_spatial(call, l->pos[POS_STRIDE], g->nsp, 1, g->stride);
    if (rc == PF_FORMULA_OK)
        rc = read_spatial(call, l->pos[POS_PADDING], g->nsp, 0, g->padding);
    if (rc == PF_FORMULA_OK)
        rc = read_spatial(call, l->pos[POS_DILATION], g->nsp, 1, g->dilation);
    if (rc == PF_FORMULA_OK)
        rc = read_spatial(call, l->pos[POS_OUTPUT_PADDING], g->nsp, 0, g->output_padding);
    if (rc == PF_FORMULA_OK)
        rc = read_flags(call, l, g);
    return rc;
}

/* Sets N and Cout. weight is [Cout, Cin/g, *k], transposed [Cin, Cout/g, *k]. */
static int check_channels(conv_geom *g)
{
    int64_t cin = g->input->dims[1], w0 = g->weight->dims[0], w1 = g->weight->dims[1];
    if (g->transposed) {
        if (w0 != cin || cin % g->groups != 0)
            return PF_FORMULA_MISMATCH;
        g->out[1] = pf_mul_nonneg(w1, g->groups);
    } else {
        if (pf_mul_nonneg(w1, g->groups) != cin || w0 % g->groups != 0)
            return PF_FORMULA_MISMATCH;
        g->out[1] = w0;
    }
    g->out[0] = g->input->dims[0];
    return g->out[1] >= 0 ? PF_FORMULA_OK : PF_FORMULA_BAD_ARGS;
}

/* Output length of spatial dim i; 0 when the window does not fit, -1 on overflow. */
static int64_t out_length(const conv_geom *g, int i)
{
    int64_t x = g->input->dims[2 + i], k = g->weight->dims[2 + i];
    int64_t reach = pf_add_nonneg(pf_mul_nonneg(g->dilation[i], k - 1), 1);
    int64_t pads = pf_mul_nonneg(g->padding[i], 2);
    if (reach < 0 || pads < 0)
        return -1;
    if (!g->transposed) {
        int64_t span = pf_add_nonneg(x, pads);
        return span < 0 ? -1 : span < reach ? 0 : (span - reach) / g->stride[i] + 1;
    }
    int64_t grown = pf_mul_nonneg(x - 1, g->stride[i]);
    int64_t len = pf_add_nonneg(pf_add_nonneg(grown, reach), g->output_padding[i]);
    return len < 0 ? -1 : len > pads ? len - pads : 0;
}

/* FLOP = 2 x (output elements, or input elements when transposed) x the weight elements
 * each of them meets: (C/g) x prod(k), which is weight dim 1 times the kernel volume. */
static int compute_output(conv_geom *g)
{
    double kernel = (double)g->weight->dims[1];
    g->out_numel = pf_mul_nonneg(g->out[0], g->out[1]);
    for (int i = 0; i < g->nsp; i++) {
        if (g->weight->dims[2 + i] < 1 || (g->transposed && g->input->dims[2 + i] < 1))
            return PF_FORMULA_MISMATCH;
        int64_t len = out_length(g, i);
        if (len == 0)
            return PF_FORMULA_MISMATCH;
        g->out[2 + i] = len;
        g->out_numel = pf_mul_nonneg(g->out_numel, len);
        kernel *= (double)g->weight->dims[2 + i];
    }
    if (g->out_numel < 0)
        return PF_FORMULA_BAD_ARGS;
    double points = g->transposed ? (double)pf_arg_numel(g->input) : (double)g->out_numel;
    g->flop = 2.0 * points * kernel;
    return PF_FORMULA_OK;
}

static int conv_geometry(const pf_op_call *call, const conv_layout *l, conv_geom *g)
{
    if (!l || call->nargs < layout_min_args(l))
        return PF_FORMULA_BAD_ARGS;
    int rc = read_tensors(call, l, g);
    if (rc == PF_FORMULA_OK)
        rc = read_params(call, l, g);
    if (rc == PF_FORMULA_OK)
        rc = check_channels(g);
    if (rc == PF_FORMULA_OK)
        rc = compute_output(g);
    return rc;
}

/* ---- explanation (--explain) ---- */

static void ex_list(pf_work *w, const char *name, const int64_t *v, int n)
{
    pf_ex(w, PF_EX_SIZES, " %s [", name);
    for (int i = 0; i < n; i++)
        pf_ex(w, PF_EX_SIZES, i ? ", %lld" : "%lld", (long long)v[i]);
    pf_ex(w, PF_EX_SIZES, "]");
}

static void conv_ex_sizes(pf_work *w, const conv_geom *g)
{
    pf_ex_rule(w, "conv.c", "the input");
    pf_ex(w, PF_EX_SIZES, "N=%lld Cin=%lld Cout=%lld groups=%lld%s; input ", (long long)g->out[0],
          (long long)g->input->dims[1], (long long)g->out[1], (long long)g->groups,
          g->transposed ? " transposed" : "");
    pf_ex_shape(w, PF_EX_SIZES, g->input);
    pf_ex(w, PF_EX_SIZES, " weight ");
    pf_ex_shape(w, PF_EX_SIZES, g->weight);
    ex_list(w, "stride", g->stride, g->nsp);
    ex_list(w, "padding", g->padding, g->nsp);
    ex_list(w, "dilation", g->dilation, g->nsp);
    if (g->transposed)
        ex_list(w, "output_padding", g->output_padding, g->nsp);
    ex_list(w, "-> output", g->out, g->nsp + 2);
}

/* 2 x (output, or input when transposed, elements) x (C/g) x prod(k), as compute_output:
 * the symbols, then (values) the numbers they stand for. */
static void conv_ex_flop(pf_work *w, const conv_geom *g, int values)
{
    const int64_t *points = g->transposed ? g->input->dims : g->out;
    if (!values) {
        pf_ex(w, PF_EX_FLOP, g->transposed ? "2*N*Cin*prod(in)*(Cout/g)*prod(k)"
                                           : "2*N*Cout*prod(out)*(Cin/g)*prod(k)");
        return;
    }
    pf_ex(w, PF_EX_FLOP, "2");
    for (int i = 0; i < g->nsp + 2; i++)
        pf_ex(w, PF_EX_FLOP, "*%lld", (long long)points[i]);
    for (int i = 1; i < g->nsp + 2; i++)
        pf_ex(w, PF_EX_FLOP, "*%lld", (long long)g->weight->dims[i]);
}

/* n elements, written out as dims when given, at the input's size: what output_bytes counts. */
static void conv_ex_written(pf_work *w, const conv_geom *g, const int64_t *dims, int ndims, int64_t n)
{
    for (int i = 0; i < ndims; i++)
        pf_ex(w, PF_EX_BYTES, "%lld*", (long long)dims[i]);
    if (!ndims)
        pf_ex(w, PF_EX_BYTES, "%lld*", (long long)n);
    int size = pf_type_size(g->input->type);
    if (size > 0)
        pf_ex(w, PF_EX_BYTES, "%d", size);
    else
        pf_ex(w, PF_EX_BYTES, "?");
}

static void set_work(pf_work *w, const conv_geom *g, double flop, double bytes)
{
    w->flop = flop;
    w->bytes = bytes;
    w->dtype = pf_dtype_from_type_string(g->input->type);
    w->matrix = PF_MATRIX_CONV;
    w->source = "conv";
}

/* The output takes the input's type. -1 when that type's size is unknown. */
static double output_bytes(const conv_geom *g, int64_t numel)
{
    int size = pf_type_size(g->input->type);
    return size > 0 ? (double)numel * size : -1;
}

int pf_conv_forward(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    const conv_layout *l = find_layout(call->name);
    conv_geom g;
    int rc = conv_geometry(call, l, &g);
    if (rc != PF_FORMULA_OK)
        return rc;
    double bytes = pf_bytes_add(pf_tensor_bytes(g.input), pf_tensor_bytes(g.weight));
    bytes = pf_bytes_add(bytes, output_bytes(&g, g.out_numel));
    int bias = l->pos[POS_BIAS];
    int has_bias = bias != NO_ARG && pf_arg_is_tensor(&call->args[bias]);
    if (has_bias)
        bytes = pf_bytes_add(bytes, pf_tensor_bytes(&call->args[bias]));
    set_work(w, &g, g.flop, bytes);
    conv_ex_sizes(w, &g);
    conv_ex_flop(w, &g, 0);
    pf_ex(w, PF_EX_FLOP, " = ");
    conv_ex_flop(w, &g, 1);
    pf_ex(w, PF_EX_BYTES, "input + weight + output%s = ", has_bias ? " + bias" : "");
    pf_ex_tensor(w, PF_EX_BYTES, g.input);
    pf_ex(w, PF_EX_BYTES, " + ");
    pf_ex_tensor(w, PF_EX_BYTES, g.weight);
    pf_ex(w, PF_EX_BYTES, " + ");
    conv_ex_written(w, &g, g.out, g.nsp + 2, 0);
    if (has_bias) {
        pf_ex(w, PF_EX_BYTES, " + ");
        pf_ex_tensor(w, PF_EX_BYTES, &call->args[bias]);
    }
    return PF_FORMULA_OK;
}

/* grad_output must have the forward output's shape: a cheap guard against misread args. */
static int check_grad_output(const pf_arg *go, const conv_geom *g)
{
    if (!pf_arg_is_tensor(go) || pf_arg_numel(go) < 0)
        return PF_FORMULA_BAD_ARGS;
    if (go->ndim != g->nsp + 2)
        return PF_FORMULA_MISMATCH;
    for (int i = 0; i < go->ndim; i++)
        if (go->dims[i] != g->out[i])
            return PF_FORMULA_MISMATCH;
    return PF_FORMULA_OK;
}

/* Elements of grad_bias: bias_sizes when recorded, else one per output channel. */
static int64_t bias_numel(const pf_arg *bias_sizes, const conv_geom *g)
{
    int64_t v[PF_MAX_DIMS], n = 1;
    if (!bias_sizes->concrete || !*bias_sizes->concrete)
        return g->out[1];
    int count = pf_concrete_int_list(bias_sizes->concrete, v, PF_MAX_DIMS);
    if (count < 0)
        return -1;
    for (int i = 0; i < count; i++)
        n = pf_mul_nonneg(n, v[i]);
    return n;
}

/* output_mask [grad_input, grad_weight, grad_bias]: each true one is computed and written. */
static void conv_backward_explain(pf_work *w, const pf_op_call *call, const conv_geom *g,
                                  const int *mask, int64_t nbias)
{
    static const char *const grads[] = {" + grad_input", " + grad_weight", " + grad_bias"};
    conv_ex_sizes(w, g);
    pf_ex(w, PF_EX_SIZES, "; output_mask [%s, %s, %s]", mask[0] ? "True" : "False",
          mask[1] ? "True" : "False", mask[2] ? "True" : "False");
    pf_ex(w, PF_EX_FLOP, "(grad_input + grad_weight)*");
    conv_ex_flop(w, g, 0);
    pf_ex(w, PF_EX_FLOP, " = (%d + %d)*", mask[0], mask[1]);
    conv_ex_flop(w, g, 1);
    pf_ex(w, PF_EX_BYTES, "grad_output + input + weight");
    for (int i = 0; i < 3; i++)
        if (mask[i])
            pf_ex(w, PF_EX_BYTES, "%s", grads[i]);
    pf_ex(w, PF_EX_BYTES, " = ");
    pf_ex_tensor(w, PF_EX_BYTES, bwd_arg(call, PF_CONV_GRAD_OUTPUT));
    const pf_arg *read[] = {g->input, g->weight};
    for (int i = 0; i < 2; i++) {
        pf_ex(w, PF_EX_BYTES, " + ");
        pf_ex_tensor(w, PF_EX_BYTES, read[i]);
    }
    for (int i = 0; i < 2; i++) {
        if (!mask[i])
            continue;
        pf_ex(w, PF_EX_BYTES, " + ");
        pf_ex_tensor(w, PF_EX_BYTES, read[i]);
    }
    if (mask[2]) {
        pf_ex(w, PF_EX_BYTES, " + ");
        conv_ex_written(w, g, NULL, 0, nbias);
    }
}

/* Each of grad_input and grad_weight costs one forward convolution; grad_bias is a sum. */
int pf_conv_backward(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    conv_geom g;
    int mask[3];
    const conv_layout *l = find_layout(call->name);
    if (!l || call->nargs <= l->pos[PF_CONV_OUTPUT_MASK])
        return PF_FORMULA_BAD_ARGS;
    int rc = conv_geometry(call, l, &g);
    if (rc == PF_FORMULA_OK)
        rc = check_grad_output(bwd_arg(call, PF_CONV_GRAD_OUTPUT), &g);
    if (rc != PF_FORMULA_OK)
        return rc;
    if (pf_concrete_bool_list(bwd_arg(call, PF_CONV_OUTPUT_MASK)->concrete, mask, 3) != 3)
        return PF_FORMULA_BAD_ARGS;
    int64_t nbias = mask[2] ? bias_numel(bwd_arg(call, PF_CONV_BIAS_SIZES), &g) : 0;
    if (nbias < 0)
        return PF_FORMULA_BAD_ARGS;
    double in = pf_tensor_bytes(g.input), wt = pf_tensor_bytes(g.weight);
    double bytes = pf_bytes_add(pf_tensor_bytes(bwd_arg(call, PF_CONV_GRAD_OUTPUT)), in);
    bytes = pf_bytes_add(bytes, wt);
    bytes = pf_bytes_add(bytes, mask[0] ? in : 0);
    bytes = pf_bytes_add(bytes, mask[1] ? wt : 0);
    bytes = pf_bytes_add(bytes, output_bytes(&g, nbias));
    set_work(w, &g, g.flop * (mask[0] + mask[1]), bytes);
    conv_backward_explain(w, call, &g, mask, nbias);
    return PF_FORMULA_OK;
}
