/* report.h - the files --plot and --report write: the charts as SVG, and one self-contained HTML page with the tables and charts. */
/* layer: render (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_REPORT_H
#define PROFANA_REPORT_H

#include <stdio.h>

#include "profana/analysis.h"
#include "profana/diff.h"
#include "profana/outfile.h"
#include "profana/tabulate.h"
#include "profana/view.h"

/* The files of one run, written but not yet in place: the roofline, the breakdown, the report. */
#define PF_PLOT_FILES 4
typedef struct pf_plot_files {
    pf_outfile files[PF_PLOT_FILES]; /* f NULL: not asked for */
} pf_plot_files;

/* Writes the files the options of an --analysis run ask for: --plot roofline FILE (one roofline
 * per device), --plot breakdown FILE (one bar per device), --report FILE (HTML). Every file
 * is opened (as a temporary beside its target) before anything is written, so a bad path
 * leaves no file at all. They are not in place until pf_plots_commit (the caller first
 * writes standard output, so a failed standard output leaves no file written); the caller
 * ends with pf_plots_commit or pf_plots_abort. Nothing asked: returns 0 at once. Returns 0,
 * or -1 with err set ("PATH: reason"; "out of memory") and nothing left to commit. */
int pf_plots_write(const pf_view_opts *v, const pf_analysis *an, pf_plot_files *out, pf_error *err);

/* Finishes every written file (pf_outfile_finish: flushed, closed, not yet renamed); on a
 * write error removes them all and returns -1 with err set. */
int pf_plots_finish(pf_plot_files *pf, pf_error *err);

/* Finishes every written file (pf_plots_finish), then renames each into place
 * (pf_outfile_commit): a write error changes no target. On a failure the rest are removed;
 * returns 0, or -1 with err set. */
int pf_plots_commit(pf_plot_files *pf, pf_error *err);

/* Removes the written files; the targets are untouched. */
void pf_plots_abort(pf_plot_files *pf);

/* The same for a --diff run (v->names: NAME_A, NAME_B): a roofline per
 * device of each side, a breakdown with a bar per side for each device pair on one time
 * scale, and a report with the pair tables and both charts. */
int pf_plots_write_diff(const pf_view_opts *v, const pf_analysis *a, const pf_analysis *b, const pf_diff *d,
                        pf_plot_files *out, pf_error *err);

#endif
