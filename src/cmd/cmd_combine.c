/* cmd_combine.c - `--combine IN1 IN2 [IN...] OUT`: checks the paths and has the combine engine (include/profana/combine.h) write one trace of every input's events. */
#include <string.h>

#include "profana/cli.h"
#include "profana/combine.h"
#include "profana/outfile.h"

/* OUT may be none of the inputs (it would be replaced while read), and standard input can be
 * read only once. */
static int check_paths(const pf_cli *cli, int n, const char *outp)
{
    /* two inputs as '-' are refused with the arguments (cli_check.c: stdin_once) */
    for (int k = 0; k < n; k++)
        if (pf_same_file(cli->pos[k], outp))
            return pf_cli_usage_error("--combine: OUT '%s' is also input %d; write to another file", outp,
                                      k + 1);
    return 0;
}

int cmd_combine(const pf_cli *cli)
{
    int n = cli->npos - 1;
    const char *outp = cli->pos[n];
    int rc = check_paths(cli, n, outp);
    if (rc)
        return rc;
    pf_combine_opts o = {.jobs = cli->load.jobs};
    pf_error err;
    if (pf_combine(cli->pos, (size_t)n, outp, &o, &err))
        return pf_cli_out_error(outp, err.msg);
    return PF_EXIT_OK;
}
