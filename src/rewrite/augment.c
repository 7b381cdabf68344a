/* augment.c - the engine of --augment_trace: the figures written into each GPU activity's and op's args (FLOPs and bytes; with extra: rates, percent of peak, category), and the trace written again with them spliced into the original text. */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/augment.h"
#include "profana/numtext.h"
#include "profana/outfile.h"
#include "profana/rates.h"
#include "profana/splice.h"

/* The figures written for one event: an activity's own, or an op's (see op_sum). */
typedef struct figures {
    double flop, gb, bytes;            /* < 0 unknown */
    int64_t dur_ns;
    double flop_peak_s, byte_peak_s;   /* time the work takes at peak; < 0 when no peak */
    int category;                      /* pf_category; -1 none */
} figures;

/* An op's figures: its formula's work (what its carrier kernel holds) over the time of
 * all its activities; an op that launched only copies and fills: their sums. */
typedef struct op_sum {
    figures f;
    int n_acts;
    int has_carrier;
    size_t longest;                    /* its longest activity: the op's category without a carrier */
} op_sum;

/* One event to change, in text order. */
typedef struct target {
    int64_t off;
    pf_src_args args;          /* where the loader saw its args */
    int is_op;
    size_t index;
} target;

struct pf_augment {
    const pf_trace *t;
    pf_analysis_opts opts;
    const pf_analysis *an;             /* --extra only: categories and device peaks */
    pf_act_work *work;                 /* per activity (attributed) */
    int extra;
    int jobs;                          /* threads for the splice (-j); 0 = one per core */
    figures *acts;                     /* per activity */
    op_sum *ops;                       /* per op */
    target *targets;
    size_t n_targets;
};

typedef struct pf_augment augment;

static const pf_device_info *device_info(const pf_analysis *an, int id)
{
    for (int i = 0; i < an->n_devices; i++)
        if (an->devices[i].device && an->devices[i].device->id == id)
            return an->devices[i].info;
    return NULL;
}

static void activity_figures(const augment *g, size_t i, figures *f)
{
    const pf_activity *a = &g->t->acts[i];
    const pf_act_work *w = &g->work[i];
    const pf_device_info *info = g->an ? device_info(g->an, a->device) : NULL;
    /* A kernel whose op's FLOPs are on its other kernels did none of them: not a measured 0. */
    f->flop = (w->elsewhere & PF_ELSEWHERE_FLOP) ? -1 : w->flop;
    /* A generic guess is not written into the trace: read back, it would pass for Inductor's
     * own figure (source "inductor") and count in the Total. Left out, the analysis of OUT
     * guesses the same again from the op's shapes. */
    f->bytes = w->generic || (w->elsewhere & PF_ELSEWHERE_BYTES) ? -1 : w->bytes;
    f->gb = f->bytes >= 0 ? f->bytes / 1e9 : -1;
    /* Inductor's own figure is kept as it is, not rounded through bytes (a kernel carrying
     * all of it). */
    if (w->source && strcmp(w->source, "inductor") == 0 && w->bytes > 0 && w->bytes == w->op_bytes)
        f->gb = g->t->ops[a->op].kernel_num_gb;
    f->dur_ns = a->dur_ns;
    f->flop_peak_s = pf_at_peak_s(f->flop, pf_peak_flops(info, w->dtype));
    f->byte_peak_s = pf_at_peak_s(w->bytes, pf_peak_bytes(info));
    f->category = g->an ? g->an->cats[i] : -1;
}

/* Adds x to *sum when both are known; an unknown x makes the sum unknown. */
static void add_known(double *sum, double x)
{
    *sum = *sum < 0 || x < 0 ? -1 : *sum + x;
}

/* A kernel with none of its op's FLOPs adds no time at peak to the op's (its own is unknown). */
static double elsewhere_s(const pf_act_work *w, double flop_peak_s)
{
    return (w->elsewhere & PF_ELSEWHERE_FLOP) ? 0 : flop_peak_s;
}

/* Adds activity i to its op. Reading an augmented trace back, profana takes an op's
 * kernel_flop / kernel_num_gb as Inductor's figures and splits them over the op's kernels
 * again: so the op must carry its formula's work only (the whole op's, before the split),
 * never its copies' and fills' bytes, which they carry themselves (that would count them
 * twice). Its peak seconds are its carrying kernels' summed; its category the longest's. */
static void add_to_op(augment *g, size_t i, int carrier)
{
    const pf_activity *a = &g->t->acts[i];
    const pf_act_work *w = &g->work[i];
    const figures *af = &g->acts[i];
    op_sum *o = &g->ops[a->op];
    figures *f = &o->f;
    int64_t dur = o->n_acts ? f->dur_ns + af->dur_ns : af->dur_ns;
    if (carrier && !o->has_carrier) {
        *f = *af;
        f->flop = w->op_flop;
        f->bytes = w->generic ? -1 : w->op_bytes;
        f->gb = f->bytes >= 0 ? f->bytes / 1e9 : -1;
        if (w->source && strcmp(w->source, "inductor") == 0 && w->op_bytes > 0)
            f->gb = g->t->ops[a->op].kernel_num_gb;
        f->flop_peak_s = elsewhere_s(w, af->flop_peak_s);
        o->has_carrier = 1;
        o->longest = i;
    } else if (carrier) {
        add_known(&f->flop_peak_s, elsewhere_s(w, af->flop_peak_s));
        add_known(&f->byte_peak_s, af->byte_peak_s);
        if (a->dur_ns > g->t->acts[o->longest].dur_ns) {
            o->longest = i;
            f->category = af->category;
        }
    } else if (o->n_acts == 0) {
        *f = *af;
        o->longest = i;
    } else if (!o->has_carrier) {
        add_known(&f->flop, af->flop);
        add_known(&f->gb, af->gb);
        add_known(&f->bytes, af->bytes);
        add_known(&f->flop_peak_s, af->flop_peak_s);
        add_known(&f->byte_peak_s, af->byte_peak_s);
        if (a->dur_ns > g->t->acts[o->longest].dur_ns) {
            o->longest = i;
            f->category = af->category;
        }
    }
    f->dur_ns = dur;
    o->n_acts++;
}

static int has_figures(const figures *f)
{
    return f->flop >= 0 || f->bytes >= 0;
}

static int cmp_target(const void *pa, const void *pb)
{
    const target *a = pa, *b = pb;
    return (a->off > b->off) - (a->off < b->off);
}

static int sorted(const target *t, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (t[i].off < t[i - 1].off)
            return 0;
    return 1;
}

/* Activities and ops are each in file order: one merge puts them in text order (a sort
 * only if a list is not). b may lie inside dst, at dst + na: the merge writes dst[i + j],
 * below b[j] while a has elements left, so nothing of b is overwritten before it is read. */
static void merge_targets(target *dst, target *a, size_t na, target *b, size_t nb)
{
    if (!sorted(a, na))
        qsort(a, na, sizeof *a, cmp_target);
    if (!sorted(b, nb))
        qsort(b, nb, sizeof *b, cmp_target);
    size_t i = 0, j = 0, k = 0;
    while (i < na || j < nb)
        dst[k++] = j == nb || (i < na && a[i].off <= b[j].off) ? a[i++] : b[j++];
}

/* Work of every activity when no analysis ran (without --extra nothing else is needed). */
static int own_work(augment *g, const pf_share *shares)
{
    g->work = malloc((g->t->n_acts ? g->t->n_acts : 1) * sizeof *g->work);
    return g->work ? pf_work_all(g->t, &g->opts, shares, g->work) : -1;
}

/* Figures for every activity and op. The work it computed itself is freed here: the
 * figures hold all that is written, and the targets are allocated next (a lower peak). */
static int plan_figures(augment *g)
{
    const pf_trace *t = g->t;
    g->acts = calloc(t->n_acts ? t->n_acts : 1, sizeof *g->acts);
    g->ops = calloc(t->n_ops ? t->n_ops : 1, sizeof *g->ops);
    pf_share *shares = pf_work_shares(t, pf_work_threads(t, g->opts.jobs));
    int rc = g->acts && g->ops && shares ? 0 : -1;
    if (rc == 0 && !g->work)
        rc = own_work(g, shares);
    for (size_t i = 0; rc == 0 && i < t->n_acts; i++) {
        activity_figures(g, i, &g->acts[i]);
        if (t->acts[i].op >= 0)
            add_to_op(g, i, shares[i].flop > 0 || shares[i].bytes > 0);
    }
    free(shares);
    if (!g->an) {
        free(g->work);
        g->work = NULL;
    }
    return rc;
}

/* The events to change, in text order: the ops go straight to their place behind the
 * activities in g->targets and are merged there with the activities' list. */
static int plan_targets(augment *g)
{
    const pf_trace *t = g->t;
    if (plan_figures(g))
        return -1;
    g->targets = malloc((t->n_acts + t->n_ops + 1) * sizeof *g->targets);
    target *ta = malloc((t->n_acts + 1) * sizeof *ta);
    if (!g->targets || !ta) {
        free(ta);
        return -1;
    }
    size_t na = 0, no = 0;
    for (size_t i = 0; i < t->n_acts; i++)
        if (has_figures(&g->acts[i]) || g->extra)
            ta[na++] = (target){t->acts[i].src_off, t->acts[i].args, 0, i};
    target *to = g->targets + na;
    for (size_t j = 0; j < t->n_ops; j++)
        if (g->ops[j].n_acts > 0 && has_figures(&g->ops[j].f))
            to[no++] = (target){t->ops[j].src_off, t->ops[j].args, 1, j};
    merge_targets(g->targets, ta, na, to, no);
    g->n_targets = na + no;
    free(ta);
    return 0;
}

/* Whole numbers below 2^53 are written by integer formatting (printf's floating point
 * costs more than the splice itself). */
static int is_small_whole(double v)
{
    return v >= 0 && v < 9007199254740992.0 && v == floor(v);
}

/* How a figure is written: an integer; the shortest text that reads back as the same
 * double (figures taken from the trace, such as Inductor's GB); or a derived rate, to 12
 * significant digits (one printf, where the shortest exact text takes up to six calls). */
typedef enum num_kind { NUM_INTEGER, NUM_EXACT, NUM_RATE } num_kind;

static void add_num(pf_augment_pairs *p, const char *key, double v, num_kind kind)
{
    char *buf = p->text[p->n];
    if (v < 0 || !isfinite(v))
        return;
    if (is_small_whole(v))
        pf_decimal_text(buf, (int64_t)v, 0);
    else if (kind == NUM_INTEGER)
        snprintf(buf, sizeof p->text[0], "%.0f", v);
    else if (kind == NUM_RATE)
        snprintf(buf, sizeof p->text[0], "%.12g", v);
    else if (!pf_num_text(buf, v))
        return;
    p->kv[p->n++] = (pf_kv){key, buf, kind == NUM_INTEGER ? strtod(buf, NULL) : v, 1};
}

/* GB of a whole number of bytes: the exact decimal, which reads back as bytes / 1e9. */
static void add_gb(pf_augment_pairs *p, const figures *f)
{
    if (!is_small_whole(f->bytes) || f->gb != f->bytes / 1e9) {
        add_num(p, "kernel_num_gb", f->gb, NUM_EXACT);
        return;
    }
    pf_decimal_text(p->text[p->n], (int64_t)f->bytes, 9);
    p->kv[p->n] = (pf_kv){"kernel_num_gb", p->text[p->n], f->gb, 1};
    p->n++;
}

static void make_pairs(const figures *f, int extra, pf_augment_pairs *p)
{
    p->n = 0;
    add_num(p, "kernel_flop", f->flop, NUM_INTEGER);
    add_gb(p, f);
    if (!extra)
        return;
    /* Rates over the event's time by the rule of an analysis row; the seconds at peak are
     * sums over the op's activities, each at its own dtype's peak. */
    double ns = (double)f->dur_ns;
    add_num(p, "achieved_tflops", pf_rate(f->flop, ns, 1e12), NUM_RATE);
    add_num(p, "achieved_gbps", pf_rate(f->bytes, ns, 1e9), NUM_RATE);
    add_num(p, "flops_pct", pf_pct_of_peak(f->flop_peak_s, ns), NUM_RATE);
    add_num(p, "bw_pct", pf_pct_of_peak(f->byte_peak_s, ns), NUM_RATE);
    if (f->category >= 0) {
        snprintf(p->text[p->n], sizeof p->text[0], "\"%s\"", pf_category_name((pf_category)f->category));
        p->kv[p->n] = (pf_kv){"kernel_category", p->text[p->n], 0, 0};
        p->n++;
    }
}

/* The text the targets' pairs go into. */
typedef struct source {
    const augment *g;
    const char *s;
    size_t len;
    int mapped;
} source;

static void source_written(void *ctx, size_t upto)
{
    const source *src = ctx;
    pf_source_done(src->s, src->len, src->mapped, upto);
}

/* Where target k's edits begin: its event's '{'. */
static size_t target_start(void *ctx, size_t k)
{
    const source *src = ctx;
    int64_t off = src->g->targets[k].off;
    return off < 0 ? 0 : (size_t)off > src->len ? src->len : (size_t)off;
}

/* Plans target k's pairs (runs on several threads at once). */
static int plan_target(void *ctx, size_t k, pf_splice *sp, pf_jerr *e)
{
    const source *src = ctx;
    const target *tg = &src->g->targets[k];
    if (tg->off < 0 || (size_t)tg->off >= src->len || src->s[tg->off] != '{') {
        e->pos = tg->off < 0 ? 0 : (size_t)tg->off;
        e->truncated = 0;
        e->what = "no event here on the second read (did the file change?)";
        return -1;
    }
    pf_augment_pairs p;
    make_pairs(tg->is_op ? &src->g->ops[tg->index].f : &src->g->acts[tg->index], src->g->extra, &p);
    if (tg->args.len)
        return pf_splice_obj_pairs_at(sp, src->s, src->len, (size_t)tg->off + tg->args.at, tg->args.len, p.kv, p.n, e);
    return pf_splice_event_args(sp, src->s, src->len, (size_t)tg->off, p.kv, p.n, e) < 0 ? -1 : 0;
}

/* Writes the source with the pairs spliced into each target's args. */
static int write_augmented(const augment *g, const char *path, const source *src, const pf_outfile *out,
                           pf_error *err)
{
    pf_splice_items items = {g->n_targets, target_start, plan_target, (void *)src, source_written};
    const char *s = src->s;
    size_t len = src->len;
    pf_jerr e;
    int rc = pf_splice_write_parallel(s, 0, len, &items, g->jobs, out->f, &e);
    if (rc == -2)
        return pf_outfile_write_error(out, err);
    if (rc && strcmp(e.what, "out of memory") == 0)
        return pf_fail(err, "out of memory");
    return rc ? pf_fail(err, "%s: byte %zu: %s", path, e.pos, e.what) : 0;
}

/* Reads IN again (mapped) and writes OUT through a temporary file. */
static int write_out(const augment *g, const char *in, const char *outp, pf_error *err)
{
    char *s;
    size_t len;
    int mapped;
    if (pf_source_read(in, &s, &len, &mapped, err))
        return -1;
    pf_outfile of;
    int rc = pf_outfile_open(&of, outp, err);
    if (rc == 0) {
        source src = {g, s, len, mapped};
        rc = write_augmented(g, in, &src, &of, err);
        if (rc == 0)
            rc = pf_outfile_commit(&of, err);
        else
            pf_outfile_abort(&of);
    }
    pf_source_release(s, len, mapped);
    return rc;
}


int pf_augment_plan(const pf_trace *t, const pf_analysis *an, const pf_augment_opts *o, pf_augment **out,
                    pf_error *err)
{
    assert(t && o && out);
    assert(!o->extra || an); /* categories and device peaks come from the analysis */
    assert(o->jobs >= 0);
    *out = NULL;
    augment *g = calloc(1, sizeof *g);
    if (!g)
        return pf_fail(err, "out of memory");
    *g = (augment){.t = t, .opts = o->an, .an = an, .extra = o->extra, .jobs = o->jobs};
    g->opts.step = PF_STEP_EVERY;
    g->work = an ? an->work : NULL;
    if (plan_targets(g)) {
        pf_augment_free(g);
        return pf_fail(err, "out of memory");
    }
    *out = g;
    return 0;
}

size_t pf_augment_count(const pf_augment *g)
{
    return g->n_targets;
}

int64_t pf_augment_event(const pf_augment *g, size_t k, pf_augment_pairs *p)
{
    assert(k < g->n_targets);
    const target *tg = &g->targets[k];
    make_pairs(tg->is_op ? &g->ops[tg->index].f : &g->acts[tg->index], g->extra, p);
    return tg->off;
}

int pf_augment_write(const pf_augment *g, const char *in, const char *out, pf_error *err)
{
    return write_out(g, in, out, err);
}

void pf_augment_free(pf_augment *g)
{
    if (!g)
        return;
    if (!g->an)
        free(g->work);
    free(g->acts);
    free(g->ops);
    free(g->targets);
    free(g);
}
