/* args.h - private to src/formulas: the helpers every formula module shares (args.c): sizes and bytes of arguments, Concrete Inputs, explanations, the estimate rules. */
#ifndef PROFANA_FORMULAS_ARGS_H
#define PROFANA_FORMULAS_ARGS_H

/* The formulas depend one way: registry.c (on top) calls the family modules through
 * families.h; they call only args.c (below) through this header, never registry.c, and
 * args.c calls none of them. */

#include <stdint.h>

#include "profana/formulas.h"
#include "profana/op_family.h"
#include "profana/satmath.h"

/* ---- for assert() only (SQLite style: predicates that state a contract) ---- */

/* What a pf_formula_fn is given (formulas.h): a call whose args hold its nargs arguments
 * (none: args may be NULL), and the work record it fills. */
static inline int pf_formula_args_ok(const pf_op_call *call, const pf_work *w)
{
    return call && w && call->nargs >= 0 && (call->args || call->nargs == 0);
}

/* A field of w->explain that pf_ex and its kin write (PF_EX_*). */
#define PF_EX_FIELD_OK(field) ((field) >= PF_EX_SIZES && (field) <= PF_EX_BYTES)

/* ---- arguments ---- */

/* 1 when the argument is a single tensor: it has dims, or a tensor element type (0-d). */
int pf_arg_is_tensor(const pf_arg *a);

/* Bytes of a tensor argument (0 when it has no elements), or -1 when its element size or
 * element count is unknown, so that a figure built from it is reported unknown rather than
 * too small. */
double pf_tensor_bytes(const pf_arg *a);

/* The bytes an element-wise kernel (TensorIterator, a gather) reads of a tensor argument:
 * pf_tensor_bytes with each expanded (stride-0) dim counted once, since its elements are one
 * in memory. Not for GEMM, convolution or attention operands: ATen makes such an operand
 * contiguous (a copy op of its own) before the library reads it. */
double pf_tensor_read_bytes(const pf_arg *a);

/* Sums byte figures, keeping -1 (unknown) sticky. */
double pf_bytes_add(double total, double more);

/* For a formula over tensor lists whose shapes the trace did not record
 * (pf_op_lists_unrecorded): explains why (w->explain's sizes) and returns
 * PF_FORMULA_UNRECORDED, so the op has no figures rather than 0 bytes. */
int pf_lists_unrecorded(pf_work *w);


/* The Concrete Inputs text of argument pos; "" when pos is out of range or none was recorded. */
const char *pf_concrete_at(const pf_op_call *call, int pos);

/* Bytes read of every tensor and tensor list among the call's arguments
 * (pf_tensor_read_bytes); -1 when one of them has an unknown size (a TensorList records no
 * element type). */
double pf_tensor_args_bytes(const pf_op_call *call);

/* Element size of a c10::ScalarType code (a dtype= argument); 0 for codes that name no
 * tensor element type. */
int pf_scalar_type_size(int64_t code);

/* Type promotion category of a Kineto type string: 3 complex, 2 floating, 1 integer,
 * 0 bool, -1 not a tensor element type. */
int pf_type_category(const char *type);

/* Broadcasts the shapes of the single tensors among args[0..n) (right-aligned, each dim 1
 * or equal). Writes the result's element count; returns PF_FORMULA_OK, MISMATCH when the
 * shapes do not broadcast, BAD_ARGS when there is no tensor or a size is unreadable. */
int pf_broadcast_numel(const pf_arg *args, int n, int64_t *numel);

/* The same broadcast, giving the result's shape (dims only; type and concrete ""). */
int pf_broadcast_shape(const pf_arg *args, int n, pf_arg *shape);

/* ---- explanations (--explain): each writes only when w->explain is set ---- */

enum { PF_EX_SIZES, PF_EX_FLOP, PF_EX_BYTES };

/* Appends printf-style text to one field of w->explain (PF_EX_*). */
void pf_ex(pf_work *w, int field, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Names the formula's file and the rule that picks the peak dtype. */
void pf_ex_rule(pf_work *w, const char *module, const char *dtype_rule);

/* Appends a tensor argument's bytes as the product that gives them: "8*512*1024*2" (dims
 * times element size, "?" for an unknown size), a 0-d tensor as its size, a TensorList as
 * "numel*size". */
void pf_ex_tensor(pf_work *w, int field, const pf_arg *a);

/* The same for pf_tensor_read_bytes: an expanded dim shows as "1(expanded N)". */
void pf_ex_tensor_read(pf_work *w, int field, const pf_arg *a);

/* Appends the bytes read of every tensor and tensor list among the call's arguments, joined
 * by " + " ("0" when there is none): the terms of pf_tensor_args_bytes. */
void pf_ex_tensor_args(pf_work *w, int field, const pf_op_call *call);

/* Appends a shape as "[8, 512, 1024]". */
void pf_ex_shape(pf_work *w, int field, const pf_arg *a);

/* ---- the estimate rules (elementwise.c, reduce.c, copy.c, generic.c) ---- */

/* The spec of call's op in the op table (op_family.h); all zeros when it has none. */
const pf_op_spec *pf_spec_of(const pf_op_call *call);

/* Element size of what an estimated op writes: the dtype_at code or float_at flag when the
 * call gives one, else the spec's result type, else dflt, the family's default. Returns
 * PF_FORMULA_OK, or BAD_ARGS when a text is unreadable or the size unknown. */
int pf_result_size(const pf_op_call *call, const pf_op_spec *s, int dflt, int *size);

/* Fills w with an estimate (dtype of the largest tensor input, no matrix units, source
 * "estimate") and returns PF_FORMULA_OK. */
int pf_estimate_done(const pf_op_call *call, pf_work *w, double flop, double bytes);

#endif
