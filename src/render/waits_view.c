/* waits_view.c - how --analysis prints why the GPU waits (include/profana/waits.h): a short block after each device's headline (text, Markdown), the --waits tables (breakdown per device and step, kernel-duration histogram, queue per stream) in text, Markdown and CSV, and the per-device JSON members. */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "profana/waits.h"
#include "view_parts.h"

/* The device's waits: an->waits is parallel to an->devices. */
static const pf_waits *waits_of(const pf_analysis *an, const pf_device_report *d)
{
    assert(an->waits && d >= an->devices && d < an->devices + an->n_devices);
    return &an->waits[d - an->devices];
}

static double pct(int64_t part, int64_t whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : 0;
}

static const pf_waits *pf_wview_of(const pf_analysis *an, const pf_device_report *d)
{
    assert(an && d);
    return an->waits ? waits_of(an, d) : NULL;
}

/* ---- the block after the headline ---- */

static void print_time_line(FILE *out, const char *lead, const pf_breakdown *b)
{
    fprintf(out, "%sSpan: compute %.2f%%", lead, pct(b->compute_ns, b->span_ns));
    if (b->communication_total_ns > 0) /* a trace without collectives need not say so */
        fprintf(out, ", communication %.2f%% exposed of %.2f%% (%.2f%% overlapped)", pct(b->communication_ns, b->span_ns),
                pct(b->communication_total_ns, b->span_ns), pf_breakdown_overlap_pct(b));
    fprintf(out, ", memcpy %.2f%%, memset %.2f%%, idle %.2f%%\n", pct(b->memcpy_ns, b->span_ns),
            pct(b->memset_ns, b->span_ns), pct(b->idle_ns, b->span_ns));
}

static void print_idle_line(FILE *out, const char *lead, const pf_waits *w)
{
    const pf_idle_causes *c = &w->idle;
    int64_t idle = w->breakdown.idle_ns;
    if (idle <= 0)
        return;
    fprintf(out, "%sIdle by cause: host wait %.2f%%, launch latency %.2f%%, unattributed %.2f%% (%lld gaps)\n", lead,
            pct(c->host_wait_ns, idle), pct(c->launch_latency_ns, idle), pct(c->unattributed_ns, idle),
            (long long)c->gaps);
}

static void print_launch_line(FILE *out, const char *lead, const pf_launch_stats *l)
{
    if (l->count == 0) {
        fprintf(out, "%sLaunches: no kernel has its launch call in the trace\n", lead);
        return;
    }
    int64_t total = 0;
    for (int b = 0; b < PF_WAITS_BINS; b++)
        total += l->hist_ns[b];
    fprintf(out,
            "%sLaunches: %lld kernels, call %.3f us mean, queued from the call's end to the kernel's start p50 %.3f us, "
            "p99 %.3f us; %lld shorter "
            "than their call; %.2f%% under 5 us (%.2f%% of the time)\n",
            lead, (long long)l->count, pf_launch_call_mean_us(l), l->delay_p50_ns / 1e3, l->delay_p99_ns / 1e3,
            (long long)l->launch_bound, pct(l->hist_count[0], l->count), pct(l->hist_ns[0], total));
}

static void print_queue_line(FILE *out, const char *lead, const pf_waits *w)
{
    const pf_queue *deep = NULL;
    for (size_t i = 0; i < w->n_queues; i++)
        if (!deep || w->queues[i].mean_depth > deep->mean_depth)
            deep = &w->queues[i];
    if (!deep)
        return;
    fprintf(out, "%sQueue (%zu stream%s): longest on stream %lld: up to %lld launches queued, %.2f on average, empty %.2f%% "
                 "of the span\n", lead,
            w->n_queues, w->n_queues == 1 ? "" : "s", (long long)deep->stream, (long long)deep->max_depth, deep->mean_depth,
            pct(deep->empty_ns, w->breakdown.span_ns));
}

void pf_wview_print(FILE *out, const pf_analysis *an, const pf_device_report *d, int md)
{
    assert(out);
    const pf_waits *w = pf_wview_of(an, d);
    if (!w || w->breakdown.span_ns <= 0)
        return;
    const char *lead = md ? "- " : "";
    if (md)
        fputs("Why the GPU waits:\n\n", out);
    print_time_line(out, lead, &w->breakdown);
    print_idle_line(out, lead, w);
    print_launch_line(out, lead, &w->launch);
    print_queue_line(out, lead, w);
    fputc('\n', out);
}

/* ---- --waits tables ---- */

enum {
    W_DEVICE, W_STEP, W_COUNT, W_SPAN, W_COMPUTE, W_COMM, W_MEMCPY, W_MEMSET, W_IDLE, W_OVERLAP, W_COMM_TOTAL,
    W_NCOLS
};

static const pf_col waits_cols[W_NCOLS] = {
    [W_DEVICE] = {"Device", "device", 1, 0, NULL},
    [W_STEP] = {"Step", "step", 0, 0, NULL},
    [W_COUNT] = {"Count", "activities", 1, 0, NULL},
    [W_SPAN] = {"Span (us)", "span_us", 1, 0, NULL},
    [W_COMPUTE] = {"Compute (us)", "compute_us", 1, 0, NULL},
    [W_COMM] = {"Comm (us)", "communication_us", 1, 0, NULL},
    [W_MEMCPY] = {"Memcpy (us)", "memcpy_us", 1, 0, NULL},
    [W_MEMSET] = {"Memset (us)", "memset_us", 1, 0, NULL},
    [W_IDLE] = {"Idle (us)", "idle_us", 1, 0, NULL},
    [W_COMM_TOTAL] = {"Comm all (us)", "communication_total_us", 1, 0, NULL},
    [W_OVERLAP] = {"Overlap %", "overlap_pct", 1, 0, NULL},
};

static void breakdown_cells(pf_table *t, int r, const pf_breakdown *b)
{
    pf_table_num(t, r, W_SPAN, b->span_ns / 1e3, 3);
    pf_table_num(t, r, W_COMPUTE, b->compute_ns / 1e3, 3);
    pf_table_num(t, r, W_COMM, b->communication_ns / 1e3, 3);
    pf_table_num(t, r, W_MEMCPY, b->memcpy_ns / 1e3, 3);
    pf_table_num(t, r, W_MEMSET, b->memset_ns / 1e3, 3);
    pf_table_num(t, r, W_IDLE, b->idle_ns / 1e3, 3);
    pf_table_num(t, r, W_COMM_TOTAL, b->communication_total_ns / 1e3, 3);
    if (b->communication_total_ns > 0)
        pf_table_num(t, r, W_OVERLAP, pf_breakdown_overlap_pct(b), 2);
}

/* Rows of the devices [from, to): each device's whole span ("all"), then its steps. */
static pf_table *waits_table(const pf_analysis *an, int from, int to)
{
    pf_table *t = pf_table_new(waits_cols, W_NCOLS);
    for (int k = from; t && k < to; k++) {
        const pf_waits *w = &an->waits[k];
        const pf_device_report *d = &an->devices[k];
        int r = pf_table_add_row(t);
        pf_table_int(t, r, W_DEVICE, d->device->id);
        pf_table_str(t, r, W_STEP, "all");
        pf_table_int(t, r, W_COUNT, d->total.count);
        breakdown_cells(t, r, &w->breakdown);
        for (size_t s = 0; s < w->n_steps; s++) {
            char num[32];
            snprintf(num, sizeof num, "%lld", (long long)w->steps[s].number);
            r = pf_table_add_row(t);
            pf_table_int(t, r, W_DEVICE, d->device->id);
            pf_table_str(t, r, W_STEP, num);
            pf_table_int(t, r, W_COUNT, w->steps[s].count);
            breakdown_cells(t, r, &w->steps[s].b);
        }
    }
    if (t && pf_table_status(t)) {
        pf_table_free(t);
        return NULL;
    }
    return t;
}

enum { C_DEVICE, C_IDLE, C_HOST, C_LATENCY, C_UNATTR, C_GAPS, C_LAUNCHES, C_CALL, C_P50, C_P99, C_BOUND, C_NCOLS };

static const pf_col cause_cols[C_NCOLS] = {
    [C_DEVICE] = {"Device", "device", 1, 0, NULL},
    [C_IDLE] = {"Idle (us)", "idle_us", 1, 0, NULL},
    [C_HOST] = {"Host wait (us)", "host_wait_us", 1, 0, NULL},
    [C_LATENCY] = {"Latency (us)", "launch_latency_us", 1, 0, NULL},
    [C_UNATTR] = {"Unattributed (us)", "unattributed_us", 1, 0, NULL},
    [C_GAPS] = {"Gaps", "gaps", 1, 0, NULL},
    [C_LAUNCHES] = {"Launches", "launches", 1, 0, NULL},
    [C_CALL] = {"Call (us)", "call_us_mean", 1, 0, NULL},
    [C_P50] = {"Delay p50 (us)", "delay_us_p50", 1, 0, NULL},
    [C_P99] = {"Delay p99 (us)", "delay_us_p99", 1, 0, NULL},
    [C_BOUND] = {"Launch-bound", "launch_bound", 1, 0, NULL},
};

/* Per device: the idle time by cause and the launch figures (over kernels with a launch call). */
static pf_table *cause_table(const pf_analysis *an, int from, int to)
{
    pf_table *t = pf_table_new(cause_cols, C_NCOLS);
    for (int k = from; t && k < to; k++) {
        const pf_waits *w = &an->waits[k];
        int r = pf_table_add_row(t);
        pf_table_int(t, r, C_DEVICE, an->devices[k].device->id);
        pf_table_num(t, r, C_IDLE, w->breakdown.idle_ns / 1e3, 3);
        pf_table_num(t, r, C_HOST, w->idle.host_wait_ns / 1e3, 3);
        pf_table_num(t, r, C_LATENCY, w->idle.launch_latency_ns / 1e3, 3);
        pf_table_num(t, r, C_UNATTR, w->idle.unattributed_ns / 1e3, 3);
        pf_table_int(t, r, C_GAPS, w->idle.gaps);
        pf_table_int(t, r, C_LAUNCHES, w->launch.count);
        if (w->launch.count) { /* no launch call: the figures are unknown, not 0 */
            pf_table_num(t, r, C_CALL, pf_launch_call_mean_us(&w->launch), 3);
            pf_table_num(t, r, C_P50, w->launch.delay_p50_ns / 1e3, 3);
            pf_table_num(t, r, C_P99, w->launch.delay_p99_ns / 1e3, 3);
        }
        pf_table_int(t, r, C_BOUND, w->launch.launch_bound);
    }
    if (t && pf_table_status(t)) {
        pf_table_free(t);
        return NULL;
    }
    return t;
}

enum { H_DEVICE, H_BIN, H_COUNT, H_COUNT_PCT, H_TIME, H_TIME_PCT, H_NCOLS };

static const pf_col hist_cols[H_NCOLS] = {
    [H_DEVICE] = {"Device", "device", 1, 0, NULL},
    [H_BIN] = {"Kernel duration (us)", "bin", 0, 0, NULL},
    [H_COUNT] = {"Kernels", "count", 1, 0, NULL},
    [H_COUNT_PCT] = {"% of kernels", "count_pct", 1, 0, NULL},
    [H_TIME] = {"Time (us)", "time_us", 1, 0, NULL},
    [H_TIME_PCT] = {"% of time", "time_pct", 1, 0, NULL},
};

static pf_table *hist_table(const pf_analysis *an, int from, int to)
{
    pf_table *t = pf_table_new(hist_cols, H_NCOLS);
    for (int k = from; t && k < to; k++) {
        const pf_launch_stats *l = &an->waits[k].launch;
        int64_t total = 0;
        for (int b = 0; b < PF_WAITS_BINS; b++)
            total += l->hist_ns[b];
        for (int b = 0; b < PF_WAITS_BINS; b++) {
            int r = pf_table_add_row(t);
            pf_table_int(t, r, H_DEVICE, an->devices[k].device->id);
            pf_table_str(t, r, H_BIN, pf_waits_bin_name(b));
            pf_table_int(t, r, H_COUNT, l->hist_count[b]);
            pf_table_num(t, r, H_COUNT_PCT, pct(l->hist_count[b], l->count), 2);
            pf_table_num(t, r, H_TIME, l->hist_ns[b] / 1e3, 3);
            pf_table_num(t, r, H_TIME_PCT, pct(l->hist_ns[b], total), 2);
        }
    }
    if (t && pf_table_status(t)) {
        pf_table_free(t);
        return NULL;
    }
    return t;
}

enum { Q_DEVICE, Q_STREAM, Q_MAX, Q_MEAN, Q_EMPTY, Q_EMPTY_PCT, Q_NCOLS };

static const pf_col queue_cols[Q_NCOLS] = {
    [Q_DEVICE] = {"Device", "device", 1, PF_IN_TEXT | PF_IN_CSV, NULL},
    [Q_STREAM] = {"Stream", "stream", 1, 0, NULL},
    [Q_MAX] = {"Max depth", "max_depth", 1, 0, NULL},
    [Q_MEAN] = {"Mean depth", "mean_depth", 1, 0, NULL},
    [Q_EMPTY] = {"Empty (us)", "empty_us", 1, 0, NULL},
    [Q_EMPTY_PCT] = {"Empty % of span", NULL, 1, PF_IN_TEXT | PF_IN_CSV, NULL},
};

static pf_table *queue_table(const pf_analysis *an, int from, int to)
{
    pf_table *t = pf_table_new(queue_cols, Q_NCOLS);
    for (int k = from; t && k < to; k++) {
        const pf_waits *w = &an->waits[k];
        for (size_t i = 0; i < w->n_queues; i++) {
            const pf_queue *q = &w->queues[i];
            int r = pf_table_add_row(t);
            pf_table_int(t, r, Q_DEVICE, an->devices[k].device->id);
            pf_table_int(t, r, Q_STREAM, q->stream);
            pf_table_int(t, r, Q_MAX, q->max_depth);
            pf_table_num(t, r, Q_MEAN, q->mean_depth, 3);
            pf_table_num(t, r, Q_EMPTY, q->empty_ns / 1e3, 3);
            pf_table_num(t, r, Q_EMPTY_PCT, pct(q->empty_ns, w->breakdown.span_ns), 2);
        }
    }
    if (t && pf_table_status(t)) {
        pf_table_free(t);
        return NULL;
    }
    return t;
}

typedef pf_table *(*table_fn)(const pf_analysis *, int, int);

int pf_wview_tables(FILE *out, const pf_view_opts *v, const pf_analysis *an, int device)
{
    static const table_fn fns[] = {waits_table, cause_table, hist_table, queue_table};
    /* text and Markdown: a title over each (CSV's tables are told apart by their headers) */
    static const char *const titles[] = {
        "Where the span went (exclusive: the parts sum to the span), per device and step:",
        "Why the GPU sat idle, and its launches:",
        "Kernel durations:",
        "Launch queue per stream (a launch queued from its call's start to its end on the GPU):",
    };
    _Static_assert(sizeof titles / sizeof titles[0] == sizeof fns / sizeof fns[0], "a title per table");
    assert(out && v && an && device < an->n_devices);
    if (!an->waits)
        return 0;
    int from = device < 0 ? 0 : device, to = device < 0 ? an->n_devices : device + 1;
    for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
        pf_table *t = fns[k](an, from, to);
        if (!t)
            return -1;
        if (k || v->format != PF_FMT_CSV)
            fputc('\n', out);
        if (v->format == PF_FMT_CSV) {
            pf_table_print_csv(out, t, 1);
        } else {
            FILE *tw = pf_wrap_open(out, v->format == PF_FMT_TEXT ? v->width : 0);
            fprintf(tw, "%s\n%s", titles[k], v->format == PF_FMT_MD ? "\n" : "");
            pf_wrap_close(tw, out);
            int picked[64];
            pf_text_fit fit = pf_view_fit(v, t, NULL, 0, picked, 64);
            pf_view_print_fit(out, v, t, &fit);
        }
        pf_table_free(t);
    }
    return 0;
}

/* ---- JSON ---- */

static void jnum(pf_jw *w, const char *key, double v)
{
    pf_jw_key(w, key);
    pf_jw_num(w, v);
}

static void json_breakdown(pf_jw *w, const pf_breakdown *b)
{
    pf_jw_obj_begin(w);
    jnum(w, "span_us", b->span_ns / 1e3);
    jnum(w, "compute_us", b->compute_ns / 1e3);
    jnum(w, "communication_us", b->communication_ns / 1e3);
    jnum(w, "memcpy_us", b->memcpy_ns / 1e3);
    jnum(w, "memset_us", b->memset_ns / 1e3);
    jnum(w, "idle_us", b->idle_ns / 1e3);
    jnum(w, "communication_total_us", b->communication_total_ns / 1e3);
    pf_jw_key(w, "overlap_pct");
    if (b->communication_total_ns > 0)
        pf_jw_num(w, pf_breakdown_overlap_pct(b));
    else
        pf_jw_null(w);
    pf_jw_obj_end(w);
}

static void json_launch(pf_jw *w, const pf_launch_stats *l)
{
    pf_jw_obj_begin(w);
    pf_jw_key(w, "count");
    pf_jw_int(w, l->count);
    pf_jw_key(w, "call_us_mean");
    if (l->count)
        pf_jw_num(w, pf_launch_call_mean_us(l));
    else
        pf_jw_null(w);
    pf_jw_key(w, "delay_us_p50");
    if (l->count)
        pf_jw_num(w, l->delay_p50_ns / 1e3);
    else
        pf_jw_null(w);
    pf_jw_key(w, "delay_us_p99");
    if (l->count)
        pf_jw_num(w, l->delay_p99_ns / 1e3);
    else
        pf_jw_null(w);
    pf_jw_key(w, "launch_bound");
    pf_jw_int(w, l->launch_bound);
    pf_jw_key(w, "histogram");
    pf_jw_arr_begin(w);
    for (int b = 0; b < PF_WAITS_BINS; b++) {
        pf_jw_obj_begin(w);
        pf_jw_key(w, "bin");
        pf_jw_str(w, pf_waits_bin_name(b));
        pf_jw_key(w, "count");
        pf_jw_int(w, l->hist_count[b]);
        jnum(w, "time_us", l->hist_ns[b] / 1e3);
        pf_jw_obj_end(w);
    }
    pf_jw_arr_end(w);
    pf_jw_obj_end(w);
}

void pf_wview_json(pf_jw *w, const pf_analysis *an, const pf_device_report *d)
{
    assert(w);
    const pf_waits *wt = pf_wview_of(an, d);
    if (!wt)
        return;
    pf_jw_key(w, "breakdown");
    json_breakdown(w, &wt->breakdown);
    pf_jw_key(w, "idle_causes");
    pf_jw_obj_begin(w);
    jnum(w, "host_wait_us", wt->idle.host_wait_ns / 1e3);
    jnum(w, "launch_latency_us", wt->idle.launch_latency_ns / 1e3);
    jnum(w, "unattributed_us", wt->idle.unattributed_ns / 1e3);
    /* the shares of the idle time the text's "Idle by cause" line prints; null without idle time */
    int64_t idle = wt->breakdown.idle_ns;
    jnum(w, "host_wait_pct", idle > 0 ? pct(wt->idle.host_wait_ns, idle) : NAN);
    jnum(w, "launch_latency_pct", idle > 0 ? pct(wt->idle.launch_latency_ns, idle) : NAN);
    jnum(w, "unattributed_pct", idle > 0 ? pct(wt->idle.unattributed_ns, idle) : NAN);
    pf_jw_key(w, "gaps");
    pf_jw_int(w, wt->idle.gaps);
    pf_jw_obj_end(w);
    pf_jw_key(w, "launch");
    json_launch(w, &wt->launch);
    pf_jw_key(w, "queue");
    pf_jw_arr_begin(w);
    for (size_t i = 0; i < wt->n_queues; i++) {
        const pf_queue *q = &wt->queues[i];
        pf_jw_obj_begin(w);
        pf_jw_key(w, "stream");
        pf_jw_int(w, q->stream);
        pf_jw_key(w, "max_depth");
        pf_jw_int(w, q->max_depth);
        jnum(w, "mean_depth", q->mean_depth);
        jnum(w, "empty_us", q->empty_ns / 1e3);
        pf_jw_obj_end(w);
    }
    pf_jw_arr_end(w);
    pf_jw_key(w, "step_breakdown");
    pf_jw_arr_begin(w);
    for (size_t s = 0; s < wt->n_steps; s++) {
        pf_jw_obj_begin(w);
        pf_jw_key(w, "step");
        pf_jw_int(w, wt->steps[s].number);
        pf_jw_key(w, "activities");
        pf_jw_int(w, wt->steps[s].count);
        pf_jw_key(w, "breakdown");
        json_breakdown(w, &wt->steps[s].b);
        pf_jw_obj_end(w);
    }
    pf_jw_arr_end(w);
}
