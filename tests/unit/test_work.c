/* test_work.c - the analysis' fast paths against their plain definitions on the real traces: memoised work (pf_work_all) against the per-activity formula run, and the radix-sorted busy time against a qsort and a sweep. */
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
           a->op_bytes == b->op_bytes;
}

/* pf_work_all gives, for every activity, exactly what pf_work_of gives. */
static void check_work(const char *path, const pf_trace *t, pf_dtype dt, int tf32)
{
    pf_analysis_opts o = {.default_dtype = dt, .tf32 = tf32, .step = PF_STEP_EVERY};
    pf_share *shares = pf_work_shares(t);
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

int main(void)
{
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
        pf_trace_free(t);
    }
    CHECK_DONE();
}
