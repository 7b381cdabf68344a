/* trace_load.c - the loader: reads a trace's top level through a window (its one way to the input), has traceEvents parsed in chunks by several threads (or as a stream), and assembles the model. */
#include "profana/trace.h"

#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profana/cpus.h"
#include "profana/jscan.h"
#include "profana/progress.h"
#include "profana/parallel.h"
#include "profana/timings.h"
#include "trace_event.h"
#include "trace_chunk.h"
#include "trace_model.h"
#include "trace_vec.h"
#include "trace_window.h"

/* A chunk is at least this much text, so that small traces still split (and the splitting
 * is tested on them) while each chunk's fixed costs stay negligible; each thread takes
 * several chunks in turn, so uneven parts of a trace even out. Four, not eight: each chunk
 * holds a part-filled page of each of its arrays, and the 1 GB trace at -j 16 peaked 2.5 MB
 * lower with 64 chunks than with 128, its scan as fast (0.125-0.138 s against 0.125-0.131
 * on the 16-core host; two a thread was slower at -j 8). */
enum { CHUNK_MIN = 64 * 1024, CHUNKS_PER_JOB = 4 };

/* Growing gzip text is parsed in parts of this size: small enough to spread a trace of a few
 * megabytes over the threads and to keep little text in memory, large for fixed costs. */
#define GROW_PART (INT64_C(2) << 20)

/* Traces above this size (or of unknown size, once this much is read) show a progress bar. */
#define PROGRESS_FROM (INT64_C(100) * 1000 * 1000)

typedef struct loader {
    pf_trace *t;
    const char *path;
    pf_load_opts opts;
    pf_window w;               /* the top level, read in order; it owns the input */
    pf_scanner sc;             /* the main thread's parser */
    char *props;               /* a copy of the deviceProperties text */
    size_t props_len;
    pf_chunk **chunks;         /* traceEvents, in parts (NULL: a part never parsed) */
    size_t n_chunks;
    size_t *kept;              /* the chunks whose events count, in file order */
    size_t n_kept;
    size_t scan_threads;       /* the threads that parsed traceEvents (--timings) */
    pf_error *err;
} loader;

/* How the top level goes on after traceEvents. */
enum { GO_ON = 0, FINISHED = 1 };

/* ---- errors and the cut-off warning ---- */

static int syntax_error(loader *L, size_t pos, const char *what, int truncated)
{
    long long at = (long long)(L->w.base + (int64_t)pos);
    if (truncated)
        return pf_fail(L->err, "%s: byte %lld: trace is cut off (unexpected end of input)", L->path, at);
    return pf_fail(L->err, "%s: byte %lld: %s", L->path, at, what);
}

/* A trace cut off after its events began: the complete events are analysed, with one
 * warning; with --strict, the error that the cut always was. FINISHED or -1. */
static int cut_off(loader *L, int64_t at, int inside)
{
    if (L->opts.strict)
        return pf_fail(L->err, "%s: byte %lld: trace is cut off (unexpected end of input)", L->path, (long long)at);
    size_t n = 0;
    for (size_t i = 0; i < L->n_kept; i++)
        n += L->chunks[L->kept[i]]->n_events;
    if (pf_trace_warn(L->t, "byte %lld: trace is cut off %s; analysed the %zu complete events", (long long)at,
                      inside ? "inside an event" : "after the last complete event", n))
        return pf_fail(L->err, "%s: out of memory", L->path);
    return FINISHED;
}

/* A gzip input that ends inside a member (at, a compressed offset; -1 none) is read like a
 * cut-off .json: the events complete in its text are analysed, with cut_off's warning when
 * the text stops inside them, or a warning of its own when the text looks whole (only the
 * gzip trailer is missing, so its check was not made). An error, as before, when the text
 * does not hold the events' start, and with --strict. Takes and returns load_top's status. */
static int gz_cut_off(loader *L, int rc, int64_t at)
{
    if (at < 0)
        return rc;
    if (rc < 0 || L->opts.strict)
        return pf_fail(L->err, "%s: compressed byte %lld: gzip data is cut off", L->path, (long long)at);
    if (L->t->n_warnings == 0 &&
        pf_trace_warn(L->t, "compressed byte %lld: gzip data is cut off after a whole trace; its check (CRC) was not made",
                      (long long)at))
        return pf_fail(L->err, "%s: out of memory", L->path);
    return rc;
}

/* ---- traceEvents: one chunk, or several on several threads ---- */

static int scanner_init(pf_scanner *sc, pf_window *w, pf_strtab *strings, const char *path, int depth,
                        const pf_load_opts *opts)
{
    assert(sc != NULL && w != NULL && strings != NULL && path != NULL && opts != NULL);
    memset(sc, 0, sizeof *sc);
    sc->launch_names = opts->launches;
    sc->op_spans_only = opts->op_spans_only;
    sc->autograd = opts->autograd;
    sc->w = w;
    sc->path = path;
    sc->depth = depth;
    sc->strs = pf_strcache_new(strings);
    sc->shapes = pf_shapes_new();
    return sc->strs && sc->shapes ? 0 : -1;
}

static pf_chunk *new_chunk(loader *L, size_t k)
{
    pf_chunk *c = malloc(sizeof *c);
    if (c)
        pf_chunk_init(c);
    return L->chunks[k] = c;
}

static void scanner_free(pf_scanner *sc)
{
    pf_shapes_free(sc->shapes);
    pf_strcache_free(sc->strs);
    free(sc->key);
}

/* Room for n chunks, of which the first made are made now (the others when parsed). */
static int alloc_chunks(loader *L, size_t n, size_t made)
{
    L->chunks = calloc(n, sizeof *L->chunks);
    L->kept = calloc(n, sizeof *L->kept);
    if (!L->chunks || !L->kept)
        return pf_fail(L->err, "%s: out of memory", L->path);
    L->n_chunks = n;
    for (size_t i = 0; i < made; i++)
        if (!new_chunk(L, i))
            return pf_fail(L->err, "%s: out of memory", L->path);
    return 0;
}

/* A stream, or a trace too small to split: the main thread parses it all in its window. */
static int events_in_order(loader *L, size_t at)
{
    if (alloc_chunks(L, 1, 1))
        return -1;
    L->chunks[0]->start = L->w.base + (int64_t)at;
    pf_scan_events(&L->sc, L->chunks[0], at, PF_FROM_OPEN, INT64_MAX);
    L->kept[L->n_kept++] = 0;
    return 0;
}

/* The work of the parsing threads: chunk k covers the elements that start in
 * [lo(k), lo(k + 1)); chunk 0 starts right after '[', the others at a guessed event start.
 * A file's parts are fixed in advance; growing gzip text is cut into parts of `step` bytes,
 * handed out as it arrives. Either way, parts are checked in order as they finish, and over
 * growing text what lies before the last part kept goes back to the inflater. */
typedef struct plan {
    loader *L;
    int64_t *lo;               /* a file: the bounds of its parts (n_chunks + 1) */
    int64_t arr, step;         /* growing text: part k starts at arr + k * step */
    pthread_mutex_t lock;
    size_t next;               /* the next part to hand out */
    size_t front, cur;         /* the next part to check; the last one kept */
    unsigned char *done;       /* per part: parsed */
    int checking, stop, oom;
} plan;

typedef struct worker {
    plan *pl;
    pthread_t thread;
    int started;
    pf_window w;
    pf_scanner sc;
} worker;

static int64_t part_lo(const plan *pl, size_t k)
{
    return pl->lo ? pl->lo[k] : pl->arr + (int64_t)k * pl->step;
}

/* The next part to parse, made; NULL when there is none (or no memory for it). */
static pf_chunk *claim(plan *pl, size_t *k)
{
    pthread_mutex_lock(&pl->lock);
    int none = pl->stop || pl->next >= pl->L->n_chunks;
    *k = none ? 0 : pl->next++;
    pthread_mutex_unlock(&pl->lock);
    pf_chunk *c = none ? NULL : new_chunk(pl->L, *k);
    if (!none && !c) {
        pthread_mutex_lock(&pl->lock);
        pl->oom = pl->stop = 1; /* the check stops before this part: nothing after it counts */
        pthread_mutex_unlock(&pl->lock);
    }
    return c;
}

static void run_chunk(worker *wk, pf_chunk *c, size_t k)
{
    const plan *pl = wk->pl;
    int64_t start = part_lo(pl, k);
    if (k == 0) {
        pf_window_seek(&wk->w, start);
    } else if (pf_scan_find_start(&wk->w, start, part_lo(pl, k + 1), &start, &c->err) || start < 0) {
        c->start = start; /* -1: the text ended; PF_NO_START_HERE: it goes on past this part */
        c->end = PF_END_ERROR; /* never kept: the chunk before goes on through this part */
        return;
    }
    c->start = start;
    pf_scan_events(&wk->sc, c, (size_t)(start - wk->w.base), k == 0 ? PF_FROM_OPEN : PF_FROM_ELEMENT,
                   part_lo(pl, k + 1));
}

/* Chunk k began at a guess; it counts when the chunk kept before it (*cur) ended exactly
 * there. Otherwise its work is dropped and that chunk parses on through k's part with sc,
 * so the events and their order are those of one thread reading the whole array. */
static void check_chunk(loader *L, pf_scanner *sc, size_t *cur, size_t k, int64_t stop_at)
{
    pf_chunk *c = L->chunks[*cur], *next = L->chunks[k];
    if (k == 0 || (c->end == PF_END_STOPPED && next->start >= 0 && c->next == next->start)) {
        L->kept[L->n_kept++] = *cur = k;
        return;
    }
    pf_chunk_free(next);
    if (c->end != PF_END_STOPPED)
        return;
    pf_window_seek(sc->w, c->next);
    pf_scan_events(sc, c, (size_t)(c->next - sc->w->base), PF_FROM_ELEMENT, stop_at);
}

/* Part k is parsed: the thread that finds the part to check next parsed checks parts in
 * order for as long as they are ready; the others go on parsing. */
static void finish(worker *wk, size_t k)
{
    plan *pl = wk->pl;
    loader *L = pl->L;
    pthread_mutex_lock(&pl->lock);
    pl->done[k] = 1;
    if (L->chunks[k]->start == -1)
        pl->stop = 1; /* the text ended before this part: so it does before every later one */
    int mine = !pl->checking;
    pl->checking = 1;
    while (mine && pl->front < pl->next && pl->done[pl->front]) {
        size_t f = pl->front++;
        pthread_mutex_unlock(&pl->lock);
        check_chunk(L, &wk->sc, &pl->cur, f, part_lo(pl, f + 1));
        const pf_chunk *c = L->chunks[pl->cur];
        /* Parts still being parsed read from PF_SCAN_BACK before their bound on, which can
         * lie before the start of the part kept last (a long event spans several bounds). */
        int64_t low = part_lo(pl, f + 1) - PF_SCAN_BACK;
        if (!pl->lo)
            pf_window_release(&wk->w, c->start < low ? c->start : low);
        pthread_mutex_lock(&pl->lock);
        if (c->end != PF_END_STOPPED)
            pl->stop = 1; /* the array, or the text, ended in the part kept last */
    }
    if (mine)
        pl->checking = 0;
    pthread_mutex_unlock(&pl->lock);
}

static void *worker_main(void *arg)
{
    worker *wk = arg;
    size_t k;
    pf_chunk *c;
    while ((c = claim(wk->pl, &k))) {
        run_chunk(wk, c, k);
        finish(wk, k);
    }
    if (!wk->pl->lo)
        pf_window_parsers(&wk->w, -1);
    return NULL;
}

static int start_workers(loader *L, plan *pl, worker *wk, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        wk[i].pl = pl;
        if (pf_window_share(&wk[i].w, &L->w) ||
            scanner_init(&wk[i].sc, &wk[i].w, L->t->strings, L->path, L->sc.depth, &L->opts))
            return pf_fail(L->err, "%s: out of memory", L->path);
        wk[i].w.done_step = pf_window_done_step(n);
    }
    /* Worker 0 is this thread; a thread that cannot start leaves its chunks to the others. */
    if (!pl->lo)
        pf_window_parsers(&L->w, (int)n - 1);
    for (size_t i = 1; i < n; i++)
        if (!(wk[i].started = pthread_create(&wk[i].thread, NULL, worker_main, &wk[i]) == 0) && !pl->lo)
            pf_window_parsers(&L->w, -1);
    worker_main(&wk[0]);
    for (size_t i = 1; i < n; i++)
        if (wk[i].started)
            pthread_join(wk[i].thread, NULL);
    if (!pl->lo)
        pf_window_parsers(&L->w, 1); /* this thread reads on after the array */
    return pl->oom ? pf_fail(L->err, "%s: out of memory", L->path) : 0;
}

/* n parts (growing text: at most n) parsed by jobs threads; lo NULL for growing text. */
static int events_in_parallel(loader *L, int64_t *lo, int64_t arr, int64_t step, size_t n, size_t jobs)
{
    plan pl = {.L = L, .lo = lo, .arr = arr, .step = step};
    worker *wk = calloc(jobs, sizeof *wk);
    pl.done = calloc(n, 1);
    int rc = !wk || !pl.done ? pf_fail(L->err, "%s: out of memory", L->path) : alloc_chunks(L, n, 0);
    if (rc == 0) {
        pthread_mutex_init(&pl.lock, NULL);
        rc = start_workers(L, &pl, wk, jobs);
        pthread_mutex_destroy(&pl.lock);
    }
    for (size_t i = 0; wk && i < jobs; i++) {
        pf_window_free(&wk[i].w);
        scanner_free(&wk[i].sc);
    }
    free(wk);
    free(pl.done);
    return rc;
}

/* A file's parts: n of equal size from arr on. */
static int events_in_file(loader *L, int64_t arr, size_t n, size_t jobs)
{
    int64_t span = L->w.size - arr;
    int64_t *lo = malloc((n + 1) * sizeof *lo);
    if (!lo)
        return pf_fail(L->err, "%s: out of memory", L->path);
    for (size_t k = 0; k < n; k++)
        lo[k] = arr + (int64_t)((double)span * (double)k / (double)n);
    lo[n] = INT64_MAX;
    int rc = events_in_parallel(L, lo, arr, 0, n, jobs < n ? jobs : n);
    free(lo);
    return rc;
}

/* Growing gzip text of at most cap bytes: parts of GROW_PART bytes, as many as it can hold. */
static int events_in_growing(loader *L, int64_t arr, int64_t cap, size_t jobs)
{
    return events_in_parallel(L, NULL, arr, GROW_PART, (size_t)((cap - arr) / GROW_PART + 2), jobs);
}

static size_t job_count(const loader *L)
{
    return pf_parallel_workers(L->opts.jobs);
}

/* traceEvents' array at *p ('['): parses it and leaves *p after its ']'. bare: the array is
 * the whole trace, which the Trace Event Format lets end without ']'. */
static int load_events(loader *L, size_t *p, int bare)
{
    int64_t arr = L->w.base + (int64_t)*p + 1;
    size_t jobs = job_count(L), n = 1;
    int growing = L->w.growing != NULL;
    if (L->w.seekable && jobs > 1) {
        int64_t span = L->w.size - arr;
        n = span / CHUNK_MIN > (int64_t)(jobs * CHUNKS_PER_JOB) ? jobs * CHUNKS_PER_JOB : (size_t)(span / CHUNK_MIN);
    }
    L->sc.depth = bare ? 2 : 3;
    L->scan_threads = growing && jobs > 2 ? jobs - 1 : n >= 2 ? (jobs < n ? jobs : n) : 1;
    /* gzip: the inflating thread takes one of the jobs */
    int rc = growing && jobs > 2 ? events_in_growing(L, arr, L->w.growing_cap, jobs - 1)
             : n >= 2            ? events_in_file(L, arr, n, jobs)
                                 : events_in_order(L, *p + 1);
    if (rc)
        return -1;
    const pf_chunk *last = L->chunks[L->kept[L->n_kept - 1]];
    switch (last->end) {
    case PF_END_ARRAY:
        if (growing || last->next < L->w.base || last->next > L->w.base + (int64_t)L->w.len)
            pf_window_seek(&L->w, last->next);
        *p = (size_t)(last->next - L->w.base);
        return GO_ON;
    case PF_END_CUT:
        return bare && !last->cut_inside ? FINISHED : cut_off(L, last->cut_at, last->cut_inside);
    default:
        *L->err = last->err;
        return -1;
    }
}

/* ---- the top level, through the window ---- */

enum { TOP_OK, TOP_END, TOP_MORE, TOP_ERROR };

/* Skips whitespace, reading on as needed (nothing before *p is kept). */
static int top_ws(loader *L, size_t *p)
{
    for (;;) {
        *p = pf_json_ws(L->w.buf, L->w.len, *p);
        if (*p < L->w.len || L->w.eof)
            return 0;
        if (pf_window_more(&L->w, *p, L->err))
            return -1;
        *p = 0;
    }
}

/* An error at pos, or TOP_MORE when the window merely ended before the text did. */
static int top_fail(loader *L, size_t pos, const char *what, int *truncated)
{
    if (pos >= L->w.len && !L->w.eof)
        return TOP_MORE;
    *truncated = pos >= L->w.len;
    syntax_error(L, pos, what, *truncated);
    return TOP_ERROR;
}

/* Skips the value at *p (depth 2), reading on as needed. TOP_OK with *start where it began
 * (the window may have moved), or TOP_ERROR. */
static int top_value(loader *L, size_t *p, size_t *start, int *truncated)
{
    for (;;) {
        pf_jerr e;
        size_t q = *p;
        int r = pf_json_skip_at(L->w.buf, L->w.len, &q, 2, &e);
        r = r ? top_fail(L, e.pos, e.what, truncated) : q >= L->w.len && !L->w.eof ? TOP_MORE : TOP_OK;
        if (r == TOP_OK) {
            *start = *p;
            *p = q;
        }
        if (r != TOP_MORE)
            return r;
        if (pf_window_more(&L->w, *p, L->err))
            return TOP_ERROR;
        *p = 0;
    }
}

/* The separator, key and ':' of the next member of the top-level object, read as the
 * scanner's member iteration reads them: TOP_OK with the key in [*ks, *ke) and *p at the
 * value; TOP_END with *p past '}'; TOP_MORE; or TOP_ERROR. */
static int member_head(loader *L, size_t *p, int first, size_t *ks, size_t *ke, int *truncated)
{
    const char *s = L->w.buf;
    size_t len = L->w.len, q = pf_json_ws(s, len, *p);
    pf_jerr e;
    if (q < len && s[q] == '}') {
        *p = q + 1;
        return TOP_END;
    }
    if (!first) {
        if (q >= len || s[q] != ',')
            return top_fail(L, q, "expected ',' or '}'", truncated);
        q = pf_json_ws(s, len, q + 1);
        if (q < len && s[q] == '}')
            return top_fail(L, q, "trailing comma", truncated);
    }
    if (q >= len || s[q] != '"')
        return top_fail(L, q, "expected a string key", truncated);
    *ks = q + 1;
    if (pf_json_skip_at(s, len, &q, 2, &e))
        return top_fail(L, e.pos, e.what, truncated);
    *ke = q - 1;
    q = pf_json_ws(s, len, q);
    if (q >= len || s[q] != ':')
        return top_fail(L, q, "expected ':'", truncated);
    q = pf_json_ws(s, len, q + 1);
    if (q >= len)
        return top_fail(L, q, "unexpected end of input", truncated);
    *p = q;
    return TOP_OK;
}

static int key_is(const loader *L, size_t ks, size_t ke, const char *lit)
{
    size_t n = strlen(lit);
    return ke - ks == n && memcmp(L->w.buf + ks, lit, n) == 0;
}

/* distributedInfo.rank from the member's value s[at, end) (an object, already validated);
 * -1 when it has none that is a whole number from 0 to 2^24. */
static int dist_rank(const char *s, size_t at, size_t end)
{
    size_t q = at;
    pf_jmember d;
    pf_jerr e;
    int64_t r = -1;
    if (s[at] != '{' || pf_json_obj_begin(s, end, &q, &e))
        return -1;
    while (pf_json_obj_next(s, end, &q, &d, &e) == 1)
        if (pf_json_key_is(s, &d, "rank") && (pf_json_int(s, d.val_start, d.val_end, &r) || r < 0 || r > 1 << 24))
            r = -1;
    return (int)r;
}

/* One member's value at *p. GO_ON, FINISHED (cut off after the events) or -1. */
static int load_member(loader *L, size_t *p, size_t ks, size_t ke, int *have_events)
{
    int is_events = key_is(L, ks, ke, "traceEvents"), is_props = key_is(L, ks, ke, "deviceProperties");
    long long key_at = (long long)(L->w.base + (int64_t)ks);
    if (is_events && !*have_events && L->w.buf[*p] == '[') {
        *have_events = 1;
        return load_events(L, p, 0);
    }
    size_t vs;
    int truncated;
    if (top_value(L, p, &vs, &truncated) != TOP_OK)
        return truncated && *have_events ? cut_off(L, L->w.base + (int64_t)L->w.len, 0) : -1;
    if (is_events && *have_events)
        return pf_fail(L->err, "%s: byte %lld: traceEvents appears twice", L->path, key_at);
    if (is_events)
        return pf_fail(L->err, "%s: byte %lld: traceEvents is not an array", L->path,
                       (long long)(L->w.base + (int64_t)vs));
    if (key_is(L, ks, ke, "distributedInfo"))
        L->t->rank = dist_rank(L->w.buf, vs, *p);
    if (key_is(L, ks, ke, "host_name") && L->w.buf[vs] == '"') {
        /* the node this rank ran on (--ranks groups ranks by it); a repeated key: the last */
        free(L->t->host_name);
        if (!(L->t->host_name = pf_json_string(L->w.buf, vs, *p, NULL)))
            return pf_fail(L->err, "%s: out of memory", L->path);
    }
    if (is_props) {
        free(L->props);
        L->props_len = *p - vs;
        if (!(L->props = malloc(L->props_len)))
            return pf_fail(L->err, "%s: out of memory", L->path);
        memcpy(L->props, L->w.buf + vs, L->props_len);
    }
    return GO_ON;
}

static int load_object(loader *L, size_t p)
{
    int first = 1, have_events = 0;
    p++;
    for (;;) {
        size_t at = p, ks = 0, ke = 0;
        int truncated = 0, r = member_head(L, &p, first, &ks, &ke, &truncated);
        if (r == TOP_MORE) {
            if (pf_window_more(&L->w, at, L->err))
                return -1;
            p = 0;
            continue;
        }
        if (r == TOP_ERROR)
            return truncated && have_events ? cut_off(L, L->w.base + (int64_t)L->w.len, 0) : -1;
        if (r == TOP_END)
            break;
        first = 0;
        if ((r = load_member(L, &p, ks, ke, &have_events)) != GO_ON)
            return r;
    }
    if (top_ws(L, &p))
        return -1;
    if (p < L->w.len)
        return syntax_error(L, p, "unexpected data after the trace object", 0);
    if (!have_events)
        return pf_fail(L->err, "%s: byte %lld: no \"traceEvents\" array: not a Kineto/chrome trace", L->path,
                       (long long)(L->w.base + (int64_t)L->w.len));
    return FINISHED;
}

static int load_bare_array(loader *L, size_t p)
{
    int r = load_events(L, &p, 1);
    if (r != GO_ON)
        return r;
    if (top_ws(L, &p))
        return -1;
    if (p < L->w.len)
        return syntax_error(L, p, "unexpected data after the event array", 0);
    return FINISHED;
}

static int load_top(loader *L)
{
    if (pf_window_more(&L->w, 0, L->err))
        return -1;
    size_t p = 0;
    if (L->w.len >= 3 && memcmp(L->w.buf, "\xEF\xBB\xBF", 3) == 0)
        p = 3; /* a UTF-8 byte order mark: harmless, some editors write it */
    if (top_ws(L, &p))
        return -1;
    if (p >= L->w.len)
        return syntax_error(L, p, "empty file, expected a JSON trace object", 0);
    if (L->w.buf[p] == '{')
        return load_object(L, p);
    if (L->w.buf[p] == '[')
        return load_bare_array(L, p);
    return syntax_error(L, p, "expected '{' (a Kineto trace object) or '[' (an event array)", 0);
}

static int64_t poll_window(const void *w)
{
    return pf_window_progress(w);
}

static pf_progress *start_progress(const loader *L)
{
    int64_t size = L->w.size;
    if (!L->opts.progress || (size >= 0 && size < PROGRESS_FROM))
        return NULL;
    return pf_progress_start(size, size < 0 ? PROGRESS_FROM : 0, poll_window, &L->w);
}

/* Parses the whole input into L->t. A corrupt gzip stream outranks what the parser saw
 * before the corruption: the error is the one decompressing it whole would give. */
static int load(loader *L)
{
    if (scanner_init(&L->sc, &L->w, L->t->strings, L->path, 3, &L->opts))
        return pf_fail(L->err, "%s: out of memory", L->path);
    pf_progress *bar = start_progress(L);
    int rc = load_top(L);
    pf_window_end end;
    pf_error gz;
    if (pf_window_drain(&L->w, &end, &gz)) {
        *L->err = gz;
        rc = -1;
    }
    if (rc >= 0 || end.gz_cut >= 0)
        rc = gz_cut_off(L, rc, end.gz_cut);
    pf_progress_stop(bar);
    if (end.inflate_secs >= 0)
        pf_timings_add(L->opts.timings, "inflate", end.inflate_secs, 1, 1);
    pf_timings_lap(L->opts.timings, "scan", (int)(L->scan_threads ? L->scan_threads : 1));
    return rc < 0 ? -1
                  : pf_trace_assemble(L->t, L->chunks, L->kept, L->n_kept, L->props, L->props_len, &L->opts, L->err);
}

int pf_trace_load(const char *path, pf_trace **out, pf_error *err)
{
    assert(path != NULL && out != NULL && err != NULL);
    return pf_trace_load_opts(path, NULL, out, err);
}

static int load_with(const char *path, const pf_load_opts *opts, pf_trace **out, pf_error *err)
{
    *out = NULL;
    loader L = {.path = path, .err = err};
    if (opts)
        L.opts = *opts;
    if ((L.t = calloc(1, sizeof *L.t)) != NULL)
        L.t->rank = -1;
    if (!L.t || !(L.t->strings = pf_strtab_new())) {
        free(L.t);
        return pf_fail(err, "%s: out of memory", path);
    }
    L.t->path = path;
    int rc = pf_window_open(&L.w, path, err);
    pf_timings_lap(L.opts.timings, "read or map", 1);
    if (rc == 0)
        rc = load(&L);
    for (size_t i = 0; i < L.n_chunks; i++)
        if (L.chunks[i]) {
            pf_chunk_free(L.chunks[i]);
            free(L.chunks[i]);
        }
    free(L.chunks);
    free(L.kept);
    free(L.props);
    scanner_free(&L.sc);
    /* whatever the parse made of a file cut under it, the cause is the cut */
    if (rc && L.w.size > 0)
        pf_source_changed(path, (size_t)L.w.size, err);
    pf_window_free(&L.w); /* and the input with it */
    if (rc) {
        pf_trace_free(L.t);
        return -1;
    }
    *out = L.t;
    return 0;
}

/* Whether a failed load ran out of memory on several threads over a file that can be read
 * again: each thread's chunks and buffers cost memory one thread does not (about 1 MB a
 * part, 8 parts a thread), so under `ulimit -v` -j 8 failed where -j 1 worked. */
static int retry_on_one(const char *path, const pf_load_opts *opts, const pf_error *err)
{
    struct stat st;
    size_t n = strlen(err->msg), tail = strlen(": out of memory");
    return pf_parallel_workers(opts ? opts->jobs : 0) > 1 && n >= tail &&
           strcmp(err->msg + n - tail, ": out of memory") == 0 && strcmp(path, "-") != 0 && stat(path, &st) == 0 &&
           S_ISREG(st.st_mode);
}

int pf_trace_load_opts(const char *path, const pf_load_opts *opts, pf_trace **out, pf_error *err)
{
    assert(path != NULL && out != NULL && err != NULL); /* opts may be NULL: the defaults */
    if (load_with(path, opts, out, err) == 0)
        return 0;
    if (!retry_on_one(path, opts, err))
        return -1;
    /* the same parse on one thread: the same events, the same trace */
    pf_load_opts one = opts ? *opts : (pf_load_opts){0};
    one.jobs = 1;
    return load_with(path, &one, out, err);
}
