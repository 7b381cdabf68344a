/* device_header.c - the line that opens a device's --analysis output: its name, the table entry it matched, the peak of each dtype its work used, the clock; the line naming the dtypes its entry has no peak for; the same identity and peaks in JSON. */
#include <assert.h>
#include <stdio.h>

#include "profana/view.h"
#include "view_parts.h"

/* The dtypes whose peaks the device's work was measured against, as a mask. */
static unsigned dtypes_used(const pf_analysis *an, const pf_device_report *d)
{
    return 1u << an->opts.default_dtype | d->dtypes;
}

void pf_aview_header(FILE *out, const pf_analysis *an, const pf_device_report *d, const char *lead)
{
    const pf_device *dev = d->device;
    fprintf(out, "%sDevice %d: %s", lead, dev->id, dev->name[0] ? dev->name : "(no name in trace)");
    if (!d->info) {
        fputs(" | matched: unknown (no percent of peak: no datasheet to measure against)\n", out);
        return;
    }
    char how[160]; /* how the entry was found; cc 0 as the analysis matched (pf_devices_match) */
    pf_device_query q = {dev->name, dev->num_sms, dev->total_mem, 0};
    fprintf(out, " | matched: %s | peaks:", pf_devices_label(&q, d->info, how, sizeof how));
    unsigned mask = dtypes_used(an, d), lacking = 0;
    int clockless = d->info->clock_mhz > 0 && d->info->tensor_mhz <= 0; /* every compute peak unknown */
    for (int k = 0; k < PF_DT_COUNT; k++) {
        if (!(mask & (1u << k)))
            continue;
        double peak = pf_peak_flops(d->info, (pf_dtype)k);
        if (peak <= 0 && !clockless) { /* bf16 on a V100, fp8 before Hopper and MI300 */
            lacking |= 1u << k;
            fprintf(out, " %s -,", pf_dtype_name((pf_dtype)k));
        } else {
            fprintf(out, " %s %.1f TFLOP/s,", pf_dtype_name((pf_dtype)k), peak / 1e12);
        }
    }
    fprintf(out, " DRAM %.0f GB/s", d->info->peak_gbps);
    if (d->info->clock_mhz > 0 && d->info->tensor_mhz > 0)
        fprintf(out, " | clock %.0f MHz (peaks scaled from the datasheet's %.0f MHz)", d->info->clock_mhz,
                d->info->tensor_mhz);
    else if (clockless)
        fprintf(out, " | clock %.0f MHz (compute peaks unknown: the entry has no clock)", d->info->clock_mhz);
    fputc('\n', out);
    if (!lacking)
        return;
    /* one line, so that a '-' in FLOPS % is not read as a figure the trace lacks */
    fputs("No peak for", out);
    const char *sep = " ";
    for (int k = 0; k < PF_DT_COUNT; k++)
        if (lacking & (1u << k)) {
            fprintf(out, "%s%s", sep, pf_dtype_name((pf_dtype)k));
            sep = ", ";
        }
    fprintf(out, ": the device table gives %s none (no such units, or no published rate), so that work's "
                 "FLOPS %% is '-' (unknown), not 0; --device-file gives a peak to measure against\n",
            d->info->key);
}

static void json_peaks(pf_jw *w, const pf_device_info *info)
{
    pf_jw_key(w, "peak_tflops");
    if (!info) {
        pf_jw_null(w);
        return;
    }
    pf_jw_obj_begin(w);
    for (int k = 0; k < PF_DT_COUNT; k++) {
        pf_jw_key(w, pf_dtype_name((pf_dtype)k));
        if (pf_peak_flops(info, (pf_dtype)k) > 0)
            pf_jw_num(w, pf_peak_flops(info, (pf_dtype)k) / 1e12);
        else
            pf_jw_null(w);
    }
    pf_jw_obj_end(w);
}

void pf_aview_header_json(pf_jw *w, const pf_device_report *d)
{
    assert(w && d);
    pf_jw_key(w, "id");
    pf_jw_int(w, d->device->id);
    pf_jw_key(w, "name");
    pf_jw_str(w, d->device->name);
    pf_jw_key(w, "matched");
    pf_jw_str(w, d->info ? d->info->key : NULL);
    json_peaks(w, d->info);
    pf_jw_key(w, "peak_gbps");
    if (d->info)
        pf_jw_num(w, d->info->peak_gbps);
    else
        pf_jw_null(w);
    pf_jw_key(w, "activities");
    pf_jw_int(w, d->total.count);
}
