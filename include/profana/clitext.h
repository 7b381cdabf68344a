/* clitext.h - two text chores of the command line: roff escaping for the man page, and the edit distance behind "did you mean". */
/* layer: util (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_CLITEXT_H
#define PROFANA_CLITEXT_H

#include <stddef.h>
#include <stdio.h>

/* Writes the n bytes at s to out as roff text: backslashes and hyphens escaped (so options
 * print as typed), and each line that would begin with a control character ('.' or an
 * apostrophe) guarded. out and s non-NULL (s may hold no NUL within n). */
void pf_roff_text(FILE *out, const char *s, size_t n);

/* pf_roff_text of the string s, then a newline. */
void pf_roff_line(FILE *out, const char *s);

/* Edit distance between the n characters at a and the string b, '-' and '_' alike (as an
 * option's spellings are); names are short (under 64 characters), longer ones count as far
 * ((size_t)-1). a and b non-NULL. Pure. */
size_t pf_name_distance(const char *a, size_t n, const char *b);

/* Writes text to out, its first line starting at column col (already printed), wrapped at the
 * last space before column width, further lines indented by indent spaces; a word longer than
 * the room is printed whole. text non-NULL, indent < width, col <= width. */
void pf_print_wrapped(FILE *out, const char *text, size_t col, size_t indent, size_t width);

#endif
