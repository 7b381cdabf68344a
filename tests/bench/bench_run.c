/* bench_run.c - the measuring half of `make bench`: times a command with its peak memory, and times zlib's own inflate of a .gz file. */
/*
 * bench_run time OUT CMD [ARG...]   runs CMD with stdout to OUT; prints "SECONDS PEAK_KB STATUS"
 *                                   (wall time, the child's peak resident set, exit status)
 * bench_run inflate FILE.gz         inflates FILE with zlib into a small buffer and discards it;
 *                                   prints "SECONDS OUT_BYTES": the speed profana's own reading
 *                                   of gzip is compared with
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int run_timed(const char *out, char **argv)
{
    double t0 = now();
    pid_t pid = fork();
    if (pid < 0)
        return perror("fork"), 1;
    if (pid == 0) {
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
            _exit(126);
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0)
        return perror("wait4"), 1;
    printf("%.3f %ld %d\n", now() - t0, ru.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    return 0;
}

/* The file is read into memory first, so that only inflate is timed. */
static int inflate_timed(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return perror(path), 1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *in = malloc((size_t)n), *out = malloc(1 << 20);
    int ok = in && out && fread(in, 1, (size_t)n, f) == (size_t)n;
    fclose(f);
    z_stream z;
    memset(&z, 0, sizeof z);
    double t0 = now();
    if (!ok || inflateInit2(&z, 15 + 32) != Z_OK) {
        fprintf(stderr, "%s: cannot read\n", path);
        free(in);
        free(out);
        return 1;
    }
    z.next_in = in;
    z.avail_in = (uInt)n;
    long long total = 0;
    int rc;
    do {
        z.next_out = out;
        z.avail_out = 1 << 20;
        rc = inflate(&z, Z_NO_FLUSH);
        total += (1 << 20) - z.avail_out;
    } while (rc == Z_OK);
    inflateEnd(&z);
    printf("%.3f %lld\n", now() - t0, total);
    free(in);
    free(out);
    return rc == Z_STREAM_END ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "time") == 0)
        return run_timed(argv[2], argv + 3);
    if (argc == 3 && strcmp(argv[1], "inflate") == 0)
        return inflate_timed(argv[2]);
    fprintf(stderr, "usage: bench_run time OUT CMD [ARG...] | bench_run inflate FILE.gz\n");
    return 2;
}
