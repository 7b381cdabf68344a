/* numtext.c - exact decimal text of numbers for JSON written back into traces: shortest round-trip doubles and fixed-point integers. */
#include "profana/numtext.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t pf_num_text(char *buf, double v)
{
    assert(buf); /* PF_NUM_TEXT_MAX bytes */
    buf[0] = '\0';
    if (!isfinite(v))
        return 0;
    /* The shortest of 15, 16 or 17 significant digits that reads back exactly: 17 always
     * does, fewer avoid printing 0.1 as 0.10000000000000001. */
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, PF_NUM_TEXT_MAX, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return strlen(buf);
}

size_t pf_decimal_text(char *buf, int64_t units, int decimals)
{
    assert(buf && decimals >= 0 && decimals <= 18);
    char digits[24];
    size_t nd = 0, o = 0;
    /* Magnitude as unsigned, so INT64_MIN has one too. */
    uint64_t u = units < 0 ? (uint64_t)0 - (uint64_t)units : (uint64_t)units;
    do {
        digits[nd++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (units < 0)
        buf[o++] = '-';
    size_t whole = nd > (size_t)decimals ? nd - (size_t)decimals : 0;
    for (size_t i = 0; i < whole; i++)
        buf[o++] = digits[nd - 1 - i];
    if (whole == 0)
        buf[o++] = '0';
    /* The fraction, most significant first, without its trailing zeros. */
    size_t frac_end = o;
    buf[o++] = '.';
    for (int i = decimals - 1; i >= 0; i--) {
        buf[o++] = (size_t)i < nd ? digits[i] : '0';
        if (buf[o - 1] != '0')
            frac_end = o;
    }
    buf[frac_end] = '\0';
    return frac_end;
}
