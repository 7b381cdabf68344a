/* ranks_inspector_view.c - --ranks' NCCL Inspector part: the collectives every rank's log holds, each one's late rank and skew and its Kineto twin, the ranks that imposed the waiting; text, Markdown, CSV and the JSON member. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "profana/tabulate.h"
#include "ranks_inspector_view.h"
#include "view_parts.h"

enum { I_COMM, I_SEQ, I_COLL, I_BYTES, I_RANKS, I_LATE, I_SKEW, I_FROM, I_BUSBW, I_KPG, I_KSEQ, I_KSKEW, I_NCOLS };

static const pf_col inst_cols[I_NCOLS] = {
    [I_COMM] = {"Communicator", "communicator", 0, 0, NULL},
    [I_SEQ] = {"Seq", "seq", 1, 0, NULL},
    [I_COLL] = {"Collective", "collective", 0, 0, NULL},
    [I_BYTES] = {"Bytes", "bytes", 1, 0, NULL},
    [I_RANKS] = {"Ranks", "n_ranks", 1, 0, NULL},
    [I_LATE] = {"Late rank", "late_rank", 1, 0, NULL},
    [I_SKEW] = {"Skew (us)", "skew_us", 1, 0, NULL},
    [I_FROM] = {"Skew from", "skew_from", 0, 0, NULL},
    [I_BUSBW] = {"busbw (GB/s)", "busbw_gbps", 1, 0, NULL},
    [I_KPG] = {"Kineto group", "kineto_process_group", 0, 0, NULL},
    [I_KSEQ] = {"Kineto seq", "kineto_seq", 1, 0, NULL},
    [I_KSKEW] = {"Kineto skew (us)", "kineto_skew_us", 1, 0, NULL},
};

static const int inst_wanted[] = {I_SKEW, I_LATE, I_COLL, I_SEQ, I_KPG, I_KSEQ, I_KSKEW, I_FROM, I_RANKS, I_BYTES, I_BUSBW};

enum { G_RANK, G_HOST, G_LATE, G_WAIT, G_NCOLS };

static const pf_col strag_cols[G_NCOLS] = {
    [G_RANK] = {"Rank", "rank", 1, 0, NULL},
    [G_HOST] = {"Host", "host", 0, 0, NULL},
    [G_LATE] = {"Late", "late", 1, 0, NULL},
    [G_WAIT] = {"Wait imposed (us)", "wait_us", 1, 0, NULL},
};

static const int strag_wanted[] = {G_LATE, G_WAIT, G_HOST};

static double us(int64_t ns)
{
    return (double)ns / 1000.0;
}

static const char *from_name(int from)
{
    return from == PF_SKEW_FROM_START ? "start" : "duration";
}

/* The mean busbw of an instance's records; < 0 when one has none. */
static double mean_busbw(const pf_insp_report *r, const pf_insp_instance *in)
{
    double sum = 0;
    for (size_t i = 0; i < in->n; i++) {
        const pf_insp_member *m = &r->members[in->first + i];
        double b = r->logs[m->log].recs[m->rec].busbw_gbps;
        if (b < 0)
            return -1;
        sum += b;
    }
    return in->n ? sum / (double)in->n : -1;
}

/* The Kineto instance's skew: last kernel start minus first. */
static int64_t kineto_skew(const pf_rank_summary *s, const pf_ranks_report *rep, const pf_coll_instance *ki)
{
    int64_t lo = 0, hi = 0;
    for (size_t i = 0; i < ki->n; i++) {
        const pf_coll_member *m = &rep->members[ki->first + i];
        int64_t t = s[m->rank].comms[m->comm].ts_ns;
        lo = i == 0 || t < lo ? t : lo;
        hi = i == 0 || t > hi ? t : hi;
    }
    return hi - lo;
}

static void inst_row(pf_table *t, const pf_rank_summary *s, const pf_ranks_report *rep, const pf_insp_report *r,
                     const pf_insp_instance *in)
{
    int row = pf_table_add_row(t);
    pf_table_str(t, row, I_COMM, in->comm);
    pf_table_int(t, row, I_SEQ, in->sn);
    pf_table_str(t, row, I_COLL, in->coll);
    if (in->bytes >= 0)
        pf_table_int(t, row, I_BYTES, in->bytes);
    pf_table_int(t, row, I_RANKS, in->n_ranks);
    if (in->late >= 0)
        pf_table_int(t, row, I_LATE, in->late);
    pf_table_num(t, row, I_SKEW, us(in->skew_ns), 3);
    pf_table_str(t, row, I_FROM, from_name(in->skew_from));
    double b = mean_busbw(r, in);
    if (b >= 0)
        pf_table_num(t, row, I_BUSBW, b, 1);
    if (in->kineto >= 0) {
        const pf_coll_instance *ki = &rep->instances[in->kineto];
        const pf_coll_member *m = &rep->members[ki->first];
        pf_table_str(t, row, I_KPG, s[m->rank].comms[m->comm].pg);
        pf_table_int(t, row, I_KSEQ, ki->seq);
        pf_table_num(t, row, I_KSKEW, us(kineto_skew(s, rep, ki)), 3);
    }
}

static int by_skew(const void *x, const void *y)
{
    const pf_insp_instance *a = *(const pf_insp_instance *const *)x, *b = *(const pf_insp_instance *const *)y;
    if (a->skew_ns != b->skew_ns)
        return (a->skew_ns < b->skew_ns) - (a->skew_ns > b->skew_ns);
    return a < b ? -1 : a > b;
}

/* The instances, most skewed first, at most limit (0: all, in the report's order). */
static pf_table *inst_table(const pf_rank_summary *s, const pf_ranks_report *rep, const pf_insp_report *r, size_t limit)
{
    pf_table *t = pf_table_new(inst_cols, I_NCOLS);
    const pf_insp_instance **order = malloc((r->n_inst ? r->n_inst : 1) * sizeof *order);
    if (!t || !order) {
        pf_table_free(t);
        free(order);
        return NULL;
    }
    for (size_t i = 0; i < r->n_inst; i++)
        order[i] = &r->inst[i];
    if (limit)
        qsort(order, r->n_inst, sizeof *order, by_skew);
    size_t n = limit && limit < r->n_inst ? limit : r->n_inst;
    for (size_t i = 0; i < n; i++)
        inst_row(t, s, rep, r, order[i]);
    free(order);
    return t;
}

/* The log of rank rank (logs are sorted by rank). */
static const pf_insp_log *log_of(const pf_insp_report *r, int rank)
{
    for (size_t i = 0; i < r->n_logs; i++)
        if (r->rank[i] == rank)
            return &r->logs[i];
    return NULL;
}

static pf_table *strag_table(const pf_insp_report *r)
{
    pf_table *t = pf_table_new(strag_cols, G_NCOLS);
    for (size_t i = 0; t && i < r->n_stragglers; i++) {
        const pf_straggler *g = &r->stragglers[i];
        int row = pf_table_add_row(t);
        const pf_insp_log *l = log_of(r, g->rank);
        pf_table_int(t, row, G_RANK, g->rank);
        if (l && l->host)
            pf_table_str(t, row, G_HOST, l->host);
        pf_table_int(t, row, G_LATE, g->late);
        pf_table_num(t, row, G_WAIT, us(g->wait_ns), 3);
    }
    return t;
}

int pf_insp_print(FILE *out, pf_format format, int width, const pf_rank_summary *s, const pf_ranks_report *rep,
                  const pf_insp_report *insp, int after)
{
    assert(out && rep && insp);
    int csv = format == PF_FMT_CSV;
    size_t comms = 0;
    for (size_t i = 0; i < insp->n_inst; i++)
        comms += i == 0 || strcmp(insp->inst[i].comm, insp->inst[i - 1].comm) != 0;
    if (!csv) {
        int64_t records = 0, from_start = 0;
        for (size_t i = 0; i < insp->n_logs; i++)
            records += (int64_t)insp->logs[i].n;
        for (size_t i = 0; i < insp->n_inst; i++)
            from_start += insp->inst[i].skew_from == PF_SKEW_FROM_START;
        if (after)
            fputc('\n', out);
        fprintf(out,
                "NCCL Inspector: %zu logs (ranks), %lld records; %zu collectives on %zu communicators logged by every "
                "rank of them (%lld with start times, the rest skewed by duration); %lld records not matched\n",
                insp->n_logs, (long long)records, insp->n_inst, comms, (long long)from_start,
                (long long)insp->incomplete);
        fprintf(out, "Joined with the Kineto ranks: %lld collectives on %lld communicators (by their ranks and "
                     "sequence numbers)\n", (long long)insp->joined, (long long)insp->join_pairs);
    }
    pf_table *t[2] = {inst_table(s, rep, insp, csv ? 0 : PF_INSP_TEXT_ROWS), strag_table(insp)};
    int rc = t[0] && t[1] && !pf_table_status(t[0]) && !pf_table_status(t[1]) ? 0 : -1;
    for (int k = 0; rc == 0 && k < 2; k++) {
        if (k > 0 || !csv || after)
            fputc('\n', out);
        if (k == 0)
            pf_view_print_table(out, format, width, t[k],
                                (pf_text_fit){.cols = inst_wanted, .ncols = (int)(sizeof inst_wanted / sizeof inst_wanted[0])});
        else
            pf_view_print_table(out, format, width, t[k],
                                (pf_text_fit){.cols = strag_wanted, .ncols = (int)(sizeof strag_wanted / sizeof strag_wanted[0])});
    }
    if (rc == 0 && !csv && insp->n_inst > PF_INSP_TEXT_ROWS)
        fprintf(out, "(the %d most skewed of %zu Inspector collectives; --format json or csv lists them all)\n",
                PF_INSP_TEXT_ROWS, insp->n_inst);
    pf_table_free(t[0]);
    pf_table_free(t[1]);
    return rc;
}

void pf_insp_json(pf_jw *w, const pf_rank_summary *s, const pf_ranks_report *rep, const pf_insp_report *insp)
{
    pf_jw_key(w, "inspector");
    if (!insp) {
        pf_jw_null(w);
        return;
    }
    pf_jw_obj_begin(w);
    pf_jw_key(w, "logs");
    pf_jw_arr_begin(w);
    for (size_t i = 0; i < insp->n_logs; i++) {
        pf_jw_obj_begin(w);
        pf_jw_key(w, "rank");
        pf_jw_int(w, insp->rank[i]);
        pf_jw_key(w, "path");
        pf_jw_str(w, insp->logs[i].path);
        pf_jw_key(w, "host");
        pf_jw_str(w, insp->logs[i].host);
        pf_jw_key(w, "records");
        pf_jw_int(w, (int64_t)insp->logs[i].n);
        pf_jw_obj_end(w);
    }
    pf_jw_arr_end(w);
    pf_jw_key(w, "instances");
    pf_jw_arr_begin(w);
    pf_table *t = inst_table(s, rep, insp, 0);
    for (size_t i = 0; t && i < insp->n_inst; i++) {
        const pf_insp_instance *in = &insp->inst[i];
        pf_jw_obj_begin(w);
        pf_table_json_fields(w, t, (int)i);
        pf_jw_key(w, "arrivals");
        pf_jw_arr_begin(w);
        for (size_t k = 0; k < in->n; k++) {
            const pf_insp_member *m = &insp->members[in->first + k];
            const pf_insp_rec *x = &insp->logs[m->log].recs[m->rec];
            pf_jw_obj_begin(w);
            pf_jw_key(w, "rank");
            pf_jw_int(w, insp->rank[m->log]);
            pf_jw_key(w, "comm_rank");
            pf_jw_int(w, x->rank);
            pf_jw_key(w, "start_us");
            if (x->start_ns >= 0)
                pf_jw_num(w, us(x->start_ns));
            else
                pf_jw_null(w);
            pf_jw_key(w, "duration_us");
            pf_jw_num(w, us(x->exec_ns));
            pf_jw_key(w, "busbw_gbps");
            if (x->busbw_gbps >= 0)
                pf_jw_num(w, x->busbw_gbps);
            else
                pf_jw_null(w);
            pf_jw_obj_end(w);
        }
        pf_jw_arr_end(w);
        pf_jw_obj_end(w);
    }
    pf_jw_arr_end(w);
    pf_table_free(t);
    pf_jw_key(w, "stragglers");
    pf_table *g = strag_table(insp);
    if (g)
        pf_table_json_rows(w, g);
    else
        pf_jw_null(w);
    pf_table_free(g);
    pf_jw_key(w, "incomplete");
    pf_jw_int(w, insp->incomplete);
    pf_jw_key(w, "joined");
    pf_jw_int(w, insp->joined);
    pf_jw_key(w, "join_pairs");
    pf_jw_int(w, insp->join_pairs);
    pf_jw_obj_end(w);
}
