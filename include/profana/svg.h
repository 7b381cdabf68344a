/* svg.h - a small XML/HTML writer for the charts and the report: every text escaped, numbers printed the same way everywhere. */
/* layer: render (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_SVG_H
#define PROFANA_SVG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PF_XW_MAX_DEPTH 32

/* Writes one document element by element. In HTML mode an empty element gets an end tag
 * (<td></td>) except the void ones (<meta>), while inside <svg> elements close as in XML
 * (<circle/>), which HTML parsers accept in foreign content. */
typedef struct pf_xw {
    FILE *out;
    int html;                  /* HTML syntax outside <svg> */
    int open;                  /* a start tag is still open: attributes may follow */
    int depth;
    int svg_depth;             /* depth of the outermost <svg>; 0 = none open */
    const char *stack[PF_XW_MAX_DEPTH];
    int too_deep;              /* elements past PF_XW_MAX_DEPTH were dropped (a caller bug) */
} pf_xw;

/* Starts a writer on out; html selects HTML syntax (see pf_xw). */
void pf_xw_init(pf_xw *w, FILE *out, int html);

/* Opens element tag (a string that outlives the element, e.g. a literal). */
void pf_xw_begin(pf_xw *w, const char *tag);
/* Adds an attribute to the element just opened; value is escaped; NULL adds nothing. Ignored
 * once the element has content. */
void pf_xw_attr(pf_xw *w, const char *name, const char *value);
/* An attribute holding a coordinate: pf_num_fmt with 2 decimals. */
void pf_xw_attr_num(pf_xw *w, const char *name, double v);
/* An attribute holding a measured value: 6 significant digits ("%.6g"). */
void pf_xw_attr_sig(pf_xw *w, const char *name, double v);
/* An attribute holding a count or nanoseconds: v rounded to a whole number. */
void pf_xw_attr_int(pf_xw *w, const char *name, double v);
/* An attribute holding an exact integer (a time in ns since boot or the epoch, a count): all
 * its digits, where a double would round it and pf_xw_attr_int clamps it at 1e15. */
void pf_xw_attr_i64(pf_xw *w, const char *name, int64_t v);
/* Character data, escaped (& < > " and invalid UTF-8 or control characters replaced). */
void pf_xw_text(pf_xw *w, const char *s);
/* Markup written as it is: only for the writer's own constant style and script text. */
void pf_xw_raw(pf_xw *w, const char *s);
/* Closes the innermost open element. */
void pf_xw_end(pf_xw *w);
/* begin + text + end: an element that holds only text. */
void pf_xw_elem(pf_xw *w, const char *tag, const char *text);

/* Writes s escaped for XML/HTML text and attribute values: & < > " as entities, control
 * characters other than tab and newline and every byte that is not part of valid UTF-8 as
 * U+FFFD, so any kernel name yields a well-formed document. */
void pf_xml_escape(FILE *out, const char *s);

/* Formats v with `decimals` decimals, trailing zeros and a trailing '.' dropped, never "-0",
 * and "0" for a non-finite value, into buf. Deterministic: C locale, no exponent. Returns buf. */
const char *pf_num_fmt(char *buf, size_t n, double v, int decimals);

#endif
