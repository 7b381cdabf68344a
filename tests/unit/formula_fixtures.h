/* formula_fixtures.h - builds op calls the way the trace records them, for the formula unit tests. */
#ifndef PROFANA_TEST_FORMULA_FIXTURES_H
#define PROFANA_TEST_FORMULA_FIXTURES_H

#include <stdarg.h>
#include <stdint.h>

#include "check.h"
#include "profana/formulas.h"

/* Checks one formula result: the figures, the dtype, and how they were reached (matrix
 * units, an upper bound, the generic fallback, the source label). */
static inline void check_work(const char *name, int rc, const pf_work *w, double flop, double bytes,
                              pf_dtype dtype, int matrix, int upper_bound, int generic,
                              const char *source)
{
    char label[160];
    snprintf(label, sizeof label, "%s: ok", name);
    CHECK(label, rc == PF_FORMULA_OK);
    snprintf(label, sizeof label, "%s: flop", name);
    CHECK_NEAR(label, w->flop, flop);
    snprintf(label, sizeof label, "%s: bytes", name);
    CHECK_NEAR(label, w->bytes, bytes);
    snprintf(label, sizeof label, "%s: dtype", name);
    CHECK(label, w->dtype == dtype);
    snprintf(label, sizeof label, "%s: matrix %d, upper bound %d, generic %d", name, matrix,
             upper_bound, generic);
    CHECK(label, w->matrix == matrix && w->upper_bound == upper_bound && w->generic == generic);
    snprintf(label, sizeof label, "%s: source", name);
    CHECK_STR(label, w->source, source);
}

/* Checks a refusal: the code wanted, no figures, and the source label that says why. */
static inline void check_refused(const char *name, int rc, const pf_work *w, int want)
{
    char label[160];
    snprintf(label, sizeof label, "%s: code", name);
    CHECK(label, rc == want);
    snprintf(label, sizeof label, "%s: no figures", name);
    CHECK(label, w->flop == -1 && w->bytes == -1);
    snprintf(label, sizeof label, "%s: source", name);
    CHECK_STR(label, w->source,
              want == PF_FORMULA_MISMATCH ? "mismatch" : want == PF_FORMULA_UNRECORDED ? "unrecorded" : "bad-args");
}

/* A tensor argument: its type string and its dims. */
static inline pf_arg tensor(const char *type, int ndim, ...)
{
    pf_arg a = {.ndim = ndim, .type = type, .concrete = ""};
    va_list ap;
    va_start(ap, ndim);
    for (int i = 0; i < ndim; i++)
        a.dims[i] = va_arg(ap, int);
    va_end(ap);
    return a;
}

/* A non-tensor argument as the trace records it: no dims, a type, a concrete text. */
static inline pf_arg scalar(const char *type, const char *text)
{
    pf_arg a = {.ndim = 0, .type = type, .concrete = text};
    return a;
}

/* A TensorList as the trace records it: shapes summed, no element type. */
static inline pf_arg tensor_list(int64_t numel)
{
    pf_arg a = {.is_list = 1, .list_numel = numel, .type = "TensorList", .concrete = ""};
    return a;
}

/* A TensorList recorded as [] on a call whose every list is [] (recent PyTorch): the loader
 * gives it no element count (trace_args.c). */
static inline pf_arg bare_list(void)
{
    pf_arg a = {.is_list = 1, .list_numel = -1, .type = "TensorList", .concrete = ""};
    return a;
}

#define NONE scalar("", "")
#define LIST(text) scalar("ScalarList", text)
#define VAL(text) scalar("Scalar", text)
#define F32(...) tensor("float", __VA_ARGS__)
#define F64(...) tensor("double", __VA_ARGS__)
#define F16(...) tensor("c10::Half", __VA_ARGS__)
#define BF16(...) tensor("c10::BFloat16", __VA_ARGS__)
#define FP8(...) tensor("c10::Float8_e4m3fn", __VA_ARGS__)
#define I32(...) tensor("int", __VA_ARGS__)
#define LONG(...) tensor("long int", __VA_ARGS__)
#define BOOL(...) tensor("bool", __VA_ARGS__)

static inline int run_args(const char *op, pf_work *w, const pf_arg *args, int nargs)
{
    pf_op_call call = {.name = op, .nargs = nargs, .args = args};
    return pf_formula_apply(&call, w);
}

static inline int run_args_ex(const char *op, pf_dtype assumed, pf_explain *ex, pf_work *w, const pf_arg *args,
                              int nargs)
{
    pf_op_call call = {.name = op, .nargs = nargs, .args = args};
    return pf_formula_apply_ex(&call, assumed, ex, w);
}

#define NARGS(...) (int)(sizeof((const pf_arg[]){__VA_ARGS__}) / sizeof(pf_arg))

/* RUN_EX("aten::cat", PF_DT_BF16, &ex, &w, ...): the same with an assumed dtype for untyped
 * tensors and the explanation written into ex (NULL: none). */
#define RUN_EX(op, assumed, ex, w, ...)                                                  \
    run_args_ex((op), (assumed), (ex), (w), (const pf_arg[]){__VA_ARGS__}, NARGS(__VA_ARGS__))

/* RUN("aten::mm", &w, BF16(2, 64, 32), BF16(2, 32, 16)): applies the op's formula. */
#define RUN(op, w, ...)                                                                  \
    run_args((op), (w), (const pf_arg[]){__VA_ARGS__}, NARGS(__VA_ARGS__))

#endif
