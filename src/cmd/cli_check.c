/* cli_check.c - what a parsed command line may not do, refused before any trace is read: options that do not apply to the command or its mode, or not together; columns, positionals, outputs named twice; and the device file read, --device resolved. */
#include "cli_table.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/outfile.h"

/* An option that does nothing for this command, or in its mode, would be a surprise: refuse
 * it. Two modes are named in the table's order, whichever came first. */
static int check_options_apply(const parsed *p)
{
    const command *c = p->cmd;
    for (size_t i = 0; i < pf_cli_n_options; i++)
        if (p->given[i] && !(pf_cli_options[i].on & c->bit))
            return pf_cli_usage_error("%s does not apply to %s", pf_cli_options[i].name, c->name);
    if (p->clash) {
        const option *first = p->mode < p->clash ? p->mode : p->clash;
        const option *second = p->mode < p->clash ? p->clash : p->mode;
        return pf_cli_usage_error("%s cannot be combined with %s: %s", first->name, second->name, second->refusal);
    }
    unsigned now = ON(p->mode ? p->mode->mode : c->plain);
    for (size_t i = 0; i < pf_cli_n_options; i++)
        if (p->given[i] && pf_cli_options[i].kind != ACT_MODE && !(pf_cli_options[i].on & now)) {
            assert(p->mode); /* an option that applies to the command applies to its plain mode */
            return pf_cli_usage_error("%s cannot be combined with %s: %s", pf_cli_options[i].name, p->mode->name,
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
    const option *o = pf_cli_find_option(name, strlen(name));
    assert(o); /* a conflict row names options of the table */
    return p->given[o - pf_cli_options];
}

/* Refuses options given together that cannot both act, and options that do nothing in the
 * chosen format, rather than ignore them. */
static int check_combinations(const pf_cli *cli, const parsed *given)
{
    for (size_t i = 0; i < sizeof conflicts / sizeof conflicts[0]; i++)
        if (given_option(given, conflicts[i].first) && given_option(given, conflicts[i].second))
            return pf_cli_usage_error("%s cannot be combined with %s: %s", conflicts[i].second, conflicts[i].first,
                                      conflicts[i].why);
    if (pf_group_is_view(cli->an.group)) {
        static const char *const no_rows[] = {"--by-category", "--waits", "--columns", "--plot", "--report"};
        const char *g = pf_group_names[cli->an.group];
        if (given->cmd->bit != ON_ANALYSIS)
            return pf_cli_usage_error("--group %s applies to --analysis only: %s compares rows tables", g,
                                      given->cmd->name);
        for (size_t i = 0; i < sizeof no_rows / sizeof no_rows[0]; i++)
            if (given_option(given, no_rows[i]))
                return pf_cli_usage_error("%s cannot be combined with --group %s: it prints the %s %s, no rows table "
                                          "(run --analysis again without it)", no_rows[i], g, g,
                                          pf_group_is_tree(cli->an.group) ? "tree" : "table");
    }
    /* --ranks draws its ranks, the others one trace's (or pair's) rows */
    if (given->cmd->bit == ON_RANKS && (cli->plot_roofline || cli->plot_breakdown || cli->plot_timeline))
        return pf_cli_usage_error("--plot %s draws one trace's rows: --ranks draws --plot ranks",
                                  cli->plot_roofline ? "roofline" : cli->plot_breakdown ? "breakdown" : "timeline");
    if (given->cmd->bit != ON_RANKS && cli->plot_ranks)
        return pf_cli_usage_error("--plot ranks applies to --ranks only");
    if (!pf_group_is_tree(cli->an.group) && given_option(given, "--depth")) {
        return pf_cli_usage_error("--depth applies to --group module and annotation only (the depth of the tree)");
    }
    if (cli->format == PF_FMT_NDJSON) { /* a line per row of the rows tables: a command or mode that has them */
        static const char *const no_rows[] = {"--by-category", "--waits", "--explain", "--steps"};
        if (given->cmd->bit != ON_ANALYSIS && given->cmd->bit != ON_RANKS)
            return pf_cli_usage_error("--format ndjson applies to --analysis and --ranks only (a line per row of their "
                                      "tables), not %s", given->cmd->name);
        if (pf_group_is_view(cli->an.group))
            return pf_cli_usage_error("--format ndjson cannot be combined with --group %s: it has no rows table (use "
                                      "--format json)", pf_group_names[cli->an.group]);
        for (size_t i = 0; i < sizeof no_rows / sizeof no_rows[0]; i++)
            if (given_option(given, no_rows[i]))
                return pf_cli_usage_error("%s cannot be combined with --format ndjson: use --format json", no_rows[i]);
    }
    const char *fmt = cli->format == PF_FMT_CSV      ? "csv"
                      : cli->format == PF_FMT_JSON   ? "json"
                      : cli->format == PF_FMT_NDJSON ? "ndjson"
                                                     : NULL;
    if (fmt && given_option(given, "--name_limit"))
        return pf_cli_usage_error("--name_limit does not apply to --format %s, which always carries whole names", fmt);
    if (fmt && given_option(given, "--columns"))
        return pf_cli_usage_error("--columns does not apply to --format %s, which always carries every column", fmt);
    if (cli->format != PF_FMT_TEXT && given_option(given, "--wide"))
        return pf_cli_usage_error("--wide does not apply to --format %s, which always carries every column",
                                  fmt ? fmt : "md");
    return 0;
}

/* --columns names columns of the command's rows table: checked before any trace is read.
 * --diff's interval and verdict columns exist only with several runs on a side (comma-separated):
 * with one run a side the table would show the names alone. */
static int check_columns(const pf_cli *cli, const command *c)
{
    pf_view_opts v = pf_cli_view_opts(cli);
    char err[1024];
    if (c->bit == ON_DIFF) /* the table's column names (of either side) */
        v.names[0] = v.names[1] = "A";
    if (pf_view_check_columns(&v, err, sizeof err))
        return pf_cli_usage_error("%s", err);
    const char *col = NULL;
    if (c->bit == ON_DIFF && cli->npos >= 3 && !strchr(cli->pos[0], ',') && !strchr(cli->pos[2], ','))
        col = pf_view_runs_column(&v);
    if (col)
        return pf_cli_usage_error("--columns %s needs several runs on a side (A1.json,A2.json): with one run a side "
                                  "there is no interval or verdict", col);
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
    const char *out[] = {cli->summary, cli->plot_roofline, cli->plot_breakdown, cli->report, cli->plot_timeline,
                         cli->plot_ranks};
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
    const char *out[] = {cli->summary, cli->plot_roofline, cli->plot_breakdown, cli->report, cli->plot_timeline,
                         cli->plot_ranks};
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

/* cli_table.h: in the order the errors are told, the first found refused. */
int pf_cli_check(pf_cli *cli, const parsed *p)
{
    assert(cli && p && p->cmd);
    int rc = check_options_apply(p);
    if (rc == 0)
        rc = check_combinations(cli, p);
    if (rc == 0)
        rc = check_columns(cli, p->cmd);
    if (rc == 0)
        rc = check_positionals(cli, p->cmd);
    if (rc == 0)
        rc = distinct_outputs(cli);
    if (rc == 0)
        rc = writable_outputs(cli, p->cmd);
    return rc;
}

/* cli_table.h */
int pf_cli_resolve_devices(pf_cli *cli, const command *cmd, pf_devset *devices)
{
    assert(cli && cmd && devices);
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
