/* test_trace_links.c - launch calls linked to kernels by correlation id on several threads (pf_trace_link_launches through the loader): a repeated id of one process keeps its first call, an id two processes share links no call, with dense and with spread ids, at -j 1 and -j 4; every expectation written out from how the trace is made here. */
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
    unlink(path);
    CHECK_DONE();
}
