/* test_tabulate.c - unit tests of the shared printer: text layout, cutting, CSV quoting, JSON and Markdown. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "profana/tabulate.h"

static const pf_col cols[] = {
    {"Dev", NULL, 1, PF_IN_CSV, NULL},
    {"Name", "name", 0, 0, NULL},
    {"Count", "count", 1, 0, NULL},
    {"Time", "time_us", 1, 0, NULL},
    {"Raw", "raw", 1, PF_IN_JSON, NULL},
};

/* Renders with fn into a string the caller frees. */
static char *render(void (*fn)(FILE *, const pf_table *, int), const pf_table *t, int arg)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    fn(f, t, arg);
    fclose(f);
    return buf;
}

static void json_rows(FILE *f, const pf_table *t, int unused)
{
    pf_jw w;
    (void)unused;
    pf_jw_init(&w, f);
    pf_table_json_rows(&w, t);
}

static pf_table *sample(void)
{
    pf_table *t = pf_table_new(cols, 5);
    int r = pf_table_add_row(t);
    pf_table_int(t, r, 0, 0);
    pf_table_str(t, r, 1, "nvjet_sm90_gemm");
    pf_table_int(t, r, 2, 3);
    pf_table_num(t, r, 3, 14.847, 3);
    pf_table_num(t, r, 4, 0.1, 3);
    r = pf_table_add_row(t);
    pf_table_str(t, r, 1, "a, \"quoted\" | name");
    pf_table_int(t, r, 2, 12);
    r = pf_table_add_row(t);
    pf_table_str(t, r, 1, "Total");
    pf_table_int(t, r, 2, 15);
    pf_table_row_summary(t, r);
    return t;
}

static void test_text(void)
{
    pf_table *t = sample();
    char *s = render(pf_table_print_text, t, 0);
    /* Widest name is 18 characters; numbers right-aligned; null cells show '-'; the
     * CSV-only and JSON-only columns are not shown. */
    CHECK_STR("text layout",
              s,
              "Name               | Count | Time\n"
              "-----------------------------------\n"
              "nvjet_sm90_gemm    |     3 | 14.847\n"
              "a, \"quoted\" | name |    12 |      -\n"
              "Total              |    15 |      -\n");
    free(s);
    s = render(pf_table_print_text, t, 10);
    /* cut in the middle (pf_name_cut): 4 characters, "...", the last 3 */
    CHECK_STR("text with --name_limit 10 cuts the middle to ...",
              s,
              "Name       | Count | Time\n"
              "---------------------------\n"
              "nvje...emm |     3 | 14.847\n"
              "a, \"...ame |    12 |      -\n"
              "Total      |    15 |      -\n");
    free(s);
    pf_table_free(t);
}

static void test_csv(void)
{
    pf_table *t = sample();
    char *s = render(pf_table_print_csv, t, 1);
    CHECK_STR("csv quoting, null cells empty, CSV-only column shown, Kind last (the Total a total)",
              s,
              "Dev,Name,Count,Time,Kind\n"
              "0,nvjet_sm90_gemm,3,14.847,row\n"
              ",\"a, \"\"quoted\"\" | name\",12,,row\n"
              ",Total,15,,total\n");
    free(s);
    pf_table_free(t);
}

static void test_json(void)
{
    pf_table *t = sample();
    char *s = render(json_rows, t, 0);
    /* Summary rows are left out; numbers keep full precision; null is null. */
    CHECK_STR("json rows",
              s,
              "[{\"name\":\"nvjet_sm90_gemm\",\"count\":3,\"time_us\":14.847,\"raw\":0.10000000000000001},"
              "{\"name\":\"a, \\\"quoted\\\" | name\",\"count\":12,\"time_us\":null,\"raw\":null}]");
    free(s);
    pf_table_free(t);
}

static void test_md(void)
{
    pf_table *t = sample();
    char *s = render(pf_table_print_md, t, 0);
    CHECK_STR("markdown escapes '|' and aligns numbers right",
              s,
              "| Name                | Count | Time   |\n"
              "|:--------------------|------:|-------:|\n"
              "| nvjet_sm90_gemm     |     3 | 14.847 |\n"
              "| a, \"quoted\" \\| name |    12 |      - |\n"
              "| Total               |    15 |      - |\n");
    free(s);
    pf_table_free(t);
}

static char *render_fit(const pf_table *t, const pf_text_fit *fit)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    pf_table_print_text_fit(f, t, fit);
    fclose(f);
    return buf;
}

/* Fitting a width: the wanted columns that fit beside the name, in the table's order; names
 * cut in the middle and, where they then read the same, numbered. */
static void test_fit(void)
{
    pf_table *t = pf_table_new(cols, 5);
    int r = pf_table_add_row(t);
    pf_table_str(t, r, 1, "abcdefghij_1_end");
    pf_table_int(t, r, 2, 1);
    pf_table_num(t, r, 3, 2.0, 1);
    r = pf_table_add_row(t);
    pf_table_str(t, r, 1, "abcdefghij_2_end");
    pf_table_int(t, r, 2, 2);
    pf_table_num(t, r, 3, 3.0, 1);
    /* width 30: name 16 + " | " + Time 4 = 23 fits; Count (3 + 5 more) would make 31 */
    int want_time_first[] = {3, 2};
    pf_text_fit fit = {.width = 30, .cols = want_time_first, .ncols = 2};
    char *s = render_fit(t, &fit);
    CHECK_STR("fit: Time fits at 30, Count does not",
              s,
              "Name             | Time\n"
              "-----------------------\n"
              "abcdefghij_1_end |  2.0\n"
              "abcdefghij_2_end |  3.0\n");
    free(s);
    /* --columns count at width 18: Count takes 3 + 5, the name the 10 left: "abcd" + "..." +
     * "end" for both, so the second is cut to 7 ("ab...nd") and numbered */
    int count_only[] = {2};
    fit = (pf_text_fit){.width = 18, .cols = count_only, .ncols = 1, .keep_all = 1};
    s = render_fit(t, &fit);
    CHECK_STR("fit: names cut to the width, alike ones numbered",
              s,
              "Name       | Count\n"
              "------------------\n"
              "abcd...end |     1\n"
              "ab...nd #2 |     2\n");
    free(s);
    pf_table_label(t, 0, 1, "short_one");
    fit = (pf_text_fit){0};
    s = render_fit(t, &fit);
    CHECK("fit: a label shows instead of the value", strstr(s, "\nshort_one ") != NULL);
    free(s);
    s = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&s, &n);
    pf_table_print_csv(f, t, 0);
    fclose(f);
    CHECK("fit: CSV keeps the value", strstr(s, "abcdefghij_1_end") != NULL && !strstr(s, "short_one"));
    free(s);
    pf_table_free(t);
}

static const pf_col list_cols[] = {
    {"Name", "name", 0, 0, NULL},
    {"A", "a", 1, 0, NULL},
    {"B", "b", 1, 0, NULL},
    {"Source", "source", 0, 0, NULL},
};

static pf_table *list_table(void)
{
    pf_table *t = pf_table_new(list_cols, 4);
    pf_table_list_col(t, 3);
    const char *src[] = {"estimate+gemm+memset+kv-cache", "gemm", "estimate+gemm+memset+kv-cache"};
    const char *name[] = {"op_a", "op_b", "Total"};
    for (int i = 0; i < 3; i++) {
        int r = pf_table_add_row(t);
        pf_table_str(t, r, 0, name[i]);
        pf_table_int(t, r, 1, 1 + 2 * i);
        pf_table_int(t, r, 2, 2 + 2 * i);
        pf_table_str(t, r, 3, src[i]);
    }
    pf_table_row_summary(t, 2);
    return t;
}

/* A list column: a row's list over 16 characters shows FIRST+N (29 characters, 4 members:
 * "estimate+3"), the summary's list wider than the column (10, from "estimate+3") "mixed";
 * ties: A and B shown or left out together. */
static void test_lists_and_ties(void)
{
    pf_table *t = list_table();
    int all[] = {1, 2, 3};
    pf_text_fit fit = {.width = 80, .cols = all, .ncols = 3};
    char *s = render_fit(t, &fit);
    CHECK_STR("lists: FIRST+N in a row, mixed in the summary",
              s,
              "Name  | A | B | Source\n"
              "--------------------------\n"
              "op_a  | 1 | 2 | estimate+3\n"
              "op_b  | 3 | 4 | gemm\n"
              "Total | 5 | 6 | mixed\n");
    free(s);
    s = render(pf_table_print_csv, t, 0);
    CHECK("lists: CSV keeps the whole list", strstr(s, "estimate+gemm+memset+kv-cache") != NULL);
    free(s);
    /* Source first (5 + 13 = 18), then A (4) and B (4): 26 columns for all three */
    int src_first[] = {3, 1, 2};
    int ab[] = {1, 2};
    fit = (pf_text_fit){.width = 25, .cols = src_first, .ncols = 3};
    s = render_fit(t, &fit);
    CHECK("ties: without them A fits at 25 and B does not", strncmp(s, "Name  | A | Source\n", 19) == 0);
    free(s);
    fit.ties = ab, fit.nties = 1;
    s = render_fit(t, &fit);
    CHECK("ties: A goes with B at 25", strncmp(s, "Name  | Source\n", 15) == 0);
    free(s);
    fit.width = 26;
    s = render_fit(t, &fit);
    CHECK("ties: both at 26", strncmp(s, "Name  | A | B | Source\n", 23) == 0);
    free(s);
    pf_table_free(t);
}

/* wrap_names: a name wider than its column (16 - 4 = 12) breaks after its comma between
 * arguments ("op([1,2]x," 10 characters), not the one inside "[1,2]", and goes on indented. */
static void test_wrap_names(void)
{
    pf_table *t = pf_table_new(list_cols, 2);
    int r = pf_table_add_row(t);
    pf_table_str(t, r, 0, "op([1,2]x, [3,4]y)");
    pf_table_int(t, r, 1, 1);
    int a[] = {1};
    pf_text_fit fit = {.width = 16, .cols = a, .ncols = 1, .keep_all = 1, .wrap_names = 1};
    char *s = render_fit(t, &fit);
    CHECK_STR("wrap: after the comma between arguments",
              s,
              "Name         | A\n"
              "----------------\n"
              "op([1,2]x,   | 1\n"
              "  [3,4]y)\n");
    free(s);
    fit.wrap_names = 0;
    s = render_fit(t, &fit);
    CHECK("wrap: off, the name is cut to one line", strstr(s, "op([1...4]y) | 1\n") != NULL);
    free(s);
    pf_table_free(t);
}

static void test_mark_and_utf8(void)
{
    pf_table *t = pf_table_new(cols, 5);
    int r = pf_table_add_row(t);
    pf_table_str(t, r, 1, "\xC3\xA9t\xC3\xA9_kernel"); /* "été_kernel": 10 characters, 12 bytes */
    pf_table_num(t, r, 3, 103.04, 1);
    pf_table_mark(t, r, 3, "!");
    char *s = render(pf_table_print_text, t, 6);
    CHECK_STR("utf-8 names are cut by characters; marks are appended",
              s,
              "Name   | Count | Time\n"
              "-----------------------\n"
              "\xC3\xA9t...l |     - | 103.0!\n");
    free(s);
    pf_table_free(t);
}

static void test_format_parse(void)
{
    pf_format f;
    CHECK("format json", pf_format_parse("json", &f) == 0 && f == PF_FMT_JSON);
    CHECK("format markdown", pf_format_parse("markdown", &f) == 0 && f == PF_FMT_MD);
    CHECK("format xml refused", pf_format_parse("xml", &f) == -1);
}

/* pf_table_num's own digits (without printf where they are certain) equal printf's "%.*f" on
 * a million values: ns / 1000 as --ranks passes them, halves and near-halves, negatives,
 * -0.0, large and tiny magnitudes, 0 to 6 decimals. */
static void test_num_digits(void)
{
    static const pf_col one[] = {{"V", "v", 1, 0, NULL}};
    pf_table *t = pf_table_new(one, 1);
    int r = pf_table_add_row(t), bad = 0;
    unsigned long long x = 88172645463325252ULL;
    char want[80], first[200] = "";
    for (int i = 0; i < 1000000 && t; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        double v;
        switch (i % 6) {
        case 0: v = (double)(int64_t)(x % 100000000000ULL) / 1000.0; break;
        case 1: v = (double)(x % 2000001) / 2.0 - 500000.0; break;       /* halves */
        case 2: v = ((double)(x % 1000000) + 0.5) / 1000.0; break;       /* near-halves at 3 decimals */
        case 3: v = (double)(x >> 11) * 0x1p-53 * 1e12 - 5e11; break;    /* wide, both signs */
        case 4: v = (double)(x >> 11) * 0x1p-53 * 1e-3 - 5e-4; break;    /* tiny, both signs */
        default: v = i % 12 == 5 ? -0.0 : (double)(x % 1000) * 0.001; break;
        }
        int d = (int)(x >> 59) % 7;
        pf_table_num(t, r, 0, v, d);
        snprintf(want, sizeof want, "%.*f", d, v);
        const char *got = pf_table_cell(t, r, 0);
        if (!got || strcmp(got, want) != 0) {
            if (!bad++)
                snprintf(first, sizeof first, "%.17g at %d decimals: got %s, want %s", v, d, got ? got : "(null)", want);
        }
    }
    if (bad)
        printf("first mismatch: %s\n", first);
    CHECK("pf_table_num's digits equal printf's on a million values", t && bad == 0);
    pf_table_free(t);
}

int main(void)
{
    test_num_digits();
    test_text();
    test_csv();
    test_json();
    test_md();
    test_mark_and_utf8();
    test_fit();
    test_lists_and_ties();
    test_wrap_names();
    test_format_parse();
    CHECK_DONE();
}
