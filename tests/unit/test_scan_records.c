/* test_scan_records.c - what trace_records.c files each event as (activities, host intervals, op records with their args key, steps, launches, unknown GPU-like events), on events written out here with their expected values worked by hand. */
#include "check.h"

#include "../../src/trace/trace_chunk.h"
#include "../../src/trace/trace_event.h"
#include "../../src/trace/trace_records.h"

typedef struct fixture {
    pf_window w;
    pf_scanner sc;
    pf_chunk c;
    pf_strtab *tab;
} fixture;

/* A scanner over the text s as a whole mapped window (records read only buf, len and base). */
static void setup(fixture *x, const char *s, int launch_names)
{
    memset(x, 0, sizeof *x);
    x->w.buf = (char *)s;
    x->w.len = x->w.cap = strlen(s);
    x->w.eof = x->w.mapped = 1;
    x->w.base = 1000; /* offsets in records count from the file's start */
    x->tab = pf_strtab_new();
    x->sc.w = &x->w;
    x->sc.strs = pf_strcache_new(x->tab);
    x->sc.path = "t.json";
    x->sc.depth = 1;
    x->sc.launch_names = launch_names;
    pf_chunk_init(&x->c);
}

static void teardown(fixture *x)
{
    pf_chunk_free(&x->c);
    pf_strcache_free(x->sc.strs);
    free(x->sc.key);
    pf_strtab_free(x->tab);
}

/* Files the event text s (one event, at offset 0) and returns pf_scan_add_event's result. */
static int file_event(fixture *x, const char *s, int launch_names)
{
    setup(x, s, launch_names);
    ev_fields f;
    ev_record rec;
    size_t end;
    if (pf_ev_fast(s, strlen(s), 0, 1, &f, &end, &rec) != FAST_OK)
        pf_ev_slow(s, strlen(s), 0, &f);
    return pf_scan_add_event(&x->sc, &x->c, &f, 0);
}

static void test_kernel(void)
{
    fixture x;
    const char *s = "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 0, \"tid\": 7, \"ts\": 10.5, "
                    "\"dur\": 3, \"args\": {\"External id\": 31, \"device\": 2, \"stream\": 7, \"correlation\": 9}}";
    CHECK("kernel: filed", file_event(&x, s, 0) == 0);
    CHECK("kernel: one activity", x.c.acts.n == 1);
    const pf_activity *a = pf_segvec_at(&x.c.acts, 0);
    CHECK("kernel: kind", a->kind == PF_ACT_KERNEL);
    CHECK_STR("kernel: name", a->name, "gemm");
    CHECK("kernel: ts 10500 ns", a->ts_ns == 10500);
    CHECK("kernel: dur 3000 ns", a->dur_ns == 3000);
    CHECK("kernel: device 2 (args, not pid)", a->device == 2);
    CHECK("kernel: stream 7", a->stream == 7);
    CHECK("kernel: External id 31, beside it until linking",
          x.c.act_ext.n == 1 && *(const int64_t *)pf_segvec_at(&x.c.act_ext, 0) == 31);
    CHECK("kernel: correlation 9", a->correlation == 9);
    CHECK("kernel: no geometry", a->geometry == 0);
    CHECK("kernel: unlinked (op -1)", a->op == -1);
    CHECK("kernel: source offset is the window's base", a->src_off == 1000);
    CHECK("kernel: args object's place", s[a->args.at] == '{' && a->args.at + a->args.len == strlen(s) - 1);
    CHECK("kernel: no host interval", x.c.cpu.n == 0);
    teardown(&x);

    const char *bad = "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": 1, \"dur\": -2}";
    CHECK("kernel with dur -2: filed", file_event(&x, bad, 0) == 0);
    CHECK("kernel with dur -2: a bad event, no activity", x.c.n_bad_events == 1 && x.c.acts.n == 0);
    teardown(&x);

    const char *inst = "{\"ph\": \"i\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": 1}";
    CHECK("an instant event: filed", file_event(&x, inst, 0) == 0);
    CHECK("an instant event: nothing kept", x.c.acts.n == 0 && x.c.n_bad_events == 0);
    teardown(&x);
}

static void test_cpu_op(void)
{
    fixture x;
    const char *s = "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 2, \"ts\": 5, "
                    "\"dur\": 1, \"args\": {\"External id\": 4, \"Input Dims\": [[2, 3], [3, 4]], "
                    "\"Input type\": [\"float\", \"float\"]}}";
    CHECK("cpu_op: filed", file_event(&x, s, 0) == 0);
    CHECK("cpu_op: one host interval", x.c.cpu.n == 1);
    CHECK("cpu_op: one op record", x.c.ops.n == 1);
    const pf_op_rec *r = pf_segvec_at(&x.c.ops, 0);
    CHECK_STR("cpu_op: name", r->name, "aten::mm");
    CHECK("cpu_op: External id 4", r->ext_id == 4);
    CHECK_STR("cpu_op: args key holds what the formulas read, in order", r->key,
              "{\"Input Dims\":[[2, 3], [3, 4]],\"Input type\":[\"float\", \"float\"]}");
    const pf_cpu_event *e = pf_segvec_at(&x.c.cpu, 0);
    CHECK("cpu_op: interval 5000..6000 ns", e->ts_ns == 5000 && e->dur_ns == 1000);
    CHECK("cpu_op: the record holds the same span and thread",
          r->ts_ns == 5000 && r->dur_ns == 1000 && r->thread == e->thread && e->thread != 0);
    CHECK("cpu_op: one host event counted", x.c.n_host == 1);
    teardown(&x);

    const char *noid = "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", \"ts\": 5, \"dur\": 1}";
    CHECK("cpu_op without an id: filed", file_event(&x, noid, 0) == 0);
    CHECK("cpu_op without an id: its CPU time only", x.c.cpu.n == 1 && x.c.ops.n == 0);
    teardown(&x);

    const char *step = "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#3\", \"pid\": 1, "
                       "\"ts\": 0, \"dur\": 100}";
    CHECK("CPU step: filed", file_event(&x, step, 0) == 0);
    CHECK("CPU step: counted and kept", x.c.n_steps == 1 && x.c.cpu_steps.n == 1);
    const pf_step *st = pf_segvec_at(&x.c.cpu_steps, 0);
    CHECK("CPU step: number 3, 100 us, no device", st->number == 3 && st->dur_ns == 100000 && st->device == -1);
    CHECK("CPU step: also a host interval", x.c.cpu.n == 1);
    teardown(&x);
}

static void test_launch(void)
{
    fixture x;
    const char *s = "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, "
                    "\"ts\": 2, \"dur\": 1, \"args\": {\"correlation\": 77, \"External id\": 4, \"kernel\": \"gemm\"}}";
    CHECK("launch: filed", file_event(&x, s, 1) == 0);
    CHECK("launch: one launch record and a host interval", x.c.launches.n == 1 && x.c.cpu.n == 1);
    const pf_launch_rec *l = pf_segvec_at(&x.c.launches, 0);
    CHECK("launch: correlation 77 at 2000 ns", l->correlation == 77 && l->ts_ns == 2000);
    CHECK("launch: a call", l->kind == PF_LAUNCH_CALL);
    const pf_launch_name *nm = x.c.launch_names.n == 1 ? pf_segvec_at(&x.c.launch_names, 0) : NULL;
    CHECK("launch names kept: External id 4", nm && nm->ext_id == 4);
    CHECK_STR("launch names kept: kernel", nm ? nm->kernel : NULL, "gemm");
    teardown(&x);
    CHECK("launch without names: filed", file_event(&x, s, 0) == 0);
    l = pf_segvec_at(&x.c.launches, 0);
    CHECK("launch without names: none kept", x.c.launch_names.n == 0 && l->correlation == 77);
    teardown(&x);

    const char *odd = "{\"ph\": \"X\", \"cat\": \"gpu_odd\", \"name\": \"k\", \"ts\": 1, \"dur\": 1, "
                      "\"args\": {\"stream\": 7, \"correlation\": 5}}";
    CHECK("unknown GPU-like category: filed", file_event(&x, odd, 0) == 0);
    CHECK("unknown GPU-like category: counted, named", x.c.n_unknown_gpu == 1);
    CHECK_STR("unknown GPU-like category: its name", x.c.unknown_cat, "gpu_odd");
    teardown(&x);
}

/* pf_load_opts.op_spans_only: host events are counted, none is kept; an op record keeps its
 * own span for the nested-op search. */
static void test_op_spans_only(void)
{
    fixture x;
    const char *op = "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 2, \"ts\": 5, "
                     "\"dur\": 1.5, \"args\": {\"External id\": 4}}";
    const char *events[] = {
        op,
        "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 2, "
        "\"ts\": 6, \"dur\": 1, \"args\": {\"correlation\": 77}}",
        "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"fwd\", \"ts\": 0, \"dur\": 100}",
        "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::add\", \"ts\": 5, \"dur\": 1}",
        "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mul\", \"ts\": \"x\", \"dur\": 1, "
        "\"args\": {\"External id\": 5}}",
    };
    size_t host = 0, ops = 0, launches = 0;
    for (size_t k = 0; k < sizeof events / sizeof *events; k++) {
        setup(&x, events[k], 0);
        x.sc.op_spans_only = 1;
        ev_fields f;
        ev_record rec;
        size_t end;
        if (pf_ev_fast(events[k], strlen(events[k]), 0, 1, &f, &end, &rec) != FAST_OK)
            pf_ev_slow(events[k], strlen(events[k]), 0, &f);
        CHECK("op_spans_only: filed", pf_scan_add_event(&x.sc, &x.c, &f, 0) == 0);
        CHECK("op_spans_only: no host interval kept", x.c.cpu.n == 0);
        host += x.c.n_host;
        ops += x.c.ops.n;
        launches += x.c.launches.n;
        const pf_op_rec *r = x.c.ops.n ? pf_segvec_at(&x.c.ops, 0) : NULL;
        if (k == 0)
            CHECK("op_spans_only: the op's own span 5000..6500 ns",
                  r && r->ts_ns == 5000 && r->dur_ns == 1500 && r->thread != 0);
        if (k == 4)
            CHECK("op_spans_only: an op whose times cannot be read has no span", r && r->ts_ns == PF_NO_SPAN);
        teardown(&x);
    }
    CHECK("op_spans_only: every host event counted (op, call, annotation, op without id, bad op)", host == 5);
    CHECK("op_spans_only: op records of the ops with an External id", ops == 2);
    CHECK("op_spans_only: the launch is still a launch record", launches == 1);
}

int main(void)
{
    test_kernel();
    test_cpu_op();
    test_launch();
    test_op_spans_only();
    CHECK_DONE();
}
