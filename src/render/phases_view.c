/* phases_view.c - each device's serving phases in --analysis: the GPU time of prefill, decode, mixed batches and the rest, as a text line and a JSON member. */
#include <assert.h>
#include <stdio.h>

#include "view_parts.h"

/* The device's GPU time per phase (the --step selection's, before --phase), or NULL. */
static const int64_t *device_phase_ns(const pf_analysis *an, const pf_device_report *d)
{
    if (!an->phase_ns)
        return NULL;
    return an->phase_ns[d->device - an->trace->devices];
}

/* Whether any of the device's GPU time has a phase: else the trace is no serving trace. */
static int any_phase(const int64_t *ns)
{
    return ns && (ns[PF_PHASE_PREFILL] > 0 || ns[PF_PHASE_DECODE] > 0 || ns[PF_PHASE_MIXED] > 0);
}

static double share(const int64_t *ns, int p)
{
    int64_t all = 0;
    for (int k = 0; k < PF_PHASE_COUNT; k++)
        all += ns[k];
    return all > 0 ? 100.0 * (double)ns[p] / (double)all : 0;
}

void pf_aview_phases(FILE *out, const pf_analysis *an, const pf_device_report *d)
{
    assert(out && an && d);
    const int64_t *ns = device_phase_ns(an, d);
    if (!any_phase(ns))
        return;
    fputs("Phases: ", out);
    for (int p = PF_PHASE_PREFILL; p < PF_PHASE_COUNT; p++)
        fprintf(out, "%s %.2f%% of GPU time (%.3f us), ", pf_phase_name(p), share(ns, p), (double)ns[p] / 1e3);
    fprintf(out, "no phase %.2f%% (%.3f us); from %lld vLLM/SGLang step annotations, else attention calls' query "
                 "length (1: decode)",
            share(ns, PF_PHASE_NONE), (double)ns[PF_PHASE_NONE] / 1e3, (long long)an->phase_annotations);
    if (an->phase_spread) /* bits: 1 module calls, 2 launch order (src/analysis/pipeline.h) */
        fprintf(out, ", spread to the forward they sit in (%s)",
                an->phase_spread == 3   ? "nn.Module calls, then launch order"
                : an->phase_spread == 1 ? "nn.Module calls"
                                        : "launch order, split at the widest launch gap");
    if (an->opts.phase != PF_PHASE_NONE)
        fprintf(out, "; --phase %s: the figures below are that phase's", pf_phase_name(an->opts.phase));
    fputc('\n', out);
}

int pf_aview_phases_brief(char *s, size_t n, const pf_analysis *an, const pf_device_report *d)
{
    assert(s && n > 0 && an && d);
    const int64_t *ns = device_phase_ns(an, d);
    if (!any_phase(ns) || share(ns, PF_PHASE_NONE) > 50.0) /* mostly no phase: not the headline's matter */
        return 0;
    /* each phase, then none: "phases of GPU time: prefill P%, decode D%, mixed M%, none N% (--phase)" */
    size_t used = (size_t)snprintf(s, n, "phases of GPU time:");
    for (int k = 1; k <= PF_PHASE_COUNT && used < n; k++) {
        int p = k % PF_PHASE_COUNT;
        used += (size_t)snprintf(s + used, n - used, "%s %s %.2f%%", k > 1 ? "," : "", pf_phase_name(p), share(ns, p));
    }
    if (used < n)
        snprintf(s + used, n - used, " (--phase)");
    return 1;
}

void pf_aview_phases_json(pf_jw *w, const pf_analysis *an, const pf_device_report *d)
{
    assert(w && an && d);
    const int64_t *ns = device_phase_ns(an, d);
    pf_jw_key(w, "phases");
    if (!any_phase(ns)) {
        pf_jw_null(w);
        return;
    }
    pf_jw_obj_begin(w);
    for (int p = 0; p < PF_PHASE_COUNT; p++) {
        char key[32];
        snprintf(key, sizeof key, "%s_us", pf_phase_name(p));
        pf_jw_key(w, key);
        pf_jw_num(w, (double)ns[p] / 1e3);
        snprintf(key, sizeof key, "%s_pct", pf_phase_name(p));
        pf_jw_key(w, key);
        pf_jw_num(w, share(ns, p));
    }
    pf_jw_key(w, "annotations");
    pf_jw_int(w, an->phase_annotations);
    pf_jw_key(w, "selected");
    pf_jw_str(w, pf_phase_choices[an->opts.phase]);
    pf_jw_obj_end(w);
}
