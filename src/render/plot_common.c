/* plot_common.c - what the charts share: category colours, the legend, label widths, short names, the svg root, texts, headings, rects and the time axis of bars. */
#include "profana/plot.h"

#include "profana/names.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Distinct, print-safe fills (Tableau 20 without its red, which marks dots above a roof). */
static const char *const category_colors[PF_CAT_COUNT] = {
    [PF_CAT_TRITON_POINTWISE] = "#1f77b4",
    [PF_CAT_TRITON_REDUCTION] = "#aec7e8",
    [PF_CAT_TRITON_PERSISTENT_REDUCTION] = "#9edae5",
    [PF_CAT_TRITON_TEMPLATE] = "#17becf",
    [PF_CAT_TRITON_FOREACH] = "#c5b0d5",
    [PF_CAT_TRITON_OTHER] = "#dbdb8d",
    [PF_CAT_GEMM] = "#ff7f0e",
    [PF_CAT_CONV] = "#ffbb78",
    [PF_CAT_ATTENTION] = "#9467bd",
    [PF_CAT_ELEMENTWISE] = "#2ca02c",
    [PF_CAT_REDUCTION] = "#98df8a",
    [PF_CAT_NORMALIZATION] = "#bcbd22",
    [PF_CAT_COMMUNICATION] = "#8c564b",
    [PF_CAT_MEMCPY] = "#e377c2",
    [PF_CAT_MEMSET] = "#f7b6d2",
    [PF_CAT_OTHER] = "#7f7f7f",
};

const char *pf_category_color(pf_category c)
{
    return c >= 0 && c < PF_CAT_COUNT ? category_colors[c] : category_colors[PF_CAT_OTHER];
}

double pf_plot_text_width(const char *s, double font_px)
{
    size_t chars = 0;
    for (; *s; s++)
        chars += ((unsigned char)*s & 0xC0) != 0x80;
    return (double)chars * font_px * 0.58;
}

#define SWATCH 10.0
#define LEGEND_ROW 16.0

double pf_plot_legend(pf_xw *w, double x, double y, double width, const pf_legend_item *items, size_t n)
{
    double cx = x, cy = y;
    for (size_t i = 0; i < n; i++) {
        double iw = SWATCH + 4 + pf_plot_text_width(items[i].label, PF_PLOT_FONT_PX) + 14;
        if (cx > x && cx + iw > x + width) {
            cx = x;
            cy += LEGEND_ROW;
        }
        if (w) {
            pf_xw_begin(w, "rect");
            pf_xw_attr(w, "class", "swatch");
            pf_xw_attr_num(w, "x", cx);
            pf_xw_attr_num(w, "y", cy);
            pf_xw_attr_num(w, "width", SWATCH);
            pf_xw_attr_num(w, "height", SWATCH);
            pf_xw_attr(w, "fill", items[i].color);
            pf_xw_attr(w, "stroke", "#333");
            pf_xw_attr(w, "stroke-width", "0.5");
            pf_xw_end(w);
            pf_xw_begin(w, "text");
            pf_xw_attr_num(w, "x", cx + SWATCH + 4);
            pf_xw_attr_num(w, "y", cy + SWATCH - 1);
            pf_xw_text(w, items[i].label);
            pf_xw_end(w);
        }
        cx += iw;
    }
    return n ? cy - y + LEGEND_ROW : 0;
}

void pf_plot_svg_begin(pf_xw *w, const char *cls, double width, double height)
{
    char vb[96], a[32], b[32];
    snprintf(vb, sizeof vb, "0 0 %s %s", pf_num_fmt(a, sizeof a, width, 2), pf_num_fmt(b, sizeof b, height, 2));
    pf_xw_begin(w, "svg");
    pf_xw_attr(w, "xmlns", "http://www.w3.org/2000/svg");
    pf_xw_attr(w, "class", cls);
    pf_xw_attr_num(w, "width", width);
    pf_xw_attr_num(w, "height", height);
    pf_xw_attr(w, "viewBox", vb);
    pf_xw_attr(w, "font-family", "DejaVu Sans, Helvetica, Arial, sans-serif");
    pf_xw_attr_num(w, "font-size", PF_PLOT_FONT_PX);
    pf_xw_begin(w, "rect");
    pf_xw_attr(w, "width", "100%");
    pf_xw_attr(w, "height", "100%");
    pf_xw_attr(w, "fill", "#ffffff");
    pf_xw_end(w);
}

unsigned pf_dtypes_used(const pf_analysis *an, const pf_device_report *d)
{
    (void)an;
    return d->dtypes;
}

/* ---- short names ---- */

const char *pf_short_name(const char *key, pf_group_by g, int limit, char *buf, size_t n)
{
    if (n == 0)
        return buf;
    size_t len = strlen(key) + 1;
    char *work = malloc(len + 256);
    if (!work) {
        snprintf(buf, n, "%s", key);
    } else {
        pf_name_short(key, g == PF_GROUP_KERNEL, work, len + 256);
        pf_name_cut(work, limit);
        snprintf(buf, n, "%s", work);
        free(work);
    }
    /* A buffer too small may have cut inside a UTF-8 character: drop its leading bytes. */
    size_t end = strlen(buf), i = end;
    while (i > 0 && ((unsigned char)buf[i - 1] & 0xC0) == 0x80)
        i--;
    if (i > 0 && (unsigned char)buf[i - 1] >= 0xC0) {
        unsigned char lead = (unsigned char)buf[i - 1];
        size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
        if (end - (i - 1) < need)
            buf[i - 1] = 0;
    }
    return buf;
}

void pf_plot_arrow(pf_xw *w, double x0, double y0, double x1, double y1, double back)
{
    double dx = x1 - x0, dy = y1 - y0, len = sqrt(dx * dx + dy * dy);
    assert(w && len > back);
    double ux = dx / len, uy = dy / len, tx = x1 - ux * back, ty = y1 - uy * back;
    pf_xw_begin(w, "line");
    pf_xw_attr(w, "class", "arrow-line");
    pf_xw_attr_num(w, "x1", x0);
    pf_xw_attr_num(w, "y1", y0);
    pf_xw_attr_num(w, "x2", tx - 6 * ux);
    pf_xw_attr_num(w, "y2", ty - 6 * uy);
    pf_xw_attr(w, "stroke", "#555");
    pf_xw_end(w);
    char pts[200], s[6][32];
    snprintf(pts, sizeof pts, "%s,%s %s,%s %s,%s", pf_num_fmt(s[0], 32, tx, 2), pf_num_fmt(s[1], 32, ty, 2),
             pf_num_fmt(s[2], 32, tx - 7 * ux - 3.5 * uy, 2), pf_num_fmt(s[3], 32, ty - 7 * uy + 3.5 * ux, 2),
             pf_num_fmt(s[4], 32, tx - 7 * ux + 3.5 * uy, 2), pf_num_fmt(s[5], 32, ty - 7 * uy - 3.5 * ux, 2));
    pf_xw_begin(w, "polygon");
    pf_xw_attr(w, "points", pts);
    pf_xw_attr(w, "fill", "#555");
    pf_xw_end(w);
}

void pf_plot_outline(pf_xw *w, const char *cls, double x, double y, double width, double height)
{
    assert(w && cls);
    pf_plot_rect_begin(w, cls, x, y, width, height, "none");
    pf_xw_attr(w, "stroke", "#333");
    pf_xw_end(w);
}

/* A step of 1, 2 or 5 times a power of ten giving about 6 ticks over max. */
static double tick_step(double max)
{
    double raw = max / 6, p = pow(10, floor(log10(raw)));
    return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

void pf_plot_time_axis(pf_xw *w, double x0, double top, double y, double max_ns, double px_per_ns, const char *what)
{
    assert(w && what && max_ns > 0);
    int ms = max_ns >= 1e7;
    double unit = ms ? 1e6 : 1e3, step = tick_step(max_ns / unit);
    char buf[64], title[256];
    for (int i = 0; i * step <= max_ns / unit * (1 + 1e-12); i++) {
        double t = i * step, x = x0 + t * unit * px_per_ns;
        pf_xw_begin(w, "line");
        pf_xw_attr(w, "class", "grid");
        pf_xw_attr_num(w, "x1", x);
        pf_xw_attr_num(w, "y1", top);
        pf_xw_attr_num(w, "x2", x);
        pf_xw_attr_num(w, "y2", y + 4);
        pf_xw_attr(w, "stroke", "#d0d0d0");
        pf_xw_end(w);
        pf_xw_begin(w, "text");
        pf_xw_attr_num(w, "x", x);
        pf_xw_attr_num(w, "y", y + 16);
        pf_xw_attr(w, "text-anchor", "middle");
        pf_xw_text(w, pf_num_fmt(buf, sizeof buf, t, 3));
        pf_xw_end(w);
    }
    snprintf(title, sizeof title, "%s (%s), one scale for every bar", what, ms ? "ms" : "us");
    pf_plot_text(w, x0, y + 34, NULL, NULL, 0, title);
}

void pf_plot_heading(pf_xw *w, const char *cls, double x, double y, const char *size, const char *s)
{
    assert(w && size && s);
    pf_xw_begin(w, "text");
    pf_xw_attr(w, "class", cls);
    pf_xw_attr_num(w, "x", x);
    pf_xw_attr_num(w, "y", y);
    pf_xw_attr(w, "font-size", size);
    pf_xw_attr(w, "font-weight", "bold");
    pf_xw_text(w, s);
    pf_xw_end(w);
}

void pf_plot_rect_begin(pf_xw *w, const char *cls, double x, double y, double width, double height, const char *fill)
{
    assert(w && fill);
    pf_xw_begin(w, "rect");
    pf_xw_attr(w, "class", cls);
    pf_xw_attr_num(w, "x", x);
    pf_xw_attr_num(w, "y", y);
    pf_xw_attr_num(w, "width", width);
    pf_xw_attr_num(w, "height", height);
    pf_xw_attr(w, "fill", fill);
}

void pf_plot_text(pf_xw *w, double x, double y, const char *anchor, const char *cls, double font, const char *s)
{
    assert(w && s);
    pf_xw_begin(w, "text");
    if (cls)
        pf_xw_attr(w, "class", cls);
    pf_xw_attr_num(w, "x", x);
    pf_xw_attr_num(w, "y", y);
    if (anchor)
        pf_xw_attr(w, "text-anchor", anchor);
    if (font > 0)
        pf_xw_attr_num(w, "font-size", font);
    pf_xw_text(w, s);
    pf_xw_end(w);
}

void pf_plot_line(pf_xw *w, const char *cls, double x1, double y1, double x2, double y2, const char *stroke,
                  double width)
{
    assert(w && cls && stroke);
    pf_xw_begin(w, "line");
    pf_xw_attr(w, "class", cls);
    pf_xw_attr_num(w, "x1", x1);
    pf_xw_attr_num(w, "y1", y1);
    pf_xw_attr_num(w, "x2", x2);
    pf_xw_attr_num(w, "y2", y2);
    pf_xw_attr(w, "stroke", stroke);
    if (width > 0)
        pf_xw_attr_num(w, "stroke-width", width);
    pf_xw_end(w);
}
