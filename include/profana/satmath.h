/* satmath.h - saturating int64 sums: a crafted trace must not overflow a time total (undefined behaviour). */
/* layer: util (README: Where things are) */
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

#endif
