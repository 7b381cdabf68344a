/* splice.h - edits planned against the original bytes of a JSON text and written out applied: how --augment_trace and --combine change a trace without re-serialising it. */
/* layer: rewrite (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_SPLICE_H
#define PROFANA_SPLICE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profana/jscan.h"

/* Replace source bytes [start, end) with text[off, off + len) of the splice's arena; an
 * insertion has start == end. */
typedef struct pf_edit {
    size_t start, end;
    size_t off, len;
} pf_edit;

/* Planned edits, sorted by position and never overlapping, and the text they insert. */
typedef struct pf_splice {
    pf_edit *edits;
    size_t n, cap;
    char *text;
    size_t text_len, text_cap;
} pf_splice;

/* A pair to put into an object. key is plain text written between quotes as it is (no
 * characters that need escaping); val is the value's JSON text. When has_num, num is the
 * value as a number: an existing value that reads as exactly that number keeps its text. */
typedef struct pf_kv {
    const char *key;
    const char *val;
    double num;
    int has_num;
} pf_kv;

/* At most this many pairs per pf_splice_obj_pairs / pf_splice_event_args call. */
#define PF_SPLICE_MAX_PAIRS 32

/* An empty plan. */
void pf_splice_init(pf_splice *sp);

/* Frees the plan's memory; sp is left empty and reusable. */
void pf_splice_free(pf_splice *sp);

/* Plans replacing s[start, end) with text[0, len); start == end inserts. Edits may be
 * planned in any order; insertions at one offset keep the order they were planned in and
 * come before a replacement starting there. Returns 0, or -1 when memory runs out or the
 * edit overlaps one already planned (the plan is then unchanged). */
int pf_splice_put(pf_splice *sp, size_t start, size_t end, const char *text, size_t len);

/* Writes s from *cursor to the end of the last planned edit to f with the edits applied,
 * forgets the edits and moves *cursor there. Every planned edit must start at or after
 * *cursor. Returns 0, or -1 when an edit lies before *cursor or a write fails. */
int pf_splice_flush(pf_splice *sp, const char *s, size_t *cursor, FILE *f);

/* Plans putting kv[0, n) into the object whose '{' is at s[obj] (after optional
 * whitespace): each member whose key equals a pair's key (every such member, if the key is
 * repeated) gets the pair's value in place of its own; the other pairs are appended after
 * the last member as `, "key": val` (after the '{' and without the comma when the object
 * is empty). Returns 0; or -1 with e filled when the text at obj is not a valid object, or
 * with e->what "out of memory" (and e->pos = obj) when the plan cannot grow; n must not
 * exceed PF_SPLICE_MAX_PAIRS. */
int pf_splice_obj_pairs(pf_splice *sp, const char *s, size_t len, size_t obj, const pf_kv *kv,
                        size_t n, pf_jerr *e);

/* Plans putting kv[0, n) into the "args" object of the event object at s[ev]: as
 * pf_splice_obj_pairs when its args are an object; a new member `, "args": {"key": val,
 * ...}` after the event's last member when it has none. Returns 0; 1 when the event's
 * args exist but are not an object (nothing planned); -1 as pf_splice_obj_pairs. */
int pf_splice_event_args(pf_splice *sp, const char *s, size_t len, size_t ev, const pf_kv *kv,
                         size_t n, pf_jerr *e);

/* pf_splice_obj_pairs for an object already known to span s[obj, obj + n) (the loader
 * notes where each event's args are): the object is read member by member only when a key
 * could be one of kv's (it holds a '_' or an escape); otherwise the pairs go straight
 * before its '}'. Returns 0; -1 as pf_splice_obj_pairs, or when s[obj, obj + n) does not
 * begin with '{' and end with '}' (the text is not the one the extent was taken from). */
int pf_splice_obj_pairs_at(pf_splice *sp, const char *s, size_t len, size_t obj, size_t n, const pf_kv *kv,
                           size_t nkv, pf_jerr *e);

/* A caller's list of n items (events) in text order, for pf_splice_write_parallel. start
 * gives where item k's edits may begin (nondecreasing in k; its edits lie before the next
 * item's start). plan puts item k's edits into sp and returns 0, or -1 with e filled (e->pos:
 * the byte where the text stops making sense). Both are called from several threads at
 * once, each with its own sp: they must only read shared state. */
typedef struct pf_splice_items {
    size_t n;
    size_t (*start)(void *ctx, size_t item);
    int (*plan)(void *ctx, size_t item, pf_splice *sp, pf_jerr *e);
    void *ctx;
    /* Optional (NULL): told, on the writing thread, that s[from, upto) is written and will
     * not be read again, so that a mapped source can hand those pages back. */
    void (*written)(void *ctx, size_t upto);
} pf_splice_items;

/* Writes s[from, to) to f with the items' edits applied (item 0 starts at or after from; the
 * last item's edits end by to). Runs of consecutive items are planned, and their text
 * assembled, by `jobs` threads at once (0: one per core), in rounds written in order, so
 * memory stays bounded whatever the size. Returns 0; -1 with *e from the first failing item
 * (in item order) or e->what "out of memory" (the output is then incomplete); -2 when a
 * write fails (errno says why). */
int pf_splice_write_parallel(const char *s, size_t from, size_t to, const pf_splice_items *it, int jobs,
                             FILE *f, pf_jerr *e);

#endif
