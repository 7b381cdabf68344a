/* cmd_analysis.c - `--analysis FILE DTYPE`: loads and analyses the trace, writes the --plot/--report files, then prints the view (src/render/analysis_view.c). */
#include <stdio.h>

#include "profana/cli.h"
#include "profana/report.h"

/* One stderr line per device the table does not know, saying how to name it. */
static void warn_unknown_devices(const pf_analysis *an)
{
    for (int i = 0; i < an->n_devices; i++)
        if (!an->devices[i].info)
            fprintf(stderr, "profana: device %d (\"%s\") is not in the device table; percentages are '-'; "
                            "name one with --device NAME (profana --list-devices)\n",
                    an->devices[i].device->id, an->devices[i].device->name);
}

int cmd_analysis(const pf_cli *cli)
{
    if (cli->explain)
        return cmd_explain(cli);
    pf_trace *t = pf_cli_load(cli, cli->pos[0]);
    if (!t)
        return PF_EXIT_TRACE;
    pf_analysis *an;
    pf_error err;
    if (pf_analysis_run(t, &cli->an, &an, &err)) {
        pf_trace_free(t);
        return pf_cli_error(err.msg);
    }
    pf_view_opts v = pf_cli_view_opts(cli);
    if (!cli->an.force_device)
        warn_unknown_devices(an);
    if (an->n_devices == 0)
        fprintf(stderr, "profana: %s: the trace has no GPU activity (no kernel, memcpy or memset events)\n", t->path);
    /* --plot / --report files written first: a bad output path stops the run before any table
     * is printed; they are put in place only once standard output went out whole. */
    pf_plot_files files;
    if (pf_plots_write(&v, an, &files, &err)) {
        pf_analysis_free(an);
        pf_trace_free(t);
        return pf_cli_error(err.msg);
    }
    int rc = pf_view_analysis(stdout, &v, an);
    pf_analysis_free(an);
    pf_trace_free(t);
    if (rc) {
        pf_plots_abort(&files);
        return pf_cli_error("out of memory");
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        pf_plots_abort(&files);
        return pf_cli_error("cannot write to standard output");
    }
    if (pf_plots_commit(&files, &err))
        return pf_cli_error(err.msg);
    return PF_EXIT_OK;
}
