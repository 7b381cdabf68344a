/* jscan.c - validating JSON scanner: value extents, member iteration and exact number parsing. */
#include "profana/jscan.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jscan_prim.h"

size_t pf_json_ws(const char *s, size_t len, size_t pos)
{
    return js_ws(s, len, pos);
}

int pf_json_plain_string(const char *s, size_t len, size_t *pos)
{
    int ascii = 1;
    size_t p = js_plain_run(s, len, *pos + 1, &ascii);
    if (p >= len)
        return -1;
    if (s[p] != '"' || !ascii)
        return 0;
    *pos = p + 1;
    return 1;
}

int pf_json_skip(const char *s, size_t len, size_t *pos, pf_jerr *e)
{
    return js_skip_value(s, len, pos, 1, e);
}

int pf_json_skip_at(const char *s, size_t len, size_t *pos, int depth, pf_jerr *e)
{
    return js_skip_value(s, len, pos, depth, e);
}

static int container_begin(const char *s, size_t len, size_t *pos, char open, pf_jerr *e)
{
    size_t p = js_ws(s, len, *pos);
    if (p >= len || s[p] != open)
        return js_fail(e, p, len, open == '{' ? "expected '{'" : "expected '['");
    *pos = p + 1;
    return 0;
}

int pf_json_obj_begin(const char *s, size_t len, size_t *pos, pf_jerr *e)
{
    return container_begin(s, len, pos, '{', e);
}

int pf_json_arr_begin(const char *s, size_t len, size_t *pos, pf_jerr *e)
{
    return container_begin(s, len, pos, '[', e);
}

/* Consumes the separator before the next element. *pos is right after the opening
 * bracket (first element) or right after the previous value, which never ends in '{' or
 * '[': so the byte before *pos tells which. Returns 1 when an element follows, 0 at the
 * closing bracket. */
static int next_element(const char *s, size_t len, size_t *pos, char close, pf_jerr *e)
{
    int first = *pos > 0 && (s[*pos - 1] == '{' || s[*pos - 1] == '[');
    size_t p = js_ws(s, len, *pos);
    if (p < len && s[p] == close) {
        *pos = p + 1;
        return 0;
    }
    if (!first) {
        if (p >= len || s[p] != ',')
            return js_fail(e, p, len, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
        p = js_ws(s, len, p + 1);
        if (p < len && s[p] == close)
            return js_fail(e, p, len, "trailing comma");
    }
    *pos = p;
    return 1;
}

int pf_json_obj_next(const char *s, size_t len, size_t *pos, pf_jmember *m, pf_jerr *e)
{
    int r = next_element(s, len, pos, '}', e);
    if (r <= 0)
        return r;
    size_t p = *pos;
    if (p >= len || s[p] != '"')
        return js_fail(e, p, len, "expected a string key");
    m->key_start = p + 1;
    if (js_skip_string(s, len, &p, e))
        return -1;
    m->key_end = p - 1;
    p = js_ws(s, len, p);
    if (p >= len || s[p] != ':')
        return js_fail(e, p, len, "expected ':'");
    p = js_ws(s, len, p + 1);
    m->val_start = p;
    if (js_skip_value(s, len, &p, 2, e))
        return -1;
    m->val_end = p;
    *pos = p;
    return 1;
}

int pf_json_arr_next(const char *s, size_t len, size_t *pos, size_t *val_start, size_t *val_end,
                     pf_jerr *e)
{
    int r = next_element(s, len, pos, ']', e);
    if (r <= 0)
        return r;
    size_t p = *pos;
    *val_start = p;
    if (js_skip_value(s, len, &p, 2, e))
        return -1;
    *val_end = p;
    *pos = p;
    return 1;
}

int pf_json_key_is(const char *s, const pf_jmember *m, const char *lit)
{
    size_t n = m->key_end - m->key_start;
    return strlen(lit) == n && memcmp(s + m->key_start, lit, n) == 0;
}

/* Strips the quotes of a quoted number ("7") so ids written as strings still parse. */
static void unquote(const char *s, size_t *start, size_t *end)
{
    if (*end - *start >= 2 && s[*start] == '"' && s[*end - 1] == '"') {
        (*start)++;
        (*end)--;
    }
}

int pf_json_double(const char *s, size_t start, size_t end, double *v)
{
    char buf[64];
    size_t n = end - start;
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, s + start, n);
    buf[n] = 0;
    size_t p = 0;
    pf_jerr e;
    if (js_skip_number(buf, n, &p, &e) || p != n)
        return -1;
    errno = 0;
    double d = strtod(buf, NULL);
    if (errno == ERANGE || !isfinite(d))
        return -1;
    *v = d;
    return 0;
}

int pf_json_int(const char *s, size_t start, size_t end, int64_t *v)
{
    unquote(s, &start, &end);
    size_t p = start;
    int neg = 0;
    if (p < end && s[p] == '-') {
        neg = 1;
        p++;
    }
    if (p >= end || s[p] < '0' || s[p] > '9')
        return -1;
    uint64_t acc = 0;
    for (; p < end && s[p] >= '0' && s[p] <= '9'; p++) {
        unsigned d = (unsigned)(s[p] - '0');
        if (acc > (UINT64_C(9223372036854775807) - d) / 10)
            return -1;
        acc = acc * 10 + d;
    }
    if (p < end && s[p] == '.') {
        for (p++; p < end && s[p] == '0'; p++)
            ;
    }
    if (p != end)
        return -1;
    *v = neg ? -(int64_t)acc : (int64_t)acc;
    return 0;
}

/* Microsecond text to integer nanoseconds without going through a double: Kineto's
 * `ts` has 16 significant digits, one more than a double keeps. */
int pf_json_us_to_ns(const char *s, size_t start, size_t end, int64_t *ns)
{
    size_t p = start;
    int neg = 0;
    if (p < end && s[p] == '-') {
        neg = 1;
        p++;
    }
    if (p >= end || s[p] < '0' || s[p] > '9')
        return -1;
    uint64_t acc = 0;
    const uint64_t lim = UINT64_C(9223372036854775807) / 1000;
    for (; p < end && s[p] >= '0' && s[p] <= '9'; p++) {
        acc = acc * 10 + (unsigned)(s[p] - '0');
        if (acc > lim)
            return -1;
    }
    int frac_digits = 0;
    uint64_t frac = 0;
    int round_up = 0;
    if (p < end && s[p] == '.') {
        for (p++; p < end && s[p] >= '0' && s[p] <= '9'; p++) {
            if (frac_digits < 3) {
                frac = frac * 10 + (unsigned)(s[p] - '0');
                frac_digits++;
            } else if (frac_digits == 3) {
                round_up = s[p] >= '5';
                frac_digits++;
            }
        }
    }
    if (p != end) {
        /* Exponent form is legal JSON but never written by Kineto: take the slow path. */
        double d;
        if (pf_json_double(s, start, end, &d) || fabs(d) > 9.2e15)
            return -1;
        *ns = (int64_t)llround(d * 1000.0);
        return 0;
    }
    if (frac_digits > 3)
        frac_digits = 3;
    for (; frac_digits < 3; frac_digits++)
        frac *= 10;
    uint64_t total = acc * 1000 + frac + (uint64_t)round_up;
    if (total > (uint64_t)INT64_MAX)
        return -1;
    *ns = neg ? -(int64_t)total : (int64_t)total;
    return 0;
}

static size_t put_utf8(char *out, uint32_t cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

static uint32_t read_hex4(const char *s)
{
    return (uint32_t)(js_hexval(s[0]) << 12 | js_hexval(s[1]) << 8 | js_hexval(s[2]) << 4 | js_hexval(s[3]));
}

/* Length of a valid UTF-8 sequence at s (at most n bytes), 0 when invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    if (s[0] < 0x80)
        return 1;
    size_t k = s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 && s[0] < 0xE0 ? 2 : 0;
    if (k == 0 || k > n)
        return 0;
    for (size_t i = 1; i < k; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    if (k == 3 && s[0] == 0xE0 && s[1] < 0xA0)
        return 0;
    if (k == 3 && s[0] == 0xED && s[1] >= 0xA0)
        return 0;
    if (k == 4 && s[0] == 0xF0 && s[1] < 0x90)
        return 0;
    if (k == 4 && s[0] == 0xF4 && s[1] >= 0x90)
        return 0;
    return k;
}

/* Code points a name from the trace may not carry into profana's output: NUL, the C0
 * controls other than tab and newline (escape sequences, carriage returns), DEL, the C1
 * controls and lone surrogates; each is shown as U+FFFD. */
static uint32_t shown_cp(uint32_t cp)
{
    int control = (cp < 0x20 && cp != '\t' && cp != '\n') || (cp >= 0x7F && cp < 0xA0);
    return control || (cp >= 0xD800 && cp < 0xE000) ? 0xFFFD : cp;
}

/* Copies the raw (unescaped) character at s[*p] to out: a valid UTF-8 sequence as it is
 * unless it is a control, anything else as U+FFFD; advances *p. Returns the bytes written. */
static size_t copy_raw(const char *s, size_t *p, size_t end, char *out)
{
    const unsigned char *u = (const unsigned char *)s + *p;
    size_t k = utf8_len(u, end - *p);
    uint32_t cp = k == 1 ? u[0] : k == 2 ? (uint32_t)(u[0] & 0x1F) << 6 | (u[1] & 0x3F) : 0xA0;
    if (k == 0 || shown_cp(cp) != cp) {
        *p += k ? k : 1;
        return put_utf8(out, 0xFFFD);
    }
    memcpy(out, u, k);
    *p += k;
    return k;
}

static size_t decode_escape(const char *s, size_t *p, size_t end, char *out)
{
    char c = s[*p + 1];
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    const char *hit = strchr(from, c);
    if (c != 'u') {
        *p += 2;
        return put_utf8(out, shown_cp((unsigned char)(hit ? to[hit - from] : c)));
    }
    uint32_t cp = read_hex4(s + *p + 2);
    *p += 6;
    if (cp >= 0xD800 && cp < 0xDC00 && *p + 6 <= end && s[*p] == '\\' && s[*p + 1] == 'u') {
        uint32_t lo = read_hex4(s + *p + 2);
        if (lo >= 0xDC00 && lo < 0xE000) {
            *p += 6;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        }
    }
    return put_utf8(out, shown_cp(cp));
}

char *pf_json_string(const char *s, size_t start, size_t end, size_t *out_len)
{
    if (end - start < 2 || s[start] != '"' || s[end - 1] != '"')
        return NULL;
    start++;
    end--;
    /* Worst case: every invalid byte becomes a 3-byte U+FFFD. */
    char *out = malloc((end - start) * 3 + 1);
    if (!out)
        return NULL;
    size_t o = 0, p = start;
    while (p < end) {
        if (s[p] == '\\' && p + 1 < end) {
            o += decode_escape(s, &p, end, out + o);
            continue;
        }
        o += copy_raw(s, &p, end, out + o);
    }
    out[o] = 0;
    if (out_len)
        *out_len = o;
    return out;
}

char *pf_json_text_dup(const char *s)
{
    size_t end = strlen(s), o = 0, p = 0;
    char *out = malloc(end * 3 + 1); /* every byte may become a 3-byte U+FFFD */
    if (!out)
        return NULL;
    while (p < end)
        o += copy_raw(s, &p, end, out + o);
    out[o] = 0;
    return out;
}

/* Whether the 4 characters at s are hex digits. */
static int is_hex4(const char *s)
{
    for (int i = 0; i < 4; i++)
        if (js_hexval(s[i]) < 0)
            return 0;
    return 1;
}

size_t pf_json_fix_surrogates(char *s, size_t len)
{
    size_t fixed = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] != '\\' || i + 1 >= len)
            continue;
        if (s[i + 1] != 'u' || i + 6 > len || !is_hex4(s + i + 2)) {
            i++; /* the escaped character: a second backslash starts nothing */
            continue;
        }
        uint32_t cp = read_hex4(s + i + 2);
        int paired = cp >= 0xD800 && cp < 0xDC00 && i + 12 <= len && s[i + 6] == '\\' && s[i + 7] == 'u' &&
                     is_hex4(s + i + 8) && read_hex4(s + i + 8) >= 0xDC00 && read_hex4(s + i + 8) < 0xE000;
        if (paired) {
            i += 11;
            continue;
        }
        if (cp >= 0xD800 && cp < 0xE000) {
            memcpy(s + i + 2, "fffd", 4);
            fixed++;
        }
        i += 5;
    }
    return fixed;
}
