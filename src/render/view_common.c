/* view_common.c - the helpers every table view shares (view_parts.h): fitting a rows table to the width, labelling names with their short forms, the order of categories by time. The views call these; these call no view, so render/ has no circle. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "profana/names.h"
#include "profana/view.h"
#include "view_parts.h"

pf_text_fit pf_view_fit(const pf_view_opts *v, const pf_table *t, const int *wanted, int nwanted, int *picked,
                        int max)
{
    assert(v && t && (!wanted || nwanted >= 0) && (!v->columns || (picked && max > 0)));
    pf_text_fit fit = {.name_limit = v->name_limit, .width = v->format == PF_FMT_TEXT ? v->width : 0};
    if (v->group == PF_GROUP_SHAPE) /* shape keys keep their tensors' dims */
        fit.cut = pf_shape_key_cut, fit.wrap_names = 1;
    if (!wanted) /* a small table: every column, the name column fitted */
        return fit;
    if (v->columns) { /* checked before the trace was read (pf_view_check_columns) */
        char err[8];
        fit.ncols = pf_cols_pick(pf_table_col(t, 0), pf_table_ncols(t), v->columns, picked, max, err, sizeof err);
        fit.ncols = fit.ncols < 0 ? 0 : fit.ncols;
        fit.cols = picked;
        fit.keep_all = 1;
    } else if (fit.width > 0) { /* Markdown and --wide (no width) show every column */
        fit.cols = wanted;
        fit.ncols = nwanted;
    }
    return fit;
}

int pf_view_label_names(pf_table *t, int col, const char *const *keys, size_t n, const pf_view_opts *v)
{
    assert(t && v && col >= 0 && col < pf_table_ncols(t) && (keys || n == 0));
    /* CSV and JSON carry whole names; so does --wide, the full layout */
    if (v->format != PF_FMT_MD && !(v->format == PF_FMT_TEXT && v->width > 0))
        return 0;
    char **names = malloc((n ? n : 1) * sizeof *names);
    if (!names || pf_names_short_set(keys, n, v->group == PF_GROUP_KERNEL, names)) {
        free(names);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        pf_table_label(t, (int)i, col, names[i]);
        free(names[i]);
    }
    free(names);
    return 0;
}

static int cmp_cat_time(const void *x, const void *y, const pf_device_report *d)
{
    const pf_row *a = pf_report_cat(d, *(const int *)x), *b = pf_report_cat(d, *(const int *)y);
    if (a->total_ns != b->total_ns)
        return a->total_ns < b->total_ns ? 1 : -1;
    return *(const int *)x - *(const int *)y;
}

/* An insertion sort, as there are at most PF_CAT_COUNT. */
int pf_view_category_order(const pf_device_report *d, int *order)
{
    assert(d && order);
    int n = 0;
    for (int c = 0; c < PF_CAT_COUNT; c++) {
        if (!pf_report_cat(d, c)->count)
            continue;
        int j = n++;
        for (; j > 0 && cmp_cat_time(&order[j - 1], &c, d) > 0; j--)
            order[j] = order[j - 1];
        order[j] = c;
    }
    return n;
}

void pf_view_hidden(FILE *out, int width, const pf_table *t, const pf_text_fit *fit, uint64_t shown)
{
    assert(out && t && fit);
    if (width <= 0 || fit->width <= 0 || fit->keep_all)
        return;
    char line[1024];
    size_t len = 0;
    int n = 0;
    /* the wanted columns, or (a small table, issue 47) every column in the table's order */
    int ncols = fit->cols ? fit->ncols : pf_table_ncols(t);
    for (int i = 0; i < ncols; i++) {
        int c = fit->cols ? fit->cols[i] : i;
        if (c < 0 || c >= pf_table_ncols(t) || c >= 64 || ((shown >> c) & 1))
            continue;
        const pf_col *col = pf_table_col(t, c);
        if (col->show && !(col->show & PF_IN_TEXT)) /* not a text column, or only on request */
            continue;
        if (pf_table_col_empty(t, c)) /* no values (B/A where nothing matched): passed over, not hidden */
            continue;
        int k = snprintf(line + len, sizeof line - len, "%s%s", n++ ? ", " : "", col->title);
        len = k < 0 || (size_t)k >= sizeof line - len ? sizeof line - 1 : len + (size_t)k;
    }
    if (!n)
        return;
    FILE *w = pf_wrap_open(out, width);
    fprintf(w, "Hidden at %d columns: %s; --wide shows every column.\n", width, line);
    pf_wrap_close(w, out);
}

uint64_t pf_view_print_fit(FILE *out, const pf_view_opts *v, const pf_table *t, const pf_text_fit *fit)
{
    assert(out && v && t && fit);
    if (v->format == PF_FMT_MD)
        return pf_table_print_md_fit(out, t, fit);
    uint64_t shown = pf_table_print_text_fit(out, t, fit);
    if (v->format == PF_FMT_TEXT)
        pf_view_hidden(out, fit->width, t, fit, shown);
    return shown;
}

void pf_view_json_open(pf_jw *w, FILE *out, const char *trace, const char *group)
{
    assert(w && out && trace && group);
    pf_jw_init(w, out);
    pf_jw_doc_begin(w);
    pf_jw_key(w, "trace");
    pf_jw_str(w, trace);
    pf_jw_key(w, "group");
    pf_jw_str(w, group);
}

void pf_view_print_table(FILE *out, pf_format format, int width, const pf_table *t, pf_text_fit fit)
{
    assert(out && t && width >= 0);
    if (format == PF_FMT_MD)
        pf_table_print_md(out, t, 0);
    else if (format == PF_FMT_CSV)
        pf_table_print_csv(out, t, 1);
    else if (width == 0)
        pf_table_print_text(out, t, 0);
    else {
        fit.width = width;
        pf_view_hidden(out, width, t, &fit, pf_table_print_text_fit(out, t, &fit));
    }
}
