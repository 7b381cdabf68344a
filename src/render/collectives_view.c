/* collectives_view.c - one rank's collectives in --analysis: per kind, group and message size their count, time, algbw, busbw and share of the link, as a text or Markdown table and a JSON member. */
#include <assert.h>
#include <stdio.h>

#include "profana/collectives.h"
#include "view_parts.h"

enum {
    L_NAME, L_PG, L_N, L_BYTES, L_COUNT, L_TOTAL, L_MEAN, L_ALGBW, L_BUSBW, L_LINK_GBPS, L_LINK, L_TRANSFER, L_WAITING,
    L_TRANSFER_BUSBW, L_NCOLS
};

static const pf_col coll_cols[L_NCOLS] = {
    [L_NAME] = {"Collective", "name", 0, 0, NULL},
    [L_PG] = {"Group", "process_group", 0, 0, NULL},
    [L_N] = {"Ranks", "group_size", 1, 0, NULL},
    [L_BYTES] = {"Bytes", "bytes", 1, 0, NULL},
    [L_COUNT] = {"Count", "count", 1, 0, NULL},
    [L_TOTAL] = {"Total (us)", "total_us", 1, 0, NULL},
    [L_MEAN] = {"Mean (us)", "mean_us", 1, 0, NULL},
    [L_ALGBW] = {"algbw (GB/s)", "algbw_gbps", 1, 0, NULL},
    [L_BUSBW] = {"busbw (GB/s)", "busbw_gbps", 1, 0, NULL},
    [L_LINK_GBPS] = {"Link (GB/s)", "link_gbps", 1, PF_IN_JSON, NULL},
    [L_LINK] = {"Link %", "link_pct", 1, 0, NULL},
    [L_TRANSFER] = {"Transfer est. (us)", "transfer_est_us", 1, 0, NULL},
    [L_WAITING] = {"Waiting %", "waiting_pct", 1, 0, NULL},
    [L_TRANSFER_BUSBW] = {"busbw at est. (GB/s)", "transfer_busbw_gbps", 1, 0, NULL},
};

static pf_table *coll_table(const pf_coll_table *c)
{
    pf_table *t = pf_table_new(coll_cols, L_NCOLS);
    for (size_t i = 0; t && i < c->n_kinds; i++) {
        const pf_coll_kind *k = &c->kinds[i];
        int r = pf_table_add_row(t);
        pf_table_str(t, r, L_NAME, k->name);
        pf_table_str(t, r, L_PG, k->pg[0] ? k->pg : NULL);
        if (k->group_size > 0)
            pf_table_int(t, r, L_N, k->group_size);
        if (k->bytes >= 0)
            pf_table_int(t, r, L_BYTES, k->bytes);
        pf_table_int(t, r, L_COUNT, k->count);
        pf_table_num(t, r, L_TOTAL, (double)k->total_ns / 1e3, 3);
        pf_table_num(t, r, L_MEAN, (double)k->total_ns / 1e3 / (double)k->count, 3);
        if (k->algbw_gbps >= 0)
            pf_table_num(t, r, L_ALGBW, k->algbw_gbps, 2);
        if (k->busbw_gbps >= 0)
            pf_table_num(t, r, L_BUSBW, k->busbw_gbps, 2);
        if (k->link_gbps > 0)
            pf_table_num(t, r, L_LINK_GBPS, k->link_gbps, 1);
        if (k->link_pct >= 0) {
            pf_table_num(t, r, L_LINK, k->link_pct, 1);
            if (k->link_pct > 100)
                pf_table_mark(t, r, L_LINK, "!");
        }
        pf_table_num(t, r, L_TRANSFER, (double)k->transfer_ns / 1e3, 3);
        if (k->total_ns > 0)
            pf_table_num(t, r, L_WAITING, 100.0 * (double)(k->total_ns - k->transfer_ns) / (double)k->total_ns, 1);
        if (k->transfer_busbw_gbps >= 0)
            pf_table_num(t, r, L_TRANSFER_BUSBW, k->transfer_busbw_gbps, 2);
    }
    if (t && pf_table_status(t)) {
        pf_table_free(t);
        return NULL;
    }
    return t;
}

int pf_aview_collectives_intro(FILE *out, const pf_analysis *an)
{
    assert(out && an);
    if (an->colls_unknown) {
        fprintf(out, "\nCollectives: unknown: %s\n", an->colls_unknown);
        return 0;
    }
    const pf_coll_table *c = an->colls;
    if (!c)
        return 0;
    fprintf(out, "\nCollectives of this rank: %lld communication kernels", (long long)c->kernels);
    if (c->no_args)
        fprintf(out, ", %lld of them (%.3f us) without collective args (launched before the profiler's window, or "
                     "recorded without them): in no row",
                (long long)c->no_args, (double)c->no_args_ns / 1e3);
    fputs(". Time is this rank's kernel time, waiting for the other ranks included (--ranks takes it out): algbw "
          "and busbw (nccl-tests' factors) are lower bounds of the transfer's. Transfer est. is each row's fastest "
          "instance times its count (the instance that waited least), Waiting % the rest\n", out);
    return c->n_kinds > 0;
}

pf_table *pf_aview_collectives_table(const pf_analysis *an)
{
    assert(an && an->colls && an->colls->n_kinds > 0);
    return coll_table(an->colls);
}

void pf_aview_collectives_link(FILE *out, const pf_analysis *an)
{
    assert(out && an && an->colls);
    if (an->colls->link_source)
        fprintf(out, "Link: %s\n", an->colls->link_source);
    else
        fputs("Link: unknown (the device table has no link figure for this device): Link % is '-'\n", out);
}

int pf_aview_collectives_text(FILE *out, FILE *raw, const pf_view_opts *v, const pf_analysis *an)
{
    assert(out && raw && v && an);
    if (!pf_aview_collectives_intro(out, an))
        return 0;
    pf_table *t = pf_aview_collectives_table(an);
    if (!t)
        return -1;
    fputc('\n', out);
    fflush(out);
    int picked[1];
    pf_text_fit fit = pf_view_fit(v, t, NULL, 0, picked, 1);
    pf_view_print_fit(raw, v, t, &fit);
    pf_table_free(t);
    pf_aview_collectives_link(out, an);
    return 0;
}

int pf_aview_collectives_json(pf_jw *w, const pf_analysis *an)
{
    assert(w && an);
    pf_jw_key(w, "collectives");
    const pf_coll_table *c = an->colls;
    if (!c) {
        pf_jw_null(w);
        pf_jw_key(w, "collectives_unknown");
        pf_jw_str(w, an->colls_unknown);
        return 0;
    }
    pf_table *t = coll_table(c);
    if (!t)
        return -1;
    pf_jw_obj_begin(w);
    pf_jw_key(w, "kernels");
    pf_jw_int(w, c->kernels);
    pf_jw_key(w, "no_args");
    pf_jw_int(w, c->no_args);
    pf_jw_key(w, "no_args_us");
    pf_jw_num(w, (double)c->no_args_ns / 1e3);
    pf_jw_key(w, "link_source");
    pf_jw_str(w, c->link_source);
    pf_jw_key(w, "rows");
    pf_table_json_rows(w, t);
    pf_jw_obj_end(w);
    pf_table_free(t);
    return 0;
}
