/* ranks_culprit.c - the culprit of each late arrival at a matched collective (the late rank's window before it against the median rank's: compute by op or kernel, copies, other communication, idle under a host annotation), per rank the excess by cause, its kernels' speed against the median rank's, and a verdict. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "profana/ranks_culprit.h"
#include "profana/satmath.h"

const char *pf_straggler_verdict_name(pf_straggler_verdict v)
{
    switch (v) {
    case PF_STRAGGLER_COMPUTE:
        return "compute straggler";
    case PF_STRAGGLER_DATA:
        return "data imbalance";
    case PF_STRAGGLER_HOST:
        return "host straggler";
    case PF_STRAGGLER_COPY:
        return "copy straggler";
    case PF_STRAGGLER_COMM:
        return "waits on other collectives";
    default:
        return "no clear straggler";
    }
}

const char *pf_culprit_kind_name(pf_culprit_kind k)
{
    static const char *const names[] = {"-", "kernel", "host gap", "copy", "comm"};
    return k >= PF_CULPRIT_NONE && k <= PF_CULPRIT_COMM ? names[k] : "-";
}

/* ---- one late arrival ---- */

/* A member's start, for ordering an instance's kernels. */
typedef struct at_start {
    int64_t ts;
    size_t m;                  /* index into rep->members */
} at_start;

static int by_ts(const void *x, const void *y)
{
    const at_start *a = x, *b = y;
    if (a->ts != b->ts)
        return (a->ts > b->ts) - (a->ts < b->ts);
    return (a->m > b->m) - (a->m < b->m);
}

/* The label of window w of summary s with the most compute time beyond what the median's
 * window ref gave the label of the same text, and the shape sets of that label in the two. */
static void kernel_excess(const pf_rank_summary *s, const pf_comm_window *w, const pf_rank_summary *rs,
                          const pf_comm_window *ref, pf_late_arrival *la)
{
    int best = -1, best_ref = -1;
    for (int k = 0; k < PF_WIN_TOP && w->top_label[k] >= 0; k++) {
        const char *l = s->labels[w->top_label[k]];
        int64_t theirs = 0;
        int at = -1;
        for (int j = 0; j < PF_WIN_TOP && ref->top_label[j] >= 0; j++)
            if (strcmp(rs->labels[ref->top_label[j]], l) == 0) {
                theirs = ref->top_ns[j];
                at = j;
            }
        if (best < 0 || w->top_ns[k] - theirs > la->label_ns) {
            la->label = l;
            la->label_ns = w->top_ns[k] - theirs;
            best = k;
            best_ref = at;
        }
    }
    if (best < 0)
        return;
    la->shapes = w->top_shape[best] >= 0 ? s->labels[w->top_shape[best]] : NULL;
    la->ref_shapes = best_ref >= 0 && ref->top_shape[best_ref] >= 0 ? rs->labels[ref->top_shape[best_ref]] : NULL;
    la->other_shapes = la->shapes && la->ref_shapes && strcmp(la->shapes, la->ref_shapes) != 0;
}

static void explain(const pf_rank_summary *s, const pf_comm_window *w, const pf_rank_summary *rs,
                    const pf_comm_window *ref, pf_late_arrival *la)
{
    static const pf_culprit_kind kind_of[PF_WIN_CAUSES] = {
        [PF_WIN_COMPUTE] = PF_CULPRIT_KERNEL, [PF_WIN_COPY] = PF_CULPRIT_COPY,
        [PF_WIN_COMM] = PF_CULPRIT_COMM, [PF_WIN_IDLE] = PF_CULPRIT_GAP};
    la->has_windows = 1;
    int best = -1;
    for (int c = 0; c < PF_WIN_CAUSES; c++) {
        la->excess_ns[c] = w->cause_ns[c] - ref->cause_ns[c];
        if (la->excess_ns[c] > 0 && (best < 0 || la->excess_ns[c] > la->excess_ns[best]))
            best = c;
    }
    if (best < 0)
        return;
    la->kind = kind_of[best];
    la->label_ns = la->excess_ns[best];
    if (best == PF_WIN_COMPUTE)
        kernel_excess(s, w, rs, ref, la);
    else if (best == PF_WIN_IDLE) {
        la->label = w->gap_label >= 0 ? s->labels[w->gap_label] : NULL;
        la->gap_ns = w->gap_ns;
    }
}

/* The late arrival of instance in, if any, into *la: 1 yes, 0 no. order has room for in->n. */
static int late_arrival(const pf_rank_summary *s, const pf_ranks_report *rep, const pf_coll_instance *in,
                        at_start *order, pf_late_arrival *la)
{
    if (in->n < 2)
        return 0;
    for (size_t k = 0; k < in->n; k++) {
        const pf_coll_member *m = &rep->members[in->first + k];
        order[k] = (at_start){s[m->rank].comms[m->comm].ts_ns, in->first + k};
    }
    qsort(order, in->n, sizeof *order, by_ts);
    const at_start *last = &order[in->n - 1], *med = &order[(in->n - 1) / 2];
    if (last->ts == order[in->n - 2].ts || last->ts - med->ts <= PF_CULPRIT_THRESHOLD_NS)
        return 0;
    const pf_coll_member *lm = &rep->members[last->m], *mm = &rep->members[med->m];
    const pf_rank_summary *ls = &s[lm->rank], *ms = &s[mm->rank];
    const pf_comm_rec *c = &ls->comms[lm->comm];
    *la = (pf_late_arrival){.rank = ls->rank, .ref_rank = ms->rank, .name = c->name, .pg = c->pg, .seq = in->seq,
                            .start_ns = c->ts_ns, .late_ns = last->ts - med->ts};
    if (ls->wins && ms->wins && ls->wins[lm->comm].start_ns >= 0 && ms->wins[mm->comm].start_ns >= 0)
        explain(ls, &ls->wins[lm->comm], ms, &ms->wins[mm->comm], la);
    return 1;
}

static int by_lateness(const void *x, const void *y)
{
    const pf_late_arrival *a = x, *b = y;
    if (a->late_ns != b->late_ns)
        return (a->late_ns < b->late_ns) - (a->late_ns > b->late_ns);
    if (a->rank != b->rank)
        return (a->rank > b->rank) - (a->rank < b->rank);
    return (a->start_ns > b->start_ns) - (a->start_ns < b->start_ns);
}

/* ---- per rank ---- */

/* The rank's index among the summaries (sorted by rank). */
static size_t index_of(const pf_rank_summary *s, size_t n, int rank)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s[mid].rank < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* A label's excess on one rank, summed over its late arrivals. */
typedef struct lab_sum {
    size_t rank;
    const char *label;
    pf_culprit_kind kind;
    int64_t ns;
} lab_sum;

static int by_rank_label(const void *x, const void *y)
{
    const lab_sum *a = x, *b = y;
    if (a->rank != b->rank)
        return (a->rank > b->rank) - (a->rank < b->rank);
    if (a->kind != b->kind)
        return (int)a->kind - (int)b->kind;
    return strcmp(a->label, b->label);
}

static int aggregate_late(const pf_rank_summary *s, size_t n, pf_culprit_report *r)
{
    lab_sum *v = malloc((r->n_late ? r->n_late : 1) * sizeof *v);
    if (!v)
        return -1;
    size_t m = 0;
    for (size_t i = 0; i < r->n_late; i++) {
        const pf_late_arrival *la = &r->late[i];
        size_t k = index_of(s, n, la->rank);
        pf_rank_culprit *rc = &r->ranks[k];
        rc->late++;
        rc->late_ns = pf_sat_add(rc->late_ns, la->late_ns);
        for (int c = 0; c < PF_WIN_CAUSES; c++)
            if (la->excess_ns[c] > 0)
                rc->excess_ns[c] = pf_sat_add(rc->excess_ns[c], la->excess_ns[c]);
        if (la->kind != PF_CULPRIT_NONE && la->label_ns > 0)
            v[m++] = (lab_sum){k, la->label ? la->label : "", la->kind, la->label_ns};
        if (la->kind == PF_CULPRIT_KERNEL && la->other_shapes && la->label_ns > 0)
            rc->data_ns = pf_sat_add(rc->data_ns, la->label_ns);
    }
    qsort(v, m, sizeof *v, by_rank_label);
    for (size_t i = 0, j; i < m; i = j) {
        int64_t sum = 0;
        for (j = i; j < m && by_rank_label(&v[i], &v[j]) == 0; j++)
            sum = pf_sat_add(sum, v[j].ns);
        pf_rank_culprit *rc = &r->ranks[v[i].rank];
        if (sum > rc->top_ns) {
            rc->top_ns = sum;
            rc->top_label = v[i].label[0] ? v[i].label : NULL;
            rc->top_kind = v[i].kind;
        }
    }
    free(v);
    return 0;
}

/* One rank's entry for one kernel name. */
typedef struct kname {
    const char *text;
    size_t rank;
    double mean;
    int64_t count, sum_ns;
} kname;

static int by_text_mean(const void *x, const void *y)
{
    const kname *a = x, *b = y;
    int c = strcmp(a->text, b->text);
    if (c)
        return c;
    return (a->mean > b->mean) - (a->mean < b->mean);
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* Each rank's compute time over the median rank's (the lower median: of two ranks, the
 * faster), and its kernels' time over the median ranks' mean durations for the same counts. */
static int kernel_speed(const pf_rank_summary *s, size_t n, pf_culprit_report *r)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += s[i].n_kernels;
    kname *k = malloc((total ? total : 1) * sizeof *k);
    int64_t *c = malloc((n ? n : 1) * sizeof *c);
    double *acc = calloc(3 * (n ? n : 1), sizeof *acc); /* per rank: its time, the median's, slower */
    if (!k || !c || !acc) {
        free(k);
        free(c);
        free(acc);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        c[i] = s[i].compute_sum_ns;
    qsort(c, n, sizeof *c, cmp_i64);
    int64_t med = n ? c[(n - 1) / 2] : 0;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        r->ranks[i].compute_ns = s[i].compute_sum_ns;
        r->ranks[i].compute_ratio = med > 0 && n > 1 ? (double)s[i].compute_sum_ns / (double)med : -1;
        for (size_t j = 0; j < s[i].n_kernels; j++) {
            const pf_kernel_time *kt = &s[i].kernels[j];
            if (kt->count > 0)
                k[m++] = (kname){s[i].labels[kt->label], i, (double)kt->sum_ns / (double)kt->count, kt->count, kt->sum_ns};
        }
    }
    qsort(k, m, sizeof *k, by_text_mean);
    for (size_t i = 0, j; i < m; i = j) {
        for (j = i + 1; j < m && strcmp(k[j].text, k[i].text) == 0; j++)
            ;
        if (j - i < 2) /* on one rank only: nothing to compare with */
            continue;
        double ref = k[i + (j - i - 1) / 2].mean;
        for (size_t q = i; q < j; q++) {
            double *a = &acc[3 * k[q].rank];
            a[0] += (double)k[q].sum_ns;
            a[1] += (double)k[q].count * ref;
            if (k[q].mean >= PF_SLOW_RATIO * ref)
                a[2] += (double)k[q].sum_ns;
        }
    }
    for (size_t i = 0; i < n; i++) {
        const double *a = &acc[3 * i];
        pf_rank_culprit *rc = &r->ranks[i];
        rc->kernel_ratio = a[1] > 0 ? a[0] / a[1] : -1;
        rc->slower_pct = a[0] > 0 ? 100.0 * a[2] / a[0] : 0;
        rc->uniform = rc->kernel_ratio >= PF_SLOW_RATIO && rc->slower_pct >= PF_UNIFORM_SHARE;
    }
    free(k);
    free(c);
    free(acc);
    return 0;
}

/* One rank's step, for the per-step medians. */
typedef struct step_at {
    int64_t number, compute;
    size_t rank, k;
} step_at;

static int by_step_compute(const void *x, const void *y)
{
    const step_at *a = x, *b = y;
    if (a->number != b->number)
        return (a->number > b->number) - (a->number < b->number);
    if (a->compute != b->compute)
        return (a->compute > b->compute) - (a->compute < b->compute);
    return (a->rank > b->rank) - (a->rank < b->rank);
}

/* Each rank's compute time per step over the median rank's in the step of the same number. */
static int step_ratios(const pf_rank_summary *s, size_t n, pf_culprit_report *r)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        total += s[i].n_steps;
        if (s[i].n_steps && !(r->ranks[i].step_ratio = malloc(s[i].n_steps * sizeof(double))))
            return -1;
    }
    step_at *v = malloc((total ? total : 1) * sizeof *v);
    if (!v)
        return -1;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < s[i].n_steps; k++)
            v[m++] = (step_at){s[i].steps[k].number, s[i].steps[k].t.compute_ns, i, k};
    qsort(v, m, sizeof *v, by_step_compute);
    for (size_t i = 0, j; i < m; i = j) {
        for (j = i + 1; j < m && v[j].number == v[i].number; j++)
            ;
        int64_t med = v[i + (j - i - 1) / 2].compute;
        for (size_t q = i; q < j; q++)
            r->ranks[v[q].rank].step_ratio[v[q].k] = j - i > 1 && med > 0 ? (double)v[q].compute / (double)med : -1;
    }
    free(v);
    return 0;
}

/* The verdict: the cause of most of its late arrivals' excess, compute named data imbalance
 * when at least half of its compute excess is in ops that ran on other shapes than on the
 * median rank (and its kernels are not uniformly slower, which says the GPU); else, when its
 * kernels are uniformly slower, compute. */
static void verdict(pf_rank_culprit *rc)
{
    static const pf_straggler_verdict of[PF_WIN_CAUSES] = {[PF_WIN_COMPUTE] = PF_STRAGGLER_COMPUTE,
                                                 [PF_WIN_COPY] = PF_STRAGGLER_COPY,
                                                 [PF_WIN_COMM] = PF_STRAGGLER_COMM,
                                                 [PF_WIN_IDLE] = PF_STRAGGLER_HOST};
    int best = -1;
    for (int c = 0; rc->late > 0 && c < PF_WIN_CAUSES; c++)
        if (rc->excess_ns[c] > 0 && (best < 0 || rc->excess_ns[c] > rc->excess_ns[best]))
            best = c;
    rc->verdict = best >= 0 ? of[best] : rc->uniform ? PF_STRAGGLER_COMPUTE : PF_STRAGGLER_NONE;
    if (rc->verdict == PF_STRAGGLER_COMPUTE && best == PF_WIN_COMPUTE && !rc->uniform &&
        rc->data_ns >= rc->excess_ns[PF_WIN_COMPUTE] / 2)
        rc->verdict = PF_STRAGGLER_DATA;
}

int pf_ranks_culprits(const pf_rank_summary *s, size_t n, const pf_ranks_report *rep, pf_culprit_report *out,
                      pf_error *err)
{
    assert((s || n == 0) && rep && out);
    *out = (pf_culprit_report){0};
    size_t widest = 2;
    for (size_t i = 0; i < rep->n_instances; i++)
        widest = rep->instances[i].n > widest ? rep->instances[i].n : widest;
    at_start *order = malloc(widest * sizeof *order);
    out->late = malloc((rep->n_instances ? rep->n_instances : 1) * sizeof *out->late);
    out->ranks = calloc(n ? n : 1, sizeof *out->ranks);
    if (!order || !out->late || !out->ranks) {
        free(order);
        pf_culprit_report_free(out);
        return pf_fail(err, "out of memory");
    }
    out->n_ranks = n;
    out->windows = 1;
    for (size_t i = 0; i < n; i++) {
        out->ranks[i].rank = s[i].rank;
        out->windows &= s[i].wins != NULL || s[i].n_comms == 0;
    }
    for (size_t i = 0; i < rep->n_instances; i++)
        out->n_late += (size_t)late_arrival(s, rep, &rep->instances[i], order, &out->late[out->n_late]);
    free(order);
    qsort(out->late, out->n_late, sizeof *out->late, by_lateness);
    if (aggregate_late(s, n, out) || kernel_speed(s, n, out) || step_ratios(s, n, out)) {
        pf_culprit_report_free(out);
        return pf_fail(err, "out of memory");
    }
    for (size_t i = 0; i < n; i++)
        verdict(&out->ranks[i]);
    return 0;
}

void pf_culprit_report_free(pf_culprit_report *r)
{
    for (size_t i = 0; r->ranks && i < r->n_ranks; i++)
        free(r->ranks[i].step_ratio);
    free(r->late);
    free(r->ranks);
    *r = (pf_culprit_report){0};
}
