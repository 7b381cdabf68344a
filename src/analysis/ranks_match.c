/* ranks_match.c - collectives matched across ranks (by process group and order within it): transfer time, skew and bus bandwidth per kind and size, and the ranks that arrive last. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "profana/ranks.h"
#include "profana/satmath.h"

/* One collective kernel of one rank, with its place in its group's sequence. */
typedef struct entry {
    const pf_comm_rec *rec;
    size_t rank;               /* index into the summaries */
    int64_t seq;               /* its sequence number (use_recorded_seq), else its order among
                                  its group's collectives on its rank */
    int on_seq;                /* seq is the recorded sequence number */
} entry;

/* One instance matched on every rank of its group. */
typedef struct instance {
    const pf_comm_rec *rec;    /* the first rank's: name, group, bytes */
    int group_size;
    int nodes;                 /* PF_NODES_* */
    int64_t transfer_ns, skew_ns;
} instance;

/* Lower case without '_': "_reduce_scatter_base" -> "reducescatterbase". */
static void squash(const char *s, char *out, size_t cap)
{
    size_t k = 0;
    for (; *s && k + 1 < cap; s++)
        if (*s != '_')
            out[k++] = (char)(*s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s);
    out[k] = '\0';
}

double pf_coll_bus_factor(const char *name, int n)
{
    char s[PF_COLL_NAME_MAX];
    if (!name || n < 1)
        return -1;
    squash(name, s, sizeof s);
    double ring = (double)(n - 1) / n;
    /* nccl-tests doc/PERFORMANCE.md: busbw = algbw * factor, per operation */
    if (strstr(s, "allreduce"))
        return 2 * ring;
    if (strstr(s, "allgather") || strstr(s, "reducescatter") || strstr(s, "alltoall"))
        return ring;
    if (strstr(s, "broadcast") || strstr(s, "reduce") || strstr(s, "send") || strstr(s, "recv"))
        return 1;
    return -1;
}

static int by_group_seq_rank(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    int c = strcmp(a->rec->pg, b->rec->pg);
    if (c)
        return c;
    if (a->seq != b->seq)
        return (a->seq > b->seq) - (a->seq < b->seq);
    return (a->rank > b->rank) - (a->rank < b->rank);
}

/* By group, then in the rank's order (its records are one array, in start order). */
static int by_group_then_order(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    int c = strcmp(a->rec->pg, b->rec->pg);
    return c ? c : (a->rec > b->rec) - (a->rec < b->rec);
}

/* Numbers one rank's entries e[0, m) within their groups: sorted by group, each group's run
 * counts 0, 1, 2, ... in the rank's order. (Looking back for the group's previous entry was
 * quadratic with one group per kernel.) */
static void number_in_groups(entry *e, size_t m)
{
    qsort(e, m, sizeof *e, by_group_then_order);
    for (size_t i = 0; i < m; i++)
        e[i].seq = i > 0 && strcmp(e[i].rec->pg, e[i - 1].rec->pg) == 0 ? e[i - 1].seq + 1 : 0;
}

/* Each rank's collectives with args, numbered within their group. */
static entry *collect(const pf_rank_summary *s, size_t n, size_t *count, int64_t *no_args)
{
    size_t total = 0;
    for (size_t r = 0; r < n; r++)
        total += s[r].n_comms;
    entry *e = malloc((total ? total : 1) * sizeof *e);
    if (!e)
        return NULL;
    size_t k = 0;
    for (size_t r = 0; r < n; r++) {
        size_t first = k;
        for (size_t i = 0; i < s[r].n_comms; i++) {
            const pf_comm_rec *c = &s[r].comms[i];
            if (!c->name[0] || !c->pg[0] || c->group_size < 1) {
                ++*no_args;
                continue;
            }
            e[k++] = (entry){c, r, 0, 0};
        }
        number_in_groups(e + first, k - first);
    }
    *count = k;
    return e;
}

static int by_group(const void *x, const void *y)
{
    return strcmp(((const entry *)x)->rec->pg, ((const entry *)y)->rec->pg);
}

/* A group whose every kernel, on every rank, carries its sequence number (args "Seq") is
 * matched on it: the same number is the same collective, whatever order the kernels ran in
 * (PyTorch numbers a group's collectives as they are issued, on every rank alike). A group
 * with any kernel lacking one (older PyTorch, a --summary file) keeps its order. */
static void use_recorded_seq(entry *e, size_t m)
{
    qsort(e, m, sizeof *e, by_group);
    for (size_t i = 0, j; i < m; i = j) {
        int all = 1;
        for (j = i; j < m && strcmp(e[j].rec->pg, e[i].rec->pg) == 0; j++)
            all &= e[j].rec->has_seq;
        for (size_t k = i; all && k < j; k++) {
            e[k].seq = e[k].rec->seq;
            e[k].on_seq = 1;
        }
    }
}

/* Whether run[0, m) is one instance on every rank of its group, agreeing in kind and size. */
static int complete(const entry *run, size_t m)
{
    if (m != (size_t)run[0].rec->group_size)
        return 0;
    for (size_t i = 1; i < m; i++)
        if (strcmp(run[i].rec->name, run[0].rec->name) != 0 || run[i].rec->bytes != run[0].rec->bytes)
            return 0;
    return 1;
}

/* Whether the ranks of run[0, m) ran on one node, several, or is unknown (a rank without
 * host_name). */
static int placement(const pf_rank_summary *s, const entry *run, size_t m)
{
    const char *first = s[run[0].rank].node;
    int many = 0;
    for (size_t i = 0; i < m; i++) {
        const char *n = s[run[i].rank].node;
        if (!n || !first)
            return PF_NODES_UNKNOWN;
        many |= strcmp(n, first) != 0;
    }
    return many ? PF_NODES_MANY : PF_NODES_ONE;
}

/* Transfer time and skew of one instance; the last rank to start gets the waiting. */
static instance measure(const pf_rank_summary *s, const entry *run, size_t m, pf_straggler *st)
{
    int64_t first = run[0].rec->ts_ns, last = first, fastest = run[0].rec->dur_ns;
    size_t late = 0;
    for (size_t i = 1; i < m; i++) {
        const pf_comm_rec *c = run[i].rec;
        first = c->ts_ns < first ? c->ts_ns : first;
        fastest = c->dur_ns < fastest ? c->dur_ns : fastest;
        if (c->ts_ns > last) {
            last = c->ts_ns;
            late = i;
        }
    }
    if (last > first) { /* a tie has no one arriving last */
        st[run[late].rank].late++;
        for (size_t i = 0; i < m; i++)
            st[run[late].rank].wait_ns = pf_sat_add(st[run[late].rank].wait_ns, pf_sat_sub(last, run[i].rec->ts_ns));
    }
    return (instance){run[0].rec, run[0].rec->group_size, placement(s, run, m), fastest, pf_sat_sub(last, first)};
}

static int by_kind(const void *x, const void *y)
{
    const instance *a = x, *b = y;
    int c = strcmp(a->rec->name, b->rec->name);
    if (!c)
        c = strcmp(a->rec->pg, b->rec->pg);
    if (!c)
        c = (a->rec->bytes > b->rec->bytes) - (a->rec->bytes < b->rec->bytes);
    if (!c)
        c = (a->group_size > b->group_size) - (a->group_size < b->group_size);
    return c;
}

static int same_kind(const instance *a, const instance *b)
{
    return by_kind(a, b) == 0;
}

static void rates(pf_coll_row *row, const pf_device_info *info)
{
    double link_gbps = -1;
    const char *src;
    if (pf_devices_link_for(info, row->group_size, &link_gbps, &src))
        link_gbps = -1;
    row->algbw_gbps = row->busbw_gbps = row->link_pct = -1;
    if (row->bytes < 0 || row->transfer_ns <= 0)
        return;
    row->algbw_gbps = (double)row->count * (double)row->bytes / (double)row->transfer_ns; /* bytes/ns = GB/s */
    double f = pf_coll_bus_factor(row->name, row->group_size);
    if (f < 0)
        return;
    row->busbw_gbps = row->algbw_gbps * f;
    /* across nodes the network carries it, whose peak the device table does not know */
    if (link_gbps > 0 && row->nodes != PF_NODES_MANY)
        row->link_pct = 100 * row->busbw_gbps / link_gbps;
}

/* Rows from the instances, sorted by kind: one per name, group, bytes and group size. */
static int make_rows(instance *in, size_t m, pf_ranks_report *r)
{
    qsort(in, m, sizeof *in, by_kind);
    r->rows = calloc(m ? m : 1, sizeof *r->rows);
    if (!r->rows)
        return -1;
    for (size_t i = 0, j; i < m; i = j) {
        pf_coll_row *row = &r->rows[r->n_rows++];
        *row = (pf_coll_row){in[i].rec->name, in[i].rec->pg, in[i].rec->bytes, in[i].group_size, 0, 0, 0, 0, 0, 0, 0,
                             in[i].nodes};
        for (j = i; j < m && same_kind(&in[i], &in[j]); j++) {
            if (in[j].nodes != row->nodes) /* one group is one set of ranks: cannot differ */
                row->nodes = PF_NODES_UNKNOWN;
            pf_node_split *split = in[j].nodes == PF_NODES_ONE ? &r->intra : in[j].nodes == PF_NODES_MANY ? &r->inter : NULL;
            if (split) {
                split->count++;
                split->transfer_ns = pf_sat_add(split->transfer_ns, in[j].transfer_ns);
                split->skew_ns = pf_sat_add(split->skew_ns, in[j].skew_ns);
            } else {
                r->node_unknown++;
            }
            row->count++;
            row->transfer_ns = pf_sat_add(row->transfer_ns, in[j].transfer_ns);
            row->skew_ns = pf_sat_add(row->skew_ns, in[j].skew_ns);
            row->skew_max_ns = in[j].skew_ns > row->skew_max_ns ? in[j].skew_ns : row->skew_max_ns;
        }
        rates(row, r->link_info);
    }
    return 0;
}

int pf_straggler_cmp(const void *x, const void *y)
{
    assert(x && y);
    const pf_straggler *a = x, *b = y;
    if (a->wait_ns != b->wait_ns)
        return (a->wait_ns < b->wait_ns) - (a->wait_ns > b->wait_ns);
    if (a->late != b->late)
        return (a->late < b->late) - (a->late > b->late);
    return (a->rank > b->rank) - (a->rank < b->rank);
}

/* The link every rank's device has, or none. */
static void common_link(const pf_rank_summary *s, size_t n, pf_ranks_report *r)
{
    r->link_gbps = -1;
    r->link_source = NULL;
    r->link_info = NULL;
    for (size_t i = 0; i < n; i++)
        if (!s[i].info || s[i].info != s[0].info)
            return;
    r->link_info = n ? s[0].info : NULL;
    double g;
    const char *src;
    if (n && pf_devices_link(s[0].info, &g, &src) == 0) {
        r->link_gbps = g;
        r->link_source = src;
    }
}

static int by_text(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The distinct host names of s[0, n); 0 when a rank has none (or memory runs out: the count is
 * then unknown as well). */
static size_t count_nodes(const pf_rank_summary *s, size_t n)
{
    const char **v = malloc((n ? n : 1) * sizeof *v);
    size_t k = 0;
    for (size_t i = 0; v && i < n; i++) {
        if (!s[i].node) {
            free(v);
            return 0;
        }
        v[i] = s[i].node;
    }
    if (!v)
        return 0;
    qsort(v, n, sizeof *v, by_text);
    for (size_t i = 0; i < n; i++)
        k += i == 0 || strcmp(v[i], v[i - 1]) != 0;
    free(v);
    return k;
}

int pf_ranks_match(const pf_rank_summary *s, size_t n, pf_ranks_report *r, pf_error *err)
{
    *r = (pf_ranks_report){0};
    common_link(s, n, r);
    size_t m = 0, n_inst = 0;
    entry *e = collect(s, n, &m, &r->no_args);
    instance *in = malloc((m ? m : 1) * sizeof *in);
    r->stragglers = calloc(n ? n : 1, sizeof *r->stragglers);
    r->instances = malloc((m ? m : 1) * sizeof *r->instances);
    r->members = malloc((m ? m : 1) * sizeof *r->members);
    if (!e || !in || !r->stragglers || !r->instances || !r->members) {
        free(e);
        free(in);
        pf_ranks_report_free(r);
        return pf_fail(err, "out of memory");
    }
    r->n_stragglers = n;
    for (size_t i = 0; i < n; i++)
        r->stragglers[i].rank = s[i].rank;
    r->n_nodes = count_nodes(s, n);
    use_recorded_seq(e, m);
    qsort(e, m, sizeof *e, by_group_seq_rank);
    for (size_t i = 0, j; i < m; i = j) {
        for (j = i + 1; j < m && strcmp(e[j].rec->pg, e[i].rec->pg) == 0 && e[j].seq == e[i].seq; j++)
            ;
        if (!complete(e + i, j - i)) {
            r->unmatched += (int64_t)(j - i);
            continue;
        }
        r->matched++;
        r->by_seq += e[i].on_seq;
        in[n_inst++] = measure(s, e + i, j - i, r->stragglers);
        r->instances[r->n_instances++] = (pf_coll_instance){r->n_members, j - i, e[i].seq};
        for (size_t k = i; k < j; k++)
            r->members[r->n_members++] = (pf_coll_member){e[k].rank, (size_t)(e[k].rec - s[e[k].rank].comms)};
    }
    int rc = make_rows(in, n_inst, r);
    free(e);
    free(in);
    if (rc) {
        pf_ranks_report_free(r);
        return pf_fail(err, "out of memory");
    }
    qsort(r->stragglers, r->n_stragglers, sizeof *r->stragglers, pf_straggler_cmp);
    return 0;
}

void pf_ranks_report_free(pf_ranks_report *r)
{
    free(r->rows);
    free(r->stragglers);
    free(r->instances);
    free(r->members);
    *r = (pf_ranks_report){0};
}
