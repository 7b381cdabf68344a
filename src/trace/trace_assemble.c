/* trace_assemble.c - the model assembled from the parsed parts of traceEvents that count: their events moved into the model's arrays (on several threads), the unknown-category warning, launch calls, devices and External-id links. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>

#include "profana/parallel.h"
#include "profana/timings.h"
#include "trace_chunk.h"
#include "trace_model.h"
#include "trace_vec.h"

/* What the assembly reads: the loader's kept parts and options. */
typedef struct assembly {
    pf_trace *t;
    const char *path;
    pf_chunk *const *chunks;
    const size_t *kept;        /* the chunks whose events count, in file order */
    size_t n_kept;
    const pf_load_opts *opts;
    size_t jobs;               /* threads (pf_parallel_workers of opts->jobs) */
    pf_error *err;
} assembly;

/* One array's move: each kept chunk's part drains into its place, chunks on -j threads. */
typedef struct move {
    assembly *A;
    pf_segvec *(*pick)(pf_chunk *);
    char *dst;
    size_t *at;                /* element offset of each kept chunk's part */
    size_t elem;
} move;

static void move_range(void *ctx, size_t lo, size_t hi, size_t r)
{
    const move *mv = ctx;
    (void)r;
    for (size_t i = lo; i < hi; i++)
        pf_segvec_drain(mv->pick(mv->A->chunks[mv->A->kept[i]]), mv->dst + mv->at[i] * mv->elem);
}

static int move_events(pf_segvec *(*pick)(pf_chunk *), assembly *A, void **dst, size_t *n, size_t elem)
{
    size_t *at = malloc((A->n_kept + 1) * sizeof *at);
    if (!at)
        return pf_fail(A->err, "%s: out of memory", A->path);
    at[0] = 0;
    for (size_t i = 0; i < A->n_kept; i++)
        at[i + 1] = at[i] + pick(A->chunks[A->kept[i]])->n;
    *n = at[A->n_kept];
    if (!(*dst = pf_model_alloc(*n * elem, 0))) {
        free(at);
        return pf_fail(A->err, "%s: out of memory", A->path);
    }
    move mv = {A, pick, *dst, at, elem};
    pf_parallel_ranges(A->n_kept, pf_segvec_drain_threads(*n * elem, A->n_kept, A->jobs), move_range, &mv);
    free(at);
    return 0;
}

static pf_segvec *acts_of(pf_chunk *c)
{
    return &c->acts;
}

static pf_segvec *cpu_of(pf_chunk *c)
{
    return &c->cpu;
}

static pf_segvec *marks_of(pf_chunk *c)
{
    return &c->marks;
}

static pf_segvec *autograd_of(pf_chunk *c)
{
    return &c->autograd;
}

static pf_segvec *steps_of(pf_chunk *c)
{
    return &c->steps;
}

static pf_segvec *cpu_steps_of(pf_chunk *c)
{
    return &c->cpu_steps;
}

static pf_segvec *act_ext_of(pf_chunk *c)
{
    return &c->act_ext;
}

/* One warning for every event of a category profana does not know that looks like GPU
 * activity: such a trace would otherwise read as one with less GPU work, silently. */
static int warn_unknown(assembly *A)
{
    size_t n = 0;
    const char *cat = NULL;
    for (size_t i = 0; i < A->n_kept; i++) {
        const pf_chunk *c = A->chunks[A->kept[i]];
        n += c->n_unknown_gpu;
        if (!cat)
            cat = c->unknown_cat;
    }
    A->t->n_unknown_gpu = n;
    if (n && pf_trace_warn(A->t,
                           "%zu event%s with a stream or device and a correlation id, like GPU activity, but of a "
                           "category profana does not know (\"%s\"%s): not analysed",
                           n, n == 1 ? "" : "s", cat ? cat : "", n == 1 ? "" : " and perhaps others"))
        return pf_fail(A->err, "%s: out of memory", A->path);
    return 0;
}

/* Each activity's launch call, by correlation id. */
static int link_launches(assembly *A)
{
    size_t n = A->n_kept ? A->n_kept : 1;
    pf_segvec **v = malloc(n * sizeof *v), **names = malloc(n * sizeof *names);
    if (!v || !names) {
        free(v);
        free(names);
        return pf_fail(A->err, "%s: out of memory", A->path);
    }
    for (size_t i = 0; i < A->n_kept; i++) {
        v[i] = &A->chunks[A->kept[i]]->launches;
        names[i] = &A->chunks[A->kept[i]]->launch_names;
    }
    int rc = pf_trace_link_launches(A->t, v, names, A->n_kept, A->opts->launches, A->jobs, A->err);
    free(v);
    free(names);
    return rc;
}

/* Links the activities to their ops (pf_trace_link); act_ext is freed. */
static int link_ops(assembly *A, int64_t *act_ext)
{
    pf_segvec **ops = malloc((A->n_kept ? A->n_kept : 1) * sizeof *ops);
    if (!ops) {
        free(act_ext);
        return pf_fail(A->err, "%s: out of memory", A->path);
    }
    for (size_t i = 0; i < A->n_kept; i++)
        ops[i] = &A->chunks[A->kept[i]]->ops;
    int rc = pf_trace_link(A->t, act_ext, ops, A->n_kept, A->opts->all_ops, A->jobs, A->err);
    free(ops);
    free(act_ext);
    pf_timings_lap(A->opts->timings, "link and sort", (int)A->jobs); /* the id map and lookups */
    return rc;
}

int pf_trace_assemble(pf_trace *t, pf_chunk *const *chunks, const size_t *kept, size_t n_kept, char *props,
                      size_t props_len, const pf_load_opts *opts, pf_error *err)
{
    assert(t != NULL && opts != NULL && err != NULL);
    assert((chunks != NULL && kept != NULL) || n_kept == 0);
    assert(props != NULL || props_len == 0);
    assembly a = {t, t->path, chunks, kept, n_kept, opts, pf_parallel_workers(opts->jobs), err}, *A = &a;
    for (size_t i = 0; i < A->n_kept; i++) {
        const pf_chunk *c = A->chunks[A->kept[i]];
        t->n_events += c->n_events;
        t->n_bad_events += c->n_bad_events;
        t->n_steps += c->n_steps;
        t->n_host += c->n_host;
    }
    t->op_spans_only = A->opts->op_spans_only;
    pf_timings *tm = A->opts->timings;
    int64_t *act_ext = NULL; /* the activities' External ids, until pf_trace_link has used them */
    size_t n_ext = 0;
    int bad = move_events(acts_of, A, (void **)&t->acts, &t->n_acts, sizeof *t->acts) ||
              move_events(act_ext_of, A, (void **)&act_ext, &n_ext, sizeof *act_ext) ||
              move_events(cpu_of, A, (void **)&t->cpu, &t->n_cpu, sizeof *t->cpu) ||
              move_events(marks_of, A, (void **)&t->marks, &t->n_marks, sizeof *t->marks) ||
              move_events(autograd_of, A, (void **)&t->autograd, &t->n_autograd, sizeof *t->autograd) ||
              move_events(steps_of, A, (void **)&t->gpu_steps, &t->n_gpu_steps, sizeof *t->gpu_steps) ||
              move_events(cpu_steps_of, A, (void **)&t->cpu_steps, &t->n_cpu_steps, sizeof *t->cpu_steps) ||
              warn_unknown(A);
    pf_timings_lap(tm, "model build", 1);
    assert(bad || n_ext == t->n_acts);
    bad = bad || link_launches(A);
    pf_timings_lap(tm, "link and sort", (int)A->jobs);
    bad = bad || pf_trace_devices_from_props(t, props, props_len, A->err);
    pf_timings_lap(tm, "model build", 1);
    if (bad) {
        free(act_ext);
        return -1;
    }
    return link_ops(A, act_ext);
}
