/* test_runs.c - the interval of --diff over several runs (src/analysis/runs.c): Student's t points against a printed table, and Welch intervals on log times worked out by hand. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "profana/runs.h"

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol))

/* Two-sided 95% points from any statistics table (3 decimals). */
static void t_points(void)
{
    static const struct { double df, t; } table[] = {{1, 12.706}, {2, 4.303}, {3, 3.182}, {4, 2.776}, {5, 2.571},
                                                     {10, 2.228}, {20, 2.086}, {30, 2.042}, {60, 2.000}, {120, 1.980}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "t975(%g) = %.3f", table[i].df, table[i].t);
        CHECK(name, NEAR(pf_t975(table[i].df), table[i].t, 5e-4));
    }
    CHECK("t975 falls with df, between table rows too", pf_t975(2.5) < pf_t975(2) && pf_t975(2.5) > pf_t975(3));
    CHECK("t975 tends to the normal 1.95996", NEAR(pf_t975(1e6), 1.959964, 1e-5));
}

/* A's logs {0, 0.2}, B's {1, 1.2}: difference of means 1; each side's sample variance
 * 0.02, so its squared standard error 0.02 / 2 = 0.01; se = sqrt(0.02) = 0.1414214;
 * Welch df = 0.02^2 / (0.01^2 + 0.01^2) = 2, t = 4.302653;
 * interval exp(1 -/+ 4.302653 * 0.1414214) = exp(0.3915114), exp(1.6084886)
 * = [1.479217, 4.995248]; ratio e = 2.718282; spread e^0.2 - 1 = 0.2214028. */
static void welch_by_hand(void)
{
    double a[] = {1, exp(0.2)}, b[] = {exp(1), exp(1.2)};
    pf_ratio_ci c = pf_ratio_ci_of(a, 2, b, 2);
    CHECK("welch: ratio of geometric means e", NEAR(c.ratio, 2.718282, 1e-6));
    CHECK("welch: lower bound 1.479217", NEAR(c.lo, 1.479217, 1e-6));
    CHECK("welch: upper bound 4.995248", NEAR(c.hi, 4.995248, 1e-6));
    CHECK("welch: spread 0.2214028", NEAR(c.spread, 0.2214028, 1e-7));
    CHECK("welch: runs counted", c.n_a == 2 && c.n_b == 2);
    CHECK("welch: above 1 and beyond the spread: slower", c.verdict == PF_VERDICT_SLOWER);
    pf_ratio_ci f = pf_ratio_ci_of(b, 2, a, 2);
    CHECK("welch: the other way round: faster, 1/e", f.verdict == PF_VERDICT_FASTER && NEAR(f.ratio, 1 / 2.718282, 1e-6));
    CHECK("welch: the other way round: the bounds invert", NEAR(f.lo, 1 / 4.995248, 1e-6) && NEAR(f.hi, 1 / 1.479217, 1e-6));
}

static void verdicts(void)
{
    /* B's logs {0.1, 0.3}: difference 0.1, interval exp(0.1 -/+ 0.6085) holds 1: same */
    double a[] = {1, exp(0.2)}, b[] = {exp(0.1), exp(0.3)};
    pf_ratio_ci c = pf_ratio_ci_of(a, 2, b, 2);
    CHECK("verdict: an interval holding 1 is same", c.lo < 1 && c.hi > 1 && c.verdict == PF_VERDICT_SAME);
    /* B 103 in every run, A 100 or 102 (spread 2%): B/A 103 / sqrt(100 * 102) = 1.0198, whose
     * log 0.0196 is within log(1.02) = 0.0198; the interval (df 7) lies above 1: same */
    double a2[] = {100, 102, 100, 102, 100, 102, 100, 102}, b2[] = {103, 103, 103};
    pf_ratio_ci s = pf_ratio_ci_of(a2, 8, b2, 3);
    CHECK("verdict: a change within the run-to-run spread is same", s.lo > 1 && s.verdict == PF_VERDICT_SAME);
    double a3[] = {100, 100}, b3[] = {103, 103};
    pf_ratio_ci z = pf_ratio_ci_of(a3, 2, b3, 2);
    CHECK("verdict: identical runs: the interval is the ratio, 1.03: slower",
          z.lo == z.ratio && z.hi == z.ratio && NEAR(z.ratio, 1.03, 1e-12) && z.verdict == PF_VERDICT_SLOWER);
}

static void too_few(void)
{
    double a[] = {100}, b[] = {110, 111};
    pf_ratio_ci c = pf_ratio_ci_of(a, 1, b, 2);
    CHECK("one run on a side: no interval", c.verdict == PF_VERDICT_NONE && c.lo < 0 && c.hi < 0);
    CHECK("one run on a side: the ratio of geometric means still (sqrt(110*111)/100)",
          NEAR(c.ratio, sqrt(110.0 * 111.0) / 100, 1e-12));
    double z[] = {0, 100, -1}, b2[] = {100, 101};
    pf_ratio_ci d = pf_ratio_ci_of(z, 3, b2, 2);
    CHECK("values <= 0 are left out: one run remains on A", d.n_a == 1 && d.verdict == PF_VERDICT_NONE);
    pf_ratio_ci e = pf_ratio_ci_of(z, 1, b2, 2);
    CHECK("no value on a side: no ratio", e.ratio < 0 && e.verdict == PF_VERDICT_NONE);
    CHECK("verdict names", pf_verdict_name(PF_VERDICT_SAME)[0] == 's' && pf_verdict_name(PF_VERDICT_NONE) == NULL);
}

/* One run: a trace with steps and one device whose one row "k" made count calls in total_ns. */
typedef struct fake_run {
    pf_trace trace;
    pf_row row;
    pf_device_report dev;
    pf_analysis an;
} fake_run;

static void fake(fake_run *f, int64_t count, int64_t total_ns, size_t steps)
{
    memset(f, 0, sizeof *f);
    f->trace.n_cpu_steps = steps;
    f->row.key = "k";
    f->row.count = f->row.invocations = count;
    f->row.total_ns = total_ns;
    f->dev.rows = &f->row;
    f->dev.n_rows = 1;
    f->dev.total = f->row;
    f->an.trace = &f->trace;
    f->an.devices = &f->dev;
    f->an.n_devices = 1;
}

/* A row whose calls went from 2 to 4 a run: 1000 and 1050 ns a call (2000, 2100 in all) against
 * 750 and 787.5 (3000, 3150): per call B/A 0.75 ("faster"), in total 1.5. Judged on total time;
 * with twice the steps on B, the calls per step are equal and it is judged per call. */
static void counts_change(void)
{
    fake_run a[2], b[2];
    for (int pass = 0; pass < 2; pass++) {
        fake(&a[0], 2, 2000, 1);
        fake(&a[1], 2, 2100, 1);
        fake(&b[0], 4, 3000, pass ? 2 : 1);
        fake(&b[1], 4, 3150, pass ? 2 : 1);
        const pf_analysis *ra[] = {&a[0].an, &a[1].an}, *rb[] = {&b[0].an, &b[1].an};
        pf_diff *d = NULL;
        pf_runs *r = NULL;
        pf_error err;
        CHECK("counts: diff and runs", pf_diff_run(&a[0].an, &b[0].an, PF_GROUP_KERNEL, &d, &err) == 0 &&
                                           pf_runs_compare(d, ra, 2, rb, 2, &r, &err) == 0);
        if (!d || !r)
            return;
        const pf_ratio_ci *c = &r->devices[0].rows[0];
        if (pass == 0) {
            CHECK("counts 2 -> 4 a run: judged on total time", r->devices[0].by_total[0] == 1);
            CHECK("counts: the interval is of the totals, 1.5 (not 0.75), and says slower",
                  NEAR(c->ratio, 1.5, 1e-12) && c->lo > 1 && c->verdict == PF_VERDICT_SLOWER);
        } else {
            CHECK("per step (1 against 2 steps): 2 calls a step on each side, judged per call",
                  r->per_step && r->devices[0].by_total[0] == 0);
            CHECK("per step: the interval is of the means, 0.75, faster",
                  NEAR(c->ratio, 0.75, 1e-12) && c->verdict == PF_VERDICT_FASTER);
        }
        pf_runs_free(r);
        pf_diff_free(d);
    }
}

int main(void)
{
    t_points();
    welch_by_hand();
    verdicts();
    too_few();
    counts_change();
    CHECK_DONE();
}
