/* test_categories.c - unit tests of activity categories: trace names, Inductor's report, public ROCm names. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "profana/categories.h"

/* Checks one activity; the label names the case so a FAIL line says which name went wrong. */
static void expect(const char *what, pf_act_kind kind, const char *name, const char *op,
                   pf_category want)
{
    char label[200];
    snprintf(label, sizeof label, "%s: %.70s%s%.60s", what, name ? name : "(no name)",
             op ? " | op " : "", op ? op : "");
    CHECK_STR(label, pf_category_name(pf_category_of(kind, name, op)), pf_category_name(want));
}

static void test_names(void)
{
    static const char *const want[PF_CAT_COUNT] = {
        "triton_pointwise", "triton_reduction", "triton_persistent_reduction",
        "triton_template", "triton_foreach", "triton_other", "gemm", "conv", "attention",
        "elementwise", "reduction", "normalization", "communication", "memcpy", "memset",
        "other",
    };
    for (int c = 0; c < PF_CAT_COUNT; c++)
        CHECK_STR("category name", pf_category_name((pf_category)c), want[c]);
    CHECK_STR("out-of-range category is other", pf_category_name(PF_CAT_COUNT), "other");
    CHECK_STR("negative category is other", pf_category_name((pf_category)-1), "other");
}

/* (a) Every distinct (kernel, launching op) family of the JSON traces in testdata/traces and
 * the gzipped ones in testdata/peer: 148 rows, 136 distinct names, copied verbatim (kernel
 * "External id" == cpu_op "External id"). Each row has the category its op's family gives
 * and the category the kernel name gives alone (as when the kernel is unlinked); both were
 * decided by reading the names. Memcpy/memset rows are decided by their kind either way. */
typedef struct real_case {
    pf_act_kind kind;
    const char *name;
    const char *op;            /* innermost cpu_op that launched it */
    pf_category with_op;
    pf_category alone;
} real_case;

static const real_case real_cases[] = {
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw_tilesize256x64x8_stage"
     "3_warpsize2x2x1_g1_ffma_aligna4_alignc4_execute_kernel__5x_cudnn",
     "aten::cudnn_convolution",
     PF_CAT_CONV, PF_CAT_CONV},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::n"
     "ative::CUDAFunctor_add<float> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add"
     "<float> const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native"
     "::CUDAFunctor_add<float> >(at::TensorIteratorBase&, at::native::CUDAFunctor_add<floa"
     "t> const&)::{lambda(int)#1})",
     "aten::add_",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "void at::native::vectorized_elementwise_kernel<2, at::native::CUDAFunctorOnSelf_add<"
     "long>, std::array<char*, 2ul> >(int, at::native::CUDAFunctorOnSelf_add<long>, std::a"
     "rray<char*, 2ul>)",
     "aten::add_",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1, true>(cudnnTe"
     "nsorStruct, float const*, cudnnTensorStruct, float*, float const*, float const*, flo"
     "at, float, float*, float*, float*, float*, float, float)",
     "aten::cudnn_batch_norm",
     PF_CAT_NORMALIZATION, PF_CAT_NORMALIZATION},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace):"
     ":launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::"
     "detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() c"
     "onst::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::native::(anonymous namesp"
     "ace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::nat"
     "ive::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator("
     ")() const::{lambda(float)#1}, std::array<char*, 2ul>)",
     "aten::clamp_min",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "void at::native::(anonymous namespace)::max_pool_forward_nchw<float, int>(int, float"
     " const*, long, long, long, int, int, int, int, int, int, int, int, int, int, float*,"
     " long*)",
     "aten::max_pool2d_with_indices",
     PF_CAT_REDUCTION, PF_CAT_REDUCTION},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "void cudnn::engines_precompiled::nchwToNhwcKernel<float, float, float, false, true, "
     "(cudnnKernelDataType_t)2>(cudnn::engines_precompiled::nchw2nhwc_params_t<float>, flo"
     "at const*, float*)",
     "aten::cudnn_convolution",
     PF_CAT_CONV, PF_CAT_CONV},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_s"
     "tage4_warpsize2x2x1_g1_tensor16x8x8_alignc4_execute_kernel__5x_cudnn",
     "aten::cudnn_convolution",
     PF_CAT_CONV, PF_CAT_CONV},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "void cudnn::bn_fw_tr_1C11_singleread<float, 512, true, 1, 2, 0>(cudnn::bn_fw_tr_1C11"
     "_args<float>)",
     "aten::cudnn_batch_norm",
     PF_CAT_NORMALIZATION, PF_CAT_NORMALIZATION},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_128x64_16x6_nn_align4>(cutlass_8"
     "0_tensorop_s1688gemm_128x64_16x6_nn_align4::Params)",
     "aten::cudnn_convolution",
     PF_CAT_CONV, PF_CAT_GEMM},
    /* cnn_fp32.json, compiled_bf16_b8.json, eager_bf16.json, eager_fp32.json */
    {PF_ACT_KERNEL,
     "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanO"
     "ps<float, float, float, float>, unsigned int, float, 4, 4> >(at::native::ReduceOp<fl"
     "oat, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4>)",
     "aten::mean",
     PF_CAT_REDUCTION, PF_CAT_REDUCTION},
    /* cnn_fp32.json, compiled_bf16_b8.json, compiled_module_profile_0.json, eager_bf16.json,
       owlv2_h100.json.gz */
    {PF_ACT_MEMSET,
     "Memset (Device)",
     "aten::addmm",
     PF_CAT_MEMSET, PF_CAT_MEMSET},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "void scal_kernel<float, float, 1, true, 6, 5, 5, 3>(cublasTransposeParams<float>, fl"
     "oat const*, float*, float const*)",
     "aten::addmm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "void sgemm_largek_lds64<true, false, 5, 5, 4, 4, 4, 34>(float*, float const*, float "
     "const*, int, int, int, int, int, int, float const*, float const*, float, float, int,"
     " int, int*, int*)",
     "aten::addmm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "void cublasLt::epilogue::impl::globalKernel<8, 32, float, float, float, true, true, "
     "1>(int, int, long, float*, cublasLtEpilogue_t, int, float*, long, void*, long, long,"
     " long, float*, long, int*)",
     "aten::addmm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* cnn_fp32.json, eager_fp32.json, explicit_fp32.json */
    {PF_ACT_KERNEL,
     "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_"
     "wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::Tensor"
     "Iterator&)::{lambda(float, float)#1}>, unsigned int, float, 4, 4> >(at::native::Redu"
     "ceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, "
     "float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, fl"
     "oat, 4, 4>)",
     "aten::sum",
     PF_CAT_REDUCTION, PF_CAT_REDUCTION},
    /* cnn_fp32.json, compiled_bf16_b8.json, eager_bf16.json, eager_fp32.json,
       explicit_bf16.json, explicit_fp32.json, owlv2_h100.json.gz, owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, st"
     "d::array<char*, 1ul> >(int, at::native::FillFunctor<float>, std::array<char*, 1ul>)",
     "aten::fill_",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* cnn_fp32.json, eager_fp32.json, explicit_fp32.json */
    {PF_ACT_KERNEL,
     "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::n"
     "ative::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() "
     "const::{lambda()#7}::operator()() const::{lambda(float)#1}>(at::TensorIteratorBase&,"
     " at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operato"
     "r()() const::{lambda()#7}::operator()() const::{lambda(float)#1} const&)::{lambda(in"
     "t)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(a"
     "t::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()("
     ") const::{lambda(float)#1}>(at::TensorIteratorBase&, at::native::direct_copy_kernel_"
     "cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::opera"
     "tor()() const::{lambda(float)#1} const&)::{lambda(int)#1})",
     "aten::copy_",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "void cutlass::Kernel2<cutlass_80_simt_sgemm_64x64_8x5_nn_align1>(cutlass_80_simt_sge"
     "mm_64x64_8x5_nn_align1::Params)",
     "aten::mm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* cnn_fp32.json, eager_fp32.json, explicit_fp32.json */
    {PF_ACT_KERNEL,
     "void cublasLt::splitKreduce_kernel<32, 16, int, float, float, float, float, false, f"
     "loat, float, float, true, false, false, false>(cublasLt::cublasSplitKParams<float>, "
     "float const*, float const*, float*, float*, float const*, float const*, float const*"
     ", float const*, float*, void*, long, float*, int*, float*, float*, float const*, flo"
     "at const*, float const*, float const*, float const*)",
     "aten::mm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* cnn_fp32.json, compiled_bf16_b8.json, eager_bf16.json, eager_fp32.json */
    {PF_ACT_KERNEL,
     "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::n"
     "ative::BUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<fl"
     "oat> > >(at::TensorIteratorBase&, at::native::BUnaryFunctor<float, float, float, at:"
     ":native::binary_internal::MulFunctor<float> > const&)::{lambda(int)#1}>(int, at::nat"
     "ive::gpu_kernel_impl_nocast<at::native::BUnaryFunctor<float, float, float, at::nativ"
     "e::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BUnar"
     "yFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> > const"
     "&)::{lambda(int)#1})",
     "aten::div",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, f"
     "loat, float, at::native::(anonymous namespace)::threshold_kernel_impl<float>(at::Ten"
     "sorIteratorBase&, float, float)::{lambda(float, float)#1}>, std::array<char*, 3ul> >"
     "(int, at::native::BinaryFunctor<float, float, float, at::native::(anonymous namespac"
     "e)::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, float)::{lambda(flo"
     "at, float)#1}>, std::array<char*, 3ul>)",
     "aten::threshold_backward",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_16x6_nt_align4>(cutlass_80"
     "_tensorop_s1688gemm_64x64_16x6_nt_align4::Params)",
     "aten::convolution_backward",
     PF_CAT_CONV, PF_CAT_GEMM},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "void cudnn::cnn::reduce_wgrad_nchw_helper<float, float>(void*, void const*, float, i"
     "nt, int)",
     "aten::convolution_backward",
     PF_CAT_CONV, PF_CAT_CONV},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "void cudnn::bn_bw_1C11_singleread<float, 512, true, 1, 2, 0>(cudnn::bn_bw_1C11_args<"
     "float>)",
     "aten::cudnn_batch_norm_backward",
     PF_CAT_NORMALIZATION, PF_CAT_NORMALIZATION},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "void cudnn::engines_precompiled::nchwToNhwcKernel<float, float, float, false, true, "
     "(cudnnKernelDataType_t)0>(cudnn::engines_precompiled::nchw2nhwc_params_t<float>, flo"
     "at const*, float*)",
     "aten::convolution_backward",
     PF_CAT_CONV, PF_CAT_CONV},
    /* cnn_fp32.json */
    {PF_ACT_MEMSET,
     "Memset (Device)",
     "aten::convolution_backward",
     PF_CAT_MEMSET, PF_CAT_MEMSET},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "sm90_xmma_dgrad_implicit_gemm_indexed_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize256x6"
     "4x32_warpgroupsize1x1x1_g1_strided_execute_kernel__5x_cudnn",
     "aten::convolution_backward",
     PF_CAT_CONV, PF_CAT_CONV},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "void cudnn::engines_precompiled::nhwcToNchwKernel<float, float, float, true, false, "
     "(cudnnKernelDataType_t)0>(cudnn::engines_precompiled::nhwc2nchw_params_t<float>, flo"
     "at const*, float*)",
     "aten::convolution_backward",
     PF_CAT_CONV, PF_CAT_CONV},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "void cask_plugin__5x_cudnn::xmma__5x_cudnn::init_device_workspace_kernel<xmma__5x_cu"
     "dnn::implicit_gemm::wgrad_indexed::Warp_specialized_params<xmma__5x_cudnn::Grid_cons"
     "tant_params> >(xmma__5x_cudnn::implicit_gemm::wgrad_indexed::Warp_specialized_params"
     "<xmma__5x_cudnn::Grid_constant_params>, bool)",
     "aten::convolution_backward",
     PF_CAT_CONV, PF_CAT_CONV},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "sm90_xmma_wgrad_indexed_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x6"
     "4x32_warpgroupsize1x1x1_g1_execute_segment_k_on_kernel__5x_cudnn",
     "aten::convolution_backward",
     PF_CAT_CONV, PF_CAT_CONV},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "void at::native::(anonymous namespace)::max_pool_backward_nchw<float, float, int>(fl"
     "oat const*, long const*, int, int, int, int, int, int, int, int, int, int, int, int,"
     " int, int, float*)",
     "aten::max_pool2d_with_indices_backward",
     PF_CAT_REDUCTION, PF_CAT_REDUCTION},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>(float, float, "
     "float, float, cudnnTensorStruct, float const*, cudnnTensorStruct, float const*, cudn"
     "nTensorStruct, float*, float const*, float*, float*, float const*, float const*, flo"
     "at)",
     "aten::cudnn_batch_norm_backward",
     PF_CAT_NORMALIZATION, PF_CAT_NORMALIZATION},
    /* cnn_fp32.json */
    {PF_ACT_KERNEL,
     "void wgrad_alg0_engine<float, 128, 5, 5, 3, 3, 3, false, 512>(int, int, int, float c"
     "onst*, int, float*, float const*, kernel_grad_params, unsigned long long, int, float"
     ", int, int, int, int)",
     "aten::convolution_backward",
     PF_CAT_CONV, PF_CAT_CONV},
    /* cnn_fp32.json, eager_bf16.json, eager_fp32.json, explicit_bf16.json, explicit_fp32.json */
    {PF_ACT_MEMSET,
     "Memset (Device)",
     "aten::sum",
     PF_CAT_MEMSET, PF_CAT_MEMSET},
    /* compiled_bf16_b8.json, compiled_module_profile_0.json */
    {PF_ACT_KERNEL,
     "triton_per_fused_native_layer_norm_0",
     "triton_per_fused_native_layer_norm_0",
     PF_CAT_TRITON_PERSISTENT_REDUCTION, PF_CAT_TRITON_PERSISTENT_REDUCTION},
    /* compiled_bf16_b8.json, compiled_module_profile_0.json, eager_bf16.json */
    {PF_ACT_KERNEL,
     "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT",
     "aten::addmm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* compiled_bf16_b8.json, compiled_module_profile_0.json, eager_bf16.json */
    {PF_ACT_MEMSET,
     "Memset (Device)",
     "aten::_cudnn_attention_forward",
     PF_CAT_MEMSET, PF_CAT_MEMSET},
    /* compiled_bf16_b8.json, compiled_module_profile_0.json, eager_bf16.json */
    {PF_ACT_KERNEL,
     "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x64_4x1x1_c"
     "ga1x1x1_kernel0_0",
     "aten::_cudnn_attention_forward",
     PF_CAT_ATTENTION, PF_CAT_ATTENTION},
    /* compiled_bf16_b8.json, compiled_module_profile_0.json */
    {PF_ACT_KERNEL,
     "triton_per_fused_add_native_layer_norm_view_1",
     "triton_per_fused_add_native_layer_norm_view_1",
     PF_CAT_TRITON_PERSISTENT_REDUCTION, PF_CAT_TRITON_PERSISTENT_REDUCTION},
    /* compiled_bf16_b8.json, compiled_module_profile_0.json */
    {PF_ACT_KERNEL,
     "triton_poi_fused_gelu_view_2",
     "triton_poi_fused_gelu_view_2",
     PF_CAT_TRITON_POINTWISE, PF_CAT_TRITON_POINTWISE},
    /* compiled_bf16_b8.json, compiled_module_profile_0.json */
    {PF_ACT_KERNEL,
     "triton_per_fused__softmax_add_exp_mul_native_layer_norm_prepare_softmax_online_sub_v"
     "iew_3",
     "triton_per_fused__softmax_add_exp_mul_native_layer_norm_prepare_softmax_online_sub_v"
     "iew_3",
     PF_CAT_TRITON_PERSISTENT_REDUCTION, PF_CAT_TRITON_PERSISTENT_REDUCTION},
    /* compiled_bf16_b8.json, compiled_module_profile_0.json */
    {PF_ACT_KERNEL,
     "triton_per_fused__softmax_add_exp_mul_native_layer_norm_sub_view_4",
     "triton_per_fused__softmax_add_exp_mul_native_layer_norm_sub_view_4",
     PF_CAT_TRITON_PERSISTENT_REDUCTION, PF_CAT_TRITON_PERSISTENT_REDUCTION},
    /* compiled_bf16_b8.json, compiled_module_profile_0.json */
    {PF_ACT_KERNEL,
     "triton_per_fused__softmax_add_exp_mul_prepare_softmax_online_sub_view_5",
     "triton_per_fused__softmax_add_exp_mul_prepare_softmax_online_sub_view_5",
     PF_CAT_TRITON_PERSISTENT_REDUCTION, PF_CAT_TRITON_PERSISTENT_REDUCTION},
    /* compiled_bf16_b8.json, eager_bf16.json, explicit_bf16.json, owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::unrolled_elementwise_kernel<at::native::direct_copy_kernel_cuda(at:"
     ":TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator()() "
     "const::{lambda(float)#1}, std::array<char*, 2ul>, 4, TrivialOffsetCalculator<1, unsi"
     "gned int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCas"
     "t<1>, at::native::memory::StoreWithCast<1> >(int, at::native::direct_copy_kernel_cud"
     "a(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#7}::operator"
     "()() const::{lambda(float)#1}, std::array<char*, 2ul>, TrivialOffsetCalculator<1, un"
     "signed int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithC"
     "ast<1>, at::native::memory::StoreWithCast<1>)",
     "aten::copy_",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* compiled_bf16_b8.json, eager_bf16.json, eager_fp32.json */
    {PF_ACT_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace):"
     ":pow_tensor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, float)::{lambd"
     "a(float)#1}, std::array<char*, 2ul> >(int, at::native::(anonymous namespace)::pow_te"
     "nsor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, float)::{lambda(float"
     ")#1}, std::array<char*, 2ul>)",
     "aten::pow",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* compiled_bf16_b8.json, eager_bf16.json, eager_fp32.json */
    {PF_ACT_MEMSET,
     "Memset (Device)",
     "aten::mean",
     PF_CAT_MEMSET, PF_CAT_MEMSET},
    /* compiled_bf16_b8.json, eager_bf16.json, eager_fp32.json, explicit_bf16.json,
       explicit_fp32.json, owlv2_h100.json.gz, owlv2_mi300.json.gz */
    {PF_ACT_MEMCPY,
     "Memcpy DtoD (Device -> Device)",
     "aten::copy_",
     PF_CAT_MEMCPY, PF_CAT_MEMCPY},
    /* compiled_bf16_b8.json, eager_bf16.json, eager_fp32.json */
    {PF_ACT_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float, f"
     "loat, float, at::native::binary_internal::MulFunctor<float> >, std::array<char*, 2ul"
     "> >(int, at::native::AUnaryFunctor<float, float, float, at::native::binary_internal:"
     ":MulFunctor<float> >, std::array<char*, 2ul>)",
     "aten::mul",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* compiled_bf16_b8.json, eager_bf16.json, explicit_bf16.json */
    {PF_ACT_KERNEL,
     "void at::native::vectorized_elementwise_kernel<8, at::native::bfloat16_copy_kernel_c"
     "uda(at::TensorIteratorBase&)::{lambda(float)#1}, std::array<char*, 2ul> >(int, at::n"
     "ative::bfloat16_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda(float)#1}, std::a"
     "rray<char*, 2ul>)",
     "aten::copy_",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* compiled_bf16_b8.json */
    {PF_ACT_KERNEL,
     "triton_per_fused__softmax__softmax_backward_data_add_mul_0",
     "triton_per_fused__softmax__softmax_backward_data_add_mul_0",
     PF_CAT_TRITON_PERSISTENT_REDUCTION, PF_CAT_TRITON_PERSISTENT_REDUCTION},
    /* compiled_bf16_b8.json, eager_bf16.json */
    {PF_ACT_MEMSET,
     "Memset (Device)",
     "aten::mm",
     PF_CAT_MEMSET, PF_CAT_MEMSET},
    /* compiled_bf16_b8.json, eager_bf16.json */
    {PF_ACT_KERNEL,
     "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT",
     "aten::mm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* compiled_bf16_b8.json, eager_bf16.json */
    {PF_ACT_KERNEL,
     "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NTT",
     "aten::mm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* compiled_bf16_b8.json */
    {PF_ACT_KERNEL,
     "triton_red_fused_sum_view_1",
     "triton_red_fused_sum_view_1",
     PF_CAT_TRITON_REDUCTION, PF_CAT_TRITON_REDUCTION},
    /* compiled_bf16_b8.json */
    {PF_ACT_KERNEL,
     "triton_per_fused_sum_view_2",
     "triton_per_fused_sum_view_2",
     PF_CAT_TRITON_PERSISTENT_REDUCTION, PF_CAT_TRITON_PERSISTENT_REDUCTION},
    /* compiled_bf16_b8.json */
    {PF_ACT_KERNEL,
     "triton_poi_fused_gelu_gelu_backward_view_3",
     "triton_poi_fused_gelu_gelu_backward_view_3",
     PF_CAT_TRITON_POINTWISE, PF_CAT_TRITON_POINTWISE},
    /* compiled_bf16_b8.json */
    {PF_ACT_KERNEL,
     "triton_red_fused_gelu_gelu_backward_sum_view_4",
     "triton_red_fused_gelu_gelu_backward_sum_view_4",
     PF_CAT_TRITON_REDUCTION, PF_CAT_TRITON_REDUCTION},
    /* compiled_bf16_b8.json */
    {PF_ACT_KERNEL,
     "triton_per_fused_gelu_gelu_backward_sum_view_5",
     "triton_per_fused_gelu_gelu_backward_sum_view_5",
     PF_CAT_TRITON_PERSISTENT_REDUCTION, PF_CAT_TRITON_PERSISTENT_REDUCTION},
    /* compiled_bf16_b8.json */
    {PF_ACT_KERNEL,
     "triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_6",
     "triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_6",
     PF_CAT_TRITON_PERSISTENT_REDUCTION, PF_CAT_TRITON_PERSISTENT_REDUCTION},
    /* compiled_bf16_b8.json */
    {PF_ACT_KERNEL,
     "triton_red_fused_native_layer_norm_native_layer_norm_backward_view_7",
     "triton_red_fused_native_layer_norm_native_layer_norm_backward_view_7",
     PF_CAT_TRITON_REDUCTION, PF_CAT_TRITON_REDUCTION},
    /* compiled_bf16_b8.json */
    {PF_ACT_KERNEL,
     "triton_per_fused_native_layer_norm_native_layer_norm_backward_view_8",
     "triton_per_fused_native_layer_norm_native_layer_norm_backward_view_8",
     PF_CAT_TRITON_PERSISTENT_REDUCTION, PF_CAT_TRITON_PERSISTENT_REDUCTION},
    /* compiled_bf16_b8.json, eager_bf16.json */
    {PF_ACT_KERNEL,
     "nvjet_sm90_tst_128x64_64x8_1x2_h_bz_NTT",
     "aten::mm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* compiled_bf16_b8.json, eager_bf16.json */
    {PF_ACT_MEMSET,
     "Memset (Device)",
     "aten::_cudnn_attention_backward",
     PF_CAT_MEMSET, PF_CAT_MEMSET},
    /* compiled_bf16_b8.json, eager_bf16.json */
    {PF_ACT_KERNEL,
     "void cudnn::fusion::compute_dot_do_o_specialized<true, 64>(void const*, void const*,"
     " void*, void*, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int,"
     " unsigned int, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int,"
     " unsigned int, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int,"
     " float, void const*, void const*, void const*, void const*, void const*, bool, void "
     "const*, void*, void const*, int, int, int, int, int, int, int, int, int)",
     "aten::_cudnn_attention_backward",
     PF_CAT_ATTENTION, PF_CAT_ATTENTION},
    /* compiled_bf16_b8.json, eager_bf16.json */
    {PF_ACT_KERNEL,
     "cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_f16_knob_26_64x64x64_1x4x1_c"
     "ga1x1x1_kernel0_0",
     "aten::_cudnn_attention_backward",
     PF_CAT_ATTENTION, PF_CAT_ATTENTION},
    /* compiled_bf16_b8.json, eager_bf16.json */
    {PF_ACT_KERNEL,
     "void cudnn::fusion::convert_dq_to_16bits<true>(void const*, void*, unsigned int, uns"
     "igned int, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int, uns"
     "igned int, unsigned int, unsigned int, float const*, float const*, float const*, flo"
     "at*, void const*, void*, void*, bool, bool)",
     "aten::_cudnn_attention_backward",
     PF_CAT_ATTENTION, PF_CAT_ATTENTION},
    /* compiled_bf16_b8.json */
    {PF_ACT_KERNEL,
     "triton_poi_fused_cat_transpose_view_9",
     "triton_poi_fused_cat_transpose_view_9",
     PF_CAT_TRITON_POINTWISE, PF_CAT_TRITON_POINTWISE},
    /* compiled_bf16_b8.json, eager_bf16.json */
    {PF_ACT_KERNEL,
     "nvjet_sm90_tst_128x192_64x5_2x1_v_bz_coopB_NTN",
     "aten::mm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* compiled_bf16_b8.json */
    {PF_ACT_KERNEL,
     "triton_red_fused_cat_sum_transpose_view_10",
     "triton_red_fused_cat_sum_transpose_view_10",
     PF_CAT_TRITON_REDUCTION, PF_CAT_TRITON_REDUCTION},
    /* compiled_bf16_b8.json */
    {PF_ACT_KERNEL,
     "triton_per_fused_cat_sum_transpose_view_11",
     "triton_per_fused_cat_sum_transpose_view_11",
     PF_CAT_TRITON_PERSISTENT_REDUCTION, PF_CAT_TRITON_PERSISTENT_REDUCTION},
    /* compiled_bf16_b8.json */
    {PF_ACT_KERNEL,
     "triton_per_fused__softmax__softmax_backward_data_add_mul_native_layer_norm_native_la"
     "yer_norm_backward_view_12",
     "triton_per_fused__softmax__softmax_backward_data_add_mul_native_layer_norm_native_la"
     "yer_norm_backward_view_12",
     PF_CAT_TRITON_PERSISTENT_REDUCTION, PF_CAT_TRITON_PERSISTENT_REDUCTION},
    /* compiled_bf16_b8.json */
    {PF_ACT_KERNEL,
     "triton_red_fused_native_layer_norm_backward_view_13",
     "triton_red_fused_native_layer_norm_backward_view_13",
     PF_CAT_TRITON_REDUCTION, PF_CAT_TRITON_REDUCTION},
    /* compiled_bf16_b8.json */
    {PF_ACT_KERNEL,
     "triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_14",
     "triton_per_fused_add_native_layer_norm_native_layer_norm_backward_view_14",
     PF_CAT_TRITON_PERSISTENT_REDUCTION, PF_CAT_TRITON_PERSISTENT_REDUCTION},
    /* compiled_bf16_b8.json */
    {PF_ACT_KERNEL,
     "triton_red_fused_add_native_layer_norm_native_layer_norm_backward_view_15",
     "triton_red_fused_add_native_layer_norm_native_layer_norm_backward_view_15",
     PF_CAT_TRITON_REDUCTION, PF_CAT_TRITON_REDUCTION},
    /* eager_bf16.json */
    {PF_ACT_KERNEL,
     "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, "
     "float, false>(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 "
     "const*, float*, float*, c10::BFloat16*)",
     "aten::native_layer_norm",
     PF_CAT_NORMALIZATION, PF_CAT_NORMALIZATION},
    /* eager_bf16.json, explicit_bf16.json, owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::B"
     "Float16>, std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, "
     "std::array<char*, 3ul>)",
     "aten::add",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* eager_bf16.json, owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::vectorized_elementwise_kernel<8, at::native::GeluCUDAKernelImpl(at:"
     ":TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lamb"
     "da()#4}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul> >(int"
     ", at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{la"
     "mbda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat"
     "16)#1}, std::array<char*, 2ul>)",
     "aten::gelu",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* eager_bf16.json */
    {PF_ACT_KERNEL,
     "void at::native::vectorized_elementwise_kernel<8, at::native::GeluBackwardCUDAKernel"
     "Impl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() cons"
     "t::{lambda()#4}::operator()() const::{lambda(c10::BFloat16, c10::BFloat16)#1}, std::"
     "array<char*, 3ul> >(int, at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBa"
     "se&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator"
     "()() const::{lambda(c10::BFloat16, c10::BFloat16)#1}, std::array<char*, 3ul>)",
     "aten::gelu_backward",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* eager_bf16.json */
    {PF_ACT_KERNEL,
     "void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_vectorized<c10:"
     ":BFloat16, float, false>(c10::BFloat16 const*, c10::BFloat16 const*, float const*, f"
     "loat const*, c10::BFloat16 const*, c10::BFloat16*, int)",
     "aten::native_layer_norm_backward",
     PF_CAT_NORMALIZATION, PF_CAT_NORMALIZATION},
    /* eager_bf16.json */
    {PF_ACT_KERNEL,
     "void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernelTemplate<c10::BFl"
     "oat16, float, 32u, 32u, 256u, false, true, false>(long, long, c10::BFloat16 const*, "
     "c10::BFloat16 const*, float const*, float const*, c10::BFloat16*, c10::BFloat16*)",
     "aten::native_layer_norm_backward",
     PF_CAT_NORMALIZATION, PF_CAT_NORMALIZATION},
    /* eager_bf16.json */
    {PF_ACT_KERNEL,
     "void at::native::(anonymous namespace)::CatArrayBatchedCopy_vectorized<at::native::("
     "anonymous namespace)::OpaqueType<2u>, unsigned int, 3, 128, 1, 16, 8>(char*, at::nat"
     "ive::(anonymous namespace)::CatArrInputTensorMetadata<at::native::(anonymous namespa"
     "ce)::OpaqueType<2u>, unsigned int, 128, 1>, at::native::(anonymous namespace)::Tenso"
     "rSizeStride<unsigned int, 4u>, int, unsigned int)",
     "aten::cat",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* eager_fp32.json */
    {PF_ACT_KERNEL,
     "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x64x8_stage3_warpsize1x4x1_ffma_alig"
     "na4_alignc4_execute_kernel__5x_cublas",
     "aten::addmm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* eager_fp32.json */
    {PF_ACT_KERNEL,
     "fmha_cutlassF_f32_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<floa"
     "t, cutlass::arch::Sm80, true, 64, 64, 64, true, true>::Params)",
     "aten::_efficient_attention_forward",
     PF_CAT_ATTENTION, PF_CAT_ATTENTION},
    /* eager_fp32.json */
    {PF_ACT_KERNEL,
     "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x64x8_stage3_warpsize2x2x1_ffma_ali"
     "gna4_alignc4_execute_kernel__5x_cublas",
     "aten::mm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* eager_fp32.json */
    {PF_ACT_KERNEL,
     "fmha_cutlassB_f32_aligned_64x64_k64_sm80(PyTorchMemEffAttention::AttentionBackwardKe"
     "rnel<cutlass::arch::Sm80, float, true, false, false, 64, 64, 64, false>::Params)",
     "aten::_efficient_attention_backward",
     PF_CAT_ATTENTION, PF_CAT_ATTENTION},
    /* eager_fp32.json */
    {PF_ACT_KERNEL,
     "sm80_xmma_gemm_f32f32_f32f32_f32_nt_n_tilesize64x64x8_stage3_warpsize1x4x1_ffma_alig"
     "na4_alignc4_execute_kernel__5x_cublas",
     "aten::mm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* explicit_bf16.json */
    {PF_ACT_KERNEL,
     "nvjet_sm90_tst_128x64_64x8_1x2_h_bz_NNT",
     "aten::mm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* explicit_bf16.json */
    {PF_ACT_KERNEL,
     "nvjet_sm90_tst_128x64_64x8_1x2_h_bz_bias_NNT",
     "aten::addmm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* explicit_bf16.json */
    {PF_ACT_KERNEL,
     "nvjet_sm90_tst_128x64_64x8_1x2_h_bz_TNT",
     "aten::bmm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* explicit_bf16.json */
    {PF_ACT_KERNEL,
     "nvjet_sm90_tst_128x64_64x8_1x2_h_badd_TNT",
     "aten::baddbmm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* explicit_bf16.json */
    {PF_ACT_KERNEL,
     "void (anonymous namespace)::softmax_warp_forward<c10::BFloat16, c10::BFloat16, float"
     ", 8, false, false>(c10::BFloat16*, c10::BFloat16 const*, int, int, int, bool const*,"
     " int, bool)",
     "aten::_softmax",
     PF_CAT_NORMALIZATION, PF_CAT_NORMALIZATION},
    /* explicit_bf16.json */
    {PF_ACT_KERNEL,
     "nvjet_sm90_tst_64x32_64x16_1x2_h_bz_NTT",
     "aten::mm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* explicit_fp32.json */
    {PF_ACT_KERNEL,
     "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize64x128x8_stage3_warpsize1x4x1_ffma_ali"
     "gna4_alignc4_execute_kernel__5x_cublas",
     "aten::addmm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* explicit_fp32.json */
    {PF_ACT_KERNEL,
     "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x64x8_stage3_warpsize1x4x1_ffma_alig"
     "na4_alignc4_execute_kernel__5x_cublas",
     "aten::bmm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* explicit_fp32.json */
    {PF_ACT_KERNEL,
     "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize64x64x8_stage3_warpsize1x4x1_ffma_alig"
     "na4_alignc4_execute_kernel__5x_cublas",
     "aten::baddbmm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execu"
     "te_segment_k_off_kernel__5x_cublas",
     "aten::addmm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::sigmoid_kernel_cuda(at"
     "::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()()"
     " const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul> >(int, at::native::sigmoid"
     "_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4"
     "}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>)",
     "aten::sigmoid",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void cutlass::Kernel2<cutlass_75_tensorop_bf16_s1688gemm_bf16_256x128_tn_align1>(cut"
     "lass_75_tensorop_bf16_s1688gemm_bf16_256x128_tn_align1::Params)",
     "aten::bmm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::(anonymous namespace)::cunn_SoftMaxForward<8, c10::BFloat16, float,"
     " c10::BFloat16, at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(c10::BFlo"
     "at16*, c10::BFloat16 const*, int)",
     "aten::_softmax",
     PF_CAT_NORMALIZATION, PF_CAT_NORMALIZATION},
    /* owlv2_h100.json.gz, owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::(anonymous namespace)::indexSelectSmallIndex<c10::BFloat16, long, u"
     "nsigned int, 2, 2, -2>(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>, at"
     "::cuda::detail::TensorInfo<c10::BFloat16 const, unsigned int>, at::cuda::detail::Ten"
     "sorInfo<long const, unsigned int>, int, int, unsigned int, long)",
     "aten::index_select",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* owlv2_h100.json.gz, owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "void (anonymous namespace)::elementwise_kernel_with_index<int, at::native::arange_cu"
     "da_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{la"
     "mbda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(long)#1}>(i"
     "nt, at::native::arange_cuda_out(c10::Scalar const&, c10::Scalar const&, c10::Scalar "
     "const&, at::Tensor&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() c"
     "onst::{lambda(long)#1}, function_traits<at::native::arange_cuda_out(c10::Scalar cons"
     "t&, c10::Scalar const&, c10::Scalar const&, at::Tensor&)::{lambda()#1}::operator()()"
     " const::{lambda()#4}::operator()() const::{lambda(long)#1}>::result_type*)",
     "aten::arange",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::n"
     "ative::(anonymous namespace)::CompareFunctor<long> >(at::TensorIteratorBase&, at::na"
     "tive::(anonymous namespace)::CompareFunctor<long> const&)::{lambda(int)#1}>(int, at:"
     ":native::gpu_kernel_impl_nocast<at::native::(anonymous namespace)::CompareFunctor<lo"
     "ng> >(at::TensorIteratorBase&, at::native::(anonymous namespace)::CompareFunctor<lon"
     "g> const&)::{lambda(int)#1})",
     "aten::lt",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* owlv2_h100.json.gz, owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace):"
     ":masked_fill_kernel(at::TensorIterator&, c10::Scalar const&)::{lambda()#1}::operator"
     "()() const::{lambda()#7}::operator()() const::{lambda(float, bool)#1}, std::array<ch"
     "ar*, 3ul> >(int, at::native::(anonymous namespace)::masked_fill_kernel(at::TensorIte"
     "rator&, c10::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#7}::operato"
     "r()() const::{lambda(float, bool)#1}, std::array<char*, 3ul>)",
     "aten::masked_fill_",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctorOnOther_add"
     "<c10::BFloat16>, std::array<char*, 2ul> >(int, at::native::CUDAFunctorOnOther_add<c1"
     "0::BFloat16>, std::array<char*, 2ul>)",
     "aten::sub",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x6_tn_al"
     "ign8>(cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_64x6_tn_align8::Params)",
     "aten::addmm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::n"
     "ative::CUDAFunctor_add<c10::BFloat16> >(at::TensorIteratorBase&, at::native::CUDAFun"
     "ctor_add<c10::BFloat16> const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_n"
     "ocast<at::native::CUDAFunctor_add<c10::BFloat16> >(at::TensorIteratorBase&, at::nati"
     "ve::CUDAFunctor_add<c10::BFloat16> const&)::{lambda(int)#1})",
     "aten::add",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void cublasLt::splitKreduce_kernel<32, 16, int, __nv_bfloat16, __nv_bfloat16, float,"
     " __nv_bfloat16, true, true, false>(cublasLt::cublasSplitKParams<float>, __nv_bfloat1"
     "6 const*, __nv_bfloat16 const*, __nv_bfloat16*, float const*, float const*, __nv_bfl"
     "oat16 const*, __nv_bfloat16 const*, __nv_bfloat16*, void*, long, float*, int*)",
     "aten::addmm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<int, at::native::ArgMaxO"
     "ps<int>, unsigned int, long, 4> >(at::native::ReduceOp<int, at::native::ArgMaxOps<in"
     "t>, unsigned int, long, 4>)",
     "aten::argmax",
     PF_CAT_REDUCTION, PF_CAT_REDUCTION},
    /* owlv2_h100.json.gz, owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::index_elementwise_kernel<128, 4, at::native::gpu_index_kernel<at::n"
     "ative::index_kernel_impl<at::native::OpaqueType<2> >(at::TensorIteratorBase&, c10::A"
     "rrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)#1}>(at::Tenso"
     "rIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>, at::native::index_kernel_i"
     "mpl<at::native::OpaqueType<2> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::A"
     "rrayRef<long>)::{lambda(char*, char const*, long)#1} const&)::{lambda(int)#1}>(long,"
     " at::native::gpu_index_kernel<at::native::index_kernel_impl<at::native::OpaqueType<2"
     "> >(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char"
     "*, char const*, long)#1}>(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRe"
     "f<long>, at::native::index_kernel_impl<at::native::OpaqueType<2> >(at::TensorIterato"
     "rBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char const*, long)"
     "#1} const&)::{lambda(int)#1})",
     "aten::index",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, __nv_bfloat16"
     ", __nv_bfloat16, __nv_bfloat16, float, false, true, true, false, 7, false, cublasGem"
     "vParamsEx<int, cublasGemvTensorStridedBatched<__nv_bfloat16 const>, cublasGemvTensor"
     "StridedBatched<__nv_bfloat16 const>, cublasGemvTensorStridedBatched<__nv_bfloat16>, "
     "float> >(cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<__nv_bfloat16 const>"
     ", cublasGemvTensorStridedBatched<__nv_bfloat16 const>, cublasGemvTensorStridedBatche"
     "d<__nv_bfloat16>, float>)",
     "aten::mm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<c10::BFloat16, at::nativ"
     "e::NormTwoOps<c10::BFloat16, float, c10::BFloat16>, unsigned int, c10::BFloat16, 4> "
     ">(at::native::ReduceOp<c10::BFloat16, at::native::NormTwoOps<c10::BFloat16, float, c"
     "10::BFloat16>, unsigned int, c10::BFloat16, 4>)",
     "aten::linalg_vector_norm",
     PF_CAT_REDUCTION, PF_CAT_REDUCTION},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::exp_kernel_cuda(at::Te"
     "nsorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() con"
     "st::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul> >(int, at::native::exp_kernel_"
     "cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#4}::opera"
     "tor()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>)",
     "aten::exp",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void dot_kernel<float, 128, 0, cublasDotParams<cublasGemvTensorStridedBatched<__nv_b"
     "float16 const>, cublasGemvTensorStridedBatched<float> > >(cublasDotParams<cublasGemv"
     "TensorStridedBatched<__nv_bfloat16 const>, cublasGemvTensorStridedBatched<float> >)",
     "aten::mm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void reduce_1Block_kernel<float, 128, 7, cublasGemvTensorStridedBatched<float>, cubl"
     "asGemvTensorStridedBatched<__nv_bfloat16 const>, cublasGemvTensorStridedBatched<__nv"
     "_bfloat16> >(float const*, float, cublasGemvTensorStridedBatched<float>, int, float "
     "const*, float, cublasGemvTensorStridedBatched<__nv_bfloat16 const>, cublasGemvTensor"
     "StridedBatched<__nv_bfloat16>, cublasPointerMode_t, cublasLtEpilogue_t, cublasGemvTe"
     "nsorStridedBatched<biasType<cublasGemvTensorStridedBatched<__nv_bfloat16>::value_typ"
     "e, float>::type const>)",
     "aten::mm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::n"
     "ative::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary"
     "_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<"
     "c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor"
     "<float> > const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::nati"
     "ve::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_in"
     "ternal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::BinaryFunctor<c10"
     "::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<fl"
     "oat> > const&)::{lambda(int)#1})",
     "aten::mul",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* owlv2_h100.json.gz, owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::compare_scalar_kernel<"
     "long>(at::TensorIteratorBase&, at::native::(anonymous namespace)::OpType, long)::{la"
     "mbda(long)#1}, std::array<char*, 2ul> >(int, at::native::compare_scalar_kernel<long>"
     "(at::TensorIteratorBase&, at::native::(anonymous namespace)::OpType, long)::{lambda("
     "long)#1}, std::array<char*, 2ul>)",
     "aten::gt",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void gemv2T_kernel_val<int, int, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float,"
     " 128, 16, 4, 4, false, false, cublasGemvParamsEx<int, cublasGemvTensorStridedBatched"
     "<__nv_bfloat16 const>, cublasGemvTensorStridedBatched<__nv_bfloat16 const>, cublasGe"
     "mvTensorStridedBatched<__nv_bfloat16>, float> >(cublasGemvParamsEx<int, cublasGemvTe"
     "nsorStridedBatched<__nv_bfloat16 const>, cublasGemvTensorStridedBatched<__nv_bfloat1"
     "6 const>, cublasGemvTensorStridedBatched<__nv_bfloat16>, float>, float, float)",
     "aten::bmm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::n"
     "ative::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() "
     "const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorItera"
     "torBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}"
     "::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1} c"
     "onst&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::direct_"
     "copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda"
     "()#12}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, at::"
     "native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()()"
     " const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1} const&)::{lambd"
     "a(int)#1})",
     "aten::addmm",
     PF_CAT_GEMM, PF_CAT_ELEMENTWISE},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void gemv2T_kernel_val<int, int, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float,"
     " 128, 16, 4, 4, false, false, cublasGemvParamsEx<int, cublasGemvTensorStridedBatched"
     "<__nv_bfloat16 const>, cublasGemvTensorStridedBatched<__nv_bfloat16 const>, cublasGe"
     "mvTensorStridedBatched<__nv_bfloat16>, float> >(cublasGemvParamsEx<int, cublasGemvTe"
     "nsorStridedBatched<__nv_bfloat16 const>, cublasGemvTensorStridedBatched<__nv_bfloat1"
     "6 const>, cublasGemvTensorStridedBatched<__nv_bfloat16>, float>, float, float)",
     "aten::addmm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace):"
     ":elu_kernel(at::TensorIteratorBase&, c10::Scalar const&, c10::Scalar const&, c10::Sc"
     "alar const&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{l"
     "ambda(c10::BFloat16)#1}, std::array<char*, 2ul> >(int, at::native::(anonymous namesp"
     "ace)::elu_kernel(at::TensorIteratorBase&, c10::Scalar const&, c10::Scalar const&, c1"
     "0::Scalar const&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() cons"
     "t::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul>)",
     "aten::elu",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::unrolled_elementwise_kernel<at::native::AUnaryFunctor<long, long, b"
     "ool, at::native::(anonymous namespace)::CompareEqFunctor<long> >, std::array<char*, "
     "2ul>, 4, TrivialOffsetCalculator<1, unsigned int>, TrivialOffsetCalculator<1, unsign"
     "ed int>, at::native::memory::LoadWithCast<1>, at::native::memory::StoreWithCast<1> >"
     "(int, at::native::AUnaryFunctor<long, long, bool, at::native::(anonymous namespace):"
     ":CompareEqFunctor<long> >, std::array<char*, 2ul>, TrivialOffsetCalculator<1, unsign"
     "ed int>, TrivialOffsetCalculator<1, unsigned int>, at::native::memory::LoadWithCast<"
     "1>, at::native::memory::StoreWithCast<1>)",
     "aten::eq",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::n"
     "ative::(anonymous namespace)::where_kernel_impl(at::TensorIterator&)::{lambda()#1}::"
     "operator()() const::{lambda()#12}::operator()() const::{lambda(bool, c10::BFloat16, "
     "c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::(anonymous namespace)::where"
     "_kernel_impl(at::TensorIterator&)::{lambda()#1}::operator()() const::{lambda()#12}::"
     "operator()() const::{lambda(bool, c10::BFloat16, c10::BFloat16)#1} const&)::{lambda("
     "int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::(anonymous namespace)::"
     "where_kernel_impl(at::TensorIterator&)::{lambda()#1}::operator()() const::{lambda()#"
     "12}::operator()() const::{lambda(bool, c10::BFloat16, c10::BFloat16)#1}>(at::TensorI"
     "teratorBase&, at::native::(anonymous namespace)::where_kernel_impl(at::TensorIterato"
     "r&)::{lambda()#1}::operator()() const::{lambda()#12}::operator()() const::{lambda(bo"
     "ol, c10::BFloat16, c10::BFloat16)#1} const&)::{lambda(int)#1})",
     "aten::where",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* owlv2_h100.json.gz */
    {PF_ACT_MEMCPY,
     "Memcpy HtoD (Pageable -> Device)",
     "aten::copy_",
     PF_CAT_MEMCPY, PF_CAT_MEMCPY},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::unrolled_elementwise_kernel<at::native::CUDAFunctor_add<float>, std"
     "::array<char*, 3ul>, 4, TrivialOffsetCalculator<2, unsigned int>, TrivialOffsetCalcu"
     "lator<1, unsigned int>, at::native::memory::LoadWithCast<2>, at::native::memory::Sto"
     "reWithCast<1> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>, Tri"
     "vialOffsetCalculator<2, unsigned int>, TrivialOffsetCalculator<1, unsigned int>, at:"
     ":native::memory::LoadWithCast<2>, at::native::memory::StoreWithCast<1>)",
     "aten::add_",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* owlv2_h100.json.gz */
    {PF_ACT_MEMCPY,
     "Memcpy DtoH (Device -> Pageable)",
     "aten::copy_",
     PF_CAT_MEMCPY, PF_CAT_MEMCPY},
    /* owlv2_h100.json.gz */
    {PF_ACT_MEMSET,
     "Memset (Device)",
     "aten::cudnn_convolution",
     PF_CAT_MEMSET, PF_CAT_MEMSET},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void cutlass__5x_cudnn::Kernel<cutlass_tensorop_bf16_s16816fprop_optimized_bf16_256x"
     "64_32x4_nhwc_align8>(cutlass_tensorop_bf16_s16816fprop_optimized_bf16_256x64_32x4_nh"
     "wc_align8::Params)",
     "aten::cudnn_convolution",
     PF_CAT_CONV, PF_CAT_CONV},
    /* owlv2_h100.json.gz */
    {PF_ACT_KERNEL,
     "void cudnn::engines_precompiled::nhwcToNchwKernel<__nv_bfloat16, __nv_bfloat16, floa"
     "t, true, false, (cudnnKernelDataType_t)0>(cudnn::engines_precompiled::nhwc2nchw_para"
     "ms_t<float>, __nv_bfloat16 const*, __nv_bfloat16*)",
     "aten::cudnn_convolution",
     PF_CAT_CONV, PF_CAT_CONV},
    /* owlv2_mi300.json.gz */
    {PF_ACT_MEMCPY,
     "Memcpy HtoD (Host -> Device)",
     "aten::copy_",
     PF_CAT_MEMCPY, PF_CAT_MEMCPY},
    /* owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "Im2d2Col_v2",
     "aten::miopen_convolution",
     PF_CAT_CONV, PF_CAT_CONV},
    /* owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "Cijk_Ailk_Bljk_BBS_BH_MT64x64x64_MI16x16x16x1_SN_1LDSB0_APM1_ABV0_ACED0_AF0EM1_AF1EM"
     "1_AMAS0_ASE_ASGT_ASLT_ASM_ASAE01_ASCE01_ASEM1_AAC0_BL1_BS1_CLR1_DTLA0_DTLB0_DTVA0_DT"
     "VB0_DVO0_ETSP_EPS1_ELFLR0_EMLL0_FSSC10_FL0_GLVWA2_GLVWB8_GRCGA1_GRCGB1_GRPM1_GRVWn1_"
     "GSU1_GSUASB_GLS0_ISA942_IU1_K1_KLA_LBSPPA1024_LBSPPB128_LPA16_LPB16_LDL1_LRVW8_LWPMn"
     "1_LDW0_FMA_MIAV0_MDA2_MO40_MMFSC_MKFGSU256_NTA0_NTB0_NTC0_NTD0_NEPBS0_NLCA1_NLCB1_ON"
     "LL1_OPLV0_PK0_PAP0_PGR1_PLR5_PKA0_SIA3_SLW1_SS0_SU16_SUM0_SUS512_SCIUI1_SPO0_SRVW0_S"
     "SO0_SVW4_SNLL0_TSGRA0_TSGRB0_TT1_64_TLDS1_UMLDSA0_UMLDSB1_U64SL1_USFGROn1_VAW1_VSn1_"
     "VW1_VWB1_VFLRP1_WSGRA0_WSGRB0_WS64_WG64_4_1_WGMn16",
     "aten::miopen_convolution",
     PF_CAT_CONV, PF_CAT_GEMM},
    /* owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "Cijk_Alik_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT128x160x64_MI16x16x1_SN_LDSB1_AFC1_A"
     "FEM1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMB_GLS0_I"
     "SA942_IU1_K1_LBSPPA512_LBSPPB128_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT4_5"
     "_MO40_NTn1_NTA0_NTB0_NTC0_NTD0_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS"
     "1_SPO0_SRVW0_SSO0_SVW4_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA4_VW"
     "B1_WSGRA0_WSGRB0_WS64_WG32_8_1",
     "aten::addmm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::elementwise_kernel_manual_unroll<128, 8, at::native::gpu_kernel_imp"
     "l_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}:"
     ":operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1}>(a"
     "t::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)"
     "::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::"
     "BFloat16)#1} const&)::{lambda(int, bool)#1}>(int, at::native::gpu_kernel_impl_nocast"
     "<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operato"
     "r()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1}>(at::Tenso"
     "rIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambd"
     "a()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16"
     ")#1} const&)::{lambda(int, bool)#1})",
     "aten::copy_",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "Cijk_Alik_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT256x128x32_MI16x16x1_SN_LDSB1_AFC1_A"
     "FEM1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA2_GRVWB2_GSUAMB_GLS0_I"
     "SA942_IU1_K1_LBSPPA512_LBSPPB256_LBSPPM0_LPA4_LPB4_LPM0_LRVW4_LWPMn1_MIAV0_MIWT8_4_M"
     "O40_NTn1_NTA0_NTB0_NTC0_NTD0_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_"
     "SPO0_SRVW0_SSO0_SVW8_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA8_VWB4"
     "_WSGRA0_WSGRB0_WS64_WG32_8_1",
     "aten::bmm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "Cijk_Ailk_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT64x288x64_MI16x16x1_SN_LDSB1_AFC1_AF"
     "EM1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMB_GLS0_IS"
     "A942_IU1_K1_LBSPPA1024_LBSPPB128_LBSPPM0_LPA32_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT2_9"
     "_MO40_NTn1_NTA0_NTB4_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS"
     "1_SPO0_SRVW0_SSO0_SVW2_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA2_VW"
     "B1_WSGRA0_WSGRB0_WS64_WG32_8_1",
     "aten::bmm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::elementwise_kernel_manual_unroll<128, 8, at::native::gpu_kernel_imp"
     "l_nocast<at::native::(anonymous namespace)::CompareFunctor<long> >(at::TensorIterato"
     "rBase&, at::native::(anonymous namespace)::CompareFunctor<long> const&)::{lambda(int"
     ", bool)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::(anonymous namespace"
     ")::CompareFunctor<long> >(at::TensorIteratorBase&, at::native::(anonymous namespace)"
     "::CompareFunctor<long> const&)::{lambda(int, bool)#1})",
     "aten::lt",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::elementwise_kernel_manual_unroll<128, 8, at::native::gpu_kernel_imp"
     "l_nocast<at::native::CUDAFunctor_add<c10::BFloat16> >(at::TensorIteratorBase&, at::n"
     "ative::CUDAFunctor_add<c10::BFloat16> const&)::{lambda(int, bool)#1}>(int, at::nativ"
     "e::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<c10::BFloat16> >(at::TensorIte"
     "ratorBase&, at::native::CUDAFunctor_add<c10::BFloat16> const&)::{lambda(int, bool)#1"
     "})",
     "aten::add",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "Cijk_Alik_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT16x16x256_MI16x16x1_SN_LDSB1_AFC1_AF"
     "EM1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMBSK_GLS0_"
     "ISA942_IU1_K1_LBSPPA512_LBSPPB512_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT1_"
     "1_MO40_NTn1_NTA4_NTB0_NTC0_NTD0_NTM0_NEPBS0_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS"
     "1_SPO0_SRVW0_SSO0_SVW1_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA1_VW"
     "B1_WSGRA0_WSGRB0_WS64_WG16_4_4",
     "aten::mm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::elementwise_kernel_manual_unroll<128, 8, at::native::gpu_kernel_imp"
     "l_nocast<at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::"
     "native::binary_internal::DivFunctor<c10::BFloat16> > >(at::TensorIteratorBase&, at::"
     "native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binar"
     "y_internal::DivFunctor<c10::BFloat16> > const&)::{lambda(int, bool)#1}>(int, at::nat"
     "ive::gpu_kernel_impl_nocast<at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, "
     "c10::BFloat16, at::native::binary_internal::DivFunctor<c10::BFloat16> > >(at::Tensor"
     "IteratorBase&, at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16"
     ", at::native::binary_internal::DivFunctor<c10::BFloat16> > const&)::{lambda(int, boo"
     "l)#1})",
     "aten::div",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "Cijk_Ailk_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT16x16x32_MI16x16x1_SN_LDSB0_AFC1_AFE"
     "M1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA1_GRVWB4_GSUAMB_GLS0_ISA"
     "942_IU1_K1_LBSPPA128_LBSPPB128_LBSPPM0_LPA16_LPB4_LPM0_LRVW4_LWPMn1_MIAV0_MIWT1_1_MO"
     "40_NTn1_NTA4_NTB4_NTC0_NTD0_NTM0_NEPBS0_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS0_SP"
     "O0_SRVW0_SSO0_SVW4_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA1_VWB1_W"
     "SGRA0_WSGRB0_WS64_WG16_4_1",
     "aten::mm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::elementwise_kernel_manual_unroll<128, 8, at::native::gpu_kernel_imp"
     "l_nocast<at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::"
     "native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::native::"
     "BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_intern"
     "al::MulFunctor<float> > const&)::{lambda(int, bool)#1}>(int, at::native::gpu_kernel_"
     "impl_nocast<at::native::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, a"
     "t::native::binary_internal::MulFunctor<float> > >(at::TensorIteratorBase&, at::nativ"
     "e::BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::binary_int"
     "ernal::MulFunctor<float> > const&)::{lambda(int, bool)#1})",
     "aten::mul",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "Cijk_Alik_Bjlk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT64x16x128_MI16x16x1_SN_LDSB1_AFC1_AF"
     "EM1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB1_GSUAMB_GLS0_IS"
     "A942_IU1_K1_LBSPPA256_LBSPPB256_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT1_1_"
     "MO40_NTn1_NTA0_NTB0_NTC0_NTD0_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1"
     "_SPO0_SRVW0_SSO0_SVW1_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA1_VWB"
     "1_WSGRA0_WSGRB0_WS64_WG64_4_1",
     "aten::bmm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::elementwise_kernel_manual_unroll<128, 8, at::native::gpu_kernel_imp"
     "l_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}:"
     ":operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1}>(a"
     "t::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)"
     "::{lambda()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::"
     "BFloat16)#1} const&)::{lambda(int, bool)#1}>(int, at::native::gpu_kernel_impl_nocast"
     "<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operato"
     "r()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16)#1}>(at::Tenso"
     "rIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambd"
     "a()#3}::operator()() const::{lambda()#12}::operator()() const::{lambda(c10::BFloat16"
     ")#1} const&)::{lambda(int, bool)#1})",
     "aten::addmm",
     PF_CAT_GEMM, PF_CAT_ELEMENTWISE},
    /* owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "Cijk_Ailk_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT16x16x32_MI16x16x1_SN_LDSB0_AFC1_AFE"
     "M1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA1_GRVWB4_GSUAMB_GLS0_ISA"
     "942_IU1_K1_LBSPPA128_LBSPPB128_LBSPPM0_LPA16_LPB4_LPM0_LRVW4_LWPMn1_MIAV0_MIWT1_1_MO"
     "40_NTn1_NTA4_NTB4_NTC0_NTD0_NTM0_NEPBS0_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS0_SP"
     "O0_SRVW0_SSO0_SVW4_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA1_VWB1_W"
     "SGRA0_WSGRB0_WS64_WG16_4_1",
     "aten::addmm",
     PF_CAT_GEMM, PF_CAT_GEMM},
    /* owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::elementwise_kernel<512, 1, at::native::gpu_kernel_impl<at::native::"
     "AUnaryFunctor<long, long, bool, at::native::(anonymous namespace)::CompareEqFunctor<"
     "long> > >(at::TensorIteratorBase&, at::native::AUnaryFunctor<long, long, bool, at::n"
     "ative::(anonymous namespace)::CompareEqFunctor<long> > const&)::{lambda(int)#1}>(int"
     ", at::native::gpu_kernel_impl<at::native::AUnaryFunctor<long, long, bool, at::native"
     "::(anonymous namespace)::CompareEqFunctor<long> > >(at::TensorIteratorBase&, at::nat"
     "ive::AUnaryFunctor<long, long, bool, at::native::(anonymous namespace)::CompareEqFun"
     "ctor<long> > const&)::{lambda(int)#1})",
     "aten::eq",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* owlv2_mi300.json.gz */
    {PF_ACT_KERNEL,
     "void at::native::elementwise_kernel_manual_unroll<128, 8, at::native::gpu_kernel_imp"
     "l_nocast<at::native::(anonymous namespace)::where_kernel_impl(at::TensorIterator&)::"
     "{lambda()#1}::operator()() const::{lambda()#3}::operator()() const::{lambda(bool, c1"
     "0::BFloat16, c10::BFloat16)#1}>(at::TensorIteratorBase&, at::native::(anonymous name"
     "space)::where_kernel_impl(at::TensorIterator&)::{lambda()#1}::operator()() const::{l"
     "ambda()#3}::operator()() const::{lambda(bool, c10::BFloat16, c10::BFloat16)#1} const"
     "&)::{lambda(int, bool)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::(anon"
     "ymous namespace)::where_kernel_impl(at::TensorIterator&)::{lambda()#1}::operator()()"
     " const::{lambda()#3}::operator()() const::{lambda(bool, c10::BFloat16, c10::BFloat16"
     ")#1}>(at::TensorIteratorBase&, at::native::(anonymous namespace)::where_kernel_impl("
     "at::TensorIterator&)::{lambda()#1}::operator()() const::{lambda()#3}::operator()() c"
     "onst::{lambda(bool, c10::BFloat16, c10::BFloat16)#1} const&)::{lambda(int, bool)#1})",
     "aten::where",
     PF_CAT_ELEMENTWISE, PF_CAT_ELEMENTWISE},
    /* owlv2_mi300.json.gz */
    {PF_ACT_MEMCPY,
     "Memcpy DtoH (Device -> Host)",
     "aten::copy_",
     PF_CAT_MEMCPY, PF_CAT_MEMCPY},
};

static void test_real_names(void)
{
    size_t n = sizeof real_cases / sizeof real_cases[0];
    for (size_t i = 0; i < n; i++) {
        const real_case *c = &real_cases[i];
        expect("trace, with op", c->kind, c->name, c->op, c->with_op);
        expect("trace, name alone", c->kind, c->name, NULL, c->alone);
    }
}

/* (b) The Triton kernels of compiled_module_profile_0.json, in the category Inductor's own
 * report (testdata/reference/compiled_module_profile_0.inductor_report.txt) gives them. In the
 * trace each is launched by a cpu_op of its own name. */
static void test_inductor_kernels(void)
{
    static const struct {
        const char *name;
        pf_category cat;
    } k[] = {
        {"triton_poi_fused_gelu_view_2", PF_CAT_TRITON_POINTWISE},
        {"triton_per_fused__softmax_add_exp_mul_native_layer_norm_prepare_softmax_online_sub_view_3",
         PF_CAT_TRITON_PERSISTENT_REDUCTION},
        {"triton_per_fused__softmax_add_exp_mul_native_layer_norm_sub_view_4",
         PF_CAT_TRITON_PERSISTENT_REDUCTION},
        {"triton_per_fused__softmax_add_exp_mul_prepare_softmax_online_sub_view_5",
         PF_CAT_TRITON_PERSISTENT_REDUCTION},
        {"triton_per_fused_add_native_layer_norm_view_1", PF_CAT_TRITON_PERSISTENT_REDUCTION},
        {"triton_per_fused_native_layer_norm_0", PF_CAT_TRITON_PERSISTENT_REDUCTION},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        expect("inductor", PF_ACT_KERNEL, k[i].name, k[i].name, k[i].cat);
        expect("inductor, unlinked", PF_ACT_KERNEL, k[i].name, NULL, k[i].cat);
    }
}

/* Reads "  == NAME category kernels == " headers; returns 1 and copies NAME into cat. */
static int report_section(const char *line, char *cat, size_t size)
{
    const char *start = strstr(line, "== ");
    const char *end = strstr(line, " category kernels ==");
    size_t n;
    if (!start || !end || end < start + 3)
        return 0;
    n = (size_t)(end - (start + 3));
    if (n + 1 > size)
        return 0;
    memcpy(cat, start + 3, n);
    cat[n] = '\0';
    return 1;
}

/* (b) again, straight from the report file, so a new report row cannot go unchecked: each
 * Triton row must be in the report's category; each row of Inductor's "unknown" (library
 * kernels) must not be in a Triton one. Run from the repository root (tests/run.sh does). */
static void test_inductor_report(void)
{
    const char *path = "testdata/reference/compiled_module_profile_0.inductor_report.txt";
    FILE *f = fopen(path, "r");
    char line[4096], cat[64] = "", name[1024];
    int triton_rows = 0, library_rows = 0;
    CHECK("inductor report opens", f != NULL);
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        if (report_section(line, cat, sizeof cat) || cat[0] == '\0')
            continue;
        if (sscanf(line, "%1023s", name) != 1 || strcmp(name, "Total") == 0) {
            cat[0] = '\0';    /* a section ends at its Total row */
            continue;
        }
        if (strcmp(name, "Kernel") == 0 || name[0] == '-')
            continue;          /* column titles and rule */
        if (strncmp(name, "triton_", 7) == 0) {
            CHECK_STR(name, pf_category_name(pf_category_of(PF_ACT_KERNEL, name, name)), cat);
            triton_rows++;
        } else if (strcmp(cat, "unknown") == 0) {
            CHECK(name, pf_category_of(PF_ACT_KERNEL, name, NULL) >= PF_CAT_GEMM);
            library_rows++;
        }
    }
    fclose(f);
    CHECK("inductor report: all 6 Triton rows seen", triton_rows == 6);
    CHECK("inductor report: 3 library rows seen", library_rows == 3);
}

/* (c) Public names beyond the test traces, each with where it came from. */
static void test_public_names(void)
{
    /* amd/HPCTrainingExamples MLExamples/PyTorch_Profiling/rocprofv3/README.md: rocprofv3
     * kernel statistics of a PyTorch ResNet training run on AMD Instinct GPUs. */
    expect("rocprofv3 resnet", PF_ACT_KERNEL,
           "rccl_main_kernel(ncclDevComm*, unsigned long, ncclWork*)", NULL,
           PF_CAT_COMMUNICATION);
    expect("rocprofv3 resnet", PF_ACT_KERNEL, "__amd_rocclr_copyBuffer", NULL, PF_CAT_MEMCPY);
    /* ROCm's blit copy is a copy even when aten::copy_ launches it. */
    expect("rocprofv3 resnet", PF_ACT_KERNEL, "__amd_rocclr_copyBuffer", "aten::copy_",
           PF_CAT_MEMCPY);
    expect("rocprofv3 resnet", PF_ACT_KERNEL, "MIOpenBatchNormBwdSpatial", NULL,
           PF_CAT_NORMALIZATION);
    expect("rocprofv3 resnet", PF_ACT_KERNEL, "MIOpenBatchNormFwdTrainSpatial", NULL,
           PF_CAT_NORMALIZATION);
    expect("rocprofv3 resnet", PF_ACT_KERNEL, "SubTensorOpWithScalar1d", NULL,
           PF_CAT_ELEMENTWISE);
    expect("rocprofv3 resnet", PF_ACT_KERNEL,
           "igemm_fwd_gtcx3_nhwc_fp16_bx0_ex0_bt128x128x32_wt32x32x8_ws1x1_wr2x2_ta1x8x2x1_"
           "1x4x1x64_tb1x8x2x1_1x4x1x64_gkgs",
           NULL, PF_CAT_CONV);
    expect("rocprofv3 resnet", PF_ACT_KERNEL,
           "igemm_wrw_gtcx3_nhwc_fp16_bx0_ex1_bt256x256x32_wt32x32x8_ws2x2_wr2x2_ta1x4x1x8_"
           "1x8x1x32_tb1x4x1x8_1x8x1x32_gkgs",
           NULL, PF_CAT_CONV);
    expect("rocprofv3 resnet", PF_ACT_KERNEL,
           "igemm_bwd_gtcx3_nhwc_fp16_bx0_ex0_bt128x128x32_wt32x32x8_ws1x1_wr2x2_ta1x8x2x1_"
           "1x4x1x64_tb1x8x1x2_1x4x1x64_gkgs",
           NULL, PF_CAT_CONV);
    expect("rocprofv3 resnet", PF_ACT_KERNEL,
           "void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float, "
           "float, float, at::native::binary_internal::MulFunctor<float> >, "
           "at::detail::Array<char*, 2> >(int, at::native::AUnaryFunctor<float, float, float, "
           "at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 2>)",
           NULL, PF_CAT_ELEMENTWISE);

    /* AMD-AGI/TraceLens tests/test_kernel_name_parser.py: names copied verbatim from MI300
     * (Tensile, iGEMM, CK, Triton), H100 (cuBLAS, cuDNN) and B200 (nvjet) traces. */
    expect("TraceLens MI300 Tensile", PF_ACT_KERNEL,
           "Cijk_Alik_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT256x128x64_MI16x16x1_SN_LDSB1_"
           "AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_"
           "GSUAMB_GLS0_ISA942_IU1_K1_LBSPPA1024_LBSPPB512_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_"
           "LWPMn1_MIAV0_MIWT8_4_MO40_NTn1_NTA0_NTB0_NTC0_NTD0_NTM0_NEPBS16_NLCA1_NLCB1_"
           "ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW8_SK0_SKXCCM0_TLDS1_ULSGRO0_"
           "USL1_UIOFGRO0_USFGROn1_VSn1_VWA8_VWB4_WSGRA0_WSGRB0_WS64_WG32_8_1",
           NULL, PF_CAT_GEMM);
    expect("TraceLens MI300 iGEMM", PF_ACT_KERNEL,
           "igemm_wrw_gtcx3_nhwc_bf16_bx0_ex1_bt64x32x32_wt16x16x16_ws1x1_wr2x1"
           "_ta1x4x1x2_1x8x1x32_tb1x4x1x1_1x8x1x32_vs1_gkgs",
           NULL, PF_CAT_CONV);
    expect("TraceLens MI300 iGEMM", PF_ACT_KERNEL,
           "igemm_fwd_gtcx3_nhwc_bf16_bx0_ex1_bt256x64x8_wt64x16x4_ws1x1_wr2x2"
           "_ta1x1x8x1_1x8x1x32_tb1x1x2x1_1x8x1x32_me",
           NULL, PF_CAT_CONV);
    expect("TraceLens H100 cuDNN", PF_ACT_KERNEL,
           "sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc"
           "_tilesize128x128x64_warpgroupsize1x1x1_g1"
           "_execute_segment_k_off_kernel__5x_cudnn",
           NULL, PF_CAT_CONV);
    expect("TraceLens H100 cuBLAS", PF_ACT_KERNEL,
           "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n"
           "_tilesize256x128x64_warpgroupsize2x1x1"
           "_execute_segment_k_off_kernel__5x_cublas",
           NULL, PF_CAT_GEMM);
    expect("TraceLens B200 nvjet", PF_ACT_KERNEL, "nvjet_tst_64x64_64x16_2x1_2cta_v_bz_bias_TNT",
           NULL, PF_CAT_GEMM);
    expect("TraceLens MI300 CK", PF_ACT_KERNEL,
           "void ck::kernel_gemm_xdl_cshuffle_v3<ck::GridwiseGemmMultiD_ABScale_xdl_cshuffle_v3<"
           "ck::tensor_layout::gemm::RowMajor, ck::tensor_layout::gemm::ColumnMajor, "
           "ck::Tuple<>, ck::tensor_layout::gemm::RowMajor, ck::f8_fnuz_t, ck::f8_fnuz_t, "
           "float, float, ck::Tuple<>, unsigned short, "
           "ck::tensor_operation::element_wise::PassThrough, "
           "ck::tensor_operation::element_wise::PassThrough, "
           "ck::tensor_operation::element_wise::PassThrough, "
           "(ck::tensor_operation::device::GemmSpecialization)0, "
           "256, 1, 128, 128, 16, 128, 256, 16, 16, 16, 16, 1, 2, "
           "ck::Sequence<16, 16, 1>, ck::Sequence<1, 0, 2>, ck::Sequence<1, 0, 2>, "
           "2, 16, 16, false, 0, ck::Sequence<16, 16, 1>, ck::Sequence<1, 0, 2>, "
           "ck::Sequence<1, 0, 2>, 2, 16, 16, false, 0, 1, 2, "
           "ck::Sequence<1, 16, 1, 16>, ck::Sequence<8>, "
           "(ck::BlockGemmPipelineScheduler)0, (ck::BlockGemmPipelineVersion)0, "
           "ck::f8_fnuz_t, ck::f8_fnuz_t, ck::f8_fnuz_t, ck::f8_fnuz_t>, "
           "true, (ck::InMemoryDataOperationEnum)0, 2, (ck::TailNumber)10>",
           NULL, PF_CAT_GEMM);
    /* The MoE one: its first 56 characters only. */
    expect("TraceLens MI300 CK MoE", PF_ACT_KERNEL,
           "void ck::kernel_moe_gemm<ck::GridwiseMoeGemmBlockScale<", NULL, PF_CAT_GEMM);
    /* A CK grouped-convolution kernel, mangled as rocprof leaves it: it names GridwiseGemm
     * too, and must still be conv. */
    expect("TraceLens MI300 CK conv", PF_ACT_KERNEL,
           "_ZN2ck16tensor_operation6device12_GLOBAL__N_139kernel_grouped_conv_fwd_xdl_cshuffle_"
           "v3INS_28GridwiseGemm_xdl_cshuffle_v3INS_13tensor_layout4gemm8RowMajorENS6_11ColumnMa"
           "jorES7_ttfttNS0_12element_wise11PassThroughESA_SA_LNS1_18GemmSpecializationE7ELi128E"
           "Li16ELi32ELi64ELi8ELi8ELi16ELi16ELi1ELi1ENS_8SequenceIJLi8ELi16ELi1EEEENSC_IJLi1ELi0"
           "ELi2EEEESE_Li2ELi8ELi8ELb0ELi0ESD_SE_SE_Li2ELi8ELi8ELb0ELi0ELi1ELi1ENSC_IJLi1ELi16EL"
           "i1ELi8EEEELi4ELNS_26BlockGemmPipelineSchedulerE1ELNS_24BlockGemmPipelineVersionE0Ett"
           "Lb0ELb0EEENS_16TensorDescriptorINS_5TupleIJNS_5EmbedINSK_IJiiiiEEESM_Lb0EEENS_11Pass"
           "ThroughIiEENS_3PadIiiiLb0EEESR_SP_SP_NSL_INSK_IJiiEEESS_Lb0EEEST_SP_NS_23Merge_v2_ma"
           "gic_divisionINSK_IJiiiEEEEESW_NS_8RightPadIiiLb0EEESY_NS_7UnMergeISS_Lb0EEESP_EEENSK"
           "_IJNSC_IJLi0EEEENSC_IJLi1EEEENSC_IJLi2EEEENSC_IJLi3EEEENSC_IJLi4EEEENSC_IJLi5EEEENSC"
           "_IJLi6EEEENSC_IJLi7EEEENSC_IJLi8EEEENSC_IJLi9ELi11ELi13EEEENSC_IJLi10ELi12ELi14EEEEN"
           "SC_IJLi15EEEENSC_IJLi16EEEENSC_IJLi18EEEENSC_IJLi17EEEEEEENSK_IJNSC_IJLi1ELi2ELi3ELi"
           "4EEEES17_S18_S19_S1A_NSC_IJLi9EEEENSC_IJLi10ELi11EEEENSC_IJLi12ELi13EEEENSC_IJLi14EE"
           "EES1D_S1E_S1G_S1F_NSC_IJLi19ELi20EEEENSC_IJLi21EEEEEEENSC_IJLi19ELi21ELi20EEEElEENSJ"
           "_INSK_IJS10_SY_SY_S10_SP_EEENSK_IJS12_S13_S14_S16_S15_EEENSK_IJNSC_IJLi1ELi2EEEES15_"
           "S16_NSC_IJLi5ELi6EEEES19_EEENSC_IJLi5ELi7ELi6EEEElEENSJ_INSK_IJST_SY_SY_NSZ_INSK_IJi"
           "NS_17integral_constantIiLi16EEEEEELb0EEENSZ_INSK_IJiNS1Z_IiLi32EEEEEELb0EEEEEENSK_IJ"
           "S12_S13_S14_S15_S16_EEENSK_IJS1U_S15_S16_S1V_NSC_IJLi7ELi8EEEEEEENSC_IJLi5ELi6ELi7EL"
           "i8EEEElEENS1_30ComputePtrOffsetOfStridedBatchILi1ELi1ELi0EvEELb1ELNS_25InMemoryDataO"
           "perationEnumE0ELi2ELNS_10TailNumberE10EEEvNT_8ArgumentET0_T1_T2_T3_S2L_i",
           NULL, PF_CAT_CONV);
    /* CK's convolution weight gradient is a "batched gemm" kernel; its first 103 characters. */
    expect("TraceLens MI300 CK conv bwd", PF_ACT_KERNEL,
           "_ZN2ck16tensor_operation6device37kernel_batched_gemm_xdlops_bwd_weight"
           "INS_47GridwiseGemm_bk0mk1_bk0nk1",
           NULL, PF_CAT_CONV);
    expect("TraceLens MI300 Triton GEMM", PF_ACT_KERNEL,
           "_gemm_a8w8_blockscale_kernel_GROUP_K_128_GROUP_N_128"
           "_BLOCK_SIZE_M_128_BLOCK_SIZE_N_128_BLOCK_SIZE_K_128"
           "_GROUP_SIZE_M_1_NUM_KSPLIT_1_SPLITK_BLOCK_SIZE_7168"
           "_EVEN_K_1_GRID_MN_17_cache_modifier_CG",
           NULL, PF_CAT_GEMM);

    /* ROCm/hipBLASLt tensilelite/Tensile/CustomKernels/: hand-tuned kernels, named as their
     * files are, with a prefix before "Cijk_". */
    expect("hipBLASLt custom", PF_ACT_KERNEL,
           "CustomGSUs_Cijk_Ailk_Bljk_HHS_BH_MT32x16x16_MI16x16x1_prefetch", NULL, PF_CAT_GEMM);
    expect("hipBLASLt custom", PF_ACT_KERNEL,
           "Custom_Cijk_Ailk_Bljk_BBS_BH_Bias_HA_S_SAV_NTD_SK3_UserArgs_MT256x256x64_MI16x16x1_"
           "shortname0_gfx950",
           NULL, PF_CAT_GEMM);
    /* aazz44ss/Tensile Tensile/ReplacementKernels/Cijk_Alik_Bljk_HBH_MT128x256x32_SE_K1.s.txt */
    expect("Tensile", PF_ACT_KERNEL, "Cijk_Alik_Bljk_HBH_MT128x256x32_SE_K1", NULL, PF_CAT_GEMM);
    /* ROCm/MISA test/fwd_cnhwc_test/kernel/igemm_fwd_cnhwc_gfx908_fp16.asm (.name) */
    expect("MISA", PF_ACT_KERNEL, "igemm_fwd_gtcx_cnhwc_fp16_ex0_bt256x128x32_wt32x32x8_ws2x1_wr2x2",
           NULL, PF_CAT_CONV);
    /* ROCm/MIOpen src/solver/conv/conv_direct_naive_conv.cpp (ConvDirectNaiveConvKernelName,
     * forward NCHW fp32) */
    expect("MIOpen naive", PF_ACT_KERNEL, "naive_conv_ab_nonpacked_fwd_nchw_float_double_float",
           NULL, PF_CAT_CONV);
    /* ROCm/MIOpen src/solver/conv/conv_bin_wino3x3U.cpp (kernel.kernel_name) */
    expect("MIOpen winograd", PF_ACT_KERNEL, "miopenSp3AsmConv3x3F", NULL, PF_CAT_CONV);
    /* ROCm/MIOpen src/solver/batchnorm/forward_spatial.cpp (kernel_name + "FinalMeanVariance") */
    expect("MIOpen batchnorm", PF_ACT_KERNEL, "MIOpenBatchNormFwdTrainSpatialFinalMeanVariance",
           NULL, PF_CAT_NORMALIZATION);
    /* zy-uestc/yccl nccl/build/obj/device/gensrc/reduce_sum_f32.cu:
     * DEFINE_ncclDevKernel(Reduce_Sum_f32_RING_LL, ...) - a collective, though it says Reduce. */
    expect("NCCL", PF_ACT_KERNEL, "ncclDevKernel_Reduce_Sum_f32_RING_LL", NULL,
           PF_CAT_COMMUNICATION);
    /* yuankaichen-amd/aiter hsa/gfx950/fmha_v3_bwd/codegen.py (bwd_v3_name) */
    expect("aiter", PF_ACT_KERNEL, "fmha_bwd_hd128_bf16_causal_a32_rtne", NULL, PF_CAT_ATTENTION);
    /* sunxxuns/aiter hsa/gfx950/fmha_v3_fwd_fp8/fwd_hd128_fp8_clean.s (.globl, mangled) */
    expect("aiter", PF_ACT_KERNEL, "_ZN5aiter18fmha_fwd_hd128_fp8E", NULL, PF_CAT_ATTENTION);
    /* ROCm/composable_kernel include/ck_tile/ops/fmha/kernel/fmha_bwd_kernel.hpp declares
     * ck_tile::FmhaBwdDQDKDVKernel; PyTorch's profiler table shows it launched through
     * ck_tile::kentry (this is the start of that name). */
    expect("CK tile fmha", PF_ACT_KERNEL, "void ck_tile::kentry<256, 1, ck_tile::FmhaBwdDQDKDVKernel<",
           NULL, PF_CAT_ATTENTION);
}

/* The order the brief asks for, on real names from the test traces. */
/* Kernels of 2026 serving stacks. "b200" and "sglang": the names (and their launching ops) of
 * testdata/public/tracelens/b200_vllm_eager.json.gz and mi300_sglang_qwen3_prefilldecode.json.gz
 * (../shared/testdata/public/). The others are names printed in public profiling reports
 * and benchmark logs on GitHub (vLLM/SGLang all-reduce comparisons, SGLang B200 GEMM
 * tables, SageAttention kernel classifications). */
static void test_2026_names(void)
{
    /* TRT-LLM MoE GEMMs launched by vllm::moe_forward: block-scaled fp8/fp4 and bf16 x fp4 */
    expect("b200", PF_ACT_KERNEL,
           "bmm_MxE4m3_MxE2m1MxE4m3_Fp32_t128x16x256u2_s3_et128x16_m128x16x32_cga1x1x1_16dp256b_rM_TN_"
           "transOut_schedP2x1x2x3_biasM_bN_tma_tmaOpt_clmp_swiGlu_dynBatch_sm100f",
           "vllm::moe_forward", PF_CAT_GEMM);
    expect("b200", PF_ACT_KERNEL,
           "bmm_Bfloat16_MxE2m1MxE4m3_Fp32_t128x16x256u2_s3_et128x16_m128x16x32_cga1x1x1_16dp256b_rM_TN_"
           "transOut_schedP2x1x2x3_biasM_bN_tmaOpt_clmp_dynBatch_sm100f",
           "vllm::moe_forward", PF_CAT_GEMM);
    /* CUTLASS 3 SM100 GEMMs (SGLang fp8_scaled_mm on B200; a block-scaled o_proj) */
    expect("report", PF_ACT_KERNEL,
           "cutlass3x_sm100_simt_sgemm_f32_f32_f32_f32_f32_64x128x16_1x1x1_3_tnn_align1_bias_f32_relu", NULL,
           PF_CAT_GEMM);
    expect("report", PF_ACT_KERNEL, "cutlass3x_sm100_bstensorop_s256x128x64gemm_block_scaled_ue4m3xf4_ue4m3",
           NULL, PF_CAT_GEMM);
    /* all-reduces: symmetric memory (its op and its kernel), one-/two-shot, custom */
    expect("b200", PF_ACT_KERNEL,
           "void (anonymous namespace)::multimem_all_reduce_kernel<c10::BFloat16, 16>(c10::BFloat16*, "
           "unsigned long, unsigned int**, unsigned long, unsigned long)",
           "symm_mem::multimem_all_reduce_", PF_CAT_COMMUNICATION);
    expect("b200 kernel alone", PF_ACT_KERNEL,
           "void (anonymous namespace)::multimem_all_reduce_kernel<c10::BFloat16, 16>(c10::BFloat16*, "
           "unsigned long, unsigned int**, unsigned long, unsigned long)",
           NULL, PF_CAT_COMMUNICATION);
    expect("report", PF_ACT_KERNEL,
           "void (anonymous namespace)::two_shot_all_reduce_kernel_inplace<c10::BFloat16, 16, 2>(c10::BFloat16**, "
           "unsigned long, unsigned long, unsigned int**, unsigned long, unsigned long)",
           NULL, PF_CAT_COMMUNICATION);
    expect("report", PF_ACT_KERNEL, "one_shot_all_reduce_kernel", NULL, PF_CAT_COMMUNICATION);
    expect("report", PF_ACT_KERNEL,
           "void sglang::cross_device_reduce_1stage<__half, 8>(sglang::RankData*, sglang::RankSignals, "
           "sglang::Signal*, __half*, int, int)",
           NULL, PF_CAT_COMMUNICATION);
    expect("report", PF_ACT_KERNEL, "cross_device_reduce_2stage", NULL, PF_CAT_COMMUNICATION);
    /* KV-cache stores are copies, not attention */
    expect("b200", PF_ACT_KERNEL,
           "void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, unsigned char, (vllm::Fp8KVCacheDataType)1>"
           "(__nv_bfloat16 const*, __nv_bfloat16 const*, unsigned char*, unsigned char*, long const*, long, long, "
           "long, long, long, int, int, int, float const*, float const*)",
           "_C_cache_ops::reshape_and_cache_flash", PF_CAT_ELEMENTWISE);
    expect("b200 kernel alone", PF_ACT_KERNEL,
           "void vllm::reshape_and_cache_flash_kernel<__nv_bfloat16, unsigned char, (vllm::Fp8KVCacheDataType)1>"
           "(__nv_bfloat16 const*, __nv_bfloat16 const*, unsigned char*, unsigned char*, long const*, long, long, "
           "long, long, long, int, int, int, float const*, float const*)",
           NULL, PF_CAT_ELEMENTWISE);
    expect("sglang", PF_ACT_KERNEL,
           "void (anonymous namespace)::store_kvcache<2048l, 4, false, long>((anonymous namespace)::StoreKVCacheParams)",
           "sglang::store_cache", PF_CAT_ELEMENTWISE);
    expect("sglang kernel alone", PF_ACT_KERNEL,
           "void (anonymous namespace)::store_kvcache<2048l, 4, false, long>((anonymous namespace)::StoreKVCacheParams)",
           NULL, PF_CAT_ELEMENTWISE);
    /* a quantisation kernel whose argument type says "flashinfer" is no attention */
    expect("b200", PF_ACT_KERNEL,
           "void tensorrt_llm::kernels::quantize_with_block_size<(tensorrt_llm::BlockScaleQuantizationType)2, "
           "__nv_bfloat16, 32, true>(int, int, int, int, __nv_bfloat16 const*, float const*, unsigned int*, "
           "unsigned int*, flashinfer::QuantizationSFLayout)",
           "vllm::moe_forward", PF_CAT_ELEMENTWISE);
    /* attention stays attention: the B200 paged fmha, SGLang's batch prefill */
    expect("b200", PF_ACT_KERNEL,
           "fmhaSm100aKernel_QkvE4m3OBfloat16H64PagedKvCausalP16VarSeqQ128Kv128PersistentContext",
           "vllm::unified_attention_with_output", PF_CAT_ATTENTION);
    /* SageAttention */
    expect("report", PF_ACT_KERNEL, "void qk_int_sv_f8_attn_kernel<128u, 64u, 32u, 64u, 128u, (DataType)1>", NULL,
           PF_CAT_ATTENTION);
    expect("report", PF_ACT_KERNEL, "sageattention_sm89::qk_int_sv_f8_attn_kernel<128,64,32,64,128>", NULL,
           PF_CAT_ATTENTION);
    expect("report", PF_ACT_KERNEL, "sage_attn_fwd_kernel", NULL, PF_CAT_ATTENTION);
    /* "sage_" only as a prefix: a word ending in "sage" is no attention */
    expect("prefix only", PF_ACT_KERNEL, "message_passing_kernel", NULL, PF_CAT_OTHER);
}

static void test_order(void)
{
    const char *split_k = "void cublasLt::splitKreduce_kernel<32, 16, int, float, float, float, "
                          "float, false, float, float, float, true, false, false, false>";
    const char *nvjet = "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT";
    const char *copy_kernel = "void at::native::elementwise_kernel<128, 4, "
                              "at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda";
    /* Kind first, whatever the op or the name. */
    expect("kind", PF_ACT_MEMSET, "Memset (Device)", "aten::addmm", PF_CAT_MEMSET);
    expect("kind", PF_ACT_MEMSET, "Memset (Device)", "triton_poi_fused_gelu_view_2", PF_CAT_MEMSET);
    expect("kind", PF_ACT_MEMCPY, "Memcpy DtoD (Device -> Device)", "aten::copy_", PF_CAT_MEMCPY);
    expect("kind", PF_ACT_MEMCPY, NULL, NULL, PF_CAT_MEMCPY);
    expect("kind", PF_ACT_MEMSET, NULL, NULL, PF_CAT_MEMSET);
    /* Triton before the op family: a template kernel under aten::mm stays Triton. */
    expect("triton", PF_ACT_KERNEL, "triton_tem_fused_mm_0", "aten::mm", PF_CAT_TRITON_TEMPLATE);
    expect("triton", PF_ACT_KERNEL, "triton_for_fused_0", NULL, PF_CAT_TRITON_FOREACH);
    expect("triton", PF_ACT_KERNEL, "triton_", NULL, PF_CAT_TRITON_OTHER);
    expect("triton", PF_ACT_KERNEL, NULL, "triton_red_fused_sum_view_1", PF_CAT_TRITON_REDUCTION);
    /* Inductor without unique names: the op keeps the kind that the kernel name lost. */
    expect("triton", PF_ACT_KERNEL, "triton_", "triton_per_fused_sum_view_2",
           PF_CAT_TRITON_PERSISTENT_REDUCTION);
    expect("triton prefix is case-sensitive", PF_ACT_KERNEL, "TRITON_POI_x", NULL, PF_CAT_OTHER);
    /* The op family before the kernel name. */
    expect("op first", PF_ACT_KERNEL, split_k, "aten::addmm", PF_CAT_GEMM);
    expect("op first", PF_ACT_KERNEL, copy_kernel, "aten::addmm", PF_CAT_GEMM);
    expect("op first", PF_ACT_KERNEL, copy_kernel, "aten::copy_", PF_CAT_ELEMENTWISE);
    expect("op first", PF_ACT_KERNEL, "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_128x64_16x6_nn_align4>",
           "aten::cudnn_convolution", PF_CAT_CONV);
    expect("op first", PF_ACT_KERNEL, "void cudnn::fusion::convert_dq_to_16bits<true>",
           "aten::_cudnn_attention_backward", PF_CAT_ATTENTION);
    /* In-place variants are the same op; a longer name is not. */
    expect("in-place op", PF_ACT_KERNEL, "k", "aten::add_", PF_CAT_ELEMENTWISE);
    expect("in-place op", PF_ACT_KERNEL, "k", "aten::addmv_", PF_CAT_GEMM);
    expect("longer op", PF_ACT_KERNEL, "k", "aten::add__", PF_CAT_OTHER);
    /* Autograd wrappers launch nothing themselves: the kernel name decides. */
    expect("autograd wrapper", PF_ACT_KERNEL, nvjet,
           "autograd::engine::evaluate_function: AddmmBackward0", PF_CAT_GEMM);
    expect("autograd wrapper", PF_ACT_KERNEL, "cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_f16_knob_26_64x64x64_1x4x1_cga1x1x1_kernel0_0",
           "autograd::engine::evaluate_function: ScaledDotProductCudnnAttentionBackward0",
           PF_CAT_ATTENTION);
    /* Case-blind words in a name longer than the classifier's lower-cased copy. */
    {
        static char longname[3000];
        memset(longname, 'x', sizeof longname - 1);
        memcpy(longname + sizeof longname - 8, "_SGEMM_", 8);
        expect("long name", PF_ACT_KERNEL, longname, NULL, PF_CAT_GEMM);
        memcpy(longname + sizeof longname - 8, "_Xgemm_", 8);
        expect("long name", PF_ACT_KERNEL, longname, NULL, PF_CAT_GEMM);
        memcpy(longname + sizeof longname - 8, "_XgemX_", 8);
        expect("long name", PF_ACT_KERNEL, longname, NULL, PF_CAT_OTHER);
    }
    /* Nothing known. */
    expect("unknown", PF_ACT_KERNEL, "mystery_kernel", "aten::nonzero", PF_CAT_OTHER);
    expect("unknown", PF_ACT_KERNEL, "mystery_kernel", NULL, PF_CAT_OTHER);
    expect("unknown", PF_ACT_KERNEL, NULL, NULL, PF_CAT_OTHER);
    expect("unknown", PF_ACT_KERNEL, "", "", PF_CAT_OTHER);
}

int main(void)
{
    test_names();
    test_real_names();
    test_inductor_kernels();
    test_inductor_report();
    test_public_names();
    test_2026_names();
    test_order();
    CHECK_DONE();
}
