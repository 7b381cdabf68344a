/* test_ranks_culprit.c - --ranks' culprits (src/analysis/ranks_culprit.c) on hand-written ranks: the late arrival against the median rank, the excess per cause and its label, the threshold, the kernel ratio of a uniformly slow rank and the verdicts, worked out by hand. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "profana/ranks_culprit.h"

static pf_comm_rec rec(int64_t ts)
{
    pf_comm_rec r = {.group_size = 3, .bytes = 1000, .ts_ns = ts, .dur_ns = 100};
    snprintf(r.name, sizeof r.name, "allreduce");
    snprintf(r.pg, sizeof r.pg, "0");
    return r;
}

/* A window from 0: compute, copy, comm, idle; label 0 with `top` ns of compute; the gap under
 * label 1. */
static pf_comm_window win(int64_t compute, int64_t idle, int64_t top, int64_t gap)
{
    return (pf_comm_window){.start_ns = 0, .cause_ns = {compute, 0, 0, idle}, .top_label = {0, -1, -1, -1},
                            .top_ns = {top}, .top_shape = {-1, -1, -1, -1}, .gap_ns = gap, .gap_label = gap ? 1 : -1};
}

/* Three ranks, group "0" of 3, two all-reduces.
 *   #0: starts 10,000 (rank 0), 10,050 (rank 1), 510,050 (rank 2): rank 2 last, 500,000 ns
 *       after the median rank 1 (above 100 us); its window holds 400,000 ns more compute, all
 *       of it in "aten::mm" (700,000 against rank 1's 300,000), and 100,000 ns more idle:
 *       cause kernel, label aten::mm, excess 400,000.
 *   #1: starts 2,000,000, 2,000,040, 2,000,090: rank 2 last but 50 ns after the median:
 *       below the threshold, no late arrival.
 * Kernels: "gemm" 10 x 1,000 ns on ranks 0 and 1, 10 x 1,150 ns on rank 2 (15% slower, all of
 * its kernel time): the median mean is 1,000 (the middle of 1,000, 1,000, 1,150), rank 2's
 * ratio 11,500 / 10,000 = 1.15, slower 100%: uniform. */
static void by_hand(void)
{
    pf_comm_rec c0[] = {rec(10000), rec(2000000)}, c1[] = {rec(10050), rec(2000040)},
                c2[] = {rec(510050), rec(2000090)};
    pf_comm_window w0[] = {win(300000, 10000, 300000, 0), win(0, 0, 0, 0)};
    pf_comm_window w1[] = {win(300000, 10000, 300000, 0), win(0, 0, 0, 0)};
    pf_comm_window w2[] = {win(700000, 110000, 700000, 90000), win(0, 0, 0, 0)};
    char *labels[] = {"aten::mm", "load_batch", "gemm", "[4096,512]bf16, [512,512]bf16", "[2048,512]bf16, [512,512]bf16"};
    pf_kernel_time k01[] = {{2, 10, 10000}}, k2[] = {{2, 10, 11500}};
    pf_rank_summary s[3] = {
        {.rank = 0, .comms = c0, .n_comms = 2, .wins = w0, .labels = labels, .n_labels = 5, .kernels = k01,
         .n_kernels = 1, .compute_sum_ns = 10000},
        {.rank = 1, .comms = c1, .n_comms = 2, .wins = w1, .labels = labels, .n_labels = 5, .kernels = k01,
         .n_kernels = 1, .compute_sum_ns = 10000},
        {.rank = 2, .comms = c2, .n_comms = 2, .wins = w2, .labels = labels, .n_labels = 5, .kernels = k2,
         .n_kernels = 1, .compute_sum_ns = 11500},
    };
    pf_ranks_report rep;
    pf_culprit_report c;
    pf_error err;
    CHECK("match runs", pf_ranks_match(s, 3, &rep, &err) == 0);
    CHECK("two instances matched", rep.matched == 2 && rep.n_instances == 2);
    CHECK("culprits run", pf_ranks_culprits(s, 3, &rep, &c, &err) == 0);
    CHECK("one late arrival (the second is 50 ns late: below 100 us)", c.n_late == 1);
    if (c.n_late == 1) {
        const pf_late_arrival *a = &c.late[0];
        CHECK("rank 2 late", a->rank == 2);
        CHECK("against median rank 1", a->ref_rank == 1);
        CHECK("500,000 ns late", a->late_ns == 500000);
        CHECK("start 510,050", a->start_ns == 510050);
        CHECK("compute excess 400,000", a->excess_ns[PF_WIN_COMPUTE] == 400000);
        CHECK("idle excess 100,000", a->excess_ns[PF_WIN_IDLE] == 100000);
        CHECK("cause: kernel", a->kind == PF_CULPRIT_KERNEL);
        CHECK_STR("label aten::mm", a->label, "aten::mm");
        CHECK("label excess 700,000 - 300,000", a->label_ns == 400000);
    }
    CHECK("three ranks", c.n_ranks == 3);
    if (c.n_ranks == 3) {
        const pf_rank_culprit *r2 = &c.ranks[2], *r0 = &c.ranks[0];
        CHECK("rank 2: 1 late arrival", r2->late == 1 && r2->late_ns == 500000);
        CHECK("rank 2: compute straggler", r2->verdict == PF_STRAGGLER_COMPUTE);
        CHECK_NEAR("rank 2: kernels 1.15x the median's", r2->kernel_ratio, 1.15);
        CHECK_NEAR("rank 2: 100% of its kernel time slower", r2->slower_pct, 100.0);
        CHECK("rank 2: uniform", r2->uniform);
        CHECK_NEAR("rank 2: compute 11,500 / 10,000", r2->compute_ratio, 1.15);
        CHECK("rank 0: no clear straggler", r0->verdict == PF_STRAGGLER_NONE && !r0->uniform);
        CHECK_NEAR("rank 0: kernels 1.0x", r0->kernel_ratio, 1.0);
    }
    pf_culprit_report_free(&c);

    /* the idle gap named instead: rank 2's window with the same compute and 400,000 ns more idle */
    w2[0] = win(300000, 410000, 300000, 380000);
    CHECK("culprits run again", pf_ranks_culprits(s, 3, &rep, &c, &err) == 0);
    if (c.n_late == 1) {
        CHECK("cause: host gap", c.late[0].kind == PF_CULPRIT_GAP);
        CHECK_STR("under load_batch", c.late[0].label, "load_batch");
        CHECK("idle excess 400,000", c.late[0].label_ns == 400000 && c.late[0].gap_ns == 380000);
        CHECK("rank 2: host straggler", c.ranks[2].verdict == PF_STRAGGLER_HOST);
    } else
        CHECK("one late arrival", 0);
    pf_culprit_report_free(&c);

    /* Data imbalance: rank 2's aten::mm ran on [4096,512] rows where ranks 0 and 1 ran on
     * [2048,512] (labels 3 and 4), and its kernels are no slower than theirs (k01): the
     * compute excess is other work, so the verdict is data imbalance, with both shape sets. */
    w2[0] = win(700000, 110000, 700000, 90000);
    w2[0].top_shape[0] = 3;
    w0[0].top_shape[0] = w1[0].top_shape[0] = 4;
    s[2].kernels = k01;
    s[2].compute_sum_ns = 10000;
    CHECK("culprits run (data)", pf_ranks_culprits(s, 3, &rep, &c, &err) == 0);
    if (c.n_late == 1) {
        const pf_late_arrival *a = &c.late[0];
        CHECK("data: cause kernel aten::mm, excess 400,000",
              a->kind == PF_CULPRIT_KERNEL && strcmp(a->label, "aten::mm") == 0 && a->label_ns == 400000);
        CHECK("data: other shapes", a->other_shapes);
        CHECK_STR("data: its shapes", a->shapes, labels[3]);
        CHECK_STR("data: the median rank's", a->ref_shapes, labels[4]);
        CHECK("data: rank 2 data imbalance, all 400,000 of it",
              c.ranks[2].verdict == PF_STRAGGLER_DATA && c.ranks[2].data_ns == 400000);
        CHECK_STR("data: the verdict's name", pf_straggler_verdict_name(c.ranks[2].verdict), "data imbalance");
    } else
        CHECK("data: one late arrival", 0);
    pf_culprit_report_free(&c);
    /* the same shapes: compute straggler */
    w2[0].top_shape[0] = 4;
    CHECK("culprits run (same shapes)", pf_ranks_culprits(s, 3, &rep, &c, &err) == 0);
    CHECK("same shapes: compute straggler, not other shapes", c.n_late == 1 && !c.late[0].other_shapes &&
                                                                  c.ranks[2].verdict == PF_STRAGGLER_COMPUTE &&
                                                                  c.ranks[2].data_ns == 0);
    pf_culprit_report_free(&c);
    /* the median rank's shapes unknown (no record_shapes): not data imbalance */
    w2[0].top_shape[0] = 3;
    w1[0].top_shape[0] = -1;
    CHECK("culprits run (unknown)", pf_ranks_culprits(s, 3, &rep, &c, &err) == 0);
    CHECK("unknown shapes: compute straggler", c.n_late == 1 && c.late[0].ref_shapes == NULL &&
                                                   !c.late[0].other_shapes && c.ranks[2].verdict == PF_STRAGGLER_COMPUTE);
    pf_culprit_report_free(&c);
    /* other shapes but every kernel 15% slower (k2): the GPU, a compute straggler */
    w1[0].top_shape[0] = 4;
    s[2].kernels = k2;
    s[2].compute_sum_ns = 11500;
    CHECK("culprits run (uniform)", pf_ranks_culprits(s, 3, &rep, &c, &err) == 0);
    CHECK("uniform and other shapes: compute straggler", c.n_late == 1 && c.late[0].other_shapes &&
                                                             c.ranks[2].uniform &&
                                                             c.ranks[2].verdict == PF_STRAGGLER_COMPUTE);
    pf_culprit_report_free(&c);

    /* without windows (an older summary): the late arrival stays, with no cause */
    s[2].wins = NULL;
    CHECK("culprits run without windows", pf_ranks_culprits(s, 3, &rep, &c, &err) == 0);
    CHECK("not every summary has windows", !c.windows);
    CHECK("late arrival without cause", c.n_late == 1 && !c.late[0].has_windows && c.late[0].kind == PF_CULPRIT_NONE);
    pf_culprit_report_free(&c);
    pf_ranks_report_free(&rep);
}

int main(void)
{
    by_hand();
    CHECK_DONE();
}
