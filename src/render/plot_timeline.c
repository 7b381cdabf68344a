/* plot_timeline.c - the timeline: per device a lane per stream with its activities coloured by category and a lane of its idle gaps coloured by cause (waits.h), on one time scale, binned into pixel-wide bins so that a multi-second trace reads as well as a 100 ms one. */
#include "profana/plot.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/satmath.h"
#include "profana/waits.h"

#define CHART_W 1000.0
#define PLOT_L 130.0               /* lane labels on the left */
#define PLOT_W 840.0
#define BINS 840                   /* one bin per pixel */
#define LANE_H 16.0
#define LANE_GAP 3.0
#define HEAD_H 20.0                /* a device's title */
#define DEVICE_GAP 10.0
#define TOP 10.0
#define AXIS_H 34.0

enum { CAUSE_HOST, CAUSE_LATENCY, CAUSE_UNATTR, CAUSE_COUNT };

static const char *const cause_names[CAUSE_COUNT] = {"host wait", "launch latency", "unattributed"};
static const char *const cause_keys[CAUSE_COUNT] = {"host_wait", "launch_latency", "unattributed"};
static const char *const cause_colors[CAUSE_COUNT] = {"#d62728", "#ffbf00", "#b0b0b0"};

/* The time scale: bin k covers [at(k), at(k + 1)). Its arithmetic is 128-bit: a span of
 * more than 2^63 / BINS ns (127 days: one kernel at ts 0 in an epoch-stamped trace) times a
 * bin number does not fit in int64, nor does hi - lo itself at the extremes of int64. */
typedef struct scale {
    int64_t lo, hi;
} scale;

static __int128 span_of(const scale *s)
{
    return (__int128)s->hi - s->lo;
}

static int64_t bin_at(const scale *s, int k)
{
    return (int64_t)(s->lo + span_of(s) * k / BINS); /* within [lo, hi] */
}

/* The bin that holds t (lo <= t < hi). */
static int bin_of(const scale *s, int64_t t)
{
    __int128 q = ((__int128)t - s->lo) * BINS / span_of(s);
    int k = q < 0 ? 0 : q >= BINS ? BINS - 1 : (int)q;
    k = k < 0 ? 0 : k >= BINS ? BINS - 1 : k;
    while (k > 0 && bin_at(s, k) > t)
        k--;
    while (k + 1 < BINS && bin_at(s, k + 1) <= t)
        k++;
    return k;
}

/* Adds the overlap of [from, to) with each bin to acc[bin * stride]. */
static void spread(const scale *s, int64_t from, int64_t to, int64_t *acc, int stride)
{
    if (to <= from)
        return;
    for (int k = bin_of(s, from); k < BINS && bin_at(s, k) < to; k++) {
        int64_t a = bin_at(s, k), b = bin_at(s, k + 1);
        acc[k * stride] = pf_sat_add(acc[k * stride], pf_sat_sub(to < b ? to : b, from > a ? from : a));
    }
}

static double x_of(const scale *s, int k)
{
    return PLOT_L + PLOT_W * (double)((__int128)bin_at(s, k) - s->lo) / (double)span_of(s);
}

typedef struct ctx {
    const pf_analysis *an;
    scale sc;
    size_t *order;                 /* selected activities by device, stream, start */
    size_t n;
    int64_t *busy;                 /* BINS */
    int64_t *cat;                  /* BINS x PF_CAT_COUNT */
    int64_t *cause;                /* BINS x CAUSE_COUNT */
    int64_t cat_total[PF_CAT_COUNT];
    int64_t cause_total[CAUSE_COUNT];
} ctx;

/* An activity's place on the chart: its lane (device, stream) and start. */
typedef struct place {
    int64_t stream, ts;
    size_t act;
    int device;
} place;

static int cmp_place(const void *x, const void *y)
{
    const place *a = x, *b = y;
    if (a->device != b->device)
        return a->device < b->device ? -1 : 1;
    if (a->stream != b->stream)
        return a->stream < b->stream ? -1 : 1;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    return (a->act > b->act) - (a->act < b->act);
}

static double lanes_height(const pf_analysis *an)
{
    double h = 0;
    for (int k = 0; k < an->n_devices; k++)
        h += HEAD_H + (double)(an->devices[k].busy.n_streams + 1) * (LANE_H + LANE_GAP) + DEVICE_GAP;
    return h;
}

/* ---- drawing ---- */

static void lane_label(pf_xw *w, double y, const char *text)
{
    pf_xw_begin(w, "text");
    pf_xw_attr_num(w, "x", PLOT_L - 6);
    pf_xw_attr_num(w, "y", y + LANE_H - 4);
    pf_xw_attr(w, "text-anchor", "end");
    pf_xw_text(w, text);
    pf_xw_end(w);
}

static void lane_frame(pf_xw *w, double y)
{
    pf_xw_begin(w, "rect");
    pf_xw_attr(w, "class", "track");
    pf_xw_attr_num(w, "x", PLOT_L);
    pf_xw_attr_num(w, "y", y);
    pf_xw_attr_num(w, "width", PLOT_W);
    pf_xw_attr_num(w, "height", LANE_H);
    pf_xw_attr(w, "fill", "#f7f7f7");
    pf_xw_end(w);
}

/* A bin's mark: height for the share of the bin the lane is busy (idle), at least a pixel. */
static void bin_rect(pf_xw *w, const ctx *c, int k, double y, int64_t ns, const char *fill)
{
    double len = (double)((__int128)bin_at(&c->sc, k + 1) - bin_at(&c->sc, k));
    double h = len > 0 ? LANE_H * (double)ns / len : LANE_H;
    h = h < 1 ? 1 : h > LANE_H ? LANE_H : h;
    pf_xw_begin(w, "rect");
    pf_xw_attr(w, "class", "bin");
    pf_xw_attr_num(w, "x", x_of(&c->sc, k));
    pf_xw_attr_num(w, "y", y + LANE_H - h);
    pf_xw_attr_num(w, "width", x_of(&c->sc, k + 1) - x_of(&c->sc, k));
    pf_xw_attr_num(w, "height", h);
    pf_xw_attr(w, "fill", fill);
    pf_xw_attr_i64(w, "data-ns", ns);
}

/* One stream's lane: its activities acts[order[from, to)] (by start). */
static void stream_lane(pf_xw *w, ctx *c, size_t from, size_t to, double y)
{
    const pf_trace *t = c->an->trace;
    const pf_activity *first = &t->acts[c->order[from]];
    memset(c->busy, 0, BINS * sizeof *c->busy);
    memset(c->cat, 0, (size_t)BINS * PF_CAT_COUNT * sizeof *c->cat);
    int64_t cur_s = 0, cur_e = INT64_MIN, busy = 0;
    for (size_t i = from; i <= to; i++) { /* the union of the lane, interval by interval */
        const pf_activity *a = i < to ? &t->acts[c->order[i]] : NULL;
        if (!a || a->ts_ns > cur_e) {
            if (cur_e > cur_s) {
                spread(&c->sc, cur_s, cur_e, c->busy, 1);
                busy = pf_sat_add(busy, pf_sat_sub(cur_e, cur_s));
            }
            if (a) {
                cur_s = a->ts_ns;
                cur_e = pf_sat_add(a->ts_ns, a->dur_ns);
            }
        } else if (pf_sat_add(a->ts_ns, a->dur_ns) > cur_e) {
            cur_e = pf_sat_add(a->ts_ns, a->dur_ns);
        }
        if (a) {
            int cat = c->an->cats[c->order[i]];
            spread(&c->sc, a->ts_ns, pf_sat_add(a->ts_ns, a->dur_ns), c->cat + cat, PF_CAT_COUNT);
        }
    }
    char label[64];
    snprintf(label, sizeof label, "stream %lld", (long long)first->stream);
    pf_xw_begin(w, "g");
    pf_xw_attr(w, "class", "lane");
    pf_xw_attr_int(w, "data-device", first->device);
    pf_xw_attr_i64(w, "data-stream", first->stream);
    pf_xw_attr_num(w, "data-y", y);
    pf_xw_attr_num(w, "data-height", LANE_H);
    pf_xw_attr_i64(w, "data-busy-ns", busy);
    lane_label(w, y, label);
    lane_frame(w, y);
    for (int k = 0; k < BINS; k++) {
        if (c->busy[k] <= 0)
            continue;
        int best = 0;
        for (int g = 1; g < PF_CAT_COUNT; g++)
            best = c->cat[k * PF_CAT_COUNT + g] > c->cat[k * PF_CAT_COUNT + best] ? g : best;
        c->cat_total[best] = pf_sat_add(c->cat_total[best], c->busy[k]);
        bin_rect(w, c, k, y, c->busy[k], pf_category_color((pf_category)best));
        pf_xw_attr(w, "data-category", pf_category_name((pf_category)best));
        pf_xw_end(w);
    }
    pf_xw_end(w);
}

/* The device's idle lane: its gaps (waits.h) split by cause. */
static void idle_lane(pf_xw *w, ctx *c, int dev, double y)
{
    const pf_waits *wt = &c->an->waits[dev];
    assert(wt->gaps || wt->idle.gaps == 0); /* pf_analysis_opts.idle_gaps */
    memset(c->cause, 0, (size_t)BINS * CAUSE_COUNT * sizeof *c->cause);
    for (int64_t g = 0; g < wt->idle.gaps; g++) {
        const pf_gap *p = &wt->gaps[g];
        if (!p->attributed) {
            spread(&c->sc, p->from, p->to, c->cause + CAUSE_UNATTR, CAUSE_COUNT);
            continue;
        }
        spread(&c->sc, p->from, p->split, c->cause + CAUSE_HOST, CAUSE_COUNT);
        spread(&c->sc, p->split, p->to, c->cause + CAUSE_LATENCY, CAUSE_COUNT);
    }
    pf_xw_begin(w, "g");
    pf_xw_attr(w, "class", "lane idle");
    pf_xw_attr_int(w, "data-device", c->an->devices[dev].device->id);
    pf_xw_attr_num(w, "data-y", y);
    pf_xw_attr_num(w, "data-height", LANE_H);
    pf_xw_attr_i64(w, "data-host-wait-ns", wt->idle.host_wait_ns);
    pf_xw_attr_i64(w, "data-launch-latency-ns", wt->idle.launch_latency_ns);
    pf_xw_attr_i64(w, "data-unattributed-ns", wt->idle.unattributed_ns);
    lane_label(w, y, "idle by cause");
    lane_frame(w, y);
    for (int k = 0; k < BINS; k++) {
        const int64_t *b = c->cause + k * CAUSE_COUNT;
        int64_t sum = pf_sat_add(pf_sat_add(b[0], b[1]), b[2]);
        if (sum <= 0)
            continue;
        int best = b[1] > b[0] ? 1 : 0;
        best = b[2] > b[best] ? 2 : best;
        c->cause_total[best] = pf_sat_add(c->cause_total[best], sum);
        bin_rect(w, c, k, y, sum, cause_colors[best]);
        pf_xw_attr(w, "data-cause", cause_keys[best]);
        for (int q = 0; q < CAUSE_COUNT; q++) {
            char key[40];
            snprintf(key, sizeof key, "data-%s-ns", cause_keys[q]);
            for (char *p = key; *p; p++)
                *p = *p == '_' ? '-' : *p;
            pf_xw_attr_i64(w, key, b[q]);
        }
        pf_xw_end(w);
    }
    pf_xw_end(w);
}

static double device_block(pf_xw *w, ctx *c, int dev, size_t *at, double y)
{
    const pf_device_report *d = &c->an->devices[dev];
    char title[320];
    snprintf(title, sizeof title, "Device %d: %s", d->device->id, d->device->name[0] ? d->device->name : "(no name)");
    pf_xw_begin(w, "g");
    pf_xw_attr(w, "class", "device");
    pf_xw_attr_int(w, "data-device", d->device->id);
    pf_xw_begin(w, "text");
    pf_xw_attr_num(w, "x", 10);
    pf_xw_attr_num(w, "y", y + 14);
    pf_xw_attr(w, "font-weight", "bold");
    pf_xw_text(w, title);
    pf_xw_end(w);
    y += HEAD_H;
    const pf_trace *t = c->an->trace;
    while (*at < c->n && t->acts[c->order[*at]].device == d->device->id) {
        size_t from = *at;
        int64_t stream = t->acts[c->order[from]].stream;
        while (*at < c->n && t->acts[c->order[*at]].device == d->device->id && t->acts[c->order[*at]].stream == stream)
            (*at)++;
        stream_lane(w, c, from, *at, y);
        y += LANE_H + LANE_GAP;
    }
    idle_lane(w, c, dev, y);
    y += LANE_H + LANE_GAP + DEVICE_GAP;
    pf_xw_end(w);
    return y;
}

/* Ticks at round times: 1, 2 or 5 x 10^k us, about 8 across. */
static void axis(pf_xw *w, const scale *s, double y)
{
    static const double mult[] = {1, 2, 5};
    double span_us = (double)span_of(s) / 1e3, step = 0;
    for (double dec = 1e-3; step == 0; dec *= 10)
        for (int m = 0; m < 3 && step == 0; m++)
            step = span_us / (mult[m] * dec) <= 8 ? mult[m] * dec : 0;
    pf_xw_begin(w, "g");
    pf_xw_attr(w, "class", "axis");
    for (double t = 0; t <= span_us + 1e-9; t += step) {
        double x = PLOT_L + PLOT_W * t / span_us;
        char lab[48], num[32];
        snprintf(lab, sizeof lab, "%s us", pf_num_fmt(num, sizeof num, t, 3));
        pf_xw_begin(w, "line");
        pf_xw_attr_num(w, "x1", x);
        pf_xw_attr_num(w, "x2", x);
        pf_xw_attr_num(w, "y1", y);
        pf_xw_attr_num(w, "y2", y + 4);
        pf_xw_attr(w, "stroke", "#333");
        pf_xw_end(w);
        pf_xw_begin(w, "text");
        pf_xw_attr_num(w, "x", x);
        pf_xw_attr_num(w, "y", y + 16);
        pf_xw_attr(w, "text-anchor", "middle");
        pf_xw_text(w, lab);
        pf_xw_end(w);
    }
    pf_xw_end(w);
}

/* The legend: the categories and causes that some bin shows. */
static double legend(pf_xw *w, const ctx *c, double y)
{
    pf_legend_item items[PF_CAT_COUNT + CAUSE_COUNT];
    size_t n = 0;
    for (int g = 0; g < PF_CAT_COUNT; g++)
        if (c->cat_total[g] > 0)
            items[n++] = (pf_legend_item){pf_category_name((pf_category)g), pf_category_color((pf_category)g)};
    for (int q = 0; q < CAUSE_COUNT; q++)
        if (c->cause_total[q] > 0)
            items[n++] = (pf_legend_item){cause_names[q], cause_colors[q]};
    if (!w)
        return pf_plot_legend(NULL, PLOT_L, y, PLOT_W, items, n);
    pf_xw_begin(w, "g");
    pf_xw_attr(w, "class", "legend");
    pf_xw_attr_num(w, "data-y", y);
    double h = pf_plot_legend(w, PLOT_L, y, PLOT_W, items, n);
    pf_xw_end(w);
    return h;
}

/* The scale, and the selected activities in lane order. c must be zeroed (ctx_free frees it
 * whatever this returns). */
static int ctx_init(ctx *c, const pf_analysis *an)
{
    c->an = an;
    const pf_trace *t = an->trace;
    c->order = malloc((t->n_acts ? t->n_acts : 1) * sizeof *c->order);
    c->busy = malloc(BINS * sizeof *c->busy);
    c->cat = malloc((size_t)BINS * PF_CAT_COUNT * sizeof *c->cat);
    c->cause = malloc((size_t)BINS * CAUSE_COUNT * sizeof *c->cause);
    place *pl = malloc((t->n_acts ? t->n_acts : 1) * sizeof *pl);
    if (!c->order || !c->busy || !c->cat || !c->cause || !pl) {
        free(pl);
        return -1;
    }
    c->sc = (scale){INT64_MAX, INT64_MIN};
    for (int k = 0; k < an->n_devices; k++) {
        const pf_busy *b = &an->devices[k].busy;
        if (b->end_ns <= b->start_ns && an->devices[k].total.count == 0)
            continue;
        c->sc.lo = b->start_ns < c->sc.lo ? b->start_ns : c->sc.lo;
        c->sc.hi = b->end_ns > c->sc.hi ? b->end_ns : c->sc.hi;
    }
    if (c->sc.hi <= c->sc.lo) /* nothing ran, or in one instant: a scale of 1 ns */
        c->sc.hi = c->sc.lo == INT64_MAX ? (c->sc.lo = 0) + 1 : c->sc.lo + 1;
    for (size_t i = 0; i < t->n_acts; i++)
        if (pf_analysis_selected(an, i))
            pl[c->n++] = (place){t->acts[i].stream, t->acts[i].ts_ns, i, t->acts[i].device};
    qsort(pl, c->n, sizeof *pl, cmp_place);
    for (size_t i = 0; i < c->n; i++)
        c->order[i] = pl[i].act;
    free(pl);
    return 0;
}

static void ctx_free(ctx *c)
{
    free(c->order);
    free(c->busy);
    free(c->cat);
    free(c->cause);
}

int pf_plot_timeline(pf_xw *w, const pf_analysis *an)
{
    assert(w && an);
    ctx c = {0};
    if (!an->waits || ctx_init(&c, an)) {
        ctx_free(&c);
        return -1;
    }
    double lanes = lanes_height(an);
    /* the legend's height needs the bins drawn: at most two rows of it for every item */
    double legend_h = pf_plot_legend(NULL, PLOT_L, 0, PLOT_W, NULL, 0) + 3 * 16.0;
    pf_plot_svg_begin(w, "timeline", CHART_W, TOP + lanes + AXIS_H + legend_h + 10);
    pf_xw_begin(w, "g");
    pf_xw_attr(w, "class", "plot");
    pf_xw_attr_num(w, "data-left", PLOT_L);
    pf_xw_attr_num(w, "data-width", PLOT_W);
    pf_xw_attr_i64(w, "data-t0-ns", c.sc.lo);
    pf_xw_attr_i64(w, "data-t1-ns", c.sc.hi);
    pf_xw_attr_int(w, "data-bins", BINS);
    double y = TOP;
    size_t at = 0;
    const pf_trace *t = an->trace;
    for (int k = 0; k < an->n_devices; k++) {
        while (at < c.n && t->acts[c.order[at]].device < an->devices[k].device->id)
            at++; /* a device without a report: nothing of it is drawn */
        y = device_block(w, &c, k, &at, y);
    }
    pf_xw_end(w);
    axis(w, &c.sc, y);
    legend(w, &c, y + AXIS_H);
    pf_xw_end(w);
    ctx_free(&c);
    return 0;
}
