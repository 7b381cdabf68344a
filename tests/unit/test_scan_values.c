/* test_scan_values.c - the values trace_values.c reads from an event's members: times in ns, devices, args ids, launch geometry, step numbers, processes, launch kinds and categories, each against a value worked out here by hand. */
#include "check.h"

#include "../../src/trace/trace_values.h"

/* The members of the event text s, by the one-pass parser (or the slow one when it declines). */
static ev_fields fields_of(const char *s)
{
    ev_fields f;
    ev_record rec;
    size_t end;
    if (pf_ev_fast(s, strlen(s), 0, 1, &f, &end, &rec) != FAST_OK)
        pf_ev_slow(s, strlen(s), 0, &f);
    return f;
}

static void test_times(void)
{
    const char *s = "{\"ts\": 1.5, \"dur\": 2.25}";
    ev_fields f = fields_of(s);
    int64_t ts = 0, dur = 0;
    CHECK("ts 1.5 us, dur 2.25 us: readable", pf_ev_times(s, &f, &ts, &dur) == 0);
    CHECK("ts is 1500 ns", ts == 1500);
    CHECK("dur is 2250 ns", dur == 2250);
    const char *neg = "{\"ts\": 10, \"dur\": -1}";
    f = fields_of(neg);
    CHECK("a negative dur is refused", pf_ev_times(neg, &f, &ts, &dur) == -1);
    /* 2^50 ns = 1125899906842.624 us: one microsecond more is refused */
    const char *big = "{\"ts\": 0, \"dur\": 1125899906843}";
    f = fields_of(big);
    CHECK("a dur above 2^50 ns is refused", pf_ev_times(big, &f, &ts, &dur) == -1);
    const char *nodur = "{\"ts\": 5}";
    f = fields_of(nodur);
    CHECK("a missing dur is refused", pf_ev_times(nodur, &f, &ts, &dur) == -1);
    const char *text = "{\"ts\": \"5\", \"dur\": 1}";
    f = fields_of(text);
    CHECK("a ts written as a string is refused", pf_ev_times(text, &f, &ts, &dur) == -1);
}

static void test_args(void)
{
    const char *s = "{\"pid\": 4, \"args\": {\"External id\": 31, \"stream\": 7, \"correlation\": 99, \"bytes\": 4096, "
                    "\"grid\": [32, 2, 1], \"block\": [128, 1, 1]}}";
    ev_fields f = fields_of(s);
    pf_act_args a;
    pf_ev_act_args(s, strlen(s), &f, &a);
    CHECK("External id 31", a.ext_id == 31);
    CHECK("stream 7, present", a.stream == 7 && a.has_stream == 1);
    CHECK("no device member", a.has_device == 0 && a.device == 0);
    CHECK("correlation 99", a.correlation == 99);
    CHECK("bytes 4096", a.bytes == 4096);
    int64_t dev = -1;
    CHECK("device falls back to pid 4", pf_ev_device(s, &f, &a, &dev) == 0 && dev == 4);
    int64_t id = 0;
    CHECK("op External id 31", pf_ev_op_ext_id(s, strlen(s), &f, &id) == 1 && id == 31);

    /* ids are unsigned 64-bit: kept as their bit pattern; 2^64 - 1 is told from none by has_ */
    const char *big = "{\"args\": {\"External id\": 18446744073709551615, \"correlation\": 9223372036854775808}}";
    ev_fields bf = fields_of(big);
    pf_act_args ba;
    pf_ev_act_args(big, strlen(big), &bf, &ba);
    CHECK("External id 2^64 - 1: read, bit pattern -1", ba.has_ext == 1 && ba.ext_id == -1);
    CHECK("correlation 2^63: read, bit pattern INT64_MIN", ba.has_corr == 1 && ba.correlation == INT64_MIN);
    CHECK("op External id 2^64 - 1: present", pf_ev_op_ext_id(big, strlen(big), &bf, &id) == 1 && id == -1);
    const char *over = "{\"args\": {\"External id\": 18446744073709551616, \"correlation\": -3}}";
    ev_fields of = fields_of(over);
    pf_ev_act_args(over, strlen(over), &of, &ba);
    CHECK("2^64 and a negative id are no ids", ba.has_ext == 0 && ba.has_corr == 0 && ba.ext_id == -1);
    CHECK("op External id 2^64: none", pf_ev_op_ext_id(over, strlen(over), &of, &id) == 0 && id == -1);
    const char *none = "{\"args\": {\"stream\": 7}}";
    ev_fields nof = fields_of(none);
    pf_ev_act_args(none, strlen(none), &nof, &ba);
    CHECK("no ids: has_ext and has_corr 0", ba.has_ext == 0 && ba.has_corr == 0);

    /* the same numbers spelt with other spacing hash alike; moved between grid and block, not */
    const char *t = "{\"args\": {\"grid\": [32,2,1], \"block\": [128,1,1]}}";
    ev_fields g = fields_of(t);
    pf_act_args b;
    pf_ev_act_args(t, strlen(t), &g, &b);
    uint64_t h1 = pf_ev_geometry(s, &a), h2 = pf_ev_geometry(t, &b);
    CHECK("geometry: spacing does not matter", h1 == h2 && h1 != 0);
    const char *u = "{\"args\": {\"grid\": [32, 2], \"block\": [1, 128, 1, 1]}}";
    ev_fields uf = fields_of(u);
    pf_act_args c;
    pf_ev_act_args(u, strlen(u), &uf, &c);
    CHECK("geometry: the grid/block boundary counts", pf_ev_geometry(u, &c) != h1);
    const char *nob = "{\"args\": {\"grid\": [1]}}";
    ev_fields nf = fields_of(nob);
    pf_act_args d;
    pf_ev_act_args(nob, strlen(nob), &nf, &d);
    CHECK("geometry without a block is 0", pf_ev_geometry(nob, &d) == 0);

    const char *dev_arg = "{\"pid\": 4, \"args\": {\"device\": 70000}}";
    f = fields_of(dev_arg);
    pf_ev_act_args(dev_arg, strlen(dev_arg), &f, &a);
    CHECK("args.device outranks pid; 70000 is refused", pf_ev_device(dev_arg, &f, &a, &dev) == -1);

    /* the slow path: a repeated key, the last readable one wins */
    const char *rep = "{\"args\": {\"stream\": 1, \"stream\": \"x\", \"stream\": 3, \"External id\": 5}}";
    f = fields_of(rep);
    CHECK("a repeated args key is read by the slow path", f.slow == 1);
    pf_ev_act_args(rep, strlen(rep), &f, &a);
    CHECK("slow path: the last readable stream (3)", a.stream == 3);
    CHECK("slow path: op External id 5", pf_ev_op_ext_id(rep, strlen(rep), &f, &id) == 1 && id == 5);
}

static void test_steps_and_kinds(void)
{
    const char *s = "{\"name\": \"ProfilerStep#12\", \"pid\": \"host 1\"}";
    ev_fields f = fields_of(s);
    CHECK("ProfilerStep#12 is a step", pf_ev_is_step(s, &f));
    CHECK("its number is 12", pf_ev_step_number(s, &f) == 12);
    const char *x = "{\"name\": \"ProfilerStep#1x\"}";
    f = fields_of(x);
    CHECK("ProfilerStep#1x has no number", pf_ev_step_number(x, &f) == -1);
    const char *bare = "{\"name\": \"ProfilerStep#\"}";
    f = fields_of(bare);
    CHECK("ProfilerStep# alone has the prefix", pf_ev_is_step(bare, &f));
    /* no digits at all read as step 0: kept as it was (outputs stay byte-identical) */
    CHECK("an empty number reads as 0", pf_ev_step_number(bare, &f) == 0);
    const char *p1 = "{\"pid\": 7}", *p2 = "{\"pid\": 8}", *p3 = "{\"tid\": 1, \"pid\": 7}";
    ev_fields f1 = fields_of(p1), f2 = fields_of(p2), f3 = fields_of(p3);
    CHECK("one pid text, one process", pf_ev_process(p1, &f1) == pf_ev_process(p3, &f3));
    CHECK("two pid texts, two processes", pf_ev_process(p1, &f1) != pf_ev_process(p2, &f2));
    const char *gl = "{\"name\": \"cudaGraphLaunch\"}", *bc = "{\"name\": \"hipStreamBeginCapture\"}",
               *ll = "{\"name\": \"cudaLaunchKernel\"}";
    f1 = fields_of(gl);
    f2 = fields_of(bc);
    f3 = fields_of(ll);
    CHECK("cudaGraphLaunch is a graph launch", pf_ev_launch_kind(gl, &f1) == PF_LAUNCH_GRAPH);
    CHECK("hipStreamBeginCapture begins a capture", pf_ev_launch_kind(bc, &f2) == PF_LAUNCH_BEGIN_CAPTURE);
    CHECK("cudaLaunchKernel is a call", pf_ev_launch_kind(ll, &f3) == PF_LAUNCH_CALL);

    struct {
        const char *text;
        pf_cat_kind want;
    } cats[] = {{"\"kernel\"", CAT_KERNEL},           {"\"Kernel\"", CAT_KERNEL},
                {"\"gpu_memcpy\"", CAT_MEMCPY},       {"\"Memset\"", CAT_MEMSET},
                {"\"cpu_op\"", CAT_CPU_OP},           {"\"Operator\"", CAT_CPU_OP},
                {"\"cuda_runtime\"", CAT_RUNTIME},    {"\"cuda_driver\"", CAT_RUNTIME},
                {"\"user_annotation\"", CAT_USER_ANNOTATION}, {"\"gpu_user_annotation\"", CAT_GPU_ANNOTATION},
                {"\"python_function\"", CAT_HOST},    {"\"cuda_sync\"", CAT_KNOWN},
                {"\"kernels\"", CAT_OTHER},           {"kernel", CAT_OTHER}};
    for (size_t i = 0; i < sizeof cats / sizeof cats[0]; i++) {
        size_t sp[2] = {0, strlen(cats[i].text)};
        char name[64];
        snprintf(name, sizeof name, "category %s", cats[i].text);
        CHECK(name, pf_ev_category(cats[i].text, sp) == cats[i].want);
    }
    size_t k[2] = {0, 8};
    CHECK("kernel is GPU-side", pf_event_cat_gpu("\"kernel\"", k) == 1);
    CHECK("cpu_op is not", pf_event_cat_gpu("\"cpu_op\"", k) == 0);
}

int main(void)
{
    test_times();
    test_args();
    test_steps_and_kinds();
    CHECK_DONE();
}
