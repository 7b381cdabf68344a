/* devices_view.c - how --list-devices prints the device table: names matched, dense peaks per dtype, bandwidth and sources. */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "profana/devices.h"
#include "profana/dtype.h"
#include "profana/view.h"

enum {
    D_KEY, D_NAMES, D_SMS, D_FP64, D_FP32, D_TF32, D_BF16, D_FP16, D_FP8, D_INT8, D_FP6, D_FP4, D_GBPS, D_MEM, D_MHZ,
    D_PEAK_MHZ, D_SOURCE, D_DERIVED, D_NOTE, D_ACH_GBPS, D_NCOLS
};

_Static_assert(D_FP4 - D_FP64 == PF_DT_FP4 && D_INT8 - D_FP64 == PF_DT_INT8, "peak columns in dtype order");

/* A figure derived rather than printed by the vendor (pf_device_info.derived) */
#define DERIVED_MARK "*"

static const pf_col cols[D_NCOLS] = {
    [D_KEY] = {"Device", "key", 0, 0, NULL},
    [D_NAMES] = {"Reported names", "names", 0, 0, NULL},
    [D_SMS] = {"SMs/CUs", "num_sms", 1, 0, NULL},
    /* D_FP64 to D_FP4: a peak per dtype, titled and keyed by src/catalog/dtype.c (peak_cols) */
    [D_GBPS] = {"GB/s", "peak_gbps", 1, 0, NULL},
    [D_MEM] = {"GB", "mem_gb", 1, 0, NULL},
    [D_MHZ] = {"Boost MHz", "boost_mhz", 1, 0, NULL},
    [D_PEAK_MHZ] = {"Peak MHz", "peak_mhz", 1, 0, NULL},
    [D_SOURCE] = {"Source", "source", 0, PF_IN_CSV | PF_IN_JSON, NULL},
    [D_DERIVED] = {"Derived", "derived", 0, PF_IN_CSV | PF_IN_JSON, NULL},
    [D_NOTE] = {"Note", "note", 0, PF_IN_CSV | PF_IN_JSON, NULL},
    [D_ACH_GBPS] = {"Achievable GB/s", "achievable_gbps", 1, PF_IN_CSV | PF_IN_JSON, NULL},
};

/* The names of the derived figures of d ("fp4 fp6 gbps"), into buf. */
static const char *derived_names(const pf_device_info *d, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = 0;
    for (int k = 0; k < PF_DT_COUNT && len < cap; k++)
        if (d->derived & PF_DEV_DERIVED(k))
            len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? " " : "", pf_dtype_name((pf_dtype)k));
    if ((d->derived & PF_DEV_DERIVED_BW) && len < cap)
        snprintf(buf + len, cap - len, "%sgbps", len ? " " : "");
    return buf;
}

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
    for (int k = 0; k < PF_DT_COUNT; k++) {
        if (!(d->peak_tflops[k] > 0))
            continue;
        pf_table_num(t, r, D_FP64 + k, d->peak_tflops[k], 1);
        if (d->derived & PF_DEV_DERIVED(k))
            pf_table_mark(t, r, D_FP64 + k, DERIVED_MARK);
    }
    pf_table_num(t, r, D_GBPS, d->peak_gbps, 0);
    if (d->derived & PF_DEV_DERIVED_BW)
        pf_table_mark(t, r, D_GBPS, DERIVED_MARK);
    if (d->derived) {
        char derived[96];
        pf_table_str(t, r, D_DERIVED, derived_names(d, derived, sizeof derived));
    }
    if (d->note)
        pf_table_str(t, r, D_NOTE, d->note);
    if (d->achievable_gbps > 0)
        pf_table_num(t, r, D_ACH_GBPS, d->achievable_gbps, 0);
    if (d->mem_gb > 0)
        pf_table_num(t, r, D_MEM, d->mem_gb, 0);
    if (d->boost_mhz > 0)
        pf_table_num(t, r, D_MHZ, d->boost_mhz, 0);
    if (d->tensor_mhz > 0) /* the clock --clock scales the peaks from */
        pf_table_num(t, r, D_PEAK_MHZ, d->tensor_mhz, 0);
    pf_table_str(t, r, D_SOURCE, d->source);
}

/* Under the text table: what the derived mark means, and each row's caveat. */
static void footnotes(FILE *out, const pf_device_info *tab, int n)
{
    int any_derived = 0;
    for (int i = 0; i < n; i++)
        any_derived |= tab[i].derived != 0;
    if (any_derived)
        fputs("\n" DERIVED_MARK " derived (units x rate x clock, or a figure the vendor prints only with sparsity, / 2), "
              "not printed by the vendor; the Source column (--format csv or json) says how.\n", out);
    for (int i = 0; i < n; i++)
        if (tab[i].note)
            fprintf(out, "%s%s\n", any_derived ? "" : "\n", tab[i].note), any_derived = 1;
}

/* The columns a width keeps, most wanted first: the common training dtypes' peaks and the
 * bandwidth, then the rest; the names last (the Device column says which entry). Peak MHz goes
 * with the peaks it is the clock of only as a pair with Boost MHz. */
static const int dev_wanted[] = {D_BF16, D_FP16, D_FP32, D_GBPS, D_FP8, D_TF32, D_FP64, D_INT8, D_MEM,
                                 D_PEAK_MHZ, D_MHZ, D_SMS, D_FP4, D_FP6, D_NAMES};
static const int dev_ties[] = {D_PEAK_MHZ, D_MHZ};

int pf_view_devices(FILE *out, pf_format format, int width, const pf_devset *set)
{
    assert(out && width >= 0);
    int n;
    const pf_device_info *tab = set ? set->entries : pf_devices_table(&n);
    if (set)
        n = set->n;
    pf_col c[D_NCOLS];
    memcpy(c, cols, sizeof c);
    for (int k = PF_DT_FP64; k <= PF_DT_FP4; k++)
        c[D_FP64 + k] = (pf_col){pf_dtype_label((pf_dtype)k), pf_dtype_name((pf_dtype)k), 1, 0, NULL};
    pf_table *t = pf_table_new(c, D_NCOLS);
    for (int i = 0; t && i < n; i++)
        fill(t, pf_table_add_row(t), &tab[i]);
    if (!t || pf_table_status(t)) {
        pf_table_free(t);
        return -1;
    }
    if (format == PF_FMT_JSON) {
        pf_jw w;
        pf_jw_init(&w, out);
        pf_jw_doc_begin(&w);
        pf_jw_key(&w, "devices");
        pf_table_json_rows(&w, t);
        pf_jw_obj_end(&w);
        fputc('\n', out);
    } else if (format == PF_FMT_CSV) {
        pf_table_print_csv(out, t, 1);
    } else if (format == PF_FMT_MD) {
        pf_table_print_md(out, t, 0);
    } else {
        pf_text_fit fit = {.width = width, .cols = width > 0 ? dev_wanted : NULL,
                           .ncols = (int)(sizeof dev_wanted / sizeof dev_wanted[0]), .ties = dev_ties, .nties = 1};
        FILE *w = pf_wrap_open(out, width);
        fputs("Dense datasheet peaks in TFLOP/s (TOP/s for INT8), DRAM bandwidth in GB/s; '-' = no such path.\n"
              "Peak MHz: the clock the peaks assume (--clock MHZ scales them by MHZ / Peak MHz).\n"
              "Sources: --format csv or json, and docs/devices.md.\n", w);
        if (width > 0)
            fputs("Columns that do not fit the width are left out: --wide shows them all.\n", w);
        fputc('\n', w);
        pf_table_print_text_fit(w, t, &fit);
        footnotes(w, tab, n);
        pf_wrap_close(w, out);
    }
    pf_table_free(t);
    return 0;
}
