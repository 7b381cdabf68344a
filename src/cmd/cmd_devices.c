/* cmd_devices.c - `--list-devices`: the device table, dense peaks per dtype, bandwidth and sources. */
#include <stdio.h>

#include "profana/cli.h"

int cmd_list_devices(const pf_cli *cli)
{
    if (pf_view_devices(stdout, cli->format, cli->wide ? 0 : pf_cli_width(), cli->devices))
        return pf_cli_error("out of memory");
    int out_rc = pf_cli_stdout_status();
    if (out_rc)
        return out_rc;
    return PF_EXIT_OK;
}
