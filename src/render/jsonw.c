/* jsonw.c - the one JSON writer every view writes through (include/profana/jsonw.h): commas, nesting, string escaping and number formats, so each subcommand's JSON is shaped the same way. */
#include "profana/jsonw.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profana/jscan.h"

/* Characters go out with putc_unlocked: the writer is used from one thread, and fputc takes
 * the stream lock per character once the program has started threads. */
void pf_jw_init(pf_jw *w, FILE *out)
{
    assert(w && out);
    memset(w, 0, sizeof *w);
    w->out = out;
}

static void jw_sep(pf_jw *w)
{
    if (w->need_comma[w->depth])
        putc_unlocked(',', w->out);
    w->need_comma[w->depth] = 1;
}

static void jw_open(pf_jw *w, char c)
{
    jw_sep(w);
    putc_unlocked(c, w->out);
    if (w->depth < 63)
        w->depth++;
    w->need_comma[w->depth] = 0;
}

static void jw_close(pf_jw *w, char c)
{
    putc_unlocked(c, w->out);
    if (w->depth > 0)
        w->depth--;
}

void pf_jw_obj_begin(pf_jw *w)
{
    jw_open(w, '{');
}

void pf_jw_doc_begin(pf_jw *w)
{
    assert(w && w->depth == 0);
    jw_open(w, '{');
    pf_jw_key(w, "schema");
    pf_jw_str(w, PF_JSON_SCHEMA);
}

void pf_jw_obj_end(pf_jw *w)
{
    jw_close(w, '}');
}

void pf_jw_arr_begin(pf_jw *w)
{
    jw_open(w, '[');
}

void pf_jw_arr_end(pf_jw *w)
{
    jw_close(w, ']');
}

/* Whether pf_json_text_dup would return s unchanged: printable ASCII, tabs and line ends
 * (it turns other controls, DEL and anything not UTF-8 into U+FFFD). */
static int jw_is_plain(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if ((*p < 0x20 && *p != '\t' && *p != '\n') || *p >= 0x7F)
            return 0;
    return 1;
}

/* Names from the trace are clean already; a path from the command line need not be: the
 * same rule (pf_json_text_dup) keeps every JSON document valid UTF-8. Runs of characters
 * that need no escape go out in one fwrite: a report of 65,536 devices writes 170 MB. */
static void jw_string(FILE *out, const char *s)
{
    char *clean = jw_is_plain(s) ? NULL : pf_json_text_dup(s);
    const unsigned char *p = (const unsigned char *)(clean ? clean : s);
    putc_unlocked('"', out);
    for (;;) {
        const unsigned char *run = p;
        while (*p && *p != '"' && *p != '\\' && *p >= 0x20)
            p++;
        if (p > run)
            fwrite(run, 1, (size_t)(p - run), out);
        if (!*p)
            break;
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else
            fprintf(out, "\\u%04x", *p);
        p++;
    }
    putc_unlocked('"', out);
    free(clean);
}

void pf_jw_key(pf_jw *w, const char *k)
{
    assert(w && w->out && k);
    jw_sep(w);
    jw_string(w->out, k);
    putc_unlocked(':', w->out);
    /* The value that follows must not write another comma. */
    w->need_comma[w->depth] = 0;
}

static void jw_value_done(pf_jw *w)
{
    w->need_comma[w->depth] = 1;
}

void pf_jw_str(pf_jw *w, const char *s)
{
    if (!s) {
        pf_jw_null(w);
        return;
    }
    jw_sep(w);
    jw_string(w->out, s);
    jw_value_done(w);
}

void pf_jw_num(pf_jw *w, double v)
{
    if (!isfinite(v)) {
        pf_jw_null(w);
        return;
    }
    jw_sep(w);
    if (v == floor(v) && fabs(v) < 1e15)
        fprintf(w->out, "%.0f", v);
    else
        fprintf(w->out, "%.17g", v);
    jw_value_done(w);
}

void pf_jw_int(pf_jw *w, int64_t v)
{
    jw_sep(w);
    fprintf(w->out, "%" PRId64, v);
    jw_value_done(w);
}

void pf_jw_u64(pf_jw *w, uint64_t v)
{
    jw_sep(w);
    fprintf(w->out, "%" PRIu64, v);
    jw_value_done(w);
}

void pf_jw_bool(pf_jw *w, int v)
{
    jw_sep(w);
    fputs(v ? "true" : "false", w->out);
    jw_value_done(w);
}

void pf_jw_null(pf_jw *w)
{
    jw_sep(w);
    fputs("null", w->out);
    jw_value_done(w);
}
