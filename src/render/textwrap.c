/* textwrap.c - a stream that wraps prose lines (headers, coverage, footnotes) to the width the tables fit, so no line of text output is wider than the terminal. */
#define _GNU_SOURCE /* fopencookie: a FILE whose writes go through wrap_write */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/tabulate.h"

/* Continuation lines start with this much indent, so a wrapped line reads as one. */
#define INDENT 2

typedef struct wrapper {
    FILE *out;
    size_t width;
    char *line;                /* the line being written, up to its '\n' */
    size_t len, cap;
    int failed;
} wrapper;

/* Characters (UTF-8 lead bytes) in s[0..n). */
static size_t chars(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* Bytes of s holding its first k characters (or all of its n bytes). */
static size_t bytes_for(const char *s, size_t n, size_t k)
{
    size_t i = 0, c = 0;
    for (; i < n; i++) {
        if (((unsigned char)s[i] & 0xC0) != 0x80 && c++ == k)
            break;
    }
    return i;
}

/* Writes one line (without its '\n') in pieces of at most width characters, broken at the
 * last space that fits, else inside the word; continuation pieces indented. */
static void emit(wrapper *w, const char *s, size_t n)
{
    size_t indent = 0;
    while (chars(s, n) + indent > w->width) {
        size_t room = w->width - indent, cut = bytes_for(s, n, room), brk = cut;
        while (brk > 0 && s[brk] != ' ')
            brk--;
        if (brk == 0)
            brk = cut; /* one word wider than the line */
        fprintf(w->out, "%*s%.*s\n", (int)indent, "", (int)brk, s);
        while (brk < n && s[brk] == ' ')
            brk++;
        s += brk;
        n -= brk;
        indent = INDENT;
    }
    fprintf(w->out, "%*s%.*s\n", (int)(n ? indent : 0), "", (int)n, s);
}

static ssize_t wrap_write(void *cookie, const char *buf, size_t size)
{
    wrapper *w = cookie;
    for (size_t i = 0; i < size; i++) {
        if (buf[i] == '\n') {
            emit(w, w->line, w->len);
            w->len = 0;
            continue;
        }
        if (w->len + 1 >= w->cap) {
            size_t cap = w->cap ? w->cap * 2 : 256;
            char *l = realloc(w->line, cap);
            if (!l) {
                w->failed = 1;
                return -1;
            }
            w->line = l;
            w->cap = cap;
        }
        w->line[w->len++] = buf[i];
    }
    return (ssize_t)size;
}

static int wrap_close(void *cookie)
{
    wrapper *w = cookie;
    if (w->len)
        fwrite(w->line, 1, w->len, w->out); /* an unfinished last line, as written */
    free(w->line);
    free(w);
    return 0;
}

FILE *pf_wrap_open(FILE *out, int width)
{
    if (width <= INDENT + 10)
        return out;
    wrapper *w = calloc(1, sizeof *w);
    if (!w)
        return out;
    w->out = out;
    w->width = (size_t)width;
    cookie_io_functions_t io = {.write = wrap_write, .close = wrap_close};
    FILE *f = fopencookie(w, "w", io);
    if (!f) {
        free(w);
        return out;
    }
    setvbuf(f, NULL, _IONBF, 0); /* each write reaches out at once, in order with the tables */
    return f;
}

void pf_wrap_close(FILE *wrapped, const FILE *out)
{
    if (wrapped && wrapped != out)
        fclose(wrapped);
}
