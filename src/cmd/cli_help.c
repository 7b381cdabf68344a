/* cli_help.c - --help and the man page, both written from the command and option tables, so the two never disagree. */
#include "cli_table.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "profana/clitext.h"
#include "profana/view.h"

#define DEFAULT_MARK "{default}"

/* --help fits an 80-column terminal (pf_print_wrapped); the options' help starts at column 33. */
enum { HELP_WIDTH = 79, HELP_LEFT = 30 };

/* One option's line: its help with its default in place of {default}, or appended; a name
 * wider than its column puts the help on the next line. */
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

/* cli_table.h */
void pf_cli_print_help(FILE *out)
{
    assert(out);
    fprintf(out, "profana %s - where GPU time goes in a PyTorch profiler trace, and how close\n"
                 "each kernel runs to the hardware.\n\nUsage:\n", PROFANA_VERSION);
    for (size_t i = 0; i < pf_cli_n_commands; i++)
        fprintf(out, "  profana %s%s%s [options]\n", pf_cli_commands[i].name, *pf_cli_commands[i].args ? " " : "",
                pf_cli_commands[i].args);
    fputs("\nCommands:\n", out);
    for (size_t i = 0; i < pf_cli_n_commands; i++) {
        fprintf(out, "  %s%s%s\n", pf_cli_commands[i].name, *pf_cli_commands[i].args ? " " : "", pf_cli_commands[i].args);
        /* the table's lines joined and wrapped again, to the width of the rest */
        char h[1024];
        snprintf(h, sizeof h, "%s", pf_cli_commands[i].help);
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
    for (size_t i = 0; i < pf_cli_n_options; i++)
        print_option_help(out, &pf_cli_options[i]);
    fputs("\nEvery option and command may be spelled with - or _ (--name-limit is\n"
          "--name_limit, --augment-trace is --augment_trace).\n"
          "\nExamples:\n", out);
    for (size_t i = 0; i < pf_cli_n_commands; i++)
        fprintf(out, "  %s\n", pf_cli_commands[i].example);
    fputs("\nExit status: 0 ok, 1 unreadable trace or I/O error, 2 usage error,\n"
          "3 --diff --fail-above: B slower than allowed.\n"
          "Columns: docs/analysis.md; formulas: docs/formulas.md (in the sources).\n",
          out);
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

/* The man page's SYNOPSIS and COMMANDS: a usage line and a paragraph per command. */
static void roff_commands(FILE *out)
{
    assert(out);
    for (size_t i = 0; i < pf_cli_n_commands; i++) {
        fputs(".B profana\n", out);
        fprintf(out, ".B ");
        pf_roff_line(out, pf_cli_commands[i].name);
        if (*pf_cli_commands[i].args) {
            fputs(".I ", out);
            pf_roff_line(out, pf_cli_commands[i].args);
        }
        fputs("[options]\n.br\n", out);
    }
    fputs(".SH COMMANDS\n", out);
    for (size_t i = 0; i < pf_cli_n_commands; i++) {
        fputs(".TP\n\\fB", out);
        pf_roff_text(out, pf_cli_commands[i].name, strlen(pf_cli_commands[i].name));
        fputs("\\fR ", out);
        pf_roff_line(out, pf_cli_commands[i].args);
        pf_roff_line(out, pf_cli_commands[i].help);
    }
}

/* cli_table.h. The man page: the same tables as --help, so the two never disagree. */
void pf_cli_print_man(FILE *out)
{
    assert(out);
    fprintf(out, ".TH PROFANA 1 \"\" \"profana %s\" \"User Commands\"\n.SH NAME\n"
                 "profana \\- where GPU time goes in a PyTorch profiler trace, and how close each kernel "
                 "runs to the hardware\n.SH SYNOPSIS\n", PROFANA_VERSION);
    roff_commands(out);
    fputs(".SH ARGUMENTS\n.TP\n.I FILE\na Kineto chrome trace (.json or .json.gz); \\- reads standard input\n"
          ".TP\n.I DTYPE\ndtype of work whose dtype the trace does not show, in any case: ", out);
    pf_roff_line(out, pf_dtype_cli_choices());
    fputs(".SH OPTIONS\nEvery option and command may be spelled with \\- or _ "
          "(\\-\\-name\\-limit, \\-\\-augment_trace).\n", out);
    for (size_t i = 0; i < pf_cli_n_options; i++)
        roff_option(out, &pf_cli_options[i]);
    fputs(".SH EXAMPLES\n", out);
    for (size_t i = 0; i < pf_cli_n_commands; i++) {
        fputs(".nf\n", out);
        pf_roff_line(out, pf_cli_commands[i].example);
        fputs(".fi\n", out);
    }
    fputs(".SH EXIT STATUS\n0 ok, 1 unreadable trace or I/O error, 2 usage error, "
          "3 \\-\\-diff \\-\\-fail\\-above: B slower than allowed.\n"
          ".SH SEE ALSO\nREADME.md and docs/ of the profana sources: columns (docs/analysis.md), formulas (docs/formulas.md) and the device table (docs/devices.md).\n",
          out);
}
