/* test_scan_window.c - the text window of trace_window.c over a mapped file and over a stream (a pipe on standard input): what it holds, how more is read, how a long element grows it, and where seeking puts it; texts and offsets written out here. */
#include <stdio.h>
#include <sys/wait.h>

#include "check.h"

#include "../../src/trace/trace_window.h"

/* A temporary file holding n bytes of s; its path in path. */
static void write_file(char *path, const char *s, size_t n)
{
    strcpy(path, "/tmp/profana_test_window_XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, s, n) != (ssize_t)n)
        exit(2);
    close(fd);
}

/* Standard input becomes a pipe that a child fills with n bytes of s and then closes. */
static pid_t stdin_pipe(const char *s, size_t n)
{
    int fds[2];
    if (pipe(fds))
        exit(2);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        size_t done = 0;
        while (done < n) {
            ssize_t k = write(fds[1], s + done, n - done);
            if (k <= 0)
                _exit(1);
            done += (size_t)k;
        }
        _exit(0);
    }
    close(fds[1]);
    dup2(fds[0], STDIN_FILENO);
    close(fds[0]);
    return pid;
}

static void test_mapped(void)
{
    const char *s = "{\"traceEvents\": [{\"ph\": \"X\"}]}";
    char path[64];
    write_file(path, s, strlen(s));
    pf_reader *r;
    pf_error err;
    CHECK("mapped: opens", pf_reader_open(path, &r, &err) == 0);
    pf_window w;
    CHECK("mapped: window made", pf_window_init(&w, r, 0) == 0);
    if (!w.mapped) {
        /* AddressSanitizer builds read files into poisoned buffers instead (PF_ASAN) */
        while (!w.eof && pf_window_more(&w, 0, &err) == 0)
            ;
        CHECK("read, not mapped (AddressSanitizer): the whole file", w.eof && w.len == strlen(s) && w.base == 0);
        CHECK("read, not mapped (AddressSanitizer): its text", memcmp(w.buf, s, w.len) == 0);
    } else {
        CHECK("mapped: the whole file at once", w.eof && w.len == strlen(s) && w.base == 0);
        CHECK("mapped: its text", memcmp(w.buf, s, w.len) == 0);
        CHECK("mapped: more is a no-op", pf_window_more(&w, 5, &err) == 0 && w.len == strlen(s) && w.base == 0);
        pf_window_seek(&w, 10);
        CHECK("mapped: seeking keeps every offset", w.base == 0 && w.len == strlen(s));
        pf_window_done(&w, 0, 4); /* less than a page: nothing to hand back, nothing breaks */
    }
    pf_window_free(&w);
    pf_reader_close(r);
    unlink(path);
}

static void test_stream(void)
{
    /* 600,000 bytes: more than two reads of the window (256 KiB each) */
    size_t n = 600000;
    char *s = malloc(n);
    for (size_t i = 0; i < n; i++)
        s[i] = (char)('a' + i % 26);
    pid_t child = stdin_pipe(s, n);
    pf_reader *r;
    pf_error err;
    CHECK("stream: opens standard input", pf_reader_open("-", &r, &err) == 0);
    CHECK("stream: not seekable", pf_reader_seekable(r) == 0);
    pf_window w;
    CHECK("stream: window made", pf_window_init(&w, r, 0) == 0);
    CHECK("stream: empty at first", w.len == 0 && !w.eof && !w.mapped && w.base == 0);
    CHECK("stream: first read", pf_window_more(&w, 0, &err) == 0 && w.len > 0 && w.len <= w.cap);
    CHECK("stream: first read is the text's start", memcmp(w.buf, s, w.len) == 0);
    /* keep everything (keep 0) until the end: the window grows to hold all 600,000 bytes */
    while (!w.eof)
        if (pf_window_more(&w, 0, &err))
            break;
    CHECK("stream: holds the whole text at its end", w.eof && w.len == n && w.base == 0);
    CHECK("stream: all of it, in order", memcmp(w.buf, s, n) == 0);
    CHECK("stream: dropping 100 bytes moves the base to 100",
          pf_window_more(&w, 100, &err) == 0 && w.base == 100 && w.len == n - 100);
    CHECK("stream: the text from offset 100", memcmp(w.buf, s + 100, 26) == 0);
    pf_window_free(&w);
    pf_reader_close(r);
    int status;
    waitpid(child, &status, 0);
    free(s);
}

static void test_seek(void)
{
    char s[1000];
    for (size_t i = 0; i < sizeof s; i++)
        s[i] = (char)('0' + i % 10);
    char path[64];
    write_file(path, s, sizeof s);
    /* a plain file through the read path, as under AddressSanitizer: open it, then seek a window */
    pf_reader *r;
    pf_error err;
    CHECK("seek: opens", pf_reader_open(path, &r, &err) == 0);
    pf_window w;
    CHECK("seek: window made at 0", pf_window_init(&w, r, 0) == 0);
    if (!w.mapped) {
        pf_window_seek(&w, 995);
        CHECK("seek: moved to 995", w.base == 995 && w.len == 0 && !w.eof);
        CHECK("seek: reads the last 5 bytes", pf_window_more(&w, 0, &err) == 0 && w.len == 5);
        CHECK("seek: which are 56789", memcmp(w.buf, "56789", 5) == 0);
        CHECK("seek: then the end", pf_window_more(&w, 0, &err) == 0 && w.eof);
    } else {
        pf_window_seek(&w, 995);
        CHECK("seek: a mapped window holds 995 already", w.base == 0 && memcmp(w.buf + 995, "56789", 5) == 0);
    }
    pf_window_free(&w);
    pf_reader_close(r);
    unlink(path);
}

/* The hand-back step by thread count: 2 MB over the threads, within 256 KB and 1 MB. */
static void test_done_step(void)
{
    static const struct {
        size_t threads;
        int64_t step;
    } want[] = {{1, 1 << 20}, {2, 1 << 20}, {3, (2 << 20) / 3}, {4, 512 << 10}, {8, 256 << 10}, {16, 256 << 10}, {64, 256 << 10}};
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        char name[96];
        snprintf(name, sizeof name, "done step at %zu threads: %lld bytes", want[k].threads, (long long)want[k].step);
        CHECK(name, pf_window_done_step(want[k].threads) == want[k].step);
    }
    CHECK("the default step is the least", PF_WINDOW_DONE_STEP == 256 << 10);
}

int main(void)
{
    test_done_step();
    test_mapped();
    test_stream();
    test_seek();
    CHECK_DONE();
}
