/* categories.c - the one ordered rule table that puts each GPU activity in a category. */
#include "profana/categories.h"

#include <stddef.h>
#include <string.h>

#include "profana/op_family.h"

/* What a rule looks at. */
typedef enum rule_on { ON_KIND, ON_OP, ON_KERNEL } rule_on;

/* How a rule's pattern is compared with the name it looks at. */
typedef enum rule_how {
    HOW_PREFIX,   /* the name starts with pat */
    HOW_SUBSTR,   /* pat occurs in the name */
    HOW_NOCASE,   /* pat (written in lower case) occurs in the name, ASCII case ignored */
    HOW_OP,       /* the name is pat, or pat plus "_" (the in-place variant: aten::add_) */
    HOW_FAMILY    /* the op table lists the name (or it less a final "_"); its family decides */
} rule_how;

typedef struct rule {
    rule_on on;
    rule_how how;
    const char *pat;           /* NULL for ON_KIND */
    pf_act_kind kind;          /* ON_KIND only */
    pf_category cat;
} rule;

#define KIND(k, c) {ON_KIND, HOW_PREFIX, NULL, (k), PF_CAT_##c}
#define OP(how, p, c) {ON_OP, HOW_##how, (p), PF_ACT_KERNEL, PF_CAT_##c}
#define KER(how, p, c) {ON_KERNEL, HOW_##how, (p), PF_ACT_KERNEL, PF_CAT_##c}
/* Inductor names the launching op after its kernel, so each Triton prefix is tried on both. */
#define TRITON(p, c) OP(PREFIX, p, c), KER(PREFIX, p, c)

/* Order is the policy: earlier rules win. Within the kernel-name part, the specific library
 * words come before the generic ones that also occur in them ("flash_fprop" is attention
 * before "fprop" is conv; "implicit_gemm" is conv before "gemm" is GEMM; cuBLAS's
 * "splitKreduce_kernel" is GEMM before ATen's "reduce_kernel" is a reduction). */
static const rule rules[] = {
    /* ---- 1. What the activity is, whatever launched it ---- */
    KIND(PF_ACT_MEMCPY, MEMCPY),
    KIND(PF_ACT_MEMSET, MEMSET),
    /* ROCm runs hipMemcpy/hipMemset D2D as runtime "blit" kernels; they are copies. */
    KER(PREFIX, "__amd_rocclr_copy", MEMCPY),
    KER(PREFIX, "__amd_rocclr_fill", MEMSET),

    /* ---- 2. Inductor's Triton kernels (TORCHINDUCTOR_UNIQUE_KERNEL_NAMES) ---- */
    TRITON("triton_poi_", TRITON_POINTWISE),
    TRITON("triton_red_", TRITON_REDUCTION),
    TRITON("triton_per_", TRITON_PERSISTENT_REDUCTION),
    TRITON("triton_tem_", TRITON_TEMPLATE),
    TRITON("triton_for_", TRITON_FOREACH),
    TRITON("triton_", TRITON_OTHER),

    /* ---- 3. The launching op's family ---- */
    /* Collectives: c10d ops, functional collectives, and the NCCL record_function names. */
    OP(PREFIX, "c10d::", COMMUNICATION),
    OP(PREFIX, "_c10d_functional::", COMMUNICATION),
    OP(PREFIX, "c10d_functional::", COMMUNICATION),
    OP(PREFIX, "nccl:", COMMUNICATION),
    OP(OP, "record_param_comms", COMMUNICATION),
    OP(PREFIX, "symm_mem::", COMMUNICATION),       /* symmetric-memory all-reduce (multimem) */
    /* KV-cache stores are scatter copies, not attention, though vLLM's names say "flash":
     * _C_cache_ops::reshape_and_cache(_flash), concat_and_cache_mla, sglang::store_cache. */
    OP(SUBSTR, "_and_cache", ELEMENTWISE),
    OP(SUBSTR, "store_cache", ELEMENTWISE),
    OP(SUBSTR, "sageattention", ATTENTION),        /* SageAttention's quantised attention ops */
    /* Attention before the rest: its ops are fused kernels whatever they call inside. */
    OP(SUBSTR, "attention", ATTENTION),   /* _cudnn_/_efficient_/_flash_attention_forward, sdpa */
    OP(SUBSTR, "flash", ATTENTION),       /* flash_attn::_flash_attn_forward */
    OP(SUBSTR, "_scaled_dot_product_", ATTENTION),
    OP(SUBSTR, "fmha", ATTENTION),
    OP(SUBSTR, "mha_fwd", ATTENTION),     /* aiter::mha_fwd, mha_varlen_fwd */
    OP(SUBSTR, "mha_bwd", ATTENTION),
    OP(SUBSTR, "mha_varlen", ATTENTION),
    /* Convolution: aten::convolution, _convolution, cudnn_/miopen_/mkldnn_convolution(_transpose),
     * convolution_backward, conv1d/2d/3d, conv_transpose*, and the slow/depthwise fallbacks. */
    OP(SUBSTR, "convolution", CONV),
    OP(PREFIX, "aten::conv", CONV),
    OP(SUBSTR, "slow_conv", CONV),
    OP(SUBSTR, "conv_depthwise", CONV),
    OP(SUBSTR, "thnn_conv", CONV),
    /* The op table's family (op_family.h: GEMMs, reductions, element-wise ops, copies,
     * gathers; see family_cats), for the ops it lists (or their in-place variant: aten::add_). */
    OP(FAMILY, NULL, OTHER),
    /* Normalization (softmax included: a row reduction plus a scale, like the norms). */
    OP(SUBSTR, "layer_norm", NORMALIZATION),
    OP(SUBSTR, "batch_norm", NORMALIZATION),
    OP(SUBSTR, "group_norm", NORMALIZATION),
    OP(SUBSTR, "instance_norm", NORMALIZATION),
    OP(SUBSTR, "rms_norm", NORMALIZATION),
    OP(SUBSTR, "softmax", NORMALIZATION),
    /* Reductions, pooling included (a windowed max/mean). */
    OP(SUBSTR, "_pool", REDUCTION),       /* max_pool2d_with_indices(_backward), adaptive_avg_pool2d */
    /* Element-wise: multi-tensor ops (the op table has the single-tensor ones). */
    OP(PREFIX, "aten::_foreach_", ELEMENTWISE),  /* multi_tensor_apply over a tensor list */
    OP(PREFIX, "aten::_fused_", ELEMENTWISE),    /* _fused_adam(w)_, _fused_sgd_, _fused_dropout */

    /* ---- 4. The kernel name, when the op said nothing ---- */
    /* NCCL / RCCL: ncclDevKernel_*, ncclKernel_*, rccl_main_kernel. */
    KER(NOCASE, "nccl", COMMUNICATION),
    KER(NOCASE, "rccl", COMMUNICATION),
    /* Symmetric-memory and custom all-reduces, before "reduce_kernel" is a reduction:
     * PyTorch's multimem_all_reduce_kernel, one_shot_/two_shot_all_reduce_kernel(_inplace),
     * vLLM's and SGLang's cross_device_reduce_1stage/2stage. */
    KER(SUBSTR, "all_reduce_kernel", COMMUNICATION),
    KER(SUBSTR, "cross_device_reduce", COMMUNICATION),
    /* KV-cache stores before "flash" (vllm::reshape_and_cache_flash_kernel) is attention. */
    KER(SUBSTR, "_and_cache", ELEMENTWISE),
    KER(SUBSTR, "store_kvcache", ELEMENTWISE),
    /* Block-scale quantisation before "flash": TensorRT-LLM's quantize_with_block_size takes a
     * flashinfer::QuantizationSFLayout argument. */
    KER(SUBSTR, "quantize_with_block_size", ELEMENTWISE),
    /* TRT-LLM / FlashInfer MoE and block-scaled GEMMs (bmm_MxE4m3_..., bmm_Bfloat16_...,
     * bmm_E4m3_...): no "gemm" in their names. */
    KER(PREFIX, "bmm_", GEMM),
    /* SageAttention: qk_int_sv_f8_attn_kernel (and _f16_), sageattention_sm89::..., sageattn_... */
    KER(SUBSTR, "qk_int_sv_", ATTENTION),
    KER(SUBSTR, "sageatt", ATTENTION),
    KER(PREFIX, "sage_", ATTENTION),
    /* Attention: flash-attention, CUTLASS/xFormers/CK/aiter fmha, cuDNN SDPA graphs (and their
     * backward helpers dot(dO, O) and the dQ conversion), memory-efficient attention. */
    KER(NOCASE, "flash", ATTENTION),
    KER(NOCASE, "fmha", ATTENTION),
    KER(NOCASE, "sdpa", ATTENTION),
    KER(NOCASE, "attention", ATTENTION),
    KER(SUBSTR, "mha_fwd", ATTENTION),
    KER(SUBSTR, "mha_bwd", ATTENTION),
    KER(SUBSTR, "dot_do_o", ATTENTION),
    KER(SUBSTR, "convert_dq", ATTENTION),
    /* Normalization: ATen, cuDNN (cudnn::bn_*), MIOpen (MIOpenBatchNorm*) and softmax kernels. */
    KER(NOCASE, "layer_norm", NORMALIZATION),
    KER(NOCASE, "layernorm", NORMALIZATION),
    KER(NOCASE, "batch_norm", NORMALIZATION),
    KER(NOCASE, "batchnorm", NORMALIZATION),
    KER(NOCASE, "group_norm", NORMALIZATION),
    KER(NOCASE, "groupnorm", NORMALIZATION),
    KER(NOCASE, "instance_norm", NORMALIZATION),
    KER(NOCASE, "rms_norm", NORMALIZATION),
    KER(NOCASE, "rmsnorm", NORMALIZATION),
    KER(NOCASE, "softmax", NORMALIZATION),       /* softmax_warp_forward, cunn_SoftMaxForward */
    KER(SUBSTR, "GammaBetaBackward", NORMALIZATION), /* ATen layer-norm weight gradient */
    KER(SUBSTR, "cudnn::bn_", NORMALIZATION),
    /* Pooling before "cudnn" below: cudnn::detail::pooling_fw_4d_kernel is a reduction. */
    KER(NOCASE, "pool", REDUCTION),
    /* Convolution: cuDNN/CUTLASS fprop/dgrad/wgrad (xmma_fprop_implicit_gemm, wgrad_alg0_engine,
     * cutlass ..._s16816fprop_...), MIOpen (igemm_fwd/bwd/wrw, naive_conv, miopenSp3AsmConv,
     * MIOpenConv*, Im2d2Col), CK grouped conv, Winograd and FFT algorithms, and the rest of
     * cuDNN (layout transforms such as nchwToNhwcKernel run for convolutions). */
    KER(SUBSTR, "fprop", CONV),
    KER(SUBSTR, "dgrad", CONV),
    KER(SUBSTR, "wgrad", CONV),
    KER(SUBSTR, "implicit_gemm", CONV),
    KER(SUBSTR, "convolve", CONV),                /* cuDNN implicit_convolve_sgemm */
    KER(NOCASE, "convolution", CONV),
    KER(NOCASE, "conv1d", CONV),
    KER(NOCASE, "conv2d", CONV),
    KER(NOCASE, "conv3d", CONV),
    KER(SUBSTR, "conv_depthwise", CONV),
    KER(SUBSTR, "grouped_conv", CONV),            /* CK kernel_grouped_conv_fwd_xdl_cshuffle_v3 */
    KER(SUBSTR, "conv_fwd", CONV),
    KER(SUBSTR, "conv_bwd", CONV),
    KER(SUBSTR, "bwd_weight", CONV),              /* CK kernel_batched_gemm_xdlops_bwd_weight */
    KER(SUBSTR, "igemm_fwd", CONV),
    KER(SUBSTR, "igemm_bwd", CONV),
    KER(SUBSTR, "igemm_wrw", CONV),
    KER(SUBSTR, "naive_conv", CONV),
    KER(NOCASE, "winograd", CONV),
    KER(SUBSTR, "fft2d_", CONV),                  /* cuDNN FFT convolution, not cuFFT */
    KER(SUBSTR, "fft1d_", CONV),
    KER(NOCASE, "im2col", CONV),
    KER(NOCASE, "col2im", CONV),
    KER(SUBSTR, "Im2d2Col", CONV),
    KER(SUBSTR, "Im3d2Col", CONV),
    KER(NOCASE, "miopen", CONV),
    KER(SUBSTR, "cudnn", CONV),
    /* GEMM: cuBLAS/cuBLASLt (sm90_xmma_gemm, ampere_sgemm, nvjet_, splitKreduce, gemv, dot),
     * CUTLASS (SM100's cutlass3x_sm100_..._gemm_... too), Tensile/hipBLASLt/rocBLAS (Cijk_, also as Custom_Cijk_), CK (kernel_gemm_xdl,
     * GroupedGemmKernel), Triton GEMMs outside Inductor (_gemm_a8w8_..., matmul_kernel). */
    KER(NOCASE, "gemm", GEMM),
    KER(NOCASE, "gemv", GEMM),
    KER(NOCASE, "matmul", GEMM),
    KER(SUBSTR, "nvjet_", GEMM),
    KER(SUBSTR, "Cijk_", GEMM),
    KER(NOCASE, "cublas", GEMM),                  /* cublasLt::splitKreduce_kernel, epilogue */
    KER(SUBSTR, "splitKreduce", GEMM),
    KER(NOCASE, "rocblas", GEMM),
    KER(NOCASE, "hipblaslt", GEMM),
    KER(SUBSTR, "cutlass", GEMM),                 /* what is left of CUTLASS: GEMM pieces */
    /* Reductions: ATen reduce_kernel (sum, mean, argmax, norms) and CUB's device reductions. */
    KER(SUBSTR, "reduce_kernel", REDUCTION),
    KER(SUBSTR, "DeviceReduce", REDUCTION),
    KER(SUBSTR, "DeviceSegmentedReduce", REDUCTION),
    /* Element-wise: ATen's TensorIterator kernels (vectorized_/unrolled_/index_elementwise_kernel,
     * elementwise_kernel_manual_unroll, distribution_elementwise_...), copies and gathers,
     * multi-tensor-apply (foreach ops, fused optimizers), MIOpen's tensor ops. */
    KER(SUBSTR, "elementwise", ELEMENTWISE),
    KER(SUBSTR, "CatArrayBatchedCopy", ELEMENTWISE),
    KER(SUBSTR, "indexSelect", ELEMENTWISE),
    KER(SUBSTR, "multi_tensor_apply", ELEMENTWISE),
    KER(SUBSTR, "SubTensorOpWithScalar", ELEMENTWISE),
};

#define N_RULES (sizeof rules / sizeof rules[0])

static const char *const cat_names[PF_CAT_COUNT] = {
    [PF_CAT_TRITON_POINTWISE] = "triton_pointwise",
    [PF_CAT_TRITON_REDUCTION] = "triton_reduction",
    [PF_CAT_TRITON_PERSISTENT_REDUCTION] = "triton_persistent_reduction",
    [PF_CAT_TRITON_TEMPLATE] = "triton_template",
    [PF_CAT_TRITON_FOREACH] = "triton_foreach",
    [PF_CAT_TRITON_OTHER] = "triton_other",
    [PF_CAT_GEMM] = "gemm",
    [PF_CAT_CONV] = "conv",
    [PF_CAT_ATTENTION] = "attention",
    [PF_CAT_ELEMENTWISE] = "elementwise",
    [PF_CAT_REDUCTION] = "reduction",
    [PF_CAT_NORMALIZATION] = "normalization",
    [PF_CAT_COMMUNICATION] = "communication",
    [PF_CAT_MEMCPY] = "memcpy",
    [PF_CAT_MEMSET] = "memset",
    [PF_CAT_OTHER] = "other",
};

const char *pf_category_name(pf_category c)
{
    if ((int)c < 0 || (int)c >= PF_CAT_COUNT)
        return cat_names[PF_CAT_OTHER];
    return cat_names[c];
}

static int lower(int ch)
{
    return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch;
}

/* Whether lower-case pat occurs in s with ASCII case ignored (strcasestr is a GNU extension).
 * The slow path, for names too long for the lower-cased copy below. */
static int has_nocase(const char *s, const char *pat)
{
    size_t n = strlen(pat);
    for (; *s; s++) {
        size_t i = 0;
        while (i < n && lower((unsigned char)s[i]) == (unsigned char)pat[i])
            i++;
        if (i == n)
            return 1;
    }
    return n == 0;
}

/* Whether name is pat or pat followed by the in-place "_" only: "aten::add" and "aten::add_",
 * never "aten::addmm". */
static int is_op(const char *name, const char *pat)
{
    size_t n = strlen(pat);
    if (strncmp(name, pat, n) != 0)
        return 0;
    return name[n] == '\0' || (name[n] == '_' && name[n + 1] == '\0');
}

/* One name being classified, with its lower-cased copy made on the first case-blind rule:
 * one pass over the name instead of one per rule, and then the library's fast strstr. */
typedef struct subject {
    const char *name;
    int state;                 /* 0 = no copy yet, 1 = low holds it, -1 = too long for low */
    char low[2048];
} subject;

static int subject_has_nocase(subject *s, const char *pat)
{
    if (s->state == 0) {
        size_t n = strlen(s->name);
        s->state = n < sizeof s->low ? 1 : -1;
        for (size_t i = 0; s->state == 1 && i <= n; i++)
            s->low[i] = (char)lower((unsigned char)s->name[i]);
    }
    return s->state == 1 ? strstr(s->low, pat) != NULL : has_nocase(s->name, pat);
}

static int text_matches(rule_how how, subject *s, const char *pat)
{
    switch (how) {
    case HOW_PREFIX:
        return strncmp(s->name, pat, strlen(pat)) == 0;
    case HOW_SUBSTR:
        return strstr(s->name, pat) != NULL;
    case HOW_NOCASE:
        return subject_has_nocase(s, pat);
    case HOW_OP:
        return is_op(s->name, pat);
    case HOW_FAMILY:
        break;                 /* rule_category asks the op table */
    }
    return 0;
}

/* The category of each family of the op table: reductions include pooling (a windowed
 * max/mean); element-wise work is memory-bound work on each element, copies, fills and
 * gathers included (cat and index_select are copies too). */
static const pf_category family_cats[PF_FAM_COUNT] = {
    [PF_FAM_GEMM] = PF_CAT_GEMM,
    [PF_FAM_BMM] = PF_CAT_GEMM,
    [PF_FAM_GEMV] = PF_CAT_GEMM,
    [PF_FAM_CONV] = PF_CAT_CONV,
    [PF_FAM_CONV_BACKWARD] = PF_CAT_CONV,
    [PF_FAM_CONV_TRANSPOSE] = PF_CAT_CONV,
    [PF_FAM_ATTENTION] = PF_CAT_ATTENTION,
    [PF_FAM_ATTENTION_BACKWARD] = PF_CAT_ATTENTION,
    [PF_FAM_NORM] = PF_CAT_NORMALIZATION,
    [PF_FAM_REDUCE] = PF_CAT_REDUCTION,
    [PF_FAM_ELEMENTWISE] = PF_CAT_ELEMENTWISE,
    [PF_FAM_COPY] = PF_CAT_ELEMENTWISE,
    [PF_FAM_INDEX] = PF_CAT_ELEMENTWISE,
};

/* The op table's entry whose family decides an op's category: the op's own, or for an
 * in-place variant ("aten::add_") its out-of-place op's; NULL when neither is listed for
 * the categories (an entry marked by_kernel leaves the decision to the kernel's name). */
static const pf_op_entry *family_entry(const char *name)
{
    const pf_op_entry *e = pf_op_family_lookup(name);
    if (e && !e->by_kernel)
        return e;
    /* one final "_" only, like HOW_OP: "aten::add__" is no variant of "aten::add" */
    char base[256];
    size_t n = strlen(name);
    if (n < 2 || name[n - 1] != '_' || name[n - 2] == '_' || n > sizeof base)
        return NULL;
    memcpy(base, name, n - 1);
    base[n - 1] = '\0';
    e = pf_op_family_lookup(base);
    return e && !e->by_kernel ? e : NULL;
}

/* The category a rule gives, or -1 when it does not match. */
static int rule_category(const rule *r, pf_act_kind kind, subject *kernel, subject *op)
{
    subject *s;
    if (r->on == ON_KIND)
        return kind == r->kind ? (int)r->cat : -1;
    s = r->on == ON_OP ? op : kernel;
    if (s->name == NULL)
        return -1;
    if (r->how == HOW_FAMILY) {
        const pf_op_entry *e = family_entry(s->name);
        return e ? (int)family_cats[e->family] : -1;
    }
    return text_matches(r->how, s, r->pat) ? (int)r->cat : -1;
}

pf_category pf_category_of(pf_act_kind kind, const char *kernel_name, const char *op_name)
{
    subject kernel, op;
    kernel.name = kernel_name;
    kernel.state = 0;
    op.name = op_name;
    op.state = 0;
    for (size_t i = 0; i < N_RULES; i++) {
        int c = rule_category(&rules[i], kind, &kernel, &op);
        if (c >= 0)
            return (pf_category)c;
    }
    return PF_CAT_OTHER;
}
