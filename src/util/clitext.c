/* clitext.c - two text chores of the command line: roff escaping for the man page, and the edit distance behind "did you mean". */
#include "profana/clitext.h"

#include <assert.h>
#include <string.h>

void pf_roff_text(FILE *out, const char *s, size_t n)
{
    assert(out && s);
    for (size_t k = 0; k < n; k++) {
        if ((k == 0 || s[k - 1] == '\n') && (s[k] == '.' || s[k] == '\''))
            fputs("\\&", out);
        if (s[k] == '\\')
            fputs("\\e", out);
        else if (s[k] == '-')
            fputs("\\-", out);
        else
            fputc(s[k], out);
    }
}

void pf_roff_line(FILE *out, const char *s)
{
    assert(out && s);
    pf_roff_text(out, s, strlen(s));
    fputc('\n', out);
}

static int dash(char c)
{
    return c == '-' || c == '_';
}

size_t pf_name_distance(const char *a, size_t n, const char *b)
{
    assert(a && b);
    enum { MAXLEN = 64 };
    size_t m = strlen(b);
    if (n >= MAXLEN || m >= MAXLEN)
        return (size_t)-1;
    size_t row[MAXLEN + 1];
    for (size_t j = 0; j <= m; j++)
        row[j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t up = row[j];
            int same = a[i - 1] == b[j - 1] || (dash(a[i - 1]) && dash(b[j - 1]));
            size_t best = diag + !same;
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[m];
}


void pf_print_wrapped(FILE *out, const char *text, size_t col, size_t indent, size_t width)
{
    assert(text && indent < width && col <= width);
    while (*text) {
        size_t room = width - col, n = strlen(text);
        if (n > room) {
            size_t cut = room;
            while (cut > 0 && text[cut] != ' ')
                cut--;
            if (cut == 0) /* one word wider than the room: up to its end */
                cut = strcspn(text, " ");
            n = cut;
        }
        fprintf(out, "%.*s\n", (int)n, text);
        text += n;
        while (*text == ' ')
            text++;
        if (*text)
            fprintf(out, "%*s", (int)indent, "");
        col = indent;
    }
}
