/* test_diagnose.c - unit tests of the diagnosis on hand-made traces whose gaps and host marks are known: the idle under an annotation and a Python frame instant by instant, the gap after a sync, short and long unnamed gaps, the ranking, and the mark rules (pf_mark_is_sync, pf_mark_is_blocking_op). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "profana/analysis.h"
#include "profana/diagnose.h"
#include "profana/trace.h"

static void test_mark_rules(void)
{
    CHECK("cudaStreamSynchronize blocks", pf_mark_is_sync("cudaStreamSynchronize", 21));
    CHECK("hipMemcpyWithStream blocks", pf_mark_is_sync("hipMemcpyWithStream", 19));
    CHECK("hipMemcpy blocks", pf_mark_is_sync("hipMemcpy", 9));
    CHECK("cudaMemcpy blocks", pf_mark_is_sync("cudaMemcpy", 10));
    CHECK("cudaMemcpyAsync does not", !pf_mark_is_sync("cudaMemcpyAsync", 15));
    CHECK("cudaLaunchKernel does not", !pf_mark_is_sync("cudaLaunchKernel", 16));
    CHECK("a prefix of a name is not the name", !pf_mark_is_sync("cudaStreamSynchronize", 20));
    CHECK("aten::item reads a value back", pf_mark_is_blocking_op("aten::item", 10));
    CHECK("aten::_local_scalar_dense reads a value back", pf_mark_is_blocking_op("aten::_local_scalar_dense", 25));
    CHECK("aten::mm does not", !pf_mark_is_blocking_op("aten::mm", 8));
    CHECK("aten::items is not aten::item", !pf_mark_is_blocking_op("aten::items", 11));
}

/* One kernel at [ts, ts + dur) us launched by a call at launch_ts (10 us long) on tid. */
static int kernel(char *b, int n, int id, double ts, double dur, double launch_ts, int tid)
{
    return snprintf(b + n, 65536 - (size_t)n,
                    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k%d\",\"pid\":0,\"tid\":7,\"ts\":%.3f,\"dur\":%.3f,"
                    "\"args\":{\"device\":0,\"stream\":7,\"correlation\":%d,\"External id\":%d}},\n"
                    "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":%d,"
                    "\"ts\":%.3f,\"dur\":10,\"args\":{\"correlation\":%d,\"External id\":%d}},\n",
                    id, ts, dur, id, id, tid, launch_ts, id, id);
}

static int host(char *b, int n, const char *cat, const char *name, double ts, double dur, int tid)
{
    return snprintf(b + n, 65536 - (size_t)n,
                    "{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"%s\",\"pid\":1,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f},\n", cat,
                    name, tid, ts, dur);
}

/* The trace (times in us; the GPU's gaps are between the kernels):
 *   k1 [0, 100)    k2 [1100, 1200)   k3 [1210, 1220)   k4 [3220, 3320)   k5 [3330, 3340)
 * gap 1 [100, 1100): k2 launched at 1080 (call ends 1090): host wait 990 us. On thread 1:
 *   "load_batch" annotation [150, 1050) and inside it the Python frame "prep.py(3): fft" [300, 700):
 *   the frame covers 400 us, the annotation the rest of [150, 1050): 500 us; [100, 150) and
 *   [1050, 1090) no mark (90 us, a gap of 1000 us: long); [1090, 1100) launch latency.
 * gap 2 [1200, 1210): k3 launched at 1195 (ends 1205): 5 us host wait under no mark (short),
 *   5 us latency.
 * gap 3 [1220, 3220): thread 1 sits in cudaStreamSynchronize [1212, 1221) when the GPU drains
 *   at 1220; k4 launched at 3200 (ends 3210): the gap follows the sync: 2000 us.
 * gap 4 [3320, 3330): k5 launched at 3315 (ends 3325): 5 us short, 5 us latency.
 * Gaps of exactly 10 us fall in the 10-100 us bin. */
static const char *write_trace(void)
{
    static char path[] = "/tmp/test_diagnose_XXXXXX";
    static char b[65536];
    int n = snprintf(b, sizeof b, "{\"traceEvents\":[\n");
    n += kernel(b, n, 1, 0, 100, -20, 1);
    n += kernel(b, n, 2, 1100, 100, 1080, 1);
    n += kernel(b, n, 3, 1210, 10, 1195, 1);
    n += kernel(b, n, 4, 3220, 100, 3200, 1);
    n += kernel(b, n, 5, 3330, 10, 3315, 1);
    n += host(b, n, "user_annotation", "load_batch", 150, 900, 1);
    n += host(b, n, "python_function", "prep.py(3): fft", 300, 400, 1);
    n += host(b, n, "python_function", "<built-in method sleep>", 320, 100, 1);
    n += host(b, n, "cuda_runtime", "cudaStreamSynchronize", 1212, 9, 1);
    n += snprintf(b + n, sizeof b - (size_t)n, "{\"ph\":\"M\",\"name\":\"end\",\"pid\":0,\"tid\":0}]}\n");
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, b, (size_t)n) != n) {
        perror("test_diagnose");
        exit(1);
    }
    close(fd);
    return path;
}

static const pf_idle_cover *cover(const pf_diagnosis *g, const char *name)
{
    for (size_t i = 0; i < g->n_covers; i++)
        if (!strcmp(g->covers[i].name, name))
            return &g->covers[i];
    return NULL;
}

static void test_gaps(void)
{
    const char *path = write_trace();
    pf_trace *t = NULL;
    pf_analysis *an = NULL;
    pf_error err;
    pf_analysis_opts o = {.default_dtype = PF_DT_BF16, .step = PF_STEP_EVERY, .idle_gaps = 1, .jobs = 1};
    if (pf_trace_load(path, &t, &err) || pf_analysis_run(t, &o, &an, &err)) {
        CHECK(err.msg, 0);
        unlink(path);
        return;
    }
    CHECK("the hand trace has 4 marks (the builtin frame is one; the sync is one)", t->n_marks == 4);
    pf_diagnosis g;
    CHECK("pf_diagnose runs", pf_diagnose(an, &an->devices[0], &g, &err) == 0);
    const pf_idle_cover *fr = cover(&g, "prep.py(3): fft"), *lb = cover(&g, "load_batch");
    CHECK("the frame covers 400 us of idle (its builtin's 100 us included)", fr && fr->idle_ns == 400000);
    CHECK("the frame sits inside load_batch", fr && fr->outer && !strcmp(fr->outer, "load_batch"));
    CHECK("the annotation covers the other 500 us", lb && lb->idle_ns == 500000);
    CHECK("no cover for the builtin", !cover(&g, "<built-in method sleep>"));
    CHECK("gap 1's unnamed host wait is long: 90 us", g.uncovered_long_ns == 90000);
    CHECK("gaps 2 and 4 unnamed and short: 10 us", g.uncovered_short_ns == 10000);
    CHECK("one sync drained the GPU, 2000 us after it", g.sync_n == 1 && g.sync_idle_ns == 2000000);
    CHECK("launch latency of gaps 1, 2 and 4: 20 us", g.latency_ns == 20000);
    CHECK("gap bins: 2 of 10-100 us, 2 of 1-10 ms", g.gap_count[0] == 0 && g.gap_count[1] == 2 && g.gap_count[3] == 2);
    CHECK("the first finding is the sync, 2000 us", g.n_findings > 0 && !strcmp(g.findings[0].kind, "sync") &&
                                                        g.findings[0].time_us == 2000.0);
    int ranked = 1;
    for (int i = 1; i < g.n_findings; i++)
        ranked = ranked && (g.findings[i].time_us <= g.findings[i - 1].time_us || g.findings[i].time_us < 0);
    CHECK("findings ranked by time", ranked);
    pf_diagnosis_free(&g);
    pf_analysis_free(an);
    pf_trace_free(t);
    unlink(path);
}

int main(void)
{
    test_mark_rules();
    test_gaps();
    CHECK_DONE();
}
