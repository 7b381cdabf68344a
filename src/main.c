/* main.c - parses the command line and dispatches to a subcommand from one table that also writes --help. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profana/cli.h"

#define PROFANA_VERSION "0.1.0"

/* Which commands an option applies to: giving one to another command is a usage error,
 * not silently ignored. */
enum { ON_ANALYSIS = 1, ON_DIFF = 2, ON_AUGMENT = 4, ON_COMBINE = 8, ON_DEVICES = 16,
       ON_LOADERS = ON_ANALYSIS | ON_DIFF | ON_AUGMENT | ON_COMBINE };

typedef struct command {
    const char *name;
    unsigned bit;              /* ON_* */
    const char *args;          /* positional arguments, for usage lines */
    int npos;                  /* how many positionals it takes; -N: at least N */
    int dtype_pos;             /* index of the DTYPE positional, -1 when none */
    int (*run)(const pf_cli *);
    const char *help;
} command;

static const command commands[] = {
    {"--analysis", ON_ANALYSIS, "FILE DTYPE", 2, 1, cmd_analysis,
     "per device, one row per kernel (or op, or op+shape): count, time, FLOPs, bytes,\n"
     "achieved TFLOP/s and GB/s, percent of the device's peak, roofline bound"},
    {"--diff", ON_DIFF, "A.json NAME_A B.json NAME_B DTYPE", 5, 4, cmd_diff,
     "compare two traces row by row (exact name, then normalised name, then op family with\n"
     "shapes): per-row time ratio B/A, geomean, matched share; --fail-above PCT for CI"},
    {"--augment_trace", ON_AUGMENT, "IN OUT DTYPE", 3, 2, cmd_augment,
     "write IN to OUT with kernel_flop and kernel_num_gb added to the args of every kernel\n"
     "and op with figures (--extra: rates, percents, category); nothing else changes; OUT may\n"
     "be IN, - is standard output"},
    {"--combine", ON_COMBINE, "IN1 IN2 [IN...] OUT", -3, -1, cmd_combine,
     "merge traces (e.g. of several ranks) into OUT, remapping colliding process ids and\n"
     "tagging each event with its input"},
    {"--list-devices", ON_DEVICES, "", 0, -1, cmd_list_devices,
     "print the device table: names matched, dense peaks per dtype, bandwidth, source"},
};

typedef struct option {
    const char *name;
    const char *arg;           /* NULL for a flag */
    const char *help;
    int nvals;                 /* values it takes: 0 for a flag, 1, or 2 (--plot KIND FILE) */
    unsigned on;               /* ON_* of the commands it applies to */
} option;

static const option options[] = {
    {"--name_limit", "N", "cut kernel names to N characters in text and Markdown (default 40; 0 = no cut)", 1, ON_ANALYSIS | ON_DIFF},
    {"--group", "kernel|op|shape", "group rows by kernel name (default), launching op, or op with input shapes", 1, ON_ANALYSIS | ON_DIFF},
    {"--top", "N", "print only the N rows with the most GPU time (the Total row still counts all)", 1, ON_ANALYSIS},
    {"--format", "text|csv|json|md", "output format (default text)", 1, ON_ANALYSIS | ON_DIFF | ON_DEVICES},
    {"--by-category", NULL, "after the tables, one table per category with its rows by time, count and percent", 0, ON_ANALYSIS},
    {"--tf32", NULL, "fp32 matrix work (GEMM, convolution) is measured against the TF32 peak", 0, ON_ANALYSIS | ON_DIFF | ON_AUGMENT},
    {"--device", "NAME", "use this device-table entry for every device (see --list-devices)", 1, ON_ANALYSIS | ON_DIFF | ON_AUGMENT},
    {"--step", "all|N", "only GPU activity inside the GPU-side ProfilerStep annotations (all, or step N)", 1, ON_ANALYSIS},
    {"--steps", NULL, "--analysis: one line per ProfilerStep (GPU time, busy %, top category)", 0, ON_ANALYSIS},
    {"--explain", "OP_OR_KERNEL", "--analysis: shapes, dtypes, inputs, formula and figures of its first invocation", 1, ON_ANALYSIS},
    {"--fail-above", "PCT", "--diff: exit 3 when B's GPU time exceeds A's by more than PCT percent", 1, ON_DIFF},
    {"--extra", NULL, "--augment_trace: also achieved_tflops, achieved_gbps, flops_pct, bw_pct, kernel_category", 0, ON_AUGMENT},
    {"--plot", "roofline|breakdown FILE.svg", "write a roofline chart or a GPU-time breakdown as SVG (repeatable)", 2, ON_ANALYSIS | ON_DIFF},
    {"--report", "FILE.html", "write a self-contained HTML report (tables and charts)", 1, ON_ANALYSIS | ON_DIFF},
    {"-j", "N", "parser threads (default: one per CPU this process may use; for .json.gz one of them inflates); output is the same for every N", 1, ON_LOADERS},
    {"--quiet", NULL, "no progress bar on stderr", 0, ON_LOADERS},
    {"--strict", NULL, "a trace cut inside its last event is an error (exit 1), not a warning", 0, ON_LOADERS},
    {"--help", NULL, "print this help", 0, ~0u},
    {"--version", NULL, "print the version", 0, ~0u},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

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
          "  FILE    a Kineto chrome trace (.json); - reads standard input\n"
          "  DTYPE   dtype of work whose dtype the trace does not show: ",
          out);
    fprintf(out, "%s\n\nOptions:\n", pf_dtype_cli_choices());
    for (size_t i = 0; i < COUNT(options); i++) {
        char left[80];
        snprintf(left, sizeof left, "%s%s%s", options[i].name, options[i].arg ? " " : "",
                 options[i].arg ? options[i].arg : "");
        fprintf(out, "  %-30s %s\n", left, options[i].help);
    }
    fputs("\nExit status: 0 ok, 1 unreadable trace or I/O error, 2 usage error,\n"
          "3 --diff --fail-above: B slower than allowed.\n"
          "Columns and formulas: see README.md.\n",
          out);
}

static const command *find_command(const char *s)
{
    for (size_t i = 0; i < COUNT(commands); i++)
        if (strcmp(s, commands[i].name) == 0)
            return &commands[i];
    return NULL;
}

_Static_assert(sizeof(options) / sizeof(options[0]) <= 32, "options are marked in an unsigned long bitmask");

static const option *find_option(const char *s, size_t n)
{
    for (size_t i = 0; i < COUNT(options); i++)
        if (strlen(options[i].name) == n && strncmp(s, options[i].name, n) == 0)
            return &options[i];
    return NULL;
}

static int parse_count(const char *opt, const char *v, int *out)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (!*v || *end || n < 0 || n > 1000000)
        return pf_cli_usage_error("%s wants a whole number from 0 to 1000000, not '%s'", opt, v);
    *out = (int)n;
    return 0;
}

static int parse_group(const char *v, pf_group_by *g)
{
    static const char *const names[] = {"kernel", "op", "shape"};
    for (int i = 0; i < 3; i++)
        if (strcmp(v, names[i]) == 0) {
            *g = (pf_group_by)i;
            return 0;
        }
    return pf_cli_usage_error("--group wants kernel, op or shape, not '%s'", v);
}

static int set_flag(int *f)
{
    *f = 1;
    return 0;
}

static int set_string(const char **dst, const char *opt, const char *v)
{
    if (!*v)
        return pf_cli_usage_error("%s wants a non-empty value", opt);
    *dst = v;
    return 0;
}

static int parse_step(const char *v, int64_t *step)
{
    if (strcmp(v, "all") == 0) {
        *step = PF_STEP_ALL;
        return 0;
    }
    char *end;
    long long n = strtoll(v, &end, 10);
    if (!*v || *end || n < 0)
        return pf_cli_usage_error("--step wants all or a step number N (of ProfilerStep#N), not '%s'", v);
    *step = n;
    return 0;
}

static int parse_percent(const char *opt, const char *v, double *out)
{
    char *end;
    double x = strtod(v, &end);
    if (!*v || *end || !(x >= 0) || x > 1e9)
        return pf_cli_usage_error("%s wants a percentage, 0 or more, not '%s'", opt, v);
    *out = x;
    return 0;
}

static int parse_jobs(const char *v, int *jobs)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (!*v || *end || n < 1 || n > 1024)
        return pf_cli_usage_error("-j wants a number of threads from 1 to 1024, not '%s'", v);
    *jobs = (int)n;
    return 0;
}

static int parse_plot(pf_cli *cli, const char *kind, const char *file)
{
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

/* Applies one option with its values (NULL for flags; v2 only for two-valued options).
 * Returns 0 or an exit status. */
static int apply_option(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    if (strcmp(o->name, "--name_limit") == 0)
        return parse_count(o->name, v, &cli->name_limit);
    if (strcmp(o->name, "--top") == 0)
        return parse_count(o->name, v, &cli->top);
    if (strcmp(o->name, "--group") == 0)
        return parse_group(v, &cli->an.group);
    if (strcmp(o->name, "--format") == 0)
        return pf_format_parse(v, &cli->format) ? pf_cli_usage_error("--format wants text, csv, json or md, not '%s'", v) : 0;
    if (strcmp(o->name, "--by-category") == 0)
        return set_flag(&cli->by_category);
    if (strcmp(o->name, "--tf32") == 0)
        return set_flag(&cli->an.tf32);
    if (strcmp(o->name, "--step") == 0)
        return parse_step(v, &cli->an.step);
    if (strcmp(o->name, "--steps") == 0)
        return set_flag(&cli->steps);
    if (strcmp(o->name, "--explain") == 0)
        return set_string(&cli->explain, o->name, v);
    if (strcmp(o->name, "--fail-above") == 0)
        return parse_percent(o->name, v, &cli->fail_above);
    if (strcmp(o->name, "--extra") == 0)
        return set_flag(&cli->extra);
    if (strcmp(o->name, "--plot") == 0)
        return parse_plot(cli, v, v2);
    if (strcmp(o->name, "--report") == 0)
        return set_string(&cli->report, o->name, v);
    if (strcmp(o->name, "-j") == 0)
        return parse_jobs(v, &cli->load.jobs);
    if (strcmp(o->name, "--quiet") == 0) {
        cli->load.progress = 0;
        return 0;
    }
    if (strcmp(o->name, "--strict") == 0)
        return set_flag(&cli->load.strict);
    if (strcmp(o->name, "--device") == 0) {
        cli->device_name = v;
        cli->an.force_device = pf_devices_find(v);
        return cli->an.force_device ? 0 : pf_cli_usage_error("--device: no entry named '%s' (see profana --list-devices)", v);
    }
    return 0;
}

/* Handles argv[*i] as an option, marking it in *given (bit = its index in options);
 * returns -1 when it is not one, else 0 or an exit status. */
static int parse_option(pf_cli *cli, int argc, char **argv, int *i, unsigned long *given)
{
    const char *a = argv[*i];
    if (a[0] == '-' && a[1] == 'j' && a[2] >= '0' && a[2] <= '9') {
        *given |= 1ul << (find_option("-j", 2) - options);
        return parse_jobs(a + 2, &cli->load.jobs); /* -j4, as make takes it */
    }
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

static int check_positionals(pf_cli *cli, const command *c)
{
    if (c->npos < 0 && cli->npos < -c->npos)
        return pf_cli_usage_error("%s wants at least %d arguments (%s), got %d", c->name, -c->npos, c->args,
                                  cli->npos);
    if (c->npos < 0)
        return 0;
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
    return 0;
}

/* --help and --version on a full disk fail like every other output (exit 1). */
static int stdout_status(void)
{
    return fflush(stdout) != 0 || ferror(stdout) ? pf_cli_error("cannot write to standard output") : PF_EXIT_OK;
}

int main(int argc, char **argv)
{
    pf_cli cli = {.name_limit = 40, .format = PF_FMT_TEXT, .fail_above = -1};
    const command *cmd = NULL;
    cli.an.default_dtype = PF_DT_BF16;
    cli.an.step = PF_STEP_EVERY;
    cli.load.progress = isatty(STDERR_FILENO);
    cli.pos = calloc((size_t)argc + 1, sizeof *cli.pos);
    if (!cli.pos)
        return pf_cli_error("out of memory");
    int rc = 0;
    unsigned long given = 0;
    for (int i = 1; i < argc && rc == 0; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            print_help(stdout);
            free(cli.pos);
            return stdout_status();
        }
        if (strcmp(a, "--version") == 0) {
            printf("profana %s\n", PROFANA_VERSION);
            free(cli.pos);
            return stdout_status();
        }
        const command *c = find_command(a);
        if (c && cmd)
            rc = pf_cli_usage_error("%s and %s cannot be combined", cmd->name, c->name);
        else if (c)
            cmd = c;
        else if ((rc = parse_option(&cli, argc, argv, &i, &given)) == -1)
            rc = a[0] == '-' && a[1] ? pf_cli_usage_error("unknown option '%s'", a) : (cli.pos[cli.npos++] = a, 0);
    }
    if (rc == 0 && !cmd)
        rc = pf_cli_usage_error("no command given: use --analysis FILE DTYPE (or see --help)");
    if (rc == 0)
        rc = check_options_apply(given, cmd);
    if (rc == 0)
        rc = check_positionals(&cli, cmd);
    if (rc == 0) {
        cli.command = cmd->name;
        rc = cmd->run(&cli);
    }
    free(cli.pos);
    return rc;
}
