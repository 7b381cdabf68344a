/* test_loader.c - unit tests of the loader's parts: one model for every thread count, src_off, shared interning, the scanner's fast steps, the progress bar. */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "profana/jscan.h"
#include "profana/progress.h"
#include "profana/strtab.h"
#include "profana/trace.h"
#include "profana/trace_scan.h"

static const char *const traces[] = {
    "testdata/traces/eager_bf16.json",        "testdata/traces/cnn_fp32.json",
    "testdata/traces/compiled_bf16_b8.json",  "testdata/traces/compiled_module_profile_0.json",
    "testdata/traces/steps_bf16.json",        "testdata/peer/owlv2_mi300.json.gz",
};

static int same_act(const pf_activity *a, const pf_activity *b)
{
    return strcmp(a->name, b->name) == 0 && a->kind == b->kind && a->device == b->device && a->stream == b->stream &&
           a->ts_ns == b->ts_ns && a->dur_ns == b->dur_ns &&
           a->correlation == b->correlation && a->bytes == b->bytes && a->op == b->op && a->src_off == b->src_off &&
           a->launch_ts_ns == b->launch_ts_ns && a->launch_process == b->launch_process;
}

static int same_op(const pf_cpu_op *a, const pf_cpu_op *b)
{
    if (strcmp(a->name, b->name) != 0 || a->ext_id != b->ext_id || a->src_off != b->src_off ||
        a->call.nargs != b->call.nargs || !a->call.name != !b->call.name || a->bad_args != b->bad_args ||
        a->kernel_flop != b->kernel_flop || a->kernel_num_gb != b->kernel_num_gb)
        return 0;
    for (int i = 0; i < a->call.nargs; i++)
        if (a->call.args[i].ndim != b->call.args[i].ndim || strcmp(a->call.args[i].type, b->call.args[i].type) != 0)
            return 0;
    return 1;
}

static int same_cpu(const pf_cpu_event *a, const pf_cpu_event *b)
{
    return !a->name == !b->name && (!a->name || strcmp(a->name, b->name) == 0) && a->thread == b->thread &&
           a->ts_ns == b->ts_ns && a->dur_ns == b->dur_ns;
}

/* Every count and every element of the model, one thread against several. */
static int same_model(const pf_trace *a, const pf_trace *b)
{
    if (a->n_acts != b->n_acts || a->n_ops != b->n_ops || a->n_cpu != b->n_cpu || a->n_events != b->n_events ||
        a->n_unlinked != b->n_unlinked || a->n_duplicate_ids != b->n_duplicate_ids ||
        a->n_bad_events != b->n_bad_events || a->n_steps != b->n_steps || a->n_gpu_steps != b->n_gpu_steps ||
        a->n_cpu_steps != b->n_cpu_steps || a->n_launched != b->n_launched || a->n_devices != b->n_devices)
        return 0;
    for (size_t i = 0; i < a->n_acts; i++)
        if (!same_act(&a->acts[i], &b->acts[i]))
            return 0;
    for (size_t i = 0; i < a->n_ops; i++)
        if (!same_op(&a->ops[i], &b->ops[i]))
            return 0;
    for (size_t i = 0; i < a->n_cpu; i++)
        if (!same_cpu(&a->cpu[i], &b->cpu[i]))
            return 0;
    if (a->n_cpu_steps && memcmp(a->cpu_steps, b->cpu_steps, a->n_cpu_steps * sizeof *a->cpu_steps) != 0)
        return 0;
    return a->n_gpu_steps == 0 || memcmp(a->gpu_steps, b->gpu_steps, a->n_gpu_steps * sizeof *a->gpu_steps) == 0;
}

/* src_off of every activity and op is the '{' of its event in the text pf_source_read gives. */
static int offsets_point_at_events(const char *path, const pf_trace *t)
{
    char *buf;
    size_t len;
    int mapped;
    pf_error err;
    if (pf_source_read(path, &buf, &len, &mapped, &err))
        return 0;
    int ok = 1;
    for (size_t i = 0; ok && i < t->n_acts; i++)
        ok = t->acts[i].src_off >= 0 && (size_t)t->acts[i].src_off < len && buf[t->acts[i].src_off] == '{';
    for (size_t i = 0; ok && i < t->n_ops; i++)
        ok = t->ops[i].src_off >= 0 && (size_t)t->ops[i].src_off < len && buf[t->ops[i].src_off] == '{';
    pf_source_release(buf, len, mapped);
    return ok;
}

/* The args extent the loader noted equals the "args" member found by reading the event with
 * the validating scanner; counts the events with one (*known) and without (*unknown). */
static int args_match(const char *s, size_t len, int64_t off, pf_src_args a, size_t *known, size_t *unknown)
{
    size_t pos = (size_t)off, at = 0, end = 0;
    pf_jmember m;
    pf_jerr e;
    if (pf_json_obj_begin(s, len, &pos, &e))
        return 0;
    while (pf_json_obj_next(s, len, &pos, &m, &e) == 1)
        if (pf_json_key_is(s, &m, "args") && s[m.val_start] == '{') {
            at = m.val_start;
            end = m.val_end;
        }
    if (a.len == 0) {
        (*unknown)++;
        return end == 0;
    }
    (*known)++;
    return at == (size_t)off + a.at && end == at + a.len;
}

/* Every activity's and op's args extent (what --augment_trace writes into), by both readers
 * of events: the shape matcher (most events) and the general parser (the first of a shape). */
static void check_args_extents(const char *path, const pf_trace *t)
{
    char *buf, name[256];
    size_t len, known = 0, unknown = 0;
    int mapped, ok = 1;
    pf_error err;
    if (pf_source_read(path, &buf, &len, &mapped, &err)) {
        CHECK(path, 0);
        return;
    }
    for (size_t i = 0; ok && i < t->n_acts; i++)
        ok = args_match(buf, len, t->acts[i].src_off, t->acts[i].args, &known, &unknown);
    for (size_t i = 0; ok && i < t->n_ops; i++)
        ok = args_match(buf, len, t->ops[i].src_off, t->ops[i].args, &known, &unknown);
    snprintf(name, sizeof name, "%s: the args extents of %zu events are their args objects", path, known);
    CHECK(name, ok && known == t->n_acts + t->n_ops && unknown == 0);
    pf_source_release(buf, len, mapped);
}

/* By default the model keeps the ops that launched GPU activity, and only those; with
 * all_ops every cpu_op with an External id. Each activity links to the same op (by
 * External id and name) either way. */
static void test_linked_ops(void)
{
    for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) {
        pf_load_opts all = {.jobs = 2, .all_ops = 1}, linked = {.jobs = 2};
        pf_trace *a = NULL, *l = NULL;
        pf_error err;
        char name[256];
        int ok = pf_trace_load_opts(traces[i], &all, &a, &err) == 0 && pf_trace_load_opts(traces[i], &linked, &l, &err) == 0;
        unsigned char *used = ok ? calloc(l->n_ops + 1, 1) : NULL;
        ok = ok && used && a->n_acts == l->n_acts && a->n_unlinked == l->n_unlinked;
        for (size_t k = 0; ok && k < l->n_acts; k++) {
            int32_t x = a->acts[k].op, y = l->acts[k].op;
            ok = (x < 0) == (y < 0);
            if (ok && y >= 0) {
                ok = a->ops[x].ext_id == l->ops[y].ext_id && strcmp(a->ops[x].name, l->ops[y].name) == 0 &&
                     a->ops[x].call.nargs == l->ops[y].call.nargs && a->ops[x].src_off == l->ops[y].src_off;
                used[y] = 1;
            }
        }
        size_t n_used = 0;
        for (size_t k = 0; ok && k < l->n_ops; k++)
            n_used += used[k];
        snprintf(name, sizeof name, "%s: the model keeps the %zu linked ops of %zu, links unchanged", traces[i],
                 ok ? l->n_ops : 0, ok ? a->n_ops : 0);
        CHECK(name, ok && n_used == l->n_ops && l->n_ops <= a->n_ops);
        free(used);
        pf_trace_free(a);
        pf_trace_free(l);
    }
}

static void test_threads_same_model(void)
{
    for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) {
        pf_load_opts one = {.jobs = 1}, three = {.jobs = 3};
        pf_trace *a = NULL, *b = NULL;
        pf_error err;
        char name[256];
        int ok = pf_trace_load_opts(traces[i], &one, &a, &err) == 0 && pf_trace_load_opts(traces[i], &three, &b, &err) == 0;
        snprintf(name, sizeof name, "%s: -j 3 gives the -j 1 model", traces[i]);
        CHECK(name, ok && same_model(a, b));
        snprintf(name, sizeof name, "%s: src_off points at each event's '{'", traces[i]);
        CHECK(name, ok && offsets_point_at_events(traces[i], b));
        if (ok)
            check_args_extents(traces[i], b);
        pf_trace_free(a);
        pf_trace_free(b);
    }
}

/* ---- interning from several threads ---- */

typedef struct intern_job {
    pf_strtab *shared;
    const char *got[64];
} intern_job;

static void *intern_all(void *arg)
{
    intern_job *j = arg;
    pf_strcache *c = pf_strcache_new(j->shared);
    char s[48];
    for (int round = 0; round < 50; round++)
        for (int i = 0; i < 64; i++) {
            snprintf(s, sizeof s, "kernel_%d_with_a_longer_name", i);
            j->got[i] = pf_strcache_intern(c, s, strlen(s));
        }
    pf_strcache_free(c);
    return NULL;
}

static void test_shared_interning(void)
{
    pf_strtab *t = pf_strtab_new();
    intern_job jobs[4];
    pthread_t th[4];
    for (int k = 0; k < 4; k++) {
        jobs[k].shared = t;
        pthread_create(&th[k], NULL, intern_all, &jobs[k]);
    }
    for (int k = 0; k < 4; k++)
        pthread_join(th[k], NULL);
    int same = 1;
    for (int k = 1; k < 4; k++)
        for (int i = 0; i < 64; i++)
            same &= jobs[k].got[i] == jobs[0].got[i];
    CHECK("4 threads intern 64 names: one pointer per name", same);
    CHECK("4 threads intern 64 names: 64 strings", pf_strtab_count(t) == 64);
    CHECK("the shared copy equals the name", strcmp(jobs[2].got[17], "kernel_17_with_a_longer_name") == 0);
    CHECK("the table itself gives the same pointer", pf_strtab_intern(t, "kernel_5_with_a_longer_name", 27) == jobs[1].got[5]);
    pf_strtab_free(t);
}

/* ---- the scanner's 16-byte steps ---- */

static size_t skip_end(const char *s)
{
    size_t p = 0;
    pf_jerr e;
    return pf_json_skip(s, strlen(s), &p, &e) ? (size_t)-1 : p;
}

static void test_scanner_steps(void)
{
    const char *num = "123456789012345678901234567890.12345678901234567890e+12 ";
    CHECK("a 56-byte number skips whole", skip_end(num) == strlen(num) - 1);
    const char *ws = "[                                        1,\n\n\n\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t 2]";
    CHECK("long whitespace runs", skip_end(ws) == strlen(ws));
    const char *str = "\"a long plain string of more than sixteen bytes, and more\"";
    size_t p = 0;
    CHECK("plain string: 1", pf_json_plain_string(str, strlen(str), &p) == 1 && p == strlen(str));
    const char *esc = "\"sixteen bytes and then an escape \\n here\"";
    p = 0;
    CHECK("escaped string: 0 (not plain)", pf_json_plain_string(esc, strlen(esc), &p) == 0 && p == 0);
    const char *utf = "\"sixteen bytes and then caf\xC3\xA9\"";
    p = 0;
    CHECK("non-ASCII string: 0 (not plain)", pf_json_plain_string(utf, strlen(utf), &p) == 0);
    const char *cut = "\"sixteen bytes and then the end";
    p = 0;
    CHECK("unterminated string: -1", pf_json_plain_string(cut, strlen(cut), &p) == -1);
    char deep[600];
    memset(deep, '[', sizeof deep - 1);
    deep[sizeof deep - 1] = 0;
    pf_jerr e;
    p = 0;
    CHECK("nesting limit counts from the given depth (3: fails 510 levels in)",
          pf_json_skip_at(deep, strlen(deep), &p, 3, &e) == -1 && e.pos == 510 && strstr(e.what, "nesting"));
    CHECK("a control byte after 16 plain bytes", skip_end("\"0123456789abcdef\x01\"") == (size_t)-1);
}

/* ---- pf_event_scan: the scanner for a caller holding the whole text ---- */

/* 1 when member m of x spans exactly the text want in s ("" for an absent member). */
static int member_is(const char *s, const pf_event_extent *x, pf_ev_member m, const char *want)
{
    const size_t *sp = x->member[m];
    return sp[1] - sp[0] == strlen(want) && memcmp(s + sp[0], want, strlen(want)) == 0;
}

static void check_usual_event(const char *name, pf_event_scanner *sc)
{
    /* The event is 134 bytes, then " tail"; its values are cut out of it by hand. */
    const char *s = "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, \"tid\": 7, \"ts\": 1.500, "
                    "\"dur\": 2, \"id\": 9, \"args\": {\"device\": 0, \"External id\": 4}} tail";
    pf_event_extent x;
    pf_jerr e;
    int rc = pf_event_scan(sc, s, strlen(s), 0, 3, &x, &e);
    CHECK(name, rc == 0 && x.end == 134 && member_is(s, &x, PF_EV_PH, "\"X\"") &&
                    member_is(s, &x, PF_EV_CAT, "\"kernel\"") && member_is(s, &x, PF_EV_NAME, "\"k\"") &&
                    member_is(s, &x, PF_EV_PID, "0") && member_is(s, &x, PF_EV_TID, "7") &&
                    member_is(s, &x, PF_EV_TS, "1.500") && member_is(s, &x, PF_EV_DUR, "2") &&
                    member_is(s, &x, PF_EV_ID, "9") &&
                    member_is(s, &x, PF_EV_ARGS, "{\"device\": 0, \"External id\": 4}"));
}

static void test_event_scan(void)
{
    pf_event_scanner *sc = pf_event_scanner_new();
    check_usual_event("event scan: every member's extent, no scanner", NULL);
    check_usual_event("event scan: a scanner learning the shape", sc);
    check_usual_event("event scan: the same event read by its shape", sc);
    pf_event_scanner_free(sc);
    /* A repeated key: the last one counts; absent members are [0, 0). */
    const char *rep = "{\"pid\": 1, \"id\": 2, \"pid\": \"x\" , \"args\": 5 }";
    pf_event_extent x;
    pf_jerr e;
    CHECK("event scan: a repeated key's last value",
          pf_event_scan(NULL, rep, strlen(rep), 0, 2, &x, &e) == 0 && x.end == strlen(rep) &&
              member_is(rep, &x, PF_EV_PID, "\"x\"") && member_is(rep, &x, PF_EV_ID, "2") &&
              member_is(rep, &x, PF_EV_ARGS, "5") && x.member[PF_EV_TS][0] == 0 && x.member[PF_EV_TS][1] == 0);
    const char *bad = "{\"pid\": 1,}";
    CHECK("event scan: a trailing comma at byte 10",
          pf_event_scan(NULL, bad, strlen(bad), 0, 3, &x, &e) == -1 && e.pos == 10 && !e.truncated &&
              strcmp(e.what, "trailing comma") == 0);
    const char *cut = "{\"pid\": 1";
    CHECK("event scan: text ending inside the event", pf_event_scan(NULL, cut, strlen(cut), 0, 3, &x, &e) == -1 &&
                                                         e.truncated && e.pos == 9);
    const char *cats = "\"kernel\"\"gpu_user_annotation\"\"cpu_op\"";
    CHECK("cat kernel is GPU-side", pf_event_cat_gpu(cats, (size_t[2]){0, 8}) == 1);
    CHECK("cat gpu_user_annotation is GPU-side", pf_event_cat_gpu(cats, (size_t[2]){8, 29}) == 1);
    CHECK("cat cpu_op is not", pf_event_cat_gpu(cats, (size_t[2]){29, 37}) == 0);
    CHECK("no cat is not", pf_event_cat_gpu(cats, (size_t[2]){0, 0}) == 0);
}

/* ---- the progress bar ---- */

static void test_progress_format(void)
{
    char b[128];
    pf_progress_format(b, sizeof b, 450000000, 1000000000, 2.0);
    CHECK_STR("bar at 45%", b, "[##########--------------]  45%  450 of 1000 MB  225 MB/s  2.4 s left");
    pf_progress_format(b, sizeof b, 1000000000, 1000000000, 4.0);
    CHECK_STR("bar at 100%", b, "[########################] 100%  1000 of 1000 MB  250 MB/s  0.0 s left");
    pf_progress_format(b, sizeof b, 300000000, -1, 1.5);
    CHECK_STR("unknown size: bytes and rate", b, "300 MB  200 MB/s");
}

static int64_t half(const void *arg)
{
    (void)arg;
    return 500;
}

static void test_progress_thread(void)
{
    char path[] = "/tmp/profana-progress-XXXXXX";
    int fd = mkstemp(path), saved = dup(STDERR_FILENO);
    fflush(stderr);
    dup2(fd, STDERR_FILENO);
    pf_progress *p = pf_progress_start(1000, 0, half, NULL);
    usleep(700 * 1000);
    pf_progress_stop(p);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    char got[1024] = {0};
    ssize_t n = pread(fd, got, sizeof got - 1, 0);
    close(fd);
    unlink(path);
    CHECK("the thread drew the bar", n > 0 && strstr(got, "\rprofana: [############------------]  50%"));
    CHECK("and erased it at the end", n > 2 && got[n - 1] == '\r' && got[n - 2] == ' ');
}

static const pf_cpu_op *op_of(const pf_trace *t, int64_t ext_id)
{
    for (size_t i = 0; i < t->n_ops; i++)
        if (t->ops[i].ext_id == ext_id)
            return &t->ops[i];
    return NULL;
}

/* testdata/lists/bare_lists.json: a TensorList recorded as [] is a list of nothing where
 * another list of the call has shapes (max_exp_avg_sqs without amsgrad), and has no element
 * count where every list of the call is [] (recent PyTorch: shapes not recorded). */
static void test_bare_lists(void)
{
    pf_load_opts o = {.jobs = 1};
    pf_trace *t = NULL;
    pf_error err;
    if (pf_trace_load_opts("testdata/lists/bare_lists.json", &o, &t, &err) != 0) {
        CHECK("bare lists: trace loads", 0);
        return;
    }
    const pf_cpu_op *bare = op_of(t, 2), *foreach = op_of(t, 3), *shaped = op_of(t, 4);
    CHECK("bare lists: the three ops linked", bare && foreach && shaped);
    if (bare && foreach && shaped) {
        int ok = bare->call.nargs == 15;
        for (int i = 0; i < 6 && ok; i++)
            ok = bare->call.args[i].is_list && bare->call.args[i].list_numel == -1;
        CHECK("every list []: no element count (-1) on each of the six", ok);
        CHECK("every list []: the scalars stay scalars", bare->call.nargs == 15 && !bare->call.args[6].is_list);
        CHECK("every list []: pf_op_lists_unrecorded", pf_op_lists_unrecorded(&bare->call) == 1);
        CHECK("_foreach_add_(list [], 1): unrecorded", foreach->call.nargs == 2 &&
                                                           foreach->call.args[0].list_numel == -1 &&
                                                           pf_op_lists_unrecorded(&foreach->call) == 1);
        ok = shaped->call.nargs == 15;
        for (int i = 0; i < 4 && ok; i++)
            ok = shaped->call.args[i].is_list && shaped->call.args[i].list_numel == 1024 * 1024 + 1024;
        CHECK("lists with shapes: [1024, 1024] + [1024] = 1049600 each", ok);
        CHECK("lists with shapes: max_exp_avg_sqs [] is empty (0), state_steps [[], []] two 0-d",
              shaped->call.nargs == 15 && shaped->call.args[4].is_list && shaped->call.args[4].list_numel == 0 &&
                  shaped->call.args[5].list_numel == 2);
        CHECK("lists with shapes: recorded", pf_op_lists_unrecorded(&shaped->call) == 0);
    }
    pf_trace_free(t);
}

int main(void)
{
    test_bare_lists();
    test_linked_ops();
    test_threads_same_model();
    test_shared_interning();
    test_scanner_steps();
    test_event_scan();
    test_progress_format();
    test_progress_thread();
    CHECK_DONE();
}
