/* test_kernel_role.c - which kernels carry their op's FLOPs (src/analysis/kernel_role.c): math kernels named by whole words (cuBLAS nvjet and xmma, CUTLASS, cuDNN, Tensile, CK, FlashAttention), the library helpers that never do, on names copied from the bundled and public traces; each role decided by reading the name. */
#include <stdio.h>

#include "check.h"
#include "profana/kernel_role.h"

static void expect(const char *name, pf_kernel_role want)
{
    static const char *const roles[] = {"helper", "plain", "math"};
    char label[200];
    snprintf(label, sizeof label, "%s: %.100s", roles[want], name);
    CHECK(label, pf_kernel_role_of(name) == want);
}

/* The GEMMs: cuBLAS's nvjet (H100 and B200 traces; it names no "gemm"), xmma and gemv, CUTLASS
 * by its kernel's own name, Tensile, CK, Triton's matmul outside Inductor. */
static void test_gemm(void)
{
    expect("nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT", PF_KERNEL_MATH);
    expect("nvjet_sm90_tst_128x16_64x11_4x1_v_bz_splitK_NNT", PF_KERNEL_MATH); /* split-K's GEMM itself */
    expect("nvjet_tst_64x64_64x16_2x1_2cta_v_bz_bias_TNT", PF_KERNEL_MATH);
    expect("nvjet_sm90_qqtst_128x128_128x6_1x1_h_bz_coopA_algo2_ovscale_TNT", PF_KERNEL_MATH);
    expect("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_"
           "kernel__5x_cublas", PF_KERNEL_MATH);
    expect("sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x64x8_stage3_warpsize2x2x1_ffma_aligna4_alignc4_"
           "execute_kernel__5x_cublas", PF_KERNEL_MATH);
    expect("void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_128x256_16x3_nt_align4>(cutlass_80_tensorop_"
           "s1688gemm_128x256_16x3_nt_align4::Params)", PF_KERNEL_MATH);
    expect("void cutlass::Kernel2<cutlass_80_simt_sgemm_128x256_8x4_nt_align1>(cutlass_80_simt_sgemm_128x256_8x4_"
           "nt_align1::Params)", PF_KERNEL_MATH);
    expect("_ZN7cutlass13device_kernelIN2at4cuda6detail25enable_3x_kernel_for_sm9xINS_4gemm6kernel13GemmUniversal"
           "INS5_17GroupProblemShapeIN4cute5tupleIJ", PF_KERNEL_MATH);
    expect("void sgemm_largek_lds64<true, false, 5, 5, 4, 4, 4, 34>(float*, float const*, float const*, int, int)",
           PF_KERNEL_MATH);
    expect("void gemmSN_TN_kernel_64addr", PF_KERNEL_MATH);
    expect("void gemv2T_kernel_val<int, int, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, float, 128, 16, 4, 4>",
           PF_KERNEL_MATH);
    expect("std::enable_if<!(false), void>::type internal::gemvx::kernel<int, int, __nv_bfloat16, __nv_bfloat16, "
           "__nv_bfloat16, float, false, true, true, false, 7, false>", PF_KERNEL_MATH);
    expect("void dot_kernel<float, 128, 0, cublasDotParams<cublasGemvTensorStridedBatched<__nv_bfloat16 const>, "
           "cublasGemvTensorStridedBatched<float> > >(cublasDotParams<>)", PF_KERNEL_MATH);
    expect("Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT128x256x32_MI16x16x1_SN_LDSB1_AFC1_AFEM1", PF_KERNEL_MATH);
    expect("bmm_Bfloat16_MxE2m1MxE4m3_Fp32_t128x16x256u2_s3_et128x16_m128x16x32_cga1x1x1_16dp256b_rM_TN",
           PF_KERNEL_MATH);
    expect("_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1_swiglu", PF_KERNEL_MATH);
}

/* cuBLAS's, CUTLASS's and ATen's helpers beside a GEMM: never its FLOPs. */
static void test_gemm_helpers(void)
{
    expect("void cublasLt::splitKreduce_kernel<32, 16, int, __nv_bfloat16, __nv_bfloat16, float, __nv_bfloat16, "
           "true, true, false>(cublasLt::cublasSplitKParams<float>, __nv_bfloat16 const*)", PF_KERNEL_HELPER);
    expect("void cublasLt::epilogue::impl::globalKernel<8, 32, float, float, float, true, true, 1>(int, int, long, "
           "float*, cublasLtEpilogue_t, int, float)", PF_KERNEL_HELPER);
    expect("void scal_kernel<float, float, 1, true, 6, 5, 5, 3>(cublasTransposeParams<float>, float const*, float*)",
           PF_KERNEL_HELPER);
    /* "Gemv" is a word of its template arguments: the helper list is read first */
    expect("void reduce_1Block_kernel<float, 128, 7, cublasGemvTensorStridedBatched<float>, "
           "cublasGemvTensorStridedBatched<__nv_bfloat16 const> >(float const*, float)", PF_KERNEL_HELPER);
    expect("void cutlass::Kernel<cutlass::reduction::kernel::ReduceSplitK<cutlass::MatrixShape<4, 128>, "
           "cutlass::epilogue::thread::LinearCombination<float, 4, float, float> > >(Params)", PF_KERNEL_HELPER);
    expect("void at::cuda::detail::prepare_grouped_gemm_data<cutlass::bfloat16_t, cutlass::bfloat16_t, "
           "cutlass::bfloat16_t, float, cute::tuple<int, int, int> >(cutlass::bfloat16_t*)", PF_KERNEL_HELPER);
    expect("void moe::dev::finalize::finalizeKernelVecLoad<moe::dev::finalize::KernelParams<cutlass::bfloat16_t, "
           "cutlass::bfloat16_t, 4, true> >(moe::dev::finalize::KernelParams<>)", PF_KERNEL_HELPER);
    expect("_finalize_matmul_scatter_bf16", PF_KERNEL_HELPER);
}

/* Attention: cuDNN's SDPA engines, FlashAttention, CUTLASS/xFormers, CK and TRT-LLM fmha; their
 * backward helpers (dot(dO, O), the dQ conversion) and head reductions are helpers. */
static void test_attention(void)
{
    expect("cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_f16_knob_26_64x64x64_1x4x1_cga1x1x1_kernel0_0",
           PF_KERNEL_MATH);
    expect("fmha_cutlassB_f32_aligned_64x64_k64_sm80(PyTorchMemEffAttention::AttentionBackwardKernel<"
           "cutlass::arch::Sm80, float, true, false, false, 64, 64, 64, false>::Params)", PF_KERNEL_MATH);
    expect("fmhaSm100aKernel_QkvE4m3OBfloat16H64PagedKvCausalP16VarSeqQ128Kv128PersistentContext", PF_KERNEL_MATH);
    expect("_ZN7ck_tile6kentryILi2ENS_38FmhaBatchPrefillWithPagedKVCacheKernelINS_40BlockFmhaBatchPrefillPipeline",
           PF_KERNEL_MATH);
    expect("void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t> >"
           "(Flash_fwd_params)", PF_KERNEL_MATH);
    expect("kernel_unified_attention_2d", PF_KERNEL_MATH);
    expect("void cudnn::fusion::compute_dot_do_o_specialized<true, 64>(void const*, void const*, void*, void*, "
           "unsigned int)", PF_KERNEL_HELPER);
    /* "conv" is no word of convert: before, this kernel took 4.6-19.7% of its op's FLOPs */
    expect("void cudnn::fusion::convert_dq_to_16bits<true>(void const*, void*, unsigned int, unsigned int)",
           PF_KERNEL_HELPER);
    expect("void flash_bwd_dot_do_o_kernel<true, Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, false, "
           "cutlass::bfloat16_t> >(Flash_bwd_params)", PF_KERNEL_HELPER);
    expect("void flash_bwd_convert_dq_kernel<Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, false, "
           "cutlass::bfloat16_t> >(Flash_bwd_params, int)", PF_KERNEL_HELPER);
    expect("fmha_reduce_head_kernel", PF_KERNEL_HELPER);
    expect("void flash_fwd_splitkv_combine_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, false, false, "
           "cutlass::bfloat16_t> >(Flash_fwd_params)", PF_KERNEL_HELPER);
    expect("create_flashinfer_kv_indices_triton", PF_KERNEL_HELPER);
}

/* Convolutions: cuDNN (xmma fprop/dgrad/wgrad, implicit_convolve_sgemm, wgrad_alg0), CUTLASS in
 * cuDNN, MIOpen (igemm), CK grouped conv; their layout transforms and workspace fills are
 * helpers. */
static void test_conv(void)
{
    expect("sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1",
           PF_KERNEL_MATH);
    expect("sm90_xmma_dgrad_implicit_gemm_indexed_f32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize256x64x32", PF_KERNEL_MATH);
    expect("void wgrad_alg0_engine<float, 128, 5, 5, 3, 3, 3, false, 512>(int, int, int, float const*, int)",
           PF_KERNEL_MATH);
    expect("void cudnn::detail::implicit_convolve_sgemm<float, float, 1024, 5, 5, 3, 3, 3, 1, false, true, true>"
           "(int, int, int)", PF_KERNEL_MATH);
    expect("void cutlass__5x_cudnn::Kernel<cutlass_tensorop_bf16_s16816fprop_optimized_bf16_256x64_32x4_nhwc_align8>"
           "(cutlass_tensorop_bf16_s16816fprop_optimized_bf16_256x64_32x4_nhwc_align8::Params)", PF_KERNEL_MATH);
    expect("igemm_fwd_gtcx3_nhwc_bf16_bx0_ex1_bt128x128x32_wt32x32x8_ws1x1_wr2x2_ta1x8x2x1_1x4x1x64", PF_KERNEL_MATH);
    expect("_ZN2ck16tensor_operation6device12_GLOBAL__N_139kernel_grouped_conv_fwd_xdl_cshuffle_v3INS_28GridwiseGemm",
           PF_KERNEL_MATH);
    expect("void cudnn::engines_precompiled::nchwToNhwcKernel<__nv_bfloat16, __nv_bfloat16, float, false, true, "
           "(cudnnKernelDataType_t)0>(cudnn::engines_precompiled::nchw2nhwc_params_t<float>)", PF_KERNEL_HELPER);
    expect("void cask_plugin__5x_cudnn::xmma__5x_cudnn::init_device_workspace_kernel<xmma__5x_cudnn::implicit_gemm::"
           "wgrad_indexed::Warp_specialized_params>", PF_KERNEL_HELPER);
    expect("void cudnn::cnn::reduce_wgrad_nchw_helper<float, float>(void*, void const*, float, int, int)",
           PF_KERNEL_HELPER);
    expect("Im2d2Col_v2", PF_KERNEL_HELPER);
    expect("batched_transpose_32x32_half", PF_KERNEL_HELPER);
    expect("transpose_NCHW2CNHW_V2_2D_WG_off64", PF_KERNEL_HELPER);
    expect("SubTensorOpWithScalar1d", PF_KERNEL_HELPER);
    expect("void GRU_elementWise_bp2<float, float, float, 3, (cudnnRNNBiasMode_t)2>(int, int, float*, float*)",
           PF_KERNEL_HELPER);
    expect("void elemWiseRNNcell<float, float, float, (cudnnRNNMode_t)2, (cudnnRNNBiasMode_t)2>(int, int, int)",
           PF_KERNEL_HELPER);
    expect("at::cuda::philox::unpack_cudnn(at::PhiloxCudaState, long*, long*)", PF_KERNEL_HELPER);
}

/* Neither: kernels of other categories, and gemm/conv/attention ones that name no arithmetic. */
static void test_plain(void)
{
    expect("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, std::array<char*, "
           "3ul> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>)", PF_KERNEL_PLAIN);
    expect("void at::native::reduce_kernel<128, 4, at::native::ReduceOp<float, at::native::MeanOps<float, float> > >"
           "(at::native::ReduceOp<float>)", PF_KERNEL_PLAIN);
    expect("triton_poi_fused_convert_element_type_0", PF_KERNEL_PLAIN);
    /* a kernel that takes cutlass types without being CUTLASS's names no arithmetic */
    expect("void vllm::scaled_fp8_quant_kernel<cutlass::bfloat16_t, c10::Float8_e4m3fn>(c10::Float8_e4m3fn*)",
           PF_KERNEL_PLAIN);
    expect("void cudnn::bn_fw_tr_1C11_kernel_NCHW<__nv_bfloat16, float, 512, true, 1>(cudnnTensorStruct)",
           PF_KERNEL_PLAIN);
}

int main(void)
{
    test_gemm();
    test_gemm_helpers();
    test_attention();
    test_conv();
    test_plain();
    CHECK_DONE();
}
