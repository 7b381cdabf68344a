/* test_combine.c - unit tests of the combine engine (pf_combine) on tiny hand-written traces: the whole output text, worked out by hand from README "Merging traces", and its errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "profana/combine.h"

static char dir[] = "/tmp/profana-combine-XXXXXX";

/* Writes text to a new file in dir; returns its path (static storage, one per slot). */
static const char *put_file(int slot, const char *text)
{
    static char paths[8][64];
    snprintf(paths[slot], sizeof paths[slot], "%s/in%d.json", dir, slot);
    FILE *f = fopen(paths[slot], "wb");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0)
        return NULL;
    return paths[slot];
}

/* The text of a file (caller frees), or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0, got;
    char chunk[4096];
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (n + got + 1 > cap) {
            cap = (n + got + 1) * 2;
            char *nb = realloc(buf, cap);
            if (!nb)
                break;
            buf = nb;
        }
        memcpy(buf + n, chunk, got);
        n += got;
    }
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf ? buf : calloc(1, 1);
}

/* Combines the texts (written to files) with `jobs` threads and returns OUT's text (caller
 * frees), or NULL with *err set. */
static char *combine_texts(const char *const *texts, size_t n, int jobs, pf_error *err)
{
    const char *paths[8];
    char out[64];
    for (size_t k = 0; k < n; k++)
        paths[k] = put_file((int)k, texts[k]);
    snprintf(out, sizeof out, "%s/out.json", dir);
    unlink(out);
    pf_combine_opts o = {.jobs = jobs};
    if (pf_combine(paths, n, out, &o, err))
        return NULL;
    return slurp(out);
}

static void check_combined(const char *name, const char *const *texts, size_t n, const char *want)
{
    pf_error err = {{0}};
    for (int jobs = 1; jobs <= 3; jobs += 2) {
        char label[160];
        snprintf(label, sizeof label, "%s (-j %d)", name, jobs);
        char *got = combine_texts(texts, n, jobs, &err);
        if (!got)
            printf("  error: %s\n", err.msg);
        CHECK_STR(label, got, want);
        free(got);
    }
}

/* Two ranks on device 0 with the same host pid and overlapping ids. Input 1 keeps
 * everything. Input 2's GPU block [0, 16) meets input 1's, so it moves to the end of the
 * blocks given out: devices and GPU pids + 16 (pid 0 -> 16, device 0 -> 16,
 * deviceProperties id 0 -> 16). Its host pid 100 is input 1's: + 10,000,000 * (2 - 1).
 * Its ids (3..5) overlap input 1's (7..9): + (9 + 1) = 10. */
static void test_two_ranks(void)
{
    const char *a = "{\n  \"traceEvents\": [\n"
                    "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"pid\": 100, \"tid\": 1, \"ts\": 1.000, \"dur\": 5, "
                    "\"args\": {\"External id\": 7}},\n"
                    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"pid\": 0, \"tid\": 7, \"ts\": 2.000, \"dur\": 1, "
                    "\"args\": {\"device\": 0, \"External id\": 7, \"correlation\": 9}}\n"
                    "  ],\n  \"deviceProperties\": [{\"id\": 0, \"name\": \"H100\"}]\n}\n";
    const char *b = "{\n  \"traceEvents\": [\n"
                    "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"pid\": 100, \"tid\": 1, \"ts\": 1.000, \"dur\": 5, "
                    "\"args\": {\"External id\": 3}},\n"
                    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"pid\": 0, \"tid\": 7, \"ts\": 2.000, \"dur\": 1, "
                    "\"args\": {\"device\": 0, \"External id\": 3, \"correlation\": 5}}\n"
                    "  ],\n  \"deviceProperties\": [{\"id\": 0, \"name\": \"H100\"}]\n}\n";
    const char *want = "{\n  \"traceEvents\": [\n"
                       "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"pid\": 100, \"tid\": 1, \"ts\": 1.000, \"dur\": 5, "
                       "\"args\": {\"External id\": 7, \"profana_source\": {\"input\": 1}}},\n"
                       "  {\"ph\": \"X\", \"cat\": \"kernel\", \"pid\": 0, \"tid\": 7, \"ts\": 2.000, \"dur\": 1, "
                       "\"args\": {\"device\": 0, \"External id\": 7, \"correlation\": 9, \"profana_source\": {\"input\": 1}}},\n"
                       "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"pid\": 10000100, \"tid\": 1, \"ts\": 1.000, \"dur\": 5, "
                       "\"args\": {\"External id\": 13, \"profana_source\": {\"input\": 2}}},\n"
                       "  {\"ph\": \"X\", \"cat\": \"kernel\", \"pid\": 16, \"tid\": 7, \"ts\": 2.000, \"dur\": 1, "
                       "\"args\": {\"device\": 16, \"External id\": 13, \"correlation\": 15, \"profana_source\": {\"input\": 2}}}\n"
                       "  ],\n  \"deviceProperties\": [{\"id\": 0, \"name\": \"H100\"}, {\"id\": 16, \"name\": \"H100\"}]\n}\n";
    const char *in[] = {a, b};
    check_combined("two ranks: pids, devices and ids of input 2 moved, every event tagged", in, 2, want);
    /* The same trace twice: the second copy moves exactly as input 2 above would had its ids
     * been input 1's (7..9 -> 17..19). */
    const char *want_aa = "{\n  \"traceEvents\": [\n"
                          "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"pid\": 100, \"tid\": 1, \"ts\": 1.000, \"dur\": 5, "
                          "\"args\": {\"External id\": 7, \"profana_source\": {\"input\": 1}}},\n"
                          "  {\"ph\": \"X\", \"cat\": \"kernel\", \"pid\": 0, \"tid\": 7, \"ts\": 2.000, \"dur\": 1, "
                          "\"args\": {\"device\": 0, \"External id\": 7, \"correlation\": 9, \"profana_source\": {\"input\": 1}}},\n"
                          "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"pid\": 10000100, \"tid\": 1, \"ts\": 1.000, \"dur\": 5, "
                          "\"args\": {\"External id\": 17, \"profana_source\": {\"input\": 2}}},\n"
                          "  {\"ph\": \"X\", \"cat\": \"kernel\", \"pid\": 16, \"tid\": 7, \"ts\": 2.000, \"dur\": 1, "
                          "\"args\": {\"device\": 16, \"External id\": 17, \"correlation\": 19, \"profana_source\": {\"input\": 2}}}\n"
                          "  ],\n  \"deviceProperties\": [{\"id\": 0, \"name\": \"H100\"}, {\"id\": 16, \"name\": \"H100\"}]\n}\n";
    const char *aa[] = {a, a};
    check_combined("a trace with itself", aa, 2, want_aa);
}

/* String pids, ranks and time bases. Input 2's "Spans" is input 1's: "Spans [2]"; "Traces"
 * is free. Its pid -1 is taken: -1 + 10,000,000. Its base time is 2,500 ns later: ts 1.000 us
 * -> 3.500, 0.250 -> 2.750. Its flow id 4 meets no earlier id (input 1 has none): kept.
 * Events without args get args holding the tag, with the rank. */
static void test_string_pids_ranks_time(void)
{
    const char *a = "{\"traceEvents\": [{\"pid\": \"Spans\", \"ts\": 1.000}, {\"pid\": -1, \"ph\": \"i\"}], "
                    "\"distributedInfo\": {\"rank\": 0}, \"baseTimeNanoseconds\": 1000000}";
    const char *b = "{\"baseTimeNanoseconds\": 1002500, \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 1}, "
                    "\"traceEvents\": [{\"pid\": \"Spans\", \"ts\": 1.000}, {\"pid\": -1, \"ts\": 0.250}, "
                    "{\"ph\": \"s\", \"id\": 4, \"pid\": \"Traces\"}]}";
    const char *want =
        "{\"traceEvents\": [{\"pid\": \"Spans\", \"ts\": 1.000, \"args\": {\"profana_source\": {\"input\": 1, \"rank\": 0}}}, "
        "{\"pid\": -1, \"ph\": \"i\", \"args\": {\"profana_source\": {\"input\": 1, \"rank\": 0}}},\n  "
        "{\"pid\": \"Spans [2]\", \"ts\": 3.500, \"args\": {\"profana_source\": {\"input\": 2, \"rank\": 1}}}, "
        "{\"pid\": 9999999, \"ts\": 2.750, \"args\": {\"profana_source\": {\"input\": 2, \"rank\": 1}}}, "
        "{\"ph\": \"s\", \"id\": 4, \"pid\": \"Traces\", \"args\": {\"profana_source\": {\"input\": 2, \"rank\": 1}}}], "
        "\"distributedInfo\": {\"rank\": 0}, \"baseTimeNanoseconds\": 1000000}";
    const char *in[] = {a, b};
    check_combined("string pids, ranks, a later base time", in, 2, want);
}

/* Three inputs. Input 1 has device 20: its GPU block is [0, 21). Input 2's memset has no
 * args, so its pid (1) names its device: block [0, 16) meets [0, 21) and moves by 21 (pid 1
 * -> 22, deviceProperties id 1 -> 22, its repeat left out); its flow id 1 overlaps input 1's
 * ids (2): + 3. Input 3, a bare array, has device 0: its block moves past both, by 37; its
 * pid 300 is input 2's: + 10,000,000 * (3 - 1); its Python ids (0..1) overlap the ids so far
 * (up to 4): + 5. Input 1's empty deviceProperties gets input 2's entry. */
static void test_three_inputs(void)
{
    const char *a = "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"pid\": 20, "
                    "\"args\": {\"device\": 20, \"correlation\": 2}}], \"deviceProperties\": []}";
    const char *b = "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"gpu_memset\", \"pid\": 1, \"ts\": 5}, "
                    "{\"ph\": \"f\", \"id\": 1, \"pid\": 300}], "
                    "\"deviceProperties\": [{\"id\": 1, \"name\": \"X\"}, {\"id\": 1, \"name\": \"X\"}]}";
    const char *c = "[{\"pid\": 300, \"args\": {\"device\": 0, \"Python id\": 1, \"Python parent id\": 0}}]";
    const char *want =
        "{\"traceEvents\": [{\"ph\": \"X\", \"cat\": \"kernel\", \"pid\": 20, "
        "\"args\": {\"device\": 20, \"correlation\": 2, \"profana_source\": {\"input\": 1}}},\n  "
        "{\"ph\": \"X\", \"cat\": \"gpu_memset\", \"pid\": 22, \"ts\": 5, \"args\": {\"profana_source\": {\"input\": 2}}}, "
        "{\"ph\": \"f\", \"id\": 4, \"pid\": 300, \"args\": {\"profana_source\": {\"input\": 2}}},\n  "
        "{\"pid\": 20000300, \"args\": {\"device\": 37, \"Python id\": 6, \"Python parent id\": 5, "
        "\"profana_source\": {\"input\": 3}}}], \"deviceProperties\": [{\"id\": 22, \"name\": \"X\"}]}";
    const char *in[] = {a, b, c};
    check_combined("three inputs: device blocks after each other, ids above the earlier ones", in, 3, want);
}

/* A bare event array first and deviceProperties in input 2: OUT becomes an object. */
static void test_bare_first(void)
{
    const char *a = "[{\"pid\": 1}]";
    const char *b = "{\"traceEvents\": [{\"pid\": 1, \"cat\": \"kernel\", \"args\": {\"device\": 0}}], "
                    "\"deviceProperties\": [{\"id\": 0, \"name\": \"G\"}]}";
    const char *want = "{\"deviceProperties\": [{\"id\": 16, \"name\": \"G\"}], \"traceEvents\": "
                       "[{\"pid\": 1, \"args\": {\"profana_source\": {\"input\": 1}}},\n  "
                       "{\"pid\": 17, \"cat\": \"kernel\", \"args\": {\"device\": 16, \"profana_source\": {\"input\": 2}}}]}\n";
    const char *in[] = {a, b};
    check_combined("a bare event array first becomes an object", in, 2, want);
}

/* An existing tag is replaced in place; a quoted id keeps its quotes; args that are not an
 * object stay untagged; a pid below 16 is a GPU pid even without devices (moved by 16); an
 * input without events adds none (and no separator). */
static void test_odd_events(void)
{
    const char *a = "{\"traceEvents\": [{\"pid\": 5, \"args\": {\"External id\": 1}}, {\"pid\": 5, \"args\": 7}]}";
    const char *b = "{\"traceEvents\": [{\"pid\": 6, \"args\": {\"profana_source\": {\"input\": 9}, \"External id\": \"1\"}}, "
                    "{ }]}";
    const char *empty = "{\"traceEvents\": []}";
    const char *want = "{\"traceEvents\": [{\"pid\": 5, \"args\": {\"External id\": 1, \"profana_source\": {\"input\": 1}}}, "
                       "{\"pid\": 5, \"args\": 7},\n  "
                       "{\"pid\": 22, \"args\": {\"profana_source\": {\"input\": 2}, \"External id\": \"3\"}}, "
                       "{\"args\": {\"profana_source\": {\"input\": 2}} }]}";
    const char *in[] = {a, empty, b};
    /* The empty input 2 still counts: b is input 3, but with no GPU pid or id taken by the
     * empty one, it moves as input 2 would but for the tag. */
    const char *want3 = "{\"traceEvents\": [{\"pid\": 5, \"args\": {\"External id\": 1, \"profana_source\": {\"input\": 1}}}, "
                        "{\"pid\": 5, \"args\": 7},\n  "
                        "{\"pid\": 38, \"args\": {\"profana_source\": {\"input\": 3}, \"External id\": \"3\"}}, "
                        "{\"args\": {\"profana_source\": {\"input\": 3}} }]}";
    check_combined("an input without events between two", in, 3, want3);
    const char *in2[] = {a, b};
    check_combined("tag replaced, quoted id kept quoted, non-object args untagged", in2, 2, want);
}

static void check_error(const char *name, const char *text, const char *want_suffix)
{
    const char *good = "{\"traceEvents\": [{\"pid\": 1}]}";
    const char *in[] = {good, text};
    char out[64];
    snprintf(out, sizeof out, "%s/out.json", dir);
    FILE *f = fopen(out, "wb");
    if (f) {
        fputs("previous", f);
        fclose(f);
    }
    const char *paths[2] = {put_file(0, in[0]), put_file(1, in[1])};
    pf_error err = {{0}};
    int rc = pf_combine(paths, 2, out, NULL, &err);
    char want[256];
    snprintf(want, sizeof want, "%s: %s", paths[1], want_suffix);
    CHECK(name, rc == -1);
    CHECK_STR(name, err.msg, want);
    char *kept = slurp(out);
    CHECK_STR("  ... OUT as it was", kept, "previous");
    free(kept);
}

static void test_errors(void)
{
    /* 27 is the '}' after "1,". */
    check_error("bad JSON: the byte offset and what is wrong", "{\"traceEvents\": [{\"pid\": 1,}]}",
                "byte 27: trailing comma");
    /* The text ends after "1" (26 bytes). */
    check_error("a cut-off input", "{\"traceEvents\": [{\"pid\": 1", "byte 26: trace is cut off (unexpected end of input)");
    check_error("no traceEvents", "{\"x\": 1}", "byte 8: no \"traceEvents\" array: not a Kineto/chrome trace");
    check_error("data after the trace", "[] []", "byte 3: unexpected data after the trace");
    /* 21: the second key's first letter. */
    check_error("traceEvents twice", "{\"traceEvents\": [], \"traceEvents\": []}", "byte 21: traceEvents appears twice");
    /* Device 65535 fits for input 1 but not moved by 16 after it. */
    const char *big = "{\"traceEvents\": [{\"pid\": 1, \"args\": {\"device\": 65535}}]}";
    const char *two[] = {big, big};
    pf_error err = {{0}};
    char *got = combine_texts(two, 2, 1, &err);
    char want[256];
    snprintf(want, sizeof want, "%s/in1.json: too many devices to combine (device ids above 65535)", dir);
    CHECK("too many devices: an error", got == NULL);
    CHECK_STR("too many devices: the message", err.msg, want);
    free(got);
    /* A missing input: an error naming it, before OUT is opened. */
    char missing[96], out[64];
    snprintf(missing, sizeof missing, "%s/missing.json", dir);
    snprintf(out, sizeof out, "%s/out-missing.json", dir);
    const char *paths[2] = {put_file(0, big), missing};
    CHECK("a missing input: an error", pf_combine(paths, 2, out, NULL, &err) == -1);
    CHECK("a missing input: the message names it", strncmp(err.msg, missing, strlen(missing)) == 0);
    CHECK("a missing input: no OUT", access(out, F_OK) != 0);
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_two_ranks();
    test_string_pids_ranks_time();
    test_three_inputs();
    test_bare_first();
    test_odd_events();
    test_errors();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        printf("FAIL cleanup of %s\n", dir);
    CHECK_DONE();
}
