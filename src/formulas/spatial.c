/* spatial.c - FLOP and byte formulas of the resampling ops over spatial dims: upsample_* (and backwards) and max_pool*_with_indices (and backwards). */
#include "families.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The spatial rank an op name says ("..._2d", "bilinear2d"): the digit before the last
 * "d" that follows one. 0 when none. */
static int name_rank(const char *op)
{
    int rank = 0;
    for (const char *p = op; *p; p++)
        if (p[0] >= '1' && p[0] <= '3' && p[1] == 'd')
            rank = p[0] - '0';
    return rank;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

/* A concrete float list "[2., 2.]" (scale_factors): up to max values; -1 when not one. */
static int float_list(const char *s, double *out, int max)
{
    int n = 0;
    while (*s == ' ')
        s++;
    if (*s++ != '[')
        return -1;
    for (;;) {
        while (*s == ' ')
            s++;
        if (*s == ']')
            return n;
        char *end;
        double v = strtod(s, &end);
        if (end == s || n >= max || !(v > 0) || !isfinite(v))
            return -1;
        out[n++] = v;
        s = end;
        while (*s == ' ')
            s++;
        if (*s == ',')
            s++;
        else if (*s != ']')
            return -1;
    }
}

/* ---- upsample ---- */

/* FLOP per output element: nearest copies (0); linear interpolation over 2^k neighbours
 * (k = 1, 2, 3 for linear1d, bilinear2d, trilinear3d) is 2^k multiplies and 2^k - 1 adds;
 * bicubic2d weighs 16 neighbours: 31. */
static int upsample_flop_per_point(const char *op, int rank)
{
    if (strstr(op, "nearest"))
        return 0;
    if (strstr(op, "bicubic"))
        return 31;
    return 2 * (1 << rank) - 1;
}

/* The output's spatial sizes: output_size (arg 1) when given, else the input's sizes times
 * scale_factors (the .vec overload: arg 2 for nearest, arg 3 after align_corners). */
static int upsample_out(const pf_op_call *call, const pf_arg *self, int rank, int64_t *sizes)
{
    int n = pf_concrete_int_list(pf_concrete_at(call, 1), sizes, PF_MAX_DIMS);
    if (n == rank)
        return PF_FORMULA_OK;
    double f[PF_MAX_DIMS];
    int at = strstr(call->name, "nearest") ? 2 : 3;
    if (float_list(pf_concrete_at(call, at), f, PF_MAX_DIMS) != rank)
        return PF_FORMULA_BAD_ARGS;
    for (int i = 0; i < rank; i++)
        sizes[i] = (int64_t)floor((double)self->dims[self->ndim - rank + i] * f[i]);
    return PF_FORMULA_OK;
}

/* Forward: read the input, write N*C*prod(output_size) at its type. Backward
 * (grad_output, output_size, input_size, ...): read grad_output, write prod(input_size). */
int pf_upsample(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    const pf_arg *self = &call->args[0];
    int rank = name_rank(call->name), backward = ends_with(call->name, "_backward");
    int size = pf_type_size(self->type);
    if (rank < 1 || call->nargs < 2 || !pf_arg_is_tensor(self) || pf_arg_numel(self) < 0 || size <= 0)
        return PF_FORMULA_BAD_ARGS;
    int64_t sizes[PF_MAX_DIMS];
    double written = 1, points;
    if (backward) {
        int n = pf_concrete_int_list(pf_concrete_at(call, 2), sizes, PF_MAX_DIMS);
        if (n != rank + 2)
            return PF_FORMULA_BAD_ARGS;
        for (int i = 0; i < n; i++)
            written *= (double)sizes[i];
        points = (double)pf_arg_numel(self);
    } else {
        if (self->ndim < rank || upsample_out(call, self, rank, sizes) != PF_FORMULA_OK)
            return PF_FORMULA_BAD_ARGS;
        for (int i = 0; i < self->ndim - rank; i++)
            written *= (double)self->dims[i];
        for (int i = 0; i < rank; i++)
            written *= (double)sizes[i];
        points = written;
    }
    int per = upsample_flop_per_point(call->name, rank);
    w->flop = per * points;
    w->bytes = (double)pf_arg_numel(self) * size + written * size;
    w->dtype = pf_dtype_from_type_string(self->type);
    w->matrix = PF_MATRIX_NONE;
    w->source = "upsample";
    pf_ex_rule(w, "spatial.c", "the input");
    pf_ex(w, PF_EX_SIZES, "%d-D, %d FLOP per %s element; written %.0f elements", rank, per,
          backward ? "grad_output" : "output", written);
    pf_ex(w, PF_EX_FLOP, "%d*%.0f", per, points);
    pf_ex(w, PF_EX_BYTES, "%s + written = ", backward ? "grad_output" : "input");
    pf_ex_tensor(w, PF_EX_BYTES, self);
    pf_ex(w, PF_EX_BYTES, " + %.0f*%d", written, size);
    return PF_FORMULA_OK;
}

/* ---- max pooling ---- */

/* A pooling parameter list of rank values; one value stands for all; empty takes dflt
 * (stride: the kernel). */
static int pool_list(const pf_op_call *call, int pos, int rank, const int64_t *dflt, int64_t one, int64_t *out)
{
    int64_t v[PF_MAX_DIMS];
    const char *text = pf_concrete_at(call, pos);
    int n = *text ? pf_concrete_int_list(text, v, PF_MAX_DIMS) : 0;
    if (n < 0 || (n != 0 && n != 1 && n != rank))
        return -1;
    for (int i = 0; i < rank; i++)
        out[i] = n == 0 ? (dflt ? dflt[i] : one) : v[n == 1 ? 0 : i];
    return 0;
}

/* PyTorch's pooling_output_shape: floor or ceil of (in + 2p - d(k-1) - 1)/s + 1, where a
 * last window that would start in the right padding is dropped. */
static int64_t pool_out(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, int ceil_mode)
{
    int64_t span = in + 2 * p - d * (k - 1) - 1;
    if (s < 1 || span < 0)
        return -1;
    int64_t out = (span + (ceil_mode ? s - 1 : 0)) / s + 1;
    if (ceil_mode && (out - 1) * s >= in + p)
        out--;
    return out;
}

/* Forward (self, kernel_size, stride, padding, dilation, ceil_mode): read the input, write
 * the maxima at its type and their int64 indices. Backward (grad_output, self, kernel_size,
 * stride, padding, dilation, ceil_mode, indices): read grad_output and the indices, write
 * the input's gradient (self's shape; self itself is not read). No arithmetic: comparisons
 * count no FLOP, as the reductions' do. */
int pf_max_pool(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    int backward = ends_with(call->name, "_backward"), rank = name_rank(call->name);
    int base = backward ? 2 : 1;
    if (call->nargs <= base + 4) /* before any argument is read */
        return PF_FORMULA_BAD_ARGS;
    const pf_arg *self = &call->args[backward ? 1 : 0];
    int size = pf_type_size(self->type);
    if (rank < 1 || !pf_arg_is_tensor(self) || pf_arg_numel(self) < 0 || size <= 0 ||
        self->ndim < rank + 1)
        return PF_FORMULA_BAD_ARGS;
    if (backward) {
        const pf_arg *go = &call->args[0], *idx = call->nargs > 7 ? &call->args[7] : NULL;
        if (!pf_arg_is_tensor(go) || !idx || !pf_arg_is_tensor(idx))
            return PF_FORMULA_BAD_ARGS;
        double bytes = pf_bytes_add(pf_tensor_bytes(go), pf_tensor_bytes(idx));
        w->bytes = pf_bytes_add(bytes, (double)pf_arg_numel(self) * pf_type_size(go->type));
        pf_ex(w, PF_EX_BYTES, "grad_output + indices + grad_input = ");
        pf_ex_tensor(w, PF_EX_BYTES, go);
        pf_ex(w, PF_EX_BYTES, " + ");
        pf_ex_tensor(w, PF_EX_BYTES, idx);
        pf_ex(w, PF_EX_BYTES, " + %lld*%d", (long long)pf_arg_numel(self), pf_type_size(go->type));
    } else {
        int64_t k[PF_MAX_DIMS], s[PF_MAX_DIMS], p[PF_MAX_DIMS], d[PF_MAX_DIMS];
        int ceil_mode = *pf_concrete_at(call, base + 4) ? pf_concrete_bool(pf_concrete_at(call, base + 4)) : 0;
        if (pool_list(call, base, rank, NULL, 1, k) || pool_list(call, base + 1, rank, k, 1, s) ||
            pool_list(call, base + 2, rank, NULL, 0, p) || pool_list(call, base + 3, rank, NULL, 1, d) || ceil_mode < 0)
            return PF_FORMULA_BAD_ARGS;
        double out = 1;
        for (int i = 0; i < self->ndim - rank; i++)
            out *= (double)self->dims[i];
        for (int i = 0; i < rank; i++) {
            int64_t len = pool_out(self->dims[self->ndim - rank + i], k[i], s[i], p[i], d[i], ceil_mode);
            if (len < 1)
                return PF_FORMULA_MISMATCH;
            out *= (double)len;
        }
        w->bytes = (double)pf_arg_numel(self) * size + out * (size + 8);
        pf_ex(w, PF_EX_SIZES, "output %.0f elements", out);
        pf_ex(w, PF_EX_BYTES, "input + output + int64 indices = ");
        pf_ex_tensor(w, PF_EX_BYTES, self);
        pf_ex(w, PF_EX_BYTES, " + %.0f*%d + %.0f*8", out, size, out);
    }
    w->flop = 0;
    w->dtype = pf_dtype_from_type_string(self->type);
    w->matrix = PF_MATRIX_NONE;
    w->source = "pool";
    pf_ex_rule(w, "spatial.c", "the input");
    return PF_FORMULA_OK;
}
