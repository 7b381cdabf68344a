/* trace_source.c - gets the whole text of a trace: a mapped regular file, or what a reader (trace_reader.c) gives of standard input, a pipe or gzip, copied whole. */
#include "profana/trace.h"
#include "profana/gzout.h"
#include "profana/mem.h"
#include "trace_reader.h"

#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int map_file(int fd, const char *path, size_t size, char **buf, pf_error *err)
{
    void *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED)
        return pf_fail(err, "%s: cannot map file: %s", path, strerror(errno));
    madvise(p, size, MADV_SEQUENTIAL);
    *buf = p;
    return 0;
}

/* A growing copy of the text: doubling, as the whole text is kept. */
typedef struct text_buf {
    char *b;
    size_t len, cap;
} text_buf;

/* Room for at least want more bytes; -1 when memory runs out. */
static int text_room(text_buf *t, size_t want)
{
    if (t->cap - t->len >= want)
        return 0;
    size_t cap = t->cap ? t->cap : 1 << 20;
    while (cap - t->len < want)
        cap *= 2;
    char *nb = realloc(t->b, cap);
    if (!nb)
        return -1;
    t->b = nb;
    t->cap = cap;
    return 0;
}

/* A reader's text inflated into the growing mapping: copied out as it comes, each segment
 * handed back once copied, so that only the copy grows. */
static long copy_growing(pf_reader *r, const char *text, text_buf *t, pf_error *err)
{
    long k;
    while ((k = pf_reader_wait(r, (int64_t)t->len, err)) > 0) {
        if (text_room(t, (size_t)k))
            return pf_fail(err, "%s: out of memory", pf_reader_name(r));
        memcpy(t->b + t->len, text + t->len, (size_t)k);
        t->len += (size_t)k;
        pf_reader_release(r, (int64_t)t->len);
    }
    return k;
}

/* Any other reader's text (a stream, or gzip through the reader's ring), read in order. */
static long copy_stream(pf_reader *r, text_buf *t, pf_error *err)
{
    long k;
    do {
        if (text_room(t, 1 << 16))
            return pf_fail(err, "%s: out of memory", pf_reader_name(r));
        k = pf_reader_read(r, t->b + t->len, t->cap - t->len, (int64_t)t->len, err);
        if (k > 0)
            t->len += (size_t)k;
    } while (k > 0);
    return k;
}

/* The whole text of path through a reader (trace_reader.c): standard input, a pipe, an
 * empty file, or gzip, inflated with the loader's own decompression (its messages and
 * compressed offsets). */
static int read_through_reader(const char *path, char **buf, size_t *len, pf_error *err)
{
    pf_reader *r;
    if (pf_reader_open(path, &r, err))
        return -1;
    text_buf t = {0};
    const char *text;
    long rc = pf_reader_growing(r, &text, NULL) ? copy_growing(r, text, &t, err) : copy_stream(r, &t, err);
    int64_t cut = rc < 0 ? -1 : pf_reader_gz_cut(r); /* rewriting needs the whole text */
    if (cut >= 0)
        rc = pf_fail(err, "%s: compressed byte %lld: gzip data is cut off", pf_reader_name(r), (long long)cut);
    pf_reader_close(r);
    if (rc < 0) {
        free(t.b);
        return -1;
    }
    if (!t.b && !(t.b = malloc(1)))
        return pf_fail(err, "%s: out of memory", path);
    *buf = t.b;
    *len = t.len;
    return 0;
}

/* Files up to this size are read into memory rather than mapped: a map, its advice and its
 * unmapping cost three system calls where one read does, which for --ranks over 10,000
 * summaries of 5 kB was most of the system time (docs/performance.md). */
enum { SMALL_FILE = 256 * 1024 };

/* The *len bytes of the small regular file fd into a fresh buffer (*buf; one byte more for an
 * empty result). A file that shrank meanwhile keeps what was read. */
static int read_small(int fd, const char *path, char **buf, size_t *len, pf_error *err)
{
    char *b = malloc(*len ? *len : 1);
    if (!b)
        return pf_fail(err, "%s: out of memory", path);
    size_t got = 0;
    while (got < *len) {
        ssize_t k = pread(fd, b + got, *len - got, (off_t)got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            int e = errno;
            free(b);
            return pf_fail(err, "%s: read error: %s", path, strerror(e));
        }
        if (k == 0)
            break;
        got += (size_t)k;
    }
    *buf = b;
    *len = got;
    return 0;
}

/* A regular file with bytes is mapped (*mapped = 1), unless it holds gzip or is small (read,
 * *mapped = 0); anything else (*mapped = 0) goes through a reader. */
static int read_source(const char *path, char **buf, size_t *len, int *mapped, pf_error *err)
{
    if (strcmp(path, "-") == 0)
        return read_through_reader(path, buf, len, err);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return pf_fail(err, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return pf_fail(err, "%s: cannot stat: %s", path, strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return pf_fail(err, "%s: is a directory, not a trace file", path);
    }
    if (!S_ISREG(st.st_mode) || st.st_size == 0) {
        close(fd);
        return read_through_reader(path, buf, len, err);
    }
    *len = (size_t)st.st_size;
    if (st.st_size <= SMALL_FILE) {
        int rc = read_small(fd, path, buf, len, err);
        close(fd);
        if (rc)
            return -1;
        if (!pf_is_gzip(*buf, *len))
            return 0;
        free(*buf);
        *buf = NULL;
        *len = 0;
        return read_through_reader(path, buf, len, err);
    }
    int rc = map_file(fd, path, *len, buf, err);
    close(fd);
    if (rc)
        return -1;
    if (!pf_is_gzip(*buf, *len)) {
        *mapped = 1;
        return 0;
    }
    munmap(*buf, *len);
    *buf = NULL;
    *len = 0;
    return read_through_reader(path, buf, len, err);
}

int pf_source_read(const char *path, char **buf, size_t *len, int *mapped, pf_error *err)
{
    assert(path != NULL && buf != NULL && len != NULL && mapped != NULL && err != NULL);
    *mapped = 0;
    *buf = NULL; /* what a caller frees after a failure */
    *len = 0;
    return read_source(path, buf, len, mapped, err);
}

void pf_source_done(const char *buf, size_t len, int mapped, size_t upto)
{
    assert(buf != NULL || len == 0);
    if (mapped)
        pf_pages_drop(buf, buf + (upto < len ? upto : len));
}

int pf_source_changed(const char *path, size_t len, pf_error *err)
{
    assert(path != NULL && err != NULL);
    struct stat st;
    if (strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size >= len)
        return 0;
    pf_fail(err, "%s: byte %lld: the file changed (it shrank) while being read", path, (long long)st.st_size);
    return 1;
}

void pf_source_release(char *buf, size_t len, int mapped)
{
    if (mapped)
        munmap(buf, len);
    else
        free(buf);
}

long pf_source_head(const char *path, char *buf, size_t cap, pf_error *err)
{
    assert(path != NULL && buf != NULL && err != NULL);
    /* a plain regular file: its first bytes read directly, without the reader's mapping */
    if (strcmp(path, "-") != 0) {
        int fd = open(path, O_RDONLY);
        struct stat st;
        if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
            ssize_t k = pread(fd, buf, cap, 0);
            if (k >= 0 && !pf_is_gzip(buf, (size_t)k)) {
                close(fd);
                return (long)k;
            }
        }
        if (fd >= 0)
            close(fd);
    }
    pf_reader *r;
    if (pf_reader_open(path, &r, err))
        return -1;
    const char *text;
    long got = 0, k = 0;
    if (pf_reader_growing(r, &text, NULL)) {
        while (got < (long)cap && (k = pf_reader_wait(r, got, err)) > 0) {
            size_t take = (size_t)k < cap - (size_t)got ? (size_t)k : cap - (size_t)got;
            memcpy(buf + got, text + got, take);
            got += (long)take;
        }
    } else {
        while (got < (long)cap && (k = pf_reader_read(r, buf + got, cap - (size_t)got, got, err)) > 0)
            got += k;
    }
    pf_reader_close(r);
    return k < 0 ? -1 : got;
}
