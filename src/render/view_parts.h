/* view_parts.h - the pieces of the --analysis and --diff views (tables and line printers) that the HTML report reuses, so the page shows exactly what text output shows. */
#ifndef PROFANA_RENDER_VIEW_PARTS_H
#define PROFANA_RENDER_VIEW_PARTS_H

#include <stdio.h>

#include "profana/jsonw.h"
#include "profana/view.h"
#include "profana/waits.h"

/* ---- shared by the views (view_common.c; it calls no view) ---- */

/* Starts w on out with a document's opening members: "schema" (pf_jw_doc_begin), then "trace"
 * (the trace's path) and "group" (the --group that made it), the head every one-table view's
 * JSON shares. w, out, trace and group non-NULL. */
void pf_view_json_open(pf_jw *w, FILE *out, const char *trace, const char *group);

/* How a rows table t fits v's width in v's format: with wanted (its default columns, most
 * wanted first, nwanted of them) the columns that fit, or --columns' (picked, room for max,
 * receives them); wanted NULL: every column, the name column fitted (a small table).
 * Markdown and --wide (width 0): every column. v and t non-NULL; picked non-NULL with max > 0
 * when v->columns is set. The result borrows wanted or picked. */
pf_text_fit pf_view_fit(const pf_view_opts *v, const pf_table *t, const int *wanted, int nwanted, int *picked,
                        int max);
/* Labels column col of rows 0..n-1 of t with the short names of keys[0..n) (pf_names_short_set;
 * kernel signatures shortened for --group kernel) in Markdown and width-limited text; nothing
 * in CSV, JSON and --wide text, which carry whole names. t has at least n rows. Returns 0, or
 * -1 when memory runs out (the table then keeps its whole names). */
int pf_view_label_names(pf_table *t, int col, const char *const *keys, size_t n, const pf_view_opts *v);

/* After a text table printed with fit at width columns (> 0): one line naming the columns the
 * width left out (of fit->cols, or of every column for a small table printed without a list),
 * and --wide, wrapped to the width ("Hidden at 80 columns: GFLOP, GB; --wide shows every
 * column."); nothing when none was, or with --columns (fit->keep_all). shown is the mask
 * pf_table_print_text_fit returned. (view_common.c) */
void pf_view_hidden(FILE *out, int width, const pf_table *t, const pf_text_fit *fit, uint64_t shown);
/* t in format (the --ranks tables' way): Markdown, CSV with its Kind column, text with every
 * column when width is 0, else text fitted by fit (its width set to width) and the line of
 * columns hidden (pf_view_hidden). out, t and fit non-NULL. */
void pf_view_print_table(FILE *out, pf_format format, int width, const pf_table *t, pf_text_fit fit);
/* t as fitted (pf_view_fit): a Markdown table with v->format md, else text, and then the line
 * of columns hidden (pf_view_hidden). Returns the columns shown, as pf_table_print_text_fit. */
uint64_t pf_view_print_fit(FILE *out, const pf_view_opts *v, const pf_table *t, const pf_text_fit *fit);
/* The categories d ran (a count above 0), by GPU time, most first, ties in pf_category order,
 * into order[0, PF_CAT_COUNT) (pf_category values); returns how many. d and order non-NULL. */
int pf_view_category_order(const pf_device_report *d, int *order);

/* One footnote line "Source: gemm, rotary: their op family's formula; generic: no formula;
 * ..." explaining every value (each member of a '+'-joined list, its "~suffix" left to its own
 * footnote) that column col of t's rows shows; nothing when they show none. (source_legend.c) */
void pf_view_source_legend(FILE *out, const pf_table *t, int col);

/* Cuts a --group shape key in buf to at most limit characters (pf_text_fit.cut): trailing
 * arguments that are not tensors dropped (",.."), then other scalars shown as "_", then no
 * space after commas, then the op without its namespace, then the op's name cut in its
 * middle, equal tensors in a row as one "Nx[dims]dtype", whole tensors between the first and
 * the last left out; every tensor shown keeps its dims. A key that still does not fit, or is
 * not OP(ARGS), is cut in its middle (pf_name_cut). (shape_key.c) */
void pf_shape_key_cut(char *buf, int limit);

/* ---- --analysis: one rank's collectives (collectives_view.c) ---- */

/* The collectives block in parts, for --report: the prose before the table (1 when a table
 * follows, 0 when none does), the table (NULL when memory runs out), the Link line after it.
 * (collectives_view.c) */
int pf_aview_collectives_intro(FILE *out, const pf_analysis *an);
pf_table *pf_aview_collectives_table(const pf_analysis *an);
void pf_aview_collectives_link(FILE *out, const pf_analysis *an);
/* After the devices in text or Markdown: a line of counts, the table of an->colls and the
 * link's source; the reason when they are unknown; nothing when the trace has none. prose
 * goes to out (wrapped), the table to raw. -1 when memory runs out. */
int pf_aview_collectives_text(FILE *out, FILE *raw, const pf_view_opts *v, const pf_analysis *an);
/* The "collectives" member (null when none; then "collectives_unknown", the reason or null). */
int pf_aview_collectives_json(pf_jw *w, const pf_analysis *an);

/* ---- --analysis: serving phases (phases_view.c) ---- */

/* "Phases: prefill P% of GPU time (T us), ..." for a device some of whose GPU time has a
 * phase (pf_phases_compute_on); nothing otherwise. */
void pf_aview_phases(FILE *out, const pf_analysis *an, const pf_device_report *d);
/* The headline's phases item into s (room for n): "phases of GPU time: prefill P%, decode
 * D%, mixed M%, none N% (--phase)"; returns 1, or 0 with s untouched when no GPU time of the
 * device has a phase or most of it has none. */
int pf_aview_phases_brief(char *s, size_t n, const pf_analysis *an, const pf_device_report *d);
/* The device's "phases" member: per phase its us and pct, or null (no phase known). */
void pf_aview_phases_json(pf_jw *w, const pf_analysis *an, const pf_device_report *d);

/* ---- --analysis (analysis_view.c) ---- */

enum { PF_AVIEW_NCOLS = 33 };

/* The markers a device table's cells carry; analysis_notes.c explains each under the table. */
#define OVER_PEAK_MARK "!"
/* A percentage above SUSPECT_PCT of a peak is possible but rare (well-tuned GEMMs reach 70% to
 * 85% of a datasheet peak): worth checking the peak, the clock and the cache before trusting */
#define SUSPECT_MARK "?"
#define SUSPECT_PCT 90.0
/* BW % of a row whose bytes moved faster than DRAM can move them while a call's bytes fit
 * the cache (pf_dram_pct): not a number, because DRAM's share is unknown */
#define CACHE_MARK "cache"
/* A percentage above 100 that comes from a generic guess: the guess is a ceiling */
#define GUESS_UB_MARK "~ub"
/* FLOPS % of a kernel row whose ops' FLOPs are all on their other (gemm, conv, attention)
 * kernels: none were counted on it, which is not a measured 0 */
#define ELSEWHERE_MARK "op"
/* A rate or percentage of a row whose figures are known for only some of its launches: the
 * rate of those launches alone, marked (text and Markdown; CSV and JSON keep the cell null) */
#define PARTIAL_MARK "*"

/* The footnotes under device d's rows table t (its first `shown` rows and the Total shown):
 * for each marker of `over` (PF_AVIEW_* flags, those of columns shown only), then, when
 * source_col >= 0 (the Source column shown), the legend of its values and its markers'
 * notes; the Total's bytes note when the Source or (bw_shown) BW % column shows.
 * (analysis_notes.c) */
void pf_aview_footnotes(FILE *out, const pf_device_report *d, const pf_table *t, int over, size_t shown,
                        int source_col, int bw_shown);

/* The device table's columns, the name column titled per --group: cols for a device of the
 * table, cols_ach for one whose --device-file entry carries measured achievable peaks ("% of
 * achievable" columns in text too), cols_unknown for an unknown device (no percentage or
 * bound columns in text and Markdown; CSV and JSON keep them empty, one header for all). */
typedef struct pf_aview {
    const pf_view_opts *v;             /* borrowed */
    pf_col cols[PF_AVIEW_NCOLS];
    pf_col cols_ach[PF_AVIEW_NCOLS];
    pf_col cols_unknown[PF_AVIEW_NCOLS];
} pf_aview;

/* Sets a up for v (which must outlive it). */
void pf_aview_init(pf_aview *a, const pf_view_opts *v);
/* How many of pf_aview's columns v's grouping's table has: all for --group op, the others
 * stop before the Calls and CPU columns. */
int pf_aview_ncols(const pf_view_opts *v);
/* pf_view_columns_help's parts: s[0, used) kept, the --analysis names (pf_aview) or the --diff
 * ones (pf_dview) appended; returns the new length (n or more when cut). */
size_t pf_aview_columns_help(char *s, size_t n, size_t used);
size_t pf_dview_columns_help(char *s, size_t n, size_t used);
/* The device's table: its first v->top groups by time (all with 0), then the Total row (a
 * summary row); *over gets PF_AVIEW_OVER when a row shown runs above 100% of a peak,
 * PF_AVIEW_SUSPECT above 90% (and not above 100%) in one of its percentages, and
 * PF_AVIEW_CACHE when a row's BW % reads "cache" (pf_row_cache_served), PF_AVIEW_GUESS_UB
 * when a percentage reads "~ub" (pf_row_guess_over), PF_AVIEW_ELSEWHERE when FLOPS % reads
 * "op" (the row's kernels carry none of their ops' FLOPs), PF_AVIEW_PARTIAL when a rate
 * shows the known part of a row (PARTIAL_MARK). NULL when memory runs out. */
enum {
    PF_AVIEW_OVER = 1,
    PF_AVIEW_CACHE = 2,
    PF_AVIEW_SUSPECT = 4,
    PF_AVIEW_GUESS_UB = 8,
    PF_AVIEW_ELSEWHERE = 16,
    PF_AVIEW_PARTIAL = 32
};
/* keep: 0, or the one format the table is printed in (PF_IN_TEXT, PF_IN_CSV, PF_IN_JSON): only
 * its columns' cells are kept (pf_table_keep). */
pf_table *pf_aview_rows(const pf_aview *a, const pf_device_report *d, unsigned keep, int *over);
/* The categories that ran, by time; NULL when memory runs out. */
pf_table *pf_aview_categories(const pf_device_report *d);
/* The streams with their launches and busy time; NULL when memory runs out. */
pf_table *pf_aview_streams(const pf_busy *b);
/* "Device N: NAME | matched: KEY | peaks: ..." after lead ("### " in Markdown). */
void pf_aview_header(FILE *out, const pf_analysis *an, const pf_device_report *d, const char *lead);
/* The device's identity, matched entry and peaks as JSON members (the header line's figures):
 * id, name, matched, peak_tflops (per dtype, null without a peak), peak_gbps, activities. */
void pf_aview_header_json(pf_jw *w, const pf_device_report *d);
/* "GPU activities: ..." counts by kind, unlinked ones, and the GPU time. */
void pf_aview_counts(FILE *out, const pf_analysis *an, const pf_device_report *d);
/* "Coverage: ..." how much GPU time has known bytes and FLOPs, how much lacks shapes or a
 * launching op, and the ops to write formulas for; then the "Why:" lines. */
void pf_aview_coverage(FILE *out, const pf_analysis *an, const pf_device_report *d);
/* The device's "coverage" member: the shares with figures, and the activities by how they found
 * their op (no_launching_op, linked_by_external_id, linked_by_nesting, graph_capture). */
void pf_aview_coverage_json(pf_jw *w, const pf_device_report *d);
/* The "Notes on the trace:" block (the loader's notes where v->trace_notes, the Steps line),
 * text prints after the first device's headline; nothing when there is neither. */
void pf_aview_trace_notes(FILE *out, const pf_aview *a, const pf_analysis *an);
/* The footnotes under device d's rows table t (built by pf_aview_rows, over its flags) with
 * every column shown, as --report's page shows them: the markers', the Source legend, the
 * Total's bytes. */
void pf_aview_report_notes(FILE *out, const pf_aview *a, const pf_device_report *d, const pf_table *t, int over);
/* "(N more rows: ...)" when --top left rows out; nothing otherwise. */
void pf_aview_omitted(FILE *out, const pf_view_opts *v, const pf_device_report *d);
/* "GPU busy: span ..., busy ..., idle ..." */
void pf_aview_busy(FILE *out, const pf_busy *b);

/* The one rule for the shares every view prints: of the device's summed GPU activity time
 * (Time %, coverage), and of its span, first start to last end of GPU activity (busy %);
 * 0 when there is nothing to divide by. */
static inline double pf_aview_time_pct(const pf_device_report *d, int64_t ns)
{
    return d->total.total_ns ? 100.0 * (double)ns / (double)d->total.total_ns : 0;
}

static inline double pf_aview_span_ns(const pf_busy *b)
{
    return (double)(b->end_ns - b->start_ns);
}

static inline double pf_aview_span_pct(const pf_busy *b, int64_t ns)
{
    return pf_aview_span_ns(b) > 0 ? 100.0 * (double)ns / pf_aview_span_ns(b) : 0;
}

/* ---- why the GPU waits (waits_view.c) ---- */

/* The short block after the headline: time breakdown, idle by cause, launches, the deepest
 * queue; "- " items under a title in Markdown (md). Nothing for an empty span. */
void pf_wview_print(FILE *out, const pf_analysis *an, const pf_device_report *d, int md);
/* --waits: the breakdown per device and step, the idle causes and launch figures per device,
 * the kernel-duration histogram and the queues per stream, of device index `device` (-1: all),
 * in v->format (text and Markdown fitted to v->width; CSV with headers, tables separated
 * by an empty line). Returns 0, or -1 when memory runs out. */
int pf_wview_tables(FILE *out, const pf_view_opts *v, const pf_analysis *an, int device);
/* The device's JSON members breakdown, idle_causes, launch, queue and step_breakdown. */
void pf_wview_json(pf_jw *w, const pf_analysis *an, const pf_device_report *d);

/* ---- --diff (diff_view.c) ---- */

enum { PF_DVIEW_NCOLS = 19, PF_DVIEW_CAT_NCOLS = 5, PF_DVIEW_TITLE_MAX = 160 };

/* Columns whose titles name the runs ("NAME_A Total (us)"). */
typedef struct pf_dview_cols {
    pf_col cols[PF_DVIEW_NCOLS];
    char titles[PF_DVIEW_NCOLS][PF_DVIEW_TITLE_MAX];
} pf_dview_cols;

typedef struct pf_dview {
    const pf_view_opts *v;             /* borrowed; v->names are NAME_A and NAME_B */
    pf_dview_cols rows, cats;
    const pf_runs *runs;               /* several runs a side: intervals and verdicts; NULL: one */
} pf_dview;

/* Sets o up for v (which must outlive it, with both names set) and runs (NULL: one run a side). */
void pf_dview_init(pf_dview *o, const pf_view_opts *v, const pf_runs *runs);
/* Whether a row's bytes rest on a Triton launch read from the trace alone (a source "~lb"),
 * and the footnote that says what that is (analysis_notes.c: the one text for both views). */
int pf_view_row_lower_bound(const pf_row *r);
void pf_view_lower_bound_note(FILE *out);
/* Whether any row of a --diff device pair has such bytes on either side. */
int pf_view_diff_lower_bound(const pf_diff_device *d);
/* Whether --diff's column col (its index in the rows table) exists only with several runs on
 * a side: the interval and the verdict. */
int pf_dview_runs_only(int col);
/* The pair's rows: matched by change, then each side's own; with --top N the N rows of the
 * largest absolute change (B - A, a missing side 0); with rd (the pair's intervals, when
 * o->runs) the 95% interval and verdict columns. NULL when memory runs out. */
pf_table *pf_dview_rows(const pf_dview *o, const pf_diff_device *d, const pf_runs_device *rd);
/* How many rows pf_dview_rows shows. */
size_t pf_dview_shown(const pf_dview *o, const pf_diff_device *d);
/* The indices of the rows shown, in pf_dview_rows' order: every row in the diff's order, or
 * with --top the N with the largest absolute change (ties in the diff's order). Caller
 * frees; NULL when memory runs out. */
size_t *pf_dview_order(const pf_dview *o, const pf_diff_device *d);
/* The runs' pair at index i; NULL with one run a side. */
const pf_runs_device *pf_dview_runs_of(const pf_dview *o, int i);
/* --diff in text or Markdown (prose on out, wrapped; tables on raw, fitted) and in CSV (the
 * tables on out, notes on notes), diff_view.c. Return 0, or -1 when memory runs out. */
int pf_dview_text(FILE *out, FILE *raw, const pf_dview *o, const pf_diff *d);
int pf_dview_csv(FILE *out, FILE *notes, const pf_dview *o, const pf_diff *d);
/* "(N more rows with smaller changes: ...)" when --top left rows out; nothing otherwise. */
void pf_dview_omitted(FILE *out, const pf_dview *o, const pf_diff_device *d);
/* The categories either side ran, by combined time; NULL when memory runs out. */
pf_table *pf_dview_categories(const pf_dview *o, const pf_diff_device *d);
/* "Device pair I: NAME_A device N (...) vs NAME_B device M (...)" after lead. */
void pf_dview_header(FILE *out, const pf_dview *o, int pair, const pf_diff_device *d, const char *lead);
/* "Matched rows: N (exact N, ...); only in A: N, only in B: N" */
void pf_dview_levels(FILE *out, const pf_dview *o, const pf_diff_summary *s);
/* The GPU times, their ratio, the geomean with the time-weighted ratio and the matched shares
 * (three lines), and when the geomean and the time-weighted ratio point opposite ways a line
 * naming the rows behind each. */
void pf_dview_summary(FILE *out, const pf_dview *o, const pf_diff_device *d);
/* One line after lead naming the devices without a counterpart; nothing when there are none. */
void pf_dview_left_out(FILE *out, const pf_dview *o, const pf_diff *d, const char *lead);

/* The HTML report's module table of device d (src/render/modules_view.c): the module view's
 * rows at most PF_MODULES_REPORT_DEPTH levels deep, the PF_MODULES_REPORT_ROWS with the most
 * time, by their whole paths. NULL when memory runs out. */
#define PF_MODULES_REPORT_DEPTH 4
#define PF_MODULES_REPORT_ROWS 40
struct pf_module_view;
pf_table *pf_modules_report_table(const struct pf_module_view *mv, int d);

/* ---- --ranks (ranks_view.c), for the report ---- */

/* --ranks' four tables in the order text prints them. */
enum { PF_RVIEW_RANKS, PF_RVIEW_STEPS, PF_RVIEW_COLLS, PF_RVIEW_STRAGS, PF_RVIEW_TABLES };
/* Builds them into t (t[PF_RVIEW_STEPS] NULL when no rank has steps); the Trace cells relative
 * to the directory every path shares when rel. Returns 0, or -1 when memory runs out (free
 * what was built with pf_rview_free either way). */
int pf_rview_tables(pf_table *t[PF_RVIEW_TABLES], const pf_rank_summary *s, size_t n, const pf_ranks_report *rep,
                    const pf_culprit_report *cul, int rel);
void pf_rview_free(pf_table *t[PF_RVIEW_TABLES]);
/* The lines before the tables: ranks, collectives matched, sequence numbers, the link. */
void pf_rview_counts(FILE *out, const pf_rank_summary *s, size_t n, const pf_ranks_report *rep);
/* When no instance matched: one line saying why (in place of the collectives and stragglers
 * tables, which would be empty or zeros); returns 1, else 0 and prints nothing. */
int pf_rview_no_match(FILE *out, const pf_rank_summary *s, size_t n, const pf_ranks_report *rep);
/* The stragglers named in a sentence: the ranks last to start more often than their share
 * of the instances by more than chance, or "no clear straggler". Nothing when none matched. */
void pf_rview_stragglers(FILE *out, const pf_rank_summary *s, size_t n, const pf_ranks_report *rep);

#endif
