/* test_scan_elements.c - the element loop of trace_elements.c over a small file: counts, where a stretch stops, the array's end, a cut text, syntax errors with their byte, and where the next stretch starts (pf_scan_find_start); offsets counted by hand in the texts here. */
#include "check.h"

#include "../../src/trace/trace_chunk.h"
#include "../../src/trace/trace_event.h"
#include "profana/trace.h"

typedef struct fixture {
    char path[64];
    pf_reader *r;
    pf_window w;
    pf_scanner sc;
    pf_chunk c;
    pf_strtab *tab;
} fixture;

static void setup(fixture *x, const char *s)
{
    memset(x, 0, sizeof *x);
    strcpy(x->path, "/tmp/profana_test_elements_XXXXXX");
    int fd = mkstemp(x->path);
    size_t n = strlen(s);
    pf_error err;
    if (fd < 0 || write(fd, s, n) != (ssize_t)n || pf_reader_open(x->path, &x->r, &err) ||
        pf_window_init(&x->w, x->r, 0))
        exit(2);
    close(fd);
    /* a window that is not mapped (AddressSanitizer builds) is read up to the end first */
    while (!x->w.eof)
        if (pf_window_more(&x->w, 0, &err))
            exit(2);
    x->tab = pf_strtab_new();
    x->sc.w = &x->w;
    x->sc.strs = pf_strcache_new(x->tab);
    x->sc.shapes = pf_shapes_new();
    x->sc.path = "t.json";
    x->sc.depth = 1;
    pf_chunk_init(&x->c);
}

static void teardown(fixture *x)
{
    pf_chunk_free(&x->c);
    pf_shapes_free(x->sc.shapes);
    pf_strcache_free(x->sc.strs);
    free(x->sc.key);
    pf_strtab_free(x->tab);
    pf_window_free(&x->w);
    pf_reader_close(x->r);
    unlink(x->path);
}

#define EV(ts) "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"ts\": " #ts ", \"dur\": 1}"

/* "[" at 16; the first event at 17; each event is 70 bytes, and ", " 2 more */
static const char *three = "{\"traceEvents\": [" EV(1) ", " EV(2) ", " EV(3) "], \"x\": 1}";

static void test_whole_array(void)
{
    fixture x;
    setup(&x, three);
    size_t ev = strlen(EV(1));
    CHECK("an event is 70 bytes", ev == 70);
    pf_scan_events(&x.sc, &x.c, 17, PF_FROM_OPEN, INT64_MAX);
    CHECK("whole array: ends at ']'", x.c.end == PF_END_ARRAY);
    CHECK("whole array: next is after ']'", x.c.next == (int64_t)(17 + 3 * ev + 2 * 2 + 1));
    CHECK("whole array: 3 events, 3 kernels", x.c.n_events == 3 && x.c.acts.n == 3);
    const pf_activity *a = pf_segvec_at(&x.c.acts, 2);
    CHECK("whole array: the third at offset 17 + 2 * 72", a->src_off == 17 + 2 * 72 && a->ts_ns == 3000);
    teardown(&x);
}

static void test_stop(void)
{
    fixture x;
    setup(&x, three);
    /* stop at the second event: the first element only */
    pf_scan_events(&x.sc, &x.c, 17, PF_FROM_OPEN, 17 + 72);
    CHECK("stopped: at the second event", x.c.end == PF_END_STOPPED && x.c.next == 17 + 72);
    CHECK("stopped: one event parsed", x.c.n_events == 1);
    teardown(&x);
    setup(&x, three);
    /* a later stretch starts at an element (no separator before it) */
    pf_scan_events(&x.sc, &x.c, 17 + 72, PF_FROM_ELEMENT, INT64_MAX);
    CHECK("from an element: to the array's end", x.c.end == PF_END_ARRAY && x.c.n_events == 2);
    teardown(&x);
}

static void test_errors(void)
{
    fixture x;
    setup(&x, "{\"traceEvents\": [" EV(1) ", ]}");
    pf_scan_events(&x.sc, &x.c, 17, PF_FROM_OPEN, INT64_MAX);
    CHECK("trailing comma: an error", x.c.end == PF_END_ERROR);
    /* ']' at 17 + 70 + 2 = 89 */
    CHECK_STR("trailing comma: the message names byte 89", x.c.err.msg, "t.json: byte 89: trailing comma");
    teardown(&x);

    setup(&x, "{\"traceEvents\": [" EV(1) " " EV(2) "]}");
    pf_scan_events(&x.sc, &x.c, 17, PF_FROM_OPEN, INT64_MAX);
    CHECK_STR("a missing ',': byte 88", x.c.err.msg, "t.json: byte 88: expected ',' or ']'");
    teardown(&x);

    static const char cut[] = "{\"traceEvents\": [" EV(1) ", {\"ph\": \"X\", \"ts\"";
    setup(&x, cut);
    pf_scan_events(&x.sc, &x.c, 17, PF_FROM_OPEN, INT64_MAX);
    CHECK("cut inside an element", x.c.end == PF_END_CUT && x.c.cut_inside == 1);
    CHECK("cut: at the text's end, one event whole", x.c.cut_at == (int64_t)strlen(cut) && x.c.n_events == 1);
    teardown(&x);

    setup(&x, "{\"traceEvents\": [" EV(1) ", 5, \"s\"]}");
    pf_scan_events(&x.sc, &x.c, 17, PF_FROM_OPEN, INT64_MAX);
    CHECK("elements that are not objects: counted as bad events",
          x.c.end == PF_END_ARRAY && x.c.n_events == 3 && x.c.n_bad_events == 2);
    teardown(&x);
}

static void test_find_start(void)
{
    fixture x;
    setup(&x, three);
    int64_t start = 0;
    pf_error err;
    CHECK("find start: from inside the first event", pf_scan_find_start(&x.w, 30, 1000, &start, &err) == 0);
    CHECK("find start: the second event, at 89", start == 17 + 72);
    CHECK("find start: exactly at an event", pf_scan_find_start(&x.w, 89, 1000, &start, &err) == 0 && start == 89);
    CHECK("find start: none before the limit 100",
          pf_scan_find_start(&x.w, 90, 100, &start, &err) == 0 && start == PF_NO_START_HERE);
    CHECK("find start: after the last event, none",
          pf_scan_find_start(&x.w, 17 + 2 * 72 + 1, 1000, &start, &err) == 0 && start == -1);
    teardown(&x);
}

int main(void)
{
    test_whole_array();
    test_stop();
    test_errors();
    test_find_start();
    CHECK_DONE();
}
