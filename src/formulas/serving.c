/* serving.c - byte and FLOP formulas of LLM-serving custom ops (vLLM, SGLang, aiter, FlashInfer): gated activations, RMS norms, KV-cache writers, rotary embedding, fused MoE. */
#include "families.h"

#include <assert.h>
#include <string.h>

/* These ops take their outputs as arguments (out first, or a cache, or in place), so the
 * generic estimate, which adds an output as large as the largest argument, would count
 * what they never write. Each formula says which arguments are read and which written. */

static const pf_arg *tensor_at(const pf_op_call *call, int pos)
{
    return pos >= 0 && pos < call->nargs && pf_arg_is_tensor(&call->args[pos]) &&
                   pf_arg_numel(&call->args[pos]) >= 0
               ? &call->args[pos]
               : NULL;
}

static void set_work(pf_work *w, const pf_arg *dtype_of, double flop, double bytes,
                     const char *source, int matrix)
{
    w->flop = flop;
    w->bytes = bytes;
    w->dtype = pf_dtype_from_type_string(dtype_of->type);
    w->matrix = matrix;
    w->source = source;
}

/* ---- ops that read some arguments and write others ---- */

#define BIT(i) (1u << (i))

typedef struct io_layout {
    const char *op;
    unsigned reads, writes; /* argument positions, as bit masks */
    int flop_per_out;       /* FLOP per element of the first argument written */
} io_layout;

/* The gated activations (out, input[, ...]): input [T, 2d] read, out [T, d] written; the
 * activation and the product are two element-wise ops, two FLOP per element written.
 * RMS norms write out = norm(input) * weight (or in place, with a residual added first):
 * bytes only, 0 FLOP, as the other normalisations count. */
static const io_layout io_layouts[] = {
    {"_C::silu_and_mul", BIT(1), BIT(0), 2},
    {"_C::gelu_and_mul", BIT(1), BIT(0), 2},
    {"_C::gelu_tanh_and_mul", BIT(1), BIT(0), 2},
    {"_C::mul_and_silu", BIT(1), BIT(0), 2},
    {"_C::fatrelu_and_mul", BIT(1), BIT(0), 2},
    {"_C::swigluoai_and_mul", BIT(1), BIT(0), 2},
    {"sgl_kernel::silu_and_mul", BIT(1), BIT(0), 2},
    {"sgl_kernel::gelu_and_mul", BIT(1), BIT(0), 2},
    {"sgl_kernel::gelu_tanh_and_mul", BIT(1), BIT(0), 2},
    {"aiter::silu_and_mul", BIT(1), BIT(0), 2},
    {"aiter::gelu_and_mul", BIT(1), BIT(0), 2},
    {"aiter::gelu_tanh_and_mul", BIT(1), BIT(0), 2},
    {"flashinfer::silu_and_mul", BIT(1), BIT(0), 2},
    {"flashinfer::gelu_and_mul", BIT(1), BIT(0), 2},
    {"flashinfer::gelu_tanh_and_mul", BIT(1), BIT(0), 2},
    /* (out, input, weight, eps) */
    {"_C::rms_norm", BIT(1) | BIT(2), BIT(0), 0},
    {"sgl_kernel::rmsnorm", BIT(1) | BIT(2), BIT(0), 0},
    {"sgl_kernel::gemma_rmsnorm", BIT(1) | BIT(2), BIT(0), 0},
    {"flashinfer::rmsnorm", BIT(1) | BIT(2), BIT(0), 0},
    {"aiter::rmsnorm", BIT(1) | BIT(2), BIT(0), 0},
    /* (input, residual, weight, eps): residual += input; input = norm(residual) * weight */
    {"_C::fused_add_rms_norm", BIT(0) | BIT(1) | BIT(2), BIT(0) | BIT(1), 0},
    {"sgl_kernel::fused_add_rmsnorm", BIT(0) | BIT(1) | BIT(2), BIT(0) | BIT(1), 0},
    {"sgl_kernel::gemma_fused_add_rmsnorm", BIT(0) | BIT(1) | BIT(2), BIT(0) | BIT(1), 0},
    {"flashinfer::fused_add_rmsnorm", BIT(0) | BIT(1) | BIT(2), BIT(0) | BIT(1), 0},
    /* (input, weight, eps, ...) returning out: the input's shape written */
    {"aiter::rms_norm", BIT(0) | BIT(1), 0, 0},
    {"aiter::rmsnorm2d_fwd", BIT(0) | BIT(1), 0, 0},
    /* (out, input, residual_in, residual_out, weight, eps) */
    {"aiter::add_rmsnorm", BIT(1) | BIT(2) | BIT(4), BIT(0) | BIT(3), 0},
    {"aiter::rmsnorm2d_fwd_with_add", BIT(1) | BIT(2) | BIT(4), BIT(0) | BIT(3), 0},
    {"aiter::rmsnorm2d_fwd_with_add_ck", BIT(1) | BIT(2) | BIT(4), BIT(0) | BIT(3), 0},
};

static int first_bit(unsigned mask)
{
    int i = 0;
    while (i < 31 && !(mask & BIT(i)))
        i++;
    return i;
}

static void ex_terms(pf_work *w, const pf_op_call *call, unsigned mask, int *first)
{
    for (int i = 0; i < call->nargs && i < 32; i++) {
        if (!(mask & BIT(i)))
            continue;
        pf_ex(w, PF_EX_BYTES, *first ? "" : " + ");
        pf_ex_tensor(w, PF_EX_BYTES, &call->args[i]);
        *first = 0;
    }
}

int pf_serving_io(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    const io_layout *l = NULL;
    for (size_t i = 0; i < sizeof io_layouts / sizeof io_layouts[0]; i++)
        if (strcmp(call->name, io_layouts[i].op) == 0)
            l = &io_layouts[i];
    if (!l)
        return PF_FORMULA_BAD_ARGS;
    double bytes = 0;
    for (int i = 0; i < 32; i++) {
        unsigned bit = BIT(i);
        if (!((l->reads | l->writes) & bit))
            continue;
        const pf_arg *t = tensor_at(call, i);
        if (!t)
            return PF_FORMULA_BAD_ARGS;
        double b = pf_tensor_bytes(t);
        bytes = pf_bytes_add(bytes, b < 0 ? -1 : b * (((l->reads & bit) != 0) + ((l->writes & bit) != 0)));
    }
    /* an op that returns its output writes the input's shape (argument 0) */
    const pf_arg *out = tensor_at(call, l->writes ? first_bit(l->writes) : 0);
    if (!l->writes)
        bytes = pf_bytes_add(bytes, pf_tensor_bytes(out));
    const pf_arg *in = tensor_at(call, first_bit(l->reads));
    set_work(w, in, (double)l->flop_per_out * (double)pf_arg_numel(out), bytes, "estimate",
             PF_MATRIX_NONE);
    pf_ex_rule(w, "serving.c", "the input");
    pf_ex(w, PF_EX_SIZES, "arguments read:");
    for (int i = 0; i < 32; i++)
        if (l->reads & BIT(i))
            pf_ex(w, PF_EX_SIZES, " %d", i);
    pf_ex(w, PF_EX_SIZES, "; written:");
    for (int i = 0; i < 32; i++)
        if (l->writes & BIT(i))
            pf_ex(w, PF_EX_SIZES, " %d", i);
    if (!l->writes)
        pf_ex(w, PF_EX_SIZES, " a returned output the shape of argument 0");
    if (l->flop_per_out)
        pf_ex(w, PF_EX_FLOP, "%d per element written = %d*%lld", l->flop_per_out, l->flop_per_out,
              (long long)pf_arg_numel(out));
    int first = 1;
    pf_ex(w, PF_EX_BYTES, "read + written = ");
    ex_terms(w, call, l->reads, &first);
    ex_terms(w, call, l->writes, &first);
    if (!l->writes) {
        pf_ex(w, PF_EX_BYTES, " + ");
        pf_ex_tensor(w, PF_EX_BYTES, out);
    }
    return PF_FORMULA_OK;
}

/* ---- KV-cache writers ---- */

typedef struct cache_layout {
    const char *op;
    signed char src[2];   /* the new keys and values (or latent and rope parts) */
    signed char cache[2]; /* the caches they are written into; -1: the first cache */
    signed char slots;    /* the slot index of each token */
} cache_layout;

/* reshape_and_cache(_flash)(key, value, key_cache, value_cache, slot_mapping,
 * kv_cache_dtype, k_scale, v_scale); concat_and_cache_mla(kv_c, k_pe, kv_cache,
 * slot_mapping, kv_cache_dtype, scale); store_cache(k, v, k_cache, v_cache, indices, ...). */
static const cache_layout cache_layouts[] = {
    {"_C_cache_ops::reshape_and_cache", {0, 1}, {2, 3}, 4},
    {"_C_cache_ops::reshape_and_cache_flash", {0, 1}, {2, 3}, 4},
    {"_C_cache_ops::concat_and_cache_mla", {0, 1}, {2, -1}, 3},
    {"sglang::store_cache", {0, 1}, {2, 3}, 4},
};

/* The new tokens' keys and values are read and the same elements written into the caches
 * at the caches' element size (an fp8 cache takes one byte each): only the rows written,
 * never the whole cache. The slot indices and any tensor after them (k_scale, v_scale)
 * are read. No arithmetic. */
int pf_kv_cache_write(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    const cache_layout *l = NULL;
    for (size_t i = 0; i < sizeof cache_layouts / sizeof cache_layouts[0]; i++)
        if (strcmp(call->name, cache_layouts[i].op) == 0)
            l = &cache_layouts[i];
    if (!l)
        return PF_FORMULA_BAD_ARGS;
    const pf_arg *slots = tensor_at(call, l->slots);
    if (!slots)
        return PF_FORMULA_BAD_ARGS;
    double bytes = 0;
    pf_ex_rule(w, "serving.c", "the keys");
    pf_ex(w, PF_EX_BYTES, "new rows read + the same rows written into the caches + slots + scales = ");
    for (int i = 0; i < 2; i++) {
        const pf_arg *src = tensor_at(call, l->src[i]);
        const pf_arg *cache = tensor_at(call, l->cache[i] >= 0 ? l->cache[i] : l->cache[0]);
        int csize = cache ? pf_type_size(cache->type) : 0;
        if (!src || csize <= 0)
            return PF_FORMULA_BAD_ARGS;
        bytes = pf_bytes_add(bytes, pf_bytes_add(pf_tensor_bytes(src), (double)pf_arg_numel(src) * csize));
        pf_ex_tensor(w, PF_EX_BYTES, src);
        pf_ex(w, PF_EX_BYTES, " + %lld*%d + ", (long long)pf_arg_numel(src), csize);
    }
    bytes = pf_bytes_add(bytes, pf_tensor_bytes(slots));
    pf_ex_tensor(w, PF_EX_BYTES, slots);
    for (int i = l->slots + 1; i < call->nargs; i++) {
        const pf_arg *t = tensor_at(call, i);
        if (!t)
            continue;
        bytes = pf_bytes_add(bytes, pf_tensor_bytes(t));
        pf_ex(w, PF_EX_BYTES, " + ");
        pf_ex_tensor(w, PF_EX_BYTES, t);
    }
    set_work(w, &call->args[l->src[0]], 0, bytes, "kv-cache", PF_MATRIX_NONE);
    pf_ex(w, PF_EX_SIZES, "%lld tokens written; cache ", (long long)pf_arg_numel(slots));
    pf_ex_shape(w, PF_EX_SIZES, &call->args[l->cache[0]]);
    pf_ex(w, PF_EX_SIZES, " (not read)");
    return PF_FORMULA_OK;
}

/* ---- rotary embedding ---- */

/* rotary_embedding(positions [T], query [T, Hq*D], key [T, Hk*D]?, head_size,
 * cos_sin_cache [max_pos, rot_dim], is_neox, ...): q and k rotated in place, read and
 * written, their first rot_dim of each head_size elements (all when rot_dim = head_size);
 * the positions read and one cache row per token (at most the cache's rows). Each rotated
 * pair costs 4 multiplies and 2 adds: 3 FLOP per element. */
int pf_rotary(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    enum { POS = 0, Q = 1, K = 2, HEAD = 3, CACHE = 4 };
    const pf_arg *pos = tensor_at(call, POS), *q = tensor_at(call, Q), *k = tensor_at(call, K);
    const pf_arg *cache = tensor_at(call, CACHE);
    int64_t head;
    if (!pos || !q || !cache || cache->ndim != 2 || pf_concrete_int(pf_concrete_at(call, HEAD), &head) < 0 ||
        head < 1)
        return PF_FORMULA_BAD_ARGS;
    int64_t rot = cache->dims[1], tokens = pf_arg_numel(pos);
    if (rot > head || rot < 1)
        return PF_FORMULA_MISMATCH;
    double frac = (double)rot / (double)head;
    double rotated = (double)pf_arg_numel(q) * frac + (k ? (double)pf_arg_numel(k) * frac : 0);
    int qsize = pf_type_size(q->type), csize = pf_type_size(cache->type);
    int64_t rows = tokens < cache->dims[0] ? tokens : cache->dims[0];
    if (qsize <= 0 || csize <= 0)
        return PF_FORMULA_BAD_ARGS;
    double bytes = 2.0 * rotated * qsize + (double)rows * (double)rot * csize;
    bytes = pf_bytes_add(bytes, pf_tensor_bytes(pos));
    set_work(w, q, 3.0 * rotated, bytes, "rotary", PF_MATRIX_NONE);
    pf_ex_rule(w, "serving.c", "the query");
    pf_ex(w, PF_EX_SIZES, "tokens %lld, head_size %lld, rot_dim %lld: %.0f elements of q and k rotated in place",
          (long long)tokens, (long long)head, (long long)rot, rotated);
    pf_ex(w, PF_EX_FLOP, "3*rotated = 3*%.0f", rotated);
    pf_ex(w, PF_EX_BYTES, "2*rotated*%d + cache rows %lld*%lld*%d + positions", qsize, (long long)rows,
          (long long)rot, csize);
    return PF_FORMULA_OK;
}

/* ---- fused MoE ---- */

/* (inplace|outplace)_fused_experts(hidden [T, K], w1 [E, 2N, K], w2 [E, K, N],
 * topk_weights [T, topk], topk_ids [T, topk], ...): each token goes through its top-k
 * experts' two GEMMs, 2*T*topk*(2N*K + K*N) FLOP. Bytes: hidden, the routing tensors and
 * the output [T, K] at hidden's type, and the weights of the experts the tokens can reach:
 * min(E, T*topk) of E, a ceiling, since the trace does not say how many experts were
 * picked; so the figures are marked an upper bound (~ub). */
int pf_fused_moe(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    const pf_arg *h = tensor_at(call, 0), *w1 = tensor_at(call, 1), *w2 = tensor_at(call, 2);
    const pf_arg *tw = tensor_at(call, 3), *ti = tensor_at(call, 4);
    if (!h || !w1 || !w2 || !tw || !ti || h->ndim != 2 || w1->ndim != 3 || w2->ndim != 3 || ti->ndim != 2)
        return PF_FORMULA_BAD_ARGS;
    int64_t t = h->dims[0], e = w1->dims[0], topk = ti->dims[1];
    if (w2->dims[0] != e || ti->dims[0] != t || e < 1)
        return PF_FORMULA_MISMATCH;
    double per_expert = (double)pf_arg_numel(w1) / (double)e + (double)pf_arg_numel(w2) / (double)e;
    double routed = (double)t * (double)topk;
    double reached = routed < (double)e ? routed : (double)e;
    double weights = pf_bytes_add(pf_tensor_bytes(w1), pf_tensor_bytes(w2));
    double bytes = pf_bytes_add(2.0 * pf_tensor_bytes(h), weights < 0 ? -1 : weights * reached / (double)e);
    bytes = pf_bytes_add(bytes, pf_bytes_add(pf_tensor_bytes(tw), pf_tensor_bytes(ti)));
    set_work(w, w1, 2.0 * routed * per_expert, bytes, "moe~ub", PF_MATRIX_GEMM);
    w->upper_bound = 1;
    pf_ex_rule(w, "serving.c", "the expert weights");
    pf_ex(w, PF_EX_SIZES, "T=%lld tokens, top-k %lld, E=%lld experts of %.0f weights each; experts reached at "
          "most min(E, T*topk) = %.0f (an upper bound)", (long long)t, (long long)topk, (long long)e, per_expert,
          reached);
    pf_ex(w, PF_EX_FLOP, "2*T*topk*(w1 + w2 per expert) = 2*%lld*%lld*%.0f", (long long)t, (long long)topk,
          per_expert);
    pf_ex(w, PF_EX_BYTES, "2*hidden + (w1 + w2)*%.0f/%lld + topk_weights + topk_ids", reached, (long long)e);
    return PF_FORMULA_OK;
}

/* ---- vLLM's moe_forward ---- */

/* A packed weight type holds two values in each element (mxfp4 as uint8, fp4 x2); the
 * weights' reduction dim then reads half the values it multiplies. */
static int packing_of(const char *type)
{
    static const char *const packed[] = {"unsigned char", "uint8", "c10::Float4_e2m1fn_x2"};
    for (size_t i = 0; i < sizeof packed / sizeof packed[0]; i++)
        if (type && strcmp(type, packed[i]) == 0)
            return 2;
    return 1;
}

/* top-k of a routing op run inside: TopK / aten::topk (self, k, ...) give k as their second
 * argument; topk_softmax (topk_weights [T, k], ...) as its first's last dim. 0 when no nested
 * op names it, or the figures disagree with T tokens and E experts. */
static int64_t nested_topk(const pf_op_call *call, int64_t t, int64_t e)
{
    for (int i = 0; call->nested && i < call->nested->n; i++) {
        const pf_op_call *c = &call->nested->calls[i];
        if (!c->name || !(strstr(c->name, "topk") || strstr(c->name, "TopK")))
            continue;
        int64_t k = 0;
        const pf_arg *first = tensor_at(c, 0);
        if (pf_concrete_int(pf_concrete_at(c, 1), &k) < 0 && first && first->ndim == 2 && first->dims[0] == t)
            k = first->dims[1];
        if (k >= 1 && k <= e)
            return k;
    }
    return 0;
}

/* The first two distinct 3-D tensors [E, a, b] that nested ops take first: the layer's two
 * expert weights, viewed by the kernels' wrappers. Returns how many were found (0 to 2). */
static int nested_weights(const pf_op_call *call, int64_t e, const pf_arg **w)
{
    int n = 0;
    for (int i = 0; call->nested && i < call->nested->n && n < 2; i++) {
        const pf_arg *a = tensor_at(&call->nested->calls[i], 0);
        if (!a || a->ndim != 3 || a->dims[0] != e)
            continue;
        if (n == 1 && a->dims[1] == w[0]->dims[1] && a->dims[2] == w[0]->dims[2] && strcmp(a->type, w[0]->type) == 0)
            continue;
        w[n++] = a;
    }
    return n;
}

/* The experts' GEMM sizes from weights w1 [E, a, b] and w2 [E, c, d] for hidden size h: w1's
 * reduction dim is h (one of a, b, times the packing), its other dim n1 (2I for a gated
 * activation); w2 maps I (n1 or n1/2) back to h. Returns 0 with *n1 and *inter, or -1 when
 * the shapes do not chain so (the layer is laid out in a way this rule does not know). */
static int chain_weights(const pf_arg *w1, const pf_arg *w2, int64_t h, int64_t *n1, int64_t *inter)
{
    int p1 = packing_of(w1->type), p2 = packing_of(w2->type);
    for (int o1 = 1; o1 <= 2; o1++) {
        if (w1->dims[o1] * p1 != h)
            continue;
        *n1 = w1->dims[3 - o1];
        for (int o2 = 1; o2 <= 2; o2++) {
            int64_t k2 = w2->dims[o2] * p2;
            if (w2->dims[3 - o2] == h && (k2 == *n1 || 2 * k2 == *n1)) {
                *inter = k2;
                return 0;
            }
        }
    }
    return -1;
}

/* vllm::moe_forward(hidden [T, H], router_logits [T, E], layer_name): each token goes
 * through its top-k experts' two GEMMs, [T*k, H] x [H, N1] and [T*k, I] x [I, H], with
 * N1 = 2I under a gated activation: 2*T*k*(H*N1 + I*H) FLOP. The op records only hidden and
 * the logits; top-k and the weights come from its nested ops (pf_op_call.nested). Bytes:
 * hidden read, the output [T, H] written, the logits, and the weights of the experts the
 * tokens can reach, min(E, T*k) of E: a ceiling (the trace does not say how many were
 * picked; block scales of packed weights are not recorded), so the figures are marked an
 * upper bound (~ub). */
int pf_moe_forward(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    const pf_arg *h = tensor_at(call, 0), *logits = tensor_at(call, 1), *wt[2];
    if (!h || !logits || h->ndim != 2 || logits->ndim != 2)
        return PF_FORMULA_BAD_ARGS;
    int64_t t = h->dims[0], hid = h->dims[1], e = logits->dims[1], n1, inter;
    if (logits->dims[0] != t || e < 1)
        return PF_FORMULA_MISMATCH;
    int64_t k = nested_topk(call, t, e);
    if (k == 0 || nested_weights(call, e, wt) != 2)
        return PF_FORMULA_UNRECORDED;
    if (chain_weights(wt[0], wt[1], hid, &n1, &inter))
        return PF_FORMULA_MISMATCH;
    double routed = (double)t * (double)k;
    double flop = 2.0 * routed * ((double)hid * (double)n1 + (double)inter * (double)hid);
    double reached = routed < (double)e ? routed : (double)e;
    double weights = pf_bytes_add(pf_tensor_bytes(wt[0]), pf_tensor_bytes(wt[1]));
    double bytes = pf_bytes_add(2.0 * pf_tensor_bytes(h), pf_tensor_bytes(logits));
    bytes = pf_bytes_add(bytes, weights < 0 ? -1 : weights * reached / (double)e);
    set_work(w, h, flop, bytes, "moe~ub", PF_MATRIX_GEMM);
    w->upper_bound = 1;
    pf_ex_rule(w, "serving.c", "the hidden states");
    pf_ex(w, PF_EX_SIZES, "T=%lld tokens, H=%lld, top-k %lld (nested routing op), E=%lld experts; weights ",
          (long long)t, (long long)hid, (long long)k, (long long)e);
    pf_ex_shape(w, PF_EX_SIZES, wt[0]);
    pf_ex(w, PF_EX_SIZES, " and ");
    pf_ex_shape(w, PF_EX_SIZES, wt[1]);
    pf_ex(w, PF_EX_SIZES, " (nested views): N1=%lld, I=%lld; experts reached at most min(E, T*k) = %.0f",
          (long long)n1, (long long)inter, reached);
    pf_ex(w, PF_EX_FLOP, "2*T*k*(H*N1 + I*H) = 2*%lld*%lld*(%lld*%lld + %lld*%lld)", (long long)t, (long long)k,
          (long long)hid, (long long)n1, (long long)inter, (long long)hid);
    pf_ex(w, PF_EX_BYTES, "2*hidden + logits + (w1 + w2)*%.0f/%lld", reached, (long long)e);
    return PF_FORMULA_OK;
}
