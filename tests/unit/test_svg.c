/* test_svg.c - unit tests of the XML/HTML writer (escaping, numbers, nesting), chart label names, and both charts on hand-built device reports. */
#include <stdlib.h>

#include "check.h"
#include "profana/plot.h"
#include "profana/svg.h"

/* Runs fn on a memory stream and returns what it wrote (caller frees). */
static char *capture(void (*fn)(FILE *, const void *), const void *arg)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    fn(f, arg);
    fclose(f);
    return buf;
}

static void escape_into(FILE *f, const void *s)
{
    pf_xml_escape(f, s);
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++)
        n++;
    return n;
}

static void check_escape(const char *name, const char *in, const char *want)
{
    char *got = capture(escape_into, in);
    CHECK_STR(name, got, want);
    free(got);
}

static void test_escape(void)
{
    check_escape("escape: markup characters", "a<b>&\"c'", "a&lt;b&gt;&amp;&quot;c'");
    check_escape("escape: C++ template name", "f<float>(at::T&)", "f&lt;float&gt;(at::T&amp;)");
    check_escape("escape: valid UTF-8 kept", "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
    check_escape("escape: control character replaced", "a\x01z", "a\xEF\xBF\xBDz");
    check_escape("escape: tab and newline kept", "a\tb\nc", "a\tb\nc");
    check_escape("escape: stray byte replaced", "a\xFFz", "a\xEF\xBF\xBDz");
    check_escape("escape: overlong form replaced byte by byte", "\xC0\xAF", "\xEF\xBF\xBD\xEF\xBF\xBD");
    check_escape("escape: cut sequence replaced", "x\xE2\x82", "x\xEF\xBF\xBD\xEF\xBF\xBD");
    check_escape("escape: surrogate replaced", "\xED\xA0\x80", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
    check_escape("escape: U+FFFF replaced", "\xEF\xBF\xBF", "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
}

static void test_numbers(void)
{
    char b[64];
    CHECK_STR("num: trailing zeros dropped", pf_num_fmt(b, sizeof b, 12.5, 2), "12.5");
    CHECK_STR("num: integer has no point", pf_num_fmt(b, sizeof b, 3.0, 2), "3");
    CHECK_STR("num: rounded to 2 decimals", pf_num_fmt(b, sizeof b, 1234.567, 2), "1234.57");
    CHECK_STR("num: never -0", pf_num_fmt(b, sizeof b, -0.001, 2), "0");
    CHECK_STR("num: negative", pf_num_fmt(b, sizeof b, -7.25, 2), "-7.25");
    CHECK_STR("num: NaN is 0", pf_num_fmt(b, sizeof b, NAN, 2), "0");
    CHECK_STR("num: infinity is 0", pf_num_fmt(b, sizeof b, INFINITY, 2), "0");
    CHECK_STR("num: no exponent for large values", pf_num_fmt(b, sizeof b, 1e12, 2), "1000000000000");
}

static void xml_doc(FILE *f, const void *html)
{
    pf_xw w;
    pf_xw_init(&w, f, *(const int *)html);
    pf_xw_begin(&w, "div");
    pf_xw_begin(&w, "meta");
    pf_xw_attr(&w, "charset", "utf-8");
    pf_xw_end(&w);
    pf_xw_begin(&w, "td");
    pf_xw_end(&w);
    pf_xw_begin(&w, "svg");
    pf_xw_begin(&w, "circle");
    pf_xw_attr_num(&w, "cx", 1.5);
    pf_xw_attr_sig(&w, "data-x", 1365.3333333);
    pf_xw_attr(&w, "data-name", "a<b&c>\"");
    pf_xw_attr(&w, "skipped", NULL);
    pf_xw_end(&w);
    pf_xw_begin(&w, "text");
    pf_xw_text(&w, "x<y");
    pf_xw_attr(&w, "late", "ignored");
    pf_xw_end(&w);
    pf_xw_end(&w);
    pf_xw_begin(&w, "td");
    pf_xw_end(&w);
    pf_xw_end(&w);
}

static void test_writer(void)
{
    int html = 0;
    char *x = capture(xml_doc, &html);
    CHECK_STR("writer: XML closes empty elements with />, escapes attributes and text", x,
              "<div><meta charset=\"utf-8\"/><td/><svg><circle cx=\"1.5\" data-x=\"1365.33\" "
              "data-name=\"a&lt;b&amp;c&gt;&quot;\"/><text>x&lt;y</text></svg><td/></div>");
    free(x);
    html = 1;
    x = capture(xml_doc, &html);
    CHECK_STR("writer: HTML gives void elements no end tag, others an end tag, svg XML syntax", x,
              "<div><meta charset=\"utf-8\"><td></td><svg><circle cx=\"1.5\" data-x=\"1365.33\" "
              "data-name=\"a&lt;b&amp;c&gt;&quot;\"/><text>x&lt;y</text></svg><td></td></div>");
    free(x);
}

static void check_short(const char *name, const char *key, pf_group_by g, int limit, const char *want)
{
    char buf[256];
    CHECK_STR(name, pf_short_name(key, g, limit, buf, sizeof buf), want);
}

static void test_short_names(void)
{
    check_short("short: ATen element-wise kernel gets its functor",
                "void at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::BFloat16>, "
                "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul>)",
                PF_GROUP_KERNEL, 0, "vectorized_elementwise_kernel<CUDAFunctor_add>");
    check_short("short: functor given as a lambda inside a function",
                "void at::native::vectorized_elementwise_kernel<8, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, "
                "at::native::GeluType)::{lambda()#2}::operator()() const::{lambda(c10::BFloat16)#1}, std::array<char*, 2ul> "
                ">(int, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2})",
                PF_GROUP_KERNEL, 0, "vectorized_elementwise_kernel<GeluCUDAKernelImpl>");
    check_short("short: anonymous namespace and numeric template arguments",
                "void (anonymous namespace)::softmax_warp_forward<c10::BFloat16, c10::BFloat16, float, 8, false, false>"
                "(c10::BFloat16*, c10::BFloat16 const*, int, int, int, bool const*, int, bool)",
                PF_GROUP_KERNEL, 0, "softmax_warp_forward<BFloat16>");
    check_short("short: only numbers as template arguments", "void at::native::reduce_kernel<512, 1>(int)",
                PF_GROUP_KERNEL, 0, "reduce_kernel");
    check_short("short: plain names unchanged", "nvjet_sm90_tst_128x64_64x8_1x2_h_bz_NNT", PF_GROUP_KERNEL, 0,
                "nvjet_sm90_tst_128x64_64x8_1x2_h_bz_NNT");
    check_short("short: cut in the middle, ends kept", "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_bias_TNT",
                PF_GROUP_KERNEL, 20, "nvjet_sm9...bias_TNT");
    check_short("short: '->' in a memcpy name survives", "Memcpy DtoD (Device -> Device)", PF_GROUP_KERNEL, 0,
                "Memcpy DtoD");
    check_short("short: op keys kept whole", "aten::mm([2048,512]bf16, [512,512]bf16)", PF_GROUP_SHAPE, 0,
                "aten::mm([2048,512]bf16, [512,512]bf16)");
    check_short("short: UTF-8 counted as characters", "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9",
                PF_GROUP_OP, 7, "\xC3\xA9\xC3\xA9...\xC3\xA9\xC3\xA9");
    char small[6];
    CHECK_STR("short: a small buffer never ends inside a character",
              pf_short_name("ab\xC3\xA9\xC3\xA9", PF_GROUP_OP, 0, small, sizeof small), "ab\xC3\xA9");
}

/* ---- the charts on hand-built rows ---- */

static pf_row row(const char *key, pf_category c, double flop, double bytes, int64_t ns, const pf_device_info *info)
{
    pf_row r = {.key = key, .count = 1, .total_ns = ns, .min_ns = ns, .max_ns = ns, .peak_ok = 1};
    if (flop >= 0) {
        r.flop = flop;
        r.flop_known = 1;
        r.flop_peak_s = flop / pf_peak_flops(info, PF_DT_BF16);
    }
    if (bytes >= 0) {
        r.bytes = bytes;
        r.bytes_known = 1;
        r.byte_peak_s = bytes / (info->peak_gbps * 1e9);
    }
    r.cat_ns[c] = ns;
    return r;
}

typedef struct chart_case {
    pf_device_report d;
    pf_device dev;
    pf_row rows[4];
    pf_row cats[PF_CAT_COUNT];         /* d.cats point here */
} chart_case;

/* Device 0, an H100 SXM: a 4096^3 bf16 GEMM in 200 us; an element-wise kernel that moved 1 GB
 * in 100 us (10000 GB/s, above the 3350 GB/s roof); a copy with 0 FLOP; a kernel without bytes. */
static void make_case(chart_case *c)
{
    memset(c, 0, sizeof *c);
    const pf_device_info *info = pf_devices_find("H100 SXM");
    c->dev = (pf_device){.id = 0, .name = "NVIDIA H100 80GB HBM3"};
    c->rows[0] = row("gemm<&>", PF_CAT_GEMM, 2.0 * 4096 * 4096 * 4096, 3.0 * 4096 * 4096 * 2, 200000, info);
    c->rows[1] = row("too_fast", PF_CAT_ELEMENTWISE, 1e6, 1e9, 100000, info);
    c->rows[2] = row("copy", PF_CAT_MEMCPY, 0, 1e6, 50000, info);
    c->rows[3] = row("no_bytes", PF_CAT_OTHER, 1e6, -1, 25000, info);
    c->d = (pf_device_report){.device = &c->dev, .info = info, .rows = c->rows, .n_rows = 4};
    c->d.total.total_ns = 375000;
    c->d.busy = (pf_busy){.start_ns = 0, .end_ns = 1000000, .busy_ns = 375000, .sum_ns = 375000};
    for (int k = 0; k < PF_CAT_COUNT; k++)
        c->d.cats[k] = &c->cats[k];
    c->d.cats[PF_CAT_GEMM]->total_ns = 200000;
    c->d.cats[PF_CAT_ELEMENTWISE]->total_ns = 100000;
    c->d.cats[PF_CAT_MEMCPY]->total_ns = 50000;
    c->d.cats[PF_CAT_OTHER]->total_ns = 25000;
}

static void roofline_into(FILE *f, const void *p)
{
    const chart_case *c = p;
    pf_xw w;
    pf_xw_init(&w, f, 0);
    pf_roofline_panel panel = {.title = "Device 0", .d = &c->d, .dtypes = 1u << PF_DT_BF16, .group = PF_GROUP_KERNEL};
    if (pf_plot_roofline(&w, &panel, 1))
        fputs("FAILED", f);
}

static void breakdown_into(FILE *f, const void *p)
{
    const chart_case *c = p;
    pf_xw w;
    pf_xw_init(&w, f, 0);
    pf_breakdown_bar bars[2] = {{"Device pair 0", "A: Device 0", &c->d}, {"Device pair 0", "B: Device 0", &c->d}};
    if (pf_plot_breakdown(&w, bars, 2))
        fputs("FAILED", f);
}

static void test_roofline(void)
{
    chart_case c;
    make_case(&c);
    char *s = capture(roofline_into, &c);
    CHECK("roofline: one dot per row with FLOPs and bytes above 0", count(s, "<circle class=\"dot") == 2);
    /* issue 47: every row with time placed: the copy (1e6 bytes in 50 us = 20 GB/s, 0 FLOP) on the
     * bandwidth strip, the row without bytes (25 us) in its box; 200 + 100 + 50 + 25 us in all */
    CHECK("roofline: the copy on the bandwidth strip at 20 GB/s",
          count(s, "class=\"strip-dot\"") == 1 && strstr(s, "data-gbps=\"20\" data-gpu-us=\"50\""));
    CHECK("roofline: the row without bytes in the strip's box",
          strstr(s, "class=\"strip-unknown\"") && strstr(s, "data-rows=\"1\" data-gpu-us=\"25\""));
    CHECK("roofline: the dot above the memory roof is marked", count(s, "class=\"dot over\"") == 1);
    /* 2*4096^3 FLOP over 3*4096^2*2 bytes = 1365.33 FLOP/byte; 137.439 GFLOP in 200 us = 687.195 TFLOP/s. */
    CHECK("roofline: GEMM intensity", strstr(s, "data-x=\"1365.33\" data-y=\"687.195\"") != NULL);
    CHECK("roofline: names escaped", strstr(s, "data-name=\"gemm&lt;&amp;&gt;\"") != NULL);
    CHECK("roofline: compute roof labelled", strstr(s, "bf16 989.5 TFLOP/s") != NULL);
    CHECK("roofline: memory roof labelled", strstr(s, "DRAM 3350 GB/s") != NULL);
    CHECK("roofline: the dot above a roof listed under the chart",
          strstr(s, "too_fast: 0.01 TFLOP/s at 0.001 FLOP/byte (FLOPS 0.0%, BW 298.5%)") != NULL);
    CHECK("roofline: the strip's title counts its rows",
          strstr(s, "Bandwidth strip: 2 groups with no FLOPs to place (20.0% of GPU time)") != NULL);
    /* x: 0.001 .. 1365 and the ridge 295 +- 1 decade -> decades -4 .. 4; y: 0.01 .. 989.5 -> -3 .. 4. */
    CHECK("roofline: axis range", strstr(s, "data-x0=\"-4\" data-x1=\"4\" data-y0=\"-3\" data-y1=\"4\"") != NULL);
    CHECK("roofline: decade tick labels", strstr(s, ">0.001</text>") && strstr(s, ">10000</text>"));
    free(s);
    c.d.info = NULL;
    s = capture(roofline_into, &c);
    CHECK("roofline: unknown device has no roofs", !strstr(s, "roof memory") && strstr(s, "no roofs"));
    CHECK("roofline: unknown device has nothing above a roof", count(s, "class=\"dot over\"") == 0);
    free(s);
}

static void test_breakdown(void)
{
    chart_case c;
    make_case(&c);
    char *s = capture(breakdown_into, &c);
    CHECK("breakdown: two bars", count(s, "class=\"bar\"") == 2);
    CHECK("breakdown: gemm 20% of the span",
          strstr(s, "data-category=\"gemm\" data-ns=\"200000\" data-pct=\"20\"") != NULL);
    CHECK("breakdown: idle 62.5% of the span",
          strstr(s, "data-category=\"idle\" data-ns=\"625000\" data-pct=\"62.5\"") != NULL);
    CHECK("breakdown: percentages listed",
          strstr(s, "gemm 20.00%, elementwise 10.00%, memcpy 5.00%, other 2.50%, idle 62.50%") != NULL);
    CHECK("breakdown: one pair heading", count(s, "class=\"group\"") == 1);
    CHECK("breakdown: no overlap note", !strstr(s, "overlap"));
    free(s);
    /* Two streams ran 100 us at once: categories sum to 475 us in 375 us of busy time. */
    c.d.busy.sum_ns = 475000;
    c.d.cats[PF_CAT_ELEMENTWISE]->total_ns = 200000;
    s = capture(breakdown_into, &c);
    CHECK("breakdown: overlap scaled into the busy time",
          strstr(s, "data-category=\"gemm\" data-ns=\"157895\"") != NULL);
    CHECK("breakdown: overlap said", strstr(s, "Activities overlap by 100.000 us") != NULL);
    free(s);
}

int main(void)
{
    test_escape();
    test_numbers();
    test_writer();
    test_short_names();
    test_roofline();
    test_breakdown();
    CHECK_DONE();
}
