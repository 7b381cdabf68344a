/* fuzz_args.c - libFuzzer target for a linked cpu_op's args (shapes, types, concrete inputs) and every formula that reads them. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "profana/formulas.h"
#include "profana/op_family.h"
#include "profana/strtab.h"
#include "profana/trace.h"

/* Input: the op name, a newline, then the text of its "args" object, as in a trace:
 *   aten::mm\n{"Input Dims": [[64, 32], [32, 16]], "Input type": ["float", "float"], ...} */

#define REQUIRE(cond) FUZZ_REQUIRE(cond)

/* A figure is unknown (below 0) or a finite count: NaN or infinity would print as a number. */
static void check_figure(double x)
{
    REQUIRE(!isnan(x) && !isinf(x));
}

static void check_explain(const pf_explain *ex)
{
    REQUIRE(memchr(ex->sizes, 0, sizeof ex->sizes) != NULL);
    REQUIRE(memchr(ex->flop, 0, sizeof ex->flop) != NULL);
    REQUIRE(memchr(ex->bytes, 0, sizeof ex->bytes) != NULL);
}

static void apply(const pf_op_call *call, const char *name, pf_dtype assumed)
{
    pf_op_call c = *call;
    c.name = name;
    pf_work w;
    pf_explain ex;
    int rc = pf_formula_apply_ex(&c, assumed, &ex, &w);
    REQUIRE(rc >= -1 && rc <= PF_FORMULA_UNRECORDED);
    check_figure(w.flop);
    check_figure(w.bytes);
    check_explain(&ex);
    if (rc == PF_FORMULA_MISMATCH || rc == PF_FORMULA_BAD_ARGS || rc == PF_FORMULA_UNRECORDED)
        REQUIRE(w.flop < 0 && w.bytes < 0 && w.source != NULL);
    /* without an explanation or an assumed dtype: what pf_formula_apply gives */
    pf_work plain, again;
    int r1 = pf_formula_apply(&c, &plain);
    int r2 = pf_formula_apply_ex(&c, PF_DT_UNKNOWN, NULL, &again);
    REQUIRE(r1 == r2 && plain.flop == again.flop && plain.bytes == again.bytes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nl = memchr(data, '\n', size);
    size_t name_len = nl ? (size_t)(nl - data) : 0;
    if (!nl || name_len > 200)
        return 0;
    char name[201];
    memcpy(name, data, name_len);
    name[name_len] = 0;
    size_t len = size - name_len - 1;
    /* the args text alone in a block of its size, as the loader's slice of a trace ends */
    char *text = malloc(len ? len : 1);
    if (!text)
        return 0;
    memcpy(text, nl + 1, len);

    pf_trace *t = calloc(1, sizeof *t);
    if (!t || !(t->strings = pf_strtab_new())) {
        free(t);
        free(text);
        return 0;
    }
    t->path = "fuzz";
    pf_cpu_op op = {.name = name, .ext_id = 1, .kernel_flop = -1, .kernel_num_gb = -1};
    int rc = pf_trace_parse_op_args(t, &op, text, len);
    REQUIRE(rc == 0 || rc == -1);
    REQUIRE(rc == 0 ? !op.bad_args : op.bad_args && op.call.nargs == 0 && op.call.args == NULL);
    REQUIRE(op.call.nargs >= 0 && (op.call.nargs == 0 || op.call.args));
    for (int i = 0; i < op.call.nargs; i++)
        REQUIRE(op.call.args[i].type && op.call.args[i].concrete && op.call.args[i].ndim <= PF_MAX_DIMS);
    check_figure(op.kernel_flop);
    check_figure(op.kernel_num_gb);

    /* The op's own formula, then every formula of the registry on the same arguments. */
    apply(&op.call, name, PF_DT_BF16);
    int n;
    const pf_op_entry *tab = pf_op_family_table(&n);
    for (int i = 0, k = 0; i < n; i++)
        if (pf_formula_lookup(tab[i].op))
            apply(&op.call, tab[i].op, k++ % 2 ? PF_DT_UNKNOWN : PF_DT_FP32);

    free((void *)op.call.args);
    pf_trace_free(t);
    free(text);
    return 0;
}
