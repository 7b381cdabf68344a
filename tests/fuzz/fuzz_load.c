/* fuzz_load.c - libFuzzer target for the loader: any bytes as a trace, loaded four ways (1 or 2 threads, --strict, standard input) that must agree. */
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "profana/trace.h"

#define REQUIRE(cond) FUZZ_REQUIRE(cond)

/* Failure: no model, one line that names the file. */
static void check_error(const pf_trace *t, const pf_error *err, const char *path)
{
    REQUIRE(t == NULL);
    REQUIRE(strncmp(err->msg, path, strlen(path)) == 0);
    REQUIRE(strchr(err->msg, '\n') == NULL);
}

/* Success: every reference inside the model points at something that exists. */
static void check_model(const pf_trace *t)
{
    REQUIRE(t->n_unlinked <= t->n_acts);
    for (size_t i = 0; i < t->n_acts; i++) {
        const pf_activity *a = &t->acts[i];
        REQUIRE(a->name != NULL);
        REQUIRE(a->dur_ns >= 0);
        REQUIRE(a->op >= -1 && (a->op < 0 || (size_t)a->op < t->n_ops));
        REQUIRE(pf_trace_device(t, a->device) != NULL);
    }
    for (size_t i = 0; i < t->n_ops; i++) {
        const pf_cpu_op *o = &t->ops[i];
        REQUIRE(o->name != NULL);
        REQUIRE(o->call.nargs >= 0 && (o->call.nargs == 0 || o->call.args != NULL));
    }
    for (size_t i = 0; i < t->n_cpu; i++)
        REQUIRE(t->cpu[i].dur_ns >= 0);
    for (int i = 0; i < t->n_notes; i++)
        REQUIRE(t->notes[i] != NULL && strchr(t->notes[i], '\n') == NULL);
    for (int i = 0; i < t->n_warnings; i++)
        REQUIRE(t->warnings[i] != NULL && strchr(t->warnings[i], '\n') == NULL);
    for (int i = 1; i < t->n_devices; i++)
        REQUIRE(t->devices[i - 1].id < t->devices[i].id);
}

/* Two loads of the same bytes give the same model, whatever the thread count (-j). */
static void check_same(const pf_trace *a, const pf_trace *b)
{
    REQUIRE(a->n_acts == b->n_acts && a->n_ops == b->n_ops && a->n_cpu == b->n_cpu);
    REQUIRE(a->n_events == b->n_events && a->n_unlinked == b->n_unlinked);
    REQUIRE(a->n_bad_events == b->n_bad_events && a->n_devices == b->n_devices);
    for (size_t i = 0; i < a->n_acts; i++) {
        const pf_activity *x = &a->acts[i], *y = &b->acts[i];
        REQUIRE(strcmp(x->name, y->name) == 0);
        REQUIRE(x->ts_ns == y->ts_ns && x->dur_ns == y->dur_ns && x->device == y->device);
        REQUIRE(x->op == y->op && x->correlation == y->correlation && x->stream == y->stream);
        REQUIRE(x->launch_ts_ns == y->launch_ts_ns && x->launch_process == y->launch_process);
    }
    REQUIRE(a->n_cpu_steps == b->n_cpu_steps && a->n_launched == b->n_launched);
    for (size_t i = 0; i < a->n_ops; i++)
        REQUIRE(a->ops[i].call.nargs == b->ops[i].call.nargs && a->ops[i].bad_args == b->ops[i].bad_args &&
                a->ops[i].ext_id == b->ops[i].ext_id);
}

typedef struct feed {
    int fd;
    const uint8_t *data;
    size_t size;
} feed;

/* Writes the input into the pipe until done or until the reader closes it. */
static void *feed_main(void *arg)
{
    feed *f = arg;
    size_t done = 0;
    while (done < f->size) {
        ssize_t w = write(f->fd, f->data + done, f->size - done);
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    close(f->fd);
    return NULL;
}

/* Loads the input as standard input ("-"): a stream, read as it arrives, not a file. */
static int load_stdin(const uint8_t *data, size_t size, pf_trace **t, pf_error *err)
{
    int p[2], saved = dup(STDIN_FILENO);
    /* a descriptor the loader leaks ends here, after a thousand inputs (count_open below) */
    FUZZ_REQUIRE(saved >= 0 && pipe(p) == 0);
    dup2(p[0], STDIN_FILENO);
    close(p[0]);
    feed f = {p[1], data, size};
    pthread_t th;
    FUZZ_REQUIRE(pthread_create(&th, NULL, feed_main, &f) == 0);
    pf_load_opts one = {.jobs = 1};
    int rc = pf_trace_load_opts("-", &one, t, err);
    dup2(saved, STDIN_FILENO); /* closes the pipe: a writer still writing gets EPIPE */
    close(saved);
    pthread_join(th, NULL);
    return rc;
}

/* The message after its "NAME: ", which differs between a file and standard input. */
static const char *after_name(const char *msg)
{
    const char *c = strstr(msg, ": ");
    return c ? c : msg;
}

/* Whether the model carries the warning --strict makes an error: the trace (or its gzip
 * data) is cut off. Other warnings (events of an unknown category) --strict leaves alone. */
static int has_cut_warning(const pf_trace *t)
{
    for (size_t i = 0; i < (size_t)t->n_warnings; i++)
        if (strstr(t->warnings[i], "cut off"))
            return 1;
    return 0;
}

/* The entries of a /proc/self folder: the open descriptors (fd) or the threads (task). */
static int count_open(const char *what)
{
    char dir[32];
    snprintf(dir, sizeof dir, "/proc/self/%s", what);
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    signal(SIGPIPE, SIG_IGN); /* the loader may stop reading standard input early */
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the loads leave no descriptor open and no thread running (a failed load too) */
    int fds = count_open("fd"), tasks = count_open("task");
    char path[64];
    int fd = fuzz_input_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    pf_load_opts one = {.jobs = 1}, two = {.jobs = 2}, strict = {.jobs = 1, .strict = 1};
    pf_trace *t1, *t2, *ts;
    pf_error e1, e2, es;
    int r1 = pf_trace_load_opts(path, &one, &t1, &e1);
    int r2 = pf_trace_load_opts(path, &two, &t2, &e2);
    int rs = pf_trace_load_opts(path, &strict, &ts, &es);
    REQUIRE(r1 == r2);
    if (r1) {
        check_error(t1, &e1, path);
        REQUIRE(strcmp(e1.msg, e2.msg) == 0);
        /* --strict refuses what the default refuses, with the same words */
        REQUIRE(rs != 0 && strcmp(e1.msg, es.msg) == 0);
    } else {
        check_model(t1);
        check_same(t1, t2);
        REQUIRE(t1->n_warnings == t2->n_warnings);
        /* --strict turns the warning about a cut-off trace into an error, and changes
         * nothing else */
        if (rs == 0)
            check_same(t1, ts);
        else
            check_error(ts, &es, path);
        REQUIRE((rs != 0) == has_cut_warning(t1));
    }
    /* The same bytes on standard input: the same answer. */
    pf_trace *tp;
    pf_error ep;
    int rp = load_stdin(data, size, &tp, &ep);
    REQUIRE(rp == r1);
    if (rp)
        REQUIRE(strcmp(after_name(ep.msg), after_name(e1.msg)) == 0);
    else
        check_same(t1, tp);
    pf_trace_free(t1);
    pf_trace_free(t2);
    pf_trace_free(ts);
    pf_trace_free(tp);
    close(fd);
    REQUIRE(count_open("fd") == fds);
    REQUIRE(count_open("task") == tasks);
    return 0;
}
