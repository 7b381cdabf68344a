/* view.h - how --analysis, --diff and --list-devices print: the rendering options the command line picks, and each subcommand's view. */
/* layer: render (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_VIEW_H
#define PROFANA_VIEW_H

#include <stdio.h>

#include "profana/analysis.h"
#include "profana/diff.h"
#include "profana/ranks.h"
#include "profana/ranks_culprit.h"
#include "profana/ranks_inspector.h"
#include "profana/runs.h"
#include "profana/tabulate.h"

/* What the views need to know of the command line; src/cmd fills it from pf_cli
 * (pf_cli_view_opts), so nothing here depends on how options are spelled or parsed. */
typedef struct pf_view_opts {
    pf_format format;          /* --format */
    int name_limit;            /* --name_limit: names cut to N characters in text and Markdown; 0 = no cut */
    int top;                   /* --top: rows shown per device; 0 = every row */
    pf_group_by group;         /* --group: which keys the rows carry (titles the name column) */
    int by_category;           /* --by-category: one table per category (text, Markdown) */
    int waits;                 /* --waits: the tables of why the GPU waits after the devices' (text,
                                  Markdown), or instead of the rows tables (CSV) */
    int steps;                 /* --steps: the step table instead of the device tables */
    const char *names[2];      /* --diff: NAME_A and NAME_B; NULL for --analysis */
    const char *plot_roofline; /* --plot roofline FILE.svg; NULL when not asked */
    const char *plot_breakdown;/* --plot breakdown FILE.svg; NULL when not asked */
    const char *plot_timeline; /* --plot timeline FILE.svg (--analysis); NULL when not asked */
    const char *plot_ranks;    /* --plot ranks FILE.svg (--ranks); NULL when not asked */
    const char *report;        /* --report FILE.html; NULL when not asked */
    int width;                 /* text lines at most this wide ($COLUMNS, the terminal, else 100);
                                  0 = no limit and every column (--wide) */
    const char *columns;       /* --columns LIST: the rows table's columns (text and Markdown); NULL:
                                  the default ones that fit */
    int trace_notes;           /* --analysis text and Markdown: the trace's notes (pf_trace.notes)
                                  print after the first headline, with the Steps line; the caller
                                  left them off stderr */
} pf_view_opts;

/* Whether v->columns names only columns of the rows table of v's command (--diff when
 * v->names are set, else --analysis with v->group). Returns 0, or -1 with err holding
 * "--columns: unknown column 'X'; the columns are: ...". */
int pf_view_check_columns(const pf_view_opts *v, char *err, size_t n);

/* The first column v->columns names that --diff's table has only with several runs on a side
 * (v->names set: --diff), by its --columns name; NULL when none does. */
const char *pf_view_runs_column(const pf_view_opts *v);

/* The column names --columns' help lists, from the views' own column tables, into s (room for
 * n; cut when it does not fit): "--analysis: total_us, pct, ...; on request only: p50_us, ...;
 * --group op also calls, ...; --diff: a_count, ...". */
void pf_view_columns_help(char *s, size_t n);

/* --analysis in v->format on out: per device a header, counts, coverage, the rows table,
 * footnotes, categories (and per category with v->by_category), busy time and streams in
 * text and Markdown; the rows tables in CSV; one JSON document; or, with v->steps, the step
 * table. Returns 0, or -1 when memory runs out (out then holds part of it). */
int pf_view_analysis(FILE *out, const pf_view_opts *v, const pf_analysis *an);

/* --analysis --group module in v->format on out (src/render/modules_view.c): per device the
 * module tree (rows in mv's tree order, indented in text; rows deeper than depth levels left
 * out when depth > 0; with v->top the N with the most time), then the module classes, and
 * what share of GPU time went forward, backward and outside the modules; CSV: the tree's rows
 * with their device; JSON: one document. A trace without module calls gets one line saying
 * how to record them (stderr for CSV; a "note" in JSON). Returns 0, or -1 when memory runs out. */
struct pf_module_view;
int pf_view_modules(FILE *out, const pf_view_opts *v, const pf_analysis *an, const struct pf_module_view *mv,
                    int depth);

/* --analysis --group sequence in v->format on out (src/render/sequences_view.c): per device the
 * repeated kernel sequences by time (kernels joined by " > ", their count, time, share of the
 * device's kernel time and the ops that launched them); CSV: the rows with their device; JSON:
 * one document. Returns 0, or -1 when memory runs out. */
struct pf_seq_view;
int pf_view_sequences(FILE *out, const pf_view_opts *v, const pf_analysis *an, const struct pf_seq_view *sv);

/* --analysis --group critical-path in v->format on out (src/render/critical_path_view.c): one
 * row per step (the path's length, its share per part, the host's share and the verdict),
 * then the ops, calls and kernels with the most time on the paths; CSV: the step rows with
 * each part in us and the top contributor; JSON: one document with each step's contributors.
 * Returns 0, or -1 when memory runs out. */
struct pf_cp_view;
int pf_view_critical_path(FILE *out, const pf_view_opts *v, const pf_analysis *an, const struct pf_cp_view *cv);

/* --diff in v->format on out: per device pair a header, match levels, the rows table, the
 * summary and categories (text, Markdown), the rows tables (CSV) or one JSON document; with
 * runs (several runs a side; NULL: one), each row's and pair's 95% interval and verdict. The
 * devices one side had and the other lacked are named on out in text and Markdown, and on
 * notes (as "profana: note: ...") in CSV and JSON, so that out stays one table or document.
 * Returns 0, or -1 when memory runs out. */
int pf_view_diff(FILE *out, FILE *notes, const pf_view_opts *v, const pf_diff *d, const pf_runs *runs);

/* --list-devices in format on out: the device-file entries of set, then the built-in table
 * (set NULL: the built-in table): names matched, dense peaks per dtype, bandwidth, clocks and sources (text adds two lines saying what the figures are). Returns 0, or -1
 * when memory runs out (nothing written then). */
int pf_view_devices(FILE *out, pf_format format, int width, const pf_devset *set);

/* --ranks in format on out: the per-rank table, the collectives matched across ranks and the
 * stragglers, with lines saying how many instances matched and which link peak applies, a
 * sentence naming the stragglers (or "no clear straggler"), and where nothing matched one line
 * why in place of the collectives and stragglers tables (text and Markdown); the tables (ranks, steps when a rank has ProfilerSteps, collectives,
 * stragglers) one after another, separated by an empty line (CSV); or one JSON document
 * {ranks, steps, collectives, stragglers, matched, unmatched, no_args, link_gbps,
 * link_source, nodes, intra_node, inter_node, node_unknown_instances, culprits, late_arrivals,
 * culprit_threshold_us, culprit_windows, inspector}. After the
 * tables, the culprits (cul, pf_ranks_culprits: docs/ranks.md, "Culprits"). Text fits width (0: every column, no wrapping): prose wrapped, the tables'
 * columns that fit, trace paths relative to their common directory (text and Markdown).
 * insp (NULL: no NCCL Inspector logs were given) adds the Inspector's collectives after the
 * rest (JSON: the member "inspector", null without logs); with no Kineto rank (n 0) text,
 * Markdown and CSV print only them. Returns 0, or -1 when memory runs out. */
int pf_view_ranks(FILE *out, pf_format format, int width, const pf_rank_summary *s, size_t n,
                  const pf_ranks_report *rep, const pf_culprit_report *cul, const pf_insp_report *insp);

/* --summary: s as the JSON summary file that pf_rank_summary_read reads back (docs/ranks.md, "Rank
 * summaries": every member). Returns 0, or -1 when out reports a write error. */
int pf_view_rank_summary(FILE *out, const pf_rank_summary *s);

/* --analysis and profiler steps (src/render/steps_view.c): the line saying how many steps the
 * trace has and what is analysed (nothing when it has none); the --steps table in format
 * (text, CSV or Markdown; -1 when memory runs out; text fitted to width, 0 = none); the "steps" JSON member (likewise). */
void pf_steps_print_line(FILE *out, const pf_analysis *an);
int pf_steps_print_table(FILE *out, pf_format format, int width, const pf_analysis *an);
int pf_steps_json(pf_jw *w, const pf_analysis *an);

#endif
