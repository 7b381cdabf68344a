/* cli_common.c - what every subcommand does the same way: print errors, load a trace and report its notes, pick the view options. */
#include <assert.h>
#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <sys/resource.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profana/cli.h"
#include "profana/regfile.h"

int pf_cli_error(const char *msg)
{
    fprintf(stderr, "profana: error: %s\n", msg);
    return PF_EXIT_TRACE;
}

/* Whether standard output is a pipe or socket whose reader has gone: errno may no longer say
 * EPIPE when the failed write came earlier (a full buffer flushed mid-table), so ask the
 * descriptor too (poll reports POLLERR on such a pipe). */
static int reader_gone(int e)
{
    if (e == EPIPE)
        return 1;
    struct pollfd p = {.fd = STDOUT_FILENO, .events = POLLOUT};
    return poll(&p, 1, 0) == 1 && (p.revents & POLLERR);
}

int pf_cli_out_error(const char *out, const char *msg)
{
    if (strcmp(out, "-") == 0 && reader_gone(0))
        return PF_EXIT_OK;
    return pf_cli_error(msg);
}

int pf_cli_stdout_status(void)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return PF_EXIT_OK;
    return reader_gone(errno) ? PF_EXIT_OK : pf_cli_error("cannot write to standard output");
}

int pf_cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    fputs("profana: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\nTry 'profana --help'.\n", stderr);
    return PF_EXIT_USAGE;
}

int pf_cli_need_rereadable(const char *path, const char *what)
{
    assert(path && what);
    struct stat st;
    if (strcmp(path, "-") != 0 && (stat(path, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
        return 0;
    return pf_cli_usage_error("%s reads its input twice (the model, then the args of some events): "
                              "give a regular file, not %s", what, strcmp(path, "-") == 0 ? "standard input ('-')" : path);
}

static pf_trace *load_one(const pf_load_opts *opts, const char *path)
{
    pf_trace *t;
    pf_error err;
    if (pf_trace_load_opts(path, opts, &t, &err)) {
        pf_cli_error(err.msg);
        return NULL;
    }
    for (int i = 0; i < t->n_warnings; i++)
        fprintf(stderr, "profana: warning: %s: %s\n", path, t->warnings[i]);
    return t;
}

static void free_paths(char **paths, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
}

/* The captures a --graph-capture directory lists that are not regular files (a FIFO would
 * block the run until a writer came, a device an open can arm) passed over, each with a
 * warning; nothing of them is opened. A capture named directly is read as any trace is.
 * Returns 0, or -1 after printing the error when none is left. */
static int drop_special(const char *dir, char **paths, size_t *n)
{
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return 0;
    size_t w = 0;
    for (size_t i = 0; i < *n; i++) {
        if (stat(paths[i], &st) == 0 && !S_ISREG(st.st_mode)) {
            fprintf(stderr, "profana: warning: %s: is %s, not a capture trace (a regular file): passed over\n", paths[i],
                    pf_file_kind(st.st_mode));
            free(paths[i]);
        } else {
            paths[w++] = paths[i];
        }
    }
    *n = w;
    if (w > 0)
        return 0;
    fprintf(stderr, "profana: error: %s: no capture trace (*.json, *.json.gz) in the directory\n", dir);
    return -1;
}

/* --graph-capture: the capture traces, loaded by the same loader with their launch calls, and
 * their ops grafted onto t's replayed kernels. Returns 0, or -1 after printing the error. */
static int graft_captures(const pf_cli *cli, pf_trace *t)
{
    char **paths;
    size_t n;
    pf_error err;
    if (pf_capture_paths(cli->graph_capture, &paths, &n, &err)) {
        pf_cli_error(err.msg);
        return -1;
    }
    if (drop_special(cli->graph_capture, paths, &n)) {
        free_paths(paths, n);
        return -1;
    }
    pf_trace **caps = calloc(n, sizeof *caps);
    pf_load_opts o = cli->load;
    o.launches = 1;
    o.all_ops = 0;
    size_t loaded = 0;
    while (caps && loaded < n && (caps[loaded] = load_one(&o, paths[loaded])))
        loaded++;
    int rc = caps && loaded == n ? 0 : -1;
    if (!caps)
        pf_cli_error("out of memory");
    size_t mapped = 0;
    if (rc == 0 && pf_trace_graft_captures(t, caps, n, &mapped, &err)) {
        pf_cli_error(err.msg);
        rc = -1;
    }
    if (rc && caps && !t->n_adopted)
        for (size_t i = 0; i < loaded; i++)
            pf_trace_free(caps[i]);
    free(caps);
    free_paths(paths, n);
    return rc;
}

pf_trace *pf_cli_load_notes(const pf_cli *cli, const char *path, int notes_to_stderr)
{
    pf_trace *t = load_one(&cli->load, path);
    if (!t)
        return NULL;
    if (cli->graph_capture && graft_captures(cli, t)) {
        pf_trace_free(t);
        return NULL;
    }
    for (int i = 0; notes_to_stderr && i < t->n_notes; i++)
        fprintf(stderr, "profana: note: %s: %s\n", path, t->notes[i]);
    return t;
}

pf_trace *pf_cli_load(const pf_cli *cli, const char *path)
{
    return pf_cli_load_notes(cli, path, 1);
}

pf_view_opts pf_cli_view_opts(const pf_cli *cli)
{
    pf_view_opts v = {
        .format = cli->format,
        .name_limit = cli->name_limit,
        .top = cli->top,
        .group = cli->an.group,
        .by_category = cli->by_category,
        .waits = cli->waits,
        .steps = cli->mode == PF_MODE_STEPS,
        .plot_roofline = cli->plot_roofline,
        .plot_breakdown = cli->plot_breakdown,
        .plot_timeline = cli->plot_timeline,
        .plot_ranks = cli->plot_ranks,
        .report = cli->report,
        .width = cli->wide ? 0 : pf_cli_width(),
        .columns = cli->columns,
    };
    return v;
}

/* Text output with no terminal anywhere and no $COLUMNS (a file, CI): the width a person
 * most often reads in, narrow enough for a code review's side-by-side view. */
#define DEFAULT_WIDTH 100

/* The width of the terminal on fd, or 0 when fd is none. */
static int tty_width(int fd)
{
    struct winsize ws;
    return isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 ? ws.ws_col : 0;
}

int pf_cli_width(void)
{
    const char *env = getenv("COLUMNS");
    if (env && *env) {
        char *end;
        long n = strtol(env, &end, 10);
        if (*end == 0 && n > 0 && n < 100000)
            return (int)n;
    }
    int w = tty_width(STDOUT_FILENO);
    /* a pipe (| less, | head) is read on the terminal the command runs in: stderr's */
    if (!w && !isatty(STDOUT_FILENO))
        w = tty_width(STDERR_FILENO);
    return w ? w : DEFAULT_WIDTH;
}

static void catch_signals(void);
static void fit_address_limit(void);

/* A file that shrinks while profana reads it through a mapping raises SIGBUS (BUS_ADRERR)
 * at the first page past its new end. Nothing can be read from there, so one error line and
 * exit 1, as for any unreadable input; an output being written is unnamed until it is
 * complete (outfile.c), so none is left. Any other SIGBUS stays a crash. */
static void on_sigbus(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    if (si && si->si_code == BUS_ADRERR) {
        static const char msg[] = "profana: error: an input file changed (it shrank) while being read\n";
        ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
        (void)w;
        _exit(PF_EXIT_TRACE);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Under a limit on address space (ulimit -v), glibc's allocator reserves 64 MB of it for
 * each thread's own arena (128 MB at first), so -j 8 ran out where -j 1 did not: with a
 * limit, every thread shares the one arena (the loader, out of memory with several threads
 * all the same, parses again on one). */
static void fit_address_limit(void)
{
#if defined(M_ARENA_MAX)
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        mallopt(M_ARENA_MAX, 1);
#endif
}

/* glibc raises its threshold for serving a block from its own mapping to the size of each
 * such block freed (up to 32 MB), so once the loader freed its scan records every large
 * array after them came from the heap, whose freed holes stay resident: the analysis
 * peaked 5 MB (7%) higher on a 300 MB trace (74 MB against 69 MB) for memory no longer
 * used. A fixed threshold keeps every large array a mapping of its own, handed back whole
 * when freed. */
static void fix_mmap_threshold(void)
{
#if defined(M_MMAP_THRESHOLD)
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
}

void pf_cli_process_setup(void)
{
    catch_signals();
    fit_address_limit();
    fix_mmap_threshold();
}

static void catch_signals(void)
{
    /* Past a file-size limit (ulimit -f) a write then fails with EFBIG, which every output
     * reports as a write error (exit 1, temporary file removed), instead of a silent death. */
    signal(SIGXFSZ, SIG_IGN);
    /* A reader that stops early (`| head -1`) is a normal end, not a death by SIGPIPE (exit
     * 141): writes then fail with EPIPE, which pf_cli_stdout_status takes as the end. */
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
}
