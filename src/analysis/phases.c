/* phases.c - the serving phase of each GPU activity (prefill, decode, mixed): from vLLM's and SGLang's step annotations, else from an attention call's query length; --phase's selection and each phase's GPU time per device. */
#include "profana/gzout.h"
#include "profana/analysis.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "profana/jscan.h"
#include "profana/parallel.h"
#include "profana/ptrmap.h"
#include "profana/satmath.h"

#include "pipeline.h"

/* One step annotation with a phase. */
typedef struct annot {
    int64_t ts_ns, end_ns;
    int device;                /* gpu_user_annotation: its device; -1 on the CPU side */
    unsigned char phase;
} annot;

typedef struct annots {
    annot *a;                  /* by start (sort_annots) */
    size_t n, cap;
    int64_t *reach;            /* reach[i]: the latest end of a[0, i] */
} annots;

/* The integer after the first occurrence of key in name; -1 when none. */
static long long count_after(const char *name, const char *key)
{
    const char *p = strstr(name, key);
    if (!p)
        return -1;
    p += strlen(key);
    if (*p < '0' || *p > '9')
        return -1;
    long long v = 0;
    for (; *p >= '0' && *p <= '9' && v < 1000000000LL; p++)
        v = v * 10 + (*p - '0');
    return v;
}

const char *const pf_phase_choices[PF_PHASE_COUNT + 1] = {"all", "prefill", "decode", "mixed", NULL};

const char *pf_phase_name(int p)
{
    assert(p >= 0 && p < PF_PHASE_COUNT);
    return p == PF_PHASE_NONE ? "none" : pf_phase_choices[p];
}

/* The phase a step annotation's name gives (PF_PHASE_NONE when it is none of vLLM's or
 * SGLang's). */
static int pf_phase_of_annotation(const char *name)
{
    assert(name);
    /* vLLM's model runner: "execute_[N_]context_C(...)_generation_G(...)", C prefill
     * (context) requests and G decode (generation) requests in the batch */
    if (strncmp(name, "execute_", 8) == 0) {
        long long c = count_after(name, "context_"), g = count_after(name, "_generation_");
        if (c < 0 || g < 0)
            return PF_PHASE_NONE;
        if (c > 0)
            return g > 0 ? PF_PHASE_MIXED : PF_PHASE_PREFILL;
        return g > 0 ? PF_PHASE_DECODE : PF_PHASE_NONE;
    }
    /* SGLang's scheduler: "step[MODE bs=B toks=T]", MODE its ForwardMode */
    if (strncmp(name, "step[", 5) == 0) {
        const char *m = name + 5;
        if (strncmp(m, "EXTEND", 6) == 0 || strncmp(m, "PREFILL", 7) == 0)
            return PF_PHASE_PREFILL;
        if (strncmp(m, "DECODE", 6) == 0)
            return PF_PHASE_DECODE;
        if (strncmp(m, "MIXED", 5) == 0)
            return PF_PHASE_MIXED;
    }
    return PF_PHASE_NONE;
}

/* ---- the annotations, read from the trace's text again (the model keeps none) ---- */

/* Whether lit (n bytes, n > 0) occurs in s[0, len): memmem is a GNU extension. */
static int contains(const char *s, size_t len, const char *lit, size_t n)
{
    for (const char *p = s; len >= n && (p = memchr(p, lit[0], len - n + 1 - (size_t)(p - s))) != NULL; p++)
        if (memcmp(p, lit, n) == 0)
            return 1;
    return 0;
}

static int add_annot(annots *as, annot x)
{
    if (as->n == as->cap) {
        size_t cap = as->cap ? as->cap * 2 : 16;
        annot *a = realloc(as->a, cap * sizeof *a);
        if (!a)
            return -1;
        as->a = a;
        as->cap = cap;
    }
    as->a[as->n++] = x;
    return 0;
}

/* The event at s[vs, ve) when it is a step annotation with a phase. */
static int read_event(const char *s, size_t vs, size_t ve, annots *as)
{
    pf_jmember m;
    pf_jerr e;
    size_t p = vs;
    int gpu = -1, ph_x = 0;
    int64_t ts = -1, dur = -1, pid = -1, device = -1;
    char *name = NULL;
    if (pf_json_obj_begin(s, ve, &p, &e))
        return 0;
    while (pf_json_obj_next(s, ve, &p, &m, &e) == 1) {
        if (pf_json_key_is(s, &m, "cat")) {
            const char *v = s + m.val_start;
            size_t n = m.val_end - m.val_start;
            gpu = n == 17 && memcmp(v, "\"user_annotation\"", 17) == 0       ? 0
                  : n == 21 && memcmp(v, "\"gpu_user_annotation\"", 21) == 0 ? 1
                                                                            : -1;
        } else if (pf_json_key_is(s, &m, "ph")) {
            ph_x = m.val_end - m.val_start == 3 && s[m.val_start + 1] == 'X';
        } else if (pf_json_key_is(s, &m, "ts")) {
            pf_json_us_to_ns(s, m.val_start, m.val_end, &ts);
        } else if (pf_json_key_is(s, &m, "dur")) {
            pf_json_us_to_ns(s, m.val_start, m.val_end, &dur);
        } else if (pf_json_key_is(s, &m, "pid")) {
            pf_json_int(s, m.val_start, m.val_end, &pid);
        } else if (pf_json_key_is(s, &m, "name") && !name) {
            name = pf_json_string(s, m.val_start, m.val_end, NULL);
        } else if (pf_json_key_is(s, &m, "args") && s[m.val_start] == '{') {
            size_t q = m.val_start;
            pf_jmember a;
            pf_json_obj_begin(s, m.val_end, &q, &e);
            while (pf_json_obj_next(s, m.val_end, &q, &a, &e) == 1)
                if (pf_json_key_is(s, &a, "device"))
                    pf_json_int(s, a.val_start, a.val_end, &device);
        }
    }
    int phase = gpu >= 0 && ph_x && ts >= 0 && dur >= 0 && name ? pf_phase_of_annotation(name) : PF_PHASE_NONE;
    free(name);
    if (phase == PF_PHASE_NONE)
        return 0;
    int dev = gpu == 1 ? (int)(device >= 0 ? device : pid) : -1;
    return add_annot(as, (annot){ts, pf_sat_add(ts, dur), dev, (unsigned char)phase});
}

/* The text is read a second time here, after the loader gave its pages back: these passes
 * hand them back too as they go (a mapped 26 MB trace otherwise raised the run's peak by
 * 22 MB, the whole file resident again). */
enum { DONE_STEP = 1 << 20 };

/* Whether s[0, len) holds "execute_ or "step[ (vLLM's and SGLang's step annotations). */
static int has_step_names(const char *s, size_t len, int mapped)
{
    for (size_t at = 0; at < len; at += DONE_STEP) {
        size_t n = len - at < (size_t)DONE_STEP + 8 ? len - at : (size_t)DONE_STEP + 8; /* a name across the step */
        if (contains(s + at, n, "\"execute_", 9) || contains(s + at, n, "\"step[", 6))
            return 1;
        pf_source_done(s, len, mapped, at + DONE_STEP < len ? at + DONE_STEP : len);
    }
    return 0;
}

/* Every step annotation of the text s[0, len). A text that is not a trace has none here
 * (the loader has read it already and said so). */
static int read_annots(const char *s, size_t len, int mapped, annots *as)
{
    pf_jerr e;
    pf_jmember m;
    size_t pos = pf_json_ws(s, len, len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0), events = len;
    if (pos < len && s[pos] == '[') {
        events = pos;
    } else if (pos < len && pf_json_obj_begin(s, len, &pos, &e) == 0) {
        while (events == len && pf_json_obj_next(s, len, &pos, &m, &e) == 1)
            if (pf_json_key_is(s, &m, "traceEvents") && s[m.val_start] == '[')
                events = m.val_start;
    }
    if (events == len || pf_json_arr_begin(s, len, &events, &e))
        return 0;
    size_t vs, ve, done = 0;
    while (pf_json_arr_next(s, len, &events, &vs, &ve, &e) == 1) {
        if (vs - done >= DONE_STEP)
            pf_source_done(s, len, mapped, done = vs);
        /* most events are not annotations: a substring check before parsing one */
        if (ve - vs < 15 || !contains(s + vs, ve - vs, "user_annotation", 15))
            continue;
        if (read_event(s, vs, ve, as))
            return -1;
    }
    return 0;
}

/* Whether path starts with gzip's magic bytes. */
static int gzipped(const char *path)
{
    char b[2] = {0, 0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t n = fread(b, 1, 2, f);
    fclose(f);
    return pf_is_gzip(b, n);
}

/* Whether name (interned) starts with (prefix) or holds (anywhere) one of the n words; each
 * distinct name is looked at once (seen): a trace has few of them but many events. */
static int names_match(pf_ptrmap *seen, const char *name, const char *const *words, size_t n, int prefix)
{
    int added = 1;
    if (pf_ptrmap_find_or_add(seen, name, 0, &added) < 0)
        added = 1; /* out of memory: look at it anyway */
    for (size_t k = 0; added && k < n; k++)
        if (prefix ? strncmp(name, words[k], strlen(words[k])) == 0 : strstr(name, words[k]) != NULL)
            return 1;
    return 0;
}

static int serving_ops(const pf_trace *t)
{
    static const char *const prefixes[] = {"vllm::", "sglang", "sgl_kernel::", "_C::", "_C_cache_ops::", "aiter::"};
    static const char *const kernels[] = {"vllm::", "sglang", "sgl_kernel", "flashinfer"};
    pf_ptrmap seen = {0};
    int found = 0;
    for (size_t i = 0; !found && i < t->n_ops; i++)
        found = names_match(&seen, t->ops[i].name, prefixes, sizeof prefixes / sizeof prefixes[0], 1);
    pf_ptrmap_free(&seen);
    for (size_t i = 0; !found && i < t->n_acts; i++)
        found = names_match(&seen, t->acts[i].name, kernels, sizeof kernels / sizeof kernels[0], 0);
    pf_ptrmap_free(&seen);
    return found;
}

/* Reads the annotations of the file the trace came from; none for standard input or a file
 * whose text shows no step annotation at all (most traces: no event walk then). The file is
 * read a second time only when asked (--phase) or when the trace launches ops of a serving
 * library, except that a plain file of at most 64 MiB is searched anyway (cheap); a gzip
 * file is never inflated twice unasked, nor is a larger plain file: a second pass over a 1 GB
 * training trace cost seconds and the file's size in memory. */
static int load_annots(const pf_trace *t, int asked, annots *as, pf_error *err)
{
    struct stat st;
    if (!t->path || strcmp(t->path, "-") == 0 || stat(t->path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    if (!asked && (st.st_size > (off_t)64 << 20 || gzipped(t->path)) && !serving_ops(t))
        return 0;
    char *text;
    size_t len;
    int mapped;
    if (pf_source_read(t->path, &text, &len, &mapped, err))
        return -1;
    int rc = 0;
    if (has_step_names(text, len, mapped))
        rc = read_annots(text, len, mapped, as);
    pf_source_release(text, len, mapped);
    return rc ? pf_fail(err, "%s: out of memory", t->path) : 0;
}

/* ---- each activity's phase ---- */

static int by_start(const void *x, const void *y)
{
    const annot *a = x, *b = y;
    return (a->ts_ns > b->ts_ns) - (a->ts_ns < b->ts_ns);
}

static int sort_annots(annots *as)
{
    if (as->n) /* qsort of NULL, 0 is undefined (UBSan) */
        qsort(as->a, as->n, sizeof *as->a, by_start);
    as->reach = malloc((as->n ? as->n : 1) * sizeof *as->reach);
    if (!as->reach)
        return -1;
    for (size_t i = 0; i < as->n; i++)
        as->reach[i] = i && as->reach[i - 1] > as->a[i].end_ns ? as->reach[i - 1] : as->a[i].end_ns;
    return 0;
}

/* The phase of the innermost (latest-starting) annotation that holds ts: a CPU-side one
 * (device -1) for a launch call's start, a GPU-side one of the activity's device for an
 * activity without a launch call. From the last annotation starting at or before ts back,
 * while an earlier one still reaches past ts. */
static int annotated(const annots *as, int64_t ts, int device)
{
    size_t lo = 0, hi = as->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (as->a[mid].ts_ns <= ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i-- > 0 && as->reach[i] > ts;) {
        const annot *x = &as->a[i];
        if (x->device == device && ts < x->end_ns)
            return x->phase;
    }
    return PF_PHASE_NONE;
}

/* Attention ops whose first argument is the query, and the query length's dimension in it
 * (4-D): aten's scaled_dot_product_attention family [B, H, L, E] (dim 2); the flash and
 * memory-efficient kernels' own ops and flash_attn's [B, L, H, E] (dim 1). Backward ops are
 * training, not serving, and are left out. */
static const struct {
    const char *op;
    int dim;
} query_ops[] = {
    {"aten::scaled_dot_product_attention", 2},
    {"aten::_scaled_dot_product_flash_attention", 2},
    {"aten::_scaled_dot_product_efficient_attention", 2},
    {"aten::_scaled_dot_product_cudnn_attention", 2},
    {"aten::_cudnn_attention_forward", 2},
    {"aten::_flash_attention_forward", 1},
    {"aten::_efficient_attention_forward", 1},
    {"flash_attn::_flash_attn_forward", 1},
};

/* The index of name in query_ops; -1 when it is none of them. */
static int query_op(const char *name)
{
    for (size_t i = 0; i < sizeof query_ops / sizeof query_ops[0]; i++)
        if (strcmp(name, query_ops[i].op) == 0)
            return (int)i;
    return -1;
}

/* The phase of op's call, op's name being query_ops[q] (q >= 0). */
static int query_phase(const pf_cpu_op *op, int q)
{
    if (op->call.nargs < 1 || op->call.args[0].ndim != 4)
        return PF_PHASE_NONE;
    int64_t l = op->call.args[0].dims[query_ops[q].dim];
    return l == 1 ? PF_PHASE_DECODE : l > 1 ? PF_PHASE_PREFILL : PF_PHASE_NONE;
}

/* The phase an attention op's call gives: decode when its query is one token long, prefill
 * when longer; PF_PHASE_NONE for another op or no recorded 4-D query. */
static int pf_phase_of_attention(const pf_cpu_op *op)
{
    assert(op);
    int q = query_op(op->name);
    return q < 0 ? PF_PHASE_NONE : query_phase(op, q);
}

/* Each distinct op name (interned) looked up in query_ops once: map gives its place in q,
 * q its query_ops index (-1 none); q has room for one per op of the trace. */
typedef struct attn_cache {
    pf_ptrmap map;
    signed char *q;
} attn_cache;

/* pf_phase_of_attention through the cache. */
static int cached_phase_of_attention(attn_cache *c, const pf_cpu_op *op)
{
    int added;
    int64_t k = c->q ? pf_ptrmap_find_or_add(&c->map, op->name, c->map.n, &added) : -1;
    if (k < 0) /* out of memory: look it up */
        return pf_phase_of_attention(op);
    if (added)
        c->q[k] = (signed char)query_op(op->name);
    return c->q[k] < 0 ? PF_PHASE_NONE : query_phase(op, c->q[k]);
}

/* An activity's phase by the annotations, else by its attention call; *by_query says the
 * latter. */
static int act_phase(const pf_trace *t, const annots *as, attn_cache *c, const pf_activity *a, int *by_query)
{
    int p = a->launch_ts_ns != PF_NO_LAUNCH ? annotated(as, a->launch_ts_ns, -1) : annotated(as, a->ts_ns, a->device);
    *by_query = 0;
    if (p == PF_PHASE_NONE && a->op >= 0) {
        p = cached_phase_of_attention(c, &t->ops[a->op]);
        *by_query = p != PF_PHASE_NONE;
    }
    return p;
}

/* Every activity's phase, in ranges of activities on -j threads (each writes its own). */
typedef struct phase_job {
    const pf_trace *t;
    const annots *as;
    unsigned char *phase, *by_query;
} phase_job;

static void phase_range(void *ctx, size_t lo, size_t hi, size_t r)
{
    (void)r;
    const phase_job *j = ctx;
    attn_cache c = {{0}, malloc(j->t->n_ops ? j->t->n_ops : 1)};
    for (size_t i = lo; i < hi; i++) {
        int q;
        j->phase[i] = (unsigned char)act_phase(j->t, j->as, &c, &j->t->acts[i], &q);
        j->by_query[i] = (unsigned char)q;
    }
    pf_ptrmap_free(&c.map);
    free(c.q);
}

/* A long query is a prefill only in a trace that decodes: a training step's forward
 * attention has long queries too. Without an attention call of one query token (and no
 * annotation), the long ones get no phase. */
static void keep_prefill_if_decoding(const pf_trace *t, unsigned char *phase, const unsigned char *by_query)
{
    for (size_t i = 0; i < t->n_acts; i++)
        if (by_query[i] && phase[i] == PF_PHASE_DECODE)
            return;
    for (size_t i = 0; i < t->n_acts; i++)
        if (by_query[i] && phase[i] == PF_PHASE_PREFILL)
            phase[i] = PF_PHASE_NONE;
}

size_t pf_phases_threads(const pf_analysis *an)
{
    assert(an && an->trace);
    return pf_work_threads(an->trace, an->opts.jobs);
}

int pf_phases_compute_on(pf_analysis *an, size_t threads, pf_error *err)
{
    assert(an && an->trace && threads >= 1);
    const pf_trace *t = an->trace;
    annots as = {0};
    if (load_annots(t, an->opts.phase != PF_PHASE_NONE, &as, err))
        return -1;
    an->phase = malloc(t->n_acts ? t->n_acts : 1);
    an->phase_ns = calloc(t->n_devices ? (size_t)t->n_devices : 1, sizeof *an->phase_ns);
    if (!an->phase || !an->phase_ns || sort_annots(&as)) {
        free(as.a);
        free(as.reach);
        return pf_fail(err, "out of memory");
    }
    an->phase_annotations = (int64_t)as.n;
    unsigned char *by_query = malloc(t->n_acts ? t->n_acts : 1);
    if (!by_query) {
        free(as.a);
        free(as.reach);
        return pf_fail(err, "out of memory");
    }
    phase_job j = {t, &as, an->phase, by_query};
    pf_parallel_ranges(t->n_acts, threads, phase_range, &j);
    keep_prefill_if_decoding(t, an->phase, by_query);
    /* a step annotation covers its whole step; an attention call covers its own kernels only,
     * so its phase is spread to the forward it sits in */
    int spread_rc = as.n ? 0 : pf_an_phase_spread(t, an->phase, by_query, &an->phase_spread);
    free(by_query);
    if (spread_rc) {
        free(as.a);
        free(as.reach);
        return pf_fail(err, "out of memory");
    }
    for (size_t i = 0; i < t->n_acts; i++) {
        const pf_activity *a = &t->acts[i];
        const pf_device *d = pf_trace_device(t, a->device);
        if (d && pf_analysis_selected(an, i)) /* the shares of the --step selection */
            an->phase_ns[d - t->devices][an->phase[i]] =
                pf_sat_add(an->phase_ns[d - t->devices][an->phase[i]], a->dur_ns);
    }
    free(as.a);
    free(as.reach);
    if (an->opts.phase == PF_PHASE_NONE) /* no --phase, or --phase all */
        return 0;
    if (!an->selected) {
        if (!(an->selected = malloc(t->n_acts ? t->n_acts : 1)))
            return pf_fail(err, "out of memory");
        memset(an->selected, 1, t->n_acts);
    }
    for (size_t i = 0; i < t->n_acts; i++)
        an->selected[i] = (unsigned char)(an->selected[i] && an->phase[i] == an->opts.phase);
    return 0;
}
