/* coverage_view.c - how much of a device's GPU time has figures and how its activities found their ops (by External id, by nesting, none), why the rest has none: the counts, Coverage and Why lines, and JSON's "coverage". */
#include <inttypes.h>
#include <stdio.h>

#include "profana/headline.h"
#include "view_parts.h"

/* A share of the device's summed GPU activity time, in percent. */
static double time_pct(const pf_device_report *d, int64_t ns)
{
    return pf_aview_time_pct(d, ns);
}

void pf_aview_counts(FILE *out, const pf_analysis *an, const pf_device_report *d)
{
    (void)an;
    const int64_t *n = d->n_kind;
    fprintf(out, "GPU activities: %lld (kernels %lld, memcpy %lld, memset %lld); %lld without a launching op",
            (long long)(n[0] + n[1] + n[2]), (long long)n[0], (long long)n[1], (long long)n[2],
            (long long)d->unlinked_n);
    if (d->nested_n > 0)
        fprintf(out, ", %lld linked to their op by nesting", (long long)d->nested_n);
    fprintf(out, "; GPU time %.3f us\n", d->total.total_ns / 1e3);
}

/* GPU time whose op came by External id: the linked activities less those linked by
 * nesting and those given their op by a graph capture. */
static int64_t by_external_id_ns(const pf_device_report *d)
{
    return d->total.total_ns - d->unlinked_ns - d->nested_ns - d->captured_ns;
}

#define MISSING_SHOWN 5

static void print_why(FILE *out, const pf_analysis *an, const pf_device_report *d);

/* How much of the GPU time the figures cover, why the rest has none (no shapes recorded,
 * no launching op), and the ops to write formulas for next. */
void pf_aview_coverage(FILE *out, const pf_analysis *an, const pf_device_report *d)
{
    int64_t unknown = d->total.total_ns - d->bytes_known_ns - d->bytes_generic_ns;
    fprintf(out, "Coverage: bytes by formula for %.2f%% of GPU time, by generic guess %.2f%%, unknown %.2f%%; "
                 "FLOPs for %.2f%%",
            time_pct(d, d->bytes_known_ns), time_pct(d, d->bytes_generic_ns), time_pct(d, unknown),
            time_pct(d, d->flop_known_ns));
    if (d->triton_lb_ns > 0)
        fprintf(out, "; Triton lower bounds (~lb) %.2f%%", time_pct(d, d->triton_lb_ns));
    if (d->no_shapes_ns > 0)
        fprintf(out, "; no input shapes recorded: %.2f%%", time_pct(d, d->no_shapes_ns));
    if (d->lists_unrecorded_ns > 0)
        fprintf(out, "; tensor-list shapes not recorded: %.2f%%", time_pct(d, d->lists_unrecorded_ns));
    if (d->graph_replay_ns > 0)
        fprintf(out, "; unknown, CUDA-graph replay: record its capture and pass --graph-capture: %.2f%%",
                time_pct(d, d->graph_replay_ns));
    if (d->compiled_region_ns > 0)
        fprintf(out, "; unknown, torch.compile region: %.2f%%", time_pct(d, d->compiled_region_ns));
    if (d->captured_ns > 0)
        fprintf(out, "; ops from the graph capture: %.2f%%", time_pct(d, d->captured_ns));
    if (d->nested_n > 0)
        fprintf(out, "; op by External id %.2f%%, by nesting %.2f%%", time_pct(d, by_external_id_ns(d)),
                time_pct(d, d->nested_ns));
    if (d->unlinked_ns > 0)
        fprintf(out, "; no launching op: %.2f%%", time_pct(d, d->unlinked_ns));
    if (d->inferred_ns > 0)
        fprintf(out, " (figures inferred from linked launches of the same kernel and geometry: %.2f%%)",
                time_pct(d, d->inferred_ns));
    for (size_t i = 0; i < d->n_missing && i < MISSING_SHOWN; i++)
        fprintf(out, "%s%s %.3f us", i ? ", " : "; ops without a formula: ", d->missing[i].key,
                d->missing[i].total_ns / 1e3);
    fputc('\n', out);
    print_why(out, an, d);
}

/* Whether any kernel of the device without an op was replayed from a graph. */
static int has_graph_replays(const pf_analysis *an, const pf_device_report *d)
{
    const pf_trace *t = an->trace;
    for (size_t i = 0; i < t->n_acts; i++)
        if (t->acts[i].graph && t->acts[i].op < 0 && t->acts[i].device == d->device->id && pf_analysis_selected(an, i))
            return 1;
    return 0;
}

/* One line per reason the figures are missing that the user can act on: what the trace
 * lacks and how to record it, and where kernels without a launching op come from. */
static void print_why(FILE *out, const pf_analysis *an, const pf_device_report *d)
{
    /* no op and no launch call: the CPU side was not recorded (ProfilerActivity.CUDA alone) */
    pf_lack lack = pf_headline_lack(an, d);
    int gpu_only = lack == PF_LACK_CPU;
    if (gpu_only)
        fputs("Why: the trace has no CPU activity (recorded with GPU activities only): no ops, input shapes or "
              "launch calls, so only copies and fills have figures; record with activities=[ProfilerActivity.CPU, "
              "ProfilerActivity.CUDA] and record_shapes=True\n", out);
    else if (lack == PF_LACK_SHAPES)
        fputs("Why: the trace has no input shapes (recorded without record_shapes, PyTorch's default): FLOPs and "
              "bytes are computed from them; record with torch.profiler.profile(..., record_shapes=True)\n", out);
    if (d->lists_unrecorded_ns > 0)
        fprintf(out, "Why: tensor-list shapes not recorded: recent PyTorch writes the TensorLists of fused optimizers, "
                "_foreach_* and cat as [] without shapes, so their bytes and FLOPs are unknown (%.2f%% of GPU time), not "
                "0; the kernels' own figures are used where they exist (Inductor's kernel_num_gb, "
                "TORCHINDUCTOR_BENCHMARK_KERNEL=1)\n", time_pct(d, d->lists_unrecorded_ns));
    if (d->nested_n > 0)
        fprintf(out, "Why: %" PRId64 " GPU activities (%.3f us, %.2f%% of GPU time) have an External id that no "
                     "cpu_op has, and their launch call lies inside a cpu_op on its thread: each is linked to the "
                     "innermost one (by nesting)\n", d->nested_n, d->nested_ns / 1e3, time_pct(d, d->nested_ns));
    if (d->unlinked_n == 0 || gpu_only)
        return;
    int64_t plain = d->unlinked_n - d->no_launch_n - d->graph_launch_n;
    fprintf(out, "Why: %" PRId64 " GPU activities (%.3f us, %.2f%% of GPU time) have no launching op:", d->unlinked_n,
            d->unlinked_ns / 1e3, time_pct(d, d->unlinked_ns));
    if (plain > 0)
        fprintf(out, " %" PRId64 " launched by a call outside any recorded op on its thread (a library's or "
                     "Triton's own launch)%s", plain, d->graph_launch_n + d->no_launch_n > 0 ? ";" : "");
    if (d->graph_launch_n > 0)
        fprintf(out, " %" PRId64 " replayed from a CUDA graph (launched by a graph launch call)%s", d->graph_launch_n,
                d->no_launch_n > 0 ? ";" : "");
    if (d->no_launch_n > 0)
        fprintf(out, " %" PRId64 " with no launch call in the trace (launched before profiling began, or the CPU side "
                     "was not recorded or lost its runtime events)", d->no_launch_n);
    if (d->inferred_n > 0)
        fprintf(out, "; %" PRId64 " of them take the figures of the launches of the same kernel name, grid and block "
                     "that have an op (Source inferred)", d->inferred_n);
    if (has_graph_replays(an, d))
        fputs("; graph-replayed kernels get their ops from the capture's trace with --graph-capture PATH", out);
    fputc('\n', out);
}

void pf_aview_coverage_json(pf_jw *w, const pf_device_report *d)
{
    pf_jw_key(w, "coverage");
    pf_jw_obj_begin(w);
    pf_jw_key(w, "bytes_pct");
    pf_jw_num(w, time_pct(d, d->bytes_known_ns));
    pf_jw_key(w, "bytes_generic_pct");
    pf_jw_num(w, time_pct(d, d->bytes_generic_ns));
    pf_jw_key(w, "bytes_lower_bound_pct");
    pf_jw_num(w, time_pct(d, d->triton_lb_ns));
    pf_jw_key(w, "bytes_unknown_pct");
    pf_jw_num(w, time_pct(d, d->total.total_ns - d->bytes_known_ns - d->bytes_generic_ns));
    pf_jw_key(w, "flop_pct");
    pf_jw_num(w, time_pct(d, d->flop_known_ns));
    pf_jw_key(w, "no_shapes_pct");
    pf_jw_num(w, time_pct(d, d->no_shapes_ns));
    pf_jw_key(w, "lists_unrecorded_pct");
    pf_jw_num(w, time_pct(d, d->lists_unrecorded_ns));
    pf_jw_key(w, "graph_replay_pct");
    pf_jw_num(w, time_pct(d, d->graph_replay_ns));
    pf_jw_key(w, "compiled_region_pct");
    pf_jw_num(w, time_pct(d, d->compiled_region_ns));
    pf_jw_key(w, "no_launching_op");
    pf_jw_obj_begin(w);
    pf_jw_key(w, "count");
    pf_jw_num(w, (double)d->unlinked_n);
    pf_jw_key(w, "total_us");
    pf_jw_num(w, d->unlinked_ns / 1e3);
    pf_jw_key(w, "no_launch_call");
    pf_jw_num(w, (double)d->no_launch_n);
    pf_jw_key(w, "inferred");
    pf_jw_num(w, (double)d->inferred_n);
    pf_jw_key(w, "inferred_us");
    pf_jw_num(w, d->inferred_ns / 1e3);
    pf_jw_key(w, "graph_launch");
    pf_jw_num(w, (double)d->graph_launch_n);
    pf_jw_obj_end(w);
    const int64_t *n = d->n_kind;
    pf_jw_key(w, "linked_by_external_id");
    pf_jw_obj_begin(w);
    pf_jw_key(w, "count");
    pf_jw_num(w, (double)(n[0] + n[1] + n[2] - d->unlinked_n - d->nested_n - d->captured_n));
    pf_jw_key(w, "total_us");
    pf_jw_num(w, by_external_id_ns(d) / 1e3);
    pf_jw_obj_end(w);
    pf_jw_key(w, "linked_by_nesting");
    pf_jw_obj_begin(w);
    pf_jw_key(w, "count");
    pf_jw_num(w, (double)d->nested_n);
    pf_jw_key(w, "total_us");
    pf_jw_num(w, d->nested_ns / 1e3);
    pf_jw_obj_end(w);
    pf_jw_key(w, "graph_capture");
    pf_jw_obj_begin(w);
    pf_jw_key(w, "count");
    pf_jw_num(w, (double)d->captured_n);
    pf_jw_key(w, "total_us");
    pf_jw_num(w, d->captured_ns / 1e3);
    pf_jw_obj_end(w);
    pf_jw_key(w, "missing");
    pf_jw_arr_begin(w);
    for (size_t i = 0; i < d->n_missing && i < MISSING_SHOWN; i++) {
        pf_jw_obj_begin(w);
        pf_jw_key(w, "op");
        pf_jw_str(w, d->missing[i].key);
        pf_jw_key(w, "total_us");
        pf_jw_num(w, d->missing[i].total_ns / 1e3);
        pf_jw_obj_end(w);
    }
    pf_jw_arr_end(w);
    pf_jw_obj_end(w);
}
