/* plot_strip.c - the roofline's bandwidth strip: rows with no FLOPs to place, by achieved GB/s against the DRAM roof, the rest counted in one box. */
#include "plot_parts.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "profana/plot.h"
#include "profana/rates.h"

#define TITLE_H 20.0
#define STRIP_H 44.0
#define BELOW_STRIP 34.0 /* tick labels and the axis title */
#define UNKNOWN_W 118.0  /* the box of rows without bytes, left of the axis */
#define MAX_DECADES 8
#define AXIS_LIMIT 400.0

/* The launches with known bytes, and their GB/s; 0 when there are none or no bytes above 0. */
static double mark_gbps(const pf_row *r, int *partial)
{
    *partial = !pf_row_has_bytes(r);
    if (!*partial)
        return r->bytes > 0 ? pf_row_gbps(r) : 0;
    double g = r->bytes_known > 0 ? pf_rate(r->bytes, (double)r->bytes_known_ns, 1e9) : -1;
    return g > 0 && isfinite(log10(g)) ? g : 0;
}

int pf_plot_strip_add(pf_plot_strip *s, const pf_row *r, int side)
{
    assert(s && r && r->total_ns > 0 && (side == 0 || side == 1));
    int partial = 0;
    double g = mark_gbps(r, &partial);
    if (!(g > 0) || !isfinite(log10(g))) {
        s->n_unknown[side]++;
        s->unknown_ns[side] += r->total_ns;
        return 0;
    }
    if (s->n_marks == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        pf_strip_mark *m = realloc(s->marks, cap * sizeof *m);
        if (!m)
            return -1;
        s->marks = m;
        s->cap = cap;
    }
    s->marks[s->n_marks++] = (pf_strip_mark){r, g, partial, side};
    s->marks_ns += r->total_ns;
    return 0;
}

static int cmp_mark_time(const void *x, const void *y)
{
    const pf_strip_mark *a = x, *b = y;
    if (a->r->total_ns != b->r->total_ns)
        return a->r->total_ns < b->r->total_ns ? 1 : -1;
    return a->r < b->r ? -1 : a->r > b->r;
}

void pf_plot_strip_layout(pf_plot_strip *s)
{
    assert(s);
    if (s->n_marks)
        qsort(s->marks, s->n_marks, sizeof *s->marks, cmp_mark_time);
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < s->n_marks; i++) {
        lo = fmin(lo, log10(s->marks[i].gbps));
        hi = fmax(hi, log10(s->marks[i].gbps));
    }
    if (s->dram_gbps > 0) {
        hi = fmax(hi, log10(s->dram_gbps));
        lo = fmin(lo, log10(s->dram_gbps) - 2);
    }
    if (lo > hi)
        lo = 0, hi = 4;
    lo = fmax(lo, -AXIS_LIMIT), hi = fmin(hi, AXIS_LIMIT);
    s->ex1 = (int)ceil(hi + 0.15);
    s->ex0 = (int)floor(lo - 0.15);
    if (s->ex1 - s->ex0 > MAX_DECADES) /* slower marks sit on the left edge */
        s->ex0 = s->ex1 - MAX_DECADES;
}

double pf_plot_strip_height(const pf_plot_strip *s)
{
    assert(s);
    return s->n_marks || s->n_unknown[0] || s->n_unknown[1] ? TITLE_H + STRIP_H + BELOW_STRIP : 0;
}

static double share(int64_t ns, int64_t total_ns)
{
    return total_ns > 0 ? 100.0 * (double)ns / (double)total_ns : 0;
}

/* The box of one side's rows without bytes: the strip's height, or its half of it in a --diff. */
static void draw_unknown(pf_xw *w, const pf_plot_strip *s, int side, double left, double top, int64_t total_ns)
{
    char a[64], b[64];
    double h = s->diff ? STRIP_H / 2 : STRIP_H, y = top + side * h;
    pf_xw_begin(w, "rect");
    pf_xw_attr(w, "class", "strip-unknown");
    pf_xw_attr_num(w, "x", left);
    pf_xw_attr_num(w, "y", y);
    pf_xw_attr_num(w, "width", UNKNOWN_W - 8);
    pf_xw_attr_num(w, "height", h);
    if (s->diff)
        pf_xw_attr(w, "data-side", side ? "b" : "a");
    pf_xw_attr(w, "fill", PF_COLOR_IDLE);
    pf_xw_attr(w, "stroke", "#999");
    snprintf(a, sizeof a, "%zu", s->n_unknown[side]);
    pf_xw_attr(w, "data-rows", a);
    pf_xw_attr_sig(w, "data-gpu-us", (double)s->unknown_ns[side] / 1e3);
    pf_xw_begin(w, "title");
    snprintf(b, sizeof b, "%zu groups without bytes: %.3f us", s->n_unknown[side], (double)s->unknown_ns[side] / 1e3);
    pf_xw_text(w, b);
    pf_xw_end(w);
    pf_xw_end(w);
    if (s->diff) { /* one line a side: "A: 3 no bytes" */
        snprintf(a, sizeof a, "%s: %zu, no bytes", side ? "B" : "A", s->n_unknown[side]);
        pf_plot_text(w, left + 5, y + h / 2 + 4, NULL, "strip-note", 10, a);
        return;
    }
    snprintf(a, sizeof a, "no bytes: %zu", s->n_unknown[side]);
    snprintf(b, sizeof b, "%.1f%% of GPU time", share(s->unknown_ns[side], total_ns));
    pf_plot_text(w, left + 5, top + 18, NULL, "strip-note", 10, a);
    pf_plot_text(w, left + 5, top + 32, NULL, "strip-note", 10, b);
}

static void draw_mark(pf_xw *w, const pf_strip_mark *m, double cx, double cy, double rad, int diff)
{
    const pf_row *r = m->r;
    pf_category c = pf_row_category(r);
    char tip[160];
    pf_xw_begin(w, "circle");
    pf_xw_attr(w, "class", m->partial ? "strip-dot partial" : "strip-dot");
    pf_xw_attr_num(w, "cx", cx);
    pf_xw_attr_num(w, "cy", cy);
    pf_xw_attr_num(w, "r", rad);
    int hollow = diff && m->side == 0;
    pf_xw_attr(w, "fill", hollow ? "none" : pf_category_color(c));
    pf_xw_attr(w, "fill-opacity", "0.6");
    pf_xw_attr(w, "stroke", hollow ? pf_category_color(c) : "#333");
    pf_xw_attr(w, "stroke-width", m->partial ? "1.2" : "0.5");
    if (m->partial)
        pf_xw_attr(w, "stroke-dasharray", "2 2");
    pf_xw_attr(w, "data-name", r->key);
    pf_xw_attr(w, "data-category", pf_category_name(c));
    if (diff)
        pf_xw_attr(w, "data-side", m->side ? "b" : "a");
    pf_xw_attr_sig(w, "data-gbps", m->gbps);
    pf_xw_attr_sig(w, "data-gpu-us", (double)r->total_ns / 1e3);
    if (m->partial)
        pf_xw_attr_sig(w, "data-known-us", (double)r->bytes_known_ns / 1e3);
    snprintf(tip, sizeof tip, "\n%s, %.3f us: %.1f GB/s%s", pf_category_name(c), (double)r->total_ns / 1e3, m->gbps,
             m->partial ? " over the launches with known bytes" : "");
    pf_xw_begin(w, "title");
    pf_xw_text(w, r->key);
    pf_xw_text(w, tip);
    pf_xw_end(w);
    pf_xw_end(w);
}

void pf_plot_strip_draw(pf_xw *w, const pf_plot_strip *s, double left, double y, double width, int64_t heaviest_ns,
                        double r_max, int64_t total_ns)
{
    assert(w && s && width > UNKNOWN_W);
    size_t n_unknown = s->n_unknown[0] + s->n_unknown[1];
    if (!s->n_marks && !n_unknown)
        return;
    char buf[200];
    snprintf(buf, sizeof buf, "Bandwidth strip: %zu groups with no FLOPs to place (%.1f%% of GPU time), by achieved GB/s",
             s->n_marks + n_unknown, share(s->marks_ns + s->unknown_ns[0] + s->unknown_ns[1], total_ns));
    pf_plot_text(w, left, y + 13, NULL, "strip-title", PF_PLOT_FONT_PX, buf);
    double top = y + TITLE_H, x0 = left + (n_unknown ? UNKNOWN_W : 0), pw = left + width - x0;
    pf_xw_begin(w, "g");
    pf_xw_attr(w, "class", "strip");
    pf_xw_attr_num(w, "data-x0", s->ex0);
    pf_xw_attr_num(w, "data-x1", s->ex1);
    pf_xw_attr_num(w, "data-left", x0);
    pf_xw_attr_num(w, "data-width", pw);
    for (int side = 0; side < 1 + s->diff; side++)
        if (n_unknown)
            draw_unknown(w, s, side, left, top, total_ns);
    pf_plot_outline(w, "strip-frame", x0, top, pw, STRIP_H);
    double span = (double)(s->ex1 - s->ex0);
    for (int e = s->ex0; e <= s->ex1; e++) {
        double x = x0 + (e - s->ex0) / span * pw;
        pf_plot_line(w, "tick", x, top + STRIP_H, x, top + STRIP_H + 4, "#333", 0);
        if (e >= 0 && e <= 6) /* as the chart's axes write them */
            snprintf(buf, sizeof buf, "%.0f", pow(10, e));
        else if (e < 0 && e >= -4)
            snprintf(buf, sizeof buf, "%.*f", -e, pow(10, e));
        else
            snprintf(buf, sizeof buf, "1e%d", e);
        pf_plot_text(w, x, top + STRIP_H + 16, "middle", "tick-label", PF_PLOT_FONT_PX, buf);
    }
    pf_plot_text(w, x0 + pw / 2, top + STRIP_H + 30, "middle", "axis-title", PF_PLOT_FONT_PX, "Achieved GB/s");
    if (s->dram_gbps > 0) {
        double x = x0 + (fmin(log10(s->dram_gbps), s->ex1) - s->ex0) / span * pw;
        pf_plot_line(w, "strip-roof", x, top, x, top + STRIP_H, "#444", 0);
        snprintf(buf, sizeof buf, "DRAM %.0f GB/s", s->dram_gbps);
        pf_plot_text(w, x - 3, top + 11, "end", "strip-roof-label", 10, buf);
    }
    double rmax = fmin(r_max, STRIP_H / 2 - 2), heaviest = heaviest_ns > 0 ? (double)heaviest_ns : 1;
    for (size_t i = 0; i < s->n_marks; i++) {
        const pf_strip_mark *m = &s->marks[i];
        double lg = fmax(s->ex0, fmin(s->ex1, log10(m->gbps)));
        double rad = fmax(1.5, rmax * sqrt((double)m->r->total_ns / heaviest));
        draw_mark(w, m, x0 + (lg - s->ex0) / span * pw, top + STRIP_H / 2, rad, s->diff);
    }
    pf_xw_end(w);
}

void pf_plot_strip_free(pf_plot_strip *s)
{
    if (s)
        free(s->marks);
}
