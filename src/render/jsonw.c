/* jsonw.c - the one JSON writer every view writes through (include/profana/jsonw.h): commas, nesting, string escaping and number formats, so each subcommand's JSON is shaped the same way. */
#include "profana/jsonw.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profana/jscan.h"

void pf_jw_init(pf_jw *w, FILE *out)
{
    assert(w && out);
    memset(w, 0, sizeof *w);
    w->out = out;
}

static void jw_sep(pf_jw *w)
{
    if (w->need_comma[w->depth])
        fputc(',', w->out);
    w->need_comma[w->depth] = 1;
}

static void jw_open(pf_jw *w, char c)
{
    jw_sep(w);
    fputc(c, w->out);
    if (w->depth < 63)
        w->depth++;
    w->need_comma[w->depth] = 0;
}

static void jw_close(pf_jw *w, char c)
{
    fputc(c, w->out);
    if (w->depth > 0)
        w->depth--;
}

void pf_jw_obj_begin(pf_jw *w)
{
    jw_open(w, '{');
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

/* Names from the trace are clean already; a path from the command line need not be: the
 * same rule (pf_json_text_dup) keeps every JSON document valid UTF-8. */
static void jw_string(FILE *out, const char *s)
{
    char *clean = pf_json_text_dup(s);
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)(clean ? clean : s); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
    free(clean);
}

void pf_jw_key(pf_jw *w, const char *k)
{
    assert(w && w->out && k);
    jw_sep(w);
    jw_string(w->out, k);
    fputc(':', w->out);
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
