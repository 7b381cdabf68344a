/* report_html.c - writes the --plot SVG files and the --report HTML page (header lines, tables, inline charts) of an --analysis, --diff or --ranks run. */
#include "profana/modules.h"
#include "profana/report.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "profana/diff.h"
#include "profana/headline.h"
#include "profana/outfile.h"
#include "profana/plot.h"
#include "profana/svg.h"
#include "report_parts.h"
#include "view_parts.h"

/* ---- the charts ---- */

#define TITLE_MAX 320

/* The chart panels of a run: one per device (--analysis) or two per device pair (--diff),
 * with the titles they carry. */
typedef struct chart_set {
    pf_roofline_panel *panels;
    pf_breakdown_bar *bars;
    char (*titles)[TITLE_MAX];
    char (*groups)[TITLE_MAX];
    int n;
    /* the panels and bars drawn: all of them, or past CHARTS_MAX devices the CHARTS_MAX
     * busiest (issue 48: a chart of 4,096 panels is no picture, and 22 MB); a device left off
     * keeps its section of tables */
    pf_roofline_panel *draw_panels;
    pf_breakdown_bar *draw_bars;
    int n_draw;
    int n_roof;                        /* the roofline's panels: n_draw, or one per --diff pair */
    char (*roof_titles)[TITLE_MAX];    /* --diff: the pairs' chart titles */
} chart_set;

#define CHARTS_MAX 16

static int charts_alloc(chart_set *cs, int n)
{
    size_t k = n ? (size_t)n : 1;
    memset(cs, 0, sizeof *cs);
    cs->panels = calloc(k, sizeof *cs->panels);
    cs->bars = calloc(k, sizeof *cs->bars);
    cs->titles = calloc(k, sizeof *cs->titles);
    cs->groups = calloc(k, sizeof *cs->groups);
    cs->draw_panels = calloc(k, sizeof *cs->draw_panels);
    cs->draw_bars = calloc(k, sizeof *cs->draw_bars);
    cs->roof_titles = calloc(k, sizeof *cs->roof_titles);
    return cs->panels && cs->bars && cs->titles && cs->groups && cs->draw_panels && cs->draw_bars && cs->roof_titles
               ? 0
               : -1;
}

typedef struct busier {
    int64_t busy;
    int i;
} busier;

static int cmp_busier(const void *x, const void *y)
{
    const busier *a = x, *b = y;
    if (a->busy != b->busy)
        return a->busy > b->busy ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* The panels and bars drawn: every one, or (limit > 0) the `limit` busiest, in their order.
 * -1: out of memory. */
static int charts_pick(chart_set *cs, int limit)
{
    int keep = limit > 0 && cs->n > limit ? limit : cs->n;
    busier *idx = malloc((cs->n ? (size_t)cs->n : 1) * sizeof *idx);
    char *on = calloc(cs->n ? (size_t)cs->n : 1, 1);
    if (!idx || !on) {
        free(idx);
        free(on);
        return -1;
    }
    for (int i = 0; i < cs->n; i++)
        idx[i] = (busier){cs->bars[i].d->busy.busy_ns, i};
    if (keep < cs->n)
        qsort(idx, (size_t)cs->n, sizeof *idx, cmp_busier);
    for (int i = 0; i < keep; i++)
        on[idx[i].i] = 1;
    cs->n_draw = 0;
    for (int i = 0; i < cs->n; i++)
        if (on[i]) {
            cs->draw_panels[cs->n_draw] = cs->panels[i];
            cs->draw_bars[cs->n_draw++] = cs->bars[i];
        }
    cs->n_roof = cs->n_draw;
    free(idx);
    free(on);
    return 0;
}

static void charts_free(chart_set *cs)
{
    free(cs->panels);
    free(cs->bars);
    free(cs->titles);
    free(cs->groups);
    free(cs->draw_panels);
    free(cs->draw_bars);
    free(cs->roof_titles);
}

/* Adds a device's panel and bar; side names the run it belongs to (--diff), or is NULL. */
static void charts_add(chart_set *cs, const pf_analysis *an, const pf_device_report *d, const char *side,
                       const char *group)
{
    int i = cs->n++;
    snprintf(cs->titles[i], TITLE_MAX, "%s%sDevice %d: %s (%s)", side ? side : "", side ? ": " : "",
             d->device->id, d->device->name[0] ? d->device->name : "no name in trace", d->info ? d->info->key : "unknown");
    snprintf(cs->groups[i], TITLE_MAX, "%s", group ? group : "");
    cs->panels[i] = (pf_roofline_panel){.title = cs->titles[i], .d = d, .dtypes = pf_dtypes_used(an, d), .group = an->opts.group};
    cs->bars[i] = (pf_breakdown_bar){group ? cs->groups[i] : NULL, cs->titles[i], d};
}

static int charts_section(pf_xw *w, const chart_set *cs)
{
    pf_html_h2(w, "Charts");
    if (cs->n_draw < cs->n) {
        char s[160];
        snprintf(s, sizeof s, "The charts show the %d busiest of the %d devices; every device has its tables below.",
                 cs->n_draw, cs->n);
        pf_html_para(w, s);
    }
    pf_xw_begin(w, "div");
    pf_xw_attr(w, "class", "chart");
    int rc = pf_plot_roofline(w, cs->draw_panels, (size_t)cs->n_roof);
    pf_xw_end(w);
    pf_xw_raw(w, "\n");
    pf_xw_begin(w, "div");
    pf_xw_attr(w, "class", "chart");
    rc |= pf_plot_breakdown(w, cs->draw_bars, (size_t)cs->n_draw);
    pf_xw_end(w);
    pf_xw_raw(w, "\n");
    return rc;
}


/* What one run writes: its charts, and how its report is written. */
typedef struct job {
    const pf_view_opts *v;
    chart_set cs;
    int (*report)(pf_xw *w, const struct job *j);
    const pf_analysis *an[2];          /* --analysis: an[0]; --diff: A and B */
    const pf_aview *av;                /* --analysis */
    const pf_diff *diff;               /* --diff */
    const pf_dview *dv;                /* --diff */
    const pf_ranks_run *rk;            /* --ranks */
} job;


/* ---- the report of an analysis ---- */

typedef struct device_ctx {
    const pf_aview *av;
    const pf_analysis *an;
    const pf_device_report *d;
    int first;                         /* the first device: the trace's notes follow its headline */
    const pf_table *t;                 /* the rows table, for its footnotes */
    int over;                          /* its marks (pf_aview_rows) */
} device_ctx;

/* The lines text prints above the rows table, in its order: header, headline, the Span / Idle
 * by cause / Launches / Queue block, the trace's notes, counts, coverage, phases. */
static void print_head_lines(FILE *out, const void *p)
{
    const device_ctx *c = p;
    pf_aview_header(out, c->an, c->d, "");
    pf_headline_print(out, c->an, c->d);
    pf_wview_print(out, c->an, c->d, 0);
    if (c->first)
        pf_aview_trace_notes(out, c->av, c->an);
    pf_aview_counts(out, c->an, c->d);
    pf_aview_coverage(out, c->an, c->d);
    pf_aview_phases(out, c->an, c->d);
}

static void print_omitted_line(FILE *out, const void *p)
{
    const device_ctx *c = p;
    pf_aview_omitted(out, c->av->v, c->d);
}

static void print_footnotes(FILE *out, const void *p)
{
    const device_ctx *c = p;
    pf_aview_report_notes(out, c->av, c->d, c->t, c->over);
}

static void print_busy_line(FILE *out, const void *p)
{
    const device_ctx *c = p;
    pf_aview_busy(out, &c->d->busy);
}

/* A device's section: what text prints for it, the tables as HTML tables, the footnotes of
 * the rows table (every column shows on the page) as paragraphs. */
static int report_device(pf_xw *w, device_ctx *c, const char *title)
{
    pf_html_h2(w, title);
    if (pf_html_pre_of(w, print_head_lines, c))
        return -1;
    pf_table *t = pf_aview_rows(c->av, c->d, 0, &c->over);
    if (!t)
        return -1;
    pf_html_table(w, t, "Rows by GPU time");
    c->t = t;
    int rc = pf_html_pre_of(w, print_omitted_line, c) || pf_html_paras_of(w, print_footnotes, c);
    c->t = NULL;
    pf_table_free(t);
    if (rc || pf_html_put_table(w, pf_aview_categories(c->d), "Categories"))
        return -1;
    if (pf_html_pre_of(w, print_busy_line, c))
        return -1;
    if (pf_html_put_table(w, pf_aview_streams(&c->d->busy), "Streams"))
        return -1;
    return 0;
}

typedef struct colls_ctx {
    const pf_analysis *an;
    int *table; /* set when a table follows the prose */
} colls_ctx;

static void print_colls_intro(FILE *out, const void *p)
{
    const colls_ctx *c = p;
    *c->table = pf_aview_collectives_intro(out, c->an);
}

static void print_colls_link(FILE *out, const void *p)
{
    pf_aview_collectives_link(out, p);
}

/* The rank's collectives, as text prints them after the devices: prose, table, Link line. */
static int report_collectives(pf_xw *w, const pf_analysis *an)
{
    int table = 0;
    colls_ctx c = {an, &table};
    char *s = pf_html_capture(print_colls_intro, &c);
    if (!s)
        return -1;
    if (*s) {
        pf_xw_elem(w, "pre", s + (*s == '\n'));
        pf_xw_raw(w, "\n");
    }
    free(s);
    if (!table)
        return 0;
    return pf_html_put_table(w, pf_aview_collectives_table(an), "Collectives of this rank") ||
           pf_html_pre_of(w, print_colls_link, an);
}

static int analysis_report(pf_xw *w, const job *j)
{
    const pf_analysis *an = j->an[0];
    char s[1024];
    snprintf(s, sizeof s, "Trace %s: %zu events, %zu GPU activities on %d device%s; DTYPE %s; --group %s.",
             an->trace->path, an->trace->n_events, an->trace->n_acts, an->n_devices, an->n_devices == 1 ? "" : "s",
             pf_dtype_name(an->opts.default_dtype), pf_group_names[an->opts.group]);
    pf_html_para(w, s);
    if (charts_section(w, &j->cs))
        return -1;
    /* a trace with nn.Module events also gets each device's module tree (--group module's) */
    pf_module_view *mv = NULL;
    pf_error err;
    if (pf_module_view_build(an, 0, &mv, &err))
        return -1;
    for (int i = 0; i < an->n_devices; i++) {
        device_ctx c = {j->av, an, &an->devices[i], i == 0, NULL, 0};
        if (report_device(w, &c, j->cs.titles[i]) ||
            (mv->n_module_calls && pf_html_put_table(w, pf_modules_report_table(mv, i),
                                             "Modules: forward and backward GPU time (--group module)"))) {
            pf_module_view_free(mv);
            return -1;
        }
    }
    pf_module_view_free(mv);
    if (report_collectives(w, an))
        return -1;
    pf_html_h2(w, "Timeline"); /* one trace's streams and idle causes: --analysis only */
    pf_xw_begin(w, "div");
    pf_xw_attr(w, "class", "chart");
    int rc = pf_plot_timeline(w, an);
    pf_xw_end(w);
    pf_xw_raw(w, "\n");
    return rc;
}

/* ---- the report of a diff ---- */

typedef struct pair_ctx {
    const pf_dview *dv;
    int i;
    const pf_diff_device *d;
} pair_ctx;

static void print_pair_header(FILE *out, const void *p)
{
    const pair_ctx *c = p;
    pf_dview_header(out, c->dv, c->i, c->d, "");
}

static void print_pair_levels(FILE *out, const void *p)
{
    const pair_ctx *c = p;
    pf_dview_levels(out, c->dv, &c->d->summary);
}

static void print_pair_omitted(FILE *out, const void *p)
{
    const pair_ctx *c = p;
    pf_dview_omitted(out, c->dv, c->d);
}

static void print_pair_summary(FILE *out, const void *p)
{
    const pair_ctx *c = p;
    pf_dview_summary(out, c->dv, c->d);
}

static void print_diff_left_out(FILE *out, const void *p)
{
    const job *j = p;
    pf_dview_left_out(out, j->dv, j->diff, "");
}

static int report_pair(pf_xw *w, const pair_ctx *c)
{
    char *head = pf_html_capture(print_pair_header, c);
    if (!head)
        return -1;
    head[strcspn(head, "\n")] = 0;
    pf_html_h2(w, *head ? head : "Device pair");
    free(head);
    if (pf_html_pre_of(w, print_pair_levels, c))
        return -1;
    if (pf_html_put_table(w, pf_dview_rows(c->dv, c->d, NULL), "Rows by change"))
        return -1;
    if (pf_dview_shown(c->dv, c->d) < c->d->n_rows && pf_html_pre_of(w, print_pair_omitted, c))
        return -1;
    if (pf_html_pre_of(w, print_pair_summary, c))
        return -1;
    if (pf_html_put_table(w, pf_dview_categories(c->dv, c->d), "Categories"))
        return -1;
    return 0;
}

static int diff_report(pf_xw *w, const job *j)
{
    const pf_view_opts *v = j->v;
    char s[2048];
    snprintf(s, sizeof s, "A (%s): %s, %zu GPU activities. B (%s): %s, %zu GPU activities. DTYPE %s; --group %s.",
             v->names[0], j->an[0]->trace->path, j->an[0]->trace->n_acts, v->names[1], j->an[1]->trace->path,
             j->an[1]->trace->n_acts, pf_dtype_name(j->an[0]->opts.default_dtype), pf_group_names[j->an[0]->opts.group]);
    pf_html_para(w, s);
    if (pf_html_pre_of(w, print_diff_left_out, j))
        return -1;
    if (charts_section(w, &j->cs))
        return -1;
    for (int i = 0; i < j->diff->n_devices; i++) {
        pair_ctx c = {j->dv, i, &j->diff->devices[i]};
        if (report_pair(w, &c))
            return -1;
    }
    return 0;
}

/* ---- the report of --ranks (report_ranks.c) ---- */

static int ranks_report(pf_xw *w, const job *j)
{
    return pf_report_ranks_page(w, j->rk);
}

/* ---- the files ---- */

enum { F_ROOFLINE, F_BREAKDOWN, F_REPORT, F_TIMELINE, F_RANKS, F_COUNT };
_Static_assert(F_COUNT == PF_PLOT_FILES, "one pf_outfile per kind of file");

static int write_one(int which, FILE *out, const job *j, const char *title)
{
    pf_xw w;
    int rc;
    if (which == F_REPORT) {
        pf_html_begin(&w, out, title);
        rc = j->report(&w, j);
        pf_html_end(&w);
        return rc;
    }
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
    pf_xw_init(&w, out, 0);
    if (which == F_ROOFLINE)
        rc = pf_plot_roofline(&w, j->cs.draw_panels, (size_t)j->cs.n_roof);
    else if (which == F_TIMELINE)
        rc = pf_plot_timeline(&w, j->an[0]);
    else if (which == F_RANKS)
        rc = pf_plot_ranks(&w, j->rk->s, j->rk->n, j->rk->rep, j->rk->cul);
    else
        rc = pf_plot_breakdown(&w, j->cs.draw_bars, (size_t)j->cs.n_draw);
    fputc('\n', out);
    return rc;
}

/* Why path may not be written: it names an input trace (NULL when it may be). That no two
 * outputs name one file is the command line's check (src/cmd/cli_check.c: distinct_outputs), which sees
 * every output, the --summary too. */
static const char *refused(const char *const *paths, int i, const job *j)
{
    for (int k = 0; k < 2; k++)
        if (j->an[k] && pf_same_file(paths[i], j->an[k]->trace->path))
            return "is an input trace; write to another file";
    for (size_t k = 0; j->rk && k < j->rk->n_inputs; k++)
        if (pf_same_file(paths[i], j->rk->inputs[k]))
            return "is an input of --ranks; write to another file";
    return NULL;
}

/* Opens every file asked for; on a failure closes (and removes) the ones opened. */
static int open_all(const char *const *paths, pf_outfile *files, const job *j, pf_error *err)
{
    for (int i = 0; i < F_COUNT; i++) {
        if (!paths[i])
            continue;
        const char *why = refused(paths, i, j);
        if (why) {
            pf_fail(err, "%s: %s", paths[i], why);
            goto fail;
        }
        if (pf_outfile_open(&files[i], paths[i], err))
            goto fail;
    }
    return 0;
fail:
    for (int i = 0; i < F_COUNT; i++)
        pf_outfile_abort(&files[i]);
    return -1;
}

/* Opens every file first, so a bad path costs none of them; then writes each into its
 * temporary file. On failure every one is removed. */
static int write_files(const job *j, const char *title, pf_plot_files *out, pf_error *err)
{
    const char *paths[F_COUNT] = {j->v->plot_roofline, j->v->plot_breakdown, j->v->report, j->v->plot_timeline,
                                  j->v->plot_ranks};
    pf_outfile *files = out->files;
    int rc = open_all(paths, files, j, err);
    for (int i = 0; i < F_COUNT && rc == 0; i++)
        if (paths[i] && write_one(i, files[i].f, j, title))
            rc = pf_fail(err, "out of memory");
    /* a write that fails (a full disk, /dev/full, a file-size limit) stops the run here,
     * before the table is printed; only the rename waits for standard output */
    for (int i = 0; i < F_COUNT && rc == 0; i++)
        if (paths[i] && (fflush(files[i].f) != 0 || ferror(files[i].f)))
            rc = pf_outfile_write_error(&files[i], err);
    if (rc)
        pf_plots_abort(out);
    return rc;
}

int pf_plots_finish(pf_plot_files *pf, pf_error *err)
{
    for (int i = 0; i < PF_PLOT_FILES; i++)
        if (pf->files[i].f && pf_outfile_finish(&pf->files[i], err)) {
            pf_plots_abort(pf);
            return -1;
        }
    return 0;
}

int pf_plots_commit(pf_plot_files *pf, pf_error *err)
{
    /* every file written whole before any is renamed: all of them change, or none */
    if (pf_plots_finish(pf, err))
        return -1;
    int rc = 0;
    for (int i = 0; i < PF_PLOT_FILES; i++) {
        if (!pf->files[i].finished)
            continue;
        if (rc)
            pf_outfile_abort(&pf->files[i]);
        else if (pf_outfile_commit(&pf->files[i], err))
            rc = -1;
    }
    return rc;
}

void pf_plots_abort(pf_plot_files *pf)
{
    for (int i = 0; i < PF_PLOT_FILES; i++)
        pf_outfile_abort(&pf->files[i]);
}

static int nothing_asked(const pf_view_opts *v)
{
    return !v->plot_roofline && !v->plot_breakdown && !v->report && !v->plot_timeline && !v->plot_ranks;
}

int pf_plots_write(const pf_view_opts *v, const pf_analysis *an, pf_plot_files *out, pf_error *err)
{
    memset(out, 0, sizeof *out);
    if (nothing_asked(v))
        return 0;
    pf_aview av;
    pf_aview_init(&av, v);
    job j = {.v = v, .report = analysis_report, .an = {an, NULL}, .av = &av};
    if (charts_alloc(&j.cs, an->n_devices)) {
        charts_free(&j.cs);
        return pf_fail(err, "out of memory");
    }
    for (int i = 0; i < an->n_devices; i++)
        charts_add(&j.cs, an, &an->devices[i], NULL, NULL);
    if (charts_pick(&j.cs, CHARTS_MAX)) {
        charts_free(&j.cs);
        return pf_fail(err, "out of memory");
    }
    char title[1024];
    snprintf(title, sizeof title, "profana --analysis %s", an->trace->path);
    int rc = write_files(&j, title, out, err);
    charts_free(&j.cs);
    return rc;
}

int pf_plots_write_diff(const pf_view_opts *v, const pf_analysis *a, const pf_analysis *b, const pf_diff *d,
                        pf_plot_files *out, pf_error *err)
{
    memset(out, 0, sizeof *out);
    if (nothing_asked(v))
        return 0;
    if (v->plot_timeline) /* one trace's streams: a pair has two time scales */
        return pf_fail(err, "%s: --plot timeline draws one trace: use it with --analysis", v->plot_timeline);
    pf_dview dv;
    pf_dview_init(&dv, v, NULL);
    job j = {.v = v, .report = diff_report, .an = {a, b}, .diff = d, .dv = &dv};
    if (charts_alloc(&j.cs, 2 * d->n_devices)) {
        charts_free(&j.cs);
        return pf_fail(err, "out of memory");
    }
    for (int i = 0; i < d->n_devices; i++) {
        char group[64];
        snprintf(group, sizeof group, "Device pair %d", i);
        charts_add(&j.cs, a, d->devices[i].a, v->names[0], group);
        charts_add(&j.cs, b, d->devices[i].b, v->names[1], group);
    }
    if (charts_pick(&j.cs, 0)) { /* a pair's two bars stay together: every one drawn */
        charts_free(&j.cs);
        return pf_fail(err, "out of memory");
    }
    /* the roofline: one chart a pair, A's panel taking B's rows and the matched rows' arrows */
    for (int i = 0; i < d->n_devices; i++) {
        pf_roofline_panel *p = &j.cs.draw_panels[i];
        *p = j.cs.panels[2 * i];
        snprintf(j.cs.roof_titles[i], TITLE_MAX, "Device pair %d: %s: Device %d (%s) -> %s: Device %d (%s)", i, v->names[0],
                 d->devices[i].a->device->id, d->devices[i].a->info ? d->devices[i].a->info->key : "unknown", v->names[1],
                 d->devices[i].b->device->id, d->devices[i].b->info ? d->devices[i].b->info->key : "unknown");
        p->title = j.cs.roof_titles[i];
        p->b = d->devices[i].b;
        p->dtypes_b = j.cs.panels[2 * i + 1].dtypes;
        p->names[0] = v->names[0];
        p->names[1] = v->names[1];
        p->pair = &d->devices[i];
    }
    j.cs.n_roof = d->n_devices;
    char title[2048];
    snprintf(title, sizeof title, "profana --diff %s (%s) vs %s (%s)", a->trace->path, v->names[0], b->trace->path,
             v->names[1]);
    int rc = write_files(&j, title, out, err);
    charts_free(&j.cs);
    return rc;
}

int pf_plots_write_ranks(const pf_view_opts *v, const pf_ranks_run *r, pf_plot_files *out, pf_error *err)
{
    assert(v && r && out && err);
    memset(out, 0, sizeof *out);
    if (nothing_asked(v))
        return 0;
    if (v->plot_roofline || v->plot_breakdown || v->plot_timeline) /* the command line refuses them */
        return pf_fail(err, "--ranks draws --plot ranks only");
    job j = {.v = v, .report = ranks_report, .rk = r};
    char title[1024];
    snprintf(title, sizeof title, "profana --ranks: %zu rank%s", r->n, r->n == 1 ? "" : "s");
    return write_files(&j, title, out, err);
}
