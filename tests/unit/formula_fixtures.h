/* formula_fixtures.h - builds op calls the way the trace records them, for the formula unit tests. */
#ifndef PROFANA_TEST_FORMULA_FIXTURES_H
#define PROFANA_TEST_FORMULA_FIXTURES_H

#include <stdarg.h>
#include <stdint.h>

#include "profana/formulas.h"

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
    run_args((op), (w), (const pf_arg[]){__VA_ARGS__},                                  \
             (int)(sizeof((const pf_arg[]){__VA_ARGS__}) / sizeof(pf_arg)))

#endif
