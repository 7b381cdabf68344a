/* attention.c - FLOP and byte formulas of fused attention: each backend's SDPA entry point, the lower-level flash / efficient / cuDNN ops, their backwards, and Inductor's flex attention launches. */
#include "families.h"

#include <assert.h>


#include "profana/op_family.h"

enum { NA = -1 }; /* the op has no such argument */

/* Where one attention op keeps its arguments: the op table's (pf_attn_args,
 * src/catalog/op_family.c). */
typedef pf_attn_args attn_layout;

/* The sizes the formulas need. H counts query heads; k and v may have fewer (GQA). */
typedef struct attn_geom {
    const pf_arg *q, *k, *v;
    int64_t b, h, hkv, sq, sk, d, dv;
    int varlen;
} attn_geom;

static const attn_layout *find_layout(const char *op)
{
    const pf_op_entry *e = pf_op_family_lookup(op);
    return e ? e->attn : NULL;
}

static int layout_min_args(const attn_layout *l)
{
    const signed char pos[] = {l->grad_out, l->q + 2, l->out, l->lse, l->bias, l->cum_q + 1,
                               l->max_q + 1, l->causal, l->mask_type, l->want_lse};
    int last = NA;
    for (size_t i = 0; i < sizeof pos; i++)
        if (pos[i] > last)
            last = pos[i];
    return last + 1;
}

/* A tensor argument at pos, or NULL when the op has none there or it was not given. */
static const pf_arg *tensor_at(const pf_op_call *call, int pos)
{
    return pos != NA && pf_arg_is_tensor(&call->args[pos]) ? &call->args[pos] : NULL;
}

/* Reads [B, S, H, D] or [B, H, S, D] into (b, s, h, d). */
static void read_bshd(const pf_arg *t, int seq_first, int64_t *b, int64_t *s, int64_t *h,
                      int64_t *d)
{
    *b = t->dims[0];
    *s = t->dims[seq_first ? 1 : 2];
    *h = t->dims[seq_first ? 2 : 1];
    *d = t->dims[3];
}

static int read_dense(const attn_layout *l, attn_geom *g)
{
    int64_t bk, bv, skv, hv, dk;
    if (g->q->ndim != 4 || g->k->ndim != 4 || g->v->ndim != 4)
        return PF_FORMULA_MISMATCH;
    read_bshd(g->q, l->seq_first, &g->b, &g->sq, &g->h, &g->d);
    read_bshd(g->k, l->seq_first, &bk, &g->sk, &g->hkv, &dk);
    read_bshd(g->v, l->seq_first, &bv, &skv, &hv, &g->dv);
    if (bk != g->b || bv != g->b || dk != g->d || skv != g->sk || hv != g->hkv)
        return PF_FORMULA_MISMATCH;
    return PF_FORMULA_OK;
}

/* Packed batches are [T, H, D] (flash, cuDNN) or [1, T, H, D] (efficient): the batch comes
 * from cum_seq_q ([B + 1]) and the sequence lengths are the longest, max_q and max_k. */
static int read_varlen(const pf_op_call *call, const attn_layout *l, attn_geom *g)
{
    const pf_arg *cq = tensor_at(call, l->cum_q), *ck = tensor_at(call, l->cum_q + 1);
    int n = g->q->ndim;
    if (!cq || !ck || cq->ndim != 1 || ck->ndim != 1 || cq->dims[0] < 1 ||
        ck->dims[0] != cq->dims[0])
        return PF_FORMULA_MISMATCH;
    if (pf_concrete_int(pf_concrete_at(call, l->max_q), &g->sq) < 0 ||
        pf_concrete_int(pf_concrete_at(call, l->max_q + 1), &g->sk) < 0 || g->sq < 0 || g->sk < 0)
        return PF_FORMULA_BAD_ARGS;
    if ((n != 3 && n != 4) || g->k->ndim != n || g->v->ndim != n)
        return PF_FORMULA_MISMATCH;
    g->b = cq->dims[0] - 1;
    g->h = g->q->dims[n - 2];
    g->d = g->q->dims[n - 1];
    g->hkv = g->k->dims[n - 2];
    g->dv = g->v->dims[n - 1];
    if (g->k->dims[n - 1] != g->d || g->v->dims[n - 2] != g->hkv)
        return PF_FORMULA_MISMATCH;
    g->varlen = 1;
    return PF_FORMULA_OK;
}

static int read_geometry(const pf_op_call *call, const attn_layout *l, attn_geom *g)
{
    g->q = tensor_at(call, l->q);
    g->k = tensor_at(call, l->q + 1);
    g->v = tensor_at(call, l->q + 2);
    g->varlen = 0;
    if (!g->q || !g->k || !g->v || pf_arg_numel(g->q) < 0 || pf_arg_numel(g->k) < 0 ||
        pf_arg_numel(g->v) < 0)
        return PF_FORMULA_BAD_ARGS;
    int rc = tensor_at(call, l->cum_q) ? read_varlen(call, l, g) : read_dense(l, g);
    if (rc == PF_FORMULA_OK && (g->hkv < 1 || g->h % g->hkv != 0))
        rc = PF_FORMULA_MISMATCH;
    return rc;
}

/* is_causal, or a custom_mask_type naming a causal mask (1 top-left, 2 bottom-right). A
 * flag not recorded ("") counts as no mask. Returns 0/1, or -1 when unreadable. */
static int read_causal(const pf_op_call *call, const attn_layout *l)
{
    const char *text = pf_concrete_at(call, l->causal != NA ? l->causal : l->mask_type);
    int64_t type;
    if (!*text)
        return 0;
    if (l->causal != NA)
        return pf_concrete_bool(text);
    if (pf_concrete_int(text, &type) < 0 || type < 0)
        return -1;
    return type != 0;
}

/* Forward: S = QK^T and O = PV, 2 FLOP per multiply-add. Backward recomputes S and adds
 * dV = P^T dO, dP = dO V^T, dQ = dS K, dK = dS^T Q: three products over D, two over Dv. */
static double attention_flop(const attn_geom *g, int backward, int causal)
{
    double pairs = (double)g->b * (double)g->h * (double)g->sq * (double)g->sk;
    double per_pair = backward ? 3.0 * (double)g->d + 2.0 * (double)g->dv
                               : (double)g->d + (double)g->dv;
    return 2.0 * pairs * per_pair / (causal ? 2.0 : 1.0);
}

/* logsumexp is fp32, one value per query row and head. */
static double lse_bytes(const attn_geom *g)
{
    return (double)g->b * (double)g->h * (double)g->sq * 4.0;
}

/* Elements of the output: q's with D replaced by Dv. */
static int64_t out_numel(const attn_geom *g)
{
    return g->d > 0 ? pf_mul_nonneg(pf_arg_numel(g->q) / g->d, g->dv) : 0;
}

static double qkv_bytes(const attn_geom *g)
{
    double bytes = pf_bytes_add(pf_tensor_bytes(g->q), pf_tensor_bytes(g->k));
    return pf_bytes_add(bytes, pf_tensor_bytes(g->v));
}

static double optional_bytes(const pf_op_call *call, int pos)
{
    const pf_arg *t = tensor_at(call, pos);
    return t ? pf_tensor_bytes(t) : 0;
}

static double forward_bytes(const pf_op_call *call, const attn_layout *l, const attn_geom *g)
{
    const char *want_lse = pf_concrete_at(call, l->want_lse);
    int size = pf_type_size(g->q->type), lse = *want_lse ? pf_concrete_bool(want_lse) : 1;
    int64_t n = out_numel(g);
    if (size <= 0 || n < 0 || lse < 0)
        return -1;
    double bytes = pf_bytes_add(qkv_bytes(g), (double)n * size);
    bytes = pf_bytes_add(bytes, lse ? lse_bytes(g) : 0);
    return pf_bytes_add(bytes, optional_bytes(call, l->bias));
}

/* grad_out and out must have the output's element count: a guard against misread args. */
static int check_outputs(const pf_op_call *call, const attn_layout *l, const attn_geom *g)
{
    const pf_arg *go = tensor_at(call, l->grad_out), *out = tensor_at(call, l->out);
    if (!go || !out || pf_arg_numel(go) < 0 || pf_arg_numel(out) < 0)
        return PF_FORMULA_BAD_ARGS;
    int64_t n = out_numel(g);
    return pf_arg_numel(go) == n && pf_arg_numel(out) == n ? PF_FORMULA_OK : PF_FORMULA_MISMATCH;
}

/* Reads grad_out, q, k, v, out, logsumexp (and a bias); writes dq, dk, dv. */
static double backward_bytes(const pf_op_call *call, const attn_layout *l, const attn_geom *g)
{
    const pf_arg *lse = tensor_at(call, l->lse);
    double qkv = qkv_bytes(g);
    double bytes = pf_bytes_add(pf_tensor_bytes(&call->args[l->grad_out]), qkv);
    bytes = pf_bytes_add(bytes, pf_tensor_bytes(&call->args[l->out]));
    bytes = pf_bytes_add(bytes, lse ? pf_tensor_bytes(lse) : lse_bytes(g));
    bytes = pf_bytes_add(bytes, optional_bytes(call, l->bias));
    return pf_bytes_add(bytes, qkv);
}

/* ---- explanation (--explain) ---- */

static void ex_causal(pf_work *w, const pf_op_call *call, const attn_layout *l, int causal)
{
    int pos = l->causal != NA ? l->causal : l->mask_type;
    const char *text = pf_concrete_at(call, pos);
    pf_ex(w, PF_EX_SIZES, "; %s %s (arg %d): %s", l->causal != NA ? "is_causal" : "custom_mask_type",
          *text ? text : "not recorded", pos, causal ? "causal, FLOPs halved" : "not causal");
}

static void attention_ex_sizes(pf_work *w, const pf_op_call *call, const attn_layout *l,
                               const attn_geom *g, int causal)
{
    pf_ex_rule(w, "attention.c", "q");
    pf_ex(w, PF_EX_SIZES, "q %s ", g->varlen ? "packed" : l->seq_first ? "[B,S,H,D]" : "[B,H,S,D]");
    pf_ex_shape(w, PF_EX_SIZES, g->q);
    pf_ex(w, PF_EX_SIZES, ": B=%lld H=%lld Hkv=%lld Sq=%lld Sk=%lld D=%lld Dv=%lld", (long long)g->b,
          (long long)g->h, (long long)g->hkv, (long long)g->sq, (long long)g->sk, (long long)g->d,
          (long long)g->dv);
    if (g->varlen)
        pf_ex(w, PF_EX_SIZES, "; variable-length: B from cum_seq_q (arg %d), Sq = max_q (arg %d), "
              "Sk = max_k: an upper bound", l->cum_q, l->max_q);
    ex_causal(w, call, l, causal);
}

static void attention_ex_flop(pf_work *w, const attn_geom *g, int backward, int causal)
{
    const char *half = causal ? "/2" : "";
    if (backward)
        pf_ex(w, PF_EX_FLOP, "2*B*H*Sq*Sk*(3*D + 2*Dv)%s = 2*%lld*%lld*%lld*%lld*(3*%lld + 2*%lld)%s", half,
              (long long)g->b, (long long)g->h, (long long)g->sq, (long long)g->sk, (long long)g->d,
              (long long)g->dv, half);
    else
        pf_ex(w, PF_EX_FLOP, "2*B*H*Sq*Sk*(D + Dv)%s = 2*%lld*%lld*%lld*%lld*(%lld + %lld)%s", half,
              (long long)g->b, (long long)g->h, (long long)g->sq, (long long)g->sk, (long long)g->d,
              (long long)g->dv, half);
}

static void ex_plus_tensor(pf_work *w, const pf_arg *a)
{
    pf_ex(w, PF_EX_BYTES, " + ");
    pf_ex_tensor(w, PF_EX_BYTES, a);
}

static void ex_qkv(pf_work *w, const attn_geom *g)
{
    ex_plus_tensor(w, g->q);
    ex_plus_tensor(w, g->k);
    ex_plus_tensor(w, g->v);
}

/* The computed logsumexp: B*H*Sq fp32 values. */
static void ex_lse(pf_work *w, const attn_geom *g)
{
    pf_ex(w, PF_EX_BYTES, " + %lld*%lld*%lld*4", (long long)g->b, (long long)g->h, (long long)g->sq);
}

static void attention_ex_forward(pf_work *w, const pf_op_call *call, const attn_layout *l,
                                 const attn_geom *g)
{
    const char *want_lse = pf_concrete_at(call, l->want_lse);
    int lse = *want_lse ? pf_concrete_bool(want_lse) == 1 : 1;
    const pf_arg *bias = tensor_at(call, l->bias);
    pf_ex(w, PF_EX_BYTES, "q + k + v + out%s%s = ", lse ? " + logsumexp" : "", bias ? " + bias" : "");
    pf_ex_tensor(w, PF_EX_BYTES, g->q);
    pf_ex(w, PF_EX_BYTES, " + ");
    pf_ex_tensor(w, PF_EX_BYTES, g->k);
    ex_plus_tensor(w, g->v);
    /* out: q's shape with D replaced by Dv */
    pf_ex(w, PF_EX_BYTES, " + ");
    for (int i = 0; i + 1 < g->q->ndim; i++)
        pf_ex(w, PF_EX_BYTES, "%lld*", (long long)g->q->dims[i]);
    pf_ex(w, PF_EX_BYTES, "%lld*%d", (long long)g->dv, pf_type_size(g->q->type));
    if (lse)
        ex_lse(w, g);
    if (bias)
        ex_plus_tensor(w, bias);
}

static void attention_ex_backward(pf_work *w, const pf_op_call *call, const attn_layout *l,
                                  const attn_geom *g)
{
    const pf_arg *lse = tensor_at(call, l->lse), *bias = tensor_at(call, l->bias);
    pf_ex(w, PF_EX_BYTES, "grad_out + q + k + v + out + logsumexp%s + dq + dk + dv = ", bias ? " + bias" : "");
    pf_ex_tensor(w, PF_EX_BYTES, &call->args[l->grad_out]);
    ex_qkv(w, g);
    ex_plus_tensor(w, &call->args[l->out]);
    if (lse)
        ex_plus_tensor(w, lse);
    else
        ex_lse(w, g);
    if (bias)
        ex_plus_tensor(w, bias);
    ex_qkv(w, g);
}

int pf_attention(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    const attn_layout *l = find_layout(call->name);
    attn_geom g;
    if (!l || call->nargs < layout_min_args(l))
        return PF_FORMULA_BAD_ARGS;
    int rc = read_geometry(call, l, &g);
    if (rc == PF_FORMULA_OK && l->backward)
        rc = check_outputs(call, l, &g);
    if (rc != PF_FORMULA_OK)
        return rc;
    int causal = read_causal(call, l);
    if (causal < 0)
        return PF_FORMULA_BAD_ARGS;
    w->flop = attention_flop(&g, l->backward, causal);
    w->bytes = l->backward ? backward_bytes(call, l, &g) : forward_bytes(call, l, &g);
    w->dtype = pf_dtype_from_type_string(g.q->type);
    w->matrix = PF_MATRIX_GEMM;
    w->source = g.varlen ? "attention~ub" : "attention";
    w->upper_bound = g.varlen;
    attention_ex_sizes(w, call, l, &g, causal);
    attention_ex_flop(w, &g, l->backward, causal);
    if (l->backward)
        attention_ex_backward(w, call, l, &g);
    else
        attention_ex_forward(w, call, l, &g);
    return PF_FORMULA_OK;
}

/* ---- Inductor flex attention (triton_tem_fused_flex_attention*) ---- */

/* Inductor's flex attention template launches take q, k, v first, each [B, H, S, D] (k and v
 * may have fewer heads), then logsumexp, the block mask's tensors and the outputs; the
 * backward launch takes q, k, v, logsumexp, delta, grad_out, dq, dv, the block mask, dk
 * (flex_attention.json: 13 and 20 arguments). */
static int read_flex(const pf_op_call *call, attn_geom *g)
{
    static const attn_layout bhsd = {.seq_first = 0};
    if (call->nargs < 3)
        return PF_FORMULA_BAD_ARGS;
    g->q = &call->args[0];
    g->k = &call->args[1];
    g->v = &call->args[2];
    g->varlen = 0;
    if (!pf_arg_is_tensor(g->q) || !pf_arg_is_tensor(g->k) || !pf_arg_is_tensor(g->v) ||
        pf_arg_numel(g->q) < 0 || pf_arg_numel(g->k) < 0 || pf_arg_numel(g->v) < 0)
        return PF_FORMULA_BAD_ARGS;
    int rc = read_dense(&bhsd, g);
    if (rc == PF_FORMULA_OK && (g->hkv < 1 || g->h % g->hkv != 0))
        rc = PF_FORMULA_MISMATCH;
    return rc;
}

static void flex_explain(pf_work *w, const pf_op_call *call, const attn_geom *g, int backward)
{
    pf_ex_rule(w, "attention.c", "q");
    pf_ex(w, PF_EX_SIZES, "flex attention (Inductor template), q [B,H,S,D] ");
    pf_ex_shape(w, PF_EX_SIZES, g->q);
    pf_ex(w, PF_EX_SIZES, ": B=%lld H=%lld Hkv=%lld Sq=%lld Sk=%lld D=%lld Dv=%lld; the block mask's "
          "sparsity is not in the trace: dense, every query against every key, an upper bound",
          (long long)g->b, (long long)g->h, (long long)g->hkv, (long long)g->sq, (long long)g->sk,
          (long long)g->d, (long long)g->dv);
    attention_ex_flop(w, g, backward, 0);
    pf_ex(w, PF_EX_BYTES, "%s, each tensor argument moved once = ",
          backward ? "q, k, v, logsumexp, delta, grad_out read; dq, dk, dv written; the block mask read"
                   : "q, k, v and the block mask read; out and logsumexp written");
    pf_ex_tensor_args(w, PF_EX_BYTES, call);
}

/* Dense figures: the FLOPs of every query against every key (the forward's and backward's
 * products as above, no causal halving), the bytes of every tensor argument once (the
 * outputs are arguments of the launch). A block mask skips blocks the trace cannot tell, so
 * both are ceilings. */
int pf_flex_attention(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    const pf_op_entry *e = pf_op_family_lookup(call->name);
    attn_geom g;
    int rc = read_flex(call, &g);
    if (!e || rc != PF_FORMULA_OK)
        return e ? rc : PF_FORMULA_BAD_ARGS;
    int backward = e->family == PF_FAM_ATTENTION_BACKWARD;
    w->flop = attention_flop(&g, backward, 0);
    w->bytes = pf_tensor_args_bytes(call);
    w->dtype = pf_dtype_from_type_string(g.q->type);
    w->matrix = PF_MATRIX_GEMM;
    w->source = "attention~ub";
    w->upper_bound = 1;
    flex_explain(w, call, &g, backward);
    return PF_FORMULA_OK;
}
