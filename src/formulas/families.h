/* families.h - private to src/formulas: the formula of each op family and the arithmetic helpers they share. */
#ifndef PROFANA_FORMULAS_FAMILIES_H
#define PROFANA_FORMULAS_FAMILIES_H

#include <stdint.h>

#include "profana/formulas.h"

/* ---- shared helpers (args.c) ---- */

/* Trace sizes are untrusted: products and sums of dims go through these, which return -1
 * when an operand is negative or the result would not fit in int64. */
int64_t pf_mul_nonneg(int64_t a, int64_t b);
int64_t pf_add_nonneg(int64_t a, int64_t b);

/* 1 when the argument is a single tensor: it has dims, or a tensor element type (0-d). */
int pf_arg_is_tensor(const pf_arg *a);

/* Bytes of a tensor argument, or -1 when its element size or element count is unknown,
 * so that a figure built from it is reported unknown rather than too small. */
double pf_tensor_bytes(const pf_arg *a);

/* Sums byte figures, keeping -1 (unknown) sticky. */
double pf_bytes_add(double total, double more);

/* The dtype of the tensor with the most elements among args[0..n). */
pf_dtype pf_dtype_of_largest(const pf_arg *args, int n);

/* ---- families: each is a pf_formula_fn registered in registry.c ---- */

int pf_gemm_mm(const pf_op_call *call, pf_work *w);
int pf_gemm_addmm(const pf_op_call *call, pf_work *w);
int pf_gemm_bmm(const pf_op_call *call, pf_work *w);
int pf_gemm_baddbmm(const pf_op_call *call, pf_work *w);
int pf_gemm_scaled_mm(const pf_op_call *call, pf_work *w);

int pf_conv_forward(const pf_op_call *call, pf_work *w);
int pf_conv_backward(const pf_op_call *call, pf_work *w);

#endif
