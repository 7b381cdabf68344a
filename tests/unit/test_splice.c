/* test_splice.c - unit tests of the text splicer: pairs put into JSON objects without touching any other byte, edit ordering, number text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "profana/numtext.h"
#include "profana/parallel.h"
#include "profana/splice.h"

/* Applies the plan for s to a fresh string (caller frees). */
static char *applied(pf_splice *sp, const char *s)
{
    char *out = NULL;
    size_t n = 0, cur = 0;
    FILE *f = open_memstream(&out, &n);
    if (!f)
        return NULL;
    int rc = pf_splice_flush(sp, s, &cur, f);
    fputs(s + cur, f);
    fclose(f);
    if (rc) {
        free(out);
        return NULL;
    }
    return out;
}

/* Puts pairs into the args of the event at the start of s and returns the result. */
static char *event_with(const char *s, const pf_kv *kv, size_t n, int *rc)
{
    pf_splice sp;
    pf_jerr e;
    pf_splice_init(&sp);
    *rc = pf_splice_event_args(&sp, s, strlen(s), 0, kv, n, &e);
    char *out = *rc < 0 ? NULL : applied(&sp, s);
    pf_splice_free(&sp);
    return out;
}

static void check_event(const char *name, const char *in, const pf_kv *kv, size_t n, const char *want)
{
    int rc;
    char *got = event_with(in, kv, n, &rc);
    CHECK_STR(name, got, want);
    free(got);
}

static const pf_kv two[] = {
    {"kernel_flop", "2048", 2048, 1},
    {"kernel_num_gb", "1.5e-06", 1.5e-6, 1},
};

static void test_events(void)
{
    check_event("appended after the last arg, layout kept",
                "{\n  \"ph\": \"X\", \"args\": {\n    \"External id\": 7, \"stream\": 7\n  }\n}", two, 2,
                "{\n  \"ph\": \"X\", \"args\": {\n    \"External id\": 7, \"stream\": 7, \"kernel_flop\": 2048, "
                "\"kernel_num_gb\": 1.5e-06\n  }\n}");
    check_event("empty args get the pairs without a comma", "{\"args\": { }}", two, 2,
                "{\"args\": {\"kernel_flop\": 2048, \"kernel_num_gb\": 1.5e-06 }}");
    check_event("no args: a new args member after the last member", "{\"ph\": \"f\", \"id\": 3 }", two, 1,
                "{\"ph\": \"f\", \"id\": 3, \"args\": {\"kernel_flop\": 2048} }");
    check_event("empty event: args without a comma", "{}", two, 1, "{\"args\": {\"kernel_flop\": 2048}}");
    check_event("existing key replaced in place, the other appended",
                "{\"args\": {\"kernel_flop\": 7, \"x\": [1, {\"kernel_flop\": 9}]}}", two, 2,
                "{\"args\": {\"kernel_flop\": 2048, \"x\": [1, {\"kernel_flop\": 9}], \"kernel_num_gb\": 1.5e-06}}");
    check_event("an existing value equal to the number keeps its text",
                "{\"args\": {\"kernel_num_gb\": 0.0000015000, \"kernel_flop\": 2048.0}}", two, 2,
                "{\"args\": {\"kernel_num_gb\": 0.0000015000, \"kernel_flop\": 2048.0}}");
    check_event("a repeated key is replaced everywhere", "{\"args\": {\"kernel_flop\": 1, \"kernel_flop\": \"a\"}}",
                two, 1, "{\"args\": {\"kernel_flop\": 2048, \"kernel_flop\": 2048}}");
    check_event("keys match exactly, not by prefix", "{\"args\": {\"kernel_flops\": 1}}", two, 1,
                "{\"args\": {\"kernel_flops\": 1, \"kernel_flop\": 2048}}");
    static const pf_kv str[] = {{"kernel_category", "\"gemm\"", 0, 0}};
    check_event("string values are written as given", "{\"args\": {\"kernel_category\": \"gemm\"}}", str, 1,
                "{\"args\": {\"kernel_category\": \"gemm\"}}");

    int rc;
    char *got = event_with("{\"args\": null, \"b\": 1}", two, 2, &rc);
    CHECK("args that are not an object: 1, nothing planned", rc == 1);
    CHECK_STR("args that are not an object: text unchanged", got, "{\"args\": null, \"b\": 1}");
    free(got);

    pf_splice sp;
    pf_jerr e;
    pf_splice_init(&sp);
    const char *bad = "{\"args\": {\"a\": 1,, }}";
    CHECK("invalid object: -1", pf_splice_event_args(&sp, bad, strlen(bad), 0, two, 2, &e) == -1);
    CHECK("invalid object: error at the second comma", e.pos == 17 && !e.truncated);
    const char *cut = "{\"args\": {\"a\": 1";
    CHECK("cut object: -1, truncated", pf_splice_event_args(&sp, cut, strlen(cut), 0, two, 2, &e) == -1 && e.truncated);
    CHECK("not an object: -1", pf_splice_event_args(&sp, "[1]", 3, 0, two, 2, &e) == -1);
    CHECK("errors plan nothing", sp.n == 0);
    pf_splice_free(&sp);
}

static void test_plan(void)
{
    pf_splice sp;
    pf_splice_init(&sp);
    const char *s = "0123456789";
    CHECK("replace 2..4", pf_splice_put(&sp, 2, 4, "ab", 2) == 0);
    CHECK("insert at 8", pf_splice_put(&sp, 8, 8, "X", 1) == 0);
    CHECK("insert at 0, planned out of order", pf_splice_put(&sp, 0, 0, "<", 1) == 0);
    CHECK("insert at 4 (where the replacement ends)", pf_splice_put(&sp, 4, 4, "|", 1) == 0);
    CHECK("insert at 2 goes before the replacement starting there", pf_splice_put(&sp, 2, 2, "[", 1) == 0);
    CHECK("second insert at 8 keeps its order", pf_splice_put(&sp, 8, 8, "Y", 1) == 0);
    CHECK("overlapping replacement refused", pf_splice_put(&sp, 3, 6, "z", 1) == -1);
    CHECK("insertion inside a replacement refused", pf_splice_put(&sp, 3, 3, "z", 1) == -1);
    CHECK("backwards range refused", pf_splice_put(&sp, 6, 5, "z", 1) == -1);
    CHECK("delete 9..10", pf_splice_put(&sp, 9, 10, "", 0) == 0);
    char *got = applied(&sp, s);
    CHECK_STR("edits applied in text order", got, "<01[ab|4567XY8");
    free(got);

    /* Flushing in pieces: the cursor moves past each flushed edit. */
    char *out = NULL;
    size_t n = 0, cur = 0;
    FILE *f = open_memstream(&out, &n);
    pf_splice_put(&sp, 1, 2, "b", 1);
    CHECK("flush 1", pf_splice_flush(&sp, s, &cur, f) == 0 && cur == 2 && sp.n == 0);
    pf_splice_put(&sp, 5, 5, "+", 1);
    CHECK("flush 2", pf_splice_flush(&sp, s, &cur, f) == 0 && cur == 5);
    pf_splice_put(&sp, 3, 3, "!", 1);
    CHECK("an edit before the cursor is refused", pf_splice_flush(&sp, s, &cur, f) == -1);
    fputs(s + cur, f);
    fclose(f);
    CHECK_STR("pieces", out, "0b234+56789");
    free(out);
    pf_splice_free(&sp);
}

static void check_num(const char *name, double v, const char *want)
{
    char buf[PF_NUM_TEXT_MAX];
    size_t n = pf_num_text(buf, v);
    CHECK_STR(name, buf, want);
    CHECK(name, n == strlen(want));
}

static void test_numbers(void)
{
    check_num("0.1 is short", 0.1, "0.1");
    check_num("integer", 2048, "2048");
    check_num("Inductor's 0.025198591999999999 reads as 0.025198592", 0.025198591999999999, "0.025198592");
    check_num("one third: 16 digits", 1.0 / 3, "0.3333333333333333");
    check_num("0.1 + 0.2 needs 17", 0.1 + 0.2, "0.30000000000000004");
    check_num("small", 1.5e-6, "1.5e-06");
    check_num("2^53 + 2 exact", 9007199254740994.0, "9007199254740994");
    check_num("infinity: none", 1.0 / 0.0, "");
    check_num("NaN: none", nan(""), "");
    /* Round trip of awkward values. */
    double vals[] = {5e-324, 1.7976931348623157e308, 0.30000000000000004, 123456.789e-3, 1e21};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        char buf[PF_NUM_TEXT_MAX];
        pf_num_text(buf, vals[i]);
        CHECK("reads back exactly", strtod(buf, NULL) == vals[i]);
    }
}

static void check_dec(const char *name, int64_t units, int decimals, const char *want)
{
    char buf[PF_NUM_TEXT_MAX];
    size_t n = pf_decimal_text(buf, units, decimals);
    CHECK_STR(name, buf, want);
    CHECK(name, n == strlen(want));
}

static void test_decimal(void)
{
    check_dec("bytes as GB", 4718592, 9, "0.004718592");
    check_dec("6 bytes", 6, 9, "0.000000006");
    check_dec("whole GB: no point", 1000000000, 9, "1");
    check_dec("trailing zeros dropped", 1500000000, 9, "1.5");
    check_dec("zero", 0, 9, "0");
    check_dec("negative", -25, 1, "-2.5");
    check_dec("integer", 123, 0, "123");
    check_dec("INT64_MIN", INT64_MIN, 0, "-9223372036854775808");
    /* Reads back as the division would give, for whole byte counts below 2^53. */
    uint64_t x = 88172645463325252u;
    int bad = 0;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        int64_t u = (int64_t)(x >> (11 + i % 40));
        char buf[PF_NUM_TEXT_MAX];
        pf_decimal_text(buf, u, 9);
        bad += strtod(buf, NULL) != (double)u / 1e9;
    }
    CHECK("200000 random byte counts read back as bytes / 1e9", bad == 0);
}

/* Items of a text "{"i": 0},{"i": 1},...": each gets "k": item, item `fail_at` fails. */
typedef struct items {
    const char *s;
    size_t len;
    size_t *starts;
    size_t fail_at;
    int written;               /* 1: ask to be told what is written */
    size_t calls, upto;
    int ordered;
} items;

static int plan_item(void *ctx, size_t k, pf_splice *sp, pf_jerr *e)
{
    const items *it = ctx;
    char val[24];
    if (k == it->fail_at) {
        e->pos = it->starts[k];
        e->what = "planted failure";
        return -1;
    }
    snprintf(val, sizeof val, "%zu", k * 3);
    pf_kv kv = {"k", val, 0, 0};
    return pf_splice_obj_pairs(sp, it->s, it->len, it->starts[k], &kv, 1, e);
}

static size_t item_start(void *ctx, size_t k)
{
    const items *it = ctx;
    return it->starts[k];
}

/* The written callback: what it says must only grow, and never pass the text. */
static void note_written(void *ctx, size_t upto)
{
    items *it = ctx;
    it->calls++;
    it->ordered &= upto >= it->upto && upto <= it->len;
    it->upto = upto;
}

static char *write_items(items *it, size_t n, int jobs, int *rc, pf_jerr *e)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    pf_splice_items list = {n, item_start, plan_item, it, it->written ? note_written : NULL};
    *rc = pf_splice_write_parallel(it->s, 0, it->len, &list, jobs, f, e);
    fclose(f);
    return out;
}

static void test_parallel(void)
{
    enum { N = 20000 };
    char *src = malloc(N * 24), *want = malloc(N * 40);
    size_t *starts = malloc(N * sizeof *starts), o = 0, w = 0;
    for (size_t k = 0; k < N; k++) {
        starts[k] = o;
        o += (size_t)sprintf(src + o, "%s{\"i\": %zu}", k ? "," : "", k);
        w += (size_t)sprintf(want + w, "%s{\"i\": %zu, \"k\": %zu}", k ? "," : "", k, k * 3);
    }
    /* starts[k] points at the ',' before item k > 0: the object begins one byte later. */
    for (size_t k = 1; k < N; k++)
        starts[k]++;
    items it = {src, o, starts, (size_t)-1, 0, 0, 0, 1};
    pf_jerr e;
    int rc;
    int jobs[] = {1, 2, 3, 16};
    for (size_t j = 0; j < sizeof jobs / sizeof jobs[0]; j++) {
        char *got = write_items(&it, N, jobs[j], &rc, &e);
        char name[64];
        snprintf(name, sizeof name, "parallel splice, %d threads: same as by hand", jobs[j]);
        CHECK(name, rc == 0 && got && strcmp(got, want) == 0);
        free(got);
    }
    /* Fewer items than one thread's run, none, and a text before and after them. */
    for (size_t n = 0; n <= 3; n += 3) {
        char *got = write_items(&it, n, 4, &rc, &e);
        size_t cut = n ? starts[n] : 0;
        /* Items past n are copied as they are. */
        char *w2 = malloc(N * 40);
        size_t wl = 0;
        for (size_t k = 0; k < n; k++)
            wl += (size_t)sprintf(w2 + wl, "%s{\"i\": %zu, \"k\": %zu}", k ? "," : "", k, k * 3);
        strcpy(w2 + wl, src + (n ? cut - 1 : 0));
        char name[64];
        snprintf(name, sizeof name, "parallel splice of the first %zu items", n);
        CHECK(name, rc == 0 && got && strcmp(got, w2) == 0);
        free(got);
        free(w2);
    }
    it.fail_at = 12345;
    free(write_items(&it, N, 4, &rc, &e));
    CHECK("the failing item's error comes back", rc == -1 && e.pos == starts[12345] &&
                                                     strcmp(e.what, "planted failure") == 0);
    it.fail_at = (size_t)-1;
    FILE *full = fopen("/dev/full", "w");
    if (full) {
        pf_splice_items list = {N, item_start, plan_item, &it, NULL};
        rc = pf_splice_write_parallel(src, 0, o, &list, 2, full, &e);
        rc = rc ? rc : fflush(full) ? -2 : 0;
        CHECK("a failing write: -2", rc == -2);
        fclose(full);
    }
    free(src);
    free(want);
    free(starts);
}

/* Items of 1 KB: a job stops at its share of the text (256 KB for 6 MB: a 400th of the
 * text, at least 256 KB), not at its count of items; the written callback then follows the
 * rounds and ends at the end of the text. */
static void test_parallel_large(void)
{
    enum { N = 6000, PAD = 1000 };
    char *src = malloc(N * (PAD + 40)), *want = malloc(N * (PAD + 60));
    size_t *starts = malloc(N * sizeof *starts), o = 0, w = 0;
    char pad[PAD + 1];
    memset(pad, 'x', PAD);
    pad[PAD] = '\0';
    for (size_t k = 0; k < N; k++) {
        starts[k] = o + (k ? 1 : 0);
        o += (size_t)sprintf(src + o, "%s{\"i\": \"%s\"}", k ? "," : "", pad);
        w += (size_t)sprintf(want + w, "%s{\"i\": \"%s\", \"k\": %zu}", k ? "," : "", pad, k * 3);
    }
    /* The jobs by that rule: from an item on, the items that start within 256 KB of it. */
    size_t n_jobs = 0;
    for (size_t lo = 0; lo < N; n_jobs++) {
        size_t hi = lo + 1;
        while (hi < N && hi - lo < 4096 && starts[hi] - starts[lo] < (256 << 10))
            hi++;
        lo = hi;
    }
    CHECK("6 MB of 1 KB items make 24 jobs of 256 KB", n_jobs == 24);
    int jobs[] = {1, 2, 5};
    for (size_t j = 0; j < sizeof jobs / sizeof jobs[0]; j++) {
        items it = {src, o, starts, (size_t)-1, 1, 0, 0, 1};
        pf_jerr e;
        int rc;
        char *got = write_items(&it, N, jobs[j], &rc, &e);
        char name[96];
        snprintf(name, sizeof name, "parallel splice of 6 MB in 256 KB jobs, %d threads: same as by hand", jobs[j]);
        CHECK(name, rc == 0 && got && strcmp(got, want) == 0);
        snprintf(name, sizeof name, "%d threads: one written call per round, in order, ending at the end", jobs[j]);
        /* ceil(jobs / threads) rounds */
        CHECK(name, it.ordered && it.calls == (n_jobs + (size_t)jobs[j] - 1) / (size_t)jobs[j] && it.upto == o);
        free(got);
    }
    free(src);
    free(want);
    free(starts);
}

/* pf_splice_obj_pairs_at gives what pf_splice_obj_pairs gives for the same object. */
static void check_at(const char *name, const char *s, const pf_kv *kv, size_t n)
{
    pf_splice a, b;
    pf_jerr e;
    pf_splice_init(&a);
    pf_splice_init(&b);
    size_t len = strlen(s);
    int ra = pf_splice_obj_pairs_at(&a, s, len, 0, len, kv, n, &e);
    int rb = pf_splice_obj_pairs(&b, s, len, 0, kv, n, &e);
    char *ga = ra ? NULL : applied(&a, s), *gb = rb ? NULL : applied(&b, s);
    CHECK(name, ra == 0 && rb == 0 && ga && gb && strcmp(ga, gb) == 0);
    free(ga);
    free(gb);
    pf_splice_free(&a);
    pf_splice_free(&b);
}

static void test_at(void)
{
    check_at("known extent: appended after the last member", "{\"External id\": 7, \"stream\": 7}", two, 2);
    check_at("known extent: spacing before '}' kept", "{\n  \"a\": [1, 2]\n  \t}", two, 2);
    check_at("known extent: empty object", "{}", two, 2);
    check_at("known extent: empty object with spacing", "{ \n }", two, 2);
    check_at("known extent: an existing key is replaced", "{\"kernel_flop\": 1, \"x\": 2}", two, 2);
    check_at("known extent: an escaped existing key is replaced", "{\"kernel\\u005fflop\": 1}", two, 2);
    check_at("known extent: the same value is left alone", "{\"kernel_flop\": 2048 }", two, 1);
    pf_splice sp;
    pf_jerr e;
    pf_splice_init(&sp);
    const char *s = "{\"a\": 1}, {\"b\": 2}";
    CHECK("known extent that is not an object: -1", pf_splice_obj_pairs_at(&sp, s, strlen(s), 0, 7, two, 2, &e) == -1 &&
                                                      e.pos == 0 && sp.n == 0);
    CHECK("known extent past the text: -1", pf_splice_obj_pairs_at(&sp, s, strlen(s), 10, 100, two, 2, &e) == -1);
    pf_splice_free(&sp);
}

int main(void)
{
    test_events();
    test_plan();
    test_numbers();
    test_decimal();
    test_parallel();
    test_parallel_large();
    test_at();
    CHECK_DONE();
}
