/* main.c - parses the command line and dispatches to a subcommand: one table of commands and one of options, whose rows carry their actions and defaults and also write --help. */
#include <assert.h>
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "profana/captures.h"
#include "profana/cli.h"
#include "profana/clitext.h"
#include "profana/op_family.h"
#include "profana/outfile.h"

#define PROFANA_VERSION "0.1.0"

/* Which commands, and which of their modes, an option applies to: giving one to another
 * command or mode is a usage error, not silently ignored. --analysis has three modes: its rows
 * table (ON_TABLE, when no mode option is given), --explain and --steps (ACT_MODE rows). */
enum { ON_TABLE = 1, ON_DIFF = 2, ON_AUGMENT = 4, ON_COMBINE = 8, ON_DEVICES = 16, ON_RANKS = 32,
       ON_EXPLAIN = 64, ON_STEPS = 128,
       ON_ANALYSIS = ON_TABLE | ON_EXPLAIN | ON_STEPS,
       ON_LOADERS = ON_ANALYSIS | ON_DIFF | ON_AUGMENT | ON_COMBINE | ON_RANKS,
       ON_DEVICE_FILE = ON_ANALYSIS | ON_DIFF | ON_AUGMENT | ON_DEVICES }; /* read --device-file, $PROFANA_DEVICES */

/* What a positional argument is (command.pos): an input trace, which - (standard input) may
 * stand for once; a path read twice (a trace or a directory: never standard input, which the
 * command refuses); a name; an output file; the DTYPE. POS_REPEAT after a letter: that
 * argument repeats, once or more. */
enum { POS_INPUT = 'I', POS_PATH = 'P', POS_NAME = 'N', POS_OUTPUT = 'O', POS_DTYPE = 'D', POS_REPEAT = '+' };

typedef struct command {
    const char *name;
    unsigned bit;              /* ON_* of the command, all its modes */
    unsigned plain;            /* ON_* of the command when no mode option is given */
    const char *args;          /* positional arguments, for usage lines */
    const char *pos;           /* what each positional is, a letter each (POS_*); a '+' after a
                                  letter: that one repeats (once or more) */
    int (*run)(const pf_cli *);
    const char *help;
    const char *example;       /* one command line for --help and the man page; tests run each
                                  with trace.json, a.json, b.json replaced by real traces */
} command;

static const command commands[] = {
    {"--analysis", ON_ANALYSIS, ON_TABLE, "FILE DTYPE", "ID", cmd_analysis,
     "per device, one row per kernel (or op, or op+shape): count, time, FLOPs, bytes,\n"
     "achieved TFLOP/s and GB/s, percent of the device's peak, roofline bound",
     "profana --analysis trace.json bf16 --group op --top 10"},
    {"--diff", ON_DIFF, ON_DIFF, "A.json[,A2...] NAME_A B.json[,B2...] NAME_B DTYPE", "ININD", cmd_diff,
     "compare two traces row by row (exact name, then normalised name, then op family with\n"
     "shapes): per-row time ratio B/A, geomean, matched share; --fail-above PCT for CI;\n"
     "several runs a side (comma-separated): 95% intervals and a verdict per row",
     "profana --diff a.json before b.json after bf16 --fail-above 5"},
    {"--augment_trace", ON_AUGMENT, ON_AUGMENT, "IN OUT DTYPE", "IOD", cmd_augment,
     "write IN to OUT with kernel_flop and kernel_num_gb added to the args of every kernel\n"
     "and op with figures (--extra: rates, percents, category); nothing else changes; OUT may\n"
     "be IN, - is standard output",
     "profana --augment_trace trace.json out.json bf16 --extra"},
    {"--combine", ON_COMBINE, ON_COMBINE, "IN1 IN2 [IN...] OUT", "II+O", cmd_combine,
     "merge traces (e.g. of several ranks) into OUT, remapping colliding process ids and\n"
     "tagging each event with its input",
     "profana --combine a.json b.json out.json"},
    {"--ranks", ON_RANKS, ON_RANKS, "PATH... DTYPE", "P+D", cmd_ranks,
     "one trace per rank (.json, .json.gz, or directories of them): per rank GPU, busy,\n"
     "communication, exposed communication and idle time; collectives matched across ranks\n"
     "(transfer time, skew, bus bandwidth); the ranks that arrive last",
     "profana --ranks rank0.json.gz rank1.json.gz bf16"},
    {"--list-devices", ON_DEVICES, ON_DEVICES, "", "", cmd_list_devices,
     "print the device table: names matched, dense peaks per dtype, bandwidth, source",
     "profana --list-devices --format md"},
};

/* What an option does with its values. Every row names one: there is no zero kind, the rows
 * are written with the OPT_* macros below, each of which asks for what its kind needs, and
 * apply_option's switch has a case per kind (-Wswitch). */
typedef enum opt_kind {
    ACT_SET = 1,               /* a flag: the int at off becomes 1 */
    ACT_CLEAR,                 /* a flag: the int at off becomes 0 */
    ACT_COUNT,                 /* N: a whole number from 0 to 1000000 into the int at off */
    ACT_STRING,                /* a non-empty value: the const char * at off points at it */
    ACT_ENUM,                  /* one of choices: its index into the int-sized enum at off */
    ACT_CALLBACK,              /* cb(cli, option, value, second value) */
    ACT_EXIT,                  /* cb(...) is the exit status, and nothing more is parsed */
    ACT_MODE,                  /* a command mode (git's OPT_CMDMODE): one at a time; a flag (the
                                  int at off becomes 1) or, with a value, a string as ACT_STRING */
} opt_kind;

typedef struct option option;
typedef int (*opt_cb)(pf_cli *cli, const option *o, const char *v, const char *v2);

struct option {
    const char *name;
    const char *arg;           /* NULL for a flag */
    const char *help;          /* "{default}" in it stands for def; without one, --help appends
                                  " (default DEF)" when there is a def */
    int nvals;                 /* values it takes: 0 for a flag, 1, or 2 (--plot KIND FILE) */
    unsigned on;               /* ON_* of the commands it applies to */
    opt_kind kind;
    size_t off;                /* offsetof the pf_cli member it sets (SET, CLEAR, COUNT, STRING, ENUM) */
    const char *const *choices;/* ACT_ENUM: the names by value, NULL-terminated */
    opt_cb cb;                 /* ACT_CALLBACK, ACT_EXIT */
    const char *def;           /* the default as one would type it: applied before parsing and
                                  shown by --help; NULL when there is none to show */
    unsigned mode;             /* ACT_MODE: the ON_* bit of the mode it selects; 0 otherwise */
    const char *refusal;       /* ACT_MODE: why an option the mode does not take (its `on` lacks
                                  the mode's bit), or another mode, is refused */
};

/* offsetof(pf_cli, field), refusing to compile when the member is not of type `type`, so an
 * action never writes through a pointer of the wrong type. */
#define CLI_FIELD(type, field)                                                                     \
    (offsetof(pf_cli, field) +                                                                     \
     0 * sizeof(struct {                                                                           \
         _Static_assert(_Generic(((pf_cli *)0)->field, type: 1, default: 0), "pf_cli." #field " is not " #type); \
         int unused;                                                                               \
     }))

#define OPT_FLAG(name, help, on, field) {name, NULL, help, 0, on, ACT_SET, CLI_FIELD(int, field), NULL, NULL, NULL, 0, NULL}
#define OPT_FLAG_OFF(name, help, on, field) {name, NULL, help, 0, on, ACT_CLEAR, CLI_FIELD(int, field), NULL, NULL, NULL, 0, NULL}
#define OPT_COUNT(name, arg, help, on, field, def) {name, arg, help, 1, on, ACT_COUNT, CLI_FIELD(int, field), NULL, NULL, def, 0, NULL}
#define OPT_STRING(name, arg, help, on, field) {name, arg, help, 1, on, ACT_STRING, CLI_FIELD(const char *, field), NULL, NULL, NULL, 0, NULL}
#define OPT_ENUM(name, arg, help, on, type, field, choices, def) {name, arg, help, 1, on, ACT_ENUM, CLI_FIELD(type, field), choices, NULL, def, 0, NULL}
#define OPT_CALLBACK(name, arg, help, nvals, on, cb, def) {name, arg, help, nvals, on, ACT_CALLBACK, 0, NULL, cb, def, 0, NULL}
#define OPT_MODE_FLAG(name, help, on, field, mode, refusal) {name, NULL, help, 0, on, ACT_MODE, CLI_FIELD(int, field), NULL, NULL, NULL, mode, refusal}
#define OPT_MODE_STRING(name, arg, help, on, field, mode, refusal) {name, arg, help, 1, on, ACT_MODE, CLI_FIELD(const char *, field), NULL, NULL, NULL, mode, refusal}
#define OPT_EXIT(name, help, cb) {name, NULL, help, 0, ~0u, ACT_EXIT, 0, NULL, cb, NULL, 0, NULL}

/* In an option's help: the column names of the views' tables (pf_view_columns_help). */
#define COLUMNS_MARK "{columns}"

/* An enum is set through an int (ACT_ENUM): the ones it sets must be int-sized. */
_Static_assert(sizeof(pf_group_by) == sizeof(int), "--group's enum is set as an int");

static int set_format(pf_cli *cli, const option *o, const char *v, const char *v2);
static int set_device(pf_cli *cli, const option *o, const char *v, const char *v2);
static int set_step(pf_cli *cli, const option *o, const char *v, const char *v2);
static int set_clock(pf_cli *cli, const option *o, const char *v, const char *v2);
static int set_fail_above(pf_cli *cli, const option *o, const char *v, const char *v2);
static int set_plot(pf_cli *cli, const option *o, const char *v, const char *v2);
static int set_jobs(pf_cli *cli, const option *o, const char *v, const char *v2);
static int set_no_tf32(pf_cli *cli, const option *o, const char *v, const char *v2);
static int show_help(pf_cli *cli, const option *o, const char *v, const char *v2);
static int show_version(pf_cli *cli, const option *o, const char *v, const char *v2);
static int show_man(pf_cli *cli, const option *o, const char *v, const char *v2);
static int show_ops(pf_cli *cli, const option *o, const char *v, const char *v2);

static const option options[] = {
    OPT_COUNT("--name_limit", "N", "cut names to at most N characters in text and Markdown (default {default}: cut only "
              "to fit the width)",
              ON_ANALYSIS | ON_DIFF, name_limit, "0"),
    OPT_FLAG("--wide", "text: every column of the rows table, whole names, no line width (default: the columns that fit "
             "$COLUMNS, else the terminal of stdout, then of stderr, else 100 characters)", ON_ANALYSIS | ON_DIFF | ON_DEVICES | ON_RANKS, wide),
    OPT_STRING("--columns", "LIST", "text and Markdown: the rows table's columns, comma-separated (" COLUMNS_MARK "); "
               "the name column always shows and takes the width left",
               ON_TABLE | ON_DIFF, columns),
    OPT_ENUM("--group", "kernel|op|shape", "group rows by {default} name (default), launching op, or op with input shapes",
             ON_TABLE | ON_DIFF, pf_group_by, an.group, pf_group_names, "kernel"),
    OPT_COUNT("--top", "N", "print only the N rows with the most GPU time (the Total row still counts all; --diff: "
              "the N largest changes; default {default} = all)",
              ON_TABLE | ON_DIFF, top, "0"),
    OPT_CALLBACK("--format", "text|csv|json|md", "output format (default {default})", 1,
                 ON_ANALYSIS | ON_DIFF | ON_DEVICES | ON_RANKS, set_format, "text"),
    OPT_FLAG("--by-category", "after the tables, one table per category with its rows by time, count and percent",
             ON_TABLE, by_category),
    OPT_FLAG("--waits", "after the tables, why the GPU waits: time breakdown per device and step, idle by cause, "
             "launch delays, kernel-duration histogram, queue depth per stream", ON_TABLE, waits),
    OPT_FLAG("--tf32", "all fp32 matrix work (GEMM, convolution, attention) is measured against the TF32 peak "
             "(default: convolutions and kernels named tf32 only, as PyTorch runs them; see docs/formulas.md)",
             ON_ANALYSIS | ON_DIFF | ON_AUGMENT, an.tf32),
    OPT_CALLBACK("--no-tf32", NULL, "all fp32 work is measured against the FP32 peak, convolutions and kernels named tf32 "
                 "included", 0, ON_ANALYSIS | ON_DIFF | ON_AUGMENT, set_no_tf32, NULL),
    OPT_CALLBACK("--device", "NAME", "use this device-table entry for every device (default: the entry the trace's device name matches; see --list-devices)", 1,
                 ON_ANALYSIS | ON_DIFF | ON_AUGMENT, set_device, NULL),
    OPT_CALLBACK("--clock", "MHZ", "the clock the GPUs ran at: every compute peak is scaled by MHZ / the clock its datasheet "
                 "figure assumes (--list-devices: Peak MHz); bandwidth unchanged (default: the datasheet's clock)", 1,
                 ON_ANALYSIS | ON_DIFF | ON_AUGMENT, set_clock, NULL),
    OPT_STRING("--device-file", "FILE", "JSON list of device entries {name, match, tflops: {DTYPE: N}, gbps, clock_mhz} "
               "matched before the built-in table (default: $PROFANA_DEVICES, else none; see docs/devices.md)",
               ON_DEVICE_FILE, device_file),
    OPT_CALLBACK("--step", "all|N", "only the GPU work launched inside the CPU-side ProfilerStep windows (all, or step N; default: all GPU work)", 1,
                 ON_TABLE | ON_STEPS, set_step, NULL),
    OPT_ENUM("--phase", "prefill|decode|mixed|all", "serving traces: only the GPU work of that phase (vLLM/SGLang step "
             "annotations, else attention calls' query length; docs/analysis.md: Serving phases) (default {default})",
             ON_TABLE | ON_STEPS | ON_DIFF, int, an.phase, pf_phase_choices, "all"),
    OPT_MODE_FLAG("--steps", "--analysis: one line per ProfilerStep (span, GPU time, busy %, top category)", ON_ANALYSIS, steps,
                  ON_STEPS, "--steps prints one line per step, no rows table"),
    OPT_STRING("--graph-capture", "PATH", "--analysis: give CUDA/HIP-graph-replayed kernels the ops that recorded them in "
               "this capture trace (or the traces of a directory, as its " PF_CAPTURE_LIST_NAME " lists them)",
               ON_ANALYSIS, graph_capture),
    OPT_STRING("--inductor-cache", "DIR", "a copy of the Inductor cache directory (/tmp/torchinductor_$USER on the training host): "
               "Triton launches take bytes and FLOPs from the kernel modules they name, found here by the recorded "
               "path's last two components (default: only at the recorded paths)",
               ON_ANALYSIS | ON_DIFF | ON_AUGMENT, an.inductor_cache),
    OPT_MODE_STRING("--explain", "OP_OR_KERNEL", "--analysis: shapes, dtypes, inputs, formula and figures of its first invocation",
                    ON_ANALYSIS, explain, ON_EXPLAIN,
                    "--explain prints one invocation (the first in the whole trace), no table, chart, report or summary"),
    OPT_CALLBACK("--fail-above", "PCT", "--diff: exit 3 when B's GPU time is over A's by more than PCT% (several runs: its 95% CI's low end) (default: no gate)", 1,
                 ON_DIFF, set_fail_above, NULL),
    OPT_FLAG("--extra", "--augment_trace: also achieved_tflops, achieved_gbps, flops_pct, bw_pct, kernel_category",
             ON_AUGMENT, extra),
    OPT_CALLBACK("--plot", "roofline|breakdown|timeline FILE.svg", "write a roofline chart, a GPU-time breakdown or "
                 "(--analysis) a timeline of the streams and idle causes as SVG (repeatable)", 2,
                 ON_TABLE | ON_STEPS | ON_DIFF, set_plot, NULL),
    OPT_STRING("--summary", "OUT.json", "--analysis: also write what --ranks needs of this trace (a small JSON rank summary, "
               "docs/ranks.md: Rank summaries); --ranks reads it in place of the trace; - prints it instead of the tables",
               ON_TABLE | ON_STEPS, summary),
    OPT_STRING("--report", "FILE.html", "write a self-contained HTML report (tables and charts)", ON_TABLE | ON_STEPS | ON_DIFF, report),
    OPT_CALLBACK("-j", "N", "parser threads (default: one per CPU this process may use; for .json.gz one of them inflates); "
                 "output is the same for every N", 1, ON_LOADERS, set_jobs, NULL),
    OPT_FLAG_OFF("--quiet", "no progress bar on stderr", ON_LOADERS, load.progress),
    OPT_FLAG("--strict", "a trace cut inside its last event is an error (exit 1), not a warning", ON_LOADERS, load.strict),
    OPT_FLAG("--timings", "--analysis: one line per phase on stderr (read, inflate, scan, model build, link and sort, "
             "attribution, aggregation, render) with its wall time and threads; also PROFANA_TIMINGS=1", ON_ANALYSIS,
             timings),
    OPT_EXIT("--help", "print this help", show_help),
    OPT_EXIT("--version", "print the version", show_version),
    OPT_EXIT("--man", "print this help as a man page (roff; make install installs it)", show_man),
    OPT_EXIT("--list-ops", NULL, show_ops), /* hidden (no help): the op table, for the tests */
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

#define DEFAULT_MARK "{default}"

/* --help fits an 80-column terminal (pf_print_wrapped); the options' help starts at column 33. */
enum { HELP_WIDTH = 79, HELP_LEFT = 30 };

/* o->help with COLUMNS_MARK replaced by the column names, into buf (room for n). */
static const char *option_help(const option *o, char *buf, size_t n)
{
    const char *mark = strstr(o->help, COLUMNS_MARK);
    if (!mark)
        return o->help;
    char cols[768];
    pf_view_columns_help(cols, sizeof cols);
    snprintf(buf, n, "%.*s%s%s", (int)(mark - o->help), o->help, cols, mark + strlen(COLUMNS_MARK));
    return buf;
}

/* One option's line: its help with its default in place of {default}, or appended; a name
 * wider than its column puts the help on the next line. */
static void print_option_help(FILE *out, const option *o)
{
    if (!o->help)
        return; /* a hidden option (--list-ops) */
    char left[80], buf[1024], text[sizeof buf + 128];
    snprintf(left, sizeof left, "%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    const char *help = option_help(o, buf, sizeof buf);
    const char *mark = strstr(help, DEFAULT_MARK);
    assert(!mark || o->def); /* a {default} without a default would print as is */
    if (mark)
        snprintf(text, sizeof text, "%.*s%s%s", (int)(mark - help), help, o->def, mark + strlen(DEFAULT_MARK));
    else if (o->def)
        snprintf(text, sizeof text, "%s (default %s)", help, o->def);
    else
        snprintf(text, sizeof text, "%s", help);
    if (strlen(left) > HELP_LEFT)
        fprintf(out, "  %s\n%*s", left, HELP_LEFT + 3, "");
    else
        fprintf(out, "  %-*s ", HELP_LEFT, left);
    pf_print_wrapped(out, text, HELP_LEFT + 3, HELP_LEFT + 3, HELP_WIDTH);
}

static void print_help(FILE *out)
{
    fprintf(out, "profana %s - where GPU time goes in a PyTorch profiler trace, and how close\n"
                 "each kernel runs to the hardware.\n\nUsage:\n", PROFANA_VERSION);
    for (size_t i = 0; i < COUNT(commands); i++)
        fprintf(out, "  profana %s%s%s [options]\n", commands[i].name, *commands[i].args ? " " : "",
                commands[i].args);
    fputs("\nCommands:\n", out);
    for (size_t i = 0; i < COUNT(commands); i++) {
        fprintf(out, "  %s%s%s\n", commands[i].name, *commands[i].args ? " " : "", commands[i].args);
        /* the table's lines joined and wrapped again, to the width of the rest */
        char h[1024];
        snprintf(h, sizeof h, "%s", commands[i].help);
        for (char *nl = strchr(h, '\n'); nl; nl = strchr(nl, '\n'))
            *nl = ' ';
        fputs("      ", out);
        pf_print_wrapped(out, h, 6, 6, HELP_WIDTH);
    }
    fputs("\nArguments:\n"
          "  FILE    a Kineto chrome trace (.json or .json.gz); - reads standard input\n"
          "  DTYPE   ",
          out);
    char dtype[512];
    snprintf(dtype, sizeof dtype, "dtype of work whose dtype the trace does not show, in any case: %s",
             pf_dtype_cli_choices());
    pf_print_wrapped(out, dtype, 10, 10, HELP_WIDTH);
    fputs("\nOptions:\n", out);
    for (size_t i = 0; i < COUNT(options); i++)
        print_option_help(out, &options[i]);
    fputs("\nEvery option and command may be spelled with - or _ (--name-limit is\n"
          "--name_limit, --augment-trace is --augment_trace).\n"
          "\nExamples:\n", out);
    for (size_t i = 0; i < COUNT(commands); i++)
        fprintf(out, "  %s\n", commands[i].example);
    fputs("\nExit status: 0 ok, 1 unreadable trace or I/O error, 2 usage error,\n"
          "3 --diff --fail-above: B slower than allowed.\n"
          "Columns: docs/analysis.md; formulas: docs/formulas.md (in the sources).\n",
          out);
}

/* Whether the n characters at s spell name, '-' and '_' alike after the leading "--": the old
 * tool's --name_limit and --augment_trace beside --by-category, so both spellings of every
 * option are one row of the table. */
static int same_name(const char *s, size_t n, const char *name)
{
    if (strlen(name) != n)
        return 0;
    for (size_t k = 0; k < n; k++) {
        int dash = (s[k] == '-' || s[k] == '_') && (name[k] == '-' || name[k] == '_');
        if (s[k] != name[k] && !(k >= 2 && dash))
            return 0;
    }
    return 1;
}

/* An option's help with its default in place of {default} or appended, as print_option_help
 * writes it, for the man page. */
static void roff_option(FILE *out, const option *o)
{
    if (!o->help)
        return; /* a hidden option */
    fputs(".TP\n\\fB", out);
    pf_roff_text(out, o->name, strlen(o->name));
    fputs("\\fR", out);
    if (o->arg) {
        fputs(" \\fI", out);
        pf_roff_text(out, o->arg, strlen(o->arg));
        fputs("\\fR", out);
    }
    fputc('\n', out);
    char buf[1024];
    const char *help = option_help(o, buf, sizeof buf);
    const char *mark = strstr(help, DEFAULT_MARK);
    if (mark) {
        pf_roff_text(out, help, (size_t)(mark - help));
        pf_roff_text(out, o->def, strlen(o->def));
        pf_roff_line(out, mark + strlen(DEFAULT_MARK));
    } else {
        pf_roff_text(out, help, strlen(help));
        if (o->def)
            fprintf(out, " (default %s)", o->def); /* defaults are words and numbers */
        fputc('\n', out);
    }
}

/* The man page: the same tables as --help, so the two never disagree. */
static void print_man(FILE *out)
{
    fprintf(out, ".TH PROFANA 1 \"\" \"profana %s\" \"User Commands\"\n.SH NAME\n"
                 "profana \\- where GPU time goes in a PyTorch profiler trace, and how close each kernel "
                 "runs to the hardware\n.SH SYNOPSIS\n", PROFANA_VERSION);
    for (size_t i = 0; i < COUNT(commands); i++) {
        fputs(".B profana\n", out);
        fprintf(out, ".B ");
        pf_roff_line(out, commands[i].name);
        if (*commands[i].args) {
            fputs(".I ", out);
            pf_roff_line(out, commands[i].args);
        }
        fputs("[options]\n.br\n", out);
    }
    fputs(".SH COMMANDS\n", out);
    for (size_t i = 0; i < COUNT(commands); i++) {
        fputs(".TP\n\\fB", out);
        pf_roff_text(out, commands[i].name, strlen(commands[i].name));
        fputs("\\fR ", out);
        pf_roff_line(out, commands[i].args);
        pf_roff_line(out, commands[i].help);
    }
    fputs(".SH ARGUMENTS\n.TP\n.I FILE\na Kineto chrome trace (.json or .json.gz); \\- reads standard input\n"
          ".TP\n.I DTYPE\ndtype of work whose dtype the trace does not show, in any case: ", out);
    pf_roff_line(out, pf_dtype_cli_choices());
    fputs(".SH OPTIONS\nEvery option and command may be spelled with \\- or _ "
          "(\\-\\-name\\-limit, \\-\\-augment_trace).\n", out);
    for (size_t i = 0; i < COUNT(options); i++)
        roff_option(out, &options[i]);
    fputs(".SH EXAMPLES\n", out);
    for (size_t i = 0; i < COUNT(commands); i++) {
        fputs(".nf\n", out);
        pf_roff_line(out, commands[i].example);
        fputs(".fi\n", out);
    }
    fputs(".SH EXIT STATUS\n0 ok, 1 unreadable trace or I/O error, 2 usage error, "
          "3 \\-\\-diff \\-\\-fail\\-above: B slower than allowed.\n"
          ".SH SEE ALSO\nREADME.md and docs/ of the profana sources: columns (docs/analysis.md), formulas (docs/formulas.md) and the device table (docs/devices.md).\n",
          out);
}

static const command *find_command(const char *s)
{
    for (size_t i = 0; i < COUNT(commands); i++)
        if (same_name(s, strlen(s), commands[i].name))
            return &commands[i];
    return NULL;
}

/* What the command line gave, as parse_args found it. */
enum { MAX_OPTIONS = 64 };
_Static_assert(sizeof(options) / sizeof(options[0]) <= MAX_OPTIONS, "parsed.given has a slot per option row");

typedef struct parsed {
    const command *cmd;        /* NULL until a command is given */
    const option *mode;        /* the first ACT_MODE option given; NULL: the command's plain mode */
    const option *clash;       /* another mode given after it, refused once the command is known */
    unsigned char given[MAX_OPTIONS]; /* given[i]: options[i] was on the command line */
    int done;                  /* an option ended the run (--help, --version) */
} parsed;

static const option *find_option(const char *s, size_t n)
{
    for (size_t i = 0; i < COUNT(options); i++)
        if (same_name(s, n, options[i].name))
            return &options[i];
    return NULL;
}

/* The command or option nearest to an unknown one (its part before '='): the fewest edits, at
 * most a third of its length (at least 2), or else the one it begins; NULL when none is near. */
static const char *nearest_name(const char *a)
{
    const char *eq = strchr(a, '=');
    size_t n = eq ? (size_t)(eq - a) : strlen(a);
    const char *best = NULL;
    size_t best_d = (n / 3 > 2 ? n / 3 : 2) + 1;
    for (size_t i = 0; i < COUNT(commands) + COUNT(options); i++) {
        const char *name = i < COUNT(commands) ? commands[i].name : options[i - COUNT(commands)].name;
        if (i >= COUNT(commands) && !options[i - COUNT(commands)].help)
            continue; /* a hidden option is never suggested */
        size_t d = pf_name_distance(a, n, name);
        if (d < best_d)
            best = name, best_d = d;
    }
    for (size_t i = 0; !best && n > 3 && i < COUNT(options); i++)
        if (options[i].help && strncmp(a, options[i].name, n) == 0)
            best = options[i].name;
    return best;
}

static int unknown_option(const char *a)
{
    const char *near = nearest_name(a);
    if (near)
        return pf_cli_usage_error("unknown option '%s'; did you mean %s?", a, near);
    return pf_cli_usage_error("unknown option '%s'", a);
}

/* ---- the actions ---- */

static int parse_count(const char *opt, const char *v, int *out)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (!*v || *end || n < 0 || n > 1000000)
        return pf_cli_usage_error("%s wants a whole number from 0 to 1000000, not '%s'", opt, v);
    *out = (int)n;
    return 0;
}

static int set_string(const char **dst, const char *opt, const char *v)
{
    if (!*v)
        return pf_cli_usage_error("%s wants a non-empty value", opt);
    *dst = v;
    return 0;
}

/* "--group wants kernel, op or shape, not 'x'": the choices as the table lists them. */
static int parse_enum(const option *o, const char *v, int *out)
{
    char list[256] = "";
    for (int k = 0; o->choices[k]; k++) {
        if (strcmp(v, o->choices[k]) == 0) {
            *out = k;
            return 0;
        }
        size_t len = strlen(list);
        snprintf(list + len, sizeof list - len, "%s%s", k == 0 ? "" : o->choices[k + 1] ? ", " : " or ",
                 o->choices[k]);
    }
    return pf_cli_usage_error("%s wants %s, not '%s'", o->name, list, v);
}

static int set_format(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)o, (void)v2;
    return pf_format_parse(v, &cli->format) ? pf_cli_usage_error("--format wants text, csv, json or md, not '%s'", v) : 0;
}

static int set_device(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)o, (void)v2;
    cli->device_name = v; /* resolved in resolve_devices: a device-file entry may be named */
    return 0;
}

static int set_clock(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)v2;
    char *end;
    double x = strtod(v, &end);
    if (!*v || *end || !(x >= 1) || x > 100000)
        return pf_cli_usage_error("%s wants a clock in MHz from 1 to 100000, not '%s'", o->name, v);
    cli->clock_mhz = x;
    return 0;
}

static int set_step(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)o, (void)v2;
    if (strcmp(v, "all") == 0) {
        cli->an.step = PF_STEP_ALL;
        return 0;
    }
    char *end;
    long long n = strtoll(v, &end, 10);
    if (!*v || *end || n < 0)
        return pf_cli_usage_error("--step wants all or a step number N (of ProfilerStep#N), not '%s'", v);
    cli->an.step = n;
    return 0;
}

static int set_fail_above(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)v2;
    char *end;
    double x = strtod(v, &end);
    if (!*v || *end || !(x >= 0) || x > 1e9)
        return pf_cli_usage_error("%s wants a percentage, 0 or more, not '%s'", o->name, v);
    cli->fail_above = x;
    return 0;
}

static int set_jobs(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)o, (void)v2;
    char *end;
    long n = strtol(v, &end, 10);
    if (!*v || *end || n < 1 || n > 1024)
        return pf_cli_usage_error("-j wants a number of threads from 1 to 1024, not '%s'", v);
    cli->load.jobs = (int)n;
    return 0;
}

/* --tf32 sets an.tf32 to 1 (ACT_SET), which is PF_TF32_ALL; --no-tf32 sets PF_TF32_NONE. The
 * later of the two wins. */
_Static_assert(PF_TF32_ALL == 1, "--tf32 is a flag that sets an.tf32 to 1");

static int set_no_tf32(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)o, (void)v, (void)v2;
    cli->an.tf32 = PF_TF32_NONE;
    return 0;
}

static int set_plot(pf_cli *cli, const option *o, const char *kind, const char *file)
{
    (void)o;
    if (!*file)
        return pf_cli_usage_error("--plot %s wants a file name", kind);
    if (strcmp(kind, "roofline") == 0)
        cli->plot_roofline = file;
    else if (strcmp(kind, "breakdown") == 0)
        cli->plot_breakdown = file;
    else if (strcmp(kind, "timeline") == 0)
        cli->plot_timeline = file;
    else
        return pf_cli_usage_error("--plot wants roofline, breakdown or timeline, then a file, not '%s'", kind);
    return 0;
}

static int show_help(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)cli, (void)o, (void)v, (void)v2;
    print_help(stdout);
    return pf_cli_stdout_status(); /* a full disk fails as any output does (exit 1) */
}

static int show_man(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)cli, (void)o, (void)v, (void)v2;
    print_man(stdout);
    return pf_cli_stdout_status(); /* a full disk fails as any output does (exit 1) */
}

/* --list-ops: one line per row of the op table (src/catalog/op_family.c), then its prefix
 * rows: the op (or prefix), its family, and "formula" or "-" (the generic estimate). The
 * tests read the op list from here instead of keeping a copy. */
static int show_ops(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)cli, (void)o, (void)v, (void)v2;
    int n = 0, np = 0;
    const pf_op_entry *rows = pf_op_family_table(&n), *pre = pf_op_family_prefixes(&np);
    for (int i = 0; i < n + np; i++) {
        const pf_op_entry *e = i < n ? &rows[i] : &pre[i - n];
        printf("%s\t%s\t%s\n", e->op, pf_op_family_name(e->family), e->formula != PF_OPF_NONE ? "formula" : "-");
    }
    return pf_cli_stdout_status(); /* a full disk fails as any output does (exit 1) */
}

static int show_version(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)cli, (void)o, (void)v, (void)v2;
    printf("profana %s\n", PROFANA_VERSION);
    return pf_cli_stdout_status(); /* a full disk fails as any output does (exit 1) */
}

/* Applies one option with its values (NULL for flags; v2 only for two-valued options).
 * Returns 0 or an exit status. */
static int apply_option(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    void *field = (char *)cli + o->off;
    switch (o->kind) {
    case ACT_SET:
        *(int *)field = 1;
        return 0;
    case ACT_CLEAR:
        *(int *)field = 0;
        return 0;
    case ACT_COUNT:
        return parse_count(o->name, v, field);
    case ACT_STRING:
        return set_string(field, o->name, v);
    case ACT_ENUM: /* an int-sized enum, written as its int (the signed twin of its type) */
        return parse_enum(o, v, field);
    case ACT_MODE:
        if (o->nvals == 0) {
            *(int *)field = 1;
            return 0;
        }
        return set_string(field, o->name, v);
    case ACT_CALLBACK:
    case ACT_EXIT:
        return o->cb(cli, o, v, v2);
    }
    assert(!"an option row without an action");
    return PF_EXIT_USAGE;
}

/* Every option's default, set as if typed, so what --help shows is what runs. Also where a
 * row written without the OPT_* macros, and so without an action, is caught on any run. */
static void apply_defaults(pf_cli *cli)
{
    for (size_t i = 0; i < COUNT(options); i++) {
        assert(options[i].kind != 0 && (options[i].kind != ACT_CALLBACK && options[i].kind != ACT_EXIT) == !options[i].cb);
        /* a mode row names its mode and why it refuses what it does not take; no other row does */
        assert((options[i].kind == ACT_MODE) == (options[i].mode != 0 && options[i].refusal != NULL));
        if (options[i].def) {
            int rc = apply_option(cli, &options[i], options[i].def, NULL);
            assert(rc == 0); /* a default its own option refuses is a bug in the table */
            (void)rc;
        }
    }
}

/* Marks o given; a second mode is kept aside as the clash (one mode at a time). */
static void mark_given(parsed *p, const option *o)
{
    assert(o >= options && o < options + COUNT(options));
    p->given[o - options] = 1;
    if (o->kind != ACT_MODE || p->mode == o)
        return;
    if (!p->mode)
        p->mode = o;
    else if (!p->clash)
        p->clash = o;
}

/* Handles argv[*i] as an option, marking it in p->given and setting p->done for an option
 * that ends the run (--help, --version); returns -1 when it is not an option, else 0 or an
 * exit status. */
static int parse_option(pf_cli *cli, int argc, char **argv, int *i, parsed *p)
{
    const char *a = argv[*i];
    if (a[0] == '-' && a[1] == 'j' && a[2] >= '0' && a[2] <= '9') {
        const option *j = find_option("-j", 2);
        mark_given(p, j);
        return apply_option(cli, j, a + 2, NULL); /* -j4, as make takes it */
    }
    if (strcmp(a, "-h") == 0)
        a = "--help"; /* only as a whole word: -h=x is an unknown option */
    const char *eq = strchr(a, '=');
    size_t n = eq ? (size_t)(eq - a) : strlen(a);
    const option *o = find_option(a, n);
    if (!o)
        return -1;
    mark_given(p, o);
    const char *v = NULL, *v2 = NULL;
    if (o->nvals == 0 && eq)
        return pf_cli_usage_error("%s takes no value", o->name);
    if (o->nvals >= 1) {
        if (eq)
            v = eq + 1;
        else if (*i + 1 < argc)
            v = argv[++*i];
        else
            return pf_cli_usage_error("%s needs a value (%s)", o->name, o->arg);
    }
    if (o->nvals == 2) {
        if (*i + 1 >= argc)
            return pf_cli_usage_error("%s needs two values (%s)", o->name, o->arg);
        v2 = argv[++*i];
    }
    p->done = o->kind == ACT_EXIT;
    return apply_option(cli, o, v, v2);
}

/* An option that does nothing for this command, or in its mode, would be a surprise: refuse
 * it. Two modes are named in the table's order, whichever came first. */
static int check_options_apply(const parsed *p)
{
    const command *c = p->cmd;
    for (size_t i = 0; i < COUNT(options); i++)
        if (p->given[i] && !(options[i].on & c->bit))
            return pf_cli_usage_error("%s does not apply to %s", options[i].name, c->name);
    if (p->clash) {
        const option *first = p->mode < p->clash ? p->mode : p->clash;
        const option *second = p->mode < p->clash ? p->clash : p->mode;
        return pf_cli_usage_error("%s cannot be combined with %s: %s", first->name, second->name, second->refusal);
    }
    unsigned now = p->mode ? p->mode->mode : c->plain;
    for (size_t i = 0; i < COUNT(options); i++)
        if (p->given[i] && options[i].kind != ACT_MODE && !(options[i].on & now)) {
            assert(p->mode); /* an option that applies to the command applies to its plain mode */
            return pf_cli_usage_error("%s cannot be combined with %s: %s", options[i].name, p->mode->name,
                                      p->mode->refusal);
        }
    return 0;
}

/* Options that each apply to the command but not together: the second would do nothing. */
typedef struct conflict {
    const char *first, *second;
    const char *why;
} conflict;

/* What a mode does not take follows from the option rows (check_options_apply); these are the
 * pairs left, of options that each act in the same mode. */
static const conflict conflicts[] = {
    {"--step", "--summary", "the summary covers the whole trace (with each step's figures)"},
    {"--wide", "--columns", "--wide shows every column, --columns the ones it names"},
};

static int given_option(const parsed *p, const char *name)
{
    const option *o = find_option(name, strlen(name));
    assert(o); /* a conflict row names options of the table */
    return p->given[o - options];
}

/* Refuses options given together that cannot both act, and options that do nothing in the
 * chosen format, rather than ignore them. */
static int check_combinations(const pf_cli *cli, const parsed *given)
{
    for (size_t i = 0; i < COUNT(conflicts); i++)
        if (given_option(given, conflicts[i].first) && given_option(given, conflicts[i].second))
            return pf_cli_usage_error("%s cannot be combined with %s: %s", conflicts[i].second, conflicts[i].first,
                                      conflicts[i].why);
    const char *fmt = cli->format == PF_FMT_CSV ? "csv" : cli->format == PF_FMT_JSON ? "json" : NULL;
    if (fmt && given_option(given, "--name_limit"))
        return pf_cli_usage_error("--name_limit does not apply to --format %s, which always carries whole names", fmt);
    if (fmt && given_option(given, "--columns"))
        return pf_cli_usage_error("--columns does not apply to --format %s, which always carries every column", fmt);
    if (cli->format != PF_FMT_TEXT && given_option(given, "--wide"))
        return pf_cli_usage_error("--wide does not apply to --format %s, which always carries every column",
                                  fmt ? fmt : "md");
    return 0;
}

/* --columns names columns of the command's rows table: checked before any trace is read. */
static int check_columns(const pf_cli *cli, const command *c)
{
    pf_view_opts v = pf_cli_view_opts(cli);
    char err[1024];
    if (c->bit == ON_DIFF) /* the table's column names (of either side) */
        v.names[0] = v.names[1] = "A";
    if (pf_view_check_columns(&v, err, sizeof err))
        return pf_cli_usage_error("%s", err);
    return 0;
}

/* How many positionals c takes: the letters of its pos, at least that many when one repeats. */
static int pos_count(const command *c)
{
    int n = 0;
    for (const char *k = c->pos; *k; k++)
        n += *k != POS_REPEAT;
    return n;
}

/* What positional i of the n given is (POS_*), by c's pos: the letters before a repeated one
 * take the first places, those after it the last, the repeated one every place between. */
static int pos_kind(const command *c, int i, int n)
{
    assert(i >= 0 && i < n && n >= pos_count(c));
    const char *rep = strchr(c->pos, POS_REPEAT);
    if (!rep)
        return c->pos[i];
    int before = (int)(rep - c->pos), after = (int)strlen(rep + 1);
    assert(before >= 1); /* a repeat follows the letter it repeats */
    if (i < before - 1)
        return c->pos[i];
    if (i >= n - after)
        return rep[1 + i - (n - after)];
    return rep[-1];
}


/* Standard input can be read once: two inputs given as - would make the second empty. */
static int stdin_once(const pf_cli *cli, const command *c)
{
    int n = 0;
    for (int i = 0; i < cli->npos; i++)
        n += pos_kind(c, i, cli->npos) == POS_INPUT && strcmp(cli->pos[i], "-") == 0;
    return n > 1 ? pf_cli_usage_error("%s: standard input ('-') can be only one of the inputs", c->name) : 0;
}

static int check_positionals(pf_cli *cli, const command *c)
{
    int want = pos_count(c), repeats = strchr(c->pos, POS_REPEAT) != NULL;
    const char *dtype = strchr(c->pos, POS_DTYPE); /* read here when the count is fixed */
    if (repeats && cli->npos < want)
        return pf_cli_usage_error("%s wants at least %d arguments (%s), got %d", c->name, want, c->args,
                                  cli->npos);
    if (repeats)
        return stdin_once(cli, c);
    if (cli->npos != want && want == 0)
        return pf_cli_usage_error("%s takes no arguments, got %d", c->name, cli->npos);
    if (cli->npos != want)
        return pf_cli_usage_error("%s wants %d argument%s (%s), got %d", c->name, want,
                                  want == 1 ? "" : "s", c->args, cli->npos);
    if (dtype) {
        const char *d = cli->pos[dtype - c->pos];
        cli->an.default_dtype = pf_dtype_parse_cli(d);
        if (cli->an.default_dtype == PF_DT_UNKNOWN)
            return pf_cli_usage_error("unknown DTYPE '%s'; accepted: %s", d, pf_dtype_cli_choices());
    }
    return stdin_once(cli, c);
}

/* One file named for two outputs would have one overwrite the other (a chart over the
 * summary): every output file the command line names is compared with every other, however
 * spelled (pf_same_output), before anything is read or written. */
static int distinct_outputs(const pf_cli *cli)
{
    const char *out[] = {cli->summary, cli->plot_roofline, cli->plot_breakdown, cli->report, cli->plot_timeline};
    enum { N_OUT = sizeof out / sizeof *out };
    for (int i = 1; i < N_OUT; i++)
        for (int k = 0; k < i && out[i]; k++)
            if (out[k] && pf_same_output(out[i], out[k])) {
                fprintf(stderr, "profana: error: %s: named for two outputs\n", out[i]);
                return PF_EXIT_TRACE;
            }
    return 0;
}

/* An output that cannot be written in place safely (a descriptor not open for writing, a
 * regular file of /proc: pf_outfile_check) is refused before anything is read: one line,
 * exit 2. */
static int writable_outputs(const pf_cli *cli, const command *c)
{
    const char *out[] = {cli->summary, cli->plot_roofline, cli->plot_breakdown, cli->report, cli->plot_timeline};
    pf_error err;
    for (size_t i = 0; i < sizeof out / sizeof *out; i++)
        if (out[i] && pf_outfile_check(out[i], &err)) {
            fprintf(stderr, "profana: error: %s\n", err.msg);
            return PF_EXIT_USAGE;
        }
    for (int i = 0; i < cli->npos; i++)
        if (pos_kind(c, i, cli->npos) == POS_OUTPUT && pf_outfile_check(cli->pos[i], &err)) {
            fprintf(stderr, "profana: error: %s\n", err.msg);
            return PF_EXIT_USAGE;
        }
    return 0;
}

/* One pass over argv: commands, options (each applied by its row of the table) and
 * positionals. Stops at the first error or at an option that ends the run (*done). Returns 0
 * or an exit status. */
static int parse_args(pf_cli *cli, int argc, char **argv, parsed *p)
{
    int rc = 0;
    for (int i = 1; i < argc && rc == 0 && !p->done; i++) {
        const char *a = argv[i];
        const command *c = find_command(a);
        if (c && p->cmd)
            rc = pf_cli_usage_error("%s and %s cannot be combined", p->cmd->name, c->name);
        else if (c)
            p->cmd = c;
        else if ((rc = parse_option(cli, argc, argv, &i, p)) == -1)
            rc = a[0] == '-' && a[1] ? unknown_option(a) : (cli->pos[cli->npos++] = a, 0);
    }
    return rc;
}

/* Reads the device file (--device-file, else $PROFANA_DEVICES, for the commands that match
 * devices) into devices at the --clock, and resolves --device against it. Returns 0 or an
 * exit status. */
static int resolve_devices(pf_cli *cli, const command *cmd, pf_devset *devices)
{
    const char *env = getenv("PROFANA_DEVICES");
    if (!cli->device_file && env && *env && (cmd->bit & ON_DEVICE_FILE))
        cli->device_file = env;
    pf_error err;
    if (pf_devset_build(devices, cli->device_file, cli->clock_mhz, &err))
        return pf_cli_error(err.msg);
    cli->devices = devices;
    cli->an.devices = devices;
    if (!cli->device_name)
        return 0;
    cli->an.force_device = pf_devset_find(devices, cli->device_name);
    return cli->an.force_device ? 0
                                : pf_cli_usage_error("--device: no entry named '%s' (see profana --list-devices)",
                                                     cli->device_name);
}

int main(int argc, char **argv)
{
    pf_cli cli = {.fail_above = -1};
    pf_cli_process_setup();
    apply_defaults(&cli);
    cli.an.default_dtype = PF_DT_BF16;
    cli.an.step = PF_STEP_EVERY;
    cli.load.progress = isatty(STDERR_FILENO);
    cli.pos = calloc((size_t)argc + 1, sizeof *cli.pos);
    if (!cli.pos)
        return pf_cli_error("out of memory");
    parsed p = {0};
    int rc = parse_args(&cli, argc, argv, &p);
    const command *cmd = p.cmd;
    int done = p.done;
    if (rc == 0 && !done && !cmd)
        rc = pf_cli_usage_error("no command given: use --analysis FILE DTYPE (or see --help)");
    if (rc == 0 && !done)
        rc = check_options_apply(&p);
    if (rc == 0 && !done)
        rc = check_combinations(&cli, &p);
    if (rc == 0 && !done)
        rc = check_columns(&cli, cmd);
    if (rc == 0 && !done)
        rc = check_positionals(&cli, cmd);
    if (rc == 0 && !done)
        rc = distinct_outputs(&cli);
    if (rc == 0 && !done)
        rc = writable_outputs(&cli, cmd);
    pf_devset devices = {0};
    if (rc == 0 && !done)
        rc = resolve_devices(&cli, cmd, &devices);
    if (rc == 0 && !done) {
        cli.command = cmd->name;
        cli.load.op_spans_only = !pf_analysis_needs_host(&cli.an); /* only per-op CPU times read them */
        rc = cmd->run(&cli);
    }
    pf_devset_free(&devices);
    free(cli.pos);
    return rc;
}
