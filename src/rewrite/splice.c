/* splice.c - plans edits (replacements and insertions) against a JSON text and writes the text with them applied, byte for byte elsewhere. */
#include "profana/splice.h"

#include "profana/parallel.h"
#include "profana/mem.h"

#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../json/jscan_prim.h"

void pf_splice_init(pf_splice *sp)
{
    assert(sp);
    memset(sp, 0, sizeof *sp);
}

void pf_splice_free(pf_splice *sp)
{
    assert(sp);
    free(sp->edits);
    free(sp->text);
    pf_splice_init(sp);
}

static int reserve(void **p, size_t *cap, size_t need, size_t elem)
{
    return pf_grow(p, cap, need, elem, 64);
}

/* Whether edit a is written before an edit planned later at [start, end): insertions at
 * one offset keep their order and precede a replacement that starts there. */
static int goes_before(const pf_edit *a, size_t start, size_t end)
{
    if (a->start != start)
        return a->start < start;
    return a->start == a->end || start != end;
}

int pf_splice_put(pf_splice *sp, size_t start, size_t end, const char *text, size_t len)
{
    assert(sp); /* a backwards range is refused (-1), not a broken contract */
    assert(text || len == 0);
    if (end < start || reserve((void **)&sp->edits, &sp->cap, sp->n + 1, sizeof *sp->edits) ||
        reserve((void **)&sp->text, &sp->text_cap, sp->text_len + len + 1, 1))
        return -1;
    /* Plans are built in text order, so the place is almost always the end. */
    size_t at = sp->n;
    while (at > 0 && !goes_before(&sp->edits[at - 1], start, end))
        at--;
    if (at > 0 && sp->edits[at - 1].end > start)
        return -1;
    if (at < sp->n && sp->edits[at].start < end)
        return -1;
    memmove(sp->edits + at + 1, sp->edits + at, (sp->n - at) * sizeof *sp->edits);
    sp->edits[at] = (pf_edit){start, end, sp->text_len, len};
    memcpy(sp->text + sp->text_len, text, len);
    sp->text_len += len;
    sp->n++;
    return 0;
}

static int write_all(const char *p, size_t n, FILE *f)
{
    return n == 0 || fwrite(p, 1, n, f) == n ? 0 : -1;
}

int pf_splice_flush(pf_splice *sp, const char *s, size_t *cursor, FILE *f)
{
    assert(sp && s && cursor && f);
    int rc = 0;
    size_t cur = *cursor;
    for (size_t i = 0; i < sp->n && rc == 0; i++) {
        const pf_edit *ed = &sp->edits[i];
        if (ed->start < cur) {
            rc = -1;
            break;
        }
        rc = write_all(s + cur, ed->start - cur, f);
        if (rc == 0)
            rc = write_all(sp->text + ed->off, ed->len, f);
        cur = ed->end;
    }
    *cursor = cur;
    sp->n = 0;
    sp->text_len = 0;
    return rc;
}

static int oom(pf_jerr *e, size_t pos)
{
    e->pos = pos;
    e->truncated = 0;
    e->what = "out of memory";
    return -1;
}

/* Whether the existing value s[start, end) already says the pair's number. */
static int same_number(const char *s, size_t start, size_t end, const pf_kv *kv)
{
    double v;
    if (!kv->has_num || start == end || (s[start] != '-' && (s[start] < '0' || s[start] > '9')))
        return 0;
    return pf_json_double(s, start, end, &v) == 0 && v == kv->num;
}

static void append(char *buf, size_t *o, const char *text)
{
    size_t n = strlen(text);
    memcpy(buf + *o, text, n);
    *o += n;
}

/* Appends `"key": val` pairs (each preceded by ", " unless first) to the splice as one
 * insertion at `at`. Called once per event: the text is built on the stack when it fits. */
static int put_pairs(pf_splice *sp, size_t at, const char *lead, const pf_kv *kv, size_t n,
                     const unsigned char *skip, int comma, const char *trail)
{
    char small[512];
    size_t need = strlen(lead) + strlen(trail) + 1;
    for (size_t i = 0; i < n; i++)
        need += strlen(kv[i].key) + strlen(kv[i].val) + 6;
    char *buf = need <= sizeof small ? small : malloc(need);
    if (!buf)
        return -1;
    size_t o = 0;
    append(buf, &o, lead);
    for (size_t i = 0; i < n; i++) {
        if (skip && skip[i])
            continue;
        append(buf, &o, comma ? ", \"" : "\"");
        append(buf, &o, kv[i].key);
        append(buf, &o, "\": ");
        append(buf, &o, kv[i].val);
        comma = 1;
    }
    append(buf, &o, trail);
    int rc = pf_splice_put(sp, at, at, buf, o);
    if (buf != small)
        free(buf);
    return rc;
}

int pf_splice_obj_pairs(pf_splice *sp, const char *s, size_t len, size_t obj, const pf_kv *kv,
                        size_t n, pf_jerr *e)
{
    assert(sp && s && e && obj <= len);
    assert(n <= PF_SPLICE_MAX_PAIRS && (kv || n == 0));
    unsigned char found[PF_SPLICE_MAX_PAIRS] = {0};
    size_t pos = obj, after = 0, nfound = 0;
    pf_jmember m;
    int r;
    if (n > PF_SPLICE_MAX_PAIRS) {
        oom(e, obj);
        e->what = "too many pairs for one object";
        return -1;
    }
    if (pf_json_obj_begin(s, len, &pos, e))
        return -1;
    after = pos; /* just past '{' */
    int empty = 1;
    while ((r = pf_json_obj_next(s, len, &pos, &m, e)) == 1) {
        empty = 0;
        after = m.val_end;
        for (size_t i = 0; i < n; i++) {
            if (!pf_json_key_is(s, &m, kv[i].key))
                continue;
            nfound += !found[i];
            found[i] = 1;
            if (!same_number(s, m.val_start, m.val_end, &kv[i]) &&
                pf_splice_put(sp, m.val_start, m.val_end, kv[i].val, strlen(kv[i].val)))
                return oom(e, m.val_start);
        }
    }
    if (r < 0)
        return -1;
    if (nfound == n)
        return 0;
    return put_pairs(sp, after, "", kv, n, found, !empty, "") ? oom(e, after) : 0;
}

int pf_splice_obj_pairs_at(pf_splice *sp, const char *s, size_t len, size_t obj, size_t n, const pf_kv *kv,
                           size_t nkv, pf_jerr *e)
{
    assert(sp && s && e); /* an extent outside s is an error returned (the file changed) */
    assert(nkv <= PF_SPLICE_MAX_PAIRS && (kv || nkv == 0));
    if (n < 2 || obj > len || n > len - obj || s[obj] != '{' || s[obj + n - 1] != '}') {
        e->pos = obj;
        e->truncated = 0;
        e->what = "no args object here on the second read (did the file change?)";
        return -1;
    }
    if (memchr(s + obj, '_', n) || memchr(s + obj, '\\', n))
        return pf_splice_obj_pairs(sp, s, len, obj, kv, nkv, e);
    /* No member is one of ours: the pairs go after the last member's value, which is where
     * the whitespace before '}' begins. */
    size_t at = obj + n - 1;
    while (at > obj + 1 && js_is_ws(s[at - 1]))
        at--;
    int empty = s[at - 1] == '{';
    return put_pairs(sp, at, "", kv, nkv, NULL, !empty, "") ? oom(e, at) : 0;
}

int pf_splice_event_args(pf_splice *sp, const char *s, size_t len, size_t ev, const pf_kv *kv,
                         size_t n, pf_jerr *e)
{
    assert(sp && s && e && ev <= len);
    assert(n <= PF_SPLICE_MAX_PAIRS && (kv || n == 0));
    size_t pos = ev, after, args = SIZE_MAX;
    pf_jmember m;
    int r, empty = 1;
    if (pf_json_obj_begin(s, len, &pos, e))
        return -1;
    after = pos;
    while ((r = pf_json_obj_next(s, len, &pos, &m, e)) == 1) {
        empty = 0;
        after = m.val_end;
        if (pf_json_key_is(s, &m, "args"))
            args = m.val_start;
    }
    if (r < 0)
        return -1;
    if (args != SIZE_MAX)
        return s[args] == '{' ? pf_splice_obj_pairs(sp, s, len, args, kv, n, e) : 1;
    if (n == 0)
        return 0;
    return put_pairs(sp, after, empty ? "\"args\": {" : ", \"args\": {", kv, n, NULL, 0, "}")
               ? oom(e, after)
               : 0;
}

/* One thread's run of consecutive items: its edits, and the text from the first item's
 * start to the next run's with them applied (built in parallel, written in order). */
typedef struct splice_job {
    const pf_splice_items *it;
    const char *s;
    size_t lo, hi;             /* items */
    size_t a, b;               /* source bytes */
    pf_splice sp;
    char *out;
    size_t out_len, out_cap;
    size_t rest;               /* s[rest, b), after the last edit, is written from the source */
    int rc;
    pf_jerr e;
} splice_job;

/* s[a, b) with the job's edits applied: up to the end of the last edit into j->out, the rest
 * left in the source (a job can span a long stretch without edits: copying it would cost
 * memory in proportion to it). */
static int apply_job(splice_job *j)
{
    pf_splice *sp = &j->sp;
    size_t need = 0, cur = j->a, o = 0;
    for (size_t i = 0; i < sp->n; i++) {
        const pf_edit *ed = &sp->edits[i];
        if (ed->start < cur || ed->end > j->b)
            return -1;
        need += ed->start - cur + ed->len;
        cur = ed->end;
    }
    if (reserve((void **)&j->out, &j->out_cap, need + 1, 1))
        return -1;
    cur = j->a;
    for (size_t i = 0; i < sp->n; i++) {
        const pf_edit *ed = &sp->edits[i];
        memcpy(j->out + o, j->s + cur, ed->start - cur);
        o += ed->start - cur;
        memcpy(j->out + o, sp->text + ed->off, ed->len);
        o += ed->len;
        cur = ed->end;
    }
    j->out_len = o;
    j->rest = cur;
    sp->n = sp->text_len = 0;
    return 0;
}

static void *run_job(void *arg)
{
    splice_job *j = arg;
    j->rc = 0;
    j->out_len = 0;
    for (size_t i = j->lo; i < j->hi && j->rc == 0; i++)
        if (j->it->plan(j->it->ctx, i, &j->sp, &j->e))
            j->rc = -1;
    if (j->rc == 0 && apply_job(j)) {
        oom(&j->e, j->a);
        j->rc = -1;
    }
    return NULL;
}

/* A round of jobs in flight: started on their own threads (run inline, at join, when a
 * thread cannot start). */
typedef struct splice_round {
    splice_job *jb;
    size_t used;
    pthread_t th[PF_THREADS_MAX];
    int started[PF_THREADS_MAX];
} splice_round;

static void start_round(splice_round *r)
{
    for (size_t w = 0; w < r->used; w++)
        r->started[w] = pthread_create(&r->th[w], NULL, run_job, &r->jb[w]) == 0;
}

static void join_round(splice_round *r)
{
    for (size_t w = 0; w < r->used; w++) {
        if (r->started[w])
            pthread_join(r->th[w], NULL);
        else
            run_job(&r->jb[w]);
    }
}

/* Items and source bytes per job and round: enough to keep a thread busy, few enough to
 * bound memory (a job holds a copy of its text; the source it covers stays mapped). */
#define SPLICE_RUN 4096
#define SPLICE_BYTES ((size_t)2 << 20)

/* Source bytes per job for a source of n bytes: SPLICE_BYTES for a large one, less for a
 * smaller one, where two rounds of jobs (their text and the source pages they cover) would
 * otherwise be a sizeable share of the process (38 MB for 100 MB; the rounds' thread starts
 * cost a few milliseconds). */
static size_t job_bytes(size_t n)
{
    size_t b = n / 400;
    return b < (256 << 10) ? 256 << 10 : b > SPLICE_BYTES ? SPLICE_BYTES : b;
}

/* The end of the job that begins at item lo: at most SPLICE_RUN items, and the first item
 * that starts `bytes` or more after item lo's start (at least one item). */
static size_t job_end(const pf_splice_items *it, size_t lo, size_t from, size_t bytes)
{
    size_t hi = lo + SPLICE_RUN < it->n ? lo + SPLICE_RUN : it->n;
    size_t a = lo == 0 ? from : it->start(it->ctx, lo), l = lo + 1;
    while (l < hi) { /* the first item in (lo, hi] that starts too far; hi when none */
        size_t mid = l + (hi - l) / 2;
        if (it->start(it->ctx, mid) - a >= bytes)
            hi = mid;
        else
            l = mid + 1;
    }
    return hi;
}

/* Sets up the round of items from `base`: job w takes the next items (see job_end) and the
 * source from its first item's start (`from` for item 0) to the next job's. Returns the
 * number of jobs; *next is the first item of the next round. */
static size_t setup_round(splice_job *jb, size_t workers, size_t base, const pf_splice_items *it,
                          const char *s, size_t from, size_t to, size_t *next)
{
    size_t used = 0, lo = base, bytes = job_bytes(to - from);
    for (size_t w = 0; w < workers && lo < it->n; w++) {
        size_t hi = job_end(it, lo, from, bytes);
        jb[w].it = it;
        jb[w].s = s;
        jb[w].lo = lo;
        jb[w].hi = hi;
        jb[w].a = lo == 0 ? from : it->start(it->ctx, lo);
        jb[w].b = hi == it->n ? to : it->start(it->ctx, hi);
        used++;
        lo = hi;
    }
    *next = lo;
    return used;
}

/* Writes a finished round in order; the first failed job's error stops it. */
static int write_round(const splice_round *r, FILE *f, pf_jerr *e)
{
    for (size_t w = 0; w < r->used; w++) {
        if (r->jb[w].rc) {
            *e = r->jb[w].e;
            return -1;
        }
        const splice_job *j = &r->jb[w];
        if (write_all(j->out, j->out_len, f) || write_all(j->s + j->rest, j->b - j->rest, f))
            return -2;
    }
    return 0;
}

int pf_splice_write_parallel(const char *s, size_t from, size_t to, const pf_splice_items *it, int jobs,
                             FILE *f, pf_jerr *e)
{
    assert(s && from <= to && f && e);
    assert(it && it->start && it->plan); /* written is optional */
    size_t workers = pf_parallel_workers(jobs), base = 0, next = 0;
    if (it->n == 0)
        return write_all(s + from, to - from, f) ? -2 : 0;
    /* Two sets of jobs: one round is planned on threads while the last one is written. */
    splice_job *jb = calloc(2 * workers, sizeof *jb);
    splice_round *r = calloc(2, sizeof *r);
    if (!jb || !r) {
        free(jb);
        free(r);
        return oom(e, from);
    }
    r[0].jb = jb;
    r[1].jb = jb + workers;
    r[0].used = setup_round(r[0].jb, workers, 0, it, s, from, to, &next);
    start_round(&r[0]);
    join_round(&r[0]);
    int rc = 0, cur = 0;
    while (base < it->n) {
        splice_round *later = &r[cur ^ 1];
        base = next;
        later->used = base < it->n ? setup_round(later->jb, workers, base, it, s, from, to, &next) : 0;
        start_round(later);
        if (rc == 0)
            rc = write_round(&r[cur], f, e);
        if (rc == 0 && it->written && r[cur].used)
            it->written(it->ctx, r[cur].jb[r[cur].used - 1].b);
        join_round(later);
        cur ^= 1;
    }
    for (size_t w = 0; w < 2 * workers; w++) {
        pf_splice_free(&jb[w].sp);
        free(jb[w].out);
    }
    free(jb);
    free(r);
    return rc;
}
