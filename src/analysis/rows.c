/* rows.c - a device report's rows: each activity added to its group, the Total and its category, with its rates at the device's peaks; what a row tells (its category, sources, mean). */
#include "pipeline.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/rates.h"
#include "profana/satmath.h"

/* Adds src to r's Source list (the lists' nodes in tree): 0, or -1 when memory runs out. */
static int row_add_source(pf_source_tree *tree, pf_row *r, const char *src)
{
    if (!src || !tree)
        return 0;
    for (const pf_source_node *n = r->sources; n; n = n->up) /* mostly the same literal: pointers first */
        if (n->source == src)
            return 0;
    for (const pf_source_node *n = r->sources; n; n = n->up) /* then texts: the Total row holds several */
        if (strcmp(n->source, src) == 0)
            return 0;
    if (r->n_sources == PF_ROW_MAX_SOURCES) {
        r->sources_more = 1;
        return 0;
    }
    pf_source_node **head = r->sources ? &r->sources->child : &tree->roots, *c = *head;
    while (c && c->source != src)
        c = c->sibling;
    if (!c) { /* a list no row of the report had yet */
        if (!(c = malloc(sizeof *c)))
            return -1;
        *c = (pf_source_node){.up = r->sources, .source = src, .sibling = *head, .next = tree->nodes};
        *head = tree->nodes = c;
    }
    r->sources = c;
    r->n_sources++;
    return 0;
}

/* analysis.h */
void pf_source_tree_free(pf_source_tree *t)
{
    assert(t);
    for (pf_source_node *n = t->nodes, *next; n; n = next) {
        next = n->next;
        free(n);
    }
    *t = (pf_source_tree){0};
}

/* analysis.h */
int pf_row_sources(const pf_row *r, const char **out)
{
    assert(r && out && r->n_sources <= PF_ROW_MAX_SOURCES);
    int k = r->n_sources;
    for (const pf_source_node *n = r->sources; n && k > 0; n = n->up)
        out[--k] = n->source;
    return r->n_sources;
}

/* analysis.h */
void pf_row_init(pf_row *r, const char *key)
{
    assert(r && key);
    memset(r, 0, sizeof *r);
    r->key = key;
    r->op = -1;
    r->min_ns = INT64_MAX;
    r->peak_ok = 1;
    r->ach_ok = 1;
}

/* An activity's seconds at its device's peaks (pf_at_peak_s; < 0: no peak for it), worked
 * out once for the rows it goes to (its group, the Total, its category). */
typedef struct act_peaks {
    double flop_peak_s, flop_ach_s, byte_peak_s, byte_ach_s;
} act_peaks;

static act_peaks peaks_of(const pf_act_work *w, const pf_device_info *info)
{
    act_peaks p = {-1, -1, -1, -1};
    /* a dtype the device has no peak for (bf16 on a V100): no percentage, even of 0 FLOPs */
    if (w->flop >= 0 && !(info && pf_peak_flops(info, w->dtype) <= 0)) {
        p.flop_peak_s = pf_at_peak_s(w->flop, pf_peak_flops(info, w->dtype));
        p.flop_ach_s = pf_at_peak_s(w->flop, pf_achievable_flops(info, w->dtype));
    }
    if (w->bytes >= 0) {
        p.byte_peak_s = pf_at_peak_s(w->bytes, pf_peak_bytes(info));
        p.byte_ach_s = pf_at_peak_s(w->bytes, pf_achievable_bytes(info));
    }
    return p;
}

/* Returns 0, or -1 when memory runs out (for the Source list, in tree; NULL: none kept). */
static int row_add(pf_source_tree *tree, pf_row *r, const pf_activity *a, const pf_act_work *w, const act_peaks *pk,
                   pf_category cat)
{
    r->count++;
    r->cat_ns[cat] = pf_sat_add(r->cat_ns[cat], a->dur_ns);
    r->total_ns = pf_sat_add(r->total_ns, a->dur_ns);
    if (a->dur_ns < r->min_ns)
        r->min_ns = a->dur_ns;
    if (a->dur_ns > r->max_ns)
        r->max_ns = a->dur_ns;
    if (w->flop >= 0) {
        r->flop += w->flop;
        r->flop_known++;
        r->flop_known_ns = pf_sat_add(r->flop_known_ns, a->dur_ns);
        if (pk->flop_peak_s >= 0)
            r->flop_peak_s += pk->flop_peak_s;
        else
            r->peak_ok = 0; /* work without a peak for its dtype */
        if (pk->flop_ach_s >= 0)
            r->flop_ach_s += pk->flop_ach_s;
        else
            r->ach_ok = 0;
    }
    /* The Total and category rows are the figures profana stands behind: a generic guess's
     * bytes stay in its own row (source "generic") and out of theirs. */
    if (w->bytes >= 0 && !(r->is_total && w->generic)) {
        r->bytes += w->bytes;
        r->bytes_known++;
        r->bytes_known_ns = pf_sat_add(r->bytes_known_ns, a->dur_ns);
        if (w->flop >= 0) {
            r->both_flop += w->flop;
            r->both_bytes += w->bytes;
            r->both_ns = pf_sat_add(r->both_ns, a->dur_ns);
        }
        if (pk->byte_peak_s >= 0) /* without a bandwidth the row shows no BW % (pf_row_bw_pct) */
            r->byte_peak_s += pk->byte_peak_s;
        if (pk->byte_ach_s >= 0)
            r->byte_ach_s += pk->byte_ach_s;
    }
    r->upper_bound_n += w->upper_bound != 0;
    r->flop_elsewhere_n += (w->elsewhere & PF_ELSEWHERE_FLOP) != 0;
    r->generic_n += w->generic != 0;
    return row_add_source(tree, r, w->source);
}

/* analysis.h */
void pf_row_add_activity(pf_row *r, const pf_activity *a, const pf_act_work *w, const pf_device_info *info,
                         pf_category cat)
{
    assert(r && a && w);
    act_peaks pk = peaks_of(w, info);
    (void)row_add(NULL, r, a, w, &pk, cat); /* no Source list: nothing allocated, nothing fails */
}

/* Ops without a formula, by op name, so users see what to add. */
static int add_missing(dev_acc *d, const char *op, const pf_activity *a, const pf_act_work *w)
{
    int added;
    int64_t idx = pf_ptrmap_find_or_add(&d->missing_map, op, d->rep->n_missing, &added);
    if (idx < 0)
        return -1;
    if (added) {
        pf_row *m = realloc(d->rep->missing, (d->rep->n_missing + 1) * sizeof *m);
        if (!m)
            return -1;
        d->rep->missing = m;
        pf_row_init(&m[d->rep->n_missing++], op);
    }
    act_peaks none = peaks_of(w, NULL);
    return row_add(&d->rep->sources, &d->rep->missing[idx], a, w, &none, PF_CAT_OTHER);
}

/* Why an activity may lack figures: its op has no recorded shapes, or it has no launching
 * op (and then whether even its launch call is missing from the trace, or was a graph
 * launch); and whether its op was found by nesting. */
static void count_why(dev_acc *d, const pf_activity *a, const pf_act_work *w)
{
    pf_device_report *r = d->rep;
    if (a->captured) {
        r->captured_n++;
        r->captured_ns = pf_sat_add(r->captured_ns, a->dur_ns);
    }
    if (w->graph_replay)
        r->graph_replay_ns = pf_sat_add(r->graph_replay_ns, a->dur_ns);
    if (w->compiled_region)
        r->compiled_region_ns = pf_sat_add(r->compiled_region_ns, a->dur_ns);
    if (a->op < 0) {
        r->unlinked_n++;
        r->unlinked_ns = pf_sat_add(r->unlinked_ns, a->dur_ns);
        if (w->inferred) {
            r->inferred_n++;
            r->inferred_ns = pf_sat_add(r->inferred_ns, a->dur_ns);
        }
        if (a->launch_ts_ns == PF_NO_LAUNCH) {
            r->no_launch_n++;
            r->no_launch_ns = pf_sat_add(r->no_launch_ns, a->dur_ns);
        } else if (a->graph) {
            r->graph_launch_n++;
        }
        return;
    }
    if (a->nested) {
        r->nested_n++;
        r->nested_ns = pf_sat_add(r->nested_ns, a->dur_ns);
    }
    if (w->lower_bound)
        r->triton_lb_ns = pf_sat_add(r->triton_lb_ns, a->dur_ns);
    if (w->lists_unrecorded)
        r->lists_unrecorded_ns = pf_sat_add(r->lists_unrecorded_ns, a->dur_ns);
    if (w->no_shapes)
        r->no_shapes_ns = pf_sat_add(r->no_shapes_ns, a->dur_ns);
    else if (a->kind == PF_ACT_KERNEL)
        r->shapes_ns = pf_sat_add(r->shapes_ns, a->dur_ns);
}

/* A new row of key, launched by op, at the end of d's rows. Returns 0, or -1 when memory
 * runs out. */
static int new_row(dev_acc *d, const char *key, int32_t op)
{
    assert(d->rep->n_rows <= d->cap_rows);
    if (d->rep->n_rows == d->cap_rows) {
        size_t cap = d->cap_rows ? d->cap_rows * 2 : 1; /* one: a trace may have 65,536 devices of a kernel each */
        pf_row *rows = realloc(d->rep->rows, cap * sizeof *rows);
        if (!rows)
            return -1;
        d->rep->rows = rows;
        d->cap_rows = cap;
    }
    pf_row_init(&d->rep->rows[d->rep->n_rows], key);
    d->rep->rows[d->rep->n_rows++].op = op;
    return 0;
}

/* The device's time with known bytes (apart: a generic guess's) and known FLOPs. */
static void count_known(pf_device_report *r, const pf_activity *a, const pf_act_work *w)
{
    if (w->bytes >= 0 && w->generic)
        r->bytes_generic_ns = pf_sat_add(r->bytes_generic_ns, a->dur_ns);
    else if (w->bytes >= 0)
        r->bytes_known_ns = pf_sat_add(r->bytes_known_ns, a->dur_ns);
    if (w->flop >= 0)
        r->flop_known_ns = pf_sat_add(r->flop_known_ns, a->dur_ns);
}

/* Counts kernel name in category cat's distinct names (cat_kernels) when it is new there: 0,
 * or -1 when memory runs out. */
static int count_name(dev_acc *d, const char *name, pf_category cat)
{
    int added;
    int64_t k = pf_ptrmap_find_or_add(&d->names, name, d->names.n, &added);
    if (k < 0)
        return -1;
    if (added && (d->names.n & (d->names.n - 1)) == 0) { /* n a power of two: the masks double */
        uint16_t *m = realloc(d->name_cats, 2 * d->names.n * sizeof *m);
        if (!m)
            return -1;
        d->name_cats = m;
    }
    if (added)
        d->name_cats[k] = 0;
    uint16_t bit = (uint16_t)(1u << cat);
    d->rep->cat_kernels[cat] += !(d->name_cats[k] & bit);
    d->name_cats[k] |= bit;
    return 0;
}

/* pipeline.h */
int pf_an_add_to_group(const pf_analysis *an, const char *const *shape_keys, dev_acc *d, size_t i, int32_t *row)
{
    assert(i < an->trace->n_acts && d->rep && row);
    const pf_activity *a = &an->trace->acts[i];
    const pf_act_work *w = &an->work[i];
    pf_category cat = (pf_category)an->cats[i];
    const char *key = pf_an_group_key(an, shape_keys, a);
    int added;
    int64_t idx = key ? pf_ptrmap_find_or_add(&d->map, key, d->rep->n_rows, &added) : -1;
    if (idx < 0 || idx > INT32_MAX || (added && new_row(d, key, a->op)))
        return -1;
    *row = (int32_t)idx;
    act_peaks pk = peaks_of(w, d->rep->info);
    if (row_add(&d->rep->sources, &d->rep->rows[idx], a, w, &pk, cat) ||
        row_add(&d->rep->sources, &d->rep->total, a, w, &pk, cat))
        return -1;
    if (!d->rep->cats[cat]) { /* a category's row made when its first activity comes */
        if (!(d->rep->cats[cat] = malloc(sizeof *d->rep->cats[cat])))
            return -1;
        pf_row_init(d->rep->cats[cat], pf_category_name(cat));
        d->rep->cats[cat]->is_total = 1;
    }
    if (row_add(&d->rep->sources, d->rep->cats[cat], a, w, &pk, cat))
        return -1;
    count_known(d->rep, a, w);
    count_why(d, a, w);
    if (w->no_formula && add_missing(d, an->trace->ops[a->op].name, a, w))
        return -1;
    return count_name(d, a->name, cat);
}

/* pipeline.h */
int pf_an_row_cmp(const void *x, const void *y)
{
    const pf_row *a = x, *b = y;
    if (a->total_ns != b->total_ns)
        return a->total_ns < b->total_ns ? 1 : -1;
    return strcmp(a->key, b->key);
}

pf_category pf_row_category(const pf_row *r)
{
    int best = PF_CAT_OTHER;
    for (int c = 0; c < PF_CAT_COUNT; c++)
        if (r->cat_ns[c] > r->cat_ns[best] || (r->cat_ns[best] == 0 && r->cat_ns[c] > 0))
            best = c;
    return (pf_category)best;
}

/* analysis.h */
const pf_row *pf_report_cat(const pf_device_report *d, int c)
{
    static const pf_row none; /* count 0, times 0: what a category without activities reads as */
    assert(d && c >= 0 && c < PF_CAT_COUNT);
    return d->cats[c] ? d->cats[c] : &none;
}

/* analysis.h */
const char *pf_row_source(const pf_row *r, char *buf, size_t n)
{
    assert(r && buf && n > 0);
    size_t len = 0;
    buf[0] = 0;
    const char *src[PF_ROW_MAX_SOURCES];
    for (int i = 0, k = pf_row_sources(r, src); i < k; i++)
        pf_an_append(buf, n, &len, i ? "+%s" : "%s", src[i]);
    if (r->sources_more)
        pf_an_append(buf, n, &len, "+more");
    if (!r->n_sources)
        snprintf(buf, n, "-");
    return buf;
}

double pf_row_mean_ns(const pf_row *r)
{
    return r->invocations ? (double)r->total_ns / (double)r->invocations : 0;
}
