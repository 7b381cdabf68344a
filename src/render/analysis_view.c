/* analysis_view.c - how --analysis prints a device: its rows table, header lines, footnotes, categories, busy time and streams, in text, Markdown, CSV and JSON. */
#include <assert.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/headline.h"
#include "profana/names.h"
#include "profana/view.h"
#include "view_parts.h"

enum {
    C_DEVICE, C_NAME, C_CATEGORY, C_COUNT, C_LAUNCHES, C_TOTAL, C_MEAN, C_MIN, C_MAX, C_PCT, C_GFLOP, C_GB, C_FLOP,
    C_BYTES, C_TFLOPS, C_GBPS, C_FLOPS_PCT, C_BW_PCT, C_FLOPS_ACH, C_BW_ACH, C_BOUND, C_SOURCE, C_NOTE, C_UPPER, C_CACHE, C_ELSEWHERE,
    C_P50, C_P90, C_P99, C_STD, C_CALLS,
    C_CPU_TOTAL,
    C_SELF_CPU, C_NCOLS
};

static const pf_col base_cols[C_NCOLS] = {
    [C_DEVICE] = {"Device", NULL, 1, PF_IN_CSV, NULL},
    [C_NAME] = {"Kernel Name", "name", 0, 0, NULL},
    [C_CATEGORY] = {"Category", "category", 0, 0, NULL},
    [C_COUNT] = {"Count", "count", 1, 0, NULL},
    /* --group op and shape: Count is op invocations, Mean, Min and Max GPU time per
     * invocation (key_averages' calls and CUDA time avg); Launches their GPU activities.
     * --group kernel shows it in JSON only, where it equals count. */
    [C_LAUNCHES] = {"Launches", "launches", 1, 0, NULL},
    [C_TOTAL] = {"Total (us)", "total_us", 1, 0, NULL},
    [C_MEAN] = {"Mean (us)", "mean_us", 1, 0, NULL},
    [C_MIN] = {"Min (us)", "min_us", 1, PF_IN_CSV | PF_IN_JSON, NULL},
    [C_MAX] = {"Max (us)", "max_us", 1, PF_IN_CSV | PF_IN_JSON, NULL},
    [C_PCT] = {"Time %", "pct", 1, 0, NULL},
    [C_GFLOP] = {"GFLOP", NULL, 1, PF_IN_TEXT | PF_IN_CSV, "gflop"},
    [C_GB] = {"GB", NULL, 1, PF_IN_TEXT | PF_IN_CSV, "gb"},
    [C_FLOP] = {"FLOP", "flop", 1, PF_IN_JSON, NULL},
    [C_BYTES] = {"Bytes", "bytes", 1, PF_IN_JSON, NULL},
    [C_TFLOPS] = {"TFLOP/s", "tflops", 1, 0, NULL},
    [C_GBPS] = {"GB/s", "gbps", 1, 0, NULL},
    [C_FLOPS_PCT] = {"FLOPS %", "flops_pct", 1, 0, NULL},
    [C_BW_PCT] = {"BW %", "bw_pct", 1, 0, NULL},
    /* shown in text only with measured achievable peaks (pf_aview.cols_ach) */
    [C_FLOPS_ACH] = {"FLOPS % ach", "flops_ach_pct", 1, PF_IN_CSV | PF_IN_JSON, NULL},
    [C_BW_ACH] = {"BW % ach", "bw_ach_pct", 1, PF_IN_CSV | PF_IN_JSON, NULL},
    [C_BOUND] = {"Bound", "bound", 0, 0, NULL},
    [C_SOURCE] = {"Source", "source", 0, 0, NULL},
    [C_NOTE] = {"Note", "note", 0, PF_IN_CSV | PF_IN_JSON, NULL},
    [C_UPPER] = {"Upper bound", "upper_bound", 0, PF_IN_JSON, NULL},
    [C_CACHE] = {"Cache served", "cache_served", 0, PF_IN_CSV | PF_IN_JSON, NULL},
    /* the row's kernels carry none of their ops' FLOPs (they are on sibling kernels) */
    [C_ELSEWHERE] = {"FLOPs elsewhere", "flop_elsewhere", 0, PF_IN_JSON, NULL},
    /* the spread of the row's times (as Mean: per launch, or per invocation for --group op
     * and shape): always in CSV and JSON, in text and Markdown when --columns names them */
    [C_P50] = {"p50 (us)", "p50_us", 1, PF_IN_CSV | PF_IN_JSON | PF_IN_PICK, NULL},
    [C_P90] = {"p90 (us)", "p90_us", 1, PF_IN_CSV | PF_IN_JSON | PF_IN_PICK, NULL},
    [C_P99] = {"p99 (us)", "p99_us", 1, PF_IN_CSV | PF_IN_JSON | PF_IN_PICK, NULL},
    [C_STD] = {"Std (us)", "std_us", 1, PF_IN_CSV | PF_IN_JSON | PF_IN_PICK, NULL},
    /* --group op only: the table is cut to C_CALLS columns otherwise. */
    [C_CALLS] = {"Calls", "calls", 1, 0, NULL},
    [C_CPU_TOTAL] = {"CPU Total (us)", "cpu_total_us", 1, 0, NULL},
    [C_SELF_CPU] = {"Self CPU (us)", "self_cpu_us", 1, 0, NULL},
};

/* Whether column c is among the columns a printed table showed (pf_table_print_text_fit). */
#define SHOWN(mask, c) (((mask) >> (c)) & 1)

static const char *const group_titles[] = {"Kernel Name", "Op", "Op (input shapes)"};

/* The columns text shows beside the name by default, most wanted first: a narrower width
 * gives up the last ones first (pf_table_print_text_fit). Time and the share of peak answer
 * "where does the time go and how well is it used"; Source says which figures are estimates.
 * Columns a grouping's table lacks (Calls and CPU times but for --group op) are skipped. */
static const int default_cols[] = {C_TOTAL,  C_PCT,       C_FLOPS_PCT, C_BW_PCT,    C_FLOPS_ACH, C_BW_ACH, C_SOURCE, C_TFLOPS,
                                   C_GBPS,   C_COUNT,     C_LAUNCHES,  C_CPU_TOTAL, C_SELF_CPU, C_CALLS,
                                   C_BOUND,  C_MEAN,      C_CATEGORY,  C_GFLOP,     C_GB};
/* --group op: Count (the op's calls, key_averages' own column) right after Total, so it
 * shows at any width. */
static const int op_cols[] = {C_TOTAL,  C_COUNT,     C_PCT,       C_FLOPS_PCT, C_BW_PCT,    C_FLOPS_ACH, C_BW_ACH,
                              C_SOURCE, C_TFLOPS,    C_GBPS,      C_LAUNCHES,  C_CPU_TOTAL, C_SELF_CPU,  C_CALLS,
                              C_BOUND,  C_MEAN,      C_CATEGORY,  C_GFLOP,     C_GB};
_Static_assert(sizeof op_cols == sizeof default_cols, "op_cols is default_cols with Count moved up");

_Static_assert((int)C_NCOLS == (int)PF_AVIEW_NCOLS, "pf_aview holds the device table's columns");

/* --columns' help: the columns text shows by default, in the order --help lists them; then,
 * in table order, the ones text shows on request (PF_IN_PICK) and --group op's own. */
static const int help_cols[] = {C_TOTAL, C_PCT,      C_FLOPS_PCT, C_BW_PCT, C_SOURCE, C_TFLOPS, C_GBPS,
                                C_COUNT, C_LAUNCHES, C_MEAN,      C_CATEGORY, C_BOUND, C_GFLOP, C_GB};

size_t pf_aview_columns_help(char *s, size_t n, size_t used)
{
    assert(s && n > 0);
    int pick[C_NCOLS], op[C_NCOLS], n_pick = 0, n_op = 0;
    for (int c = 0; c < C_NCOLS; c++) {
        if (base_cols[c].show & PF_IN_PICK)
            pick[n_pick++] = c;
        if (c >= C_CALLS)
            op[n_op++] = c;
    }
    used = pf_cols_join(s, n, used, "--analysis: ", base_cols, help_cols, (int)(sizeof help_cols / sizeof help_cols[0]));
    used = pf_cols_join(s, n, used, "; on request only: ", base_cols, pick, n_pick);
    return pf_cols_join(s, n, used, "; --group op also ", base_cols, op, n_op);
}

void pf_aview_init(pf_aview *a, const pf_view_opts *v)
{
    assert(v && (unsigned)v->group < sizeof group_titles / sizeof group_titles[0]);
    a->v = v;
    memcpy(a->cols, base_cols, sizeof base_cols);
    a->cols[C_NAME].title = group_titles[v->group];
    if (v->group == PF_GROUP_KERNEL)
        a->cols[C_LAUNCHES].show = PF_IN_JSON;
    memcpy(a->cols_ach, a->cols, sizeof a->cols);
    a->cols_ach[C_FLOPS_ACH].show = a->cols_ach[C_BW_ACH].show = 0;
    memcpy(a->cols_unknown, a->cols, sizeof a->cols);
    static const int peak_cols[] = {C_FLOPS_PCT, C_BW_PCT, C_BOUND};
    for (size_t i = 0; i < sizeof peak_cols / sizeof peak_cols[0]; i++)
        a->cols_unknown[peak_cols[i]].show = PF_IN_CSV | PF_IN_JSON;
}

/* The column set of a device's table (pf_aview). */
static const pf_col *device_cols(const pf_aview *a, const pf_device_info *info)
{
    return !info ? a->cols_unknown : pf_has_achievable(info) ? a->cols_ach : a->cols;
}

static int elsewhere_row(const pf_row *row)
{
    return !row->is_total && row->flop_elsewhere_n > 0 && row->flop_elsewhere_n == row->count;
}

/* Sets a percentage cell; over 100% means a formula or a peak is wrong, so it is marked, and
 * over SUSPECT_PCT is marked as worth a check. Returns PF_AVIEW_OVER, PF_AVIEW_SUSPECT or 0. */
static int set_pct(pf_table *t, int r, int col, double pct)
{
    if (pct < 0)
        return 0;
    pf_table_num(t, r, col, pct, 1);
    if (pct > 100.0) {
        pf_table_mark(t, r, col, OVER_PEAK_MARK);
        return PF_AVIEW_OVER;
    }
    if (pct > SUSPECT_PCT) {
        pf_table_mark(t, r, col, SUSPECT_MARK);
        return PF_AVIEW_SUSPECT;
    }
    return 0;
}

/* A rate over zero time does not exist: the cell stays '-'. */
static void set_rate(pf_table *t, int r, int col, double v, int decimals)
{
    if (v >= 0)
        pf_table_num(t, r, col, v, decimals);
}

/* A share of the device's summed GPU activity time, in percent. */
static double time_pct(const pf_device_report *d, int64_t ns)
{
    return pf_aview_time_pct(d, ns);
}

/* A rate of the known part of a row ("83.20*", pf_row_part_tflops), in place of its unknown
 * one. Returns PF_AVIEW_PARTIAL when it showed one (v >= 0). */
static int part_cell(pf_table *t, int r, int col, double v, int decimals)
{
    char s[48];
    if (v < 0)
        return 0;
    snprintf(s, sizeof s, "%.*f" PARTIAL_MARK, decimals, v);
    pf_table_mark(t, r, col, s);
    return PF_AVIEW_PARTIAL;
}

static int fill_partial(pf_table *t, int r, const pf_row *row, const pf_device_report *d)
{
    return part_cell(t, r, C_TFLOPS, pf_row_part_tflops(row), 2) | part_cell(t, r, C_GBPS, pf_row_part_gbps(row), 1) |
           part_cell(t, r, C_FLOPS_PCT, pf_row_part_flops_pct(row, d->info), 1) |
           part_cell(t, r, C_BW_PCT, pf_row_part_bw_pct(row, d->info), 1);
}

static void fill_row(pf_table *t, int r, const pf_row *row, const pf_device_report *d)
{
    char src[1024];
    double total_us = row->total_ns / 1e3;
    pf_table_int(t, r, C_DEVICE, d->device->id);
    pf_table_str(t, r, C_NAME, row->key);
    if (!row->is_total)
        pf_table_str(t, r, C_CATEGORY, pf_category_name(pf_row_category(row)));
    pf_table_int(t, r, C_COUNT, row->invocations);
    pf_table_int(t, r, C_LAUNCHES, row->count);
    pf_table_num(t, r, C_TOTAL, total_us, 3);
    pf_table_num(t, r, C_MEAN, pf_row_mean_ns(row) / 1e3, 3);
    pf_table_num(t, r, C_MIN, row->invocations ? row->min_ns / 1e3 : 0, 3);
    pf_table_num(t, r, C_MAX, row->max_ns / 1e3, 3);
    pf_table_num(t, r, C_PCT, time_pct(d, row->total_ns), 2);
    if (row->has_spread) {
        pf_table_num(t, r, C_P50, row->p50_ns / 1e3, 3);
        pf_table_num(t, r, C_P90, row->p90_ns / 1e3, 3);
        pf_table_num(t, r, C_P99, row->p99_ns / 1e3, 3);
        pf_table_num(t, r, C_STD, row->std_ns / 1e3, 3);
    }
    if (pf_row_has_flop(row)) {
        pf_table_num(t, r, C_GFLOP, row->flop / 1e9, 3);
        pf_table_num(t, r, C_FLOP, row->flop, 0);
        set_rate(t, r, C_TFLOPS, pf_row_tflops(row), 2);
    }
    if (pf_row_has_bytes(row)) {
        pf_table_num(t, r, C_GB, row->bytes / 1e9, 6);
        pf_table_num(t, r, C_BYTES, row->bytes, 0);
        set_rate(t, r, C_GBPS, pf_row_gbps(row), 1);
    }
    int over = set_pct(t, r, C_FLOPS_PCT, pf_row_flops_pct(row, d->info));
    over |= set_pct(t, r, C_BW_PCT, pf_row_bw_pct(row, d->info));
    int cached = pf_row_cache_served(row, d->info);
    if (cached)
        pf_table_mark(t, r, C_BW_PCT, CACHE_MARK);
    pf_table_bool(t, r, C_CACHE, cached);
    /* measured achievable peaks: the same rule, against what a kernel was seen to reach */
    over |= set_pct(t, r, C_FLOPS_ACH, pf_row_flops_ach_pct(row, d->info));
    over |= set_pct(t, r, C_BW_ACH, cached ? -1 : pf_row_bw_ach_pct(row, d->info));
    int guess_ub = pf_row_guess_over(row, d->info);
    if (guess_ub) {
        pf_table_mark(t, r, C_BW_PCT, GUESS_UB_MARK);
        pf_table_mark(t, r, C_FLOPS_PCT, GUESS_UB_MARK);
    }
    if (elsewhere_row(row))
        pf_table_mark(t, r, C_FLOPS_PCT, ELSEWHERE_MARK);
    pf_table_bool(t, r, C_ELSEWHERE, elsewhere_row(row));
    if (over & PF_AVIEW_OVER)
        pf_table_str(t, r, C_NOTE, "over peak: a formula or a peak is wrong");
    else if (over & PF_AVIEW_SUSPECT)
        pf_table_str(t, r, C_NOTE, "above 90% of peak: check the peak, the clock, L2-resident data");
    pf_table_bool(t, r, C_UPPER, row->upper_bound_n > 0 || guess_ub);
    pf_table_str(t, r, C_BOUND, pf_row_bound(row, d->info));
    pf_table_str(t, r, C_SOURCE, pf_row_source(row, src, sizeof src));
    if (row->has_cpu) {
        pf_table_int(t, r, C_CALLS, row->calls);
        pf_table_num(t, r, C_CPU_TOTAL, row->cpu_total_ns / 1e3, 3);
        pf_table_num(t, r, C_SELF_CPU, row->self_cpu_ns / 1e3, 3);
    }
}

int pf_aview_ncols(const pf_view_opts *v)
{
    return v->group == PF_GROUP_OP ? C_NCOLS : C_CALLS;
}

enum { S_STREAM, S_COUNT, S_BUSY, S_PCT, S_NCOLS };

static const pf_col stream_cols[S_NCOLS] = {
    [S_STREAM] = {"Stream", "stream", 1, 0, NULL},
    [S_COUNT] = {"Launches", "count", 1, 0, NULL},
    [S_BUSY] = {"Busy (us)", "busy_us", 1, 0, NULL},
    [S_PCT] = {"Busy % of span", NULL, 1, PF_IN_TEXT | PF_IN_CSV, NULL},
};

static double span_ns(const pf_busy *b)
{
    return pf_aview_span_ns(b);
}

/* A share of the device's span (first start to last end), in percent. */
static double span_pct(const pf_busy *b, int64_t ns)
{
    return pf_aview_span_pct(b, ns);
}

pf_table *pf_aview_streams(const pf_busy *b)
{
    pf_table *t = pf_table_new(stream_cols, S_NCOLS);
    for (size_t i = 0; t && i < b->n_streams; i++) {
        const pf_stream_busy *s = &b->streams[i];
        int r = pf_table_add_row(t);
        pf_table_int(t, r, S_STREAM, s->stream);
        pf_table_int(t, r, S_COUNT, s->count);
        pf_table_num(t, r, S_BUSY, s->busy_ns / 1e3, 3);
        pf_table_num(t, r, S_PCT, span_pct(b, s->busy_ns), 2);
    }
    if (t && pf_table_status(t)) {
        pf_table_free(t);
        return NULL;
    }
    return t;
}

void pf_aview_busy(FILE *out, const pf_busy *b)
{
    fprintf(out, "GPU busy: span %.3f us, busy %.3f us (%.2f%%), idle %.3f us; summed activity time %.3f us "
                 "(overlap %.3f us)\n",
            span_ns(b) / 1e3, b->busy_ns / 1e3, span_pct(b, b->busy_ns), (span_ns(b) - (double)b->busy_ns) / 1e3,
            b->sum_ns / 1e3, (b->sum_ns - b->busy_ns) / 1e3);
    if (b->stream_overlaps > 0)
        fprintf(out, "  note: %lld activit%s started on %s stream before the previous one ended (%.3f us shared: "
                     "programmatic dependent launch on sm_90+, or overlapping timestamps): counted once in busy "
                     "time\n",
                (long long)b->stream_overlaps, b->stream_overlaps == 1 ? "y" : "ies",
                b->stream_overlaps == 1 ? "its" : "their", b->stream_overlap_ns / 1e3);
}

enum { K_CATEGORY, K_KERNELS, K_COUNT, K_TOTAL, K_PCT, K_TFLOPS, K_GBPS, K_NCOLS };

static const pf_col cat_cols[K_NCOLS] = {
    [K_CATEGORY] = {"Category", "category", 0, 0, NULL},
    [K_KERNELS] = {"Kernels", "kernels", 1, 0, NULL},
    [K_COUNT] = {"Launches", "count", 1, 0, NULL},
    [K_TOTAL] = {"Total (us)", "total_us", 1, 0, NULL},
    [K_PCT] = {"Time %", "pct", 1, 0, NULL},
    [K_TFLOPS] = {"TFLOP/s", "tflops", 1, 0, NULL},
    [K_GBPS] = {"GB/s", "gbps", 1, 0, NULL},
};

pf_table *pf_aview_categories(const pf_device_report *d)
{
    int order[PF_CAT_COUNT];
    int n = pf_view_category_order(d, order);
    pf_table *t = pf_table_new(cat_cols, K_NCOLS);
    for (int i = 0; t && i < n; i++) {
        const pf_row *c = pf_report_cat(d, order[i]);
        int r = pf_table_add_row(t);
        pf_table_str(t, r, K_CATEGORY, c->key);
        pf_table_int(t, r, K_KERNELS, d->cat_kernels[order[i]]);
        pf_table_int(t, r, K_COUNT, c->count);
        pf_table_num(t, r, K_TOTAL, c->total_ns / 1e3, 3);
        pf_table_num(t, r, K_PCT, time_pct(d, c->total_ns), 2);
        set_rate(t, r, K_TFLOPS, pf_row_tflops(c), 2);
        set_rate(t, r, K_GBPS, pf_row_gbps(c), 1);
    }
    if (t && pf_table_status(t)) {
        pf_table_free(t);
        return NULL;
    }
    return t;
}

enum { B_DEVICE, B_CATEGORY, B_NAME, B_TOTAL, B_COUNT, B_PCT, B_NCOLS };

/* Device and category are columns in CSV only: one CSV table holds every category's rows,
 * where text prints a table per category and JSON an object per category. */
static const pf_col by_cat_cols[B_NCOLS] = {
    [B_DEVICE] = {"Device", NULL, 1, PF_IN_CSV, NULL},
    [B_CATEGORY] = {"Category", NULL, 0, PF_IN_CSV, NULL},
    [B_NAME] = {"Kernel Name", "name", 0, 0, NULL},
    [B_TOTAL] = {"Total (us)", "total_us", 1, 0, NULL},
    [B_COUNT] = {"Count", "count", 1, 0, NULL},
    [B_PCT] = {"Percent", "pct", 1, 0, NULL},
};

static void by_cat_row(pf_table *t, const pf_row *row, const pf_device_report *d, int cat)
{
    int r = pf_table_add_row(t);
    pf_table_int(t, r, B_DEVICE, d->device->id);
    pf_table_str(t, r, B_CATEGORY, pf_category_name((pf_category)cat));
    pf_table_str(t, r, B_NAME, row->key);
    pf_table_num(t, r, B_TOTAL, row->total_ns / 1e3, 3);
    pf_table_int(t, r, B_COUNT, row->invocations);
    pf_table_num(t, r, B_PCT, time_pct(d, row->total_ns), 2);
}

/* One category's rows by time and a Total (a summary row), in columns cols; NULL when
 * memory runs out. */
static pf_table *by_category_table(const pf_col *cols, const pf_device_report *d, int cat, const pf_view_opts *v)
{
    pf_table *t = pf_table_new(cols, B_NCOLS);
    const char **keys = malloc((d->n_rows + 1) * sizeof *keys);
    size_t n = 0;
    pf_row total = *pf_report_cat(d, cat);
    total.key = "Total";
    total.invocations = 0; /* the Count of its rows: calls for --group op and shape */
    for (size_t i = 0; t && keys && i < d->n_rows; i++)
        if (pf_row_category(&d->rows[i]) == (pf_category)cat) {
            by_cat_row(t, &d->rows[i], d, cat);
            keys[n++] = d->rows[i].key;
            total.invocations += d->rows[i].invocations;
        }
    if (t && keys) {
        pf_table_row_summary(t, (by_cat_row(t, &total, d, cat), pf_table_rows(t) - 1));
        keys[n++] = total.key;
    }
    if (t && (!keys || pf_view_label_names(t, B_NAME, keys, n, v) || pf_table_status(t))) {
        free(keys);
        pf_table_free(t);
        return NULL;
    }
    free(keys);
    return t;
}

static void by_category_cols(pf_col *bc, const pf_aview *a)
{
    memcpy(bc, by_cat_cols, sizeof by_cat_cols);
    bc[B_NAME].title = a->cols[C_NAME].title;
}

/* A table in text or Markdown, fitted to the width (pf_view_fit) with wanted as its default
 * columns (NULL: all of them). */
static uint64_t print_table(FILE *out, const pf_view_opts *v, const pf_table *t, const int *wanted, int nwanted)
{
    int picked[64];
    pf_text_fit fit = pf_view_fit(v, t, wanted, nwanted, picked, 64);
    /* issue 47: wanted is a fixed priority, as --diff's: a column that does not fit leaves out
     * every one after it, so a narrower width never shows a later column in place of an
     * earlier one */
    fit.in_order = wanted != NULL;
    return pf_view_print_fit(out, v, t, &fit);
}

/* Like the Inductor compiled module's -p report: per category its rows by time, and a Total;
 * in text and Markdown a table each, in CSV rows of one table (header when header is set). */
static int print_by_category(FILE *out, FILE *raw, const pf_aview *a, const pf_device_report *d, int header)
{
    int order[PF_CAT_COUNT];
    int n = pf_view_category_order(d, order);
    pf_col bc[B_NCOLS];
    by_category_cols(bc, a);
    for (int k = 0; k < n; k++) {
        pf_table *t = by_category_table(bc, d, order[k], a->v);
        if (!t)
            return -1;
        if (a->v->format == PF_FMT_CSV)
            pf_table_print_csv(raw, t, header && k == 0);
        else if (a->v->format == PF_FMT_MD) /* a heading, then a blank line: a table must start a block */
            fprintf(out, "\n**%s**\n\n", pf_category_name((pf_category)order[k]));
        else
            fprintf(out, "\n== %s ==\n", pf_category_name((pf_category)order[k]));
        if (a->v->format != PF_FMT_CSV)
            print_table(raw, a->v, t, NULL, 0);
        pf_table_free(t);
    }
    return 0;
}

/* The "by_category" JSON member: per category, by time, its rows and their Total. */
static int json_by_category(pf_jw *w, const pf_aview *a, const pf_device_report *d)
{
    int order[PF_CAT_COUNT];
    int n = pf_view_category_order(d, order);
    pf_col bc[B_NCOLS];
    by_category_cols(bc, a);
    pf_jw_key(w, "by_category");
    pf_jw_arr_begin(w);
    for (int k = 0; k < n; k++) {
        pf_table *t = by_category_table(bc, d, order[k], a->v);
        if (!t)
            return -1;
        pf_jw_obj_begin(w);
        pf_jw_key(w, "category");
        pf_jw_str(w, pf_category_name((pf_category)order[k]));
        pf_jw_key(w, "rows");
        pf_table_json_rows(w, t);
        pf_jw_key(w, "total");
        pf_table_json_row(w, t, pf_table_rows(t) - 1);
        pf_table_free(t);
        pf_jw_obj_end(w);
    }
    pf_jw_arr_end(w);
    return 0;
}

static size_t shown_rows(const pf_view_opts *v, const pf_device_report *d)
{
    return v->top > 0 && (size_t)v->top < d->n_rows ? (size_t)v->top : d->n_rows;
}

/* The flag set_pct gives a percentage. */
static int pct_flag(double pct)
{
    return pct > 100.0 ? PF_AVIEW_OVER : pct > SUSPECT_PCT ? PF_AVIEW_SUSPECT : 0;
}

/* The short names text and Markdown show for the first n rows and the Total (pf_name_short). */
static int label_rows(pf_table *t, const pf_device_report *d, size_t n, const pf_view_opts *v)
{
    const char **keys = malloc((n + 1) * sizeof *keys);
    if (!keys)
        return -1;
    for (size_t i = 0; i < n; i++)
        keys[i] = d->rows[i].key;
    keys[n] = "Total";
    int rc = pf_view_label_names(t, C_NAME, keys, n + 1, v);
    free(keys);
    return rc;
}

/* Builds the device's table: its groups by time, then the Total row (a summary row). */
pf_table *pf_aview_rows(const pf_aview *a, const pf_device_report *d, unsigned keep, int *over)
{
    pf_table *t = pf_table_new(device_cols(a, d->info), pf_aview_ncols(a->v));
    if (t && keep && pf_table_keep(t, keep)) {
        pf_table_free(t);
        return NULL;
    }
    if (!t)
        return NULL;
    pf_table_list_col(t, C_SOURCE);
    *over = 0;
    if (shown_rows(a->v, d) < INT_MAX && pf_table_reserve(t, (int)shown_rows(a->v, d) + 1)) {
        pf_table_free(t);
        return NULL;
    }
    for (size_t i = 0; i < shown_rows(a->v, d); i++) {
        int r = pf_table_add_row(t);
        fill_row(t, r, &d->rows[i], d);
        *over |= pct_flag(pf_row_flops_pct(&d->rows[i], d->info)) | pct_flag(pf_row_bw_pct(&d->rows[i], d->info));
        *over |= pf_row_cache_served(&d->rows[i], d->info) ? PF_AVIEW_CACHE : 0;
        *over |= pf_row_guess_over(&d->rows[i], d->info) ? PF_AVIEW_GUESS_UB : 0;
        *over |= elsewhere_row(&d->rows[i]) ? PF_AVIEW_ELSEWHERE : 0;
        *over |= fill_partial(t, r, &d->rows[i], d);
    }
    int r = pf_table_add_row(t);
    fill_row(t, r, &d->total, d);
    pf_table_row_summary(t, r);
    if (label_rows(t, d, shown_rows(a->v, d), a->v) || pf_table_status(t)) {
        pf_table_free(t);
        return NULL;
    }
    return t;
}

void pf_aview_omitted(FILE *out, const pf_view_opts *v, const pf_device_report *d)
{
    size_t shown = shown_rows(v, d);
    if (shown == d->n_rows)
        return;
    int64_t ns = 0;
    for (size_t i = shown; i < d->n_rows; i++)
        ns += d->rows[i].total_ns;
    fprintf(out, "(%zu more rows: %.3f us, %.2f%% of GPU time; --top 0 shows all)\n", d->n_rows - shown,
            ns / 1e3, time_pct(d, ns));
}

/* The device's header lines (after a blank line but for the first device), its rows and
 * their footnotes. */
static int text_rows(FILE *out, FILE *raw, const pf_aview *a, const pf_analysis *an, int i)
{
    const pf_device_report *d = &an->devices[i];
    int md = a->v->format == PF_FMT_MD, over;
    pf_table *t = pf_aview_rows(a, d, PF_IN_TEXT, &over);
    if (!t)
        return -1;
    if (i)
        fputc('\n', out);
    pf_aview_header(out, an, d, md ? "### " : "");
    if (md)
        fputc('\n', out);
    pf_headline_print_at(out, an, d, a->v->width);
    pf_wview_print(out, an, d, md);
    if (i == 0)
        pf_aview_trace_notes(out, a, an);
    pf_aview_counts(out, an, d);
    pf_aview_coverage(out, an, d);
    pf_aview_phases(out, an, d);
    fputc('\n', out);
    uint64_t shown = print_table(raw, a->v, t, a->v->group == PF_GROUP_OP ? op_cols : default_cols,
                                 (int)(sizeof default_cols / sizeof default_cols[0]));
    /* footnotes only for the columns shown: a marker whose column is gone explains nothing */
    int src = SHOWN(shown, C_SOURCE), pct = SHOWN(shown, C_FLOPS_PCT) || SHOWN(shown, C_BW_PCT);
    over &= pct || SHOWN(shown, C_FLOPS_ACH) || SHOWN(shown, C_BW_ACH) ? ~0 : 0;
    over &= SHOWN(shown, C_BW_PCT) ? ~0 : ~PF_AVIEW_CACHE;
    over &= SHOWN(shown, C_FLOPS_PCT) ? ~0 : ~PF_AVIEW_ELSEWHERE;
    over &= SHOWN(shown, C_FLOPS_PCT) || SHOWN(shown, C_BW_PCT) || SHOWN(shown, C_TFLOPS) || SHOWN(shown, C_GBPS)
                ? ~0
                : ~PF_AVIEW_PARTIAL;
    /* Markdown: a line right under a table would be read as one of its rows */
    if (md && (over || shown_rows(a->v, d) < d->n_rows || src))
        fputc('\n', out);
    pf_aview_omitted(out, a->v, d);
    pf_aview_footnotes(out, d, t, over, shown_rows(a->v, d), SHOWN(shown, C_SOURCE) ? C_SOURCE : -1,
                       SHOWN(shown, C_BW_PCT));
    pf_table_free(t);
    return 0;
}

void pf_aview_report_notes(FILE *out, const pf_aview *a, const pf_device_report *d, const pf_table *t, int over)
{
    assert(out && a && d && t);
    pf_aview_footnotes(out, d, t, over, shown_rows(a->v, d), C_SOURCE, 1);
}

/* One device in text or Markdown: rows, categories, busy time and streams. */
static int text_device(FILE *out, FILE *raw, const pf_aview *a, const pf_analysis *an, int i)
{
    const pf_device_report *d = &an->devices[i];
    if (text_rows(out, raw, a, an, i))
        return -1;
    fputc('\n', out);
    pf_table *t = pf_aview_categories(d);
    if (!t)
        return -1;
    print_table(raw, a->v, t, NULL, 0);
    pf_table_free(t);
    if (a->v->by_category && print_by_category(out, raw, a, d, 0))
        return -1;
    fputc('\n', out);
    pf_aview_busy(out, &d->busy);
    if (!(t = pf_aview_streams(&d->busy)))
        return -1;
    fputc('\n', out);
    print_table(raw, a->v, t, NULL, 0);
    pf_table_free(t);
    return a->v->waits ? pf_wview_tables(raw, a->v, an, i) : 0;
}

static int print_prose_and_tables(FILE *out, FILE *raw, const pf_aview *a, const pf_analysis *an)
{
    if (a->v->steps) {
        for (int k = 0; a->v->trace_notes && k < an->trace->n_notes; k++)
            fprintf(out, "Note: %s\n", an->trace->notes[k]);
        pf_steps_print_line(out, an);
        return pf_steps_print_table(raw, a->v->format, a->v->width, an);
    }
    if (an->n_devices == 0)
        pf_aview_trace_notes(out, a, an);
    for (int i = 0; i < an->n_devices; i++)
        if (text_device(out, raw, a, an, i))
            return -1;
    return pf_aview_collectives_text(out, raw, a->v, an);
}

/* Prose (headers, coverage, footnotes) wrapped to the width; tables on raw, fitted to it. */
static int print_text(FILE *raw, const pf_aview *a, const pf_analysis *an)
{
    FILE *out = pf_wrap_open(raw, a->v->format == PF_FMT_TEXT ? a->v->width : 0);
    int rc = print_prose_and_tables(out, raw, a, an);
    pf_wrap_close(out, raw);
    return rc;
}

static int print_csv(FILE *out, const pf_aview *a, const pf_analysis *an)
{
    if (a->v->steps)
        return pf_steps_print_table(out, a->v->format, 0, an);
    if (a->v->waits) /* the waits tables instead of the rows tables: a CSV holds one kind */
        return pf_wview_tables(out, a->v, an, -1);
    for (int i = 0; i < an->n_devices; i++) {
        int over;
        if (a->v->by_category) { /* the per-category tables, as one table: a CSV holds one */
            if (print_by_category(out, out, a, &an->devices[i], i == 0))
                return -1;
            continue;
        }
        pf_table *t = pf_aview_rows(a, &an->devices[i], PF_IN_CSV, &over);
        if (!t)
            return -1;
        pf_table_print_csv(out, t, i == 0);
        pf_table_free(t);
    }
    return 0;
}

static void json_busy(pf_jw *w, const pf_busy *b)
{
    pf_jw_key(w, "busy");
    pf_jw_obj_begin(w);
    pf_jw_key(w, "span_us");
    pf_jw_num(w, span_ns(b) / 1e3);
    pf_jw_key(w, "busy_us");
    pf_jw_num(w, b->busy_ns / 1e3);
    pf_jw_key(w, "idle_us");
    pf_jw_num(w, (span_ns(b) - (double)b->busy_ns) / 1e3);
    pf_jw_key(w, "busy_pct");
    pf_jw_num(w, span_pct(b, b->busy_ns));
    pf_jw_key(w, "sum_us");
    pf_jw_num(w, b->sum_ns / 1e3);
    pf_jw_key(w, "overlap_us");
    pf_jw_num(w, (b->sum_ns - b->busy_ns) / 1e3);
    pf_jw_key(w, "stream_overlaps");
    pf_jw_int(w, b->stream_overlaps);
    pf_jw_key(w, "stream_overlap_us");
    pf_jw_num(w, b->stream_overlap_ns / 1e3);
    pf_jw_obj_end(w);
}

static int json_device(pf_jw *w, const pf_aview *a, const pf_analysis *an, const pf_device_report *d)
{
    int over;
    pf_table *t = pf_aview_rows(a, d, PF_IN_JSON, &over);
    if (!t)
        return -1;
    pf_jw_obj_begin(w);
    pf_aview_header_json(w, d);
    pf_headline_json(w, an, d);
    pf_jw_key(w, "rows");
    pf_table_json_rows(w, t);
    pf_jw_key(w, "rows_omitted");
    pf_jw_int(w, (int64_t)(d->n_rows - shown_rows(a->v, d)));
    pf_jw_key(w, "total");
    pf_table_json_row(w, t, pf_table_rows(t) - 1);
    pf_table_free(t);
    json_busy(w, &d->busy);
    pf_wview_json(w, an, d);
    pf_aview_coverage_json(w, d);
    pf_aview_phases_json(w, an, d);
    if (!(t = pf_aview_categories(d)))
        return -1;
    pf_jw_key(w, "categories");
    pf_table_json_rows(w, t);
    pf_table_free(t);
    if (a->v->by_category && json_by_category(w, a, d))
        return -1;
    if (!(t = pf_aview_streams(&d->busy)))
        return -1;
    pf_jw_key(w, "streams");
    pf_table_json_rows(w, t);
    pf_table_free(t);
    pf_jw_obj_end(w);
    return 0;
}

static int print_json(FILE *out, const pf_aview *a, const pf_analysis *an)
{
    const pf_trace *tr = an->trace;
    pf_jw w;
    pf_jw_init(&w, out);
    pf_jw_doc_begin(&w);
    pf_jw_key(&w, "trace");
    pf_jw_str(&w, tr->path);
    pf_jw_key(&w, "dtype");
    pf_jw_str(&w, pf_dtype_name(an->opts.default_dtype));
    pf_jw_key(&w, "group");
    pf_jw_str(&w, pf_group_names[an->opts.group]);
    pf_jw_key(&w, "events");
    pf_jw_int(&w, (int64_t)tr->n_events);
    pf_jw_key(&w, "gpu_activities");
    pf_jw_int(&w, (int64_t)tr->n_acts);
    pf_jw_key(&w, "unlinked");
    pf_jw_int(&w, (int64_t)tr->n_unlinked);
    pf_jw_key(&w, "linked_by_nesting");
    pf_jw_int(&w, (int64_t)tr->n_nested);
    if (pf_steps_json(&w, an))
        return -1;
    if (!a->v->steps) { /* --steps: the steps alone, as text prints its step table alone */
        pf_jw_key(&w, "devices");
        pf_jw_arr_begin(&w);
        for (int i = 0; i < an->n_devices; i++)
            if (json_device(&w, a, an, &an->devices[i]))
                return -1;
        pf_jw_arr_end(&w);
        if (pf_aview_collectives_json(&w, an))
            return -1;
    }
    pf_jw_obj_end(&w);
    fputc('\n', out);
    return 0;
}

/* --format ndjson: a line per row of each device's rows (Total too), categories and streams. */
static int print_ndjson(FILE *out, const pf_aview *a, const pf_analysis *an)
{
    static const char *const names[] = {"rows", "categories", "streams"};
    for (int i = 0, over; i < an->n_devices; i++) {
        const pf_device_report *d = &an->devices[i];
        pf_table *t[3] = {pf_aview_rows(a, d, 0, &over), pf_aview_categories(d), pf_aview_streams(&d->busy)};
        int ok = t[0] && t[1] && t[2];
        for (int k = 0; ok && k < 3; k++)
            pf_table_print_ndjson(out, t[k], names[k], an->trace->path, d->device->id);
        for (int k = 0; k < 3; k++)
            pf_table_free(t[k]);
        if (!ok)
            return -1;
    }
    return 0;
}

int pf_view_analysis(FILE *out, const pf_view_opts *v, const pf_analysis *an)
{
    pf_aview a;
    pf_aview_init(&a, v);
    if (v->format == PF_FMT_JSON)
        return print_json(out, &a, an);
    if (v->format == PF_FMT_NDJSON)
        return print_ndjson(out, &a, an);
    if (v->format == PF_FMT_CSV)
        return print_csv(out, &a, an);
    return print_text(out, &a, an);
}
