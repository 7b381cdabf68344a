/* trace_window.c - the window through which the parser reads a trace's text: the whole mapped file, a slide over growing gzip text, or a buffer refilled from a stream; it owns the reader, so the loader talks to the window alone. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "profana/mem.h"
#include "trace_reader.h"
#include "trace_window.h"

enum { WINDOW_READ = 256 << 10 };

/* The unfilled end of the buffer is poisoned (see PF_ASAN). */
#ifdef PF_ASAN
#include <sanitizer/asan_interface.h>
static void window_guard(const pf_window *w, int on)
{
    if (on)
        ASAN_POISON_MEMORY_REGION(w->buf + w->len, w->cap - w->len);
    else
        ASAN_UNPOISON_MEMORY_REGION(w->buf, w->cap);
}
#else
static void window_guard(const pf_window *w, int on)
{
    (void)w;
    (void)on;
}
#endif

int pf_window_init(pf_window *w, pf_reader *r, int64_t at)
{
    assert(w != NULL && r != NULL);
    assert(at >= 0);
    memset(w, 0, sizeof *w);
    w->r = r;
    w->done_step = PF_WINDOW_DONE_STEP;
    w->size = pf_reader_size(r);
    w->seekable = pf_reader_seekable(r);
    const char *map;
    if (pf_reader_mapping(r, &map, &w->len)) {
        w->buf = (char *)map; /* read-only: a mapped window is never refilled */
        w->cap = w->len;
        w->eof = w->mapped = 1;
        return 0;
    }
    w->base = at;
    if (pf_reader_growing(r, &w->growing, &w->growing_cap)) {
        w->buf = (char *)w->growing + at;
        return 0;
    }
    w->cap = WINDOW_READ;
    w->buf = malloc(w->cap);
    if (!w->buf)
        return -1;
    window_guard(w, 1);
    return 0;
}

int pf_window_open(pf_window *w, const char *path, pf_error *err)
{
    assert(w != NULL && path != NULL && err != NULL);
    memset(w, 0, sizeof *w);
    w->size = -1;
    pf_reader *r;
    if (pf_reader_open(path, &r, err))
        return -1;
    int rc = pf_window_init(w, r, 0);
    w->r = r; /* set also when the buffer could not be had: pf_window_free closes it */
    w->owns = 1;
    w->releases = 1; /* growing text: this window is the only reader but while the workers run */
    return rc ? pf_fail(err, "%s: out of memory", path) : 0;
}

int pf_window_share(pf_window *w, const pf_window *of)
{
    assert(w != NULL && of != NULL && of->r != NULL);
    return pf_window_init(w, of->r, 0);
}

int64_t pf_window_progress(const pf_window *w)
{
    assert(w != NULL && w->r != NULL);
    return pf_reader_progress(w->r);
}

void pf_window_parsers(pf_window *w, int delta)
{
    assert(w != NULL && w->growing != NULL);
    pf_reader_consumers(w->r, delta);
}

void pf_window_release(pf_window *w, int64_t upto)
{
    assert(w != NULL && w->growing != NULL);
    pf_reader_release(w->r, upto);
}

int pf_window_drain(pf_window *w, pf_window_end *end, pf_error *err)
{
    assert(w != NULL && w->r != NULL && end != NULL && err != NULL);
    int rc = w->seekable ? 0 : pf_reader_drain(w->r, err);
    end->gz_cut = pf_reader_gz_cut(w->r);
    end->inflate_secs = pf_reader_inflate_secs(w->r);
    return rc;
}

int64_t pf_window_done_step(size_t threads)
{
    assert(threads >= 1);
    int64_t most = INT64_C(1) << 20, step = (INT64_C(2) << 20) / (int64_t)threads;
    return step > most ? most : step < PF_WINDOW_DONE_STEP ? PF_WINDOW_DONE_STEP : step;
}

void pf_window_seek(pf_window *w, int64_t at)
{
    assert(w != NULL);
    assert(at >= 0);
    if (w->mapped)
        return;
    w->base = at;
    w->len = 0;
    w->eof = 0;
    if (w->growing) {
        w->buf = (char *)w->growing + at;
        return;
    }
    window_guard(w, 0);
    window_guard(w, 1);
}

/* Room for the next read: an element that fills the whole buffer doubles it, so a huge
 * event is re-scanned a logarithmic number of times, not once per read. */
static int window_room(pf_window *w, size_t keep, pf_error *err)
{
    assert(w->len <= w->cap); /* keep: what the caller dropped before (w->len counts the rest) */
    size_t cap = w->cap;
    if (keep == 0 && w->len == w->cap)
        cap *= 2;
    else if (w->cap - w->len < WINDOW_READ / 4)
        cap = w->len + WINDOW_READ;
    if (cap == w->cap)
        return 0;
    char *nb = realloc(w->buf, cap);
    if (!nb)
        return pf_fail(err, "%s: out of memory (an event of %zu bytes)", pf_reader_name(w->r), w->len);
    w->buf = nb;
    w->cap = cap;
    return 0;
}

static int window_fill(pf_window *w, size_t keep, pf_error *err);

/* Growing text: the window slides over it and takes in whatever is inflated by now. */
static int window_grow(pf_window *w, size_t keep, pf_error *err)
{
    assert(w->growing != NULL);
    assert(keep <= w->len);
    w->base += (int64_t)keep;
    w->buf += keep;
    w->len -= keep;
    if (w->releases)
        pf_reader_release(w->r, w->base);
    if (w->eof)
        return 0;
    long n = pf_reader_wait(w->r, w->base + (int64_t)w->len, err);
    if (n < 0)
        return -1;
    w->eof = n == 0;
    w->len += (size_t)n;
    return 0;
}

int pf_window_more(pf_window *w, size_t keep, pf_error *err)
{
    assert(w != NULL && err != NULL);
    assert(keep <= w->len);
    if (w->mapped)
        return 0;
    if (w->growing)
        return window_grow(w, keep, err);
    window_guard(w, 0);
    int rc = window_fill(w, keep, err);
    window_guard(w, 1);
    return rc;
}

static int window_fill(pf_window *w, size_t keep, pf_error *err)
{
    assert(!w->mapped && !w->growing);
    assert(keep <= w->len && w->len <= w->cap);
    size_t rest = w->len - keep;
    if (keep) {
        memmove(w->buf, w->buf + keep, rest);
        w->base += (int64_t)keep;
        w->len = rest;
    }
    if (w->eof)
        return 0;
    if (window_room(w, keep, err))
        return -1;
    size_t want = w->len + WINDOW_READ < w->cap ? w->len + WINDOW_READ : w->cap;
    while (w->len < want) {
        long n = pf_reader_read(w->r, w->buf + w->len, want - w->len, w->base + (int64_t)w->len, err);
        if (n < 0)
            return -1;
        if (n == 0) {
            w->eof = 1;
            break;
        }
        w->len += (size_t)n;
    }
    return 0;
}

void pf_window_free(pf_window *w)
{
    assert(w != NULL);
    if (!w->mapped && !w->growing && w->buf) {
        window_guard(w, 0);
        free(w->buf);
    }
    w->buf = NULL;
    if (w->owns) {
        pf_reader_close(w->r);
        w->r = NULL;
        w->owns = 0;
    }
}

void pf_window_done(pf_window *w, int64_t from, int64_t upto)
{
    assert(w != NULL);
    assert(from >= 0);
    if (w->growing && w->releases)
        pf_reader_release(w->r, upto);
    if (!w->mapped || upto <= from)
        return;
    /* From the page that holds from: its part before from was done by the last call, which
     * kept that page for its part after (a page a step stayed resident: 4 MB of a 1 GB trace
     * at 1 MB steps). Pages another thread still reads are read from the file again. */
    int64_t page = (int64_t)sysconf(_SC_PAGESIZE);
    pf_pages_drop(w->buf + from / page * page, w->buf + upto);
    pf_reader_count(w->r, (size_t)(upto - from));
}
