/* timings.h - wall time per phase of one run (--timings, PROFANA_TIMINGS=1): the phases add up to the run. */
/* layer: util (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_TIMINGS_H
#define PROFANA_TIMINGS_H

#include <stdio.h>

enum { PF_TIMINGS_MAX = 16 };

/* One phase: its name (a string literal), the wall seconds spent in it (summed over the
 * times it ran), the most threads it used, and whether it overlapped another phase (its
 * time then is not part of the sum: gzip's inflater runs beside the scan). */
typedef struct pf_phase {
    const char *name;
    double secs;
    int threads;
    int overlapped;
    double peak_rise_mb;       /* what its laps raised the process's peak resident memory
                                  by (MB of 2^20): the rises add up to the peak */
} pf_phase;

/* The phases of a run, in the order first seen. Used by one thread (the one that runs the
 * phases one after another); a NULL pf_timings * is accepted everywhere and records nothing. */
typedef struct pf_timings {
    double start;              /* pf_timings_now() when the run began */
    double mark;               /* the end of the last phase recorded by pf_timings_lap */
    double peak_mb;            /* peak resident memory at init or the last lap; 0 unknown */
    int n;
    pf_phase ph[PF_TIMINGS_MAX];
} pf_timings;

/* Seconds on the monotonic clock (an arbitrary origin). */
double pf_timings_now(void);

/* Starts the run's clock: no phases, start = mark = now. */
void pf_timings_init(pf_timings *tm);

/* Adds secs (>= 0) to the phase named name (a string literal; new after the last one when
 * not yet seen), keeping the larger thread count. Overlapped phases are kept apart from the
 * sum. Beyond PF_TIMINGS_MAX names the time goes to the last phase. No-op when tm is NULL. */
void pf_timings_add(pf_timings *tm, const char *name, double secs, int threads, int overlapped);

/* The time since the last lap (or init) goes to the phase name; the mark moves to now. */
void pf_timings_lap(pf_timings *tm, const char *name, int threads);

/* One line per phase on f ("profana: timings: PHASE  SECONDS s  N threads  +MB peak": what
 * the phase added to the peak resident memory, where the system says), then the sum of the
 * phases that did not overlap and the wall time since init ("total", with the peak), which
 * differ by what no lap took (should be nothing). No-op when tm is NULL. */
void pf_timings_print(const pf_timings *tm, FILE *f);

/* Whether the environment asks for timings: PROFANA_TIMINGS is set and not "0" or empty. */
int pf_timings_from_env(void);

#endif
