/* analysis.c - pf_analysis_run, the pipeline: GPU activities grouped per device (by kernel, op or op+shape) with totals, rates and peaks, stage by stage. */
#include "profana/analysis.h"
#include "profana/collectives.h"
#include "profana/timings.h"
#include "inductor_src.h"
#include "pipeline.h"
#include "tasks.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>

int pf_analysis_needs_host(const pf_analysis_opts *o)
{
    assert(o);
    return o->group == PF_GROUP_OP || o->group == PF_GROUP_CRITICAL_PATH;
}

/* --group op shows each op's CPU time beside its GPU time, like key_averages(). A trace
 * loaded without its host intervals (for --group kernel, whose low-match hint diffs the ops
 * too: cmd_diff.c) leaves them unknown. */
static int attach_cpu_times(pf_analysis *an, dev_acc *accs)
{
    pf_op_cpu *cpu;
    size_t n;
    if (!pf_analysis_needs_host(&an->opts) || an->trace->op_spans_only)
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
        pf_ptrmap_free(&accs[i].names);
        free(accs[i].name_cats);
        pf_ptrmap_free(&accs[i].missing_map);
        pf_device_report *r = accs[i].rep;
        if (!r)
            continue;
        if (!r->n_rows) {
            for (int c = 0; c < PF_CAT_COUNT; c++)
                free(r->cats[c]);
            free(r->rows);
            free(r->busy.streams);
            free(r->missing);
            pf_source_tree_free(&r->sources);
            continue;
        }
        r->acts = accs[i].acts;
        r->n_acts = accs[i].n_acts;
        qsort(r->rows, r->n_rows, sizeof(pf_row), pf_an_row_cmp);
        if (r->n_missing)
            qsort(r->missing, r->n_missing, sizeof(pf_row), pf_an_row_cmp);
        if (waits)
            waits[an->n_devices] = waits[i]; /* a device without activities has no waits to free */
        an->devices[an->n_devices++] = *r; /* a report already kept or this one: reports are in device order */
    }
    an->waits = waits;
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
    o.modules = pf_modules_new(PF_MODULE_BUDGET_S);
    int rc = o.modules ? pf_work_all(t, &o, shares, an->work) : -1;
    an->notes = pf_modules_free_notes(o.modules, &an->n_notes); /* the run's modules end here */
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

/* ---- the stages ---- */

/* What pf_analysis_run's stages hand on to each other. */
typedef struct run {
    pf_analysis *an;
    pf_error *err;
    pf_an_threads th;
    pf_share *shares;                  /* pf_work_shares; the work stage frees them */
    int64_t *num;                      /* each activity's step for the waits; NULL: no steps */
    dev_acc *accs;                     /* per trace device */
    size_t *dev_acts;                  /* the devices' lists of activities, one array */
    int listed;                        /* the lists were made beside the phases */
    pf_waits *waits;                   /* per trace device, until an->waits takes them */
    size_t group_threads;              /* what the devices' tasks ran on */
    int own_error;                     /* a stage set *err itself (the steps, the phases) */
} run;

typedef int (*stage_fn)(run *r);

typedef struct beside_job {
    run *r;
    stage_fn stage[2];
} beside_job;

static int beside_task(void *ctx, size_t task, size_t worker)
{
    beside_job *j = ctx;
    (void)worker;
    assert(task < 2);
    return j->stage[task](j->r);
}

/* Stages a and b side by side (each must write only what is its own) on `pool` threads: 2,
 * or 1 for one after the other. Returns 0, or -1 when either failed (both run). */
static int beside(run *r, stage_fn a, stage_fn b, size_t pool)
{
    beside_job j = {r, {a, b}};
    int failed = 0;
    pf_tasks_run(2, pool, beside_task, &j, &failed);
    return failed ? -1 : 0;
}

/* Each activity's work from its share of its op's, beside the steps. */
static int work_stage(run *r)
{
    int rc = compute_work(r->an, r->shares, r->th.work_beside);
    r->shares = NULL; /* freed */
    return rc;
}

/* The steps (which read the categories), with every activity's step number for the waits. */
static int steps_stage(run *r)
{
    const pf_trace *t = r->an->trace;
    if ((t->n_cpu_steps || t->n_gpu_steps) && !(r->num = malloc((t->n_acts ? t->n_acts : 1) * sizeof *r->num)))
        return -1;
    if (pf_steps_compute(r->an, r->num, r->err) == 0)
        return 0;
    r->own_error = 1;
    return -1;
}

/* The serving phases, which may narrow the selection (--phase). */
static int phases_stage(run *r)
{
    if (pf_phases_compute_on(r->an, r->th.phases, r->err) == 0)
        return 0;
    r->own_error = 1;
    return -1;
}

/* The reports of the devices that ran something, and their lists of activities unless
 * --phase narrows the selection they follow (then lists_stage, after the phases). */
static int devices_stage(run *r)
{
    if (pf_an_setup_devices(r->an, r->th.lists, &r->accs))
        return -1;
    if (r->an->opts.phase != PF_PHASE_NONE)
        return 0;
    r->listed = 1;
    return pf_an_list_device_acts(r->an, r->accs, r->th.lists, &r->dev_acts);
}

static int lists_stage(run *r)
{
    return r->listed ? 0 : pf_an_list_device_acts(r->an, r->accs, r->th.jobs, &r->dev_acts);
}

static int group_stage(run *r)
{
    return pf_an_group_devices(r->an, r->accs, r->num, &r->waits, &r->group_threads);
}

/* The analysis of t, its key table and the threads plan into r; NULL when memory runs out. */
static pf_analysis *run_start(run *r, const pf_trace *t, const pf_analysis_opts *o)
{
    pf_analysis *an = calloc(1, sizeof *an);
    if (!an)
        return NULL;
    an->trace = t;
    an->opts = *o;
    an->keys = pf_strtab_new();
    r->an = an;
    r->th = pf_an_threads_plan(t, o->jobs, pf_phases_threads(an));
    r->group_threads = 1;
    return an;
}

/* Every run's end, failed or not: the devices kept (finish_devices), the scratch freed, the
 * aggregation's lap; *out the analysis, or an error: the stage's own, else out of memory. */
static int run_end(run *r, int rc, pf_analysis **out)
{
    pf_analysis *an = r->an;
    size_t n_devices = (size_t)an->trace->n_devices;
    if (r->accs)
        finish_devices(an, r->accs, rc == 0 ? r->waits : NULL);
    if (rc)
        pf_waits_free(r->waits, n_devices);
    free(r->shares);
    free(r->accs);
    an->dev_acts = r->dev_acts; /* the reports' lists (pf_device_report.acts): freed with an */
    r->dev_acts = NULL;
    free(r->num);
    if (!r->own_error) /* the phases, the devices' tasks */
        pf_timings_lap(an->opts.timings, "aggregation", (int)pf_an_threads_aggregation(&r->th, r->group_threads));
    if (rc || !an->devices) {
        pf_analysis_free(an);
        return r->own_error ? -1 : pf_fail(r->err, "out of memory");
    }
    *out = an;
    return 0;
}

/* The stages in order; `beside` runs two at once at -j 2 and more (docs/performance.md, The
 * analysis's stages and threads). A stage runs only when every one before it succeeded. */
int pf_analysis_run(const pf_trace *t, const pf_analysis_opts *o, pf_analysis **out, pf_error *err)
{
    assert(t && o && out && err);
    *out = NULL;
    run r = {.err = err};
    if (!run_start(&r, t, o))
        return pf_fail(err, "out of memory");
    int rc = r.an->keys ? 0 : -1;
    if (rc == 0) /* attribution: every activity's category, on every thread */
        rc = pf_an_categories(r.an, r.th.work);
    if (rc == 0) /* each op's work shared over its activities, on every thread */
        rc = (r.shares = pf_work_shares(t, r.th.work)) ? 0 : -1;
    if (rc == 0) /* the work beside the steps */
        rc = beside(&r, work_stage, steps_stage, r.th.pool);
    if (!r.own_error) /* the steps' error ends the run here */
        pf_timings_lap(o->timings, "attribution", (int)r.th.work);
    if (rc == 0) /* aggregation: the serving phases beside the devices' reports and lists */
        rc = beside(&r, phases_stage, devices_stage, r.th.pool);
    if (rc == 0) /* the lists, when --phase narrowed the selection they follow */
        rc = lists_stage(&r);
    if (rc == 0) /* per device: groups, invocations, busy time, waits */
        rc = group_stage(&r);
    if (rc == 0) /* --group op: each op's CPU time */
        rc = attach_cpu_times(r.an, r.accs);
    return run_end(&r, rc, out);
}

void pf_analysis_free(pf_analysis *an)
{
    if (!an)
        return;
    for (int i = 0; i < an->n_devices; i++) {
        free(an->devices[i].rows);
        for (int c = 0; c < PF_CAT_COUNT; c++)
            free(an->devices[i].cats[c]);
        free(an->devices[i].busy.streams);
        free(an->devices[i].missing);
        pf_source_tree_free(&an->devices[i].sources);
    }
    pf_waits_free(an->waits, (size_t)an->n_devices);
    free(an->devices);
    free(an->dev_acts);
    free(an->work);
    free(an->cats);
    free(an->selected);
    free(an->steps);
    pf_strtab_free(an->keys);
    pf_coll_table_free(an->colls);
    free(an->colls);
    free(an->phase);
    free(an->phase_ns);
    for (int i = 0; i < an->n_notes; i++)
        free(an->notes[i]);
    free(an->notes);
    free(an);
}

/* clang-format off: one line, so the names are found as written (tests/cli/test_one_place.sh) */
const char *const pf_group_names[PF_GROUP_CRITICAL_PATH + 2] = {"kernel", "op", "shape", "module", "annotation",
                                                                 "sequence", "critical-path", NULL};
/* clang-format on */
