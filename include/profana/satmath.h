/* satmath.h - overflow-safe int64 arithmetic: a crafted trace must not overflow a time total or a size product (undefined behaviour). */
/* layer: util (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_SATMATH_H
#define PROFANA_SATMATH_H

#include <stdint.h>

/* a + b, clamped to the int64 range instead of overflowing. */
static inline int64_t pf_sat_add(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
        return b > 0 ? INT64_MAX : INT64_MIN;
    return r;
}

/* a - b, clamped to the int64 range instead of overflowing (times read from a summary file
 * are untrusted: a start near -2^63 subtracted from one near 2^63). */
static inline int64_t pf_sat_sub(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_sub_overflow(a, b, &r))
        return b < 0 ? INT64_MAX : INT64_MIN;
    return r;
}

/* Trace sizes are untrusted: products and sums of dims go through these, which return -1
 * when an operand is negative or the result would not fit in int64. */
static inline int64_t pf_mul_nonneg(int64_t a, int64_t b)
{
    if (a < 0 || b < 0)
        return -1;
    if (a != 0 && b > INT64_MAX / a)
        return -1;
    return a * b;
}

static inline int64_t pf_add_nonneg(int64_t a, int64_t b)
{
    if (a < 0 || b < 0 || b > INT64_MAX - a)
        return -1;
    return a + b;
}

#endif
