/* devices_view.c - how --list-devices prints the device table: names matched, dense peaks per dtype, bandwidth and sources. */
#include <stdio.h>

#include "profana/devices.h"
#include "profana/view.h"

enum { D_KEY, D_NAMES, D_SMS, D_FP64, D_FP32, D_TF32, D_BF16, D_FP16, D_FP8, D_INT8, D_GBPS, D_MEM, D_MHZ, D_PEAK_MHZ, D_SOURCE, D_NCOLS };

static const pf_col cols[D_NCOLS] = {
    [D_KEY] = {"Device", "key", 0, 0, NULL},
    [D_NAMES] = {"Reported names", "names", 0, 0, NULL},
    [D_SMS] = {"SMs/CUs", "num_sms", 1, 0, NULL},
    [D_FP64] = {"FP64", "fp64", 1, 0, NULL},
    [D_FP32] = {"FP32", "fp32", 1, 0, NULL},
    [D_TF32] = {"TF32", "tf32", 1, 0, NULL},
    [D_BF16] = {"BF16", "bf16", 1, 0, NULL},
    [D_FP16] = {"FP16", "fp16", 1, 0, NULL},
    [D_FP8] = {"FP8", "fp8", 1, 0, NULL},
    [D_INT8] = {"INT8", "int8", 1, 0, NULL},
    [D_GBPS] = {"GB/s", "peak_gbps", 1, 0, NULL},
    [D_MEM] = {"GB", "mem_gb", 1, 0, NULL},
    [D_MHZ] = {"Boost MHz", "boost_mhz", 1, 0, NULL},
    [D_PEAK_MHZ] = {"Peak MHz", "peak_mhz", 1, 0, NULL},
    [D_SOURCE] = {"Source", "source", 0, PF_IN_CSV | PF_IN_JSON, NULL},
};

static void fill(pf_table *t, int r, const pf_device_info *d)
{
    char names[512];
    size_t len = 0;
    names[0] = 0;
    if (d->match)
        snprintf(names, sizeof names, "any name containing '%s' (device file)", d->match);
    for (int k = 0; !d->match && k < 6 && d->aliases[k] && len < sizeof names; k++)
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", k ? "; " : "", d->aliases[k]);
    pf_table_str(t, r, D_KEY, d->key);
    pf_table_str(t, r, D_NAMES, names);
    if (d->num_sms > 0)
        pf_table_int(t, r, D_SMS, d->num_sms);
    for (int k = 0; k < PF_DT_COUNT; k++)
        if (d->peak_tflops[k] > 0)
            pf_table_num(t, r, D_FP64 + k, d->peak_tflops[k], 1);
    pf_table_num(t, r, D_GBPS, d->peak_gbps, 0);
    if (d->mem_gb > 0)
        pf_table_num(t, r, D_MEM, d->mem_gb, 0);
    if (d->boost_mhz > 0)
        pf_table_num(t, r, D_MHZ, d->boost_mhz, 0);
    if (d->tensor_mhz > 0) /* the clock --clock scales the peaks from */
        pf_table_num(t, r, D_PEAK_MHZ, d->tensor_mhz, 0);
    pf_table_str(t, r, D_SOURCE, d->source);
}

int pf_view_devices(FILE *out, pf_format format, const pf_devset *set)
{
    int n;
    const pf_device_info *tab = set ? set->entries : pf_devices_table(&n);
    if (set)
        n = set->n;
    pf_table *t = pf_table_new(cols, D_NCOLS);
    for (int i = 0; t && i < n; i++)
        fill(t, pf_table_add_row(t), &tab[i]);
    if (!t || pf_table_status(t)) {
        pf_table_free(t);
        return -1;
    }
    if (format == PF_FMT_JSON) {
        pf_jw w;
        pf_jw_init(&w, out);
        pf_table_json_rows(&w, t);
        fputc('\n', out);
    } else if (format == PF_FMT_CSV) {
        pf_table_print_csv(out, t, 1);
    } else if (format == PF_FMT_MD) {
        pf_table_print_md(out, t, 0);
    } else {
        fputs("Dense datasheet peaks in TFLOP/s (TOP/s for INT8), DRAM bandwidth in GB/s; '-' = no such path.\n"
              "Peak MHz: the clock the peaks assume (--clock MHZ scales them by MHZ / Peak MHz).\n"
              "Sources: --format csv or json, and README.md.\n\n", out);
        pf_table_print_text(out, t, 0);
    }
    pf_table_free(t);
    return 0;
}
