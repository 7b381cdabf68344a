/* plot.h - the SVG charts: a roofline per device, and a bar of each device's GPU span split into categories and idle time. */
/* layer: render (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_PLOT_H
#define PROFANA_PLOT_H

#include <stddef.h>

#include "profana/analysis.h"
#include "profana/diff.h"
#include "profana/ranks.h"
#include "profana/ranks_culprit.h"
#include "profana/svg.h"

/* One roofline chart: a device's rows against its roofs. */
typedef struct pf_roofline_panel {
    const char *title;                 /* above the chart, e.g. "Device 0: NVIDIA H100 80GB HBM3 (H100 SXM)" */
    const pf_device_report *d;         /* rows, info (NULL: unknown device, no roofs) */
    unsigned dtypes;                   /* bit per pf_dtype: the compute roofs to draw (pf_dtypes_used) */
    pf_group_by group;                 /* how row keys are shortened for labels */
    /* --diff: one chart of a device pair, d being side A */
    const pf_device_report *b;         /* side B; NULL: a chart of d alone */
    unsigned dtypes_b;                 /* B's compute roofs (drawn too when its device differs) */
    const char *names[2];              /* the sides' names */
    const pf_diff_device *pair;        /* the matched rows: an arrow from A's dot to B's */
} pf_roofline_panel;

/* Writes one <svg> holding the panels one under the other. Per panel: log-log axes with
 * decade ticks (x FLOP/byte, y TFLOP/s), the memory roof (peak GB/s x intensity) and a
 * compute roof per dtype in p->dtypes (equal peaks share one labelled line). Every row with
 * GPU time is placed, once: one circle of class "dot" per row whose FLOPs and bytes are known
 * and above zero, or "dot partial" (a dashed ring, and a line under the chart) for a row known
 * in part, placed by the launches with both figures (pf_row.both_*); area proportional to its
 * total time, filled by category, with data-name, data-category, data-x (FLOP/byte), data-y
 * (TFLOP/s), data-us and data-gpu-us (total time), and data-known-us (the part placed) when
 * partial; the 10 heaviest labelled with pf_short_name. The other rows (no FLOPs above zero,
 * or no bytes) go on the bandwidth strip under the chart (src/render/plot_parts.h: circles
 * "strip-dot" by achieved GB/s against the DRAM roof, the rows without bytes in one
 * "strip-unknown" box), each with data-gpu-us: the data-gpu-us of a panel sum to the
 * device's GPU time. The y axis spans the heaviest dots holding 99% of the dots' time (the
 * roofs raise its top); lighter dots below it sit on its edge, and a line says how many. A
 * legend of the categories drawn; a dot above a roof (FLOPS % or BW % over 100) drawn in the
 * warning colour, with class "dot over", and listed under the chart. The plot area is a
 * <g class="plot"> with data-x0/-x1 (decade exponents at its left/right edge), data-y0/-y1
 * (bottom/top) and data-left/-top/-width/-height (pixels in the panel's coordinates, the
 * panel being translated by data-dy), so a test can map a dot's figures to its position.
 * With p->b (--diff) a panel holds both sides: A's marks hollow, B's filled, each with
 * data-side "a" or "b" (each side's data-gpu-us sum to its device's GPU time), an arrow
 * (<g class="arrow"> with data-a and data-b, the rows' keys) from A's dot to B's for every
 * matched row with a dot on both sides, and B's roofs beside A's when its device differs.
 * Returns 0, or -1 when memory runs out (the output is then incomplete). */
int pf_plot_roofline(pf_xw *w, const pf_roofline_panel *p, size_t n);

/* One bar of the breakdown. */
typedef struct pf_breakdown_bar {
    const char *group;                 /* heading above this bar and the next ones of the same
                                          group (a --diff device pair); NULL: none */
    const char *label;                 /* the bar's title, e.g. "Device 0: NVIDIA H100 80GB HBM3" */
    const pf_device_report *d;
} pf_breakdown_bar;

/* Writes one <svg> with a horizontal bar per entry, on one time scale (the longest span):
 * the device's GPU span split into its categories, largest first, and idle time last, each
 * a <rect class="seg"> with data-category ("idle" for idle time), data-ns (the time it
 * stands for) and data-pct (percent of the span), labelled when wide enough and listed with
 * percentages under the bar. Categories fill the busy time: when activities overlap
 * (concurrent streams) their summed times exceed it and they are scaled down to it, which a
 * line under the bar says. Then a time axis and a legend. Returns 0, or -1 when memory runs
 * out. */
int pf_plot_breakdown(pf_xw *w, const pf_breakdown_bar *bars, size_t n);

/* Writes one <svg> timeline of the analysis: per device (a <g class="device">) a lane per
 * stream and a lane of its idle time (<g class="lane"> / <g class="lane idle"> with data-device,
 * data-stream, data-y and data-height; a stream lane's data-busy-ns is the union of its
 * activities, the idle lane's data-host-wait-ns, data-launch-latency-ns and
 * data-unattributed-ns its idle causes, waits.h), all on one time scale (<g class="plot"> with
 * data-left, data-width, data-t0-ns, data-t1-ns), cut into data-bins pixel-wide bins. In each
 * bin a lane draws one <rect class="bin"> as high as the share of the bin it is busy (idle),
 * coloured by the category (cause) with the most time in it, with data-ns (the time it stands
 * for: the bins of a lane sum to its busy or idle time) and data-category (data-cause, and
 * data-host-wait-ns, data-launch-latency-ns, data-unattributed-ns). The output is bounded
 * whatever the input: a device with more than 64 streams draws its 63 busiest (by their union,
 * ties to the lower id) and one <g class="lane other"> for the rest (data-busy-ns the union of
 * their activities, data-lanes how many, data-lanes-busy-ns the sum of their own unions,
 * data-count their activities); past 16 devices the 15 busiest are drawn and the rest make one
 * <g class="device other"> (data-devices, and their idle causes summed) of one such lane. Then
 * a time axis and a legend (<g class="legend">) of the categories and causes drawn. Needs
 * an->waits. Returns 0, or -1 when memory runs out (the output is then incomplete). */
int pf_plot_timeline(pf_xw *w, const pf_analysis *an);

/* Writes one <svg> of --ranks (s[0, n) sorted by rank, rep and cul of them): per rank (a <g
 * class="bar"> with data-rank and data-span-us) its GPU span split exclusively into <rect
 * class="seg"> with data-rank, data-cause "compute" (the union of its compute kernels),
 * "exposed-comm" (communication under no compute), "copy" (the rest of its busy time: copies
 * and fills alone) and "idle" (span minus busy), and data-us (summed over its devices; the
 * four sum to its span), on one time scale; per rank with a late arrival its excess over the
 * median rank by cause (pf_rank_culprit.excess_ns: data-cause "compute", "copy", "comm",
 * "idle"); per collective row (the first 12) a <g class="panel skew"> (data-name, data-pg,
 * data-bytes) of <rect class="skew-bar"> per instance in order, or per bin of consecutive
 * instances when they are more than the width holds, with data-seq, data-count, data-sum-us
 * (their skews summed: last kernel start minus first), data-max-us and data-last-rank (-1: a
 * tie or a bin). Past 64 ranks the 64 of most lateness are drawn, and a line says so. Returns
 * 0, or -1 when memory runs out. */
int pf_plot_ranks(pf_xw *w, const pf_rank_summary *s, size_t n, const pf_ranks_report *rep,
                  const pf_culprit_report *cul);

/* The dtypes (bit per pf_dtype) of the device's activities with FLOPs above zero: the compute
 * roofs its roofline needs. */
unsigned pf_dtypes_used(const pf_analysis *an, const pf_device_report *d);

/* A group key short enough for a chart label, into buf (n bytes, never ending inside a UTF-8
 * character), by the rule the text tables use (profana/names.h): a kernel signature becomes
 * its function name and, when it has one, the name of its first template argument that is not
 * a number (ATen's functor): "void at::native::vectorized_elementwise_kernel<8,
 * at::native::CUDAFunctor_add<c10::BFloat16>, ...>(int, ...)" ->
 * "vectorized_elementwise_kernel<CUDAFunctor_add>" (pf_name_short); op keys stay as they are.
 * Past `limit` characters it is cut in the middle (pf_name_cut). Returns buf. The labels of
 * one chart can be told apart with pf_names_short_set. */
const char *pf_short_name(const char *key, pf_group_by g, int limit, char *buf, size_t n);

/* The fill colour of a category ("#rrggbb"), and of the warning and idle marks. */
const char *pf_category_color(pf_category c);
#define PF_COLOR_WARN "#d62728"
#define PF_COLOR_IDLE "#e6e6e6"

/* ---- shared by the charts ---- */

#define PF_PLOT_FONT_PX 11.0

/* Estimated width in pixels of s at the charts' font size (characters x 0.58 em): used to
 * keep labels apart and inside the chart, so it errs wide. */
double pf_plot_text_width(const char *s, double font_px);

/* One legend entry: a swatch of colour and its label. */
typedef struct pf_legend_item {
    const char *label;
    const char *color;
} pf_legend_item;

/* Lays out items in rows from (x, y) within width, drawing them when w is not NULL, and
 * returns the height used. */
double pf_plot_legend(pf_xw *w, double x, double y, double width, const pf_legend_item *items, size_t n);

/* An arrow from (x0, y0) towards (x1, y1), its head stopping `back` pixels short of it (the
 * rim of a dot there): a line and a filled triangle. The two points lie more than back apart. */
void pf_plot_arrow(pf_xw *w, double x0, double y0, double x1, double y1, double back);

/* Opens a <rect> of class cls at (x, y), width x height, filled: the caller adds its data
 * attributes and a <title>, then closes it (pf_xw_end). */
void pf_plot_rect_begin(pf_xw *w, const char *cls, double x, double y, double width, double height, const char *fill);

/* A bold <text> of class cls at (x, y), font-size size ("14"): a chart's title or heading. */
void pf_plot_heading(pf_xw *w, const char *cls, double x, double y, const char *size, const char *s);

/* A time axis for bars that start at x0: grid lines from top down to y at steps of 1, 2 or 5
 * times a power of ten (about 6; in ms from 10 ms up, else us), their labels under y, and the
 * title "WHAT (us), one scale for every bar" under them (34 px below y). max_ns > 0. */
void pf_plot_time_axis(pf_xw *w, double x0, double top, double y, double max_ns, double px_per_ns, const char *what);

/* An unfilled rectangle of class cls with a dark stroke: a chart's frame, a bar's outline. */
void pf_plot_outline(pf_xw *w, const char *cls, double x, double y, double width, double height);

/* A <text> s (non-NULL) at (x, y): class cls and text-anchor anchor where not NULL, font-size
 * font where above 0 (else the chart's). */
void pf_plot_text(pf_xw *w, double x, double y, const char *anchor, const char *cls, double font, const char *s);

/* A <line> of class cls (non-NULL) from (x1, y1) to (x2, y2) in colour stroke (non-NULL),
 * stroke-width width where above 0 (else 1). */
void pf_plot_line(pf_xw *w, const char *cls, double x1, double y1, double x2, double y2, const char *stroke,
                  double width);

/* Opens the chart's <svg> root (width x height px, white background, the charts' font);
 * close it with pf_xw_end. cls is its class attribute ("roofline", "breakdown"). */
void pf_plot_svg_begin(pf_xw *w, const char *cls, double width, double height);

#endif
