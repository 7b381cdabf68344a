/* runs.c - confidence intervals for --diff over several runs a side: Welch's t on log times, the run-to-run spread, verdicts per row and per device. */
#include "profana/runs.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *pf_verdict_name(pf_verdict v)
{
    static const char *const names[] = {NULL, "same", "slower", "faster"};
    return (unsigned)v < sizeof names / sizeof names[0] ? names[v] : NULL;
}

/* The continued fraction of the regularised incomplete beta function I_x(a, b), by the
 * modified Lentz method (Press et al., Numerical Recipes, 6.4); converges for x < (a+1)/(a+b+2). */
static double beta_cf(double a, double b, double x)
{
    const double tiny = 1e-300, eps = 1e-15;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    d = 1 / (fabs(d) < tiny ? tiny : d);
    double h = d;
    for (int m = 1; m <= 300; m++) {
        double m2 = 2.0 * m, num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
        for (int k = 0; k < 2; k++) {
            d = 1 + num * d;
            d = 1 / (fabs(d) < tiny ? tiny : d);
            c = 1 + num / c;
            c = fabs(c) < tiny ? tiny : c;
            h *= d * c;
            num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
        }
        if (fabs(d * c - 1) < eps)
            break;
    }
    return h;
}

/* I_x(a, b), the regularised incomplete beta function, 0 <= x <= 1. */
static double beta_inc(double a, double b, double x)
{
    if (x <= 0 || x >= 1)
        return x <= 0 ? 0 : 1;
    double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
    if (x < (a + 1) / (a + b + 2))
        return front * beta_cf(a, b, x) / a;
    return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double pf_t975(double df)
{
    assert(df >= 1);
    /* P(|T| > t) = I_{df/(df+t^2)}(df/2, 1/2) falls as t grows: bisect for 0.05 */
    double lo = 0, hi = 64;
    for (int i = 0; i < 64; i++) {
        double t = (lo + hi) / 2;
        if (beta_inc(df / 2, 0.5, df / (df + t * t)) > 0.05)
            lo = t;
        else
            hi = t;
    }
    return (lo + hi) / 2;
}

/* Mean and sample variance of the logs of the positive values; returns how many there are. */
static int log_stats(const double *v, int n, double *mean, double *var, double *spread)
{
    int k = 0;
    double s = 0, mn = 0, mx = 0;
    for (int i = 0; i < n; i++) {
        if (!(v[i] > 0))
            continue;
        s += log(v[i]);
        mn = k == 0 || v[i] < mn ? v[i] : mn;
        mx = k == 0 || v[i] > mx ? v[i] : mx;
        k++;
    }
    *mean = k ? s / k : 0;
    double ss = 0;
    for (int i = 0; i < n; i++)
        if (v[i] > 0)
            ss += (log(v[i]) - *mean) * (log(v[i]) - *mean);
    *var = k > 1 ? ss / (k - 1) : 0;
    *spread = k ? mx / mn - 1 : 0;
    return k;
}

/* same when the interval holds 1 or the change is no larger than the runs' own spread */
static pf_verdict judge(const pf_ratio_ci *c)
{
    int within = fabs(log(c->ratio)) <= log1p(c->spread);
    if ((c->lo <= 1 && c->hi >= 1) || within)
        return PF_VERDICT_SAME;
    return c->lo > 1 ? PF_VERDICT_SLOWER : PF_VERDICT_FASTER;
}

pf_ratio_ci pf_ratio_ci_of(const double *a, int na, const double *b, int nb)
{
    pf_ratio_ci c = {-1, -1, -1, -1, 0, 0, PF_VERDICT_NONE};
    double ma, va, sa, mb, vb, sb;
    c.n_a = log_stats(a, na, &ma, &va, &sa);
    c.n_b = log_stats(b, nb, &mb, &vb, &sb);
    if (!c.n_a || !c.n_b)
        return c;
    c.ratio = exp(mb - ma);
    if (c.n_a < 2 || c.n_b < 2)
        return c;
    double ea = va / c.n_a, eb = vb / c.n_b, se = sqrt(ea + eb);
    c.spread = sa > sb ? sa : sb;
    if (se > 0) {
        double df = (ea + eb) * (ea + eb) / (ea * ea / (c.n_a - 1) + eb * eb / (c.n_b - 1));
        double h = pf_t975(df < 1 ? 1 : df) * se;
        c.lo = exp(mb - ma - h);
        c.hi = exp(mb - ma + h);
    } else {
        c.lo = c.hi = c.ratio;
    }
    c.verdict = judge(&c);
    return c;
}

/* ---- rows of the other runs, found by key ---- */

static int cmp_row_key(const void *x, const void *y)
{
    return strcmp((*(const pf_row *const *)x)->key, (*(const pf_row *const *)y)->key);
}

/* One device's rows of one run, sorted by key for lookups. */
typedef struct keyed {
    const pf_row **rows;
    size_t n;
    const pf_device_report *dev;
} keyed;

static int keyed_init(keyed *k, const pf_analysis *an, int device)
{
    k->dev = device < an->n_devices ? &an->devices[device] : NULL;
    k->n = k->dev ? k->dev->n_rows : 0;
    k->rows = malloc((k->n ? k->n : 1) * sizeof *k->rows);
    if (!k->rows)
        return -1;
    for (size_t i = 0; i < k->n; i++)
        k->rows[i] = &k->dev->rows[i];
    qsort(k->rows, k->n, sizeof *k->rows, cmp_row_key);
    return 0;
}

static const pf_row *keyed_find(const keyed *k, const char *key)
{
    pf_row probe = {.key = key};
    const pf_row *p = &probe;
    const pf_row **hit = k->n ? bsearch(&p, k->rows, k->n, sizeof *k->rows, cmp_row_key) : NULL;
    return hit ? *hit : NULL;
}

/* What a run's GPU time is divided by: its CPU-side profiler steps when comparing per step. */
static double time_unit(const pf_analysis *an, int per_step)
{
    return per_step ? (double)an->trace->n_cpu_steps : 1.0;
}

/* The value of the row with key in each run (0 where the run lacks it): its mean time per
 * call, or with by_total its total time (per step when per_step). */
static void row_values(const keyed *runs, const pf_analysis *const *an, int n, const char *key, int by_total,
                       int per_step, double *out)
{
    for (int i = 0; i < n; i++) {
        const pf_row *r = key ? keyed_find(&runs[i], key) : NULL;
        if (!r)
            out[i] = 0;
        else
            out[i] = by_total ? (double)r->total_ns / time_unit(an[i], per_step) : pf_row_mean_ns(r);
    }
}

/* Whether a matched row's counts differ between the first runs of the sides, per step when
 * per_step (a trace of 6 steps makes twice the calls of one of 3). */
static int counts_differ(const pf_diff_row *dr, const pf_analysis *a0, const pf_analysis *b0, int per_step)
{
    if (!dr->a || !dr->b)
        return 0;
    if (!per_step)
        return dr->a->invocations != dr->b->invocations;
    /* cross-multiplied, exact in integers: a / steps_a != b / steps_b */
    return (double)dr->a->invocations * time_unit(b0, 1) != (double)dr->b->invocations * time_unit(a0, 1);
}

static double gpu_time(const keyed *k, const pf_analysis *an, int per_step)
{
    return k->dev ? (double)k->dev->total.total_ns / time_unit(an, per_step) : 0;
}

typedef struct side_runs {
    const pf_analysis *const *an;
    int n;
    keyed *k;
    double *v;
} side_runs;

static int side_open(side_runs *s, const pf_analysis *const *an, int n, int device)
{
    s->an = an;
    s->n = n;
    s->k = calloc((size_t)n, sizeof *s->k);
    s->v = malloc((size_t)n * sizeof *s->v);
    if (!s->k || !s->v)
        return -1;
    for (int i = 0; i < n; i++)
        if (keyed_init(&s->k[i], an[i], device))
            return -1;
    return 0;
}

static void side_close(side_runs *s)
{
    for (int i = 0; s->k && i < s->n; i++)
        free(s->k[i].rows);
    free(s->k);
    free(s->v);
}

static int compare_device(const pf_diff_device *dd, side_runs *a, side_runs *b, int per_step, pf_runs_device *out)
{
    out->rows = calloc(dd->n_rows ? dd->n_rows : 1, sizeof *out->rows);
    out->by_total = calloc(dd->n_rows ? dd->n_rows : 1, sizeof *out->by_total);
    if (!out->rows || !out->by_total)
        return -1;
    for (size_t r = 0; r < dd->n_rows; r++) {
        const pf_diff_row *dr = &dd->rows[r];
        int t = out->by_total[r] = counts_differ(dr, a->an[0], b->an[0], per_step);
        row_values(a->k, a->an, a->n, dr->a ? dr->a->key : NULL, t, per_step, a->v);
        row_values(b->k, b->an, b->n, dr->b ? dr->b->key : NULL, t, per_step, b->v);
        out->rows[r] = pf_ratio_ci_of(a->v, a->n, b->v, b->n);
    }
    for (int i = 0; i < a->n; i++)
        a->v[i] = gpu_time(&a->k[i], a->an[i], per_step);
    for (int i = 0; i < b->n; i++)
        b->v[i] = gpu_time(&b->k[i], b->an[i], per_step);
    out->overall = pf_ratio_ci_of(a->v, a->n, b->v, b->n);
    return 0;
}

static int all_have_steps(const pf_analysis *const *an, int n)
{
    for (int i = 0; i < n; i++)
        if (an[i]->trace->n_cpu_steps == 0)
            return 0;
    return 1;
}

/* The GPU time of the devices d compares, summed, in each run of one side. */
static double *summed_times(const pf_diff *d, const pf_analysis *const *an, int n, int per_step)
{
    double *v = calloc((size_t)n, sizeof *v);
    for (int i = 0; v && i < n; i++) {
        for (int k = 0; k < d->n_devices && k < an[i]->n_devices; k++)
            v[i] += (double)an[i]->devices[k].total.total_ns;
        v[i] /= time_unit(an[i], per_step);
    }
    return v;
}

static int all_devices(const pf_diff *d, const pf_analysis *const *runs_a, int n_a, const pf_analysis *const *runs_b,
                       int n_b, pf_runs *r)
{
    double *a = summed_times(d, runs_a, n_a, r->per_step), *b = summed_times(d, runs_b, n_b, r->per_step);
    int rc = a && b ? 0 : -1;
    if (rc == 0)
        r->all = pf_ratio_ci_of(a, n_a, b, n_b);
    free(a);
    free(b);
    return rc;
}

int pf_runs_compare(const pf_diff *d, const pf_analysis *const *runs_a, int n_a, const pf_analysis *const *runs_b,
                    int n_b, pf_runs **out, pf_error *err)
{
    assert(n_a >= 1 && n_b >= 1);
    pf_runs *r = calloc(1, sizeof *r);
    *out = NULL;
    if (!r || !(r->devices = calloc((size_t)(d->n_devices ? d->n_devices : 1), sizeof *r->devices))) {
        free(r);
        return pf_fail(err, "out of memory");
    }
    r->n_a = n_a;
    r->n_b = n_b;
    r->per_step = all_have_steps(runs_a, n_a) && all_have_steps(runs_b, n_b);
    int rc = 0;
    for (int i = 0; rc == 0 && i < d->n_devices; i++, r->n_devices++) {
        side_runs a = {0}, b = {0};
        rc = side_open(&a, runs_a, n_a, i) || side_open(&b, runs_b, n_b, i) ||
             compare_device(&d->devices[i], &a, &b, r->per_step, &r->devices[i]);
        side_close(&a);
        side_close(&b);
    }
    if (rc || all_devices(d, runs_a, n_a, runs_b, n_b, r)) {
        pf_runs_free(r);
        return pf_fail(err, "out of memory");
    }
    *out = r;
    return 0;
}

void pf_runs_free(pf_runs *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->n_devices; i++) {
        free(r->devices[i].rows);
        free(r->devices[i].by_total);
    }
    free(r->devices);
    free(r);
}
