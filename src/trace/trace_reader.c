/* trace_reader.c - reads a trace's text piece by piece: a plain file at any offset (for parallel parsing), or a stream (standard input, a pipe); gzip is told by its first bytes and inflated by trace_gzip.c. */
#define _GNU_SOURCE /* F_SETPIPE_SZ */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profana/gzout.h"
#include "trace_gzip.h"
#include "trace_reader.h"

/* ---- opening ---- */

/* A stream's first bytes tell gzip from text; they are delivered before the rest. A pipe
 * gets a larger buffer: fewer wake-ups of reader and writer per megabyte. */
static int sniff_stream(pf_reader *r, pf_error *err)
{
#ifdef F_SETPIPE_SZ
    fcntl(r->fd, F_SETPIPE_SZ, 1 << 20);
#endif
    if (!(r->pending = malloc(PF_READER_SNIFF)))
        return pf_fail(err, "%s: out of memory", r->name);
    while (r->pending_len < 2) {
        long n = pf_reader_read_fd(r, r->fd, r->pending + r->pending_len, PF_READER_SNIFF - r->pending_len, err);
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        r->pending_len += (size_t)n;
    }
    if (!pf_is_gzip(r->pending, r->pending_len)) {
        pf_reader_add_progress(r, r->pending_len);
        return 0;
    }
    pf_reader_add_progress(r, r->pending_len);
    return pf_gz_start(r, err);
}

#ifndef PF_ASAN /* the sanitizer build reads files, never maps them */
/* Whether a mapping of size bytes leaves room for the rest: under an address-space limit
 * (`ulimit -v`) a file that takes more than a quarter of it is read through the ring of
 * small blocks instead, as standard input is, so that a file path never fails where the
 * same file on standard input works (the mapping itself succeeds, the model's arrays then
 * find no room). */
static int mapping_fits(int64_t size)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return 1;
    return (uint64_t)size <= (uint64_t)rl.rlim_cur / 4;
}
#endif

/* A regular file is read in place at any offset (mapped: no copy), unless it holds gzip. */
static int sniff_file(pf_reader *r, pf_error *err)
{
    char head[2];
    ssize_t n = pread(r->fd, head, 2, 0);
    if (n < 0)
        return pf_fail(err, "%s: read error: %s", r->name, strerror(errno));
    if (pf_is_gzip(head, (size_t)n))
        return pf_gz_start(r, err);
    r->seekable = 1;
    posix_fadvise(r->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#ifndef PF_ASAN
    void *m = mapping_fits(r->size) ? mmap(NULL, (size_t)r->size, PROT_READ, MAP_PRIVATE, r->fd, 0) : MAP_FAILED;
    if (m != MAP_FAILED) {
        madvise(m, (size_t)r->size, MADV_SEQUENTIAL);
        r->map = m;
    }
#endif
    return 0;
}

int pf_reader_open(const char *path, pf_reader **out, pf_error *err)
{
    assert(path != NULL && out != NULL && err != NULL);
    *out = NULL;
    pf_reader *r = calloc(1, sizeof *r);
    if (!r)
        return pf_fail(err, "%s: out of memory", path);
    atomic_init(&r->progress, 0);
    r->size = -1;
    int is_stdin = strcmp(path, "-") == 0;
    r->name = path; /* "-" for standard input, as the command line spells it in every message */
    r->fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY);
    r->own_fd = !is_stdin;
    if (r->fd < 0) {
        r->own_fd = 0;
        pf_fail(err, "%s: cannot open: %s", path, strerror(errno));
        pf_reader_close(r);
        return -1;
    }
    struct stat st;
    int rc;
    if (fstat(r->fd, &st) != 0)
        rc = pf_fail(err, "%s: cannot stat: %s", path, strerror(errno));
    else if (S_ISDIR(st.st_mode))
        rc = pf_fail(err, "%s: is a directory, not a trace file", path);
    else if (!is_stdin && S_ISREG(st.st_mode) && st.st_size > 0)
        rc = (r->size = st.st_size, sniff_file(r, err));
    else
        rc = (r->size = S_ISREG(st.st_mode) && st.st_size > 0 ? st.st_size : -1, sniff_stream(r, err));
    if (rc) {
        pf_reader_close(r);
        return -1;
    }
    *out = r;
    return 0;
}

/* ---- reading ---- */

int pf_reader_mapping(const pf_reader *r, const char **text, size_t *len)
{
    assert(r != NULL && text != NULL && len != NULL);
    *text = r->map;
    *len = r->map ? (size_t)r->size : 0;
    return r->map != NULL;
}

void pf_reader_count(pf_reader *r, size_t n)
{
    assert(r != NULL);
    pf_reader_add_progress(r, n);
}

const char *pf_reader_name(const pf_reader *r)
{
    assert(r != NULL);
    return r->name;
}

int pf_reader_seekable(const pf_reader *r)
{
    assert(r != NULL);
    return r->seekable;
}

int64_t pf_reader_size(const pf_reader *r)
{
    assert(r != NULL);
    return r->size;
}

int64_t pf_reader_progress(const pf_reader *r)
{
    assert(r != NULL);
    return atomic_load_explicit(&r->progress, memory_order_relaxed);
}

static long pread_some(pf_reader *r, char *buf, size_t n, int64_t off, pf_error *err)
{
    for (;;) {
        ssize_t k = pread(r->fd, buf, n, (off_t)off);
        /* the end comes before the size the file had when opened: another process cut it */
        if (k == 0 && n > 0 && r->size > 0 && off < r->size)
            return pf_fail(err, "%s: byte %lld: the file changed (it shrank) while being read", r->name,
                           (long long)off);
        if (k >= 0) {
            pf_reader_add_progress(r, (size_t)k);
            return (long)k;
        }
        if (errno != EINTR)
            return pf_fail(err, "%s: read error: %s", r->name, strerror(errno));
    }
}

static long stream_read(pf_reader *r, char *buf, size_t n, pf_error *err)
{
    if (r->gz)
        return pf_gz_read(r, buf, n, err);
    if (r->pending_at < r->pending_len) {
        size_t k = r->pending_len - r->pending_at < n ? r->pending_len - r->pending_at : n;
        memcpy(buf, r->pending + r->pending_at, k);
        r->pending_at += k;
        return (long)k;
    }
    long k = pf_reader_read_fd(r, r->fd, buf, n, err);
    if (k > 0)
        pf_reader_add_progress(r, (size_t)k);
    return k;
}

long pf_reader_read(pf_reader *r, char *buf, size_t n, int64_t off, pf_error *err)
{
    assert(r != NULL && buf != NULL && err != NULL);
    assert(off >= 0);
    if (r->seekable)
        return pread_some(r, buf, n, off, err);
    if (off != r->pos)
        return pf_fail(err, "%s: internal error: a stream read out of order", r->name);
    long k = stream_read(r, buf, n, err);
    if (k > 0)
        r->pos += k;
    return k;
}

void pf_reader_close(pf_reader *r)
{
    if (!r)
        return;
    pf_gz_close(r->gz);
    if (r->map)
        munmap((void *)r->map, (size_t)r->size);
    if (r->own_fd)
        close(r->fd);
    free(r->pending);
    free(r);
}
