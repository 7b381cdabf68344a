/* analysis_notes.c - the footnotes under an --analysis device table: what each cell marker means (!, ?, cache, ~ub, op), the legend of the Source values shown and their markers (~dtype, memset~0, ~lb, ~ub), and what the Total's bytes cover; only for the columns the table showed. Also the notes on the trace itself (the loader's, the step windows) under the first headline. The ~lb footnote serves --diff too. */
#include <assert.h>
#include <string.h>

#include "view_parts.h"

/* Footnotes for the source markers in the rows shown: figures that are a ceiling (~ub), a
 * floor (~lb), and bytes that rest on the command line's DTYPE (~dtype). */
static int has_source_note(const pf_device_report *d, size_t shown, const char *marker)
{
    int dtype = 0;
    for (size_t i = 0; i <= shown; i++) {
        const pf_row *r = i < shown ? &d->rows[i] : &d->total;
        const char *src[PF_ROW_MAX_SOURCES];
        for (int k = 0, n = pf_row_sources(r, src); k < n; k++)
            dtype |= strstr(src[k], marker) != NULL;
    }
    return dtype;
}

/* The Source markers that carry a footnote, in the order the footnotes print. */
static const struct {
    const char *marker, *note;
} source_notes[] = {
    {"~dtype", "~dtype: bytes of a tensor list (cat, stack, _foreach_*, fused optimizers) at the element size of "
               "DTYPE: the trace records no element type for it\n"},
    {"memset~0", "memset~0: a memset whose size the trace does not record (ROCm records none): counted as 0 bytes, "
                 "so its row's bytes are a floor\n"},
    {"~lb", "~lb: a lower bound: an Inductor Triton launch read from the trace alone, its kernel module not found "
            "(record with TORCHINDUCTOR_BENCHMARK_KERNEL=1, or pass --inductor-cache DIR); every tensor argument "
            "counted once, in-place ones too\n"},
};

int pf_view_row_lower_bound(const pf_row *r)
{
    assert(r);
    const char *src[PF_ROW_MAX_SOURCES];
    for (int k = 0, n = pf_row_sources(r, src); k < n; k++)
        if (strstr(src[k], "~lb"))
            return 1;
    return 0;
}

int pf_view_diff_lower_bound(const pf_diff_device *d)
{
    assert(d);
    for (size_t i = 0; i < d->n_rows; i++)
        if ((d->rows[i].a && pf_view_row_lower_bound(d->rows[i].a)) ||
            (d->rows[i].b && pf_view_row_lower_bound(d->rows[i].b)))
            return 1;
    return 0;
}

void pf_view_lower_bound_note(FILE *out)
{
    assert(out);
    fputs(source_notes[2].note, out);
}

/* The Total row's bytes: formula bytes only (the rule of pf_row_has_bytes for the Total). */
static void print_total_note(FILE *out, const pf_device_report *d)
{
    fprintf(out, "Total: GB, GB/s and BW %% count formula bytes only, known for %.2f%% of GPU time "
                 "(generic guesses and unknown bytes left out), over all of it\n",
            pf_aview_time_pct(d, d->bytes_known_ns));
}

/* The Source column's footnotes: every value it shows, then its markers' notes. */
static void print_source_notes(FILE *out, const pf_device_report *d, const pf_table *t, size_t shown, int col)
{
    pf_view_source_legend(out, t, col);
    if (d->total.upper_bound_n > 0)
        fputs("~ub: an upper bound: variable-length or paged attention sized by its longest sequences (max_q, "
              "max_k), flex attention counted dense (its block mask's sparsity is not in the trace), or a "
              "fused MoE reading every expert its tokens could pick; "
              "its FLOPs, bytes, rates and percentages are ceilings\n", out);
    for (size_t i = 0; i < sizeof source_notes / sizeof source_notes[0]; i++)
        if (has_source_note(d, shown, source_notes[i].marker))
            fputs(source_notes[i].note, out);
    if (d->bytes_known_ns < d->total.total_ns)
        print_total_note(out, d);
}

void pf_aview_footnotes(FILE *out, const pf_device_report *d, const pf_table *t, int over, size_t shown,
                        int source_col, int bw_shown)
{
    assert(out && d && t && shown <= d->n_rows);
    if (over & PF_AVIEW_CACHE)
        fprintf(out, CACHE_MARK ": the bytes moved faster than DRAM's peak and a call's bytes fit the %.0f MiB "
                     "cache: part of them came from the cache, so the share of DRAM bandwidth is unknown\n",
                d->info->cache_mb);
    if (over & PF_AVIEW_GUESS_UB)
        fputs(GUESS_UB_MARK ": a generic guess (every input read and every output written whole) would put the row "
              "above the device's peak: the op moves less than that, so its figures are an upper bound and its "
              "percentage unknown\n", out);
    if (over & PF_AVIEW_ELSEWHERE)
        fputs(ELSEWHERE_MARK ": the kernel does none of its op's arithmetic: the op's FLOPs are on its gemm, conv "
              "and attention kernels (How work is attributed), so none are counted here\n", out);
    if (over & PF_AVIEW_PARTIAL)
        fputs(PARTIAL_MARK ": the rate of the row's launches that have figures, over their own time; its other launches "
              "lack them (launched before the profiled ops, or by an op without figures); --group op counts each op "
              "whole\n", out);
    if (over & PF_AVIEW_OVER)
        fputs(OVER_PEAK_MARK " above 100% of the device's peak: a formula or a peak is wrong (check --device, "
              "--tf32), or a small kernel's data sat in L2 cache\n", out);
    if (over & PF_AVIEW_SUSPECT)
        fputs(SUSPECT_MARK " above 90% of the device's peak: possible, but check the peak (--device, --tf32), the "
              "clock the GPU ran at (the datasheet peak assumes its boost clock), and whether the data sat in L2 "
              "cache\n", out);
    if (source_col >= 0)
        print_source_notes(out, d, t, shown, source_col);
    else if (d->bytes_known_ns < d->total.total_ns && bw_shown)
        print_total_note(out, d);
}

/* Whether the Steps line has anything to say (pf_steps_print_line). */
static int has_steps_line(const pf_analysis *an)
{
    return an->n_steps || an->trace->n_steps;
}

/* What the reader should know about the trace itself (the loader's notes, the step windows),
 * grouped after the first headline: the headline comes first, these qualify it. */
void pf_aview_trace_notes(FILE *out, const pf_aview *a, const pf_analysis *an)
{
    assert(out && a && an);
    int n = a->v->trace_notes ? an->trace->n_notes : 0;
    if (!n && !has_steps_line(an))
        return;
    fputs("Notes on the trace:\n", out);
    for (int k = 0; k < n; k++)
        fprintf(out, "- %s\n", an->trace->notes[k]);
    if (has_steps_line(an)) {
        fputs("- ", out);
        pf_steps_print_line(out, an);
    }
    fputc('\n', out);
}
