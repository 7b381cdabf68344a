/* preload.c - an LD_PRELOAD shim for test_adversarial.sh: the process sees FAKE_CPUS CPUs in its affinity mask, the most threads one parallel step runs (threads created with no join between them, plus the creating thread) is written to FAKE_CPUS_LOG at exit, and with FAKE_SIGNAL=N signal N arrives just as an output file is about to get its name (rename or linkat): the worst moment for a temporary file; with FAKE_SHRINK=N, the N-th file mapped for reading is cut to half its size just after it is mapped, as if another process truncated it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int mapped; /* files mapped for reading so far */
static int batch, most = 1, joined; /* threads created since the last join; the most plus the creator */

/* Raises FAKE_SIGNAL, if set, in place of the call. */
static void signal_now(void)
{
    const char *s = getenv("FAKE_SIGNAL");
    if (s)
        raise(atoi(s));
}

int rename(const char *from, const char *to)
{
    int (*real)(const char *, const char *) = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
    signal_now();
    return real ? real(from, to) : -1;
}

int linkat(int fd1, const char *from, int fd2, const char *to, int flags)
{
    int (*real)(int, const char *, int, const char *, int) =
        (int (*)(int, const char *, int, const char *, int))dlsym(RTLD_NEXT, "linkat");
    signal_now();
    return real ? real(fd1, from, fd2, to, flags) : -1;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    void *(*real)(void *, size_t, int, int, int, off_t) =
        (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
    void *p = real ? real(addr, len, prot, flags, fd, off) : MAP_FAILED;
    struct stat st;
    char link[64], path[4096];
    const char *want = getenv("FAKE_SHRINK");
    if (p != MAP_FAILED && want && fd >= 0 && !(flags & MAP_ANONYMOUS) && prot == PROT_READ &&
        fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ++mapped == atoi(want)) {
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        ssize_t n = readlink(link, path, sizeof path - 1);
        if (n > 0) {
            path[n] = 0;
            if (truncate(path, st.st_size / 2) != 0)
                perror("preload: truncate");
        }
    }
    return p;
}

int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
    (void)pid;
    const char *s = getenv("FAKE_CPUS");
    size_t n = s ? strtoul(s, NULL, 10) : 1;
    memset(set, 0, size);
    for (size_t i = 0; i < n && i < size * 8; i++)
        CPU_SET_S(i, size, set);
    return 0;
}

/* profana's threads are created and joined by one thread per step, so no lock is needed */
int pthread_join(pthread_t th, void **ret)
{
    int (*real)(pthread_t, void **) = (int (*)(pthread_t, void **))dlsym(RTLD_NEXT, "pthread_join");
    joined = 1;
    return real ? real(th, ret) : 3; /* ESRCH */
}

int pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *) =
        (int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *))dlsym(RTLD_NEXT, "pthread_create");
    if (!real)
        return 11; /* EAGAIN */
    if (joined)
        batch = 0, joined = 0;
    if (++batch + 1 > most)
        most = batch + 1;
    return real(th, attr, fn, arg);
}

__attribute__((destructor)) static void report(void)
{
    const char *log = getenv("FAKE_CPUS_LOG");
    FILE *f = log ? fopen(log, "w") : NULL;
    if (f) {
        fprintf(f, "%d\n", most);
        fclose(f);
    }
}
