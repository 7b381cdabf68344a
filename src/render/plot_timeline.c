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
#define TOP 46.0                   /* the chart's title and what bar height means */
#define AXIS_H 48.0                /* tick labels and the axis title */
/* What a picture can show, and what keeps the file bounded whatever the input (issue 48: 16,000
 * streams made a 1.5 GB SVG): a device draws at most MAX_LANES stream lanes, the chart at most
 * MAX_DEVICES device blocks. Past them, the busiest MAX_LANES - 1 streams (MAX_DEVICES - 1
 * devices) are drawn and the rest fold into one "other" lane with their figures. */
#define MAX_LANES 64
#define MAX_DEVICES 16

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
    size_t *dev_from, *dev_to;     /* per device report: its activities order[from, to) */
    size_t *fold;                  /* n: the activities of an "other" lane, by start */
} ctx;

/* One stream's activities order[from, to) and the union of their intervals. */
typedef struct lane {
    size_t from, to;
    int64_t busy;
    int shown;
} lane;

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

/* The union of the intervals of acts[idx[0, n)] (by start). */
static int64_t union_of(const pf_trace *t, const size_t *idx, size_t n)
{
    int64_t cur_s = 0, cur_e = INT64_MIN, busy = 0;
    for (size_t i = 0; i <= n; i++) {
        const pf_activity *a = i < n ? &t->acts[idx[i]] : NULL;
        if (!a || a->ts_ns > cur_e) {
            if (cur_e > cur_s)
                busy = pf_sat_add(busy, pf_sat_sub(cur_e, cur_s));
            if (a) {
                cur_s = a->ts_ns;
                cur_e = pf_sat_add(a->ts_ns, a->dur_ns);
            }
        } else if (pf_sat_add(a->ts_ns, a->dur_ns) > cur_e) {
            cur_e = pf_sat_add(a->ts_ns, a->dur_ns);
        }
    }
    return busy;
}

/* The height of a device's block: its stream lanes (at most MAX_LANES) and its idle lane. */
static double device_height(const pf_device_report *d)
{
    size_t lanes = d->busy.n_streams > MAX_LANES ? MAX_LANES : d->busy.n_streams;
    return HEAD_H + (double)(lanes + 1) * (LANE_H + LANE_GAP) + DEVICE_GAP;
}

/* Marks the `keep` busiest of n items shown (ties: the earlier), the rest not; busy(i) read
 * from the items by key. Sorting a copy of the indexes keeps it n log n. */
typedef struct rank {
    int64_t busy;
    size_t i;
} rank;

static int cmp_rank(const void *x, const void *y)
{
    const rank *a = x, *b = y;
    if (a->busy != b->busy)
        return a->busy > b->busy ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* shown[i] = 1 for the `keep` busiest of busy[0, n), 0 for the others. -1: out of memory. */
static int pick_busiest(const int64_t *busy, size_t n, size_t keep, int *shown)
{
    rank *r = malloc((n ? n : 1) * sizeof *r);
    if (!r)
        return -1;
    for (size_t i = 0; i < n; i++)
        r[i] = (rank){busy[i], i};
    qsort(r, n, sizeof *r, cmp_rank);
    for (size_t i = 0; i < n; i++)
        shown[r[i].i] = i < keep;
    free(r);
    return 0;
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

/* Fills c->busy and c->cat with the bins of acts[idx[0, n)] (by start); returns their union. */
static int64_t fill_bins(ctx *c, const size_t *idx, size_t n)
{
    const pf_trace *t = c->an->trace;
    memset(c->busy, 0, BINS * sizeof *c->busy);
    memset(c->cat, 0, (size_t)BINS * PF_CAT_COUNT * sizeof *c->cat);
    int64_t cur_s = 0, cur_e = INT64_MIN, busy = 0;
    for (size_t i = 0; i <= n; i++) { /* the union of the lane, interval by interval */
        const pf_activity *a = i < n ? &t->acts[idx[i]] : NULL;
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
            int cat = c->an->cats[idx[i]];
            spread(&c->sc, a->ts_ns, pf_sat_add(a->ts_ns, a->dur_ns), c->cat + cat, PF_CAT_COUNT);
        }
    }
    return busy;
}

/* The bins of a lane filled by fill_bins, each coloured by its category with the most time. */
static void busy_bins(pf_xw *w, ctx *c, double y)
{
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
}

/* One stream's lane: its activities acts[order[from, to)] (by start). */
static void stream_lane(pf_xw *w, ctx *c, size_t from, size_t to, double y)
{
    const pf_activity *first = &c->an->trace->acts[c->order[from]];
    int64_t busy = fill_bins(c, c->order + from, to - from);
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
    busy_bins(w, c, y);
    pf_xw_end(w);
}

static int cmp_start(const void *x, const void *y, const pf_trace *t)
{
    const pf_activity *a = &t->acts[*(const size_t *)x], *b = &t->acts[*(const size_t *)y];
    if (a->ts_ns != b->ts_ns)
        return a->ts_ns < b->ts_ns ? -1 : 1;
    return (*(const size_t *)x > *(const size_t *)y) - (*(const size_t *)x < *(const size_t *)y);
}

/* Merges the sorted runs c->fold[bounds[r], bounds[r + 1]) (each by start) into one by start,
 * pairwise, with tmp (as large) as scratch: n log(runs). */
static void merge_runs(const pf_trace *t, size_t *a, size_t *tmp, size_t *bounds, size_t runs)
{
    while (runs > 1) {
        size_t out = 0, nr = 0;
        for (size_t r = 0; r < runs; r += 2) {
            size_t lo = bounds[r], mid = bounds[r + 1], hi = r + 2 <= runs ? bounds[r + 2] : mid;
            size_t i = lo, j = mid;
            bounds[nr++] = out;
            while (i < mid || j < hi)
                tmp[out++] = j >= hi || (i < mid && cmp_start(&a[i], &a[j], t) <= 0) ? a[i++] : a[j++];
        }
        bounds[nr] = out;
        memcpy(a, tmp, out * sizeof *a);
        runs = nr;
    }
}

/* The "other" lane: the activities of the lanes folded into it (lanes[i] with !shown), their
 * union drawn as one lane, with their count, how many lanes they were and the sum of those
 * lanes' own busy times. device < 0: the folded devices' lane. -1: out of memory. */
static int other_lane(pf_xw *w, ctx *c, const lane *lanes, size_t n_lanes, int device, double y)
{
    size_t n = 0, runs = 0;
    int64_t lanes_busy = 0;
    for (size_t i = 0; i < n_lanes; i++)
        if (!lanes[i].shown) {
            n += lanes[i].to - lanes[i].from;
            runs++;
            lanes_busy = pf_sat_add(lanes_busy, lanes[i].busy);
        }
    size_t *tmp = malloc((n ? n : 1) * sizeof *tmp), *bounds = malloc((runs + 1) * sizeof *bounds);
    if (!tmp || !bounds) {
        free(tmp);
        free(bounds);
        return -1;
    }
    size_t at = 0, r = 0;
    for (size_t i = 0; i < n_lanes; i++)
        if (!lanes[i].shown) {
            bounds[r++] = at;
            memcpy(c->fold + at, c->order + lanes[i].from, (lanes[i].to - lanes[i].from) * sizeof *c->fold);
            at += lanes[i].to - lanes[i].from;
        }
    bounds[r] = at;
    merge_runs(c->an->trace, c->fold, tmp, bounds, runs);
    free(tmp);
    free(bounds);
    int64_t busy = fill_bins(c, c->fold, n);
    char label[64];
    snprintf(label, sizeof label, "%zu other %s", runs, device < 0 ? "streams" : runs == 1 ? "stream" : "streams");
    pf_xw_begin(w, "g");
    pf_xw_attr(w, "class", "lane other");
    if (device >= 0)
        pf_xw_attr_int(w, "data-device", device);
    pf_xw_attr_num(w, "data-y", y);
    pf_xw_attr_num(w, "data-height", LANE_H);
    pf_xw_attr_i64(w, "data-busy-ns", busy);
    pf_xw_attr_i64(w, "data-lanes", (int64_t)runs);
    pf_xw_attr_i64(w, "data-lanes-busy-ns", lanes_busy);
    pf_xw_attr_i64(w, "data-count", (int64_t)n);
    lane_label(w, y, label);
    lane_frame(w, y);
    busy_bins(w, c, y);
    pf_xw_end(w);
    return 0;
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

static void device_title(pf_xw *w, double y, const char *title)
{
    pf_xw_begin(w, "text");
    pf_xw_attr_num(w, "x", 10);
    pf_xw_attr_num(w, "y", y + 14);
    pf_xw_attr(w, "font-weight", "bold");
    pf_xw_text(w, title);
    pf_xw_end(w);
}

/* The stream lanes of order[from, to) (sorted by stream, then start) into lanes (as many as
 * streams: at most to - from), each with its union; all shown when at most MAX_LANES, else the
 * MAX_LANES - 1 busiest. Returns how many, or -1 when memory runs out. */
static long lanes_of(ctx *c, size_t from, size_t to, lane **out)
{
    const pf_trace *t = c->an->trace;
    lane *l = malloc((to > from ? to - from : 1) * sizeof *l);
    if (!l)
        return -1;
    size_t n = 0;
    for (size_t at = from; at < to;) {
        size_t s = at;
        int64_t stream = t->acts[c->order[s]].stream;
        while (at < to && t->acts[c->order[at]].stream == stream)
            at++;
        l[n++] = (lane){s, at, union_of(t, c->order + s, at - s), 1};
    }
    if (n > MAX_LANES) {
        int64_t *busy = malloc(n * sizeof *busy);
        int *shown = malloc(n * sizeof *shown);
        for (size_t i = 0; busy && i < n; i++)
            busy[i] = l[i].busy;
        if (!busy || !shown || pick_busiest(busy, n, MAX_LANES - 1, shown)) {
            free(busy);
            free(shown);
            free(l);
            return -1;
        }
        for (size_t i = 0; i < n; i++)
            l[i].shown = shown[i];
        free(busy);
        free(shown);
    }
    *out = l;
    return (long)n;
}

static int device_block(pf_xw *w, ctx *c, int dev, double *y)
{
    const pf_device_report *d = &c->an->devices[dev];
    char title[320];
    snprintf(title, sizeof title, "Device %d: %s", d->device->id, d->device->name[0] ? d->device->name : "(no name)");
    lane *lanes = NULL;
    long n = lanes_of(c, c->dev_from[dev], c->dev_to[dev], &lanes);
    if (n < 0)
        return -1;
    pf_xw_begin(w, "g");
    pf_xw_attr(w, "class", "device");
    pf_xw_attr_int(w, "data-device", d->device->id);
    device_title(w, *y, title);
    *y += HEAD_H;
    int folded = 0;
    for (long i = 0; i < n; i++) {
        if (!lanes[i].shown) {
            folded = 1;
            continue;
        }
        stream_lane(w, c, lanes[i].from, lanes[i].to, *y);
        *y += LANE_H + LANE_GAP;
    }
    int rc = folded ? other_lane(w, c, lanes, (size_t)n, d->device->id, *y) : 0;
    if (folded)
        *y += LANE_H + LANE_GAP;
    free(lanes);
    idle_lane(w, c, dev, *y);
    *y += LANE_H + LANE_GAP + DEVICE_GAP;
    pf_xw_end(w);
    return rc;
}

/* The devices past MAX_DEVICES - 1 (shown[k] == 0) as one block of one lane: the union of all
 * their activities, with how many devices they are and the sums of their idle causes. */
static int other_devices(pf_xw *w, ctx *c, const int *shown, double *y)
{
    const pf_analysis *an = c->an;
    size_t n = 0;
    int devs = 0;
    int64_t idle[CAUSE_COUNT] = {0};
    for (int k = 0; k < an->n_devices; k++)
        if (!shown[k]) {
            n += c->dev_to[k] - c->dev_from[k]; /* at least its streams */
            devs++;
            idle[CAUSE_HOST] = pf_sat_add(idle[CAUSE_HOST], an->waits[k].idle.host_wait_ns);
            idle[CAUSE_LATENCY] = pf_sat_add(idle[CAUSE_LATENCY], an->waits[k].idle.launch_latency_ns);
            idle[CAUSE_UNATTR] = pf_sat_add(idle[CAUSE_UNATTR], an->waits[k].idle.unattributed_ns);
        }
    /* the stream lanes of the folded devices: runs by start that other_lane merges into one */
    lane *l = malloc((n ? n : 1) * sizeof *l);
    if (!l)
        return -1;
    size_t m = 0;
    for (int k = 0; k < an->n_devices; k++)
        if (!shown[k] && c->dev_to[k] > c->dev_from[k]) {
            lane *dl = NULL;
            long ns = lanes_of(c, c->dev_from[k], c->dev_to[k], &dl);
            if (ns < 0) {
                free(l);
                return -1;
            }
            for (long i = 0; i < ns; i++)
                l[m++] = (lane){dl[i].from, dl[i].to, dl[i].busy, 0};
            free(dl);
        }
    char title[64];
    snprintf(title, sizeof title, "%d other devices", devs);
    pf_xw_begin(w, "g");
    pf_xw_attr(w, "class", "device other");
    pf_xw_attr_int(w, "data-devices", devs);
    pf_xw_attr_i64(w, "data-host-wait-ns", idle[CAUSE_HOST]);
    pf_xw_attr_i64(w, "data-launch-latency-ns", idle[CAUSE_LATENCY]);
    pf_xw_attr_i64(w, "data-unattributed-ns", idle[CAUSE_UNATTR]);
    device_title(w, *y, title);
    *y += HEAD_H;
    int rc = other_lane(w, c, l, m, -1, *y);
    *y += LANE_H + LANE_GAP + DEVICE_GAP;
    pf_xw_end(w);
    free(l);
    return rc;
}

/* The axis's unit for a span: us, ms past 2 ms, s past 2 s (issue 47: a multi-second span
 * read in microseconds). *div: microseconds per unit. */
static const char *time_unit(double span_us, double *div)
{
    *div = span_us >= 2e6 ? 1e6 : span_us >= 2e3 ? 1e3 : 1;
    return span_us >= 2e6 ? "s" : span_us >= 2e3 ? "ms" : "us";
}

/* The title over the lanes, and one line of what a bar's height means. */
static void chart_title(pf_xw *w, const scale *s)
{
    double div, span_us = (double)span_of(s) / 1e3;
    const char *unit = time_unit(span_us, &div);
    char t[160], num[32];
    snprintf(t, sizeof t, "Timeline: when each stream worked and why the GPU sat idle, over %s %s",
             pf_num_fmt(num, sizeof num, span_us / div, 3), unit);
    pf_xw_begin(w, "text");
    pf_xw_attr(w, "class", "title");
    pf_xw_attr_num(w, "x", 10);
    pf_xw_attr_num(w, "y", 18);
    pf_xw_attr(w, "font-size", "14");
    pf_xw_attr(w, "font-weight", "bold");
    pf_xw_text(w, t);
    pf_xw_end(w);
    pf_plot_text(w, 10, 36, NULL, "subtitle", 0,
                 "Bar height: the share of each pixel's time a stream was busy (coloured by its largest category), or "
                 "the device idle (by cause).");
}

/* Ticks at round times: 1, 2 or 5 x 10^k of the unit, about 8 across, and the axis's title. */
static void axis(pf_xw *w, const scale *s, double y)
{
    static const double mult[] = {1, 2, 5};
    double span_us = (double)span_of(s) / 1e3, step = 0, div;
    const char *unit = time_unit(span_us, &div);
    for (double dec = 1e-3; step == 0; dec *= 10)
        for (int m = 0; m < 3 && step == 0; m++)
            step = span_us / (mult[m] * dec) <= 8 ? mult[m] * dec : 0;
    pf_xw_begin(w, "g");
    pf_xw_attr(w, "class", "axis");
    for (double t = 0; t <= span_us + 1e-9; t += step) {
        double x = PLOT_L + PLOT_W * t / span_us;
        char lab[48], num[32];
        snprintf(lab, sizeof lab, "%s %s", pf_num_fmt(num, sizeof num, t / div, 3), unit);
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
    char title[64];
    snprintf(title, sizeof title, "Time since the first activity (%s)", unit);
    pf_plot_text(w, PLOT_L + PLOT_W / 2, y + 34, "middle", "axis-title", 0, title);
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
    /* each device report's activities: the devices are by id, as the order is */
    size_t nd = an->n_devices > 0 ? (size_t)an->n_devices : 1, at = 0;
    c->dev_from = malloc(nd * sizeof *c->dev_from);
    c->dev_to = malloc(nd * sizeof *c->dev_to);
    c->fold = malloc((c->n ? c->n : 1) * sizeof *c->fold);
    if (!c->dev_from || !c->dev_to || !c->fold)
        return -1;
    for (int k = 0; k < an->n_devices; k++) {
        int id = an->devices[k].device->id;
        while (at < c->n && t->acts[c->order[at]].device < id)
            at++; /* a device without a report: nothing of it is drawn */
        c->dev_from[k] = at;
        while (at < c->n && t->acts[c->order[at]].device == id)
            at++;
        c->dev_to[k] = at;
    }
    return 0;
}

static void ctx_free(ctx *c)
{
    free(c->order);
    free(c->busy);
    free(c->cat);
    free(c->cause);
    free(c->dev_from);
    free(c->dev_to);
    free(c->fold);
}

int pf_plot_timeline(pf_xw *w, const pf_analysis *an)
{
    assert(w && an);
    ctx c = {0};
    int *shown = malloc((an->n_devices > 0 ? (size_t)an->n_devices : 1) * sizeof *shown);
    int64_t *busy = malloc((an->n_devices > 0 ? (size_t)an->n_devices : 1) * sizeof *busy);
    int rc = !shown || !busy || !an->waits || ctx_init(&c, an) ? -1 : 0;
    for (int k = 0; rc == 0 && k < an->n_devices; k++)
        busy[k] = an->devices[k].busy.busy_ns;
    int devices = an->n_devices > MAX_DEVICES ? MAX_DEVICES - 1 : an->n_devices;
    if (rc == 0 && pick_busiest(busy, (size_t)an->n_devices, (size_t)devices, shown))
        rc = -1;
    if (rc) {
        free(shown);
        free(busy);
        ctx_free(&c);
        return -1;
    }
    double lanes = 0;
    for (int k = 0; k < an->n_devices; k++)
        lanes += shown[k] ? device_height(&an->devices[k]) : 0;
    if (devices < an->n_devices) /* the other devices' block */
        lanes += HEAD_H + LANE_H + LANE_GAP + DEVICE_GAP;
    /* the legend's height needs the bins drawn: at most two rows of it for every item */
    double legend_h = pf_plot_legend(NULL, PLOT_L, 0, PLOT_W, NULL, 0) + 3 * 16.0;
    pf_plot_svg_begin(w, "timeline", CHART_W, TOP + lanes + AXIS_H + legend_h + 10);
    chart_title(w, &c.sc);
    pf_xw_begin(w, "g");
    pf_xw_attr(w, "class", "plot");
    pf_xw_attr_num(w, "data-left", PLOT_L);
    pf_xw_attr_num(w, "data-width", PLOT_W);
    pf_xw_attr_i64(w, "data-t0-ns", c.sc.lo);
    pf_xw_attr_i64(w, "data-t1-ns", c.sc.hi);
    pf_xw_attr_int(w, "data-bins", BINS);
    double y = TOP;
    for (int k = 0; k < an->n_devices && rc == 0; k++)
        if (shown[k])
            rc = device_block(w, &c, k, &y);
    if (rc == 0 && devices < an->n_devices)
        rc = other_devices(w, &c, shown, &y);
    pf_xw_end(w);
    axis(w, &c.sc, y);
    legend(w, &c, y + AXIS_H);
    pf_xw_end(w);
    free(shown);
    free(busy);
    ctx_free(&c);
    return rc;
}
