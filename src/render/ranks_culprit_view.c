/* ranks_culprit_view.c - --ranks' culprits printed: the late arrivals with the cause of each, the per-rank excess and verdict, and the lines naming them. */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "ranks_culprit_view.h"
#include "view_parts.h"

enum {
    L_RANK, L_NAME, L_PG, L_SEQ, L_START, L_LATE, L_REF, L_COMPUTE, L_COPY, L_COMM, L_IDLE, L_KIND, L_CULPRIT,
    L_CULPRIT_NS, L_GAP, L_SHAPES, L_REF_SHAPES, L_NCOLS
};

static const pf_col late_cols[L_NCOLS] = {
    [L_RANK] = {"Rank", "rank", 1, 0, NULL},
    [L_NAME] = {"Collective", "collective", 0, 0, NULL},
    [L_PG] = {"Group", "process_group", 0, 0, NULL},
    [L_SEQ] = {"Seq", "seq", 1, 0, NULL},
    [L_START] = {"Start (us)", "start_us", 1, 0, NULL},
    [L_LATE] = {"Late (us)", "late_us", 1, 0, NULL},
    [L_REF] = {"Median rank", "median_rank", 1, 0, NULL},
    [L_COMPUTE] = {"+Compute (us)", "compute_excess_us", 1, 0, NULL},
    [L_COPY] = {"+Copy (us)", "copy_excess_us", 1, 0, NULL},
    [L_COMM] = {"+Comm (us)", "comm_excess_us", 1, 0, NULL},
    [L_IDLE] = {"+Idle (us)", "idle_excess_us", 1, 0, NULL},
    [L_KIND] = {"Cause", "culprit_kind", 0, 0, NULL},
    [L_CULPRIT] = {"Culprit", "culprit", 0, 0, NULL},
    [L_CULPRIT_NS] = {"Culprit (us)", "culprit_excess_us", 1, 0, NULL},
    [L_GAP] = {"Gap (us)", "gap_us", 1, 0, NULL},
    [L_SHAPES] = {"Shapes", "culprit_shapes", 0, 0, NULL},
    [L_REF_SHAPES] = {"Median shapes", "median_shapes", 0, 0, NULL},
};

enum {
    K_RANK, K_LATE, K_LATE_NS, K_COMPUTE, K_COPY, K_COMM, K_IDLE, K_TOP_KIND, K_TOP, K_TOP_NS, K_COMPUTE_TIME,
    K_COMPUTE_RATIO, K_KERNEL_RATIO, K_SLOWER, K_UNIFORM, K_OTHER_SHAPES, K_VERDICT, K_NCOLS
};

static const pf_col rank_cols[K_NCOLS] = {
    [K_RANK] = {"Rank", "rank", 1, 0, NULL},
    [K_LATE] = {"Late", "late", 1, 0, NULL},
    [K_LATE_NS] = {"Late (us)", "late_us", 1, 0, NULL},
    [K_COMPUTE] = {"+Compute (us)", "compute_excess_us", 1, 0, NULL},
    [K_COPY] = {"+Copy (us)", "copy_excess_us", 1, 0, NULL},
    [K_COMM] = {"+Comm (us)", "comm_excess_us", 1, 0, NULL},
    [K_IDLE] = {"+Idle (us)", "idle_excess_us", 1, 0, NULL},
    [K_TOP_KIND] = {"Cause", "top_culprit_kind", 0, 0, NULL},
    [K_TOP] = {"Top culprit", "top_culprit", 0, 0, NULL},
    [K_TOP_NS] = {"Top (us)", "top_culprit_us", 1, 0, NULL},
    [K_COMPUTE_TIME] = {"Compute (us)", "compute_us", 1, 0, NULL},
    [K_COMPUTE_RATIO] = {"Compute x", "compute_ratio", 1, 0, NULL},
    [K_KERNEL_RATIO] = {"Kernels x", "kernel_ratio", 1, 0, NULL},
    [K_SLOWER] = {"Slower %", "slower_kernels_pct", 1, 0, NULL},
    [K_UNIFORM] = {"Uniform", "uniform", 0, 0, NULL},
    [K_OTHER_SHAPES] = {"Other shapes (us)", "other_shapes_us", 1, 0, NULL},
    [K_VERDICT] = {"Verdict", "verdict", 0, 0, NULL},
};

/* The columns a width keeps, most wanted first (Rank always shows; the copy and comm excess and
 * the compute time last, where the width has room, else named as hidden): the verdict and what
 * it rests on; per late arrival the collective, how late, and its culprit. */
static const int rank_wanted[] = {K_VERDICT, K_LATE_NS, K_TOP, K_TOP_NS, K_COMPUTE, K_IDLE, K_LATE, K_KERNEL_RATIO,
                                  K_SLOWER, K_UNIFORM, K_OTHER_SHAPES, K_COMPUTE_RATIO, K_TOP_KIND, K_COPY, K_COMM,
                                  K_COMPUTE_TIME};
static const int rank_ties[] = {K_TOP, K_TOP_NS, K_COMPUTE, K_IDLE, K_KERNEL_RATIO, K_SLOWER};
static const int late_wanted[] = {L_NAME, L_SEQ, L_LATE, L_CULPRIT, L_CULPRIT_NS, L_KIND, L_REF, L_GAP, L_COMPUTE,
                                  L_IDLE, L_COPY, L_COMM, L_PG, L_START, L_SHAPES, L_REF_SHAPES};
static const int late_ties[] = {L_CULPRIT, L_CULPRIT_NS};

void pf_culprit_print_text(FILE *out, const pf_table *t, int late, int width)
{
    assert(out && t && width >= 0);
    if (width == 0) {
        pf_table_print_text(out, t, 0);
        return;
    }
    pf_text_fit fit = {.width = width};
    if (late) {
        fit.cols = late_wanted;
        fit.ncols = (int)(sizeof late_wanted / sizeof *late_wanted);
        fit.ties = late_ties;
        fit.nties = 1;
    } else {
        fit.cols = rank_wanted;
        fit.ncols = (int)(sizeof rank_wanted / sizeof *rank_wanted);
        fit.ties = rank_ties;
        fit.nties = 3;
    }
    pf_view_hidden(out, width, t, &fit, pf_table_print_text_fit(out, t, &fit));
}

static double us(int64_t ns)
{
    return (double)ns / 1000.0;
}

pf_table *pf_culprit_late_table(const pf_culprit_report *c, size_t limit)
{
    assert(c);
    pf_table *t = pf_table_new(late_cols, L_NCOLS);
    for (size_t i = 0; t && i < c->n_late && (limit == 0 || i < limit); i++) {
        const pf_late_arrival *la = &c->late[i];
        int r = pf_table_add_row(t);
        pf_table_int(t, r, L_RANK, la->rank);
        pf_table_str(t, r, L_NAME, la->name);
        pf_table_str(t, r, L_PG, la->pg);
        pf_table_int(t, r, L_SEQ, la->seq);
        pf_table_num(t, r, L_START, us(la->start_ns), 3);
        pf_table_num(t, r, L_LATE, us(la->late_ns), 3);
        pf_table_int(t, r, L_REF, la->ref_rank);
        if (la->has_windows)
            for (int k = 0; k < PF_WIN_CAUSES; k++)
                pf_table_num(t, r, L_COMPUTE + k, us(la->excess_ns[k]), 3);
        pf_table_str(t, r, L_KIND, pf_culprit_kind_name(la->kind));
        if (la->label)
            pf_table_str(t, r, L_CULPRIT, la->label);
        if (la->kind != PF_CULPRIT_NONE)
            pf_table_num(t, r, L_CULPRIT_NS, us(la->label_ns), 3);
        if (la->kind == PF_CULPRIT_GAP)
            pf_table_num(t, r, L_GAP, us(la->gap_ns), 3);
        if (la->shapes)
            pf_table_str(t, r, L_SHAPES, la->shapes);
        if (la->ref_shapes)
            pf_table_str(t, r, L_REF_SHAPES, la->ref_shapes);
    }
    return t;
}

_Static_assert(L_IDLE - L_COMPUTE == 3 && K_IDLE - K_COMPUTE == 3 && PF_WIN_IDLE == 3,
               "the excess columns follow pf_win_cause");

pf_table *pf_culprit_rank_table(const pf_culprit_report *c, int all)
{
    assert(c);
    pf_table *t = pf_table_new(rank_cols, K_NCOLS);
    for (size_t i = 0; t && i < c->n_ranks; i++) {
        const pf_rank_culprit *rc = &c->ranks[i];
        if (!all && rc->verdict == PF_STRAGGLER_NONE && rc->late == 0)
            continue;
        int r = pf_table_add_row(t);
        pf_table_int(t, r, K_RANK, rc->rank);
        pf_table_int(t, r, K_LATE, rc->late);
        pf_table_num(t, r, K_LATE_NS, us(rc->late_ns), 3);
        for (int k = 0; k < PF_WIN_CAUSES; k++)
            pf_table_num(t, r, K_COMPUTE + k, us(rc->excess_ns[k]), 3);
        pf_table_str(t, r, K_TOP_KIND, pf_culprit_kind_name(rc->top_kind));
        if (rc->top_label)
            pf_table_str(t, r, K_TOP, rc->top_label);
        if (rc->top_kind != PF_CULPRIT_NONE)
            pf_table_num(t, r, K_TOP_NS, us(rc->top_ns), 3);
        pf_table_num(t, r, K_COMPUTE_TIME, us(rc->compute_ns), 3);
        if (rc->compute_ratio >= 0)
            pf_table_num(t, r, K_COMPUTE_RATIO, rc->compute_ratio, 3);
        if (rc->kernel_ratio >= 0) {
            pf_table_num(t, r, K_KERNEL_RATIO, rc->kernel_ratio, 3);
            pf_table_num(t, r, K_SLOWER, rc->slower_pct, 1);
        }
        pf_table_str(t, r, K_UNIFORM, rc->uniform ? "yes" : "no");
        pf_table_num(t, r, K_OTHER_SHAPES, us(rc->data_ns), 3);
        pf_table_str(t, r, K_VERDICT, pf_straggler_verdict_name(rc->verdict));
    }
    return t;
}

static void say_ms(FILE *out, int64_t ns)
{
    if (ns >= 1000000 || ns <= -1000000)
        fprintf(out, "%.1f ms", (double)ns / 1e6);
    else
        fprintf(out, "%.0f us", (double)ns / 1e3);
}

/* Prints the parts of the shape set a (pf_comm_window.top_shape: parts joined by " | ") that
 * the set b lacks, joined the same way: of the two ranks' calls, those that differ. */
static void say_shapes_apart(FILE *out, const char *a, const char *b)
{
    assert(a && b);
    static const char sep[] = " | ";
    int first = 1;
    for (const char *p = a; *p;) {
        const char *e = strstr(p, sep);
        size_t n = e ? (size_t)(e - p) : strlen(p);
        int found = 0;
        for (const char *q = b; *q && !found;) {
            const char *f = strstr(q, sep);
            size_t m = f ? (size_t)(f - q) : strlen(q);
            found = m == n && memcmp(p, q, n) == 0;
            q = f ? f + sizeof sep - 1 : q + m;
        }
        if (!found) {
            fprintf(out, "%s%.*s", first ? "" : sep, (int)n, p);
            first = 0;
        }
        p = e ? e + sizeof sep - 1 : p + n;
    }
    if (first) /* a's calls are all among b's */
        fputs("only shapes both ran", out);
}

/* "rank 5 reached allreduce #41 12.3 ms after rank 3: its `aten::mm` kernels took 11.9 ms more" */
static void say_late(FILE *out, const pf_late_arrival *la)
{
    fprintf(out, "Rank %d reached %s #%lld (group %s) ", la->rank, la->name, (long long)la->seq, la->pg);
    say_ms(out, la->late_ns);
    fprintf(out, " after median rank %d", la->ref_rank);
    if (la->kind == PF_CULPRIT_KERNEL) {
        fprintf(out, ": its `%s` kernels took ", la->label ? la->label : "?");
        say_ms(out, la->label_ns);
        fprintf(out, " more than rank %d's", la->ref_rank);
        if (la->other_shapes) {
            fputs(", on other shapes (", out);
            say_shapes_apart(out, la->shapes, la->ref_shapes);
            fputs(" here; ", out);
            say_shapes_apart(out, la->ref_shapes, la->shapes);
            fprintf(out, " on rank %d)", la->ref_rank);
        }
    } else if (la->kind == PF_CULPRIT_GAP) {
        fputs(": ", out);
        say_ms(out, la->label_ns);
        fputs(" more idle GPU time (host wait), its longest gap ", out);
        say_ms(out, la->gap_ns);
        if (la->label)
            fprintf(out, " under `%s`", la->label);
        else
            fputs(" under no annotation", out);
    } else if (la->kind != PF_CULPRIT_NONE) {
        fprintf(out, ": %s ", la->kind == PF_CULPRIT_COPY ? "copies took" : "other collectives took");
        say_ms(out, la->label_ns);
        fputs(" more", out);
    } else if (!la->has_windows)
        fputs(" (no window to compare: the rank's first collective, or a summary without windows)", out);
    else
        fputs(": nothing in its window took longer than on the median rank", out);
    fputs("\n", out);
}

static void say_rank(FILE *out, const pf_rank_culprit *rc)
{
    fprintf(out, "Rank %d: %s", rc->rank, pf_straggler_verdict_name(rc->verdict));
    if (rc->late > 0) {
        fprintf(out, ": late at %lld collective(s) by ", (long long)rc->late);
        say_ms(out, rc->late_ns);
        fputs(" in all", out);
        if (rc->top_kind != PF_CULPRIT_NONE) {
            fputs("; most of the excess ", out);
            if (rc->top_kind == PF_CULPRIT_KERNEL)
                fprintf(out, "in `%s` kernels (", rc->top_label ? rc->top_label : "?");
            else if (rc->top_kind == PF_CULPRIT_GAP && rc->top_label)
                fprintf(out, "idle GPU time under `%s` (", rc->top_label);
            else if (rc->top_kind == PF_CULPRIT_GAP)
                fputs("idle GPU time under no annotation (", out);
            else
                fprintf(out, "in %s (", pf_culprit_kind_name(rc->top_kind));
            say_ms(out, rc->top_ns);
            fputs(")", out);
        }
    }
    if (rc->verdict == PF_STRAGGLER_DATA) {
        fputs("; ", out);
        say_ms(out, rc->data_ns);
        fputs(" of its compute excess in ops that ran on other shapes than on the median rank: more work on this rank "
              "(uneven batches or sequence lengths), not a slower GPU",
              out);
    }
    if (rc->uniform)
        fprintf(out, "; every kernel slower: %.3fx the median rank's mean durations over %.0f%% of its kernel time, "
                     "a likely clock, thermal or hardware cause",
                rc->kernel_ratio, rc->slower_pct);
    fputs("\n", out);
}

void pf_culprit_prose(FILE *out, const pf_culprit_report *c)
{
    assert(out && c);
    int any = 0;
    for (size_t i = 0; i < c->n_ranks; i++)
        any |= c->ranks[i].verdict != PF_STRAGGLER_NONE;
    if (!any) {
        fprintf(out, "Culprits: no clear straggler: no rank started a matched collective more than %.0f us after the "
                     "median rank, and no rank's kernels ran %.0f%% slower than the median rank's\n",
                us(PF_CULPRIT_THRESHOLD_NS), 100 * (PF_SLOW_RATIO - 1));
        return;
    }
    fprintf(out, "Culprits (a rank is late when it starts a matched collective last, more than %.0f us after the "
                 "median rank; its window since its previous collective is compared with the median rank's):\n",
            us(PF_CULPRIT_THRESHOLD_NS));
    for (size_t i = 0; i < c->n_ranks; i++)
        if (c->ranks[i].verdict != PF_STRAGGLER_NONE)
            say_rank(out, &c->ranks[i]);
    for (size_t i = 0; i < c->n_late && i < 3; i++)
        say_late(out, &c->late[i]);
    if (!c->windows)
        fputs("Some summaries carry no windows (written by an older profana): their late arrivals have no cause\n",
              out);
}
