/* test_work.c - the analysis' fast paths against their plain definitions on the real traces: memoised work (pf_work_all) against the per-activity formula run, the radix-sorted busy time against a qsort and a sweep, and the threaded work shares and inference (hand values, and the same result on any number of threads). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "profana/analysis.h"
#include "profana/trace.h"

static const char *const traces[] = {
    "testdata/traces/eager_bf16.json",       "testdata/traces/eager_fp32.json",
    "testdata/traces/cnn_fp32.json",         "testdata/traces/compiled_bf16_b8.json",
    "testdata/traces/compiled_module_profile_0.json", "testdata/traces/steps_bf16.json",
    "testdata/peer/owlv2_mi300.json.gz",     "testdata/peer/owlv2_h100.json.gz",
};

static int same_work(const pf_act_work *a, const pf_act_work *b)
{
    return a->flop == b->flop && a->bytes == b->bytes && a->dtype == b->dtype && a->source == b->source &&
           a->no_formula == b->no_formula && a->upper_bound == b->upper_bound && a->elsewhere == b->elsewhere &&
           a->graph_replay == b->graph_replay && a->compiled_region == b->compiled_region && a->op_flop == b->op_flop &&
           a->lists_unrecorded == b->lists_unrecorded &&
           a->op_bytes == b->op_bytes;
}

/* pf_work_all gives, for every activity, exactly what pf_work_of gives. */
static void check_work(const char *path, const pf_trace *t, pf_dtype dt, int tf32)
{
    pf_analysis_opts o = {.default_dtype = dt, .tf32 = tf32, .step = PF_STEP_EVERY};
    pf_share *shares = pf_work_shares(t, 1);
    pf_act_work *all = malloc((t->n_acts + 1) * sizeof *all);
    int ok = shares && all && pf_work_all(t, &o, shares, all) == 0;
    size_t known = 0;
    for (size_t i = 0; ok && i < t->n_acts; i++) {
        pf_act_work one;
        pf_work_of(t, &o, i, shares[i], &one);
        ok = same_work(&one, &all[i]);
        known += one.flop >= 0 || one.bytes >= 0;
    }
    char name[256];
    snprintf(name, sizeof name, "%s (%s%s): memoised work of %zu activities (%zu with figures) = formula per activity",
             path, pf_dtype_name(dt), tf32 ? ", tf32" : "", t->n_acts, known);
    CHECK(name, ok && known > 0);
    free(shares);
    free(all);
}

/* Busy time by definition: the union of [ts, ts + dur) by a qsort and a sweep, per device
 * and per stream. */
typedef struct iv {
    int64_t s, e;
} iv;

static int by_s(const void *x, const void *y)
{
    const iv *a = x, *b = y;
    return (a->s > b->s) - (a->s < b->s);
}

static int64_t plain_union(const pf_trace *t, int device, int64_t stream, int any_stream, size_t *count)
{
    iv *v = malloc((t->n_acts + 1) * sizeof *v);
    size_t n = 0;
    for (size_t i = 0; v && i < t->n_acts; i++) {
        const pf_activity *a = &t->acts[i];
        if (a->device == device && (any_stream || a->stream == stream))
            v[n++] = (iv){a->ts_ns, a->ts_ns + a->dur_ns};
    }
    qsort(v, n, sizeof *v, by_s);
    int64_t total = 0, cs = 0, ce = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || v[i].s > ce) {
            total += ce - cs;
            cs = v[i].s;
            ce = v[i].e;
        } else if (v[i].e > ce) {
            ce = v[i].e;
        }
    }
    free(v);
    *count = n;
    return total + ce - cs;
}

static void check_busy(const char *path, const pf_trace *t)
{
    for (int d = 0; d < t->n_devices; d++) {
        int dev = t->devices[d].id;
        size_t *idx = malloc((t->n_acts + 1) * sizeof *idx), n = 0, count;
        for (size_t i = 0; idx && i < t->n_acts; i++)
            if (t->acts[i].device == dev)
                idx[n++] = i;
        pf_busy b;
        if (!idx || n == 0 || pf_busy_compute(t->acts, idx, n, &b)) {
            free(idx);
            continue;
        }
        char name[256];
        snprintf(name, sizeof name, "%s: device %d: busy time = the union by qsort and sweep", path, dev);
        CHECK(name, b.busy_ns == plain_union(t, dev, 0, 1, &count) && count == n);
        int streams_ok = b.n_streams > 0;
        int64_t prev = INT64_MIN;
        size_t total = 0;
        for (size_t s = 0; s < b.n_streams; s++) {
            streams_ok &= b.streams[s].stream > prev;
            prev = b.streams[s].stream;
            streams_ok &= b.streams[s].busy_ns == plain_union(t, dev, b.streams[s].stream, 0, &count);
            streams_ok &= (size_t)b.streams[s].count == count;
            total += count;
        }
        snprintf(name, sizeof name, "%s: device %d: %zu streams in order, each one's busy time and count by definition",
                 path, dev, b.n_streams);
        CHECK(name, streams_ok && total == n);
        free(b.streams);
        free(idx);
    }
}

/* Many streams, ties, negative and far-apart times, and more streams than the counting
 * sort takes (the qsort fallback): the same figures as the definition. */
static void check_busy_synthetic(size_t n, int streams, int64_t spread)
{
    pf_trace t = {0};
    pf_activity *acts = calloc(n, sizeof *acts);
    size_t *idx = malloc(n * sizeof *idx);
    uint64_t x = 88172645463325252u;
    for (size_t i = 0; acts && idx && i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        acts[i].stream = (int64_t)(x % (uint64_t)streams) * 7 - 3;
        acts[i].ts_ns = (int64_t)(x >> 11) % spread - spread / 3;
        acts[i].dur_ns = (int64_t)(x >> 40) % 5000;
        idx[i] = i;
    }
    t.acts = acts;
    t.n_acts = n;
    pf_busy b;
    int ok = acts && idx && pf_busy_compute(acts, idx, n, &b) == 0;
    size_t count, total = 0;
    ok = ok && b.busy_ns == plain_union(&t, 0, 0, 1, &count);
    for (size_t s = 0; ok && s < b.n_streams; s++) {
        ok = b.streams[s].busy_ns == plain_union(&t, 0, b.streams[s].stream, 0, &count) &&
             (size_t)b.streams[s].count == count && (s == 0 || b.streams[s].stream > b.streams[s - 1].stream);
        total += count;
    }
    char name[160];
    snprintf(name, sizeof name, "%zu random intervals on %d streams over %lld ns: busy time by definition", n, streams,
             (long long)spread);
    CHECK(name, ok && total == n && b.n_streams <= (size_t)streams && b.n_streams >= (size_t)streams * 9 / 10);
    if (ok)
        free(b.streams);
    free(acts);
    free(idx);
}

/* ---- pf_work_shares and pf_work_infer on threads ---- */

static const size_t thread_counts[] = {1, 2, 3, 16};

/* Both results, field by field (doubles by value: a sum in another order would differ). */
static int same_inferred(const pf_act_work *a, const pf_act_work *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!same_work(&a[i], &b[i]) || a[i].inferred != b[i].inferred || a[i].no_shapes != b[i].no_shapes)
            return 0;
    return 1;
}

/* pf_work_shares, then pf_work_all and pf_work_infer, on 1, 2, 3 and 16 threads: the same
 * shares and work every time. */
static void check_threads(const char *path, const pf_trace *t)
{
    pf_analysis_opts o = {.default_dtype = PF_DT_BF16, .step = PF_STEP_EVERY};
    pf_share *one = pf_work_shares(t, 1);
    pf_act_work *w1 = malloc((t->n_acts + 1) * sizeof *w1), *wk = malloc((t->n_acts + 1) * sizeof *wk);
    int ok = one && w1 && wk && pf_work_all(t, &o, one, w1) == 0 && pf_work_infer(t, w1, 1) == 0;
    size_t inferred = 0;
    for (size_t i = 0; ok && i < t->n_acts; i++)
        inferred += w1[i].inferred;
    for (size_t k = 1; ok && k < sizeof thread_counts / sizeof thread_counts[0]; k++) {
        pf_share *sh = pf_work_shares(t, thread_counts[k]);
        ok = sh && memcmp(sh, one, t->n_acts * sizeof *sh) == 0;
        ok = ok && pf_work_all(t, &o, sh, wk) == 0 && pf_work_infer(t, wk, thread_counts[k]) == 0;
        ok = ok && same_inferred(w1, wk, t->n_acts);
        free(sh);
    }
    char name[256];
    snprintf(name, sizeof name, "%s: shares and work (%zu inferred) the same on 1, 2, 3 and 16 threads", path,
             inferred);
    CHECK(name, ok);
    free(one);
    free(w1);
    free(wk);
}

static pf_activity act(const char *name, int32_t op, pf_act_kind kind, int64_t dur, uint64_t geometry)
{
    return (pf_activity){.name = name, .op = op, .kind = kind, .dur_ns = dur, .geometry = geometry};
}

/* Four ops whose kernels lie apart (ranges split them): op 0 a GEMM (300 ns) and an
 * element-wise kernel (100) and a copy, op 1 two kernels of no time, op 2 one of negative
 * time (0) and one of 10 ns, op 3 a GEMM and its split-K reduction (50 ns each); one kernel
 * without an op. */
static void check_shares_hand(void)
{
    const char *gemm = "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_tn", *ew = "vectorized_elementwise_kernel",
               *split = "void cublasLt::splitKreduce_kernel<32, 16, int, float>", *cpy = "Memcpy DtoD (Device -> Device)";
    pf_activity acts[] = {act(gemm, 0, PF_ACT_KERNEL, 300, 0), act(ew, 1, PF_ACT_KERNEL, 0, 0),
                          act(ew, 2, PF_ACT_KERNEL, -5, 0),    act(ew, 0, PF_ACT_KERNEL, 100, 0),
                          act(gemm, 3, PF_ACT_KERNEL, 50, 0),  act(gemm, -1, PF_ACT_KERNEL, 70, 0),
                          act(ew, 1, PF_ACT_KERNEL, 0, 0),     act(ew, 2, PF_ACT_KERNEL, 10, 0),
                          act(split, 3, PF_ACT_KERNEL, 50, 0), act(cpy, 0, PF_ACT_MEMCPY, 40, 0)};
    static const pf_share want[] = {{1, 0.75}, {0.5, 0.5}, {0, 0}, {0, 0.25},  {1, 0.5},
                                    {0, 0},    {0.5, 0.5}, {1, 1}, {0, 0.5},   {0, 0}};
    pf_trace t = {.acts = acts, .n_acts = sizeof acts / sizeof acts[0], .n_ops = 4};
    for (size_t k = 0; k < sizeof thread_counts / sizeof thread_counts[0]; k++) {
        pf_share *sh = pf_work_shares(&t, thread_counts[k]);
        int ok = sh != NULL;
        for (size_t i = 0; ok && i < t.n_acts; i++)
            ok = sh[i].flop == want[i].flop && sh[i].bytes == want[i].bytes;
        char name[160];
        snprintf(name, sizeof name, "work shares of 4 ops split over %zu threads: FLOPs to the GEMMs, bytes by time",
                 thread_counts[k]);
        CHECK(name, ok);
        free(sh);
    }
}

/* An op whose three kernels' times add up past INT64_MAX (a malformed trace): the op's sum
 * saturates, whatever the order of the adds, so each kernel's share is its time over
 * INT64_MAX on every thread count (by hand: 2^62 / (2^63 - 1) for the first two, 0 for the
 * kernel of no time). */
static void check_shares_saturate(void)
{
    const char *ew = "vectorized_elementwise_kernel";
    int64_t big = INT64_C(1) << 62;
    pf_activity acts[] = {act(ew, 0, PF_ACT_KERNEL, big, 0), act(ew, 0, PF_ACT_KERNEL, big, 0),
                          act(ew, 0, PF_ACT_KERNEL, 0, 0)};
    double half = (double)big / (double)INT64_MAX;
    pf_trace t = {.acts = acts, .n_acts = 3, .n_ops = 1};
    for (size_t k = 0; k < sizeof thread_counts / sizeof thread_counts[0]; k++) {
        pf_share *sh = pf_work_shares(&t, thread_counts[k]);
        int ok = sh && sh[0].bytes == half && sh[1].bytes == half && sh[2].bytes == 0 && sh[0].flop == half;
        char name[160];
        snprintf(name, sizeof name, "work shares past INT64_MAX ns on %zu threads: the op's time saturates", thread_counts[k]);
        CHECK(name, ok);
        free(sh);
    }
}

static pf_act_work work(double flop, double bytes, double op_flop, int graph_replay)
{
    return (pf_act_work){.flop = flop, .bytes = bytes, .op_flop = op_flop, .op_bytes = op_flop / 10,
                         .source = flop >= 0 ? "gemm" : NULL, .graph_replay = (unsigned)graph_replay};
}

/* Kernel k at geometry 1 has two linked launches of one op's work (10 and 30 FLOPs, 4 and 8
 * bytes): its unlinked launch and a graph replay of it get their mean; at geometry 2 its
 * linked launches disagree, so nothing is inferred; kernel j has no linked launch; a
 * launch without a geometry gets nothing. */
static void check_infer_hand(void)
{
    pf_activity acts[] = {act("k", 0, PF_ACT_KERNEL, 1, 1), act("k", 2, PF_ACT_KERNEL, 1, 2),
                          act("k", -1, PF_ACT_KERNEL, 1, 1), act("k", 1, PF_ACT_KERNEL, 1, 1),
                          act("k", 3, PF_ACT_KERNEL, 1, 2),  act("k", -1, PF_ACT_KERNEL, 1, 2),
                          act("j", -1, PF_ACT_KERNEL, 1, 1), act("k", -1, PF_ACT_KERNEL, 1, 0),
                          act("k", 4, PF_ACT_KERNEL, 1, 1)};
    const pf_act_work in[] = {work(10, 4, 100, 0), work(5, 1, 50, 0),  work(-1, -1, -1, 0),
                              work(30, 8, 100, 0), work(5, 1, 60, 0),  work(-1, -1, -1, 0),
                              work(-1, -1, -1, 0), work(-1, -1, -1, 0), work(-1, -1, -1, 1)};
    pf_trace t = {.acts = acts, .n_acts = sizeof acts / sizeof acts[0], .n_ops = 5};
    for (size_t k = 0; k < sizeof thread_counts / sizeof thread_counts[0]; k++) {
        pf_act_work w[sizeof in / sizeof in[0]];
        memcpy(w, in, sizeof w);
        int ok = pf_work_infer(&t, w, thread_counts[k]) == 0;
        for (size_t i = 0; ok && i < t.n_acts; i++) {
            int asks = i == 2 || i == 8;
            ok = asks ? w[i].flop == 20 && w[i].bytes == 6 && w[i].op_flop == 100 && w[i].inferred &&
                            !w[i].graph_replay && strcmp(w[i].source, "inferred") == 0
                      : memcmp(&w[i], &in[i], sizeof w[i]) == 0;
        }
        char name[160];
        snprintf(name, sizeof name, "inference on %zu threads: the mean of agreeing linked launches, else nothing",
                 thread_counts[k]);
        CHECK(name, ok);
    }
}

/* 20,000 launches of 40 kernels at 3 geometries, a third without an op, with figures that a
 * sum in another order would change: the same inference on every number of threads. */
static void check_infer_random(void)
{
    enum { N = 20000, NAMES = 40 };
    static char names[NAMES][8];
    pf_activity *acts = calloc(N, sizeof *acts);
    pf_act_work *in = calloc(N, sizeof *in), *w1 = malloc(N * sizeof *w1), *wk = malloc(N * sizeof *wk);
    uint64_t x = 88172645463325252u;
    for (size_t i = 0; acts && in && i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t nm = (size_t)(x % NAMES);
        snprintf(names[nm], sizeof names[nm], "k%zu", nm);
        int linked = (x >> 8) % 3 != 0;
        acts[i] = act(names[nm], linked ? (int32_t)(i % 1000) : -1, PF_ACT_KERNEL, 1, 1 + (x >> 16) % 3);
        /* most keys agree on their op's work; every 13th launch of an odd kernel does not */
        double op_flop = nm % 2 && (x >> 24) % 13 == 0 ? 7 : 1000.0 * (double)nm;
        in[i] = linked ? work((double)((x >> 32) % 100000) / 7.0, (double)((x >> 40) % 1000) / 3.0, op_flop, 0)
                       : work(-1, -1, -1, 0);
    }
    pf_trace t = {.acts = acts, .n_acts = N, .n_ops = 1000};
    int ok = acts && in && w1 && wk;
    size_t inferred = 0;
    if (ok) {
        memcpy(w1, in, N * sizeof *w1);
        ok = pf_work_infer(&t, w1, 1) == 0;
    }
    for (size_t i = 0; ok && i < N; i++)
        inferred += w1[i].inferred;
    for (size_t k = 1; ok && k < sizeof thread_counts / sizeof thread_counts[0]; k++) {
        memcpy(wk, in, N * sizeof *wk);
        ok = pf_work_infer(&t, wk, thread_counts[k]) == 0 && same_inferred(w1, wk, N);
    }
    char name[160];
    snprintf(name, sizeof name, "20000 random launches: %zu inferred, the same on 1, 2, 3 and 16 threads", inferred);
    CHECK(name, ok && inferred > 1000 && inferred < N / 3);
    free(acts);
    free(in);
    free(w1);
    free(wk);
}

int main(void)
{
    check_shares_hand();
    check_shares_saturate();
    check_infer_hand();
    check_infer_random();
    check_busy_synthetic(20000, 7, 1000000);
    check_busy_synthetic(20000, 300, INT64_C(1) << 45);
    check_busy_synthetic(30000, 5000, INT64_C(1) << 20);
    check_busy_synthetic(5000, 1, 100);
    for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) {
        pf_trace *t;
        pf_error err;
        if (pf_trace_load(traces[i], &t, &err)) {
            CHECK(err.msg, 0);
            continue;
        }
        check_work(traces[i], t, PF_DT_BF16, 0);
        check_work(traces[i], t, PF_DT_FP32, 1);
        check_busy(traces[i], t);
        check_threads(traces[i], t);
        pf_trace_free(t);
    }
    CHECK_DONE();
}
