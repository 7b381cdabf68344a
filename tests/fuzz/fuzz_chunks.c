/* fuzz_chunks.c - libFuzzer target for the parallel loader: the input in the middle of a large trace, loaded by one thread and by several, must give the same answer. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "profana/trace.h"

/* The loader splits traceEvents into stretches of at least 64 KB for its threads, each of
 * which finds its first event on its own. Small fuzz inputs never reach that path, so the
 * input goes between two runs of ordinary events sized to put a stretch boundary at an
 * offset inside it that the input's hash picks:
 *   {"traceEvents": [ FILLER..., INPUT FILLER... ]}
 * The input may be anything: the same bytes must give the same model, or the same error,
 * whatever the thread count. */

#define REQUIRE(cond) FUZZ_REQUIRE(cond)

static const char head[] = "{\"traceEvents\": [\n";
static const char tail[] = "\n]}\n";
static const char event[] =
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"fill_kernel\", \"pid\": 0, \"tid\": 7, "
    "\"ts\": 1000.5, \"dur\": 2.25, \"args\": {\"External id\": 9, \"device\": 0, \"stream\": 7}},\n";
enum { FILLER = 132 * 1024 }; /* bytes of events around the input: two stretches or more */

static size_t put(char *dst, size_t at, const void *src, size_t n)
{
    memcpy(dst + at, src, n);
    return at + n;
}

/* Events (and spaces to fill the rest) covering exactly n bytes. */
static size_t put_filler(char *dst, size_t at, size_t n)
{
    size_t ev = sizeof event - 1;
    for (; n >= ev; n -= ev)
        at = put(dst, at, event, ev);
    memset(dst + at, ' ', n);
    return at + n;
}

static int same_model(const pf_trace *a, const pf_trace *b)
{
    if (a->n_acts != b->n_acts || a->n_ops != b->n_ops || a->n_cpu != b->n_cpu || a->n_events != b->n_events ||
        a->n_bad_events != b->n_bad_events || a->n_warnings != b->n_warnings)
        return 0;
    for (size_t i = 0; i < a->n_acts; i++)
        if (strcmp(a->acts[i].name, b->acts[i].name) || a->acts[i].ts_ns != b->acts[i].ts_ns ||
            a->acts[i].dur_ns != b->acts[i].dur_ns || a->acts[i].op != b->acts[i].op ||
            a->acts[i].src_off != b->acts[i].src_off || a->acts[i].launch_ts_ns != b->acts[i].launch_ts_ns)
            return 0;
    return a->n_cpu_steps == b->n_cpu_steps && a->n_launched == b->n_launched;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * UINT64_C(1099511628211);
    /* The loader (src/trace/trace_load.c) cuts the span after '[' into span / 64 KB stretches
     * of equal length: the first boundary goes k bytes into the input. */
    size_t total = sizeof head - 1 + FILLER + size + sizeof tail - 1;
    size_t span = 1 + FILLER + size + sizeof tail - 1;
    size_t boundary = span / (span / (64 * 1024));
    size_t k = size ? (size_t)(h % size) : 0;
    size_t before = boundary > k + 1 ? boundary - k - 1 : 0;
    if (before > FILLER)
        before = FILLER;
    char *text = malloc(total);
    if (!text)
        return 0;
    size_t at = put(text, 0, head, sizeof head - 1);
    at = put_filler(text, at, before);
    at = put(text, at, data, size);
    at = put_filler(text, at, FILLER - before);
    at = put(text, at, tail, sizeof tail - 1);

    char path[64];
    int fd = fuzz_input_file((const uint8_t *)text, at, path, sizeof path);
    free(text);
    if (fd < 0)
        return 0;
    pf_load_opts one = {.jobs = 1}, four = {.jobs = 4};
    pf_trace *t1, *t4;
    pf_error e1, e4;
    int r1 = pf_trace_load_opts(path, &one, &t1, &e1);
    int r4 = pf_trace_load_opts(path, &four, &t4, &e4);
    REQUIRE(r1 == r4);
    if (r1)
        REQUIRE(strcmp(e1.msg, e4.msg) == 0);
    else
        REQUIRE(same_model(t1, t4));
    pf_trace_free(t1);
    pf_trace_free(t4);
    close(fd);
    return 0;
}
