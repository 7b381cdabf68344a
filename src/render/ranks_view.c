/* ranks_view.c - --ranks printed: the per-rank table, the collectives matched across ranks and the stragglers, in text, CSV, Markdown or one JSON document. */
#include <stdio.h>

#include "profana/view.h"

enum { R_RANK, R_TRACE, R_GPU, R_BUSY, R_COMM, R_EXPOSED, R_EXPOSED_PCT, R_IDLE, R_SPAN, R_NCOLS };

static const pf_col rank_cols[R_NCOLS] = {
    [R_RANK] = {"Rank", "rank", 1, 0},
    [R_TRACE] = {"Trace", "trace", 0, 0},
    [R_GPU] = {"GPU (us)", "gpu_us", 1, 0},
    [R_BUSY] = {"Busy (us)", "busy_us", 1, 0},
    [R_COMM] = {"Comm (us)", "comm_us", 1, 0},
    [R_EXPOSED] = {"Exposed comm (us)", "exposed_comm_us", 1, 0},
    [R_EXPOSED_PCT] = {"Exposed %", "exposed_pct", 1, 0},
    [R_IDLE] = {"Idle (us)", "idle_us", 1, 0},
    [R_SPAN] = {"Span (us)", "span_us", 1, 0},
};

enum { C_NAME, C_PG, C_N, C_BYTES, C_COUNT, C_TRANSFER, C_SKEW, C_SKEW_MAX, C_ALGBW, C_BUSBW, C_LINK, C_NCOLS };

static const pf_col coll_cols[C_NCOLS] = {
    [C_NAME] = {"Collective", "name", 0, 0},
    [C_PG] = {"Group", "process_group", 0, 0},
    [C_N] = {"Ranks", "group_size", 1, 0},
    [C_BYTES] = {"Bytes", "bytes", 1, 0},
    [C_COUNT] = {"Count", "count", 1, 0},
    [C_TRANSFER] = {"Transfer (us)", "transfer_us", 1, 0},
    [C_SKEW] = {"Skew (us)", "skew_us", 1, 0},
    [C_SKEW_MAX] = {"Max skew (us)", "skew_max_us", 1, 0},
    [C_ALGBW] = {"algbw (GB/s)", "algbw_gbps", 1, 0},
    [C_BUSBW] = {"busbw (GB/s)", "busbw_gbps", 1, 0},
    [C_LINK] = {"Link %", "link_pct", 1, 0},
};

enum { S_RANK, S_LATE, S_WAIT, S_NCOLS };

static const pf_col strag_cols[S_NCOLS] = {
    [S_RANK] = {"Rank", "rank", 1, 0},
    [S_LATE] = {"Last to start", "late", 1, 0},
    [S_WAIT] = {"Wait imposed (us)", "wait_us", 1, 0},
};

static double us(int64_t ns)
{
    return (double)ns / 1000.0;
}

static pf_table *rank_table(const pf_rank_summary *s, size_t n)
{
    pf_table *t = pf_table_new(rank_cols, R_NCOLS);
    for (size_t i = 0; t && i < n; i++) {
        int r = pf_table_add_row(t);
        pf_table_int(t, r, R_RANK, s[i].rank);
        pf_table_str(t, r, R_TRACE, s[i].path);
        pf_table_num(t, r, R_GPU, us(s[i].gpu_ns), 3);
        pf_table_num(t, r, R_BUSY, us(s[i].busy_ns), 3);
        pf_table_num(t, r, R_COMM, us(s[i].comm_ns), 3);
        pf_table_num(t, r, R_EXPOSED, us(s[i].exposed_ns), 3);
        if (s[i].comm_ns > 0)
            pf_table_num(t, r, R_EXPOSED_PCT, 100.0 * (double)s[i].exposed_ns / (double)s[i].comm_ns, 2);
        pf_table_num(t, r, R_IDLE, us(s[i].idle_ns), 3);
        pf_table_num(t, r, R_SPAN, us(s[i].span_ns), 3);
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

static void print_table(FILE *out, pf_format format, const pf_table *t)
{
    if (format == PF_FMT_MD)
        pf_table_print_md(out, t, 0);
    else if (format == PF_FMT_CSV)
        pf_table_print_csv(out, t, 1);
    else
        pf_table_print_text(out, t, 0);
}

static void print_counts(FILE *out, const pf_rank_summary *s, size_t n, const pf_ranks_report *rep)
{
    size_t named = 0;
    for (size_t i = 0; i < n; i++)
        named += (size_t)s[i].rank_from_trace;
    fprintf(out, "Ranks: %zu (%zu from distributedInfo.rank, %zu by the order given)\n", n, named, n - named);
    fprintf(out,
            "Collectives: %lld instances matched on every rank of their group; %lld collective kernels not matched; "
            "%lld communication kernels without collective args (launched before the profiler's window, or "
            "recorded without them): not matched\n",
            (long long)rep->matched, (long long)rep->unmatched, (long long)rep->no_args);
    if (rep->link_gbps > 0)
        fprintf(out, "Link: %.0f GB/s per direction (%s)\n", rep->link_gbps, rep->link_source);
    else
        fputs("Link: unknown (the device table has no link figure for these ranks' devices, or they differ): "
              "Link % is '-'\n",
              out);
}

static int print_tables(FILE *out, pf_format format, const pf_rank_summary *s, size_t n, const pf_ranks_report *rep)
{
    pf_table *t[3] = {rank_table(s, n), coll_table(rep), strag_table(rep)};
    int rc = t[0] && t[1] && t[2] && !pf_table_status(t[0]) && !pf_table_status(t[1]) && !pf_table_status(t[2]) ? 0 : -1;
    if (rc == 0 && format != PF_FMT_CSV) {
        print_counts(out, s, n, rep);
        fputc('\n', out);
    }
    for (int k = 0; rc == 0 && k < 3; k++) {
        if (k > 0)
            fputc('\n', out);
        print_table(out, format, t[k]);
    }
    int over = 0;
    for (size_t i = 0; i < rep->n_rows; i++)
        over |= rep->rows[i].link_pct > 100;
    if (rc == 0 && over && format != PF_FMT_CSV)
        fputs("!: above the link's peak: the link figure does not fit this machine (another topology, or a "
              "transfer within one GPU)\n",
              out);
    for (int k = 0; k < 3; k++)
        pf_table_free(t[k]);
    return rc;
}

static int print_json(FILE *out, const pf_rank_summary *s, size_t n, const pf_ranks_report *rep)
{
    pf_table *t[3] = {rank_table(s, n), coll_table(rep), strag_table(rep)};
    static const char *const keys[3] = {"ranks", "collectives", "stragglers"};
    int rc = t[0] && t[1] && t[2] && !pf_table_status(t[0]) && !pf_table_status(t[1]) && !pf_table_status(t[2]) ? 0 : -1;
    if (rc == 0) {
        pf_jw w;
        pf_jw_init(&w, out);
        pf_jw_obj_begin(&w);
        for (int k = 0; k < 3; k++) {
            pf_jw_key(&w, keys[k]);
            pf_table_json_rows(&w, t[k]);
        }
        pf_jw_key(&w, "matched");
        pf_jw_int(&w, rep->matched);
        pf_jw_key(&w, "unmatched");
        pf_jw_int(&w, rep->unmatched);
        pf_jw_key(&w, "no_args");
        pf_jw_int(&w, rep->no_args);
        pf_jw_key(&w, "link_gbps");
        if (rep->link_gbps > 0)
            pf_jw_num(&w, rep->link_gbps);
        else
            pf_jw_null(&w);
        pf_jw_key(&w, "link_source");
        pf_jw_str(&w, rep->link_source);
        pf_jw_obj_end(&w);
        fputc('\n', out);
    }
    for (int k = 0; k < 3; k++)
        pf_table_free(t[k]);
    return rc;
}

int pf_view_ranks(FILE *out, pf_format format, const pf_rank_summary *s, size_t n, const pf_ranks_report *rep)
{
    if (format == PF_FMT_JSON)
        return print_json(out, s, n, rep);
    return print_tables(out, format, s, n, rep);
}
