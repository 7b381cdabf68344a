/* cmd_diff.c - `--diff A NAME_A B NAME_B DTYPE`: loads and analyses both traces, pairs their devices, writes the --plot/--report files, prints the view (src/render/diff_view.c) and applies the --fail-above gate. */
#include <stdio.h>

#include "profana/cli.h"
#include "profana/diff.h"
#include "profana/report.h"

/* --fail-above: B's GPU time over the compared devices against A's, for CI. */
static int gate(const pf_view_opts *v, const pf_diff *d, double limit)
{
    int64_t a = 0, b = 0;
    for (int i = 0; i < d->n_devices; i++) {
        a += d->devices[i].summary.a_total_ns;
        b += d->devices[i].summary.b_total_ns;
    }
    if (limit < 0 || (double)b <= (double)a * (1 + limit / 100))
        return PF_EXIT_OK;
    fprintf(stderr, "profana: %s's GPU time %.3f us is ", v->names[1], b / 1e3);
    if (a > 0)
        fprintf(stderr, "%.2f%% above", 100.0 * ((double)b / (double)a - 1));
    else
        fputs("above", stderr);
    fprintf(stderr, " %s's %.3f us, more than --fail-above %g%% allows\n", v->names[0], a / 1e3, limit);
    return PF_EXIT_SLOWER;
}

/* Loads and analyses one side. Returns 0, or an exit status after printing the error. */
static int analyse(const pf_cli *cli, const char *path, pf_trace **t, pf_analysis **an)
{
    pf_error err;
    if (!(*t = pf_cli_load(cli, path)))
        return PF_EXIT_TRACE;
    if (pf_analysis_run(*t, &cli->an, an, &err))
        return pf_cli_error(err.msg);
    return 0;
}

int cmd_diff(const pf_cli *cli)
{
    pf_view_opts v = pf_cli_view_opts(cli);
    v.names[0] = cli->pos[1];
    v.names[1] = cli->pos[3];
    pf_trace *t[2] = {NULL, NULL};
    pf_analysis *an[2] = {NULL, NULL};
    pf_diff *d = NULL;
    pf_error err;
    int rc = analyse(cli, cli->pos[0], &t[0], &an[0]);
    if (rc == 0)
        rc = analyse(cli, cli->pos[2], &t[1], &an[1]);
    if (rc == 0 && pf_diff_run(an[0], an[1], cli->an.group, &d, &err))
        rc = pf_cli_error(err.msg);
    if (rc == 0 && pf_plots_write_diff(&v, an[0], an[1], d, &err))
        rc = pf_cli_error(err.msg);
    if (rc == 0 && d->n_devices == 0)
        fprintf(stderr, "profana: no device ran something in both traces: nothing to compare\n");
    if (rc == 0 && pf_view_diff(stdout, stderr, &v, d))
        rc = pf_cli_error("out of memory");
    if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout)))
        rc = pf_cli_error("cannot write to standard output");
    if (rc == 0)
        rc = gate(&v, d, cli->fail_above);
    pf_diff_free(d);
    for (int i = 0; i < 2; i++) {
        pf_analysis_free(an[i]);
        pf_trace_free(t[i]);
    }
    return rc;
}
