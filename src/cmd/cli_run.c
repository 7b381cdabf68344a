/* cli_run.c - the one dispatch: what the command line's mode names (a command, or --analysis's --explain or --steps) runs here. */
#include <assert.h>

#include "profana/cli.h"

int pf_cli_run(const pf_cli *cli)
{
    assert(cli && cli->pos);
    switch (cli->mode) {
    case PF_MODE_TABLE:
    case PF_MODE_STEPS: /* the view prints the steps in place of the table */
        return cmd_analysis(cli);
    case PF_MODE_EXPLAIN:
        return cmd_explain(cli);
    case PF_MODE_DIFF:
        return cmd_diff(cli);
    case PF_MODE_AUGMENT:
        return cmd_augment(cli);
    case PF_MODE_COMBINE:
        return cmd_combine(cli);
    case PF_MODE_DEVICES:
        return cmd_list_devices(cli);
    case PF_MODE_RANKS:
        return cmd_ranks(cli);
    case PF_MODE_NONE:
        break;
    }
    assert(!"no command to run: pf_cli_parse refuses a command line without one");
    return PF_EXIT_USAGE;
}
