/* plot_ranks.c - the --ranks chart: each rank's GPU span split into compute, exposed communication, copies and idle on one time scale; the skew of each collective's instances; each rank's late-arrival excess by cause. */
#include "profana/plot.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHART_W 900.0
#define LEFT 20.0
#define LABEL_W 70.0             /* "Rank 4095" left of its bar */
#define BAR_X (LEFT + LABEL_W)
#define BAR_W 780.0
#define BAR_H 18.0
#define LINE_H 15.0
#define ROW_GAP 8.0
#define TITLE_H 30.0
#define AXIS_H 40.0
#define SKEW_H 90.0              /* a skew chart's plot height */
#define SKEW_MIN_BAR 2.0         /* narrower bars are binned: a bar per several instances */

/* Past these, the busiest (the most lateness) are drawn and a line says so: a chart of
 * 4,096 bars is no picture. */
#define RANKS_DRAWN 64
#define SKEW_CHARTS 12

enum { K_COMPUTE, K_EXPOSED, K_COPY, K_IDLE, K_COUNT };
static const char *const span_cause[K_COUNT] = {"compute", "exposed-comm", "copy", "idle"};
static const char *const span_label[K_COUNT] = {"compute", "exposed communication", "copies alone", "idle"};
static const char *const span_color[K_COUNT] = {"#ff7f0e", "#8c564b", "#e377c2", PF_COLOR_IDLE};

/* The culprits' causes (pf_win_cause order) as the excess bar names them. */
static const char *const excess_cause[PF_WIN_CAUSES] = {"compute", "copy", "comm", "idle"};
static const char *const excess_label[PF_WIN_CAUSES] = {"compute", "copies", "other collectives", "idle (host)"};
static const char *const excess_color[PF_WIN_CAUSES] = {"#ff7f0e", "#e377c2", "#17becf", "#9e9e9e"};

/* A tick label ending at x. */
static void end_text(pf_xw *w, double x, double y, const char *s)
{
    pf_xw_begin(w, "text");
    pf_xw_attr(w, "class", "tick");
    pf_xw_attr_num(w, "x", x);
    pf_xw_attr_num(w, "y", y);
    pf_xw_attr(w, "text-anchor", "end");
    pf_xw_text(w, s);
    pf_xw_end(w);
}

static void title_at(pf_xw *w, double y, const char *s)
{
    pf_plot_heading(w, "title", LEFT, y + 18, "14", s);
}

/* A time in us with the JSON's three decimals, as an attribute. */
static void attr_us(pf_xw *w, const char *name, double us)
{
    char buf[64];
    pf_xw_attr(w, name, pf_num_fmt(buf, sizeof buf, us, 3));
}

/* One segment of a bar: a rect with its rank, cause and time, and its label when it fits. */
static void draw_seg(pf_xw *w, int rank, const char *cause, const char *label, const char *color, double ns,
                     double whole_ns, double x, double y, double width)
{
    char tip[160], text[64];
    double pct = whole_ns > 0 ? 100.0 * ns / whole_ns : 0;
    snprintf(tip, sizeof tip, "rank %d: %s %.3f us (%.1f%%)", rank, label, ns / 1e3, pct);
    pf_plot_rect_begin(w, "seg", x, y, width, BAR_H, color);
    pf_xw_attr_int(w, "data-rank", rank);
    pf_xw_attr(w, "data-cause", cause);
    attr_us(w, "data-us", ns / 1e3);
    pf_xw_elem(w, "title", tip);
    pf_xw_end(w);
    snprintf(text, sizeof text, "%.1f%%", pct);
    if (pf_plot_text_width(text, PF_PLOT_FONT_PX) + 6 <= width)
        pf_plot_text(w, x + 3, y + BAR_H / 2 + 4, NULL, "seg-label", 0, text);
}

/* ---- which ranks are drawn ---- */

typedef struct by_late {
    int64_t late_ns;
    size_t i;
} by_late;

static int cmp_late(const void *x, const void *y)
{
    const by_late *a = x, *b = y;
    if (a->late_ns != b->late_ns)
        return a->late_ns > b->late_ns ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* on[i] 1 for the ranks drawn: every one, or the RANKS_DRAWN with the most lateness (ties in
 * rank order). Returns how many, or -1 when memory runs out. */
static int pick_ranks(const pf_culprit_report *cul, size_t n, char *on)
{
    memset(on, 0, n ? n : 1);
    if (n <= RANKS_DRAWN) {
        memset(on, 1, n);
        return (int)n;
    }
    by_late *k = malloc(n * sizeof *k);
    if (!k)
        return -1;
    for (size_t i = 0; i < n; i++)
        k[i] = (by_late){i < cul->n_ranks ? cul->ranks[i].late_ns : 0, i};
    qsort(k, n, sizeof *k, cmp_late);
    for (size_t i = 0; i < RANKS_DRAWN; i++)
        on[k[i].i] = 1;
    free(k);
    return RANKS_DRAWN;
}

/* ---- the span bars ---- */

/* A rank's span split exclusively: compute (the union of its compute kernels), exposed
 * communication (covered by no compute), copies alone (the rest of the busy time), idle. */
static void span_parts(const pf_rank_times *t, double *ns)
{
    double compute = (double)t->compute_ns, exposed = (double)t->exposed_ns;
    double copy = (double)t->busy_ns - compute - exposed;
    ns[K_COMPUTE] = compute;
    ns[K_EXPOSED] = exposed;
    ns[K_COPY] = copy > 0 ? copy : 0;
    ns[K_IDLE] = t->span_ns > t->busy_ns ? (double)(t->span_ns - t->busy_ns) : 0;
}

static double spans_height(int drawn, int cut)
{
    return TITLE_H + (cut ? LINE_H : 0) + drawn * (BAR_H + LINE_H + ROW_GAP) + AXIS_H;
}

static double draw_spans(pf_xw *w, double y, const pf_rank_summary *s, size_t n, const char *on, int drawn)
{
    double max_ns = 0;
    for (size_t i = 0; i < n; i++)
        if (on[i])
            max_ns = fmax(max_ns, (double)s[i].all.span_ns);
    double px = max_ns > 0 ? BAR_W / max_ns : 0;
    pf_xw_begin(w, "g");
    pf_xw_attr(w, "class", "panel spans");
    title_at(w, y, "Each rank's GPU span: compute, exposed communication, copies, idle");
    y += TITLE_H;
    if ((size_t)drawn < n) {
        char s_[160];
        snprintf(s_, sizeof s_, "The %d ranks of most lateness of %zu are drawn; the tables list every rank.", drawn, n);
        pf_plot_text(w, LEFT, y + 4, NULL, "note", 0, s_);
        y += LINE_H;
    }
    double top = y;
    for (size_t i = 0; i < n; i++) {
        if (!on[i])
            continue;
        double ns[K_COUNT], x = BAR_X;
        span_parts(&s[i].all, ns);
        char label[32], line[256];
        snprintf(label, sizeof label, "Rank %d", s[i].rank);
        pf_plot_text(w, LEFT, y + BAR_H / 2 + 4, NULL, "rank-label", 0, label);
        pf_xw_begin(w, "g");
        pf_xw_attr(w, "class", "bar");
        pf_xw_attr_int(w, "data-rank", s[i].rank);
        attr_us(w, "data-span-us", (double)s[i].all.span_ns / 1e3);
        for (int k = 0; k < K_COUNT; k++) {
            draw_seg(w, s[i].rank, span_cause[k], span_label[k], span_color[k], ns[k], (double)s[i].all.span_ns, x, y,
                     ns[k] * px);
            x += ns[k] * px;
        }
        pf_plot_outline(w, "outline", BAR_X, y, (double)s[i].all.span_ns * px, BAR_H);
        pf_xw_end(w);
        double span = (double)s[i].all.span_ns > 0 ? (double)s[i].all.span_ns : 1;
        snprintf(line, sizeof line, "span %.3f us: compute %.1f%%, exposed communication %.1f%%, copies %.1f%%, idle %.1f%%",
                 (double)s[i].all.span_ns / 1e3, 100 * ns[K_COMPUTE] / span, 100 * ns[K_EXPOSED] / span,
                 100 * ns[K_COPY] / span, 100 * ns[K_IDLE] / span);
        pf_plot_text(w, BAR_X, y + BAR_H + LINE_H - 3, NULL, "pcts", 0, line);
        y += BAR_H + LINE_H + ROW_GAP;
    }
    if (max_ns > 0)
        pf_plot_time_axis(w, BAR_X, top, y - ROW_GAP, max_ns, px, "Time from each device's first GPU activity, summed over its devices");
    pf_xw_end(w);
    return y - ROW_GAP + AXIS_H;
}

/* ---- the skew charts ---- */

/* The instances of row r (by the first kernel's name, group and size) in their order. */
static int inst_in_row(const pf_rank_summary *s, const pf_ranks_report *rep, const pf_coll_instance *in,
                       const pf_coll_row *r)
{
    const pf_coll_member *m = &rep->members[in->first];
    const pf_comm_rec *c = &s[m->rank].comms[m->comm];
    return in->n > 0 && c->bytes == r->bytes && strcmp(c->name, r->name) == 0 && strcmp(c->pg, r->pg) == 0;
}

/* An instance's skew (its last kernel start minus its first) and its last rank (-1 on a tie). */
static int64_t inst_skew(const pf_rank_summary *s, const pf_ranks_report *rep, const pf_coll_instance *in, int *last)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    *last = -1;
    for (size_t k = in->first; k < in->first + in->n; k++) {
        const pf_coll_member *m = &rep->members[k];
        int64_t t = s[m->rank].comms[m->comm].ts_ns;
        lo = t < lo ? t : lo;
        if (t > hi) {
            hi = t;
            *last = s[m->rank].rank;
        } else if (t == hi) {
            *last = -1;
        }
    }
    return hi - lo;
}

static double skew_height(void)
{
    return TITLE_H + SKEW_H + AXIS_H;
}

/* One chart: a bar per instance (or per bin of consecutive instances when they are too many
 * for the width), as high as its skew (a bin: its largest), each with data-seq (the first
 * instance's), data-count, data-sum-us (the skews summed), data-max-us and data-last-rank. */
static double draw_skew(pf_xw *w, double y, const pf_rank_summary *s, const pf_ranks_report *rep, const pf_coll_row *r)
{
    char head[400], buf[64];
    double mean_us = r->count ? (double)r->skew_ns / 1e3 / (double)r->count : 0;
    if (r->bytes >= 0)
        snprintf(buf, sizeof buf, "%lld B", (long long)r->bytes);
    else
        snprintf(buf, sizeof buf, "size unknown");
    pf_xw_begin(w, "g");
    pf_xw_attr(w, "class", "panel skew");
    pf_xw_attr(w, "data-name", r->name);
    pf_xw_attr(w, "data-pg", r->pg);
    pf_xw_attr_i64(w, "data-bytes", r->bytes);
    snprintf(head, sizeof head, "Skew: %s, group %.24s, %s, %lld instances", r->name, r->pg, buf, (long long)r->count);
    title_at(w, y, head);
    y += TITLE_H;
    double px_bar = r->count > 0 ? BAR_W / (double)r->count : BAR_W;
    int64_t per = px_bar >= SKEW_MIN_BAR ? 1 : (int64_t)ceil(SKEW_MIN_BAR * (double)r->count / BAR_W);
    double max_ns = r->skew_max_ns > 0 ? (double)r->skew_max_ns : 1, bar_w = px_bar * (double)per;
    int64_t idx = 0, bin_n = 0, bin_sum = 0, bin_max = 0, bin_seq = 0;
    int bin_last = -2;
    pf_plot_outline(w, "outline", BAR_X, y, BAR_W, SKEW_H);
    for (size_t k = 0; k <= rep->n_instances; k++) {
        const pf_coll_instance *in = k < rep->n_instances ? &rep->instances[k] : NULL;
        if (in && !inst_in_row(s, rep, in, r))
            continue;
        if (bin_n > 0 && (!in || bin_n == per)) {
            double h = SKEW_H * (double)bin_max / max_ns, x = BAR_X + (double)(idx - bin_n) * px_bar;
            char tip[200];
            snprintf(tip, sizeof tip, "#%lld%s: skew %.3f us%s", (long long)bin_seq, bin_n > 1 ? " and after" : "",
                     (double)bin_max / 1e3, bin_n > 1 ? " at most" : "");
            pf_xw_begin(w, "rect");
            pf_xw_attr(w, "class", "skew-bar");
            pf_xw_attr_num(w, "x", x);
            pf_xw_attr_num(w, "y", y + SKEW_H - h);
            pf_xw_attr_num(w, "width", bar_w > 1.5 ? bar_w - 0.5 : bar_w);
            pf_xw_attr_num(w, "height", h);
            pf_xw_attr(w, "fill", "#8c564b");
            pf_xw_attr_i64(w, "data-seq", bin_seq);
            pf_xw_attr_i64(w, "data-count", bin_n);
            attr_us(w, "data-sum-us", (double)bin_sum / 1e3);
            attr_us(w, "data-max-us", (double)bin_max / 1e3);
            pf_xw_attr_int(w, "data-last-rank", bin_n == 1 ? bin_last : -1);
            pf_xw_elem(w, "title", tip);
            pf_xw_end(w);
            bin_n = bin_sum = bin_max = 0;
        }
        if (!in)
            break;
        int last;
        int64_t sk = inst_skew(s, rep, in, &last);
        if (bin_n == 0)
            bin_seq = in->seq;
        bin_n++;
        idx++;
        bin_sum += sk;
        bin_max = sk > bin_max ? sk : bin_max;
        bin_last = last;
    }
    char top[64], axis[300];
    if (max_ns >= 1e7)
        snprintf(top, sizeof top, "%.1f ms", max_ns / 1e6);
    else
        snprintf(top, sizeof top, "%.1f us", max_ns / 1e3);
    end_text(w, BAR_X - 4, y + 10, top);
    end_text(w, BAR_X - 4, y + SKEW_H, "0");
    snprintf(axis, sizeof axis, "Instances in order%s; height: last rank's start minus first's (mean %.3f us, max %.3f us)",
             per > 1 ? " (a bar per several: its largest)" : "", mean_us, (double)r->skew_max_ns / 1e3);
    pf_plot_text(w, BAR_X, y + SKEW_H + 18, NULL, "axis-title", 0, axis);
    pf_xw_end(w);
    return y + SKEW_H + AXIS_H;
}

/* ---- the excess bars ---- */

static double excess_total(const pf_rank_culprit *c)
{
    double t = 0;
    for (int k = 0; k < PF_WIN_CAUSES; k++)
        t += c->excess_ns[k] > 0 ? (double)c->excess_ns[k] : 0;
    return t;
}

static int excess_drawn(const pf_culprit_report *cul, const char *on)
{
    int m = 0;
    for (size_t i = 0; i < cul->n_ranks; i++)
        m += on[i] && excess_total(&cul->ranks[i]) > 0;
    return m;
}

static double excess_height(int drawn)
{
    return TITLE_H + (drawn ? drawn * (BAR_H + LINE_H + ROW_GAP) + AXIS_H : LINE_H + ROW_GAP);
}

static double draw_excess(pf_xw *w, double y, const pf_culprit_report *cul, const char *on, int drawn)
{
    double max_ns = 0;
    for (size_t i = 0; i < cul->n_ranks; i++)
        if (on[i])
            max_ns = fmax(max_ns, excess_total(&cul->ranks[i]));
    double px = max_ns > 0 ? BAR_W / max_ns : 0;
    pf_xw_begin(w, "g");
    pf_xw_attr(w, "class", "panel excess");
    title_at(w, y, "Each late rank's excess over the median rank before its late arrivals, by cause");
    y += TITLE_H;
    if (drawn == 0) {
        pf_plot_text(w, LEFT, y + 4, NULL, "note", 0, cul->windows ? "No rank arrived late (more than 100 us after the median rank): no excess to draw."
                                                     : "No excess to draw: a summary without windows (an older profana) has no causes.");
        pf_xw_end(w);
        return y + LINE_H + ROW_GAP;
    }
    double top = y;
    for (size_t i = 0; i < cul->n_ranks; i++) {
        const pf_rank_culprit *c = &cul->ranks[i];
        double total = excess_total(c), x = BAR_X;
        if (!on[i] || total <= 0)
            continue;
        char label[32], line[300];
        snprintf(label, sizeof label, "Rank %d", c->rank);
        pf_plot_text(w, LEFT, y + BAR_H / 2 + 4, NULL, "rank-label", 0, label);
        pf_xw_begin(w, "g");
        pf_xw_attr(w, "class", "bar");
        pf_xw_attr_int(w, "data-rank", c->rank);
        pf_xw_attr(w, "data-verdict", pf_straggler_verdict_name(c->verdict));
        for (int k = 0; k < PF_WIN_CAUSES; k++) {
            double ns = c->excess_ns[k] > 0 ? (double)c->excess_ns[k] : 0;
            draw_seg(w, c->rank, excess_cause[k], excess_label[k], excess_color[k], ns, total, x, y, ns * px);
            x += ns * px;
        }
        pf_xw_end(w);
        snprintf(line, sizeof line, "%s: late %lld times by %.3f us in all; excess %.3f us", pf_straggler_verdict_name(c->verdict),
                 (long long)c->late, (double)c->late_ns / 1e3, total / 1e3);
        pf_plot_text(w, BAR_X, y + BAR_H + LINE_H - 3, NULL, "pcts", 0, line);
        y += BAR_H + LINE_H + ROW_GAP;
    }
    pf_plot_time_axis(w, BAR_X, top, y - ROW_GAP, max_ns, px, "Excess time over the late arrivals");
    pf_xw_end(w);
    return y - ROW_GAP + AXIS_H;
}

/* ---- the chart ---- */

static double legend_of(pf_xw *w, double y, int excess)
{
    pf_legend_item items[K_COUNT + PF_WIN_CAUSES];
    size_t n = 0;
    for (int k = 0; k < K_COUNT; k++)
        items[n++] = (pf_legend_item){span_label[k], span_color[k]};
    if (excess) {
        items[n++] = (pf_legend_item){"excess: other collectives", excess_color[PF_WIN_COMM]};
        items[n++] = (pf_legend_item){"excess: idle (host)", excess_color[PF_WIN_IDLE]};
    }
    if (w) {
        pf_xw_begin(w, "g");
        pf_xw_attr(w, "class", "legend");
    }
    double h = pf_plot_legend(w, LEFT, y, CHART_W - 2 * LEFT, items, n);
    if (w)
        pf_xw_end(w);
    return h;
}

/* The height of the skew charts of n_rows collective rows: the first SKEW_CHARTS, and a line
 * saying how many more; a title and a line saying none matched when there are none. */
static double skew_block_height(size_t n_rows)
{
    if (n_rows == 0)
        return TITLE_H + LINE_H;
    size_t k = n_rows < SKEW_CHARTS ? n_rows : SKEW_CHARTS;
    return (double)k * skew_height() + (n_rows > SKEW_CHARTS ? LINE_H : 0);
}

int pf_plot_ranks(pf_xw *w, const pf_rank_summary *s, size_t n, const pf_ranks_report *rep,
                  const pf_culprit_report *cul)
{
    assert(w && (s || n == 0) && rep && cul);
    char *on = malloc(n ? n : 1);
    if (!on)
        return -1;
    int drawn = pick_ranks(cul, n, on);
    if (drawn < 0) {
        free(on);
        return -1;
    }
    int n_excess = excess_drawn(cul, on);
    double legend_h = legend_of(NULL, 0, n_excess > 0);
    double h = 10 + spans_height(drawn, (size_t)drawn < n) + legend_h + 10 + excess_height(n_excess) +
               skew_block_height(rep->n_rows) + 10;
    pf_plot_svg_begin(w, "ranks", CHART_W, h);
    double y = draw_spans(w, 10, s, n, on, drawn);
    y += legend_of(w, y, n_excess > 0) + 10;
    y = draw_excess(w, y, cul, on, n_excess);
    if (rep->n_rows == 0) {
        pf_xw_begin(w, "g");
        pf_xw_attr(w, "class", "panel skew-none");
        title_at(w, y, "Skew per collective");
        pf_plot_text(w, LEFT, y + TITLE_H + 4, NULL, "note", 0, "No collective matched across the ranks: no skew to draw.");
        pf_xw_end(w);
    }
    for (size_t k = 0; k < rep->n_rows && k < SKEW_CHARTS; k++)
        y = draw_skew(w, y, s, rep, &rep->rows[k]);
    if (rep->n_rows > SKEW_CHARTS) {
        char note[160];
        snprintf(note, sizeof note, "The first %d of %zu collectives are drawn; the collectives table lists every one.",
                 SKEW_CHARTS, rep->n_rows);
        pf_plot_text(w, LEFT, y + 4, NULL, "note", 0, note);
    }
    pf_xw_end(w);
    free(on);
    return 0;
}
