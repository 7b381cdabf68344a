/* combine_plan.c - the combine engine's plan: how each input's devices, pids, linking ids and times move so that no two inputs meet, and the tag of its events. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "combine_internal.h"
#include "profana/i64map.h"

/* Kineto reserves pids 0..15 for GPUs ("GPU N" process labels) and puts device N's events
 * on pid N: pids below max(16, 1 + the largest device id) move with the devices. */
#define GPU_PID_SLOTS 16
/* Other colliding pids move by this much per input: above any Linux pid (at most 2^22). */
#define HOST_PID_STEP INT64_C(10000000)

/* The pids given out, as keys of the shared int64 map (values unused). */
static int pid_taken(const pf_i64map *pids, int64_t v)
{
    uint32_t unused;
    return pf_i64map_get(pids, v, &unused);
}

/* ---- what earlier inputs hold in the output ---- */

/* Their GPU blocks (device ids and GPU pids, [lo, hi)), every other integer pid (a set: a
 * trace may hold many), string pids. */
typedef struct taken {
    int64_t (*blocks)[2];
    size_t n_blocks, cap_blocks;
    pf_i64map pids;
    cb_str_pid *s;
    size_t ns, caps;
} taken;

static int is_taken(const taken *tk, int64_t v)
{
    for (size_t i = 0; i < tk->n_blocks; i++)
        if (v >= tk->blocks[i][0] && v < tk->blocks[i][1])
            return 1;
    return pid_taken(&tk->pids, v);
}

static int is_gpu_slot(const cb_input *in, int64_t pid)
{
    return pid >= 0 && pid < in->gpu_slots;
}

/* Whether the input's GPU block, moved by shift, meets anything given out: another block,
 * or (for the GPU pids it has) a pid. */
static int block_clashes(const cb_input *in, const taken *tk, int64_t shift)
{
    int64_t lo = shift, hi = shift + in->gpu_slots;
    for (size_t i = 0; i < tk->n_blocks; i++)
        if (lo < tk->blocks[i][1] && tk->blocks[i][0] < hi)
            return 1;
    for (size_t i = 0; i < in->u.n_pids; i++)
        if (is_gpu_slot(in, in->u.pids[i].from) && pid_taken(&tk->pids, in->u.pids[i].from + shift))
            return 1;
    return 0;
}

/* The device shift: 0 when the input's GPU block (ids 0 .. max(15, largest device)) meets
 * nothing given out, else the first shift from the end of the earlier blocks that does not. */
static int plan_devices(cb_input *in, taken *tk, int64_t *dev_end, pf_error *err)
{
    in->gpu_slots = in->u.max_dev + 1 > GPU_PID_SLOTS ? in->u.max_dev + 1 : GPU_PID_SLOTS;
    in->dev_shift = 0;
    if (block_clashes(in, tk, 0))
        for (in->dev_shift = *dev_end; block_clashes(in, tk, in->dev_shift);)
            in->dev_shift++;
    if (in->u.max_dev + in->dev_shift > CB_MAX_DEVICE)
        return pf_fail(err, "%s: too many devices to combine (device ids above %d)", in->path, CB_MAX_DEVICE);
    if (in->dev_shift + in->gpu_slots > *dev_end)
        *dev_end = in->dev_shift + in->gpu_slots;
    if (cb_grow((void **)&tk->blocks, &tk->cap_blocks, tk->n_blocks + 1, sizeof *tk->blocks))
        return pf_fail(err, "out of memory");
    tk->blocks[tk->n_blocks][0] = in->dev_shift;
    tk->blocks[tk->n_blocks][1] = in->dev_shift + in->gpu_slots;
    tk->n_blocks++;
    return 0;
}

/* GPU pids move with the devices; other pids move only when taken, to p + k * step (then
 * further by n * step until free). */
static int plan_int_pids(cb_input *in, int k, int n, taken *tk, pf_error *err)
{
    for (size_t i = 0; i < in->u.n_pids; i++) {
        cb_int_pid *p = &in->u.pids[i];
        int bad = 0;
        if (is_gpu_slot(in, p->from)) {
            p->to = p->from + in->dev_shift;
        } else if (is_taken(tk, p->from)) {
            bad = cb_add_ok(p->from, k * HOST_PID_STEP, &p->to);
            while (!bad && (is_taken(tk, p->to) || pf_cb_find_pid(&in->u, p->to)))
                bad = cb_add_ok(p->to, n * HOST_PID_STEP, &p->to);
        }
        if (bad)
            return pf_fail(err, "%s: pid %lld is too large to move", in->path, (long long)p->from);
        int added;
        if (pf_i64map_find_or_add(&tk->pids, p->to, 0, &added) < 0)
            return pf_fail(err, "out of memory");
    }
    return 0;
}

static int str_taken(const taken *tk, const char *t, size_t len)
{
    for (size_t i = 0; i < tk->ns; i++)
        if (cb_str_pid_eq(&tk->s[i], t, len))
            return 1;
    return 0;
}

/* A taken string pid "Spans" of input K becomes "Spans [K]" (again until free). A pid that
 * is a number but no int64 (441.5, 1e3, -9223372036854775808) is kept as text the same way:
 * 441.5 becomes the string "441.5 [K]" (a number's text needs no escapes). */
static int plan_str_pids(cb_input *in, int k, taken *tk)
{
    for (size_t i = 0; i < in->u.n_spids; i++) {
        cb_str_pid *p = &in->u.spids[i];
        const char *t = p->text;
        size_t len = p->len;
        while (str_taken(tk, t, len)) {
            char *nt = malloc(len + 24);
            if (!nt)
                return -1;
            int quoted = t[0] == '"';
            len = (size_t)snprintf(nt, len + 24, "\"%.*s [%d]\"", (int)(quoted ? len - 2 : len), t + quoted, k + 1);
            free(p->to);
            p->to = nt;
            t = nt;
        }
        if (cb_grow((void **)&tk->s, &tk->caps, tk->ns + 1, sizeof *tk->s))
            return -1;
        tk->s[tk->ns++] = (cb_str_pid){t, len, NULL};
    }
    return 0;
}

/* Ids of a later input start above every earlier one when the ranges overlap. */
static int plan_ids(cb_input *in, int k, int64_t *id_end, pf_error *err)
{
    int64_t end = 0;
    in->id_shift = k > 0 && in->u.has_ids && in->u.min_id < *id_end ? *id_end : 0;
    if (in->u.has_ids && (cb_add_ok(in->u.max_id, in->id_shift, &end) || cb_add_ok(end, 1, &end)))
        return pf_fail(err, "%s: ids too large to move above the earlier inputs'", in->path);
    if (in->u.has_ids && end > *id_end)
        *id_end = end;
    return 0;
}

/* ts move to the first input's base time; the tag names the input and its rank. */
static int plan_time_and_tag(cb_input *in, const cb_input *first, int k, pf_error *err)
{
    in->ts_shift_ns = 0;
    if (in->has_base && first->has_base && __builtin_sub_overflow(in->base_ns, first->base_ns, &in->ts_shift_ns))
        return pf_fail(err, "%s: baseTimeNanoseconds too far from the first input's", in->path);
    int o = snprintf(in->source, sizeof in->source, "{\"input\": %d", k + 1);
    if (in->has_rank)
        o += snprintf(in->source + o, sizeof in->source - (size_t)o, ", \"rank\": %lld", (long long)in->rank);
    snprintf(in->source + o, sizeof in->source - (size_t)o, "}");
    return 0;
}

int pf_cb_plan(cb_run *c)
{
    taken tk = {0};
    int64_t dev_end = 0, id_end = 0;
    int rc = 0;
    for (int k = 0; k < c->n && rc == 0; k++) {
        cb_input *in = &c->in[k];
        rc = plan_devices(in, &tk, &dev_end, c->err);
        if (rc == 0)
            rc = plan_int_pids(in, k, c->n, &tk, c->err);
        if (rc == 0 && plan_str_pids(in, k, &tk))
            rc = pf_fail(c->err, "out of memory");
        if (rc == 0)
            rc = plan_ids(in, k, &id_end, c->err);
        if (rc == 0)
            rc = plan_time_and_tag(in, &c->in[0], k, c->err);
    }
    free(tk.blocks);
    pf_i64map_free(&tk.pids);
    free(tk.s);
    return rc;
}
