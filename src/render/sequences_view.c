/* sequences_view.c - what --group sequence prints: per device the repeated kernel sequences by GPU time, with their counts and the ops that launched them; flat CSV rows or one JSON document. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/names.h"
#include "profana/sequences.h"
#include "profana/view.h"
#include "view_parts.h"

enum { S_RANK, S_DEV, S_SEQ, S_LEN, S_COUNT, S_TOTAL, S_MEAN, S_PCT, S_OPS, S_NCOLS };

/* Text shows each sequence by its rank in the table and lists the kernels under it (a run of
 * kernel names does not fit a column); CSV and JSON carry them in the row. */
static const pf_col seq_cols[S_NCOLS] = {
    [S_RANK] = {"Sequence", "rank", 1, 0, NULL},
    [S_DEV] = {"Device", "device", 1, PF_IN_CSV, NULL},
    [S_SEQ] = {"Kernels", NULL, 0, PF_IN_CSV, NULL}, /* JSON: arrays (print_json) */
    [S_LEN] = {"Length", "length", 1, 0, NULL},
    [S_COUNT] = {"Count", "count", 1, 0, NULL},
    [S_TOTAL] = {"Total (us)", "total_us", 1, 0, NULL},
    [S_MEAN] = {"Mean (us)", "mean_us", 1, 0, NULL},
    [S_PCT] = {"% Kernel time", "pct", 1, 0, NULL},
    [S_OPS] = {"Ops", NULL, 0, PF_IN_TEXT | PF_IN_CSV, NULL},
};

/* The name column is the sequence; a width keeps its figures first, the ops last. */
static const int seq_wanted[] = {S_TOTAL, S_COUNT, S_PCT, S_LEN, S_MEAN, S_OPS};

/* names[0, n) joined by sep into a new string; the NULLs (no op) as "-", a run of one op once. */
static char *join(const char *const *names, int n, const char *sep, int dedup)
{
    size_t len = 1;
    for (int k = 0; k < n; k++)
        len += strlen(names[k] ? names[k] : "-") + strlen(sep);
    char *s = malloc(len), *p = s;
    if (!s)
        return NULL;
    *p = 0;
    for (int k = 0; k < n; k++) {
        if (dedup && k > 0 && names[k] == names[k - 1])
            continue;
        p += sprintf(p, "%s%s", p == s ? "" : sep, names[k] ? names[k] : "-");
    }
    return s;
}

static pf_table *seq_table(const pf_seq_device *d)
{
    pf_table *t = pf_table_new(seq_cols, S_NCOLS);
    for (size_t k = 0; t && k < d->n_rows; k++) {
        const pf_seq_row *s = &d->rows[k];
        int r = pf_table_add_row(t);
        char *kn = join(s->kernels, s->len, " > ", 0), *ops = join(s->ops, s->len, ", ", 1);
        if (!kn || !ops) {
            free(kn), free(ops);
            pf_table_free(t);
            return NULL;
        }
        pf_table_int(t, r, S_DEV, d->report->device->id);
        pf_table_str(t, r, S_SEQ, kn);
        char rank[32];
        snprintf(rank, sizeof rank, "#%zu", k + 1);
        pf_table_int(t, r, S_RANK, (int64_t)k + 1);
        pf_table_label(t, r, S_RANK, rank);
        pf_table_int(t, r, S_LEN, s->len);
        pf_table_int(t, r, S_COUNT, s->count);
        pf_table_num(t, r, S_TOTAL, s->total_ns / 1e3, 3);
        pf_table_num(t, r, S_MEAN, s->total_ns / 1e3 / (double)s->count, 3);
        pf_table_num(t, r, S_PCT, d->kernel_ns > 0 ? 100.0 * (double)s->total_ns / (double)d->kernel_ns : 0, 2);
        pf_table_str(t, r, S_OPS, ops);
        free(kn), free(ops);
    }
    if (t && pf_table_status(t)) {
        pf_table_free(t);
        return NULL;
    }
    return t;
}

/* Under the table, each sequence's kernels, one per line (short names in text with a width and
 * in Markdown; whole names with --wide). */
static void list_kernels(FILE *out, const pf_view_opts *v, const pf_seq_device *d)
{
    int shorten = v->format == PF_FMT_MD || v->width > 0;
    fputc('\n', out);
    for (size_t k = 0; k < d->n_rows; k++) {
        const pf_seq_row *s = &d->rows[k];
        fprintf(out, "%s#%zu:\n", v->format == PF_FMT_MD ? "\n" : "", k + 1);
        for (int i = 0; i < s->len; i++) {
            char buf[160];
            const char *nm = shorten ? pf_name_short(s->kernels[i], 1, buf, sizeof buf) : s->kernels[i];
            fprintf(out, "%s%d. %s\n", v->format == PF_FMT_MD ? "" : "    ", i + 1, nm);
        }
    }
}

/* Every line wrapped to the width (the tables fit it already): the title, the device headers,
 * the kernels' names. */
static int print_text(FILE *raw, const pf_view_opts *v, const pf_analysis *an, const pf_seq_view *sv)
{
    FILE *out = pf_wrap_open(raw, v->format == PF_FMT_TEXT ? v->width : 0); /* Markdown: tables whole */
    fprintf(out, "Repeated kernel sequences of %s: runs of %d to %d consecutive kernels on a stream that occur "
                 "twice or more (a run left out when one kernel longer occurs as often): fusion candidates\n",
            an->trace->path, PF_SEQ_MIN, PF_SEQ_MAX);
    int rc = 0;
    for (int d = 0; d < sv->n_devices && rc == 0; d++) {
        const pf_seq_device *sd = &sv->devices[d];
        fputc('\n', out);
        pf_aview_header(out, an, sd->report, "");
        if (sd->n_rows == 0) {
            fputs("No kernel sequence occurs twice.\n", out);
            continue;
        }
        pf_table *t = seq_table(sd);
        if (!t) {
            rc = -1;
            break;
        }
        fputc('\n', out);
        pf_text_fit fit = pf_view_fit(v, t, seq_wanted, (int)(sizeof seq_wanted / sizeof seq_wanted[0]), NULL, 0);
        pf_view_print_fit(out, v, t, &fit);
        pf_table_free(t);
        list_kernels(out, v, sd);
    }
    pf_wrap_close(out, raw);
    return rc;
}

static int print_csv(FILE *out, const pf_seq_view *sv)
{
    for (int d = 0; d < sv->n_devices; d++) {
        pf_table *t = seq_table(&sv->devices[d]);
        if (!t)
            return -1;
        pf_table_print_csv(out, t, d == 0);
        pf_table_free(t);
    }
    return 0;
}

static int print_json(FILE *out, const pf_analysis *an, const pf_seq_view *sv)
{
    pf_jw w;
    pf_view_json_open(&w, out, an->trace->path, "sequence");
    pf_jw_key(&w, "devices");
    pf_jw_arr_begin(&w);
    for (int d = 0; d < sv->n_devices; d++) {
        const pf_seq_device *sd = &sv->devices[d];
        pf_table *t = seq_table(sd);
        if (!t)
            return -1;
        pf_jw_obj_begin(&w);
        pf_jw_key(&w, "id");
        pf_jw_int(&w, sd->report->device->id);
        pf_jw_key(&w, "kernel_us");
        pf_jw_num(&w, sd->kernel_ns / 1e3);
        pf_jw_key(&w, "sequences");
        pf_jw_arr_begin(&w);
        for (size_t k = 0; k < sd->n_rows; k++) {
            const pf_seq_row *s = &sd->rows[k];
            pf_jw_obj_begin(&w);
            pf_table_json_fields(&w, t, (int)k);
            pf_jw_key(&w, "kernels");
            pf_jw_arr_begin(&w);
            for (int i = 0; i < s->len; i++)
                pf_jw_str(&w, s->kernels[i]);
            pf_jw_arr_end(&w);
            pf_jw_key(&w, "ops"); /* the op that launched each kernel (null: none) */
            pf_jw_arr_begin(&w);
            for (int i = 0; i < s->len; i++)
                if (s->ops[i])
                    pf_jw_str(&w, s->ops[i]);
                else
                    pf_jw_null(&w);
            pf_jw_arr_end(&w);
            pf_jw_obj_end(&w);
        }
        pf_jw_arr_end(&w);
        pf_jw_obj_end(&w);
        pf_table_free(t);
    }
    pf_jw_arr_end(&w);
    pf_jw_obj_end(&w);
    fputc('\n', out);
    return 0;
}

int pf_view_sequences(FILE *out, const pf_view_opts *v, const pf_analysis *an, const struct pf_seq_view *sv)
{
    if (v->format == PF_FMT_JSON)
        return print_json(out, an, sv);
    if (v->format == PF_FMT_CSV)
        return print_csv(out, sv);
    return print_text(out, v, an, sv);
}
