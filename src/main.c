/* main.c - profana's entry: the command line parsed and checked through its tables (src/cmd/cli_parse.c), then run (src/cmd/cli_run.c). */
#include <stdlib.h>

#include "profana/cli.h"

int main(int argc, char **argv)
{
    pf_cli cli = {0};
    pf_cli_process_setup();
    cli.pos = calloc((size_t)argc + 1, sizeof *cli.pos);
    if (!cli.pos)
        return pf_cli_error("out of memory");
    pf_devset devices = {0};
    int done = 0;
    int rc = pf_cli_parse(&cli, argc, argv, &devices, &done);
    if (rc == 0 && !done)
        rc = pf_cli_run(&cli);
    pf_devset_free(&devices);
    free(cli.pos);
    return rc;
}
