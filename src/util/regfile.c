/* regfile.c - opens a file a trace or a command line names only once it is known to be a regular file (no FIFO that blocks, no device an open arms). */
#define _GNU_SOURCE /* O_PATH */
#include "profana/regfile.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

const char *pf_file_kind(mode_t m)
{
    return S_ISFIFO(m) ? "a FIFO"
           : S_ISCHR(m) ? "a character device"
           : S_ISBLK(m) ? "a block device"
           : S_ISSOCK(m) ? "a socket"
           : S_ISDIR(m) ? "a directory"
           : S_ISLNK(m) ? "a symbolic link"
           : S_ISREG(m) ? "a regular file"
                        : "not a regular file";
}

/* The open itself, as a regular file's; O_NONBLOCK is harmless there and cleared after. */
#define READ_FLAGS (O_RDONLY | O_NOCTTY | O_CLOEXEC)

/* Without /proc: stat names the file (no open), an O_NONBLOCK open then cannot wait on a
 * FIFO, and fstat checks that what was opened is the regular file stat saw. */
static int open_checked(const char *path, struct stat *st)
{
    struct stat was;
    if (stat(path, &was) != 0)
        return -1;
    if (!S_ISREG(was.st_mode)) {
        *st = was;
        return -2;
    }
    int fd = open(path, READ_FLAGS | O_NONBLOCK);
    if (fd < 0)
        return -1;
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode) || st->st_dev != was.st_dev || st->st_ino != was.st_ino) {
        int regular = S_ISREG(st->st_mode);
        close(fd);
        if (regular) /* replaced meanwhile by another regular file: read neither */
            return errno = EAGAIN, -1;
        return -2;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl != -1)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}

int pf_open_regular(const char *path, struct stat *st)
{
    assert(path);
    struct stat mine;
    if (!st)
        st = &mine;
#ifdef O_PATH
    int pfd = open(path, O_PATH | O_CLOEXEC);
    if (pfd < 0)
        return -1;
    if (fstat(pfd, st) != 0) {
        int e = errno;
        close(pfd);
        return errno = e, -1;
    }
    if (!S_ISREG(st->st_mode)) {
        close(pfd);
        return -2;
    }
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", pfd);
    int fd = open(proc, READ_FLAGS);
    int e = errno;
    close(pfd);
    if (fd >= 0 || (e != ENOENT && e != ENOTDIR))
        return fd >= 0 ? fd : (errno = e, -1);
    /* no /proc mounted: the checked open of the name */
#endif
    return open_checked(path, st);
}

FILE *pf_fopen_regular(const char *path, int *special)
{
    assert(path);
    int fd = pf_open_regular(path, NULL);
    if (special)
        *special = fd == -2;
    if (fd == -2)
        errno = EINVAL;
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}
