/* ranks_view.c - --ranks printed: the per-rank table, the collectives matched across ranks and the stragglers (named in a sentence; one line why when nothing matched), in text, CSV, Markdown or one JSON document; its pieces for the report. */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include <math.h>
#include <stdlib.h>

#include "profana/view.h"
#include "ranks_culprit_view.h"
#include "ranks_inspector_view.h"
#include "view_parts.h"

enum { R_RANK, R_TRACE, R_NODE, R_GPU, R_BUSY, R_COMM, R_EXPOSED, R_EXPOSED_PCT, R_IDLE, R_SPAN, R_COMPUTE, R_NCOLS };

static const pf_col rank_cols[R_NCOLS] = {
    [R_RANK] = {"Rank", "rank", 1, 0, NULL},
    [R_TRACE] = {"Trace", "trace", 0, 0, NULL},
    [R_NODE] = {"Node", "node", 0, 0, NULL},
    [R_GPU] = {"GPU (us)", "gpu_us", 1, 0, NULL},
    [R_BUSY] = {"Busy (us)", "busy_us", 1, 0, NULL},
    [R_COMM] = {"Comm (us)", "comm_us", 1, 0, NULL},
    [R_EXPOSED] = {"Exposed comm (us)", "exposed_comm_us", 1, 0, NULL},
    [R_EXPOSED_PCT] = {"Exposed %", "exposed_pct", 1, 0, NULL},
    [R_IDLE] = {"Idle (us)", "idle_us", 1, 0, NULL},
    [R_SPAN] = {"Span (us)", "span_us", 1, 0, NULL},
    [R_COMPUTE] = {"Compute (us)", "compute_us", 1, 0, NULL},
};

enum { P_RANK, P_STEP, P_GPU, P_BUSY, P_COMM, P_EXPOSED, P_EXPOSED_PCT, P_IDLE, P_SPAN, P_COMPUTE, P_COMPUTE_X, P_NCOLS };

/* The rank table's time columns after Rank and Step, in the order times_cells fills them. */
static const pf_col step_cols[P_NCOLS] = {
    [P_RANK] = {"Rank", "rank", 1, 0, NULL},
    [P_STEP] = {"Step", "step", 1, 0, NULL},
    [P_GPU] = {"GPU (us)", "gpu_us", 1, 0, NULL},
    [P_BUSY] = {"Busy (us)", "busy_us", 1, 0, NULL},
    [P_COMM] = {"Comm (us)", "comm_us", 1, 0, NULL},
    [P_EXPOSED] = {"Exposed comm (us)", "exposed_comm_us", 1, 0, NULL},
    [P_EXPOSED_PCT] = {"Exposed %", "exposed_pct", 1, 0, NULL},
    [P_IDLE] = {"Idle (us)", "idle_us", 1, 0, NULL},
    [P_SPAN] = {"GPU span (us)", "span_us", 1, 0, NULL},
    [P_COMPUTE] = {"Compute (us)", "compute_us", 1, 0, NULL},
    [P_COMPUTE_X] = {"Compute x", "compute_ratio", 1, 0, NULL},
};

enum { C_NAME, C_PG, C_N, C_NODES, C_BYTES, C_COUNT, C_TRANSFER, C_SKEW, C_SKEW_MAX, C_ALGBW, C_BUSBW, C_LINK, C_NCOLS };

static const pf_col coll_cols[C_NCOLS] = {
    [C_NAME] = {"Collective", "name", 0, 0, NULL},
    [C_PG] = {"Group", "process_group", 0, 0, NULL},
    [C_N] = {"Ranks", "group_size", 1, 0, NULL},
    [C_NODES] = {"Nodes", "nodes", 0, 0, NULL},
    [C_BYTES] = {"Bytes", "bytes", 1, 0, NULL},
    [C_COUNT] = {"Count", "count", 1, 0, NULL},
    [C_TRANSFER] = {"Transfer (us)", "transfer_us", 1, 0, NULL},
    [C_SKEW] = {"Skew (us)", "skew_us", 1, 0, NULL},
    [C_SKEW_MAX] = {"Max skew (us)", "skew_max_us", 1, 0, NULL},
    [C_ALGBW] = {"algbw (GB/s)", "algbw_gbps", 1, 0, NULL},
    [C_BUSBW] = {"busbw (GB/s)", "busbw_gbps", 1, 0, NULL},
    [C_LINK] = {"Link %", "link_pct", 1, 0, NULL},
};

enum { S_RANK, S_LATE, S_WAIT, S_NCOLS };

static const pf_col strag_cols[S_NCOLS] = {
    [S_RANK] = {"Rank", "rank", 1, 0, NULL},
    [S_LATE] = {"Last to start", "late", 1, 0, NULL},
    [S_WAIT] = {"Wait imposed (us)", "wait_us", 1, 0, NULL},
};

/* The columns a width keeps, most wanted first (the first column always shows): per rank its
 * GPU time and how much of its communication was exposed; per collective its count, transfer
 * time and how close it came to the link. Ties: a share and the figure it is a share of. */
static const int rank_wanted[] = {R_TRACE, R_GPU, R_EXPOSED_PCT, R_COMM, R_EXPOSED, R_BUSY, R_IDLE, R_SPAN, R_COMPUTE,
                                  R_NODE};
static const int rank_ties[] = {R_EXPOSED_PCT, R_COMM};
static const int step_wanted[] = {P_STEP, P_GPU, P_EXPOSED_PCT, P_COMM, P_EXPOSED, P_BUSY, P_IDLE, P_SPAN, P_COMPUTE_X,
                                  P_COMPUTE};
static const int step_ties[] = {P_EXPOSED_PCT, P_COMM};
static const int coll_wanted[] = {C_COUNT, C_TRANSFER, C_BUSBW, C_LINK, C_SKEW, C_BYTES, C_N, C_PG, C_SKEW_MAX, C_ALGBW,
                                  C_NODES};
static const int coll_ties[] = {C_BUSBW, C_LINK, C_SKEW, C_SKEW_MAX};
static const int strag_wanted[] = {S_LATE, S_WAIT};

static double us(int64_t ns)
{
    return (double)ns / 1000.0;
}

/* One row of the rank or step table: the times of a rank, or of one step of it. */
static void times_cells(pf_table *t, int r, int first, const pf_rank_times *tm)
{
    pf_table_num(t, r, first, us(tm->gpu_ns), 3);
    pf_table_num(t, r, first + 1, us(tm->busy_ns), 3);
    pf_table_num(t, r, first + 2, us(tm->comm_ns), 3);
    pf_table_num(t, r, first + 3, us(tm->exposed_ns), 3);
    if (tm->comm_ns > 0)
        pf_table_num(t, r, first + 4, 100.0 * (double)tm->exposed_ns / (double)tm->comm_ns, 2);
    pf_table_num(t, r, first + 5, us(tm->idle_ns), 3);
    pf_table_num(t, r, first + 6, us(tm->span_ns), 3);
}

static pf_table *rank_table(const pf_rank_summary *s, size_t n)
{
    pf_table *t = pf_table_new(rank_cols, R_NCOLS);
    for (size_t i = 0; t && i < n; i++) {
        int r = pf_table_add_row(t);
        pf_table_int(t, r, R_RANK, s[i].rank);
        pf_table_str(t, r, R_TRACE, s[i].path);
        if (s[i].node)
            pf_table_str(t, r, R_NODE, s[i].node);
        times_cells(t, r, R_GPU, &s[i].all);
        pf_table_num(t, r, R_COMPUTE, us(s[i].all.compute_ns), 3);
    }
    return t;
}

/* The same times per rank and step; no table (NULL, *none 1) when no rank has steps. */
static pf_table *step_table(const pf_rank_summary *s, size_t n, const pf_culprit_report *cul, int *none)
{
    *none = 1;
    for (size_t i = 0; i < n; i++)
        *none &= s[i].n_steps == 0;
    if (*none)
        return NULL;
    pf_table *t = pf_table_new(step_cols, P_NCOLS);
    for (size_t i = 0; t && i < n; i++)
        for (size_t k = 0; k < s[i].n_steps; k++) {
            int r = pf_table_add_row(t);
            pf_table_int(t, r, P_RANK, s[i].rank);
            pf_table_int(t, r, P_STEP, s[i].steps[k].number);
            times_cells(t, r, P_GPU, &s[i].steps[k].t);
            pf_table_num(t, r, P_COMPUTE, us(s[i].steps[k].t.compute_ns), 3);
            const double *x = i < cul->n_ranks ? cul->ranks[i].step_ratio : NULL;
            if (x && x[k] >= 0)
                pf_table_num(t, r, P_COMPUTE_X, x[k], 3);
        }
    return t;
}

static pf_table *coll_table(const pf_ranks_report *rep)
{
    pf_table *t = pf_table_new(coll_cols, C_NCOLS);
    for (size_t i = 0; t && i < rep->n_rows; i++) {
        const pf_coll_row *c = &rep->rows[i];
        int r = pf_table_add_row(t);
        pf_table_str(t, r, C_NAME, c->name);
        pf_table_str(t, r, C_PG, c->pg);
        pf_table_int(t, r, C_N, c->group_size);
        if (c->nodes != PF_NODES_UNKNOWN)
            pf_table_str(t, r, C_NODES, c->nodes == PF_NODES_ONE ? "intra" : "inter");
        if (c->bytes >= 0)
            pf_table_int(t, r, C_BYTES, c->bytes);
        pf_table_int(t, r, C_COUNT, c->count);
        pf_table_num(t, r, C_TRANSFER, us(c->transfer_ns) / (double)c->count, 3);
        pf_table_num(t, r, C_SKEW, us(c->skew_ns) / (double)c->count, 3);
        pf_table_num(t, r, C_SKEW_MAX, us(c->skew_max_ns), 3);
        if (c->algbw_gbps >= 0)
            pf_table_num(t, r, C_ALGBW, c->algbw_gbps, 1);
        if (c->busbw_gbps >= 0)
            pf_table_num(t, r, C_BUSBW, c->busbw_gbps, 1);
        if (c->link_pct >= 0) {
            pf_table_num(t, r, C_LINK, c->link_pct, 1);
            if (c->link_pct > 100)
                pf_table_mark(t, r, C_LINK, "!");
        }
    }
    return t;
}

static pf_table *strag_table(const pf_ranks_report *rep)
{
    pf_table *t = pf_table_new(strag_cols, S_NCOLS);
    for (size_t i = 0; t && i < rep->n_stragglers; i++) {
        int r = pf_table_add_row(t);
        pf_table_int(t, r, S_RANK, rep->stragglers[i].rank);
        pf_table_int(t, r, S_LATE, rep->stragglers[i].late);
        pf_table_num(t, r, S_WAIT, us(rep->stragglers[i].wait_ns), 3);
    }
    return t;
}

enum { T_RANKS = PF_RVIEW_RANKS, T_STEPS = PF_RVIEW_STEPS, T_COLLS = PF_RVIEW_COLLS, T_STRAGS = PF_RVIEW_STRAGS, T_COUNT = PF_RVIEW_TABLES };

static const struct {
    const int *wanted, *ties;
    int nwanted, nties;
} table_fit[T_COUNT] = {
#define FIT(w, t) {w, t, (int)(sizeof w / sizeof w[0]), (int)(sizeof t / sizeof t[0] / 2)}
    [T_RANKS] = FIT(rank_wanted, rank_ties),
    [T_STEPS] = FIT(step_wanted, step_ties),
    [T_COLLS] = FIT(coll_wanted, coll_ties),
    [T_STRAGS] = {strag_wanted, NULL, 2, 0},
#undef FIT
};

/* The length of the directory part every path shares ("testdata/multirank/"): the Trace
 * column shows the rest, the counts line names the directory once. */
static size_t common_dir(const pf_rank_summary *s, size_t n)
{
    if (n == 0 || !s[0].path)
        return 0;
    size_t len = strlen(s[0].path);
    for (size_t i = 1; i < n; i++) {
        size_t k = 0;
        while (k < len && s[i].path && s[i].path[k] == s[0].path[k])
            k++;
        len = k;
    }
    while (len > 0 && s[0].path[len - 1] != '/')
        len--;
    return len;
}

/* One placement's figures: "N instances, transfer T us, skew S us". */
static void print_split(FILE *out, const char *what, const pf_node_split *x)
{
    fprintf(out, "%s %lld instances, transfer %.3f us, skew %.3f us", what, (long long)x->count, us(x->transfer_ns),
            us(x->skew_ns));
}

/* The nodes (host_name) and the matched collectives within one node and across nodes; the split
 * is unknown while a matched instance has a rank without host_name. */
static void print_nodes(FILE *out, const pf_ranks_report *rep)
{
    if (rep->n_nodes == 0) {
        fputs("Nodes: unknown (a trace without host_name): intra- and inter-node collectives not told apart\n", out);
        return;
    }
    fprintf(out, "Nodes: %zu (by host_name)", rep->n_nodes);
    if (rep->node_unknown == 0 && rep->intra.count + rep->inter.count > 0) {
        print_split(out, "; intra-node", &rep->intra);
        print_split(out, "; inter-node", &rep->inter);
    }
    fputc('\n', out);
}

void pf_rview_counts(FILE *out, const pf_rank_summary *s, size_t n, const pf_ranks_report *rep)
{
    assert(out && (s || n == 0) && rep);
    size_t named = 0;
    for (size_t i = 0; i < n; i++)
        named += (size_t)s[i].rank_from_trace;
    size_t dir = common_dir(s, n);
    fprintf(out, "Ranks: %zu (%zu from distributedInfo.rank, %zu by the order given)", n, named, n - named);
    if (dir)
        fprintf(out, "; traces in %.*s", (int)dir, s[0].path);
    fputc('\n', out);
    fprintf(out,
            "Collectives: %lld instances matched on every rank of their group; %lld collective kernels not matched; "
            "%lld communication kernels without collective args (launched before the profiler's window, or "
            "recorded without them): not matched\n",
            (long long)rep->matched, (long long)rep->unmatched, (long long)rep->no_args);
    if (rep->by_seq > 0)
        fprintf(out, "Matched on the collectives' sequence numbers (args Seq): %lld instances; the rest by their "
                     "order within their process group\n", (long long)rep->by_seq);
    print_nodes(out, rep);
    if (rep->link_gbps > 0)
        fprintf(out, "Link: %.0f GB/s per direction (%s)\n", rep->link_gbps, rep->link_source);
    else
        fputs("Link: unknown (the device table has no link figure for these ranks' devices, or they differ): "
              "Link % is '-'\n",
              out);
}

_Static_assert(R_SPAN - R_GPU == 6 && P_SPAN - P_GPU == 6, "times_cells fills seven columns in this order");

static int make_tables(pf_table *t[T_COUNT], const pf_rank_summary *s, size_t n, const pf_ranks_report *rep,
                       const pf_culprit_report *cul)
{
    int none;
    t[T_RANKS] = rank_table(s, n);
    t[T_STEPS] = step_table(s, n, cul, &none);
    t[T_COLLS] = coll_table(rep);
    t[T_STRAGS] = strag_table(rep);
    for (int k = 0; k < T_COUNT; k++)
        if ((!t[k] && !(k == T_STEPS && none)) || (t[k] && pf_table_status(t[k])))
            return -1;
    return 0;
}

static void free_tables(pf_table *t[T_COUNT])
{
    for (int k = 0; k < T_COUNT; k++)
        pf_table_free(t[k]);
}

int pf_rview_tables(pf_table *t[PF_RVIEW_TABLES], const pf_rank_summary *s, size_t n, const pf_ranks_report *rep,
                    const pf_culprit_report *cul, int rel)
{
    assert(t && (s || n == 0) && rep && cul);
    int rc = make_tables(t, s, n, rep, cul);
    size_t dir = rel ? common_dir(s, n) : 0;
    for (size_t i = 0; rc == 0 && dir && i < n; i++)
        pf_table_label(t[T_RANKS], (int)i, R_TRACE, s[i].path + dir);
    return rc;
}

void pf_rview_free(pf_table *t[PF_RVIEW_TABLES])
{
    free_tables(t);
}

int pf_rview_no_match(FILE *out, const pf_rank_summary *s, size_t n, const pf_ranks_report *rep)
{
    assert(out && (s || n == 0) && rep);
    if (rep->matched > 0)
        return 0;
    size_t comms = 0;
    for (size_t i = 0; i < n; i++)
        comms += s[i].n_comms;
    if (comms == 0)
        fputs("No collective matched: no rank's trace has communication kernels (NCCL, RCCL), so there is no "
              "collective, skew or straggler to show.\n", out);
    else if (rep->unmatched > 0)
        fprintf(out, "No collective matched: none of the %lld collective kernels with args has its instance on every "
                     "rank of its group (Group size) with the same kind and size; give every rank's trace, of the "
                     "same steps.\n", (long long)rep->unmatched);
    else
        fprintf(out, "No collective matched: none of the %zu communication kernels carries collective args "
                     "(launched before the profiler's window, or recorded without record_shapes).\n", comms);
    return 1;
}

/* Per rank (index into s), its share of the matched instances (each instance's 1 / its ranks),
 * that share's variance under a fair draw and the instances, summed over those it is in. */
static int rank_shares(const pf_ranks_report *rep, size_t n, double *share, double *var, double *in_n)
{
    for (size_t i = 0; i < n; i++)
        share[i] = var[i] = in_n[i] = 0;
    for (size_t k = 0; k < rep->n_instances; k++) {
        const pf_coll_instance *in = &rep->instances[k];
        double p = in->n ? 1.0 / (double)in->n : 0;
        for (size_t m = in->first; m < in->first + in->n; m++) {
            size_t r = rep->members[m].rank;
            if (r >= n)
                return -1;
            share[r] += p;
            var[r] += p * (1 - p);
            in_n[r] += 1;
        }
    }
    return 0;
}

void pf_rview_stragglers(FILE *out, const pf_rank_summary *s, size_t n, const pf_ranks_report *rep)
{
    assert(out && (s || n == 0) && rep);
    if (rep->matched <= 0 || n == 0)
        return;
    double *share = malloc(3 * n * sizeof *share);
    if (!share || rank_shares(rep, n, share, share + n, share + 2 * n)) {
        free(share);
        return;
    }
    const double *var = share + n, *in_n = share + 2 * n;
    int named = 0;
    for (size_t k = 0; k < rep->n_stragglers; k++) { /* most waiting imposed first */
        const pf_straggler *g = &rep->stragglers[k];
        size_t i = 0;
        while (i < n && s[i].rank != g->rank)
            i++;
        /* more than its share, by more than two standard deviations of a fair draw, and late
         * by more than the culprits' threshold on average: ranks a few us apart (launch
         * jitter) are last by turns, and naming one would hide the rank that costs the time */
        if (i == n || (double)g->late <= share[i] + 2 * sqrt(var[i]) || (double)g->late <= share[i] ||
            (double)g->wait_ns / (double)g->late <= (double)PF_CULPRIT_THRESHOLD_NS)
            continue;
        if (named++ >= 3)
            continue;
        fprintf(out, "%s rank %d was last to start %lld of its %.0f matched collectives (its share %.1f), imposing "
                     "%.3f us of waiting (%.3f us each)", named > 1 ? ";" : "Stragglers:", g->rank, (long long)g->late,
                in_n[i], share[i], us(g->wait_ns), us(g->wait_ns) / (double)g->late);
    }
    if (named > 3)
        fprintf(out, "; and %d more ranks (the table)", named - 3);
    if (named)
        fputs(".\n", out);
    else
        fprintf(out, "Stragglers: no clear straggler: no rank was last to start a matched collective more often than "
                     "its share (each instance's 1 / its ranks) by more than chance and %.0f us each on average.\n",
                us(PF_CULPRIT_THRESHOLD_NS));
    free(share);
}

/* The culprits after the other tables: prose, the ranks with a verdict, the late arrivals
 * (text and Markdown: the latest PF_CULPRIT_TEXT_ROWS; CSV: every rank and every one). */
static int print_culprits(FILE *out, pf_format format, int width, const pf_culprit_report *cul)
{
    int csv = format == PF_FMT_CSV;
    pf_table *ranks = pf_culprit_rank_table(cul, csv);
    pf_table *late = pf_culprit_late_table(cul, csv ? 0 : PF_CULPRIT_TEXT_ROWS);
    int rc = ranks && late && !pf_table_status(ranks) && !pf_table_status(late) ? 0 : -1;
    if (rc == 0 && !csv) {
        fputc('\n', out);
        pf_culprit_prose(out, cul);
    }
    pf_table *t[2] = {ranks, late};
    for (int k = 0; rc == 0 && k < 2; k++) {
        if (!csv && pf_table_rows(t[k]) == 0)
            continue;
        fputc('\n', out);
        if (format == PF_FMT_MD)
            pf_table_print_md(out, t[k], 0);
        else if (csv)
            pf_table_print_csv(out, t[k], 1);
        else
            pf_culprit_print_text(out, t[k], k == 1, width);
    }
    if (rc == 0 && !csv && cul->n_late > PF_CULPRIT_TEXT_ROWS)
        fprintf(out, "(the %d latest of %zu late arrivals; --format json or csv lists them all)\n",
                PF_CULPRIT_TEXT_ROWS, cul->n_late);
    pf_table_free(ranks);
    pf_table_free(late);
    return rc;
}

static int print_tables(FILE *out, pf_format format, int width, const pf_rank_summary *s, size_t n,
                        const pf_ranks_report *rep, const pf_culprit_report *cul)
{
    pf_table *t[T_COUNT];
    /* text and Markdown: file names relative to the directory the counts line names */
    int csv = format == PF_FMT_CSV;
    int rc = pf_rview_tables(t, s, n, rep, cul, !csv);
    if (rc == 0 && !csv) {
        pf_rview_counts(out, s, n, rep);
        fputc('\n', out);
    }
    /* text and Markdown: one line saying why nothing matched, not an empty table and zeros */
    int none = !csv && rep->matched <= 0;
    for (int k = 0; rc == 0 && k < T_COUNT; k++) {
        if (!t[k] || (none && (k == T_COLLS || k == T_STRAGS)))
            continue;
        if (k > 0)
            fputc('\n', out);
        pf_view_print_table(out, format, width, t[k],
                            (pf_text_fit){.cols = table_fit[k].wanted, .ncols = table_fit[k].nwanted,
                                          .ties = table_fit[k].ties, .nties = table_fit[k].nties});
    }
    if (rc == 0 && none) {
        fputc('\n', out);
        pf_rview_no_match(out, s, n, rep);
    }
    if (rc == 0 && !csv)
        pf_rview_stragglers(out, s, n, rep);
    int over = 0;
    for (size_t i = 0; i < rep->n_rows; i++)
        over |= rep->rows[i].link_pct > 100;
    if (rc == 0 && over && !csv)
        fputs("!: above the link's peak: the link figure does not fit this machine (another topology, or a "
              "transfer within one GPU)\n",
              out);
    if (rc == 0)
        rc = print_culprits(out, format, width, cul);
    free_tables(t);
    return rc;
}

static void json_split(pf_jw *w, const char *key, const pf_node_split *x, int known)
{
    pf_jw_key(w, key);
    if (!known) {
        pf_jw_null(w);
        return;
    }
    pf_jw_obj_begin(w);
    pf_jw_key(w, "instances");
    pf_jw_int(w, x->count);
    pf_jw_key(w, "transfer_us");
    pf_jw_num(w, us(x->transfer_ns));
    pf_jw_key(w, "skew_us");
    pf_jw_num(w, us(x->skew_ns));
    pf_jw_obj_end(w);
}

/* "nodes" (distinct host_name; null when a rank has none), "intra_node" and "inter_node" (null
 * while a matched instance has a rank of unknown node), "node_unknown_instances". */
static void json_nodes(pf_jw *w, const pf_ranks_report *rep)
{
    pf_jw_key(w, "nodes");
    if (rep->n_nodes)
        pf_jw_int(w, (int64_t)rep->n_nodes);
    else
        pf_jw_null(w);
    int known = rep->n_nodes > 0 && rep->node_unknown == 0;
    json_split(w, "intra_node", &rep->intra, known);
    json_split(w, "inter_node", &rep->inter, known);
    pf_jw_key(w, "node_unknown_instances");
    pf_jw_int(w, rep->node_unknown);
}

static int print_json(FILE *out, const pf_rank_summary *s, size_t n, const pf_ranks_report *rep,
                      const pf_culprit_report *cul, const pf_insp_report *insp)
{
    pf_table *t[T_COUNT];
    static const char *const keys[T_COUNT] = {"ranks", "steps", "collectives", "stragglers"};
    int rc = make_tables(t, s, n, rep, cul);
    if (rc == 0) {
        pf_jw w;
        pf_jw_init(&w, out);
        pf_jw_doc_begin(&w);
        for (int k = 0; k < T_COUNT; k++) {
            pf_jw_key(&w, keys[k]);
            if (t[k])
                pf_table_json_rows(&w, t[k]);
            else {
                pf_jw_arr_begin(&w);
                pf_jw_arr_end(&w);
            }
        }
        pf_jw_key(&w, "matched");
        pf_jw_int(&w, rep->matched);
        pf_jw_key(&w, "unmatched");
        pf_jw_int(&w, rep->unmatched);
        pf_jw_key(&w, "no_args");
        pf_jw_int(&w, rep->no_args);
        pf_jw_key(&w, "matched_by_seq");
        pf_jw_int(&w, rep->by_seq);
        pf_jw_key(&w, "link_gbps");
        if (rep->link_gbps > 0)
            pf_jw_num(&w, rep->link_gbps);
        else
            pf_jw_null(&w);
        pf_jw_key(&w, "link_source");
        pf_jw_str(&w, rep->link_source);
        json_nodes(&w, rep);
        pf_table *ct[2] = {pf_culprit_rank_table(cul, 1), pf_culprit_late_table(cul, 0)};
        static const char *const ckeys[2] = {"culprits", "late_arrivals"};
        for (int k = 0; k < 2; k++) {
            pf_jw_key(&w, ckeys[k]);
            if (ct[k] && !pf_table_status(ct[k]))
                pf_table_json_rows(&w, ct[k]);
            else
                rc = -1;
            pf_table_free(ct[k]);
        }
        pf_jw_key(&w, "culprit_threshold_us");
        pf_jw_num(&w, us(PF_CULPRIT_THRESHOLD_NS));
        pf_jw_key(&w, "culprit_windows");
        pf_jw_bool(&w, cul->windows);
        pf_insp_json(&w, s, rep, insp);
        pf_jw_obj_end(&w);
        fputc('\n', out);
    }
    free_tables(t);
    return rc;
}

/* --format ndjson: a line per row of the four tables and the two culprit tables, each with
 * its "table". */
static int print_ndjson(FILE *out, const pf_rank_summary *s, size_t n, const pf_ranks_report *rep,
                        const pf_culprit_report *cul)
{
    pf_table *t[T_COUNT];
    static const char *const keys[T_COUNT] = {"ranks", "steps", "collectives", "stragglers"};
    int rc = make_tables(t, s, n, rep, cul);
    for (int k = 0; rc == 0 && k < T_COUNT; k++)
        if (t[k])
            pf_table_print_ndjson(out, t[k], keys[k], NULL, -1);
    free_tables(t);
    pf_table *ct[2] = {pf_culprit_rank_table(cul, 1), pf_culprit_late_table(cul, 0)};
    static const char *const ckeys[2] = {"culprits", "late_arrivals"};
    for (int k = 0; k < 2; k++) {
        if (rc == 0 && ct[k] && !pf_table_status(ct[k]))
            pf_table_print_ndjson(out, ct[k], ckeys[k], NULL, -1);
        else
            rc = -1;
        pf_table_free(ct[k]);
    }
    return rc;
}

int pf_view_ranks(FILE *out, pf_format format, int width, const pf_rank_summary *s, size_t n,
                  const pf_ranks_report *rep, const pf_culprit_report *cul, const pf_insp_report *insp)
{
    assert(out && (s || n == 0) && rep && cul && width >= 0);
    if (format == PF_FMT_JSON)
        return print_json(out, s, n, rep, cul, insp);
    if (format == PF_FMT_NDJSON)
        return print_ndjson(out, s, n, rep, cul);
    /* prose wrapped at the width (text only); the tables fitted to it */
    FILE *w = pf_wrap_open(out, format == PF_FMT_TEXT ? width : 0);
    int fit = format == PF_FMT_TEXT ? width : 0;
    int rc = n > 0 || !insp ? print_tables(w, format, fit, s, n, rep, cul) : 0;
    if (rc == 0 && insp)
        rc = pf_insp_print(w, format, fit, s, rep, insp, n > 0);
    pf_wrap_close(w, out);
    return rc;
}

/* One time figure per member, under the summary's names (the reader's, ranks_summary.c). */
static void summary_times(pf_jw *w, const pf_rank_times *t)
{
    pf_jw_key(w, "gpu_ns");
    pf_jw_int(w, t->gpu_ns);
    pf_jw_key(w, "busy_ns");
    pf_jw_int(w, t->busy_ns);
    pf_jw_key(w, "span_ns");
    pf_jw_int(w, t->span_ns);
    pf_jw_key(w, "comm_ns");
    pf_jw_int(w, t->comm_ns);
    pf_jw_key(w, "exposed_ns");
    pf_jw_int(w, t->exposed_ns);
    pf_jw_key(w, "compute_ns");
    pf_jw_int(w, t->compute_ns);
}

static void text_or_null(pf_jw *w, const char *key, const char *v)
{
    pf_jw_key(w, key);
    pf_jw_str(w, v[0] ? v : NULL);
}

static void summary_comm(pf_jw *w, const pf_comm_rec *c)
{
    pf_jw_obj_begin(w);
    text_or_null(w, "name", c->name);
    text_or_null(w, "process_group", c->pg);
    pf_jw_key(w, "group_size");
    if (c->group_size > 0)
        pf_jw_int(w, c->group_size);
    else
        pf_jw_null(w);
    pf_jw_key(w, "bytes");
    if (c->bytes >= 0)
        pf_jw_int(w, c->bytes);
    else
        pf_jw_null(w);
    pf_jw_key(w, "ts_ns");
    pf_jw_int(w, c->ts_ns);
    pf_jw_key(w, "dur_ns");
    pf_jw_int(w, c->dur_ns);
    pf_jw_obj_end(w);
}

static void int_row(pf_jw *w, const int64_t *v, int n)
{
    pf_jw_arr_begin(w);
    for (int k = 0; k < n; k++)
        pf_jw_int(w, v[k]);
    pf_jw_arr_end(w);
}

/* What the culprits compare (docs/ranks.md, "Rank summaries"): the labels, one window per
 * communication kernel as [start_ns, compute_ns, copy_ns, comm_ns, idle_ns, gap_ns,
 * gap_label, then PF_WIN_TOP pairs label, ns], their shape sets as PF_WIN_TOP labels a window
 * ("window_shapes"), the kernels as [label, count, sum_ns]. */
static void summary_culprit(pf_jw *w, const pf_rank_summary *s)
{
    pf_jw_key(w, "compute_sum_ns");
    pf_jw_int(w, s->compute_sum_ns);
    pf_jw_key(w, "labels");
    pf_jw_arr_begin(w);
    for (size_t k = 0; k < s->n_labels; k++)
        pf_jw_str(w, s->labels[k]);
    pf_jw_arr_end(w);
    if (s->wins || s->n_comms == 0) {
        pf_jw_key(w, "windows");
        pf_jw_arr_begin(w);
        for (size_t k = 0; k < s->n_comms; k++) {
            const pf_comm_window *x = &s->wins[k];
            int64_t v[7 + 2 * PF_WIN_TOP] = {x->start_ns, x->cause_ns[0], x->cause_ns[1], x->cause_ns[2],
                                             x->cause_ns[3], x->gap_ns, x->gap_label};
            for (int j = 0; j < PF_WIN_TOP; j++) {
                v[7 + 2 * j] = x->top_label[j];
                v[8 + 2 * j] = x->top_ns[j];
            }
            int_row(w, v, 7 + 2 * PF_WIN_TOP);
        }
        pf_jw_arr_end(w);
        /* apart from the rows above, which a profana before it reads as they were */
        pf_jw_key(w, "window_shapes");
        pf_jw_arr_begin(w);
        for (size_t k = 0; k < s->n_comms; k++) {
            int64_t v[PF_WIN_TOP];
            for (int j = 0; j < PF_WIN_TOP; j++)
                v[j] = s->wins[k].top_shape[j];
            int_row(w, v, PF_WIN_TOP);
        }
        pf_jw_arr_end(w);
    }
    pf_jw_key(w, "kernels");
    pf_jw_arr_begin(w);
    for (size_t k = 0; k < s->n_kernels; k++)
        int_row(w, (int64_t[]){s->kernels[k].label, s->kernels[k].count, s->kernels[k].sum_ns}, 3);
    pf_jw_arr_end(w);
}

int pf_view_rank_summary(FILE *out, const pf_rank_summary *s)
{
    pf_jw w;
    pf_jw_init(&w, out);
    pf_jw_doc_begin(&w);
    pf_jw_key(&w, "profana_summary"); /* first: how a summary is told from a trace */
    pf_jw_int(&w, PF_RANK_SUMMARY_VERSION);
    pf_jw_key(&w, "trace");
    pf_jw_str(&w, s->path);
    pf_jw_key(&w, "rank");
    if (s->rank_from_trace)
        pf_jw_int(&w, s->rank);
    else
        pf_jw_null(&w);
    pf_jw_key(&w, "device");
    pf_jw_str(&w, s->info ? s->info->key : NULL);
    pf_jw_key(&w, "devices");
    pf_jw_int(&w, s->n_devices);
    pf_jw_key(&w, "host_name");
    pf_jw_str(&w, s->node);
    summary_times(&w, &s->all);
    pf_jw_key(&w, "steps");
    pf_jw_arr_begin(&w);
    for (size_t k = 0; k < s->n_steps; k++) {
        pf_jw_obj_begin(&w);
        pf_jw_key(&w, "step");
        pf_jw_int(&w, s->steps[k].number);
        summary_times(&w, &s->steps[k].t);
        pf_jw_obj_end(&w);
    }
    pf_jw_arr_end(&w);
    pf_jw_key(&w, "comm_kernels");
    pf_jw_arr_begin(&w);
    for (size_t k = 0; k < s->n_comms; k++)
        summary_comm(&w, &s->comms[k]);
    pf_jw_arr_end(&w);
    summary_culprit(&w, s);
    pf_jw_obj_end(&w);
    fputc('\n', out);
    return ferror(out) ? -1 : 0;
}
