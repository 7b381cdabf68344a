/* jsonw.h - a small JSON writer, so every subcommand's JSON is escaped and shaped the same way (src/render/jsonw.c). */
/* layer: render (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_JSONW_H
#define PROFANA_JSONW_H

#include <stdint.h>
#include <stdio.h>

/* The writer's state: where it writes and, per open object or array, whether the next
 * member needs a comma. Nesting deeper than 63 levels keeps writing but no longer tracks
 * commas for the deeper levels (no document of profana's comes near). */
typedef struct pf_jw {
    FILE *out;
    int depth;
    int need_comma[64];
} pf_jw;

/* Sets w up to write on out (non-NULL), at depth 0 with no member written. */
void pf_jw_init(pf_jw *w, FILE *out);
/* Writes '{' (a comma before it when it follows a sibling) and enters the object. */
void pf_jw_obj_begin(pf_jw *w);
/* Opens a document: '{' and its first member, "schema": PF_JSON_SCHEMA (include/profana/jscan.h),
 * so a reader tells which version of the document it holds before anything else. */
void pf_jw_doc_begin(pf_jw *w);
/* Writes '}' and leaves the object pf_jw_obj_begin entered. */
void pf_jw_obj_end(pf_jw *w);
/* Writes '[' (a comma before it when it follows a sibling) and enters the array. */
void pf_jw_arr_begin(pf_jw *w);
/* Writes ']' and leaves the array pf_jw_arr_begin entered. */
void pf_jw_arr_end(pf_jw *w);
/* Writes the member name k (non-NULL, escaped, made valid UTF-8) and ':' inside an object;
 * the value written next follows without a comma. */
void pf_jw_key(pf_jw *w, const char *k);
/* Writes s as a JSON string (escaped, made valid UTF-8); NULL writes null. */
void pf_jw_str(pf_jw *w, const char *s);
/* Writes v: an integral value below 1e15 without a fraction, others with 17 significant
 * digits; a non-finite v writes null. */
void pf_jw_num(pf_jw *w, double v);
/* Writes v as an integer. */
void pf_jw_int(pf_jw *w, int64_t v);
/* Writes v as an unsigned integer (an id of the trace: unsigned 64-bit, kept as its bit pattern). */
void pf_jw_u64(pf_jw *w, uint64_t v);
/* Writes true for a non-zero v, false for 0. */
void pf_jw_bool(pf_jw *w, int v);
/* Writes null. */
void pf_jw_null(pf_jw *w);

#endif
