/* report_page.c - the pieces of a --report page: its head with the inline style, headings, prose, tables as sortable HTML tables, captured text lines, the sorting script. */
#include "report_parts.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Inline, so the page needs nothing but itself: no fonts, styles or scripts from elsewhere. */
static const char page_style[] =
    "body{font:14px/1.4 \"DejaVu Sans\",Helvetica,Arial,sans-serif;margin:24px;color:#222}"
    "h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ccc}h3{font-size:15px}"
    /* prose lines wrap at the page's width (a long coverage line, a headline) */
    "pre{background:#f6f6f6;padding:8px;font-size:12px;white-space:pre-wrap;overflow-wrap:break-word}"
    "table{border-collapse:collapse;font-size:12px;margin:8px 0 16px}"
    "caption{text-align:left;font-weight:bold;padding:4px 0}"
    "th,td{border:1px solid #ccc;padding:2px 4px}"
    /* a table fits 1400 px: headers wrap between words, numbers never, a text cell between
     * words and after each '+' of a Source list (never inside a word: "normalizatio|n"),
     * names are cut by an ellipsis (whole in their tooltip) */
    "th{background:#dde6f3;cursor:pointer}"
    "td{white-space:nowrap}"
    "th.n,td.n{text-align:right}"
    "td.t{white-space:normal;overflow-wrap:normal;word-break:normal;max-width:12em}"
    "p.note{margin:4px 0;font-size:13px}"
    "td.name{max-width:24em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}"
    /* a wide table scrolls sideways inside its box while its name column stays in view */
    "th.name,td.name{position:sticky;left:0;z-index:1;background:#fff;box-shadow:1px 0 0 #ccc}"
    "th.name{background:#dde6f3}tfoot td.name{background:#f3f3f3}"
    "tr.over td{background:#fde0dc}tr.suspect td{background:#fff3cd}"
    "tfoot td{font-weight:bold;background:#f3f3f3}"
    "th[data-dir=asc]::after{content:\" \\25B2\"}th[data-dir=desc]::after{content:\" \\25BC\"}"
    ".chart,.scroll{overflow-x:auto}";

/* A click on a header sorts the body rows by that column: numbers by value, largest first,
 * "-" last; text A to Z; a second click reverses. */
static const char sort_script[] =
    "document.querySelectorAll('table.sortable th').forEach(function (th) {\n"
    "  th.addEventListener('click', function () {\n"
    "    var body = th.closest('table').tBodies[0], col = th.cellIndex, num = th.classList.contains('n');\n"
    "    var dir = th.dataset.dir ? (th.dataset.dir === 'desc' ? 1 : -1) : (num ? -1 : 1);\n"
    "    th.parentNode.querySelectorAll('th').forEach(function (h) { delete h.dataset.dir; });\n"
    "    th.dataset.dir = dir > 0 ? 'asc' : 'desc';\n"
    "    var key = function (r) { var s = r.cells[col].textContent; if (!num) return s;\n"
    "      var v = parseFloat(s); return isNaN(v) ? (dir > 0 ? Infinity : -Infinity) : v; };\n"
    "    Array.from(body.rows).sort(function (a, b) { var x = key(a), y = key(b);\n"
    "      return dir * (x < y ? -1 : x > y ? 1 : 0); }).forEach(function (r) { body.appendChild(r); });\n"
    "  });\n"
    "});\n";

/* ---- the HTML page, piece by piece ---- */

/* Starts the page: doctype, <head> with its title and inline style, <body>, and an <h1>. */
void pf_html_begin(pf_xw *w, FILE *out, const char *title)
{
    pf_xw_init(w, out, 1);
    pf_xw_raw(w, "<!DOCTYPE html>\n");
    pf_xw_begin(w, "html");
    pf_xw_attr(w, "lang", "en");
    pf_xw_begin(w, "head");
    pf_xw_begin(w, "meta");
    pf_xw_attr(w, "charset", "utf-8");
    pf_xw_end(w);
    pf_xw_elem(w, "title", title);
    pf_xw_begin(w, "style");
    pf_xw_raw(w, page_style);
    pf_xw_end(w);
    pf_xw_end(w);
    pf_xw_raw(w, "\n");
    pf_xw_begin(w, "body");
    pf_xw_elem(w, "h1", title);
    pf_xw_raw(w, "\n");
}

void pf_html_h2(pf_xw *w, const char *text)
{
    pf_xw_elem(w, "h2", text);
    pf_xw_raw(w, "\n");
}

void pf_html_para(pf_xw *w, const char *text)
{
    pf_xw_elem(w, "p", text);
    pf_xw_raw(w, "\n");
}

static void html_pre(pf_xw *w, const char *text)
{
    pf_xw_elem(w, "pre", text);
    pf_xw_raw(w, "\n");
}

static int shown_in_text(const pf_col *c)
{
    return !c->show || (c->show & PF_IN_TEXT);
}

static int first_text_col(const pf_table *t)
{
    for (int c = 0; c < pf_table_ncols(t); c++)
        if (shown_in_text(pf_table_col(t, c)))
            return c;
    return -1;
}

/* The row's class by the marks text output puts on its figures: "over" when one reads
 * above 100% of a peak ("!"), "suspect" above 90% ("?"); NULL otherwise. */
static const char *row_mark(const pf_table *t, int r)
{
    int suspect = 0;
    for (int c = 0; c < pf_table_ncols(t); c++) {
        const char *s = pf_table_col(t, c)->numeric ? pf_table_cell(t, r, c) : NULL;
        size_t n = s ? strlen(s) : 0;
        if (n && s[n - 1] == '!')
            return "over";
        suspect |= n && s[n - 1] == '?';
    }
    return suspect ? "suspect" : NULL;
}

/* Text with a break opportunity (<wbr>) after each '+': a Source list
 * ("estimate+memset+gemm+attention") wraps between its members, never inside one. */
static void text_with_breaks(pf_xw *w, const char *s)
{
    const char *plus;
    while ((plus = strchr(s, '+')) != NULL) {
        char piece[256];
        size_t n = (size_t)(plus - s) + 1;
        if (n >= sizeof piece) /* a member too long for the buffer: the rest without breaks */
            break;
        memcpy(piece, s, n);
        piece[n] = 0;
        pf_xw_text(w, piece);
        pf_xw_raw(w, "<wbr>");
        s = plus + 1;
    }
    pf_xw_text(w, s);
}

/* A number cell as the page shows it: text output's figure, but more than 3 decimals (GB's 6:
 * "0.956412") cut to 3 significant digits and no fewer than 3 decimals ("0.956", "0.0123",
 * "7.428"); a mark after the figure ("?", "!", "*") stays. Other text is left as it is. */
static const char *number_text(const char *s, char *buf, size_t n)
{
    char *end;
    const char *dot = strchr(s, '.');
    double v = strtod(s, &end);
    if (!dot || end == s || dot > end)
        return s;
    int decimals = (int)(end - dot - 1);
    if (decimals <= 3)
        return s;
    int keep = 3;
    for (double a = v < 0 ? -v : v; a > 0 && a < 0.1 && keep < decimals; a *= 10)
        keep++;
    snprintf(buf, n, "%.*f%s", keep, v, end);
    return buf;
}

static void table_row(pf_xw *w, const pf_table *t, int r, int name_col)
{
    pf_xw_begin(w, "tr");
    pf_xw_attr(w, "class", row_mark(t, r));
    for (int c = 0; c < pf_table_ncols(t); c++) {
        const pf_col *col = pf_table_col(t, c);
        if (!shown_in_text(col))
            continue;
        const char *s = pf_table_cell(t, r, c);
        pf_xw_begin(w, "td");
        pf_xw_attr(w, "class", col->numeric ? "n" : c == name_col ? "name" : "t");
        char num[64];
        if (c == name_col) {
            pf_xw_attr(w, "title", s);
            pf_xw_text(w, s ? s : "-");
        } else if (col->numeric) {
            pf_xw_text(w, s ? number_text(s, num, sizeof num) : "-");
        } else {
            text_with_breaks(w, s ? s : "-");
        }
        pf_xw_end(w);
    }
    pf_xw_end(w);
    pf_xw_raw(w, "\n");
}

/* Body rows first, then the summary rows in a <tfoot>, so sorting never moves the Total. */
static void table_section(pf_xw *w, const pf_table *t, const char *tag, int summary, int name_col)
{
    pf_xw_begin(w, tag);
    pf_xw_raw(w, "\n");
    for (int r = 0; r < pf_table_rows(t); r++)
        if (pf_table_is_summary(t, r) == summary)
            table_row(w, t, r, name_col);
    pf_xw_end(w);
}

/* A table as a sortable HTML table: the columns text output shows, each cell as text output
 * shows it but names whole (cut by CSS, whole in a tooltip), summary rows (Total) in a
 * <tfoot> that sorting leaves in place. caption may be NULL. */
void pf_html_table(pf_xw *w, const pf_table *t, const char *caption)
{
    int name_col = first_text_col(t);
    pf_xw_begin(w, "div");
    pf_xw_attr(w, "class", "scroll");
    pf_xw_begin(w, "table");
    pf_xw_attr(w, "class", "sortable");
    if (caption)
        pf_xw_elem(w, "caption", caption);
    pf_xw_begin(w, "thead");
    pf_xw_begin(w, "tr");
    for (int c = 0; c < pf_table_ncols(t); c++) {
        const pf_col *col = pf_table_col(t, c);
        if (!shown_in_text(col))
            continue;
        pf_xw_begin(w, "th");
        pf_xw_attr(w, "class", col->numeric ? "n" : c == name_col ? "name" : NULL);
        pf_xw_attr(w, "title", "click to sort");
        pf_xw_text(w, col->title);
        pf_xw_end(w);
    }
    pf_xw_end(w);
    pf_xw_end(w);
    table_section(w, t, "tbody", 0, name_col);
    table_section(w, t, "tfoot", 1, name_col);
    pf_xw_end(w);
    pf_xw_end(w);
    pf_xw_raw(w, "\n");
}

/* Ends the page: the sorting script, </body>, </html>. */
void pf_html_end(pf_xw *w)
{
    pf_xw_begin(w, "script");
    pf_xw_raw(w, sort_script);
    pf_xw_end(w);
    pf_xw_raw(w, "\n");
    pf_xw_end(w); /* body */
    pf_xw_end(w); /* html */
    pf_xw_raw(w, "\n");
}

/* Runs print(out, ctx) into memory and returns what it wrote (caller frees), or NULL when
 * memory runs out: how a command's text lines reach the page. */
char *pf_html_capture(void (*print)(FILE *out, const void *ctx), const void *ctx)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    print(f, ctx);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Writes a built table (NULL: memory ran out) and frees it. */
int pf_html_put_table(pf_xw *w, pf_table *t, const char *caption)
{
    if (!t)
        return -1;
    pf_html_table(w, t, caption);
    pf_table_free(t);
    return 0;
}

/* Captured lines as a <pre>; nothing when the printer wrote nothing. */
int pf_html_pre_of(pf_xw *w, void (*print)(FILE *, const void *), const void *ctx)
{
    char *s = pf_html_capture(print, ctx);
    if (!s)
        return -1;
    if (*s)
        html_pre(w, s);
    free(s);
    return 0;
}

int pf_html_paras_of(pf_xw *w, void (*print)(FILE *, const void *), const void *ctx)
{
    assert(w && print);
    char *s = pf_html_capture(print, ctx);
    if (!s)
        return -1;
    for (char *line = s, *nl; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        if (!nl)
            nl = line + strlen(line) - 1;
        else
            *nl = 0;
        if (*line) {
            pf_xw_begin(w, "p");
            pf_xw_attr(w, "class", "note");
            pf_xw_text(w, line);
            pf_xw_end(w);
            pf_xw_raw(w, "\n");
        }
    }
    free(s);
    return 0;
}
