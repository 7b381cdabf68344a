/* varlen_attention.c - FLOP and byte formulas of the serving libraries' attention over packed variable-length batches and paged KV caches: aiter's mha_batch_prefill, vLLM's paged_attention_v1/v2, flash-attn's varlen forward. */
#include "families.h"

#include <assert.h>
#include <string.h>

enum { NA = -1 };

/* Where one op keeps q and the K and V it attends (a packed tensor or a paged cache; the
 * output, whether an argument or returned, has q's shape), the cumulative query lengths ([B + 1]; NA: one query token per
 * sequence, a decode step), the longest query and key lengths (Concrete Inputs), is_causal,
 * and the small index tensors read beside them (bit mask of positions). */
typedef struct varlen_layout {
    const char *op;
    signed char q, k, v, cu_q, max_q, max_k, causal;
    unsigned index_args;
} varlen_layout;

#define BIT(i) (1u << (i))

/* From the ops' schemas: aiter mha_batch_prefill(q, k, v, cu_seqlens_q, kv_indptr,
 * kv_page_indices, max_seqlen_q, max_seqlen_k, p_dropout, softmax_scale, logits_soft_cap,
 * zero_tensors, is_causal, ...); vLLM paged_attention_v1(out, query, key_cache, value_cache,
 * num_kv_heads, scale, block_tables, seq_lens, block_size, max_seq_len, ...) and v2 (out,
 * exp_sums, max_logits, tmp_out, query, key_cache, value_cache, num_kv_heads, scale,
 * block_tables, seq_lens, block_size, max_seq_len, ...); flash_attn _flash_attn_varlen_forward
 * (q, k, v, cu_seqlens_q, cu_seqlens_k, max_seqlen_q, max_seqlen_k, dropout_p,
 * softmax_scale, causal, ...). */
static const varlen_layout layouts[] = {
    {"aiter::mha_batch_prefill", 0, 1, 2, 3, 6, 7, 12, BIT(3) | BIT(4) | BIT(5)},
    {"_C::paged_attention_v1", 1, 2, 3, NA, NA, 9, NA, BIT(6) | BIT(7)},
    {"_C::paged_attention_v2", 4, 5, 6, NA, NA, 12, NA, BIT(9) | BIT(10)},
    {"flash_attn::_flash_attn_varlen_forward", 0, 1, 2, 3, 5, 6, 9, BIT(3) | BIT(4)},
};

typedef struct varlen_geom {
    int64_t b, h, hkv, sq, sk, d, tq;
    int causal, exact;
} varlen_geom;

static const pf_arg *tensor_at(const pf_op_call *call, int pos)
{
    return pos != NA && pos < call->nargs && pf_arg_is_tensor(&call->args[pos]) &&
                   pf_arg_numel(&call->args[pos]) >= 0
               ? &call->args[pos]
               : NULL;
}

/* The KV heads: packed [T, Hkv, D] and vLLM's [blocks, Hkv, D/x, block, x] keep them at dim
 * 1, the flash layout [blocks, block, Hkv, D] at dim 2. */
static int64_t kv_heads(const pf_arg *k)
{
    return k->ndim == 4 ? k->dims[2] : k->dims[1];
}

static int read_geom(const pf_op_call *call, const varlen_layout *l, varlen_geom *g)
{
    const pf_arg *q = tensor_at(call, l->q), *k = tensor_at(call, l->k), *cu = tensor_at(call, l->cu_q);
    if (!q || !k || !tensor_at(call, l->v) || q->ndim != 3 || k->ndim < 3 || k->ndim > 5)
        return PF_FORMULA_BAD_ARGS;
    g->tq = q->dims[0];
    g->h = q->dims[1];
    g->d = q->dims[2];
    g->hkv = kv_heads(k);
    if (pf_concrete_int(pf_concrete_at(call, l->max_k), &g->sk) < 0 || g->sk < 0)
        return PF_FORMULA_BAD_ARGS;
    if (l->cu_q != NA) {
        if (!cu || cu->ndim != 1 || cu->dims[0] < 2)
            return PF_FORMULA_BAD_ARGS;
        if (pf_concrete_int(pf_concrete_at(call, l->max_q), &g->sq) < 0 || g->sq < 0)
            return PF_FORMULA_BAD_ARGS;
        g->b = cu->dims[0] - 1;
    } else {
        g->b = g->tq;
        g->sq = 1;
    }
    g->causal = 0;
    if (l->causal != NA) {
        const char *text = pf_concrete_at(call, l->causal);
        g->causal = *text ? pf_concrete_bool(text) : 0;
        if (g->causal < 0)
            return PF_FORMULA_BAD_ARGS;
    }
    if (g->hkv < 1 || g->h % g->hkv != 0)
        return PF_FORMULA_MISMATCH;
    /* Every sequence is as long as the longest when the packed queries number B*max_q; the
     * keys include the queries (a KV cache holds the new tokens too), so max_k = max_q then
     * makes every key length max_k as well: the figures are exact. */
    g->exact = l->cu_q != NA && g->tq == g->b * g->sq && g->sk == g->sq;
    return PF_FORMULA_OK;
}

int pf_varlen_attention(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    const varlen_layout *l = NULL;
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
        if (strcmp(call->name, layouts[i].op) == 0)
            l = &layouts[i];
    varlen_geom g;
    if (!l)
        return PF_FORMULA_BAD_ARGS;
    int rc = read_geom(call, l, &g);
    if (rc != PF_FORMULA_OK)
        return rc;
    const pf_arg *q = &call->args[l->q], *k = &call->args[l->k];
    int qsize = pf_type_size(q->type), ksize = pf_type_size(k->type);
    if (qsize <= 0 || ksize <= 0)
        return PF_FORMULA_BAD_ARGS;
    /* forward attention, 2*B*H*Sq*Sk*(D + Dv), halved when causal (attention.c's rule) */
    double pairs = (double)g.b * (double)g.h * (double)g.sq * (double)g.sk;
    double kv = 2.0 * (double)g.b * (double)g.sk * (double)g.hkv * (double)g.d * ksize;
    double bytes = 2.0 * (double)pf_arg_numel(q) * qsize + kv, index = 0;
    for (int i = 0; i < call->nargs && i < 32; i++)
        if ((l->index_args & BIT(i)) && tensor_at(call, i))
            index += pf_tensor_bytes(&call->args[i]);
    w->flop = 2.0 * pairs * 2.0 * (double)g.d / (g.causal ? 2.0 : 1.0);
    w->bytes = bytes + index;
    w->dtype = pf_dtype_from_type_string(q->type);
    w->matrix = PF_MATRIX_GEMM;
    w->upper_bound = !g.exact;
    w->source = g.exact ? "attention" : "attention~ub";
    pf_ex_rule(w, "varlen_attention.c", "q");
    pf_ex(w, PF_EX_SIZES, "q [T, H, D] = [%lld, %lld, %lld], Hkv=%lld, B=%lld sequences (%s), Sq=%lld, Sk=%lld "
          "(the longest, from Concrete Inputs)%s; %s", (long long)g.tq, (long long)g.h, (long long)g.d,
          (long long)g.hkv, (long long)g.b, l->cu_q != NA ? "cu_seqlens_q's length - 1" : "one query token each",
          (long long)g.sq, (long long)g.sk, g.exact ? ": T = B*Sq and Sk = Sq, every sequence that long, exact"
          : ": an upper bound", g.causal ? "causal, FLOPs halved" : "not causal");
    pf_ex(w, PF_EX_FLOP, "2*B*H*Sq*Sk*(D + Dv)%s = 2*%lld*%lld*%lld*%lld*(%lld + %lld)%s", g.causal ? "/2" : "",
          (long long)g.b, (long long)g.h, (long long)g.sq, (long long)g.sk, (long long)g.d, (long long)g.d,
          g.causal ? "/2" : "");
    pf_ex(w, PF_EX_BYTES, "q + out + K and V of the tokens attended (not the whole cache) + index tensors = "
          "2*%lld*%d + 2*%lld*%lld*%lld*%lld*%d + %.0f", (long long)pf_arg_numel(q), qsize, (long long)g.b,
          (long long)g.sk, (long long)g.hkv, (long long)g.d, ksize, index);
    return PF_FORMULA_OK;
}
