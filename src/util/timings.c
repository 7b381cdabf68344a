/* timings.c - wall time per phase of one run, printed on stderr by --timings (include/profana/timings.h). */
#include "profana/timings.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double pf_timings_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void pf_timings_init(pf_timings *tm)
{
    assert(tm != NULL);
    memset(tm, 0, sizeof *tm);
    tm->start = tm->mark = pf_timings_now();
}

void pf_timings_add(pf_timings *tm, const char *name, double secs, int threads, int overlapped)
{
    if (!tm)
        return;
    assert(name != NULL && secs >= 0 && threads >= 0);
    int i = 0;
    while (i < tm->n && strcmp(tm->ph[i].name, name) != 0)
        i++;
    if (i == tm->n && tm->n == PF_TIMINGS_MAX)
        i = tm->n - 1; /* no room for another name: the time still counts */
    if (i == tm->n) {
        tm->ph[tm->n++] = (pf_phase){.name = name, .overlapped = overlapped};
    }
    tm->ph[i].secs += secs;
    if (threads > tm->ph[i].threads)
        tm->ph[i].threads = threads;
}

void pf_timings_lap(pf_timings *tm, const char *name, int threads)
{
    if (!tm)
        return;
    double now = pf_timings_now();
    pf_timings_add(tm, name, now > tm->mark ? now - tm->mark : 0, threads, 0);
    tm->mark = now;
}

void pf_timings_print(const pf_timings *tm, FILE *f)
{
    if (!tm)
        return;
    assert(f != NULL);
    double sum = 0, wall = pf_timings_now() - tm->start;
    for (int i = 0; i < tm->n; i++) {
        const pf_phase *p = &tm->ph[i];
        fprintf(f, "profana: timings: %-14s %9.6f s  %2d thread%s%s\n", p->name, p->secs, p->threads,
                p->threads == 1 ? "" : "s", p->overlapped ? "  (overlapped with scan; not in the sum)" : "");
        if (!p->overlapped)
            sum += p->secs;
    }
    fprintf(f, "profana: timings: %-14s %9.6f s\n", "sum of phases", sum);
    fprintf(f, "profana: timings: %-14s %9.6f s\n", "total", wall);
}

int pf_timings_from_env(void)
{
    const char *v = getenv("PROFANA_TIMINGS");
    return v && *v && strcmp(v, "0") != 0;
}
