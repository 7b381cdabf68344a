/* jscan.h - a validating JSON scanner over a byte buffer: finds value extents without building trees. */
/* layer: json (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_JSCAN_H
#define PROFANA_JSCAN_H

#include <stddef.h>
#include <stdint.h>

/* The schema every JSON document profana writes names in its first member ("schema"): a
 * version that changes only on a breaking change of a document (docs/schema/). */
#define PF_JSON_SCHEMA "profana/1"

/* Nesting deeper than this is refused (a documented limit, docs/reliability.md, "Limits"). */
#define PF_JSON_MAX_DEPTH 512

/* Where and why scanning stopped. pos is a byte offset into the buffer. */
typedef struct pf_jerr {
    size_t pos;
    const char *what;          /* static text: "expected ',' or '}'" */
    int truncated;             /* 1 when the buffer ended inside a value */
} pf_jerr;

/* A member of an object: offsets into the buffer. The key excludes its quotes. */
typedef struct pf_jmember {
    size_t key_start, key_end;
    size_t val_start, val_end;
} pf_jmember;

/* Returns the offset of the first non-whitespace byte at or after pos (len if none). */
size_t pf_json_ws(const char *s, size_t len, size_t pos);

/* Skips one complete, valid JSON value starting at *pos (whitespace allowed before it).
 * On success sets *pos just past the value and returns 0; on error fills *e, returns -1. */
int pf_json_skip(const char *s, size_t len, size_t *pos, pf_jerr *e);

/* pf_json_skip for a value nested depth levels deep (the top-level value is depth 1), so
 * that the nesting limit counts from the top of the document. */
int pf_json_skip_at(const char *s, size_t len, size_t *pos, int depth, pf_jerr *e);

/* A string at *pos ('"') of printable ASCII with no escape: returns 1 and sets *pos past its
 * closing quote; 0 when it holds an escape, a control byte or a non-ASCII byte (read it
 * with pf_json_skip and pf_json_string); -1 when it runs past len. */
int pf_json_plain_string(const char *s, size_t len, size_t *pos);

/* Iterates an object or array. begin expects '{' (or '[' for arrays) at *pos after
 * whitespace and leaves *pos inside the container. next returns 1 with the next member
 * (for arrays, key_start == key_end == value start), 0 at the closing bracket (*pos past
 * it), or -1 on error with *e filled. The value is validated. */
int pf_json_obj_begin(const char *s, size_t len, size_t *pos, pf_jerr *e);
int pf_json_obj_next(const char *s, size_t len, size_t *pos, pf_jmember *m, pf_jerr *e);
int pf_json_arr_begin(const char *s, size_t len, size_t *pos, pf_jerr *e);
int pf_json_arr_next(const char *s, size_t len, size_t *pos, size_t *val_start, size_t *val_end,
                     pf_jerr *e);

/* 1 when the key of m equals the NUL-terminated lit. */
int pf_json_key_is(const char *s, const pf_jmember *m, const char *lit);

/* Parses a JSON number in [start, end) holding microseconds ("4461120283193.266") as
 * exact integer nanoseconds. Returns 0, or -1 when it is not a number or out of range. */
int pf_json_us_to_ns(const char *s, size_t start, size_t end, int64_t *ns);

/* Parses a JSON integer (or a number with a zero fraction) in [start, end).
 * Quoted integers ("7") are accepted too: some producers write ids as strings.
 * Returns 0, or -1 when it is not an integer that fits int64. */
int pf_json_int(const char *s, size_t start, size_t end, int64_t *v);

/* Parses any JSON number in [start, end) as a double. Returns 0 or -1. */
int pf_json_double(const char *s, size_t start, size_t end, double *v);

/* Decodes the JSON string in [start, end) (quotes included) into a NUL-terminated buffer
 * that the caller frees. Invalid UTF-8, lone surrogates, NUL and the other control
 * characters but tab and newline (C0, DEL, C1: terminal escapes) become U+FFFD, so a name
 * from the trace is valid UTF-8 in every output and cannot drive a terminal. Returns NULL when the
 * value is not a string or memory runs out. *out_len (may be NULL) receives the length. */
char *pf_json_string(const char *s, size_t start, size_t end, size_t *out_len);

/* The same rule for text already decoded (a cJSON string): a copy the caller frees, with
 * invalid UTF-8 and those control characters as U+FFFD; NULL when memory runs out. */
char *pf_json_text_dup(const char *s);

/* Rewrites in place each lone surrogate escape (a \uD800-\uDFFF that is not half of a
 * pair) in the JSON text s[0, len) as \ufffd, the same length, so that a strict parser
 * (cJSON refuses the whole document for one) reads the rest, and the character shows as
 * U+FFFD like other invalid UTF-8. Returns how many were rewritten. */
size_t pf_json_fix_surrogates(char *s, size_t len);

#endif
