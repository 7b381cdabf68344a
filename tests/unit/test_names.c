/* test_names.c - unit tests of the name-shortening rule (catalog/names.c) on hand-written kernel signatures and op keys: the short form, the cut, and colliding names told apart. */
#include <stdlib.h>

#include "check.h"
#include "profana/names.h"

static void check_short(const char *name, const char *key, int kernel, const char *want)
{
    char buf[512];
    CHECK_STR(name, pf_name_short(key, kernel, buf, sizeof buf), want);
}

static void check_cut(const char *name, const char *s, int limit, const char *want)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", s);
    pf_name_cut(buf, limit);
    CHECK_STR(name, buf, want);
}

/* A limit of 4 keeps one character of the head and none of the tail: the tail starts at the
 * end (it read from the start of the string and wrote past its end: fuzz_analysis, ASan). */
static void test_cut_four(void)
{
    check_cut("cut: limit 4 keeps one character and the dots", "abcdefgh", 4, "a...");
    check_cut("cut: limit 5 keeps one of each end", "abcdefgh", 5, "a...h");
}

static void test_short(void)
{
    check_short("short: void, namespaces, argument list and numbers dropped; the functor kept",
                "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                "std::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)",
                1, "vectorized_elementwise_kernel<FillFunctor>");
    check_short("short: a return type other than void is dropped with the namespaces",
                "int my::ns::kernel_a<my::Op>(int)", 1, "kernel_a<Op>");
    check_short("short: a functor inside (anonymous namespace)",
                "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::pow_impl<float, "
                "float>(at::TensorIteratorBase&, float)::{lambda(float)#1}, std::array<char*, 2ul> >(int)",
                1, "vectorized_elementwise_kernel<pow_impl>");
    check_short("short: plain kernel names unchanged", "nvjet_sm90_tst_128x64_64x8_1x2_h_bz_NTT", 1,
                "nvjet_sm90_tst_128x64_64x8_1x2_h_bz_NTT");
    check_short("short: op keys unchanged (kernel 0)", "aten::mm([2048,512]bf16, [512,512]bf16)", 0,
                "aten::mm([2048,512]bf16, [512,512]bf16)");
    /* cuBLAS: a return type with templates and an expression of its own; the function is
     * plain "kernel", so its scope stays, and its first argument, int, says nothing */
    check_short("short: cuBLAS gemvx, enable_if return type, scope kept, scalar arguments elided",
                "std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, __nv_bfloat16, __nv_bfloat16, "
                "__nv_bfloat16, float, false, true, true, false, 7, false, cublasGemvParamsEx<int, "
                "cublasGemvTensorStridedBatched<__nv_bfloat16 const>, cublasGemvTensorStridedBatched<__nv_bfloat16 const>, "
                "cublasGemvTensorStridedBatched<__nv_bfloat16>, float> >(cublasGemvParamsEx<int, "
                "cublasGemvTensorStridedBatched<__nv_bfloat16 const>, cublasGemvTensorStridedBatched<__nv_bfloat16 const>, "
                "cublasGemvTensorStridedBatched<__nv_bfloat16>, float>)",
                1, "gemvx::kernel<...>");
    check_short("short: a comparison inside the return type's template arguments",
                "std::enable_if<(((8)>(0)))&&vllm::_typeConvert<c10::BFloat16>::exists, void>::type "
                "vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, long, c10::BFloat16*, "
                "c10::BFloat16 const*, float, int, int)",
                1, "fused_add_rms_norm_kernel<BFloat16>");
    check_short("short: a comparison inside the function's own template arguments",
                "void k<(((8)>(0))), my::Op>(int)", 1, "k<Op>");
    check_short("short: a functor in (anonymous namespace) first", "void k<(anonymous namespace)::Op<int> >(int)", 1,
                "k<Op>");
    check_short("short: kernel with a class argument keeps it", "void a::b::kernel<my::Op<int> >(int)", 1,
                "b::kernel<Op>");
    check_short("short: a name with spaces is no return type and name", "Memcpy DtoD (Device -> Device)", 1,
                "Memcpy DtoD");
    /* ROCm's mangled names demangled first (c++filt: void aiter::add_rmsnorm_quant_kernel<std::bfloat16_t, ...>) */
    check_short("short: mangled aiter kernel",
                "_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi64ELi8ELb0ELb0ELb1ELi1EEEvPT0_PT_PfS4_S4_S4_diiiiiiib", 1,
                "add_rmsnorm_quant_kernel<bfloat16_t>");
    /* c++filt: void ck_tile::kentry<1, ck_tile::Rmsnorm2dFwd<int>, ck_tile::Rmsnorm2dFwd<int>::Kargs>(...) */
    check_short("short: mangled ck_tile kernel", "_ZN7ck_tile6kentryILi1ENS_12Rmsnorm2dFwdIiEEJNS2_5KargsEEEEvDpT1_", 1,
                "kentry<Rmsnorm2dFwd>");
    check_short("short: a malformed mangled name stays as it is", "_ZN7ck_tile6kentryILi1E", 1, "_ZN7ck_tile6kentryILi1E");
    check_short("short: an op key that looks mangled stays (kernel 0)", "_ZN5aiter3fooEv", 0, "_ZN5aiter3fooEv");
    char small[8];
    CHECK_STR("short: cut to the buffer", pf_name_short("abcdefghijk", 0, small, sizeof small), "abcdefg");
}

static void test_cut(void)
{
    check_cut("cut: fits, unchanged", "reduce_kernel<ReduceOp>", 23, "reduce_kernel<ReduceOp>");
    check_cut("cut: the middle goes, both ends kept", "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT", 21,
              "nvjet_sm9...coopA_NNT");
    check_cut("cut: a kernel's <functor> kept whole, its name cut", "vectorized_elementwise_kernel<CUDAFunctor_add>", 30,
              "vectorized...<CUDAFunctor_add>");
    check_cut("cut: a <functor> too long for the width: the middle goes", "vectorized_elementwise_kernel<CUDAFunctor_add>",
              20, "vectorize...tor_add>");
    check_cut("cut: UTF-8 counted as characters", "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", 7,
              "\xC3\xA9\xC3\xA9...\xC3\xA9\xC3\xA9");
    check_cut("cut: a limit of 3 or less leaves the name", "abcdef", 3, "abcdef");
}

/* Runs pf_names_short_set on n keys and checks each result. */
static void check_set(const char *name, const char *const *keys, size_t n, int kernel, const char *const *want)
{
    char *out[8];
    CHECK(name, pf_names_short_set(keys, n, kernel, out) == 0);
    for (size_t i = 0; i < n; i++) {
        char what[256];
        snprintf(what, sizeof what, "%s: name %zu", name, i);
        CHECK_STR(what, out[i], want[i]);
        free(out[i]);
    }
}

static void test_set(void)
{
    /* two element-wise kernels whose functors are both BinaryFunctor: the first word of their
     * template arguments that differs is the operation */
    const char *bin[] = {
        "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, float, "
        "at::native::binary_internal::MulFunctor<float> >, std::array<char*, 3ul> >(int)",
        "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, float, "
        "at::native::binary_internal::AddFunctor<float> >, std::array<char*, 3ul> >(int)",
        "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, std::array<char*, 1ul> >(int)",
    };
    const char *bin_want[] = {"vectorized_elementwise_kernel<BinaryFunctor...MulFunctor>",
                              "vectorized_elementwise_kernel<BinaryFunctor...AddFunctor>",
                              "vectorized_elementwise_kernel<FillFunctor>"};
    check_set("set: BinaryFunctor told apart by its operation", bin, 3, 1, bin_want);

    /* three reductions: the dtype tells two from the third, the operation the remaining two */
    const char *red[] = {
        "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float> > >(int)",
        "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::SumOps<float> > >(int)",
        "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<c10::BFloat16, at::native::SumOps<float> > >(int)",
    };
    const char *red_want[] = {"reduce_kernel<ReduceOp...float...MeanOps>", "reduce_kernel<ReduceOp...float...SumOps>",
                              "reduce_kernel<ReduceOp...BFloat16>"};
    check_set("set: words appended until each name differs", red, 3, 1, red_want);

    /* the same kernel in two namespaces: nothing but punctuation and namespaces differ */
    const char *ns[] = {"void a::k<1>(int)", "void b::k<1>(int)"};
    const char *ns_want[] = {"k", "k #2"};
    check_set("set: names alike but for namespaces numbered", ns, 2, 1, ns_want);

    /* two mangled aiter kernels alike but for their block size: told apart by demangled words */
    const char *mangled[] = {
        "_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi64ELi8ELb0ELb0ELb1ELi1EEEvPT0_PT_PfS4_S4_S4_diiiiiiib",
        "_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi256ELi16ELb0ELb0ELb1ELi1EEEvPT0_PT_PfS4_S4_S4_diiiiiiib",
    };
    const char *mangled_want[] = {"add_rmsnorm_quant_kernel<bfloat16_t...64>", "add_rmsnorm_quant_kernel<bfloat16_t...256>"};
    check_set("set: mangled names told apart by their demangled arguments", mangled, 2, 1, mangled_want);

    /* op keys are distinct already and stay whole */
    const char *ops[] = {"aten::mm", "aten::addmm", "aten::mm([2,3]bf16, [3,4]bf16)"};
    check_set("set: op keys unchanged", ops, 3, 0, ops);
}

int main(void)
{
    test_short();
    test_cut_four();
    test_cut();
    test_set();
    return check_failures != 0;
}
