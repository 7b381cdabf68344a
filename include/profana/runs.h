/* runs.h - several runs a side in --diff: B/A per matched row and overall with a 95% confidence interval over the runs, and a verdict (slower, faster, same). */
/* layer: analysis (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_RUNS_H
#define PROFANA_RUNS_H

#include "profana/diff.h"

typedef enum pf_verdict {
    PF_VERDICT_NONE = 0,       /* no interval: fewer than 2 runs with the row on a side */
    PF_VERDICT_SAME,           /* the interval holds 1, or the change is within the run-to-run spread */
    PF_VERDICT_SLOWER,         /* B takes longer: the interval lies above 1 and beyond the spread */
    PF_VERDICT_FASTER          /* B takes less: the interval lies below 1 and beyond the spread */
} pf_verdict;

/* "same", "slower", "faster"; NULL for PF_VERDICT_NONE. */
const char *pf_verdict_name(pf_verdict v);

/* A ratio B/A of two sides' run values with its 95% interval. */
typedef struct pf_ratio_ci {
    double ratio;              /* geometric mean of B's values / geometric mean of A's */
    double lo, hi;             /* the interval; both = ratio when every run gave the same value */
    double spread;             /* run-to-run spread: the larger side's max / min - 1 */
    int n_a, n_b;              /* runs that gave a value (> 0) on each side */
    pf_verdict verdict;        /* PF_VERDICT_NONE: no interval (lo, hi, spread < 0) */
} pf_ratio_ci;

/* The two-sided 95% point of Student's t with df degrees of freedom (df >= 1, not
 * necessarily whole, as Welch's df is): t with P(|T| > t) = 0.05, through the regularised
 * incomplete beta function, to about 1e-12. */
double pf_t975(double df);

/* B/A of the values a[0..na) and b[0..nb) (times of the same thing in each run; values <= 0
 * are left out) with Welch's t interval on their logarithms: the ratio of geometric means,
 * exp(mean(ln b) - mean(ln a) -/+ t975(df) * se), se and df by Welch-Satterthwaite. Needs 2
 * values a side; with fewer, verdict is PF_VERDICT_NONE and only ratio is set (< 0 when a
 * side has none). Pure. */
pf_ratio_ci pf_ratio_ci_of(const double *a, int na, const double *b, int nb);

/* Several runs a side: runs_a[0] and runs_b[0] are the analyses the diff d paired; the
 * others are more runs of the same workloads, analysed with the same options. Rows of the
 * other runs are found by their key (the key of that side's row in d); a device by its
 * position, as d pairs them. per_step: each run's GPU time is divided by its number of
 * CPU-side profiler steps (every run has some), else GPU time is compared as it is. */
typedef struct pf_runs_device {
    pf_ratio_ci overall;       /* GPU time (per step when per_step) */
    pf_ratio_ci *rows;         /* parallel to the diff device's rows: mean time per call (per
                                  launch for --group kernel), or total time (per step when
                                  per_step) where by_total */
    int *by_total;             /* parallel to rows: the first runs' counts differ between the
                                  sides (per step when per_step), so the row is judged on its
                                  total time: a cheaper call made more often is not faster */
} pf_runs_device;

typedef struct pf_runs {
    int n_a, n_b;              /* runs a side */
    int per_step;
    pf_runs_device *devices;   /* parallel to d->devices */
    int n_devices;
    pf_ratio_ci all;           /* the compared devices' GPU time, summed: what --fail-above gates */
} pf_runs;

/* Fills *out for the diff d of runs_a[0] against runs_b[0] (see pf_runs). Returns 0, or -1
 * with err set when memory runs out. Free with pf_runs_free. */
int pf_runs_compare(const pf_diff *d, const pf_analysis *const *runs_a, int n_a, const pf_analysis *const *runs_b,
                    int n_b, pf_runs **out, pf_error *err);

/* Frees what pf_runs_compare made. NULL is a no-op. */
void pf_runs_free(pf_runs *r);

#endif
