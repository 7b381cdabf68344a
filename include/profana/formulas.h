/* formulas.h - FLOP and byte formulas per ATen op family, found through the op table (op_family.h). */
/* layer: formulas (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_FORMULAS_H
#define PROFANA_FORMULAS_H

#include <stdint.h>
#include "profana/dtype.h"
#include "profana/op_call.h"

/* How a formula got its figures, for --explain: the expressions with the values read from
 * the call substituted. Filled only when the caller passes one (pf_formula_apply_ex), so the
 * analysis pays nothing for it. Texts are cut (ending "...") when they do not fit. */
enum { PF_EXPLAIN_LEN = 512 };
typedef struct pf_explain {
    const char *module;          /* the formula's file under src/formulas/, "gemm.c" */
    const char *dtype_rule;      /* whose type sets the peak: "the largest tensor input" */
    char sizes[PF_EXPLAIN_LEN];  /* sizes and flags read: "M=512 K=2048 N=512" */
    char flop[PF_EXPLAIN_LEN];   /* "2*M*N*K = 2*512*512*2048"; "" when the formula counts none */
    char bytes[PF_EXPLAIN_LEN];  /* "A + B + out = 512*2048*2 + 2048*512*2 + 512*512*2" */
} pf_explain;

/* Work of one op invocation. A figure below 0 is unknown. */
/* Values of pf_work.matrix: convolutions apart, since PyTorch runs fp32 ones on TF32 by default. */
enum { PF_MATRIX_NONE = 0, PF_MATRIX_GEMM = 1, PF_MATRIX_CONV = 2 };

typedef struct pf_work {
    double flop;               /* multiply-add = 2 */
    double bytes;              /* minimum DRAM traffic: inputs read once, outputs written once */
    pf_dtype dtype;            /* precision whose peak applies; PF_DT_UNKNOWN = caller's default */
    int matrix;                /* the work runs on matrix units: PF_MATRIX_GEMM (GEMM, attention),
                                * PF_MATRIX_CONV (convolution); 0 none. Which fp32 matrix work is
                                * measured at the TF32 peak: pf_peak_dtype (rates.h) */
    const char *source;        /* "gemm", "conv", ... static string */
    int upper_bound;           /* 1 when flop and bytes are a ceiling (variable-length attention
                                * sized by its longest sequences, source "attention~ub"), not
                                * the work done */
    int lower_bound;           /* 1 when bytes (and flop) are a floor: an Inductor launch read
                                * from the trace alone (source "triton~lb", triton.h) */
    int generic;               /* 1 when the figures are the generic guess (source "generic",
                                * src/formulas/generic.c): no byte model of the op's family,
                                * flop unknown, bytes from its tensor arguments or unknown */
    int no_formula;            /* 1 when no formula knows the op (an Inductor launch without its
                                * figures is not counted: it is no op to write a formula for) */
    int assumed_dtype;         /* 1 when the bytes rest on call->assumed_size (source "...~dtype") */
    pf_explain *explain;       /* where the formula explains itself; NULL = not asked */
} pf_work;

/* Result of a formula. */
enum {
    PF_FORMULA_OK = 0,
    PF_FORMULA_MISMATCH = 1,   /* shapes inconsistent with the op: no figures, source "mismatch" */
    PF_FORMULA_BAD_ARGS = 2,   /* args missing or unparsable (wrong arity, non-numeric concrete input) */
    PF_FORMULA_UNRECORDED = 3  /* the trace does not record what the formula needs (a fused op's
                                  weights or top-k on no nested op): no figures, source "unrecorded" */
};

/* A formula fills *w (flop, bytes, dtype, matrix, source) from the call and returns one of
 * the PF_FORMULA_* codes; when w->explain is set it also writes there how (pf_explain). It
 * never prints and never keeps pointers into call. */
typedef int (*pf_formula_fn)(const pf_op_call *call, pf_work *w);

/* The registry's word for the family of an op that has a formula (the op table,
 * op_family.h, says which formula and family each ATen op has). */
typedef struct pf_formula {
    const char *family;        /* "gemm", "conv", "attention", "norm", "reduce", "elementwise",
                                  "copy" or "index" */
} pf_formula;

/* Looks an op name up in the registry. Returns NULL when no formula exists. Static storage. */
const pf_formula *pf_formula_lookup(const char *op_name);

/* Runs the registered formula for call->name. An op with no formula gets the generic guess
 * instead (source "generic", generic = 1, flop -1; src/formulas/generic.c): a functional
 * ATen op its tensor arguments plus an output the size of the largest, an ATen in-place op
 * (name ending "_") its tensor arguments plus self written, any other op (custom ops,
 * Inductor's "triton_*" launches) its tensor arguments alone, since their outputs are among
 * them; bytes unknown when one argument is a table or cache it likely touches only rows of.
 * Returns PF_FORMULA_*, or -1 when the op has no tensor argument to estimate from: then
 * flop and bytes are -1 and source is NULL. On MISMATCH/BAD_ARGS, w->flop and w->bytes are
 * -1 and w->source says "mismatch" / "bad-args". upper_bound, generic and no_formula are 0
 * unless set. */
int pf_formula_apply(const pf_op_call *call, pf_work *w);

/* pf_formula_apply, with assumed as the dtype of tensors the trace records without a type
 * (PF_DT_UNKNOWN: none; their bytes stay unknown) and, when ex is not NULL, the explanation
 * of the figures written into *ex (cleared first; w->explain points to it). */
int pf_formula_apply_ex(const pf_op_call *call, pf_dtype assumed, pf_explain *ex, pf_work *w);

/* ---- helpers shared by the formula modules (src/formulas/args.c) ---- */

/* Parses a concrete input holding an integer list ("[1, 1]", "[]") or a single integer
 * ("2"). Writes up to max values; returns how many were read, or -1 when the text is not
 * such a list. */
int pf_concrete_int_list(const char *s, int64_t *out, int max);

/* Parses a concrete boolean ("True"/"False", also "1"/"0"). Returns 1, 0, or -1. */
int pf_concrete_bool(const char *s);

/* Parses a concrete boolean list ("[True, False, True]"). Returns count read or -1. */
int pf_concrete_bool_list(const char *s, int *out, int max);

/* Parses a concrete integer. Returns 0 and sets *v, or -1. */
int pf_concrete_int(const char *s, int64_t *v);

#endif
