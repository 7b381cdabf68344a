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

void fuzz_broken(const char *file, int line, const char *what)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    fprintf(stderr, "%s:%d: contract broken: %s\n", base, line, what);
    const char *report = getenv("PF_FUZZ_REPORT");
    FILE *f = report && *report ? fopen(report, "a") : NULL;
    if (f) {
        fprintf(f, "%s:%d: contract broken: %s\n", base, line, what);
        fclose(f);
    }
    abort();
}

/* The count of bytes written for the current input: the capped stream's cookie. */
typedef struct capped {
    size_t written;
} capped;

static capped *capped_state(void)
{
    static capped state; /* one stream per process, as stdout is */
    return &state;
}

static ssize_t capped_write(void *cookie, const char *buf, size_t n)
{
    capped *c = cookie;
    (void)buf;
    c->written += n;
    if (c->written > FUZZ_OUTPUT_CAP) {
        fuzz_broken(__FILE__, __LINE__, "one input printed over FUZZ_OUTPUT_CAP bytes: output without bound");
    }
    return (ssize_t)n;
}

int fuzz_capped_stdout(void)
{
    cookie_io_functions_t io = {.write = capped_write};
    FILE *f = fopencookie(capped_state(), "w", io);
    if (!f)
        return -1;
    stdout = f;
    return 0;
}

void fuzz_output_start(void)
{
    capped_state()->written = 0;
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
