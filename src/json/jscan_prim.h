/* jscan_prim.h - the scanner's inner steps as inline functions, shared by jscan.c and the event parser so that its per-token loop compiles to straight code (not a public interface). */
/* Its users, and only they, include it by path ("../json/jscan_prim.h"), since the inline
 * steps are what makes their per-token loops fast: src/json/jscan.c; src/trace/, the event
 * scanner (its element loop, fields and shapes: trace_event.h and the files that take the
 * event's fields); src/rewrite/splice.c, which finds the args object of an event to splice
 * into. tests/cli/test_one_place.sh checks that no other folder includes it. */
#ifndef PROFANA_JSCAN_PRIM_H
#define PROFANA_JSCAN_PRIM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "profana/jscan.h"

/* 1 for ' ', '\n', '\r', '\t': one compare and a bit test. */
static inline int js_is_ws(char c)
{
    return (unsigned char)c <= ' ' && ((UINT64_C(0x100002600) >> (unsigned char)c) & 1);
}

/* The first offset at or after pos that is not JSON whitespace (len if none). Most runs
 * are one space; indentation runs are taken 16 bytes a step. */
static inline size_t js_ws(const char *s, size_t len, size_t pos)
{
    if (pos >= len || !js_is_ws(s[pos]))
        return pos;
    if (++pos >= len || !js_is_ws(s[pos]))
        return pos;
#ifdef __SSE2__
    const __m128i sp = _mm_set1_epi8(' '), nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'), tab = _mm_set1_epi8('\t');
    for (; pos + 16 <= len; pos += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + pos));
        __m128i w = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, sp), _mm_cmpeq_epi8(x, nl)),
                                 _mm_or_si128(_mm_cmpeq_epi8(x, cr), _mm_cmpeq_epi8(x, tab)));
        unsigned other = ~(unsigned)_mm_movemask_epi8(w) & 0xFFFFu;
        if (other)
            return pos + (unsigned)__builtin_ctz(other);
    }
#endif
    while (pos < len && js_is_ws(s[pos]))
        pos++;
    return pos;
}

/* After a value in a container: ", " before the next value (the common spacing) moves *p to
 * it and returns 1; anything else returns 0 for the general path. */
static inline int js_comma_space(const char *s, size_t len, size_t *p)
{
    size_t q = *p;
    if (q + 2 < len && s[q] == ',' && s[q + 1] == ' ' && !js_is_ws(s[q + 2])) {
        *p = q + 2;
        return 1;
    }
    return 0;
}

/* The end of the run of decimal digits from p (len at most). */
static inline size_t js_digits(const char *s, size_t len, size_t p)
{
#ifdef __SSE2__
    const __m128i below = _mm_set1_epi8('0' - 1), above = _mm_set1_epi8('9' + 1);
    for (; p + 16 <= len; p += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + p));
        __m128i d = _mm_and_si128(_mm_cmpgt_epi8(x, below), _mm_cmplt_epi8(x, above));
        unsigned other = ~(unsigned)_mm_movemask_epi8(d) & 0xFFFFu;
        if (other)
            return p + (unsigned)__builtin_ctz(other);
    }
#endif
    while (p < len && (unsigned)(s[p] - '0') < 10)
        p++;
    return p;
}

static inline int js_fail(pf_jerr *e, size_t pos, size_t len, const char *what)
{
    e->pos = pos;
    e->truncated = pos >= len;
    e->what = pos >= len ? "unexpected end of input" : what;
    return -1;
}

static inline int js_hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Bits of a 16-byte block at s: which bytes end a plain run of string text ('"', '\\', a
 * control byte), and, in *high, which are not ASCII. */
#ifdef __SSE2__
static inline unsigned js_block_stops(const char *s, unsigned *high)
{
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'), ctl = _mm_set1_epi8(0x1F);
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
    __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, bslash)),
                             _mm_cmpeq_epi8(_mm_max_epu8(x, ctl), ctl));
    *high = (unsigned)_mm_movemask_epi8(x);
    return (unsigned)_mm_movemask_epi8(m);
}
#endif

static inline int js_is_stop(unsigned char c)
{
    return c == '"' || c == '\\' || c < 0x20;
}

/* The first offset at or after p (and before len) holding '"', '\\' or a control byte;
 * len when none. *ascii is cleared when a byte before it is not ASCII. Strings dominate
 * trace bytes (kernel names), so the run is found 16 bytes a step. */
static inline size_t js_plain_run(const char *s, size_t len, size_t p, int *ascii)
{
#ifdef __SSE2__
    for (; p + 16 <= len; p += 16) {
        unsigned high, stops = js_block_stops(s + p, &high);
        if (stops) {
            unsigned at = (unsigned)__builtin_ctz(stops);
            if (high & ((1u << at) - 1))
                *ascii = 0;
            return p + at;
        }
        if (high)
            *ascii = 0;
    }
#endif
    for (; p < len && !js_is_stop((unsigned char)s[p]); p++)
        if ((unsigned char)s[p] >= 0x80)
            *ascii = 0;
    return p;
}

static inline int js_skip_string(const char *s, size_t len, size_t *pos, pf_jerr *e)
{
    size_t p = *pos + 1;
    int ascii = 1;
    for (;;) {
        p = js_plain_run(s, len, p, &ascii);
        if (p >= len)
            return js_fail(e, len, len, "unterminated string");
        if (s[p] == '"') {
            *pos = p + 1;
            return 0;
        }
        if ((unsigned char)s[p] < 0x20)
            return js_fail(e, p, len, "control character in string");
        if (p + 1 >= len)
            return js_fail(e, len, len, "unterminated string");
        char esc = s[p + 1];
        if (esc == 'u') {
            if (p + 6 > len)
                return js_fail(e, len, len, "unterminated string");
            for (int i = 2; i < 6; i++)
                if (js_hexval(s[p + i]) < 0)
                    return js_fail(e, p, len, "bad \\u escape in string");
            p += 6;
        } else if (strchr("\"\\/bfnrt", esc) && esc) {
            p += 2;
        } else {
            return js_fail(e, p, len, "bad escape in string");
        }
    }
}

static inline int js_skip_number(const char *s, size_t len, size_t *pos, pf_jerr *e)
{
    size_t p = *pos;
    if (p < len && s[p] == '-')
        p++;
    if (p >= len)
        return js_fail(e, p, len, "bad number");
    if (s[p] == '0')
        p++;
    else if (s[p] >= '1' && s[p] <= '9')
        p = js_digits(s, len, p + 1);
    else
        return js_fail(e, p, len, "bad number");
    if (p < len && s[p] == '.') {
        size_t d = p + 1;
        p = js_digits(s, len, d);
        if (p == d)
            return js_fail(e, p, len, "bad number: digit expected after '.'");
    }
    if (p < len && (s[p] == 'e' || s[p] == 'E')) {
        p++;
        if (p < len && (s[p] == '+' || s[p] == '-'))
            p++;
        size_t d = p;
        p = js_digits(s, len, p);
        if (p == d)
            return js_fail(e, p, len, "bad number: digit expected in exponent");
    }
    *pos = p;
    return 0;
}

static inline int js_skip_literal(const char *s, size_t len, size_t *pos, const char *lit, pf_jerr *e)
{
    size_t n = strlen(lit);
    if (*pos + n > len) {
        if (memcmp(s + *pos, lit, len - *pos) == 0)
            return js_fail(e, len, len, "unexpected end of input");
        return js_fail(e, *pos, len, "expected a JSON value");
    }
    if (memcmp(s + *pos, lit, n) != 0)
        return js_fail(e, *pos, len, "expected a JSON value");
    *pos += n;
    return 0;
}

static inline int js_skip_value(const char *s, size_t len, size_t *pos, int depth, pf_jerr *e);

static inline int js_skip_container(const char *s, size_t len, size_t *pos, int depth, pf_jerr *e)
{
    char close = s[*pos] == '{' ? '}' : ']';
    int is_obj = close == '}';
    if (depth > PF_JSON_MAX_DEPTH)
        return js_fail(e, *pos, len, "nesting deeper than 512 levels");
    size_t p = js_ws(s, len, *pos + 1);
    if (p < len && s[p] == close) {
        *pos = p + 1;
        return 0;
    }
    for (;; p = js_ws(s, len, p)) {
        if (is_obj) {
            if (p >= len || s[p] != '"')
                return js_fail(e, p, len, "expected a string key");
            if (js_skip_string(s, len, &p, e))
                return -1;
            p = js_ws(s, len, p);
            if (p >= len || s[p] != ':')
                return js_fail(e, p, len, "expected ':'");
            p++;
        }
        /* Strings and numbers fill most containers: skip them without a call. */
        p = js_ws(s, len, p);
        char c = p < len ? s[p] : 0;
        int r = c == '"' ? js_skip_string(s, len, &p, e)
                : c == '-' || (c >= '0' && c <= '9') ? js_skip_number(s, len, &p, e)
                                                     : js_skip_value(s, len, &p, depth + 1, e);
        if (r)
            return -1;
        if (js_comma_space(s, len, &p)) {
            if (s[p] == close)
                return js_fail(e, p, len, "trailing comma");
            continue;
        }
        p = js_ws(s, len, p);
        if (p < len && s[p] == ',') {
            p = js_ws(s, len, p + 1);
            if (p < len && s[p] == close)
                return js_fail(e, p, len, "trailing comma");
            continue;
        }
        if (p < len && s[p] == close) {
            *pos = p + 1;
            return 0;
        }
        return js_fail(e, p, len, is_obj ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static inline int js_skip_value(const char *s, size_t len, size_t *pos, int depth, pf_jerr *e)
{
    size_t p = js_ws(s, len, *pos);
    *pos = p;
    if (p >= len)
        return js_fail(e, len, len, "unexpected end of input");
    switch (s[p]) {
    case '"':
        return js_skip_string(s, len, pos, e);
    case '{':
    case '[':
        return js_skip_container(s, len, pos, depth, e);
    case 't':
        return js_skip_literal(s, len, pos, "true", e);
    case 'f':
        return js_skip_literal(s, len, pos, "false", e);
    case 'n':
        return js_skip_literal(s, len, pos, "null", e);
    default:
        if (s[p] == '-' || (s[p] >= '0' && s[p] <= '9'))
            return js_skip_number(s, len, pos, e);
        return js_fail(e, p, len, "expected a JSON value");
    }
}

#endif
