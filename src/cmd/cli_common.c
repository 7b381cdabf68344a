/* cli_common.c - what every subcommand does the same way: print errors, load a trace and report its notes, pick the view options. */
#include <stdarg.h>
#include <stdio.h>

#include "profana/cli.h"

int pf_cli_error(const char *msg)
{
    fprintf(stderr, "profana: error: %s\n", msg);
    return PF_EXIT_TRACE;
}

int pf_cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    fputs("profana: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\nTry 'profana --help'.\n", stderr);
    return PF_EXIT_USAGE;
}

pf_trace *pf_cli_load(const pf_cli *cli, const char *path)
{
    pf_trace *t;
    pf_error err;
    if (pf_trace_load_opts(path, &cli->load, &t, &err)) {
        pf_cli_error(err.msg);
        return NULL;
    }
    for (int i = 0; i < t->n_warnings; i++)
        fprintf(stderr, "profana: warning: %s: %s\n", path, t->warnings[i]);
    for (int i = 0; i < t->n_notes; i++)
        fprintf(stderr, "profana: note: %s: %s\n", path, t->notes[i]);
    return t;
}

pf_view_opts pf_cli_view_opts(const pf_cli *cli)
{
    pf_view_opts v = {
        .format = cli->format,
        .name_limit = cli->name_limit,
        .top = cli->top,
        .group = cli->an.group,
        .by_category = cli->by_category,
        .steps = cli->steps,
        .plot_roofline = cli->plot_roofline,
        .plot_breakdown = cli->plot_breakdown,
        .report = cli->report,
    };
    return v;
}
