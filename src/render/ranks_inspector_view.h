/* ranks_inspector_view.h - what ranks_view.c asks of ranks_inspector_view.c: the NCCL Inspector part of --ranks (private to src/render). */
#ifndef PROFANA_RENDER_RANKS_INSPECTOR_VIEW_H
#define PROFANA_RENDER_RANKS_INSPECTOR_VIEW_H

#include <stdio.h>

#include "profana/jsonw.h"
#include "profana/ranks_inspector.h"
#include "profana/view.h"

/* Text and Markdown show at most this many instances (the most skewed); CSV and JSON all. */
enum { PF_INSP_TEXT_ROWS = 20 };

/* Text, Markdown or CSV: the counts line (not CSV), the instances table and the Inspector
 * stragglers; after: the Kineto part was printed before (an empty line separates them).
 * Returns 0, or -1 when memory runs out. */
int pf_insp_print(FILE *out, pf_format format, int width, const pf_rank_summary *s, const pf_ranks_report *rep,
                  const pf_insp_report *insp, int after);

/* The member "inspector" of --ranks' JSON: null without logs, else {logs, instances,
 * stragglers, incomplete, joined, join_pairs} (docs/ranks.md, "NCCL Inspector logs"). */
void pf_insp_json(pf_jw *w, const pf_rank_summary *s, const pf_ranks_report *rep, const pf_insp_report *insp);

#endif
