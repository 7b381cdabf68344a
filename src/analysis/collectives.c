/* collectives.c - one rank's collectives grouped by kind, process group, group size and message size, with nccl-tests' algbw and busbw and the share of the device's link. */
#include "profana/collectives.h"
#include "profana/analysis.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "profana/satmath.h"

static int by_kind(const void *x, const void *y)
{
    const pf_comm_rec *a = *(const pf_comm_rec *const *)x, *b = *(const pf_comm_rec *const *)y;
    int c = strcmp(a->name, b->name);
    if (!c)
        c = strcmp(a->pg, b->pg);
    if (!c)
        c = (a->group_size > b->group_size) - (a->group_size < b->group_size);
    if (!c)
        c = (a->bytes > b->bytes) - (a->bytes < b->bytes);
    return c;
}

static int by_time(const void *x, const void *y)
{
    const pf_coll_kind *a = x, *b = y;
    if (a->total_ns != b->total_ns)
        return (a->total_ns < b->total_ns) - (a->total_ns > b->total_ns);
    return strcmp(a->name, b->name);
}

/* nccl-tests' rule (doc/PERFORMANCE.md): algbw = size / time, busbw = algbw x factor; over
 * the row's count kernels of one size, size x count / their summed time. */
static void rates(pf_coll_kind *k, const pf_device_info *info, const char **source)
{
    k->algbw_gbps = k->busbw_gbps = k->link_gbps = k->link_pct = k->transfer_busbw_gbps = -1;
    if (pf_devices_link_for(info, k->group_size, &k->link_gbps, source))
        k->link_gbps = -1;
    if (k->bytes < 0 || k->total_ns <= 0)
        return;
    k->algbw_gbps = (double)k->count * (double)k->bytes / (double)k->total_ns; /* bytes/ns = GB/s */
    double f = pf_coll_bus_factor(k->name, k->group_size);
    if (f < 0)
        return;
    k->busbw_gbps = k->algbw_gbps * f;
    if (k->transfer_ns > 0)
        k->transfer_busbw_gbps = (double)k->count * (double)k->bytes / (double)k->transfer_ns * f;
    if (k->link_gbps > 0)
        k->link_pct = 100 * k->busbw_gbps / k->link_gbps;
}

/* Groups the collectives of one rank's summary (pf_rank_summarize) into *out (free with
 * pf_coll_table_free); info is the device entry whose link the rates are measured against
 * (NULL: none). Returns 0, or -1 when memory runs out. */
static int coll_table_make(const pf_rank_summary *s, const pf_device_info *info, pf_coll_table *out)
{
    assert(s && out);
    *out = (pf_coll_table){0};
    const pf_comm_rec **recs = malloc((s->n_comms ? s->n_comms : 1) * sizeof *recs);
    out->kinds = calloc(s->n_comms ? s->n_comms : 1, sizeof *out->kinds);
    if (!recs || !out->kinds) {
        free(recs);
        pf_coll_table_free(out);
        return -1;
    }
    size_t m = 0;
    out->kernels = (int64_t)s->n_comms;
    for (size_t i = 0; i < s->n_comms; i++) {
        const pf_comm_rec *c = &s->comms[i];
        if (!c->name[0]) { /* no collective args: launched before the window, or not recorded */
            out->no_args++;
            out->no_args_ns = pf_sat_add(out->no_args_ns, c->dur_ns);
            continue;
        }
        recs[m++] = c;
    }
    qsort(recs, m, sizeof *recs, by_kind);
    for (size_t i = 0, j; i < m; i = j) {
        pf_coll_kind *k = &out->kinds[out->n_kinds++];
        memcpy(k->name, recs[i]->name, sizeof k->name);
        memcpy(k->pg, recs[i]->pg, sizeof k->pg);
        k->group_size = recs[i]->group_size;
        k->bytes = recs[i]->bytes;
        k->min_ns = recs[i]->dur_ns;
        for (j = i; j < m && by_kind(&recs[i], &recs[j]) == 0; j++) {
            k->count++;
            k->total_ns = pf_sat_add(k->total_ns, recs[j]->dur_ns);
            k->min_ns = recs[j]->dur_ns < k->min_ns ? recs[j]->dur_ns : k->min_ns;
        }
        /* one rank cannot tell the transfer from the wait for later ranks (--ranks can):
         * the fastest instance of the same kind and size waited least */
        k->transfer_ns = k->min_ns <= INT64_MAX / k->count ? k->min_ns * k->count : INT64_MAX;
        out->total_ns = pf_sat_add(out->total_ns, k->total_ns);
        out->transfer_ns = pf_sat_add(out->transfer_ns, k->transfer_ns);
        rates(k, info, &out->link_source);
    }
    free(recs);
    qsort(out->kinds, out->n_kinds, sizeof *out->kinds, by_time);
    return 0;
}

void pf_coll_table_free(pf_coll_table *t)
{
    if (!t)
        return;
    free(t->kinds);
    *t = (pf_coll_table){0};
}

/* The entry every device with activity matched, or NULL when they differ or none did. */
static const pf_device_info *common_info(const pf_analysis *a)
{
    const pf_device_info *info = a->n_devices ? a->devices[0].info : NULL;
    for (int i = 1; i < a->n_devices; i++)
        if (a->devices[i].info != info)
            return NULL;
    return info;
}

int pf_analysis_collectives(pf_analysis *a, const char *path, pf_error *err)
{
    assert(a && path);
    int any = 0;
    for (int i = 0; i < a->n_devices; i++)
        any |= pf_report_cat(&a->devices[i], PF_CAT_COMMUNICATION)->count > 0;
    if (!any)
        return 0;
    if (strcmp(path, "-") == 0) { /* read once: the args are gone */
        a->colls_unknown = "the trace was read from standard input, and the collectives' args are read from the "
                           "file a second time: pass the file's path";
        return 0;
    }
    pf_rank_summary s;
    if (pf_rank_summarize(a->trace, path, 0, &s, err))
        return -1;
    a->colls = malloc(sizeof *a->colls);
    int rc = a->colls ? coll_table_make(&s, common_info(a), a->colls) : -1;
    pf_rank_summary_clear(&s);
    if (rc) {
        free(a->colls);
        a->colls = NULL;
        return pf_fail(err, "%s: out of memory", path);
    }
    return 0;
}
