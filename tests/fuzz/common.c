/* common.c - fuzz input as a memfd path, and the loader's source read moved into an exact-size heap block. */
#define _GNU_SOURCE
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "profana/trace.h"

int fuzz_input_file(const uint8_t *data, size_t size, char *path, size_t path_size)
{
    int fd = memfd_create("profana-fuzz", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(fd, data + done, size - done);
        if (w <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)w;
    }
    snprintf(path, path_size, "/dev/fd/%d", fd);
    return fd;
}

int __real_pf_source_read(const char *path, char **buf, size_t *len, int *mapped, pf_error *err);
int __wrap_pf_source_read(const char *path, char **buf, size_t *len, int *mapped, pf_error *err);

/* The real read (mmap, stdin, gzip), then a copy into a malloc block of exactly len bytes
 * (none for an empty input), released by the ordinary pf_source_release since mapped is 0. */
int __wrap_pf_source_read(const char *path, char **buf, size_t *len, int *mapped, pf_error *err)
{
    if (__real_pf_source_read(path, buf, len, mapped, err))
        return -1;
    char *exact = malloc(*len);
    if (!exact && *len) {
        pf_source_release(*buf, *len, *mapped);
        return pf_fail(err, "%s: out of memory", path);
    }
    if (*len)
        memcpy(exact, *buf, *len);
    pf_source_release(*buf, *len, *mapped);
    *buf = exact;
    *mapped = 0;
    return 0;
}
