/* cli.h - parsed command-line options and the subcommand entry points that main dispatches to. */
#ifndef PROFANA_CLI_H
#define PROFANA_CLI_H

#include "profana/analysis.h"
#include "profana/tabulate.h"

/* Exit statuses (README "Exit status"). */
enum { PF_EXIT_OK = 0, PF_EXIT_TRACE = 1, PF_EXIT_USAGE = 2 };

typedef struct pf_cli {
    const char *command;       /* "--analysis", ... */
    const char **pos;          /* positional arguments after the command */
    int npos;
    int name_limit;            /* --name_limit N (text and Markdown only) */
    int top;                   /* --top N; 0 = every row */
    pf_format format;          /* --format */
    pf_analysis_opts an;       /* --group, --tf32, --device, and the DTYPE positional */
    const char *device_name;   /* --device NAME as given */
    int by_category;           /* --by-category: one table per category (text, Markdown) */
} pf_cli;

/* Each returns an exit status and prints its own errors (`profana: error: ...`). */
int cmd_analysis(const pf_cli *cli);
int cmd_list_devices(const pf_cli *cli);

/* Prints "profana: error: MSG" on stderr and returns PF_EXIT_TRACE. */
int pf_cli_error(const char *msg);
/* Prints "profana: MSG" and a hint to run --help on stderr, returns PF_EXIT_USAGE. */
int pf_cli_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Loads a trace for a subcommand, printing the error and the trace's notes (on stderr).
 * Returns NULL after printing the error. */
pf_trace *pf_cli_load(const char *path);

#endif
