/* tabulate.h - the one table printer every subcommand renders through: text, CSV, JSON and Markdown. */
/* layer: render (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_TABULATE_H
#define PROFANA_TABULATE_H

#include <stdint.h>
#include <stdio.h>

#include "profana/jsonw.h"

/* PF_FMT_NDJSON: one JSON object a line per row of each table (--analysis and --ranks only). */
typedef enum pf_format { PF_FMT_TEXT = 0, PF_FMT_CSV, PF_FMT_JSON, PF_FMT_MD, PF_FMT_NDJSON } pf_format;

/* Parses "text", "csv", "json", "md"/"markdown". Returns 0 and sets *f, or -1. */
int pf_format_parse(const char *s, pf_format *f);

/* Where a column appears (pf_col.show); 0 = everywhere. JSON carries raw units (flop,
 * bytes) where text shows scaled ones (GFLOP, GB), so a few columns are per format. */
enum { PF_IN_TEXT = 1 /* text and Markdown */, PF_IN_CSV = 2, PF_IN_JSON = 4 };
/* A column text and Markdown show only when --columns names it (pf_text_fit.cols): with
 * PF_IN_CSV | PF_IN_JSON, a column always in CSV and JSON and on request in text. */
enum { PF_IN_PICK = 8 };

typedef struct pf_col {
    const char *title;         /* header in text, CSV and Markdown */
    const char *key;           /* key in JSON rows; NULL = not in JSON */
    int numeric;               /* right-aligned, a JSON number */
    unsigned show;             /* PF_IN_* mask; 0 = every format */
    const char *id;            /* its name for --columns; NULL: key, else title */
} pf_col;

/* Parses --columns' comma-separated LIST against the ncols columns that text shows: their
 * indices into out (at most max, in the order given). Returns how many, or -1 with err set
 * to "--columns: unknown column 'X'; the columns are: ..." (every name text knows). */
int pf_cols_pick(const pf_col *cols, int ncols, const char *list, int *out, int max, char *err, size_t errn);

typedef struct pf_table pf_table;

/* A table with ncols columns; cols must outlive it. NULL when memory runs out. */
pf_table *pf_table_new(const pf_col *cols, int ncols);
void pf_table_free(pf_table *t);

/* Keeps only the cells of the columns that show in where (PF_IN_*) or on request (PF_IN_PICK),
 * for a table printed in one format (a table of 250,000 kernels in text keeps 18 of its 30
 * columns); the others read as empty and their setters do nothing. Before the first row.
 * 0, or -1 when memory runs out. */
int pf_table_keep(pf_table *t, unsigned where);

/* Appends a row of empty (null) cells; returns its index, or -1 when memory runs out.
 * Cell setters ignore a row of -1, so callers check the table's state once at the end. */
int pf_table_add_row(pf_table *t);
/* Makes room for n rows in all, so that a table whose size is known holds no unused rows
 * (the rows double otherwise); 0, or -1 when memory runs out (the table stays as it was). */
int pf_table_reserve(pf_table *t, int n);
/* Marks a row as a summary: shown in text, CSV and Markdown, left out of pf_table_json_rows. */
void pf_table_row_summary(pf_table *t, int row);

void pf_table_str(pf_table *t, int row, int col, const char *s);
void pf_table_int(pf_table *t, int row, int col, int64_t v);
/* A number printed with `decimals` decimals in text/CSV/Markdown, and at full precision in JSON. */
void pf_table_num(pf_table *t, int row, int col, double v, int decimals);
/* A boolean: "true"/"false" in text and CSV, a JSON true/false. */
void pf_table_bool(pf_table *t, int row, int col, int v);
/* Appends a marker to the text of a cell (e.g. "!" for a figure over 100% of peak). On an
 * empty (null) cell the marker is the text that text and Markdown show instead of "-" (a
 * reason the figure is unknown); CSV and JSON still write the cell as empty / null. */
void pf_table_mark(pf_table *t, int row, int col, const char *marker);
/* Marks column col (below 64) as holding '+'-joined lists (Source: "estimate+gemm"): in a
 * text layout with a width, a row's list wider than 16 characters shows its first member and
 * how many more ("estimate+3"), and a summary row's list wider than the column shows "mixed"
 * instead of being cut; CSV, JSON, Markdown and --wide keep the whole list. */
void pf_table_list_col(pf_table *t, int col);
/* What text and Markdown show for a cell instead of its value (a shortened name): CSV and
 * JSON keep the value. One column of a table has labels. */
void pf_table_label(pf_table *t, int row, int col, const char *label);

/* 0 while every allocation succeeded, -1 after one failed. */
int pf_table_status(const pf_table *t);
int pf_table_rows(const pf_table *t);
/* Read access for renderers outside this file (the HTML report): the number of columns, a
 * column, the text a cell shows in text output (with its marker; NULL for an empty cell
 * without a reason;
 * NULL outside the table), and whether a row is a summary row. */
int pf_table_ncols(const pf_table *t);
const pf_col *pf_table_col(const pf_table *t, int col);
const char *pf_table_cell(const pf_table *t, int row, int col);
int pf_table_is_summary(const pf_table *t, int row);
/* Whether every cell of column col is empty with no reason shown: a fitted table passes over
 * such a column (pf_table_print_text_fit). */
int pf_table_col_empty(const pf_table *t, int col);

/* How a text or Markdown table fits a width. The name column is the first column text shows. */
typedef struct pf_text_fit {
    int name_limit;            /* names cut to at most N characters (0 = no limit) */
    int width;                 /* lines at most this wide, the name column taking what the others
                                  leave; 0 = no limit */
    const int *cols;           /* the columns to show besides the name column, most wanted first;
                                  NULL = every column text shows, in the table's order (with a
                                  width, the last ones that do not fit left out) */
    int ncols;
    int keep_all;              /* every one of cols shows even past width (--columns): only the
                                  name column shrinks, to no less than 10 characters */
    const int *ties;           /* pairs of columns (ties[2k], ties[2k + 1]) shown or left out
                                  together when a width leaves columns out (a figure and what
                                  it is of: Top % and Top Category); NULL: none */
    int nties;                 /* how many pairs */
    int in_order;              /* with a width: the wanted columns are a fixed priority; one that
                                  does not fit leaves out every one after it (a narrower column
                                  of less weight never shows in its place) */
    void (*cut)(char *s, int limit); /* cuts a name to limit characters in place (never longer);
                                  NULL: pf_name_cut, in the middle */
    int wrap_names;            /* text: a name wider than its column goes on on a second line
                                  (after its last comma that fits, indented by two), so it is cut
                                  to two lines' width instead of one */
} pf_text_fit;

/* Renders in the text layout of the old tool: cells padded, " | " between columns, a dashed
 * rule under the header; numbers right-aligned; columns in the table's order. With a width,
 * the columns of fit->cols that fit beside a name column of 30 characters (or the longest
 * name, when shorter) show, skipping those that do not, and the name column takes the rest.
 * Names longer than their column are cut in the middle (pf_name_cut); names that then read
 * the same while their values differ get " #2", " #3"... in table order. */
uint64_t pf_table_print_text_fit(FILE *out, const pf_table *t, const pf_text_fit *fit);
/* The same as a Markdown pipe table ('|' in a cell escaped). Both return the columns shown,
 * bit c for column c (0 when memory ran out and nothing printed), so footnotes can be given
 * for what is shown only. */
uint64_t pf_table_print_md_fit(FILE *out, const pf_table *t, const pf_text_fit *fit);
/* Every column, names cut to name_limit characters (0 = no limit), no width. */
void pf_table_print_text(FILE *out, const pf_table *t, int name_limit);
void pf_table_print_md(FILE *out, const pf_table *t, int name_limit);
/* One NDJSON line per row of t (its summary rows too): {"schema": PF_JSON_SCHEMA, "table":
 * table, "trace": trace, "device": device (left out when below 0), "kind": "row" or "total",
 * then the row's JSON members}, each ended by a newline. */
void pf_table_print_ndjson(FILE *out, const pf_table *t, const char *table, const char *trace, int64_t device);
/* RFC 4180 CSV; the header line only when header is non-zero. Names are never cut. A last
 * column, Kind, says what each line is: "total" for a summary row (Total), "row" otherwise. */
void pf_table_print_csv(FILE *out, const pf_table *t, int header);

/* A stream whose lines reach out wrapped to width characters (src/render/textwrap.c): a
 * longer line breaks at its last space that fits (inside a word wider than the line) and
 * goes on indented by two spaces. Unbuffered, so what it writes and what is written on out
 * directly (a table) keep their order. width 0 (or too small to wrap), or no memory: out
 * itself. Close with pf_wrap_close. */
FILE *pf_wrap_open(FILE *out, int width);
void pf_wrap_close(FILE *wrapped, const FILE *out);

/* Writes row `row` as a JSON object keyed by the columns' keys (null cells as null). */
void pf_table_json_row(pf_jw *w, const pf_table *t, int row);
/* The same members without the braces, inside an object the caller opened (to add its own
 * members before closing it). */
void pf_table_json_fields(pf_jw *w, const pf_table *t, int row);
/* Writes every non-summary row as an array of objects. */
void pf_table_json_rows(pf_jw *w, const pf_table *t);

/* Appends lead, then the --columns names (their ids) of cols[idx[0]], ..., cols[idx[count-1]]
 * joined by ", ", to s[0, used) (room for n). Returns the new length (n or more when cut). */
size_t pf_cols_join(char *s, size_t n, size_t used, const char *lead, const pf_col *cols, const int *idx, int count);

#endif
