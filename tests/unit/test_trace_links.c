/* test_trace_links.c - launch calls linked to kernels by correlation id on several threads (pf_trace_link_launches through the loader): a repeated id of one process keeps its first call, an id two processes share links no call, with dense and with spread ids, at -j 1 and -j 4; kernels whose External id matches no op linked by nesting (pf_link_enclosing: the innermost op around the launch call on its thread, ops of one thread out of order in the file); every expectation written out from how the trace is made here. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "profana/trace.h"

enum { N = 70000 };            /* above 64 Ki launch records: the threaded path */

static const size_t shared_at[2] = {100, 50000}; /* their ids also called by process 2 */
static const size_t repeat_at = 200;            /* its id called again by process 1 */

static int64_t corr_of(size_t i, int spread)
{
    return spread ? (int64_t)(i + 1) * 37 : (int64_t)(i + 1);
}

static void write_trace(const char *path, int spread)
{
    FILE *f = fopen(path, "w");
    fprintf(f, "{\"traceEvents\": [\n");
    for (size_t i = 0; i < N; i++)
        fprintf(f,
                "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, "
                "\"ts\": %zu, \"dur\": 2, \"args\": {\"correlation\": %lld}},\n"
                "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, \"ts\": %zu, "
                "\"dur\": 3, \"args\": {\"device\": 0, \"stream\": 7, \"correlation\": %lld}},\n",
                10 * i, (long long)corr_of(i, spread), 10 * i + 5, (long long)corr_of(i, spread));
    /* later calls with ids already seen: another process's (ambiguous), the same process's (not) */
    for (size_t k = 0; k < 2; k++)
        fprintf(f,
                "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 2, \"tid\": 1, "
                "\"ts\": 9000000, \"dur\": 2, \"args\": {\"correlation\": %lld}},\n",
                (long long)corr_of(shared_at[k], spread));
    fprintf(f,
            "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, "
            "\"ts\": 9000010, \"dur\": 2, \"args\": {\"correlation\": %lld}}\n]}\n",
            (long long)corr_of(repeat_at, spread));
    fclose(f);
}

static void check_links(const char *path, int spread, int jobs)
{
    char name[160];
    pf_load_opts o = {.jobs = jobs};
    pf_trace *t = NULL;
    pf_error err;
    snprintf(name, sizeof name, "%s ids, -j %d: loads", spread ? "spread" : "dense", jobs);
    CHECK(name, pf_trace_load_opts(path, &o, &t, &err) == 0 && t && t->n_acts == N);
    if (!t)
        return;
    size_t wrong = 0;
    for (size_t i = 0; i < N; i++) {
        const pf_activity *a = &t->acts[i];
        int shared = i == shared_at[0] || i == shared_at[1];
        if (shared)
            wrong += a->launch_ts_ns != PF_NO_LAUNCH || a->launch_process != 0;
        else /* its own call, 5 us before it (the repeat's first call too) */
            wrong += a->launch_ts_ns != (int64_t)(10 * i) * 1000 || a->launch_dur_ns != 2000 || a->launch_process == 0;
    }
    snprintf(name, sizeof name, "%s ids, -j %d: each kernel has its first call; the 2 shared ids none",
             spread ? "spread" : "dense", jobs);
    CHECK(name, wrong == 0);
    snprintf(name, sizeof name, "%s ids, -j %d: %d launched", spread ? "spread" : "dense", jobs, N - 2);
    CHECK(name, t->n_launched == N - 2);
    int noted = 0;
    for (int k = 0; k < t->n_notes; k++)
        noted += strstr(t->notes[k], "2 GPU activities share their correlation id with launch calls of several "
                                     "processes") != NULL;
    snprintf(name, sizeof name, "%s ids, -j %d: one note of the 2 shared ids", spread ? "spread" : "dense", jobs);
    CHECK(name, noted == 1);
    pf_trace_free(t);
}

/* HTA's shape on two threads: kernel i's External id is its correlation (no op has it); its
 * launch call lies inside op i (aten::mm or aten::add) on thread 1 + i % 2, itself inside that
 * thread's "outer" op; every 1000th call starts after op i ends: outer encloses it alone.
 * Thread 2's outer op comes last in the file (its ops out of order). */
static const char *nest_op_of(size_t i)
{
    return i % 1000 == 999 ? "outer" : i % 3 ? "aten::add" : "aten::mm";
}

static void write_nested(const char *path)
{
    FILE *f = fopen(path, "w");
    fprintf(f, "{\"traceEvents\": [\n");
    fprintf(f, "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"outer\", \"pid\": 1, \"tid\": 1, \"ts\": 0, "
               "\"dur\": %d, \"args\": {\"External id\": 1}},\n", 10 * N + 10);
    for (size_t i = 0; i < N; i++)
        fprintf(f,
                "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"pid\": 1, \"tid\": %zu, \"ts\": %zu, "
                "\"dur\": 8, \"args\": {\"External id\": %zu}},\n"
                "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": %zu, "
                "\"ts\": %zu, \"dur\": 1, \"args\": {\"External id\": %zu, \"correlation\": %zu}},\n"
                "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, \"ts\": %zu, "
                "\"dur\": 3, \"args\": {\"External id\": %zu, \"device\": 0, \"stream\": 7, \"correlation\": %zu}},\n",
                i % 1000 == 999 ? "aten::relu" : nest_op_of(i), 1 + i % 2, 10 * i + 1, i + 10, 1 + i % 2,
                10 * i + (i % 1000 == 999 ? 9 : 3), 1000000 + i, 1000000 + i, 10 * i + 5, 1000000 + i, 1000000 + i);
    fprintf(f, "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"outer\", \"pid\": 1, \"tid\": 2, \"ts\": 0, "
               "\"dur\": %d, \"args\": {\"External id\": 2}}\n]}\n", 10 * N + 10);
    fclose(f);
}

static void check_nested(const char *path, int jobs)
{
    char name[160];
    pf_load_opts o = {.jobs = jobs};
    pf_trace *t = NULL;
    pf_error err;
    snprintf(name, sizeof name, "nesting, -j %d: loads", jobs);
    CHECK(name, pf_trace_load_opts(path, &o, &t, &err) == 0 && t && t->n_acts == N);
    if (!t)
        return;
    size_t wrong = 0;
    for (size_t i = 0; i < N; i++) {
        const pf_activity *a = &t->acts[i];
        wrong += a->op < 0 || !a->nested || strcmp(t->ops[a->op].name, nest_op_of(i)) != 0;
    }
    snprintf(name, sizeof name, "nesting, -j %d: each kernel has the innermost op around its call", jobs);
    CHECK(name, wrong == 0);
    snprintf(name, sizeof name, "nesting, -j %d: %d linked by nesting, none unlinked", jobs, N);
    CHECK(name, t->n_nested == N && t->n_unlinked == 0);
    pf_trace_free(t);
}

int main(void)
{
    char path[] = "/tmp/pf_links_XXXXXX";
    int fd = mkstemp(path);
    CHECK("temporary file", fd >= 0);
    if (fd < 0)
        CHECK_DONE();
    close(fd);
    for (int spread = 0; spread < 2; spread++) {
        write_trace(path, spread);
        check_links(path, spread, 1);
        check_links(path, spread, 4);
    }
    write_nested(path);
    check_nested(path, 1);
    check_nested(path, 4);
    unlink(path);
    CHECK_DONE();
}
