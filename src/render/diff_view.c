/* diff_view.c - how --diff prints a device pair: its rows table with ratios, header and summary lines, categories, in text, Markdown and CSV (JSON and the entry, pf_view_diff: diff_json.c). */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/categories.h"
#include "profana/names.h"
#include "profana/view.h"
#include "view_parts.h"

enum {
    D_DEV_A, D_DEV_B, D_NAME, D_A_COUNT, D_A_MEAN, D_A_TOTAL, D_B_COUNT, D_B_MEAN, D_B_TOTAL, D_RATIO,
    D_DELTA, D_A_TFLOPS, D_A_GBPS, D_B_TFLOPS, D_B_GBPS, D_MATCH, D_BASIS, D_CI, D_VERDICT, D_NCOLS
};

/* What text and Markdown append to B/A when the row is judged on total time (its counts
 * differ); CSV and JSON say it in the basis column. */
#define CALLS_MARK " calls"

/* The columns of one run a side; several runs add the interval and the verdict. */
#define D_NCOLS_ONE_RUN D_CI

/* Titles with "%s" take the run's name (NAME_A or NAME_B). */
static const pf_col diff_cols[D_NCOLS] = {
    [D_DEV_A] = {"%s Device", NULL, 1, PF_IN_CSV, NULL},
    [D_DEV_B] = {"%s Device", NULL, 1, PF_IN_CSV, NULL},
    [D_NAME] = {"Kernel Name", "name", 0, 0, NULL},
    [D_A_COUNT] = {"%s Count", "a_count", 1, 0, NULL},
    [D_A_MEAN] = {"%s Mean (us)", "a_mean_us", 1, 0, NULL},
    [D_A_TOTAL] = {"%s Total (us)", "a_total_us", 1, 0, NULL},
    [D_B_COUNT] = {"%s Count", "b_count", 1, 0, NULL},
    [D_B_MEAN] = {"%s Mean (us)", "b_mean_us", 1, 0, NULL},
    [D_B_TOTAL] = {"%s Total (us)", "b_total_us", 1, 0, NULL},
    [D_RATIO] = {"B/A", "ratio", 1, 0, NULL},
    [D_DELTA] = {"Delta (us)", "delta_us", 1, 0, NULL},
    [D_A_TFLOPS] = {"%s TFLOP/s", "a_tflops", 1, 0, NULL},
    [D_A_GBPS] = {"%s GB/s", "a_gbps", 1, 0, NULL},
    [D_B_TFLOPS] = {"%s TFLOP/s", "b_tflops", 1, 0, NULL},
    [D_B_GBPS] = {"%s GB/s", "b_gbps", 1, 0, NULL},
    [D_MATCH] = {"Match", "match", 0, 0, NULL},
    /* "call" or "total": what B/A (and the verdict) compare; text marks B/A with CALLS_MARK */
    [D_BASIS] = {"Basis", "basis", 0, PF_IN_CSV | PF_IN_JSON, NULL},
    /* JSON writes the interval as "ratio_ci": [lo, hi] (json_rows) */
    [D_CI] = {"B/A 95% CI", NULL, 0, PF_IN_TEXT | PF_IN_CSV, "ratio_ci"},
    [D_VERDICT] = {"Verdict", "verdict", 0, 0, NULL},
};

/* The columns text shows beside the name by default, most wanted first (a narrower width gives
 * up the last ones first): the change, with several runs its verdict, and both sides' time. */
static const int default_cols[] = {D_RATIO,  D_VERDICT, D_DELTA,   D_A_TOTAL, D_B_TOTAL,  D_CI,       D_MATCH,
                                   D_A_MEAN, D_B_MEAN,  D_A_COUNT, D_B_COUNT, D_A_TFLOPS, D_B_TFLOPS, D_A_GBPS,
                                   D_B_GBPS};

int pf_dview_runs_only(int col)
{
    return col == D_CI || col == D_VERDICT;
}

size_t pf_dview_columns_help(char *s, size_t n, size_t used)
{
    assert(s && n > 0);
    int ids[D_NCOLS], k = 0;
    for (int c = 0; c < D_NCOLS; c++) /* every column text can show but the name, in table order */
        if (c != D_NAME && (!diff_cols[c].show || (diff_cols[c].show & PF_IN_TEXT)))
            ids[k++] = c;
    return pf_cols_join(s, n, used, "; --diff: ", diff_cols, ids, k);
}

/* The two sides of a figure show or go together (pf_text_fit.ties): one run's total beside
 * nothing to compare it with reads as the change. */
static const int side_ties[] = {D_A_TOTAL, D_B_TOTAL, D_A_MEAN,   D_B_MEAN,   D_A_COUNT,
                                D_B_COUNT, D_A_TFLOPS, D_B_TFLOPS, D_A_GBPS, D_B_GBPS};

/* Which run each column's title names: 0 A, 1 B, -1 none. */
static const signed char diff_col_side[D_NCOLS] = {
    [D_DEV_A] = 0, [D_A_COUNT] = 0, [D_A_MEAN] = 0, [D_A_TOTAL] = 0, [D_A_TFLOPS] = 0, [D_A_GBPS] = 0,
    [D_DEV_B] = 1, [D_B_COUNT] = 1, [D_B_MEAN] = 1, [D_B_TOTAL] = 1, [D_B_TFLOPS] = 1, [D_B_GBPS] = 1,
    [D_NAME] = -1, [D_RATIO] = -1, [D_DELTA] = -1, [D_MATCH] = -1, [D_BASIS] = -1, [D_CI] = -1, [D_VERDICT] = -1,
};

enum { K_CATEGORY, K_A_TOTAL, K_B_TOTAL, K_RATIO, K_DELTA, K_NCOLS };

static const pf_col cat_cols[K_NCOLS] = {
    [K_CATEGORY] = {"Category", "category", 0, 0, NULL},
    [K_A_TOTAL] = {"%s Total (us)", "a_total_us", 1, 0, NULL},
    [K_B_TOTAL] = {"%s Total (us)", "b_total_us", 1, 0, NULL},
    [K_RATIO] = {"B/A", "ratio", 1, 0, NULL},
    [K_DELTA] = {"Delta (us)", "delta_us", 1, 0, NULL},
};

static const signed char cat_col_side[K_NCOLS] = {[K_CATEGORY] = -1, [K_A_TOTAL] = 0, [K_B_TOTAL] = 1,
                                                  [K_RATIO] = -1, [K_DELTA] = -1};

static const char *const group_titles[] = {"Kernel Name", "Op", "Op (input shapes)"};

_Static_assert((int)D_NCOLS == (int)PF_DVIEW_NCOLS && (int)K_NCOLS == (int)PF_DVIEW_CAT_NCOLS, "pf_dview holds the tables' columns");

static void title_cols(pf_dview_cols *tc, const pf_col *cols, const signed char *side, int n, const char *const *names)
{
    memcpy(tc->cols, cols, (size_t)n * sizeof *cols);
    for (int c = 0; c < n; c++) {
        if (side[c] < 0)
            continue;
        snprintf(tc->titles[c], PF_DVIEW_TITLE_MAX, cols[c].title, names[side[c]]);
        tc->cols[c].title = tc->titles[c];
    }
}

void pf_dview_init(pf_dview *o, const pf_view_opts *v, const pf_runs *runs)
{
    o->runs = runs;
    assert(v->names[0] && v->names[1]);
    assert((unsigned)v->group < sizeof group_titles / sizeof group_titles[0]);
    o->v = v;
    title_cols(&o->rows, diff_cols, diff_col_side, D_NCOLS, v->names);
    o->rows.cols[D_NAME].title = group_titles[v->group];
    title_cols(&o->cats, cat_cols, cat_col_side, K_NCOLS, v->names);
}

/* Per call for --group op and shape (pf_row_mean_ns), so two libraries that launch a
 * different number of kernels per op compare by what the op cost. */
static double mean_us(const pf_row *r)
{
    return pf_row_mean_ns(r) / 1e3;
}

/* A rate over zero time does not exist: the cell stays '-'. */
static void set_rate(pf_table *t, int r, int col, double v, int decimals)
{
    if (v >= 0)
        pf_table_num(t, r, col, v, decimals);
}

/* One side's cells; a side that lacks the row keeps '-'. marks: GB/s resting on a Triton
 * launch read from the trace alone is a floor, "~lb" beside Inductor's own (text, Markdown). */
static void fill_side(pf_table *t, int r, const pf_row *row, int count_col, int tflops_col, int marks)
{
    if (!row)
        return;
    pf_table_int(t, r, count_col, row->invocations);
    pf_table_num(t, r, count_col + 1, mean_us(row), 3);
    pf_table_num(t, r, count_col + 2, row->total_ns / 1e3, 3);
    set_rate(t, r, tflops_col, pf_row_tflops(row), 2);
    set_rate(t, r, tflops_col + 1, pf_row_gbps(row), 1);
    if (marks && pf_row_gbps(row) >= 0 && pf_view_row_lower_bound(row))
        pf_table_mark(t, r, tflops_col + 1, " ~lb");
}

/* The row's name: the key both sides share, or "A vs B" when they matched under different keys. */
static int set_name(pf_table *t, int r, const pf_diff_row *dr)
{
    if (!dr->a || !dr->b || strcmp(dr->a->key, dr->b->key) == 0) {
        pf_table_str(t, r, D_NAME, dr->a ? dr->a->key : dr->b->key);
        return 0;
    }
    size_t n = strlen(dr->a->key) + strlen(dr->b->key) + 5;
    char *s = malloc(n);
    if (!s)
        return -1;
    snprintf(s, n, "%s vs %s", dr->a->key, dr->b->key);
    pf_table_str(t, r, D_NAME, s);
    free(s);
    return 0;
}

/* "[lo, hi]" and the verdict of a row with an interval; '-' without one. */
static void fill_ci(pf_table *t, int r, const pf_ratio_ci *c)
{
    char buf[64];
    if (c->verdict == PF_VERDICT_NONE)
        return;
    snprintf(buf, sizeof buf, "[%.3f, %.3f]", c->lo, c->hi);
    pf_table_str(t, r, D_CI, buf);
    pf_table_str(t, r, D_VERDICT, pf_verdict_name(c->verdict));
}

/* by_total: the row is judged on total time (pf_diff_row.by_total, or with several runs
 * pf_runs_device.by_total, which compares counts per step). */
static int fill_row(const pf_dview *o, pf_table *t, int r, const pf_diff_device *d, const pf_diff_row *dr,
                    int by_total)
{
    int64_t a_ns = dr->a ? dr->a->total_ns : 0, b_ns = dr->b ? dr->b->total_ns : 0;
    pf_diff_row judged = *dr;
    judged.by_total = by_total;
    double ratio = pf_diff_row_ratio(&judged);
    pf_table_int(t, r, D_DEV_A, d->a->device->id);
    pf_table_int(t, r, D_DEV_B, d->b->device->id);
    int marks = o->v->format == PF_FMT_TEXT || o->v->format == PF_FMT_MD;
    fill_side(t, r, dr->a, D_A_COUNT, D_A_TFLOPS, marks);
    fill_side(t, r, dr->b, D_B_COUNT, D_B_TFLOPS, marks);
    if (ratio >= 0)
        pf_table_num(t, r, D_RATIO, ratio, 3);
    if (dr->a && dr->b)
        pf_table_str(t, r, D_BASIS, by_total ? "total" : "call");
    if (by_total && o->v->format != PF_FMT_CSV) /* CSV keeps the number; its Basis column says it */
        pf_table_mark(t, r, D_RATIO, CALLS_MARK);
    pf_table_num(t, r, D_DELTA, (double)(b_ns - a_ns) / 1e3, 3);
    pf_table_str(t, r, D_MATCH, pf_match_name(dr->match));
    return set_name(t, r, dr);
}

static pf_table *checked(pf_table *t, int failed)
{
    if (t && !failed && !pf_table_status(t))
        return t;
    pf_table_free(t);
    return NULL;
}

/* A row's change B - A, a side that lacks it counting as 0. */
static int64_t row_delta_ns(const pf_diff_row *r)
{
    return (r->b ? r->b->total_ns : 0) - (r->a ? r->a->total_ns : 0);
}

static uint64_t abs_ns(int64_t x)
{
    return x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
}

size_t pf_dview_shown(const pf_dview *o, const pf_diff_device *d)
{
    return o->v->top > 0 && (size_t)o->v->top < d->n_rows ? (size_t)o->v->top : d->n_rows;
}

/* A row's place in the --top order: larger absolute change first, then the diff's order. */
typedef struct ranked {
    uint64_t change;
    size_t idx;
} ranked;

static int cmp_ranked(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    if (a->change != b->change)
        return a->change < b->change ? 1 : -1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

size_t *pf_dview_order(const pf_dview *o, const pf_diff_device *d)
{
    size_t n = d->n_rows;
    size_t *idx = malloc((n ? n : 1) * sizeof *idx);
    if (!idx)
        return NULL;
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    if (pf_dview_shown(o, d) == n)
        return idx;
    ranked *r = malloc(n * sizeof *r);
    if (!r) {
        free(idx);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        r[i] = (ranked){abs_ns(row_delta_ns(&d->rows[i])), i};
    qsort(r, n, sizeof *r, cmp_ranked); /* the index breaks ties: the same order as a stable sort */
    for (size_t i = 0; i < n; i++)
        idx[i] = r[i].idx;
    free(r);
    return idx;
}

/* The short names text and Markdown show (pf_view_label_names), "A vs B" for rows matched
 * under different keys. */
static int label_rows(pf_table *t, const pf_dview *o, const pf_diff_device *d, const size_t *idx, size_t n)
{
    const char **keys = malloc((n ? n : 1) * sizeof *keys);
    if (!keys)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const pf_diff_row *dr = &d->rows[idx[i]];
        keys[i] = dr->a ? dr->a->key : dr->b->key;
    }
    int rc = pf_view_label_names(t, D_NAME, keys, n, o->v);
    for (size_t i = 0; i < n && !rc; i++) {
        const pf_diff_row *dr = &d->rows[idx[i]];
        if (!dr->a || !dr->b || strcmp(dr->a->key, dr->b->key) == 0)
            continue;
        size_t la = strlen(dr->a->key) + 1, lb = strlen(dr->b->key) + 1;
        char *s = malloc(la + lb + 4), *b = malloc(lb);
        if (!s || !b) {
            rc = -1;
        } else {
            pf_name_short(dr->a->key, o->v->group == PF_GROUP_KERNEL, s, la);
            pf_name_short(dr->b->key, o->v->group == PF_GROUP_KERNEL, b, lb);
            strcat(strcat(s, " vs "), b);
            pf_table_label(t, (int)i, D_NAME, s);
        }
        free(s);
        free(b);
    }
    free(keys);
    return rc;
}

/* Whether diff row i is judged on total time: by the runs' rule when there are several. */
static int judged_by_total(const pf_diff_device *d, const pf_runs_device *rd, size_t i)
{
    return rd ? rd->by_total[i] : d->rows[i].by_total;
}

pf_table *pf_dview_rows(const pf_dview *o, const pf_diff_device *d, const pf_runs_device *rd)
{
    size_t *idx = pf_dview_order(o, d);
    pf_table *t = idx ? pf_table_new(o->rows.cols, rd ? D_NCOLS : D_NCOLS_ONE_RUN) : NULL;
    int failed = 0;
    for (size_t i = 0; t && i < pf_dview_shown(o, d) && !failed; i++) {
        int r = pf_table_add_row(t);
        failed = fill_row(o, t, r, d, &d->rows[idx[i]], judged_by_total(d, rd, idx[i]));
        if (rd)
            fill_ci(t, r, &rd->rows[idx[i]]);
    }
    if (t && !failed)
        failed = label_rows(t, o, d, idx, pf_dview_shown(o, d));
    free(idx);
    return checked(t, failed);
}

const pf_runs_device *pf_dview_runs_of(const pf_dview *o, int i)
{
    return o->runs && i < o->runs->n_devices ? &o->runs->devices[i] : NULL;
}

void pf_dview_omitted(FILE *out, const pf_dview *o, const pf_diff_device *d)
{
    size_t shown = pf_dview_shown(o, d);
    if (shown == d->n_rows)
        return;
    size_t *idx = pf_dview_order(o, d);
    if (!idx)
        return;
    int64_t a = 0, b = 0;
    for (size_t i = shown; i < d->n_rows; i++) {
        const pf_diff_row *r = &d->rows[idx[i]];
        a += r->a ? r->a->total_ns : 0;
        b += r->b ? r->b->total_ns : 0;
    }
    free(idx);
    fprintf(out, "(%zu more rows with smaller changes: %s %.3f us, %s %.3f us, delta %.3f us; --top 0 shows all)\n",
            d->n_rows - shown, o->v->names[0], a / 1e3, o->v->names[1], b / 1e3, (b - a) / 1e3);
}

static int64_t cat_sum(const pf_diff_device *d, int c)
{
    return pf_report_cat(d->a, c)->total_ns + pf_report_cat(d->b, c)->total_ns;
}

/* Categories either side ran, by their combined time (an insertion sort: at most PF_CAT_COUNT). */
static int sorted_categories(const pf_diff_device *d, int *order)
{
    int n = 0;
    for (int c = 0; c < PF_CAT_COUNT; c++) {
        if (!pf_report_cat(d->a, c)->count && !pf_report_cat(d->b, c)->count)
            continue;
        int j = n++;
        for (; j > 0 && cat_sum(d, order[j - 1]) < cat_sum(d, c); j--)
            order[j] = order[j - 1];
        order[j] = c;
    }
    return n;
}

pf_table *pf_dview_categories(const pf_dview *o, const pf_diff_device *d)
{
    int order[PF_CAT_COUNT];
    int n = sorted_categories(d, order);
    pf_table *t = pf_table_new(o->cats.cols, K_NCOLS);
    for (int i = 0; t && i < n; i++) {
        const pf_row *a = pf_report_cat(d->a, order[i]), *b = pf_report_cat(d->b, order[i]);
        int r = pf_table_add_row(t);
        pf_table_str(t, r, K_CATEGORY, pf_category_name((pf_category)order[i])); /* a side may lack it */
        pf_table_num(t, r, K_A_TOTAL, a->total_ns / 1e3, 3);
        pf_table_num(t, r, K_B_TOTAL, b->total_ns / 1e3, 3);
        if (a->total_ns > 0)
            pf_table_num(t, r, K_RATIO, (double)b->total_ns / (double)a->total_ns, 3);
        pf_table_num(t, r, K_DELTA, (double)(b->total_ns - a->total_ns) / 1e3, 3);
    }
    return checked(t, 0);
}

static const char *device_name(const pf_device_report *r)
{
    return r->device->name[0] ? r->device->name : "no name in trace";
}

void pf_dview_header(FILE *out, const pf_dview *o, int i, const pf_diff_device *d, const char *lead)
{
    fprintf(out, "%sDevice pair %d: %s device %d (%s) vs %s device %d (%s)\n", lead, i, o->v->names[0],
            d->a->device->id, device_name(d->a), o->v->names[1], d->b->device->id, device_name(d->b));
}

/* How many rows matched at each level the grouping tries, and how many stayed alone. */
void pf_dview_levels(FILE *out, const pf_dview *o, const pf_diff_summary *s)
{
    pf_match levels[PF_MATCH_LEVELS];
    int n = pf_diff_levels(o->v->group, levels);
    fprintf(out, "Matched rows: %zu (", s->matched_rows);
    for (int l = 0; l < n; l++)
        fprintf(out, "%s%s %zu", l ? ", " : "", pf_match_name(levels[l]), s->matched_at[levels[l]]);
    fprintf(out, "); only in %s: %zu, only in %s: %zu\n", o->v->names[0], s->only_a, o->v->names[1], s->only_b);
}

/* A row's short name for a prose line, cut to 60 characters (A's key: B's may differ). */
static const char *prose_name(const pf_dview *o, const pf_diff_row *r, char *buf, size_t n)
{
    pf_name_short(r->a->key, o->v->group == PF_GROUP_KERNEL, buf, n);
    pf_name_cut(buf, 60);
    return buf;
}

/* When the geomean and the time-weighted ratio point opposite ways: one line naming the rows
 * that move the total time most and those that pull the geomean most the other way. */
static void print_opposite(FILE *out, const pf_dview *o, const pf_diff_device *d, const char *lead)
{
    const pf_diff_summary *s = &d->summary;
    char buf[256];
    if (!s->opposite)
        return;
    fprintf(out, "%sThe geomean (%.3f) and the time-weighted B/A (%.3f) point opposite ways: the geomean counts each "
                 "row alike, the time-weighted ratio by its time. Total time moves %s most in:",
            lead, s->geomean, s->weighted, s->weighted < 1 ? "down" : "up");
    for (size_t k = 0; k < s->n_time_rows; k++) {
        const pf_diff_row *r = &d->rows[s->time_rows[k]];
        fprintf(out, "%s %s (delta %.3f us)", k ? "," : "", prose_name(o, r, buf, sizeof buf),
                (double)(r->b->total_ns - r->a->total_ns) / 1e3);
    }
    fprintf(out, "; the geomean is pulled %s most by:", s->geomean > 1 ? "up" : "down");
    for (size_t k = 0; k < s->n_geo_rows; k++) {
        const pf_diff_row *r = &d->rows[s->geo_rows[k]];
        fprintf(out, "%s %s (mean B/A %.3f, %s %.3f us, %s %.3f us in all)", k ? "," : "",
                prose_name(o, r, buf, sizeof buf), pf_row_mean_ns(r->b) / pf_row_mean_ns(r->a), o->v->names[0],
                r->a->total_ns / 1e3, o->v->names[1], r->b->total_ns / 1e3);
    }
    fputs(".\n", out);
}

/* The rows judged on total time because their counts differ, if any: the mark's meaning. */
static void print_calls_note(FILE *out, const pf_dview *o, const pf_diff_device *d, const pf_runs_device *rd,
                             int count_shown)
{
    size_t n = 0;
    for (size_t i = 0; i < d->n_rows; i++)
        n += (size_t)judged_by_total(d, rd, i);
    if (!n)
        return;
    const char *unit = o->v->group == PF_GROUP_KERNEL ? "launch" : "call";
    fprintf(out, "calls: %zu matched row%s made a different number of %s on each side (the Count columns%s%s): "
                 "there B/A%s compare%s total time, not time per %s, as a cheaper %s made more often is not a "
                 "faster row.\n",
            n, n == 1 ? "" : "s", o->v->group == PF_GROUP_KERNEL ? "launches" : "calls", rd && o->runs->per_step ? ", per profiler step" : "",
            count_shown ? "" : ", shown by --wide and CSV",
            rd ? " and the verdict" : "", rd ? "" : "s", unit, unit);
}

void pf_dview_summary(FILE *out, const pf_dview *o, const pf_diff_device *d)
{
    const pf_diff_summary *s = &d->summary;
    /* several runs a side: these are the first runs' (issue 47: their B/A read as the runs' one, a
     * few lines above the interval's) */
    fprintf(out, "GPU time%s: %s %.3f us, %s %.3f us", o->runs ? " of each side's first run (every run: below)" : "",
            o->v->names[0], s->a_total_ns / 1e3, o->v->names[1], s->b_total_ns / 1e3);
    if (s->ratio >= 0)
        fprintf(out, ", B/A %.3f (%+.2f%%)", s->ratio, 100.0 * (s->ratio - 1));
    fputc('\n', out);
    if (s->geomean >= 0)
        fprintf(out, "Geomean of per-row mean-time ratios B/A: %.3f over %zu matched rows", s->geomean,
                s->geomean_rows);
    else
        fputs("Geomean of per-row mean-time ratios B/A: - (no matched rows with time on both sides)", out);
    if (s->weighted >= 0)
        fprintf(out, "; time-weighted B/A (their total time): %.3f\n", s->weighted);
    else
        fputs("; time-weighted B/A: -\n", out);
    fprintf(out, "Matched time: %.2f%% of %s's GPU time, %.2f%% of %s's\n", s->a_matched_pct, o->v->names[0],
            s->b_matched_pct, o->v->names[1]);
    if (s->alt_group >= 0) /* issue 47: a cross-vendor kernel diff matched 6.5%, its ops 100% */
        fprintf(out, "--group %s matches more: %.2f%% of %s's GPU time, %.2f%% of %s's (the kernel names differ "
                     "between the traces, their ops less)\n",
                pf_group_names[s->alt_group], s->alt_a_pct, o->v->names[0], s->alt_b_pct, o->v->names[1]);
    print_opposite(out, o, d, "");
}

/* The rows' verdicts and the share of A's time each holds. */
static void print_verdict_counts(FILE *out, const pf_dview *o, const pf_diff_device *d, const pf_runs_device *rd)
{
    size_t n[4] = {0}, by_total = 0;
    int64_t ns[4] = {0};
    for (size_t i = 0; i < d->n_rows; i++) {
        pf_verdict v = rd->rows[i].verdict;
        n[v]++;
        ns[v] += d->rows[i].a ? d->rows[i].a->total_ns : 0;
        by_total += v != PF_VERDICT_NONE && rd->by_total[i];
    }
    double all = d->summary.a_total_ns > 0 ? (double)d->summary.a_total_ns : 1;
    fprintf(out, "Rows: %zu slower (%.2f%% of %s's GPU time), %zu faster (%.2f%%), %zu same (%.2f%%), %zu without an "
                 "interval (on one side only, or in fewer than 2 runs a side)",
            n[PF_VERDICT_SLOWER], 100.0 * (double)ns[PF_VERDICT_SLOWER] / all, o->v->names[0], n[PF_VERDICT_FASTER],
            100.0 * (double)ns[PF_VERDICT_FASTER] / all, n[PF_VERDICT_SAME], 100.0 * (double)ns[PF_VERDICT_SAME] / all,
            n[PF_VERDICT_NONE]);
    if (by_total)
        fprintf(out, "; %zu of the rows with a verdict judged on total time (calls: their counts differ)", by_total);
    fputc('\n', out);
}

/* "Over N runs of A and M of B: ..." the pair's GPU time with its interval and verdict. */
static void print_runs_summary(FILE *out, const pf_dview *o, const pf_diff_device *d, const pf_runs_device *rd)
{
    const pf_ratio_ci *c = &rd->overall;
    fprintf(out, "Over %d runs of %s and %d of %s: GPU time%s B/A ", o->runs->n_a, o->v->names[0], o->runs->n_b,
            o->v->names[1], o->runs->per_step ? " per profiler step" : "");
    if (c->verdict == PF_VERDICT_NONE)
        fprintf(out, "%.3f, no interval (fewer than 2 runs a side)\n", c->ratio);
    else
        fprintf(out, "%.3f, 95%% CI [%.3f, %.3f], run-to-run spread %.2f%%: %s\n", c->ratio, c->lo, c->hi,
                100.0 * c->spread, pf_verdict_name(c->verdict));
    print_verdict_counts(out, o, d, rd);
}

/* A table in text or Markdown fitted to the width (pf_view_fit); wanted: its default columns,
 * NULL for a small table (every column). */
static uint64_t print_table(FILE *out, const pf_dview *o, const pf_table *t, const int *wanted, int nwanted)
{
    int picked[64];
    pf_text_fit fit = pf_view_fit(o->v, t, wanted, nwanted, picked, 64);
    if (wanted) {
        fit.ties = side_ties;
        fit.nties = (int)(sizeof side_ties / sizeof side_ties[0] / 2);
        fit.in_order = 1; /* issue 47: both Counts once showed where the totals and B/A did not fit */
    }
    return pf_view_print_fit(out, o->v, t, &fit);
}

/* One line naming the devices that had no counterpart on the other side. */
void pf_dview_left_out(FILE *out, const pf_dview *o, const pf_diff *d, const char *lead)
{
    if (!d->n_left_out)
        return;
    fprintf(out, "%s%s has more devices than %s; left out:", lead, o->v->names[d->left_out_side],
            o->v->names[!d->left_out_side]);
    for (int i = 0; i < d->n_left_out; i++)
        fprintf(out, "%s device %d (%s)", i ? "," : "", d->left_out[i].device->id, device_name(&d->left_out[i]));
    fputc('\n', out);
}

/* Prose wrapped to the width on out, tables on raw (fitted to it). */
int pf_dview_text(FILE *out, FILE *raw, const pf_dview *o, const pf_diff *d)
{
    int md = o->v->format == PF_FMT_MD;
    for (int i = 0; i < d->n_devices; i++) {
        const pf_diff_device *dd = &d->devices[i];
        pf_table *t = pf_dview_rows(o, dd, pf_dview_runs_of(o, i));
        if (!t)
            return -1;
        if (i)
            fputc('\n', out);
        pf_dview_header(out, o, i, dd, md ? "### " : "");
        if (md)
            fputc('\n', out);
        pf_dview_levels(out, o, &dd->summary);
        fputc('\n', out);
        uint64_t shown = print_table(raw, o, t, default_cols, (int)(sizeof default_cols / sizeof default_cols[0]));
        pf_table_free(t);
        if (md && pf_dview_shown(o, dd) < dd->n_rows)
            fputc('\n', out); /* Markdown: a line right under a table would be read as a row */
        pf_dview_omitted(out, o, dd);
        print_calls_note(out, o, dd, pf_dview_runs_of(o, i), (int)(shown >> D_A_COUNT & 1));
        if ((shown >> D_A_GBPS & 1 || shown >> D_B_GBPS & 1) && pf_view_diff_lower_bound(dd))
            pf_view_lower_bound_note(out);
        fputc('\n', out);
        pf_dview_summary(out, o, dd);
        if (pf_dview_runs_of(o, i))
            print_runs_summary(out, o, dd, pf_dview_runs_of(o, i));
        if (!(t = pf_dview_categories(o, dd)))
            return -1;
        fputc('\n', out);
        print_table(raw, o, t, NULL, 0);
        pf_table_free(t);
    }
    if (d->n_left_out)
        fputc('\n', out);
    pf_dview_left_out(out, o, d, "");
    return 0;
}

int pf_dview_csv(FILE *out, FILE *notes, const pf_dview *o, const pf_diff *d)
{
    for (int i = 0; i < d->n_devices; i++) {
        pf_table *t = pf_dview_rows(o, &d->devices[i], pf_dview_runs_of(o, i));
        if (!t)
            return -1;
        pf_table_print_csv(out, t, i == 0);
        pf_table_free(t);
    }
    for (int i = 0; i < d->n_devices; i++) {
        char lead[64];
        snprintf(lead, sizeof lead, "profana: note: device pair %d: ", i);
        print_opposite(notes, o, &d->devices[i], lead);
    }
    pf_dview_left_out(notes, o, d, "profana: note: ");
    return 0;
}
