/* trace_source.c - gets the bytes of a trace: a mapped regular file, or standard input read whole. */
#include "profana/trace.h"
#include "profana/mem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

static int read_all_fd(int fd, const char *path, char **buf, size_t *len, pf_error *err)
{
    size_t cap = 1 << 20, n = 0;
    char *b = malloc(cap);
    if (!b)
        return pf_fail(err, "%s: out of memory", path);
    for (;;) {
        if (n == cap) {
            char *nb = realloc(b, cap * 2);
            if (!nb) {
                free(b);
                return pf_fail(err, "%s: out of memory", path);
            }
            b = nb;
            cap *= 2;
        }
        ssize_t r = read(fd, b + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            free(b);
            return pf_fail(err, "%s: read error: %s", path, strerror(e));
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    *buf = b;
    *len = n;
    return 0;
}

static int map_file(int fd, const char *path, size_t size, char **buf, pf_error *err)
{
    void *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED)
        return pf_fail(err, "%s: cannot map file: %s", path, strerror(errno));
    madvise(p, size, MADV_SEQUENTIAL);
    *buf = p;
    return 0;
}

/* gzip output grows by doubling; gzread decompresses members back to back, as gunzip does. */
static int inflate_all(const char *in, size_t in_len, const char *path, char **buf, size_t *len, pf_error *err)
{
    z_stream z = {0};
    if (inflateInit2(&z, 15 + 32) != Z_OK)
        return pf_fail(err, "%s: cannot start gzip decompression", path);
    size_t cap = in_len * 4 + (1 << 20), n = 0;
    char *out = malloc(cap);
    int rc = out ? Z_OK : Z_MEM_ERROR;
    z.next_in = (unsigned char *)in;
    while (rc == Z_OK && z.next_in < (const unsigned char *)in + in_len) {
        if (n == cap) {
            char *nb = realloc(out, cap * 2);
            if (!nb) {
                rc = Z_MEM_ERROR;
                break;
            }
            out = nb;
            cap *= 2;
        }
        size_t in_left = (size_t)((const unsigned char *)in + in_len - z.next_in);
        z.avail_in = in_left > UINT32_MAX ? UINT32_MAX : (uInt)in_left;
        z.next_out = (unsigned char *)out + n;
        z.avail_out = cap - n > UINT32_MAX ? UINT32_MAX : (uInt)(cap - n);
        rc = inflate(&z, Z_NO_FLUSH);
        n = (size_t)((char *)z.next_out - out);
        if (rc == Z_STREAM_END && z.avail_in > 0)
            rc = inflateReset(&z); /* another gzip member follows */
        else if (rc == Z_BUF_ERROR && z.avail_out == 0)
            rc = Z_OK;
    }
    size_t at = (size_t)((const unsigned char *)z.next_in - (const unsigned char *)in);
    inflateEnd(&z);
    if (rc != Z_OK && rc != Z_STREAM_END) {
        free(out);
        if (rc == Z_MEM_ERROR)
            return pf_fail(err, "%s: out of memory while decompressing", path);
        return pf_fail(err, "%s: compressed byte %zu: corrupt or truncated gzip data", path, at);
    }
    if (rc != Z_STREAM_END) {
        free(out);
        return pf_fail(err, "%s: compressed byte %zu: gzip data is cut off", path, at);
    }
    *buf = out;
    *len = n;
    return 0;
}

static int is_gzip(const char *buf, size_t len)
{
    return len >= 2 && (unsigned char)buf[0] == 0x1f && (unsigned char)buf[1] == 0x8b;
}

/* Replaces a gzip buffer by its decompressed text; plain JSON passes through. */
static int maybe_inflate(const char *path, char **buf, size_t *len, int *mapped, pf_error *err)
{
    if (!is_gzip(*buf, *len))
        return 0;
    char *out = NULL;
    size_t n = 0;
    int rc = inflate_all(*buf, *len, path, &out, &n, err);
    pf_source_release(*buf, *len, *mapped);
    *buf = NULL;
    *len = 0;
    *mapped = 0;
    if (rc)
        return -1;
    *buf = out;
    *len = n;
    return 0;
}

static int read_source(const char *path, char **buf, size_t *len, int *mapped, pf_error *err)
{
    *mapped = 0;
    if (strcmp(path, "-") == 0)
        return read_all_fd(STDIN_FILENO, "<stdin>", buf, len, err);
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
    int rc;
    if (S_ISREG(st.st_mode) && st.st_size > 0) {
        *len = (size_t)st.st_size;
        rc = map_file(fd, path, *len, buf, err);
        *mapped = rc == 0;
    } else {
        rc = read_all_fd(fd, path, buf, len, err);
    }
    close(fd);
    return rc;
}

int pf_source_read(const char *path, char **buf, size_t *len, int *mapped, pf_error *err)
{
    if (read_source(path, buf, len, mapped, err))
        return -1;
    return maybe_inflate(strcmp(path, "-") == 0 ? "<stdin>" : path, buf, len, mapped, err);
}

void pf_source_done(const char *buf, size_t len, int mapped, size_t upto)
{
    if (mapped)
        pf_pages_drop(buf, buf + (upto < len ? upto : len));
}

void pf_source_release(char *buf, size_t len, int mapped)
{
    if (mapped)
        munmap(buf, len);
    else
        free(buf);
}
