/* analysis.c - groups GPU activities per device (by kernel, op or op+shape) with totals, rates and peaks. */
#include "profana/analysis.h"
#include "profana/collectives.h"
#include "profana/mem.h"
#include "profana/parallel.h"
#include "profana/ptrmap.h"
#include "profana/rates.h"
#include "profana/satmath.h"
#include "profana/timings.h"
#include "profana/waits.h"
#include "tasks.h"

#include <assert.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dev_acc {
    pf_device_report *rep;             /* its report, in place in an->devices: never copied, as
                                          a report is 10 KB and a trace may have 65,536 devices */
    size_t cap_rows;
    pf_ptrmap map;
    pf_ptrmap cat_names[PF_CAT_COUNT]; /* distinct kernel names per category */
    pf_ptrmap missing_map;
    size_t *acts, n_acts;              /* its selected activities in file order (list_device_acts) */
} dev_acc;

/* ---- group keys ---- */

static int append(char *buf, size_t n, size_t *len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int append(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
    if (*len >= n)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *len, n - *len, fmt, ap);
    va_end(ap);
    if (w < 0 || (size_t)w >= n - *len) {
        *len = n;
        return -1;
    }
    *len += (size_t)w;
    return 0;
}

void pf_key_append_arg(char *buf, size_t n, size_t *len, const pf_arg *a, int with_dtype)
{
    if (a->is_list && a->list_numel < 0) {
        append(buf, n, len, "list[?]"); /* recorded [] without its shapes */
    } else if (a->is_list) {
        append(buf, n, len, "list[%lld]", (long long)a->list_numel);
    } else if (a->ndim > 0 || pf_type_size(a->type) > 0) {
        append(buf, n, len, "[");
        for (int d = 0; d < a->ndim; d++)
            append(buf, n, len, d ? ",%lld" : "%lld", (long long)a->dims[d]);
        append(buf, n, len, "]");
    } else {
        append(buf, n, len, "%s", a->concrete[0] ? a->concrete : "-");
        return;
    }
    if (!with_dtype)
        return;
    pf_dtype d = pf_dtype_from_type_string(a->type);
    append(buf, n, len, "%s", d != PF_DT_UNKNOWN ? pf_dtype_name(d) : a->type);
}

/* "aten::mm([2048,512]bf16, [512,512]bf16)": the op with the shapes and dtypes of its inputs. */
static const char *shape_key(pf_analysis *an, const pf_cpu_op *op)
{
    char buf[1024];
    size_t len = 0;
    append(buf, sizeof buf, &len, "%s(", op->name);
    for (int i = 0; i < op->call.nargs; i++) {
        if (i)
            append(buf, sizeof buf, &len, ", ");
        pf_key_append_arg(buf, sizeof buf, &len, &op->call.args[i], 1);
    }
    append(buf, sizeof buf, &len, ")");
    if (len >= sizeof buf)
        len = sizeof buf - 1;
    return pf_strtab_intern(an->keys, buf, len);
}

/* shape_keys: --group shape's key of each op (shape_keys_of), else NULL. */
static const char *group_key(const pf_analysis *an, const char *const *shape_keys, const pf_activity *a)
{
    if (an->opts.group == PF_GROUP_KERNEL || a->op < 0)
        return a->name;
    if (an->opts.group == PF_GROUP_OP)
        return an->trace->ops[a->op].name;
    return shape_keys[a->op];
}

/* --group shape: the key of every op that launched a selected activity of a device, by op
 * index, built (and interned in an->keys, which one thread at a time may use) here once per
 * op, before the devices are grouped on several threads. *out is NULL for other groups. */
static int shape_keys_of(pf_analysis *an, const dev_acc *accs, const char ***out)
{
    const pf_trace *t = an->trace;
    *out = NULL;
    if (an->opts.group != PF_GROUP_SHAPE)
        return 0;
    const char **keys = calloc(t->n_ops ? t->n_ops : 1, sizeof *keys);
    if (!keys)
        return -1;
    *out = keys;
    for (int d = 0; d < t->n_devices; d++)
        for (size_t k = 0; k < accs[d].n_acts; k++) {
            int32_t op = t->acts[accs[d].acts[k]].op;
            if (op >= 0 && !keys[op] && !(keys[op] = shape_key(an, &t->ops[op])))
                return -1;
        }
    return 0;
}

/* ---- accumulation ---- */

static void row_add_source(pf_row *r, const char *src)
{
    if (!src)
        return;
    for (int i = 0; i < r->n_sources; i++) /* sources are mostly the same literal: pointers first */
        if (r->sources[i] == src)
            return;
    for (int i = 0; i < r->n_sources; i++) /* then texts: the Total row holds several */
        if (strcmp(r->sources[i], src) == 0)
            return;
    if (r->n_sources < PF_ROW_MAX_SOURCES)
        r->sources[r->n_sources++] = src;
    else
        r->sources_more = 1;
}

static void row_init(pf_row *r, const char *key)
{
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
    if (w->flop >= 0) {
        p.flop_peak_s = pf_at_peak_s(w->flop, pf_peak_flops(info, w->dtype));
        p.flop_ach_s = pf_at_peak_s(w->flop, pf_achievable_flops(info, w->dtype));
    }
    if (w->bytes >= 0) {
        p.byte_peak_s = pf_at_peak_s(w->bytes, pf_peak_bytes(info));
        p.byte_ach_s = pf_at_peak_s(w->bytes, pf_achievable_bytes(info));
    }
    return p;
}

static void row_add(pf_row *r, const pf_activity *a, const pf_act_work *w, const act_peaks *pk, pf_category cat)
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
        if (pk->byte_peak_s >= 0) /* without a bandwidth the row shows no BW % (pf_row_bw_pct) */
            r->byte_peak_s += pk->byte_peak_s;
        if (pk->byte_ach_s >= 0)
            r->byte_ach_s += pk->byte_ach_s;
    }
    row_add_source(r, w->source);
    r->upper_bound_n += w->upper_bound != 0;
    r->flop_elsewhere_n += (w->elsewhere & PF_ELSEWHERE_FLOP) != 0;
    r->generic_n += w->generic != 0;
}

/* The ranges of the devices' setup passes: pf_work_threads' (threads is a resolved -j, at
 * most PF_THREADS_MAX), but each range keeps counters for every declared device (up to 37
 * bytes a device), so no more ranges than keep that within about 4 bytes an activity, what
 * the one-thread pass needs: a trace may declare 65,536 devices in deviceProperties and use
 * two. */
static size_t list_parts_for(const pf_trace *t, size_t threads)
{
    assert(threads <= PF_THREADS_MAX);
    size_t nd = t->n_devices > 0 ? (size_t)t->n_devices : 1, most = t->n_acts / (8 * nd);
    size_t parts = pf_work_threads(t, (int)threads);
    return most < 2 ? 1 : parts < most ? parts : most;
}

/* One range of activities' share of list_device_acts, per trace device: its selected
 * activities by kind, the dtypes of work of all its activities, and then where the range's
 * selected activities of the device go in its list. */
typedef struct list_part {
    int64_t (*n_kind)[3];
    unsigned *dtypes;
    size_t *at;
} list_part;

typedef struct list_job {
    const pf_analysis *an;
    dev_acc *accs;
    int32_t *dev;              /* per activity: its trace device's index; -1: none, or not selected */
    list_part *parts;
} list_job;

static void list_count_range(void *ctx, size_t lo, size_t hi, size_t r)
{
    list_job *j = ctx;
    const pf_trace *t = j->an->trace;
    list_part *part = &j->parts[r];
    for (size_t i = lo; i < hi; i++) {
        const pf_activity *a = &t->acts[i];
        const pf_device *p = pf_trace_device(t, a->device);
        j->dev[i] = -1;
        if (!p)
            continue;
        size_t d = (size_t)(p - t->devices);
        const pf_act_work *w = &j->an->work[i];
        if (w->flop > 0 && w->dtype >= 0 && w->dtype < PF_DT_COUNT)
            part->dtypes[d] |= 1u << w->dtype;
        if (!pf_analysis_selected(j->an, i))
            continue;
        part->n_kind[d][a->kind]++;
        j->dev[i] = (int32_t)d;
    }
}

static void list_fill_range(void *ctx, size_t lo, size_t hi, size_t r)
{
    list_job *j = ctx;
    size_t *at = j->parts[r].at;
    for (size_t i = lo; i < hi; i++)
        if (j->dev[i] >= 0)
            j->accs[j->dev[i]].acts[at[j->dev[i]]++] = i;
}

static void list_parts_free(list_part *parts, size_t n)
{
    for (size_t r = 0; parts && r < n; r++) {
        free(parts[r].n_kind);
        free(parts[r].dtypes);
        free(parts[r].at);
    }
    free(parts);
}

static list_part *list_parts_new(size_t n, size_t n_devices)
{
    list_part *parts = calloc(n, sizeof *parts);
    for (size_t r = 0; parts && r < n; r++) {
        parts[r].n_kind = calloc(n_devices, sizeof *parts[r].n_kind);
        parts[r].dtypes = calloc(n_devices, sizeof *parts[r].dtypes);
        parts[r].at = calloc(n_devices, sizeof *parts[r].at);
        if (!parts[r].n_kind || !parts[r].dtypes || !parts[r].at) {
            list_parts_free(parts, n);
            return NULL;
        }
    }
    return parts;
}

/* The parts' counts into each device's report and list length; each part's place in each
 * device's list (the parts in file order, so the lists are too). */
static void list_join(const pf_trace *t, dev_acc *accs, list_part *parts, size_t n_parts, size_t *all)
{
    size_t at = 0;
    for (int d = 0; d < t->n_devices; d++) {
        accs[d].acts = all + at;
        accs[d].n_acts = 0;
        for (size_t r = 0; r < n_parts; r++) {
            const int64_t *k = parts[r].n_kind[d];
            parts[r].at[d] = accs[d].n_acts;
            accs[d].n_acts += (size_t)(k[0] + k[1] + k[2]);
            if (!accs[d].rep)
                continue; /* no activity: nothing was counted */
            accs[d].rep->dtypes |= parts[r].dtypes[d];
            for (int c = 0; c < 3; c++)
                accs[d].rep->n_kind[c] += k[c];
        }
        at += accs[d].n_acts;
    }
}

/* Each device's selected activities (accs[d].acts, slices of *all, which the caller frees),
 * so that what is done per device costs its own activities, not all of them: a trace of
 * 65,536 devices would otherwise cost 65,536 passes over every activity. Also the device's
 * dtypes of work (any activity) and its selected activities by kind. On `threads` threads:
 * ranges of activities counted apart, then listed in place, in file order. */
static int list_device_acts(pf_analysis *an, dev_acc *accs, size_t threads, size_t **all)
{
    const pf_trace *t = an->trace;
    size_t n = t->n_acts ? t->n_acts : 1, n_parts = list_parts_for(t, threads);
    list_job j = {an, accs, malloc(n * sizeof *j.dev), list_parts_new(n_parts, t->n_devices ? (size_t)t->n_devices : 1)};
    *all = malloc(n * sizeof **all);
    if (!j.dev || !j.parts || !*all) {
        free(j.dev);
        list_parts_free(j.parts, n_parts);
        return -1;
    }
    pf_parallel_ranges(t->n_acts, n_parts, list_count_range, &j);
    list_join(t, accs, j.parts, n_parts, *all);
    pf_parallel_ranges(t->n_acts, n_parts, list_fill_range, &j);
    free(j.dev);
    list_parts_free(j.parts, n_parts);
    return 0;
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
        row_init(&m[d->rep->n_missing++], op);
    }
    act_peaks none = peaks_of(w, NULL);
    row_add(&d->rep->missing[idx], a, w, &none, PF_CAT_OTHER);
    return 0;
}

/* Why an activity may lack figures: its op has no recorded shapes, or it has no launching
 * op (and then whether even its launch call is missing from the trace). */
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
        }
        return;
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

/* Adds activity i to its group (whose index goes to *row), the Total and its category. */
static int add_to_group(const pf_analysis *an, const char *const *shape_keys, dev_acc *d, size_t i, int32_t *row)
{
    const pf_activity *a = &an->trace->acts[i];
    const pf_act_work *w = &an->work[i];
    pf_category cat = (pf_category)an->cats[i];
    const char *key = group_key(an, shape_keys, a);
    int added;
    int64_t idx = key ? pf_ptrmap_find_or_add(&d->map, key, d->rep->n_rows, &added) : -1;
    if (idx < 0 || idx > INT32_MAX)
        return -1;
    *row = (int32_t)idx;
    if (added) {
        if (d->rep->n_rows == d->cap_rows) {
            size_t cap = d->cap_rows ? d->cap_rows * 2 : 4; /* small: a trace may have 65,536 devices */
            pf_row *rows = realloc(d->rep->rows, cap * sizeof *rows);
            if (!rows)
                return -1;
            d->rep->rows = rows;
            d->cap_rows = cap;
        }
        row_init(&d->rep->rows[d->rep->n_rows], key);
        d->rep->rows[d->rep->n_rows++].op = a->op;
    }
    act_peaks pk = peaks_of(w, d->rep->info);
    row_add(&d->rep->rows[idx], a, w, &pk, cat);
    row_add(&d->rep->total, a, w, &pk, cat);
    row_add(&d->rep->cats[cat], a, w, &pk, cat);
    if (w->bytes >= 0 && w->generic)
        d->rep->bytes_generic_ns = pf_sat_add(d->rep->bytes_generic_ns, a->dur_ns);
    else if (w->bytes >= 0)
        d->rep->bytes_known_ns = pf_sat_add(d->rep->bytes_known_ns, a->dur_ns);
    if (w->flop >= 0)
        d->rep->flop_known_ns = pf_sat_add(d->rep->flop_known_ns, a->dur_ns);
    count_why(d, a, w);
    if (w->no_formula && add_missing(d, an->trace->ops[a->op].name, a, w))
        return -1;
    int added_kernel;
    if (pf_ptrmap_find_or_add(&d->cat_names[cat], a->name, 0, &added_kernel) < 0)
        return -1;
    d->rep->cat_kernels[cat] += added_kernel;
    return 0;
}

static int cmp_row(const void *x, const void *y)
{
    const pf_row *a = x, *b = y;
    if (a->total_ns != b->total_ns)
        return a->total_ns < b->total_ns ? 1 : -1;
    return strcmp(a->key, b->key);
}

/* Which devices ran something: a range of activities marks them in its own row of seen. */
typedef struct active_job {
    const pf_trace *t;
    unsigned char *seen;       /* [range][device] */
} active_job;

static void active_range(void *ctx, size_t lo, size_t hi, size_t r)
{
    const active_job *j = ctx;
    const pf_trace *t = j->t;
    unsigned char *seen = j->seen + r * (size_t)t->n_devices;
    for (size_t i = lo; i < hi; i++) {
        const pf_device *p = pf_trace_device(t, t->acts[i].device);
        if (p)
            seen[p - t->devices] = 1;
    }
}

/* active[d] = 1 for each device that ran an activity; returns how many did, or -1 when memory
 * runs out. */
static long active_devices(const pf_trace *t, size_t threads, unsigned char *active)
{
    size_t nd = (size_t)t->n_devices, n_parts = list_parts_for(t, threads);
    active_job j = {t, calloc(n_parts * (nd ? nd : 1), 1)};
    if (!j.seen)
        return -1;
    pf_parallel_ranges(t->n_acts, n_parts, active_range, &j);
    long n_active = 0;
    for (size_t d = 0; d < nd; d++) {
        for (size_t r = 0; r < n_parts && !active[d]; r++)
            active[d] = j.seen[r * nd + d];
        n_active += active[d];
    }
    free(j.seen);
    return n_active;
}

static int setup_devices(pf_analysis *an, size_t threads, dev_acc **out)
{
    const pf_trace *t = an->trace;
    size_t nd = (size_t)(t->n_devices ? t->n_devices : 1);
    dev_acc *accs = calloc(nd, sizeof *accs);
    unsigned char *active = calloc(nd, 1);
    /* A report (10 KB) only for a device that ran something: a trace may declare 70,000
     * devices in deviceProperties and use two; the others keep rep NULL and no task. */
    long n_active = accs && active ? active_devices(t, threads, active) : -1;
    if (n_active < 0) {
        free(accs);
        free(active);
        return -1;
    }
    an->devices = calloc(n_active ? (size_t)n_active : 1, sizeof *an->devices);
    if (!an->devices) {
        free(accs);
        free(active);
        return -1;
    }
    for (int i = 0, k = 0; i < t->n_devices; i++) {
        if (!active[i])
            continue;
        const pf_device *dev = &t->devices[i];
        pf_device_report *r = accs[i].rep = &an->devices[k++];
        r->device = dev;
        pf_device_query q = {dev->name, dev->num_sms, dev->total_mem, 0};
        r->info = an->opts.force_device ? an->opts.force_device : pf_devset_lookup(an->opts.devices, &q);
        row_init(&r->total, "Total");
        r->total.is_total = 1;
        for (int c = 0; c < PF_CAT_COUNT; c++) {
            row_init(&r->cats[c], pf_category_name((pf_category)c));
            r->cats[c].is_total = 1;
        }
    }
    free(active);
    *out = accs;
    return 0;
}

/* ---- invocations: --group op and shape count calls, not launches ---- */

static void row_add_invocation(pf_row *r, int64_t ns)
{
    r->invocations++;
    if (ns < r->min_ns)
        r->min_ns = ns;
    if (ns > r->max_ns)
        r->max_ns = ns;
}

static void restart_extremes(pf_row *r)
{
    r->invocations = 0;
    r->min_ns = INT64_MAX;
    r->max_ns = 0;
}

/* Per-thread scratch of count_device_invocations: per op, its summed time and row (0 and -1
 * between devices), and the ops one device touched. */
typedef struct op_scratch {
    int64_t *op_ns;
    int32_t *op_row, *touched;
} op_scratch;

static int op_scratch_init(op_scratch *s, size_t n_ops)
{
    size_t n = n_ops ? n_ops : 1;
    s->op_ns = pf_zalloc(n, sizeof *s->op_ns); /* added to */
    s->op_row = malloc(n * sizeof *s->op_row);
    s->touched = malloc(n * sizeof *s->touched);
    for (size_t k = 0; s->op_row && k < n; k++)
        s->op_row[k] = -1;
    return s->op_ns && s->op_row && s->touched ? 0 : -1;
}

static void op_scratch_free(op_scratch *s)
{
    free(s->op_ns);
    free(s->op_row);
    free(s->touched);
}

/* One device: every op invocation's activities (selected, on this device) summed into
 * op_ns, then counted once in its row; a launch without an op is its own invocation. */
static void count_device_invocations(const pf_analysis *an, dev_acc *dv, const int32_t *act_row, op_scratch *sc)
{
    const pf_trace *t = an->trace;
    pf_device_report *rep = dv->rep;
    size_t n_touched = 0;
    for (size_t r = 0; r < rep->n_rows; r++)
        restart_extremes(&rep->rows[r]);
    for (size_t k = 0; k < dv->n_acts; k++) {
        size_t i = dv->acts[k];
        const pf_activity *a = &t->acts[i];
        if (act_row[i] < 0)
            continue;
        if (a->op < 0) {
            row_add_invocation(&rep->rows[act_row[i]], a->dur_ns);
            continue;
        }
        if (sc->op_row[a->op] < 0) {
            sc->op_row[a->op] = act_row[i];
            sc->touched[n_touched++] = a->op;
        }
        sc->op_ns[a->op] = pf_sat_add(sc->op_ns[a->op], a->dur_ns);
    }
    for (size_t k = 0; k < n_touched; k++) {
        int32_t op = sc->touched[k];
        row_add_invocation(&rep->rows[sc->op_row[op]], sc->op_ns[op]);
        sc->op_row[op] = -1;
        sc->op_ns[op] = 0;
    }
    restart_extremes(&rep->total);
    for (size_t r = 0; r < rep->n_rows; r++) {
        const pf_row *row = &rep->rows[r];
        rep->total.invocations += row->invocations;
        rep->total.min_ns = row->min_ns < rep->total.min_ns ? row->min_ns : rep->total.min_ns;
        rep->total.max_ns = row->max_ns > rep->total.max_ns ? row->max_ns : rep->total.max_ns;
    }
}

/* The per-device work after the activities are listed: grouping (then invocations and
 * spread), busy time and the PF_WAITS_PARTS parts of the waits, one task each per device,
 * each writing only its device's report, waits part and its activities' act_row, so the
 * result does not depend on the threads; one pool, so a device's waits run beside its
 * grouping (the longest task). */
typedef struct device_job {
    pf_analysis *an;
    dev_acc *accs;
    const char *const *shape_keys;
    int32_t *act_row;                  /* the row (of its device) each activity went to */
    const int64_t *step_num;           /* each activity's step (pf_steps_numbers); NULL: none */
    pf_waits *waits;                   /* per trace device, as accs */
    op_scratch scratch[PF_THREADS_MAX]; /* per worker, made by its first task that needs it */
} device_job;

enum { DEVICE_TASKS = 2 + PF_WAITS_PARTS };

/* Groups one device's activities, then fills every row's invocations: its launches for
 * --group kernel (and for the category rows, which count launches), its op invocations for
 * --group op and shape, whose min and max then are per invocation too; then the spread. */
static int group_device(device_job *j, dev_acc *dv, size_t worker)
{
    const pf_analysis *an = j->an;
    pf_device_report *rep = dv->rep;
    for (size_t k = 0; k < dv->n_acts; k++)
        if (add_to_group(an, j->shape_keys, dv, dv->acts[k], &j->act_row[dv->acts[k]]))
            return -1;
    for (size_t r = 0; r < rep->n_rows; r++)
        rep->rows[r].invocations = rep->rows[r].count;
    rep->total.invocations = rep->total.count;
    for (int c = 0; c < PF_CAT_COUNT; c++)
        rep->cats[c].invocations = rep->cats[c].count;
    if (an->opts.group != PF_GROUP_KERNEL && rep->n_rows) {
        op_scratch *sc = &j->scratch[worker];
        if (!sc->op_ns && op_scratch_init(sc, an->trace->n_ops))
            return -1;
        count_device_invocations(an, dv, j->act_row, sc);
    }
    return pf_row_spread(an->trace, an->opts.group != PF_GROUP_KERNEL, dv->acts, dv->n_acts, j->act_row, rep->rows,
                         rep->n_rows, &rep->total);
}

/* The order a device's tasks are taken in: the longest first, so that the threads finish
 * together (a one-device trace of 127,249 activities, 2-core host: groups 21 ms, queues 13,
 * breakdown 14, busy 6, launch delays 5, steps 1; the old order, groups, busy, then the
 * waits, had left one thread 58 to 68 ms of 89 at -j 2 before these tasks were made
 * cheaper). k: DEVICE_TASK_GROUPS its groups, DEVICE_TASK_BUSY its busy time, else the waits
 * part k (pf_waits_part's numbers). */
enum { DEVICE_TASK_GROUPS = PF_WAITS_PARTS, DEVICE_TASK_BUSY = PF_WAITS_PARTS + 1 };
_Static_assert(PF_WAITS_PARTS == 4, "device_task_order lists every part of the waits");
static const unsigned char device_task_order[DEVICE_TASKS] = {DEVICE_TASK_GROUPS, 2, 0, DEVICE_TASK_BUSY, 1, 3};

/* Task DEVICE_TASKS d + i of device d: the i-th of device_task_order (nothing for a device
 * without selected activities: it is not kept). */
static int device_task(void *ctx, size_t task, size_t worker)
{
    device_job *j = ctx;
    size_t d = task / DEVICE_TASKS, k = device_task_order[task % DEVICE_TASKS];
    dev_acc *dv = &j->accs[d];
    if (!dv->rep) /* ran nothing */
        return 0;
    if (k == DEVICE_TASK_GROUPS)
        return group_device(j, dv, worker);
    if (k == DEVICE_TASK_BUSY)
        return pf_busy_compute(j->an->trace->acts, dv->acts, dv->n_acts, &dv->rep->busy);
    if (!dv->n_acts)
        return 0;
    return pf_waits_part(j->an, j->step_num, dv->acts, dv->n_acts, (int)k, &j->waits[d]);
}

/* Groups the selected activities of every device, counts the invocations of each group,
 * their spread, each device's busy time and waits (into *waits, one per trace device), on up
 * to an->opts.jobs threads; *threads receives how many ran. num: each activity's step
 * (pf_steps_numbers), NULL when the trace has none. Returns 0, or -1 when memory runs out. */
static int group_devices(pf_analysis *an, dev_acc *accs, const int64_t *num, pf_waits **waits, size_t *threads)
{
    const pf_trace *t = an->trace;
    device_job *j = calloc(1, sizeof *j);
    int32_t *act_row = malloc((t->n_acts ? t->n_acts : 1) * sizeof *act_row);
    *waits = calloc(t->n_devices ? (size_t)t->n_devices : 1, sizeof **waits);
    const char **shape_keys = NULL;
    int rc = j && act_row && *waits ? shape_keys_of(an, accs, &shape_keys) : -1;
    if (rc == 0) {
        for (size_t i = 0; i < t->n_acts; i++)
            act_row[i] = -1;
        *j = (device_job){.an = an,
                          .accs = accs,
                          .shape_keys = shape_keys,
                          .act_row = act_row,
                          .step_num = num,
                          .waits = *waits};
        /* At most two tasks of a device at once: each holds scratch of two to six words an
         * activity, and six at once raised the peak of a one-device 1 GB trace from 24% to
         * 33% of the file (16-core host, -j 16); three, 15.6% to 17.8% at -j 4 for no time
         * (0.113 s at -j 2, 0.115 s at -j 4): the grouping task is the longest, and one
         * thread runs the other five beside it. */
        size_t jobs = an->opts.jobs > 1 ? (size_t)an->opts.jobs : 1;
        size_t most = 2 * (size_t)t->n_devices;
        jobs = jobs < most ? jobs : most;
        *threads = pf_tasks_run(DEVICE_TASKS * (size_t)t->n_devices, jobs, device_task, j, &rc);
        for (size_t w = 0; w < PF_THREADS_MAX; w++)
            op_scratch_free(&j->scratch[w]);
    }
    free(j);
    free(act_row);
    free(shape_keys);
    return rc ? -1 : 0;
}

int pf_analysis_needs_host(const pf_analysis_opts *o)
{
    assert(o);
    return o->group == PF_GROUP_OP;
}

/* --group op shows each op's CPU time beside its GPU time, like key_averages(). */
static int attach_cpu_times(pf_analysis *an, dev_acc *accs)
{
    pf_op_cpu *cpu;
    size_t n;
    if (!pf_analysis_needs_host(&an->opts))
        return 0;
    if (pf_cpu_op_times(an->trace, &cpu, &n))
        return -1;
    for (int d = 0; d < an->trace->n_devices; d++) {
        for (size_t r = 0; accs[d].rep && r < accs[d].rep->n_rows; r++) {
            pf_row *row = &accs[d].rep->rows[r];
            for (size_t k = 0; k < n; k++) {
                if (cpu[k].name != row->key)
                    continue;
                row->calls = cpu[k].calls;
                row->cpu_total_ns = cpu[k].total_ns;
                row->self_cpu_ns = cpu[k].self_ns;
                row->has_cpu = 1;
                break;
            }
        }
    }
    free(cpu);
    return 0;
}

/* Keeps devices that ran something, moved down in an->devices (and their waits, when
 * computed, in an->waits, which takes waits); their rows sorted by time. */
static void finish_devices(pf_analysis *an, dev_acc *accs, pf_waits *waits)
{
    const pf_trace *t = an->trace;
    for (int i = 0; i < t->n_devices; i++) {
        pf_ptrmap_free(&accs[i].map);
        for (int c = 0; c < PF_CAT_COUNT; c++)
            pf_ptrmap_free(&accs[i].cat_names[c]);
        pf_ptrmap_free(&accs[i].missing_map);
        pf_device_report *r = accs[i].rep;
        if (!r)
            continue;
        if (!r->n_rows) {
            free(r->rows);
            free(r->busy.streams);
            free(r->missing);
            continue;
        }
        qsort(r->rows, r->n_rows, sizeof(pf_row), cmp_row);
        if (r->n_missing)
            qsort(r->missing, r->n_missing, sizeof(pf_row), cmp_row);
        if (waits)
            waits[an->n_devices] = waits[i]; /* a device without activities has no waits to free */
        an->devices[an->n_devices++] = *r; /* a report already kept or this one: reports are in device order */
    }
    an->waits = waits;
}

/* Categorising is a scan of a rule table: cached per distinct (kind, kernel, op), which
 * are interned pointers; a trace has a few hundred of them, so the cache starts small and
 * doubles when half full. */
typedef struct cat_slot {
    const char *name, *op;     /* name NULL: a free slot */
    unsigned char kind, cat;
} cat_slot;

typedef struct cat_cache {
    cat_slot *slots;
    size_t cap, n;             /* cap a power of two, at least twice n */
} cat_cache;

static cat_slot *cat_slot_of(const cat_cache *c, const char *name, const char *op, int kind)
{
    uint64_t h = ((uint64_t)(uintptr_t)name * UINT64_C(0x9E3779B97F4A7C15)) ^
                 ((uint64_t)(uintptr_t)op * UINT64_C(0xC2B2AE3D27D4EB4F)) ^ (uint64_t)kind;
    size_t i = (size_t)(h >> 17) & (c->cap - 1);
    while (c->slots[i].name && (c->slots[i].name != name || c->slots[i].op != op || c->slots[i].kind != kind))
        i = (i + 1) & (c->cap - 1);
    return &c->slots[i];
}

static int cat_grow(cat_cache *c)
{
    cat_cache bigger = {pf_zalloc(c->cap ? 2 * c->cap : 64, sizeof(cat_slot)), c->cap ? 2 * c->cap : 64, c->n};
    if (!bigger.slots)
        return -1;
    for (size_t i = 0; i < c->cap; i++)
        if (c->slots[i].name)
            *cat_slot_of(&bigger, c->slots[i].name, c->slots[i].op, c->slots[i].kind) = c->slots[i];
    free(c->slots);
    *c = bigger;
    return 0;
}

/* a's category (op: the name of its op, NULL when none); -1 when memory runs out. */
static int cached_category(cat_cache *c, const pf_activity *a, const char *op)
{
    assert(a->name);
    if (2 * (c->n + 1) > c->cap && cat_grow(c))
        return -1;
    cat_slot *s = cat_slot_of(c, a->name, op, (int)a->kind);
    if (!s->name) {
        *s = (cat_slot){a->name, op, (unsigned char)a->kind, (unsigned char)pf_category_of(a->kind, a->name, op)};
        c->n++;
    }
    return s->cat;
}

/* compute_categories' ranges, each with a cache of its own (a category is a function of
 * (kind, kernel, op) alone). */
typedef struct cats_job {
    pf_analysis *an;
    atomic_int failed;         /* memory ran out in a range */
} cats_job;

static void cats_range(void *ctx, size_t lo, size_t hi, size_t r)
{
    cats_job *j = ctx;
    const pf_trace *t = j->an->trace;
    cat_cache c = {0};
    (void)r;
    for (size_t i = lo; i < hi; i++) {
        const pf_activity *a = &t->acts[i];
        int cat = cached_category(&c, a, a->op >= 0 ? t->ops[a->op].name : NULL);
        if (cat < 0) {
            atomic_store(&j->failed, 1);
            break;
        }
        j->an->cats[i] = (unsigned char)cat;
    }
    free(c.slots);
}

/* Every activity's category into an->cats, on `threads` threads. */
static int compute_categories(pf_analysis *an, size_t threads)
{
    const pf_trace *t = an->trace;
    an->cats = malloc(t->n_acts ? t->n_acts : 1);
    if (!an->cats)
        return -1;
    cats_job j = {an, 0};
    pf_parallel_ranges(t->n_acts, threads, cats_range, &j);
    return atomic_load(&j.failed) ? -1 : 0;
}

/* Each activity's work from its share of its op's (pf_work_shares; freed here), on `threads`
 * threads. */
static int compute_work(pf_analysis *an, pf_share *shares, size_t threads)
{
    const pf_trace *t = an->trace;
    an->work = malloc((t->n_acts ? t->n_acts : 1) * sizeof *an->work);
    if (!shares || !an->work) {
        free(shares);
        return -1;
    }
    pf_analysis_opts o = an->opts;
    o.jobs = (int)threads; /* pf_work_threads(t, threads) is threads (t is large, or threads 1) */
    int rc = pf_work_all(t, &o, shares, an->work);
    free(shares);
    if (rc == 0)
        rc = pf_work_infer(t, an->work, threads);
    /* A copy or fill does no arithmetic, whether or not the trace gives its size (ROCm's
     * memsets and many device-to-device memcpys have no args.bytes): its FLOPs are a known
     * 0, so an op's row keeps its FLOPs and only its bytes become unknown. */
    for (size_t i = 0; rc == 0 && i < t->n_acts; i++)
        if (t->acts[i].kind != PF_ACT_KERNEL && an->work[i].flop < 0)
            an->work[i].flop = 0;
    return rc;
}

/* Attribution: the categories, then the work shares (each on every thread), then at -j 2
 * and more two halves that do not read each other side by side: task 0 the work (on all
 * threads but one), task 1 the steps (which read the categories), on one, with every
 * activity's step number for the waits (num). The steps are one thread's work (77 ms of a
 * 4 GB trace on the 16-core host, the work 70 ms on one thread): beside the shares, as
 * before, they would leave a 2-thread run the shares' whole time. */
typedef struct attr_job {
    pf_analysis *an;
    pf_share *shares;          /* task 0 frees them */
    size_t threads;            /* pf_work_threads */
    int64_t *num;              /* NULL when the trace has no steps */
    int steps_failed;          /* pf_steps_compute failed: its message is in *err */
    pf_error *err;
} attr_job;

static int attr_task(void *ctx, size_t task, size_t worker)
{
    attr_job *j = ctx;
    (void)worker;
    if (task == 0)
        return compute_work(j->an, j->shares, j->threads > 1 ? j->threads - 1 : 1);
    const pf_trace *t = j->an->trace;
    if ((t->n_cpu_steps || t->n_gpu_steps) && !(j->num = malloc((t->n_acts ? t->n_acts : 1) * sizeof *j->num)))
        return -1;
    j->steps_failed = pf_steps_compute(j->an, j->num, j->err) != 0;
    return j->steps_failed ? -1 : 0;
}

/* Aggregation's first step at -j 2 and more: the phases (task 0, on phase_threads) beside
 * each active device's report (task 1, on list_threads), and the devices' lists of
 * activities too, unless --phase narrows the selection that they follow: then they come
 * after. */
typedef struct prep_job {
    pf_analysis *an;
    size_t phase_threads, list_threads;
    dev_acc *accs;
    size_t *dev_acts;
    int listed;
    int phases_failed;         /* pf_phases_compute failed: its message is in *err */
    pf_error *err;
} prep_job;

static int prep_task(void *ctx, size_t task, size_t worker)
{
    prep_job *j = ctx;
    pf_analysis *an = j->an;
    (void)worker;
    if (task == 0) {
        j->phases_failed = pf_phases_compute_on(an, j->phase_threads, j->err) != 0;
        return j->phases_failed ? -1 : 0;
    }
    if (setup_devices(an, j->list_threads, &j->accs))
        return -1;
    if (an->opts.phase != PF_PHASE_NONE)
        return 0;
    j->listed = 1;
    return list_device_acts(an, j->accs, j->list_threads, &j->dev_acts);
}

int pf_analysis_run(const pf_trace *t, const pf_analysis_opts *o, pf_analysis **out, pf_error *err)
{
    *out = NULL;
    pf_analysis *an = calloc(1, sizeof *an);
    if (!an)
        return pf_fail(err, "out of memory");
    an->trace = t;
    an->opts = *o;
    dev_acc *accs = NULL;
    int rc = (an->keys = pf_strtab_new()) ? 0 : -1;
    size_t work_threads = pf_work_threads(t, o->jobs);
    if (rc == 0)
        rc = compute_categories(an, work_threads);
    attr_job aj = {.an = an, .shares = rc == 0 ? pf_work_shares(t, work_threads) : NULL, .threads = work_threads,
                   .err = err};
    if (rc == 0)
        pf_tasks_run(2, o->jobs > 1 ? 2 : 1, attr_task, &aj, &rc);
    if (aj.steps_failed) {
        free(aj.num);
        pf_analysis_free(an);
        return -1;
    }
    pf_timings_lap(o->timings, "attribution", (int)work_threads);
    /* A quarter of the threads list the devices' activities beside the phases (16-core host,
     * 4 GB trace at -j 16: the phases 0.087 s on 15 threads, the lists 0.083 s on one). */
    size_t jobs = o->jobs > 1 ? (size_t)o->jobs : 1, pool = jobs > 1 ? 2 : 1, phase_threads = pf_phases_threads(an);
    size_t list_threads = jobs / 4 ? jobs / 4 : 1;
    if (pool > 1 && phase_threads > jobs - list_threads)
        phase_threads = jobs - list_threads;
    prep_job pj = {.an = an, .phase_threads = phase_threads, .list_threads = list_threads, .err = err};
    if (rc == 0)
        pf_tasks_run(2, pool, prep_task, &pj, &rc);
    accs = pj.accs;
    size_t *dev_acts = pj.dev_acts;
    if (pj.phases_failed) {
        free(accs);
        free(dev_acts);
        free(aj.num);
        pf_analysis_free(an);
        return -1;
    }
    if (rc == 0 && !pj.listed)
        rc = list_device_acts(an, accs, jobs, &dev_acts);
    size_t threads = 1;
    pf_waits *waits = NULL;
    if (rc == 0 && group_devices(an, accs, aj.num, &waits, &threads)) {
        pf_waits_free(waits, (size_t)t->n_devices);
        waits = NULL;
        rc = -1;
    }
    if (rc == 0)
        rc = attach_cpu_times(an, accs);
    if (accs)
        finish_devices(an, accs, rc == 0 ? waits : NULL);
    if (rc)
        pf_waits_free(waits, (size_t)t->n_devices);
    free(accs);
    free(dev_acts);
    free(aj.num);
    threads = threads > pool ? threads : pool;
    threads = threads > phase_threads ? threads : phase_threads;
    pf_timings_lap(o->timings, "aggregation", (int)threads); /* phases, group_devices */
    if (rc || !an->devices) {
        pf_analysis_free(an);
        return pf_fail(err, "out of memory");
    }
    *out = an;
    return 0;
}

void pf_analysis_free(pf_analysis *an)
{
    if (!an)
        return;
    for (int i = 0; i < an->n_devices; i++) {
        free(an->devices[i].rows);
        free(an->devices[i].busy.streams);
        free(an->devices[i].missing);
    }
    pf_waits_free(an->waits, (size_t)an->n_devices);
    free(an->devices);
    free(an->work);
    free(an->cats);
    free(an->selected);
    free(an->steps);
    pf_strtab_free(an->keys);
    pf_coll_table_free(an->colls);
    free(an->colls);
    free(an->phase);
    free(an->phase_ns);
    free(an);
}

pf_category pf_row_category(const pf_row *r)
{
    int best = PF_CAT_OTHER;
    for (int c = 0; c < PF_CAT_COUNT; c++)
        if (r->cat_ns[c] > r->cat_ns[best] || (r->cat_ns[best] == 0 && r->cat_ns[c] > 0))
            best = c;
    return (pf_category)best;
}

const char *pf_row_source(const pf_row *r, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; i < r->n_sources; i++)
        append(buf, n, &len, i ? "+%s" : "%s", r->sources[i]);
    if (r->sources_more)
        append(buf, n, &len, "+more");
    if (!r->n_sources)
        snprintf(buf, n, "-");
    return buf;
}

double pf_row_mean_ns(const pf_row *r)
{
    return r->invocations ? (double)r->total_ns / (double)r->invocations : 0;
}

const char *const pf_group_names[PF_GROUP_SHAPE + 2] = {"kernel", "op", "shape", NULL};
