/* cmd_explain.c - `--analysis FILE DTYPE --explain NAME`: one invocation of an op or kernel, the inputs its formula read, the expression it applied and the figures it gave. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/cli.h"
#include "profana/rates.h"

/* How NAME found the invocation: an op name, a whole kernel name, or part of one. */
typedef enum match_kind { M_OP = 0, M_KERNEL, M_KERNEL_PART } match_kind;

static const char *const match_names[] = {"op", "kernel", "kernel-substring"};

/* The invocation being explained and everything said about it. */
typedef struct explain {
    const pf_cli *cli;
    const pf_trace *t;
    match_kind kind;
    const char *name;          /* the op or kernel name matched (interned) */
    size_t act;                /* the matched launch, or the op's first activity */
    int32_t op;                /* the invocation's cpu_op; -1 for an activity with none */
    size_t rank, matches;      /* its place among the matches (file order), and their number */
    size_t same_inputs;        /* other invocations of the op with the same inputs */
    size_t *acts;              /* the invocation's activities in file order */
    size_t n_acts;
    pf_act_work *work;         /* parallel to acts, as the analysis attributes them */
    unsigned char *carries;    /* parallel to acts: carries the op's work */
    int carrier;               /* index into acts of the kernel with the op's work; -1 none */
    const pf_device *dev;
    const pf_device_info *info;
    int has_formula_run;       /* the formula was applied (not Inductor, args readable) */
    int formula_rc;
    pf_work fw;
    pf_explain ex;
} explain;

/* ---- finding the invocation ---- */

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
static int find_op(explain *e, const char *name)
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

enum { MAX_NAMES = 1000 };

/* Counts the distinct names among the launches matching (up to MAX_NAMES: more are
 * reported as that many); names are interned, so pointers tell them apart. */
typedef struct name_set {
    const char *names[MAX_NAMES];
    size_t n;
} name_set;

static void name_set_add(name_set *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->names[i] == name)
            return;
    if (s->n < MAX_NAMES)
        s->names[s->n++] = name;
}

/* The first launch of a kernel (or memcpy/memset) whose name is query, or else contains it.
 * Returns 1 when found, 0 when none, -2 when the part is in several names (in *names). */
static int find_kernel(explain *e, const char *query, name_set *names)
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
            e->kind = pass == 0 ? M_KERNEL : M_KERNEL_PART;
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

enum { HINTS = 4, HINT_CHARS = 60 };

/* Adds name to the hint list unless it is there or the list is full. */
static void add_hint(const char **hints, int *n, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (hints[i] == name)
            return;
    if (*n < HINTS)
        hints[(*n)++] = name;
}

/* Names worth suggesting for a query: either contains the other, in any case ("ATEN::MM",
 * "aten::mm_"). */
static int close_name(const char *name, const char *query)
{
    return contains_nocase(name, query) || contains_nocase(query, name);
}

/* The error for a name that matches nothing, with close names. */
static int no_match(const explain *e, const char *query)
{
    const pf_trace *t = e->t;
    const char *hints[HINTS];
    int n = 0;
    for (size_t i = 0; i < t->n_ops && n < HINTS; i++)
        if (close_name(t->ops[i].name, query))
            add_hint(hints, &n, t->ops[i].name);
    for (size_t i = 0; i < t->n_acts && n < HINTS; i++)
        if (close_name(t->acts[i].name, query))
            add_hint(hints, &n, t->acts[i].name);
    fprintf(stderr, "profana: error: %s: --explain '%s': no op or kernel of that name", t->path, query);
    for (int i = 0; i < n; i++)
        fprintf(stderr, "%s'%.*s%s'", i ? ", " : "; close: ", HINT_CHARS, hints[i],
                strlen(hints[i]) > HINT_CHARS ? "..." : "");
    fputc('\n', stderr);
    return PF_EXIT_TRACE;
}

/* The error for a part of several kernel names: how many, and the first few. */
static void ambiguous(const explain *e, const char *query, const name_set *names)
{
    fprintf(stderr, "profana: error: %s: --explain '%s' is part of %s%zu kernel names (", e->t->path, query,
            names->n == MAX_NAMES ? "at least " : "", names->n);
    for (size_t i = 0; i < names->n && i < HINTS; i++)
        fprintf(stderr, "%s'%.*s%s'", i ? ", " : "", HINT_CHARS, names->names[i],
                strlen(names->names[i]) > HINT_CHARS ? "..." : "");
    fprintf(stderr, "%s): give a whole name\n", names->n > HINTS ? ", ..." : "");
}

/* Matches NAME: an op exactly, a kernel exactly, or part of exactly one kernel name. */
static int find_invocation(explain *e, const char *query)
{
    int rc = find_op(e, query);
    if (rc < 0)
        return pf_cli_error("out of memory");
    if (rc > 0 && e->op < 0) {
        fprintf(stderr, "profana: error: %s: --explain '%s': %zu invocations, none launched GPU activity itself "
                        "(its kernels link to the ops it calls)\n", e->t->path, query, e->matches);
        return PF_EXIT_TRACE;
    }
    if (rc > 0)
        return PF_EXIT_OK;
    name_set *names = malloc(sizeof *names);
    if (!names)
        return pf_cli_error("out of memory");
    rc = find_kernel(e, query, names);
    if (rc == -2)
        ambiguous(e, query, names);
    free(names);
    if (rc == 0)
        return no_match(e, query);
    return rc == -2 ? PF_EXIT_TRACE : PF_EXIT_OK;
}

/* ---- what the analysis makes of it ---- */

/* The invocation's activities (the matched one alone when it has no op), their work as
 * the analysis attributes it, and the kernel that carries the op's work. */
static int collect_activities(explain *e)
{
    const pf_trace *t = e->t;
    unsigned char *carrier = pf_work_carriers(t);
    e->acts = malloc((t->n_acts ? t->n_acts : 1) * sizeof *e->acts);
    if (!carrier || !e->acts) {
        free(carrier);
        return -1;
    }
    e->carrier = -1;
    for (size_t i = 0; i < t->n_acts; i++)
        if (e->op >= 0 ? t->acts[i].op == e->op : i == e->act)
            e->acts[e->n_acts++] = i;
    e->work = calloc(e->n_acts, sizeof *e->work);
    e->carries = calloc(e->n_acts, 1);
    if (!e->work || !e->carries) {
        free(carrier);
        return -1;
    }
    for (size_t k = 0; k < e->n_acts; k++) {
        size_t i = e->acts[k];
        e->carries[k] = carrier[i] && t->acts[i].op >= 0;
        pf_work_of(t, &e->cli->an, i, carrier[i], &e->work[k]);
        if (e->carries[k])
            e->carrier = (int)k;
    }
    if (e->op >= 0 && e->kind == M_OP)
        e->act = e->acts[0];
    free(carrier);
    return 0;
}

static void find_device(explain *e)
{
    const pf_activity *a = &e->t->acts[e->act];
    e->dev = pf_trace_device(e->t, a->device);
    if (e->cli->an.force_device)
        e->info = e->cli->an.force_device;
    else if (e->dev)
        e->info = pf_devices_match(e->dev->name, e->dev->num_sms, e->dev->total_mem);
}

/* Applies the op's formula again with an explanation asked for; the figures are the ones the
 * analysis used (pf_work_of), the formula run only says how they came about. */
static void run_formula(explain *e)
{
    const pf_cpu_op *op = e->op >= 0 ? &e->t->ops[e->op] : NULL;
    if (!op || op->bad_args || op->kernel_flop >= 0 || op->kernel_num_gb >= 0)
        return;
    e->has_formula_run = 1;
    e->formula_rc = pf_formula_apply_ex(&op->call, e->cli->an.default_dtype, &e->ex, &e->fw);
}

/* ---- rendering ---- */

/* A figure in full: integers as such, others with 6 significant digits. */
static void fmt_figure(char *buf, size_t n, double v)
{
    if (v == (double)(long long)v && v < 9e15)
        snprintf(buf, n, "%lld", (long long)v);
    else
        snprintf(buf, n, "%.6g", v);
}

static void fmt_shape(char *buf, size_t n, const pf_arg *a)
{
    size_t len = 0;
    buf[0] = 0;
    if (a->is_list) {
        snprintf(buf, n, "list of %lld elements", (long long)a->list_numel);
        return;
    }
    if (a->ndim == 0 && pf_type_size(a->type) <= 0)
        return;
    len += (size_t)snprintf(buf + len, n - len, "[");
    for (int d = 0; d < a->ndim && d < PF_MAX_DIMS && len < n; d++)
        len += (size_t)snprintf(buf + len, n - len, d ? ", %lld" : "%lld", (long long)a->dims[d]);
    if (len < n)
        snprintf(buf + len, n - len, "]");
}

enum { I_ARG, I_SHAPE, I_TYPE, I_CONCRETE, I_NCOLS };

static const pf_col input_cols[I_NCOLS] = {
    [I_ARG] = {"Arg", "arg", 1, 0},
    [I_SHAPE] = {"Input Dims", "shape", 0, 0},
    [I_TYPE] = {"Input type", "type", 0, 0},
    [I_CONCRETE] = {"Concrete Inputs", "concrete", 0, 0},
};

static pf_table *inputs_table(const pf_op_call *call)
{
    pf_table *t = pf_table_new(input_cols, I_NCOLS);
    for (int i = 0; t && i < call->nargs; i++) {
        char shape[256];
        int r = pf_table_add_row(t);
        fmt_shape(shape, sizeof shape, &call->args[i]);
        pf_table_int(t, r, I_ARG, i);
        pf_table_str(t, r, I_SHAPE, shape);
        pf_table_str(t, r, I_TYPE, call->args[i].type);
        pf_table_str(t, r, I_CONCRETE, call->args[i].concrete);
    }
    return t;
}

enum { A_NAME, A_KIND, A_STREAM, A_START, A_DUR, A_GFLOP, A_GB, A_FLOP, A_BYTES, A_WORK, A_NCOLS };

static const pf_col act_cols[A_NCOLS] = {
    [A_NAME] = {"Name", "name", 0, 0},
    [A_KIND] = {"Kind", "kind", 0, 0},
    [A_STREAM] = {"Stream", "stream", 1, 0},
    [A_START] = {"Start (us)", "ts_us", 1, 0},
    [A_DUR] = {"Dur (us)", "dur_us", 1, 0},
    [A_GFLOP] = {"GFLOP", NULL, 1, PF_IN_TEXT | PF_IN_CSV},
    [A_GB] = {"GB", NULL, 1, PF_IN_TEXT | PF_IN_CSV},
    [A_FLOP] = {"FLOP", "flop", 1, PF_IN_JSON},
    [A_BYTES] = {"Bytes", "bytes", 1, PF_IN_JSON},
    [A_WORK] = {"Work", "work", 0, 0},
};

static const char *const kind_names[] = {"kernel", "memcpy", "memset"};

static const char *work_text(const explain *e, size_t k)
{
    const pf_activity *a = &e->t->acts[e->acts[k]];
    if (a->kind != PF_ACT_KERNEL)
        return "its own bytes (args.bytes)";
    if (a->op < 0)
        return "none: no launching op";
    if (e->carries[k])
        return "carries the op's work (its longest kernel)";
    return "none: the op's work is on its longest kernel";
}

static pf_table *activities_table(const explain *e)
{
    pf_table *t = pf_table_new(act_cols, A_NCOLS);
    for (size_t k = 0; t && k < e->n_acts; k++) {
        const pf_activity *a = &e->t->acts[e->acts[k]];
        const pf_act_work *w = &e->work[k];
        int r = pf_table_add_row(t);
        pf_table_str(t, r, A_KIND, kind_names[a->kind]);
        pf_table_str(t, r, A_NAME, a->name);
        pf_table_int(t, r, A_STREAM, a->stream);
        pf_table_num(t, r, A_START, a->ts_ns / 1e3, 3);
        pf_table_num(t, r, A_DUR, a->dur_ns / 1e3, 3);
        if (w->flop >= 0) {
            pf_table_num(t, r, A_GFLOP, w->flop / 1e9, 6);
            pf_table_num(t, r, A_FLOP, w->flop, 0);
        }
        if (w->bytes >= 0) {
            pf_table_num(t, r, A_GB, w->bytes / 1e9, 6);
            pf_table_num(t, r, A_BYTES, w->bytes, 0);
        }
        pf_table_str(t, r, A_WORK, work_text(e, k));
    }
    return t;
}

/* Achieved rates and percentages of some figures over some time; < 0 = unknown. */
typedef struct rates {
    double flop, bytes, ns;
    double tflops, gbps, flops_pct, bw_pct;
    const char *bound;
} rates;

/* The figures are measured against one peak (dtype's), and say a bound only on a device
 * with both peaks and only over some time. */
static rates compute_rates(const explain *e, double flop, double bytes, double ns, pf_dtype dtype)
{
    rates r = {flop, bytes, ns, -1, -1, -1, -1, NULL};
    double peak = pf_peak_flops(e->info, dtype), bw = pf_peak_bytes(e->info);
    if (ns <= 0)
        return r;
    r.tflops = pf_rate(flop, ns, 1e12, PF_RATE_DIVIDE);
    r.gbps = pf_rate(bytes, ns, 1e9, PF_RATE_DIVIDE);
    r.flops_pct = pf_pct_of_peak(flop, peak, ns, PF_RATE_DIVIDE);
    r.bw_pct = pf_pct_of_peak(bytes, bw, ns, PF_RATE_DIVIDE);
    if (peak > 0 && bw > 0)
        r.bound = pf_bound(pf_at_peak_s(flop, peak), pf_at_peak_s(bytes, bw));
    return r;
}

/* The rates on the kernel that carries the op's work, as --group kernel counts them. */
static rates carrier_rates(const explain *e)
{
    const pf_act_work *w = &e->work[e->carrier];
    return compute_rates(e, w->flop, w->bytes, (double)e->t->acts[e->acts[e->carrier]].dur_ns, w->dtype);
}

/* Over all the invocation's activities, as its --group op row counts them. */
static rates invocation_rates(const explain *e)
{
    double flop = 0, bytes = 0, ns = 0;
    int flop_known = 1, bytes_known = 1;
    for (size_t k = 0; k < e->n_acts; k++) {
        ns += (double)e->t->acts[e->acts[k]].dur_ns;
        flop_known &= e->work[k].flop >= 0;
        bytes_known &= e->work[k].bytes >= 0;
        flop += e->work[k].flop;
        bytes += e->work[k].bytes;
    }
    pf_dtype dt = e->carrier >= 0 ? e->work[e->carrier].dtype : e->cli->an.default_dtype;
    return compute_rates(e, flop_known ? flop : -1, bytes_known ? bytes : -1, ns, dt);
}

/* The op's work: what its carrying kernel holds as the analysis attributes it. An op that
 * launched no kernel (a copy_ done by a memcpy) carries none: its formula's figures then,
 * with the peak dtype chosen as attribute.c chooses it (DTYPE when unknown, --tf32). */
static pf_act_work op_work(const explain *e)
{
    if (e->carrier >= 0 || !e->has_formula_run || e->formula_rc != PF_FORMULA_OK)
        return e->work[e->carrier >= 0 ? e->carrier : 0];
    pf_act_work w = {.flop = e->fw.flop, .bytes = e->fw.bytes, .dtype = e->fw.dtype, .source = e->fw.source,
                     .upper_bound = e->fw.upper_bound};
    w.dtype = pf_peak_dtype(w.dtype, e->fw.matrix, e->cli->an.default_dtype, e->cli->an.tf32);
    return w;
}

static const char *formula_status(const explain *e)
{
    const pf_cpu_op *op = e->op >= 0 ? &e->t->ops[e->op] : NULL;
    if (!op)
        return "no launching op";
    if (op->bad_args)
        return "bad-args: the op's args could not be read";
    if (!e->has_formula_run)
        return "inductor: the launch's own kernel_flop / kernel_num_gb";
    if (op->call.nargs == 0)
        return "none: the trace recorded no input shapes (record_shapes off)";
    switch (e->formula_rc) {
    case PF_FORMULA_OK:
        return "ok";
    case PF_FORMULA_MISMATCH:
        return "mismatch: the shapes do not fit the op (no figures)";
    case PF_FORMULA_BAD_ARGS:
        return "bad-args: arguments missing or unreadable (no figures)";
    default:
        return "none: no tensor argument to estimate from";
    }
}

static const char *family_of(const explain *e)
{
    const pf_formula *f = e->op >= 0 ? pf_formula_lookup(e->t->ops[e->op].name) : NULL;
    const pf_cpu_op *op = e->op >= 0 ? &e->t->ops[e->op] : NULL;
    if (op && !op->bad_args && !e->has_formula_run)
        return "inductor";
    if (f)
        return f->family;
    return e->has_formula_run && e->fw.source ? "no formula (estimate)" : "-";
}

/* ---- text ---- */

static void print_pct(FILE *out, const char *label, double v, double pct, int decimals, const char *unit,
                      const char *of)
{
    if (v < 0) {
        fprintf(out, "%s -", label);
        return;
    }
    fprintf(out, "%s %.*f %s", label, decimals, v, unit);
    if (pct >= 0)
        fprintf(out, " (%.1f%%%s of %s)", pct, pct > 100 ? "!" : "", of);
}

static void print_rates(FILE *out, const char *lead, const rates *r, pf_dtype dt)
{
    char of[64];
    snprintf(of, sizeof of, "the %s peak", pf_dtype_name(dt));
    fprintf(out, "%s (%.3f us):", lead, r->ns / 1e3);
    print_pct(out, "", r->tflops, r->flops_pct, 2, "TFLOP/s", of);
    print_pct(out, ",", r->gbps, r->bw_pct, 1, "GB/s", "DRAM peak");
    fprintf(out, "%s%s\n", r->bound ? "; bound: " : "", r->bound ? r->bound : "");
}

static void print_match(FILE *out, const explain *e)
{
    const pf_activity *a = &e->t->acts[e->act];
    const pf_cpu_op *op = e->op >= 0 ? &e->t->ops[e->op] : NULL;
    if (e->kind == M_OP)
        fprintf(out, "Match: op %s, invocation %zu of %zu in file order (%zu others match, %zu of them with the "
                     "same inputs)\n", e->name, e->rank, e->matches, e->matches - 1, e->same_inputs);
    else
        fprintf(out, "Match: kernel %s%s, launch 1 of %zu in file order (%zu other launches of it)\n", e->name,
                e->kind == M_KERNEL_PART ? " (the only kernel name containing the query)" : "", e->matches,
                e->matches - 1);
    if (op)
        fprintf(out, "Op: %s, External id %lld, event at byte %lld of the trace\n", op->name,
                (long long)op->ext_id, (long long)op->src_off);
    else
        fputs("Op: none (the activity's External id matches no cpu_op)\n", out);
    fprintf(out, "GPU: first activity at ts %.3f us on device %d (%s, matched %s), stream %lld\n", a->ts_ns / 1e3,
            a->device, e->dev && e->dev->name[0] ? e->dev->name : "no name in trace",
            e->info ? e->info->key : "unknown", (long long)a->stream);
}

static void print_expr(FILE *out, const char *label, const char *expr, double v)
{
    char num[64];
    fmt_figure(num, sizeof num, v);
    const char *last = strrchr(expr, ' ');
    if (*expr && last && v >= 0 && strcmp(last + 1, num) == 0)
        fprintf(out, "  %s = %s\n", label, expr); /* its last number is the value already */
    else if (*expr)
        fprintf(out, "  %s = %s = %s\n", label, expr, v >= 0 ? num : "unknown");
    else
        fprintf(out, "  %s = %s\n", label, v > 0 ? num : v == 0 ? "0 (this family counts none)" : "unknown");
}

static void print_formula(FILE *out, const explain *e)
{
    const pf_cpu_op *op = e->op >= 0 ? &e->t->ops[e->op] : NULL;
    const pf_act_work ow = op_work(e), *w = &ow;
    fprintf(out, "Formula: %s", family_of(e));
    if (e->ex.module)
        fprintf(out, ", src/formulas/%s", e->ex.module);
    fprintf(out, "; status %s\n", formula_status(e));
    if (op && !e->has_formula_run && !op->bad_args)
        fprintf(out, "  kernel_flop = %.0f, kernel_num_gb = %.9g, as Inductor recorded them\n", op->kernel_flop,
                op->kernel_num_gb);
    if (e->ex.sizes[0])
        fprintf(out, "  read: %s\n", e->ex.sizes);
    if (e->has_formula_run && e->formula_rc == PF_FORMULA_OK) {
        print_expr(out, "flop ", e->ex.flop, e->fw.flop);
        print_expr(out, "bytes", e->ex.bytes, e->fw.bytes);
    }
    fprintf(out, "  peak dtype: %s", pf_dtype_name(w->dtype));
    if (e->ex.dtype_rule)
        fprintf(out, " (the type of %s; DTYPE when it has none)", e->ex.dtype_rule);
    if (e->fw.matrix)
        fprintf(out, ", matrix units%s", e->cli->an.tf32 ? " (--tf32)" : "");
    if (e->info)
        fprintf(out, "; peaks %.1f TFLOP/s, DRAM %.0f GB/s", pf_peak_flops(e->info, w->dtype) / 1e12,
                e->info->peak_gbps);
    fputc('\n', out);
}

static void print_figures(FILE *out, const explain *e)
{
    const pf_act_work ow = op_work(e), *w = &ow;
    char f[64], b[64];
    fmt_figure(f, sizeof f, w->flop);
    fmt_figure(b, sizeof b, w->bytes);
    fprintf(out, "Figures: flop %s, bytes %s, source %s%s\n", w->flop >= 0 ? f : "unknown",
            w->bytes >= 0 ? b : "unknown", w->source ? w->source : "-",
            w->upper_bound ? " (an upper bound: sized by the longest sequences)" : "");
    if (e->op >= 0 && e->carrier < 0)
        fputs("Not counted: the op launched no kernel to carry them; the analysis counts only the bytes of its "
              "memcpy/memset (args.bytes)\n", out);
}

static void print_table(FILE *out, const pf_cli *cli, const pf_table *t)
{
    if (cli->format == PF_FMT_MD)
        pf_table_print_md(out, t, cli->name_limit);
    else
        pf_table_print_text(out, t, cli->name_limit);
}

static int print_text(FILE *out, const explain *e)
{
    const pf_cpu_op *op = e->op >= 0 ? &e->t->ops[e->op] : NULL;
    fprintf(out, "Explain '%s' in %s (DTYPE %s)\n", e->cli->explain, e->t->path,
            pf_dtype_name(e->cli->an.default_dtype));
    print_match(out, e);
    if (op && op->call.nargs > 0) {
        pf_table *t = inputs_table(&op->call);
        if (!t || pf_table_status(t)) {
            pf_table_free(t);
            return -1;
        }
        fputs("\nInputs:\n", out);
        print_table(out, e->cli, t);
        pf_table_free(t);
    }
    fputc('\n', out);
    print_formula(out, e);
    print_figures(out, e);
    pf_table *t = activities_table(e);
    if (!t || pf_table_status(t)) {
        pf_table_free(t);
        return -1;
    }
    fprintf(out, "\nGPU activities of this invocation (%zu):\n", e->n_acts);
    print_table(out, e->cli, t);
    pf_table_free(t);
    fputc('\n', out);
    pf_dtype dt = op_work(e).dtype;
    if (e->carrier >= 0) {
        rates r = carrier_rates(e);
        print_rates(out, "Achieved on the kernel carrying the work", &r, dt);
    }
    rates r = invocation_rates(e);
    char lead[96];
    snprintf(lead, sizeof lead, "Over the invocation's %zu GPU activit%s", e->n_acts, e->n_acts == 1 ? "y" : "ies");
    print_rates(out, lead, &r, dt);
    return 0;
}

/* ---- JSON ---- */

static void jw_figure(pf_jw *w, const char *key, double v)
{
    pf_jw_key(w, key);
    if (v >= 0)
        pf_jw_num(w, v);
    else
        pf_jw_null(w);
}

static void json_rates(pf_jw *w, const char *key, const rates *r)
{
    pf_jw_key(w, key);
    pf_jw_obj_begin(w);
    pf_jw_key(w, "dur_us");
    pf_jw_num(w, r->ns / 1e3);
    jw_figure(w, "flop", r->flop);
    jw_figure(w, "bytes", r->bytes);
    jw_figure(w, "tflops", r->tflops);
    jw_figure(w, "gbps", r->gbps);
    jw_figure(w, "flops_pct", r->flops_pct);
    jw_figure(w, "bw_pct", r->bw_pct);
    pf_jw_key(w, "bound");
    pf_jw_str(w, r->bound);
    pf_jw_obj_end(w);
}

static void json_match(pf_jw *w, const explain *e)
{
    const pf_activity *a = &e->t->acts[e->act];
    const pf_cpu_op *op = e->op >= 0 ? &e->t->ops[e->op] : NULL;
    pf_jw_key(w, "match");
    pf_jw_str(w, match_names[e->kind]);
    pf_jw_key(w, "name");
    pf_jw_str(w, e->name);
    pf_jw_key(w, "invocation");
    pf_jw_int(w, (int64_t)e->rank);
    pf_jw_key(w, "matches");
    pf_jw_int(w, (int64_t)e->matches);
    pf_jw_key(w, "same_inputs");
    if (e->kind == M_OP)
        pf_jw_int(w, (int64_t)e->same_inputs);
    else
        pf_jw_null(w);
    pf_jw_key(w, "op");
    pf_jw_str(w, op ? op->name : NULL);
    pf_jw_key(w, "external_id");
    if (op)
        pf_jw_int(w, op->ext_id);
    else
        pf_jw_null(w);
    pf_jw_key(w, "byte_offset");
    if (op)
        pf_jw_int(w, op->src_off);
    else
        pf_jw_null(w);
    pf_jw_key(w, "ts_us");
    pf_jw_num(w, a->ts_ns / 1e3);
    pf_jw_key(w, "device");
    pf_jw_int(w, a->device);
    pf_jw_key(w, "device_name");
    pf_jw_str(w, e->dev ? e->dev->name : NULL);
    pf_jw_key(w, "matched_device");
    pf_jw_str(w, e->info ? e->info->key : NULL);
    pf_jw_key(w, "stream");
    pf_jw_int(w, a->stream);
}

static void json_str_or_null(pf_jw *w, const char *key, const char *s)
{
    pf_jw_key(w, key);
    pf_jw_str(w, s && *s ? s : NULL);
}

static void json_formula(pf_jw *w, const explain *e)
{
    const pf_cpu_op *op = e->op >= 0 ? &e->t->ops[e->op] : NULL;
    pf_jw_key(w, "formula");
    pf_jw_obj_begin(w);
    pf_jw_key(w, "family");
    pf_jw_str(w, family_of(e));
    json_str_or_null(w, "module", e->ex.module ? e->ex.module : NULL);
    pf_jw_key(w, "status");
    pf_jw_str(w, formula_status(e));
    json_str_or_null(w, "sizes", e->ex.sizes);
    json_str_or_null(w, "flop_expr", e->ex.flop);
    json_str_or_null(w, "bytes_expr", e->ex.bytes);
    json_str_or_null(w, "dtype_rule", e->ex.dtype_rule);
    if (op && !e->has_formula_run && !op->bad_args) {
        jw_figure(w, "kernel_flop", op->kernel_flop);
        jw_figure(w, "kernel_num_gb", op->kernel_num_gb);
    }
    pf_jw_obj_end(w);
}

static void json_figures(pf_jw *w, const explain *e)
{
    const pf_act_work ow = op_work(e), *aw = &ow;
    jw_figure(w, "flop", aw->flop);
    jw_figure(w, "bytes", aw->bytes);
    pf_jw_key(w, "dtype");
    pf_jw_str(w, pf_dtype_name(aw->dtype));
    pf_jw_key(w, "matrix");
    pf_jw_bool(w, e->fw.matrix);
    pf_jw_key(w, "source");
    pf_jw_str(w, aw->source);
    pf_jw_key(w, "upper_bound");
    pf_jw_bool(w, aw->upper_bound);
    pf_jw_key(w, "counted");
    pf_jw_bool(w, e->carrier >= 0);
    jw_figure(w, "peak_tflops", e->info ? pf_peak_flops(e->info, aw->dtype) / 1e12 : -1);
    jw_figure(w, "peak_gbps", e->info ? e->info->peak_gbps : -1);
}

static int print_json(FILE *out, const explain *e)
{
    const pf_cpu_op *op = e->op >= 0 ? &e->t->ops[e->op] : NULL;
    pf_table *in = op ? inputs_table(&op->call) : pf_table_new(input_cols, I_NCOLS);
    pf_table *acts = activities_table(e);
    int rc = in && acts && !pf_table_status(in) && !pf_table_status(acts) ? 0 : -1;
    if (rc == 0) {
        pf_jw w;
        pf_jw_init(&w, out);
        pf_jw_obj_begin(&w);
        pf_jw_key(&w, "trace");
        pf_jw_str(&w, e->t->path);
        pf_jw_key(&w, "query");
        pf_jw_str(&w, e->cli->explain);
        pf_jw_key(&w, "dtype_default");
        pf_jw_str(&w, pf_dtype_name(e->cli->an.default_dtype));
        json_match(&w, e);
        pf_jw_key(&w, "inputs");
        pf_table_json_rows(&w, in);
        json_formula(&w, e);
        json_figures(&w, e);
        pf_jw_key(&w, "activities");
        pf_table_json_rows(&w, acts);
        if (e->carrier >= 0) {
            rates r = carrier_rates(e);
            json_rates(&w, "carrier", &r);
        } else {
            pf_jw_key(&w, "carrier");
            pf_jw_null(&w);
        }
        rates r = invocation_rates(e);
        json_rates(&w, "invocation_total", &r);
        pf_jw_obj_end(&w);
        fputc('\n', out);
    }
    pf_table_free(in);
    pf_table_free(acts);
    return rc;
}

static void explain_free(explain *e)
{
    free(e->acts);
    free(e->work);
    free(e->carries);
}

int cmd_explain(const pf_cli *cli)
{
    if (cli->format == PF_FMT_CSV)
        return pf_cli_usage_error("--explain prints text, md or json, not csv");
    if (!cli->explain[0])
        return pf_cli_usage_error("--explain wants an op or kernel name");
    /* "invocation N of M" counts the op's invocations that launched nothing too */
    pf_cli all = *cli;
    all.load.all_ops = 1;
    pf_trace *t = pf_cli_load(&all, cli->pos[0]);
    if (!t)
        return PF_EXIT_TRACE;
    explain e = {.cli = cli, .t = t, .op = -1, .carrier = -1};
    int rc = find_invocation(&e, cli->explain);
    if (rc == PF_EXIT_OK && collect_activities(&e))
        rc = pf_cli_error("out of memory");
    if (rc == PF_EXIT_OK) {
        find_device(&e);
        run_formula(&e);
        if ((cli->format == PF_FMT_JSON ? print_json(stdout, &e) : print_text(stdout, &e)) != 0)
            rc = pf_cli_error("out of memory");
        else if (fflush(stdout) != 0 || ferror(stdout))
            rc = pf_cli_error("cannot write to standard output");
    }
    explain_free(&e);
    pf_trace_free(t);
    return rc;
}
