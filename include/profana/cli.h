/* cli.h - parsed command-line options and the subcommand entry points that main dispatches to. */
/* layer: cmd (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_CLI_H
#define PROFANA_CLI_H

#include "profana/analysis.h"
#include "profana/tabulate.h"
#include "profana/view.h"

/* Exit statuses (README "Exit status"). */
enum { PF_EXIT_OK = 0, PF_EXIT_TRACE = 1, PF_EXIT_USAGE = 2 };

/* What the command line asks for: a command, or one of --analysis's modes. The command rows
 * and the mode rows of the option table write it (src/cmd/cli_options.c); pf_cli_run
 * dispatches on it, in one switch. */
typedef enum pf_mode {
    PF_MODE_NONE = 0,          /* no command given */
    PF_MODE_TABLE,             /* --analysis: the rows table */
    PF_MODE_DIFF,
    PF_MODE_AUGMENT,
    PF_MODE_COMBINE,
    PF_MODE_DEVICES,           /* --list-devices */
    PF_MODE_RANKS,
    PF_MODE_EXPLAIN,           /* --analysis --explain NAME: one invocation */
    PF_MODE_STEPS,             /* --analysis --steps: one line per ProfilerStep */
} pf_mode;

typedef struct pf_cli {
    const char *command;       /* "--analysis", ... */
    pf_mode mode;              /* the command, or its mode (--explain, --steps) */
    const char **pos;          /* positional arguments after the command */
    int npos;
    int name_limit;            /* --name_limit N (text and Markdown only) */
    int wide;                  /* --wide: text shows every column, no width limit */
    const char *columns;       /* --columns LIST; NULL when not given */
    int top;                   /* --top N; 0 = every row */
    int depth;                 /* --depth N (--group module); 0 = every level */
    pf_format format;          /* --format */
    pf_analysis_opts an;       /* --group, --tf32, --device, and the DTYPE positional */
    const char *device_name;   /* --device NAME as given; an.force_device is resolved from it
                                  once the device file is read */
    double clock_mhz;          /* --clock MHZ; 0 when not given */
    const char *device_file;   /* --device-file FILE, else $PROFANA_DEVICES; NULL when neither */
    const pf_devset *devices;  /* the built-in table and the device file, at the --clock */
    int by_category;           /* --by-category: one table per category (text, Markdown) */
    int waits;                 /* --waits: the tables of why the GPU waits (waits.h) */
    pf_load_opts load;         /* -j N, --strict, and progress unless --quiet */
    double fail_above;         /* --diff --fail-above PCT; < 0 when not given */
    int extra;                 /* --augment_trace --extra: rates, percents and category too */
    const char *explain;       /* --explain OP_OR_KERNEL; NULL when not given */
    const char *plot_roofline; /* --plot roofline FILE.svg; NULL when not asked */
    const char *plot_breakdown;/* --plot breakdown FILE.svg */
    const char *plot_timeline; /* --plot timeline FILE.svg */
    const char *plot_ranks;    /* --plot ranks FILE.svg (--ranks) */
    const char *report;        /* --report FILE.html */
    const char *summary;       /* --summary OUT.json: what --ranks needs of the trace; NULL when not asked */
    const char *graph_capture; /* --graph-capture PATH: a graph capture's trace, or a directory of them */
    int timings;               /* --timings: wall time per phase on stderr (also PROFANA_TIMINGS=1) */
} pf_cli;

/* Parses argv into *cli (whose defaults it sets first; cli->pos is the caller's, room for
 * argc entries) and checks it, reading the device file into devices (pf_devset_free it
 * whatever is returned). Returns 0 or an exit status, printing the usage error; *done is
 * set when an option ended the run (--help, --version: the status is its). */
int pf_cli_parse(pf_cli *cli, int argc, char **argv, pf_devset *devices, int *done);

/* Runs what cli->mode names: the one switch over the commands and modes. Returns an exit
 * status. */
int pf_cli_run(const pf_cli *cli);

/* Each returns an exit status and prints its own errors (`profana: error: ...`). */
int cmd_analysis(const pf_cli *cli);
int cmd_diff(const pf_cli *cli);
int cmd_augment(const pf_cli *cli);
int cmd_combine(const pf_cli *cli);
int cmd_list_devices(const pf_cli *cli);
/* --ranks PATH... DTYPE: per-rank times, collectives matched across ranks, stragglers. */
int cmd_ranks(const pf_cli *cli);
/* --analysis --explain NAME: the first invocation of an op or kernel, its inputs and formula. */
int cmd_explain(const pf_cli *cli);

/* Exit status of --diff --fail-above when B is slower than allowed. */
enum { PF_EXIT_SLOWER = 3 };

/* Prints "profana: error: MSG" on stderr and returns PF_EXIT_TRACE. */
int pf_cli_error(const char *msg);

/* Once, before anything else: the process's signal dispositions (SIGBUS of a shrinking
 * mapped input: one error line, exit 1; SIGPIPE and SIGXFSZ ignored, so writes report them)
 * and, under an address-space limit, one malloc arena for every thread. */
void pf_cli_process_setup(void);

/* Flushes standard output: PF_EXIT_OK when it went out whole, or when its reader is gone
 * (EPIPE: `profana ... | head -1` ends quietly, as the reader asked; SIGPIPE is ignored by
 * main); else prints "cannot write to standard output" and returns PF_EXIT_TRACE. */
int pf_cli_stdout_status(void);

/* The error msg of writing OUT (--augment_trace, --combine): as pf_cli_error, except that
 * when OUT is "-" and standard output's reader is gone it is the normal end (PF_EXIT_OK,
 * nothing printed), as pf_cli_stdout_status takes it. */
int pf_cli_out_error(const char *out, const char *msg);
/* Prints "profana: MSG" and a hint to run --help on stderr, returns PF_EXIT_USAGE. */
int pf_cli_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Whether path can be read a second time: "-" and anything that is not a regular file or a
 * directory (a FIFO, a pipe of <(...), a character device) meets end-of-file or blocks on a
 * second pass. Returns 0, or prints "profana: WHAT reads its input twice ..." and returns
 * PF_EXIT_USAGE. A path that does not exist passes: the load reports it. */
int pf_cli_need_rereadable(const char *path, const char *what);

/* Loads a trace for a subcommand with the command line's load options, printing the error
 * and the trace's notes (on stderr). Returns NULL after printing the error. */
pf_trace *pf_cli_load(const pf_cli *cli, const char *path);
/* The same; the trace's notes go to stderr only when notes_to_stderr is non-zero (else the
 * view prints them: pf_view_opts.trace_notes). */
pf_trace *pf_cli_load_notes(const pf_cli *cli, const char *path, int notes_to_stderr);

/* The rendering options of the command line: format, --name_limit, --top, --group,
 * --by-category, --steps, --columns, the --plot and --report files (names left NULL: --diff
 * sets them), and the width text fits: 0 with --wide, else pf_cli_width(). */
pf_view_opts pf_cli_view_opts(const pf_cli *cli);

/* The width text output fits (--wide and --columns are the caller's, before this): $COLUMNS
 * when it is a number above 0, else stdout's terminal's width, else stderr's terminal's when
 * stdout is a pipe or file (| less), else 100. */
int pf_cli_width(void);

#endif
