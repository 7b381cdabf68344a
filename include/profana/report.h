/* report.h - the files --plot and --report write: the charts as SVG, and one self-contained HTML page with the tables and charts. */
/* layer: render (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_REPORT_H
#define PROFANA_REPORT_H

#include <stdio.h>

#include "profana/analysis.h"
#include "profana/diff.h"
#include "profana/outfile.h"
#include "profana/ranks.h"
#include "profana/ranks_culprit.h"
#include "profana/tabulate.h"
#include "profana/view.h"

/* The files of one run, written but not yet in place: the charts, the report. */
#define PF_PLOT_FILES 5
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

/* What a --ranks run has to show: the summaries sorted by rank, their matched collectives and
 * culprits, and the files it read (no output may name one). */
typedef struct pf_ranks_run {
    const pf_rank_summary *s;
    size_t n;
    const pf_ranks_report *rep;
    const pf_culprit_report *cul;
    const char *const *inputs;
    size_t n_inputs;
} pf_ranks_run;

/* The same for --ranks: --plot ranks FILE (pf_plot_ranks) and --report FILE, a page with
 * --ranks' text output (its counts lines, every table and sentence, the culprits' prose and
 * tables, as text prints them) and the chart. */
int pf_plots_write_ranks(const pf_view_opts *v, const pf_ranks_run *r, pf_plot_files *out, pf_error *err);

#endif
