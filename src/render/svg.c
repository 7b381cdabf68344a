/* svg.c - the XML/HTML writer behind the charts and the report: escaping, element nesting, number formatting. */
#include "profana/svg.h"

#include <math.h>
#include <string.h>

static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when the bytes are not one. Overlong
 * forms, surrogates and code points past U+10FFFF are invalid, as are U+FFFE and U+FFFF,
 * which XML forbids. */
static size_t utf8_len(const unsigned char *s)
{
    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xC2 && s[0] <= 0xDF)
        return (s[1] & 0xC0) == 0x80 ? 2 : 0;
    if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        if ((s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
            return 0;
        if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0))
            return 0;
        if (s[0] == 0xEF && s[1] == 0xBF && s[2] >= 0xBE)
            return 0;
        return 3;
    }
    if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        if ((s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80)
            return 0;
        if ((s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90))
            return 0;
        return 4;
    }
    return 0;
}

void pf_xml_escape(FILE *out, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    while (*s) {
        size_t n = utf8_len(s);
        if (n == 0 || (*s < 0x20 && *s != '\t' && *s != '\n') || *s == 0x7F) {
            fputs(replacement, out);
            s++;
            continue;
        }
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fwrite(s, 1, n, out);
        }
        s += n;
    }
}

const char *pf_num_fmt(char *buf, size_t n, double v, int decimals)
{
    /* Coordinates past 1e15 mean a caller bug; clamping keeps the text short and valid. */
    if (!isfinite(v))
        v = 0;
    v = fmax(-1e15, fmin(1e15, v));
    snprintf(buf, n, "%.*f", decimals, v);
    char *dot = strchr(buf, '.');
    if (dot) {
        char *end = buf + strlen(buf);
        while (end > dot + 1 && end[-1] == '0')
            *--end = 0;
        if (end == dot + 1)
            *dot = 0;
    }
    if (strcmp(buf, "-0") == 0)
        strcpy(buf, "0");
    return buf;
}

void pf_xw_init(pf_xw *w, FILE *out, int html)
{
    memset(w, 0, sizeof *w);
    w->out = out;
    w->html = html;
}

/* Ends an open start tag so content can follow. */
static void close_start(pf_xw *w)
{
    if (w->open)
        fputc('>', w->out);
    w->open = 0;
}

void pf_xw_begin(pf_xw *w, const char *tag)
{
    close_start(w);
    if (w->depth >= PF_XW_MAX_DEPTH) {
        w->too_deep++;
        return;
    }
    fprintf(w->out, "<%s", tag);
    w->stack[w->depth++] = tag;
    if (!w->svg_depth && strcmp(tag, "svg") == 0)
        w->svg_depth = w->depth;
    w->open = 1;
}

void pf_xw_attr(pf_xw *w, const char *name, const char *value)
{
    if (!w->open || !value)
        return;
    fprintf(w->out, " %s=\"", name);
    pf_xml_escape(w->out, value);
    fputc('"', w->out);
}

void pf_xw_attr_num(pf_xw *w, const char *name, double v)
{
    char buf[64];
    pf_xw_attr(w, name, pf_num_fmt(buf, sizeof buf, v, 2));
}

void pf_xw_attr_sig(pf_xw *w, const char *name, double v)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.6g", isfinite(v) ? v : 0.0);
    pf_xw_attr(w, name, buf);
}

void pf_xw_attr_int(pf_xw *w, const char *name, double v)
{
    char buf[64];
    pf_xw_attr(w, name, pf_num_fmt(buf, sizeof buf, v, 0));
}

void pf_xw_attr_i64(pf_xw *w, const char *name, int64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", (long long)v);
    pf_xw_attr(w, name, buf);
}

void pf_xw_text(pf_xw *w, const char *s)
{
    close_start(w);
    pf_xml_escape(w->out, s);
}

void pf_xw_raw(pf_xw *w, const char *s)
{
    close_start(w);
    fputs(s, w->out);
}

/* HTML elements that never take an end tag. */
static int html_void(const char *tag)
{
    static const char *const voids[] = {"meta", "br", "hr", "img", "input", "link"};
    for (size_t i = 0; i < sizeof voids / sizeof voids[0]; i++)
        if (strcmp(tag, voids[i]) == 0)
            return 1;
    return 0;
}

void pf_xw_end(pf_xw *w)
{
    if (w->too_deep) {
        w->too_deep--;
        return;
    }
    if (w->depth == 0)
        return;
    const char *tag = w->stack[--w->depth];
    int xml_syntax = !w->html || w->svg_depth;
    if (w->svg_depth > w->depth)
        w->svg_depth = 0;
    if (w->open && xml_syntax)
        fputs("/>", w->out);
    else if (w->open && html_void(tag))
        fputc('>', w->out);
    else {
        close_start(w);
        fprintf(w->out, "</%s>", tag);
    }
    w->open = 0;
}

void pf_xw_elem(pf_xw *w, const char *tag, const char *text)
{
    pf_xw_begin(w, tag);
    pf_xw_text(w, text);
    pf_xw_end(w);
}
