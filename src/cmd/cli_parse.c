/* cli_parse.c - argv to pf_cli in one pass: each option applied by its row of the table (as git's parse-options), commands and positionals taken as they come. */
#include "cli_table.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profana/clitext.h"

/* The command or option nearest to an unknown one (its part before '='): the fewest edits, at
 * most a third of its length (at least 2), or else the one it begins; NULL when none is near. */
static const char *nearest_name(const char *a)
{
    const char *eq = strchr(a, '=');
    size_t n = eq ? (size_t)(eq - a) : strlen(a);
    const char *best = NULL;
    size_t best_d = (n / 3 > 2 ? n / 3 : 2) + 1;
    for (size_t i = 0; i < pf_cli_n_commands + pf_cli_n_options; i++) {
        const char *name = i < pf_cli_n_commands ? pf_cli_commands[i].name : pf_cli_options[i - pf_cli_n_commands].name;
        if (i >= pf_cli_n_commands && !pf_cli_options[i - pf_cli_n_commands].help)
            continue; /* a hidden option is never suggested */
        size_t d = pf_name_distance(a, n, name);
        if (d < best_d)
            best = name, best_d = d;
    }
    for (size_t i = 0; !best && n > 3 && i < pf_cli_n_options; i++)
        if (pf_cli_options[i].help && strncmp(a, pf_cli_options[i].name, n) == 0)
            best = pf_cli_options[i].name;
    return best;
}

static int unknown_option(const char *a)
{
    const char *near = nearest_name(a);
    if (near)
        return pf_cli_usage_error("unknown option '%s'; did you mean %s?", a, near);
    return pf_cli_usage_error("unknown option '%s'", a);
}

/* ---- a row applied ---- */

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

/* Applies one option with its values (NULL for flags; v2 only for two-valued options).
 * Returns 0 or an exit status. */
static int apply_option(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    assert(cli && o);
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
        cli->mode = o->mode;
        return o->nvals == 0 ? 0 : set_string(field, o->name, v);
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
    for (size_t i = 0; i < pf_cli_n_options; i++) {
        const option *o = &pf_cli_options[i];
        assert(o->kind != 0 && (o->kind != ACT_CALLBACK && o->kind != ACT_EXIT) == !o->cb);
        /* a mode row names its mode and why it refuses what it does not take; no other row does */
        assert((o->kind == ACT_MODE) == (o->mode != PF_MODE_NONE && o->refusal != NULL));
        if (o->def) {
            int rc = apply_option(cli, o, o->def, NULL);
            assert(rc == 0); /* a default its own option refuses is a bug in the table */
            (void)rc;
        }
    }
}

/* Marks o given; a second mode is kept aside as the clash (one mode at a time). */
static void mark_given(parsed *p, const option *o)
{
    assert(o >= pf_cli_options && o < pf_cli_options + pf_cli_n_options);
    p->given[o - pf_cli_options] = 1;
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
        const option *j = pf_cli_find_option("-j", 2);
        mark_given(p, j);
        return apply_option(cli, j, a + 2, NULL); /* -j4, as make takes it */
    }
    if (strcmp(a, "-h") == 0)
        a = "--help"; /* only as a whole word: -h=x is an unknown option */
    const char *eq = strchr(a, '=');
    size_t n = eq ? (size_t)(eq - a) : strlen(a);
    const option *o = pf_cli_find_option(a, n);
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

/* One pass over argv: commands, options (each applied by its row of the table) and
 * positionals, into cli and p. Stops at the first error or at an option that ends the run
 * (p->done). Returns 0 or an exit status. A command's row writes its plain mode into
 * cli->mode unless a mode row came first; a mode row given after it writes its own. */
static int parse_args(pf_cli *cli, int argc, char **argv, parsed *p)
{
    assert(cli && cli->pos && argv && p);
    int rc = 0;
    for (int i = 1; i < argc && rc == 0 && !p->done; i++) {
        const char *a = argv[i];
        const command *c = pf_cli_find_command(a);
        if (c && p->cmd)
            rc = pf_cli_usage_error("%s and %s cannot be combined", p->cmd->name, c->name);
        else if (c && (p->cmd = c) && cli->mode == PF_MODE_NONE)
            cli->mode = c->plain;
        else if ((rc = parse_option(cli, argc, argv, &i, p)) == -1)
            rc = a[0] == '-' && a[1] ? unknown_option(a) : (cli->pos[cli->npos++] = a, 0);
    }
    return rc;
}

/* include/profana/cli.h */
int pf_cli_parse(pf_cli *cli, int argc, char **argv, pf_devset *devices, int *done)
{
    assert(cli && cli->pos && argv && devices && done);
    apply_defaults(cli);
    cli->fail_above = -1;
    cli->an.default_dtype = PF_DT_BF16;
    cli->an.step = PF_STEP_EVERY;
    cli->load.progress = isatty(STDERR_FILENO);
    parsed p = {0};
    int rc = parse_args(cli, argc, argv, &p);
    *done = p.done;
    if (rc || p.done)
        return rc;
    if (!p.cmd)
        return pf_cli_usage_error("no command given: use --analysis FILE DTYPE (or see --help)");
    rc = pf_cli_check(cli, &p);
    if (rc == 0)
        rc = pf_cli_resolve_devices(cli, p.cmd, devices);
    cli->command = p.cmd->name;
    cli->load.op_spans_only = !pf_analysis_needs_host(&cli->an); /* only per-op CPU times read them */
    /* the module view's backward pass: --group module and annotation, and the report's module tree */
    cli->load.autograd = pf_group_is_tree(cli->an.group) || cli->report;
    return rc;
}
