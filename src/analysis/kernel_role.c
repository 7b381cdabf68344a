/* kernel_role.c - which kernels of an op carry its FLOPs: the math kernels named by whole words (cuBLAS nvjet, CUTLASS, cuDNN, Tensile, CK, flash), and the library helpers that never do. */
#include "profana/kernel_role.h"

#include <assert.h>
#include <stddef.h>
#include <string.h>

#include "profana/categories.h"

/* Helpers a library launches beside its math kernel, named as they are written. They carry
 * bytes and no FLOPs, even when their op has no math kernel (the FLOPs then go to its plain
 * kernels): before, a splitKreduce_kernel beside an nvjet GEMM ran at 62-68% of the bf16
 * peak, and cuDNN's attention-backward helpers took 4.6-19.7% of the op's FLOPs. */
static const char *const helpers[] = {
    /* cuBLAS / cuBLASLt: split-K reduction, epilogue, scaling, dot's block reduction */
    "splitKreduce", "cublasLt::epilogue", "scal_kernel", "reduce_1Block_kernel",
    /* CUTLASS's split-K reduction */
    "ReduceSplitK",
    /* attention backward: dot(dO, O) before, dQ (dK, dV) conversion after (cuDNN, FlashAttention
     * 2), FlashAttention 3's pre- and post-processing, split-KV combines, head reductions */
    "dot_do_o", "convert_dq", "convert_dkv", "clear_dkvaccum", "BwdPreprocess", "BwdPostprocess",
    "splitkv_combine", "FwdCombine", "reduce_head",
    /* cuDNN: workspace initialisation (its template says implicit_gemm), RNN element-wise
     * kernels, the wgrad reduction helper, layout transforms, the dropout seed's unpacking */
    "init_device_workspace", "elementWise", "elemWise", "_helper", "nchwToNhwc", "nhwcToNchw",
    "philox::unpack",
    /* MIOpen and the rest: im2col, transposes, tensor ops */
    "im2col", "col2im", "Im2d2Col", "Im3d2Col", "batched_transpose", "transpose_NCHW2", "transpose_CNHW2",
    "SubTensorOp",
    /* set-up and finishing of grouped and MoE GEMMs, paged-attention index building */
    "prepare_grouped_gemm", "finalizeKernel", "_finalize_", "kv_indices",
};

/* Words that name matrix arithmetic (ASCII case ignored): GEMMs (cuBLAS's nvjet and xmma,
 * CUTLASS's s16816gemm, sgemm/hgemm/igemm, Tensile's Cijk, CK's GridwiseGemm, Triton's
 * matmul, cuBLAS's gemv and dot), convolutions (fprop, dgrad, wgrad, Winograd, cuDNN's FFT
 * convolution, conv), attention (flash, fmha, attn, sdpa, mha, SageAttention). */
static const char *const math_words[] = {
    "gemm", "sgemm", "dgemm", "hgemm", "igemm", "cgemm", "zgemm", "gemv", "gemvx", "matmul", "bmm",
    "dot", "cijk", "nvjet", "xmma", "conv", "convolve", "fprop", "dgrad", "wgrad", "winograd",
    "fft", "flash", "fmha", "attn", "attention", "sdpa", "mha", "sage", "sageattn", "sageattention",
};

/* A library word that names math only as the kernel's own name, before its template or
 * parameter list: CUTLASS's kernels (cutlass::Kernel2<...>, _ZN7cutlass13device_kernel...),
 * not a kernel that merely takes cutlass::bfloat16_t. */
static const char *const head_words[] = {"cutlass"};

static int is_lower(char c)
{
    return c >= 'a' && c <= 'z';
}

static int is_upper(char c)
{
    return c >= 'A' && c <= 'Z';
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_alnum(char c)
{
    return is_lower(c) || is_upper(c) || is_digit(c);
}

/* Whether a word ends between s[i - 1] and s[i]: a letter and a digit meet, a lower-case
 * letter meets a capital, or a capital begins a word after capitals (the C of "KVCache"). */
static int word_break(const char *s, size_t i)
{
    char a = s[i - 1], b = s[i];
    if (is_digit(a) != is_digit(b))
        return 1;
    if (is_lower(a) && is_upper(b))
        return 1;
    return is_upper(a) && is_upper(b) && is_lower(s[i + 1]);
}

/* The next word of s at or after *pos: its start and length; 0 at the end. */
static int next_word(const char *s, size_t *pos, size_t *start, size_t *len)
{
    size_t i = *pos;
    while (s[i] && !is_alnum(s[i]))
        i++;
    if (!s[i])
        return 0;
    *start = i++;
    while (is_alnum(s[i]) && !word_break(s, i))
        i++;
    *len = i - *start;
    *pos = i;
    return 1;
}

/* Whether s[0..len) is w, ASCII case ignored. */
static int word_is(const char *s, size_t len, const char *w)
{
    size_t n = strlen(w);
    if (n != len)
        return 0;
    for (size_t k = 0; k < n; k++)
        if ((s[k] | 0x20) != (w[k] | 0x20))
            return 0;
    return 1;
}

static int in_list(const char *s, size_t len, const char *const *list, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (word_is(s, len, list[k]))
            return 1;
    return 0;
}

/* Where a demangled kernel's own name ends: at its template or parameter list. */
static size_t head_end(const char *name)
{
    size_t n = strcspn(name, "<(");
    return n;
}

static int names_math(const char *name)
{
    size_t pos = 0, start, len, head = head_end(name);
    while (next_word(name, &pos, &start, &len)) {
        if (in_list(name + start, len, math_words, sizeof math_words / sizeof math_words[0]))
            return 1;
        if (start < head && in_list(name + start, len, head_words, sizeof head_words / sizeof head_words[0]))
            return 1;
    }
    return 0;
}

pf_kernel_role pf_kernel_role_of(const char *name)
{
    assert(name != NULL);
    for (size_t i = 0; i < sizeof helpers / sizeof helpers[0]; i++)
        if (strstr(name, helpers[i]))
            return PF_KERNEL_HELPER;
    pf_category c = pf_category_of(PF_ACT_KERNEL, name, NULL);
    if (c != PF_CAT_GEMM && c != PF_CAT_CONV && c != PF_CAT_ATTENTION)
        return PF_KERNEL_PLAIN;
    return names_math(name) ? PF_KERNEL_MATH : PF_KERNEL_PLAIN;
}
