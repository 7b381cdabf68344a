/* trace_reader.c - reads a trace's text piece by piece: a plain file at any offset (for parallel parsing), or a stream; gzip is inflated on its own thread. */
#define _GNU_SOURCE /* F_SETPIPE_SZ */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "trace_internal.h"

/* gzip output travels in a few large blocks: enough to keep both threads busy, little memory. */
enum { GZ_BLOCK = 128 << 10, GZ_BLOCKS = 4, GZ_IN = 64 << 10, SNIFF = 1 << 16 };

typedef struct gz_block {
    char *data;
    size_t len, at;
} gz_block;

/* The inflating thread and the ring of blocks it fills. */
typedef struct gz_pipe {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    gz_block ring[GZ_BLOCKS];
    size_t head, count;        /* blocks ready for the parser, from head on */
    int done, failed, stop;
    int started;               /* the thread runs (and must be joined) */
    pf_error err;
} gz_pipe;

struct pf_reader {
    const char *name;          /* for messages: the path, or "<stdin>" */
    int fd, own_fd;
    int seekable;
    int64_t size;
    atomic_llong progress;
    int64_t pos;               /* a stream: offset of the next byte of text */
    const char *map;           /* a plain regular file, mapped whole; NULL otherwise */
    char *pending;             /* a stream: bytes read while sniffing, delivered first */
    size_t pending_len, pending_at;
    gz_pipe *gz;
};

static void count_progress(pf_reader *r, size_t n)
{
    atomic_fetch_add_explicit(&r->progress, (long long)n, memory_order_relaxed);
}

/* read(2) that retries interrupted calls; -1 with err set on failure. */
static long read_some(pf_reader *r, int fd, char *buf, size_t n, pf_error *err)
{
    for (;;) {
        ssize_t k = read(fd, buf, n);
        if (k >= 0)
            return (long)k;
        if (errno != EINTR)
            return pf_fail(err, "%s: read error: %s", r->name, strerror(errno));
    }
}

/* ---- gzip: the inflating thread ---- */

/* Waits for a free block; NULL when the parser asked to stop. */
static gz_block *gz_free_block(gz_pipe *g)
{
    pthread_mutex_lock(&g->lock);
    while (g->count == GZ_BLOCKS && !g->stop)
        pthread_cond_wait(&g->changed, &g->lock);
    gz_block *b = g->stop ? NULL : &g->ring[(g->head + g->count) % GZ_BLOCKS];
    pthread_mutex_unlock(&g->lock);
    if (b) {
        b->len = 0;
        b->at = 0;
    }
    return b;
}

static void gz_publish(gz_pipe *g)
{
    pthread_mutex_lock(&g->lock);
    g->count++;
    pthread_cond_broadcast(&g->changed);
    pthread_mutex_unlock(&g->lock);
}

static void gz_finish(gz_pipe *g, int failed)
{
    pthread_mutex_lock(&g->lock);
    g->done = 1;
    g->failed = failed;
    pthread_cond_broadcast(&g->changed);
    pthread_mutex_unlock(&g->lock);
}

/* Next compressed input: the sniffed bytes, then the file. 0 at its end, -1 on error. */
static long gz_input(pf_reader *r, unsigned char *buf, pf_error *err)
{
    if (r->pending_at < r->pending_len) {
        size_t n = r->pending_len - r->pending_at;
        memcpy(buf, r->pending + r->pending_at, n);
        r->pending_at = r->pending_len;
        return (long)n;
    }
    long n = read_some(r, r->fd, (char *)buf, GZ_IN, err);
    if (n > 0)
        count_progress(r, (size_t)n);
    return n;
}

/* Inflates member after member, as gunzip does, with the messages and compressed offsets
 * the whole-buffer decompression gives. Returns 0 at the end of the input, -1 with err. */
static int gz_inflate(pf_reader *r, z_stream *z, unsigned char *in, pf_error *err)
{
    gz_pipe *g = r->gz;
    int64_t in_base = 0;       /* compressed offset of in[0] */
    int ended = 0, in_eof = 0;
    gz_block *b = gz_free_block(g);
    while (b) {
        if (z->avail_in == 0 && !in_eof) {
            in_base += z->next_in ? (int64_t)(z->next_in - in) : 0;
            long n = gz_input(r, in, err);
            if (n < 0)
                return -1;
            in_eof = n == 0;
            z->next_in = in;
            z->avail_in = (uInt)n;
        }
        int64_t at = in_base + (int64_t)(z->next_in - in);
        if (z->avail_in == 0 && in_eof) {
            if (b->len)
                gz_publish(g);
            return ended ? 0 : pf_fail(err, "%s: compressed byte %lld: gzip data is cut off", r->name, (long long)at);
        }
        if (ended && inflateReset(z) == Z_OK)
            ended = 0; /* another gzip member follows */
        z->next_out = (unsigned char *)b->data + b->len;
        z->avail_out = (uInt)(GZ_BLOCK - b->len);
        int rc = inflate(z, Z_NO_FLUSH);
        b->len = GZ_BLOCK - z->avail_out;
        if (rc == Z_MEM_ERROR)
            return pf_fail(err, "%s: out of memory while decompressing", r->name);
        if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
            return pf_fail(err, "%s: compressed byte %lld: corrupt or truncated gzip data", r->name,
                           (long long)(in_base + (z->next_in - in)));
        ended = rc == Z_STREAM_END;
        if (b->len == GZ_BLOCK) {
            gz_publish(g);
            b = gz_free_block(g);
        }
    }
    return 0; /* the parser stopped listening */
}

static void *gz_main(void *arg)
{
    pf_reader *r = arg;
    gz_pipe *g = r->gz;
    z_stream z;
    memset(&z, 0, sizeof z);
    unsigned char *in = malloc(GZ_IN > SNIFF ? GZ_IN : SNIFF);
    int rc;
    if (!in || inflateInit2(&z, 15 + 32) != Z_OK)
        rc = pf_fail(&g->err, "%s: cannot start gzip decompression", r->name);
    else
        rc = gz_inflate(r, &z, in, &g->err);
    inflateEnd(&z);
    free(in);
    gz_finish(g, rc != 0);
    return NULL;
}

static int gz_start(pf_reader *r, pf_error *err)
{
    gz_pipe *g = calloc(1, sizeof *g);
    if (!g)
        return pf_fail(err, "%s: out of memory", r->name);
    r->gz = g;
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->changed, NULL);
    for (int i = 0; i < GZ_BLOCKS; i++)
        if (!(g->ring[i].data = malloc(GZ_BLOCK)))
            return pf_fail(err, "%s: out of memory", r->name);
    if (pthread_create(&g->thread, NULL, gz_main, r) != 0)
        return pf_fail(err, "%s: cannot start the decompression thread", r->name);
    g->started = 1;
    return 0;
}

/* Copies the next inflated bytes; 0 at the end, -1 with the inflater's error. */
static long gz_read(pf_reader *r, char *buf, size_t n, pf_error *err)
{
    gz_pipe *g = r->gz;
    pthread_mutex_lock(&g->lock);
    while (g->count == 0 && !g->done)
        pthread_cond_wait(&g->changed, &g->lock);
    long got = 0;
    if (g->count > 0) {
        gz_block *b = &g->ring[g->head];
        size_t k = b->len - b->at < n ? b->len - b->at : n;
        pthread_mutex_unlock(&g->lock); /* the block is ours until it is released below */
        memcpy(buf, b->data + b->at, k);
        b->at += k;
        got = (long)k;
        pthread_mutex_lock(&g->lock);
        if (b->at == b->len) {
            g->head = (g->head + 1) % GZ_BLOCKS;
            g->count--;
            pthread_cond_broadcast(&g->changed);
        }
    } else if (g->failed) {
        *err = g->err;
        got = -1;
    }
    pthread_mutex_unlock(&g->lock);
    return got;
}

/* ---- opening ---- */

static int is_gzip(const char *b, size_t n)
{
    return n >= 2 && (unsigned char)b[0] == 0x1f && (unsigned char)b[1] == 0x8b;
}

/* A stream's first bytes tell gzip from text; they are delivered before the rest. A pipe
 * gets a larger buffer: fewer wake-ups of reader and writer per megabyte. */
static int sniff_stream(pf_reader *r, pf_error *err)
{
#ifdef F_SETPIPE_SZ
    fcntl(r->fd, F_SETPIPE_SZ, 1 << 20);
#endif
    if (!(r->pending = malloc(SNIFF)))
        return pf_fail(err, "%s: out of memory", r->name);
    while (r->pending_len < 2) {
        long n = read_some(r, r->fd, r->pending + r->pending_len, SNIFF - r->pending_len, err);
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        r->pending_len += (size_t)n;
    }
    if (!is_gzip(r->pending, r->pending_len)) {
        count_progress(r, r->pending_len);
        return 0;
    }
    count_progress(r, r->pending_len);
    return gz_start(r, err);
}

/* A regular file is read in place at any offset (mapped: no copy), unless it holds gzip. */
static int sniff_file(pf_reader *r, pf_error *err)
{
    char head[2];
    ssize_t n = pread(r->fd, head, 2, 0);
    if (n < 0)
        return pf_fail(err, "%s: read error: %s", r->name, strerror(errno));
    if (is_gzip(head, (size_t)n))
        return gz_start(r, err);
    r->seekable = 1;
    posix_fadvise(r->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#ifndef PF_ASAN
    void *m = mmap(NULL, (size_t)r->size, PROT_READ, MAP_PRIVATE, r->fd, 0);
    if (m != MAP_FAILED) {
        madvise(m, (size_t)r->size, MADV_SEQUENTIAL);
        r->map = m;
    }
#endif
    return 0;
}

int pf_reader_open(const char *path, pf_reader **out, pf_error *err)
{
    *out = NULL;
    pf_reader *r = calloc(1, sizeof *r);
    if (!r)
        return pf_fail(err, "%s: out of memory", path);
    atomic_init(&r->progress, 0);
    r->size = -1;
    int is_stdin = strcmp(path, "-") == 0;
    r->name = is_stdin ? "<stdin>" : path;
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
    *text = r->map;
    *len = r->map ? (size_t)r->size : 0;
    return r->map != NULL;
}

void pf_reader_count(pf_reader *r, size_t n)
{
    count_progress(r, n);
}

const char *pf_reader_name(const pf_reader *r)
{
    return r->name;
}

int pf_reader_seekable(const pf_reader *r)
{
    return r->seekable;
}

int64_t pf_reader_size(const pf_reader *r)
{
    return r->size;
}

int64_t pf_reader_progress(const pf_reader *r)
{
    return atomic_load_explicit(&r->progress, memory_order_relaxed);
}

static long pread_some(pf_reader *r, char *buf, size_t n, int64_t off, pf_error *err)
{
    for (;;) {
        ssize_t k = pread(r->fd, buf, n, (off_t)off);
        if (k >= 0) {
            count_progress(r, (size_t)k);
            return (long)k;
        }
        if (errno != EINTR)
            return pf_fail(err, "%s: read error: %s", r->name, strerror(errno));
    }
}

static long stream_read(pf_reader *r, char *buf, size_t n, pf_error *err)
{
    if (r->gz)
        return gz_read(r, buf, n, err);
    if (r->pending_at < r->pending_len) {
        size_t k = r->pending_len - r->pending_at < n ? r->pending_len - r->pending_at : n;
        memcpy(buf, r->pending + r->pending_at, k);
        r->pending_at += k;
        return (long)k;
    }
    long k = read_some(r, r->fd, buf, n, err);
    if (k > 0)
        count_progress(r, (size_t)k);
    return k;
}

long pf_reader_read(pf_reader *r, char *buf, size_t n, int64_t off, pf_error *err)
{
    if (r->seekable)
        return pread_some(r, buf, n, off, err);
    if (off != r->pos)
        return pf_fail(err, "%s: internal error: a stream read out of order", r->name);
    long k = stream_read(r, buf, n, err);
    if (k > 0)
        r->pos += k;
    return k;
}

int pf_reader_drain(pf_reader *r, pf_error *err)
{
    if (!r->gz)
        return 0;
    char buf[1 << 14];
    long k;
    while ((k = stream_read(r, buf, sizeof buf, err)) > 0)
        ;
    return k < 0 ? -1 : 0;
}

void pf_reader_close(pf_reader *r)
{
    if (!r)
        return;
    gz_pipe *g = r->gz;
    if (g) {
        if (g->started) {
            pthread_mutex_lock(&g->lock);
            g->stop = 1;
            pthread_cond_broadcast(&g->changed);
            pthread_mutex_unlock(&g->lock);
            pthread_join(g->thread, NULL);
        }
        pthread_mutex_destroy(&g->lock);
        pthread_cond_destroy(&g->changed);
        for (int i = 0; i < GZ_BLOCKS; i++)
            free(g->ring[i].data);
        free(g);
    }
    if (r->map)
        munmap((void *)r->map, (size_t)r->size);
    if (r->own_fd)
        close(r->fd);
    free(r->pending);
    free(r);
}
