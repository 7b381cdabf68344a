/* modules_view.c - what --group module (annotation) prints: per device the module (annotation) tree (forward, backward and self GPU time per nn.Module path, indented in text), the same summed per module class, and where the rest of the GPU time went; one JSON document or flat CSV rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/modules.h"
#include "profana/view.h"
#include "view_parts.h"

enum { M_DEV, M_NAME, M_PATH, M_DEPTH, M_CALLS, M_FWD, M_BWD, M_TOTAL, M_PCT, M_SELF, M_COUNT, M_TFLOPS, M_GBPS,
       M_FLOPS_PCT, M_BW_PCT, M_NCOLS };

/* The columns of the tree and of the class table, by the name column's title and JSON key; the
 * class table's path column is the class. */
#define MODULE_COLS(name_title, path_title, path_key, path_show)                                   \
    {                                                                                             \
        [M_DEV] = {"Device", NULL, 1, PF_IN_CSV, NULL},                                           \
        [M_NAME] = {name_title, "name", 0, PF_IN_TEXT | PF_IN_JSON, NULL},                        \
        [M_PATH] = {path_title, path_key, 0, path_show, NULL},                                    \
        [M_DEPTH] = {"Depth", "depth", 1, PF_IN_CSV | PF_IN_JSON, NULL},                          \
        [M_CALLS] = {"Calls", "calls", 1, 0, NULL},                                               \
        [M_FWD] = {"Forward (us)", "forward_us", 1, 0, NULL},                                     \
        [M_BWD] = {"Backward (us)", "backward_us", 1, 0, NULL},                                   \
        [M_TOTAL] = {"Total (us)", "total_us", 1, 0, NULL},                                       \
        [M_PCT] = {"% GPU", "pct", 1, 0, NULL},                                                   \
        [M_SELF] = {"Self (us)", "self_us", 1, 0, NULL},                                          \
        [M_COUNT] = {"Kernels", "count", 1, 0, NULL},                                             \
        [M_TFLOPS] = {"TFLOP/s", "tflops", 1, 0, NULL},                                           \
        [M_GBPS] = {"GB/s", "gbps", 1, 0, NULL},                                                  \
        [M_FLOPS_PCT] = {"FLOPS %", "flops_pct", 1, 0, NULL},                                     \
        [M_BW_PCT] = {"BW %", "bw_pct", 1, 0, NULL},                                              \
    }

/* [annotations][class table] */
static const pf_col view_cols[2][2][M_NCOLS] = {
    {MODULE_COLS("Module", "Path", "path", PF_IN_CSV | PF_IN_JSON),
     MODULE_COLS("Module class", "Class", NULL, PF_IN_CSV)},
    {MODULE_COLS("Annotation", "Path", "path", PF_IN_CSV | PF_IN_JSON),
     MODULE_COLS("Annotation name", "Name", NULL, PF_IN_CSV)},
};

/* What a width keeps, most wanted first: the split of the time, then how it ran. */
static const int module_wanted[] = {M_TOTAL, M_FWD, M_BWD, M_PCT, M_SELF, M_CALLS, M_FLOPS_PCT, M_BW_PCT,
                                    M_TFLOPS, M_GBPS, M_COUNT};

static double pct(int64_t part, int64_t whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : 0;
}

/* A rate or a percent of peak; unknown (< 0) stays an empty cell. */
static void put_rate(pf_table *t, int r, int col, double v, int decimals)
{
    if (v >= 0)
        pf_table_num(t, r, col, v, decimals);
}

static void put_row(pf_table *t, const pf_module_row *m, const pf_module_device *md, const pf_view_opts *v,
                    int tree)
{
    int r = pf_table_add_row(t);
    const pf_device_info *info = md->report->info;
    pf_table_int(t, r, M_DEV, md->report->device->id);
    pf_table_str(t, r, M_NAME, tree ? m->name : m->path);
    pf_table_str(t, r, M_PATH, m->path);
    pf_table_int(t, r, M_DEPTH, m->depth);
    pf_table_int(t, r, M_CALLS, m->calls);
    pf_table_num(t, r, M_FWD, m->fwd_ns / 1e3, 3);
    pf_table_num(t, r, M_BWD, m->bwd_ns / 1e3, 3);
    pf_table_num(t, r, M_TOTAL, (m->fwd_ns + m->bwd_ns) / 1e3, 3);
    pf_table_num(t, r, M_PCT, pct(m->fwd_ns + m->bwd_ns, md->gpu_ns), 2);
    pf_table_num(t, r, M_SELF, (m->self_fwd_ns + m->self_bwd_ns) / 1e3, 3);
    pf_table_int(t, r, M_COUNT, m->fig.count);
    put_rate(t, r, M_TFLOPS, pf_row_has_flop(&m->fig) ? pf_row_tflops(&m->fig) : -1, 2);
    put_rate(t, r, M_GBPS, pf_row_has_bytes(&m->fig) ? pf_row_gbps(&m->fig) : -1, 1);
    put_rate(t, r, M_FLOPS_PCT, pf_row_has_flop(&m->fig) ? pf_row_flops_pct(&m->fig, info) : -1, 2);
    put_rate(t, r, M_BW_PCT, pf_row_has_bytes(&m->fig) ? pf_row_bw_pct(&m->fig, info) : -1, 2);
    if (tree && (v->format == PF_FMT_TEXT || v->format == PF_FMT_MD) && m->depth > 0) {
        /* text shows the tree by indenting the last component, two spaces a level */
        size_t n = strlen(m->name), ind = 2 * (size_t)(m->depth < 40 ? m->depth : 40);
        char *label = malloc(ind + n + 1);
        if (label) {
            memset(label, ' ', ind);
            memcpy(label + ind, m->name, n + 1);
            pf_table_label(t, r, M_NAME, label);
            free(label);
        }
    }
}

/* A row by its time: the largest first, ties in tree order (a parent before its children). */
typedef struct ranked {
    int64_t ns;
    size_t row;
} ranked;

static int by_rank(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    if (a->ns != b->ns)
        return a->ns > b->ns ? -1 : 1;
    return (a->row > b->row) - (a->row < b->row);
}

/* Whether row k of the tree shows: within --depth, and with --top among the N largest of those. */
static int *shown_rows(const pf_module_device *md, const pf_view_opts *v, int depth)
{
    size_t n = md->n_rows;
    int *show = calloc(n ? n : 1, sizeof *show);
    if (!show)
        return NULL;
    for (size_t k = 0; k < n; k++)
        show[k] = depth <= 0 || md->rows[k].depth < depth;
    if (v->top > 0) { /* a parent holds its children's time, so the N largest keep their ancestors */
        ranked *ord = malloc((n ? n : 1) * sizeof *ord);
        size_t m = 0;
        if (!ord) {
            free(show);
            return NULL;
        }
        for (size_t k = 0; k < n; k++)
            if (show[k])
                ord[m++] = (ranked){md->rows[k].fwd_ns + md->rows[k].bwd_ns, k};
        qsort(ord, m, sizeof *ord, by_rank);
        for (size_t k = 0; k < m; k++)
            show[ord[k].row] = k < (size_t)v->top;
        free(ord);
    }
    return show;
}

/* The tree's rows that show; tree: named by their last component (indented in text), else by
 * their whole path. */
static pf_table *rows_table(const pf_module_device *md, const pf_view_opts *v, int depth, int ann, int tree)
{
    pf_table *t = pf_table_new(view_cols[ann][0], M_NCOLS);
    int *show = shown_rows(md, v, depth);
    for (size_t k = 0; t && show && k < md->n_rows; k++)
        if (show[k])
            put_row(t, &md->rows[k], md, v, tree);
    if (t && (!show || pf_table_status(t))) {
        pf_table_free(t);
        t = NULL;
    }
    free(show);
    return t;
}

static pf_table *class_table(const pf_module_device *md, const pf_view_opts *v, int ann)
{
    pf_table *t = pf_table_new(view_cols[ann][1], M_NCOLS);
    size_t n = v->top > 0 && (size_t)v->top < md->n_classes ? (size_t)v->top : md->n_classes;
    for (size_t k = 0; t && k < n; k++)
        put_row(t, &md->classes[k], md, v, 0);
    if (t && pf_table_status(t)) {
        pf_table_free(t);
        return NULL;
    }
    return t;
}

static void print_table(FILE *out, const pf_table *t, const pf_view_opts *v)
{
    pf_text_fit fit = pf_view_fit(v, t, module_wanted, (int)(sizeof module_wanted / sizeof module_wanted[0]), NULL, 0);
    pf_view_print_fit(out, v, t, &fit);
}

/* view_parts.h */
pf_table *pf_modules_report_table(const pf_module_view *mv, int d)
{
    pf_view_opts v = {.format = PF_FMT_JSON, .top = PF_MODULES_REPORT_ROWS}; /* whole paths, no indent */
    return rows_table(&mv->devices[d], &v, PF_MODULES_REPORT_DEPTH, mv->annotations, 0);
}

/* Where the device's GPU time went, in one line. */
static void print_split(FILE *out, const pf_module_device *md, int ann)
{
    const char *what = ann ? "annotation" : "module";
    fprintf(out,
            "GPU time %.3f us: forward in %ss %.2f%%, backward of %ss %.2f%%, backward not traced to a%s %s "
            "%.2f%%, outside every %s%s %.2f%%\n",
            md->gpu_ns / 1e3, what, pct(md->fwd_ns, md->gpu_ns), what, pct(md->bwd_ns, md->gpu_ns), ann ? "n" : "",
            what, pct(md->bwd_unattributed_ns, md->gpu_ns), what,
            ann ? "" : " (loss, optimizer, no launch call)", pct(md->outside_ns, md->gpu_ns));
}

/* Prose on out (wrapped to the width), tables on raw (fitted to it). */
static int print_text(FILE *out, FILE *raw, const pf_view_opts *v, const pf_analysis *an, const pf_module_view *mv,
                      int depth)
{
    fprintf(out, "%s of %s: %lld %s%s, %lld backward op%s\n", mv->annotations ? "Annotations" : "Modules",
            an->trace->path, (long long)mv->n_module_calls, mv->annotations ? "annotation" : "module call",
            mv->n_module_calls == 1 ? "" : "s", (long long)mv->n_backward_ops, mv->n_backward_ops == 1 ? "" : "s");
    for (int d = 0; d < mv->n_devices; d++) {
        const pf_module_device *md = &mv->devices[d];
        fputc('\n', out);
        pf_aview_header(out, an, md->report, "");
        print_split(out, md, mv->annotations);
        pf_table *t = rows_table(md, v, depth, mv->annotations, 1);
        if (!t)
            return -1;
        fputc('\n', out);
        fflush(out);
        print_table(raw, t, v);
        pf_table_free(t);
        if (!(t = class_table(md, v, mv->annotations)))
            return -1;
        fputc('\n', out);
        fflush(out);
        print_table(raw, t, v);
        pf_table_free(t);
    }
    return 0;
}

static int print_csv(FILE *out, const pf_view_opts *v, const pf_module_view *mv, int depth)
{
    for (int d = 0; d < mv->n_devices; d++) {
        pf_table *t = rows_table(&mv->devices[d], v, depth, mv->annotations, 1);
        if (!t)
            return -1;
        pf_table_print_csv(out, t, d == 0);
        pf_table_free(t);
    }
    return 0;
}

/* The line a trace without module calls (annotations) gets instead of an empty table. */
static const char *const no_ranges[2] = {
    "no nn.Module events: record the trace with torch.profiler.profile(with_stack=True, with_modules=True) to see "
    "GPU time per module (torch 2.11 writes them only with the stack)",
    "no user annotations besides ProfilerStep#N: wrap the regions to measure in "
    "torch.profiler.record_function(\"NAME\") to see GPU time per region"};

static int print_json(FILE *out, const pf_view_opts *v, const pf_analysis *an, const pf_module_view *mv, int depth)
{
    pf_jw w;
    pf_view_json_open(&w, out, an->trace->path, mv->annotations ? "annotation" : "module");
    pf_jw_key(&w, "module_calls");
    pf_jw_int(&w, mv->n_module_calls);
    pf_jw_key(&w, "backward_ops");
    pf_jw_int(&w, mv->n_backward_ops);
    if (mv->n_module_calls == 0) {
        pf_jw_key(&w, "note");
        pf_jw_str(&w, no_ranges[mv->annotations]);
    }
    pf_jw_key(&w, "devices");
    pf_jw_arr_begin(&w);
    for (int d = 0; mv->n_module_calls && d < mv->n_devices; d++) {
        const pf_module_device *md = &mv->devices[d];
        pf_jw_obj_begin(&w);
        pf_jw_key(&w, "id");
        pf_jw_int(&w, md->report->device->id);
        pf_jw_key(&w, "gpu_us");
        pf_jw_num(&w, md->gpu_ns / 1e3);
        pf_jw_key(&w, "forward_us");
        pf_jw_num(&w, md->fwd_ns / 1e3);
        pf_jw_key(&w, "backward_us");
        pf_jw_num(&w, md->bwd_ns / 1e3);
        pf_jw_key(&w, "backward_unattributed_us");
        pf_jw_num(&w, md->bwd_unattributed_ns / 1e3);
        pf_jw_key(&w, "outside_us");
        pf_jw_num(&w, md->outside_ns / 1e3);
        pf_table *t = rows_table(md, v, depth, mv->annotations, 1);
        if (!t)
            return -1;
        pf_jw_key(&w, "modules");
        pf_table_json_rows(&w, t);
        pf_table_free(t);
        if (!(t = class_table(md, v, mv->annotations)))
            return -1;
        pf_jw_key(&w, "classes");
        pf_table_json_rows(&w, t);
        pf_table_free(t);
        pf_jw_obj_end(&w);
    }
    pf_jw_arr_end(&w);
    pf_jw_obj_end(&w);
    fputc('\n', out);
    return 0;
}

int pf_view_modules(FILE *out, const pf_view_opts *v, const pf_analysis *an, const struct pf_module_view *mv,
                    int depth)
{
    if (v->format == PF_FMT_JSON)
        return print_json(out, v, an, mv, depth);
    if (mv->n_module_calls == 0 && v->format == PF_FMT_CSV) {
        fprintf(stderr, "profana: note: %s: %s\n", an->trace->path, no_ranges[mv->annotations]);
        return 0;
    }
    if (v->format == PF_FMT_CSV)
        return print_csv(out, v, mv, depth);
    /* text: the prose wrapped to the width (issue 47: a 130-character line at 80 columns) */
    FILE *w = pf_wrap_open(out, v->format == PF_FMT_TEXT ? v->width : 0);
    int rc = 0;
    if (mv->n_module_calls == 0)
        fprintf(w, "%s: %s\n", an->trace->path, no_ranges[mv->annotations]);
    else
        rc = print_text(w, out, v, an, mv, depth);
    pf_wrap_close(w, out);
    return rc;
}
