/* test_explain.c - --explain's engine (include/profana/explain.h) and its view on a tiny hand-written trace: what each query finds, the figures and rates worked out by hand, and how they print. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "profana/explain.h"
#include "profana/explain_view.h"
#include "profana/trace.h"

/* An H100 SXM (matched by name: 989.5 TFLOP/s bf16, 3350 GB/s). aten::linear (External id
 * 5) launched nothing itself; the first aten::mm [64,128] x [128,32] bf16 ran a GEMM (2 us)
 * and a helper (1 us); a second aten::mm with the same inputs ran a GEMM (2.5 us); a memset
 * of 4096 bytes (0.5 us) has no op. */
static const char trace_text[] =
    "{\"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\", \"totalGlobalMem\": 85017493504,"
    " \"numSms\": 132}],\n"
    "\"traceEvents\": [\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::linear\", \"pid\": 1, \"tid\": 1, \"ts\": 90, \"dur\": 80,"
    " \"args\": {\"External id\": 5}},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, \"ts\": 100, \"dur\": 20,"
    " \"args\": {\"External id\": 1, \"Input Dims\": [[64, 128], [128, 32]],"
    " \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\"], \"Concrete Inputs\": [\"\", \"\"]}},\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, \"ts\": 130, \"dur\": 20,"
    " \"args\": {\"External id\": 2, \"Input Dims\": [[64, 128], [128, 32]],"
    " \"Input type\": [\"c10::BFloat16\", \"c10::BFloat16\"], \"Concrete Inputs\": [\"\", \"\"]}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm_kernel\", \"pid\": 0, \"tid\": 7, \"ts\": 110, \"dur\": 2,"
    " \"args\": {\"External id\": 1, \"device\": 0, \"stream\": 7, \"correlation\": 10}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"helper_kernel\", \"pid\": 0, \"tid\": 7, \"ts\": 113, \"dur\": 1,"
    " \"args\": {\"External id\": 1, \"device\": 0, \"stream\": 7, \"correlation\": 11}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm_kernel\", \"pid\": 0, \"tid\": 7, \"ts\": 140, \"dur\": 2.5,"
    " \"args\": {\"External id\": 2, \"device\": 0, \"stream\": 7, \"correlation\": 12}},\n"
    "{\"ph\": \"X\", \"cat\": \"gpu_memset\", \"name\": \"Memset (Device)\", \"pid\": 0, \"tid\": 7, \"ts\": 150,"
    " \"dur\": 0.5, \"args\": {\"External id\": 99, \"device\": 0, \"stream\": 7, \"correlation\": 13, \"bytes\": 4096}}\n"
    "]}\n";

/* By hand: FLOP = 2 * 64 * 128 * 32 = 524288;
 * bytes = (64*128 + 128*32 + 64*32) * 2 = (8192 + 4096 + 2048) * 2 = 28672. */
static const double mm_flop = 524288, mm_bytes = 28672;

static char *write_temp(const char *text)
{
    return check_write_temp("/tmp/profana_test_explain_", text);
}

static const pf_analysis_opts opts = {.default_dtype = PF_DT_BF16, .step = PF_STEP_EVERY};

static int find(const pf_trace *t, const char *query, pf_invocation *inv)
{
    pf_error err;
    return pf_invocation_find(t, &opts, query, inv, &err);
}

/* The rendering of inv in a format, as a string (caller frees). */
static char *rendered(const pf_invocation *inv, pf_format f)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *out = open_memstream(&buf, &n);
    pf_explain_view_opts view = {f, 0, 0};
    int rc = out ? pf_explain_print(out, inv, &view) : -1;
    if (out)
        fclose(out);
    if (rc) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The first aten::mm as text and JSON. */
static void op_views(const pf_invocation *e)
{
    char *text = rendered(e, PF_FMT_TEXT);
    CHECK("text: the match line",
          text && strstr(text, "Match: op aten::mm, invocation 1 of 2 in file order (1 others match, 1 of them with "
                               "the same inputs)\n"));
    CHECK("text: the formula's FLOP expression ends in 524288", text && strstr(text, " = 524288\n"));
    CHECK("text: the figures line", text && strstr(text, "Figures: flop 524288, bytes 28672, source gemm\n"));
    CHECK("text: the carrier's rates",
          text && strstr(text, "Achieved on the kernels carrying its FLOPs (2.000 us): 0.26 TFLOP/s (0.0% of the "
                               "bf16 peak), 9.6 GB/s (0.3% of DRAM peak); bound: memory\n"));
    CHECK("text: the peaks", text && strstr(text, "; peaks 989.5 TFLOP/s, DRAM 3350 GB/s\n"));
    free(text);

    char *json = rendered(e, PF_FMT_JSON);
    cJSON *doc = json ? cJSON_Parse(json) : NULL;
    const cJSON *inv = cJSON_GetObjectItemCaseSensitive(doc, "invocation_total");
    CHECK("json: reads back", doc != NULL);
    CHECK("json: flop 524288, bytes 28672",
          cJSON_GetObjectItemCaseSensitive(doc, "flop") && cJSON_GetObjectItemCaseSensitive(doc, "flop")->valuedouble == mm_flop &&
              cJSON_GetObjectItemCaseSensitive(doc, "bytes")->valuedouble == mm_bytes);
    CHECK_NEAR("json: invocation dur_us 3", cJSON_GetObjectItemCaseSensitive(inv, "dur_us")->valuedouble, 3.0);
    CHECK_NEAR("json: peak_tflops 989.5", cJSON_GetObjectItemCaseSensitive(doc, "peak_tflops")->valuedouble, 989.5);
    cJSON_Delete(doc);
    free(json);
}

static void the_op(const pf_trace *t)
{
    pf_invocation e;
    CHECK("op: aten::mm is found", find(t, "aten::mm", &e) == 0 && e.found == PF_INV_FOUND);
    CHECK("op: by op name, the first of 2 invocations", e.kind == PF_INV_OP && e.rank == 1 && e.matches == 2);
    CHECK("op: the other invocation has the same inputs", e.same_inputs == 1);
    CHECK("op: its 2 activities, the GEMM (the longest) carrying the work", e.n_acts == 2 && e.carrier == 0);
    CHECK_STR("op: the GEMM family, formula ok", e.family, "gemm");
    CHECK_STR("op: status ok", e.status, "ok");
    CHECK_NEAR("op: formula FLOP = 2*64*128*32 = 524288", e.fw.flop, mm_flop);
    CHECK_NEAR("op: formula bytes = (8192 + 4096 + 2048) * 2 = 28672", e.fw.bytes, mm_bytes);
    CHECK("op: the figures are the carrier's, bf16", e.op_work.flop == mm_flop && e.op_work.bytes == mm_bytes &&
                                                         e.op_work.dtype == PF_DT_BF16);
    /* FLOPs on the GEMM; bytes by time: GEMM 2 us, helper 1 us of 3 */
    CHECK("op: the helper kernel carries none of the FLOPs, marked",
          e.work[1].flop == 0 && (e.work[1].elsewhere & PF_ELSEWHERE_FLOP));
    CHECK_NEAR("op: the helper kernel carries 28672 / 3 bytes", e.work[1].bytes, 28672.0 / 3);
    CHECK_NEAR("op: the bf16 peak is 989.5 TFLOP/s", e.peak_flops, 9.895e14);
    /* On the GEMM, 2 us: 524288 / 2e-6 = 2.62144e11 FLOP/s = 0.262144 TFLOP/s; its 2/3 of the
     * bytes, 19114.67 / 2e-6 = 9.557333 GB/s; FLOPS % = 100 * 524288 / 9.895e14 / 2e-6 =
     * 0.026492572; BW % = 100 * 9.557333e9 / 3.35e12 = 0.2852935. At peak: 524288 / 9.895e14 = 5.30e-10 s
     * of compute against 28672 / 3.35e12 = 8.56e-9 s of memory (18.3 FLOP/byte, under the
     * ridge of 295.4): memory-bound. */
    const pf_inv_rates *c = &e.carrier_rates;
    CHECK_NEAR("op: carrier 2000 ns", c->ns, 2000);
    CHECK_NEAR("op: carrier 0.262144 TFLOP/s", c->tflops, 0.262144);
    CHECK_NEAR("op: carrier 9.557333 GB/s", c->gbps, 28672 / 3e-6 / 1e9);
    CHECK_NEAR("op: carrier FLOPS % 0.026492572006", c->flops_pct, 0.026492572006);
    CHECK_NEAR("op: carrier BW % 0.285293532338", c->bw_pct, 0.285293532338);
    CHECK_STR("op: carrier memory-bound", c->bound, "memory");
    /* Over both activities, 3 us: 524288 / 3e-6 = 0.17476267 TFLOP/s; 28672 / 3e-6 = 9.557333 GB/s */
    const pf_inv_rates *all = &e.total_rates;
    CHECK_NEAR("op: invocation 3000 ns", all->ns, 3000);
    CHECK_NEAR("op: invocation 0.174762667 TFLOP/s", all->tflops, 524288 / 3e-6 / 1e12);
    CHECK_NEAR("op: invocation 9.557333 GB/s", all->gbps, 28672 / 3e-6 / 1e9);
    CHECK_NEAR("op: invocation FLOPS % = 0.026492572 * 2/3", all->flops_pct, 0.026492572006 * 2 / 3);

    op_views(&e);
    pf_invocation_free(&e);
}

static void kernels(const pf_trace *t)
{
    pf_invocation e;
    CHECK("kernel part: 'helper' is part of one kernel name",
          find(t, "helper", &e) == 0 && e.found == PF_INV_FOUND && e.kind == PF_INV_KERNEL_PART);
    CHECK_STR("kernel part: helper_kernel", e.name, "helper_kernel");
    CHECK("kernel part: the helper is the launch shown, among its op's 2 activities",
          strcmp(t->acts[e.act].name, "helper_kernel") == 0 && e.n_acts == 2 && e.carrier == 0);
    pf_invocation_free(&e);

    CHECK("memset: a whole activity name", find(t, "Memset (Device)", &e) == 0 && e.found == PF_INV_FOUND &&
                                               e.kind == PF_INV_KERNEL && e.op < 0 && e.n_acts == 1);
    /* 4096 bytes in 0.5 us: 8.192e9 B/s = 8.192 GB/s; 100 * 4096 / 3.35e12 / 5e-7 = 0.24453731 %;
     * no FLOPs against the bf16 peak: 0 %; no FLOPs and some bytes: memory-bound */
    CHECK_NEAR("memset: 8.192 GB/s", e.total_rates.gbps, 8.192);
    CHECK_NEAR("memset: BW % 0.244537313", e.total_rates.bw_pct, 100 * 4096 / 3.35e12 / 5e-7);
    CHECK("memset: 0 TFLOP/s, 0 % of peak", e.total_rates.tflops == 0 && e.total_rates.flops_pct == 0);
    CHECK_STR("memset: memory-bound", e.total_rates.bound, "memory");
    CHECK("memset: no carrier", e.carrier < 0);
    CHECK_STR("memset: no launching op", e.status, "no launching op");
    pf_invocation_free(&e);
}

static void not_found(const pf_trace *t)
{
    pf_invocation e;
    CHECK("not launched: aten::linear ran no GPU activity itself",
          find(t, "aten::linear", &e) == 0 && e.found == PF_INV_NOT_LAUNCHED && e.matches == 1);
    pf_invocation_free(&e);
    CHECK("ambiguous: '_kernel' is part of 2 kernel names",
          find(t, "_kernel", &e) == 0 && e.found == PF_INV_AMBIGUOUS && e.n_names == 2 && e.n_hints == 2);
    CHECK("ambiguous: named in file order",
          strcmp(e.hints[0], "gemm_kernel") == 0 && strcmp(e.hints[1], "helper_kernel") == 0);
    pf_invocation_free(&e);
    CHECK("no match: 'ATEN::MM' (names are case-sensitive)", find(t, "ATEN::MM", &e) == 0 && e.found == PF_INV_NO_MATCH);
    CHECK("no match: suggests aten::mm once", e.n_hints == 1 && strcmp(e.hints[0], "aten::mm") == 0);
    pf_invocation_free(&e);
}

int main(void)
{
    char *in = write_temp(trace_text);
    pf_load_opts lo = {.jobs = 1, .all_ops = 1};
    pf_trace *t = NULL;
    pf_error err;
    int ok = in && pf_trace_load_opts(in, &lo, &t, &err) == 0;
    CHECK("the hand-written trace loads", ok);
    if (in)
        unlink(in);
    if (ok) {
        CHECK("it has 3 ops and 4 activities", t->n_ops == 3 && t->n_acts == 4);
        the_op(t);
        kernels(t);
        not_found(t);
    }
    pf_trace_free(t); /* before the path: the trace borrows it */
    free(in);
    CHECK_DONE();
}
