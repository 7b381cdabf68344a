/* fft.c - FLOP and byte formulas of the FFTs: _fft_r2c, _fft_c2r and _fft_c2c. */
#include "families.h"

#include <assert.h>
#include <math.h>
#include <string.h>

/* The FLOP convention (the radix-2 count FFTW's benchmarks use): a complex transform of N
 * points costs 5*N*log2(N), over every dimension transformed (N their product); a real one
 * (r2c, c2r) half, 2.5*N*log2(N), since it is a complex transform of half the length.
 * _fft_r2c(self, dim[], normalization, onesided): real in, complex out, the last dim
 * transformed cut to n/2 + 1 when onesided; _fft_c2r(self, dim[], normalization,
 * last_dim_size): complex in, real out whose last transformed dim is last_dim_size;
 * _fft_c2c(self, dim[], normalization, forward). */
enum { DIMS = 1, LAST = 3, MAX_FFT_DIMS = PF_MAX_DIMS };

int pf_fft(const pf_op_call *call, pf_work *w)
{
    assert(pf_formula_args_ok(call, w));
    const pf_arg *self = &call->args[0];
    int64_t dims[MAX_FFT_DIMS], out_dims[PF_MAX_DIMS], last_arg = 0;
    int r2c = strstr(call->name, "_r2c") != NULL, c2r = strstr(call->name, "_c2r") != NULL;
    int size = pf_type_size(self->type);
    if (call->nargs <= LAST || !pf_arg_is_tensor(self) || pf_arg_numel(self) < 0 || size <= 0)
        return PF_FORMULA_BAD_ARGS;
    int n = pf_concrete_int_list(pf_concrete_at(call, DIMS), dims, MAX_FFT_DIMS);
    if (n < 1)
        return PF_FORMULA_BAD_ARGS;
    memcpy(out_dims, self->dims, sizeof out_dims);
    if (r2c) {
        int one = pf_concrete_bool(pf_concrete_at(call, LAST));
        if (one < 0)
            return PF_FORMULA_BAD_ARGS;
        last_arg = one;
    } else if (c2r && (pf_concrete_int(pf_concrete_at(call, LAST), &last_arg) < 0 || last_arg < 1)) {
        return PF_FORMULA_BAD_ARGS;
    }
    double points = 1;
    for (int i = 0; i < n; i++) {
        int64_t d = dims[i] < 0 ? dims[i] + self->ndim : dims[i];
        if (d < 0 || d >= self->ndim)
            return PF_FORMULA_MISMATCH;
        dims[i] = d;
    }
    int64_t last = dims[n - 1];
    if (r2c && last_arg)
        out_dims[last] = self->dims[last] / 2 + 1;
    if (c2r)
        out_dims[last] = last_arg;
    double out_numel = 1;
    for (int i = 0; i < self->ndim; i++)
        out_numel *= (double)out_dims[i];
    /* the transform's length: the real side's for r2c (input) and c2r (output) */
    for (int i = 0; i < n; i++)
        points *= (double)(c2r ? out_dims[dims[i]] : self->dims[dims[i]]);
    double real_numel = c2r ? out_numel : (double)pf_arg_numel(self);
    double per = r2c || c2r ? 2.5 : 5.0;
    int out_size = r2c ? 2 * size : c2r ? size / 2 : size;
    w->flop = points > 1 ? per * real_numel * log2(points) : 0;
    w->bytes = (double)pf_arg_numel(self) * size + out_numel * out_size;
    w->dtype = pf_dtype_from_type_string(self->type);
    w->matrix = PF_MATRIX_NONE;
    w->source = "fft";
    pf_ex_rule(w, "fft.c", "the input");
    pf_ex(w, PF_EX_SIZES, "%s transform over %d dim(s), N=%.0f points, batch %.0f; FLOP convention 5*N*log2(N) "
          "complex, half for real", r2c ? "real-to-complex" : c2r ? "complex-to-real" : "complex", n, points,
          points > 0 ? real_numel / points : 0);
    pf_ex(w, PF_EX_FLOP, "%.1f*batch*N*log2(N) = %.1f*%.0f*log2(%.0f)", per, per, real_numel, points);
    pf_ex(w, PF_EX_BYTES, "in + out = ");
    pf_ex_tensor(w, PF_EX_BYTES, self);
    pf_ex(w, PF_EX_BYTES, " + %.0f*%d", out_numel, out_size);
    return PF_FORMULA_OK;
}
