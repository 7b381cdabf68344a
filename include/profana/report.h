/* report.h - the files --plot and --report write: the charts as SVG, and one self-contained HTML page with the tables and charts. */
/* layer: render (README: Where things are) */
#ifndef PROFANA_REPORT_H
#define PROFANA_REPORT_H

#include <stdio.h>

#include "profana/analysis.h"
#include "profana/diff.h"
#include "profana/tabulate.h"
#include "profana/view.h"

/* Writes the files the options of an --analysis run ask for: --plot roofline FILE (one roofline
 * per device), --plot breakdown FILE (one bar per device), --report FILE (HTML). Every file
 * is opened (as a temporary beside its target) before anything is written, so a bad path
 * leaves no file at all; each is renamed into place whole. Nothing asked: returns 0 at once.
 * Returns 0, or -1 with err set ("PATH: reason"; "out of memory"). */
int pf_plots_write(const pf_view_opts *v, const pf_analysis *an, pf_error *err);

/* The same for a --diff run (v->names: NAME_A, NAME_B): a roofline per
 * device of each side, a breakdown with a bar per side for each device pair on one time
 * scale, and a report with the pair tables and both charts. */
int pf_plots_write_diff(const pf_view_opts *v, const pf_analysis *a, const pf_analysis *b, const pf_diff *d,
                        pf_error *err);

#endif
