/* cmd_diff.c - `--diff A1[,A2...] NAME_A B1[,B2...] NAME_B DTYPE`: loads and analyses every run of both sides, pairs the first runs' devices and rows, adds intervals over the runs (src/analysis/runs.c), writes the --plot/--report files, prints the view (src/render/diff_view.c) and applies the --fail-above gate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/cli.h"
#include "profana/diff.h"
#include "profana/report.h"
#include "profana/runs.h"

#define MAX_RUNS 64

/* One side: its runs' paths (split from the comma-separated argument), traces and analyses. */
typedef struct side {
    char *paths;               /* the argument, commas turned into NULs */
    const char *path[MAX_RUNS];
    int n;
    pf_trace *t[MAX_RUNS];
    pf_analysis *an[MAX_RUNS];
} side;

/* The next run's end in p: the first comma not escaped as "\,"; each "\," is turned into a
 * comma in place (a file name may hold one). Returns the end, or NULL at the last run. */
static char *run_end(char *p)
{
    char *w = p;
    for (; *p; p++) {
        if (p[0] == '\\' && p[1] == ',')
            p++;
        else if (*p == ',')
            break;
        *w++ = *p;
    }
    char *next = *p ? p + 1 : NULL;
    *w = '\0';
    return next;
}

/* Splits "a,b,c" into paths ("a\,b" is the one file "a,b"). Returns 0, or an exit status
 * after printing the error. */
static int split_runs(side *s, const char *arg)
{
    if (!(s->paths = strdup(arg)))
        return pf_cli_error("out of memory");
    for (char *p = s->paths, *next; p; p = next) {
        next = run_end(p);
        if (!*p)
            return pf_cli_usage_error("--diff: an empty path in the comma-separated runs '%s'", arg);
        if (s->n == MAX_RUNS)
            return pf_cli_usage_error("--diff: more than %d runs a side", MAX_RUNS);
        s->path[s->n++] = p;
    }
    return 0;
}

/* A run's GPU time over all its devices. */
static int64_t run_gpu_ns(const pf_analysis *an)
{
    int64_t ns = 0;
    for (int k = 0; k < an->n_devices; k++)
        ns += an->devices[k].total.total_ns;
    return ns;
}

/* Loads and analyses every run of one side. A run without GPU activity among several is
 * said to be left out: the intervals take the logarithms of positive times only, so it
 * would otherwise vanish from its side unnoticed. Returns 0, or an exit status after
 * printing the error. */
static int analyse(const pf_cli *cli, side *s, const char *name)
{
    pf_error err;
    for (int i = 0; i < s->n; i++) {
        if (!(s->t[i] = pf_cli_load(cli, s->path[i])))
            return PF_EXIT_TRACE;
        if (pf_analysis_run(s->t[i], &cli->an, &s->an[i], &err))
            return pf_cli_error(err.msg);
        for (int k = 0; k < s->an[i]->n_notes; k++) /* an Inductor module's parse past its budget */
            fprintf(stderr, "profana: note: %s\n", s->an[i]->notes[k]);
        if (s->n > 1 && run_gpu_ns(s->an[i]) <= 0)
            fprintf(stderr, "profana: warning: %s: no GPU activity: left out of %s's %d runs\n", s->path[i], name,
                    s->n);
    }
    return 0;
}

static void side_free(side *s)
{
    for (int i = 0; i < s->n; i++) {
        pf_analysis_free(s->an[i]);
        pf_trace_free(s->t[i]);
    }
    free(s->paths);
}

/* --fail-above, one run a side: B's GPU time over the compared devices against A's. */
static int gate_one(const pf_view_opts *v, const pf_diff *d, double limit)
{
    int64_t a = 0, b = 0;
    for (int i = 0; i < d->n_devices; i++) {
        a += d->devices[i].summary.a_total_ns;
        b += d->devices[i].summary.b_total_ns;
    }
    if ((double)b <= (double)a * (1 + limit / 100))
        return PF_EXIT_OK;
    fprintf(stderr, "profana: %s's GPU time %.3f us is ", v->names[1], b / 1e3);
    if (a > 0)
        fprintf(stderr, "%.2f%% above", 100.0 * ((double)b / (double)a - 1));
    else
        fputs("above", stderr);
    fprintf(stderr, " %s's %.3f us, more than --fail-above %g%% allows\n", v->names[0], a / 1e3, limit);
    return PF_EXIT_SLOWER;
}

/* Why the gate cannot judge B against A, or NULL when it can. */
static const char *gate_blocked(const pf_diff *d, const pf_runs *r)
{
    if (d->n_devices == 0)
        return "no device ran something in both traces";
    if (r && r->all.verdict == PF_VERDICT_NONE)
        return "an interval needs 2 runs with GPU activity on each side";
    int64_t a = 0;
    for (int i = 0; i < d->n_devices; i++)
        a += d->devices[i].summary.a_total_ns;
    return a > 0 ? NULL : "A's GPU time on the compared devices is 0";
}

/* --fail-above over several runs: fires only when the interval's lower bound is above the limit. */
static int gate_runs(const pf_view_opts *v, const pf_runs *r, double limit)
{
    const pf_ratio_ci *c = &r->all;
    if (c->verdict == PF_VERDICT_NONE || c->lo <= 1 + limit / 100)
        return PF_EXIT_OK;
    fprintf(stderr,
            "profana: %s's GPU time is %.2f%% above %s's (B/A %.3f, 95%% interval [%.3f, %.3f] over %d and %d runs): "
            "even its lower bound is more than --fail-above %g%% allows\n",
            v->names[1], 100.0 * (c->ratio - 1), v->names[0], c->ratio, c->lo, c->hi, r->n_a, r->n_b, limit);
    return PF_EXIT_SLOWER;
}

/* A --group kernel diff that matches little of the time (kernel names differ across vendors
 * and compilers) is diffed by op too, so the view can name the grouping that matches more
 * (issue 47). The first runs' traces are analysed again by op: the extra cost only of such a
 * diff (docs/performance.md). Returns 0, or -1 when memory runs out. */
static int hint_group(const pf_cli *cli, side *s, pf_diff *d, pf_error *err)
{
    if (cli->an.group != PF_GROUP_KERNEL || !pf_diff_matches_little(d))
        return 0;
    pf_analysis_opts o = cli->an;
    o.group = PF_GROUP_OP;
    o.idle_gaps = 0;
    o.timings = NULL;
    pf_analysis *an[2] = {NULL, NULL};
    pf_diff *alt = NULL;
    int rc = pf_analysis_run(s[0].t[0], &o, &an[0], err) || pf_analysis_run(s[1].t[0], &o, &an[1], err) ||
             pf_diff_run(an[0], an[1], PF_GROUP_OP, &alt, err);
    if (rc == 0)
        pf_diff_hint_group(d, alt, PF_GROUP_OP);
    pf_diff_free(alt);
    pf_analysis_free(an[0]);
    pf_analysis_free(an[1]);
    return rc ? -1 : 0;
}

static int compare(const pf_cli *cli, const pf_view_opts *v, side *s)
{
    pf_diff *d = NULL;
    pf_runs *runs = NULL;
    pf_error err;
    int several = s[0].n > 1 || s[1].n > 1, rc = 0;
    if (pf_diff_run(s[0].an[0], s[1].an[0], cli->an.group, &d, &err))
        return pf_cli_error(err.msg);
    if (hint_group(cli, s, d, &err)) {
        pf_diff_free(d);
        return pf_cli_error(err.msg);
    }
    if (several && pf_runs_compare(d, (const pf_analysis *const *)s[0].an, s[0].n, (const pf_analysis *const *)s[1].an,
                                   s[1].n, &runs, &err))
        rc = pf_cli_error(err.msg);
    pf_plot_files files; /* put in place only once standard output went out whole */
    memset(&files, 0, sizeof files);
    if (rc == 0 && pf_plots_write_diff(v, s[0].an[0], s[1].an[0], d, &files, &err))
        rc = pf_cli_error(err.msg);
    const char *blocked = cli->fail_above >= 0 ? gate_blocked(d, runs) : NULL;
    if (rc == 0 && d->n_devices == 0 && !blocked)
        fprintf(stderr, "profana: no device ran something in both traces: nothing to compare\n");
    if (rc == 0 && pf_view_diff(stdout, stderr, v, d, runs))
        rc = pf_cli_error("out of memory");
    if (rc == 0)
        rc = pf_cli_stdout_status();
    if (rc == 0 && pf_plots_commit(&files, &err))
        rc = pf_cli_error(err.msg);
    if (rc)
        pf_plots_abort(&files);
    /* a gate that cannot compare fails closed: a CI job must not pass on an empty trace */
    if (rc == 0 && blocked) {
        fprintf(stderr, "profana: --fail-above %g%%: cannot compare %s with %s: %s\n", cli->fail_above, v->names[1],
                v->names[0], blocked);
        rc = PF_EXIT_SLOWER;
    } else if (rc == 0 && cli->fail_above >= 0)
        rc = runs ? gate_runs(v, runs, cli->fail_above) : gate_one(v, d, cli->fail_above);
    pf_runs_free(runs);
    pf_diff_free(d);
    return rc;
}

int cmd_diff(const pf_cli *cli)
{
    pf_view_opts v = pf_cli_view_opts(cli);
    v.names[0] = cli->pos[1];
    v.names[1] = cli->pos[3];
    side s[2];
    memset(s, 0, sizeof s);
    int rc = split_runs(&s[0], cli->pos[0]);
    if (rc == 0)
        rc = split_runs(&s[1], cli->pos[2]);
    /* the charts and the report draw one trace a side: with several runs they would show
     * the first run's figures as if they were the comparison's */
    if (rc == 0 && (s[0].n > 1 || s[1].n > 1) && (v.plot_roofline || v.plot_breakdown || v.report))
        rc = pf_cli_usage_error("--diff: --plot and --report draw one run a side; give one trace a side for them");
    if (rc == 0)
        rc = analyse(cli, &s[0], v.names[0]);
    if (rc == 0)
        rc = analyse(cli, &s[1], v.names[1]);
    if (rc == 0)
        rc = compare(cli, &v, s);
    side_free(&s[0]);
    side_free(&s[1]);
    return rc;
}
