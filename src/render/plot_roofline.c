/* plot_roofline.c - the roofline chart: achieved TFLOP/s against FLOP per byte, per device, on log-log axes with its roofs. */
#include "profana/plot.h"

#include "plot_parts.h"
#include "profana/rates.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Panel geometry in pixels: the plot area and what sits below it. */
#define PANEL_W 820.0
#define PLOT_L 78.0
#define PLOT_T 44.0
#define PLOT_W 700.0
#define PLOT_H 400.0
#define BELOW_PLOT 48.0          /* tick labels and the x axis title */
#define LINE_H 15.0
#define R_MAX 18.0               /* radius of the heaviest dot */
#define R_MIN 1.5                /* smaller dots would vanish */
#define LABELLED 10              /* the heaviest dots carry their names */
#define LABEL_CHARS 36
#define LABEL_FONT 10.0
#define OVER_LISTED 10           /* dots above a roof listed by name; the rest counted */
#define MAX_DECADES 12
#define AXIS_LIMIT 400.0 /* decades: beyond the logarithm of any finite double */
#define Y_SHARE 0.99     /* the y axis spans the heaviest dots holding this share of the dots' time */

typedef struct dot {
    const pf_row *r;
    double x, y;                 /* FLOP/byte and TFLOP/s: the row's, or its known part's */
    double lx, ly;               /* their log10 */
    double px, py, rad;
    int over;                    /* above a roof */
    int partial;                 /* placed by the launches with both figures, not all */
    int side;                    /* --diff: 0 A (hollow), 1 B */
} dot;

typedef struct roof {
    double tflops;               /* the compute roof */
    char label[96];              /* "bf16, fp16 989.5 TFLOP/s" */
    int side;                    /* --diff: 1 for B's own roofs */
} roof;

typedef struct panel {
    const pf_roofline_panel *p;
    dot *dots;
    size_t n_dots, n_over;
    size_t n_partial;            /* dots of rows known in part */
    int64_t partial_ns, partial_known_ns;
    size_t n_low;                /* dots below the y axis, drawn on its edge */
    int64_t low_ns;
    pf_plot_strip strip;         /* the rows with no FLOPs to place */
    int64_t heaviest_ns;         /* the panel's heaviest row, dots and strip alike */
    roof roofs[2 * PF_DT_COUNT]; /* a --diff pair of two devices: both sides' */
    int n_roofs;
    double gbps;                 /* memory roof; 0 none */
    double gbps_b;               /* --diff: B's memory roof where its device differs; 0 none */
    int64_t total_ns;            /* GPU time of the device, or of both sides */
    int ex0, ex1, ey0, ey1;      /* axis ranges in decades */
    pf_legend_item legend[PF_CAT_COUNT + 1];
    size_t n_legend;
    double height;
} panel;

/* ---- layout ---- */

static int cmp_dot_time(const void *x, const void *y)
{
    const dot *a = x, *b = y;
    if (a->r->total_ns != b->r->total_ns)
        return a->r->total_ns < b->r->total_ns ? 1 : -1;
    return a->r < b->r ? -1 : a->r > b->r; /* rows sit in one array: their order */
}

/* A dot needs positive FLOPs, bytes and time to have a place on log axes, and finite
 * logarithms of its intensity and rate (the axes' decades are counted from them). */
static int plottable(const pf_row *r)
{
    return pf_row_has_flop(r) && pf_row_has_bytes(r) && r->flop > 0 && r->bytes > 0 && r->total_ns > 0 &&
           isfinite(log10(r->flop / r->bytes)) && isfinite(log10(pf_row_tflops(r)));
}

/* A row known in part is placed by the launches with both figures: their FLOPs above zero
 * over their bytes and their time. */
static int plottable_part(const pf_row *r)
{
    double tf = pf_rate(r->both_flop, (double)r->both_ns, 1e12);
    return r->both_flop > 0 && r->both_bytes > 0 && r->both_ns > 0 && isfinite(log10(r->both_flop / r->both_bytes)) &&
           tf > 0 && isfinite(log10(tf));
}

/* The rows of one side: dots, or marks on the strip. */
static int collect_side(panel *pn, const pf_device_report *d, int side)
{
    for (size_t i = 0; i < d->n_rows; i++) {
        const pf_row *r = &d->rows[i];
        if (r->total_ns <= 0)
            continue; /* no time to account for */
        int whole = plottable(r);
        if (!whole && !plottable_part(r)) {
            size_t marks = pn->strip.n_marks;
            if (pf_plot_strip_add(&pn->strip, r, side))
                return -1;
            if (pn->strip.n_marks > marks && r->total_ns > pn->heaviest_ns)
                pn->heaviest_ns = r->total_ns; /* a mark is sized as the dots are */
            continue;
        }
        if (r->total_ns > pn->heaviest_ns)
            pn->heaviest_ns = r->total_ns;
        dot *o = &pn->dots[pn->n_dots++];
        o->r = r;
        o->partial = !whole;
        o->side = side;
        o->x = whole ? r->flop / r->bytes : r->both_flop / r->both_bytes;
        o->y = whole ? pf_row_tflops(r) : pf_rate(r->both_flop, (double)r->both_ns, 1e12);
        o->lx = log10(o->x);
        o->ly = log10(o->y);
        o->over = whole && (pf_row_flops_pct(r, d->info) > 100 || pf_row_bw_pct(r, d->info) > 100);
        pn->n_over += o->over;
        if (o->partial) {
            pn->n_partial++;
            pn->partial_ns += r->total_ns;
            pn->partial_known_ns += r->both_ns;
        }
    }
    return 0;
}

static int collect_dots(panel *pn)
{
    const pf_device_report *d = pn->p->d, *b = pn->p->b;
    size_t n = d->n_rows + (b ? b->n_rows : 0);
    pn->dots = calloc(n ? n : 1, sizeof *pn->dots);
    if (!pn->dots)
        return -1;
    pn->strip.dram_gbps = d->info && d->info->peak_gbps > 0 ? d->info->peak_gbps : 0;
    pn->strip.diff = b != NULL;
    pn->total_ns = d->total.total_ns + (b ? b->total.total_ns : 0);
    if (collect_side(pn, d, 0) || (b && collect_side(pn, b, 1)))
        return -1;
    pf_plot_strip_layout(&pn->strip);
    qsort(pn->dots, pn->n_dots, sizeof *pn->dots, cmp_dot_time);
    return 0;
}

/* One compute roof per distinct peak among the dtypes used; dtypes with equal peaks share it.
 * A --diff pair whose devices differ adds B's, their labels opening with the side's name. */
static void collect_roofs(panel *pn)
{
    const pf_device_info *ia = pn->p->d->info, *ib = pn->p->b ? pn->p->b->info : NULL;
    int both = ia && ib && ia != ib && strcmp(ia->key, ib->key) != 0;
    if (ia)
        pn->gbps = ia->peak_gbps > 0 ? ia->peak_gbps : 0;
    if (both && ib->peak_gbps > 0 && ib->peak_gbps != pn->gbps)
        pn->gbps_b = ib->peak_gbps;
    for (int side = 0; side < 1 + both; side++) {
        const pf_device_info *info = side ? ib : ia;
        unsigned dtypes = side ? pn->p->dtypes_b : pn->p->dtypes;
        int first = pn->n_roofs;
        for (int k = 0; k < PF_DT_COUNT && info; k++) {
            double t = pf_peak_flops(info, (pf_dtype)k) / 1e12;
            if (!(dtypes & (1u << k)) || t <= 0)
                continue;
            int j = first;
            while (j < pn->n_roofs && pn->roofs[j].tflops != t)
                j++;
            roof *rf = &pn->roofs[j];
            int fresh = j == pn->n_roofs;
            if (fresh) {
                pn->n_roofs++;
                rf->tflops = t;
                rf->side = side;
                rf->label[0] = '\0';
                if (both)
                    snprintf(rf->label, sizeof rf->label, "%s: ", pn->p->names[side]);
            }
            size_t len = strlen(rf->label);
            snprintf(rf->label + len, sizeof rf->label - len, "%s%s", fresh ? "" : ", ", pf_dtype_name((pf_dtype)k));
        }
    }
    for (int j = 0; j < pn->n_roofs; j++) {
        size_t len = strlen(pn->roofs[j].label);
        snprintf(pn->roofs[j].label + len, sizeof pn->roofs[j].label - len, " %.1f TFLOP/s", pn->roofs[j].tflops);
    }
}

/* Decades covering the dots and roofs (ridge points included), with a margin, at most
 * MAX_DECADES wide (dots outside are drawn on the edge). The y axis ends at the decade below
 * the lowest of the heaviest dots that hold Y_SHARE of the dots' time (the dots sit sorted by
 * time): a few microseconds of a slow kernel do not stretch it over decades where no time
 * is; the lighter dots below sit on its bottom edge, which a line under the chart says. The
 * roofs raise its top, but lower its bottom only on a chart without dots. */
static void axis_ranges(panel *pn)
{
    double x_lo = INFINITY, x_hi = -INFINITY, y_lo = INFINITY, y_hi = -INFINITY;
    int64_t all_ns = 0, seen_ns = 0;
    for (size_t i = 0; i < pn->n_dots; i++)
        all_ns += pn->dots[i].r->total_ns;
    for (size_t i = 0; i < pn->n_dots; i++) {
        x_lo = fmin(x_lo, pn->dots[i].lx);
        x_hi = fmax(x_hi, pn->dots[i].lx);
        y_hi = fmax(y_hi, pn->dots[i].ly);
        if (i == 0 || (double)seen_ns < Y_SHARE * (double)all_ns)
            y_lo = fmin(y_lo, pn->dots[i].ly);
        seen_ns += pn->dots[i].r->total_ns;
    }
    for (int j = 0; j < pn->n_roofs && pn->gbps > 0; j++) {
        double ly = log10(pn->roofs[j].tflops), ridge = log10(pn->roofs[j].tflops * 1e3 / pn->gbps);
        x_lo = fmin(x_lo, ridge - 1);
        x_hi = fmax(x_hi, ridge + 1);
        if (pn->n_dots == 0)
            y_lo = fmin(y_lo, ly - 2);
        y_hi = fmax(y_hi, ly);
    }
    if (x_lo > x_hi) { /* nothing to draw: a plain frame */
        x_lo = -1, x_hi = 3, y_lo = -3, y_hi = 3;
    }
    /* finite logs of doubles lie within +-330; the clamp keeps the int casts defined anyway */
    x_lo = fmax(x_lo, -AXIS_LIMIT), x_hi = fmin(x_hi, AXIS_LIMIT);
    y_lo = fmax(y_lo, -AXIS_LIMIT), y_hi = fmin(y_hi, AXIS_LIMIT);
    pn->ex0 = (int)floor(x_lo - 0.15);
    pn->ex1 = (int)ceil(x_hi + 0.15);
    pn->ey0 = (int)floor(y_lo - 0.15);
    pn->ey1 = (int)ceil(y_hi + 0.15);
    if (pn->ex1 - pn->ex0 > MAX_DECADES)
        pn->ex0 = pn->ex1 - MAX_DECADES;
    if (pn->ey1 - pn->ey0 > MAX_DECADES)
        pn->ey0 = pn->ey1 - MAX_DECADES;
    for (size_t i = 0; i < pn->n_dots; i++)
        if (pn->dots[i].ly < pn->ey0) {
            pn->n_low++;
            pn->low_ns += pn->dots[i].r->total_ns;
        }
}

static double map_x(const panel *pn, double lx)
{
    lx = fmax(pn->ex0, fmin(pn->ex1, lx));
    return PLOT_L + (lx - pn->ex0) / (pn->ex1 - pn->ex0) * PLOT_W;
}

static double map_y(const panel *pn, double ly)
{
    ly = fmax(pn->ey0, fmin(pn->ey1, ly));
    return PLOT_T + PLOT_H - (ly - pn->ey0) / (pn->ey1 - pn->ey0) * PLOT_H;
}

static void place_dots(panel *pn)
{
    int64_t heaviest = pn->heaviest_ns > 0 ? pn->heaviest_ns : 1;
    int seen[PF_CAT_COUNT] = {0};
    for (size_t i = 0; i < pn->n_dots; i++) {
        dot *o = &pn->dots[i];
        o->px = map_x(pn, o->lx);
        o->py = map_y(pn, o->ly);
        o->rad = fmax(R_MIN, R_MAX * sqrt((double)o->r->total_ns / (double)heaviest));
        seen[pf_row_category(o->r)] = 1;
    }
    for (size_t i = 0; i < pn->strip.n_marks; i++)
        seen[pf_row_category(pn->strip.marks[i].r)] = 1;
    for (int c = 0; c < PF_CAT_COUNT; c++)
        if (seen[c])
            pn->legend[pn->n_legend++] = (pf_legend_item){pf_category_name((pf_category)c), pf_category_color((pf_category)c)};
    if (pn->n_over)
        pn->legend[pn->n_legend++] = (pf_legend_item){"above a roof (listed below)", PF_COLOR_WARN};
}

static size_t over_lines(const panel *pn)
{
    if (!pn->n_over)
        return 0;
    return 1 + (pn->n_over < OVER_LISTED ? pn->n_over : OVER_LISTED) + (pn->n_over > OVER_LISTED);
}

/* Lines of text under the legend: the unknown-device note, no dots, the partial dots, the
 * dots under the axis, the dots above a roof. */
static size_t note_lines(const panel *pn)
{
    size_t partial = pn->n_partial ? 1 + (pn->p->group == PF_GROUP_KERNEL) : 0;
    return (pn->p->d->info == NULL) + (pn->p->b != NULL) + (pn->n_dots == 0) + partial + (pn->n_low > 0) + over_lines(pn);
}

static int layout(panel *pn, const pf_roofline_panel *p)
{
    memset(pn, 0, sizeof *pn);
    pn->p = p;
    if (collect_dots(pn))
        return -1;
    collect_roofs(pn);
    axis_ranges(pn);
    place_dots(pn);
    double legend_h = pf_plot_legend(NULL, PLOT_L, 0, PLOT_W, pn->legend, pn->n_legend);
    pn->height = PLOT_T + PLOT_H + BELOW_PLOT + pf_plot_strip_height(&pn->strip) + legend_h + 6 +
                 (double)note_lines(pn) * LINE_H + 16;
    return 0;
}

/* ---- drawing ---- */

/* 10^e as an axis label: plain decimals from 0.0001 to 1000000, "1e-5" beyond. */
static void decade_label(int e, char *buf, size_t n)
{
    if (e >= 0 && e <= 6)
        snprintf(buf, n, "%.0f", pow(10, e));
    else if (e < 0 && e >= -4)
        snprintf(buf, n, "%.*f", -e, pow(10, e));
    else
        snprintf(buf, n, "1e%d", e);
}

static void draw_axes(pf_xw *w, const panel *pn)
{
    char buf[32];
    for (int e = pn->ex0; e <= pn->ex1; e++) {
        double x = map_x(pn, e);
        pf_plot_line(w, "grid", x, PLOT_T, x, PLOT_T + PLOT_H, "#e0e0e0", 1);
        pf_plot_line(w, "tick", x, PLOT_T + PLOT_H, x, PLOT_T + PLOT_H + 4, "#333", 1);
        decade_label(e, buf, sizeof buf);
        pf_plot_text(w, x, PLOT_T + PLOT_H + 16, "middle", NULL, 0, buf);
    }
    for (int e = pn->ey0; e <= pn->ey1; e++) {
        double y = map_y(pn, e);
        pf_plot_line(w, "grid", PLOT_L, y, PLOT_L + PLOT_W, y, "#e0e0e0", 1);
        pf_plot_line(w, "tick", PLOT_L - 4, y, PLOT_L, y, "#333", 1);
        decade_label(e, buf, sizeof buf);
        /* the lowest label sits on its tick, not centred on it: centred, its foot touched the
         * first x label's top by a pixel in Chromium (test_report_blocks.sh) */
        pf_plot_text(w, PLOT_L - 7, e == pn->ey0 ? y - 1 : y + 4, "end", NULL, 0, buf);
    }
    pf_plot_outline(w, "frame", PLOT_L, PLOT_T, PLOT_W, PLOT_H);
    pf_plot_text(w, PLOT_L + PLOT_W / 2, PLOT_T + PLOT_H + 36, "middle", NULL, 0, "Arithmetic intensity (FLOP/byte)");
    char rot[64], a[32], b[32];
    double cx = PLOT_L - 48, cy = PLOT_T + PLOT_H / 2;
    snprintf(rot, sizeof rot, "rotate(-90 %s %s)", pf_num_fmt(a, sizeof a, cx, 2), pf_num_fmt(b, sizeof b, cy, 2));
    pf_xw_begin(w, "text");
    pf_xw_attr_num(w, "x", cx);
    pf_xw_attr_num(w, "y", cy);
    pf_xw_attr(w, "text-anchor", "middle");
    pf_xw_attr(w, "transform", rot);
    pf_xw_text(w, "Achieved TFLOP/s");
    pf_xw_end(w);
}

typedef struct box {
    double x0, y0, x1, y1;
} box;

/* What labels must keep clear of: the labels placed so far and the dots. */
typedef struct label_space {
    box placed[2 * PF_DT_COUNT + 2 + LABELLED];
    size_t n_placed;
} label_space;

static int boxes_meet(const box *a, const box *b)
{
    return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

static int inside_plot(const box *b)
{
    return b->x0 >= PLOT_L && b->x1 <= PLOT_L + PLOT_W && b->y0 >= PLOT_T && b->y1 <= PLOT_T + PLOT_H;
}

/* Whether b meets a label placed before. */
static int meets_placed(const box *b, const label_space *ls)
{
    for (size_t i = 0; i < ls->n_placed; i++)
        if (boxes_meet(b, &ls->placed[i]))
            return 1;
    return 0;
}

/* How strictly a label's place is chosen: clear of labels and dots, or of labels only (a
 * label never sits on another one). */
enum { CLEAR_OF_DOTS, CLEAR_OF_LABELS };

/* Whether b stays inside the plot, clear of the labels placed and, by strictness, of the
 * dots' bounding squares. */
static int box_free(const box *b, const label_space *ls, const panel *pn, int strictness)
{
    if (!inside_plot(b))
        return 0;
    if (meets_placed(b, ls))
        return 0;
    for (size_t i = 0; strictness == CLEAR_OF_DOTS && i < pn->n_dots; i++) {
        const dot *o = &pn->dots[i];
        box d = {o->px - o->rad, o->py - o->rad, o->px + o->rad, o->py + o->rad};
        if (boxes_meet(b, &d))
            return 0;
    }
    return 1;
}

/* The memory roof's label sits along the line, at the first of a few places clear of dots. */
static void memory_label(pf_xw *w, const panel *pn, double x_start, double x_end, double b, label_space *ls,
                         const char *label)
{
    static const double along[] = {0.1, 0.3, 0.5, 0.7, 0.2, 0.4, 0.6};
    double ppd_x = PLOT_W / (pn->ex1 - pn->ex0), ppd_y = PLOT_H / (pn->ey1 - pn->ey0);
    double angle = atan2(ppd_y, ppd_x), tw = pf_plot_text_width(label, PF_PLOT_FONT_PX);
    double px = 0, py = 0;
    box bb = {0, 0, 0, 0};
    for (size_t k = 0; k < sizeof along / sizeof along[0]; k++) {
        double lx = x_start + along[k] * (x_end - x_start);
        px = map_x(pn, lx);
        py = map_y(pn, lx + b) - 6;
        /* The rotated text's bounding box, from its baseline start up the slope. */
        bb = (box){px, py - tw * sin(angle) - 12, px + tw * cos(angle) + 4, py + 2};
        if (box_free(&bb, ls, pn, CLEAR_OF_DOTS))
            break;
    }
    ls->placed[ls->n_placed++] = bb;
    char rot[96], s1[32], s2[32], s3[32];
    snprintf(rot, sizeof rot, "rotate(%s %s %s)", pf_num_fmt(s1, sizeof s1, -angle * 180 / M_PI, 2),
             pf_num_fmt(s2, sizeof s2, px, 2), pf_num_fmt(s3, sizeof s3, py, 2));
    pf_xw_begin(w, "text");
    pf_xw_attr(w, "class", "roof-label");
    pf_xw_attr_num(w, "x", px);
    pf_xw_attr_num(w, "y", py);
    pf_xw_attr(w, "transform", rot);
    pf_xw_attr(w, "fill", "#444");
    pf_xw_text(w, label);
    pf_xw_end(w);
}

/* The memory roof runs from the left edge to the highest ridge point; each compute roof from
 * its own ridge point to the right edge. Segments are clipped to the plot area here, in
 * decades, so no clip path is needed. */
static void draw_roofs(pf_xw *w, const panel *pn, label_space *ls)
{
    if (pn->gbps <= 0)
        return;
    double top = pn->n_roofs ? -INFINITY : pn->ey1;
    for (int j = 0; j < pn->n_roofs; j++)
        top = fmax(top, log10(pn->roofs[j].tflops));
    /* highest roof first: its label takes the free space above it, a roof close under it
     * then puts its own under its line */
    int order[2 * PF_DT_COUNT] = {0};
    for (int j = 0; j < pn->n_roofs; j++) {
        int k = j;
        for (; k > 0 && pn->roofs[order[k - 1]].tflops < pn->roofs[j].tflops; k--)
            order[k] = order[k - 1];
        order[k] = j;
    }
    for (int o = 0; o < pn->n_roofs; o++) {
        int j = order[o];
        double gbps = pn->roofs[j].side && pn->gbps_b > 0 ? pn->gbps_b : pn->gbps;
        double ly = log10(pn->roofs[j].tflops), ridge = ly - log10(gbps / 1e3);
        if (ly < pn->ey0 || ly > pn->ey1 || ridge >= pn->ex1)
            continue;
        double y = map_y(pn, ly), right = PLOT_L + PLOT_W - 4;
        pf_plot_line(w, "roof compute", map_x(pn, fmax(ridge, pn->ex0)), y, PLOT_L + PLOT_W, y, "#444", 1.5);
        double tw = pf_plot_text_width(pn->roofs[j].label, PF_PLOT_FONT_PX), x0 = map_x(pn, fmax(ridge, pn->ex0)) + 4;
        /* above the line at its right end, else under it, else the same at its left end (a roof
         * less than a line away holds the first place); no place clear of the labels: none */
        const double lefts[4] = {right - tw, right - tw, x0, x0};
        const double bases[4] = {y - 4, y + PF_PLOT_FONT_PX + 2, y - 4, y + PF_PLOT_FONT_PX + 2};
        int k = 0;
        box bb = {0, 0, 0, 0};
        for (; k < 4; k++) {
            bb = (box){lefts[k], bases[k] - PF_PLOT_FONT_PX, lefts[k] + tw, bases[k] + 2};
            if (!meets_placed(&bb, ls))
                break;
        }
        if (k == 4)
            continue;
        ls->placed[ls->n_placed++] = bb;
        pf_xw_begin(w, "text");
        pf_xw_attr(w, "class", "roof-label");
        pf_xw_attr_num(w, "x", lefts[k]);
        pf_xw_attr_num(w, "y", bases[k]);
        pf_xw_attr(w, "fill", "#444");
        pf_xw_text(w, pn->roofs[j].label);
        pf_xw_end(w);
    }
    for (int side = 0; side < 2; side++) { /* A's (or the device's), then a --diff B's of its own */
        double gbps = side ? pn->gbps_b : pn->gbps;
        if (gbps <= 0)
            continue;
        double b = log10(gbps / 1e3); /* log10 of TFLOP/s at 1 FLOP/byte */
        double x_start = fmax(pn->ex0, pn->ey0 - b), x_end = fmin(fmin(top - b, pn->ex1), pn->ey1 - b);
        if (x_start >= x_end)
            continue;
        pf_plot_line(w, "roof memory", map_x(pn, x_start), map_y(pn, x_start + b), map_x(pn, x_end), map_y(pn, x_end + b),
             "#444", 1.5);
        char label[160];
        if (pn->gbps_b > 0)
            snprintf(label, sizeof label, "%s: DRAM %.0f GB/s", pn->p->names[side], gbps);
        else
            snprintf(label, sizeof label, "DRAM %.0f GB/s", gbps);
        memory_label(w, pn, x_start, x_end, b, ls, label);
    }
}

static void draw_dot(pf_xw *w, const dot *o, int diff)
{
    const pf_row *r = o->r;
    pf_category c = pf_row_category(r);
    double tflops = o->y, intensity = o->x;
    char tip[320];
    pf_xw_begin(w, "circle");
    pf_xw_attr(w, "class", o->over ? "dot over" : o->partial ? "dot partial" : "dot");
    pf_xw_attr_num(w, "cx", o->px);
    pf_xw_attr_num(w, "cy", o->py);
    pf_xw_attr_num(w, "r", o->rad);
    int hollow = diff && o->side == 0; /* --diff: A hollow, B filled */
    pf_xw_attr(w, "fill", hollow ? "none" : o->over ? PF_COLOR_WARN : pf_category_color(c));
    pf_xw_attr(w, "fill-opacity", o->over ? "0.9" : "0.75");
    pf_xw_attr(w, "stroke", o->over ? "#000" : hollow ? pf_category_color(c) : "#333");
    pf_xw_attr(w, "stroke-width", o->over || o->partial ? "1.5" : "0.5");
    if (o->partial) /* the mark of a row placed by its known part */
        pf_xw_attr(w, "stroke-dasharray", "3 2");
    pf_xw_attr(w, "data-name", r->key);
    pf_xw_attr(w, "data-category", pf_category_name(c));
    if (diff)
        pf_xw_attr(w, "data-side", o->side ? "b" : "a");
    pf_xw_attr_sig(w, "data-x", intensity);
    pf_xw_attr_sig(w, "data-y", tflops);
    pf_xw_attr_sig(w, "data-us", r->total_ns / 1e3);
    pf_xw_attr_sig(w, "data-gpu-us", r->total_ns / 1e3);
    if (o->partial)
        pf_xw_attr_sig(w, "data-known-us", r->both_ns / 1e3);
    snprintf(tip, sizeof tip, "\n%s, %.3f us in %lld launches: %.2f TFLOP/s at %.3g FLOP/byte%s", pf_category_name(c),
             r->total_ns / 1e3, (long long)r->count, tflops, intensity,
             o->partial ? " over the launches with both figures" : "");
    pf_xw_begin(w, "title");
    pf_xw_text(w, r->key);
    pf_xw_text(w, tip);
    pf_xw_end(w);
    pf_xw_end(w);
}

/* A label beside its dot: right or left of it, level with it or moved up or down a line or
 * more (then a leader line joins them), or centred above or below; the first place inside
 * the plot and clear of the labels before it and of the dots wins, then the first clear of
 * labels only. A label with no place clear of the others is left off (the dot keeps its name
 * in its tooltip and data-name): overlapping labels could be read as each other's. */
static void draw_label(pf_xw *w, const panel *pn, const dot *o, const char *name, label_space *ls)
{
    enum { SHIFTS = 17, PLACES = SHIFTS * 2 + 2 };
    static const double shift[SHIFTS] = {0, -1, 1, -2, 2, -3, 3, -4, 4, -5, 5, -6, 6, -7, 7, -8, 8};
    double tw = pf_plot_text_width(name, LABEL_FONT), gap = o->rad + 3, lh = LABEL_FONT + 3;
    box cand[PLACES];
    double tx[PLACES], ty[PLACES];
    for (int k = 0; k < PLACES; k++) {
        int side = k < SHIFTS * 2 ? k % 2 : 2 + (k - SHIFTS * 2); /* 0 right, 1 left, 2 above, 3 below */
        double dy = k < SHIFTS * 2 ? shift[k / 2] * lh : 0;
        ty[k] = side == 2 ? o->py - gap - 1 : side == 3 ? o->py + gap + LABEL_FONT : o->py + 3.5 + dy;
        double left = side == 0 ? o->px + gap : side == 1 ? o->px - gap - tw : o->px - tw / 2;
        tx[k] = left;
        cand[k] = (box){left, ty[k] - LABEL_FONT * 0.8, left + tw, ty[k] + 2.5}; /* cap height to descender */
    }
    int pick = -1;
    for (int level = 0; level <= CLEAR_OF_LABELS && pick < 0; level++)
        for (int k = 0; k < PLACES && pick < 0; k++)
            if (box_free(&cand[k], ls, pn, level))
                pick = k;
    if (pick < 0)
        return;
    ls->placed[ls->n_placed++] = cand[pick];
    if (pick < SHIFTS * 2 && shift[pick / 2] != 0) {
        double ex = pick % 2 == 0 ? cand[pick].x0 - 1 : cand[pick].x1 + 1;
        pf_plot_line(w, "leader", o->px, o->py, ex, ty[pick] - LABEL_FONT / 2 + 1, "#888", 0.6);
    }
    pf_xw_begin(w, "text");
    pf_xw_attr(w, "class", "dot-label");
    pf_xw_attr_num(w, "x", tx[pick]);
    pf_xw_attr_num(w, "y", ty[pick]);
    pf_xw_attr_num(w, "font-size", LABEL_FONT);
    pf_xw_text(w, name);
    pf_xw_end(w);
}

/* The dot of row r on side, or NULL. */
static const dot *dot_of(const panel *pn, const pf_row *r, int side)
{
    for (size_t i = 0; r && i < pn->n_dots; i++)
        if (pn->dots[i].r == r && pn->dots[i].side == side)
            return &pn->dots[i];
    return NULL;
}

/* --diff: an arrow from A's dot to B's for each matched row placed on both sides, its head
 * at the rim of B's dot; a row that did not move (under a pixel) gets none. */
static void draw_arrows(pf_xw *w, const panel *pn)
{
    const pf_diff_device *pair = pn->p->pair;
    for (size_t i = 0; pair && i < pair->n_rows; i++) {
        const dot *a = dot_of(pn, pair->rows[i].a, 0), *b = a ? dot_of(pn, pair->rows[i].b, 1) : NULL;
        if (!b)
            continue;
        double dx = b->px - a->px, dy = b->py - a->py;
        if (sqrt(dx * dx + dy * dy) <= b->rad + 1)
            continue;
        pf_xw_begin(w, "g");
        pf_xw_attr(w, "class", "arrow");
        pf_xw_attr(w, "data-a", a->r->key);
        pf_xw_attr(w, "data-b", b->r->key);
        pf_plot_arrow(w, a->px, a->py, b->px, b->py, b->rad);
        pf_xw_end(w);
    }
}

static void draw_dots(pf_xw *w, const panel *pn, label_space *ls)
{
    /* Heaviest first, so smaller dots are drawn over the big ones and stay visible. */
    for (size_t i = 0; i < pn->n_dots; i++)
        draw_dot(w, &pn->dots[i], pn->p->b != NULL);
    draw_arrows(w, pn);
    char name[LABEL_CHARS * 4 + 8];
    int wanted = pn->p->b ? 1 : 0; /* --diff: B's dots carry the names, A's arrows lead to them */
    for (size_t i = 0, n = 0; i < pn->n_dots && n < LABELLED; i++) {
        if (pn->dots[i].side != wanted)
            continue;
        n++;
        pf_short_name(pn->dots[i].r->key, pn->p->group, LABEL_CHARS, name, sizeof name);
        draw_label(w, pn, &pn->dots[i], name, ls);
    }
}

static void draw_plot(pf_xw *w, const panel *pn)
{
    label_space ls = {.n_placed = 0};
    pf_xw_begin(w, "g");
    pf_xw_attr(w, "class", "plot");
    pf_xw_attr_num(w, "data-x0", pn->ex0);
    pf_xw_attr_num(w, "data-x1", pn->ex1);
    pf_xw_attr_num(w, "data-y0", pn->ey0);
    pf_xw_attr_num(w, "data-y1", pn->ey1);
    pf_xw_attr_num(w, "data-left", PLOT_L);
    pf_xw_attr_num(w, "data-top", PLOT_T);
    pf_xw_attr_num(w, "data-width", PLOT_W);
    pf_xw_attr_num(w, "data-height", PLOT_H);
    draw_axes(w, pn);
    draw_roofs(w, pn, &ls);
    draw_dots(w, pn, &ls);
    pf_xw_end(w);
}

/* A line under the chart; list items (class "over") are indented. */
static void note(pf_xw *w, double *y, const char *cls, const char *s)
{
    pf_xw_begin(w, "text");
    pf_xw_attr(w, "class", cls);
    pf_xw_attr_num(w, "x", PLOT_L + (strcmp(cls, "over") == 0 ? 12 : 0));
    pf_xw_attr_num(w, "y", *y);
    pf_xw_text(w, s);
    pf_xw_end(w);
    *y += LINE_H;
}

/* A percent of peak, "-" when unknown. */
static const char *pct_text(double pct, char *buf, size_t n)
{
    if (pct < 0)
        return "-";
    snprintf(buf, n, "%.1f%%", pct);
    return buf;
}

static void draw_notes(pf_xw *w, const panel *pn, double y)
{
    const pf_device_report *d = pn->p->d;
    char s[512], name[LABEL_CHARS * 4 + 8];
    if (!d->info)
        note(w, &y, "note", "Device not in the device table: no roofs (name one with --device NAME).");
    double total = pn->total_ns > 0 ? (double)pn->total_ns : 1;
    if (pn->p->b) {
        size_t arrows = 0;
        for (size_t i = 0; pn->p->pair && i < pn->p->pair->n_rows; i++)
            arrows += dot_of(pn, pn->p->pair->rows[i].a, 0) && dot_of(pn, pn->p->pair->rows[i].b, 1);
        snprintf(s, sizeof s, "Hollow: %s; filled: %s. Arrows from A to B: %zu matched groups with a dot on both sides.",
                 pn->p->names[0], pn->p->names[1], arrows);
        note(w, &y, "note", s);
    }
    if (pn->n_dots == 0)
        note(w, &y, "note", "No group has both FLOPs and bytes above zero: every group is on the bandwidth strip.");
    if (pn->n_partial) {
        snprintf(s, sizeof s, "Dashed rings: %zu groups placed by the part of their time with figures (%.1f%% of it; %.1f%% of GPU time).",
                 pn->n_partial, pn->partial_ns ? 100.0 * (double)pn->partial_known_ns / (double)pn->partial_ns : 0,
                 100.0 * (double)pn->partial_ns / total);
        note(w, &y, "note", s);
        if (pn->p->group == PF_GROUP_KERNEL)
            note(w, &y, "note", "A kernel's other launches lack their op's figures: --group op places each op whole.");
    }
    if (pn->n_low) {
        snprintf(s, sizeof s, "On the bottom edge: %zu light groups below the y axis (%.3f us, %.2f%% of GPU time).",
                 pn->n_low, pn->low_ns / 1e3, 100.0 * (double)pn->low_ns / total);
        note(w, &y, "note", s);
    }
    if (!pn->n_over)
        return;
    note(w, &y, "over-title", "Above a roof (a formula or a peak is wrong, or the data sat in cache):");
    size_t listed = 0;
    for (size_t i = 0; i < pn->n_dots && listed < OVER_LISTED; i++) {
        const dot *o = &pn->dots[i];
        if (!o->over)
            continue;
        listed++;
        char fp[32], bp[32];
        pf_short_name(o->r->key, pn->p->group, 60, name, sizeof name);
        snprintf(s, sizeof s, "%s: %.2f TFLOP/s at %.3g FLOP/byte (FLOPS %s, BW %s)", name, pf_row_tflops(o->r),
                 o->r->flop / o->r->bytes, pct_text(pf_row_flops_pct(o->r, d->info), fp, sizeof fp),
                 pct_text(pf_row_bw_pct(o->r, d->info), bp, sizeof bp));
        note(w, &y, "over", s);
    }
    if (pn->n_over > listed) {
        snprintf(s, sizeof s, "and %zu more", pn->n_over - listed);
        note(w, &y, "over", s);
    }
}

static void draw_panel(pf_xw *w, const panel *pn, double dy)
{
    char tr[64], a[32];
    snprintf(tr, sizeof tr, "translate(0 %s)", pf_num_fmt(a, sizeof a, dy, 2));
    pf_xw_begin(w, "g");
    pf_xw_attr(w, "class", "panel");
    pf_xw_attr(w, "transform", tr);
    pf_xw_attr_num(w, "data-dy", dy);
    pf_xw_begin(w, "text");
    pf_xw_attr(w, "class", "title");
    pf_xw_attr_num(w, "x", PLOT_L);
    pf_xw_attr_num(w, "y", 24);
    pf_xw_attr(w, "font-size", "14");
    pf_xw_attr(w, "font-weight", "bold");
    pf_xw_text(w, "Roofline: ");
    pf_xw_text(w, pn->p->title);
    pf_xw_end(w);
    draw_plot(w, pn);
    double y = PLOT_T + PLOT_H + BELOW_PLOT;
    pf_plot_strip_draw(w, &pn->strip, PLOT_L, y, PLOT_W, pn->heaviest_ns, R_MAX, pn->total_ns);
    y += pf_plot_strip_height(&pn->strip);
    y += pf_plot_legend(w, PLOT_L, y, PLOT_W, pn->legend, pn->n_legend) + 6;
    draw_notes(w, pn, y + 10);
    pf_xw_end(w);
}

int pf_plot_roofline(pf_xw *w, const pf_roofline_panel *p, size_t n)
{
    panel *pn = calloc(n ? n : 1, sizeof *pn);
    if (!pn)
        return -1;
    int rc = 0;
    double height = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        rc = layout(&pn[i], &p[i]);
        height += pn[i].height;
    }
    if (rc == 0) {
        pf_plot_svg_begin(w, "roofline", PANEL_W, n ? height : 40);
        if (n == 0)
            pf_plot_text(w, PLOT_L, 24, NULL, NULL, 0, "Roofline: the trace has no GPU activity.");
        double dy = 0;
        for (size_t i = 0; i < n; i++) {
            draw_panel(w, &pn[i], dy);
            dy += pn[i].height;
        }
        pf_xw_end(w);
    }
    for (size_t i = 0; i < n; i++) {
        free(pn[i].dots);
        pf_plot_strip_free(&pn[i].strip);
    }
    free(pn);
    return rc;
}
