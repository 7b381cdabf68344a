# kernel_roles.py - the oracles' own copy of the rule of docs/analysis.md "How work is attributed" (src/analysis/kernel_role.c): which kernels of an op carry its FLOPs. A math kernel names the arithmetic in a whole word (runs of letters or digits, camelCase cut; cutlass only in the kernel's own name); a library helper never carries FLOPs; an op without a math kernel spreads them over its kernels that are no helper.
import re

ARITH = {"gemm", "sgemm", "dgemm", "hgemm", "igemm", "cgemm", "zgemm", "gemv", "gemvx", "matmul", "bmm", "dot",
         "cijk", "nvjet", "xmma", "conv", "convolve", "fprop", "dgrad", "wgrad", "winograd", "fft", "flash", "fmha",
         "attn", "attention", "sdpa", "mha", "sage", "sageattn", "sageattention"}
HELPERS = ("splitKreduce", "cublasLt::epilogue", "scal_kernel", "reduce_1Block_kernel", "ReduceSplitK", "dot_do_o",
           "convert_dq", "convert_dkv", "clear_dkvaccum", "BwdPreprocess", "BwdPostprocess", "splitkv_combine",
           "FwdCombine", "reduce_head", "init_device_workspace", "elementWise", "elemWise", "_helper", "nchwToNhwc",
           "nhwcToNchw", "philox::unpack", "im2col", "col2im", "Im2d2Col", "Im3d2Col", "batched_transpose",
           "transpose_NCHW2", "transpose_CNHW2", "SubTensorOp", "prepare_grouped_gemm", "finalizeKernel",
           "_finalize_", "kv_indices")


def words(s):
    return [w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+", s)]


def is_helper(name):
    return any(h in name for h in HELPERS)


def is_math(name):
    """Names the arithmetic (the category filter, gemm/conv/attention by name, is left to the
    callers' kernels: every kernel these oracles ask about is one of a GEMM, a convolution or an
    attention op, or an element-wise kernel whose words name none)."""
    return not is_helper(name) and (any(w in ARITH for w in words(name))
                                    or "cutlass" in words(re.split(r"[<(]", name)[0]))


def carriers(kernels, name=lambda k: k["name"]):
    """The kernels of one op that carry its FLOPs: its math kernels; else those that are no
    helper; else (every kernel a helper) all of them."""
    return ([k for k in kernels if is_math(name(k))] or [k for k in kernels if not is_helper(name(k))]
            or list(kernels))
