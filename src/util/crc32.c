/* crc32.c - the gzip CRC-32 by folding 64 bytes at a time with carry-less multiplication (PCLMULQDQ), so that checking inflated text costs a fraction of inflating it. */
#include <assert.h>
#include <zlib.h>

#include "profana/crc32.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define PF_CRC_FOLD 1
#define FOLD_TARGET __attribute__((target("pclmul,sse4.1")))

/* x (128 bits) folded over 2 * 64 bits of distance k: the two halves multiplied by the
 * constants of k, added to the data that follows. */
FOLD_TARGET static __m128i fold(__m128i x, __m128i k, __m128i next)
{
    __m128i lo = _mm_clmulepi64_si128(x, k, 0x00), hi = _mm_clmulepi64_si128(x, k, 0x11);
    return _mm_xor_si128(_mm_xor_si128(hi, lo), next);
}

/* The bit-reflected CRC register (not inverted) after buf[0, len); len >= 64, a multiple of
 * 16. The method and constants are those of Gopal et al., "Fast CRC Computation for Generic
 * Polynomials Using PCLMULQDQ Instruction" (Intel, 2009), for gzip's polynomial 0x04C11DB7:
 * x^(512+-32), x^(128+-32) and x^64 mod P, and the Barrett constants, each reflected. */
FOLD_TARGET static uint32_t crc_fold(const unsigned char *buf, size_t len, uint32_t crc)
{
    const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
    const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
    const __m128i k5 = _mm_set_epi64x(0, 0x0163cd6124);
    const __m128i poly = _mm_set_epi64x(0x01f7011641, 0x01db710641);
    const __m128i low32 = _mm_setr_epi32(~0, 0, ~0, 0);
    __m128i x1 = _mm_loadu_si128((const __m128i *)buf), x2 = _mm_loadu_si128((const __m128i *)(buf + 16));
    __m128i x3 = _mm_loadu_si128((const __m128i *)(buf + 32)), x4 = _mm_loadu_si128((const __m128i *)(buf + 48));
    x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
    for (buf += 64, len -= 64; len >= 64; buf += 64, len -= 64) {
        x1 = fold(x1, k1k2, _mm_loadu_si128((const __m128i *)buf));
        x2 = fold(x2, k1k2, _mm_loadu_si128((const __m128i *)(buf + 16)));
        x3 = fold(x3, k1k2, _mm_loadu_si128((const __m128i *)(buf + 32)));
        x4 = fold(x4, k1k2, _mm_loadu_si128((const __m128i *)(buf + 48)));
    }
    x1 = fold(fold(fold(x1, k3k4, x2), k3k4, x3), k3k4, x4);
    for (; len >= 16; buf += 16, len -= 16)
        x1 = fold(x1, k3k4, _mm_loadu_si128((const __m128i *)buf));
    /* 128 bits to 64, to 32 by Barrett reduction */
    x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), _mm_clmulepi64_si128(x1, k3k4, 0x10));
    x1 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, low32), k5, 0x00), _mm_srli_si128(x1, 4));
    __m128i t = _mm_clmulepi64_si128(_mm_and_si128(x1, low32), poly, 0x10);
    t = _mm_clmulepi64_si128(_mm_and_si128(t, low32), poly, 0x00);
    return (uint32_t)_mm_extract_epi32(_mm_xor_si128(x1, t), 1);
}
#endif

uint32_t pf_crc32(uint32_t crc, const void *buf, size_t len)
{
    assert(buf || len == 0); /* pf_crc32(0, NULL, 0) is 0 */
    const unsigned char *p = buf;
#ifdef PF_CRC_FOLD
    if (len >= 64 && __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1")) {
        size_t n = len & ~(size_t)15;
        crc = ~crc_fold(p, n, ~crc);
        p += n;
        len -= n;
    }
#endif
    return len ? (uint32_t)crc32_z(crc, p, len) : crc;
}
