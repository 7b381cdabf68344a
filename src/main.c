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

#include "profana/cli.h"
#include "profana/outfile.h"

#define PROFANA_VERSION "0.1.0"

/* Which commands an option applies to: giving one to another command is a usage error,
 * not silently ignored. */
enum { ON_ANALYSIS = 1, ON_DIFF = 2, ON_AUGMENT = 4, ON_COMBINE = 8, ON_DEVICES = 16, ON_RANKS = 32,
       ON_LOADERS = ON_ANALYSIS | ON_DIFF | ON_AUGMENT | ON_COMBINE | ON_RANKS };

typedef struct command {
    const char *name;
    unsigned bit;              /* ON_* */
    const char *args;          /* positional arguments, for usage lines */
    int npos;                  /* how many positionals it takes; -N: at least N */
    int dtype_pos;             /* index of the DTYPE positional, -1 when none */
    int (*run)(const pf_cli *);
    const char *help;
    const char *example;       /* one command line for --help and the man page; tests run each
                                  with trace.json, a.json, b.json replaced by real traces */
} command;

static const command commands[] = {
    {"--analysis", ON_ANALYSIS, "FILE DTYPE", 2, 1, cmd_analysis,
     "per device, one row per kernel (or op, or op+shape): count, time, FLOPs, bytes,\n"
     "achieved TFLOP/s and GB/s, percent of the device's peak, roofline bound",
     "profana --analysis trace.json bf16 --group op --top 10"},
    {"--diff", ON_DIFF, "A.json[,A2...] NAME_A B.json[,B2...] NAME_B DTYPE", 5, 4, cmd_diff,
     "compare two traces row by row (exact name, then normalised name, then op family with\n"
     "shapes): per-row time ratio B/A, geomean, matched share; --fail-above PCT for CI;\n"
     "several runs a side (comma-separated): 95% intervals and a verdict per row",
     "profana --diff a.json before b.json after bf16 --fail-above 5"},
    {"--augment_trace", ON_AUGMENT, "IN OUT DTYPE", 3, 2, cmd_augment,
     "write IN to OUT with kernel_flop and kernel_num_gb added to the args of every kernel\n"
     "and op with figures (--extra: rates, percents, category); nothing else changes; OUT may\n"
     "be IN, - is standard output",
     "profana --augment_trace trace.json out.json bf16 --extra"},
    {"--combine", ON_COMBINE, "IN1 IN2 [IN...] OUT", -3, -1, cmd_combine,
     "merge traces (e.g. of several ranks) into OUT, remapping colliding process ids and\n"
     "tagging each event with its input",
     "profana --combine a.json b.json out.json"},
    {"--ranks", ON_RANKS, "PATH... DTYPE", -2, -1, cmd_ranks,
     "one trace per rank (.json, .json.gz, or directories of them): per rank GPU, busy,\n"
     "communication, exposed communication and idle time; collectives matched across ranks\n"
     "(transfer time, skew, bus bandwidth); the ranks that arrive last",
     "profana --ranks rank0.json.gz rank1.json.gz bf16"},
    {"--list-devices", ON_DEVICES, "", 0, -1, cmd_list_devices,
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
};

/* offsetof(pf_cli, field), refusing to compile when the member is not of type `type`, so an
 * action never writes through a pointer of the wrong type. */
#define CLI_FIELD(type, field)                                                                     \
    (offsetof(pf_cli, field) +                                                                     \
     0 * sizeof(struct {                                                                           \
         _Static_assert(_Generic(((pf_cli *)0)->field, type: 1, default: 0), "pf_cli." #field " is not " #type); \
         int unused;                                                                               \
     }))

#define OPT_FLAG(name, help, on, field) {name, NULL, help, 0, on, ACT_SET, CLI_FIELD(int, field), NULL, NULL, NULL}
#define OPT_FLAG_OFF(name, help, on, field) {name, NULL, help, 0, on, ACT_CLEAR, CLI_FIELD(int, field), NULL, NULL, NULL}
#define OPT_COUNT(name, arg, help, on, field, def) {name, arg, help, 1, on, ACT_COUNT, CLI_FIELD(int, field), NULL, NULL, def}
#define OPT_STRING(name, arg, help, on, field) {name, arg, help, 1, on, ACT_STRING, CLI_FIELD(const char *, field), NULL, NULL, NULL}
#define OPT_ENUM(name, arg, help, on, type, field, choices, def) {name, arg, help, 1, on, ACT_ENUM, CLI_FIELD(type, field), choices, NULL, def}
#define OPT_CALLBACK(name, arg, help, nvals, on, cb, def) {name, arg, help, nvals, on, ACT_CALLBACK, 0, NULL, cb, def}
#define OPT_EXIT(name, help, cb) {name, NULL, help, 0, ~0u, ACT_EXIT, 0, NULL, cb, NULL}

/* An enum is set through an int (ACT_ENUM): the ones it sets must be int-sized. */
_Static_assert(sizeof(pf_group_by) == sizeof(int), "--group's enum is set as an int");

static const char *const group_names[] = {"kernel", "op", "shape", NULL};
/* by value: all = PF_PHASE_NONE (no selection), then PF_PHASE_PREFILL, _DECODE, _MIXED */
static const char *const phase_names[] = {"all", "prefill", "decode", "mixed", NULL};

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

static const option options[] = {
    OPT_COUNT("--name_limit", "N", "cut names to at most N characters in text and Markdown (default {default}: cut only "
              "to fit the width)",
              ON_ANALYSIS | ON_DIFF, name_limit, "0"),
    OPT_FLAG("--wide", "text: every column of the rows table, whole names, no line width (default: the columns that fit "
             "$COLUMNS, else the terminal, else 120 characters)", ON_ANALYSIS | ON_DIFF, wide),
    OPT_STRING("--columns", "LIST", "text and Markdown: the rows table's columns, comma-separated (--analysis: total_us, "
               "pct, flops_pct, bw_pct, source, tflops, gbps, count, launches, mean_us, category, bound, gflop, gb; "
               "on request only: p50_us, p90_us, p99_us, std_us; "
               "--group op also calls, cpu_total_us, self_cpu_us; --diff: a_count, a_mean_us, a_total_us, b_count, "
               "b_mean_us, b_total_us, ratio, delta_us, a_tflops, a_gbps, b_tflops, b_gbps, match, ratio_ci, verdict); "
               "the name column always shows and takes the width left",
               ON_ANALYSIS | ON_DIFF, columns),
    OPT_ENUM("--group", "kernel|op|shape", "group rows by {default} name (default), launching op, or op with input shapes",
             ON_ANALYSIS | ON_DIFF, pf_group_by, an.group, group_names, "kernel"),
    OPT_COUNT("--top", "N", "print only the N rows with the most GPU time (the Total row still counts all; --diff: "
              "the N largest changes; default {default} = all)",
              ON_ANALYSIS | ON_DIFF, top, "0"),
    OPT_CALLBACK("--format", "text|csv|json|md", "output format (default {default})", 1,
                 ON_ANALYSIS | ON_DIFF | ON_DEVICES | ON_RANKS, set_format, "text"),
    OPT_FLAG("--by-category", "after the tables, one table per category with its rows by time, count and percent",
             ON_ANALYSIS, by_category),
    OPT_FLAG("--tf32", "all fp32 matrix work (GEMM, convolution, attention) is measured against the TF32 peak "
             "(default: convolutions and kernels named tf32 only, as PyTorch runs them; see README)",
             ON_ANALYSIS | ON_DIFF | ON_AUGMENT, an.tf32),
    OPT_CALLBACK("--no-tf32", NULL, "all fp32 work is measured against the FP32 peak, convolutions and kernels named tf32 "
                 "included", 0, ON_ANALYSIS | ON_DIFF | ON_AUGMENT, set_no_tf32, NULL),
    OPT_CALLBACK("--device", "NAME", "use this device-table entry for every device (default: the entry the trace's device name matches; see --list-devices)", 1,
                 ON_ANALYSIS | ON_DIFF | ON_AUGMENT, set_device, NULL),
    OPT_CALLBACK("--clock", "MHZ", "the clock the GPUs ran at: every compute peak is scaled by MHZ / the clock its datasheet "
                 "figure assumes (--list-devices: Peak MHz); bandwidth unchanged (default: the datasheet's clock)", 1,
                 ON_ANALYSIS | ON_DIFF | ON_AUGMENT, set_clock, NULL),
    OPT_STRING("--device-file", "FILE", "JSON list of device entries {name, match, tflops: {DTYPE: N}, gbps, clock_mhz} "
               "matched before the built-in table (default: $PROFANA_DEVICES, else none; see README)",
               ON_ANALYSIS | ON_DIFF | ON_AUGMENT | ON_DEVICES, device_file),
    OPT_CALLBACK("--step", "all|N", "only the GPU work launched inside the CPU-side ProfilerStep windows (all, or step N; default: all GPU work)", 1,
                 ON_ANALYSIS, set_step, NULL),
    OPT_ENUM("--phase", "prefill|decode|mixed|all", "serving traces: only the GPU work of that phase (vLLM/SGLang step "
             "annotations, else attention calls' query length; README: Serving phases) (default {default})",
             ON_ANALYSIS | ON_DIFF, int, an.phase, phase_names, "all"),
    OPT_FLAG("--steps", "--analysis: one line per ProfilerStep (span, GPU time, busy %, top category)", ON_ANALYSIS, steps),
    OPT_STRING("--graph-capture", "PATH", "--analysis: give CUDA/HIP-graph-replayed kernels the ops that recorded them in "
               "this capture trace (or the traces of a directory, as its execution_details.json lists them)",
               ON_ANALYSIS, graph_capture),
    OPT_STRING("--inductor-cache", "DIR", "a copy of the Inductor cache directory (/tmp/torchinductor_$USER on the training host): "
               "Triton launches take bytes and FLOPs from the kernel modules they name, found here by the recorded "
               "path's last two components (default: only at the recorded paths)",
               ON_ANALYSIS | ON_DIFF | ON_AUGMENT, an.inductor_cache),
    OPT_STRING("--explain", "OP_OR_KERNEL", "--analysis: shapes, dtypes, inputs, formula and figures of its first invocation",
               ON_ANALYSIS, explain),
    OPT_CALLBACK("--fail-above", "PCT", "--diff: exit 3 when B's GPU time is over A's by more than PCT% (several runs: its 95% CI's low end) (default: no gate)", 1,
                 ON_DIFF, set_fail_above, NULL),
    OPT_FLAG("--extra", "--augment_trace: also achieved_tflops, achieved_gbps, flops_pct, bw_pct, kernel_category",
             ON_AUGMENT, extra),
    OPT_CALLBACK("--plot", "roofline|breakdown FILE.svg", "write a roofline chart or a GPU-time breakdown as SVG (repeatable)", 2,
                 ON_ANALYSIS | ON_DIFF, set_plot, NULL),
    OPT_STRING("--summary", "OUT.json", "--analysis: also write what --ranks needs of this trace (a small JSON rank summary, "
               "README: Rank summaries); --ranks reads it in place of the trace; - prints it instead of the tables",
               ON_ANALYSIS, summary),
    OPT_STRING("--report", "FILE.html", "write a self-contained HTML report (tables and charts)", ON_ANALYSIS | ON_DIFF, report),
    OPT_CALLBACK("-j", "N", "parser threads (default: one per CPU this process may use; for .json.gz one of them inflates); "
                 "output is the same for every N", 1, ON_LOADERS, set_jobs, NULL),
    OPT_FLAG_OFF("--quiet", "no progress bar on stderr", ON_LOADERS, load.progress),
    OPT_FLAG("--strict", "a trace cut inside its last event is an error (exit 1), not a warning", ON_LOADERS, load.strict),
    OPT_EXIT("--help", "print this help", show_help),
    OPT_EXIT("--version", "print the version", show_version),
    OPT_EXIT("--man", "print this help as a man page (roff; make install installs it)", show_man),
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

#define DEFAULT_MARK "{default}"

/* One option's line: its help with its default in place of {default}, or appended. */
static void print_option_help(FILE *out, const option *o)
{
    char left[80];
    snprintf(left, sizeof left, "%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    const char *mark = strstr(o->help, DEFAULT_MARK);
    assert(!mark || o->def); /* a {default} without a default would print as is */
    if (mark)
        fprintf(out, "  %-30s %.*s%s%s\n", left, (int)(mark - o->help), o->help, o->def, mark + strlen(DEFAULT_MARK));
    else if (o->def)
        fprintf(out, "  %-30s %s (default %s)\n", left, o->help, o->def);
    else
        fprintf(out, "  %-30s %s\n", left, o->help);
}

static void print_help(FILE *out)
{
    fprintf(out, "profana %s - where GPU time goes in a PyTorch profiler trace, and how close each\n"
                 "kernel runs to the hardware.\n\nUsage:\n", PROFANA_VERSION);
    for (size_t i = 0; i < COUNT(commands); i++)
        fprintf(out, "  profana %s%s%s [options]\n", commands[i].name, *commands[i].args ? " " : "",
                commands[i].args);
    fputs("\nCommands:\n", out);
    for (size_t i = 0; i < COUNT(commands); i++) {
        fprintf(out, "  %s %s\n", commands[i].name, commands[i].args);
        const char *h = commands[i].help;
        while (*h) {
            const char *nl = strchr(h, '\n');
            size_t n = nl ? (size_t)(nl - h) : strlen(h);
            fprintf(out, "      %.*s\n", (int)n, h);
            h += n + (nl != NULL);
        }
    }
    fputs("\nArguments:\n"
          "  FILE    a Kineto chrome trace (.json or .json.gz); - reads standard input\n"
          "  DTYPE   dtype of work whose dtype the trace does not show, in any case: ",
          out);
    fprintf(out, "%s\n\nOptions:\n", pf_dtype_cli_choices());
    for (size_t i = 0; i < COUNT(options); i++)
        print_option_help(out, &options[i]);
    fputs("\nEvery option and command may be spelled with - or _ (--name-limit, --augment-trace).\n"
          "\nExamples:\n", out);
    for (size_t i = 0; i < COUNT(commands); i++)
        fprintf(out, "  %s\n", commands[i].example);
    fputs("\nExit status: 0 ok, 1 unreadable trace or I/O error, 2 usage error,\n"
          "3 --diff --fail-above: B slower than allowed.\n"
          "Columns and formulas: see README.md.\n",
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

/* Text for roff: backslashes and hyphens escaped (so options print as typed), and each line
 * that would begin with a control character ('.' or an apostrophe) guarded. */
static void roff_text(FILE *out, const char *s, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        if ((k == 0 || s[k - 1] == '\n') && (s[k] == '.' || s[k] == '\''))
            fputs("\\&", out);
        if (s[k] == '\\')
            fputs("\\e", out);
        else if (s[k] == '-')
            fputs("\\-", out);
        else
            fputc(s[k], out);
    }
}

static void roff_line(FILE *out, const char *s)
{
    roff_text(out, s, strlen(s));
    fputc('\n', out);
}

/* An option's help with its default in place of {default} or appended, as print_option_help
 * writes it, for the man page. */
static void roff_option(FILE *out, const option *o)
{
    fputs(".TP\n\\fB", out);
    roff_text(out, o->name, strlen(o->name));
    fputs("\\fR", out);
    if (o->arg) {
        fputs(" \\fI", out);
        roff_text(out, o->arg, strlen(o->arg));
        fputs("\\fR", out);
    }
    fputc('\n', out);
    const char *mark = strstr(o->help, DEFAULT_MARK);
    if (mark) {
        roff_text(out, o->help, (size_t)(mark - o->help));
        roff_text(out, o->def, strlen(o->def));
        roff_line(out, mark + strlen(DEFAULT_MARK));
    } else {
        roff_text(out, o->help, strlen(o->help));
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
        roff_line(out, commands[i].name);
        if (*commands[i].args) {
            fputs(".I ", out);
            roff_line(out, commands[i].args);
        }
        fputs("[options]\n.br\n", out);
    }
    fputs(".SH COMMANDS\n", out);
    for (size_t i = 0; i < COUNT(commands); i++) {
        fputs(".TP\n\\fB", out);
        roff_text(out, commands[i].name, strlen(commands[i].name));
        fputs("\\fR ", out);
        roff_line(out, commands[i].args);
        roff_line(out, commands[i].help);
    }
    fputs(".SH ARGUMENTS\n.TP\n.I FILE\na Kineto chrome trace (.json or .json.gz); \\- reads standard input\n"
          ".TP\n.I DTYPE\ndtype of work whose dtype the trace does not show, in any case: ", out);
    roff_line(out, pf_dtype_cli_choices());
    fputs(".SH OPTIONS\nEvery option and command may be spelled with \\- or _ "
          "(\\-\\-name\\-limit, \\-\\-augment_trace).\n", out);
    for (size_t i = 0; i < COUNT(options); i++)
        roff_option(out, &options[i]);
    fputs(".SH EXAMPLES\n", out);
    for (size_t i = 0; i < COUNT(commands); i++) {
        fputs(".nf\n", out);
        roff_line(out, commands[i].example);
        fputs(".fi\n", out);
    }
    fputs(".SH EXIT STATUS\n0 ok, 1 unreadable trace or I/O error, 2 usage error, "
          "3 \\-\\-diff \\-\\-fail\\-above: B slower than allowed.\n"
          ".SH SEE ALSO\nREADME.md of the profana sources: columns, formulas and the device table.\n",
          out);
}

static const command *find_command(const char *s)
{
    for (size_t i = 0; i < COUNT(commands); i++)
        if (same_name(s, strlen(s), commands[i].name))
            return &commands[i];
    return NULL;
}

_Static_assert(sizeof(options) / sizeof(options[0]) <= 32, "options are marked in an unsigned long bitmask");

static const option *find_option(const char *s, size_t n)
{
    for (size_t i = 0; i < COUNT(options); i++)
        if (same_name(s, n, options[i].name))
            return &options[i];
    return NULL;
}

/* Edit distance between the n characters at a and b, '-' and '_' alike (same_name's rule);
 * names are short (under 64 characters), longer ones count as far. */
static size_t edit_distance(const char *a, size_t n, const char *b)
{
    enum { MAXLEN = 64 };
    size_t m = strlen(b);
    if (n >= MAXLEN || m >= MAXLEN)
        return (size_t)-1;
    size_t row[MAXLEN + 1];
    for (size_t j = 0; j <= m; j++)
        row[j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t up = row[j];
            int same = a[i - 1] == b[j - 1] || ((a[i - 1] == '-' || a[i - 1] == '_') && (b[j - 1] == '-' || b[j - 1] == '_'));
            size_t best = diag + !same;
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[m];
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
        size_t d = edit_distance(a, n, name);
        if (d < best_d)
            best = name, best_d = d;
    }
    for (size_t i = 0; !best && n > 3 && i < COUNT(options); i++)
        if (strncmp(a, options[i].name, n) == 0)
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
    else
        return pf_cli_usage_error("--plot wants roofline or breakdown, then a file, not '%s'", kind);
    return 0;
}

/* --help and --version on a full disk fail like every other output (exit 1). */
static int stdout_status(void)
{
    return pf_cli_stdout_status();
}

static int show_help(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)cli, (void)o, (void)v, (void)v2;
    print_help(stdout);
    return stdout_status();
}

static int show_man(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)cli, (void)o, (void)v, (void)v2;
    print_man(stdout);
    return stdout_status();
}

static int show_version(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)cli, (void)o, (void)v, (void)v2;
    printf("profana %s\n", PROFANA_VERSION);
    return stdout_status();
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
        if (options[i].def) {
            int rc = apply_option(cli, &options[i], options[i].def, NULL);
            assert(rc == 0); /* a default its own option refuses is a bug in the table */
            (void)rc;
        }
    }
}

/* Handles argv[*i] as an option, marking it in *given (bit = its index in options) and
 * setting *done for an option that ends the run (--help, --version); returns -1 when it is
 * not an option, else 0 or an exit status. */
static int parse_option(pf_cli *cli, int argc, char **argv, int *i, unsigned long *given, int *done)
{
    const char *a = argv[*i];
    if (a[0] == '-' && a[1] == 'j' && a[2] >= '0' && a[2] <= '9') {
        const option *j = find_option("-j", 2);
        *given |= 1ul << (j - options);
        return apply_option(cli, j, a + 2, NULL); /* -j4, as make takes it */
    }
    if (strcmp(a, "-h") == 0)
        a = "--help"; /* only as a whole word: -h=x is an unknown option */
    const char *eq = strchr(a, '=');
    size_t n = eq ? (size_t)(eq - a) : strlen(a);
    const option *o = find_option(a, n);
    if (!o)
        return -1;
    *given |= 1ul << (o - options);
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
    *done = o->kind == ACT_EXIT;
    return apply_option(cli, o, v, v2);
}

/* An option that does nothing for this command would be a surprise: refuse it. */
static int check_options_apply(unsigned long given, const command *c)
{
    for (size_t i = 0; i < COUNT(options); i++)
        if ((given >> i & 1) && !(options[i].on & c->bit))
            return pf_cli_usage_error("%s does not apply to %s", options[i].name, c->name);
    return 0;
}

/* Options that each apply to the command but not together: the second would do nothing. */
typedef struct conflict {
    const char *first, *second;
    const char *why;
} conflict;

static const conflict conflicts[] = {
    {"--explain", "--plot", "--explain prints one invocation's figures, no chart"},
    {"--explain", "--report", "--explain prints one invocation's figures, no report"},
    {"--explain", "--top", "--explain prints one invocation, no rows table"},
    {"--explain", "--by-category", "--explain prints one invocation, no rows table"},
    {"--explain", "--steps", "--explain prints one invocation, no step table"},
    {"--explain", "--group", "--explain shows the invocation's kernels and op both"},
    {"--explain", "--step", "--explain finds the first invocation of the whole trace"},
    {"--explain", "--summary", "--explain prints one invocation; --summary covers the whole trace"},
    {"--step", "--summary", "the summary covers the whole trace (with each step's figures)"},
    {"--steps", "--top", "--steps prints one line per step, no rows table"},
    {"--steps", "--by-category", "--steps prints one line per step, no rows table"},
    {"--steps", "--group", "--steps prints one line per step, no rows table"},
    {"--steps", "--columns", "--steps prints one line per step, no rows table"},
    {"--explain", "--columns", "--explain prints one invocation, no rows table"},
    {"--wide", "--columns", "--wide shows every column, --columns the ones it names"},
};

static int given_option(unsigned long given, const char *name)
{
    const option *o = find_option(name, strlen(name));
    assert(o); /* a conflict row names options of the table */
    return (int)(given >> (o - options) & 1);
}

/* Refuses options given together that cannot both act, and options that do nothing in the
 * chosen format, rather than ignore them. */
static int check_combinations(const pf_cli *cli, unsigned long given)
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
    if (c->bit == ON_DIFF)
        v.names[0] = v.names[1] = "A";
    if (pf_view_check_columns(&v, err, sizeof err))
        return pf_cli_usage_error("%s", err);
    return 0;
}

/* Whether positional i (of n) of command c is an input trace. */
static int is_input(const command *c, int i, int n)
{
    if (c->bit == ON_DIFF)
        return i == 0 || i == 2;
    if (c->bit == ON_COMBINE)
        return i < n - 1;
    return i == 0 && c->dtype_pos != 0;
}

/* Standard input can be read once: two inputs given as - would make the second empty. */
static int stdin_once(const pf_cli *cli, const command *c)
{
    int n = 0;
    for (int i = 0; i < cli->npos; i++)
        n += is_input(c, i, cli->npos) && strcmp(cli->pos[i], "-") == 0;
    return n > 1 ? pf_cli_usage_error("%s: standard input ('-') can be only one of the inputs", c->name) : 0;
}

static int check_positionals(pf_cli *cli, const command *c)
{
    if (c->npos < 0 && cli->npos < -c->npos)
        return pf_cli_usage_error("%s wants at least %d arguments (%s), got %d", c->name, -c->npos, c->args,
                                  cli->npos);
    if (c->npos < 0)
        return stdin_once(cli, c);
    if (cli->npos != c->npos && c->npos == 0)
        return pf_cli_usage_error("%s takes no arguments, got %d", c->name, cli->npos);
    if (cli->npos != c->npos)
        return pf_cli_usage_error("%s wants %d argument%s (%s), got %d", c->name, c->npos,
                                  c->npos == 1 ? "" : "s", c->args, cli->npos);
    if (c->dtype_pos >= 0) {
        const char *d = cli->pos[c->dtype_pos];
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
    const char *out[] = {cli->summary, cli->plot_roofline, cli->plot_breakdown, cli->report};
    enum { N_OUT = sizeof out / sizeof *out };
    for (int i = 1; i < N_OUT; i++)
        for (int k = 0; k < i && out[i]; k++)
            if (out[k] && pf_same_output(out[i], out[k])) {
                fprintf(stderr, "profana: error: %s: named for two outputs\n", out[i]);
                return PF_EXIT_TRACE;
            }
    return 0;
}

/* One pass over argv: commands, options (each applied by its row of the table) and
 * positionals. Stops at the first error or at an option that ends the run (*done). Returns 0
 * or an exit status. */
static int parse_args(pf_cli *cli, int argc, char **argv, const command **cmd, unsigned long *given, int *done)
{
    int rc = 0;
    for (int i = 1; i < argc && rc == 0 && !*done; i++) {
        const char *a = argv[i];
        const command *c = find_command(a);
        if (c && *cmd)
            rc = pf_cli_usage_error("%s and %s cannot be combined", (*cmd)->name, c->name);
        else if (c)
            *cmd = c;
        else if ((rc = parse_option(cli, argc, argv, &i, given, done)) == -1)
            rc = a[0] == '-' && a[1] ? unknown_option(a) : (cli->pos[cli->npos++] = a, 0);
    }
    return rc;
}

/* A file that shrinks while profana reads it through a mapping raises SIGBUS (BUS_ADRERR)
 * at the first page past its new end. Nothing can be read from there, so one error line and
 * exit 1, as for any unreadable input; an output being written is unnamed until it is
 * complete (outfile.c), so none is left. Any other SIGBUS stays a crash. */
static void on_sigbus(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    if (si && si->si_code == BUS_ADRERR) {
        static const char msg[] = "profana: error: an input file changed (it shrank) while being read\n";
        ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
        (void)w;
        _exit(PF_EXIT_TRACE);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Under a limit on address space (ulimit -v), glibc's allocator reserves 64 MB of it for
 * each thread's own arena (128 MB at first), so -j 8 ran out where -j 1 did not: with a
 * limit, every thread shares the one arena (the loader, out of memory with several threads
 * all the same, parses again on one). */
static void fit_address_limit(void)
{
#if defined(M_ARENA_MAX)
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        mallopt(M_ARENA_MAX, 1);
#endif
}

static void catch_signals(void)
{
    /* Past a file-size limit (ulimit -f) a write then fails with EFBIG, which every output
     * reports as a write error (exit 1, temporary file removed), instead of a silent death. */
    signal(SIGXFSZ, SIG_IGN);
    /* A reader that stops early (`| head -1`) is a normal end, not a death by SIGPIPE (exit
     * 141): writes then fail with EPIPE, which pf_cli_stdout_status takes as the end. */
    signal(SIGPIPE, SIG_IGN);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
}

/* Reads the device file (--device-file, else $PROFANA_DEVICES, for the commands that match
 * devices) into devices at the --clock, and resolves --device against it. Returns 0 or an
 * exit status. */
static int resolve_devices(pf_cli *cli, const command *cmd, pf_devset *devices)
{
    const char *env = getenv("PROFANA_DEVICES");
    if (!cli->device_file && env && *env && (cmd->bit & (ON_ANALYSIS | ON_DIFF | ON_AUGMENT | ON_DEVICES)))
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
    const command *cmd = NULL;
    catch_signals();
    fit_address_limit();
    apply_defaults(&cli);
    cli.an.default_dtype = PF_DT_BF16;
    cli.an.step = PF_STEP_EVERY;
    cli.load.progress = isatty(STDERR_FILENO);
    cli.pos = calloc((size_t)argc + 1, sizeof *cli.pos);
    if (!cli.pos)
        return pf_cli_error("out of memory");
    unsigned long given = 0;
    int done = 0;
    int rc = parse_args(&cli, argc, argv, &cmd, &given, &done);
    if (rc == 0 && !done && !cmd)
        rc = pf_cli_usage_error("no command given: use --analysis FILE DTYPE (or see --help)");
    if (rc == 0 && !done)
        rc = check_options_apply(given, cmd);
    if (rc == 0 && !done)
        rc = check_combinations(&cli, given);
    if (rc == 0 && !done)
        rc = check_columns(&cli, cmd);
    if (rc == 0 && !done)
        rc = check_positionals(&cli, cmd);
    if (rc == 0 && !done)
        rc = distinct_outputs(&cli);
    pf_devset devices = {0};
    if (rc == 0 && !done)
        rc = resolve_devices(&cli, cmd, &devices);
    if (rc == 0 && !done) {
        cli.command = cmd->name;
        rc = cmd->run(&cli);
    }
    pf_devset_free(&devices);
    free(cli.pos);
    return rc;
}
