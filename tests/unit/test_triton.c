/* test_triton.c - Inductor Triton modules (include/profana/triton.h): the parser on hand-written modules of Inductor's form, and the bytes and FLOPs of launches worked out by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "profana/triton.h"

/* An in-place pointwise kernel as Inductor writes it (max-autotune GELU): in_out_ptr0 read
 * and written, in_ptr0 read; XBLOCK comes from the launch configuration. */
static const char gelu[] =
    "import triton\n"
    "@triton_heuristics.pointwise(\n"
    "    size_hints={'x': 33554432}, \n"
    "    triton_meta={'signature': {'in_out_ptr0': '*bf16', 'in_ptr0': '*bf16', 'xnumel': 'i32', "
    "'XBLOCK': 'constexpr'}, 'device': DeviceProperties(type='cuda'), 'constants': {}},\n"
    ")\n"
    "@triton.jit\n"
    "def triton_poi_fused_gelu_0(in_out_ptr0, in_ptr0, xnumel, XBLOCK : tl.constexpr):\n"
    "    xnumel = 33554432\n"
    "    xindex = xoffset + tl.arange(0, XBLOCK)[:]\n"
    "    x0 = xindex\n"
    "    tmp0 = tl.load(in_out_ptr0 + (x0), None).to(tl.float32)\n"
    "    tmp1 = tl.load(in_ptr0 + (x0), None).to(tl.float32)\n"
    "    tmp2 = tmp0 + tmp1\n"
    "    tmp3 = tl.full([1], 0.5, tl.float32)\n"
    "    tmp4 = tmp2 * tmp3\n"
    "    tmp5 = libdevice.erf(tmp4)\n"
    "    tmp6 = -tmp5\n"
    "    tl.store(in_out_ptr0 + (x0), tmp6, None)\n"
    "\n"
    "\n"
    "def get_args():\n"
    "    tl.load(in_ptr0 + (x9))\n";

/* A reduction whose second pointer is a slice of a larger buffer (q out of a fused qkv): it
 * holds 3x the iteration space and is read through one index. xnumel is passed although the
 * signature calls it constexpr (Inductor does this for a size of 1). */
static const char sliced[] =
    "@triton.jit\n"
    "triton_meta={'signature': {'in_ptr0': '*fp32', 'in_ptr1': '*bf16', 'out_ptr0': '*fp32', "
    "'xnumel': 'constexpr', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'}}\n"
    "@triton.jit\n"
    "def triton_red_fused_sum_1(in_ptr0, in_ptr1, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, "
    "R0_BLOCK : tl.constexpr):\n"
    "        tmp0 = tl.load(in_ptr0 + (r0_0), r0_mask, other=0.0)\n"
    "        tmp1 = tl.load(in_ptr1 + (r0_0 + 3*r0_0), r0_mask, other=0.0)\n"
    "        tmp2 = tmp0 * tmp1\n"
    "    tmp3 = tl.sum(_tmp2, 1)[:, None]\n"
    "    tl.atomic_add(out_ptr0 + (tl.full([1], 0, tl.int32)), tmp3, None, sem='relaxed')\n";

static pf_arg tensor(int ndim, const int64_t *dims, const char *type)
{
    pf_arg a = {0};
    a.ndim = ndim;
    memcpy(a.dims, dims, (size_t)ndim * sizeof *dims);
    a.type = type;
    a.concrete = "";
    return a;
}

static pf_arg scalar(const char *value)
{
    pf_arg a = {0};
    a.type = "Scalar";
    a.concrete = value;
    return a;
}

static void parse(void)
{
    pf_triton_kernel k;
    const char *why = NULL;
    CHECK("parse gelu: ok", pf_triton_parse(gelu, strlen(gelu), &k, &why) == 0);
    CHECK("parse gelu: 3 launch parameters (XBLOCK is constexpr)", k.nparams == 3);
    CHECK("parse gelu: in_out_ptr0 read and written, bf16", k.params[0].role == PF_TRITON_INOUT && k.params[0].elem_size == 2);
    CHECK("parse gelu: in_ptr0 read", k.params[1].role == PF_TRITON_IN);
    CHECK("parse gelu: xnumel a scalar of the iteration space", k.params[2].role == PF_TRITON_SCALAR && k.params[2].is_numel);
    CHECK("parse gelu: in_out_ptr0's load and store share one index", k.params[0].accesses == 1);
    /* tmp2 +, tmp4 *, tmp5 libdevice, tmp6 unary minus; loads, tl.full and casts none; the
     * harness after the body is not read */
    CHECK("parse gelu: 4 operations per element", k.ops_per_elem == 4);
    CHECK("parse gelu: the harness's load is outside the body", k.params[1].accesses == 1);

    CHECK("parse sliced: ok", pf_triton_parse(sliced, strlen(sliced), &k, &why) == 0);
    CHECK("parse sliced: xnumel passed though the signature calls it constexpr", k.nparams == 5 && k.params[3].is_numel);
    CHECK("parse sliced: atomic_add counts as an access", k.params[2].accesses == 1 && k.params[2].role == PF_TRITON_OUT);
    CHECK("parse sliced: 2 operations (*, tl.sum)", k.ops_per_elem == 2);

    static const char *const broken[] = {
        "",
        "'signature': {'in_ptr0': '*bf16'",
        "'signature': {'in_ptr0': '*bf16'}\n",
        "'signature': {'in_ptr0': '*q17'}\n@triton.jit\ndef k(in_ptr0):\n",
        "'signature': {}\n@triton.jit\ndef k(in_ptr0):\n",
        "'signature': {'in_ptr0': '*bf16'}\n@triton.jit\ndef k(in_ptr0\n",
    };
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        why = NULL;
        int rc = pf_triton_parse(broken[i], strlen(broken[i]), &k, &why);
        CHECK("parse: not a module is refused with a reason", rc == -1 && why && *why);
    }
    /* the text is read only within its length: a module cut before its def line */
    CHECK("parse: a cut text is refused", pf_triton_parse(gelu, 200, &k, &why) == -1);
}

/* A module of one kernel (in_ptr0, in_ptr1 read, out_ptr0 written, xnumel) whose body is
 * body: the header the one-pass parser tests share. */
static int parse_body(const char *body, pf_triton_kernel *k, const char **why, double budget_s)
{
    static const char head[] =
        "triton_meta={'signature': {'in_ptr0': '*bf16', 'in_ptr1': '*fp32', 'out_ptr0': '*bf16', "
        "'xnumel': 'i32', 'XBLOCK': 'constexpr'}}\n"
        "@triton.jit\n"
        "def triton_poi_k_0(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):\n";
    size_t n = strlen(head) + strlen(body);
    char *text = malloc(n + 1);
    if (!text)
        return -3;
    snprintf(text, n + 1, "%s%s", head, body);
    int rc = pf_triton_parse_within(text, n, budget_s, k, why);
    free(text);
    return rc;
}

/* The one-pass parser (issue 48 defect 2): indexes matched by a counter and a stack, an
 * unclosed index running to the body's end, Python's nesting limit, the time budget. */
static void one_pass(void)
{
    pf_triton_kernel k;
    const char *why = NULL;
    /* x0 twice (a load and a store), (x0 + (3*x1)) once, x1 once: in_ptr0 2 indexes, out_ptr0 2 */
    CHECK("one pass: nested parentheses inside an index",
          parse_body("    tmp0 = tl.load(in_ptr0 + (x0), None)\n"
                     "    tmp1 = tl.load(in_ptr0 + (x0 + (3*x1)), None)\n"
                     "    tl.store(out_ptr0 + (x0), tmp0, None)\n"
                     "    tl.store(out_ptr0 + (x1), tmp1, None)\n"
                     "    tmp2 = tl.load(in_ptr0 + (x0), None)\n",
                     &k, &why, 0) == 0);
    CHECK("one pass: in_ptr0 read through 2 distinct indexes", k.params[0].accesses == 2);
    CHECK("one pass: in_ptr1 never read", k.params[1].accesses == 0);
    CHECK("one pass: out_ptr0 written through 2", k.params[2].accesses == 2);

    /* an index inside an index: in_ptr1's (x0) inside in_ptr0's; in_ptr0's index closes last */
    CHECK("one pass: an access inside an index",
          parse_body("    tmp0 = tl.load(in_ptr0 + (tl.load(in_ptr1 + (x0)).to(tl.int32)), None)\n"
                     "    tmp1 = tl.load(in_ptr1 + (x0))\n",
                     &k, &why, 0) == 0);
    CHECK("one pass: the outer index 1, the inner (x0) shared with the plain load: 1",
          k.params[0].accesses == 1 && k.params[1].accesses == 1);

    /* unclosed: "x0 + 1\n ..." to the body's end, once; its own text differs from the closed
     * (x0 + 1): 2 indexes; a pointer with no offset: the index "", a third */
    CHECK("one pass: an index that never closes",
          parse_body("    tmp0 = tl.load(in_ptr0 + (x0 + 1), None)\n"
                     "    tmp1 = tl.load(in_ptr0)\n"
                     "    tmp2 = tl.load(in_ptr0 + (x0 + 1\n"
                     "    tmp3 = tmp0 + tmp1\n",
                     &k, &why, 0) == 0);
    CHECK("one pass: closed, no offset and unclosed: 3 indexes", k.params[0].accesses == 3);
    CHECK("one pass: the + after the unclosed index still counted (1 op)", k.ops_per_elem == 1);

    /* 100 unclosed loads open 200 parentheses ("tl.load(" and " + ("): Python's limit, accepted,
     * each a distinct index (each runs from its own start to the end); a 101st refused */
    size_t one = strlen("    tmp0 = tl.load(in_ptr0 + (x0\n");
    char *deep = malloc(101 * one + 1);
    if (!deep)
        return;
    deep[0] = 0;
    for (int i = 0; i < 100; i++)
        strcat(deep, "    tmp0 = tl.load(in_ptr0 + (x0\n");
    CHECK("one pass: 200 open parentheses accepted", parse_body(deep, &k, &why, 0) == 0);
    CHECK("one pass: 100 distinct unclosed indexes", k.params[0].accesses == 100);
    strcat(deep, "    tmp0 = tl.load(in_ptr0 + (x0\n");
    why = NULL;
    CHECK("one pass: 201 open refused", parse_body(deep, &k, &why, 0) == -1);
    CHECK("one pass: 201 open: the reason names Python's limit", why && strstr(why, "nested deeper than Python allows (200)"));
    free(deep);

    /* 3000 distinct indexes: counted up to 2048 pairs, the set's bound */
    char *many = malloc(3000 * 64);
    if (!many)
        return;
    size_t len = 0;
    for (int i = 0; i < 3000; i++)
        len += (size_t)snprintf(many + len, 64, "    tmp0 = tl.load(in_ptr0 + (x0 + %d))\n", i);
    CHECK("one pass: 3000 indexes parsed", parse_body(many, &k, &why, 0) == 0);
    CHECK("one pass: at most 2048 distinct pairs counted", k.params[0].accesses == 2048);
    free(many);

    /* the budget: a nanosecond is spent before the parse ends */
    why = NULL;
    CHECK("budget: a parse past its budget returns -2", parse_body("    tmp0 = tl.load(in_ptr0 + (x0))\n", &k, &why, 1e-9) == -2);
    CHECK("budget: the reason says so", why && strstr(why, "time budget"));
    CHECK("budget: 10 s is plenty", parse_body("    tmp0 = tl.load(in_ptr0 + (x0))\n", &k, &why, 10) == 0 && k.params[0].accesses == 1);
}

static void work(void)
{
    /* GELU over [8192, 4096] bf16: in_out 2*33554432*2 + in 33554432*2 = 201326592 bytes
     * (Inductor's count: in_out twice); 4 ops per element * 33554432 = 134217728 FLOPs. */
    int64_t d2[] = {8192, 4096};
    pf_arg a[] = {tensor(2, d2, "c10::BFloat16"), tensor(2, d2, "c10::BFloat16"), scalar("33554432")};
    pf_op_call c = {"triton_poi_fused_gelu_0", a, NULL, 3, 0};
    pf_work w;
    pf_explain ex;
    CHECK("gelu: ok", pf_triton_work(&c, gelu, strlen(gelu), "", &ex, &w) == PF_FORMULA_OK);
    CHECK_NEAR("gelu: bytes by hand (in_out twice)", w.bytes, 201326592.0);
    CHECK_NEAR("gelu: FLOPs 4 per element", w.flop, 134217728.0);
    CHECK_STR("gelu: source triton-src", w.source, "triton-src");
    CHECK("gelu: not a bound", !w.lower_bound && !w.upper_bound && !w.generic);

    /* without the module: every tensor once, a lower bound: 2 * 33554432*2 = 134217728 */
    CHECK("gelu no module: ok", pf_triton_work(&c, NULL, 0, "not found", &ex, &w) == PF_FORMULA_OK);
    CHECK_NEAR("gelu no module: each tensor once", w.bytes, 134217728.0);
    CHECK("gelu no module: a lower bound, FLOPs unknown", w.lower_bound && w.flop < 0);
    CHECK_STR("gelu no module: source triton~lb", w.source, "triton~lb");
    CHECK("gelu no module: the reason explained", strstr(ex.sizes, "not found") != NULL);

    /* arguments that do not fit the module (one missing): the lower bound, with the reason */
    pf_op_call c2 = {"triton_poi_fused_gelu_0", a, NULL, 2, 0};
    CHECK("gelu short call: lower bound", pf_triton_work(&c2, gelu, strlen(gelu), "", &ex, &w) == PF_FORMULA_OK && w.lower_bound);
    CHECK("gelu short call: says the parameters do not match", strstr(ex.sizes, "do not match") != NULL);

    /* sliced: iteration space 1 * 4096; in_ptr0 [4096] fp32 16384; in_ptr1 [3*4096] bf16, more
     * elements than the space, read through 1 index: 1*4096*2 = 8192; out_ptr0 [1] fp32 4. */
    int64_t d_in0[] = {4096}, d_in1[] = {12288}, d_out[] = {1};
    pf_arg s[] = {tensor(1, d_in0, "float"), tensor(1, d_in1, "c10::BFloat16"), tensor(1, d_out, "float"),
                  scalar("1"), scalar("4096")};
    pf_op_call cs = {"triton_red_fused_sum_1", s, NULL, 5, 0};
    CHECK("sliced: ok", pf_triton_work(&cs, sliced, strlen(sliced), "", NULL, &w) == PF_FORMULA_OK);
    CHECK_NEAR("sliced: a slice counted at its accesses x the iteration space", w.bytes, 16384.0 + 8192.0 + 4.0);
    CHECK_NEAR("sliced: FLOPs 2 per element of 4096", w.flop, 8192.0);

    /* a GEMM template without a module: A [2048, 512] B [512, 1024] out [2048, 1024] bf16:
     * 2*2048*1024*512 FLOPs; bytes each tensor once; grid integers do not cap them */
    int64_t da[] = {2048, 512}, db[] = {512, 1024}, dc[] = {2048, 1024};
    pf_arg t[] = {tensor(2, da, "c10::BFloat16"), tensor(2, db, "c10::BFloat16"), tensor(2, dc, "c10::BFloat16"),
                  scalar("128"), scalar("1"), scalar("1")};
    pf_op_call ct = {"triton_tem_fused_mm_0", t, NULL, 6, 0};
    CHECK("template: ok", pf_triton_work(&ct, NULL, 0, "no kernel_file", NULL, &w) == PF_FORMULA_OK);
    CHECK_NEAR("template: 2*M*N*K", w.flop, 2.0 * 2048 * 1024 * 512);
    CHECK_NEAR("template: each tensor once", w.bytes, (2048.0 * 512 + 512.0 * 1024 + 2048.0 * 1024) * 2);
}

int main(void)
{
    parse();
    one_pass();
    work();
    CHECK_DONE();
}
