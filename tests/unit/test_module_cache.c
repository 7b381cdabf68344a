/* test_module_cache.c - a run's Inductor modules (src/analysis/inductor_src.h): one read and parse per module by path and size, a parse past its budget giving the trace-only lower bound and one note per module; figures by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "profana/analysis.h"
#include "../../src/analysis/inductor_src.h"

static const char *const K = "triton_poi_fused_add_0";

/* A module of one kernel: in_ptr0 read and out_ptr0 written (bf16), xnumel; body lines after. */
static int write_module(const char *path, const char *body)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f,
            "triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*bf16', 'xnumel': 'i32', "
            "'XBLOCK': 'constexpr'}}\n@triton.jit\n"
            "def %s(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):\n%s",
            K, body);
    return fclose(f);
}

int main(void)
{
    char dir[] = "/tmp/test_module_cache.XXXXXX";
    if (!mkdtemp(dir))
        return 1;
    char path[128];
    snprintf(path, sizeof path, "%s/cabmodule.py", dir);
    /* tmp1 has two + : 2 operations per element */
    CHECK("module written", write_module(path, "    tmp0 = tl.load(in_ptr0 + (x0), None)\n"
                                               "    tmp1 = tmp0 + tmp0 + tmp0\n"
                                               "    tl.store(out_ptr0 + (x0), tmp1, None)\n") == 0);

    /* a launch over [1024] bf16: 1024*2 read + 1024*2 written = 4096 bytes, 2 ops x 1024 */
    pf_arg args[3];
    memset(args, 0, sizeof args);
    for (int i = 0; i < 2; i++) {
        args[i].ndim = 1;
        args[i].dims[0] = 1024;
        args[i].type = "c10::BFloat16";
        args[i].concrete = "";
    }
    args[2].type = "Scalar";
    args[2].concrete = "1024";
    pf_cpu_op op;
    memset(&op, 0, sizeof op);
    op.name = K;
    op.call = (pf_op_call){.name = K, .args = args, .nargs = 3};
    op.kernel_flop = op.kernel_num_gb = -1;
    op.kernel_file = path;
    pf_analysis_opts o;
    memset(&o, 0, sizeof o);
    o.default_dtype = PF_DT_BF16;

    pf_work w;
    pf_modules *m = pf_modules_new(10);
    o.modules = m;
    CHECK("cache: figures from the module", pf_op_figures(&op, &o, NULL, &w) == PF_FORMULA_OK &&
                                                 strcmp(w.source, "triton-src") == 0);
    CHECK_NEAR("cache: bytes by hand", w.bytes, 4096);
    CHECK_NEAR("cache: FLOPs by hand (2 ops x 1024)", w.flop, 2048);
    /* the same path at another size is another module: one more + (3 ops) */
    CHECK("module rewritten longer", write_module(path, "    tmp0 = tl.load(in_ptr0 + (x0), None)\n"
                                                        "    tmp1 = tmp0 + tmp0 + tmp0 + tmp0\n"
                                                        "    tl.store(out_ptr0 + (x0), tmp1, None)\n") == 0);
    CHECK("cache: a new size read again", pf_op_figures(&op, &o, NULL, &w) == PF_FORMULA_OK);
    CHECK_NEAR("cache: the new module's FLOPs (3 ops x 1024)", w.flop, 3072);
    int n = -1;
    char **notes = pf_modules_free_notes(m, &n);
    CHECK("cache: no note within the budget", n == 0 && notes == NULL);

    /* a budget of a nanosecond: every parse runs past it */
    m = pf_modules_new(1e-9);
    o.modules = m;
    pf_explain ex;
    CHECK("budget: the lower bound", pf_op_figures(&op, &o, &ex, &w) == PF_FORMULA_OK && w.lower_bound &&
                                         strcmp(w.source, "triton~lb") == 0);
    CHECK("budget: FLOPs unknown", w.flop < 0);
    CHECK("budget: a second launch, the same", pf_op_figures(&op, &o, NULL, &w) == PF_FORMULA_OK && w.lower_bound);
    notes = pf_modules_free_notes(m, &n);
    CHECK("budget: one note for the module, not one a launch", n == 1);
    CHECK("budget: the note names the module and the budget",
          n == 1 && strstr(notes[0], path) && strstr(notes[0], "ran past its time budget"));
    for (int i = 0; i < n; i++)
        free(notes[i]);
    free(notes);

    /* without a set of modules (--explain): read for the call, the same figures */
    o.modules = NULL;
    CHECK("no cache: figures from the module", pf_op_figures(&op, &o, NULL, &w) == PF_FORMULA_OK);
    CHECK_NEAR("no cache: FLOPs", w.flop, 3072);
    remove(path);
    rmdir(dir);
    CHECK_DONE();
}
