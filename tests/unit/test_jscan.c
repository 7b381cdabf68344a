/* test_jscan.c - unit tests of the scanner: exact nanosecond timestamps, strings, errors with offsets. */
#include <stdlib.h>

#include "check.h"
#include "profana/jscan.h"

static int64_t ns_of(const char *s)
{
    int64_t v = -999;
    if (pf_json_us_to_ns(s, 0, strlen(s), &v))
        return -999;
    return v;
}

static void test_timestamps(void)
{
    /* 16 significant digits: a double would round the last one. */
    CHECK("ts 4461120283193.266 us is exact", ns_of("4461120283193.266") == INT64_C(4461120283193266));
    CHECK("ts 4461120283193.267 us is exact", ns_of("4461120283193.267") == INT64_C(4461120283193267));
    CHECK("dur 2.25 us", ns_of("2.25") == 2250);
    CHECK("dur 7 us", ns_of("7") == 7000);
    CHECK("dur 0.0004 rounds down", ns_of("0.0004") == 0);
    CHECK("dur 0.0005 rounds up", ns_of("0.0005") == 1);
    CHECK("negative dur", ns_of("-1.5") == -1500);
    CHECK("exponent form", ns_of("1.5e3") == 1500000);
    CHECK("1e999 refused", ns_of("1e999") == -999);
    CHECK("string refused", ns_of("\"12\"") == -999);
    CHECK("too big for int64 refused", ns_of("99999999999999999999") == -999);
}

static void test_ints(void)
{
    int64_t v;
    CHECK("int", pf_json_int("123", 0, 3, &v) == 0 && v == 123);
    CHECK("quoted int", pf_json_int("\"7\"", 0, 3, &v) == 0 && v == 7);
    CHECK("int with zero fraction", pf_json_int("7.0", 0, 3, &v) == 0 && v == 7);
    CHECK("int with fraction refused", pf_json_int("7.5", 0, 3, &v) == -1);
    CHECK("int overflow refused", pf_json_int("9223372036854775808", 0, 19, &v) == -1);
}

static void test_strings(void)
{
    const char *s = "\"a\\\"b\\u00e9\\u0000\\ud83d\\ude00\"";
    char *d = pf_json_string(s, 0, strlen(s), NULL);
    CHECK_STR("escapes, \\u0000 to U+FFFD, surrogate pair", d, "a\"b\xC3\xA9\xEF\xBF\xBD\xF0\x9F\x98\x80");
    free(d);
    const char *bad = "\"x\xFFy\"";
    d = pf_json_string(bad, 0, strlen(bad), NULL);
    CHECK_STR("invalid UTF-8 becomes U+FFFD", d, "x\xEF\xBF\xBDy");
    free(d);
}

static size_t err_pos(const char *s, const char **what)
{
    size_t p = 0;
    pf_jerr e = {0};
    if (pf_json_skip(s, strlen(s), &p, &e) == 0)
        return (size_t)-1;
    *what = e.what;
    return e.pos;
}

static void test_errors(void)
{
    const char *what = "";
    CHECK("valid value skips", err_pos("{\"a\": [1, 2.5e3, true, null, \"x\"]}", &what) == (size_t)-1);
    CHECK("missing comma at byte 7", err_pos("{\"a\": 1 \"b\": 2}", &what) == 8 && strstr(what, "','"));
    CHECK("trailing comma", err_pos("[1, 2, ]", &what) == 7 && strstr(what, "trailing comma"));
    CHECK("NaN refused", err_pos("[NaN]", &what) == 1);
    CHECK("cut off", err_pos("{\"a\": [1, 2", &what) == 11 && strstr(what, "end of input"));
    char deep[2000];
    memset(deep, '[', sizeof deep - 1);
    deep[sizeof deep - 1] = 0;
    CHECK("nesting limit", err_pos(deep, &what) == 512 && strstr(what, "nesting"));
}

/* Lone surrogate escapes become \ufffd in place; pairs, other escapes and an escaped
 * backslash followed by "ud800" stay as written. */
static void test_fix_surrogates(void)
{
    char a[] = "[{\"name\": \"\\ud800X\\uDC00\\ud83d\\ude00\\\\ud800\\u00e9\"}]";
    size_t n = pf_json_fix_surrogates(a, strlen(a));
    CHECK("two lone surrogates rewritten", n == 2);
    CHECK_STR("lone ones as \\ufffd, the rest as written", a,
              "[{\"name\": \"\\ufffdX\\ufffd\\ud83d\\ude00\\\\ud800\\u00e9\"}]");
    char b[] = "\"\\ud800\\u12\"";
    CHECK("a high surrogate before a short escape", pf_json_fix_surrogates(b, strlen(b)) == 1);
    CHECK_STR("the short escape left for the parser", b, "\"\\ufffd\\u12\"");
    char c[] = "\"\\ud8";
    CHECK("a cut-off escape is left alone", pf_json_fix_surrogates(c, strlen(c)) == 0);
}

int main(void)
{
    test_timestamps();
    test_ints();
    test_strings();
    test_errors();
    test_fix_surrogates();
    CHECK_DONE();
}
