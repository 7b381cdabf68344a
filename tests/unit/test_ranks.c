/* test_ranks.c - the collective matching of --ranks (src/analysis/ranks_match.c) on hand-written ranks: nccl-tests' bus-bandwidth factors, instances matched by group and order, transfer time, skew, bandwidth and stragglers worked out by hand, and the ranks' order and duplicates (pf_ranks_assign). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "profana/ranks.h"

static void factors(void)
{
    CHECK_NEAR("allreduce n=8: 2(n-1)/n = 1.75", pf_coll_bus_factor("allreduce", 8), 1.75);
    CHECK_NEAR("all_reduce n=2: 1", pf_coll_bus_factor("all_reduce", 2), 1.0);
    CHECK_NEAR("_allgather_base n=8: (n-1)/n = 0.875", pf_coll_bus_factor("_allgather_base", 8), 0.875);
    CHECK_NEAR("reduce_scatter_tensor_coalesced n=4: 0.75", pf_coll_bus_factor("reduce_scatter_tensor_coalesced", 4), 0.75);
    CHECK_NEAR("all_to_all n=4: 0.75", pf_coll_bus_factor("all_to_all", 4), 0.75);
    CHECK_NEAR("broadcast n=8: 1", pf_coll_bus_factor("broadcast", 8), 1.0);
    CHECK_NEAR("reduce n=8: 1", pf_coll_bus_factor("reduce", 8), 1.0);
    CHECK("barrier: unknown", pf_coll_bus_factor("barrier", 8) < 0);
    CHECK("n = 0: unknown", pf_coll_bus_factor("allreduce", 0) < 0);
}

static pf_comm_rec rec(const char *name, const char *pg, int n, int64_t bytes, int64_t ts, int64_t dur)
{
    pf_comm_rec r = {.group_size = n, .bytes = bytes, .ts_ns = ts, .dur_ns = dur};
    snprintf(r.name, sizeof r.name, "%s", name);
    snprintf(r.pg, sizeof r.pg, "%s", pg);
    return r;
}

/* Two ranks, group "0" of 2: two all-reduces of 1 MB (1,000,000 bytes) and one broadcast; rank 1
 * also has a kernel without args and a collective on group "1" that rank 0 lacks.
 *   all-reduce #0: rank 0 starts 1000, 500 ns; rank 1 starts 1400, 100 ns: transfer 100, skew
 *                  400, rank 1 last, waiting 400.
 *   all-reduce #1: rank 0 starts 5000, 200 ns; rank 1 starts 4900, 300 ns: transfer 200, skew
 *                  100, rank 0 last, waiting 100.
 *   rows: allreduce, 2 instances, transfer 300 ns, algbw 2e6 / 300 = 6666.67 GB/s (bytes/ns),
 *         busbw x 2(2-1)/2 = the same; broadcast at 9000 on both: skew 0, no one last. */
static void match_by_hand(void)
{
    pf_comm_rec r0[] = {rec("allreduce", "0", 2, 1000000, 1000, 500), rec("allreduce", "0", 2, 1000000, 5000, 200),
                        rec("broadcast", "0", 2, 4000, 9000, 50)};
    pf_comm_rec r1[] = {rec("", "", 0, -1, 100, 10), rec("allreduce", "0", 2, 1000000, 1400, 100),
                        rec("allreduce", "1", 2, 1000000, 2000, 10), rec("allreduce", "0", 2, 1000000, 4900, 300),
                        rec("broadcast", "0", 2, 4000, 9000, 80)};
    pf_rank_summary s[2] = {{.rank = 0, .comms = r0, .n_comms = 3}, {.rank = 1, .comms = r1, .n_comms = 5}};
    pf_ranks_report r;
    pf_error err;
    CHECK("match runs", pf_ranks_match(s, 2, &r, &err) == 0);
    CHECK("3 instances matched", r.matched == 3);
    CHECK("group 1's lone kernel unmatched", r.unmatched == 1);
    CHECK("one kernel without args", r.no_args == 1);
    CHECK("no link without a device", r.link_gbps < 0);
    CHECK("two rows", r.n_rows == 2);
    if (r.n_rows == 2) {
        const pf_coll_row *a = &r.rows[0], *b = &r.rows[1];
        CHECK_STR("row 0 allreduce", a->name, "allreduce");
        CHECK("allreduce: 2 instances", a->count == 2);
        CHECK("allreduce: transfer 100 + 200 ns", a->transfer_ns == 300);
        CHECK("allreduce: skew 400 + 100 ns", a->skew_ns == 500 && a->skew_max_ns == 400);
        CHECK_NEAR("allreduce: algbw 2e6 bytes / 300 ns", a->algbw_gbps, 2e6 / 300);
        CHECK_NEAR("allreduce: busbw = algbw x 1 (n = 2)", a->busbw_gbps, 2e6 / 300);
        CHECK("allreduce: link unknown", a->link_pct < 0);
        CHECK_STR("row 1 broadcast", b->name, "broadcast");
        CHECK("broadcast: transfer 50, skew 0", b->transfer_ns == 50 && b->skew_ns == 0);
    }
    CHECK("stragglers: rank 1 first (400 ns imposed)", r.n_stragglers == 2 && r.stragglers[0].rank == 1 &&
                                                           r.stragglers[0].late == 1 && r.stragglers[0].wait_ns == 400);
    CHECK("stragglers: rank 0 (100 ns)", r.stragglers[1].rank == 0 && r.stragglers[1].late == 1 &&
                                             r.stragglers[1].wait_ns == 100);
    pf_ranks_report_free(&r);
}

static void assign(void)
{
    pf_rank_summary s[3] = {{.rank = 5, .rank_from_trace = 1}, {.rank = -1}, {.rank = -1}};
    pf_error err;
    CHECK("ranks: trace's own and positions", pf_ranks_assign(s, 3, &err) == 0);
    CHECK("sorted: 1, 2, 5", s[0].rank == 1 && s[1].rank == 2 && s[2].rank == 5);
    pf_rank_summary d[2] = {{.rank = 1, .rank_from_trace = 1, .path = "a"}, {.rank = -1, .path = "b"}};
    CHECK("position 1 collides with distributedInfo rank 1", pf_ranks_assign(d, 2, &err) != 0);
    CHECK("names both", strstr(err.msg, "rank 1 is also the rank of") != NULL);
}

int main(void)
{
    factors();
    match_by_hand();
    assign();
    CHECK_DONE();
}
