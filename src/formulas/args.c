/* args.c - what every formula module shares: element counts and bytes of arguments, the Concrete Inputs texts, the estimate rules, the explanations. */
#include "args.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int pf_arg_is_tensor(const pf_arg *a)
{
    assert(a);
    return a && !a->is_list && (a->ndim > 0 || pf_type_size(a->type) > 0);
}

/* No elements move no bytes, whatever their type: an empty TensorList has none recorded. */
static double bytes_of(const pf_arg *a, int64_t n)
{
    int size = a ? pf_type_size(a->type) : 0;
    if (n == 0)
        return 0;
    if (n < 0 || size <= 0)
        return -1;
    return (double)n * size;
}

double pf_tensor_bytes(const pf_arg *a)
{
    assert(a);
    return bytes_of(a, pf_arg_numel(a));
}

double pf_tensor_read_bytes(const pf_arg *a)
{
    assert(a);
    return bytes_of(a, pf_arg_stored_numel(a));
}

double pf_bytes_add(double total, double more)
{
    return total < 0 || more < 0 ? -1 : total + more;
}

int pf_lists_unrecorded(pf_work *w)
{
    assert(w);
    pf_ex(w, PF_EX_SIZES, "tensor-list shapes not recorded: every TensorList argument is [] in Input Dims "
          "(recent PyTorch), so the elements the op touches are unknown");
    return PF_FORMULA_UNRECORDED;
}

/* The dtype of the tensor with the most elements among args[0..n). */
static pf_dtype dtype_of_largest(const pf_arg *args, int n)
{
    assert(n >= 0 && (args || n == 0));
    pf_dtype dt = PF_DT_UNKNOWN;
    int64_t best = -1;
    for (int i = 0; i < n; i++) {
        if (!pf_arg_is_tensor(&args[i]))
            continue;
        int64_t numel = pf_arg_numel(&args[i]);
        if (numel > best) {
            best = numel;
            dt = pf_dtype_from_type_string(args[i].type);
        }
    }
    return dt;
}

const char *pf_concrete_at(const pf_op_call *call, int pos)
{
    assert(call && (call->args || call->nargs == 0)); /* any pos: one out of range gives "" */
    if (pos < 0 || pos >= call->nargs || !call->args[pos].concrete)
        return "";
    return call->args[pos].concrete;
}

double pf_tensor_args_bytes(const pf_op_call *call)
{
    assert(call && (call->args || call->nargs == 0));
    double total = 0;
    for (int i = 0; i < call->nargs && total >= 0; i++) {
        const pf_arg *a = &call->args[i];
        if (a->is_list || pf_arg_is_tensor(a))
            total = pf_bytes_add(total, pf_tensor_read_bytes(a));
    }
    return total;
}

/* c10/core/ScalarType.h numbers the types; only those a dtype= argument can name here. */
int pf_scalar_type_size(int64_t code)
{
    static const unsigned char sizes[] = {
        [0] = 1,  /* Byte */     [1] = 1,  /* Char */          [2] = 2,  /* Short */
        [3] = 4,  /* Int */      [4] = 8,  /* Long */          [5] = 2,  /* Half */
        [6] = 4,  /* Float */    [7] = 8,  /* Double */        [8] = 4,  /* ComplexHalf */
        [9] = 8,  /* ComplexFloat */       [10] = 16, /* ComplexDouble */
        [11] = 1, /* Bool */     [15] = 2, /* BFloat16 */      [23] = 1, /* Float8_e5m2 */
        [24] = 1, /* Float8_e4m3fn */      [25] = 1, /* Float8_e5m2fnuz */
        [26] = 1, /* Float8_e4m3fnuz */
    };
    if (code < 0 || code >= (int64_t)sizeof sizes)
        return 0;
    return sizes[code];
}

int pf_type_category(const char *type)
{
    if (pf_type_size(type) <= 0)
        return -1;
    if (strstr(type, "complex"))
        return 3;
    switch (pf_dtype_from_type_string(type)) {
    case PF_DT_FP64: case PF_DT_FP32: case PF_DT_BF16: case PF_DT_FP16: case PF_DT_FP8: case PF_DT_FP6:
    case PF_DT_FP4:
        return 2;
    default:
        return strcmp(type, "bool") == 0 ? 0 : 1;
    }
}

/* Folds one shape into the right-aligned broadcast shape out[PF_MAX_DIMS - rank ..]. */
static int broadcast_into(const pf_arg *a, int64_t *out, int *rank)
{
    for (int i = 1; i <= a->ndim; i++) {
        int64_t d = a->dims[a->ndim - i], *o = &out[PF_MAX_DIMS - i];
        if (i > *rank)
            *o = 1;
        if (d != 1 && *o != 1 && d != *o)
            return PF_FORMULA_MISMATCH;
        if (d != 1)
            *o = d;
    }
    if (a->ndim > *rank)
        *rank = a->ndim;
    return PF_FORMULA_OK;
}

int pf_broadcast_shape(const pf_arg *args, int n, pf_arg *shape)
{
    assert(n >= 0 && (args || n == 0));
    assert(shape);
    int64_t out[PF_MAX_DIMS];
    int rank = 0, tensors = 0;
    for (int i = 0; i < n; i++) {
        if (!pf_arg_is_tensor(&args[i]))
            continue;
        if (pf_arg_numel(&args[i]) < 0)
            return PF_FORMULA_BAD_ARGS;
        int rc = broadcast_into(&args[i], out, &rank);
        if (rc != PF_FORMULA_OK)
            return rc;
        tensors++;
    }
    if (!tensors)
        return PF_FORMULA_BAD_ARGS;
    *shape = (pf_arg){.ndim = rank, .type = "", .concrete = ""};
    memcpy(shape->dims, out + PF_MAX_DIMS - rank, (size_t)rank * sizeof out[0]);
    return PF_FORMULA_OK;
}

int pf_broadcast_numel(const pf_arg *args, int n, int64_t *numel)
{
    assert(n >= 0 && (args || n == 0));
    assert(numel);
    pf_arg shape;
    int rc = pf_broadcast_shape(args, n, &shape);
    if (rc != PF_FORMULA_OK)
        return rc;
    *numel = 1;
    for (int i = 0; i < shape.ndim; i++)
        *numel = pf_mul_nonneg(*numel, shape.dims[i]);
    return *numel < 0 ? PF_FORMULA_BAD_ARGS : PF_FORMULA_OK;
}

/* ---- Concrete Inputs texts: parsed as spans [b, e) so list elements need no copies ---- */

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void trim_span(const char **b, const char **e)
{
    while (*b < *e && is_space(**b))
        (*b)++;
    while (*e > *b && is_space((*e)[-1]))
        (*e)--;
}

static int span_equals(const char *b, const char *e, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(e - b) == n && memcmp(b, word, n) == 0;
}

/* Accumulates in unsigned so that INT64_MIN parses and anything beyond the range fails. */
static int span_int(const char *b, const char *e, int64_t *v)
{
    int neg = b < e && *b == '-';
    if (b < e && (*b == '-' || *b == '+'))
        b++;
    if (b == e)
        return -1;
    uint64_t limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, acc = 0;
    for (; b < e; b++) {
        if (*b < '0' || *b > '9')
            return -1;
        unsigned d = (unsigned)(*b - '0');
        if (acc > (limit - d) / 10)
            return -1;
        acc = acc * 10 + d;
    }
    *v = neg ? -(int64_t)(acc - 1) - 1 : (int64_t)acc;
    return 0;
}

static int span_bool(const char *b, const char *e, int64_t *v)
{
    if (span_equals(b, e, "True") || span_equals(b, e, "1"))
        *v = 1;
    else if (span_equals(b, e, "False") || span_equals(b, e, "0"))
        *v = 0;
    else
        return -1;
    return 0;
}

typedef int (*span_parser)(const char *b, const char *e, int64_t *v);

/* Parses "[x, y, ...]" with parse applied to each element. Values go to out64 or out32
 * (whichever is given), at most max of them; elements past max are still validated so that
 * a malformed tail is not accepted. Returns the number stored or -1. */
static int parse_list(const char *s, span_parser parse, int64_t *out64, int *out32, int max)
{
    if (!s)
        return -1;
    const char *b = s, *e = s + strlen(s);
    trim_span(&b, &e);
    if (e - b < 2 || *b != '[' || e[-1] != ']')
        return -1;
    b++;
    e--;
    trim_span(&b, &e);
    if (b == e)
        return 0;
    int n = 0;
    for (;;) {
        const char *comma = memchr(b, ',', (size_t)(e - b));
        const char *xb = b, *xe = comma ? comma : e;
        int64_t v;
        trim_span(&xb, &xe);
        if (parse(xb, xe, &v) < 0)
            return -1;
        if (n < max && out64)
            out64[n] = v;
        if (n < max && out32)
            out32[n] = (int)v;
        n += n < max;
        if (!comma)
            return n;
        b = comma + 1;
    }
}

int pf_concrete_int(const char *s, int64_t *v)
{
    if (!s || !v)
        return -1;
    const char *b = s, *e = s + strlen(s);
    trim_span(&b, &e);
    return span_int(b, e, v);
}

int pf_concrete_int_list(const char *s, int64_t *out, int max)
{
    assert(max >= 0); /* writes up to max values */
    int64_t v;
    if (!s)
        return -1;
    if (strchr(s, '['))
        return parse_list(s, span_int, out, NULL, max);
    if (pf_concrete_int(s, &v) < 0)
        return -1;
    if (max < 1 || !out)
        return 0;
    out[0] = v;
    return 1;
}

int pf_concrete_bool(const char *s)
{
    int64_t v;
    if (!s)
        return -1;
    const char *b = s, *e = s + strlen(s);
    trim_span(&b, &e);
    return span_bool(b, e, &v) < 0 ? -1 : (int)v;
}

int pf_concrete_bool_list(const char *s, int *out, int max)
{
    assert(max >= 0 && (out || max == 0));
    return parse_list(s, span_bool, NULL, out, max);
}

/* ---- the estimate rules ---- */

const pf_op_spec *pf_spec_of(const pf_op_call *call)
{
    assert(call);
    static const pf_op_spec no_spec;
    const pf_op_entry *e = pf_op_family_lookup(call->name);
    return e && e->spec ? e->spec : &no_spec;
}

/* A dtype= code or a half_to_float flag, when the call gives one: 1 and *size set, 0 when
 * absent, -1 when unreadable. */
static int given_size(const pf_op_call *call, const pf_op_spec *s, int *size)
{
    const char *dtype = s->dtype_at ? pf_concrete_at(call, s->dtype_at) : "";
    const char *to_float = s->float_at ? pf_concrete_at(call, s->float_at) : "";
    int64_t code;
    if (*dtype) {
        if (pf_concrete_int(dtype, &code) < 0)
            return -1;
        *size = pf_scalar_type_size(code);
        return *size > 0 ? 1 : -1;
    }
    if (*to_float) {
        *size = 4;
        return pf_concrete_bool(to_float);
    }
    return 0;
}

int pf_result_size(const pf_op_call *call, const pf_op_spec *s, int dflt, int *size)
{
    assert(call && s && size);
    int given = given_size(call, s, size);
    if (given < 0)
        return PF_FORMULA_BAD_ARGS;
    if (!given)
        *size = s->result == PF_RESULT_BOOL ? 1 : s->result == PF_RESULT_LONG ? 8 : dflt;
    return *size > 0 ? PF_FORMULA_OK : PF_FORMULA_BAD_ARGS;
}

int pf_estimate_done(const pf_op_call *call, pf_work *w, double flop, double bytes)
{
    assert(pf_formula_args_ok(call, w));
    w->flop = flop;
    w->bytes = bytes;
    w->dtype = dtype_of_largest(call->args, call->nargs);
    w->matrix = PF_MATRIX_NONE;
    w->source = "estimate";
    return PF_FORMULA_OK;
}

/* ---- explanations ---- */

static char *ex_field(pf_work *w, int field)
{
    if (!w->explain)
        return NULL;
    switch (field) {
    case PF_EX_SIZES:
        return w->explain->sizes;
    case PF_EX_FLOP:
        return w->explain->flop;
    default:
        return w->explain->bytes;
    }
}

/* A text that does not fit ends in "..." so a cut expression is never read as whole. */
void pf_ex(pf_work *w, int field, const char *fmt, ...)
{
    assert(w && PF_EX_FIELD_OK(field) && fmt);
    char *buf = ex_field(w, field);
    if (!buf)
        return;
    size_t len = strlen(buf);
    if (len + 1 >= PF_EXPLAIN_LEN)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + len, PF_EXPLAIN_LEN - len, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < PF_EXPLAIN_LEN - len)
        return;
    memcpy(buf + PF_EXPLAIN_LEN - 4, "...", 4);
}

void pf_ex_rule(pf_work *w, const char *module, const char *dtype_rule)
{
    assert(w && module && dtype_rule);
    if (!w->explain)
        return;
    w->explain->module = module;
    w->explain->dtype_rule = dtype_rule;
}

static void ex_size(pf_work *w, int field, int size)
{
    if (size > 0)
        pf_ex(w, field, "%d", size);
    else
        pf_ex(w, field, "?");
}

/* The product of a tensor's bytes; read: an expanded dim as "1(expanded 4096)". */
static void ex_tensor(pf_work *w, int field, const pf_arg *a, int read)
{
    if (!w->explain)
        return;
    if (a->is_list && a->list_numel < 0) {
        pf_ex(w, field, "?*"); /* a list recorded [] without its shapes */
    } else if (a->is_list) {
        pf_ex(w, field, "%lld*", (long long)a->list_numel);
    } else {
        for (int i = 0; i < a->ndim && i < PF_MAX_DIMS; i++)
            pf_ex(w, field, read && a->expanded >> i & 1u ? "1(expanded %lld)*" : "%lld*", (long long)a->dims[i]);
    }
    ex_size(w, field, pf_type_size(a->type));
}

void pf_ex_tensor(pf_work *w, int field, const pf_arg *a)
{
    assert(w && PF_EX_FIELD_OK(field) && a);
    ex_tensor(w, field, a, 0);
}

void pf_ex_tensor_read(pf_work *w, int field, const pf_arg *a)
{
    assert(w && PF_EX_FIELD_OK(field) && a);
    ex_tensor(w, field, a, 1);
}

void pf_ex_tensor_args(pf_work *w, int field, const pf_op_call *call)
{
    assert(w && PF_EX_FIELD_OK(field) && call);
    int terms = 0;
    if (!w->explain)
        return;
    for (int i = 0; i < call->nargs; i++) {
        const pf_arg *a = &call->args[i];
        if (!a->is_list && !pf_arg_is_tensor(a))
            continue;
        if (terms++)
            pf_ex(w, field, " + ");
        pf_ex_tensor_read(w, field, a);
    }
    if (!terms)
        pf_ex(w, field, "0");
}

void pf_ex_shape(pf_work *w, int field, const pf_arg *a)
{
    assert(w && PF_EX_FIELD_OK(field) && a);
    if (!w->explain)
        return;
    pf_ex(w, field, "[");
    for (int i = 0; i < a->ndim && i < PF_MAX_DIMS; i++)
        pf_ex(w, field, i ? ", %lld" : "%lld", (long long)a->dims[i]);
    pf_ex(w, field, "]");
}
