/* device_lists.c - each device's report set up, and its selected activities listed, so that what is done per device costs its own activities: ranges of activities counted apart, then listed in place, in file order. */
#include "pipeline.h"

#include <assert.h>
#include <stdlib.h>

#include "profana/parallel.h"
#include "profana/satmath.h"

/* One range of activities' share of pf_an_list_device_acts, per trace device: its selected
 * activities by kind, the dtypes of work of all its activities, and then where the range's
 * selected activities of the device go in its list. */
typedef struct list_part {
    int64_t (*n_kind)[3];
    unsigned *dtypes;
    int64_t *graphed_ns;       /* GPU time of its graph-replayed activities (all of them) */
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
        if (a->graph)
            part->graphed_ns[d] = pf_sat_add(part->graphed_ns[d], a->dur_ns);
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
        free(parts[r].graphed_ns);
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
        parts[r].graphed_ns = calloc(n_devices, sizeof *parts[r].graphed_ns);
        parts[r].at = calloc(n_devices, sizeof *parts[r].at);
        if (!parts[r].n_kind || !parts[r].dtypes || !parts[r].graphed_ns || !parts[r].at) {
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
            accs[d].rep->graphed_ns = pf_sat_add(accs[d].rep->graphed_ns, parts[r].graphed_ns[d]);
            for (int c = 0; c < 3; c++)
                accs[d].rep->n_kind[c] += k[c];
        }
        at += accs[d].n_acts;
    }
}

/* pipeline.h. Per device, not per trace: a trace of 65,536 devices would otherwise cost
 * 65,536 passes over every activity. */
int pf_an_list_device_acts(pf_analysis *an, dev_acc *accs, size_t threads, size_t **all)
{
    assert(an && all && threads >= 1 && (accs || an->trace->n_devices == 0));
    const pf_trace *t = an->trace;
    size_t n = t->n_acts ? t->n_acts : 1, n_parts = pf_an_list_parts(t, threads);
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
    assert(t && active);
    size_t nd = (size_t)t->n_devices, n_parts = pf_an_list_parts(t, threads);
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

/* Device dev's report r: its device entry (--device, else the table's match), its Total row
 * (a category's row comes with its first activity: pf_an_add_to_group). */
static void start_report(const pf_analysis *an, const pf_device *dev, pf_device_report *r)
{
    assert(dev && r);
    r->device = dev;
    pf_device_query q = {dev->name, dev->num_sms, dev->total_mem, 0};
    r->info = an->opts.force_device ? an->opts.force_device : pf_devset_lookup(an->opts.devices, &q);
    pf_row_init(&r->total, "Total");
    r->total.is_total = 1;
}

/* pipeline.h */
int pf_an_setup_devices(pf_analysis *an, size_t threads, dev_acc **out)
{
    assert(an && out && threads >= 1);
    const pf_trace *t = an->trace;
    size_t nd = (size_t)(t->n_devices ? t->n_devices : 1);
    dev_acc *accs = calloc(nd, sizeof *accs);
    unsigned char *active = calloc(nd, 1);
    /* A report (10 KB) only for a device that ran something: a trace may declare 70,000
     * devices in deviceProperties and use two; the others keep rep NULL and no task. */
    long n_active = accs && active ? active_devices(t, threads, active) : -1;
    if (n_active >= 0)
        an->devices = calloc(n_active ? (size_t)n_active : 1, sizeof *an->devices);
    if (n_active < 0 || !an->devices) {
        free(accs);
        free(active);
        return -1;
    }
    for (int i = 0, k = 0; i < t->n_devices; i++)
        if (active[i])
            start_report(an, &t->devices[i], accs[i].rep = &an->devices[k++]);
    free(active);
    *out = accs;
    return 0;
}
