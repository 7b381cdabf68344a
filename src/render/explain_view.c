/* explain_view.c - renders what --explain found (include/profana/explain.h): the match, the inputs, the formula's expression, the figures and the rates, as text, Markdown or JSON. */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include <math.h>

#include "profana/explain_view.h"
#include "profana/kernel_role.h"
#include "view_parts.h"

static const char *const match_names[] = {"op", "kernel", "kernel-substring"};

/* A figure in full: integers as such, others with 6 significant digits. */
static void fmt_figure(char *buf, size_t n, double v)
{
    /* the range test first: converting a double beyond long long is undefined (1e300 is a
     * legal kernel_flop) */
    if (fabs(v) < 9e15 && v == (double)(long long)v)
        snprintf(buf, n, "%lld", (long long)v);
    else
        snprintf(buf, n, "%.6g", v);
}

static void fmt_shape(char *buf, size_t n, const pf_arg *a)
{
    size_t len = 0;
    buf[0] = 0;
    if (a->is_list) {
        if (a->list_numel < 0)
            snprintf(buf, n, "list, shapes not recorded");
        else
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
    [I_ARG] = {"Arg", "arg", 1, 0, NULL},
    [I_SHAPE] = {"Input Dims", "shape", 0, 0, NULL},
    [I_TYPE] = {"Input type", "type", 0, 0, NULL},
    [I_CONCRETE] = {"Concrete Inputs", "concrete", 0, 0, NULL},
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
    [A_NAME] = {"Name", "name", 0, 0, NULL},
    [A_KIND] = {"Kind", "kind", 0, 0, NULL},
    [A_STREAM] = {"Stream", "stream", 1, 0, NULL},
    [A_START] = {"Start (us)", "ts_us", 1, 0, NULL},
    [A_DUR] = {"Dur (us)", "dur_us", 1, 0, NULL},
    [A_GFLOP] = {"GFLOP", NULL, 1, PF_IN_TEXT | PF_IN_CSV, NULL},
    [A_GB] = {"GB", NULL, 1, PF_IN_TEXT | PF_IN_CSV, NULL},
    [A_FLOP] = {"FLOP", "flop", 1, PF_IN_JSON, NULL},
    [A_BYTES] = {"Bytes", "bytes", 1, PF_IN_JSON, NULL},
    [A_WORK] = {"Work", "work", 0, 0, NULL},
};

static const char *const kind_names[] = {"kernel", "memcpy", "memset"};

/* How much of the op's work the activity carries, and why (docs/analysis.md, "How work is attributed"). */
static const char *work_text(const pf_invocation *e, size_t k, char *buf, size_t n)
{
    const pf_activity *a = &e->t->acts[e->acts[k]];
    const pf_act_work *w = &e->work[k];
    if (a->kind != PF_ACT_KERNEL)
        return "its own bytes (args.bytes)";
    if (w->graph_replay)
        return "none: CUDA-graph replay: record its capture and pass --graph-capture";
    if (w->inferred)
        return "inferred: the figures of the launches of its name, grid and block";
    if (a->op < 0)
        return "none: no launching op";
    if (w->compiled_region)
        return "none: torch.compile region";
    if (!w->source)
        return "none: the op has no figures";
    char fl[96];
    if (w->elsewhere & PF_ELSEWHERE_FLOP)
        snprintf(fl, sizeof fl, "FLOPs none (%s)", pf_kernel_role_of(a->name) == PF_KERNEL_HELPER
                                                       ? "a library helper: on the op's other kernels"
                                                       : "on the op's gemm/conv/attention kernels");
    else
        snprintf(fl, sizeof fl, "FLOPs %.2f%%%s", 100.0 * e->shares[k].flop, w->op_flop > 0 ? " (by time)" : "");
    snprintf(buf, n, "%s, bytes %.2f%% (by time) of the op's", fl, 100.0 * e->shares[k].bytes);
    return buf;
}

static pf_table *activities_table(const pf_invocation *e)
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
        char wt[192];
        pf_table_str(t, r, A_WORK, work_text(e, k, wt, sizeof wt));
    }
    return t;
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

static void print_rates(FILE *out, const char *lead, const pf_inv_rates *r, pf_dtype dt)
{
    char of[64];
    snprintf(of, sizeof of, "the %s peak", pf_dtype_name(dt));
    fprintf(out, "%s (%.3f us):", lead, r->ns / 1e3);
    print_pct(out, "", r->tflops, r->flops_pct, 2, "TFLOP/s", of);
    print_pct(out, ",", r->gbps, r->bw_pct, 1, "GB/s", "DRAM peak");
    if (r->cache_served)
        fputs(" (faster than DRAM's peak with bytes that fit the cache: served in part from it)", out);
    fprintf(out, "%s%s\n", r->bound ? "; bound: " : "", r->bound ? r->bound : "");
}

static void print_match(FILE *out, const pf_invocation *e)
{
    const pf_activity *a = &e->t->acts[e->act];
    const pf_cpu_op *op = e->op >= 0 ? &e->t->ops[e->op] : NULL;
    if (e->kind == PF_INV_OP)
        fprintf(out, "Match: op %s, invocation %zu of %zu in file order (%zu others match, %zu of them with the "
                     "same inputs)\n", e->name, e->rank, e->matches, e->matches - 1, e->same_inputs);
    else
        fprintf(out, "Match: kernel %s%s, launch 1 of %zu in file order (%zu other launches of it)\n", e->name,
                e->kind == PF_INV_KERNEL_PART ? " (the only kernel name containing the query)" : "", e->matches,
                e->matches - 1);
    if (op)
        fprintf(out, "Op: %s, External id %llu, event at byte %lld of the trace\n", op->name,
                (unsigned long long)(uint64_t)op->ext_id, (long long)op->src_off); /* ids are unsigned */
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

static void print_formula(FILE *out, const pf_invocation *e)
{
    const pf_cpu_op *op = e->op >= 0 ? &e->t->ops[e->op] : NULL;
    const pf_act_work *w = &e->op_work;
    fprintf(out, "Formula: %s", e->family);
    if (e->ex.module)
        fprintf(out, ", src/formulas/%s", e->ex.module);
    fprintf(out, "; status %s\n", e->status);
    if (op && !e->has_formula_run && !op->bad_args)
        fprintf(out, "  kernel_flop = %.15g, kernel_num_gb = %.9g, as Inductor recorded them\n", op->kernel_flop,
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
        fprintf(out, ", matrix units%s", e->opts.tf32 == PF_TF32_ALL ? " (--tf32)" : e->opts.tf32 == PF_TF32_NONE ? " (--no-tf32)" : "");
    if (w->dtype == PF_DT_TF32 && e->opts.tf32 == PF_TF32_PYTORCH)
        fputs(e->fw.matrix == PF_MATRIX_CONV ? " (TF32: PyTorch's default for convolutions, cudnn.allow_tf32)"
                                             : " (TF32: the kernel's name shows TF32 math)", out);
    if (e->info)
        fprintf(out, "; peaks %.1f TFLOP/s, DRAM %.0f GB/s", e->peak_flops / 1e12,
                e->info->peak_gbps);
    fputc('\n', out);
}

/* Why a figure is a ceiling, by the formula that made it. */
static const char *upper_bound_reason(const char *source)
{
    if (source && strstr(source, "moe"))
        return " (an upper bound: the weights of every expert its tokens could reach counted read)";
    return " (an upper bound: sized by the longest sequences, or flex attention counted dense)";
}

static void print_figures(FILE *out, const pf_invocation *e)
{
    const pf_act_work *w = &e->op_work;
    char f[64], b[64];
    fmt_figure(f, sizeof f, w->flop);
    fmt_figure(b, sizeof b, w->bytes);
    fprintf(out, "Figures: flop %s, bytes %s, source %s%s\n", w->flop >= 0 ? f : "unknown",
            w->bytes >= 0 ? b : "unknown", w->source ? w->source : "-",
            w->upper_bound ? upper_bound_reason(w->source) : "");
    if (e->op >= 0 && e->carrier < 0)
        fputs("Not counted: the op launched no kernel to carry them; the analysis counts only the bytes of its "
              "memcpy/memset (args.bytes)\n", out);
}

/* The activities' columns a width keeps, most wanted first (Work, a sentence, is said under
 * the table when it does not fit: act_work_lines). */
static const int act_wanted[] = {A_KIND, A_DUR, A_GFLOP, A_GB, A_WORK, A_STREAM, A_START};

/* Prints t; text fits o->width with wanted (NULL: every column, the name column fitted).
 * Returns the columns shown. */
static uint64_t print_table(FILE *out, const pf_explain_view_opts *o, const pf_table *t, const int *wanted,
                            int nwanted)
{
    if (o->format == PF_FMT_MD) {
        pf_table_print_md(out, t, o->name_limit);
        return ~(uint64_t)0;
    }
    pf_text_fit fit = {.name_limit = o->name_limit, .width = o->width, .cols = o->width > 0 ? wanted : NULL,
                       .ncols = nwanted};
    uint64_t shown = pf_table_print_text_fit(out, t, &fit);
    if (o->format == PF_FMT_TEXT)
        pf_view_hidden(out, o->width, t, &fit, shown);
    return shown;
}

/* The Work column as lines under the table, when the width left it out. */
static void act_work_lines(FILE *out, const pf_table *t, uint64_t shown)
{
    if (shown >> A_WORK & 1)
        return;
    for (int r = 0; r < pf_table_rows(t); r++)
        fprintf(out, "- %s: %s\n", pf_table_cell(t, r, A_NAME), pf_table_cell(t, r, A_WORK) ? pf_table_cell(t, r, A_WORK) : "-");
}

static int print_text(FILE *out, const pf_invocation *e, const pf_explain_view_opts *o)
{
    const pf_cpu_op *op = e->op >= 0 ? &e->t->ops[e->op] : NULL;
    fprintf(out, "Explain '%s' in %s (DTYPE %s)\n", e->query, e->t->path,
            pf_dtype_name(e->opts.default_dtype));
    print_match(out, e);
    if (op && op->call.nargs > 0) {
        pf_table *t = inputs_table(&op->call);
        if (!t || pf_table_status(t)) {
            pf_table_free(t);
            return -1;
        }
        fputs("\nInputs:\n", out);
        print_table(out, o, t, NULL, 0);
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
    act_work_lines(out, t, print_table(out, o, t, act_wanted, (int)(sizeof act_wanted / sizeof act_wanted[0])));
    pf_table_free(t);
    fputc('\n', out);
    pf_dtype dt = e->op_work.dtype;
    if (e->carrier >= 0) {
        print_rates(out, e->shares[e->carrier].flop > 0 ? "Achieved on the kernels carrying its FLOPs" : "Achieved on the kernels carrying its work", &e->carrier_rates, dt);
    }
    char lead[96];
    snprintf(lead, sizeof lead, "Over the invocation's %zu GPU activit%s", e->n_acts, e->n_acts == 1 ? "y" : "ies");
    print_rates(out, lead, &e->total_rates, dt);
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

static void json_rates(pf_jw *w, const char *key, const pf_inv_rates *r)
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
    pf_jw_key(w, "cache_served");
    pf_jw_bool(w, r->cache_served);
    pf_jw_key(w, "bound");
    pf_jw_str(w, r->bound);
    pf_jw_obj_end(w);
}

static void json_match(pf_jw *w, const pf_invocation *e)
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
    if (e->kind == PF_INV_OP)
        pf_jw_int(w, (int64_t)e->same_inputs);
    else
        pf_jw_null(w);
    pf_jw_key(w, "op");
    pf_jw_str(w, op ? op->name : NULL);
    pf_jw_key(w, "external_id");
    if (op)
        pf_jw_u64(w, (uint64_t)op->ext_id);
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

static void json_formula(pf_jw *w, const pf_invocation *e)
{
    const pf_cpu_op *op = e->op >= 0 ? &e->t->ops[e->op] : NULL;
    pf_jw_key(w, "formula");
    pf_jw_obj_begin(w);
    pf_jw_key(w, "family");
    pf_jw_str(w, e->family);
    json_str_or_null(w, "module", e->ex.module ? e->ex.module : NULL);
    pf_jw_key(w, "status");
    pf_jw_str(w, e->status);
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

static void json_figures(pf_jw *w, const pf_invocation *e)
{
    const pf_act_work *aw = &e->op_work;
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
    jw_figure(w, "peak_tflops", e->info ? e->peak_flops / 1e12 : -1);
    jw_figure(w, "peak_gbps", e->info ? e->info->peak_gbps : -1);
}

static int print_json(FILE *out, const pf_invocation *e)
{
    const pf_cpu_op *op = e->op >= 0 ? &e->t->ops[e->op] : NULL;
    pf_table *in = op ? inputs_table(&op->call) : pf_table_new(input_cols, I_NCOLS);
    pf_table *acts = activities_table(e);
    int rc = in && acts && !pf_table_status(in) && !pf_table_status(acts) ? 0 : -1;
    if (rc == 0) {
        pf_jw w;
        pf_jw_init(&w, out);
        pf_jw_doc_begin(&w);
        pf_jw_key(&w, "trace");
        pf_jw_str(&w, e->t->path);
        pf_jw_key(&w, "query");
        pf_jw_str(&w, e->query);
        pf_jw_key(&w, "dtype_default");
        pf_jw_str(&w, pf_dtype_name(e->opts.default_dtype));
        json_match(&w, e);
        pf_jw_key(&w, "inputs");
        pf_table_json_rows(&w, in);
        json_formula(&w, e);
        json_figures(&w, e);
        pf_jw_key(&w, "activities");
        pf_table_json_rows(&w, acts);
        if (e->carrier >= 0) {
            json_rates(&w, "carrier", &e->carrier_rates);
        } else {
            pf_jw_key(&w, "carrier");
            pf_jw_null(&w);
        }
        json_rates(&w, "invocation_total", &e->total_rates);
        pf_jw_obj_end(&w);
        fputc('\n', out);
    }
    pf_table_free(in);
    pf_table_free(acts);
    return rc;
}

int pf_explain_print(FILE *out, const pf_invocation *inv, const pf_explain_view_opts *o)
{
    assert(inv->found == PF_INV_FOUND && inv->n_acts > 0);
    assert(o->format != PF_FMT_CSV && o->width >= 0);
    if (o->format == PF_FMT_JSON)
        return print_json(out, inv);
    FILE *w = pf_wrap_open(out, o->format == PF_FMT_TEXT ? o->width : 0);
    int rc = print_text(w, inv, o);
    pf_wrap_close(w, out);
    return rc;
}
