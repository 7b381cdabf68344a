/* report.h - the files --plot and --report write: the charts as SVG, and one self-contained HTML page with the tables and charts. */
/* layer: render (README: Where things are) */
#ifndef PROFANA_REPORT_H
#define PROFANA_REPORT_H

#include <stdio.h>

#include "profana/analysis.h"
#include "profana/diff.h"
#include "profana/tabulate.h"
#include "profana/view.h"

/* How --analysis renders a device: cmd_analysis's own table builders and line printers, so
 * the report shows exactly the tables and lines of the text output. Any member may be NULL
 * (that part is left out). */
typedef struct pf_analysis_view {
    const pf_col *cols;                /* the device table's columns (name title per --group) */
    pf_table *(*rows)(const pf_view_opts *, const pf_device_report *, const pf_col *, int *over);
    pf_table *(*categories)(const pf_device_report *);
    pf_table *(*streams)(const pf_busy *);
    void (*header)(FILE *, const pf_analysis *, const pf_device_report *, const char *lead);
    void (*counts)(FILE *, const pf_analysis *, const pf_device_report *);
    void (*coverage)(FILE *, const pf_device_report *);
    void (*omitted)(FILE *, const pf_view_opts *, const pf_device_report *);
    void (*busy)(FILE *, const pf_busy *);
} pf_analysis_view;

/* Writes the files the options of an --analysis run ask for: --plot roofline FILE (one roofline
 * per device), --plot breakdown FILE (one bar per device), --report FILE (HTML). Every file
 * is opened (as a temporary beside its target) before anything is written, so a bad path
 * leaves no file at all; each is renamed into place whole. Nothing asked: returns 0 at once.
 * Returns 0, or -1 with err set ("PATH: reason"; "out of memory"). */
int pf_plots_write(const pf_view_opts *v, const pf_analysis *an, const pf_analysis_view *av, pf_error *err);

/* How --diff renders a device pair: cmd_diff's own table builders and line printers, each
 * called with o, its rendering state (opaque here). Any member but o may be NULL. */
struct diff_out;
typedef struct pf_diff_view {
    const struct diff_out *o;
    pf_table *(*rows)(const struct diff_out *, const pf_diff_device *);
    pf_table *(*categories)(const struct diff_out *, const pf_diff_device *);
    void (*header)(FILE *, const struct diff_out *, int pair, const pf_diff_device *, const char *lead);
    void (*levels)(FILE *, const struct diff_out *, const pf_diff_summary *);
    void (*summary)(FILE *, const struct diff_out *, const pf_diff_summary *);
    void (*left_out)(FILE *, const struct diff_out *, const pf_diff *, const char *lead);
} pf_diff_view;

/* The same for a --diff run (v->names: NAME_A, NAME_B): a roofline per
 * device of each side, a breakdown with a bar per side for each device pair on one time
 * scale, and a report with the pair tables and both charts. */
int pf_plots_write_diff(const pf_view_opts *v, const pf_analysis *a, const pf_analysis *b, const pf_diff *d,
                        const pf_diff_view *dv, pf_error *err);

#endif
