/* dtype.h - numeric types: names on the command line, Kineto type strings, element sizes. */
/* layer: catalog (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_DTYPE_H
#define PROFANA_DTYPE_H

#include <stddef.h>

/* Precisions the device table has a peak for. Order is the column order of --list-devices;
 * FP6 and FP4 (dense, e2m3/e3m2 and e2m1, NVFP4 and MXFP4 alike) come last so that the
 * table's positional initialisers of older rows stay valid. */
typedef enum pf_dtype {
    PF_DT_FP64 = 0,
    PF_DT_FP32,
    PF_DT_TF32,
    PF_DT_BF16,
    PF_DT_FP16,
    PF_DT_FP8,
    PF_DT_INT8,
    PF_DT_FP6,
    PF_DT_FP4,
    PF_DT_COUNT,
    PF_DT_UNKNOWN = -1
} pf_dtype;

/* Parses a command-line dtype ("bf16", "bfloat16", "half", "float", ...), in any case ("BF16").
 * Returns PF_DT_UNKNOWN for anything not accepted. */
pf_dtype pf_dtype_parse_cli(const char *s);

/* The accepted command-line spellings, for usage messages: a static string. */
const char *pf_dtype_cli_choices(void);

/* Short name of a dtype ("bf16"); "?" for PF_DT_UNKNOWN. Static storage. */
/* A dtype's column title ("BF16"); d must be a dtype of the enum, not PF_DT_UNKNOWN. Static storage. */
const char *pf_dtype_label(pf_dtype d);
const char *pf_dtype_name(pf_dtype d);

/* Maps a Kineto "Input type" string (`c10::BFloat16`, `float`, `long int`, ...) to the
 * precision whose peak applies. Integer types other than 8-bit map to PF_DT_UNKNOWN:
 * the device table has no peak for them. */
pf_dtype pf_dtype_from_type_string(const char *type);

/* Element size in bytes of a Kineto "Input type" string (or a c10::ScalarType name, as
 * collectives' `dtype` arg spells it: "BFloat16", "Float"); 0 when it is not a tensor
 * element type (`Scalar`, `ScalarList`, `""`, unknown). */
int pf_type_size(const char *type);

/* The precision whose peak a matrix product of operands typed a_type and b_type (Kineto
 * "Input type" strings) runs at; scale_type is the type of its scales (scale_a of
 * _scaled_mm / _scaled_grouped_mm; NULL or "" for none). Float8 operands give FP8,
 * c10::Float4_e2m1fn_x2 (NVFP4, MXFP4) FP4, and packed `unsigned char` operands with
 * c10::Float8_e8m0fnu scales (MXFP4 as vLLM and aiter record it) FP4; `signed char` INT8.
 * A mixed pair runs at the slower operand's rate: the lower of the two on the order
 * fp64 < fp32 < tf32 < bf16 = fp16 < fp8 = int8 < fp6 < fp4 (the first on a tie). An
 * operand of unknown type leaves the other's; both unknown: PF_DT_UNKNOWN. */
pf_dtype pf_dtype_of_operands(const char *a_type, const char *b_type, const char *scale_type);

/* 2 when an operand typed type (with scales typed scale_type, as above) packs two FP4 values
 * in each recorded element, so that a recorded reduction dim is half the real one; else 1. */
int pf_dtype_packing(const char *type, const char *scale_type);

#endif
