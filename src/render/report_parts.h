/* report_parts.h - the pieces of a --report page (report_page.c), for report_html.c and report_ranks.c (private to src/render/). */
#ifndef PROFANA_RENDER_REPORT_PARTS_H
#define PROFANA_RENDER_REPORT_PARTS_H

#include <stdio.h>

#include "profana/report.h"
#include "profana/svg.h"
#include "profana/tabulate.h"

/* Starts the page on out: doctype, <head> with its title and inline style, <body>, an <h1>. */
void pf_html_begin(pf_xw *w, FILE *out, const char *title);
/* Ends it: the sorting script, </body>, </html>. */
void pf_html_end(pf_xw *w);

/* An <h2>, a <p> of text (escaped). */
void pf_html_h2(pf_xw *w, const char *text);
void pf_html_para(pf_xw *w, const char *text);

/* Runs print(out, ctx) into memory and returns what it wrote (caller frees), or NULL when
 * memory runs out: how a command's text lines reach the page. */
char *pf_html_capture(void (*print)(FILE *out, const void *ctx), const void *ctx);

/* A table as a sortable HTML table: the columns text output shows, each cell as text output
 * shows it but names whole (cut by CSS, whole in a tooltip), summary rows (Total) in a
 * <tfoot> that sorting leaves in place. caption may be NULL. */
void pf_html_table(pf_xw *w, const pf_table *t, const char *caption);

/* Writes a built table (NULL: memory ran out: -1) and frees it. */
int pf_html_put_table(pf_xw *w, pf_table *t, const char *caption);

/* What print(out, ctx) writes, as a <pre>; nothing when it writes nothing. -1 when memory
 * runs out. */
int pf_html_pre_of(pf_xw *w, void (*print)(FILE *, const void *), const void *ctx);

/* What print(out, ctx) writes, each non-empty line as a <p class="note">: footnotes read as
 * prose. -1 when memory runs out. */
int pf_html_paras_of(pf_xw *w, void (*print)(FILE *, const void *), const void *ctx);

/* --ranks' page body (report_ranks.c): its counts lines, the chart, each table and sentence of
 * its text output, the culprits' prose. Returns 0, or -1 when memory runs out. */
int pf_report_ranks_page(pf_xw *w, const pf_ranks_run *r);

#endif
