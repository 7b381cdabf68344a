/* steps_view.c - what --analysis prints about profiler steps: the header line, the --steps table and its JSON. */
#include <stdio.h>

#include "profana/view.h"
#include "view_parts.h"

enum { T_STEP, T_DEVICE, T_SPAN, T_GPU_SPAN, T_COUNT, T_SUM, T_BUSY, T_PCT, T_TOP, T_TOP_PCT, T_NCOLS };

static const pf_col step_cols[T_NCOLS] = {
    [T_STEP] = {"Step", "step", 1, 0, NULL},
    [T_DEVICE] = {"Device", "device", 1, 0, NULL},
    [T_SPAN] = {"Span (us)", "span_us", 1, 0, NULL},
    [T_GPU_SPAN] = {"GPU Span (us)", "gpu_span_us", 1, 0, NULL},
    [T_COUNT] = {"Activities", "count", 1, 0, NULL},
    [T_SUM] = {"GPU Time (us)", "gpu_time_us", 1, 0, NULL},
    [T_BUSY] = {"Busy (us)", "busy_us", 1, 0, NULL},
    [T_PCT] = {"Busy %", "busy_pct", 1, 0, NULL},
    [T_TOP] = {"Top Category", "top_category", 0, 0, NULL},
    [T_TOP_PCT] = {"Top %", "top_pct", 1, 0, NULL},
};

/* The columns a width keeps, most wanted first: the step's time, its GPU time and busy share, then what
 * took most of it (Top Category and Top % together: a share of nothing named reads as noise). */
static const int step_wanted[] = {T_DEVICE, T_SPAN, T_SUM, T_PCT, T_TOP, T_TOP_PCT, T_BUSY, T_GPU_SPAN, T_COUNT};
static const int step_ties[] = {T_TOP, T_TOP_PCT};

#define step_fit(w)                                                                                          \
    (pf_text_fit)                                                                                            \
    {                                                                                                        \
        .width = (w), .cols = step_wanted, .ncols = (int)(sizeof step_wanted / sizeof step_wanted[0]),       \
        .ties = step_ties, .nties = 1                                                                        \
    }

static pf_category top_category(const pf_step_report *s)
{
    int best = PF_CAT_OTHER;
    for (int c = 0; c < PF_CAT_COUNT; c++)
        if (s->cat_ns[c] > s->cat_ns[best])
            best = c;
    return (pf_category)best;
}

static double pct(int64_t part, int64_t whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : 0;
}

static pf_table *step_table(const pf_analysis *an)
{
    pf_table *t = pf_table_new(step_cols, T_NCOLS);
    for (size_t k = 0; t && k < an->n_steps; k++) {
        const pf_step_report *s = &an->steps[k];
        pf_category top = top_category(s);
        int r = pf_table_add_row(t);
        pf_table_int(t, r, T_STEP, s->number);
        if (s->device >= 0) /* else a CPU-side window that launched no GPU work: no device */
            pf_table_int(t, r, T_DEVICE, s->device);
        pf_table_num(t, r, T_SPAN, s->dur_ns / 1e3, 3);
        pf_table_int(t, r, T_COUNT, s->count);
        pf_table_num(t, r, T_SUM, s->sum_ns / 1e3, 3);
        pf_table_num(t, r, T_BUSY, s->busy_ns / 1e3, 3);
        if (s->count) { /* the GPU work of a step may run past its CPU window: busy is measured
                           against the span of that work, not the window */
            pf_table_num(t, r, T_GPU_SPAN, (s->gpu_end_ns - s->gpu_start_ns) / 1e3, 3);
            pf_table_num(t, r, T_PCT, pct(s->busy_ns, s->gpu_end_ns - s->gpu_start_ns), 2);
        }
        pf_table_str(t, r, T_TOP, s->count ? pf_category_name(top) : "-");
        pf_table_num(t, r, T_TOP_PCT, pct(s->cat_ns[top], s->sum_ns), 2);
    }
    if (t && pf_table_status(t)) {
        pf_table_free(t);
        return NULL;
    }
    return t;
}

/* The step numbers seen, as "#2..#4" (ascending by start on the first device). */
static void step_range(const pf_analysis *an, char *buf, size_t n)
{
    int64_t lo = an->steps[0].number, hi = lo;
    for (size_t k = 1; k < an->n_steps; k++) {
        lo = an->steps[k].number < lo ? an->steps[k].number : lo;
        hi = an->steps[k].number > hi ? an->steps[k].number : hi;
    }
    if (lo == hi)
        snprintf(buf, n, "#%lld", (long long)lo);
    else
        snprintf(buf, n, "#%lld..#%lld", (long long)lo, (long long)hi);
}

/* Distinct ProfilerStep windows or annotations behind the rows (a CPU-side window that
 * launched on two devices has two rows). */
static size_t step_count(const pf_analysis *an)
{
    return an->steps_gpu_side ? an->trace->n_gpu_steps : an->trace->n_cpu_steps;
}

void pf_steps_print_line(FILE *out, const pf_analysis *an)
{
    const pf_trace *t = an->trace;
    char range[64];
    if (an->n_steps == 0) {
        if (t->n_steps)
            fprintf(out, "Steps: %zu ProfilerStep annotation%s on the CPU, none on the GPU and no launch calls "
                         "(--step needs one or the other)\n",
                    t->n_steps, t->n_steps == 1 ? "" : "s");
        return;
    }
    size_t n = step_count(an);
    step_range(an, range, sizeof range);
    if (an->steps_gpu_side)
        fprintf(out, "Steps: %zu GPU-side ProfilerStep annotation%s (%s; the trace has no launch calls, so only the "
                     "profiling thread's work is inside them); ",
                n, n == 1 ? "" : "s", range);
    else
        fprintf(out, "Steps: %zu ProfilerStep window%s on the CPU (%s), each with the GPU work launched inside it; ", n,
                n == 1 ? "" : "s", range);
    if (an->opts.step == PF_STEP_EVERY)
        fputs("analysing all GPU activity (--step all|N restricts it, --steps lists the steps)\n", out);
    else if (an->opts.step == PF_STEP_ALL)
        fputs("analysing the GPU activity of every step (--step all)\n", out);
    else
        fprintf(out, "analysing ProfilerStep#%lld only\n", (long long)an->opts.step);
}

int pf_steps_print_table(FILE *out, pf_format format, int width, const pf_analysis *an)
{
    pf_table *t = step_table(an);
    if (!t)
        return -1;
    if (an->n_steps == 0) { /* prose, wrapped; CSV carries its header alone, the prose on stderr */
        FILE *w = pf_wrap_open(format == PF_FMT_CSV ? stderr : out, format == PF_FMT_TEXT ? width : 0);
        fputs("No ProfilerStep annotations in this trace: record it with a torch.profiler schedule and "
              "prof.step().\n",
              w);
        pf_wrap_close(w, format == PF_FMT_CSV ? stderr : out);
        if (format == PF_FMT_CSV)
            pf_table_print_csv(out, t, 1);
        pf_table_free(t);
        return 0;
    }
    if (format != PF_FMT_CSV) /* after the Steps: line; a CSV starts with its header */
        fputc('\n', out);
    if (format == PF_FMT_MD)
        pf_table_print_md(out, t, 0);
    else if (format == PF_FMT_CSV)
        pf_table_print_csv(out, t, 1);
    else {
        pf_text_fit fit = step_fit(width);
        pf_view_hidden(out, width, t, &fit, pf_table_print_text_fit(out, t, &fit));
    }
    pf_table_free(t);
    return 0;
}

int pf_steps_json(pf_jw *w, const pf_analysis *an)
{
    pf_table *t = step_table(an);
    if (!t)
        return -1;
    pf_jw_key(w, "steps");
    pf_jw_obj_begin(w);
    pf_jw_key(w, "cpu");
    pf_jw_int(w, (int64_t)an->trace->n_steps);
    pf_jw_key(w, "gpu");
    pf_jw_int(w, (int64_t)an->trace->n_gpu_steps);
    pf_jw_key(w, "rule");
    pf_jw_str(w, an->steps_gpu_side ? "gpu-annotation" : "cpu-launch");
    pf_jw_key(w, "selected");
    if (an->opts.step == PF_STEP_EVERY)
        pf_jw_null(w);
    else if (an->opts.step == PF_STEP_ALL)
        pf_jw_str(w, "all");
    else
        pf_jw_int(w, an->opts.step);
    pf_jw_key(w, "rows");
    pf_table_json_rows(w, t);
    pf_jw_obj_end(w);
    pf_table_free(t);
    return 0;
}
