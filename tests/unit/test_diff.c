/* test_diff.c - unit tests of --diff's engine: the kernel-name normaliser, the op-family table, vendor-neutral shape keys, the matcher and the summary. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "profana/diff.h"
#include "profana/op_family.h"

/* ---- normaliser ---- */

static void expect_norm(const char *name, int fold_lists, const char *want)
{
    char buf[512], label[300];
    snprintf(label, sizeof label, "normalise%s: %.200s", fold_lists ? " (lists folded)" : "", name);
    CHECK_STR(label, pf_diff_normalise_kernel(name, fold_lists, buf, sizeof buf), want);
}

static void test_normaliser(void)
{
    /* Inductor numbers its kernels per graph: the trailing index goes, nothing else. */
    expect_norm("triton_poi_fused_add_mul_3", 0, "triton_poi_fused_add_mul");
    expect_norm("triton_poi_fused_add_mul_17", 1, "triton_poi_fused_add_mul");
    expect_norm("triton_red_fused__to_copy_sum_12", 0, "triton_red_fused__to_copy_sum");
    expect_norm("triton_per_fused_native_layer_norm_0", 0, "triton_per_fused_native_layer_norm");
    /* hash-like suffixes (8+ hex digits mixing digits and letters), with an index before them */
    expect_norm("triton_poi_fused_cat_2_9f8e7d6c5b", 0, "triton_poi_fused_cat");
    expect_norm("kernel_deadbeef42", 0, "kernel");
    /* words that merely end a name stay: not hex, too short, or letters only */
    expect_norm("triton_poi_fused_add_mul_deadbeef", 0, "triton_poi_fused_add_mul_deadbeef");
    expect_norm("nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT", 0, "nvjet_sm90_tst_#_#_#_h_bz_coopA_NNT");
    /* nvjet: another tile choice of one GEMM gets the same key; the layout (NNT/TNT, bias) stays */
    expect_norm("nvjet_sm90_tst_128x192_64x5_2x1_v_bz_coopB_NTN", 0, "nvjet_sm90_tst_#_#_#_v_bz_coopB_NTN");
    expect_norm("nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT", 1, "nvjet_sm90_tst_#_#_#_h_bz_coopA_bias_TNT");
    /* hipBLASLt: tile shapes after letters fold too */
    expect_norm("Cijk_Ailk_Bljk_BBS_BH_MT128x128x64_MI16x16x1_SN_WGM8", 0, "Cijk_Ailk_Bljk_BBS_BH_MT#_MI#_SN_WGM8");
    /* C++ templates: element types and numbers fold first, whole lists only with fold_lists */
    expect_norm("void at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::BFloat16>, "
                "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)",
                0,
                "void at::native::vectorized_elementwise_kernel<#, at::native::CUDAFunctor_add<T>, std::array<char*, "
                "#> >(int, at::native::CUDAFunctor_add<T>, std::array<char*, #>)");
    expect_norm("void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
                "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>)",
                0,
                "void at::native::vectorized_elementwise_kernel<#, at::native::CUDAFunctor_add<T>, std::array<char*, "
                "#> >(int, at::native::CUDAFunctor_add<T>, std::array<char*, #>)");
    expect_norm("void cutlass::Kernel<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_32x6_tn_align8>("
                "cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_32x6_tn_align8::Params)",
                1, "void cutlass::Kernel<>()");
    expect_norm("void cutlass::Kernel<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_32x6_tn_align8>(Params)", 0,
                "void cutlass::Kernel<cutlass_#_tensorop_T_s16816gemm_relu_T_#_#_tn_align8>(Params)");
    expect_norm("void (anonymous namespace)::softmax_warp_forward<c10::Half, c10::Half, float, 8, false, false>"
                "(c10::Half*, c10::Half const*, int, int, int, bool const*, int, bool)",
                1, "void ()::softmax_warp_forward<>()");
    /* a name the profiler cut inside its template arguments still folds, and closes */
    expect_norm("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::nat", 1,
                "void at::native::reduce_kernel<>");
    /* "->" inside a parameter list does not end it */
    expect_norm("Memcpy DtoD (Device -> Device)", 1, "Memcpy DtoD ()");
    expect_norm("Memcpy DtoD (Device -> Device)", 0, "Memcpy DtoD (Device -> Device)");
    /* identifiers with digits inside are not numbers; a hex literal is not a tile */
    expect_norm("sm90_xmma_gemm_bf16bf16_kernel0x7f", 0, "sm90_xmma_gemm_bf16bf16_kernel0x7f");
    expect_norm("_123", 0, "_#");
    char four[5], five[6];
    CHECK_STR("normalise: a cut name closes its bracket when there is room",
              pf_diff_normalise_kernel("foo<", 1, five, sizeof five), "foo<>");
    CHECK_STR("normalise: ... and stays in the buffer when there is none",
              pf_diff_normalise_kernel("foo<", 1, four, sizeof four), "foo<");
    char small[8];
    CHECK_STR("normalise: cut to the buffer", pf_diff_normalise_kernel("triton_poi_fused_add_3", 0, small, sizeof small),
              "triton_");
}

/* ---- op families ---- */

static void expect_family(const char *op, const char *want)
{
    const char *f = pf_diff_family(op);
    char label[200];
    snprintf(label, sizeof label, "family of %s", op);
    CHECK_STR(label, f ? f : "(none)", want);
}

static void test_families(void)
{
    int n;
    const pf_op_entry *t = pf_op_family_table(&n);
    int sorted = 1;
    for (int i = 1; i < n; i++)
        sorted &= strcmp(t[i - 1].op, t[i].op) < 0;
    CHECK("family table sorted by op name", sorted);
    for (const char *const *op = (const char *const[]){"aten::mm", "aten::addmm", "aten::matmul", "aten::linear",
                                                        "aten::_scaled_mm", NULL};
         *op; op++)
        expect_family(*op, "gemm");
    expect_family("aten::bmm", "bmm");
    expect_family("aten::baddbmm", "bmm");
    expect_family("aten::cudnn_convolution", "convolution");
    expect_family("aten::miopen_convolution", "convolution");
    expect_family("aten::convolution", "convolution");
    expect_family("aten::_convolution", "convolution");
    expect_family("aten::convolution_backward", "convolution_backward");
    expect_family("aten::cudnn_convolution_transpose", "convolution_transpose");
    expect_family("aten::_cudnn_attention_forward", "attention");
    expect_family("aten::_flash_attention_forward", "attention");
    expect_family("aten::_efficient_attention_forward", "attention");
    expect_family("aten::_scaled_dot_product_flash_attention", "attention");
    expect_family("aten::_cudnn_attention_backward", "attention_backward");
    expect_family("aten::_efficient_attention_backward", "attention_backward");
    expect_family("aten::_scaled_dot_product_efficient_attention_backward", "attention_backward");
    expect_family("aten::add", "(none)");
    expect_family("mm", "(none)");
    expect_family("aten::mv", "gemv");
    expect_family("aten::addbmm", "bmm");
    expect_family("aten::miopen_convolution_transpose", "convolution_transpose");
    /* in the op table, but with no key positions: matched by name only */
    expect_family("aten::_slow_conv2d_forward", "(none)");
    expect_family("aten::_conv_depthwise2d", "(none)");
    expect_family("aten::dot", "(none)");
    expect_family("aten::mm_", "(none)");
    CHECK("family of NULL", pf_op_family_lookup(NULL) == NULL);
    CHECK("diff family of NULL", pf_diff_family(NULL) == NULL);
}

/* ---- shape keys ---- */

#define T(...) {.ndim = sizeof((int64_t[]){__VA_ARGS__}) / sizeof(int64_t), .dims = {__VA_ARGS__}, .concrete = ""}
#define C(s) {.type = "", .concrete = s}

static pf_arg typed(pf_arg a, const char *type)
{
    a.type = type;
    return a;
}

static void test_shape_keys(void)
{
    char k1[512], k2[512];
    /* owlv2's patch embedding on H100 and MI300X: cuDNN records padding before stride and no
     * bias; MIOpen a None bias, then padding, stride (from the peer traces). */
    pf_arg cudnn[] = {typed((pf_arg)T(1, 3, 1008, 1008), "c10::BFloat16"), typed((pf_arg)T(1024, 3, 14, 14), "c10::BFloat16"),
                      C("[0, 0]"), C("[14, 14]"), C("[1, 1]"), C("1"), C("False"), C("False"), C("True")};
    pf_arg miopen[] = {typed((pf_arg)T(1, 3, 1008, 1008), "c10::BFloat16"), typed((pf_arg)T(1024, 3, 14, 14), "c10::BFloat16"),
                       C(""), C("[0, 0]"), C("[14, 14]"), C("[1, 1]"), C("1"), C("False"), C("False")};
    pf_cpu_op a = {.name = "aten::cudnn_convolution", .call = {.name = "aten::cudnn_convolution", .nargs = 9, .args = cudnn}};
    pf_cpu_op b = {.name = "aten::miopen_convolution", .call = {.name = "aten::miopen_convolution", .nargs = 9, .args = miopen}};
    CHECK_STR("shape key: cudnn_convolution",
              pf_diff_shape_key(&a, 1, k1, sizeof k1),
              "convolution([1,3,1008,1008]bf16, [1024,3,14,14]bf16, [14, 14], [0, 0], [1, 1], 1)");
    CHECK_STR("shape key: miopen_convolution is the same", pf_diff_shape_key(&b, 1, k2, sizeof k2), k1);
    CHECK_STR("shape key without dtypes", pf_diff_shape_key(&a, 0, k1, sizeof k1),
              "convolution([1,3,1008,1008], [1024,3,14,14], [14, 14], [0, 0], [1, 1], 1)");

    /* cuDNN attention takes [B, H, S, D]; efficient attention [B, S, H, D] */
    pf_arg bhsd[] = {typed((pf_arg)T(8, 16, 512, 64), "c10::Half"), typed((pf_arg)T(8, 16, 512, 64), "c10::Half"),
                     typed((pf_arg)T(8, 16, 512, 64), "c10::Half"), C(""), C("True")};
    pf_arg bshd[] = {typed((pf_arg)T(8, 512, 16, 64), "c10::Half"), typed((pf_arg)T(8, 512, 16, 64), "c10::Half"),
                     typed((pf_arg)T(8, 512, 16, 64), "c10::Half"), C(""), C("")};
    pf_cpu_op qa = {.name = "aten::_cudnn_attention_forward", .call = {.name = "aten::_cudnn_attention_forward", .nargs = 5, .args = bhsd}};
    pf_cpu_op qb = {.name = "aten::_efficient_attention_forward", .call = {.name = "aten::_efficient_attention_forward", .nargs = 5, .args = bshd}};
    CHECK_STR("shape key: cuDNN attention", pf_diff_shape_key(&qa, 1, k1, sizeof k1),
              "attention([8,16,512,64]fp16, [8,16,512,64]fp16, [8,16,512,64]fp16)");
    CHECK_STR("shape key: efficient attention in [B,H,S,D]", pf_diff_shape_key(&qb, 1, k2, sizeof k2), k1);

    /* GEMMs keep every tensor argument and drop scalars */
    pf_arg addmm[] = {typed((pf_arg)T(1024), "c10::BFloat16"), typed((pf_arg)T(5185, 1024), "c10::BFloat16"),
                      typed((pf_arg)T(1024, 1024), "c10::BFloat16"), C("1"), C("1")};
    pf_cpu_op g = {.name = "aten::addmm", .call = {.name = "aten::addmm", .nargs = 5, .args = addmm}};
    CHECK_STR("shape key: addmm", pf_diff_shape_key(&g, 1, k1, sizeof k1),
              "gemm([1024]bf16, [5185,1024]bf16, [1024,1024]bf16)");
    /* an op of no family keeps its name and every argument, as --group shape spells it */
    pf_arg sum[] = {typed((pf_arg)T(4096, 1024), "float"), C("[0]"), C("True"), C("")};
    pf_cpu_op s = {.name = "aten::sum", .call = {.name = "aten::sum", .nargs = 4, .args = sum}};
    CHECK_STR("shape key: op of no family", pf_diff_shape_key(&s, 1, k1, sizeof k1),
              "aten::sum([4096,1024]fp32, [0], True, -)");
    CHECK_STR("shape key: op of no family, no dtypes", pf_diff_shape_key(&s, 0, k1, sizeof k1),
              "aten::sum([4096,1024], [0], True, -)");
    char tiny[10];
    CHECK_STR("shape key cut to the buffer", pf_diff_shape_key(&g, 1, tiny, sizeof tiny), "gemm([102");
}

/* ---- matcher ---- */

static pf_row row(const char *key, int64_t count, int64_t total_ns, int32_t op)
{
    pf_row r;
    memset(&r, 0, sizeof r);
    r.key = key;
    r.count = count;
    r.invocations = count; /* as the analysis fills it for --group kernel: one per launch */
    r.total_ns = total_ns;
    r.op = op;
    return r;
}

static pf_device_report report(pf_row *rows, size_t n)
{
    pf_device_report d;
    memset(&d, 0, sizeof d);
    d.rows = rows;
    d.n_rows = n;
    for (size_t i = 0; i < n; i++)
        d.total.total_ns += rows[i].total_ns;
    return d;
}

/* The diff row whose A side has this key, or NULL. */
static const pf_diff_row *find_a(const pf_diff_device *d, const char *key)
{
    for (size_t i = 0; i < d->n_rows; i++)
        if (d->rows[i].a && strcmp(d->rows[i].a->key, key) == 0)
            return &d->rows[i];
    return NULL;
}

static const char *partner(const pf_diff_device *d, const char *a_key)
{
    const pf_diff_row *r = find_a(d, a_key);
    return r && r->b ? r->b->key : "(none)";
}

static void test_matcher_kernel(void)
{
    /* rows in time order, as the analysis sorts them */
    pf_row a[] = {row("nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT", 24, 854000, -1),
                  row("triton_poi_fused_add_mul_3", 6, 600000, -1), row("triton_red_fused_sum_1", 12, 60000, -1),
                  row("triton_red_fused_sum_7", 3, 30000, -1), row("only_in_a", 1, 10000, -1)};
    pf_row b[] = {row("nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT", 24, 1708000, -1),
                  row("triton_poi_fused_add_mul_5", 6, 900000, -1), row("triton_red_fused_sum_2", 3, 120000, -1),
                  row("triton_red_fused_sum_4", 12, 30000, -1), row("only_in_b", 2, 5000, -1)};
    pf_device_report ra = report(a, 5), rb = report(b, 5);
    pf_diff_device d;
    CHECK("matcher runs", pf_diff_device_run(&ra, NULL, &rb, NULL, PF_GROUP_KERNEL, &d) == 0);
    CHECK("matcher: 5 + 5 rows give 6 lines", d.n_rows == 6);
    CHECK_STR("matcher: same name is exact", pf_match_name(find_a(&d, a[0].key)->match), "exact");
    CHECK_STR("matcher: renumbered kernel found", partner(&d, "triton_poi_fused_add_mul_3"), "triton_poi_fused_add_mul_5");
    CHECK_STR("matcher: renumbered kernel is normalised", pf_match_name(find_a(&d, "triton_poi_fused_add_mul_3")->match),
              "normalised");
    /* two kernels with one normalised name: the launch counts decide who pairs with whom */
    CHECK_STR("matcher: equal launch counts pair first (12)", partner(&d, "triton_red_fused_sum_1"), "triton_red_fused_sum_4");
    CHECK_STR("matcher: equal launch counts pair first (3)", partner(&d, "triton_red_fused_sum_7"), "triton_red_fused_sum_2");
    CHECK_STR("matcher: a row of A alone", partner(&d, "only_in_a"), "(none)");
    /* order: matched by |delta| (854, 300, 90, 30 us), then A's leftovers, then B's */
    CHECK_STR("order 1", d.rows[0].a->key, a[0].key);
    CHECK_STR("order 2", d.rows[1].a->key, "triton_poi_fused_add_mul_3");
    CHECK_STR("order 3", d.rows[2].a->key, "triton_red_fused_sum_7");
    CHECK_STR("order 4", d.rows[3].a->key, "triton_red_fused_sum_1");
    CHECK("order 5: A only", d.rows[4].a == &a[4] && !d.rows[4].b && d.rows[4].match == PF_MATCH_NONE);
    CHECK("order 6: B only", !d.rows[5].a && d.rows[5].b == &b[4]);
    const pf_diff_summary *s = &d.summary;
    CHECK("summary: 4 matched, 1 + 1 alone", s->matched_rows == 4 && s->only_a == 1 && s->only_b == 1);
    CHECK("summary: 1 exact, 3 normalised",
          s->matched_at[PF_MATCH_EXACT] == 1 && s->matched_at[PF_MATCH_NORMALISED] == 3);
    CHECK("summary: totals", s->a_total_ns == 1554000 && s->b_total_ns == 2763000);
    CHECK_NEAR("summary: ratio of totals", s->ratio, 2763000.0 / 1554000.0);
    /* mean ratios 2, 1.5, 0.5 (sum_1 -> sum_4: 5 us -> 2.5 us), 4 (sum_7 -> sum_2: 10 -> 40) */
    CHECK_NEAR("summary: geomean of mean ratios", s->geomean, pow(2 * 1.5 * 0.5 * 4, 0.25));
    CHECK("summary: geomean covers 4 rows", s->geomean_rows == 4);
    CHECK_NEAR("summary: A matched share", s->a_matched_pct, 100.0 * 1544000 / 1554000);
    CHECK_NEAR("summary: B matched share", s->b_matched_pct, 100.0 * 2758000 / 2763000);
    pf_diff_device_free(&d);
}

static void test_matcher_self(void)
{
    pf_row a[] = {row("k2", 3, 3000, -1), row("k1", 1, 1000, -1), row("k0", 1, 0, -1)};
    pf_device_report ra = report(a, 3);
    pf_diff_device d;
    CHECK("self diff runs", pf_diff_device_run(&ra, NULL, &ra, NULL, PF_GROUP_KERNEL, &d) == 0);
    int same = d.n_rows == 3;
    for (size_t i = 0; i < d.n_rows; i++)
        same &= d.rows[i].a == d.rows[i].b && d.rows[i].match == PF_MATCH_EXACT;
    CHECK("self diff: every row matched to itself", same);
    CHECK_NEAR("self diff: geomean 1", d.summary.geomean, 1);
    CHECK("self diff: a zero-time row is left out of the geomean", d.summary.geomean_rows == 2);
    CHECK_NEAR("self diff: ratio 1", d.summary.ratio, 1);
    pf_diff_device_free(&d);

    pf_device_report empty = report(NULL, 0);
    CHECK("empty diff runs", pf_diff_device_run(&empty, NULL, &empty, NULL, PF_GROUP_OP, &d) == 0);
    CHECK("empty diff: no rows, no ratio, no geomean", d.n_rows == 0 && d.summary.ratio < 0 && d.summary.geomean < 0);
    pf_diff_device_free(&d);
}

/* --group shape across vendors and dtypes: the rows' ops give the family keys. */
static void test_matcher_shape(void)
{
    pf_arg conv_a[] = {typed((pf_arg)T(1, 3, 224, 224), "c10::BFloat16"), typed((pf_arg)T(64, 3, 7, 7), "c10::BFloat16"),
                       C("[3, 3]"), C("[2, 2]"), C("[1, 1]"), C("1"), C("False"), C("False"), C("True")};
    pf_arg conv_b[] = {typed((pf_arg)T(1, 3, 224, 224), "c10::BFloat16"), typed((pf_arg)T(64, 3, 7, 7), "c10::BFloat16"),
                       C(""), C("[3, 3]"), C("[2, 2]"), C("[1, 1]"), C("1"), C("False"), C("False")};
    pf_arg mm_a[] = {typed((pf_arg)T(64, 32), "c10::BFloat16"), typed((pf_arg)T(32, 16), "c10::BFloat16")};
    pf_arg mm_b[] = {typed((pf_arg)T(64, 32), "c10::Half"), typed((pf_arg)T(32, 16), "c10::Half")};
    pf_cpu_op ops_a[] = {{.name = "aten::cudnn_convolution", .call = {.name = "aten::cudnn_convolution", .nargs = 9, .args = conv_a}},
                         {.name = "aten::mm", .call = {.name = "aten::mm", .nargs = 2, .args = mm_a}}};
    pf_cpu_op ops_b[] = {{.name = "aten::miopen_convolution", .call = {.name = "aten::miopen_convolution", .nargs = 9, .args = conv_b}},
                         {.name = "aten::mm", .call = {.name = "aten::mm", .nargs = 2, .args = mm_b}}};
    pf_trace ta = {.ops = ops_a, .n_ops = 2}, tb = {.ops = ops_b, .n_ops = 2};
    pf_row a[] = {row("aten::cudnn_convolution(...)", 2, 2000, 0), row("aten::mm([64,32]bf16, [32,16]bf16)", 1, 500, 1),
                  row("Memset (Device)", 1, 100, -1)};
    pf_row b[] = {row("aten::miopen_convolution(...)", 1, 1000, 0), row("aten::mm([64,32]fp16, [32,16]fp16)", 1, 400, 1),
                  row("Memset (Device)", 1, 100, -1)};
    pf_device_report ra = report(a, 3), rb = report(b, 3);
    pf_diff_device d;
    CHECK("shape matcher runs", pf_diff_device_run(&ra, &ta, &rb, &tb, PF_GROUP_SHAPE, &d) == 0);
    CHECK_STR("shape: cuDNN conv pairs with MIOpen conv", partner(&d, a[0].key), b[0].key);
    CHECK_STR("shape: ... at the shape level", pf_match_name(find_a(&d, a[0].key)->match), "shape");
    CHECK_STR("shape: bf16 mm pairs with fp16 mm", partner(&d, a[1].key), b[1].key);
    CHECK_STR("shape: ... ignoring dtypes", pf_match_name(find_a(&d, a[1].key)->match), "shape-any-dtype");
    CHECK_STR("shape: unlinked rows match by name", pf_match_name(find_a(&d, "Memset (Device)")->match), "exact");
    CHECK("shape: levels counted", d.summary.matched_at[PF_MATCH_EXACT] == 1 && d.summary.matched_at[PF_MATCH_SHAPE] == 1 &&
                                       d.summary.matched_at[PF_MATCH_SHAPE_ANY_DTYPE] == 1);
    pf_diff_device_free(&d);

    /* --group op: cudnn_convolution and miopen_convolution meet as the convolution family */
    pf_row oa[] = {row("aten::cudnn_convolution", 2, 2000, 0), row("aten::add", 1, 10, -1)};
    pf_row ob[] = {row("aten::miopen_convolution", 1, 1000, 0), row("aten::mul", 1, 10, -1)};
    pf_device_report roa = report(oa, 2), rob = report(ob, 2);
    CHECK("op matcher runs", pf_diff_device_run(&roa, NULL, &rob, NULL, PF_GROUP_OP, &d) == 0);
    CHECK_STR("op: convolution family", partner(&d, "aten::cudnn_convolution"), "aten::miopen_convolution");
    CHECK_STR("op: ops of no family stay apart", partner(&d, "aten::add"), "(none)");
    pf_diff_device_free(&d);
}

/* Devices pair by position; the longer side's tail is reported as left out. */
static void test_devices(void)
{
    pf_device dev[3] = {{.id = 0, .name = "GPU0"}, {.id = 1, .name = "GPU1"}, {.id = 2, .name = "MI300X"}};
    pf_row r0[] = {row("k", 1, 1000, -1)}, r1[] = {row("k", 1, 2000, -1)}, r2[] = {row("k", 1, 1500, -1)};
    pf_device_report da[2] = {report(r0, 1), report(r1, 1)}, db[1] = {report(r2, 1)};
    da[0].device = &dev[0];
    da[1].device = &dev[1];
    db[0].device = &dev[2];
    pf_analysis aa = {.devices = da, .n_devices = 2}, ab = {.devices = db, .n_devices = 1};
    pf_diff *d;
    pf_error err;
    CHECK("diff of 2 devices against 1 runs", pf_diff_run(&aa, &ab, PF_GROUP_KERNEL, &d, &err) == 0);
    CHECK("one pair: device 0 with device 2", d->n_devices == 1 && d->devices[0].a == &da[0] && d->devices[0].b == &db[0]);
    CHECK("A's device 1 left out", d->n_left_out == 1 && d->left_out_side == 0 && d->left_out == &da[1]);
    CHECK_NEAR("pair ratio", d->devices[0].summary.ratio, 1.5);
    pf_diff_free(d);
    CHECK("diff of 1 device against 2 runs", pf_diff_run(&ab, &aa, PF_GROUP_KERNEL, &d, &err) == 0);
    CHECK("B's device 1 left out", d->n_left_out == 1 && d->left_out_side == 1 && d->left_out == &da[1]);
    pf_diff_free(d);
    pf_diff_free(NULL);
}

/* Counts that change and a geomean that points against the time, by hand. */
static void test_counts_and_weighting(void)
{
    /* t: 1 call, 1000 us -> 500 us (B/A 0.5); s1..s3: 1 us -> 3, 2, 4 us; c: 2 calls of 1 us ->
     * 4 calls of 0.75 us (per call 0.75, in total 1.5: judged on total time) */
    pf_row a[] = {row("t", 1, 1000000, -1), row("c", 2, 2000, -1), row("s1", 1, 1000, -1), row("s2", 1, 1000, -1),
                  row("s3", 1, 1000, -1)};
    pf_row b[] = {row("t", 1, 500000, -1), row("s3", 1, 4000, -1), row("s1", 1, 3000, -1), row("c", 4, 3000, -1),
                  row("s2", 1, 2000, -1)};
    pf_device_report ra = report(a, 5), rb = report(b, 5);
    pf_diff_device d;
    CHECK("counts: diff runs", pf_diff_device_run(&ra, NULL, &rb, NULL, PF_GROUP_KERNEL, &d) == 0);
    const pf_diff_row *c = find_a(&d, "c"), *t = find_a(&d, "t");
    CHECK("counts: 2 -> 4 launches is judged on total time", c && c->by_total == 1);
    CHECK_NEAR("counts: its B/A is of totals, 3000 / 2000, not of means (0.75)", pf_diff_row_ratio(c), 1.5);
    CHECK("counts: equal counts keep the mean", t && t->by_total == 0);
    CHECK_NEAR("counts: t's B/A 0.5", pf_diff_row_ratio(t), 0.5);
    const pf_diff_summary *s = &d.summary;
    /* the geomean stays of mean ratios: (0.5 * 0.75 * 3 * 2 * 4)^(1/5) = 9^(1/5) */
    CHECK_NEAR("weighting: geomean 9^(1/5)", s->geomean, pow(9, 0.2));
    CHECK_NEAR("weighting: time-weighted (500 + 3 + 3 + 2 + 4) / (1000 + 2 + 1 + 1 + 1)", s->weighted,
               512000.0 / 1005000.0);
    CHECK("weighting: opposite ways", s->opposite == 1);
    CHECK("weighting: the time falls in t only", s->n_time_rows == 1 && d.rows[s->time_rows[0]].a == &a[0]);
    CHECK("weighting: the geomean is pulled up by s3 (4), s1 (3), s2 (2)",
          s->n_geo_rows == 3 && d.rows[s->geo_rows[0]].a == &a[4] && d.rows[s->geo_rows[1]].a == &a[2] &&
              d.rows[s->geo_rows[2]].a == &a[3]);
    pf_diff_device_free(&d);

    /* the same direction: no caveat, no rows named */
    CHECK("agreeing: diff runs", pf_diff_device_run(&rb, NULL, &rb, NULL, PF_GROUP_KERNEL, &d) == 0);
    CHECK("agreeing: self-diff, weighted 1, not opposite", fabs(d.summary.weighted - 1) < 1e-12 && !d.summary.opposite &&
                                                           d.summary.n_time_rows == 0 && d.summary.n_geo_rows == 0);
    pf_diff_device_free(&d);
    pf_diff_row alone = {&a[0], NULL, PF_MATCH_NONE, 0};
    CHECK("a row of one side has no ratio", pf_diff_row_ratio(&alone) < 0);
}

int main(void)
{
    test_normaliser();
    test_families();
    test_shape_keys();
    test_matcher_kernel();
    test_matcher_self();
    test_counts_and_weighting();
    test_matcher_shape();
    test_devices();
    CHECK_DONE();
}
