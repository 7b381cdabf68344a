/* plot_parts.h - the roofline's bandwidth strip, shared by plot_roofline.c and plot_strip.c (private to src/render/). */
#ifndef PROFANA_RENDER_PLOT_PARTS_H
#define PROFANA_RENDER_PLOT_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include "profana/analysis.h"
#include "profana/svg.h"

/* One row on the strip: placed by its achieved GB/s, over the launches whose bytes are known
 * (partial when that is not all of them). */
typedef struct pf_strip_mark {
    const pf_row *r;
    double gbps;                       /* > 0 */
    int partial;
    int side;                          /* --diff: 0 A (drawn hollow), 1 B; else 0 */
} pf_strip_mark;

/* The rows with GPU time that the roofline cannot place (no FLOPs above zero, or FLOPs
 * without bytes): those with bytes by their GB/s against the DRAM roof, the rest counted in
 * one box. */
typedef struct pf_plot_strip {
    pf_strip_mark *marks;              /* heaviest first */
    size_t n_marks, cap;
    size_t n_unknown[2];               /* rows with no bytes above zero, per side */
    int64_t unknown_ns[2];
    int64_t marks_ns;
    double dram_gbps;                  /* the roof; 0: unknown device */
    int diff;                          /* the marks carry data-side, A's hollow */
    int ex0, ex1;                      /* axis range, decades of GB/s */
} pf_plot_strip;

/* Puts row r (total_ns > 0) of side (0, or --diff's 0 A / 1 B) on the strip s (zeroed
 * before the first call). Returns 0, or -1 when memory runs out. */
int pf_plot_strip_add(pf_plot_strip *s, const pf_row *r, int side);

/* Sorts the marks and sets the axis range (dram_gbps set before). */
void pf_plot_strip_layout(pf_plot_strip *s);

/* The height the strip takes under the chart: 0 when it holds no row. */
double pf_plot_strip_height(const pf_plot_strip *s);

/* Draws the strip with its top at y, its plot x from left over width; marks' radii scaled
 * as the chart's dots (heaviest_ns: the panel's heaviest row holds r_max); total_ns the
 * device's GPU time, for the shares written. Each mark is a <circle class="strip-dot">
 * (class "strip-dot partial" for a row known in part) with data-name, data-category,
 * data-gbps and data-gpu-us (the row's whole GPU time) and, when partial, data-known-us;
 * the box is a <rect class="strip-unknown"> with data-rows and data-gpu-us (one a side, with
 * data-side, in a --diff). */
void pf_plot_strip_draw(pf_xw *w, const pf_plot_strip *s, double left, double y, double width, int64_t heaviest_ns,
                        double r_max, int64_t total_ns);

void pf_plot_strip_free(pf_plot_strip *s);

#endif
