/* progress.c - the progress bar thread: polls a byte count and redraws one stderr line in place. */
#include "profana/progress.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { BAR_WIDTH = 24, LINE = 100, SCREEN = 79 };

struct pf_progress {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int stop;
    int drawn;                 /* a bar is on the screen and must be erased */
    int64_t total, min_bytes;
    pf_progress_poll poll;
    const void *arg;
    struct timespec start;
};

static double seconds_since(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

void pf_progress_format(char *buf, size_t n, int64_t done, int64_t total, double secs)
{
    assert(buf && n > 0 && done >= 0 && total >= -1);
    double mb = (double)done / 1e6, rate = secs > 0 ? mb / secs : 0;
    if (total <= 0) {
        snprintf(buf, n, "%.0f MB  %.0f MB/s", mb, rate);
        return;
    }
    if (done > total)
        done = total;
    char bar[BAR_WIDTH + 1];
    int filled = (int)((double)done / (double)total * BAR_WIDTH);
    memset(bar, '#', (size_t)filled);
    memset(bar + filled, '-', (size_t)(BAR_WIDTH - filled));
    bar[BAR_WIDTH] = 0;
    double left = rate > 0 ? ((double)(total - done) / 1e6) / rate : 0;
    snprintf(buf, n, "[%s] %3d%%  %.0f of %.0f MB  %.0f MB/s  %.1f s left", bar,
             (int)((double)done * 100.0 / (double)total), (double)done / 1e6, (double)total / 1e6, rate, left);
}

static void draw(pf_progress *p)
{
    double secs = seconds_since(&p->start);
    int64_t done = p->poll(p->arg);
    if (secs < 0.3 || done < p->min_bytes)
        return;
    char line[LINE];
    pf_progress_format(line, sizeof line, done, p->total, secs);
    fprintf(stderr, "\rprofana: %-70s", line);
    fflush(stderr);
    p->drawn = 1;
}

static void *progress_main(void *arg)
{
    pf_progress *p = arg;
    pthread_mutex_lock(&p->lock);
    while (!p->stop) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 200 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        int rc = pthread_cond_timedwait(&p->wake, &p->lock, &until);
        if (rc == ETIMEDOUT && !p->stop)
            draw(p);
    }
    if (p->drawn) {
        fprintf(stderr, "\r%*s\r", SCREEN, "");
        fflush(stderr);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

pf_progress *pf_progress_start(int64_t total, int64_t min_bytes, pf_progress_poll poll, const void *arg)
{
    assert(poll && total >= -1);
    pf_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->total = total;
    p->min_bytes = min_bytes;
    p->poll = poll;
    p->arg = arg;
    clock_gettime(CLOCK_MONOTONIC, &p->start);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    if (pthread_create(&p->thread, NULL, progress_main, p) != 0) {
        pthread_mutex_destroy(&p->lock);
        pthread_cond_destroy(&p->wake);
        free(p);
        return NULL;
    }
    return p;
}

void pf_progress_stop(pf_progress *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->stop = 1;
    pthread_cond_signal(&p->wake);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->thread, NULL);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->wake);
    free(p);
}
