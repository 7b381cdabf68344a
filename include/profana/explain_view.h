/* explain_view.h - renders what --explain found: the match, the inputs, the formula's expression, the figures and the rates. */
/* layer: render (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_EXPLAIN_VIEW_H
#define PROFANA_EXPLAIN_VIEW_H

#include <stdio.h>

#include "profana/explain.h"
#include "profana/tabulate.h"

/* How to render: what the command line asked for. */
typedef struct pf_explain_view_opts {
    pf_format format;          /* PF_FMT_TEXT, PF_FMT_MD or PF_FMT_JSON (not CSV) */
    int name_limit;            /* --name_limit for the tables' names (text and Markdown) */
    int width;                 /* text: lines at most this wide (prose wrapped, the tables' columns
                                  that fit); 0: no limit (--wide) */
} pf_explain_view_opts;

/* Prints a found invocation (inv->found == PF_INV_FOUND) to out: text or Markdown (tables in
 * Markdown) or one JSON object. Returns 0, or -1 when memory runs out (part of it may have
 * been printed). */
int pf_explain_print(FILE *out, const pf_invocation *inv, const pf_explain_view_opts *o);

#endif
