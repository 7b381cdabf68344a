/* outfile.c - writes outputs through a temporary file and a rename, so a failed run never leaves half a file. */
#define _GNU_SOURCE /* O_TMPFILE, linkat */
#include "profana/outfile.h"
#include "profana/gzout.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

/* Replacing a file syncs the new one first. Syncing 100 MB at the end costs as much as
 * writing it, so a thread flushes what has been written so far while the rest is still
 * being written, and the final fsync has little left to do. */
struct pf_outfile_syncer {
    pthread_t thread;
    int fd;
    atomic_int stop;
    int error;                 /* errno of a failed flush: the final fsync would not see it */
};

static void *sync_loop(void *arg)
{
    struct pf_outfile_syncer *sy = arg;
    const struct timespec pause = {0, 2000000};
    while (!atomic_load(&sy->stop)) {
        if (fdatasync(sy->fd) != 0 && errno != EINVAL && errno != EROFS && !sy->error)
            sy->error = errno;
        nanosleep(&pause, NULL);
    }
    return NULL;
}

static void start_syncer(pf_outfile *o)
{
    struct pf_outfile_syncer *sy = calloc(1, sizeof *sy);
    if (!sy)
        return; /* the final fsync still runs, only later */
    sy->fd = fileno(o->f);
    if (pthread_create(&sy->thread, NULL, sync_loop, sy) != 0) {
        free(sy);
        return;
    }
    o->syncer = sy;
}

/* Stops the flushing thread; returns the errno of a flush that failed, or 0. */
static int stop_syncer(pf_outfile *o)
{
    struct pf_outfile_syncer *sy = o->syncer;
    if (!sy)
        return 0;
    atomic_store(&sy->stop, 1);
    pthread_join(sy->thread, NULL);
    int e = sy->error;
    free(sy);
    o->syncer = NULL;
    return e;
}

int pf_same_file(const char *a, const char *b)
{
    assert(a && b);
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

/* Large outputs (a whole trace) go out in few system calls. */
#define PF_OUT_BUFFER (1 << 20)

/* glibc ignores the size given with a NULL buffer: the buffer must be ours. Without
 * memory the stream keeps its default buffer, which only costs speed. */
static void use_buffer(pf_outfile *o)
{
    o->buf = malloc(PF_OUT_BUFFER);
    if (o->buf)
        setvbuf(o->f, o->buf, _IOFBF, PF_OUT_BUFFER);
}

/* How a target that is not a regular file (nor missing) is written: in place, as a stream,
 * never replaced by a rename, which would replace the node or the file behind a descriptor
 * (`--summary /dev/stdout >>log` renamed a new file over log). */
typedef enum stream_kind {
    ST_NONE,                   /* a regular file or none: through a temporary file */
    ST_OWN_FD,                 /* one of this process's descriptors (/dev/stdout, /proc/self/fd/N) */
    ST_NODE,                   /* a device, a FIFO, another process's pipe: opened in place */
} stream_kind;

/* Whether dir (a directory's name) lies on /proc. */
static int on_proc(const char *dir)
{
    struct statfs fs;
    return statfs(dir, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC;
}

/* The descriptor a /proc name of this process gives: "PID/fd/N" or
 * "PID/task/TID/fd/N" at the end of canon (the name, its directory made absolute), PID this
 * process. -1 for any other name of /proc. */
static int own_fd(const char *canon)
{
    const char *base = strrchr(canon, '/');
    if (!base || !base[1] || strspn(base + 1, "0123456789") != strlen(base + 1) || strlen(base + 1) > 9)
        return -1;
    int n = atoi(base + 1);
    const char *p = base;
    /* the components before N: "fd", then "TID" "task" (optional), then "PID" */
    const char *comp[4];
    size_t len[4];
    int k = 0;
    while (k < 4 && p > canon) {
        const char *e = p;
        do
            p--;
        while (p > canon && *p != '/');
        comp[k] = p + 1;
        len[k] = (size_t)(e - p - 1);
        k++;
    }
    if (k < 2 || len[0] != 2 || memcmp(comp[0], "fd", 2) != 0)
        return -1;
    int pid_at = k >= 3 && len[2] == 4 && memcmp(comp[2], "task", 4) == 0 ? 3 : 1;
    if (pid_at >= k)
        return -1;
    char pid[16];
    snprintf(pid, sizeof pid, "%d", (int)getpid());
    return len[pid_at] == strlen(pid) && memcmp(comp[pid_at], pid, len[pid_at]) == 0 ? n : -1;
}

/* The directory of cur made absolute (links in it followed) and cur's last name after it;
 * NULL when the directory does not resolve. */
static char *canonical_dir(const char *cur, char *dir)
{
    char *tmp = dup_str(cur);
    if (!tmp)
        return NULL;
    char *slash = strrchr(tmp, '/');
    const char *d = slash == tmp ? "/" : slash ? (*slash = 0, tmp) : ".";
    char *r = realpath(d, dir);
    free(tmp);
    return r;
}

/* What path names, its symbolic links followed one at a time: one of this process's
 * descriptors (*fd set) when a link passes through /proc/PID/fd (/dev/stdout,
 * /dev/fd/1, /proc/self/fd/1, /proc/thread-self/fd/1); another name of /proc (*proc set);
 * else a node that exists and is not a regular file or a directory; else ST_NONE. */
static stream_kind stream_of(const char *path, int *fd, int *proc)
{
    char cur[PATH_MAX], link[PATH_MAX], dir[PATH_MAX];
    struct stat st;
    *fd = -1;
    *proc = 0;
    if (strlen(path) >= sizeof cur)
        return ST_NONE;
    strcpy(cur, path);
    for (int hop = 0; hop < 40; hop++) {
        if (canonical_dir(cur, dir) && on_proc(dir)) {
            const char *base = strrchr(cur, '/');
            char canon[2 * PATH_MAX + 2];
            snprintf(canon, sizeof canon, "%s/%s", dir, base ? base + 1 : cur);
            *fd = own_fd(canon);
            *proc = *fd < 0;
            return *fd >= 0 ? ST_OWN_FD : ST_NODE;
        }
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            break;
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0)
            break;
        link[n] = 0;
        char *slash = strrchr(cur, '/');
        size_t keep = link[0] == '/' || !slash ? 0 : (size_t)(slash - cur) + 1;
        if (keep + (size_t)n >= sizeof cur)
            break;
        memmove(cur + keep, link, (size_t)n + 1);
    }
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) ? ST_NODE : ST_NONE;
}

/* Whether writing path in place is safe; -1 with err set when it is not: a descriptor of
 * this process that is not open, or open for reading only; a file of /proc that is a regular
 * file (another process's descriptor onto a file, whose offset is not ours; a kernel
 * setting). */
static int check_stream(const char *path, stream_kind k, int fd, int proc, pf_error *err)
{
    struct stat st;
    if (k == ST_OWN_FD) {
        int fl = fcntl(fd, F_GETFL);
        if (fl == -1)
            return pf_fail(err, "%s: names descriptor %d, which is not open", path, fd);
        if ((fl & O_ACCMODE) == O_RDONLY)
            return pf_fail(err, "%s: names descriptor %d, which is open for reading only", path, fd);
        return 0;
    }
    if (k == ST_NODE && proc && stat(path, &st) == 0 && S_ISREG(st.st_mode))
        return pf_fail(err, "%s: a file of /proc (another process's descriptor, or a kernel setting): "
                            "not written in place", path);
    return 0;
}

int pf_outfile_check(const char *path, pf_error *err)
{
    assert(path && err);
    if (strcmp(path, "-") == 0)
        return 0;
    int fd, proc;
    stream_kind k = stream_of(path, &fd, &proc);
    return k == ST_NONE ? 0 : check_stream(path, k, fd, proc, err);
}

/* A stream target is written in place: one of our descriptors through a duplicate of it
 * (its offset and flags shared: what went to standard output before stays, appending stays
 * appending), a device or a FIFO opened without O_TRUNC or O_CREAT. Standard output is
 * flushed first, so that what it holds goes out before. */
static int open_stream(pf_outfile *o, const char *path, stream_kind k, int fd, int proc, pf_error *err)
{
    if (check_stream(path, k, fd, proc, err))
        return -1;
    o->path = dup_str(path);
    if (!o->path)
        return pf_fail(err, "%s: out of memory", path);
    fflush(stdout);
    int w = k == ST_OWN_FD ? fcntl(fd, F_DUPFD_CLOEXEC, 3) : open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    o->f = w >= 0 ? fdopen(w, "wb") : NULL;
    if (!o->f) {
        int e = errno;
        if (w >= 0)
            close(w);
        free(o->path);
        o->path = NULL;
        return pf_fail(err, "%s: cannot open for writing: %s", path, strerror(e));
    }
    use_buffer(o);
    return 0;
}

/* Where a symbolic link leads when its file does not exist yet: links followed by hand (the
 * last name need not exist), relative ones from their link's directory. NULL with errno set
 * for a loop (ELOOP) or a name too long. */
static char *follow_dangling(const char *path)
{
    char cur[PATH_MAX], link[PATH_MAX];
    if (strlen(path) >= sizeof cur)
        return errno = ENAMETOOLONG, NULL;
    strcpy(cur, path);
    for (int hop = 0; hop < 40; hop++) {
        struct stat st;
        if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
            return dup_str(cur);
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0)
            return NULL;
        link[n] = 0;
        char *slash = strrchr(cur, '/');
        size_t keep = link[0] == '/' || !slash ? 0 : (size_t)(slash - cur) + 1;
        if (keep + (size_t)n >= sizeof cur)
            return errno = ENAMETOOLONG, NULL;
        memmove(cur + keep, link, (size_t)n + 1);
    }
    return errno = ELOOP, NULL;
}

/* Where the temporary file goes: beside the file a symbolic link points to, so that the
 * rename replaces that file and the link stays a link (a dangling link: its file is created
 * where it points). NULL with errno set when the link cannot be followed. */
static char *rename_target(const char *path)
{
    struct stat st;
    char buf[PATH_MAX];
    if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode))
        return dup_str(path);
    if (realpath(path, buf))
        return dup_str(buf);
    return follow_dangling(path);
}

/* The file a path would write: its link followed, its directory made absolute ("./x", "x"
 * and "a/../x" give one name). NULL when the directory does not resolve. */
static char *canonical_target(const char *path)
{
    char *t = rename_target(path);
    if (!t)
        return NULL;
    char *slash = strrchr(t, '/');
    const char *base = slash ? slash + 1 : t;
    char dir[PATH_MAX], *d = NULL;
    if (slash == t)
        d = realpath("/", dir);
    else if (slash) {
        *slash = 0;
        d = realpath(t, dir);
    } else
        d = realpath(".", dir);
    char *out = NULL;
    if (d && (out = malloc(strlen(dir) + strlen(base) + 2)))
        sprintf(out, "%s/%s", dir, base);
    free(t);
    return out;
}

int pf_same_output(const char *a, const char *b)
{
    assert(a && b);
    if (strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
        return strcmp(a, b) == 0;
    if (strcmp(a, b) == 0 || pf_same_file(a, b))
        return 1;
    char *ca = canonical_target(a), *cb = canonical_target(b);
    int same = ca && cb && strcmp(ca, cb) == 0;
    free(ca);
    free(cb);
    return same;
}

/* The name temporary files are made from: the target's own ("OUT.tmp-XXXXXX"), or, when
 * that suffix would make a name longer than a directory entry may be (a legal 255-byte OUT),
 * a short one in the same directory (".profana.tmp-XXXXXX"). */
static char *tmp_stem(const char *target)
{
    const char *slash = strrchr(target, '/');
    const char *base = slash ? slash + 1 : target;
    if (strlen(base) + sizeof ".tmp-XXXXXX" - 1 <= NAME_MAX)
        return dup_str(target);
    size_t dir = (size_t)(base - target);
    char *s = malloc(dir + sizeof ".profana");
    if (s) {
        memcpy(s, target, dir);
        strcpy(s + dir, ".profana");
    }
    return s;
}

/* An existing target keeps its owner (where we may give it: root rewriting another user's
 * file) and its permissions; a new one gets what the umask allows (mkstemp makes 0600).
 * The owner goes first: a change of owner clears the set-id bits. Returns whether the
 * target exists. */
static int set_mode(int fd, const char *target)
{
    struct stat st;
    if (stat(target, &st) == 0) {
        if (fchown(fd, st.st_uid, st.st_gid) != 0) {
            /* not ours to give: the file stays the writer's, as any new file */
        }
        fchmod(fd, st.st_mode & 07777);
        return 1;
    }
    mode_t um = umask(0);
    umask(um);
    fchmod(fd, 0666 & ~um);
    return 0;
}

/* A target named .gz: f becomes a compressing stream over the temporary file. */
static int compress(pf_outfile *o, const char *path, pf_error *err)
{
    FILE *gz = pf_gzout_open(o->f);
    if (!gz) {
        pf_outfile_abort(o);
        return pf_fail(err, "%s: out of memory", path);
    }
    o->raw = o->f;
    o->f = gz;
    return 0;
}

/* Ends the compressed stream (its trailer goes into the temporary file), which is f again
 * afterwards; returns the errno of a failed write, 0 when all went well or nothing was
 * compressed. */
static int end_compression(pf_outfile *o)
{
    if (!o->raw)
        return 0;
    int bad = ferror(o->f) != 0;
    int e = errno;
    if (fclose(o->f) != 0 && !bad)
        bad = 1, e = errno;
    o->f = o->raw;
    o->raw = NULL;
    return bad ? (e ? e : EIO) : 0;
}

/* The temporary file is first an unnamed one (O_TMPFILE) in the target's directory: a run
 * killed by any signal (Ctrl-C, SIGTERM, SIGHUP, SIGKILL) or crashing leaves nothing behind,
 * the kernel frees it. It gets a name only at commit, through /proc/self/fd. Where the file
 * system or /proc does not allow that, -1: a named temporary file (mkstemp) is used. */
static int open_unnamed(const char *target)
{
#ifdef O_TMPFILE
    if (access("/proc/self/fd", X_OK) != 0)
        return -1;
    char *dir = dup_str(target);
    if (!dir)
        return -1;
    char *slash = strrchr(dir, '/');
    if (!slash)
        strcpy(dir, ".");
    else
        slash[slash == dir] = 0; /* "/x" -> "/" */
    int fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    free(dir);
    return fd;
#else
    (void)target;
    return -1;
#endif
}

/* Names the unnamed file: the target itself when it does not exist yet (linkat never
 * replaces, so a target made meanwhile is not lost), else a fresh "TARGET.tmp-N" that the
 * rename then moves over it. Returns 0 (o->tmp the name, or NULL when it is the target)
 * or -1 with errno set. */
static int give_name(pf_outfile *o, int as_target)
{
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fileno(o->f));
    if (as_target && !o->replaces && linkat(AT_FDCWD, proc, AT_FDCWD, o->path, AT_SYMLINK_FOLLOW) == 0) {
        free(o->tmp);
        o->tmp = NULL;
        return 0;
    }
    for (unsigned i = 0; i < 1000; i++) {
        snprintf(o->tmp + o->stem, 16, ".tmp-%06x", (unsigned)(getpid() * 1009u + i) & 0xFFFFFF);
        if (linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp, AT_SYMLINK_FOLLOW) == 0)
            return 0;
        if (errno != EEXIST)
            return -1;
    }
    return -1;
}

int pf_outfile_open(pf_outfile *o, const char *path, pf_error *err)
{
    assert(o && path && err);
    memset(o, 0, sizeof *o);
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        o->path = dup_str(path);
        return o->path ? 0 : pf_fail(err, "%s: out of memory", path);
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return pf_fail(err, "%s: is a directory, not an output file", path);
    int sfd, proc;
    stream_kind k = stream_of(path, &sfd, &proc);
    if (k != ST_NONE)
        return open_stream(o, path, k, sfd, proc, err);
    if (!(o->path = rename_target(path))) {
        int e = errno;
        return pf_fail(err, "%s: cannot follow the symbolic link: %s", path, strerror(e));
    }
    char *stem = tmp_stem(o->path);
    o->stem = stem ? strlen(stem) : 0;
    o->tmp = malloc(o->stem + 16);
    if (!stem || !o->tmp) {
        free(stem);
        free(o->path);
        free(o->tmp);
        memset(o, 0, sizeof *o);
        return pf_fail(err, "%s: out of memory", path);
    }
    snprintf(o->tmp, o->stem + 16, "%s.tmp-XXXXXX", stem);
    free(stem);
    int fd = open_unnamed(o->path);
    o->unnamed = fd >= 0;
    if (fd < 0)
        fd = mkstemp(o->tmp);
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
    o->replaces = set_mode(fd, o->path);
    use_buffer(o);
    if (o->replaces)
        start_syncer(o);
    return pf_gzout_wanted(path) ? compress(o, path, err) : 0;
}

/* After f is closed (it uses buf until then). */
static void release(pf_outfile *o)
{
    free(o->path);
    free(o->tmp);
    free(o->buf);
    memset(o, 0, sizeof *o);
}

/* Everything of a commit but the rename: written, flushed, synced where it replaces, closed
 * and named (as the target itself when as_target allows and it does not exist yet). On an
 * error the file is removed, err set, o released, -1 returned. */
static int finish(pf_outfile *o, int as_target, pf_error *err)
{
    if (!o->tmp) {
        int bad = fflush(o->f) != 0 || ferror(o->f);
        int e = errno;
        if (o->f != stdout && fclose(o->f) != 0 && !bad)
            bad = 1, e = errno;
        o->f = NULL;
        o->finished = 1;
        if (!bad)
            return 0;
        int rc = pf_fail(err, "%s: write failed: %s", o->path, strerror(e ? e : EIO));
        release(o);
        return rc;
    }
    int ge = end_compression(o);
    int bad = ferror(o->f) != 0 || ge;
    int e = ge ? ge : errno;
    if (fflush(o->f) != 0 && !bad)
        bad = 1, e = errno;
    int se = stop_syncer(o);
    if (se && !bad)
        bad = 1, e = se;
    if (!bad && o->replaces && fsync(fileno(o->f)) != 0 && errno != EINVAL && errno != EROFS)
        bad = 1, e = errno;
    int named = !o->unnamed; /* o->tmp exists (NULL: the file was linked as the target) */
    if (!bad && o->unnamed) {
        if (give_name(o, as_target) != 0)
            bad = 1, e = errno;
        else
            named = 1;
    }
    if (fclose(o->f) != 0 && !bad)
        bad = 1, e = errno;
    o->f = NULL;
    o->finished = 1;
    if (!bad)
        return 0;
    if (named)
        unlink(o->tmp ? o->tmp : o->path);
    int rc = pf_fail(err, "%s: write failed: %s", o->path, strerror(e ? e : EIO));
    release(o);
    return rc;
}

int pf_outfile_finish(pf_outfile *o, pf_error *err)
{
    assert(o && err);
    return o->finished ? 0 : finish(o, 0, err);
}

int pf_outfile_commit(pf_outfile *o, pf_error *err)
{
    assert(o && err);
    if (!o->finished && finish(o, 1, err))
        return -1;
    int rc = 0;
    if (o->tmp && rename(o->tmp, o->path) != 0) {
        int e = errno;
        unlink(o->tmp);
        rc = pf_fail(err, "%s: write failed: %s", o->path, strerror(e ? e : EIO));
    }
    release(o);
    return rc;
}

void pf_outfile_abort(pf_outfile *o)
{
    assert(o);
    if (o->finished) { /* closed, named o->tmp (never the target: pf_outfile_finish) */
        if (o->tmp)
            unlink(o->tmp);
        release(o);
        return;
    }
    if (!o->f)
        return;
    end_compression(o); /* its trailer goes into the file removed below */
    stop_syncer(o);
    if (o->f != stdout)
        fclose(o->f);
    if (o->tmp && !o->unnamed)
        unlink(o->tmp);
    release(o);
}

int pf_outfile_write_error(const pf_outfile *o, pf_error *err)
{
    assert(o && err);
    int e = errno;
    return pf_fail(err, "%s: write failed: %s", o->path, strerror(e ? e : EIO));
}
