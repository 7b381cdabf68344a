/* outfile.c - writes outputs through a temporary file and a rename, so a failed run never leaves half a file. */
#include "profana/outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int pf_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
        return 0;
    if (stat(a, &sa) || stat(b, &sb))
        return 0;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* A device or pipe (/dev/null, /dev/full, a FIFO) is written directly: renaming a file over
 * it would replace the node itself. */
static int open_special(pf_outfile *o, const char *path, pf_error *err)
{
    o->path = dup_str(path);
    if (!o->path)
        return pf_fail(err, "%s: out of memory", path);
    o->f = fopen(path, "wb");
    if (!o->f) {
        int e = errno;
        free(o->path);
        o->path = NULL;
        return pf_fail(err, "%s: cannot open for writing: %s", path, strerror(e));
    }
    return 0;
}

int pf_outfile_open(pf_outfile *o, const char *path, pf_error *err)
{
    memset(o, 0, sizeof *o);
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        o->path = dup_str(path);
        return o->path ? 0 : pf_fail(err, "%s: out of memory", path);
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return pf_fail(err, "%s: is a directory, not an output file", path);
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return open_special(o, path, err);
    size_t n = strlen(path);
    o->path = dup_str(path);
    o->tmp = malloc(n + 16);
    if (!o->path || !o->tmp) {
        free(o->path);
        free(o->tmp);
        return pf_fail(err, "%s: out of memory", path);
    }
    snprintf(o->tmp, n + 16, "%s.tmp-XXXXXX", path);
    int fd = mkstemp(o->tmp);
    if (fd < 0 || !(o->f = fdopen(fd, "wb"))) {
        int e = errno;
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
        free(o->path);
        free(o->tmp);
        memset(o, 0, sizeof *o);
        return pf_fail(err, "%s: cannot create a file beside it: %s", path, strerror(e));
    }
    /* mkstemp makes 0600; an output is an ordinary file, readable as the umask allows. */
    mode_t um = umask(0);
    umask(um);
    fchmod(fd, 0666 & ~um);
    return 0;
}

static void release(pf_outfile *o)
{
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

int pf_outfile_commit(pf_outfile *o, pf_error *err)
{
    int rc = 0;
    if (!o->tmp) {
        int bad = fflush(o->f) != 0 || ferror(o->f);
        if (o->f != stdout && fclose(o->f) != 0)
            bad = 1;
        if (bad)
            rc = pf_fail(err, "%s: write failed", o->path);
        release(o);
        return rc;
    }
    int bad = ferror(o->f) != 0;
    int e = errno;
    if (fflush(o->f) != 0)
        bad = 1, e = errno;
    if (!bad && fsync(fileno(o->f)) != 0 && errno != EINVAL && errno != EROFS)
        bad = 1, e = errno;
    if (fclose(o->f) != 0 && !bad)
        bad = 1, e = errno;
    o->f = NULL;
    if (!bad && rename(o->tmp, o->path) != 0)
        bad = 1, e = errno;
    if (bad) {
        unlink(o->tmp);
        rc = pf_fail(err, "%s: write failed: %s", o->path, strerror(e ? e : EIO));
    }
    release(o);
    return rc;
}

void pf_outfile_abort(pf_outfile *o)
{
    if (!o->f)
        return;
    if (o->f != stdout)
        fclose(o->f);
    if (o->tmp)
        unlink(o->tmp);
    release(o);
}
