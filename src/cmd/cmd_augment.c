/* cmd_augment.c - `--augment_trace IN OUT DTYPE`: writes FLOPs and bytes (with --extra: rates, percent of peak, category) into the args of each GPU activity and op, splicing into the original text. */
#include <string.h>
#include <sys/stat.h>

#include "profana/augment.h"
#include "profana/cli.h"

int cmd_augment(const pf_cli *cli)
{
    const char *in = cli->pos[0], *outp = cli->pos[1];
    /* The trace is read twice (model, then splice), which a pipe cannot do. */
    int bad = pf_cli_need_rereadable(in, "--augment_trace");
    if (bad)
        return bad;
    pf_trace *t = pf_cli_load(cli, in); /* without host intervals: --group is not an option here */
    if (!t)
        return PF_EXIT_TRACE;
    pf_analysis *an = NULL;
    pf_augment *g = NULL;
    pf_error err;
    pf_augment_opts o = {.an = cli->an, .extra = cli->extra, .jobs = cli->load.jobs};
    o.an.step = PF_STEP_EVERY;
    /* Categories and device peaks come from the analysis; FLOPs and bytes alone do not
     * need it. */
    int rc = cli->extra ? pf_analysis_run(t, &o.an, &an, &err) : 0;
    if (rc == 0)
        rc = pf_augment_plan(t, an, &o, &g, &err);
    if (rc == 0)
        rc = pf_augment_write(g, in, outp, &err);
    pf_augment_free(g);
    pf_analysis_free(an);
    pf_trace_free(t);
    return rc ? pf_cli_out_error(outp, err.msg) : PF_EXIT_OK;
}
