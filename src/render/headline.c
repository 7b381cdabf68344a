/* headline.c - per device, the short block --analysis prints before its tables: span, busy %, top categories, coverage, and one or two findings with what to do next. */
#include "profana/headline.h"

#include <assert.h>
#include <string.h>

#include "view_parts.h"

#define TOP_CATS 3
#define MAX_FINDINGS 2
/* Below this busy share the GPU waits more than it works: the host, not the kernels, sets
 * the pace, so kernel efficiency comes second. */
#define IDLE_BUSY_PCT 50.0
/* A category with at least this share of GPU time is where kernel work pays first. */
#define DOMINANT_PCT 50.0
/* The width prose is composed for where the view has none (--wide, the HTML report). */
#define WIDTH 100
/* Narrower than this, a line holds too few words to read: wrap at this much still. */
#define WIDTH_MIN 40
#define FINDING_MAX 640

typedef struct finding {
    const char *kind;
    char text[FINDING_MAX];
} finding;

/* The figures of one device's headline, computed once for text and JSON. */
typedef struct headline {
    double span_us, busy_us, idle_us, busy_pct, idle_pct;
    pf_category top[TOP_CATS];
    double top_pct[TOP_CATS];
    int n_top;
    double flop_pct, bytes_pct;
    /* GPU time of the device outside the ProfilerStep windows (default: counted) or outside the
     * --step selection (left out); -1: the trace has no steps */
    double outside_us, outside_pct;
    finding findings[MAX_FINDINGS];
    int n_findings;
} headline;

pf_lack pf_headline_lack(const pf_analysis *an, const pf_device_report *d)
{
    if (an->trace->n_ops == 0 && an->trace->n_launched == 0)
        return PF_LACK_CPU;
    if (d->no_shapes_ns > 0 && d->shapes_ns == 0)
        return PF_LACK_SHAPES;
    return PF_LACK_NONE;
}

/* The first TOP_CATS categories of the category table, in its order. */
static void top_categories(const pf_device_report *d, headline *h)
{
    int order[PF_CAT_COUNT] = {0};
    int n = pf_view_category_order(d, order);
    for (int i = 0; i < n && h->n_top < TOP_CATS; i++) {
        h->top[h->n_top] = (pf_category)order[i];
        h->top_pct[h->n_top++] = pf_aview_time_pct(d, d->cats[order[i]].total_ns);
    }
}

/* The device's GPU time outside the step windows. Without --step every activity counts and
 * the steps' own sums say how much lies inside them; with --step the device's figures are the
 * selection's, and the trace's activities on the device say how much was left out. */
static void outside_steps(const pf_analysis *an, const pf_device_report *d, headline *h)
{
    h->outside_us = h->outside_pct = -1;
    if (an->n_steps == 0)
        return;
    int id = d->device->id;
    int64_t all = 0, inside = 0;
    if (an->opts.step == PF_STEP_EVERY) {
        all = d->total.total_ns;
        for (size_t i = 0; i < an->n_steps; i++)
            inside += an->steps[i].device == id ? an->steps[i].sum_ns : 0;
    } else {
        const pf_trace *t = an->trace;
        for (size_t i = 0; i < t->n_acts; i++)
            all += t->acts[i].device == id ? t->acts[i].dur_ns : 0;
        inside = d->total.total_ns;
    }
    if (all <= 0 || inside >= all)
        return;
    h->outside_us = (double)(all - inside) / 1e3;
    h->outside_pct = 100.0 * (double)(all - inside) / (double)all;
}

static finding *add_finding(headline *h, const char *kind)
{
    if (h->n_findings >= MAX_FINDINGS)
        return NULL;
    finding *f = &h->findings[h->n_findings++];
    f->kind = kind;
    return f;
}

/* The largest cause of the idle time (waits.h) with its share, and the advice that fits it:
 * the host had not launched the work yet, or it was launched and started late. */
static void idle_finding(const pf_analysis *an, const pf_device_report *d, headline *h)
{
    if (h->span_us <= 0 || h->busy_pct >= IDLE_BUSY_PCT)
        return;
    finding *f = add_finding(h, "idle");
    const pf_waits *w = pf_wview_of(an, d);
    if (!f || !w)
        return;
    const pf_idle_causes *c = &w->idle;
    int64_t idle = w->breakdown.idle_ns;
    int n = snprintf(f->text, sizeof f->text,
                     "GPU idle %.2f%% of its span: faster kernels save at most the %.2f%% it is busy. ", h->idle_pct,
                     h->busy_pct);
    size_t at = n > 0 && (size_t)n < sizeof f->text ? (size_t)n : sizeof f->text - 1;
    double share = 0;
    if (c->host_wait_ns >= c->launch_latency_ns && c->host_wait_ns >= c->unattributed_ns) {
        share = idle > 0 ? 100.0 * (double)c->host_wait_ns / (double)idle : 0;
        snprintf(f->text + at, sizeof f->text - at,
                 "Host-bound: %.2f%% of the idle time is host wait (work not yet launched): CPU ops, Python and "
                 "syncs; CUDA graphs or torch.compile(mode=\"reduce-overhead\")",
                 share);
    } else if (c->launch_latency_ns >= c->unattributed_ns) {
        share = 100.0 * (double)c->launch_latency_ns / (double)idle;
        snprintf(f->text + at, sizeof f->text - at,
                 "%.2f%% of the idle time is launch latency (the work was launched in time but started late): "
                 "look for stream dependencies (events, waits on other streams) and synchronizations that hold "
                 "the queue",
                 share);
    } else {
        share = 100.0 * (double)c->unattributed_ns / (double)idle;
        snprintf(f->text + at, sizeof f->text - at,
                 "%.2f%% of the idle time ends with work whose launch call is not in the trace: record the CPU "
                 "side (ProfilerActivity.CPU) to tell host waits from launch latency",
                 share);
    }
}

static void lack_finding(const pf_analysis *an, const pf_device_report *d, headline *h)
{
    pf_lack lack = pf_headline_lack(an, d);
    finding *f = lack == PF_LACK_NONE ? NULL : add_finding(h, lack == PF_LACK_CPU ? "no_cpu" : "no_shapes");
    if (!f)
        return;
    if (lack == PF_LACK_CPU)
        snprintf(f->text, sizeof f->text,
                 "no CPU side recorded (FLOPs known for %.2f%% of GPU time): profile with "
                 "activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA] and record_shapes=True", h->flop_pct);
    else
        snprintf(f->text, sizeof f->text,
                 "no input shapes recorded, so FLOPs are known for %.2f%% of GPU time; record them with "
                 "torch.profiler.profile(record_shapes=True)", h->flop_pct);
}

/* Inductor Triton launches whose modules were not read carry lower bounds: say how to get
 * their exact figures. */
static void triton_finding(const pf_device_report *d, headline *h)
{
    finding *f = d->triton_lb_ns > 0 ? add_finding(h, "triton_lower_bound") : NULL;
    if (f)
        snprintf(f->text, sizeof f->text,
                 "%.2f%% of GPU time is Triton kernels whose bytes are lower bounds (~lb): their Inductor "
                 "modules were not found; record with TORCHINDUCTOR_BENCHMARK_KERNEL=1, or copy the Inductor "
                 "cache (/tmp/torchinductor_$USER) and pass --inductor-cache DIR",
                 pf_aview_time_pct(d, d->triton_lb_ns));
}

static void device_finding(const pf_device_report *d, headline *h)
{
    finding *f = d->info ? NULL : add_finding(h, "unknown_device");
    if (f)
        snprintf(f->text, sizeof f->text,
                 "unknown device: pass --device NAME or --device-file FILE (\"%s\" is in no entry of the "
                 "device table, so no percent of peak is shown; --list-devices shows the entries)",
                 d->device->name[0] ? d->device->name : "(no name in trace)");
}

/* What to do about the category with most of the GPU time, by the kind of work it is. */
static const char *dominant_advice(pf_category c)
{
    switch (c) {
    case PF_CAT_GEMM:
    case PF_CAT_CONV:
    case PF_CAT_ATTENTION:
    case PF_CAT_TRITON_TEMPLATE:
        return "its rows' FLOPS % say how far each is from the peak, and --group shape which shapes to "
               "tune first";
    case PF_CAT_ELEMENTWISE:
    case PF_CAT_REDUCTION:
    case PF_CAT_NORMALIZATION:
        return "memory-bound kernels, whose DRAM traffic fusion cuts (torch.compile); BW % says how close "
               "each is to the peak";
    case PF_CAT_MEMCPY:
    case PF_CAT_MEMSET:
        return "copies and fills: look for host-device copies that pinned memory and non_blocking=True "
               "could overlap, and for copies that are not needed";
    case PF_CAT_COMMUNICATION:
        return "collectives: overlap them with compute (bucketing, prefetching), and compare ranks with "
               "--ranks";
    default:
        return "--by-category lists its rows by time";
    }
}

/* Whether the percentage dominant_advice points the reader to (FLOPS % for the compute
 * categories, BW % for the memory-bound ones) has a figure on most of the category's rows
 * (at least half its launches carry the figure, and the device has a peak): advice to read a
 * column of '-' sends the reader nowhere. */
static int advice_has_figures(const pf_device_report *d, pf_category c)
{
    const pf_row *r = &d->cats[c];
    switch (c) {
    case PF_CAT_GEMM:
    case PF_CAT_CONV:
    case PF_CAT_ATTENTION:
    case PF_CAT_TRITON_TEMPLATE:
        return pf_row_flops_pct(r, d->info) >= 0 && 2 * r->flop_known >= r->count;
    case PF_CAT_ELEMENTWISE:
    case PF_CAT_REDUCTION:
    case PF_CAT_NORMALIZATION:
        return pf_row_bw_pct(r, d->info) >= 0 && 2 * r->bytes_known >= r->count;
    default:
        return 1;
    }
}

/* Communication's advice with what the breakdown measured: how much of it compute already
 * hides and how much of the span it holds alone, so the advice to overlap it is weighed
 * against what is left to overlap. Returns 0 where the breakdown is unknown. */
static int communication_finding(const pf_analysis *an, const pf_device_report *d, headline *h, finding *f)
{
    const pf_waits *w = pf_wview_of(an, d);
    const pf_breakdown *b = w ? &w->breakdown : NULL;
    if (!b || b->communication_total_ns <= 0 || b->span_ns <= 0)
        return 0;
    snprintf(f->text, sizeof f->text,
             "%s takes %.2f%% of GPU time: %.2f%% of it overlapped with compute, %.2f%% of the span exposed: "
             "overlap more (bucketing, prefetching); --ranks compares ranks",
             pf_category_name(h->top[0]), h->top_pct[0], pf_breakdown_overlap_pct(b),
             100.0 * (double)b->communication_ns / (double)b->span_ns);
    return 1;
}

static void dominant_finding(const pf_analysis *an, const pf_device_report *d, headline *h)
{
    if (h->n_top == 0 || h->top_pct[0] < DOMINANT_PCT)
        return;
    finding *f = add_finding(h, "dominant");
    if (f && h->top[0] == PF_CAT_COMMUNICATION && communication_finding(an, d, h, f))
        return;
    if (f)
        snprintf(f->text, sizeof f->text, "%s takes %.2f%% of GPU time: %s", pf_category_name(h->top[0]),
                 h->top_pct[0],
                 advice_has_figures(d, h->top[0]) ? dominant_advice(h->top[0])
                                                  : "most of its launches have no figures, so their share of peak reads '-' (the "
                                                    "Coverage and Why lines say why); --by-category lists them by time");
}

/* The figures, and the findings by what matters first: where the time goes (idle) before
 * why figures are missing, before what the kernels do. */
static void compute(const pf_analysis *an, const pf_device_report *d, headline *h)
{
    const pf_busy *b = &d->busy;
    memset(h, 0, sizeof *h);
    double span = pf_aview_span_ns(b);
    h->span_us = span / 1e3;
    h->busy_us = b->busy_ns / 1e3;
    h->idle_us = (span - (double)b->busy_ns) / 1e3;
    h->busy_pct = pf_aview_span_pct(b, b->busy_ns);
    h->idle_pct = span > 0 ? 100.0 - h->busy_pct : 0;
    /* the Coverage line's figures */
    h->flop_pct = pf_aview_time_pct(d, d->flop_known_ns);
    h->bytes_pct = pf_aview_time_pct(d, d->bytes_known_ns);
    top_categories(d, h);
    outside_steps(an, d, h);
    idle_finding(an, d, h);
    lack_finding(an, d, h);
    triton_finding(d, h);
    device_finding(d, h);
    dominant_finding(an, d, h);
}

/* Writes text after lead, wrapped at spaces to width columns, continuation lines indented
 * as deep as lead (so a Markdown list item stays one item): composed once at the width it is
 * shown at, so the view's own wrapping (pf_wrap_open) finds nothing left to break. */
static void put_wrapped(FILE *out, const char *lead, const char *text, int width)
{
    size_t indent = strlen(lead), col = indent;
    fputs(lead, out);
    const char *p = text;
    int first = 1;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (!len)
            break;
        if (!first && col + 1 + len > (size_t)width) {
            fprintf(out, "\n%*s", (int)indent, "");
            col = indent;
        } else if (!first) {
            fputc(' ', out);
            col++;
        }
        fwrite(p, 1, len, out);
        col += len;
        p += len;
        first = 0;
    }
    fputc('\n', out);
}

void pf_headline_print(FILE *out, const pf_analysis *an, const pf_device_report *d)
{
    pf_headline_print_at(out, an, d, WIDTH);
}

void pf_headline_print_at(FILE *out, const pf_analysis *an, const pf_device_report *d, int width)
{
    assert(out && an && d && width >= 0);
    width = width == 0 ? WIDTH : width < WIDTH_MIN ? WIDTH_MIN : width;
    headline h;
    compute(an, d, &h);
    char s[FINDING_MAX];
    snprintf(s, sizeof s, "span %.3f us, busy %.3f us (%.2f%%), idle %.3f us (%.2f%%)", h.span_us, h.busy_us,
             h.busy_pct, h.idle_us, h.idle_pct);
    put_wrapped(out, "Headline: ", s, width);
    size_t len = (size_t)snprintf(s, sizeof s, "top categories by GPU time:");
    for (int i = 0; i < h.n_top && len < sizeof s; i++)
        len += (size_t)snprintf(s + len, sizeof s - len, "%s %s %.2f%%", i ? "," : "", pf_category_name(h.top[i]),
                                h.top_pct[i]);
    put_wrapped(out, "- ", s, width);
    snprintf(s, sizeof s, "coverage: FLOPs known for %.2f%% of GPU time, bytes by formula for %.2f%%", h.flop_pct,
             h.bytes_pct);
    put_wrapped(out, "- ", s, width);
    if (pf_aview_phases_brief(s, sizeof s, an, d)) /* a serving trace: how its GPU time splits */
        put_wrapped(out, "- ", s, width);
    if (h.outside_pct >= 0) {
        if (an->opts.step == PF_STEP_EVERY)
            snprintf(s, sizeof s, "steps: %.2f%% of GPU time (%.3f us) runs outside the ProfilerStep windows and "
                     "is counted here; --step all counts the steps alone", h.outside_pct, h.outside_us);
        else
            snprintf(s, sizeof s, "steps: %.2f%% of the device's GPU time (%.3f us) runs outside the steps "
                     "analysed and is left out; without --step it is counted", h.outside_pct, h.outside_us);
        put_wrapped(out, "- ", s, width);
    }
    for (int i = 0; i < h.n_findings; i++)
        put_wrapped(out, "- ", h.findings[i].text, width);
    fputc('\n', out);
}

static void json_num(pf_jw *w, const char *key, double v)
{
    pf_jw_key(w, key);
    pf_jw_num(w, v);
}

void pf_headline_json(pf_jw *w, const pf_analysis *an, const pf_device_report *d)
{
    headline h;
    compute(an, d, &h);
    pf_jw_key(w, "headline");
    pf_jw_obj_begin(w);
    json_num(w, "span_us", h.span_us);
    json_num(w, "busy_us", h.busy_us);
    json_num(w, "idle_us", h.idle_us);
    json_num(w, "busy_pct", h.busy_pct);
    json_num(w, "idle_pct", h.idle_pct);
    pf_jw_key(w, "top_categories");
    pf_jw_arr_begin(w);
    for (int i = 0; i < h.n_top; i++) {
        pf_jw_obj_begin(w);
        pf_jw_key(w, "category");
        pf_jw_str(w, pf_category_name(h.top[i]));
        json_num(w, "pct", h.top_pct[i]);
        pf_jw_obj_end(w);
    }
    pf_jw_arr_end(w);
    json_num(w, "flop_pct", h.flop_pct);
    json_num(w, "bytes_pct", h.bytes_pct);
    pf_jw_key(w, "findings");
    pf_jw_arr_begin(w);
    for (int i = 0; i < h.n_findings; i++) {
        pf_jw_obj_begin(w);
        pf_jw_key(w, "kind");
        pf_jw_str(w, h.findings[i].kind);
        pf_jw_key(w, "text");
        pf_jw_str(w, h.findings[i].text);
        pf_jw_obj_end(w);
    }
    pf_jw_arr_end(w);
    pf_jw_obj_end(w);
}
