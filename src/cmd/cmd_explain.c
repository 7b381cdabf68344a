/* cmd_explain.c - `--analysis FILE DTYPE --explain NAME`: one invocation of an op or kernel, the inputs its formula read, the expression it applied and the figures it gave (src/analysis/explain.c finds and works them out, src/render/explain_view.c prints them). */
#include <stdio.h>
#include <string.h>

#include "profana/cli.h"
#include "profana/explain.h"
#include "profana/explain_view.h"

enum { HINT_CHARS = 60 };

/* The error for a name that matches nothing, with close names. */
static int no_match(const pf_invocation *e)
{
    fprintf(stderr, "profana: error: %s: --explain '%s': no op or kernel of that name", e->t->path, e->query);
    for (int i = 0; i < e->n_hints; i++)
        fprintf(stderr, "%s'%.*s%s'", i ? ", " : "; close: ", HINT_CHARS, e->hints[i],
                strlen(e->hints[i]) > HINT_CHARS ? "..." : "");
    fputc('\n', stderr);
    return PF_EXIT_TRACE;
}

/* The error for a part of several kernel names: how many, and the first few. */
static int ambiguous(const pf_invocation *e)
{
    fprintf(stderr, "profana: error: %s: --explain '%s' is part of %s%zu kernel names (", e->t->path, e->query,
            e->n_names == PF_INV_MAX_NAMES ? "at least " : "", e->n_names);
    for (int i = 0; i < e->n_hints; i++)
        fprintf(stderr, "%s'%.*s%s'", i ? ", " : "", HINT_CHARS, e->hints[i],
                strlen(e->hints[i]) > HINT_CHARS ? "..." : "");
    fprintf(stderr, "%s): give a whole name\n", e->n_names > PF_INV_HINTS ? ", ..." : "");
    return PF_EXIT_TRACE;
}

/* The exit status for what finding gave, printing the error when it found nothing. */
static int found_status(const pf_invocation *e)
{
    switch (e->found) {
    case PF_INV_FOUND:
        return PF_EXIT_OK;
    case PF_INV_NOT_LAUNCHED:
        fprintf(stderr, "profana: error: %s: --explain '%s': %zu invocations, none launched GPU activity itself "
                        "(its kernels link to the ops it calls)\n", e->t->path, e->query, e->matches);
        return PF_EXIT_TRACE;
    case PF_INV_NO_MATCH:
        return no_match(e);
    default:
        return ambiguous(e);
    }
}

int cmd_explain(const pf_cli *cli)
{
    if (cli->format == PF_FMT_CSV)
        return pf_cli_usage_error("--explain prints text, md or json, not csv");
    if (!cli->explain[0])
        return pf_cli_usage_error("--explain wants an op or kernel name");
    /* "invocation N of M" counts the op's invocations that launched nothing too */
    pf_cli all = *cli;
    all.load.all_ops = 1;
    pf_trace *t = pf_cli_load(&all, cli->pos[0]);
    if (!t)
        return PF_EXIT_TRACE;
    pf_invocation e;
    pf_error err;
    int rc = pf_invocation_find(t, &cli->an, cli->explain, &e, &err) ? pf_cli_error(err.msg) : found_status(&e);
    if (rc == PF_EXIT_OK) {
        pf_explain_view_opts view = {cli->format, cli->name_limit, cli->wide ? 0 : pf_cli_width()};
        if (pf_explain_print(stdout, &e, &view) != 0)
            rc = pf_cli_error("out of memory");
        else
            rc = pf_cli_stdout_status();
    }
    pf_invocation_free(&e);
    pf_trace_free(t);
    return rc;
}
