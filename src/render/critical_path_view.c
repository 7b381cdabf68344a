/* critical_path_view.c - what --group critical-path prints: each step's critical path, its length split by part, its verdict, and the ops and kernels with the most time on it; CSV rows per step or one JSON document. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/critical_path.h"
#include "profana/names.h"
#include "profana/view.h"
#include "view_parts.h"

/* A path is CPU-bound when the host (its ops and calls, and the launch delays of idle
 * streams) holds at least this share of it. */
#define HOST_BOUND_PCT 50.0

enum {
    C_STEP, C_WIN, C_LEN,
    C_CPU_US, C_GPU_US, C_COMM_US, C_COPY_US, C_LAUNCH_US, C_GAP_US,
    C_CPU, C_GPU, C_COMM, C_COPY, C_LAUNCH, C_GAP,
    C_SYNCS, C_HOST, C_VERDICT, C_TOP, C_TOP_US, C_NCOLS
};

enum { US_IN = PF_IN_CSV | PF_IN_JSON };

static const pf_col step_cols[C_NCOLS] = {
    [C_STEP] = {"Step", "step", 1, 0, NULL},
    [C_WIN] = {"Window (us)", "window_us", 1, 0, NULL},
    [C_LEN] = {"Path (us)", "length_us", 1, 0, NULL},
    [C_CPU_US] = {"CPU (us)", "cpu_us", 1, US_IN, NULL},
    [C_GPU_US] = {"GPU (us)", "gpu_us", 1, US_IN, NULL},
    [C_COMM_US] = {"Comm (us)", "comm_us", 1, US_IN, NULL},
    [C_COPY_US] = {"Copy (us)", "copy_us", 1, US_IN, NULL},
    [C_LAUNCH_US] = {"Launch (us)", "launch_us", 1, US_IN, NULL},
    [C_GAP_US] = {"Gaps (us)", "gap_us", 1, US_IN, NULL},
    [C_CPU] = {"CPU %", "cpu_pct", 1, 0, NULL},
    [C_GPU] = {"GPU %", "gpu_pct", 1, 0, NULL},
    [C_COMM] = {"Comm %", "comm_pct", 1, 0, NULL},
    [C_COPY] = {"Copy %", "copy_pct", 1, 0, NULL},
    [C_LAUNCH] = {"Launch %", "launch_pct", 1, 0, NULL},
    [C_GAP] = {"Gaps %", "gap_pct", 1, 0, NULL},
    [C_SYNCS] = {"Syncs", "syncs_on_path", 1, 0, NULL},
    [C_HOST] = {"Host %", "host_pct", 1, 0, NULL},
    [C_VERDICT] = {"Verdict", "verdict", 0, 0, NULL},
    [C_TOP] = {"Top", NULL, 0, PF_IN_CSV, NULL},
    [C_TOP_US] = {"Top (us)", NULL, 1, PF_IN_CSV, NULL},
};

static const int step_wanted[] = {C_LEN, C_VERDICT, C_CPU, C_GPU, C_LAUNCH, C_GAP, C_COPY, C_COMM, C_HOST, C_WIN, C_SYNCS};

enum { I_NAME, I_PART, I_US, I_PCT, I_COUNT, I_NCOLS };

static const pf_col item_cols[I_NCOLS] = {
    [I_NAME] = {"Op, call or kernel", "name", 0, 0, NULL},
    [I_PART] = {"Part", "part", 0, 0, NULL},
    [I_US] = {"Time (us)", "time_us", 1, 0, NULL},
    [I_PCT] = {"% of path", "pct", 1, 0, NULL},
    [I_COUNT] = {"Stretches", "count", 1, 0, NULL},
};

static double pct(int64_t x, int64_t of)
{
    return of > 0 ? 100.0 * (double)x / (double)of : 0;
}

/* The host's share of a path: its ops and calls, and the launch delays. */
static double host_pct(const int64_t *part_ns, int64_t length_ns)
{
    return pct(part_ns[PF_CP_CPU] + part_ns[PF_CP_LAUNCH], length_ns);
}

static const char *verdict(const int64_t *part_ns, int64_t length_ns)
{
    if (length_ns <= 0)
        return "-";
    return host_pct(part_ns, length_ns) >= HOST_BOUND_PCT ? "CPU-bound" : "GPU-bound";
}

static void step_row(pf_table *t, const char *label, int64_t number, int64_t window_ns, int64_t length_ns,
                     const int64_t *part_ns, int64_t syncs, const pf_cp_item *top)
{
    int r = pf_table_add_row(t);
    if (number >= 0)
        pf_table_int(t, r, C_STEP, number);
    else
        pf_table_str(t, r, C_STEP, label);
    if (window_ns >= 0)
        pf_table_num(t, r, C_WIN, window_ns / 1e3, 3);
    pf_table_num(t, r, C_LEN, length_ns / 1e3, 3);
    for (int p = 0; p < PF_CP_NPARTS; p++) {
        pf_table_num(t, r, C_CPU_US + p, part_ns[p] / 1e3, 3);
        pf_table_num(t, r, C_CPU + p, pct(part_ns[p], length_ns), 2);
    }
    pf_table_int(t, r, C_SYNCS, syncs);
    pf_table_num(t, r, C_HOST, host_pct(part_ns, length_ns), 2);
    pf_table_str(t, r, C_VERDICT, verdict(part_ns, length_ns));
    if (top) {
        pf_table_str(t, r, C_TOP, top->name);
        pf_table_num(t, r, C_TOP_US, top->ns / 1e3, 3);
    }
}

/* One row per step; with total, a summary row over them. */
static pf_table *steps_table(const pf_cp_view *cv, int total)
{
    pf_table *t = pf_table_new(step_cols, C_NCOLS);
    for (size_t i = 0; t && i < cv->n_steps; i++) {
        const pf_cp_step *s = &cv->steps[i];
        step_row(t, "all", s->number, s->dur_ns, s->length_ns, s->part_ns, (int64_t)s->n_sync_on_path,
                 s->n_items ? &s->items[0] : NULL);
    }
    if (t && total && cv->n_steps > 1) {
        int64_t syncs = 0;
        for (size_t i = 0; i < cv->n_steps; i++)
            syncs += (int64_t)cv->steps[i].n_sync_on_path;
        step_row(t, "Total", -1, -1, cv->length_ns, cv->part_ns, syncs, cv->n_items ? &cv->items[0] : NULL);
        pf_table_row_summary(t, pf_table_rows(t) - 1);
    }
    if (t && pf_table_status(t)) {
        pf_table_free(t);
        return NULL;
    }
    return t;
}

static pf_table *items_table(const pf_cp_item *items, size_t n, int64_t length_ns, int shorten)
{
    pf_table *t = pf_table_new(item_cols, I_NCOLS);
    for (size_t k = 0; t && k < n; k++) {
        const pf_cp_item *it = &items[k];
        int r = pf_table_add_row(t);
        pf_table_str(t, r, I_NAME, it->name);
        if (shorten && it->part != PF_CP_CPU) { /* kernel signatures; op names stay whole */
            char buf[160];
            pf_table_label(t, r, I_NAME, pf_name_short(it->name, 1, buf, sizeof buf));
        }
        pf_table_str(t, r, I_PART, pf_cp_part_name(it->part));
        pf_table_num(t, r, I_US, it->ns / 1e3, 3);
        pf_table_num(t, r, I_PCT, pct(it->ns, length_ns), 2);
        pf_table_int(t, r, I_COUNT, it->count);
    }
    if (t && pf_table_status(t)) {
        pf_table_free(t);
        return NULL;
    }
    return t;
}

static int print_text(FILE *raw, const pf_view_opts *v, const pf_analysis *an, const pf_cp_view *cv)
{
    FILE *out = pf_wrap_open(raw, v->format == PF_FMT_TEXT ? v->width : 0);
    fprintf(out, "Critical path of %s %s: the chain of CPU ops, launches, GPU activities and syncs that bounds it "
                 "(HTA's definition; docs/analysis.md, \"Critical path\")\n",
            cv->whole_trace ? "the whole trace (no ProfilerStep window)," : "each profiler step of", an->trace->path);
    if (cv->no_launch)
        fprintf(out, "%zu GPU activities have no launch call in the trace and are not in the graph.\n", cv->no_launch);
    pf_table *t = steps_table(cv, 1);
    int rc = -1;
    if (!t)
        goto done;
    fputc('\n', out);
    pf_text_fit fit = pf_view_fit(v, t, step_wanted, (int)(sizeof step_wanted / sizeof step_wanted[0]), NULL, 0);
    pf_view_print_fit(raw, v, t, &fit);
    pf_table_free(t);
    fprintf(out, "\nCPU: host ops and calls; GPU, Comm, Copy: kernels, communication kernels, memcpy and memset; "
                 "Launch: from a launch call to its activity on an idle stream; Gaps: between activities of a stream; "
                 "Host %% = CPU + Launch: CPU-bound from %.0f%%.\n",
            HOST_BOUND_PCT);
    rc = 0;
    if (cv->n_items == 0)
        goto done;
    fprintf(out, "\nOn the path%s: the ops, calls and kernels with the most time\n\n", cv->n_steps > 1 ? " (all steps)" : "");
    pf_table *it = items_table(cv->items, cv->n_items, cv->length_ns, v->format == PF_FMT_MD || v->width > 0);
    rc = it ? 0 : -1;
    if (it) {
        fit = pf_view_fit(v, it, NULL, 0, NULL, 0);
        pf_view_print_fit(raw, v, it, &fit);
        pf_table_free(it);
    }
done:
    pf_wrap_close(out, raw);
    return rc;
}

static int items_json(pf_jw *w, const pf_cp_item *items, size_t n, int64_t length_ns)
{
    pf_table *t = items_table(items, n, length_ns, 0);
    if (!t)
        return -1;
    pf_table_json_rows(w, t);
    pf_table_free(t);
    return 0;
}

static void parts_json(pf_jw *w, const int64_t *part_ns, int64_t length_ns)
{
    pf_jw_key(w, "length_us");
    pf_jw_num(w, length_ns / 1e3);
    for (int p = 0; p < PF_CP_NPARTS; p++) {
        char key[32];
        snprintf(key, sizeof key, "%s_us", pf_cp_part_name(p));
        pf_jw_key(w, key);
        pf_jw_num(w, part_ns[p] / 1e3);
    }
    pf_jw_key(w, "host_pct");
    pf_jw_num(w, host_pct(part_ns, length_ns));
    pf_jw_key(w, "verdict");
    pf_jw_str(w, verdict(part_ns, length_ns));
}

static int print_json(FILE *out, const pf_analysis *an, const pf_cp_view *cv)
{
    pf_jw w;
    pf_view_json_open(&w, out, an->trace->path, "critical-path");
    pf_jw_key(&w, "whole_trace");
    pf_jw_bool(&w, cv->whole_trace);
    pf_jw_key(&w, "no_launch_call");
    pf_jw_int(&w, (int64_t)cv->no_launch);
    pf_jw_key(&w, "steps");
    pf_jw_arr_begin(&w);
    for (size_t i = 0; i < cv->n_steps; i++) {
        const pf_cp_step *s = &cv->steps[i];
        pf_jw_obj_begin(&w);
        pf_jw_key(&w, "step");
        if (s->number >= 0)
            pf_jw_int(&w, s->number);
        else
            pf_jw_null(&w);
        pf_jw_key(&w, "window_us");
        pf_jw_num(&w, s->dur_ns / 1e3);
        parts_json(&w, s->part_ns, s->length_ns);
        pf_jw_key(&w, "path_start_us"); /* from the window's start */
        pf_jw_num(&w, s->length_ns ? (s->start_ns - s->ts_ns) / 1e3 : 0);
        pf_jw_key(&w, "path_end_us");
        pf_jw_num(&w, s->length_ns ? (s->end_ns - s->ts_ns) / 1e3 : 0);
        pf_jw_key(&w, "host_events");
        pf_jw_int(&w, (int64_t)s->n_host);
        pf_jw_key(&w, "gpu_activities");
        pf_jw_int(&w, (int64_t)s->n_acts);
        pf_jw_key(&w, "sync_edges");
        pf_jw_int(&w, (int64_t)s->n_sync_edges);
        pf_jw_key(&w, "syncs_on_path");
        pf_jw_int(&w, (int64_t)s->n_sync_on_path);
        pf_jw_key(&w, "items");
        if (items_json(&w, s->items, s->n_items, s->length_ns))
            return -1;
        pf_jw_obj_end(&w);
    }
    pf_jw_arr_end(&w);
    pf_jw_key(&w, "total");
    pf_jw_obj_begin(&w);
    parts_json(&w, cv->part_ns, cv->length_ns);
    pf_jw_key(&w, "items");
    if (items_json(&w, cv->items, cv->n_items, cv->length_ns))
        return -1;
    pf_jw_obj_end(&w);
    pf_jw_obj_end(&w);
    fputc('\n', out);
    return 0;
}

int pf_view_critical_path(FILE *out, const pf_view_opts *v, const pf_analysis *an, const struct pf_cp_view *cv)
{
    if (v->format == PF_FMT_JSON)
        return print_json(out, an, cv);
    if (v->format == PF_FMT_CSV) {
        pf_table *t = steps_table(cv, 0);
        if (!t)
            return -1;
        pf_table_print_csv(out, t, 1);
        pf_table_free(t);
        return 0;
    }
    return print_text(out, v, an, cv);
}
