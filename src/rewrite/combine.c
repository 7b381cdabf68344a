/* combine.c - pf_combine: the inputs read and surveyed (combine_read.c), their moves planned (combine_plan.c), then written as one trace (combine_write.c) to a file that appears whole or not at all. */
#include <assert.h>
#include <limits.h>
#include <stdlib.h>

#include "combine_internal.h"
#include "profana/combine.h"

static int read_inputs(cb_run *c, pf_error *err)
{
    for (int k = 0; k < c->n; k++)
        if (pf_cb_read_input(&c->in[k], c->jobs, err))
            return -1;
    return 0;
}

/* Opens OUT only now that every input is read and planned: a failure before leaves it as it was. */
static int write_out(cb_run *c, const cb_props *pr, const char *out_path, pf_error *err)
{
    pf_outfile of;
    if (pf_outfile_open(&of, out_path, err))
        return -1;
    c->of = &of;
    if (pf_cb_write(c, pr)) {
        pf_outfile_abort(&of);
        c->of = NULL;
        return -1;
    }
    c->of = NULL;
    return pf_outfile_commit(&of, err);
}

int pf_combine(const char *const *inputs, size_t n, const char *out_path, const pf_combine_opts *o, pf_error *err)
{
    assert(inputs && n >= 1 && n <= INT_MAX && out_path && err);
    cb_run c = {.in = calloc(n, sizeof *c.in), .n = (int)n, .jobs = o ? o->jobs : 0, .err = err};
    if (!c.in)
        return pf_fail(err, "out of memory");
    for (size_t k = 0; k < n; k++)
        c.in[k].path = inputs[k];
    cb_props pr = {0};
    int rc = read_inputs(&c, err);
    if (rc == 0)
        rc = pf_cb_plan(&c);
    if (rc == 0 && pf_cb_merge_props(&c, &pr))
        rc = pf_fail(err, "out of memory");
    if (rc == 0)
        rc = write_out(&c, &pr, out_path, err);
    free(pr.text);
    free(pr.seen);
    for (int k = 0; k < c.n; k++)
        pf_cb_free_input(&c.in[k]);
    free(c.in);
    return rc;
}
