/* formula_list.h - the one list of op formulas: one line each, from which the formula enum (op_family.h), the formulas' prototypes (src/formulas/families.h) and the registry (src/formulas/registry.c) are made. */
/* layer: catalog (docs/HACKING.md: Recipe: an op formula) */

/* An X-macro list, without an include guard: a reader defines PF_FORMULA, includes this file
 * and undefines it. A line is PF_FORMULA(ID, FUNCTION, WORD):
 *   ID        the op table's rows name the formula PF_OPF_ID (src/catalog/op_family.c);
 *   FUNCTION  its pf_formula_fn (formulas.h), written in a file of src/formulas/;
 *   WORD      the registry's word for it (pf_formula_lookup, --explain), or 0 for the word
 *             of the op's family ("gemm", "conv", ...): an RNN is GEMMs and an FFT or an
 *             optimizer step none of the families' work, so those are named by what they are.
 * The catalog reads only ID; the order is the enum's. A comment after a line: the ops it counts
 * and its file. */

PF_FORMULA(MM,                 pf_gemm_mm,                0)           /* mm (gemm.c) */
PF_FORMULA(ADDMM,              pf_gemm_addmm,             0)           /* addmm (gemm.c) */
PF_FORMULA(BMM,                pf_gemm_bmm,               0)           /* bmm (gemm.c) */
PF_FORMULA(BADDBMM,            pf_gemm_baddbmm,           0)           /* baddbmm (gemm.c) */
PF_FORMULA(SCALED_MM,          pf_gemm_scaled_mm,         0)           /* _scaled_mm (gemm.c) */
PF_FORMULA(CONV_FORWARD,       pf_conv_forward,           0)           /* convolutions, by pf_conv_args (conv.c) */
PF_FORMULA(CONV_BACKWARD,      pf_conv_backward,          0)           /* convolution backwards (conv.c) */
PF_FORMULA(ATTENTION,          pf_attention,              0)           /* fused attention, by pf_attn_args (attention.c) */
PF_FORMULA(POINTWISE,          pf_est_pointwise,          0)           /* out-of-place element-wise op (elementwise.c) */
PF_FORMULA(INPLACE,            pf_est_inplace,            0)           /* in-place element-wise op: add_ (elementwise.c) */
PF_FORMULA(OVERWRITE,          pf_est_overwrite,          0)           /* in-place fill that reads nothing: fill_, uniform_ (elementwise.c) */
PF_FORMULA(LIKE_INPUT,         pf_est_like_input,         0)           /* one output the shape of the input: softmax, norms, copies (elementwise.c) */
PF_FORMULA(REDUCE,             pf_est_reduce,             0)           /* reductions (reduce.c) */
PF_FORMULA(CAT,                pf_est_cat,                0)           /* cat (copy.c) */
PF_FORMULA(INDEX_ROWS,         pf_est_index_rows,         0)           /* rows picked by an index: embedding, index_select (copy.c) */
PF_FORMULA(GATHER,             pf_est_gather,             0)           /* gather (copy.c) */
PF_FORMULA(INT_MM,             pf_gemm_int_mm,            0)           /* int8 GEMM writing int32 (gemm.c) */
PF_FORMULA(GROUPED_MM,         pf_grouped_mm,             0)           /* _grouped_mm and _scaled_grouped_mm (grouped_mm.c) */
PF_FORMULA(FUSED_OPTIM,        pf_fused_optim,            "optimizer") /* _fused_adam_, _fused_adamw_, _fused_sgd_ (optim.c) */
PF_FORMULA(FOREACH,            pf_foreach,                "foreach")   /* _foreach_* over tensor lists (optim.c) */
PF_FORMULA(RNN,                pf_rnn,                    "rnn")       /* _cudnn_rnn and its backward (rnn.c) */
PF_FORMULA(FFT,                pf_fft,                    "fft")       /* _fft_r2c, _fft_c2r, _fft_c2c (fft.c) */
PF_FORMULA(UPSAMPLE,           pf_upsample,               "upsample")  /* upsample_* and their backwards (spatial.c) */
PF_FORMULA(MAX_POOL,           pf_max_pool,               "pool")      /* max_pool*_with_indices and their backwards (spatial.c) */
PF_FORMULA(SORT,               pf_sort,                   "sort")      /* sort, topk (sort.c) */
PF_FORMULA(SCAN,               pf_scan,                   "scan")      /* cumsum, cumprod (sort.c) */
PF_FORMULA(SERVING_IO,         pf_serving_io,             0)           /* serving: ops that read some arguments and write others: silu_and_mul, RMS norms (serving.c) */
PF_FORMULA(KV_CACHE_WRITE,     pf_kv_cache_write,         "kv-cache")  /* serving: KV-cache writers (serving.c) */
PF_FORMULA(ROTARY,             pf_rotary,                 "rotary")    /* serving: in-place rotary embedding (serving.c) */
PF_FORMULA(VARLEN_ATTENTION,   pf_varlen_attention,       0)           /* serving: paged and variable-length attention (varlen_attention.c) */
PF_FORMULA(FUSED_MOE,          pf_fused_moe,              "moe")       /* serving: fused MoE experts (serving.c) */
PF_FORMULA(MOE_FORWARD,        pf_moe_forward,            "moe")       /* serving: vLLM's moe_forward, from its nested ops (serving.c) */
PF_FORMULA(INDEX_LIST,         pf_est_index_list,         0)           /* rows picked by a list of index tensors: index (copy.c) */
PF_FORMULA(FLEX_ATTENTION,     pf_flex_attention,         0)           /* Inductor's flex attention launches, dense (attention.c) */
PF_FORMULA(INDEX_WRITE,        pf_est_index_write,        0)           /* index_copy_, index_add_: source-sized part of self written (index_write.c) */
PF_FORMULA(SCATTER,            pf_est_scatter,            0)           /* scatter_, scatter_add_: one element of self per index (index_write.c) */
PF_FORMULA(INDEX_PUT,          pf_est_index_put,          0)           /* index_put_, _index_put_impl_: values-sized part written (index_write.c) */
PF_FORMULA(EMBEDDING_BACKWARD, pf_est_embedding_backward, 0)           /* embedding_dense_backward: the rows picked written (index_write.c) */
PF_FORMULA(NLL_LOSS,           pf_est_nll_loss,           "loss")      /* nll_loss_forward: one element per row read (loss.c) */
PF_FORMULA(NLL_LOSS_BACKWARD,  pf_est_nll_loss_backward,  "loss")      /* nll_loss_backward: one element per row written (loss.c) */
PF_FORMULA(ARANGE,             pf_est_arange,             0)           /* arange: ceil((end - start) / step) elements written (elementwise.c) */
PF_FORMULA(DROPOUT,            pf_est_dropout,            0)           /* native_dropout: output and its bool mask written (elementwise.c) */
