/* ranks.c - one rank's trace summarised for --ranks: GPU, busy, communication and exposed communication time per device, distributedInfo.rank, and its communication kernels with their collective args; many ranks loaded on several threads. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profana/analysis.h"
#include "profana/categories.h"
#include "profana/gzout.h"
#include "profana/jscan.h"
#include "profana/parallel.h"
#include "profana/ranks.h"
#include "profana/satmath.h"
#include "ranks_windows.h"

/* ---- time per device, and per step ---- */

/* Compute is a kernel that moves no data for a collective: not communication, and not a
 * copy or fill (ROCm's copy kernels are categorised memcpy), which overlap communication
 * without hiding it behind useful work. */
static int is_compute(const pf_activity *a, pf_category c)
{
    return a->kind == PF_ACT_KERNEL && c != PF_CAT_COMMUNICATION && c != PF_CAT_MEMCPY && c != PF_CAT_MEMSET;
}

static pf_category category(const pf_trace *t, const pf_activity *a)
{
    return pf_category_of(a->kind, a->name, a->op >= 0 ? t->ops[a->op].name : NULL);
}

/* Union length of the activities idx[0, n). */
static int union_of(const pf_trace *t, const size_t *idx, size_t n, int64_t *busy, int64_t *span)
{
    pf_busy b;
    if (pf_busy_compute(t->acts, idx, n, &b))
        return -1;
    free(b.streams);
    *busy = b.busy_ns;
    if (span)
        *span = b.end_ns - b.start_ns;
    return 0;
}

/* Adds the figures of the activities idx[0, n), all on one device, to tm. scratch has room
 * for 3 * n indices. */
static int add_group(const pf_trace *t, const unsigned char *cats, const size_t *idx, size_t n, size_t *scratch,
                     pf_rank_times *tm)
{
    size_t *comm = scratch, *comp = scratch + n, *either = scratch + 2 * n, nc = 0, nk = 0, ne = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = idx[k];
        const pf_activity *a = &t->acts[i];
        int is_comm = a->kind == PF_ACT_KERNEL && cats[i] == PF_CAT_COMMUNICATION;
        int is_comp = is_compute(a, (pf_category)cats[i]);
        tm->gpu_ns = pf_sat_add(tm->gpu_ns, a->dur_ns);
        if (is_comm)
            comm[nc++] = i;
        if (is_comp)
            comp[nk++] = i;
        if (is_comm || is_comp)
            either[ne++] = i;
    }
    int64_t busy, span, c, compute, e;
    if (union_of(t, idx, n, &busy, &span) || union_of(t, comm, nc, &c, NULL) || union_of(t, comp, nk, &compute, NULL) ||
        union_of(t, either, ne, &e, NULL))
        return -1;
    tm->busy_ns = pf_sat_add(tm->busy_ns, busy);
    tm->span_ns = pf_sat_add(tm->span_ns, span);
    tm->comm_ns = pf_sat_add(tm->comm_ns, c);
    tm->compute_ns = pf_sat_add(tm->compute_ns, compute);
    /* the communication time no compute kernel covers: |C \ K| = |C u K| - |K| */
    tm->exposed_ns = pf_sat_add(tm->exposed_ns, e - compute);
    tm->idle_ns = tm->span_ns - tm->busy_ns;
    return 0;
}

/* An activity's place in a grouping: by step (0 for the whole trace), then device. */
typedef struct act_key {
    int64_t step;
    int device;
    size_t i;
} act_key;

static int by_step_device(const void *x, const void *y)
{
    const act_key *a = x, *b = y;
    if (a->step != b->step)
        return (a->step > b->step) - (a->step < b->step);
    if (a->device != b->device)
        return (a->device > b->device) - (a->device < b->device);
    return (a->i > b->i) - (a->i < b->i);
}

/* The groups of k[0, n) (sorted): one per step and device of the trace's devices. Each is
 * added to the times its step's call of `to` returns (NULL: skipped); has_work[d] is set for
 * the devices that have a group. */
typedef pf_rank_times *(*times_for)(pf_rank_summary *s, int64_t step);

static int add_groups(const pf_trace *t, const unsigned char *cats, const act_key *k, size_t n, size_t *work,
                      unsigned char *has_work, times_for to, pf_rank_summary *s)
{
    size_t *idx = work, *scratch = work + n;
    for (size_t a = 0, b; a < n; a = b) {
        size_t m = 0;
        for (b = a; b < n && k[b].step == k[a].step && k[b].device == k[a].device; b++)
            idx[m++] = k[b].i;
        const pf_device *dv = pf_trace_device(t, k[a].device);
        pf_rank_times *tm = to(s, k[a].step);
        if (!dv || !tm)
            continue;
        has_work[dv - t->devices] = 1;
        if (add_group(t, cats, idx, m, scratch, tm))
            return -1;
    }
    return 0;
}

static pf_rank_times *whole_trace(pf_rank_summary *s, int64_t step)
{
    (void)step;
    return &s->all;
}

/* The step row of number step: steps are added in order of number, so it is the last one
 * or a new one after it (room for every distinct number was made). */
static pf_rank_times *step_row(pf_rank_summary *s, int64_t step)
{
    if (s->n_steps == 0 || s->steps[s->n_steps - 1].number != step)
        s->steps[s->n_steps++] = (pf_rank_step){.number = step};
    return &s->steps[s->n_steps - 1].t;
}

/* The device-table entry every device with work matches, or NULL. */
static const pf_device_info *common_entry(const pf_trace *t, const unsigned char *has_work)
{
    const pf_device_info *info = NULL;
    for (int d = 0; d < t->n_devices; d++) {
        const pf_device *dv = &t->devices[d];
        if (!has_work[d])
            continue;
        pf_device_query q = {dv->name, dv->num_sms, dv->total_mem, dv->cc_major * 10 + dv->cc_minor};
        const pf_device_info *e = pf_devices_lookup(&q).info;
        if (!e || (info && e != info))
            return NULL;
        info = e;
    }
    return info;
}

/* The whole trace's times and its devices, then each step's times. */
static int device_times(const pf_trace *t, const unsigned char *cats, pf_rank_summary *s, pf_error *err)
{
    size_t na = t->n_acts ? t->n_acts : 1;
    act_key *k = malloc(na * sizeof *k);
    size_t *work = malloc(na * 4 * sizeof *work);
    int64_t *num = malloc(na * sizeof *num);
    unsigned char *has_work = calloc((size_t)t->n_devices + 1, 1);
    unsigned char *no_work = calloc((size_t)t->n_devices + 1, 1);
    int rc = k && work && num && has_work && no_work ? 0 : pf_fail(err, "out of memory");
    if (rc == 0) {
        for (size_t i = 0; i < t->n_acts; i++)
            k[i] = (act_key){0, t->acts[i].device, i};
        qsort(k, t->n_acts, sizeof *k, by_step_device);
        if (add_groups(t, cats, k, t->n_acts, work, has_work, whole_trace, s))
            rc = pf_fail(err, "out of memory");
    }
    for (int d = 0; rc == 0 && d < t->n_devices; d++)
        s->n_devices += has_work[d];
    if (rc == 0) {
        s->info = common_entry(t, has_work);
        rc = pf_steps_numbers(t, num, err);
    }
    size_t n = 0, distinct = 0;
    for (size_t i = 0; rc == 0 && i < t->n_acts; i++)
        if (num[i] != PF_NO_STEP)
            k[n++] = (act_key){num[i], t->acts[i].device, i};
    if (rc == 0)
        qsort(k, n, sizeof *k, by_step_device);
    for (size_t i = 0; rc == 0 && i < n; i++)
        distinct += i == 0 || k[i].step != k[i - 1].step;
    if (rc == 0 && distinct && !(s->steps = calloc(distinct, sizeof *s->steps)))
        rc = pf_fail(err, "out of memory");
    if (rc == 0 && add_groups(t, cats, k, n, work, no_work, step_row, s))
        rc = pf_fail(err, "out of memory");
    free(k);
    free(work);
    free(num);
    free(has_work);
    free(no_work);
    return rc;
}

/* ---- the args the model does not keep ---- */

/* Copies the JSON string at [a, b) into buf (cut to cap - 1 bytes); "" when it is none. */
static void copy_string(const char *s, size_t a, size_t b, char *buf, size_t cap)
{
    size_t len;
    char *v = pf_json_string(s, a, b, &len);
    buf[0] = '\0';
    if (!v)
        return;
    snprintf(buf, cap, "%s", v);
    free(v);
}

/* The collective args of one args object at s[at, at + len): fills what it finds. */
typedef struct coll_args {
    char name[PF_COLL_NAME_MAX], pg[PF_COLL_PG_MAX], dtype[32];
    int64_t in_n, out_n, group_size, seq;
} coll_args;

static void read_coll_args(const char *s, size_t at, size_t len, coll_args *c)
{
    size_t p = at, end = at + len;
    pf_jmember m;
    pf_jerr e;
    if (pf_json_obj_begin(s, end, &p, &e))
        return;
    while (pf_json_obj_next(s, end, &p, &m, &e) == 1) {
        if (pf_json_key_is(s, &m, "Collective name"))
            copy_string(s, m.val_start, m.val_end, c->name, sizeof c->name);
        else if (pf_json_key_is(s, &m, "Process Group Name"))
            copy_string(s, m.val_start, m.val_end, c->pg, sizeof c->pg);
        else if (pf_json_key_is(s, &m, "dtype"))
            copy_string(s, m.val_start, m.val_end, c->dtype, sizeof c->dtype);
        else if (pf_json_key_is(s, &m, "In msg nelems"))
            pf_json_int(s, m.val_start, m.val_end, &c->in_n);
        else if (pf_json_key_is(s, &m, "Out msg nelems"))
            pf_json_int(s, m.val_start, m.val_end, &c->out_n);
        else if (pf_json_key_is(s, &m, "Group size"))
            pf_json_int(s, m.val_start, m.val_end, &c->group_size);
        else if (pf_json_key_is(s, &m, "Seq") || pf_json_key_is(s, &m, "seq_num"))
            pf_json_int(s, m.val_start, m.val_end, &c->seq);
    }
}

static void fill_comm(const pf_trace *t, const char *s, size_t len, const pf_activity *a, pf_comm_rec *r)
{
    coll_args c = {.in_n = -1, .out_n = -1, .group_size = 0, .seq = -1};
    size_t at = (size_t)a->src_off + a->args.at;
    if (a->args.len && at + a->args.len <= len)
        read_coll_args(s, at, a->args.len, &c);
    /* older PyTorch wrote the collective's args only on record_param_comms, the launching op */
    const pf_cpu_op *op = a->op >= 0 ? &t->ops[a->op] : NULL;
    size_t op_at = op ? (size_t)op->src_off + op->args.at : 0;
    if (!c.name[0] && op && op->args.len && op_at + op->args.len <= len)
        read_coll_args(s, op_at, op->args.len, &c);
    memcpy(r->name, c.name, sizeof r->name);
    memcpy(r->pg, c.pg, sizeof r->pg);
    r->group_size = c.group_size > 0 && c.group_size <= 1 << 24 ? (int)c.group_size : 0;
    int64_t n = c.in_n > c.out_n ? c.in_n : c.out_n;
    int es = pf_type_size(c.dtype);
    r->bytes = n >= 0 && es > 0 && n <= INT64_MAX / 16 ? n * es : -1;
    r->ts_ns = a->ts_ns;
    r->dur_ns = a->dur_ns;
    r->seq = c.seq >= 0 ? c.seq : 0;
    r->has_seq = c.seq >= 0;
}

/* A communication kernel's place: by start, then file order. */
typedef struct comm_at {
    int64_t ts;
    size_t i;
} comm_at;

static int by_start(const void *x, const void *y)
{
    const comm_at *a = x, *b = y;
    if (a->ts != b->ts)
        return (a->ts > b->ts) - (a->ts < b->ts);
    return (a->i > b->i) - (a->i < b->i);
}

/* The communication kernels' records, by start; *acts receives their activities in that
 * order (caller frees; NULL when none). */
static int read_comms(const pf_trace *t, const char *path, const unsigned char *cats, pf_rank_summary *s,
                      size_t **acts, pf_error *err)
{
    char *text;
    size_t len;
    int mapped;
    size_t n = 0;
    *acts = NULL;
    for (size_t i = 0; i < t->n_acts; i++)
        n += t->acts[i].kind == PF_ACT_KERNEL && cats[i] == PF_CAT_COMMUNICATION;
    if (n == 0) /* nothing to read again */
        return 0;
    /* a pipe read a second time meets end-of-file: every collective's args would be lost */
    struct stat st;
    if (strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return pf_fail(err, "%s: not a regular file: its collectives' args cannot be read a second time", path);
    if (pf_source_read(path, &text, &len, &mapped, err))
        return -1;
    s->comms = calloc(n, sizeof *s->comms);
    comm_at *k = malloc(n * sizeof *k);
    *acts = malloc(n * sizeof **acts);
    if (!s->comms || !k || !*acts) {
        pf_source_release(text, len, mapped);
        free(k);
        free(*acts);
        *acts = NULL;
        return pf_fail(err, "%s: out of memory", path);
    }
    size_t m = 0;
    for (size_t i = 0; i < t->n_acts; i++)
        if (t->acts[i].kind == PF_ACT_KERNEL && cats[i] == PF_CAT_COMMUNICATION)
            k[m++] = (comm_at){t->acts[i].ts_ns, i};
    qsort(k, m, sizeof *k, by_start);
    for (size_t j = 0; j < m; j++) {
        (*acts)[j] = k[j].i;
        fill_comm(t, text, len, &t->acts[k[j].i], &s->comms[s->n_comms++]);
    }
    free(k);
    pf_source_release(text, len, mapped);
    return 0;
}

int pf_rank_summarize(const pf_trace *t, const char *path, int culprits, pf_rank_summary *out, pf_error *err)
{
    *out = (pf_rank_summary){.rank = -1};
    unsigned char *cats = malloc(t->n_acts ? t->n_acts : 1);
    out->path = strdup(path);
    if (!cats || !out->path) {
        free(cats);
        free(out->path);
        out->path = NULL;
        return pf_fail(err, "%s: out of memory", path);
    }
    for (size_t i = 0; i < t->n_acts; i++)
        cats[i] = (unsigned char)category(t, &t->acts[i]);
    out->rank = t->rank;
    out->rank_from_trace = t->rank >= 0;
    if (t->host_name && !(out->node = strdup(t->host_name))) {
        free(cats);
        free(out->path);
        out->path = NULL;
        return pf_fail(err, "%s: out of memory", path);
    }
    int rc = device_times(t, cats, out, err);
    size_t *comm_acts = NULL;
    if (rc == 0)
        rc = read_comms(t, path, cats, out, &comm_acts, err);
    if (rc == 0 && culprits)
        rc = pf_rank_windows(t, cats, comm_acts, out, err);
    free(comm_acts);
    free(cats);
    if (rc) {
        free(out->comms);
        free(out->steps);
        free(out->path);
        free(out->node);
        *out = (pf_rank_summary){.rank = -1};
    }
    return rc;
}

/* ---- many ranks ---- */

typedef struct load_job {
    const char *const *paths;
    pf_load_opts lo;
    pf_rank_summary *out;
    pf_error *errs;
    int *failed;
    char **warnings;
} load_job;

/* A small plain file that holds a summary, read and parsed from one read: 1 done (failed set),
 * 0 not a summary (or not small, or gzip: the general path tells). With 10,000 summaries the
 * sniff's own open and read were a fifth of the system time (docs/performance.md). */
static int small_summary(load_job *j, size_t i)
{
    struct stat st;
    int fd = open(j->paths[i], O_RDONLY);
    if (fd < 0)
        return 0; /* the general path words the error */
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0 || st.st_size > 256 * 1024) {
        close(fd);
        return 0;
    }
    size_t len = (size_t)st.st_size, got = 0;
    char *text = malloc(len);
    while (text && got < len) {
        ssize_t k = pread(fd, text + got, len - got, (off_t)got);
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    close(fd);
    /* gzip, a short read or no memory: the general path */
    int yes = text && got == len && !pf_is_gzip(text, len) && pf_rank_summary_sniff_text(text, len);
    if (yes) {
        j->failed[i] = pf_rank_summary_parse(j->paths[i], text, len, &j->out[i], &j->errs[i]) != 0;
        j->out[i].given = j->paths[i];
    }
    free(text);
    return yes;
}

static void load_one(load_job *j, size_t i)
{
    pf_trace *t;
    if (small_summary(j, i))
        return;
    if (pf_rank_summary_sniff(j->paths[i])) {
        j->failed[i] = pf_rank_summary_read(j->paths[i], &j->out[i], &j->errs[i]) != 0;
        j->out[i].given = j->paths[i];
        return;
    }
    if (pf_trace_load_opts(j->paths[i], &j->lo, &t, &j->errs[i])) {
        j->failed[i] = 1;
        return;
    }
    if (t->n_warnings) {
        size_t need = strlen(j->paths[i]) + strlen(t->warnings[0]) + 3;
        j->warnings[i] = malloc(need);
        if (j->warnings[i])
            snprintf(j->warnings[i], need, "%s: %s", j->paths[i], t->warnings[0]);
    }
    j->failed[i] = pf_rank_summarize(t, j->paths[i], 1, &j->out[i], &j->errs[i]) != 0;
    j->out[i].given = j->paths[i];
    pf_trace_free(t);
}

static void load_range(void *ctx, size_t lo, size_t hi, size_t r)
{
    (void)r;
    for (size_t i = lo; i < hi; i++)
        load_one(ctx, i);
}

/* The warnings of every file, one line each, in the order given. */
static char *join_warnings(char **w, size_t n)
{
    size_t total = 1;
    for (size_t i = 0; i < n; i++)
        total += w[i] ? strlen(w[i]) + 1 : 0;
    char *s = total > 1 ? malloc(total) : NULL;
    for (size_t i = 0, at = 0; s && i < n; i++) {
        if (!w[i])
            continue;
        at += (size_t)snprintf(s + at, total - at, "%s%s", at ? "\n" : "", w[i]);
    }
    return s;
}

int pf_ranks_load(const char *const *paths, size_t n, const pf_load_opts *lo, pf_rank_summary **out,
                  char **warning, pf_error *err)
{
    *out = NULL;
    *warning = NULL;
    size_t workers = pf_parallel_workers(lo ? lo->jobs : 0);
    load_job j = {.paths = paths, .lo = lo ? *lo : (pf_load_opts){0}};
    /* one file per thread; the threads left over parse inside the files */
    j.lo.jobs = (int)(workers > n ? workers / (n ? n : 1) : 1);
    j.lo.progress = 0;
    j.out = calloc(n ? n : 1, sizeof *j.out);
    j.errs = calloc(n ? n : 1, sizeof *j.errs);
    j.failed = calloc(n ? n : 1, sizeof *j.failed);
    j.warnings = calloc(n ? n : 1, sizeof *j.warnings);
    int rc = j.out && j.errs && j.failed && j.warnings ? 0 : pf_fail(err, "out of memory");
    if (rc == 0)
        pf_parallel_ranges(n, workers < n ? workers : (n ? n : 1), load_range, &j);
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (j.failed[i]) {
            *err = j.errs[i];
            rc = -1;
        }
    if (rc == 0)
        rc = pf_ranks_assign(j.out, n, err);
    for (size_t i = 0; j.out && i < n; i++)
        j.out[i].given = NULL; /* borrowed from paths, which may not outlive the summaries */
    if (rc == 0)
        *warning = join_warnings(j.warnings, n);
    for (size_t i = 0; j.warnings && i < n; i++)
        free(j.warnings[i]);
    free(j.warnings);
    free(j.errs);
    free(j.failed);
    if (rc) {
        pf_ranks_free(j.out, j.out ? n : 0);
        return -1;
    }
    *out = j.out;
    return 0;
}

static int by_rank(const void *x, const void *y)
{
    const pf_rank_summary *a = x, *b = y;
    return (a->rank > b->rank) - (a->rank < b->rank);
}

/* The file a summary came from as the user named it: a summary's recorded trace path may name
 * a file on another machine, or one the user never gave. */
static const char *name_of(const pf_rank_summary *s)
{
    return s->given ? s->given : s->path;
}

int pf_ranks_assign(pf_rank_summary *s, size_t n, pf_error *err)
{
    for (size_t i = 0; i < n; i++)
        if (!s[i].rank_from_trace)
            s[i].rank = (int)i;
    qsort(s, n, sizeof *s, by_rank);
    for (size_t i = 1; i < n; i++)
        if (s[i].rank == s[i - 1].rank)
            return pf_fail(err, "%s: rank %d is also the rank of %s (%s)", name_of(&s[i]), s[i].rank,
                           name_of(&s[i - 1]),
                           s[i].rank_from_trace && s[i - 1].rank_from_trace ? "both from distributedInfo.rank"
                                                                            : "a trace without distributedInfo.rank "
                                                                              "takes its position in the order given");
    return 0;
}

void pf_rank_summary_clear(pf_rank_summary *s)
{
    assert(s);
    free(s->path);
    free(s->node);
    free(s->comms);
    free(s->steps);
    free(s->wins);
    free(s->kernels);
    for (size_t k = 0; s->labels && k < s->n_labels; k++)
        free(s->labels[k]);
    free(s->labels);
    *s = (pf_rank_summary){.rank = -1};
}

void pf_ranks_free(pf_rank_summary *s, size_t n)
{
    for (size_t i = 0; s && i < n; i++)
        pf_rank_summary_clear(&s[i]);
    free(s);
}
