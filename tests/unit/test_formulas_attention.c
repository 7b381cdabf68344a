/* test_formulas_attention.c - unit tests of the attention formulas: every backend, forward and backward, GQA, causal masks, Dv != D and variable-length batches. */
#include <stdarg.h>
#include <stdint.h>

#include "check.h"
#include "formula_fixtures.h"
#include "profana/formulas.h"

/* ---- fixtures ---- */

#define LONG0 tensor("long int", 0)

static void check_attention(const char *name, int rc, const pf_work *w, double flop, double bytes,
                            pf_dtype dtype, int upper_bound)
{
    check_work(name, rc, w, flop, bytes, dtype, 1, upper_bound, 0,
               upper_bound ? "attention~ub" : "attention");
}

/* ---- cuDNN: eager_bf16.json's calls, [B, H, S, D] = [8, 16, 512, 64] ---- */

/* _cudnn_attention_forward(q, k, v, attn_bias, cum_seq_q, cum_seq_k, max_q, max_k,
 * compute_log_sumexp, dropout_p, is_causal, return_debug_mask, scale): the trace's
 * Concrete Inputs, is_causal True at 10. */
static int run_cudnn_forward(const char *op, pf_work *w)
{
    return RUN(op, w, BF16(4, 8, 16, 512, 64), BF16(4, 8, 16, 512, 64), BF16(4, 8, 16, 512, 64),
               NONE, NONE, NONE, VAL("512"), VAL("512"), VAL("True"), VAL("0."), VAL("True"),
               VAL("False"), NONE);
}

/* _cudnn_attention_backward(grad_out, q, k, v, out, logsumexp, philox_seed, philox_offset,
 * attn_bias, cum_seq_q, cum_seq_k, max_q, max_k, dropout_p, is_causal, scale). */
static int run_cudnn_backward(const char *op, pf_work *w)
{
    return RUN(op, w, BF16(4, 8, 16, 512, 64), BF16(4, 8, 16, 512, 64), BF16(4, 8, 16, 512, 64),
               BF16(4, 8, 16, 512, 64), BF16(4, 8, 16, 512, 64), F32(4, 8, 16, 512, 1), LONG0,
               LONG0, NONE, NONE, NONE, VAL("512"), VAL("512"), VAL("0."), VAL("True"), NONE);
}

static void test_cudnn(void)
{
    pf_work w;
    /* B H Sq Sk = 8 x 16 x 512 x 512 = 33554432 pairs. FLOP 2 x 33554432 x (64 + 64)
     * = 8589934592, causal halves: 4294967296.
     * bytes: q, k, v 8 x 16 x 512 x 64 = 4194304 elements x 2 = 8388608 each, 25165824;
     * out 8388608; logsumexp 8 x 16 x 512 x 4 = 262144. 25165824 + 8388608 + 262144 = 33816576 */
    int rc = run_cudnn_forward("aten::_cudnn_attention_forward", &w);
    check_attention("cudnn forward (eager_bf16)", rc, &w, 4294967296.0, 33816576.0, PF_DT_BF16, 0);
    /* backward: 2 x 33554432 x (3 x 64 + 2 x 64 = 320) = 21474836480, causal 10737418240:
     * 2.5 x the forward's 4294967296.
     * bytes: grad_out 8388608 + q, k, v 25165824 + out 8388608 + logsumexp [8,16,512,1] x 4
     * = 262144 + dq, dk, dv 25165824 = 67371008 */
    rc = run_cudnn_backward("aten::_cudnn_attention_backward", &w);
    check_attention("cudnn backward (eager_bf16)", rc, &w, 10737418240.0, 67371008.0, PF_DT_BF16, 0);
    /* the SDPA backward has the same schema */
    rc = run_cudnn_backward("aten::_scaled_dot_product_cudnn_attention_backward", &w);
    check_attention("sdpa cudnn backward", rc, &w, 10737418240.0, 67371008.0, PF_DT_BF16, 0);
}

static void test_cudnn_sdpa_forward(void)
{
    pf_work w;
    /* _scaled_dot_product_cudnn_attention(q, k, v, attn_bias, compute_log_sumexp, dropout_p,
     * is_causal, return_debug_mask, scale): the same work as the cudnn forward above */
    int rc = RUN("aten::_scaled_dot_product_cudnn_attention", &w, BF16(4, 8, 16, 512, 64),
                 BF16(4, 8, 16, 512, 64), BF16(4, 8, 16, 512, 64), NONE, VAL("True"), VAL("0."),
                 VAL("True"), VAL("False"), NONE);
    check_attention("sdpa cudnn forward", rc, &w, 4294967296.0, 33816576.0, PF_DT_BF16, 0);
    /* not causal, compute_log_sumexp False, [1, 2, 16, 8]: 1 x 2 x 16 x 16 = 512 pairs,
     * FLOP 2 x 512 x 16 = 16384. bytes: q, k, v 256 elements x 2 = 512 each + out 512 = 2048 */
    rc = RUN("aten::_cudnn_attention_forward", &w, BF16(4, 1, 2, 16, 8), BF16(4, 1, 2, 16, 8),
             BF16(4, 1, 2, 16, 8), NONE, NONE, NONE, VAL("16"), VAL("16"), VAL("False"), VAL("0."),
             VAL("False"), VAL("False"), NONE);
    check_attention("cudnn forward, no logsumexp", rc, &w, 16384.0, 2048.0, PF_DT_BF16, 0);
}

/* ---- memory-efficient: eager_fp32.json's calls, [B, S, H, D] = [4, 256, 16, 64] ---- */

static void test_efficient(void)
{
    pf_work w;
    /* _efficient_attention_forward(q, k, v, bias, cu_seqlens_q, cu_seqlens_k, max_seqlen_q,
     * max_seqlen_k, dropout_p, custom_mask_type, compute_log_sumexp, scale, seqlen_k,
     * window_size); custom_mask_type 1 = causal from the top left.
     * B H Sq Sk = 4 x 16 x 256 x 256 = 4194304 pairs; FLOP 2 x 4194304 x 128 = 1073741824,
     * causal 536870912. bytes: q, k, v 4 x 256 x 16 x 64 = 1048576 elements x 4 = 4194304
     * each, 12582912; out 4194304; logsumexp 4 x 16 x 256 x 4 = 65536; total 16842752 */
    int rc = RUN("aten::_efficient_attention_forward", &w, F32(4, 4, 256, 16, 64),
                 F32(4, 4, 256, 16, 64), F32(4, 4, 256, 16, 64), NONE, NONE, NONE, NONE, NONE,
                 VAL("0."), VAL("1"), VAL("True"), NONE, NONE, NONE);
    check_attention("efficient forward (eager_fp32)", rc, &w, 536870912.0, 16842752.0, PF_DT_FP32, 0);
    /* _efficient_attention_backward(grad_out, q, k, v, bias, out, cu_seqlens_q, cu_seqlens_k,
     * max_seqlen_q, max_seqlen_k, logsumexp, dropout_p, philox_seed, philox_offset,
     * custom_mask_type, bias_requires_grad, scale, num_splits_key, window_size,
     * shared_storage_dqdkdv). The trace records max_seqlen 16 (the head count) in a dense call:
     * the shapes win. FLOP 2 x 4194304 x 320 = 2684354560, causal 1342177280.
     * bytes: grad_out 4194304 + q, k, v 12582912 + out 4194304 + logsumexp [4,16,256] x 4 =
     * 65536 + dq, dk, dv 12582912 = 33619968 */
    rc = RUN("aten::_efficient_attention_backward", &w, F32(4, 4, 256, 16, 64),
             F32(4, 4, 256, 16, 64), F32(4, 4, 256, 16, 64), F32(4, 4, 256, 16, 64), NONE,
             F32(4, 4, 256, 16, 64), NONE, NONE, VAL("16"), VAL("16"), F32(3, 4, 16, 256),
             VAL("0."), LONG0, LONG0, VAL("1"), VAL("False"), NONE, NONE, NONE, VAL("False"));
    check_attention("efficient backward (eager_fp32)", rc, &w, 1342177280.0, 33619968.0, PF_DT_FP32, 0);
    /* custom_mask_type 2 (causal from the bottom right) halves too; 0 does not */
    rc = RUN("aten::_efficient_attention_forward", &w, F32(4, 4, 256, 16, 64),
             F32(4, 4, 256, 16, 64), F32(4, 4, 256, 16, 64), NONE, NONE, NONE, NONE, NONE,
             VAL("0."), VAL("2"), VAL("True"), NONE, NONE, NONE);
    CHECK_NEAR("efficient forward mask type 2", w.flop, 536870912.0);
    rc = RUN("aten::_efficient_attention_forward", &w, F32(4, 4, 256, 16, 64),
             F32(4, 4, 256, 16, 64), F32(4, 4, 256, 16, 64), NONE, NONE, NONE, NONE, NONE,
             VAL("0."), VAL("0"), VAL("True"), NONE, NONE, NONE);
    CHECK_NEAR("efficient forward no mask", w.flop, 1073741824.0);
}

/* GQA (8 query heads over 2 key/value heads), Sq 128 != Sk 256, Dv 32 != D 64, bf16:
 * B H Sq Sk = 2 x 8 x 128 x 256 = 524288 pairs.
 * q 2 x 8 x 128 x 64 = 131072 elements (262144 B); k 2 x 2 x 256 x 64 = 65536 (131072 B);
 * v 2 x 2 x 256 x 32 = 32768 (65536 B); out 2 x 8 x 128 x 32 = 65536 (131072 B);
 * logsumexp 2 x 8 x 128 x 4 = 8192 B. */
static void test_sdpa_efficient_gqa(void)
{
    pf_work w;
    /* FLOP 2 x 524288 x (64 + 32) = 100663296.
     * bytes 262144 + 131072 + 65536 + 131072 + 8192 = 598016 */
    int rc = RUN("aten::_scaled_dot_product_efficient_attention", &w, BF16(4, 2, 8, 128, 64),
                 BF16(4, 2, 2, 256, 64), BF16(4, 2, 2, 256, 32), NONE, VAL("True"), VAL("0."),
                 VAL("False"), NONE);
    check_attention("sdpa efficient GQA Dv != D", rc, &w, 100663296.0, 598016.0, PF_DT_BF16, 0);
    /* backward(grad_out, q, k, v, attn_bias, out, logsumexp, philox_seed, philox_offset,
     * dropout_p, grad_input_mask, is_causal, scale): FLOP 2 x 524288 x (3 x 64 + 2 x 32) =
     * 268435456. bytes: grad_out 131072 + q, k, v 458752 + out 131072 + logsumexp 8192 +
     * dq, dk, dv 458752 = 1187840 */
    rc = RUN("aten::_scaled_dot_product_efficient_attention_backward", &w, BF16(4, 2, 8, 128, 32),
             BF16(4, 2, 8, 128, 64), BF16(4, 2, 2, 256, 64), BF16(4, 2, 2, 256, 32), NONE,
             BF16(4, 2, 8, 128, 32), F32(3, 2, 8, 128), LONG0, LONG0, VAL("0."),
             scalar("ScalarList", "[True, True, True, False]"), VAL("False"), NONE);
    check_attention("sdpa efficient backward GQA", rc, &w, 268435456.0, 1187840.0, PF_DT_BF16, 0);
}

/* ---- flash ---- */

static void test_sdpa_flash(void)
{
    pf_work w;
    /* _scaled_dot_product_flash_attention(q, k, v, dropout_p, is_causal, return_debug_mask,
     * scale), fp16 [1, 4, 64, 32], causal: 1 x 4 x 64 x 64 = 16384 pairs, FLOP 2 x 16384 x 64
     * = 2097152, halved 1048576. bytes: q, k, v 8192 elements x 2 = 16384 each, 49152; out
     * 16384; logsumexp 1 x 4 x 64 x 4 = 1024; total 66560 */
    int rc = RUN("aten::_scaled_dot_product_flash_attention", &w, F16(4, 1, 4, 64, 32),
                 F16(4, 1, 4, 64, 32), F16(4, 1, 4, 64, 32), VAL("0."), VAL("True"), VAL("False"),
                 NONE);
    check_attention("sdpa flash forward causal", rc, &w, 1048576.0, 66560.0, PF_DT_FP16, 0);
    /* backward(grad_out, q, k, v, out, logsumexp, cum_seq_q, cum_seq_k, max_q, max_k,
     * dropout_p, is_causal, philox_seed, philox_offset, scale): FLOP 2 x 16384 x 160 / 2 =
     * 2621440 (2.5 x 1048576). bytes: grad_out 16384 + q, k, v 49152 + out 16384 +
     * logsumexp [1,4,64] x 4 = 1024 + dq, dk, dv 49152 = 132096 */
    rc = RUN("aten::_scaled_dot_product_flash_attention_backward", &w, F16(4, 1, 4, 64, 32),
             F16(4, 1, 4, 64, 32), F16(4, 1, 4, 64, 32), F16(4, 1, 4, 64, 32), F16(4, 1, 4, 64, 32),
             F32(3, 1, 4, 64), NONE, NONE, VAL("64"), VAL("64"), VAL("0."), VAL("True"), LONG0,
             LONG0, NONE);
    check_attention("sdpa flash backward causal", rc, &w, 2621440.0, 132096.0, PF_DT_FP16, 0);
}

static void test_flash_seq_first(void)
{
    pf_work w;
    /* _flash_attention_forward(q, k, v, cum_seq_q, cum_seq_k, max_q, max_k, dropout_p,
     * is_causal, return_debug_mask, scale) takes [B, S, H, D]: q [2, 128, 8, 64], k and v
     * [2, 256, 2, 64] (GQA). 2 x 8 x 128 x 256 = 524288 pairs; FLOP 2 x 524288 x 128 / 2
     * (causal) = 67108864. bytes: q 131072 elements x 2 = 262144; k, v 65536 x 2 = 131072
     * each; out 262144; logsumexp 2 x 8 x 128 x 4 = 8192; total 794624 */
    int rc = RUN("aten::_flash_attention_forward", &w, BF16(4, 2, 128, 8, 64),
                 BF16(4, 2, 256, 2, 64), BF16(4, 2, 256, 2, 64), NONE, NONE, VAL("128"),
                 VAL("256"), VAL("0."), VAL("True"), VAL("False"), NONE);
    check_attention("flash forward [B,S,H,D] GQA", rc, &w, 67108864.0, 794624.0, PF_DT_BF16, 0);
}

/* ---- the remaining combinations: dense flash backward, cuDNN backward with everything
 * at once, efficient forward with a bias ---- */

static void test_combinations(void)
{
    pf_work w;
    /* _flash_attention_backward, dense [B, S, H, D]: q [2, 128, 8, 64], k and v [2, 256, 2, 64]
     * (GQA, Sq 128 != Sk 256), not causal. 2 x 8 x 128 x 256 = 524288 pairs; FLOP
     * 2 x 524288 x (3 x 64 + 2 x 64) = 335544320. bytes: grad_out 131072 elements x 2 =
     * 262144; q 262144; k, v 65536 x 2 = 131072 each; out 262144; logsumexp [2, 8, 128] x 4 =
     * 8192; dq, dk, dv 524288. 262144 + 524288 + 262144 + 8192 + 524288 = 1581056 */
    int rc = RUN("aten::_flash_attention_backward", &w, BF16(4, 2, 128, 8, 64), BF16(4, 2, 128, 8, 64),
                 BF16(4, 2, 256, 2, 64), BF16(4, 2, 256, 2, 64), BF16(4, 2, 128, 8, 64), F32(3, 2, 8, 128),
                 NONE, NONE, VAL("128"), VAL("256"), VAL("0."), VAL("False"), tensor("long int", 1, 2),
                 NONE, NONE);
    check_attention("flash backward dense GQA Sq != Sk", rc, &w, 335544320.0, 1581056.0, PF_DT_BF16, 0);
    /* _cudnn_attention_backward [B, H, S, D] with GQA (8 over 2 heads), Sq 128 != Sk 256,
     * Dv 32 != D 64, causal: 524288 pairs, FLOP 2 x 524288 x (3 x 64 + 2 x 32) / 2 = 134217728.
     * bytes: grad_out [2,8,128,32] 65536 x 2 = 131072; q 262144; k 131072; v [2,2,256,32]
     * 32768 x 2 = 65536; out 131072; logsumexp [2,8,128,1] x 4 = 8192; dq, dk, dv 458752.
     * 131072 + 458752 + 131072 + 8192 + 458752 = 1187840 */
    rc = RUN("aten::_cudnn_attention_backward", &w, BF16(4, 2, 8, 128, 32), BF16(4, 2, 8, 128, 64),
             BF16(4, 2, 2, 256, 64), BF16(4, 2, 2, 256, 32), BF16(4, 2, 8, 128, 32), F32(4, 2, 8, 128, 1),
             LONG0, LONG0, NONE, NONE, NONE, VAL("128"), VAL("256"), VAL("0."), VAL("True"), NONE);
    check_attention("cudnn backward GQA causal Sq != Sk Dv != D", rc, &w, 134217728.0, 1187840.0, PF_DT_BF16, 0);
    /* _efficient_attention_forward [B, S, H, D] fp16 with a bias [1, 4, 64, 96], Dv 16 != D 32,
     * Sq 64 != Sk 96, no mask, no logsumexp: 1 x 4 x 64 x 96 = 24576 pairs, FLOP
     * 2 x 24576 x (32 + 16) = 2359296. bytes: q 8192 x 2 = 16384; k 12288 x 2 = 24576;
     * v 6144 x 2 = 12288; out [1,64,4,16] 4096 x 2 = 8192; bias 24576 x 2 = 49152: 110592 */
    rc = RUN("aten::_efficient_attention_forward", &w, F16(4, 1, 64, 4, 32), F16(4, 1, 96, 4, 32),
             F16(4, 1, 96, 4, 16), F16(4, 1, 4, 64, 96), NONE, NONE, NONE, NONE, VAL("0."), VAL("0"),
             VAL("False"), NONE, NONE, NONE);
    check_attention("efficient forward with bias, Dv != D", rc, &w, 2359296.0, 110592.0, PF_DT_FP16, 0);
}

/* ---- variable-length batches: sized by max_q / max_k, an upper bound ---- */

static void test_varlen(void)
{
    pf_work w;
    /* _flash_attention_backward(grad_out, q, k, v, out, logsumexp, cum_seq_q, cum_seq_k,
     * max_q, max_k, dropout_p, is_causal, rng_state, unused, scale): 300 packed tokens,
     * q [300, 8, 64], k and v [300, 2, 64], cum_seq [4]: B = 3. 3 x 8 x 128 x 128 = 393216
     * pairs, FLOP 2 x 393216 x 320 / 2 = 125829120.
     * bytes: grad_out 300 x 8 x 64 = 153600 elements x 2 = 307200; q 307200; k, v 38400 x 2
     * = 76800 each; out 307200; logsumexp [8, 300] x 4 = 9600; dq, dk, dv 460800.
     * 307200 + 460800 + 307200 + 9600 + 460800 = 1545600 */
    int rc = RUN("aten::_flash_attention_backward", &w, BF16(3, 300, 8, 64), BF16(3, 300, 8, 64),
                 BF16(3, 300, 2, 64), BF16(3, 300, 2, 64), BF16(3, 300, 8, 64), F32(2, 8, 300),
                 I32(1, 4), I32(1, 4), VAL("128"), VAL("128"), VAL("0."), VAL("True"),
                 tensor("long int", 1, 2), NONE, NONE);
    check_attention("flash backward varlen", rc, &w, 125829120.0, 1545600.0, PF_DT_BF16, 1);
    /* _efficient_attention_forward packs into [1, T, H, D]: [1, 500, 4, 64] fp16, cu_seqlens
     * [5]: B = 4, max 200. 4 x 4 x 200 x 200 = 640000 pairs, FLOP 2 x 640000 x 128 =
     * 163840000. bytes: q, k, v 128000 elements x 2 = 256000 each, 768000; out 256000;
     * logsumexp 4 x 4 x 200 x 4 = 12800; total 1036800 */
    rc = RUN("aten::_efficient_attention_forward", &w, F16(4, 1, 500, 4, 64), F16(4, 1, 500, 4, 64),
             F16(4, 1, 500, 4, 64), NONE, I32(1, 5), I32(1, 5), VAL("200"), VAL("200"), VAL("0."),
             VAL("0"), VAL("True"), NONE, NONE, NONE);
    check_attention("efficient forward varlen", rc, &w, 163840000.0, 1036800.0, PF_DT_FP16, 1);
    rc = RUN("aten::_efficient_attention_forward", &w, F16(4, 1, 500, 4, 64), F16(4, 1, 500, 4, 64),
             F16(4, 1, 500, 4, 64), NONE, I32(1, 5), I32(1, 5), VAL("abc"), VAL("200"), VAL("0."),
             VAL("0"), VAL("True"), NONE, NONE, NONE);
    check_refused("varlen max_q unreadable", rc, &w, PF_FORMULA_BAD_ARGS);
    rc = RUN("aten::_efficient_attention_forward", &w, F16(4, 1, 500, 4, 64), F16(4, 1, 500, 4, 64),
             F16(4, 1, 500, 4, 64), NONE, I32(1, 5), I32(1, 4), VAL("200"), VAL("200"), VAL("0."),
             VAL("0"), VAL("True"), NONE, NONE, NONE);
    check_refused("varlen cum_seq lengths differ", rc, &w, PF_FORMULA_MISMATCH);
}

/* ---- refusals ---- */

/* _scaled_dot_product_flash_attention with the given q, k, v and is_causal text. */
static int run_sdpa_flash(pf_work *w, pf_arg q, pf_arg k, pf_arg v, const char *causal)
{
    return RUN("aten::_scaled_dot_product_flash_attention", w, q, k, v, VAL("0."), VAL(causal),
               VAL("False"), NONE);
}

static void test_refusals(void)
{
    pf_work w;
    int rc = run_sdpa_flash(&w, F16(3, 4, 64, 32), F16(3, 4, 64, 32), F16(3, 4, 64, 32), "False");
    check_refused("3-D q in a dense call", rc, &w, PF_FORMULA_MISMATCH);
    rc = run_sdpa_flash(&w, F16(4, 1, 4, 64, 32), F16(4, 1, 4, 64, 16), F16(4, 1, 4, 64, 32), "False");
    check_refused("k head dim differs", rc, &w, PF_FORMULA_MISMATCH);
    rc = run_sdpa_flash(&w, F16(4, 1, 6, 64, 32), F16(4, 1, 4, 64, 32), F16(4, 1, 4, 64, 32), "False");
    check_refused("query heads not a multiple of kv heads", rc, &w, PF_FORMULA_MISMATCH);
    rc = run_sdpa_flash(&w, F16(4, 2, 4, 64, 32), F16(4, 1, 4, 64, 32), F16(4, 1, 4, 64, 32), "False");
    check_refused("batch differs", rc, &w, PF_FORMULA_MISMATCH);
    rc = run_sdpa_flash(&w, F16(4, 1, 4, 64, 32), F16(4, 1, 4, 64, 32), F16(4, 1, 4, 32, 32), "False");
    check_refused("v length differs from k", rc, &w, PF_FORMULA_MISMATCH);
    rc = run_sdpa_flash(&w, F16(4, 1, 4, 64, 32), F16(4, 1, 4, 64, 32), F16(4, 1, 4, 64, 32), "maybe");
    check_refused("garbage is_causal", rc, &w, PF_FORMULA_BAD_ARGS);
    rc = run_sdpa_flash(&w, F16(4, 1, 4, 64, 32), NONE, F16(4, 1, 4, 64, 32), "False");
    check_refused("k missing", rc, &w, PF_FORMULA_BAD_ARGS);
    rc = RUN("aten::_scaled_dot_product_flash_attention", &w, F16(4, 1, 4, 64, 32),
             F16(4, 1, 4, 64, 32), F16(4, 1, 4, 64, 32), VAL("0."));
    check_refused("too few args", rc, &w, PF_FORMULA_BAD_ARGS);
    rc = RUN("aten::_scaled_dot_product_flash_attention_backward", &w, F16(4, 1, 4, 32, 32),
             F16(4, 1, 4, 64, 32), F16(4, 1, 4, 64, 32), F16(4, 1, 4, 64, 32), F16(4, 1, 4, 64, 32),
             F32(3, 1, 4, 64), NONE, NONE, VAL("64"), VAL("64"), VAL("0."), VAL("True"), LONG0,
             LONG0, NONE);
    check_refused("backward grad_out shape", rc, &w, PF_FORMULA_MISMATCH);
}

/* ---- Inductor flex attention launches ---- */

/* A launch of the forward template: q [2, 8, 128, 32], GQA k [2, 2, 256, 32], v with
 * Dv = 16, logsumexp and max [2, 8, 128] fp32, the block mask's four int tensors, out, the
 * launch's scalars (flex_attention.json's order). */
static int run_flex(const char *name, pf_work *w)
{
    return RUN(name, w, BF16(4, 2, 8, 128, 32), BF16(4, 2, 2, 256, 32), BF16(4, 2, 2, 256, 16),
               F32(3, 2, 8, 128), F32(3, 2, 8, 128), I32(3, 1, 1, 1), I32(4, 1, 1, 1, 2), I32(3, 1, 1, 1),
               I32(4, 1, 1, 1, 2), BF16(4, 2, 8, 128, 16), VAL("2"), VAL("2"), VAL("8"));
}

static void test_flex(void)
{
    pf_work w;
    /* dense: B H Sq Sk = 2 x 8 x 128 x 256 = 524288 pairs; forward 2 x 524288 x (32 + 16)
     * = 50331648, no halving whatever the mask. Bytes, every tensor argument once:
     * q 2*8*128*32*2 = 131072, k 2*2*256*32*2 = 65536, v 2*2*256*16*2 = 32768, logsumexp and
     * max 2*8*128*4 = 8192 each, the mask 4 + 8 + 4 + 8 = 24, out 2*8*128*16*2 = 65536:
     * 311320 */
    int rc = run_flex("triton_tem_fused_flex_attention_0", &w);
    check_attention("flex forward, dense upper bound", rc, &w, 50331648.0, 311320.0, PF_DT_BF16, 1);
    /* backward: 2 x 524288 x (3*32 + 2*16 = 128) = 134217728 */
    rc = run_flex("triton_tem_fused_flex_attention_backward_7", &w);
    check_attention("flex backward, dense upper bound", rc, &w, 134217728.0, 311320.0, PF_DT_BF16, 1);
    rc = RUN("triton_tem_fused_flex_attention_0", &w, BF16(3, 8, 128, 32), BF16(3, 8, 256, 32),
             BF16(3, 8, 256, 32));
    check_refused("flex q not 4-D", rc, &w, PF_FORMULA_MISMATCH);
    rc = RUN("triton_tem_fused_flex_attention_0", &w, BF16(4, 2, 8, 128, 32), BF16(4, 2, 3, 256, 32),
             BF16(4, 2, 3, 256, 32));
    check_refused("flex heads not a multiple", rc, &w, PF_FORMULA_MISMATCH);
    rc = RUN("triton_tem_fused_flex_attention_0", &w, BF16(4, 2, 8, 128, 32), BF16(4, 2, 8, 256, 16),
             BF16(4, 2, 8, 256, 16));
    check_refused("flex k's D differs", rc, &w, PF_FORMULA_MISMATCH);
    rc = RUN("triton_tem_fused_flex_attention_0", &w, BF16(4, 2, 8, 128, 32), BF16(4, 2, 8, 256, 32));
    check_refused("flex without v", rc, &w, PF_FORMULA_BAD_ARGS);
    CHECK("flex launch by prefix", pf_formula_lookup("triton_tem_fused_flex_attention_12") != NULL);
    CHECK("another template has no formula", pf_formula_lookup("triton_tem_fused_mm_0") == NULL);
    CHECK("flex's delta kernel has no formula",
          pf_formula_lookup("triton_per_fused_flex_attention_backward_0") == NULL);
}

static void test_registered(void)
{
    static const char *const ops[] = {
        "aten::_scaled_dot_product_flash_attention", "aten::_scaled_dot_product_flash_attention_backward",
        "aten::_scaled_dot_product_efficient_attention",
        "aten::_scaled_dot_product_efficient_attention_backward",
        "aten::_scaled_dot_product_cudnn_attention", "aten::_scaled_dot_product_cudnn_attention_backward",
        "aten::_flash_attention_forward", "aten::_flash_attention_backward",
        "aten::_efficient_attention_forward", "aten::_efficient_attention_backward",
        "aten::_cudnn_attention_forward", "aten::_cudnn_attention_backward",
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        const pf_formula *f = pf_formula_lookup(ops[i]);
        CHECK(ops[i], f && strcmp(f->family, "attention") == 0);
    }
}

int main(void)
{
    test_cudnn();
    test_cudnn_sdpa_forward();
    test_flex();
    test_efficient();
    test_sdpa_efficient_gqa();
    test_sdpa_flash();
    test_flash_seq_first();
    test_combinations();
    test_varlen();
    test_refusals();
    test_registered();
    CHECK_DONE();
}
