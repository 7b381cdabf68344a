/* dtype.h - numeric types: names on the command line, Kineto type strings, element sizes. */
/* layer: catalog (README: Where things are) */
#ifndef PROFANA_DTYPE_H
#define PROFANA_DTYPE_H

#include <stddef.h>

/* Precisions the device table has a peak for. Order is the column order of --list-devices. */
typedef enum pf_dtype {
    PF_DT_FP64 = 0,
    PF_DT_FP32,
    PF_DT_TF32,
    PF_DT_BF16,
    PF_DT_FP16,
    PF_DT_FP8,
    PF_DT_INT8,
    PF_DT_COUNT,
    PF_DT_UNKNOWN = -1
} pf_dtype;

/* Parses a command-line dtype ("bf16", "bfloat16", "half", "float", ...), in any case ("BF16").
 * Returns PF_DT_UNKNOWN for anything not accepted. */
pf_dtype pf_dtype_parse_cli(const char *s);

/* The accepted command-line spellings, for usage messages: a static string. */
const char *pf_dtype_cli_choices(void);

/* Short name of a dtype ("bf16"); "?" for PF_DT_UNKNOWN. Static storage. */
const char *pf_dtype_name(pf_dtype d);

/* Maps a Kineto "Input type" string (`c10::BFloat16`, `float`, `long int`, ...) to the
 * precision whose peak applies. Integer types other than 8-bit map to PF_DT_UNKNOWN:
 * the device table has no peak for them. */
pf_dtype pf_dtype_from_type_string(const char *type);

/* Element size in bytes of a Kineto "Input type" string (or a c10::ScalarType name, as
 * collectives' `dtype` arg spells it: "BFloat16", "Float"); 0 when it is not a tensor
 * element type (`Scalar`, `ScalarList`, `""`, unknown). */
int pf_type_size(const char *type);

#endif
