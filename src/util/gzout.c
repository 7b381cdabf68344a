/* gzout.c - gzip-compresses a stdio stream into another (fopencookie and zlib's deflate), so that every writer of an output file can write a .gz unchanged. */
#define _GNU_SOURCE /* fopencookie */
#include "profana/gzout.h"

#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <zlib.h>

enum { GZ_OUT_CHUNK = 1 << 16 };

typedef struct gz_cookie {
    FILE *raw;
    z_stream z;
    int failed;                /* errno of a failed write into raw; 0 while none */
    unsigned char out[GZ_OUT_CHUNK];
} gz_cookie;

int pf_is_gzip(const void *buf, size_t n)
{
    assert(buf || n == 0);
    const unsigned char *b = buf;
    return n >= 2 && b[0] == 0x1f && b[1] == 0x8b;
}

int pf_gzout_wanted(const char *path)
{
    assert(path);
    size_t n = strlen(path);
    return n > 3 && strcasecmp(path + n - 3, ".gz") == 0;
}

/* Deflates what is in c->z with flush (Z_NO_FLUSH or Z_FINISH) into raw until the input is
 * used (or, finishing, the member is ended). 0, or -1 with errno set. */
static int pump(gz_cookie *c, int flush)
{
    for (;;) {
        c->z.next_out = c->out;
        c->z.avail_out = sizeof c->out;
        int rc = deflate(&c->z, flush);
        size_t n = sizeof c->out - c->z.avail_out;
        if (n && fwrite(c->out, 1, n, c->raw) != n) {
            c->failed = errno ? errno : EIO;
            errno = c->failed;
            return -1;
        }
        if (rc == Z_STREAM_ERROR) {
            errno = EIO;
            return -1;
        }
        if (flush == Z_FINISH ? rc == Z_STREAM_END : c->z.avail_in == 0 && c->z.avail_out != 0)
            return 0;
    }
}

static ssize_t gz_write(void *cookie, const char *buf, size_t n)
{
    gz_cookie *c = cookie;
    if (c->failed) {
        errno = c->failed;
        return -1;
    }
    /* avail_in is 32 bits: a very large write goes in pieces */
    for (size_t done = 0; done < n;) {
        size_t k = n - done < (1u << 30) ? n - done : (1u << 30);
        c->z.next_in = (unsigned char *)(uintptr_t)(buf + done);
        c->z.avail_in = (uInt)k;
        if (pump(c, Z_NO_FLUSH))
            return -1;
        done += k;
    }
    return (ssize_t)n;
}

static int gz_close(void *cookie)
{
    gz_cookie *c = cookie;
    int rc = c->failed ? -1 : pump(c, Z_FINISH);
    int e = errno;
    deflateEnd(&c->z);
    free(c);
    errno = e;
    return rc;
}

FILE *pf_gzout_open(FILE *raw)
{
    assert(raw);
    gz_cookie *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->raw = raw;
    /* 15 + 16: a gzip header and trailer around the deflate data, as gzip(1) writes */
    if (deflateInit2(&c->z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(c);
        return NULL;
    }
    cookie_io_functions_t io = {.read = NULL, .write = gz_write, .seek = NULL, .close = gz_close};
    FILE *f = fopencookie(c, "w", io);
    if (!f) {
        deflateEnd(&c->z);
        free(c);
    }
    return f;
}
