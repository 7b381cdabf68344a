/* dtype.c - dtype names on the command line, Kineto type strings and their element sizes. */
#include "profana/dtype.h"

#include <assert.h>
#include <string.h>
#include <strings.h>

typedef struct cli_name {
    const char *name;
    pf_dtype dtype;
} cli_name;

static const cli_name cli_names[] = {
    {"bf16", PF_DT_BF16},    {"bfloat16", PF_DT_BF16}, {"fp16", PF_DT_FP16},
    {"float16", PF_DT_FP16}, {"half", PF_DT_FP16},     {"fp32", PF_DT_FP32},
    {"float32", PF_DT_FP32}, {"float", PF_DT_FP32},    {"fp64", PF_DT_FP64},
    {"float64", PF_DT_FP64}, {"double", PF_DT_FP64},   {"fp8", PF_DT_FP8},
    {"int8", PF_DT_INT8},    {"fp6", PF_DT_FP6},       {"fp4", PF_DT_FP4},
    {"nvfp4", PF_DT_FP4},    {"mxfp4", PF_DT_FP4},
};

/* Kineto "Input type" strings: element size and the peak that applies. */
typedef struct type_name {
    const char *name;
    int size;
    pf_dtype dtype;
} type_name;

static const type_name type_names[] = {
    {"double", 8, PF_DT_FP64},
    {"float", 4, PF_DT_FP32},
    {"c10::Half", 2, PF_DT_FP16},
    {"c10::BFloat16", 2, PF_DT_BF16},
    {"c10::Float8_e4m3fn", 1, PF_DT_FP8},
    {"c10::Float8_e5m2", 1, PF_DT_FP8},
    {"c10::Float8_e4m3fnuz", 1, PF_DT_FP8},
    {"c10::Float8_e5m2fnuz", 1, PF_DT_FP8},
    {"c10::Float8_e8m0fnu", 1, PF_DT_FP8},
    /* two e2m1 values per byte: a recorded element is one byte */
    {"c10::Float4_e2m1fn_x2", 1, PF_DT_FP4},
    {"long int", 8, PF_DT_UNKNOWN},
    {"long", 8, PF_DT_UNKNOWN},
    {"int", 4, PF_DT_UNKNOWN},
    {"short int", 2, PF_DT_UNKNOWN},
    {"short", 2, PF_DT_UNKNOWN},
    {"signed char", 1, PF_DT_INT8},
    {"unsigned char", 1, PF_DT_INT8},
    {"bool", 1, PF_DT_UNKNOWN},
    {"c10::complex<float>", 8, PF_DT_FP32},
    {"c10::complex<double>", 16, PF_DT_FP64},
    {"c10::complex<c10::Half>", 4, PF_DT_FP16},
    /* c10::ScalarType names, as the `dtype` of collectives (NCCL kernels, record_param_comms)
     * spells them */
    {"Double", 8, PF_DT_FP64},
    {"Float", 4, PF_DT_FP32},
    {"Half", 2, PF_DT_FP16},
    {"BFloat16", 2, PF_DT_BF16},
    {"Float8_e4m3fn", 1, PF_DT_FP8},
    {"Float8_e5m2", 1, PF_DT_FP8},
    {"Float8_e4m3fnuz", 1, PF_DT_FP8},
    {"Float8_e5m2fnuz", 1, PF_DT_FP8},
    {"Float8_e8m0fnu", 1, PF_DT_FP8},
    {"Float4_e2m1fn_x2", 1, PF_DT_FP4},
    {"Long", 8, PF_DT_UNKNOWN},
    {"Int", 4, PF_DT_UNKNOWN},
    {"Short", 2, PF_DT_UNKNOWN},
    {"Char", 1, PF_DT_INT8},
    {"Byte", 1, PF_DT_INT8},
    {"Bool", 1, PF_DT_UNKNOWN},
    {"ComplexFloat", 8, PF_DT_FP32},
    {"ComplexDouble", 16, PF_DT_FP64},
};

/* Each dtype's short name ("bf16") and its column title ("BF16"), by pf_dtype. */
static const struct {
    const char *name, *label;
} dtype_names[PF_DT_COUNT] = {
    [PF_DT_FP64] = {"fp64", "FP64"}, [PF_DT_FP32] = {"fp32", "FP32"}, [PF_DT_TF32] = {"tf32", "TF32"},
    [PF_DT_BF16] = {"bf16", "BF16"}, [PF_DT_FP16] = {"fp16", "FP16"}, [PF_DT_FP8] = {"fp8", "FP8"},
    [PF_DT_INT8] = {"int8", "INT8"}, [PF_DT_FP6] = {"fp6", "FP6"},   [PF_DT_FP4] = {"fp4", "FP4"},
};

pf_dtype pf_dtype_parse_cli(const char *s)
{
    if (!s)
        return PF_DT_UNKNOWN;
    for (size_t i = 0; i < sizeof cli_names / sizeof cli_names[0]; i++)
        if (strcasecmp(s, cli_names[i].name) == 0) /* BF16 as bf16: no case means anything here */
            return cli_names[i].dtype;
    return PF_DT_UNKNOWN;
}

const char *pf_dtype_cli_choices(void)
{
    return "bf16 fp16 fp32 fp64 fp8 int8 fp6 fp4 bfloat16 float16 half float32 float float64 double nvfp4 mxfp4";
}

const char *pf_dtype_name(pf_dtype d)
{
    if (d < 0 || d >= PF_DT_COUNT)
        return "?";
    return dtype_names[d].name;
}

const char *pf_dtype_label(pf_dtype d)
{
    assert(d >= 0 && d < PF_DT_COUNT); /* a dtype of the enum */
    return dtype_names[d].label;
}

static const type_name *find_type(const char *type)
{
    if (!type)
        return NULL;
    for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
        if (strcmp(type, type_names[i].name) == 0)
            return &type_names[i];
    return NULL;
}

pf_dtype pf_dtype_from_type_string(const char *type)
{
    const type_name *t = find_type(type);
    return t ? t->dtype : PF_DT_UNKNOWN;
}

int pf_type_size(const char *type)
{
    const type_name *t = find_type(type);
    return t ? t->size : 0;
}

/* MXFP4 as vLLM and aiter record it: packed bytes beside e8m0 block scales. */
static int is_mx_packed(const char *type, const char *scale_type)
{
    return type && scale_type && (strcmp(type, "unsigned char") == 0 || strcmp(type, "Byte") == 0) &&
           (strcmp(scale_type, "c10::Float8_e8m0fnu") == 0 || strcmp(scale_type, "Float8_e8m0fnu") == 0);
}

static pf_dtype operand_dtype(const char *type, const char *scale_type)
{
    return is_mx_packed(type, scale_type) ? PF_DT_FP4 : pf_dtype_from_type_string(type);
}

/* Rank on the order of rates every table device keeps (higher = faster). */
static int speed_rank(pf_dtype d)
{
    static const unsigned char rank[PF_DT_COUNT] = {
        [PF_DT_FP64] = 0, [PF_DT_FP32] = 1, [PF_DT_TF32] = 2, [PF_DT_BF16] = 3, [PF_DT_FP16] = 3,
        [PF_DT_FP8] = 4,  [PF_DT_INT8] = 4, [PF_DT_FP6] = 5,  [PF_DT_FP4] = 6,
    };
    assert(d >= 0 && d < PF_DT_COUNT);
    return rank[d];
}

pf_dtype pf_dtype_of_operands(const char *a_type, const char *b_type, const char *scale_type)
{
    pf_dtype a = operand_dtype(a_type, scale_type), b = operand_dtype(b_type, scale_type);
    if (a == PF_DT_UNKNOWN)
        return b;
    if (b == PF_DT_UNKNOWN)
        return a;
    return speed_rank(b) < speed_rank(a) ? b : a;
}

int pf_dtype_packing(const char *type, const char *scale_type)
{
    if (is_mx_packed(type, scale_type))
        return 2;
    return type && (strcmp(type, "c10::Float4_e2m1fn_x2") == 0 || strcmp(type, "Float4_e2m1fn_x2") == 0) ? 2 : 1;
}
