/* diff.c - matches the rows of two analyses level by level (exact, normalised, op family with shapes) and computes each device pair's summary. */
#include "profana/diff.h"
#include "profana/op_family.h"

#include <assert.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const match_names[PF_MATCH_LEVELS] = {"exact", "normalised", "shape", "shape-any-dtype"};

const char *pf_match_name(pf_match m)
{
    return m >= 0 && m < PF_MATCH_LEVELS ? match_names[m] : NULL;
}

int pf_diff_levels(pf_group_by group, pf_match levels[PF_MATCH_LEVELS])
{
    levels[0] = PF_MATCH_EXACT;
    if (group != PF_GROUP_SHAPE) {
        levels[1] = PF_MATCH_NORMALISED;
        return 2;
    }
    levels[1] = PF_MATCH_SHAPE;
    levels[2] = PF_MATCH_SHAPE_ANY_DTYPE;
    return 3;
}

/* ---- kernel-name normaliser ---- */

/* Empties, in place, every outermost <...> and (...): the template arguments and parameter
 * lists that differ between builds of one kernel. Only the bracket kind that opened counts, so
 * "->" inside a parameter list does not close it; a name the profiler cut inside the brackets
 * gets its closing one when the buffer (cap bytes) has room. */
static void fold_brackets(char *s, size_t cap)
{
    size_t o = 0, i = 0;
    while (s[i]) {
        char open = s[i], close = open == '<' ? '>' : open == '(' ? ')' : 0;
        s[o++] = s[i++];
        if (!close)
            continue;
        int depth = 1;
        for (; s[i] && depth; i++)
            depth += (s[i] == open) - (s[i] == close);
        if (o < i) {
            s[o++] = close;
            continue;
        }
        /* o == i: the name ended inside the brackets; close them if the buffer has room */
        if (o + 1 < cap)
            s[o++] = close;
        break;
    }
    s[o] = 0;
}

/* Replaces tile shapes ("256x128", "1x2x1", the digits of "MT128x128x64") with '#' in place:
 * autotuners pick among them, so two runs of one GEMM may differ only there. */
static void fold_tiles(char *s)
{
    size_t o = 0;
    for (size_t i = 0; s[i];) {
        size_t j = i, groups = 0;
        if (!isdigit((unsigned char)s[i]) || (i > 0 && isdigit((unsigned char)s[i - 1]))) {
            s[o++] = s[i++];
            continue;
        }
        for (;;) {
            while (isdigit((unsigned char)s[j]))
                j++;
            groups++;
            if (s[j] != 'x' || !isdigit((unsigned char)s[j + 1]))
                break;
            j++;
        }
        if (groups < 2 || isalnum((unsigned char)s[j])) {
            s[o++] = s[i++];
            continue;
        }
        s[o++] = '#';
        i = j;
    }
    s[o] = 0;
}

/* Whether tok (of len characters) looks like a hash: 8+ hex digits mixing digits and letters. */
static int hash_like(const char *tok, size_t len)
{
    int digits = 0, letters = 0;
    if (len < 8)
        return 0;
    for (size_t i = 0; i < len; i++) {
        if (isdigit((unsigned char)tok[i]))
            digits = 1;
        else if (tok[i] >= 'a' && tok[i] <= 'f')
            letters = 1;
        else
            return 0;
    }
    return digits && letters;
}

static int all_digits(const char *tok, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (!isdigit((unsigned char)tok[i]))
            return 0;
    return len > 0;
}

/* Drops trailing "_<number>" and "_<hash>" tokens, as many as there are (never the whole name). */
static void strip_suffixes(char *s)
{
    for (;;) {
        char *us = strrchr(s, '_');
        if (!us || us == s)
            return;
        size_t len = strlen(us + 1);
        if (!all_digits(us + 1, len) && !hash_like(us + 1, len))
            return;
        *us = 0;
    }
}

/* Element types as kernel names spell them (C++ template arguments, library name tokens). */
static const char *const type_words[] = {
    "c10::BFloat16", "c10::Half", "c10::Float8_e4m3fn", "c10::Float8_e5m2", "c10::Float8_e4m3fnuz",
    "c10::Float8_e5m2fnuz", "__nv_bfloat16", "__half", "bfloat16", "float16", "float32", "float", "double",
    "half", "bf16", "fp16", "fp32", "f16", "f32",
};

/* The length of the word at s when it is one of words and ends there (a non-alphanumeric
 * character follows), else 0. */
static size_t word_at(const char *s, const char *const *words, size_t n_words)
{
    for (size_t w = 0; w < n_words; w++) {
        size_t k = strlen(words[w]);
        if (strncmp(s, words[w], k) == 0 && !isalnum((unsigned char)s[k]))
            return k;
    }
    return 0;
}

/* Replaces, in place, element types with 'T' and standalone integers (with C++ suffixes:
 * 3ul) with '#', so one kernel instantiated for bf16 and for fp32, or with another vector
 * width, gets one name. A token starts after a non-alphanumeric character ('_' included). */
static void fold_types_numbers(char *s)
{
    size_t o = 0;
    for (size_t i = 0; s[i];) {
        if (i > 0 && isalnum((unsigned char)s[i - 1])) {
            s[o++] = s[i++];
            continue;
        }
        size_t k = word_at(s + i, type_words, sizeof type_words / sizeof type_words[0]);
        if (k) {
            s[o++] = 'T';
            i += k;
            continue;
        }
        size_t j = i;
        while (isdigit((unsigned char)s[j]))
            j++;
        while (j > i && (s[j] == 'u' || s[j] == 'l' || s[j] == 'U' || s[j] == 'L'))
            j++;
        if (j == i || isalnum((unsigned char)s[j]) || !isdigit((unsigned char)s[i])) {
            s[o++] = s[i++];
            continue;
        }
        s[o++] = '#';
        i = j;
    }
    s[o] = 0;
}

const char *pf_diff_normalise_kernel(const char *name, int fold_lists, char *buf, size_t n)
{
    if (!n)
        return buf;
    snprintf(buf, n, "%s", name);
    if (fold_lists)
        fold_brackets(buf, n);
    strip_suffixes(buf);
    fold_tiles(buf);
    fold_types_numbers(buf);
    return buf;
}

/* ---- vendor-neutral keys of op calls ---- */

static void append_str(char *buf, size_t n, size_t *len, const char *s)
{
    size_t k = strlen(s);
    if (*len >= n)
        return;
    if (k >= n - *len) {
        *len = n;
        return;
    }
    memcpy(buf + *len, s, k + 1);
    *len += k;
}

static int is_tensor(const pf_arg *a)
{
    return a->is_list || a->ndim > 0 || pf_type_size(a->type) > 0;
}

/* Appends one argument; a 4-D tensor of a sequence-first backend as [B, H, S, D]. */
static void append_family_arg(char *buf, size_t n, size_t *len, const pf_arg *a, int seq_first, int with_dtype)
{
    pf_arg t = *a;
    if (seq_first && t.ndim == 4 && !t.is_list) {
        t.dims[1] = a->dims[2];
        t.dims[2] = a->dims[1];
    }
    pf_key_append_arg(buf, n, len, &t, with_dtype);
}

/* The diff's name of each family; NULL: not matched by family. */
static const char *const diff_families[PF_FAM_COUNT] = {
    [PF_FAM_GEMM] = "gemm",
    [PF_FAM_BMM] = "bmm",
    [PF_FAM_GEMV] = "gemv",
    [PF_FAM_CONV] = "convolution",
    [PF_FAM_CONV_BACKWARD] = "convolution_backward",
    [PF_FAM_CONV_TRANSPOSE] = "convolution_transpose",
    [PF_FAM_ATTENTION] = "attention",
    [PF_FAM_ATTENTION_BACKWARD] = "attention_backward",
};

/* The op's entry when the diff matches it by family (it has a family name and key
 * positions), else NULL. */
static const pf_op_entry *keyed_entry(const char *op_name)
{
    const pf_op_entry *e = pf_op_family_lookup(op_name);
    return e && e->key && diff_families[e->family] ? e : NULL;
}

const char *pf_diff_family(const char *op_name)
{
    const pf_op_entry *e = keyed_entry(op_name);
    return e ? diff_families[e->family] : NULL;
}

const char *pf_diff_shape_key(const pf_cpu_op *op, int with_dtype, char *buf, size_t n)
{
    const pf_op_entry *e = keyed_entry(op->name);
    const pf_op_key *k = e ? e->key : NULL;
    const pf_op_call *c = &op->call;
    size_t len = 0;
    int first = 1;
    append_str(buf, n, &len, e ? diff_families[e->family] : op->name);
    append_str(buf, n, &len, "(");
    int count = k && k->nargs ? k->nargs : c->nargs;
    for (int i = 0; i < count; i++) {
        int pos = k && k->nargs ? k->args[i] : i;
        if (pos >= c->nargs || (k && !k->nargs && !is_tensor(&c->args[pos])))
            continue;
        if (!first)
            append_str(buf, n, &len, ", ");
        first = 0;
        append_family_arg(buf, n, &len, &c->args[pos], k && k->seq_first, with_dtype);
    }
    append_str(buf, n, &len, ")");
    if (len >= n && n)
        buf[n - 1] = 0;
    return buf;
}

/* ---- matching ---- */

typedef struct cand {
    char *key;                         /* NULL: no key at this level */
    size_t row;                        /* index in the report's rows (their time order) */
} cand;

typedef struct side {
    const pf_device_report *rep;
    const pf_trace *trace;
    int64_t *pair;                     /* per row: the other side's row, -1 unmatched */
    pf_match *level;
} side;

#define SHAPE_KEY_MAX 4096

/* One matching pass: a level, and for kernel names whether template arguments and parameter
 * lists are folded too (tried after the lighter normalisation, which keeps apart kernels that
 * differ in more than their element type or numbers). */
typedef struct pass_spec {
    pf_match level;
    int fold_lists;
} pass_spec;

/* The key of a row in a pass (malloc'd), or NULL when the pass gives it none. */
static char *level_key(const side *s, const pf_row *r, pf_group_by group, pass_spec p, int *oom)
{
    char *buf = NULL;
    pf_match m = p.level;
    if (m == PF_MATCH_EXACT)
        buf = strdup(r->key);
    else if (m == PF_MATCH_NORMALISED && group == PF_GROUP_KERNEL) {
        size_t n = strlen(r->key) + 1;
        if ((buf = malloc(n)))
            pf_diff_normalise_kernel(r->key, p.fold_lists, buf, n);
    } else if (m == PF_MATCH_NORMALISED) {
        const char *family = pf_diff_family(r->key);
        if (!family)
            return NULL;
        buf = strdup(family);
    } else if (r->op < 0 || !s->trace) {
        buf = strdup(r->key);
    } else if ((buf = malloc(SHAPE_KEY_MAX))) {
        pf_diff_shape_key(&s->trace->ops[r->op], m == PF_MATCH_SHAPE, buf, SHAPE_KEY_MAX);
    }
    if (!buf)
        *oom = 1;
    return buf;
}

static int cmp_cand(const void *x, const void *y)
{
    const cand *a = x, *b = y;
    int c = strcmp(a->key, b->key);
    if (c)
        return c;
    return a->row < b->row ? -1 : a->row > b->row;
}

static void free_cands(cand *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(c[i].key);
    free(c);
}

/* The unmatched rows of a side with a key at this level, sorted by key then time order. */
static cand *collect(const side *s, pf_group_by group, pass_spec p, size_t *n, int *oom)
{
    cand *c = malloc((s->rep->n_rows ? s->rep->n_rows : 1) * sizeof *c);
    *n = 0;
    if (!c) {
        *oom = 1;
        return NULL;
    }
    for (size_t i = 0; i < s->rep->n_rows && !*oom; i++) {
        if (s->pair[i] >= 0)
            continue;
        char *k = level_key(s, &s->rep->rows[i], group, p, oom);
        if (k)
            c[(*n)++] = (cand){k, i};
    }
    if (*oom) {
        free_cands(c, *n);
        return NULL;
    }
    qsort(c, *n, sizeof *c, cmp_cand);
    return c;
}

static void link_rows(side *a, size_t ra, side *b, size_t rb, pf_match m)
{
    a->pair[ra] = (int64_t)rb;
    b->pair[rb] = (int64_t)ra;
    a->level[ra] = b->level[rb] = m;
}

/* Whether two rows matched by a looser key than their own may be one piece of work: their
 * counts (invocations; launches for kernels) at most 2x apart. A kernel run 735 times
 * against one run 5 times is other work that happens to share a family or a normalised
 * name; its ratio would mean nothing. */
static int counts_close(const pf_row *a, const pf_row *b)
{
    int64_t lo = a->invocations < b->invocations ? a->invocations : b->invocations;
    int64_t hi = a->invocations < b->invocations ? b->invocations : a->invocations;
    return lo > 0 && hi <= 2 * lo;
}

/* Pairs the rows of one key: first those with the same count (the same op or kernel run as
 * often is the likeliest counterpart), then the rest, each in time order; beyond the exact
 * level only rows whose counts are at most 2x apart. */
static void pair_run(side *a, const cand *ca, size_t na, side *b, const cand *cb, size_t nb, pf_match m)
{
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < na; i++) {
            if (a->pair[ca[i].row] >= 0)
                continue;
            for (size_t j = 0; j < nb; j++) {
                const pf_row *ra = &a->rep->rows[ca[i].row], *rb = &b->rep->rows[cb[j].row];
                if (b->pair[cb[j].row] >= 0)
                    continue;
                if (pass == 0 && ra->invocations != rb->invocations)
                    continue;
                if (m != PF_MATCH_EXACT && !counts_close(ra, rb))
                    continue;
                link_rows(a, ca[i].row, b, cb[j].row, m);
                break;
            }
        }
}

static int match_pass(side *a, side *b, pf_group_by group, pass_spec p)
{
    size_t na, nb;
    int oom = 0;
    cand *ca = collect(a, group, p, &na, &oom);
    cand *cb = oom ? NULL : collect(b, group, p, &nb, &oom);
    if (oom) {
        free_cands(ca, ca ? na : 0);
        return -1;
    }
    size_t i = 0, j = 0;
    while (i < na && j < nb) {
        int c = strcmp(ca[i].key, cb[j].key);
        if (c < 0) {
            i++;
            continue;
        }
        if (c > 0) {
            j++;
            continue;
        }
        size_t ie = i, je = j;
        while (ie < na && strcmp(ca[ie].key, ca[i].key) == 0)
            ie++;
        while (je < nb && strcmp(cb[je].key, cb[j].key) == 0)
            je++;
        pair_run(a, ca + i, ie - i, b, cb + j, je - j, p.level);
        i = ie;
        j = je;
    }
    free_cands(ca, na);
    free_cands(cb, nb);
    return 0;
}

/* ---- result ---- */

/* Per invocation for --group op and shape, per launch for kernels. */
static double mean_ns(const pf_row *r)
{
    return pf_row_mean_ns(r);
}

static int64_t abs_delta(const pf_diff_row *r)
{
    int64_t d = r->b->total_ns - r->a->total_ns;
    return d < 0 ? -d : d;
}

static int cmp_matched(const void *x, const void *y)
{
    const pf_diff_row *a = x, *b = y;
    int64_t da = abs_delta(a), db = abs_delta(b);
    if (da != db)
        return da < db ? 1 : -1;
    return strcmp(a->a->key, b->a->key);
}

double pf_diff_row_ratio(const pf_diff_row *r)
{
    assert(r);
    if (!r->a || !r->b)
        return -1;
    if (r->by_total)
        return r->a->total_ns > 0 ? (double)r->b->total_ns / (double)r->a->total_ns : -1;
    return mean_ns(r->a) > 0 ? mean_ns(r->b) / mean_ns(r->a) : -1;
}

/* ln(B mean / A mean) of a matched row, or 0 when a mean is 0 (such a row is left out of the
 * geomean). */
static double log_mean_ratio(const pf_diff_row *r)
{
    return mean_ns(r->a) > 0 && mean_ns(r->b) > 0 ? log(mean_ns(r->b) / mean_ns(r->a)) : 0;
}

/* The rows that move the total in weighted's direction: the rows are ordered by |delta| with
 * the matched ones first, so the first ones whose change has that sign. */
static void time_causes(const pf_diff_device *d, pf_diff_summary *s)
{
    int down = s->weighted < 1;
    for (size_t i = 0; i < d->n_rows && s->n_time_rows < PF_DIFF_CAUSES; i++) {
        const pf_diff_row *r = &d->rows[i];
        if (!r->a || !r->b)
            break;
        int64_t delta = r->b->total_ns - r->a->total_ns;
        if (down ? delta < 0 : delta > 0)
            s->time_rows[s->n_time_rows++] = i;
    }
}

/* The rows that pull the geomean its way most: largest |ln ratio| of the geomean's sign,
 * picked one at a time (PF_DIFF_CAUSES of them). */
static void geo_causes(const pf_diff_device *d, pf_diff_summary *s)
{
    double sign = s->geomean > 1 ? 1 : -1;
    while (s->n_geo_rows < PF_DIFF_CAUSES) {
        size_t best = d->n_rows;
        double best_pull = 0;
        for (size_t i = 0; i < d->n_rows; i++) {
            const pf_diff_row *r = &d->rows[i];
            int taken = 0;
            if (!r->a || !r->b)
                continue;
            for (size_t k = 0; k < s->n_geo_rows; k++)
                taken |= s->geo_rows[k] == i;
            double pull = sign * log_mean_ratio(r);
            if (!taken && pull > best_pull) {
                best = i;
                best_pull = pull;
            }
        }
        if (best == d->n_rows)
            return;
        s->geo_rows[s->n_geo_rows++] = best;
    }
}

static void summarise(pf_diff_device *d)
{
    assert(d->a && d->b);
    pf_diff_summary *s = &d->summary;
    double log_sum = 0;
    memset(s, 0, sizeof *s);
    s->alt_group = -1;
    s->a_total_ns = d->a->total.total_ns;
    s->b_total_ns = d->b->total.total_ns;
    s->ratio = s->a_total_ns > 0 ? (double)s->b_total_ns / (double)s->a_total_ns : -1;
    for (size_t i = 0; i < d->n_rows; i++) {
        const pf_diff_row *r = &d->rows[i];
        if (!r->a || !r->b) {
            s->only_a += r->a != NULL;
            s->only_b += r->b != NULL;
            continue;
        }
        s->matched_rows++;
        s->matched_at[r->match]++;
        s->a_matched_ns += r->a->total_ns;
        s->b_matched_ns += r->b->total_ns;
        if (mean_ns(r->a) > 0 && mean_ns(r->b) > 0) {
            log_sum += log_mean_ratio(r);
            s->geomean_rows++;
        }
    }
    s->geomean = s->geomean_rows ? exp(log_sum / (double)s->geomean_rows) : -1;
    s->a_matched_pct = s->a_total_ns > 0 ? 100.0 * (double)s->a_matched_ns / (double)s->a_total_ns : 0;
    s->b_matched_pct = s->b_total_ns > 0 ? 100.0 * (double)s->b_matched_ns / (double)s->b_total_ns : 0;
    s->weighted = s->a_matched_ns > 0 ? (double)s->b_matched_ns / (double)s->a_matched_ns : -1;
    s->opposite = s->geomean > 0 && s->weighted >= 0 && (s->geomean - 1) * (s->weighted - 1) < 0;
    if (s->opposite) {
        time_causes(d, s);
        geo_causes(d, s);
    }
}

/* Matched pairs by |delta|, then each side's leftovers in their time order. */
static int build_rows(pf_diff_device *d, const side *a, const side *b)
{
    size_t n = a->rep->n_rows + b->rep->n_rows, k = 0;
    d->rows = malloc((n ? n : 1) * sizeof *d->rows);
    if (!d->rows)
        return -1;
    for (size_t i = 0; i < a->rep->n_rows; i++) {
        if (a->pair[i] < 0)
            continue;
        const pf_row *ra = &a->rep->rows[i], *rb = &b->rep->rows[a->pair[i]];
        d->rows[k++] = (pf_diff_row){ra, rb, a->level[i], ra->invocations != rb->invocations};
    }
    qsort(d->rows, k, sizeof *d->rows, cmp_matched);
    for (size_t i = 0; i < a->rep->n_rows; i++)
        if (a->pair[i] < 0)
            d->rows[k++] = (pf_diff_row){&a->rep->rows[i], NULL, PF_MATCH_NONE, 0};
    for (size_t i = 0; i < b->rep->n_rows; i++)
        if (b->pair[i] < 0)
            d->rows[k++] = (pf_diff_row){NULL, &b->rep->rows[i], PF_MATCH_NONE, 0};
    d->n_rows = k;
    return 0;
}

static int side_init(side *s, const pf_device_report *rep, const pf_trace *t)
{
    size_t n = rep->n_rows ? rep->n_rows : 1;
    s->rep = rep;
    s->trace = t;
    s->pair = malloc(n * sizeof *s->pair);
    s->level = malloc(n * sizeof *s->level);
    if (!s->pair || !s->level)
        return -1;
    for (size_t i = 0; i < rep->n_rows; i++) {
        s->pair[i] = -1;
        s->level[i] = PF_MATCH_NONE;
    }
    return 0;
}

int pf_diff_device_run(const pf_device_report *a, const pf_trace *ta, const pf_device_report *b,
                       const pf_trace *tb, pf_group_by group, pf_diff_device *out)
{
    side sa = {0}, sb = {0};
    pf_match levels[PF_MATCH_LEVELS];
    int n_levels = pf_diff_levels(group, levels);
    memset(out, 0, sizeof *out);
    out->a = a;
    out->b = b;
    int rc = side_init(&sa, a, ta) || side_init(&sb, b, tb) ? -1 : 0;
    for (int l = 0; rc == 0 && l < n_levels; l++) {
        rc = match_pass(&sa, &sb, group, (pass_spec){levels[l], 0});
        if (rc == 0 && levels[l] == PF_MATCH_NORMALISED && group == PF_GROUP_KERNEL)
            rc = match_pass(&sa, &sb, group, (pass_spec){levels[l], 1});
    }
    if (rc == 0)
        rc = build_rows(out, &sa, &sb);
    if (rc == 0)
        summarise(out);
    free(sa.pair);
    free(sa.level);
    free(sb.pair);
    free(sb.level);
    return rc;
}

void pf_diff_device_free(pf_diff_device *d)
{
    free(d->rows);
    d->rows = NULL;
    d->n_rows = 0;
}

int pf_diff_run(const pf_analysis *a, const pf_analysis *b, pf_group_by group, pf_diff **out, pf_error *err)
{
    int n = a->n_devices < b->n_devices ? a->n_devices : b->n_devices;
    pf_diff *d = calloc(1, sizeof *d);
    *out = NULL;
    if (!d || !(d->devices = calloc((size_t)(n ? n : 1), sizeof *d->devices))) {
        free(d);
        return pf_fail(err, "out of memory");
    }
    for (; d->n_devices < n; d->n_devices++) {
        int i = d->n_devices;
        if (pf_diff_device_run(&a->devices[i], a->trace, &b->devices[i], b->trace, group, &d->devices[i])) {
            pf_diff_free(d);
            return pf_fail(err, "out of memory");
        }
    }
    const pf_analysis *longer = a->n_devices > n ? a : b;
    d->left_out_side = longer == b;
    d->n_left_out = longer->n_devices - n;
    d->left_out = longer->devices + n;
    *out = d;
    return 0;
}

void pf_diff_free(pf_diff *d)
{
    if (!d)
        return;
    for (int i = 0; i < d->n_devices; i++)
        pf_diff_device_free(&d->devices[i]);
    free(d->devices);
    free(d);
}

int pf_diff_matches_little(const pf_diff *d)
{
    assert(d);
    for (int i = 0; i < d->n_devices; i++) {
        const pf_diff_summary *s = &d->devices[i].summary;
        if (s->a_matched_pct < PF_DIFF_HINT_BELOW && s->b_matched_pct < PF_DIFF_HINT_BELOW)
            return 1;
    }
    return 0;
}

void pf_diff_hint_group(pf_diff *d, const pf_diff *alt, pf_group_by group)
{
    assert(d && alt);
    for (int i = 0; i < d->n_devices && i < alt->n_devices; i++) {
        pf_diff_summary *s = &d->devices[i].summary;
        const pf_diff_summary *t = &alt->devices[i].summary;
        double had = s->a_matched_pct > s->b_matched_pct ? s->a_matched_pct : s->b_matched_pct;
        double gets = t->a_matched_pct < t->b_matched_pct ? t->a_matched_pct : t->b_matched_pct;
        if (gets >= had + PF_DIFF_HINT_GAIN) {
            s->alt_group = (int)group;
            s->alt_a_pct = t->a_matched_pct;
            s->alt_b_pct = t->b_matched_pct;
        }
    }
}
