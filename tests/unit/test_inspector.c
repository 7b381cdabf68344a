/* test_inspector.c - NCCL Inspector logs (src/trace/nccl_inspector.c) on hand-written records in the plugin's documented format: every field read as written (one object a line, pretty-printed, gzip), the start from the earliest kernel start or the call, none without event_trace_ts; told by content; refused with one line "PATH: byte N: ..." when malformed, missing a member or out of range; the kinds PyTorch's and NCCL's names share. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "profana/inspector.h"
#include "profana/ranks_inspector.h"

static char dir[] = "/tmp/profana-test-inspector.XXXXXX";

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

/* Two records of rank 2 of 8, one a line: the first verbose (two channels' kernels), the
 * second plain; then a pretty-printed record of another communicator. */
static const char two_lines[] =
    "{\"header\": {\"id\": \"0x7f8c496ae9f661\", \"rank\": 2, \"n_ranks\": 8, \"nnodes\": 1}, \"metadata\": "
    "{\"inspector_output_format_version\": \"v4.0\", \"git_rev\": \"\", \"rec_mechanism\": \"profiler_plugin\", "
    "\"dump_timestamp_us\": 1748030377748202, \"hostname\": \"node-a\", \"pid\": 1639453}, \"coll_perf\": {\"coll\": "
    "\"AllReduce\", \"coll_sn\": 1407, \"coll_msg_size_bytes\": 17179869184, \"coll_exec_time_us\": 61974, "
    "\"coll_timing_source\": \"kernel_gpu\", \"coll_algobw_gbs\": 277.210914, \"coll_busbw_gbs\": 485.119099, "
    "\"event_trace_sn\": {\"coll_start_sn\": 1, \"coll_stop_sn\": 2, \"kernel_events\": []}, \"event_trace_ts\": "
    "{\"coll_start_ts\": 1752867229235059, \"coll_stop_ts\": 1752867229235064, \"kernel_events\": [{\"channel_id\": 0, "
    "\"kernel_start_ts\": 1752867229235181, \"kernel_stop_ts\": 1752867229275811, \"kernel_record_ts\": "
    "1752867229275811}, {\"channel_id\": 1, \"kernel_start_ts\": 1752867229235170.5, \"kernel_stop_ts\": "
    "1752867229275811}]}}}\n"
    "{\"header\": {\"id\": \"0x7f8c496ae9f661\", \"rank\": 2, \"n_ranks\": 8, \"nnodes\": 1}, \"metadata\": "
    "{\"hostname\": \"node-a\", \"pid\": 1639453}, \"coll_perf\": {\"coll\": \"AllGather\", \"coll_sn\": 1408, "
    "\"coll_msg_size_bytes\": 2048, \"coll_exec_time_us\": 12.5, \"coll_busbw_gbs\": 0.5}}\n"
    "{\n  \"header\": {\n    \"id\": \"0x11\",\n    \"rank\": 0,\n    \"n_ranks\": 2\n  },\n  \"coll_perf\": {\n"
    "    \"coll\": \"Broadcast\",\n    \"coll_sn\": 0,\n    \"coll_exec_time_us\": 3,\n    \"event_trace_ts\": "
    "{\"coll_start_ts\": 5}\n  }\n}\n";

static void test_read(void)
{
    pf_insp_log l;
    pf_error err;
    put("r2.log", two_lines);
    CHECK("a log is told by its content", pf_inspector_sniff(file("r2.log")) == 1);
    CHECK("three records read", pf_inspector_read(file("r2.log"), &l, &err) == 0 && l.n == 3);
    if (l.n != 3)
        return;
    const pf_insp_rec *a = &l.recs[0], *b = &l.recs[1], *c = &l.recs[2];
    CHECK_STR("communicator", a->comm, "0x7f8c496ae9f661");
    CHECK("rank 2 of 8 on one node", a->rank == 2 && a->n_ranks == 8 && a->nnodes == 1);
    CHECK_STR("collective", a->coll, "AllReduce");
    CHECK("sequence number 1407", a->sn == 1407);
    CHECK("bytes 2^34", a->bytes == INT64_C(17179869184));
    CHECK("61974 us", a->exec_ns == INT64_C(61974000));
    CHECK_NEAR("busbw", a->busbw_gbps, 485.119099);
    CHECK("start: the earliest channel's kernel start (a fraction of a us kept)",
          a->start_ns == INT64_C(1752867229235170500));
    CHECK("no event_trace_ts: start unknown", b->start_ns == -1);
    CHECK("12.5 us", b->exec_ns == 12500 && b->bytes == 2048);
    CHECK("without kernel events: the call's start", c->start_ns == 5000);
    CHECK("pretty-printed record, no size: unknown", c->bytes == -1 && c->busbw_gbps < 0 && c->n_ranks == 2);
    CHECK_STR("host from metadata", l.host, "node-a");
    pf_inspector_free(&l);
}

/* Each refusal: exit with one line naming the byte. */
static void refused(const char *name, const char *text, const char *want)
{
    pf_insp_log l;
    pf_error err;
    char label[160];
    put(name, text);
    int rc = pf_inspector_read(file(name), &l, &err);
    snprintf(label, sizeof label, "refused: %s", want);
    CHECK(label, rc == -1 && strstr(err.msg, want) != NULL && strchr(err.msg, '\n') == NULL);
    if (rc == -1 && !strstr(err.msg, want))
        printf("  got: %s\n", err.msg);
}

static void test_errors(void)
{
    static const char head[] = "{\"header\": {\"id\": \"0x1\", \"rank\": 0, \"n_ranks\": 2}, \"coll_perf\": ";
    char t[512];
    snprintf(t, sizeof t, "%s{\"coll\": \"AllReduce\", \"coll_sn\": 1}}\n", head);
    refused("noexec.log", t, "byte 0: a record without coll_perf.coll_exec_time_us");
    snprintf(t, sizeof t, "%s{\"coll\": \"AllReduce\", \"coll_sn\": 1, \"coll_exec_time_us\": 5}}\n{\"header\": {", head);
    refused("cut.log", t, "cut.log: byte ");
    refused("rank.log", "{\"header\": {\"id\": \"0x1\", \"rank\": 2, \"n_ranks\": 2}, \"coll_perf\": {\"coll\": \"X\", "
                        "\"coll_sn\": 1, \"coll_exec_time_us\": 5}}",
            "byte 0: header.rank is not below header.n_ranks");
    snprintf(t, sizeof t, "%s{\"coll\": \"AllReduce\", \"coll_sn\": -1, \"coll_exec_time_us\": 5}}", head);
    refused("sn.log", t, "coll_perf.coll_sn: expected a whole number from 0");
    snprintf(t, sizeof t, "%s{\"coll\": \"AllReduce\", \"coll_sn\": 1, \"coll_exec_time_us\": -5}}", head);
    refused("neg.log", t, "coll_exec_time_us: expected microseconds from 0");
    refused("array.log", "[1, 2]", "byte 0: expected a JSON object (an Inspector record)");
    refused("empty.log", "  \n", "empty.log: no records");
    snprintf(t, sizeof t, "%s{\"coll\": 7, \"coll_sn\": 1, \"coll_exec_time_us\": 5}}", head);
    refused("coll.log", t, "coll_perf.coll: expected the collective's name as a string");
    put("trace.json", "{\"traceEvents\": []}");
    CHECK("a trace is no Inspector log", pf_inspector_sniff(file("trace.json")) == 0);
    CHECK("a missing file is no Inspector log", pf_inspector_sniff(file("nope.log")) == 0);
}

static void test_kinds(void)
{
    CHECK_STR("allreduce", pf_coll_canon("AllReduce"), "allreduce");
    CHECK_STR("_allgather_base", pf_coll_canon("_allgather_base"), "allgather");
    CHECK_STR("all_gather_into_tensor", pf_coll_canon("all_gather_into_tensor"), "allgather");
    CHECK_STR("_reduce_scatter_base", pf_coll_canon("_reduce_scatter_base"), "reducescatter");
    CHECK_STR("ReduceScatter", pf_coll_canon("ReduceScatter"), "reducescatter");
    CHECK_STR("Reduce is not allreduce", pf_coll_canon("Reduce"), "reduce");
    CHECK_STR("broadcast", pf_coll_canon("Broadcast"), "broadcast");
    CHECK("an unknown name", pf_coll_canon("barrier") == NULL);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    test_read();
    test_errors();
    test_kinds();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        return 1;
    CHECK_DONE();
}
