/* timings.c - wall time per phase of one run, printed on stderr by --timings (include/profana/timings.h). */
#include "profana/timings.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

double pf_timings_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The process's peak resident memory so far, MB of 2^20 (Linux counts ru_maxrss in KB);
 * 0 when the system does not say. Where memory goes, phase by phase, beside the time. */
static double peak_mb(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 && ru.ru_maxrss > 0 ? (double)ru.ru_maxrss / 1024.0 : 0;
}

void pf_timings_init(pf_timings *tm)
{
    assert(tm != NULL);
    memset(tm, 0, sizeof *tm);
    tm->start = tm->mark = pf_timings_now();
    tm->peak_mb = peak_mb();
}

static pf_phase *add(pf_timings *tm, const char *name, double secs, int threads, int overlapped)
{
    assert(tm != NULL && name != NULL && secs >= 0 && threads >= 0);
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
    return &tm->ph[i];
}

void pf_timings_add(pf_timings *tm, const char *name, double secs, int threads, int overlapped)
{
    if (tm)
        add(tm, name, secs, threads, overlapped);
}

void pf_timings_lap(pf_timings *tm, const char *name, int threads)
{
    if (!tm)
        return;
    double now = pf_timings_now();
    pf_phase *ph = add(tm, name, now > tm->mark ? now - tm->mark : 0, threads, 0);
    tm->mark = now;
    double peak = peak_mb();
    if (peak > tm->peak_mb) {
        ph->peak_rise_mb += peak - tm->peak_mb;
        tm->peak_mb = peak;
    }
}

void pf_timings_print(const pf_timings *tm, FILE *f)
{
    if (!tm)
        return;
    assert(f != NULL);
    double sum = 0, wall = pf_timings_now() - tm->start;
    for (int i = 0; i < tm->n; i++) {
        const pf_phase *p = &tm->ph[i];
        fprintf(f, "profana: timings: %-14s %9.6f s  %2d thread%s", p->name, p->secs, p->threads,
                p->threads == 1 ? " " : "s");
        if (p->overlapped)
            fputs("  (overlapped with scan; not in the sum)", f);
        else if (tm->peak_mb > 0)
            fprintf(f, "  %+7.1f MB peak", p->peak_rise_mb);
        fputc('\n', f);
        if (!p->overlapped)
            sum += p->secs;
    }
    fprintf(f, "profana: timings: %-14s %9.6f s\n", "sum of phases", sum);
    fprintf(f, "profana: timings: %-14s %9.6f s", "total", wall);
    if (tm->peak_mb > 0)
        fprintf(f, "              %7.1f MB peak resident memory", tm->peak_mb);
    fputc('\n', f);
}

int pf_timings_from_env(void)
{
    const char *v = getenv("PROFANA_TIMINGS");
    return v && *v && strcmp(v, "0") != 0;
}
