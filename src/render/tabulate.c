/* tabulate.c - renders tables of cells as text, CSV, JSON and Markdown; knows nothing of traces. */
#include "profana/tabulate.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profana/names.h"

#include "tabulate_cells.h"

int pf_format_parse(const char *s, pf_format *f)
{
    static const struct {
        const char *name;
        pf_format f;
    } names[] = {{"text", PF_FMT_TEXT}, {"csv", PF_FMT_CSV}, {"json", PF_FMT_JSON}, {"ndjson", PF_FMT_NDJSON},
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
    t->stride = ncols;
    t->label_col = -1;
    return t;
}

int pf_table_keep(pf_table *t, unsigned where)
{
    assert(t && !t->cap && !t->slot);
    if (!(t->slot = malloc((size_t)(t->ncols ? t->ncols : 1) * sizeof *t->slot)))
        return -1;
    t->stride = 0;
    for (int c = 0; c < t->ncols; c++)
        t->slot[c] = shown_in(t, c, where) || (t->cols[c].show & PF_IN_PICK) ? t->stride++ : -1;
    return 0;
}

/* The cells' texts one after another in blocks (100,000 rows hold two million short texts: 32
 * bytes each through malloc); one replaced stays until the table is freed. */
typedef struct text_block {
    struct text_block *next;
    size_t used, cap;
    char data[];
} text_block;

enum { TEXT_BLOCK = 64 * 1024 };

/* A copy of the n bytes of s, then a NUL, n + extra + 1 bytes in all, in t's blocks; NULL when
 * memory runs out. */
static char *table_text(pf_table *t, const char *s, size_t n, size_t extra)
{
    size_t need = n + extra + 1;
    text_block *b = t->texts;
    if (!b || b->cap - b->used < need) {
        size_t cap = need > TEXT_BLOCK ? need : TEXT_BLOCK;
        if (!(b = malloc(sizeof *b + cap)))
            return NULL;
        *b = (text_block){.next = t->texts, .cap = cap};
        t->texts = b;
    }
    char *out = b->data + b->used;
    b->used += need;
    memcpy(out, s, n);
    out[n] = 0;
    return out;
}

void pf_table_free(pf_table *t)
{
    if (!t)
        return;
    for (text_block *b = t->texts, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(t->cells);
    free(t->kinds);
    free(t->slot);
    free(t->summary);
    free(t->labels);
    free(t);
}

/* Room for cap rows: 0, or -1 when memory runs out (the table as it was). */
static int table_grow(pf_table *t, int cap)
{
    assert(cap > t->cap);
    cell *cells = realloc(t->cells, (size_t)cap * (size_t)t->stride * sizeof *cells);
    if (!cells)
        return -1;
    t->cells = cells;
    unsigned char *kinds = realloc(t->kinds, (size_t)cap * (size_t)t->stride);
    if (!kinds)
        return -1;
    t->kinds = kinds;
    unsigned char *sum = realloc(t->summary, (size_t)cap);
    if (!sum)
        return -1;
    t->summary = sum;
    if (t->labels) {
        char **labels = realloc(t->labels, (size_t)cap * sizeof *labels);
        if (!labels)
            return -1;
        t->labels = labels;
    }
    t->cap = cap;
    return 0;
}

int pf_table_reserve(pf_table *t, int n)
{
    assert(t && n >= 0);
    return n <= t->cap ? 0 : table_grow(t, n);
}

int pf_table_add_row(pf_table *t)
{
    if (t->nrows == t->cap && table_grow(t, t->cap ? t->cap * 2 : 32)) {
        t->failed = 1;
        return -1;
    }
    memset(&t->cells[(size_t)t->nrows * (size_t)t->stride], 0, (size_t)t->stride * sizeof(cell));
    memset(&t->kinds[(size_t)t->nrows * (size_t)t->stride], CELL_NULL, (size_t)t->stride);
    t->summary[t->nrows] = 0;
    if (t->labels)
        t->labels[t->nrows] = NULL;
    return t->nrows++;
}

static cell *cell_at(pf_table *t, int row, int col)
{
    if (row < 0 || row >= t->nrows || col < 0 || col >= t->ncols)
        return NULL;
    long i = cell_index(t, row, col);
    return i < 0 ? NULL : &t->cells[i];
}

void pf_table_row_summary(pf_table *t, int row)
{
    if (row >= 0 && row < t->nrows)
        t->summary[row] = 1;
}

static void set_text(pf_table *t, cell *c, cell_kind kind, const char *text)
{
    c->text = table_text(t, text, strlen(text), 0);
    t->kinds[c - t->cells] = (unsigned char)(c->text ? kind : CELL_NULL);
    if (!c->text)
        t->failed = 1;
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

/* "%.*f" of v without printf where the digits are certain: v * 10^decimals below 2^40 (the
 * product's rounding error under 2^-12) and not within 10^-3 of a half (where printf's exact
 * rounding of the binary value could go the other way). Returns 0 when it wrote buf, -1 when
 * printf must. printf's floating-point path was a fifth of --ranks over 10,000 summaries
 * (docs/performance.md). */
static int fixed_digits(double v, int decimals, char *buf, size_t cap)
{
    static const double scale[] = {1, 10, 100, 1000, 10000, 100000, 1000000};
    if (decimals < 0 || decimals > 6 || cap < 48)
        return -1;
    double x = fabs(v) * scale[decimals];
    if (!(x < 1099511627776.0))
        return -1;
    double whole = floor(x), frac = x - whole;
    if (fabs(frac - 0.5) < 1e-3)
        return -1;
    uint64_t k = (uint64_t)whole + (frac > 0.5);
    char digits[32];
    int n = 0;
    do {
        digits[n++] = (char)('0' + k % 10);
        k /= 10;
    } while (k);
    while (n <= decimals) /* at least one digit before the point */
        digits[n++] = '0';
    size_t at = 0;
    if (signbit(v))
        buf[at++] = '-';
    for (int i = n - 1; i >= 0; i--) {
        buf[at++] = digits[i];
        if (i == decimals && decimals > 0)
            buf[at++] = '.';
    }
    buf[at] = '\0';
    return 0;
}

void pf_table_num(pf_table *t, int row, int col, double v, int decimals)
{
    cell *c = cell_at(t, row, col);
    char buf[64];
    if (!c)
        return;
    if (!isfinite(v))
        return;
    if (fixed_digits(v, decimals, buf, sizeof buf))
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
    char *s = table_text(t, c->text, n, m);
    if (!s) {
        t->failed = 1;
        return;
    }
    memcpy(s + n, marker, m + 1);
    c->text = s;
}

void pf_table_list_col(pf_table *t, int col)
{
    assert(t && col >= 0 && col < t->ncols && col < 64);
    t->lists |= (uint64_t)1 << col;
}

void pf_table_label(pf_table *t, int row, int col, const char *label)
{
    cell *c = cell_at(t, row, col);
    if (!c || !label)
        return;
    assert(t->label_col < 0 || t->label_col == col); /* one column of labels a table */
    if (!t->labels && !(t->labels = calloc((size_t)t->cap, sizeof *t->labels))) {
        t->failed = 1;
        return;
    }
    t->label_col = col;
    if (!(t->labels[row] = table_text(t, label, strlen(label), 0)))
        t->failed = 1;
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

static int visible(const pf_table *t, int col)
{
    return shown_in(t, col, PF_IN_TEXT);
}

/* Shown in text when --columns names it (PF_IN_PICK) or always (visible). */
static int pickable(const pf_table *t, int col)
{
    return visible(t, col) || (t->cols[col].show & PF_IN_PICK);
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

/* A table laid out for text or Markdown: which columns show, their widths, and every cell as
 * one line (a name's tabs and newlines, the only control characters the model keeps for CSV
 * and JSON, shown as spaces; Markdown escapes '|'), the name column shortened and cut. */
typedef struct layout {
    unsigned char show[64];
    size_t w[64];
    char **text;               /* rows x ncols; NULL for an empty cell */
    int name;                  /* the name column: the first one text shows */
} layout;

/* Bytes one_line writes for s, its NUL included. */
static size_t one_line_size(const char *s, int md)
{
    size_t n = 1;
    for (; *s; s++)
        n += 1 + (md && *s == '|');
    return n;
}

static char *one_line(const char *s, int md)
{
    char *e = malloc(one_line_size(s, md)), *o = e;
    if (!e)
        return NULL;
    for (; *s; s++) {
        if (md && *s == '|')
            *o++ = '\\';
        *o++ = *s == '\n' || *s == '\t' ? ' ' : *s;
    }
    *o = 0;
    return e;
}

static const char no_value[] = "-";

/* The label of cell i (row-major), or NULL. */
static const char *label_of(const pf_table *t, size_t i)
{
    size_t ncols = (size_t)t->ncols;
    return t->labels && (int)(i % ncols) == t->label_col ? t->labels[i / ncols] : NULL;
}

/* Whether layout text l->text[i] is the cell's own (a number shown as it is), not a copy. */
static int shared_text(const pf_table *t, const layout *l, size_t i)
{
    const char *s = l->text[i];
    int ncols = t->ncols;
    return s == no_value || s == cell_get(t, (int)(i / (size_t)ncols), (int)(i % (size_t)ncols))->text ||
           s == label_of(t, i);
}

static void layout_free(const pf_table *t, layout *l)
{
    if (!l->text)
        return;
    for (size_t i = 0; i < (size_t)t->nrows * (size_t)t->ncols; i++)
        if (!shared_text(t, l, i))
            free(l->text[i]);
    free(l->text);
    l->text = NULL;
}

/* The cells as text and Markdown show them: "-" or the reason for an empty cell, the label
 * instead of the value where there is one. A row costs what it prints: the columns text does
 * not show get no text (""), and a numeric cell that needs no change (it is never cut) is
 * the cell's own text, not a copy; only the other cells are copied, to their size. (A copy
 * of every cell at twice its length took 2.3 KB a row: 3.2 GB for 1M kernel names.) -1 when
 * memory runs out. */
static int layout_cells(const pf_table *t, layout *l, int md)
{
    size_t n = (size_t)t->nrows * (size_t)t->ncols;
    l->text = calloc(n ? n : 1, sizeof *l->text);
    if (!l->text)
        return -1;
    for (size_t i = 0; i < n; i++) {
        int col = (int)(i % (size_t)t->ncols);
        const cell *c = cell_get(t, (int)(i / (size_t)t->ncols), col);
        const char *s = label_of(t, i) ? label_of(t, i) : c->text ? c->text : no_value;
        if (!pickable(t, col))
            l->text[i] = (char *)no_value; /* never shown, measured or cut */
        else if (t->cols[col].numeric && col != l->name && one_line_size(s, md) == strlen(s) + 1 && !strpbrk(s, "\t\n"))
            l->text[i] = (char *)s;
        else if (!(l->text[i] = one_line(s, md)))
            return -1;
    }
    return 0;
}

/* A list cell of a fitted table ('+'-joined, pf_table_list_col) wider than this shows its
 * first member and how many more ("estimate+3"): the column stays narrow enough to keep its
 * place, and the footnote under the table explains every member. */
#define LIST_MAX 16

static int is_list(const pf_table *t, int col)
{
    return col < 64 && (t->lists >> col & 1);
}

/* s shortened in place to "FIRST+N" when it lists more than one member and is wider than max. */
static void list_shorten(char *s, size_t max)
{
    char *plus = strchr(s, '+');
    if (!plus || text_width(s) <= max)
        return;
    int more = 0;
    for (char *p = plus; p; p = strchr(p + 1, '+'))
        more++;
    snprintf(plus, strlen(plus) + 1, "+%d", more);
}

/* A summary row's list cell (every member of its rows) wider than its column reads "mixed":
 * a cut list ("est...ion") names nothing; the footnote lists them. */
static void list_summary(char *s, size_t w)
{
    static const char mixed[] = "mixed";
    if (text_width(s) > w && w >= sizeof mixed - 1)
        memcpy(s, mixed, sizeof mixed);
}

/* A fitted table's summary row (Total) does not widen a text column other than the name: its
 * cell lists what its rows hold (every Source), and is cut to the rows' width instead. */
static int summary_cut(const pf_table *t, const layout *l, int c, int r, int fitted)
{
    return fitted && t->summary[r] && c != l->name && !t->cols[c].numeric;
}

static size_t col_width(const pf_table *t, const layout *l, int c, int fitted)
{
    size_t w = text_width(t->cols[c].title);
    for (int r = 0; r < t->nrows; r++) {
        size_t cw = text_width(l->text[(size_t)r * (size_t)t->ncols + (size_t)c]);
        if (cw > w && !summary_cut(t, l, c, r, fitted))
            w = cw;
    }
    return w;
}

/* Whether every cell of column c is empty with no reason ("-"): nothing a narrow table needs. */
static int all_empty(const pf_table *t, int c)
{
    for (int r = 0; r < t->nrows; r++) {
        const cell *x = cell_get(t, r, c);
        if (cell_kind_get(t, r, c) != CELL_NULL || x->text)
            return 0;
    }
    return 1;
}

int pf_table_col_empty(const pf_table *t, int col)
{
    assert(t && col >= 0 && col < t->ncols);
    return all_empty(t, col);
}

/* A name column narrower than this share of the width (or than NAME_MIN) gives up the other
 * columns that fit.wanted lists, last first: a name cut short reads as noise. */
#define NAME_SHARE 0.4
#define NAME_MIN 30
/* The narrowest a name column is cut to when the columns named by --columns leave less. */
#define NAME_FLOOR 10

/* The least width the name column keeps beside the wanted columns. */
static size_t name_need(const pf_text_fit *fit, size_t name_w)
{
    size_t need = (size_t)(fit->width * NAME_SHARE);
    if (need < NAME_MIN)
        need = NAME_MIN;
    return name_w < need ? name_w : need;
}

/* The column tied to c by fit->ties (shown or left out with it), or -1. */
static int tie_of(const pf_text_fit *fit, int c)
{
    for (int k = 0; fit->ties && k < fit->nties; k++) {
        if (fit->ties[2 * k] == c)
            return fit->ties[2 * k + 1];
        if (fit->ties[2 * k + 1] == c)
            return fit->ties[2 * k];
    }
    return -1;
}

/* Picks the columns (fit->cols, or every visible one) and sets every width; returns the name
 * column's width, to which the names are still to be cut. */
static size_t layout_columns(const pf_table *t, layout *l, const pf_text_fit *fit)
{
    for (int r = 0; fit->width > 0 && r < t->nrows; r++)
        for (int c = 0; c < t->ncols; c++) {
            size_t i = (size_t)r * (size_t)t->ncols + (size_t)c;
            if (is_list(t, c) && !t->summary[r] && !shared_text(t, l, i))
                list_shorten(l->text[i], LIST_MAX);
        }
    for (int c = 0; c < t->ncols; c++) {
        l->w[c] = col_width(t, l, c, fit->width > 0);
        l->show[c] = visible(t, c) && !fit->cols && fit->width <= 0;
    }
    size_t name_w = l->w[l->name];
    if (fit->name_limit > 0 && name_w > (size_t)fit->name_limit)
        name_w = (size_t)fit->name_limit > text_width(t->cols[l->name].title) ? (size_t)fit->name_limit
                                                                              : text_width(t->cols[l->name].title);
    l->show[l->name] = 1;
    size_t used = 0; /* widths and separators of the shown columns but the name */
    size_t need = name_need(fit, name_w);
    /* a width and no list: every column in the table's order, the last ones left out first */
    int all = !fit->cols && fit->width > 0, n = fit->cols ? fit->ncols : all ? t->ncols : 0;
    unsigned char dropped[64] = {0};
    int stopped = 0; /* fit->in_order: a wanted column did not fit, so none after it shows */
    for (int k = 0; k < n; k++) {
        int c = fit->cols ? fit->cols[k] : k;
        if (c < 0 || c >= t->ncols || c == l->name || !(fit->cols ? pickable(t, c) : visible(t, c)) || l->show[c])
            continue;
        /* a tied column that is not shown yet comes with c, or c stays out with it */
        int p = fit->keep_all || fit->width <= 0 ? -1 : tie_of(fit, c);
        int with = p >= 0 && p < t->ncols && p != l->name && visible(t, p) && !l->show[p];
        if (with && dropped[p]) {
            dropped[c] = 1;
            continue;
        }
        size_t add = 3 + l->w[c] + (with ? 3 + l->w[p] : 0);
        int over = need + used + add > (size_t)fit->width;
        if (!fit->keep_all && fit->width > 0 && (stopped || over || (!all && all_empty(t, c)))) {
            dropped[c] = 1;
            stopped |= over && fit->in_order;
            continue;
        }
        l->show[c] = 1;
        if (with)
            l->show[p] = 1;
        used += add;
    }
    if (!fit->cols && !all)
        for (int c = 0; c < t->ncols; c++)
            used += l->show[c] && c != l->name ? 3 + l->w[c] : 0;
    if (fit->width > 0 && used + name_w > (size_t)fit->width)
        name_w = (size_t)fit->width > used + NAME_FLOOR ? (size_t)fit->width - used : NAME_FLOOR;
    for (int r = 0; r < t->nrows; r++)
        for (int c = 0; c < t->ncols; c++)
            if (summary_cut(t, l, c, r, fit->width > 0) && !shared_text(t, l, (size_t)r * (size_t)t->ncols + (size_t)c)) {
                char *cellp = l->text[(size_t)r * (size_t)t->ncols + (size_t)c];
                if (is_list(t, c))
                    list_summary(cellp, l->w[c]);
                pf_name_cut(cellp, (int)l->w[c]);
            }
    return name_w;
}

static int cmp_str_index(const void *x, const void *y)
{
    const char *const *a = x, *const *b = y;
    int c = strcmp(a[0], b[0]);
    return c ? c : (a[1] > b[1]) - (a[1] < b[1]);
}

/* Rows whose names read the same once cut, though their values differ, get " #2", " #3"...
 * in table order, within the width. -1 when memory runs out. */
static int tell_apart(const pf_table *t, layout *l, const pf_text_fit *fit, size_t name_w)
{
    const char **pairs = malloc((size_t)(t->nrows ? t->nrows : 1) * 2 * sizeof *pairs);
    if (!pairs)
        return -1;
    char **names = l->text;
    size_t stride = (size_t)t->ncols;
    /* pairs: (shown name, address of its slot), the slot's address giving the table order */
    for (int r = 0; r < t->nrows; r++) {
        pairs[2 * r] = names[(size_t)r * stride + (size_t)l->name];
        pairs[2 * r + 1] = (const char *)&names[(size_t)r * stride + (size_t)l->name];
    }
    qsort(pairs, (size_t)t->nrows, 2 * sizeof *pairs, cmp_str_index);
    for (int j = 0; j < t->nrows;) {
        int e = j + 1;
        while (e < t->nrows && strcmp(pairs[2 * e], pairs[2 * j]) == 0)
            e++;
        for (int k = j + 1; k < e; k++) {
            char **slot = (char **)pairs[2 * k + 1];
            size_t r = (size_t)(slot - names) / stride;
            const char *first = cell_get(t, (int)((size_t)((char **)pairs[2 * j + 1] - names) / stride), l->name)->text;
            const char *mine = cell_get(t, (int)r, l->name)->text;
            if (first && mine && strcmp(first, mine) == 0)
                continue;
            char suffix[24];
            int sn = snprintf(suffix, sizeof suffix, " #%d", k - j + 1);
            size_t keep = name_w > (size_t)sn + 3 ? name_w - (size_t)sn : 4;
            /* a wrapped name takes the suffix on its second line where it fits; else the
             * name is cut again from the whole key by the table's own cut (a shape key keeps
             * every tensor it shows whole) */
            const char *nl = strchr(*slot, '\n');
            int on_second = nl && text_width(nl + 1) + (size_t)sn + 2 <= name_w;
            char *s = malloc((on_second ? strlen(*slot) : strlen(mine) + 2) + (size_t)sn + 1);
            if (!s) {
                free(pairs);
                return -1;
            }
            if (!on_second) {
                strcpy(s, mine);
                (fit->cut ? fit->cut : pf_name_cut)(s, (int)keep);
            } else {
                strcpy(s, *slot);
            }
            strcat(s, suffix);
            free(*slot);
            *slot = s;
        }
        j = e;
    }
    free(pairs);
    return 0;
}

/* Where a name breaks to fit w characters: after its last comma outside brackets within w
 * (between two arguments, never inside a tensor's dims); 0 when there is none. */
static size_t wrap_at(const char *s, size_t w)
{
    size_t c = 0, brk = 0;
    int depth = 0;
    for (size_t i = 0; s[i] && c < w; i++) {
        if (((unsigned char)s[i] & 0xC0) == 0x80)
            continue;
        c++;
        depth += s[i] == '[' ? 1 : s[i] == ']' && depth > 0 ? -1 : 0;
        if (s[i] == ',' && depth == 0)
            brk = i + 1;
    }
    return brk;
}

/* The budgets wrap_name tries a pass, widest first, each on a copy of the whole name: linear in
 * the name (every budget down to w: 2,000 names of 4 KB at COLUMNS=4000 took 191 s). A key
 * breaks within a few budgets of the widest, at its last top-level comma (docs/performance.md). */
#define WRAP_TRIES 64

/* name (a copy, whole) as at most two lines of w characters joined by '\n', the second
 * indented by two when printed: cut by fit->cut to the longest length (of the WRAP_TRIES widest;
 * those past the name's width one try) whose break leaves a second line that fits. NULL when it
 * fits one line, cannot break, or memory runs out (the caller cuts it to one line). */
static char *wrap_name(const char *name, const pf_text_fit *fit, size_t w)
{
    size_t width = text_width(name), len = strlen(name);
    if (width <= w)
        return NULL;
    void (*cut)(char *, int) = fit->cut ? fit->cut : pf_name_cut;
    char *tmp = malloc(len + 2);
    if (!tmp)
        return NULL;
    /* first without a middle cut ("..."), which loses what the cut function keeps whole */
    for (int pass = 0; pass < 2; pass++) {
        size_t top = 2 * w - 2 < width ? 2 * w - 2 : width;
        for (size_t budget = top, tries = 0; budget > w && tries < WRAP_TRIES; budget--, tries++) {
            memcpy(tmp, name, len + 1);
            cut(tmp, (int)budget);
            size_t b = wrap_at(tmp, w);
            size_t skip = b && tmp[b] == ' ';
            if (text_width(tmp) <= w || !b || text_width(tmp + b + skip) > w - 2 || (pass == 0 && strstr(tmp, "...")))
                continue;
            memmove(tmp + b + 1, tmp + b + skip, strlen(tmp + b + skip) + 1);
            tmp[b] = '\n';
            return tmp;
        }
    }
    free(tmp);
    return NULL;
}

/* Lays t out for fit; -1 when memory runs out (nothing to free then). */
static int layout_table(const pf_table *t, layout *l, const pf_text_fit *fit, int md)
{
    memset(l, 0, sizeof *l);
    l->name = first_visible(t);
    if (t->ncols > 64 || l->name < 0 || layout_cells(t, l, md)) {
        layout_free(t, l);
        return -1;
    }
    size_t name_w = layout_columns(t, l, fit);
    int wrap = fit->wrap_names && fit->width > 0 && name_w > NAME_FLOOR;
    for (int r = 0; r < t->nrows; r++) {
        char **name = &l->text[(size_t)r * (size_t)t->ncols + (size_t)l->name];
        char *two = wrap ? wrap_name(*name, fit, name_w) : NULL;
        if (two) {
            free(*name);
            *name = two;
        } else {
            (fit->cut ? fit->cut : pf_name_cut)(*name, (int)name_w);
        }
    }
    if (tell_apart(t, l, fit, name_w)) {
        layout_free(t, l);
        return -1;
    }
    l->w[l->name] = col_width(t, l, l->name, 0);
    if (wrap && l->w[l->name] > name_w)
        l->w[l->name] = name_w;
    return 0;
}


static void pad(FILE *out, size_t n)
{
    /* in runs, not a call per blank: a character at a time was a tenth of --ranks over 10,000
     * summaries (docs/performance.md) */
    static const char blanks[] = "                                                                ";
    while (n > 0) {
        size_t k = n < sizeof blanks - 1 ? n : sizeof blanks - 1;
        fwrite(blanks, 1, k, out);
        n -= k;
    }
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

static void print_line(FILE *out, const pf_table *t, const layout *l, int row, const char *lead, const char *trail)
{
    int first = 1, last = -1;
    for (int c = 0; c < t->ncols; c++)
        if (l->show[c])
            last = c;
    fputs(lead, out);
    for (int c = 0; c < t->ncols; c++) {
        if (!l->show[c])
            continue;
        if (!first)
            fputs(" | ", out);
        first = 0;
        const char *s = row < 0 ? t->cols[c].title : l->text[(size_t)row * (size_t)t->ncols + (size_t)c];
        int right = t->cols[c].numeric && row >= 0;
        /* No trailing blanks: the last cell is padded only when right-aligned or framed. */
        if (c == last && !right && !*trail)
            fputs(s, out);
        else
            print_cell(out, s, l->w[c], right);
    }
    fputs(trail, out);
    fputc('\n', out);
}

static size_t line_width(const pf_table *t, const layout *l)
{
    size_t total = 0;
    int n = 0;
    for (int c = 0; c < t->ncols; c++)
        if (l->show[c]) {
            total += l->w[c];
            n++;
        }
    return total + (n > 1 ? (size_t)(n - 1) * 3 : 0);
}

static uint64_t shown_mask(const pf_table *t, const layout *l)
{
    uint64_t m = 0;
    for (int c = 0; c < t->ncols; c++)
        m |= l->show[c] ? (uint64_t)1 << c : 0;
    return m;
}

uint64_t pf_table_print_text_fit(FILE *out, const pf_table *t, const pf_text_fit *fit)
{
    layout l;
    if (layout_table(t, &l, fit, 0))
        return 0;
    uint64_t shown = shown_mask(t, &l);
    print_line(out, t, &l, -1, "", "");
    for (size_t i = line_width(t, &l); i > 0; i--)
        fputc('-', out);
    fputc('\n', out);
    for (int r = 0; r < t->nrows; r++) {
        char *name = l.text[(size_t)r * (size_t)t->ncols + (size_t)l.name];
        char *nl = name ? strchr(name, '\n') : NULL;
        if (nl) /* a wrapped name (wrap_name): its rest on a line of its own under the row */
            *nl = 0;
        print_line(out, t, &l, r, "", "");
        if (nl) {
            fprintf(out, "  %s\n", nl + 1);
            *nl = '\n';
        }
    }
    layout_free(t, &l);
    return shown;
}

uint64_t pf_table_print_md_fit(FILE *out, const pf_table *t, const pf_text_fit *fit)
{
    layout l;
    if (layout_table(t, &l, fit, 1))
        return 0;
    uint64_t shown = shown_mask(t, &l);
    print_line(out, t, &l, -1, "| ", " |");
    fputs("|", out);
    for (int c = 0; c < t->ncols; c++) {
        if (!l.show[c])
            continue;
        fputc(t->cols[c].numeric ? '-' : ':', out);
        for (size_t i = 0; i < l.w[c]; i++)
            fputc('-', out);
        fputs(t->cols[c].numeric ? ":|" : "-|", out);
    }
    fputc('\n', out);
    for (int r = 0; r < t->nrows; r++)
        print_line(out, t, &l, r, "| ", " |");
    layout_free(t, &l);
    return shown;
}

void pf_table_print_text(FILE *out, const pf_table *t, int name_limit)
{
    pf_text_fit fit = {.name_limit = name_limit};
    pf_table_print_text_fit(out, t, &fit);
}

void pf_table_print_md(FILE *out, const pf_table *t, int name_limit)
{
    pf_text_fit fit = {.name_limit = name_limit};
    pf_table_print_md_fit(out, t, &fit);
}

static int col_in_text(const pf_col *c)
{
    return !c->show || (c->show & (PF_IN_TEXT | PF_IN_PICK));
}

/* The name --columns knows a column by: id, else key, else title. */
static const char *col_id(const pf_col *c)
{
    return c->id ? c->id : c->key ? c->key : c->title;
}

size_t pf_cols_join(char *s, size_t n, size_t used, const char *lead, const pf_col *cols, const int *idx, int count)
{
    assert(s && n > 0 && lead && cols && (idx || count == 0));
    if (used < n)
        used += (size_t)snprintf(s + used, n - used, "%s", lead);
    for (int i = 0; i < count && used < n; i++)
        used += (size_t)snprintf(s + used, n - used, "%s%s", i > 0 ? ", " : "", col_id(&cols[idx[i]]));
    return used;
}

/* Whether the n characters at s name column c (col_id). */
static int names_col(const char *s, size_t n, const pf_col *c)
{
    const char *id = col_id(c);
    return strlen(id) == n && strncmp(s, id, n) == 0;
}

int pf_cols_pick(const pf_col *cols, int ncols, const char *list, int *out, int max, char *err, size_t errn)
{
    int n = 0;
    for (const char *s = list; *s;) {
        size_t len = strcspn(s, ",");
        int c = 0;
        while (c < ncols && !(col_in_text(&cols[c]) && names_col(s, len, &cols[c])))
            c++;
        if (c == ncols) {
            int o = snprintf(err, errn, "--columns: unknown column '%.*s'; the columns are:", (int)len, s);
            for (int k = 0; k < ncols && o >= 0 && (size_t)o < errn; k++)
                if (col_in_text(&cols[k]))
                    o += snprintf(err + o, errn - (size_t)o, " %s", col_id(&cols[k]));
            return -1;
        }
        if (n < max)
            out[n++] = c;
        s += len + (s[len] == ',');
    }
    return n;
}
