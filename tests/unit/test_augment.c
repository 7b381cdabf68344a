/* test_augment.c - the --augment_trace engine (include/profana/augment.h) on a tiny hand-written trace: one aten::mm of known shapes, its figures worked out by hand, in the plan and in the written text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "profana/augment.h"
#include "profana/trace.h"

/* An H100 SXM (matched by name: 989.5 TFLOP/s bf16, 3350 GB/s) ran aten::mm
 * [64,128] x [128,32] in bf16 as two kernels: the GEMM (2 us, ts 110) and a helper
 * (1 us, ts 113), and a memset that no op launched (4096 bytes, 0.5 us). */
static const char trace_text[] =
    "{\"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\", \"totalGlobalMem\": 85017493504,"
    " \"numSms\": 132}],\n"
    "\"traceEvents\": [\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, \"ts\": 100, \"dur\": 50,"
    " \"args\": {\"External id\": 1, \"Input Dims\": [[64, 128], [128, 32]],"
    " \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\"], \"Concrete Inputs\": [\"\", \"\"]}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm_kernel\", \"pid\": 0, \"tid\": 7, \"ts\": 110, \"dur\": 2,"
    " \"args\": {\"External id\": 1, \"device\": 0, \"stream\": 7, \"correlation\": 10}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"helper_kernel\", \"pid\": 0, \"tid\": 7, \"ts\": 113, \"dur\": 1,"
    " \"args\": {\"External id\": 1, \"device\": 0, \"stream\": 7, \"correlation\": 11}},\n"
    "{\"ph\": \"X\", \"cat\": \"gpu_memset\", \"name\": \"Memset (Device)\", \"pid\": 0, \"tid\": 7, \"ts\": 120,"
    " \"dur\": 0.5, \"args\": {\"External id\": 99, \"device\": 0, \"stream\": 7, \"correlation\": 12, \"bytes\": 4096}}\n"
    "]}\n";

/* By hand:
 *   FLOP  = 2 * M * K * N = 2 * 64 * 128 * 32 = 524288
 *   bytes = (A + B + C) elements * 2 bytes = (64*128 + 128*32 + 64*32) * 2 = (8192 + 4096 + 2048) * 2
 *         = 28672, so kernel_num_gb = 28672 / 1e9 = 0.000028672 */
static const double mm_flop = 2.0 * 64 * 128 * 32;
static const double mm_bytes = (64.0 * 128 + 128.0 * 32 + 64.0 * 32) * 2;

static char *write_temp(const char *text)
{
    return check_write_temp("/tmp/profana_test_augment_", text);
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 16);
    if (buf)
        fread(buf, 1, (1 << 16) - 1, f);
    fclose(f);
    return buf;
}

/* The args of the event named name (and of category cat) in the written trace. */
static const cJSON *args_of(const cJSON *doc, const char *cat, const char *name)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(doc, "traceEvents")) {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "cat"), *n = cJSON_GetObjectItemCaseSensitive(e, "name");
        if (cJSON_IsString(c) && cJSON_IsString(n) && strcmp(c->valuestring, cat) == 0 &&
            strcmp(n->valuestring, name) == 0)
            return cJSON_GetObjectItemCaseSensitive(e, "args");
    }
    return NULL;
}

static double num(const cJSON *args, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, key);
    return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

/* One augmentation: the analysis (extra only), the plan, and the text written. */
typedef struct run {
    pf_analysis *an;
    pf_augment *g;
    char *text;
} run;

static run augmented(const char *in, const pf_trace *t, int extra)
{
    pf_augment_opts o = {.an = {.default_dtype = PF_DT_BF16, .step = PF_STEP_EVERY}, .extra = extra, .jobs = 1};
    run r = {0};
    pf_error err;
    char out[] = "/tmp/profana_test_augment_out_XXXXXX";
    int fd = mkstemp(out);
    if (fd < 0)
        return r;
    close(fd);
    int rc = extra ? pf_analysis_run(t, &o.an, &r.an, &err) : 0;
    if (rc == 0)
        rc = pf_augment_plan(t, r.an, &o, &r.g, &err);
    if (rc == 0)
        rc = pf_augment_write(r.g, in, out, &err);
    if (rc == 0)
        r.text = read_all(out);
    else
        printf("FAIL augment: %s\n", err.msg);
    unlink(out);
    return r;
}

static void run_free(run *r)
{
    pf_augment_free(r->g);
    pf_analysis_free(r->an);
    free(r->text);
}

/* The value text of key in the plan's pairs of the event at byte off. */
static const char *pair_text(const pf_augment *g, int64_t off, const char *key, pf_augment_pairs *p)
{
    for (size_t k = 0; k < pf_augment_count(g); k++) {
        if (pf_augment_event(g, k, p) != off)
            continue;
        for (size_t i = 0; i < p->n; i++)
            if (strcmp(p->kv[i].key, key) == 0)
                return p->kv[i].val;
    }
    return NULL;
}

static void plain(const char *in, const pf_trace *t)
{
    run r = augmented(in, t, 0);
    cJSON *doc = r.text ? cJSON_Parse(r.text) : NULL;
    CHECK("plain: the written trace reads back", doc != NULL);
    /* the plan: gemm_kernel, helper_kernel, the memset and the op: 4 events */
    CHECK("plain: 4 events planned (the op, its two kernels, the memset)", r.g && pf_augment_count(r.g) == 4);
    pf_augment_pairs p;
    CHECK_STR("plain: the op's kernel_flop text is 524288", pair_text(r.g, t->ops[0].src_off, "kernel_flop", &p),
              "524288");
    CHECK_STR("plain: the op's kernel_num_gb text is the exact 28672 / 1e9",
              pair_text(r.g, t->ops[0].src_off, "kernel_num_gb", &p), "0.000028672");
    const cJSON *op = args_of(doc, "cpu_op", "aten::mm"), *gemm = args_of(doc, "kernel", "gemm_kernel");
    const cJSON *helper = args_of(doc, "kernel", "helper_kernel"), *fill = args_of(doc, "gpu_memset", "Memset (Device)");
    CHECK_NEAR("plain: op kernel_flop = 2*64*128*32 = 524288", num(op, "kernel_flop"), mm_flop);
    CHECK_NEAR("plain: op kernel_num_gb = 28672 / 1e9", num(op, "kernel_num_gb"), mm_bytes / 1e9);
    /* FLOPs on the GEMM kernel (the op's one math kernel); bytes by time: GEMM 2 us, helper
     * 1 us of 3: 28672 * 2/3 = 19114.666... and 28672 / 3 = 9557.333... bytes */
    CHECK_NEAR("plain: the GEMM kernel carries 524288 FLOP", num(gemm, "kernel_flop"), mm_flop);
    CHECK_NEAR("plain: ... and 2/3 of the 28672 bytes", num(gemm, "kernel_num_gb"), 28672.0 * 2 / 3 / 1e9);
    CHECK_NEAR("plain: the helper kernel carries 1/3 of the bytes", num(helper, "kernel_num_gb"), 28672.0 / 3 / 1e9);
    CHECK("plain: ... and no kernel_flop (none of the op's FLOPs: not a measured 0)", num(helper, "kernel_flop") < 0);
    CHECK_NEAR("plain: the memset carries its own 4096 bytes", num(fill, "kernel_num_gb"), 4096 / 1e9);
    CHECK("plain: the memset does no FLOPs", num(fill, "kernel_flop") == 0);
    CHECK("plain: no rates without extra", num(gemm, "achieved_tflops") < 0 && num(op, "flops_pct") < 0);
    CHECK("plain: the other args stay", num(op, "External id") == 1 && num(gemm, "correlation") == 10);
    cJSON_Delete(doc);
    run_free(&r);
}

static void extra(const char *in, const pf_trace *t)
{
    run r = augmented(in, t, 1);
    cJSON *doc = r.text ? cJSON_Parse(r.text) : NULL;
    CHECK("extra: the written trace reads back", doc != NULL);
    const cJSON *op = args_of(doc, "cpu_op", "aten::mm"), *gemm = args_of(doc, "kernel", "gemm_kernel");
    const cJSON *helper = args_of(doc, "kernel", "helper_kernel");
    /* The GEMM kernel: 524288 FLOP in 2 us = 2.62144e11 FLOP/s = 0.262144 TFLOP/s;
     * 28672 * 2/3 bytes in 2 us = 28672 / 3e-6 = 9.557333 GB/s (the op's bytes over its 3 us);
     * FLOPS % = 524288 / 9.895e14 / 2e-6 * 100 = 524288 / 1.979e9 * 100 = 0.026492572...;
     * BW % = 9.557333e9 / 3.35e12 * 100 = 0.285293532... */
    CHECK_NEAR("extra: GEMM 0.262144 TFLOP/s", num(gemm, "achieved_tflops"), 0.262144);
    CHECK_NEAR("extra: GEMM 9.557333 GB/s", num(gemm, "achieved_gbps"), 28672 / 3e-6 / 1e9);
    CHECK_NEAR("extra: GEMM FLOPS % = 0.026492572006", num(gemm, "flops_pct"), 0.026492572006);
    CHECK_NEAR("extra: GEMM BW % = 0.285293532338", num(gemm, "bw_pct"), 0.285293532338);
    const cJSON *cat = cJSON_GetObjectItemCaseSensitive(gemm, "kernel_category");
    CHECK_STR("extra: the GEMM's category", cJSON_IsString(cat) ? cat->valuestring : NULL, "gemm");
    /* The op: the same work over all its activities' time, 2 + 1 = 3 us:
     * 524288 / 3e-6 = 1.74762666...e11 FLOP/s = 0.174762666667 TFLOP/s (12 digits) */
    pf_augment_pairs p;
    CHECK_STR("extra: the op's achieved_tflops text", pair_text(r.g, t->ops[0].src_off, "achieved_tflops", &p),
              "0.174762666667");
    CHECK_NEAR("extra: op 28672 bytes over 3 us = 9.557333 GB/s", num(op, "achieved_gbps"), 28672 / 3e-6 / 1e9);
    /* 524288 / 9.895e14 / 3e-6 * 100 = 0.026492572006 * 2 / 3 = 0.017661714671 */
    CHECK_NEAR("extra: the op's FLOPS % is over 3 us: 0.017661714671", num(op, "flops_pct"), 0.017661714671);
    /* The helper: none of the FLOPs (no FLOP rate written), 28672 / 3 bytes in 1 us: the
     * op's byte rate, 9.557333 GB/s, 0.285293532338% */
    CHECK("extra: the helper has no FLOP rate", num(helper, "achieved_tflops") < 0 && num(helper, "flops_pct") < 0);
    CHECK_NEAR("extra: the helper 9.557333 GB/s", num(helper, "achieved_gbps"), 28672 / 3e-6 / 1e9);
    CHECK_NEAR("extra: the helper BW % = 0.285293532338", num(helper, "bw_pct"), 0.285293532338);
    cJSON_Delete(doc);
    run_free(&r);
}

int main(void)
{
    char *in = write_temp(trace_text);
    pf_trace *t = NULL;
    pf_error err;
    int ok = in && pf_trace_load(in, &t, &err) == 0;
    CHECK("the hand-written trace loads", ok);
    if (!ok) {
        if (in)
            unlink(in);
        free(in);
        CHECK_DONE();
    }
    CHECK("it has one op and three activities", t->n_ops == 1 && t->n_acts == 3);
    plain(in, t);
    extra(in, t);
    pf_trace_free(t);
    unlink(in);
    free(in);
    CHECK_DONE();
}
