/* tabulate.c - renders tables of cells as text, CSV, JSON and Markdown; knows nothing of traces. */
#include "profana/tabulate.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profana/jscan.h"

typedef enum cell_kind { CELL_NULL = 0, CELL_STR, CELL_INT, CELL_NUM, CELL_BOOL } cell_kind;

typedef struct cell {
    cell_kind kind;
    char *text;                /* what text/CSV/Markdown show */
    double num;                /* CELL_NUM: the value JSON writes */
    int64_t i;                 /* CELL_INT */
} cell;

struct pf_table {
    const pf_col *cols;
    int ncols;
    cell *cells;               /* rows x ncols */
    unsigned char *summary;
    int nrows, cap;
    int failed;
};

int pf_format_parse(const char *s, pf_format *f)
{
    static const struct {
        const char *name;
        pf_format f;
    } names[] = {{"text", PF_FMT_TEXT}, {"csv", PF_FMT_CSV}, {"json", PF_FMT_JSON},
                 {"md", PF_FMT_MD},     {"markdown", PF_FMT_MD}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(s, names[i].name) == 0) {
            *f = names[i].f;
            return 0;
        }
    return -1;
}

pf_table *pf_table_new(const pf_col *cols, int ncols)
{
    pf_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->cols = cols;
    t->ncols = ncols;
    return t;
}

void pf_table_free(pf_table *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->nrows * t->ncols; i++)
        free(t->cells[i].text);
    free(t->cells);
    free(t->summary);
    free(t);
}

int pf_table_add_row(pf_table *t)
{
    if (t->nrows == t->cap) {
        int cap = t->cap ? t->cap * 2 : 32;
        cell *cells = realloc(t->cells, (size_t)cap * (size_t)t->ncols * sizeof *cells);
        if (!cells) {
            t->failed = 1;
            return -1;
        }
        t->cells = cells;
        unsigned char *sum = realloc(t->summary, (size_t)cap);
        if (!sum) {
            t->failed = 1;
            return -1;
        }
        t->summary = sum;
        t->cap = cap;
    }
    memset(&t->cells[(size_t)t->nrows * (size_t)t->ncols], 0, (size_t)t->ncols * sizeof(cell));
    t->summary[t->nrows] = 0;
    return t->nrows++;
}

static cell *cell_at(pf_table *t, int row, int col)
{
    if (row < 0 || row >= t->nrows || col < 0 || col >= t->ncols)
        return NULL;
    return &t->cells[(size_t)row * (size_t)t->ncols + (size_t)col];
}

static const cell *cell_get(const pf_table *t, int row, int col)
{
    assert(row >= 0 && row < t->nrows && col >= 0 && col < t->ncols);
    return &t->cells[(size_t)row * (size_t)t->ncols + (size_t)col];
}

void pf_table_row_summary(pf_table *t, int row)
{
    if (row >= 0 && row < t->nrows)
        t->summary[row] = 1;
}

static void set_text(pf_table *t, cell *c, cell_kind kind, const char *text)
{
    free(c->text);
    c->text = strdup(text);
    c->kind = kind;
    if (!c->text) {
        t->failed = 1;
        c->kind = CELL_NULL;
    }
}

void pf_table_str(pf_table *t, int row, int col, const char *s)
{
    cell *c = cell_at(t, row, col);
    if (c && s)
        set_text(t, c, CELL_STR, s);
}

void pf_table_int(pf_table *t, int row, int col, int64_t v)
{
    cell *c = cell_at(t, row, col);
    char buf[32];
    if (!c)
        return;
    snprintf(buf, sizeof buf, "%" PRId64, v);
    set_text(t, c, CELL_INT, buf);
    c->i = v;
}

void pf_table_bool(pf_table *t, int row, int col, int v)
{
    cell *c = cell_at(t, row, col);
    if (c)
        set_text(t, c, CELL_BOOL, v ? "true" : "false");
}

void pf_table_num(pf_table *t, int row, int col, double v, int decimals)
{
    cell *c = cell_at(t, row, col);
    char buf[64];
    if (!c)
        return;
    if (!isfinite(v))
        return;
    snprintf(buf, sizeof buf, "%.*f", decimals, v);
    set_text(t, c, CELL_NUM, buf);
    c->num = v;
}

void pf_table_mark(pf_table *t, int row, int col, const char *marker)
{
    cell *c = cell_at(t, row, col);
    if (!c)
        return;
    if (!c->text) {
        /* an unknown figure with a reason: text and Markdown show the marker instead of "-",
         * CSV and JSON keep the null */
        set_text(t, c, CELL_NULL, marker);
        return;
    }
    size_t n = strlen(c->text), m = strlen(marker);
    char *s = realloc(c->text, n + m + 1);
    if (!s) {
        t->failed = 1;
        return;
    }
    memcpy(s + n, marker, m + 1);
    c->text = s;
}

int pf_table_status(const pf_table *t)
{
    return t->failed ? -1 : 0;
}

int pf_table_rows(const pf_table *t)
{
    return t->nrows;
}

int pf_table_ncols(const pf_table *t)
{
    return t->ncols;
}

const pf_col *pf_table_col(const pf_table *t, int col)
{
    return col >= 0 && col < t->ncols ? &t->cols[col] : NULL;
}

const char *pf_table_cell(const pf_table *t, int row, int col)
{
    if (row < 0 || row >= t->nrows || col < 0 || col >= t->ncols)
        return NULL;
    const cell *c = cell_get(t, row, col);
    return c->text; /* NULL when empty, or an empty cell's reason (pf_table_mark) */
}

int pf_table_is_summary(const pf_table *t, int row)
{
    return row >= 0 && row < t->nrows && t->summary[row];
}

/* ---- text and Markdown ---- */

static int shown_in(const pf_table *t, int col, unsigned where)
{
    return !t->cols[col].show || (t->cols[col].show & where);
}

static int visible(const pf_table *t, int col)
{
    return shown_in(t, col, PF_IN_TEXT);
}

static int first_visible(const pf_table *t)
{
    for (int c = 0; c < t->ncols; c++)
        if (visible(t, c))
            return c;
    return -1;
}

/* Display width in characters: UTF-8 continuation bytes take no column. */
static size_t text_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

/* Bytes of s that hold its first `limit` characters, never splitting a UTF-8 sequence. */
static size_t prefix_bytes(const char *s, size_t limit)
{
    size_t w = 0, i = 0;
    for (; s[i]; i++) {
        if (((unsigned char)s[i] & 0xC0) != 0x80) {
            if (w == limit)
                break;
            w++;
        }
    }
    return i;
}

/* The text shown for a cell: "-" for null; the name column (the first one text shows)
 * cut to limit with "...". */
static const char *shown(const pf_table *t, const cell *c, int col, int limit, char *buf, size_t n)
{
    if (c->kind == CELL_NULL)
        return c->text ? c->text : "-";
    if (col != first_visible(t) || limit <= 0 || text_width(c->text) <= (size_t)limit)
        return c->text;
    size_t keep = limit > 3 ? prefix_bytes(c->text, (size_t)limit - 3) : prefix_bytes(c->text, (size_t)limit);
    if (keep + 4 > n)
        keep = n - 4;
    memcpy(buf, c->text, keep);
    strcpy(buf + keep, limit > 3 ? "..." : "");
    return buf;
}


static void column_widths(const pf_table *t, int limit, size_t *w)
{
    char buf[4096];
    for (int c = 0; c < t->ncols; c++) {
        w[c] = text_width(t->cols[c].title);
        for (int r = 0; r < t->nrows; r++) {
            size_t cw = text_width(shown(t, cell_get(t, r, c), c, limit, buf, sizeof buf));
            if (cw > w[c])
                w[c] = cw;
        }
    }
}

static void pad(FILE *out, size_t n)
{
    for (; n > 0; n--)
        fputc(' ', out);
}

static void print_cell(FILE *out, const char *s, size_t width, int right)
{
    size_t sw = text_width(s);
    if (right)
        pad(out, width - sw);
    fputs(s, out);
    if (!right)
        pad(out, width - sw);
}

static void print_line(FILE *out, const pf_table *t, int row, const size_t *w, int limit, const char *sep,
                       const char *lead, const char *trail)
{
    char buf[4096];
    int first = 1, last = -1;
    for (int c = 0; c < t->ncols; c++)
        if (visible(t, c))
            last = c;
    fputs(lead, out);
    for (int c = 0; c < t->ncols; c++) {
        if (!visible(t, c))
            continue;
        if (!first)
            fputs(sep, out);
        first = 0;
        const char *s = row < 0 ? t->cols[c].title : shown(t, cell_get(t, row, c), c, limit, buf, sizeof buf);
        int right = t->cols[c].numeric && row >= 0;
        /* No trailing blanks: the last cell is padded only when right-aligned or framed. */
        if (c == last && !right && !*trail)
            fputs(s, out);
        else
            print_cell(out, s, w[c], right);
    }
    fputs(trail, out);
    fputc('\n', out);
}

static size_t line_width(const pf_table *t, const size_t *w)
{
    size_t total = 0;
    int n = 0;
    for (int c = 0; c < t->ncols; c++)
        if (visible(t, c)) {
            total += w[c];
            n++;
        }
    return total + (n > 1 ? (size_t)(n - 1) * 3 : 0);
}

/* A text or Markdown cell is one line: a name's tabs and newlines (the only control
 * characters the model keeps, for CSV and JSON) are shown as spaces, and Markdown escapes
 * '|'; in a copy of the cells. */
static void line_cells(const pf_table *t, pf_table *copy, int md)
{
    for (int i = 0; i < t->nrows * t->ncols; i++) {
        const char *s = t->cells[i].text;
        if (!s || !strpbrk(s, md ? "|\n\t" : "\n\t"))
            continue;
        char *e = malloc(strlen(s) * 2 + 1), *o = e;
        if (!e)
            continue;
        for (; *s; s++) {
            if (md && *s == '|')
                *o++ = '\\';
            *o++ = *s == '\n' || *s == '\t' ? ' ' : *s;
        }
        *o = 0;
        copy->cells[i].text = e;
    }
}

/* A copy of t whose cells are one line each (line_cells); NULL cells when memory runs out. */
static pf_table line_copy(const pf_table *t, int md)
{
    pf_table copy = *t;
    copy.cells = malloc((size_t)(t->nrows ? t->nrows : 1) * (size_t)t->ncols * sizeof(cell));
    if (!copy.cells)
        return copy;
    memcpy(copy.cells, t->cells, (size_t)t->nrows * (size_t)t->ncols * sizeof(cell));
    line_cells(t, &copy, md);
    return copy;
}

static void free_line_copy(const pf_table *t, pf_table *copy)
{
    for (int i = 0; i < t->nrows * t->ncols; i++)
        if (copy->cells[i].text != t->cells[i].text)
            free(copy->cells[i].text);
    free(copy->cells);
}

void pf_table_print_text(FILE *out, const pf_table *t, int name_limit)
{
    size_t w[64];
    if (t->ncols > 64)
        return;
    pf_table copy = line_copy(t, 0);
    if (!copy.cells)
        return;
    column_widths(&copy, name_limit, w);
    print_line(out, &copy, -1, w, name_limit, " | ", "", "");
    for (size_t i = line_width(&copy, w); i > 0; i--)
        fputc('-', out);
    fputc('\n', out);
    for (int r = 0; r < t->nrows; r++)
        print_line(out, &copy, r, w, name_limit, " | ", "", "");
    free_line_copy(t, &copy);
}

void pf_table_print_md(FILE *out, const pf_table *t, int name_limit)
{
    size_t w[64];
    if (t->ncols > 64)
        return;
    pf_table copy = line_copy(t, 1);
    if (!copy.cells)
        return;
    column_widths(&copy, name_limit, w);
    print_line(out, &copy, -1, w, name_limit, " | ", "| ", " |");
    fputs("|", out);
    for (int c = 0; c < t->ncols; c++) {
        if (!visible(t, c))
            continue;
        fputc(t->cols[c].numeric ? '-' : ':', out);
        for (size_t i = 0; i < w[c]; i++)
            fputc('-', out);
        fputs(t->cols[c].numeric ? ":|" : "-|", out);
    }
    fputc('\n', out);
    for (int r = 0; r < t->nrows; r++)
        print_line(out, &copy, r, w, name_limit, " | ", "| ", " |");
    free_line_copy(t, &copy);
}

/* ---- CSV ---- */

static void csv_field(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

void pf_table_print_csv(FILE *out, const pf_table *t, int header)
{
    for (int r = header ? -1 : 0; r < t->nrows; r++) {
        int first = 1;
        for (int c = 0; c < t->ncols; c++) {
            if (!shown_in(t, c, PF_IN_CSV))
                continue;
            if (!first)
                fputc(',', out);
            first = 0;
            if (r < 0)
                csv_field(out, t->cols[c].title);
            else if (cell_get(t, r, c)->kind != CELL_NULL)
                csv_field(out, cell_get(t, r, c)->text);
        }
        fputc('\n', out);
    }
}

/* ---- JSON ---- */

void pf_jw_init(pf_jw *w, FILE *out)
{
    memset(w, 0, sizeof *w);
    w->out = out;
}

static void jw_sep(pf_jw *w)
{
    if (w->need_comma[w->depth])
        fputc(',', w->out);
    w->need_comma[w->depth] = 1;
}

static void jw_open(pf_jw *w, char c)
{
    jw_sep(w);
    fputc(c, w->out);
    if (w->depth < 63)
        w->depth++;
    w->need_comma[w->depth] = 0;
}

static void jw_close(pf_jw *w, char c)
{
    fputc(c, w->out);
    if (w->depth > 0)
        w->depth--;
}

void pf_jw_obj_begin(pf_jw *w)
{
    jw_open(w, '{');
}

void pf_jw_obj_end(pf_jw *w)
{
    jw_close(w, '}');
}

void pf_jw_arr_begin(pf_jw *w)
{
    jw_open(w, '[');
}

void pf_jw_arr_end(pf_jw *w)
{
    jw_close(w, ']');
}

/* Names from the trace are clean already; a path from the command line need not be: the
 * same rule (pf_json_text_dup) keeps every JSON document valid UTF-8. */
static void jw_string(FILE *out, const char *s)
{
    char *clean = pf_json_text_dup(s);
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)(clean ? clean : s); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
    free(clean);
}

void pf_jw_key(pf_jw *w, const char *k)
{
    jw_sep(w);
    jw_string(w->out, k);
    fputc(':', w->out);
    /* The value that follows must not write another comma. */
    w->need_comma[w->depth] = 0;
}

static void jw_value_done(pf_jw *w)
{
    w->need_comma[w->depth] = 1;
}

void pf_jw_str(pf_jw *w, const char *s)
{
    if (!s) {
        pf_jw_null(w);
        return;
    }
    jw_sep(w);
    jw_string(w->out, s);
    jw_value_done(w);
}

void pf_jw_num(pf_jw *w, double v)
{
    if (!isfinite(v)) {
        pf_jw_null(w);
        return;
    }
    jw_sep(w);
    if (v == floor(v) && fabs(v) < 1e15)
        fprintf(w->out, "%.0f", v);
    else
        fprintf(w->out, "%.17g", v);
    jw_value_done(w);
}

void pf_jw_int(pf_jw *w, int64_t v)
{
    jw_sep(w);
    fprintf(w->out, "%" PRId64, v);
    jw_value_done(w);
}

void pf_jw_bool(pf_jw *w, int v)
{
    jw_sep(w);
    fputs(v ? "true" : "false", w->out);
    jw_value_done(w);
}

void pf_jw_null(pf_jw *w)
{
    jw_sep(w);
    fputs("null", w->out);
    jw_value_done(w);
}

void pf_table_json_fields(pf_jw *w, const pf_table *t, int row)
{
    for (int c = 0; c < t->ncols; c++) {
        const cell *x = cell_get(t, row, c);
        if (!t->cols[c].key || !shown_in(t, c, PF_IN_JSON))
            continue;
        pf_jw_key(w, t->cols[c].key);
        switch (x->kind) {
        case CELL_NULL:
            pf_jw_null(w);
            break;
        case CELL_STR:
            pf_jw_str(w, x->text);
            break;
        case CELL_INT:
            pf_jw_int(w, x->i);
            break;
        case CELL_NUM:
            pf_jw_num(w, x->num);
            break;
        case CELL_BOOL:
            pf_jw_bool(w, strcmp(x->text, "true") == 0);
            break;
        }
    }
}

void pf_table_json_row(pf_jw *w, const pf_table *t, int row)
{
    pf_jw_obj_begin(w);
    pf_table_json_fields(w, t, row);
    pf_jw_obj_end(w);
}

void pf_table_json_rows(pf_jw *w, const pf_table *t)
{
    pf_jw_arr_begin(w);
    for (int r = 0; r < t->nrows; r++)
        if (!t->summary[r])
            pf_table_json_row(w, t, r);
    pf_jw_arr_end(w);
}
