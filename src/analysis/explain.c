/* explain.c - --explain's engine: finds the first invocation of an op or kernel and works out its inputs, its formula's expression and the figures and rates the analysis gives it. */
#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "profana/explain.h"
#include "profana/rates.h"

/* 1 when the ops' recorded inputs are the same: shapes, types and concrete values. */
static int same_inputs(const pf_op_call *a, const pf_op_call *b)
{
    if (a->nargs != b->nargs)
        return 0;
    for (int i = 0; i < a->nargs; i++) {
        const pf_arg *x = &a->args[i], *y = &b->args[i];
        if (x->ndim != y->ndim || x->is_list != y->is_list || x->list_numel != y->list_numel ||
            strcmp(x->type, y->type) != 0 || strcmp(x->concrete, y->concrete) != 0)
            return 0;
        for (int d = 0; d < x->ndim && d < PF_MAX_DIMS; d++)
            if (x->dims[d] != y->dims[d])
                return 0;
    }
    return 1;
}

/* The first invocation of the op named name that launched GPU activity. Returns 1 when the
 * op is in the trace (e->op set, or -1 when none of its invocations launched anything). */
static int find_op(pf_invocation *e, const char *name)
{
    const pf_trace *t = e->t;
    unsigned char *launched = calloc(t->n_ops ? t->n_ops : 1, 1);
    if (!launched)
        return -1;
    for (size_t i = 0; i < t->n_acts; i++)
        if (t->acts[i].op >= 0)
            launched[t->acts[i].op] = 1;
    e->op = -1;
    for (size_t i = 0; i < t->n_ops; i++) {
        if (strcmp(t->ops[i].name, name) != 0)
            continue;
        e->matches++;
        if (e->op < 0 && launched[i]) {
            e->op = (int32_t)i;
            e->rank = e->matches;
            e->name = t->ops[i].name;
        }
    }
    free(launched);
    if (e->op >= 0)
        for (size_t i = 0; i < t->n_ops; i++)
            e->same_inputs += (int32_t)i != e->op && t->ops[i].name == e->name &&
                              same_inputs(&t->ops[i].call, &t->ops[e->op].call);
    return e->matches > 0;
}

/* Counts the distinct names among the launches matching (up to PF_INV_MAX_NAMES: more are
 * reported as that many); names are interned, so pointers tell them apart. */
typedef struct name_set {
    const char *names[PF_INV_MAX_NAMES];
    size_t n;
} name_set;

static void name_set_add(name_set *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->names[i] == name)
            return;
    if (s->n < PF_INV_MAX_NAMES)
        s->names[s->n++] = name;
}

/* The first launch of a kernel (or memcpy/memset) whose name is query, or else contains it.
 * Returns 1 when found, 0 when none, -2 when the part is in several names (in *names). */
static int find_kernel(pf_invocation *e, const char *query, name_set *names)
{
    const pf_trace *t = e->t;
    for (int pass = 0; pass < 2; pass++) {
        e->matches = 0;
        names->n = 0;
        for (size_t i = 0; i < t->n_acts; i++) {
            const char *k = t->acts[i].name;
            if (pass == 0 ? strcmp(k, query) != 0 : !strstr(k, query))
                continue;
            if (!e->matches++) {
                e->act = i;
                e->name = k;
            }
            name_set_add(names, k);
        }
        if (e->matches) {
            e->kind = pass == 0 ? PF_INV_KERNEL : PF_INV_KERNEL_PART;
            e->rank = 1;
            e->op = t->acts[e->act].op;
            return names->n > 1 ? -2 : 1;
        }
    }
    return 0;
}

static int contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return 0;
}

/* Adds name to the hint list unless it is there or the list is full. */
static void add_hint(const char **hints, int *n, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (hints[i] == name)
            return;
    if (*n < PF_INV_HINTS)
        hints[(*n)++] = name;
}

/* Names worth suggesting for a query: either contains the other, in any case ("ATEN::MM",
 * "aten::mm_"). */
static int close_name(const char *name, const char *query)
{
    return contains_nocase(name, query) || contains_nocase(query, name);
}

/* Close names for a query that matches nothing: ops first, then kernels. */
static void no_match(pf_invocation *e, const char *query)
{
    const pf_trace *t = e->t;
    e->found = PF_INV_NO_MATCH;
    for (size_t i = 0; i < t->n_ops && e->n_hints < PF_INV_HINTS; i++)
        if (close_name(t->ops[i].name, query))
            add_hint(e->hints, &e->n_hints, t->ops[i].name);
    for (size_t i = 0; i < t->n_acts && e->n_hints < PF_INV_HINTS; i++)
        if (close_name(t->acts[i].name, query))
            add_hint(e->hints, &e->n_hints, t->acts[i].name);
}

/* A part of several kernel names: how many, and the first few. */
static void ambiguous(pf_invocation *e, const name_set *names)
{
    e->found = PF_INV_AMBIGUOUS;
    e->n_names = names->n;
    for (size_t i = 0; i < names->n && i < PF_INV_HINTS; i++)
        e->hints[e->n_hints++] = names->names[i];
}

/* Matches the query: an op exactly, a kernel exactly, or part of exactly one kernel name.
 * Returns 0 with e->found set, or -1 when memory runs out. */
static int find_invocation(pf_invocation *e, const char *query)
{
    int rc = find_op(e, query);
    if (rc < 0)
        return -1;
    if (rc > 0) {
        e->found = e->op < 0 ? PF_INV_NOT_LAUNCHED : PF_INV_FOUND;
        return 0;
    }
    name_set *names = malloc(sizeof *names);
    if (!names)
        return -1;
    rc = find_kernel(e, query, names);
    if (rc == -2)
        ambiguous(e, names);
    free(names);
    if (rc == 0)
        no_match(e, query);
    return 0;
}

/* The invocation's activities (the matched one alone when it has no op), their work as
 * the analysis attributes it, and the kernels that carry the op's work. */
static int collect_activities(pf_invocation *e)
{
    const pf_trace *t = e->t;
    pf_share *shares = pf_work_shares(t, pf_work_threads(t, e->opts.jobs));
    e->acts = malloc((t->n_acts ? t->n_acts : 1) * sizeof *e->acts);
    if (!shares || !e->acts) {
        free(shares);
        return -1;
    }
    e->carrier = -1;
    for (size_t i = 0; i < t->n_acts; i++)
        if (e->op >= 0 ? t->acts[i].op == e->op : i == e->act)
            e->acts[e->n_acts++] = i;
    e->work = calloc(e->n_acts, sizeof *e->work);
    e->carries = calloc(e->n_acts, 1);
    e->shares = calloc(e->n_acts, sizeof *e->shares);
    if (!e->work || !e->carries || !e->shares) {
        free(shares);
        return -1;
    }
    for (size_t k = 0; k < e->n_acts; k++) {
        size_t i = e->acts[k];
        e->shares[k] = shares[i];
        e->carries[k] = (shares[i].flop > 0 || shares[i].bytes > 0) && t->acts[i].op >= 0;
        pf_work_of(t, &e->opts, i, shares[i], &e->work[k]);
        /* the first kernel with a part of the FLOPs, else the first with any part */
        if (e->carries[k] && (e->carrier < 0 || (e->shares[e->carrier].flop <= 0 && shares[i].flop > 0)))
            e->carrier = (int)k;
    }
    if (e->op >= 0 && e->kind == PF_INV_OP)
        e->act = e->acts[0];
    free(shares);
    return 0;
}

static void find_device(pf_invocation *e)
{
    const pf_activity *a = &e->t->acts[e->act];
    e->dev = pf_trace_device(e->t, a->device);
    if (e->opts.force_device)
        e->info = e->opts.force_device;
    else if (e->dev) {
        pf_device_query q = {e->dev->name, e->dev->num_sms, e->dev->total_mem, 0};
        e->info = pf_devset_lookup(e->opts.devices, &q);
    }
}

/* Applies the op's formula again with an explanation asked for; the figures are the ones the
 * analysis used (pf_work_of), the formula run only says how they came about. */
static void run_formula(pf_invocation *e)
{
    const pf_cpu_op *op = e->op >= 0 ? &e->t->ops[e->op] : NULL;
    if (!op || op->bad_args || op->kernel_flop >= 0 || op->kernel_num_gb >= 0)
        return;
    e->has_formula_run = 1;
    e->formula_rc = pf_op_figures(op, &e->opts, &e->ex, &e->fw);
}

/* The figures by the rule of an analysis row (rates.h): percent and bound from the seconds
 * the work takes at peak, summed over launches each at its own dtype's peak. */
static pf_inv_rates compute_rates(const pf_invocation *e, double flop, double bytes, double ns, double flop_peak_s,
                                  double byte_peak_s)
{
    pf_inv_rates r = {flop, bytes, ns, -1, -1, -1, -1, NULL, 0};
    if (ns <= 0)
        return r;
    r.tflops = pf_rate(flop, ns, 1e12);
    r.gbps = pf_rate(bytes, ns, 1e9);
    r.flops_pct = pf_pct_of_peak(flop_peak_s, ns);
    r.bw_pct = pf_dram_pct(byte_peak_s, ns, bytes, e->info, &r.cache_served);
    r.bound = pf_bound(flop_peak_s, byte_peak_s);
    return r;
}

/* Seconds at peak of one launch's work, as an analysis row adds them. */
static double flop_at_peak(const pf_invocation *e, const pf_act_work *w)
{
    return pf_at_peak_s(w->flop, pf_peak_flops(e->info, w->dtype));
}

static double bytes_at_peak(const pf_invocation *e, const pf_act_work *w)
{
    return pf_at_peak_s(w->bytes, pf_peak_bytes(e->info));
}

/* Adds x to *sum when both are known; an unknown x makes the sum unknown. */
static void add_known(double *sum, double x)
{
    *sum = *sum < 0 || x < 0 ? -1 : *sum + x;
}

/* Whether activity k counts toward the carrier's rate: it carries a part of the op's work
 * and, when the op's FLOPs are on some kernels, a part of its FLOPs. */
static int counts_for_carrier(const pf_invocation *e, size_t k)
{
    int by_flop = e->shares[e->carrier].flop > 0;
    return e->carries[k] && (!by_flop || e->shares[k].flop > 0);
}

/* The rates over the invocation's activities that `in` admits (NULL: all of them), each at
 * its own dtype's peak, as an analysis row adds them. */
static pf_inv_rates rates_over(const pf_invocation *e, int (*in)(const pf_invocation *, size_t))
{
    double flop = 0, bytes = 0, ns = 0, flop_s = 0, byte_s = 0;
    for (size_t k = 0; k < e->n_acts; k++) {
        if (in && !in(e, k))
            continue;
        ns += (double)e->t->acts[e->acts[k]].dur_ns;
        add_known(&flop, e->work[k].flop);
        add_known(&bytes, e->work[k].bytes);
        add_known(&flop_s, flop_at_peak(e, &e->work[k]));
        add_known(&byte_s, bytes_at_peak(e, &e->work[k]));
    }
    return compute_rates(e, flop, bytes, ns, flop_s, byte_s);
}

/* Over the kernels that carry the op's FLOPs (all that carry a part of its work when its
 * FLOPs are on none): with the work split by time, each of them runs at this rate. */
static pf_inv_rates carrier_rates(const pf_invocation *e)
{
    return rates_over(e, counts_for_carrier);
}

/* Over all the invocation's activities, as its --group op row counts them. */
static pf_inv_rates invocation_rates(const pf_invocation *e)
{
    return rates_over(e, NULL);
}

/* The op's work: what its carrying kernel holds as the analysis attributes it. An op that
 * launched no kernel (a copy_ done by a memcpy) carries none: its formula's figures then,
 * with the peak dtype chosen as attribute.c chooses it (DTYPE when unknown, --tf32). */
static pf_act_work op_work(const pf_invocation *e)
{
    if (e->carrier >= 0) { /* the whole op's, not the carrier's share of it */
        pf_act_work w = e->work[e->carrier];
        w.flop = w.op_flop;
        w.bytes = w.op_bytes;
        w.elsewhere = 0;
        return w;
    }
    if (!e->has_formula_run || e->formula_rc != PF_FORMULA_OK)
        return e->work[0];
    pf_act_work w = {.flop = e->fw.flop, .bytes = e->fw.bytes, .dtype = e->fw.dtype, .source = e->fw.source,
                     .upper_bound = e->fw.upper_bound};
    w.dtype = pf_peak_dtype(w.dtype, e->fw.matrix, e->opts.default_dtype, e->opts.tf32);
    return w;
}

static const char *formula_status(const pf_invocation *e)
{
    const pf_cpu_op *op = e->op >= 0 ? &e->t->ops[e->op] : NULL;
    /* the matched kernel, replayed from a graph whose capture was not given */
    if (e->n_acts > 0 && e->work[0].graph_replay && e->kind != PF_INV_OP)
        return "none: CUDA-graph replay: record its capture and pass --graph-capture";
    if (!op)
        return "no launching op";
    if (op->bad_args)
        return "bad-args: the op's args could not be read";
    if (!e->has_formula_run)
        return "inductor: the launch's own kernel_flop / kernel_num_gb";
    if (op->call.nargs == 0 && e->n_acts > 0 && e->work[0].compiled_region)
        return "none: torch.compile region (it records no shapes; its kernels' own figures need their launches)";
    if (op->call.nargs == 0)
        return "none: the trace recorded no input shapes (record_shapes off)";
    switch (e->formula_rc) {
    case PF_FORMULA_OK:
        return "ok";
    case PF_FORMULA_MISMATCH:
        return "mismatch: the shapes do not fit the op (no figures)";
    case PF_FORMULA_BAD_ARGS:
        return "bad-args: arguments missing or unreadable (no figures)";
    case PF_FORMULA_UNRECORDED:
        return "unrecorded: the trace does not record what the formula needs (no figures)";
    default:
        return "none: no tensor argument to estimate from";
    }
}

static const char *family_of(const pf_invocation *e)
{
    const pf_formula *f = e->op >= 0 ? pf_formula_lookup(e->t->ops[e->op].name) : NULL;
    const pf_cpu_op *op = e->op >= 0 ? &e->t->ops[e->op] : NULL;
    /* the op launched a graph: its formula (or guess) is not the kernels' */
    if (e->n_acts > 0 && e->work[0].graph_replay)
        return "-";
    if (op && !op->bad_args && !e->has_formula_run)
        return "inductor";
    if (f)
        return f->family;
    if (e->has_formula_run && e->fw.source && strncmp(e->fw.source, "triton", 6) == 0)
        return e->fw.lower_bound ? "Inductor Triton launch, its module not read (a lower bound)"
                                 : "Inductor Triton launch, read from its module";
    return e->has_formula_run && e->fw.source ? "no formula (generic guess)" : "-";
}

/* ---- the whole ---- */

/* The figures said about a found invocation. */
static void work_out(pf_invocation *e)
{
    find_device(e);
    run_formula(e);
    e->family = family_of(e);
    e->status = formula_status(e);
    e->op_work = op_work(e);
    e->peak_flops = pf_peak_flops(e->info, e->op_work.dtype);
    if (e->carrier >= 0)
        e->carrier_rates = carrier_rates(e);
    e->total_rates = invocation_rates(e);
}

int pf_invocation_find(const pf_trace *t, const pf_analysis_opts *o, const char *query, pf_invocation *inv,
                       pf_error *err)
{
    assert(t && o && query && inv);
    *inv = (pf_invocation){.t = t, .opts = *o, .query = query, .op = -1, .carrier = -1};
    if (find_invocation(inv, query))
        return pf_fail(err, "out of memory");
    if (inv->found != PF_INV_FOUND)
        return 0;
    if (collect_activities(inv)) {
        pf_invocation_free(inv);
        return pf_fail(err, "out of memory");
    }
    assert(inv->n_acts > 0 && inv->act < t->n_acts);
    work_out(inv);
    return 0;
}

void pf_invocation_free(pf_invocation *inv)
{
    free(inv->acts);
    free(inv->work);
    free(inv->carries);
    free(inv->shares);
    inv->acts = NULL;
    inv->work = NULL;
    inv->carries = NULL;
    inv->shares = NULL;
    inv->n_acts = 0;
}
