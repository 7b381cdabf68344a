/* test_rank_summary.c - the --summary file (src/render/ranks_view.c writes it, src/analysis/ranks_summary.c reads it) on hand-written summaries: every figure read back as written (64-bit times beyond a double's 2^53, unknown args as null, no rank), told from a trace by its first bytes, and refused with one line when it is of another version, cut, mistyped or out of order. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "profana/ranks.h"
#include "profana/view.h"

static char dir[] = "/tmp/profana-test-summary.XXXXXX";

static const char *file(const char *name)
{
    static char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

static void put(const char *name, const char *text)
{
    FILE *f = fopen(file(name), "w");
    fputs(text, f);
    fclose(f);
}

static pf_comm_rec rec(const char *name, const char *pg, int n, int64_t bytes, int64_t ts, int64_t dur)
{
    pf_comm_rec r = {.group_size = n, .bytes = bytes, .ts_ns = ts, .dur_ns = dur};
    snprintf(r.name, sizeof r.name, "%s", name);
    snprintf(r.pg, sizeof r.pg, "%s", pg);
    return r;
}

static int same_times(const pf_rank_times *a, const pf_rank_times *b)
{
    return a->gpu_ns == b->gpu_ns && a->busy_ns == b->busy_ns && a->span_ns == b->span_ns && a->comm_ns == b->comm_ns &&
           a->exposed_ns == b->exposed_ns && a->idle_ns == b->idle_ns && a->compute_ns == b->compute_ns;
}

/* Rank 3 on one H200; starts of a 2^60 ns-scale clock (1.2e18: no double holds them; a
 * summary's starts stay within the loader's 2^61); two steps; three kernels: an all-reduce of 2^40 + 1 bytes, an unnamed one, a broadcast. */
static void round_trip(void)
{
    pf_comm_rec c[] = {rec("allreduce", "0", 8, ((int64_t)1 << 40) + 1, ((int64_t)1 << 60) + 1, 12345),
                       rec("", "", 0, -1, ((int64_t)1 << 60) + 7, 10),
                       rec("broadcast", "pg \"x\"", 2, 4096, ((int64_t)1 << 60) + 7, 3)};
    pf_rank_step st[] = {{2, {1000, 900, 1500, 400, 300, 600, 250}}, {3, {2001, 1999, 2003, 7, 5, 4, 6}}};
    pf_rank_summary s = {.path = "runs/rank3.json.gz", .rank = 3, .rank_from_trace = 1, .n_devices = 1,
                         .info = pf_devices_find("H200"), .all = {9007199254740993, 9007199254740001,
                                                                  9007199254740991, 77, 55, 990, 44},
                         .steps = st, .n_steps = 2, .comms = c, .n_comms = 3};
    CHECK("H200 is in the device table", s.info != NULL);
    FILE *f = fopen(file("r3.sum"), "w");
    CHECK("written", pf_view_rank_summary(f, &s) == 0);
    fclose(f);
    CHECK("told from a trace by its content", pf_rank_summary_sniff(file("r3.sum")) == 1);
    pf_rank_summary g;
    pf_error err;
    int rc = pf_rank_summary_read(file("r3.sum"), &g, &err);
    CHECK("read back", rc == 0);
    if (rc)
        return;
    CHECK_STR("trace path", g.path, "runs/rank3.json.gz");
    CHECK("rank 3 from the trace", g.rank == 3 && g.rank_from_trace == 1);
    CHECK("one device, the same table entry", g.n_devices == 1 && g.info == s.info);
    CHECK("times beyond 2^53 exact; idle = span - busy = 990", same_times(&g.all, &s.all));
    CHECK("two steps", g.n_steps == 2 && g.steps[0].number == 2 && g.steps[1].number == 3);
    CHECK("step 2's times (idle 1500 - 900)", g.n_steps == 2 && same_times(&g.steps[0].t, &st[0].t));
    CHECK("step 3's times (idle 2003 - 1999)", g.n_steps == 2 && same_times(&g.steps[1].t, &st[1].t));
    CHECK("three kernels", g.n_comms == 3);
    if (g.n_comms == 3) {
        CHECK("all-reduce: every field", memcmp(&g.comms[0], &c[0], sizeof c[0]) == 0);
        CHECK("unknown args stay unknown", g.comms[1].name[0] == 0 && g.comms[1].pg[0] == 0 &&
                                               g.comms[1].group_size == 0 && g.comms[1].bytes == -1 &&
                                               g.comms[1].ts_ns == c[1].ts_ns);
        CHECK_STR("a group name with quotes", g.comms[2].pg, "pg \"x\"");
    }
    pf_rank_summary *arr = malloc(sizeof *arr);
    *arr = g;
    pf_ranks_free(arr, 1);
}

/* What the culprits compare, written and read back: two kernels' windows (the first without
 * one), three labels, one kernel name, the compute sum. */
static void culprit_round_trip(void)
{
    pf_comm_rec c[] = {rec("allreduce", "0", 2, 64, 1000, 10), rec("allreduce", "0", 2, 64, 5000, 10)};
    pf_comm_window w[] = {{.start_ns = -1, .top_label = {-1, -1, -1, -1}, .top_shape = {-1, -1, -1, -1}, .gap_label = -1},
                          {.start_ns = 1010, .cause_ns = {2000, 300, 40, 1650}, .top_label = {0, 2, -1, -1},
                           .top_ns = {1500, 500}, .top_shape = {3, -1, -1, -1}, .gap_ns = 1200, .gap_label = 1}};
    char *labels[] = {"aten::mm", "load_batch \"x\"", "gemm<T>", "[64,64]bf16, [64,64]bf16"};
    pf_kernel_time k[] = {{2, 7, 3500}};
    pf_rank_summary s = {.path = "r.json", .rank = 1, .rank_from_trace = 1, .all = {10, 9, 11, 5, 4, 2, 6},
                         .comms = c, .n_comms = 2, .wins = w, .labels = labels, .n_labels = 4, .kernels = k,
                         .n_kernels = 1, .compute_sum_ns = 3500};
    FILE *f = fopen(file("cul.sum"), "w");
    CHECK("culprits: written", pf_view_rank_summary(f, &s) == 0);
    fclose(f);
    pf_rank_summary g;
    pf_error err;
    int rc = pf_rank_summary_read(file("cul.sum"), &g, &err);
    CHECK("culprits: read back", rc == 0);
    if (rc)
        return;
    CHECK("culprits: two windows", g.wins != NULL);
    if (g.wins) {
        CHECK("culprits: the first without one", g.wins[0].start_ns == -1 && g.wins[0].top_label[0] == -1);
        const pf_comm_window *x = &g.wins[1];
        int same = x->start_ns == 1010 && x->gap_ns == 1200 && x->gap_label == 1; /* field by field: padding */
        for (int j = 0; j < PF_WIN_CAUSES; j++)
            same &= x->cause_ns[j] == w[1].cause_ns[j];
        for (int j = 0; j < PF_WIN_TOP; j++)
            same &= x->top_label[j] == w[1].top_label[j] && x->top_ns[j] == w[1].top_ns[j] &&
                    x->top_shape[j] == w[1].top_shape[j];
        CHECK("culprits: the second, every field", same);
    }
    CHECK("culprits: four labels", g.n_labels == 4);
    if (g.n_labels == 4)
        CHECK_STR("culprits: a label with quotes", g.labels[1], "load_batch \"x\"");
    CHECK("culprits: one kernel", g.n_kernels == 1 && g.kernels[0].label == 2 && g.kernels[0].count == 7 &&
                                      g.kernels[0].sum_ns == 3500);
    CHECK("culprits: compute sum and union", g.compute_sum_ns == 3500 && g.all.compute_ns == 6);
    pf_rank_summary_clear(&g);
}

static void rank_unknown(void)
{
    put("anon.sum", "{\"profana_summary\":1,\"trace\":\"t.json\",\"rank\":null,\"device\":\"no such entry\","
                    "\"devices\":2,\"gpu_ns\":5,\"busy_ns\":4,\"span_ns\":6,\"comm_ns\":0,\"exposed_ns\":0,"
                    "\"steps\":[],\"comm_kernels\":[],\"future_member\":{\"a\":[1]}}");
    pf_rank_summary g;
    pf_error err;
    CHECK("a summary without rank", pf_rank_summary_read(file("anon.sum"), &g, &err) == 0);
    CHECK("rank -1, to be given its position", g.rank == -1 && g.rank_from_trace == 0);
    CHECK("an entry this table lacks: no device", g.info == NULL && g.n_devices == 2);
    CHECK("idle 6 - 4", g.all.idle_ns == 2);
    free(g.path);
    free(g.steps);
    free(g.comms);
}

/* refused NAME TEXT WANT: read fails with a message holding WANT. */
static void refused(const char *name, const char *text, const char *want)
{
    pf_rank_summary g;
    pf_error err;
    put("bad.sum", text);
    int rc = pf_rank_summary_read(file("bad.sum"), &g, &err);
    char what[200];
    snprintf(what, sizeof what, "refused: %s", name);
    CHECK(what, rc != 0 && strstr(err.msg, want) != NULL && strchr(err.msg, '\n') == NULL);
    if (rc == 0) {
        free(g.path);
        free(g.steps);
        free(g.comms);
    } else if (!strstr(err.msg, want))
        printf("  message: %s\n", err.msg);
}

#define HEAD "{\"profana_summary\":1,\"trace\":\"t\",\"rank\":0,\"device\":null,\"devices\":1,"
#define TIMES "\"gpu_ns\":5,\"busy_ns\":4,\"span_ns\":6,\"comm_ns\":0,\"exposed_ns\":0"

static void errors(void)
{
    refused("version 2", "{\"profana_summary\":2,\"trace\":\"t\"}", "a profana summary of version 2; this profana reads version 1");
    refused("version 0", "{\"profana_summary\":0}", "version 0");
    refused("a trace", "{\"traceEvents\":[]}", "not a profana summary");
    refused("cut", HEAD TIMES ",\"steps\":[", "byte ");
    refused("no comm_kernels", HEAD TIMES ",\"steps\":[]}", "no \"comm_kernels\"");
    refused("no span", HEAD "\"gpu_ns\":5,\"busy_ns\":4,\"comm_ns\":0,\"exposed_ns\":0,\"steps\":[],\"comm_kernels\":[]}",
            "no \"span_ns\"");
    refused("busy > span", HEAD "\"gpu_ns\":5,\"busy_ns\":9,\"span_ns\":6,\"comm_ns\":0,\"exposed_ns\":0,\"steps\":[],"
                           "\"comm_kernels\":[]}", "busy_ns is larger than span_ns");
    refused("a negative time", HEAD "\"gpu_ns\":-5,\"busy_ns\":4,\"span_ns\":6,\"comm_ns\":0,\"exposed_ns\":0,"
                               "\"steps\":[],\"comm_kernels\":[]}", "byte ");
    refused("steps out of order", HEAD TIMES ",\"steps\":[{\"step\":3," TIMES "},{\"step\":2," TIMES "}],"
                                  "\"comm_kernels\":[]}", "steps out of order");
    refused("kernels out of order", HEAD TIMES ",\"steps\":[],\"comm_kernels\":["
            "{\"name\":null,\"process_group\":null,\"group_size\":null,\"bytes\":null,\"ts_ns\":9,\"dur_ns\":1},"
            "{\"name\":null,\"process_group\":null,\"group_size\":null,\"bytes\":null,\"ts_ns\":8,\"dur_ns\":1}]}",
            "out of start order");
    refused("a kernel without dur_ns", HEAD TIMES ",\"steps\":[],\"comm_kernels\":["
            "{\"name\":null,\"process_group\":null,\"group_size\":null,\"bytes\":null,\"ts_ns\":9}]}", "without \"dur_ns\"");
    refused("text after it", HEAD TIMES ",\"steps\":[],\"comm_kernels\":[]} {}", "text after");
    refused("schema profana/2", "{\"schema\":\"profana/2\",\"profana_summary\":1}",
            "a profana document of schema \"profana/2\"; this profana reads profana/1");
    refused("schema alone", "{\"schema\":\"profana/1\"}", "not a profana summary (an empty object)");
    refused("schema, then no version", "{\"schema\":\"profana/1\",\"trace\":\"t\"}", "its first member is not");
    put("analysis.json", "{\"schema\":\"profana/1\",\"trace\":\"t.json\",\"dtype\":\"bf16\"}");
    CHECK("an --analysis document is no summary", pf_rank_summary_sniff(file("analysis.json")) == 0);
    put("spaced.sum", "{ \"schema\" : \"profana/1\" ,\n  \"profana_summary\": 1}");
    CHECK("a summary with its schema and blanks is one", pf_rank_summary_sniff(file("spaced.sum")) == 1);
    put("trace.json", "  {\"traceEvents\": []}");
    CHECK("a trace is no summary", pf_rank_summary_sniff(file("trace.json")) == 0);
    CHECK("a missing file is no summary", pf_rank_summary_sniff(file("none")) == 0);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    round_trip();
    culprit_round_trip();
    rank_unknown();
    errors();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        printf("FAIL cleanup\n");
    CHECK_DONE();
}
