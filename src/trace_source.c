/* trace_source.c - gets the bytes of a trace: a mapped regular file, or standard input read whole. */
#include "profana/trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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

int pf_source_read(const char *path, char **buf, size_t *len, int *mapped, pf_error *err)
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

void pf_source_release(char *buf, size_t len, int mapped)
{
    if (mapped)
        munmap(buf, len);
    else
        free(buf);
}
