/* ranks_windows.c - what a rank's GPU did before each of its communication kernels (compute, copies, communication, idle; the kernels with the most time, the longest gap and the host annotation over it) and its compute kernels' times by name: what --ranks' culprits compare across ranks. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "profana/analysis.h"
#include "profana/categories.h"
#include "profana/names.h"
#include "profana/ptrmap.h"
#include "profana/satmath.h"
#include "profana/strtab.h"
#include "pipeline.h"
#include "ranks_windows.h"

/* What an activity counts as in a window; idle is PF_WIN_IDLE. */
static int act_class(const pf_activity *a, int cat)
{
    if (a->kind == PF_ACT_KERNEL && cat == PF_CAT_COMMUNICATION)
        return PF_WIN_COMM;
    if (a->kind == PF_ACT_KERNEL && cat != PF_CAT_MEMCPY && cat != PF_CAT_MEMSET)
        return PF_WIN_COMPUTE;
    return PF_WIN_COPY;
}

/* A start (+1) or end (-1) of an activity of one class on one device. */
typedef struct point {
    int device;
    int64_t t;
    int delta, cls;
    size_t act;
} point;

static int by_device_time(const void *x, const void *y)
{
    const point *a = x, *b = y;
    if (a->device != b->device)
        return (a->device > b->device) - (a->device < b->device);
    if (a->t != b->t)
        return (a->t > b->t) - (a->t < b->t);
    if (a->delta != b->delta) /* ends first: a stretch ending where another starts is idle for no time */
        return a->delta - b->delta;
    return (a->act > b->act) - (a->act < b->act);
}

/* A stretch of one device's time in one class; after an idle stretch, the activity whose
 * start ended it. */
typedef struct seg {
    int device;
    int64_t a, b;
    int cls;
    size_t next;
} seg;

/* The labels every window and kernel refers to: op and annotation names as they are, kernel
 * names shortened, and the input shapes of an op's calls; each text once per kind. */
typedef struct labels {
    pf_ptrmap plain, kernel, shape;
    pf_strtab *shapes;         /* the shape texts, interned: the map keys them by pointer */
    char **v;
    size_t n, cap;
} labels;

enum { LABEL_PLAIN, LABEL_KERNEL, LABEL_SHAPE };

static int32_t label_of(labels *L, const char *name, int kind)
{
    int added, kernel = kind == LABEL_KERNEL;
    pf_ptrmap *map = kind == LABEL_SHAPE ? &L->shape : kernel ? &L->kernel : &L->plain;
    int64_t k = pf_ptrmap_find_or_add(map, name, L->n, &added);
    if (k < 0)
        return -2;
    if (!added)
        return (int32_t)k;
    if (L->n == L->cap) {
        size_t cap = L->cap ? 2 * L->cap : 64;
        char **v = realloc(L->v, cap * sizeof *v);
        if (!v)
            return -2;
        L->v = v;
        L->cap = cap;
    }
    char buf[256];
    L->v[L->n] = strdup(kernel ? pf_name_short(name, 1, buf, sizeof buf) : name);
    return L->v[L->n] ? (int32_t)L->n++ : -2;
}

/* A compute kernel's label in a window: its launching op, else the kernel. */
static int32_t act_label(labels *L, const pf_trace *t, const pf_activity *a)
{
    return a->op >= 0 ? label_of(L, t->ops[a->op].name, LABEL_PLAIN) : label_of(L, a->name, LABEL_KERNEL);
}

/* A compute kernel's place: by device, then start. */
typedef struct act_at {
    int device;
    int64_t ts;
    size_t i;
} act_at;

static int by_device_start(const void *x, const void *y)
{
    const act_at *a = x, *b = y;
    if (a->device != b->device)
        return (a->device > b->device) - (a->device < b->device);
    if (a->ts != b->ts)
        return (a->ts > b->ts) - (a->ts < b->ts);
    return (a->i > b->i) - (a->i < b->i);
}

/* The segments of every device, in device and time order. */
static seg *make_segments(const pf_trace *t, const unsigned char *cats, size_t *n_seg)
{
    point *p = malloc((2 * t->n_acts + 1) * sizeof *p);
    seg *s = malloc((2 * t->n_acts + 1) * sizeof *s);
    if (!p || !s) {
        free(p);
        free(s);
        return NULL;
    }
    size_t np = 0, ns = 0;
    for (size_t i = 0; i < t->n_acts; i++) {
        const pf_activity *a = &t->acts[i];
        int c = act_class(a, cats[i]);
        p[np++] = (point){a->device, a->ts_ns, 1, c, i};
        p[np++] = (point){a->device, pf_sat_add(a->ts_ns, a->dur_ns), -1, c, i};
    }
    qsort(p, np, sizeof *p, by_device_time);
    int count[PF_WIN_CAUSES] = {0};
    for (size_t i = 0; i < np; i++) {
        if (i > 0 && p[i].device != p[i - 1].device)
            memset(count, 0, sizeof count);
        else if (i > 0 && p[i].t > p[i - 1].t) {
            int c = count[PF_WIN_COMPUTE] ? PF_WIN_COMPUTE : count[PF_WIN_COPY] ? PF_WIN_COPY
                                                           : count[PF_WIN_COMM]  ? PF_WIN_COMM
                                                                                 : PF_WIN_IDLE;
            s[ns++] = (seg){p[i].device, p[i - 1].t, p[i].t, c, p[i].act};
        }
        count[p[i].cls] += p[i].delta;
    }
    free(p);
    *n_seg = ns;
    return s;
}

/* The first segment of device d ending after t (ns when none). */
static size_t seg_at(const seg *s, size_t ns, int d, int64_t t)
{
    size_t lo = 0, hi = ns;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s[mid].device < d || (s[mid].device == d && s[mid].b <= t))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The host marks that can name a gap (annotations and Python frames) by thread and start, and
 * the longest one's duration: a search starts that far before the gap. */
typedef struct mark_at {
    uint64_t thread;
    int64_t ts;
    size_t i;
} mark_at;

typedef struct marks {
    mark_at *v;
    size_t n;
    int64_t longest;
} marks;

static int by_thread_ts(const void *x, const void *y)
{
    const mark_at *a = x, *b = y;
    if (a->thread != b->thread)
        return a->thread < b->thread ? -1 : 1;
    if (a->ts != b->ts)
        return (a->ts > b->ts) - (a->ts < b->ts);
    return (a->i > b->i) - (a->i < b->i);
}

static int marks_make(const pf_trace *t, marks *m)
{
    *m = (marks){0};
    m->v = malloc((t->n_marks ? t->n_marks : 1) * sizeof *m->v);
    if (!m->v)
        return -1;
    for (size_t i = 0; i < t->n_marks; i++) {
        const pf_host_mark *k = &t->marks[i];
        if (k->kind != PF_MARK_ANNOTATION && k->kind != PF_MARK_PYTHON)
            continue;
        m->v[m->n++] = (mark_at){k->thread, k->ts_ns, i};
        m->longest = k->dur_ns > m->longest ? k->dur_ns : m->longest;
    }
    qsort(m->v, m->n, sizeof *m->v, by_thread_ts);
    return 0;
}

/* The shortest annotation or Python frame on thread th covering at least half of [from, to). */
static int32_t host_label(labels *L, const pf_trace *t, const marks *m, uint64_t th, int64_t from, int64_t to)
{
    const pf_host_mark *best = NULL;
    mark_at key = {th, from - m->longest, 0};
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (by_thread_ts(&m->v[mid], &key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t k = lo; k < m->n && m->v[k].thread == th && m->v[k].ts < to; k++) {
        const pf_host_mark *x = &t->marks[m->v[k].i];
        int64_t a = x->ts_ns > from ? x->ts_ns : from, e = x->ts_ns + x->dur_ns, b = e < to ? e : to;
        if (b > a && 2 * (b - a) >= to - from && (!best || x->dur_ns < best->dur_ns))
            best = x;
    }
    return best ? label_of(L, best->name, LABEL_PLAIN) : -1;
}

/* The inputs of a compute kernel's launching op as --group shape spells them ("[2048,512]bf16,
 * [512,512]bf16"), interned in L->shapes; NULL when the op has none recorded (no
 * record_shapes, or no op). *oom is set when memory runs out. */
static const char *act_shapes(labels *L, const pf_trace *t, const pf_activity *a, int *oom)
{
    if (a->op < 0 || t->ops[a->op].call.nargs == 0)
        return NULL;
    char buf[512];
    size_t len = 0;
    pf_key_append_args(buf, sizeof buf, &len, &t->ops[a->op].call, 1);
    if (len >= sizeof buf)
        len = sizeof buf - 1;
    const char *s = pf_strtab_intern(L->shapes, buf, len);
    *oom |= s == NULL;
    return s;
}

/* A window's label times, summed per label, before the top ones are kept; before that, one
 * entry a kernel with its call's shapes. */
typedef struct lab_ns {
    int32_t label;
    int32_t shape;             /* after the sums: the label of the shape set, -1 unknown */
    const char *shapes;        /* one kernel's call's shapes (interned), NULL unknown */
    int64_t ns;
} lab_ns;

static int by_label(const void *x, const void *y)
{
    const lab_ns *a = x, *b = y;
    if (a->label != b->label)
        return (a->label > b->label) - (a->label < b->label);
    if (!a->shapes || !b->shapes)
        return (a->shapes != NULL) - (b->shapes != NULL);
    return strcmp(a->shapes, b->shapes);
}

/* The shape set of one label's kernels v[0, n) (sorted by by_label, so an unknown first): its
 * distinct shapes in that order joined by " | ", at most WIN_SHAPES of them and then
 * "| +N more"; the label of that text, -1 when a kernel's shapes are unknown, < -1 when memory
 * runs out. Two ranks whose calls had the same shapes get the same text. */
enum { WIN_SHAPES = 3 };
static int32_t shape_set(labels *L, const lab_ns *v, size_t n)
{
    if (n == 0 || !v[0].shapes)
        return -1;
    char buf[1024];
    size_t len = 0, distinct = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && v[i].shapes == v[i - 1].shapes)
            continue;
        if (distinct++ < WIN_SHAPES)
            pf_an_append(buf, sizeof buf, &len, "%s%s", distinct > 1 ? " | " : "", v[i].shapes);
    }
    if (distinct > WIN_SHAPES)
        pf_an_append(buf, sizeof buf, &len, " | +%zu more", distinct - WIN_SHAPES);
    if (len >= sizeof buf)
        len = sizeof buf - 1;
    const char *s = pf_strtab_intern(L->shapes, buf, len);
    return s ? label_of(L, s, LABEL_SHAPE) : -2;
}

static int by_ns_desc(const void *x, const void *y)
{
    const lab_ns *a = x, *b = y;
    if (a->ns != b->ns)
        return (a->ns < b->ns) - (a->ns > b->ns);
    return (a->label > b->label) - (a->label < b->label);
}

/* The compute kernels of the window [a, b) on device d, by label, the top PF_WIN_TOP kept in w.
 * comp[0, nc) are the compute kernels by device and start; longest their longest duration. */
static int top_labels(labels *L, const pf_trace *t, const size_t *comp, size_t nc, int64_t longest, int d, int64_t a,
                      int64_t b, lab_ns **buf, size_t *cap, pf_comm_window *w)
{
    size_t lo = 0, hi = nc, m = 0;
    int64_t from = a - longest;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const pf_activity *x = &t->acts[comp[mid]];
        if (x->device < d || (x->device == d && x->ts_ns < from))
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t k = lo; k < nc && t->acts[comp[k]].device == d && t->acts[comp[k]].ts_ns < b; k++) {
        const pf_activity *x = &t->acts[comp[k]];
        int64_t s = x->ts_ns > a ? x->ts_ns : a, e = pf_sat_add(x->ts_ns, x->dur_ns);
        e = e < b ? e : b;
        if (e <= s)
            continue;
        if (m == *cap) {
            size_t c2 = *cap ? 2 * *cap : 64;
            lab_ns *v = realloc(*buf, c2 * sizeof *v);
            if (!v)
                return -1;
            *buf = v;
            *cap = c2;
        }
        int32_t l = act_label(L, t, x);
        int oom = 0;
        const char *sh = act_shapes(L, t, x, &oom);
        if (l < -1 || oom)
            return -1;
        (*buf)[m++] = (lab_ns){l, -1, sh, e - s};
    }
    if (m > 1) /* qsort of NULL, 0 is undefined (UBSan) */
        qsort(*buf, m, sizeof **buf, by_label);
    size_t u = 0;
    for (size_t k = 0, j; k < m; k = j) {
        int64_t sum = 0;
        for (j = k; j < m && (*buf)[j].label == (*buf)[k].label; j++)
            sum += (*buf)[j].ns;
        int32_t set = shape_set(L, *buf + k, j - k);
        if (set < -1)
            return -1;
        (*buf)[u++] = (lab_ns){(*buf)[k].label, set, NULL, sum};
    }
    if (u > 1)
        qsort(*buf, u, sizeof **buf, by_ns_desc);
    for (int k = 0; k < PF_WIN_TOP; k++) {
        w->top_label[k] = (size_t)k < u ? (*buf)[k].label : -1;
        w->top_ns[k] = (size_t)k < u ? (*buf)[k].ns : 0;
        w->top_shape[k] = (size_t)k < u ? (*buf)[k].shape : -1;
    }
    return 0;
}

/* One window: [start, end) on device d, from the segments. */
static int fill_window(labels *L, const pf_trace *t, const marks *mk, const seg *sg, size_t ns, int d, int64_t start,
                       int64_t end, pf_comm_window *w)
{
    w->start_ns = start;
    int has_gap = 0;
    size_t gap_next = 0;
    for (size_t k = seg_at(sg, ns, d, start); k < ns && sg[k].device == d && sg[k].a < end; k++) {
        int64_t a = sg[k].a > start ? sg[k].a : start, b = sg[k].b < end ? sg[k].b : end;
        if (b <= a)
            continue;
        w->cause_ns[sg[k].cls] += b - a;
        if (sg[k].cls == PF_WIN_IDLE && b - a > w->gap_ns) {
            w->gap_ns = b - a;
            has_gap = sg[k].b <= end; /* the gap ends inside the window, at an activity's start */
            gap_next = sg[k].next;
        }
    }
    /* what is not covered by any segment (before the device's first activity) is idle */
    int64_t covered = 0;
    for (int c = 0; c < PF_WIN_CAUSES; c++)
        covered += w->cause_ns[c];
    w->cause_ns[PF_WIN_IDLE] += end - start - covered;
    w->gap_label = -1;
    if (has_gap) {
        const pf_activity *x = &t->acts[gap_next];
        if (x->launch_ts_ns != PF_NO_LAUNCH && x->launch_thread)
            w->gap_label = host_label(L, t, mk, x->launch_thread, x->launch_ts_ns - w->gap_ns, x->launch_ts_ns);
        if (w->gap_label < -1)
            return -1;
    }
    return 0;
}

/* ---- the compute kernels by name ---- */

typedef struct ktime {
    const char *name;          /* interned */
    char *text;                /* the short name */
    int64_t count, sum_ns;
} ktime;

static int by_name_ptr(const void *x, const void *y)
{
    const ktime *a = x, *b = y;
    return (a->name > b->name) - (a->name < b->name);
}

static int by_text(const void *x, const void *y)
{
    return strcmp(((const ktime *)x)->text, ((const ktime *)y)->text);
}

static int by_sum_desc(const void *x, const void *y)
{
    const ktime *a = x, *b = y;
    if (a->sum_ns != b->sum_ns)
        return (a->sum_ns < b->sum_ns) - (a->sum_ns > b->sum_ns);
    return strcmp(a->text, b->text);
}

static int kernel_table(labels *L, const pf_trace *t, const size_t *comp, size_t nc, pf_rank_summary *s)
{
    ktime *k = malloc((nc ? nc : 1) * sizeof *k);
    if (!k)
        return -1;
    for (size_t i = 0; i < nc; i++) {
        const pf_activity *a = &t->acts[comp[i]];
        k[i] = (ktime){a->name, NULL, 1, a->dur_ns};
        s->compute_sum_ns = pf_sat_add(s->compute_sum_ns, a->dur_ns);
    }
    qsort(k, nc, sizeof *k, by_name_ptr);
    size_t u = 0;
    for (size_t i = 0; i < nc; i++) {
        if (u > 0 && k[u - 1].name == k[i].name) {
            k[u - 1].count++;
            k[u - 1].sum_ns = pf_sat_add(k[u - 1].sum_ns, k[i].sum_ns);
        } else
            k[u++] = k[i];
    }
    int rc = 0;
    char buf[256];
    for (size_t i = 0; i < u && rc == 0; i++)
        rc = (k[i].text = strdup(pf_name_short(k[i].name, 1, buf, sizeof buf))) ? 0 : -1;
    size_t v = 0;
    if (rc == 0) {
        qsort(k, u, sizeof *k, by_text);
        for (size_t i = 0; i < u; i++) {
            if (v > 0 && strcmp(k[v - 1].text, k[i].text) == 0) {
                k[v - 1].count += k[i].count;
                k[v - 1].sum_ns = pf_sat_add(k[v - 1].sum_ns, k[i].sum_ns);
                free(k[i].text);
            } else
                k[v++] = k[i];
        }
        qsort(k, v, sizeof *k, by_sum_desc);
    }
    size_t keep = 0;
    if (rc == 0 && v > 0) {
        keep = v < PF_RANK_KERNELS ? v : PF_RANK_KERNELS;
        s->kernels = calloc(keep, sizeof *s->kernels);
        rc = s->kernels ? 0 : -1;
    }
    for (size_t i = 0; rc == 0 && i < keep; i++) {
        /* the short name is the label: two kernels of one short name are one here */
        int32_t l = label_of(L, k[i].name, LABEL_KERNEL);
        if (l < 0) {
            rc = -1;
            break;
        }
        free(L->v[l]);
        L->v[l] = k[i].text;
        k[i].text = NULL;
        s->kernels[s->n_kernels++] = (pf_kernel_time){l, k[i].count, k[i].sum_ns};
    }
    for (size_t i = 0; i < (rc == 0 ? v : u); i++)
        free(k[i].text);
    free(k);
    return rc;
}

int pf_rank_windows(const pf_trace *t, const unsigned char *cats, const size_t *comm_acts, pf_rank_summary *s,
                    pf_error *err)
{
    assert(t && cats && s && (comm_acts || s->n_comms == 0));
    labels L = {0};
    size_t ns = 0, nc = 0, cap = 0;
    lab_ns *buf = NULL;
    seg *sg = make_segments(t, cats, &ns);
    size_t *comp = malloc((t->n_acts ? t->n_acts : 1) * sizeof *comp);
    int64_t *prev_end = malloc(((size_t)t->n_devices + 1) * sizeof *prev_end);
    marks mk = {0};
    L.shapes = pf_strtab_new();
    int rc = sg && comp && prev_end && L.shapes && marks_make(t, &mk) == 0 ? 0 : -1;
    if (rc == 0 && s->n_comms && !(s->wins = calloc(s->n_comms, sizeof *s->wins)))
        rc = -1;
    int64_t longest = 0;
    for (size_t i = 0; rc == 0 && i < t->n_acts; i++)
        if (act_class(&t->acts[i], cats[i]) == PF_WIN_COMPUTE) {
            comp[nc++] = i;
            longest = t->acts[i].dur_ns > longest ? t->acts[i].dur_ns : longest;
        }
    if (rc == 0) {
        act_at *k = malloc((nc ? nc : 1) * sizeof *k);
        if (!k)
            rc = -1;
        for (size_t i = 0; k && i < nc; i++)
            k[i] = (act_at){t->acts[comp[i]].device, t->acts[comp[i]].ts_ns, comp[i]};
        if (k)
            qsort(k, nc, sizeof *k, by_device_start);
        for (size_t i = 0; k && i < nc; i++)
            comp[i] = k[i].i;
        free(k);
        for (int d = 0; d <= t->n_devices; d++)
            prev_end[d] = INT64_MIN;
    }
    for (size_t i = 0; rc == 0 && i < s->n_comms; i++) {
        const pf_activity *a = &t->acts[comm_acts[i]];
        const pf_device *dv = pf_trace_device(t, a->device);
        int di = dv ? (int)(dv - t->devices) : t->n_devices;
        pf_comm_window *w = &s->wins[i];
        *w = (pf_comm_window){.start_ns = -1, .gap_label = -1, .top_label = {-1, -1, -1, -1},
                              .top_shape = {-1, -1, -1, -1}};
        if (prev_end[di] != INT64_MIN) {
            int64_t start = prev_end[di] < a->ts_ns ? prev_end[di] : a->ts_ns;
            rc = fill_window(&L, t, &mk, sg, ns, a->device, start, a->ts_ns, w);
            if (rc == 0)
                rc = top_labels(&L, t, comp, nc, longest, a->device, start, a->ts_ns, &buf, &cap, w);
        }
        int64_t end = pf_sat_add(a->ts_ns, a->dur_ns);
        prev_end[di] = end > prev_end[di] ? end : prev_end[di];
    }
    if (rc == 0)
        rc = kernel_table(&L, t, comp, nc, s);
    free(mk.v);
    free(sg);
    free(comp);
    free(prev_end);
    free(buf);
    pf_ptrmap_free(&L.plain);
    pf_ptrmap_free(&L.kernel);
    pf_ptrmap_free(&L.shape);
    pf_strtab_free(L.shapes);
    s->labels = L.v;
    s->n_labels = L.n;
    if (rc) {
        for (size_t i = 0; i < L.n; i++)
            free(L.v[i]);
        free(L.v);
        free(s->wins);
        free(s->kernels);
        s->labels = NULL;
        s->n_labels = 0;
        s->wins = NULL;
        s->kernels = NULL;
        s->n_kernels = 0;
        return pf_fail(err, "%s: out of memory", s->path ? s->path : "trace");
    }
    return 0;
}
