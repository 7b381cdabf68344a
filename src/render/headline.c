/* headline.c - per device, the short block --analysis prints before its tables: span, busy %, top categories, coverage, the idle gaps by length, and the findings ranked by the time a fix would recover (diagnose.h) with what to do next. */
#include "profana/headline.h"

#include <assert.h>
#include <string.h>

#include "profana/diagnose.h"
#include "view_parts.h"

#define TOP_CATS 3
/* Notes on what the trace lacks (no CPU side, no shapes, Triton lower bounds, an unknown
 * device): they carry no time of their own. */
#define MAX_FINDINGS 4
/* The ranked findings shown: at least this many (with the heaviest row's among them). */
#define SHOW_RANKED 3
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
    pf_diagnosis diag;                 /* the ranked findings (diagnose.h) */
    int shown[SHOW_RANKED + 1];        /* indexes into diag.findings, in the order shown */
    int n_shown;
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
        h->top_pct[h->n_top++] = pf_aview_time_pct(d, pf_report_cat(d, order[i])->total_ns);
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

/* The ranked findings shown: the first SHOW_RANKED by time, and the heaviest row's (kind
 * headroom or far_below_roofs) when it is not among them. */
static void pick_shown(headline *h)
{
    int heavy = -1;
    for (int i = 0; i < h->diag.n_findings; i++)
        if (!strcmp(h->diag.findings[i].kind, "headroom") || !strcmp(h->diag.findings[i].kind, "far_below_roofs"))
            heavy = i;
    for (int i = 0; i < h->diag.n_findings && i < SHOW_RANKED; i++)
        h->shown[h->n_shown++] = i;
    if (heavy >= SHOW_RANKED)
        h->shown[h->n_shown++] = heavy;
}

/* The figures, the ranked findings, and the notes on what the trace lacks. Returns -1 when
 * memory runs out (the ranked findings are then left out). */
static int compute(const pf_analysis *an, const pf_device_report *d, headline *h)
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
    lack_finding(an, d, h);
    triton_finding(d, h);
    device_finding(d, h);
    pf_error err;
    if (pf_diagnose(an, d, &h->diag, &err))
        return -1;
    pick_shown(h);
    return 0;
}

/* A ranked finding as one line of prose. */
static void finding_text(char *buf, size_t cap, const pf_finding *f)
{
    if (f->time_us >= 0)
        snprintf(buf, cap, "%s: %.3f us to win (%.2f%% of the span): %s. Fix: %s", f->kind, f->time_us, f->pct,
                 f->evidence, f->advice);
    else
        snprintf(buf, cap, "%s: %s. Fix: %s", f->kind, f->evidence, f->advice);
}

/* The idle gaps by length, as one line; 0 when the device has none. */
static int gaps_text(char *buf, size_t cap, const pf_diagnosis *g)
{
    int64_t n = 0;
    for (int b = 0; b < PF_GAP_BINS; b++)
        n += g->gap_count[b];
    if (!n)
        return 0;
    size_t len = (size_t)snprintf(buf, cap, "idle gaps by length:");
    for (int b = 0; b < PF_GAP_BINS && len < cap; b++)
        len += (size_t)snprintf(buf + len, cap - len, "%s %s %lld (%.3f ms)", b ? "," : "", pf_gap_bin_name(b),
                                (long long)g->gap_count[b], (double)g->gap_ns[b] / 1e6);
    return 1;
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
    int diag_rc = compute(an, d, &h);
    char s[FINDING_MAX + 2 * PF_FINDING_TEXT];
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
    if (gaps_text(s, sizeof s, &h.diag))
        put_wrapped(out, "- ", s, width);
    for (int i = 0; i < h.n_shown; i++) {
        finding_text(s, sizeof s, &h.diag.findings[h.shown[i]]);
        put_wrapped(out, "- ", s, width);
    }
    if (diag_rc)
        put_wrapped(out, "- ", "findings: out of memory", width);
    for (int i = 0; i < h.n_findings; i++)
        put_wrapped(out, "- ", h.findings[i].text, width);
    pf_diagnosis_free(&h.diag);
    fputc('\n', out);
}

static void json_num(pf_jw *w, const char *key, double v)
{
    pf_jw_key(w, key);
    pf_jw_num(w, v);
}

/* A figure that may be unknown (< 0): null then. */
static void json_opt(pf_jw *w, const char *key, double v)
{
    pf_jw_key(w, key);
    if (v < 0)
        pf_jw_null(w);
    else
        pf_jw_num(w, v);
}

/* What covered the idle time on the host, largest first: the ten first names. */
static void json_covers(pf_jw *w, const pf_diagnosis *g)
{
    static const char *const kinds[] = {"annotation", "python", "sync", "blocking_op"};
    pf_jw_key(w, "idle_covered_by");
    pf_jw_arr_begin(w);
    for (size_t i = 0; i < g->n_covers && i < 10; i++) {
        const pf_idle_cover *c = &g->covers[i];
        pf_jw_obj_begin(w);
        pf_jw_key(w, "name");
        pf_jw_str(w, c->name);
        pf_jw_key(w, "kind");
        pf_jw_str(w, c->kind >= 0 && c->kind < 4 ? kinds[c->kind] : "other");
        json_num(w, "idle_us", (double)c->idle_ns / 1e3);
        json_num(w, "short_gap_idle_us", (double)c->short_ns / 1e3);
        pf_jw_obj_end(w);
    }
    pf_jw_arr_end(w);
    json_num(w, "idle_uncovered_short_us", (double)g->uncovered_short_ns / 1e3);
    json_num(w, "idle_uncovered_long_us", (double)g->uncovered_long_ns / 1e3);
    pf_jw_key(w, "syncs");
    pf_jw_int(w, g->sync_n);
    json_num(w, "idle_after_sync_us", (double)g->sync_idle_ns / 1e3);
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
    pf_jw_key(w, "idle_gaps");
    pf_jw_arr_begin(w);
    for (int b = 0; b < PF_GAP_BINS; b++) {
        pf_jw_obj_begin(w);
        pf_jw_key(w, "bin");
        pf_jw_str(w, pf_gap_bin_name(b));
        pf_jw_key(w, "count");
        pf_jw_int(w, h.diag.gap_count[b]);
        json_num(w, "idle_us", (double)h.diag.gap_ns[b] / 1e3);
        pf_jw_obj_end(w);
    }
    pf_jw_arr_end(w);
    json_covers(w, &h.diag);
    pf_jw_key(w, "findings");
    pf_jw_arr_begin(w);
    char s[FINDING_MAX + 2 * PF_FINDING_TEXT];
    for (int i = 0; i < h.diag.n_findings; i++) {
        const pf_finding *f = &h.diag.findings[i];
        finding_text(s, sizeof s, f);
        pf_jw_obj_begin(w);
        pf_jw_key(w, "kind");
        pf_jw_str(w, f->kind);
        json_opt(w, "time_us", f->time_us);
        json_opt(w, "pct", f->pct);
        pf_jw_key(w, "evidence");
        pf_jw_str(w, f->evidence);
        pf_jw_key(w, "advice");
        pf_jw_str(w, f->advice);
        pf_jw_key(w, "text");
        pf_jw_str(w, s);
        pf_jw_obj_end(w);
    }
    for (int i = 0; i < h.n_findings; i++) {
        pf_jw_obj_begin(w);
        pf_jw_key(w, "kind");
        pf_jw_str(w, h.findings[i].kind);
        json_opt(w, "time_us", -1);
        json_opt(w, "pct", -1);
        pf_jw_key(w, "text");
        pf_jw_str(w, h.findings[i].text);
        pf_jw_obj_end(w);
    }
    pf_jw_arr_end(w);
    pf_jw_obj_end(w);
    pf_diagnosis_free(&h.diag);
}
