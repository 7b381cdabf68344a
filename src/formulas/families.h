/* families.h - private to src/formulas: the formula of each op family, which registry.c calls. */
#ifndef PROFANA_FORMULAS_FAMILIES_H
#define PROFANA_FORMULAS_FAMILIES_H

#include "args.h"

/* Each is a pf_formula_fn: the op table (op_family.h) names it per op, registry.c calls it.
 * A family module includes this header for its own prototypes; only reduce.c calls another
 * family (max.other, an element-wise overload, is pf_est_pointwise). */

int pf_gemm_mm(const pf_op_call *call, pf_work *w);
int pf_gemm_addmm(const pf_op_call *call, pf_work *w);
int pf_gemm_bmm(const pf_op_call *call, pf_work *w);
int pf_gemm_baddbmm(const pf_op_call *call, pf_work *w);
int pf_gemm_scaled_mm(const pf_op_call *call, pf_work *w);
int pf_gemm_int_mm(const pf_op_call *call, pf_work *w);
int pf_grouped_mm(const pf_op_call *call, pf_work *w);

int pf_fused_optim(const pf_op_call *call, pf_work *w);
int pf_foreach(const pf_op_call *call, pf_work *w);
int pf_rnn(const pf_op_call *call, pf_work *w);
int pf_fft(const pf_op_call *call, pf_work *w);
int pf_upsample(const pf_op_call *call, pf_work *w);
int pf_max_pool(const pf_op_call *call, pf_work *w);
int pf_sort(const pf_op_call *call, pf_work *w);
int pf_scan(const pf_op_call *call, pf_work *w);

int pf_serving_io(const pf_op_call *call, pf_work *w);
int pf_kv_cache_write(const pf_op_call *call, pf_work *w);
int pf_rotary(const pf_op_call *call, pf_work *w);
int pf_varlen_attention(const pf_op_call *call, pf_work *w);
int pf_fused_moe(const pf_op_call *call, pf_work *w);
int pf_moe_forward(const pf_op_call *call, pf_work *w);

int pf_conv_forward(const pf_op_call *call, pf_work *w);
int pf_conv_backward(const pf_op_call *call, pf_work *w);

int pf_attention(const pf_op_call *call, pf_work *w);
int pf_flex_attention(const pf_op_call *call, pf_work *w);

int pf_est_pointwise(const pf_op_call *call, pf_work *w);
int pf_est_inplace(const pf_op_call *call, pf_work *w);
int pf_est_overwrite(const pf_op_call *call, pf_work *w);
int pf_est_like_input(const pf_op_call *call, pf_work *w);
int pf_est_reduce(const pf_op_call *call, pf_work *w);
int pf_est_cat(const pf_op_call *call, pf_work *w);
int pf_est_index_rows(const pf_op_call *call, pf_work *w);
int pf_est_gather(const pf_op_call *call, pf_work *w);
int pf_est_index_list(const pf_op_call *call, pf_work *w);
int pf_est_arange(const pf_op_call *call, pf_work *w);
int pf_est_dropout(const pf_op_call *call, pf_work *w);

int pf_est_index_write(const pf_op_call *call, pf_work *w);
int pf_est_scatter(const pf_op_call *call, pf_work *w);
int pf_est_index_put(const pf_op_call *call, pf_work *w);
int pf_est_embedding_backward(const pf_op_call *call, pf_work *w);

int pf_est_nll_loss(const pf_op_call *call, pf_work *w);
int pf_est_nll_loss_backward(const pf_op_call *call, pf_work *w);

/* No formula: the generic guess (generic.c). Returns
 * PF_FORMULA_OK, or -1 when the call has no tensor argument (w untouched then). */
int pf_estimate_unlisted(const pf_op_call *call, pf_work *w);

#endif
