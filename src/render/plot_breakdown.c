/* plot_breakdown.c - the GPU-time breakdown: per device (or per side of a --diff pair) its span as one bar of categories and idle time. */
#include "profana/plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHART_W 820.0
#define BAR_L 20.0
#define BAR_W 780.0
#define BAR_H 24.0
#define GROUP_H 22.0             /* a --diff pair's heading */
#define LABEL_H 18.0             /* the bar's title above it */
#define LINE_H 15.0
#define GAP 14.0
#define AXIS_H 44.0
#define TOP 12.0

/* One piece of a bar: a category's share of the busy time, or the idle time. */
typedef struct seg {
    int cat;                     /* pf_category, or -1 for idle */
    double ns;                   /* the time it stands for (scaled when activities overlap) */
} seg;

typedef struct bar_layout {
    seg segs[PF_CAT_COUNT + 1];
    int n_segs;
    double span_ns;
    char lines[4][512];          /* the percentages under the bar, wrapped */
    int n_lines;
    int scaled;                  /* categories overlap: scaled to the busy time */
    double height;
} bar_layout;

static double span_of(const pf_device_report *d)
{
    return (double)(d->busy.end_ns - d->busy.start_ns);
}

static const char *seg_name(const seg *s)
{
    return s->cat < 0 ? "idle" : pf_category_name((pf_category)s->cat);
}

static double seg_pct(const seg *s, const bar_layout *b)
{
    return b->span_ns > 0 ? 100.0 * s->ns / b->span_ns : 0;
}

/* Categories by time, largest first (ties in category order), each scaled so that together
 * they fill the busy time; then the idle time. */
static void make_segs(const pf_device_report *d, bar_layout *b)
{
    const pf_busy *bz = &d->busy;
    double scale = bz->sum_ns > bz->busy_ns && bz->sum_ns > 0 ? (double)bz->busy_ns / (double)bz->sum_ns : 1.0;
    b->scaled = scale < 1.0;
    b->span_ns = span_of(d);
    for (int c = 0; c < PF_CAT_COUNT; c++) {
        if (pf_report_cat(d, c)->total_ns <= 0)
            continue;
        int j = b->n_segs++;
        for (; j > 0 && pf_report_cat(d, b->segs[j - 1].cat)->total_ns < pf_report_cat(d, c)->total_ns; j--)
            b->segs[j] = b->segs[j - 1];
        b->segs[j] = (seg){c, (double)pf_report_cat(d, c)->total_ns * scale};
    }
    double idle = b->span_ns - (double)bz->busy_ns;
    if (idle > 0)
        b->segs[b->n_segs++] = (seg){-1, idle};
}

/* "gemm 10.06%, elementwise 3.81%, ..., idle 80.02%" wrapped to the bar's width. */
static void make_lines(bar_layout *b)
{
    size_t max_chars = (size_t)(BAR_W / (PF_PLOT_FONT_PX * 0.58));
    for (int i = 0; i < b->n_segs; i++) {
        char item[96];
        snprintf(item, sizeof item, "%s %.2f%%%s", seg_name(&b->segs[i]), seg_pct(&b->segs[i], b),
                 i + 1 < b->n_segs ? ", " : "");
        char *line = b->lines[b->n_lines ? b->n_lines - 1 : 0];
        if (b->n_lines == 0 || (strlen(line) + strlen(item) > max_chars && b->n_lines < 4)) {
            line = b->lines[b->n_lines++];
            line[0] = 0;
        }
        size_t len = strlen(line);
        snprintf(line + len, sizeof b->lines[0] - len, "%s", item);
    }
}

static void layout(const pf_breakdown_bar *bar, const pf_breakdown_bar *prev, bar_layout *b)
{
    memset(b, 0, sizeof *b);
    make_segs(bar->d, b);
    make_lines(b);
    int new_group = bar->group && (!prev || !prev->group || strcmp(prev->group, bar->group) != 0);
    b->height = (new_group ? GROUP_H : 0) + LABEL_H + BAR_H + 4 + (b->n_lines + b->scaled) * LINE_H + GAP;
}

static void draw_seg(pf_xw *w, const seg *s, const bar_layout *b, double x, double y, double width)
{
    char tip[160], label[96];
    snprintf(tip, sizeof tip, "%s: %.3f us, %.2f%% of the span", seg_name(s), s->ns / 1e3, seg_pct(s, b));
    pf_plot_rect_begin(w, "seg", x, y, width, BAR_H, s->cat < 0 ? PF_COLOR_IDLE : pf_category_color((pf_category)s->cat));
    pf_xw_attr(w, "data-category", seg_name(s));
    pf_xw_attr_int(w, "data-ns", s->ns);
    pf_xw_attr_sig(w, "data-pct", seg_pct(s, b));
    pf_xw_elem(w, "title", tip);
    pf_xw_end(w);
    /* the name and share, else the share alone (the colour and the legend name it); a segment
     * too narrow for either is still listed with its share in the lines under the bar */
    snprintf(label, sizeof label, "%s %.1f%%", seg_name(s), seg_pct(s, b));
    if (pf_plot_text_width(label, PF_PLOT_FONT_PX) + 6 > width)
        snprintf(label, sizeof label, "%.1f%%", seg_pct(s, b));
    if (pf_plot_text_width(label, PF_PLOT_FONT_PX) + 6 <= width)
        pf_plot_text(w, x + 3, y + BAR_H / 2 + 4, NULL, "seg-label", 0, label);
}

static void draw_bar(pf_xw *w, const pf_breakdown_bar *bar, const pf_breakdown_bar *prev, const bar_layout *b,
                     double y, double px_per_ns)
{
    const pf_device_report *d = bar->d;
    if (bar->group && (!prev || !prev->group || strcmp(prev->group, bar->group) != 0)) {
        pf_plot_heading(w, "group", BAR_L, y + 15, "13", bar->group);
        y += GROUP_H;
    }
    char head[512];
    snprintf(head, sizeof head, "%s: span %.3f us, busy %.3f us (%.2f%%)", bar->label, b->span_ns / 1e3,
             d->busy.busy_ns / 1e3, b->span_ns > 0 ? 100.0 * (double)d->busy.busy_ns / b->span_ns : 0);
    pf_plot_text(w, BAR_L, y + 13, NULL, "bar-title", 0, head);
    y += LABEL_H;
    pf_xw_begin(w, "g");
    pf_xw_attr(w, "class", "bar");
    pf_xw_attr(w, "data-label", bar->label);
    pf_xw_attr_int(w, "data-span-ns", b->span_ns);
    double x = BAR_L;
    for (int i = 0; i < b->n_segs; i++) {
        double width = b->segs[i].ns * px_per_ns;
        draw_seg(w, &b->segs[i], b, x, y, width);
        x += width;
    }
    pf_plot_outline(w, "outline", BAR_L, y, b->span_ns * px_per_ns, BAR_H);
    pf_xw_end(w);
    y += BAR_H + 4 + LINE_H - 4;
    for (int i = 0; i < b->n_lines; i++, y += LINE_H)
        pf_plot_text(w, BAR_L, y, NULL, "pcts", 0, b->lines[i]);
    if (b->scaled) {
        char s[200];
        snprintf(s, sizeof s, "Activities overlap by %.3f us (concurrent streams): categories are scaled to the busy time.",
                 (d->busy.sum_ns - d->busy.busy_ns) / 1e3);
        pf_plot_text(w, BAR_L, y, NULL, "note", 0, s);
    }
}

/* Categories present in any bar by their time summed over the bars, largest first (ties in
 * category order), as each bar lays its segments out; then idle, which every bar puts last. */
static size_t legend_items(const pf_breakdown_bar *bars, size_t n, pf_legend_item *items)
{
    int order[PF_CAT_COUNT] = {0};
    int64_t ns[PF_CAT_COUNT] = {0};
    size_t k = 0;
    for (int c = 0; c < PF_CAT_COUNT; c++) {
        for (size_t i = 0; i < n; i++)
            ns[c] += pf_report_cat(bars[i].d, c)->total_ns > 0 ? pf_report_cat(bars[i].d, c)->total_ns : 0;
        if (ns[c] <= 0)
            continue;
        size_t j = k++;
        for (; j > 0 && ns[order[j - 1]] < ns[c]; j--)
            order[j] = order[j - 1];
        order[j] = c;
    }
    for (size_t j = 0; j < k; j++)
        items[j] = (pf_legend_item){pf_category_name((pf_category)order[j]), pf_category_color((pf_category)order[j])};
    items[k++] = (pf_legend_item){"idle", PF_COLOR_IDLE};
    return k;
}

int pf_plot_breakdown(pf_xw *w, const pf_breakdown_bar *bars, size_t n)
{
    bar_layout *b = calloc(n ? n : 1, sizeof *b);
    if (!b)
        return -1;
    double bars_h = 0, max_ns = 0;
    for (size_t i = 0; i < n; i++) {
        layout(&bars[i], i ? &bars[i - 1] : NULL, &b[i]);
        bars_h += b[i].height;
        max_ns = fmax(max_ns, b[i].span_ns);
    }
    pf_legend_item items[PF_CAT_COUNT + 1];
    size_t n_items = legend_items(bars, n, items);
    double legend_h = pf_plot_legend(NULL, BAR_L, 0, BAR_W, items, n_items);
    double px_per_ns = max_ns > 0 ? BAR_W / max_ns : 0;
    pf_plot_svg_begin(w, "breakdown", CHART_W, TOP + 24 + bars_h + AXIS_H + legend_h + 10);
    pf_plot_heading(w, "title", BAR_L, TOP + 12, "14",
                    n ? "GPU time breakdown: each device's span by category, and idle time"
                      : "GPU time breakdown: the trace has no GPU activity");
    double y = TOP + 24;
    if (max_ns > 0)
        pf_plot_time_axis(w, BAR_L, y, y + bars_h - GAP, max_ns, px_per_ns, "Time from the device's first GPU activity");
    for (size_t i = 0; i < n; i++) {
        draw_bar(w, &bars[i], i ? &bars[i - 1] : NULL, &b[i], y, px_per_ns);
        y += b[i].height;
    }
    pf_plot_legend(w, BAR_L, y - GAP + AXIS_H, BAR_W, items, n_items);
    pf_xw_end(w);
    free(b);
    return 0;
}
