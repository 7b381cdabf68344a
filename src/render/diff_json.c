/* diff_json.c - --diff as one JSON document (each device pair's rows with their intervals over several runs, summary, opposite rows, categories), and pf_view_diff, which hands text, Markdown and CSV to diff_view.c. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

#include "profana/view.h"
#include "view_parts.h"

static void json_device_ref(pf_jw *w, const char *key, const pf_device_report *r)
{
    pf_jw_key(w, key);
    pf_jw_obj_begin(w);
    pf_jw_key(w, "id");
    pf_jw_int(w, r->device->id);
    pf_jw_key(w, "name");
    pf_jw_str(w, r->device->name);
    pf_jw_obj_end(w);
}

/* A figure that may not exist (< 0): null in JSON. */
static void json_opt(pf_jw *w, const char *key, double v)
{
    pf_jw_key(w, key);
    if (v >= 0)
        pf_jw_num(w, v);
    else
        pf_jw_null(w);
}

static void json_ci(pf_jw *w, const pf_ratio_ci *c)
{
    pf_jw_key(w, "ratio_ci");
    if (c->verdict == PF_VERDICT_NONE) {
        pf_jw_null(w);
    } else {
        pf_jw_arr_begin(w);
        pf_jw_num(w, c->lo);
        pf_jw_num(w, c->hi);
        pf_jw_arr_end(w);
    }
}

/* The rows, each with its "ratio_ci" when there are several runs a side (table row r shows
 * the diff's row idx[r], as pf_dview_rows ordered them). -1 when memory runs out. */
static int json_rows(pf_jw *w, const pf_dview *o, const pf_diff_device *d, const pf_table *t, const pf_runs_device *rd)
{
    size_t *idx = pf_dview_order(o, d);
    if (!idx)
        return -1;
    pf_jw_arr_begin(w);
    for (int r = 0; r < pf_table_rows(t); r++) {
        pf_jw_obj_begin(w);
        pf_table_json_fields(w, t, r);
        if (rd)
            json_ci(w, &rd->rows[idx[r]]);
        pf_jw_obj_end(w);
    }
    pf_jw_arr_end(w);
    free(idx);
    return 0;
}

/* The pair's interval over the runs: verdict, ratio_ci, runs and whether per step. */
static void json_runs(pf_jw *w, const pf_dview *o, const pf_runs_device *rd)
{
    pf_jw_key(w, "verdict");
    pf_jw_str(w, pf_verdict_name(rd->overall.verdict));
    pf_jw_key(w, "runs_ratio");
    pf_jw_num(w, rd->overall.ratio);
    json_ci(w, &rd->overall);
    pf_jw_key(w, "spread");
    if (rd->overall.verdict == PF_VERDICT_NONE)
        pf_jw_null(w);
    else
        pf_jw_num(w, rd->overall.spread);
    pf_jw_key(w, "runs");
    pf_jw_arr_begin(w);
    pf_jw_int(w, o->runs->n_a);
    pf_jw_int(w, o->runs->n_b);
    pf_jw_arr_end(w);
    pf_jw_key(w, "per_step");
    pf_jw_bool(w, o->runs->per_step);
}

/* "opposite": null, or the rows print_opposite names: {"time": [{"name", "delta_us"}],
 * "geomean": [{"name", "mean_ratio"}]} (full keys: A's). */
static void json_opposite(pf_jw *w, const pf_diff_device *d)
{
    const pf_diff_summary *s = &d->summary;
    pf_jw_key(w, "opposite");
    if (!s->opposite) {
        pf_jw_null(w);
        return;
    }
    pf_jw_obj_begin(w);
    pf_jw_key(w, "time");
    pf_jw_arr_begin(w);
    for (size_t k = 0; k < s->n_time_rows; k++) {
        const pf_diff_row *r = &d->rows[s->time_rows[k]];
        pf_jw_obj_begin(w);
        pf_jw_key(w, "name");
        pf_jw_str(w, r->a->key);
        pf_jw_key(w, "delta_us");
        pf_jw_num(w, (double)(r->b->total_ns - r->a->total_ns) / 1e3);
        pf_jw_obj_end(w);
    }
    pf_jw_arr_end(w);
    pf_jw_key(w, "geomean");
    pf_jw_arr_begin(w);
    for (size_t k = 0; k < s->n_geo_rows; k++) {
        const pf_diff_row *r = &d->rows[s->geo_rows[k]];
        pf_jw_obj_begin(w);
        pf_jw_key(w, "name");
        pf_jw_str(w, r->a->key);
        pf_jw_key(w, "mean_ratio");
        pf_jw_num(w, pf_row_mean_ns(r->b) / pf_row_mean_ns(r->a));
        pf_jw_obj_end(w);
    }
    pf_jw_arr_end(w);
    pf_jw_obj_end(w);
}

static void json_summary(pf_jw *w, const pf_dview *o, const pf_diff_device *d, const pf_runs_device *rd)
{
    const pf_diff_summary *s = &d->summary;
    pf_jw_key(w, "summary");
    pf_jw_obj_begin(w);
    pf_jw_key(w, "a_total_us");
    pf_jw_num(w, s->a_total_ns / 1e3);
    pf_jw_key(w, "b_total_us");
    pf_jw_num(w, s->b_total_ns / 1e3);
    json_opt(w, "ratio", s->ratio);
    json_opt(w, "geomean", s->geomean);
    pf_jw_key(w, "matched_rows");
    pf_jw_int(w, (int64_t)s->matched_rows);
    pf_jw_key(w, "only_a");
    pf_jw_int(w, (int64_t)s->only_a);
    pf_jw_key(w, "only_b");
    pf_jw_int(w, (int64_t)s->only_b);
    pf_jw_key(w, "a_matched_pct");
    pf_jw_num(w, s->a_matched_pct);
    pf_jw_key(w, "b_matched_pct");
    pf_jw_num(w, s->b_matched_pct);
    json_opt(w, "weighted_ratio", s->weighted);
    json_opposite(w, d);
    if (rd)
        json_runs(w, o, rd);
    pf_jw_obj_end(w);
}

static int print_json(FILE *out, FILE *notes, const pf_dview *o, const pf_diff *d)
{
    pf_jw w;
    pf_jw_init(&w, out);
    pf_jw_doc_begin(&w);
    pf_jw_key(&w, "devices");
    pf_jw_arr_begin(&w);
    for (int i = 0; i < d->n_devices; i++) {
        const pf_diff_device *dd = &d->devices[i];
        pf_table *t = pf_dview_rows(o, dd, pf_dview_runs_of(o, i));
        if (!t)
            return -1;
        pf_jw_obj_begin(&w);
        json_device_ref(&w, "a", dd->a);
        json_device_ref(&w, "b", dd->b);
        pf_jw_key(&w, "rows");
        int rc = json_rows(&w, o, dd, t, pf_dview_runs_of(o, i));
        pf_table_free(t);
        if (rc)
            return -1;
        pf_jw_key(&w, "rows_omitted");
        pf_jw_int(&w, (int64_t)(dd->n_rows - pf_dview_shown(o, dd)));
        json_summary(&w, o, dd, pf_dview_runs_of(o, i));
        if (!(t = pf_dview_categories(o, dd)))
            return -1;
        pf_jw_key(&w, "categories");
        pf_table_json_rows(&w, t);
        pf_table_free(t);
        pf_jw_obj_end(&w);
    }
    pf_jw_arr_end(&w);
    pf_jw_obj_end(&w);
    fputc('\n', out);
    pf_dview_left_out(notes, o, d, "profana: note: ");
    return 0;
}

int pf_view_diff(FILE *out, FILE *notes, const pf_view_opts *v, const pf_diff *d, const pf_runs *runs)
{
    pf_dview o;
    pf_dview_init(&o, v, runs);
    if (v->format == PF_FMT_JSON)
        return print_json(out, notes, &o, d);
    if (v->format == PF_FMT_CSV)
        return pf_dview_csv(out, notes, &o, d);
    FILE *prose = pf_wrap_open(out, v->format == PF_FMT_TEXT ? v->width : 0);
    int rc = pf_dview_text(prose, out, &o, d);
    pf_wrap_close(prose, out);
    return rc;
}
