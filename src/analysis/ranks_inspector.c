/* ranks_inspector.c - NCCL Inspector logs for --ranks: each communicator's collectives matched across the ranks' logs by sequence number, their arrivals, late rank and skew, and the join with the Kineto ranks' matched collectives. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "profana/parallel.h"
#include "profana/ranks_inspector.h"
#include "profana/satmath.h"

const char *pf_coll_canon(const char *name)
{
    char s[64];
    size_t k = 0;
    if (!name)
        return NULL;
    for (; *name && k + 1 < sizeof s; name++)
        if (*name != '_')
            s[k++] = (char)(*name >= 'A' && *name <= 'Z' ? *name - 'A' + 'a' : *name);
    s[k] = '\0';
    /* the longer names first: "allreduce" holds "reduce" */
    static const char *const kinds[] = {"allreduce", "allgather", "reducescatter", "alltoall", "broadcast",
                                        "reduce", "send", "recv"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strstr(s, kinds[i]))
            return kinds[i];
    return NULL;
}

/* ---- reading ---- */

typedef struct read_job {
    const char *const *paths;
    pf_insp_log *logs;
    pf_error *errs;
    int *failed;
} read_job;

static void read_range(void *ctx, size_t lo, size_t hi, size_t r)
{
    read_job *j = ctx;
    (void)r;
    for (size_t i = lo; i < hi; i++)
        j->failed[i] = pf_inspector_read(j->paths[i], &j->logs[i], &j->errs[i]) != 0;
}

/* A log's rank: its rank in the communicator of the most ranks it logs (the first such). */
static int rank_of(const pf_insp_log *l)
{
    int best = 0, n = 0;
    for (size_t i = 0; i < l->n; i++)
        if (l->recs[i].n_ranks > n) {
            n = l->recs[i].n_ranks;
            best = l->recs[i].rank;
        }
    return best;
}

typedef struct log_at {
    int rank;
    size_t i;
} log_at;

static int by_rank(const void *x, const void *y)
{
    const log_at *a = x, *b = y;
    return a->rank != b->rank ? (a->rank > b->rank) - (a->rank < b->rank) : (a->i > b->i) - (a->i < b->i);
}

/* Reads every log, then sorts them by rank; two logs of one rank are an error. */
static int read_logs(const char *const *paths, size_t n, int jobs, pf_insp_report *r, pf_error *err)
{
    read_job j = {paths, calloc(n ? n : 1, sizeof *j.logs), calloc(n ? n : 1, sizeof *j.errs),
                  calloc(n ? n : 1, sizeof *j.failed)};
    log_at *k = malloc((n ? n : 1) * sizeof *k);
    r->logs = calloc(n ? n : 1, sizeof *r->logs);
    r->rank = calloc(n ? n : 1, sizeof *r->rank);
    int rc = j.logs && j.errs && j.failed && k && r->logs && r->rank ? 0 : pf_fail(err, "out of memory");
    if (rc == 0) {
        size_t workers = pf_parallel_workers(jobs);
        pf_parallel_ranges(n, workers < n ? workers : (n ? n : 1), read_range, &j);
    }
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (j.failed[i]) {
            *err = j.errs[i];
            rc = -1;
        }
    for (size_t i = 0; rc == 0 && i < n; i++)
        k[i] = (log_at){rank_of(&j.logs[i]), i};
    if (rc == 0)
        qsort(k, n, sizeof *k, by_rank);
    for (size_t i = 1; rc == 0 && i < n; i++)
        if (k[i].rank == k[i - 1].rank)
            rc = pf_fail(err, "%s: rank %d is also the rank of %s (an Inspector log's rank is its rank in the "
                              "communicator of the most ranks it logs)",
                         paths[k[i].i], k[i].rank, paths[k[i - 1].i]);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        r->logs[i] = j.logs[k[i].i];
        r->rank[i] = k[i].rank;
        j.logs[k[i].i] = (pf_insp_log){0};
    }
    if (rc == 0)
        r->n_logs = n;
    for (size_t i = 0; j.logs && i < n; i++)
        pf_inspector_free(&j.logs[i]);
    free(j.logs);
    free(j.errs);
    free(j.failed);
    free(k);
    return rc;
}

/* ---- matching ---- */

typedef struct entry {
    const pf_insp_rec *rec;
    size_t log, i;
} entry;

static int by_comm_sn_rank(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    int c = strcmp(a->rec->comm, b->rec->comm);
    if (c)
        return c;
    if (a->rec->sn != b->rec->sn)
        return (a->rec->sn > b->rec->sn) - (a->rec->sn < b->rec->sn);
    return (a->rec->rank > b->rec->rank) - (a->rec->rank < b->rec->rank);
}

/* Whether run[0, m) is one collective on every rank of its communicator, once each. */
static int complete(const entry *run, size_t m)
{
    if (m != (size_t)run[0].rec->n_ranks)
        return 0;
    for (size_t i = 0; i < m; i++)
        if (run[i].rec->rank != (int)i || run[i].rec->n_ranks != run[0].rec->n_ranks ||
            strcmp(run[i].rec->coll, run[0].rec->coll) != 0)
            return 0;
    return 1;
}

/* The skew and late rank of one instance; the late rank imposes the waiting. */
static void measure(pf_insp_report *r, pf_insp_instance *in, const entry *run, size_t m, pf_straggler *st)
{
    int starts = 1;
    for (size_t i = 0; i < m; i++)
        starts &= run[i].rec->start_ns >= 0;
    size_t late = 0;
    int64_t lo, hi;
    in->skew_from = starts ? PF_SKEW_FROM_START : PF_SKEW_FROM_DURATION;
    if (starts) { /* the last to start */
        lo = hi = run[0].rec->start_ns;
        for (size_t i = 1; i < m; i++) {
            int64_t t = run[i].rec->start_ns;
            lo = t < lo ? t : lo;
            if (t > hi) {
                hi = t;
                late = i;
            }
        }
    } else { /* the shortest: the others waited for it */
        lo = hi = run[0].rec->exec_ns;
        for (size_t i = 1; i < m; i++) {
            int64_t t = run[i].rec->exec_ns;
            hi = t > hi ? t : hi;
            if (t < lo) {
                lo = t;
                late = i;
            }
        }
    }
    in->skew_ns = hi - lo;
    in->late = -1;
    if (hi == lo)
        return;
    size_t lg = run[late].log;
    in->late = r->rank[lg];
    st[lg].late++;
    for (size_t i = 0; i < m; i++) {
        int64_t w = starts ? hi - run[i].rec->start_ns : run[i].rec->exec_ns - lo;
        st[lg].wait_ns = pf_sat_add(st[lg].wait_ns, w);
    }
}

static int match(pf_insp_report *r, pf_error *err)
{
    size_t total = 0;
    for (size_t i = 0; i < r->n_logs; i++)
        total += r->logs[i].n;
    entry *e = malloc((total ? total : 1) * sizeof *e);
    r->inst = malloc((total ? total : 1) * sizeof *r->inst);
    r->members = malloc((total ? total : 1) * sizeof *r->members);
    r->stragglers = calloc(r->n_logs ? r->n_logs : 1, sizeof *r->stragglers);
    if (!e || !r->inst || !r->members || !r->stragglers) {
        free(e);
        return pf_fail(err, "out of memory");
    }
    r->n_stragglers = r->n_logs;
    for (size_t i = 0; i < r->n_logs; i++)
        r->stragglers[i].rank = r->rank[i];
    size_t k = 0;
    for (size_t l = 0; l < r->n_logs; l++)
        for (size_t i = 0; i < r->logs[l].n; i++)
            e[k++] = (entry){&r->logs[l].recs[i], l, i};
    qsort(e, total, sizeof *e, by_comm_sn_rank);
    for (size_t i = 0, j; i < total; i = j) {
        for (j = i + 1; j < total && strcmp(e[j].rec->comm, e[i].rec->comm) == 0 && e[j].rec->sn == e[i].rec->sn; j++)
            ;
        if (!complete(e + i, j - i)) {
            r->incomplete += (int64_t)(j - i);
            continue;
        }
        pf_insp_instance *in = &r->inst[r->n_inst++];
        *in = (pf_insp_instance){e[i].rec->comm, e[i].rec->coll, e[i].rec->sn, e[i].rec->bytes, e[i].rec->n_ranks,
                                 r->n_members, j - i, -1, 0, 0, -1};
        for (size_t q = i; q < j; q++)
            r->members[r->n_members++] = (pf_insp_member){e[q].log, e[q].i};
        measure(r, in, e + i, j - i, r->stragglers);
    }
    free(e);
    /* the stragglers keep their log order until the join has read them by log */
    return 0;
}

/* ---- the join with the Kineto ranks ---- */

enum { JOIN_COMPARED = 32 };

static int by_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

/* The sorted ranks of an instance's members into out (n of them). */
static void insp_ranks(const pf_insp_report *r, const pf_insp_instance *in, int *out)
{
    for (size_t i = 0; i < in->n; i++)
        out[i] = r->rank[r->members[in->first + i].log];
    qsort(out, in->n, sizeof *out, by_int);
}

static void kineto_ranks(const pf_rank_summary *s, const pf_ranks_report *rep, const pf_coll_instance *ki, int *out)
{
    for (size_t i = 0; i < ki->n; i++)
        out[i] = s[rep->members[ki->first + i].rank].rank;
    qsort(out, ki->n, sizeof *out, by_int);
}

static const pf_comm_rec *kineto_rec(const pf_rank_summary *s, const pf_ranks_report *rep, const pf_coll_instance *ki)
{
    const pf_coll_member *m = &rep->members[ki->first];
    return &s[m->rank].comms[m->comm];
}

/* The instance of sequence number sn among inst[lo, hi) (sorted by sn), or -1. */
static long find_sn(const pf_insp_instance *inst, size_t lo, size_t hi, int64_t sn)
{
    size_t end = hi;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (inst[mid].sn < sn)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < end && inst[lo].sn == sn ? (long)lo : -1;
}

/* A Kineto group's instances: kin[0, nk) (indices into rep->instances, by sequence number). */
typedef struct group {
    const char *pg;
    size_t *kin, nk;
} group;

/* How many of the group's first JOIN_COMPARED instances agree in kind with the communicator's
 * instance of sequence number seq + off; -1 at the first that does not. */
static int agree(const pf_rank_summary *s, const pf_ranks_report *rep, const group *g, const pf_insp_report *r,
                 size_t lo, size_t hi, int64_t off)
{
    for (size_t k = 0; k < g->nk && k < JOIN_COMPARED; k++) {
        const pf_coll_instance *ki = &rep->instances[g->kin[k]];
        long j = find_sn(r->inst, lo, hi, ki->seq + off);
        if (j < 0)
            return -1;
        const char *a = pf_coll_canon(kineto_rec(s, rep, ki)->name), *b = pf_coll_canon(r->inst[j].coll);
        if (!a || !b || strcmp(a, b) != 0)
            return -1;
    }
    return (int)(g->nk < JOIN_COMPARED ? g->nk : JOIN_COMPARED);
}

/* Joins the communicator inst[lo, hi) with group g when their ranks are the same set. */
static void join_pair(const pf_rank_summary *s, const pf_ranks_report *rep, const group *g, pf_insp_report *r,
                      size_t lo, size_t hi)
{
    int found = 0;
    int64_t best = 0;
    const pf_coll_instance *k0 = &rep->instances[g->kin[0]];
    const char *kind0 = pf_coll_canon(kineto_rec(s, rep, k0)->name);
    for (size_t j = lo; kind0 && j < hi; j++) {
        const char *b = pf_coll_canon(r->inst[j].coll);
        if (!b || strcmp(b, kind0) != 0)
            continue;
        int64_t off = r->inst[j].sn - k0->seq;
        if ((!found || llabs(off) < llabs(best)) && agree(s, rep, g, r, lo, hi, off) > 0) {
            best = off;
            found = 1;
        }
    }
    if (!found)
        return;
    r->join_pairs++;
    for (size_t k = 0; k < g->nk; k++) {
        const pf_coll_instance *ki = &rep->instances[g->kin[k]];
        long j = find_sn(r->inst, lo, hi, ki->seq + best);
        if (j < 0)
            continue;
        const char *a = pf_coll_canon(kineto_rec(s, rep, ki)->name), *b = pf_coll_canon(r->inst[j].coll);
        if (a && b && strcmp(a, b) == 0 && r->inst[j].kineto < 0) {
            r->inst[j].kineto = (int64_t)g->kin[k];
            r->joined++;
        }
    }
}

/* Same set of ranks: a and b sorted, of n each. */
static int same_ranks(const int *a, const int *b, size_t n)
{
    return memcmp(a, b, n * sizeof *a) == 0;
}

static int join(const pf_rank_summary *s, size_t ns, const pf_ranks_report *rep, pf_insp_report *r, pf_error *err)
{
    (void)ns;
    if (rep->n_instances == 0 || r->n_inst == 0)
        return 0;
    /* the Kineto groups: rep->instances are by group, then sequence number */
    /* room for the ranks of the largest instance of either side (a malformed log may repeat a
     * communicator's rank: an instance is not bounded by the number of logs) */
    size_t most = 1;
    for (size_t i = 0; i < r->n_inst; i++)
        most = r->inst[i].n > most ? r->inst[i].n : most;
    for (size_t i = 0; i < rep->n_instances; i++)
        most = rep->instances[i].n > most ? rep->instances[i].n : most;
    group *g = calloc(rep->n_instances, sizeof *g);
    size_t *kin = malloc(rep->n_instances * sizeof *kin), ng = 0;
    int *ra = malloc(most * sizeof *ra), *rb = malloc(most * sizeof *rb);
    if (!g || !kin || !ra || !rb) {
        free(g);
        free(kin);
        free(ra);
        free(rb);
        return pf_fail(err, "out of memory");
    }
    for (size_t i = 0; i < rep->n_instances; i++) {
        const char *pg = kineto_rec(s, rep, &rep->instances[i])->pg;
        if (ng == 0 || strcmp(g[ng - 1].pg, pg) != 0)
            g[ng++] = (group){pg, kin + i, 0};
        kin[i] = i;
        g[ng - 1].nk++;
    }
    /* each communicator (a run of r->inst) against each group of the same ranks: joined when
     * exactly one group has them, and that group no other communicator */
    for (size_t lo = 0, hi; lo < r->n_inst; lo = hi) {
        for (hi = lo + 1; hi < r->n_inst && strcmp(r->inst[hi].comm, r->inst[lo].comm) == 0; hi++)
            ;
        insp_ranks(r, &r->inst[lo], ra);
        size_t paired = SIZE_MAX;
        int many = 0;
        for (size_t k = 0; k < ng; k++) {
            const pf_coll_instance *ki = &rep->instances[g[k].kin[0]];
            if (ki->n != r->inst[lo].n)
                continue;
            kineto_ranks(s, rep, ki, rb);
            if (same_ranks(ra, rb, ki->n)) {
                many |= paired != SIZE_MAX;
                paired = k;
            }
        }
        if (paired == SIZE_MAX || many)
            continue;
        /* another communicator of the same ranks makes the pairing ambiguous */
        int other = 0;
        for (size_t lo2 = 0, hi2; lo2 < r->n_inst && !other; lo2 = hi2) {
            for (hi2 = lo2 + 1; hi2 < r->n_inst && strcmp(r->inst[hi2].comm, r->inst[lo2].comm) == 0; hi2++)
                ;
            if (lo2 == lo || r->inst[lo2].n != r->inst[lo].n)
                continue;
            insp_ranks(r, &r->inst[lo2], rb);
            other = same_ranks(ra, rb, r->inst[lo].n);
        }
        if (!other)
            join_pair(s, rep, &g[paired], r, lo, hi);
    }
    free(g);
    free(kin);
    free(ra);
    free(rb);
    return 0;
}

int pf_ranks_inspector(const char *const *paths, size_t n, int jobs, const pf_rank_summary *s, size_t ns,
                       const pf_ranks_report *rep, pf_insp_report *out, pf_error *err)
{
    assert((paths || n == 0) && (s || ns == 0) && rep && out && err);
    *out = (pf_insp_report){0};
    int rc = read_logs(paths, n, jobs, out, err);
    if (rc == 0)
        rc = match(out, err);
    if (rc == 0)
        rc = join(s, ns, rep, out, err);
    if (rc) {
        pf_insp_report_free(out);
        return -1;
    }
    qsort(out->stragglers, out->n_stragglers, sizeof *out->stragglers, pf_straggler_cmp);
    return 0;
}

void pf_insp_report_free(pf_insp_report *r)
{
    for (size_t i = 0; r->logs && i < r->n_logs; i++)
        pf_inspector_free(&r->logs[i]);
    free(r->logs);
    free(r->rank);
    free(r->inst);
    free(r->members);
    free(r->stragglers);
    *r = (pf_insp_report){0};
}
