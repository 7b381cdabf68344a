/* device_tasks.c - the per-device work after the activities are listed, one pool of tasks: each device's groups (then their invocations and spread), busy time and waits. */
#include "pipeline.h"

#include <assert.h>
#include <stdlib.h>

#include "profana/mem.h"
#include "profana/parallel.h"
#include "profana/satmath.h"
#include "tasks.h"

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

/* The Total row's invocations, min and max: its rows'. */
static void total_invocations(pf_device_report *rep)
{
    restart_extremes(&rep->total);
    for (size_t r = 0; r < rep->n_rows; r++) {
        const pf_row *row = &rep->rows[r];
        rep->total.invocations += row->invocations;
        rep->total.min_ns = row->min_ns < rep->total.min_ns ? row->min_ns : rep->total.min_ns;
        rep->total.max_ns = row->max_ns > rep->total.max_ns ? row->max_ns : rep->total.max_ns;
    }
}

/* One device: every op invocation's activities (selected, on this device) summed into
 * op_ns, then counted once in its row; a launch without an op is its own invocation. */
static void count_device_invocations(const pf_analysis *an, dev_acc *dv, const int32_t *act_row, op_scratch *sc)
{
    assert(dv->rep && sc->op_ns && sc->op_row && sc->touched);
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
    total_invocations(rep);
}

/* ---- the tasks ---- */

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
    assert(dv->rep && worker < PF_THREADS_MAX);
    const pf_analysis *an = j->an;
    pf_device_report *rep = dv->rep;
    for (size_t k = 0; k < dv->n_acts; k++)
        if (pf_an_add_to_group(an, j->shape_keys, dv, dv->acts[k], &j->act_row[dv->acts[k]]))
            return -1;
    if (rep->n_rows < dv->cap_rows) { /* the rows doubled as they came: kept as many as there are */
        pf_row *fit = realloc(rep->rows, rep->n_rows * sizeof *fit);
        if (fit) {
            rep->rows = fit;
            dv->cap_rows = rep->n_rows;
        }
    }
    for (size_t r = 0; r < rep->n_rows; r++)
        rep->rows[r].invocations = rep->rows[r].count;
    rep->total.invocations = rep->total.count;
    for (int c = 0; c < PF_CAT_COUNT; c++)
        if (rep->cats[c])
            rep->cats[c]->invocations = rep->cats[c]->count;
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
 * together (docs/performance.md, The analysis's stages and threads). k: DEVICE_TASK_GROUPS
 * its groups, DEVICE_TASK_BUSY its busy time, else the waits part k (pf_waits_part's
 * numbers). */
enum { DEVICE_TASK_GROUPS = PF_WAITS_PARTS, DEVICE_TASK_BUSY = PF_WAITS_PARTS + 1 };
_Static_assert(PF_WAITS_PARTS == 4, "device_task_order lists every part of the waits");
static const unsigned char device_task_order[DEVICE_TASKS] = {DEVICE_TASK_GROUPS, 2, 0, DEVICE_TASK_BUSY, 1, 3};

/* Task DEVICE_TASKS d + i of device d: the i-th of device_task_order (nothing for a device
 * without selected activities: it is not kept). */
static int device_task(void *ctx, size_t task, size_t worker)
{
    device_job *j = ctx;
    assert(task / DEVICE_TASKS < (size_t)j->an->trace->n_devices);
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

/* pipeline.h */
int pf_an_group_devices(pf_analysis *an, dev_acc *accs, const int64_t *num, pf_waits **waits, size_t *threads)
{
    assert(an && an->work && an->cats && waits && threads && (accs || an->trace->n_devices == 0));
    const pf_trace *t = an->trace;
    device_job *j = calloc(1, sizeof *j);
    int32_t *act_row = malloc((t->n_acts ? t->n_acts : 1) * sizeof *act_row);
    *waits = calloc(t->n_devices ? (size_t)t->n_devices : 1, sizeof **waits);
    const char **shape_keys = NULL;
    int rc = j && act_row && *waits ? pf_an_shape_keys(an, accs, &shape_keys) : -1;
    if (rc == 0) {
        for (size_t i = 0; i < t->n_acts; i++)
            act_row[i] = -1;
        *j = (device_job){.an = an,
                          .accs = accs,
                          .shape_keys = shape_keys,
                          .act_row = act_row,
                          .step_num = num,
                          .waits = *waits};
        *threads = pf_tasks_run(DEVICE_TASKS * (size_t)t->n_devices, pf_an_device_pool(t, an->opts.jobs), device_task, j,
                                &rc);
        for (size_t w = 0; w < PF_THREADS_MAX; w++)
            op_scratch_free(&j->scratch[w]);
    }
    free(j);
    free(act_row);
    free(shape_keys);
    return rc ? -1 : 0;
}
