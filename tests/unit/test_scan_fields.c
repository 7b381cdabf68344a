/* test_scan_fields.c - the members of one event as trace_fields.c finds them: key tables, the one-pass parser (extents, FAST_SLOW and FAST_TRUNC cases) and the validating scanner's member iteration, on events written out here. */
#include "check.h"

#include "../../src/trace/trace_event.h"

/* Whether the extent sp of s is exactly the text want. */
static int span_text(const char *s, const size_t sp[2], const char *want)
{
    size_t n = strlen(want);
    return sp[1] - sp[0] == n && memcmp(s + sp[0], want, n) == 0;
}

static void test_keys(void)
{
    CHECK("ph is E_PH", pf_ev_event_key("ph", 2) == E_PH);
    CHECK("ts is E_TS", pf_ev_event_key("ts", 2) == E_TS);
    CHECK("id is E_ID", pf_ev_event_key("id", 2) == E_ID);
    CHECK("dur is E_DUR", pf_ev_event_key("dur", 3) == E_DUR);
    CHECK("args is E_ARGS", pf_ev_event_key("args", 4) == E_ARGS);
    CHECK("name is E_NAME", pf_ev_event_key("name", 4) == E_NAME);
    CHECK("tss is not a key", pf_ev_event_key("tss", 3) == -1);
    CHECK("Name (capital) is not a key", pf_ev_event_key("Name", 4) == -1);
    CHECK("External id is A_EXT", pf_ev_args_key("External id", 11) == A_EXT);
    CHECK("older Kineto's external id is A_EXT", pf_ev_args_key("external id", 11) == A_EXT);
    CHECK("correlation is A_CORR", pf_ev_args_key("correlation", 11) == A_CORR);
    CHECK("Input Dims is A_DIMS", pf_ev_args_key("Input Dims", 10) == A_DIMS);
    CHECK("Concrete Inputs is A_CONC", pf_ev_args_key("Concrete Inputs", 15) == A_CONC);
    CHECK("kernel_num_gb is A_KGB", pf_ev_args_key("kernel_num_gb", 13) == A_KGB);
    CHECK("Input Strides is A_STRIDES", pf_ev_args_key("Input Strides", 13) == A_STRIDES);
    CHECK("Sequence number is A_SEQ", pf_ev_args_key("Sequence number", 15) == A_SEQ);
    CHECK("Fwd thread id is A_FWD", pf_ev_args_key("Fwd thread id", 13) == A_FWD);
    CHECK("Sequence numbe is not read", pf_ev_args_key("Sequence numbe", 14) == -1);
}

static void test_fast(void)
{
    const char *s = "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm_k\", \"pid\": 0, \"tid\": 7, "
                    "\"ts\": 1.5, \"dur\": 2, \"args\": {\"External id\": 31, \"device\": 0, \"stream\": 7, "
                    "\"grid\": [1, 2, 1], \"Input Dims\": [[2, 3]]}}";
    size_t len = strlen(s), end = 0;
    ev_fields f;
    ev_record rec;
    int r = pf_ev_fast(s, len, 0, 1, &f, &end, &rec);
    CHECK("a usual kernel event parses in one pass", r == FAST_OK);
    CHECK("it ends after its '}'", end == len);
    CHECK("ph's extent is \"X\"", span_text(s, f.ev[E_PH], "\"X\""));
    CHECK("cat's extent is \"kernel\"", span_text(s, f.ev[E_CAT], "\"kernel\""));
    CHECK("name's extent is \"gemm_k\"", span_text(s, f.ev[E_NAME], "\"gemm_k\""));
    CHECK("the name is plain", f.plain_name == 1);
    CHECK("ts's extent is 1.5", span_text(s, f.ev[E_TS], "1.5"));
    CHECK("tid's extent is 7", span_text(s, f.ev[E_TID], "7"));
    CHECK("no id member: [0, 0)", f.ev[E_ID][0] == 0 && f.ev[E_ID][1] == 0);
    CHECK("args' External id is 31", span_text(s, f.arg[A_EXT], "31"));
    CHECK("args' grid is [1, 2, 1]", span_text(s, f.arg[A_GRID], "[1, 2, 1]"));
    CHECK("args' Input Dims is [[2, 3]]", span_text(s, f.arg[A_DIMS], "[[2, 3]]"));
    CHECK("not found by the slow path", f.slow == 0);
    /* 7 event values + 5 args values take the args object's place */
    CHECK("12 values recorded for the shape", rec.n == 12);
    CHECK("the args object's braces are noted", s[rec.args_open] == '{' && s[rec.args_close] == '}');

    const char *esc = "{\"name\": \"a\\u0041\", \"ph\": \"X\"}";
    r = pf_ev_fast(esc, strlen(esc), 0, 1, &f, &end, &rec);
    CHECK("an escaped name still parses", r == FAST_OK && end == strlen(esc));
    CHECK("but is not plain", f.plain_name == 0);

    const char *rep = "{\"ph\": \"X\", \"ph\": \"i\"}";
    CHECK("a repeated key goes the slow way", pf_ev_fast(rep, strlen(rep), 0, 1, &f, &end, &rec) == FAST_SLOW);
    const char *rep_args = "{\"args\": {\"device\": 1, \"device\": 2}}";
    CHECK("a repeated args key goes the slow way",
          pf_ev_fast(rep_args, strlen(rep_args), 0, 1, &f, &end, &rec) == FAST_SLOW);
    const char *cut = "{\"ph\": \"X\", \"ts\": 12";
    CHECK("text ending inside the event: FAST_TRUNC", pf_ev_fast(cut, strlen(cut), 0, 1, &f, &end, &rec) == FAST_TRUNC);
    const char *bad = "{\"ph\" \"X\"}";
    CHECK("a missing ':' goes the slow way", pf_ev_fast(bad, strlen(bad), 0, 1, &f, &end, &rec) == FAST_SLOW);
    const char *empty = "{ }";
    r = pf_ev_fast(empty, strlen(empty), 0, 1, &f, &end, &rec);
    CHECK("an empty object parses, ending after '}'", r == FAST_OK && end == 3);
    const char *spaced = "{ \"ph\" :\"X\" , \"dur\":3 }";
    r = pf_ev_fast(spaced, strlen(spaced), 0, 1, &f, &end, &rec);
    CHECK("unusual spacing still parses", r == FAST_OK && end == strlen(spaced));
    CHECK("dur's extent is 3 there", span_text(spaced, f.ev[E_DUR], "3"));
}

static void test_slow(void)
{
    const char *s = "{\"ph\": \"i\", \"ph\": \"X\", \"args\": {\"Input Dims\": [1], \"Input Dims\": [2], \"device\": 3}}";
    ev_fields f;
    pf_ev_slow(s, strlen(s), 0, &f);
    CHECK("slow path: marked slow", f.slow == 1);
    CHECK("slow path: the last of a repeated event key wins", span_text(s, f.ev[E_PH], "\"X\""));
    CHECK("slow path: the first of a repeated op args key", span_text(s, f.arg[A_DIMS], "[1]"));
    CHECK("slow path: args ids are left to the args readers", f.arg[A_DEVICE][1] == 0);
    CHECK("slow path: args' extent is the object", s[f.ev[E_ARGS][0]] == '{' && f.ev[E_ARGS][1] == strlen(s) - 1);
}

int main(void)
{
    test_keys();
    test_fast();
    test_slow();
    CHECK_DONE();
}
