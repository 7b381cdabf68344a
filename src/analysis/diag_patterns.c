/* diag_patterns.c - findings from the GPU work itself: eager attention, fp32 matrix work without TF32, pageable host-device copies, and the heaviest row's distance from its roof (docs/analysis.md, "Findings"). */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "profana/rates.h"

/* A pattern below this share of the device's GPU time is not worth a finding. */
#define MIN_SHARE 0.05
/* The smallest sequence length that makes an [.., S, S] score matrix attention's. */
#define MIN_SEQ 256
/* Both shares of peak below this: a kernel far below both roofs. */
#define FAR_BELOW_PCT 20.0

static const pf_op_call *call_of(const pf_analysis *an, size_t i)
{
    int32_t op = an->trace->acts[i].op;
    return op >= 0 && an->trace->ops[op].call.nargs > 0 ? &an->trace->ops[op].call : NULL;
}

static int is_softmax(const char *name)
{
    return !strcmp(name, "aten::_softmax") || !strcmp(name, "aten::softmax") || !strcmp(name, "aten::_safe_softmax") ||
           !strcmp(name, "aten::_softmax_backward_data");
}

static int is_matmul(const char *name)
{
    return !strcmp(name, "aten::bmm") || !strcmp(name, "aten::matmul") || !strcmp(name, "aten::baddbmm") ||
           !strcmp(name, "aten::mm");
}

/* S when the argument's last two dims are [S, S] with S >= MIN_SEQ; else 0. */
static int64_t square_tail(const pf_arg *a)
{
    if (a->is_list || a->ndim < 2)
        return 0;
    int64_t s = a->dims[a->ndim - 1];
    return s >= MIN_SEQ && a->dims[a->ndim - 2] == s ? s : 0;
}

static int has_seq(const int64_t *seq, int n, int64_t s)
{
    for (int i = 0; i < n; i++)
        if (seq[i] == s)
            return 1;
    return 0;
}

/* Whether the call touches an [.., S, S] score matrix: an argument of that shape, or a
 * matmul [.., S, D] x [.., D, S] that makes one. */
static int touches_scores(const pf_op_call *c, const int64_t *seq, int n_seq)
{
    for (int k = 0; k < c->nargs; k++)
        if (has_seq(seq, n_seq, square_tail(&c->args[k])))
            return 1;
    if (!is_matmul(c->name) || c->nargs < 2)
        return 0;
    const pf_arg *a = &c->args[c->nargs >= 3 && !strcmp(c->name, "aten::baddbmm") ? 1 : 0], *b = a + 1;
    return a->ndim >= 2 && b->ndim >= 2 && !a->is_list && !b->is_list && has_seq(seq, n_seq, a->dims[a->ndim - 2]) &&
           a->dims[a->ndim - 2] == b->dims[b->ndim - 1];
}

static void dims_text(char *buf, size_t cap, const pf_arg *a)
{
    size_t n = (size_t)snprintf(buf, cap, "[");
    for (int k = 0; k < a->ndim && n < cap; k++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%lld", k ? "," : "", (long long)a->dims[k]);
    if (n < cap)
        snprintf(buf + n, cap - n, "]");
}

/* softmax over [.., S, S] with the matmuls and elementwise ops around its score matrix. */
static int eager_attention(const pf_analysis *an, const pf_device_report *d, int64_t span, pf_diag_list *l)
{
    int n_seq = 0;
    int64_t seq[8];
    const pf_op_call *example = NULL;
    const pf_trace *t = an->trace;
    for (size_t k = 0; k < d->n_acts; k++) {
        size_t i = d->acts[k];
        const pf_op_call *c = call_of(an, i);
        int64_t s = c && is_softmax(c->name) && c->nargs ? square_tail(&c->args[0]) : 0;
        if (s && !has_seq(seq, n_seq, s) && n_seq < 8)
            seq[n_seq++] = s;
        if (s && !example)
            example = c;
    }
    if (!n_seq)
        return 0;
    int64_t ns = 0, mm_ns = 0, n = 0;
    double ideal_s = 0;
    for (size_t k = 0; k < d->n_acts; k++) {
        size_t i = d->acts[k];
        const pf_op_call *c = call_of(an, i);
        if (!c || !touches_scores(c, seq, n_seq))
            continue;
        ns += t->acts[i].dur_ns;
        n++;
        if (is_matmul(c->name)) {
            mm_ns += t->acts[i].dur_ns;
            double at = pf_at_peak_s(an->work[i].flop, pf_peak_flops(d->info, an->work[i].dtype));
            ideal_s += at > 0 ? at : 0;
        }
    }
    if ((double)ns < MIN_SHARE * (double)d->total.total_ns)
        return 0;
    pf_finding *f = pf_diag_add(l, "eager_attention");
    if (!f)
        return -1;
    /* a fused kernel does the matmuls' FLOPs and never writes the score matrix: what is left
     * of the pattern's time is at most its matmuls at the peak */
    f->time_us = ((double)ns - ideal_s * 1e9) / 1e3;
    if (f->time_us < 0)
        f->time_us = 0;
    f->pct = pf_diag_pct(f->time_us, span);
    char shape[96];
    dims_text(shape, sizeof shape, &example->args[0]);
    snprintf(f->evidence, sizeof f->evidence,
             "eager attention: %s over %s (S=%lld) with the matmuls around its score matrix: %lld launches, "
             "%.3f us (%.2f%% of GPU time; matmuls %.3f us)",
             example->name, shape, (long long)seq[0], (long long)n, (double)ns / 1e3,
             100.0 * (double)ns / (double)d->total.total_ns, (double)mm_ns / 1e3);
    snprintf(f->advice, sizeof f->advice,
             "use torch.nn.functional.scaled_dot_product_attention (flash or memory-efficient attention "
             "never writes the [S, S] scores to memory)");
    return 0;
}

/* Matrix work measured at the FP32 peak (TF32 off) on a device whose TF32 peak is higher. */
static int fp32_matrix(const pf_analysis *an, const pf_device_report *d, int64_t span, pf_diag_list *l)
{
    double p32 = pf_peak_flops(d->info, PF_DT_FP32), ptf = pf_peak_flops(d->info, PF_DT_TF32);
    if (p32 <= 0 || ptf <= p32)
        return 0;
    /* no matrix work on the device: nothing to find, without a pass over every activity
     * (one a device was quadratic in the devices) */
    if (pf_report_cat(d, PF_CAT_GEMM)->count == 0 && pf_report_cat(d, PF_CAT_CONV)->count == 0)
        return 0;
    int64_t ns = 0, n = 0;
    double flop = 0;
    const char *example = NULL;
    const pf_trace *t = an->trace;
    for (size_t k = 0; k < d->n_acts; k++) {
        size_t i = d->acts[k];
        if (an->cats[i] != PF_CAT_GEMM && an->cats[i] != PF_CAT_CONV)
            continue;
        const pf_act_work *w = &an->work[i];
        if (w->dtype != PF_DT_FP32 || w->flop <= 0)
            continue;
        ns += t->acts[i].dur_ns;
        flop += w->flop;
        n++;
        if (!example && t->acts[i].op >= 0)
            example = t->ops[t->acts[i].op].name;
    }
    /* faster than the FP32 peak: TF32 is on after all (the trace does not record the flag) */
    if ((double)ns < MIN_SHARE * (double)d->total.total_ns || flop / ((double)ns / 1e9) > 1.05 * p32)
        return 0;
    pf_finding *f = pf_diag_add(l, "fp32_matmul");
    if (!f)
        return -1;
    f->time_us = (double)ns / 1e3 * (1.0 - p32 / ptf);
    f->pct = pf_diag_pct(f->time_us, span);
    snprintf(f->evidence, sizeof f->evidence,
             "fp32 matrix work without TF32: %lld launches (%s ...), %.3f us (%.2f%% of GPU time) at %.1f TFLOP/s, "
             "%.1f%% of the FP32 peak; the TF32 peak is %.1fx higher (estimate: the same work at the TF32/FP32 "
             "peak ratio)",
             (long long)n, example ? example : "-", (double)ns / 1e3, 100.0 * (double)ns / (double)d->total.total_ns,
             flop / ((double)ns / 1e9) / 1e12, 100.0 * flop / ((double)ns / 1e9) / p32, ptf / p32);
    snprintf(f->advice, sizeof f->advice,
             "torch.backends.cuda.matmul.allow_tf32 = True or torch.set_float32_matmul_precision(\"high\") "
             "(convolutions: torch.backends.cudnn.allow_tf32), or bf16 autocast");
    return 0;
}

static int pageable_copies(const pf_analysis *an, const pf_device_report *d, int64_t span, pf_diag_list *l)
{
    if (pf_report_cat(d, PF_CAT_MEMCPY)->count == 0) /* no copy on the device (a copy is PF_CAT_MEMCPY) */
        return 0;
    int64_t ns = 0, n = 0, bytes = 0;
    const pf_trace *t = an->trace;
    for (size_t k = 0; k < d->n_acts; k++) {
        size_t i = d->acts[k];
        const pf_activity *a = &t->acts[i];
        if (a->kind != PF_ACT_MEMCPY || !strstr(a->name, "Pageable"))
            continue;
        ns += a->dur_ns;
        bytes += a->bytes > 0 ? a->bytes : 0;
        n++;
    }
    if (!n)
        return 0;
    pf_finding *f = pf_diag_add(l, "pageable_copy");
    if (!f)
        return -1;
    f->time_us = (double)ns / 1e3; /* a ceiling: overlapped with compute, the copies cost nothing */
    f->pct = pf_diag_pct(f->time_us, span);
    snprintf(f->evidence, sizeof f->evidence,
             "%lld copies from or to pageable host memory (Memcpy ... Pageable): %.3f us, %.1f MB at %.1f GB/s; "
             "such a copy blocks the host and cannot overlap compute (estimate: all of their time)",
             (long long)n, (double)ns / 1e3, (double)bytes / 1e6, ns > 0 ? (double)bytes / (double)ns : 0);
    snprintf(f->advice, sizeof f->advice,
             "pin the host tensors (DataLoader(pin_memory=True) or tensor.pin_memory()) and copy with "
             ".to(device, non_blocking=True)");
    return 0;
}

static const char *headroom_advice(pf_category c, int far_below)
{
    if (far_below)
        return "far below both roofs: look at how the kernel reaches memory (atomics on few addresses, "
               "uncoalesced or scattered access, too few blocks for the device); --explain shows its figures";
    switch (c) {
    case PF_CAT_GEMM:
    case PF_CAT_CONV:
    case PF_CAT_ATTENTION:
    case PF_CAT_TRITON_TEMPLATE:
        return "compute-side headroom: shapes that tile well (multiples of 64-128), larger batches, "
               "lower precision (bf16/fp8); --group shape says which shapes to tune first";
    default:
        return "memory-bound: fuse it with its neighbours (torch.compile) so its tensors are read once";
    }
}

/* The heaviest row and how far it runs from the roof its figures set. */
static int headroom(const pf_device_report *d, int64_t span, pf_diag_list *l)
{
    if (!d->n_rows)
        return 0;
    const pf_row *r = &d->rows[0];
    double fp = pf_row_flops_pct(r, d->info), bp = pf_row_bw_pct(r, d->info);
    int far = fp >= 0 && bp >= 0 && fp < FAR_BELOW_PCT && bp < FAR_BELOW_PCT &&
              (double)r->total_ns >= MIN_SHARE * (double)d->total.total_ns;
    pf_category cat = PF_CAT_OTHER;
    for (int c = 0; c < PF_CAT_COUNT; c++)
        if (r->cat_ns[c] > r->cat_ns[cat])
            cat = (pf_category)c;
    int comm = cat == PF_CAT_COMMUNICATION; /* its roof is the link and the other ranks, not DRAM */
    far = far && !comm;
    pf_finding *f = pf_diag_add(l, far ? "far_below_roofs" : "headroom");
    if (!f)
        return -1;
    int known = !comm && (fp >= 0 || bp >= 0);
    double roof_s = (fp >= 0 ? r->flop_peak_s : 0) > (bp >= 0 ? r->byte_peak_s : 0) ? r->flop_peak_s
                                                                                    : (bp >= 0 ? r->byte_peak_s : 0);
    if (known) {
        f->time_us = ((double)r->total_ns - roof_s * 1e9) / 1e3;
        f->time_us = f->time_us < 0 ? 0 : f->time_us;
        f->pct = pf_diag_pct(f->time_us, span);
    }
    char fps[16] = "-", bps[16] = "-", nm[80];
    if (fp >= 0)
        snprintf(fps, sizeof fps, "%.1f%%", fp);
    if (bp >= 0)
        snprintf(bps, sizeof bps, "%.1f%%", bp);
    snprintf(f->evidence, sizeof f->evidence,
             "heaviest row %s: %.3f us (%.2f%% of GPU time), %s of the FLOP peak, %s of DRAM bandwidth%s",
             pf_diag_name(nm, sizeof nm, r->key), (double)r->total_ns / 1e3, 100.0 * (double)r->total_ns / (double)d->total.total_ns, fps, bps,
             comm    ? "; a collective, bound by the link and by the other ranks, not by DRAM"
             : known ? " (estimate: its time less its time at the roof)"
                     : "; its figures are unknown");
    snprintf(f->advice, sizeof f->advice, "%s",
             comm    ? "--ranks over every rank's trace tells its transfer from its waiting"
             : known ? headroom_advice(cat, far)
                     : "--group op shows what is known");
    return 0;
}

int pf_diag_patterns(const pf_analysis *an, const pf_device_report *d, int64_t span_ns, pf_diag_list *l)
{
    assert(an != NULL && d != NULL && l != NULL);
    if (d->total.total_ns <= 0)
        return 0;
    return eager_attention(an, d, span_ns, l) || fp32_matrix(an, d, span_ns, l) ||
                   pageable_copies(an, d, span_ns, l) || headroom(d, span_ns, l)
               ? -1
               : 0;
}
