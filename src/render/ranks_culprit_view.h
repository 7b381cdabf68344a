/* ranks_culprit_view.h - what ranks_view.c asks of ranks_culprit_view.c: the culprits' tables and prose (private to src/render). */
#ifndef PROFANA_RENDER_RANKS_CULPRIT_VIEW_H
#define PROFANA_RENDER_RANKS_CULPRIT_VIEW_H

#include <stdio.h>

#include "profana/ranks_culprit.h"
#include "profana/tabulate.h"

/* Text and Markdown show at most this many late arrivals (the latest); CSV and JSON all. */
enum { PF_CULPRIT_TEXT_ROWS = 20 };

/* The late arrivals, most late first (at most limit rows; 0: all). NULL when memory runs out. */
pf_table *pf_culprit_late_table(const pf_culprit_report *c, size_t limit);

/* One row per rank (only those with a verdict or a late arrival when all is 0). NULL when
 * memory runs out. */
pf_table *pf_culprit_rank_table(const pf_culprit_report *c, int all);

/* A culprits table (late: the late arrivals' table) as text fitted to width (0: every column). */
void pf_culprit_print_text(FILE *out, const pf_table *t, int late, int width);

/* The lines saying who the culprits are (or that there is none), for text and Markdown. */
void pf_culprit_prose(FILE *out, const pf_culprit_report *c);

#endif
