/* rnn.c - FLOP and byte formulas of cuDNN's RNN, LSTM and GRU: _cudnn_rnn and _cudnn_rnn_backward. */
#include "families.h"

#include <assert.h>
#include <string.h>

/* _cudnn_rnn(input, weight[], weight_stride0, weight_buf?, hx, cx?, mode, hidden_size,
 * proj_size, num_layers, batch_first, dropout, train, bidirectional, batch_sizes[],
 * dropout_state?); _cudnn_rnn_backward(input, weight[], weight_stride0, weight_buf, hx, cx?,
 * output, grad_output?, grad_hy?, grad_cy?, mode, ... as above from mode on ..., reserve,
 * output_mask[4]). */
enum { INPUT = 0, WEIGHTS = 1, WEIGHT_BUF = 3, HX = 4, CX = 5 };
enum { FWD_MODE = 6, BWD_MODE = 10, BWD_OUTPUT = 6, BWD_RESERVE = 20, BWD_MASK = 21 };
/* offsets from mode */
enum { O_HIDDEN = 1, O_PROJ = 2, O_LAYERS = 3, O_BIDIR = 7 };

typedef struct rnn_geom {
    int64_t mode, hidden, proj, layers, dirs, input_size, tokens;
    int gates;
    double flop;
} rnn_geom;

static int read_int(const pf_op_call *call, int pos, int64_t *v)
{
    return pf_concrete_int(pf_concrete_at(call, pos), v) == 0 && *v >= 0 ? 0 : -1;
}

/* cuDNN's modes: 0 RNN_RELU, 1 RNN_TANH (one gate), 2 LSTM (four), 3 GRU (three). */
static int read_geom(const pf_op_call *call, int mode_at, rnn_geom *g)
{
    static const int gates[] = {1, 1, 4, 3};
    const pf_arg *in = &call->args[INPUT];
    int bidir;
    if (call->nargs <= mode_at + O_BIDIR || !pf_arg_is_tensor(in) || in->ndim < 2 || pf_arg_numel(in) < 0)
        return PF_FORMULA_BAD_ARGS;
    if (read_int(call, mode_at, &g->mode) || read_int(call, mode_at + O_HIDDEN, &g->hidden) ||
        read_int(call, mode_at + O_PROJ, &g->proj) || read_int(call, mode_at + O_LAYERS, &g->layers) ||
        (bidir = pf_concrete_bool(pf_concrete_at(call, mode_at + O_BIDIR))) < 0 || g->mode > 3)
        return PF_FORMULA_BAD_ARGS;
    g->gates = gates[g->mode];
    g->dirs = bidir ? 2 : 1;
    g->input_size = in->dims[in->ndim - 1];
    /* [T, B, I], [B, T, I], or packed [sum of lengths, I]: every token once */
    g->tokens = g->input_size > 0 ? pf_arg_numel(in) / g->input_size : 0;
    /* per layer and direction: the gates' GEMMs over the layer's input and the recurrent
     * state (h, or its projection), plus the projection itself */
    int64_t out = g->proj > 0 ? g->proj : g->hidden;
    double per_token = 0;
    for (int64_t l = 0; l < g->layers; l++) {
        double in_l = l == 0 ? (double)g->input_size : (double)(out * g->dirs);
        per_token += (double)g->gates * (double)g->hidden * (in_l + (double)out);
        if (g->proj > 0)
            per_token += (double)g->hidden * (double)g->proj;
    }
    g->flop = 2.0 * (double)g->tokens * (double)g->dirs * per_token;
    return PF_FORMULA_OK;
}

/* The weights: the flat weight_buf when given (typed), else the list at the input's size
 * (cuDNN requires one dtype for both). */
static double weight_bytes(const pf_op_call *call)
{
    const pf_arg *buf = &call->args[WEIGHT_BUF], *list = &call->args[WEIGHTS];
    if (pf_arg_is_tensor(buf))
        return pf_tensor_bytes(buf);
    int size = pf_type_size(call->args[INPUT].type);
    return list->is_list && list->list_numel >= 0 && size > 0 ? (double)list->list_numel * size : -1;
}

static double tensor_or_zero(const pf_op_call *call, int pos)
{
    return pos < call->nargs && pf_arg_is_tensor(&call->args[pos]) ? pf_tensor_bytes(&call->args[pos]) : 0;
}

static void explain(pf_work *w, const rnn_geom *g, int backward)
{
    static const char *const names[] = {"RNN_RELU", "RNN_TANH", "LSTM", "GRU"};
    pf_ex_rule(w, "rnn.c", "the input");
    pf_ex(w, PF_EX_SIZES, "%s: gates %d, hidden %lld, proj %lld, layers %lld, directions %lld, input %lld, "
          "tokens %lld", names[g->mode], g->gates, (long long)g->hidden, (long long)g->proj,
          (long long)g->layers, (long long)g->dirs, (long long)g->input_size, (long long)g->tokens);
    pf_ex(w, PF_EX_FLOP, "2*tokens*dirs*sum over layers of gates*H*(in_l + H) = %.0f%s", g->flop,
          backward ? ", once for the data gradients and once for the weight gradient, as asked" : "");
}

int pf_rnn(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    int backward = strstr(call->name, "_backward") != NULL;
    rnn_geom g;
    int rc = read_geom(call, backward ? BWD_MODE : FWD_MODE, &g);
    if (rc != PF_FORMULA_OK)
        return rc;
    double in = pf_tensor_bytes(&call->args[INPUT]), weights = weight_bytes(call);
    double h = tensor_or_zero(call, HX), c = tensor_or_zero(call, CX);
    int size = pf_type_size(call->args[INPUT].type);
    double out = (double)g.tokens * (double)g.dirs * (double)(g.proj > 0 ? g.proj : g.hidden) * size;
    double base = pf_bytes_add(in, weights);
    if (h < 0 || c < 0)
        base = -1;
    explain(w, &g, backward);
    if (!backward) {
        /* reads input, weights, hx, cx; writes output, hy, cy (the training reserve is not
         * counted: its size is cuDNN's) */
        w->flop = g.flop;
        w->bytes = size > 0 ? pf_bytes_add(base, 2.0 * (h + c) + out) : -1;
        pf_ex(w, PF_EX_BYTES, "input + weights + 2*(hx + cx) + output");
    } else {
        int mask[4];
        if (call->nargs <= BWD_MASK || pf_concrete_bool_list(pf_concrete_at(call, BWD_MASK), mask, 4) != 4)
            return PF_FORMULA_BAD_ARGS;
        /* the data gradients cost one forward's GEMMs, the weight gradient another */
        w->flop = g.flop * ((mask[0] || mask[1] || mask[2]) + mask[3]);
        double reads = pf_bytes_add(base, h + c);
        for (int i = BWD_OUTPUT; i < BWD_OUTPUT + 4; i++)
            reads = pf_bytes_add(reads, tensor_or_zero(call, i));
        reads = pf_bytes_add(reads, tensor_or_zero(call, BWD_RESERVE));
        double writes = (mask[0] ? in : 0) + (mask[1] ? h : 0) + (mask[2] ? c : 0);
        writes = pf_bytes_add(writes, mask[3] ? weights : 0);
        w->bytes = pf_bytes_add(reads, writes);
        pf_ex(w, PF_EX_BYTES, "input + weights + hx + cx + output + grad_output + grad_hy + grad_cy + reserve "
              "+ the gradients asked (output_mask %s)", pf_concrete_at(call, BWD_MASK));
    }
    w->dtype = pf_dtype_from_type_string(call->args[INPUT].type);
    w->matrix = PF_MATRIX_GEMM;
    w->source = "rnn";
    return PF_FORMULA_OK;
}
