/* test_op_layouts.c - unit tests of the argument positions on the op table's rows (pf_conv_args, pf_attn_args): every op whose formula reads them has them, each row's diff key is the one its positions give, and a few rows against native_functions.yaml's schemas, written out by hand. */
#include <string.h>

#include "check.h"
#include "profana/op_family.h"

/* The key a convolution row's positions give (op_family.c's rule, written again by hand). */
static int conv_key_matches(const pf_op_entry *e)
{
    const signed char *p = e->conv->pos;
    signed char want[PF_FAMILY_MAX_ARGS];
    int n = 0;
    if (e->family == PF_FAM_CONV_BACKWARD)
        want[n++] = p[PF_CONV_GRAD_OUTPUT];
    want[n++] = p[PF_CONV_INPUT];
    want[n++] = p[PF_CONV_WEIGHT];
    want[n++] = p[PF_CONV_STRIDE];
    want[n++] = p[PF_CONV_PADDING];
    if (e->family == PF_FAM_CONV_TRANSPOSE)
        want[n++] = p[PF_CONV_OUTPUT_PADDING];
    want[n++] = p[PF_CONV_DILATION];
    want[n++] = p[PF_CONV_GROUPS];
    if (e->family == PF_FAM_CONV_BACKWARD)
        want[n++] = p[PF_CONV_OUTPUT_MASK];
    return e->key->nargs == n && memcmp(e->key->args, want, (size_t)n) == 0 && e->key->seq_first == 0;
}

static void test_rows(void)
{
    int n, missing = 0, badkey = 0, convs = 0, attns = 0;
    const pf_op_entry *t = pf_op_family_table(&n);
    for (int i = 0; i < n; i++) {
        const pf_op_entry *e = &t[i];
        if ((e->formula == PF_OPF_CONV_FORWARD || e->formula == PF_OPF_CONV_BACKWARD) && !e->conv)
            missing++;
        if (e->formula == PF_OPF_ATTENTION && !e->attn)
            missing++;
        if (e->conv) {
            convs++;
            badkey += e->key && !conv_key_matches(e);
        }
        if (e->attn) {
            attns++;
            const pf_attn_args *a = e->attn;
            badkey += !e->key || e->key->nargs != 3 || e->key->args[0] != a->q || e->key->args[1] != a->q + 1 ||
                      e->key->args[2] != a->q + 2 || e->key->seq_first != a->seq_first;
        }
    }
    CHECK("every convolution and attention formula's op has its positions", missing == 0);
    CHECK("every such row's diff key is the one its positions give", badkey == 0);
    CHECK("12 convolution rows (10 with a formula, 2 for their keys)", convs == 12);
    CHECK("12 attention rows", attns == 12);
}

static void test_schemas(void)
{
    /* cudnn_convolution(self, weight, padding, stride, dilation, groups, benchmark, ...) */
    const pf_op_entry *e = pf_op_family_lookup("aten::cudnn_convolution");
    CHECK("cudnn_convolution: padding 2, stride 3, dilation 4, groups 5, no bias",
          e && e->conv && e->conv->pos[PF_CONV_PADDING] == 2 && e->conv->pos[PF_CONV_STRIDE] == 3 &&
              e->conv->pos[PF_CONV_DILATION] == 4 && e->conv->pos[PF_CONV_GROUPS] == 5 && e->conv->pos[PF_CONV_BIAS] == -1);
    /* convolution_backward(grad_output, input, weight, bias_sizes, stride, padding, dilation,
     * transposed, output_padding, groups, output_mask) */
    e = pf_op_family_lookup("aten::convolution_backward");
    CHECK("convolution_backward: grad_output 0, input 1, bias_sizes 3, groups 9, output_mask 10",
          e && e->conv && e->conv->pos[PF_CONV_GRAD_OUTPUT] == 0 && e->conv->pos[PF_CONV_INPUT] == 1 &&
              e->conv->pos[PF_CONV_BIAS_SIZES] == 3 && e->conv->pos[PF_CONV_GROUPS] == 9 && e->conv->pos[PF_CONV_OUTPUT_MASK] == 10);
    /* _efficient_attention_forward(query, key, value, bias, cu_seqlens_q, cu_seqlens_k,
     * max_seqlen_q, max_seqlen_k, dropout_p, custom_mask_type, compute_log_sumexp, ...): [B, S, H, D] */
    e = pf_op_family_lookup("aten::_efficient_attention_forward");
    CHECK("_efficient_attention_forward: [B,S,H,D], bias 3, cum_q 4, max_q 6, mask type 9, want_lse 10",
          e && e->attn && e->attn->seq_first == 1 && e->attn->q == 0 && e->attn->bias == 3 && e->attn->cum_q == 4 &&
              e->attn->max_q == 6 && e->attn->mask_type == 9 && e->attn->want_lse == 10 && e->attn->causal == -1);
    CHECK("mm has no positions", pf_op_family_lookup("aten::mm") && !pf_op_family_lookup("aten::mm")->conv &&
                                     !pf_op_family_lookup("aten::mm")->attn);
}

int main(void)
{
    test_rows();
    test_schemas();
    CHECK_DONE();
}
