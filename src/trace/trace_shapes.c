/* trace_shapes.c - event shapes: learns the constant text of an event between its values, and reads later events of that shape by comparing text and scanning values only. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "../json/jscan_prim.h"
#include "trace_event.h"

enum {
    SHAPES = 64,               /* shapes kept per thread (least recently used goes) */
    SHAPE_TEXT = 2048,         /* constant text of one shape, at most */
    TRIES = 8                  /* shapes tried per event before the general parser */
};

/* A value: the constant text before it, and where its extent goes. */
typedef struct step {
    uint16_t at, len;          /* the constant text: text[at, at + len) */
    int8_t field;              /* E_*, ARG_FIELD(A_*), or -1 */
    uint8_t depth;
} step;

/* ph and cat are part of the constant text; their extents are at fixed places in it. */
typedef struct embed {
    int8_t field;
    uint8_t step;              /* in the constant text of this step (n_steps: the tail) */
    uint16_t off, len;
} embed;

/* A byte of the constant text that a field's extent starts or ends at: the args object's
 * braces, which lie between its members' values. */
typedef struct mark {
    int8_t step;               /* in this step's text (n_steps: the tail); -1 none */
    uint16_t off;
} mark;

/* The first bytes of a shape's text (up to its first value, at most PREFIX): events of
 * other shapes mostly differ there, so they are told apart by one comparison. */
enum { PREFIX = 32 };

typedef struct shape {
    char prefix[PREFIX];
    size_t prefix_len;
    char text[SHAPE_TEXT];
    step steps[REC_MAX];
    int n_steps;
    uint16_t tail_at, tail_len; /* after the last value: the closing braces */
    embed embeds[2];
    int n_embeds;
    mark args_open, args_close;
    uint64_t embed_steps;      /* bit k: an embed lies in step k's text */
} shape;

struct pf_shapes {
    shape *shapes;             /* SHAPES + 1: one is where the next shape is built */
    int n;
    int order[SHAPES];         /* most recently matched first */
    int spare;                 /* the slot not in use */
};

pf_shapes *pf_shapes_new(void)
{
    pf_shapes *sh = calloc(1, sizeof *sh);
    if (sh && !(sh->shapes = malloc((SHAPES + 1) * sizeof *sh->shapes))) {
        free(sh);
        return NULL;
    }
    return sh;
}

void pf_shapes_free(pf_shapes *sh)
{
    if (!sh)
        return;
    free(sh->shapes);
    free(sh);
}

/* ---- matching ---- */

static uint64_t load8(const char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* a[0, n) == b[0, n): the constant texts are short (a key, its spacing), so a few
 * overlapping 8-byte comparisons beat a call to memcmp. */
static int same_text(const char *a, const char *b, size_t n)
{
    if (n >= 8 && n <= 32) {
        size_t last = n - 8;
        int eq = load8(a) == load8(b) && load8(a + last) == load8(b + last);
        for (size_t i = 8; eq && i < last; i += 8)
            eq = load8(a + i) == load8(b + i);
        return eq;
    }
    return memcmp(a, b, n) == 0;
}

/* The constant text c[0, n) at s[*p]: FAST_OK past it, FAST_SLOW when it differs,
 * FAST_TRUNC when the window ends in a prefix of it. */
static int match_text(const char *s, size_t len, size_t *p, const char *c, size_t n)
{
    if (*p + n > len)
        return memcmp(s + *p, c, len - *p) == 0 ? FAST_TRUNC : FAST_SLOW;
    if (!same_text(s + *p, c, n))
        return FAST_SLOW;
    *p += n;
    return FAST_OK;
}

/* One value, validated as the scanner would; a name also learns whether it is plain. */
static int match_value(const char *s, size_t len, size_t *p, const step *st, ev_fields *f)
{
    pf_jerr e;
    char c = s[*p];
    int r;
    if (js_is_ws(c))
        return FAST_SLOW; /* spacing the shape does not have: its constant text ends at the value */
    if (c == '"' && st->field == E_NAME && (r = ev_plain_name(s, len, p, f)) != FAST_SLOW)
        return r;
    if (c == '"')
        r = js_skip_string(s, len, p, &e);
    else if (c == '-' || (c >= '0' && c <= '9'))
        r = js_skip_number(s, len, p, &e);
    else
        r = js_skip_value(s, len, p, st->depth, &e);
    if (r == 0)
        return FAST_OK;
    return e.truncated ? FAST_TRUNC : FAST_SLOW;
}

static void set_field(ev_fields *f, int field, size_t a, size_t b)
{
    size_t *sp = field < N_EV ? f->ev[field] : f->arg[field - N_EV];
    sp[0] = a;
    sp[1] = b;
}

static void put_embeds(const shape *sh, int k, size_t at, ev_fields *f)
{
    if (!(sh->embed_steps & (UINT64_C(1) << k)))
        return;
    for (int i = 0; i < sh->n_embeds; i++)
        if (sh->embeds[i].step == k)
            set_field(f, sh->embeds[i].field, at + sh->embeds[i].off, at + sh->embeds[i].off + sh->embeds[i].len);
}

/* The args object's extent, from its braces in the constant text of steps k. */
static void put_marks(const shape *sh, int k, size_t at, ev_fields *f)
{
    if (sh->args_open.step == k)
        f->ev[E_ARGS][0] = at + sh->args_open.off;
    if (sh->args_close.step == k)
        f->ev[E_ARGS][1] = at + sh->args_close.off + 1;
}

/* The event at s[p] read with shape sh; f must be all zero. *wrote: f was written to. */
static int match_shape(const shape *sh, const char *s, size_t len, size_t p, ev_fields *f, size_t *end, int *wrote)
{
    *wrote = 0;
    if (p + sh->prefix_len > len || !same_text(s + p, sh->prefix, sh->prefix_len))
        return p + sh->prefix_len > len && memcmp(s + p, sh->prefix, len - p) == 0 ? FAST_TRUNC : FAST_SLOW;
    for (int k = 0; k <= sh->n_steps; k++) {
        const step *st = k < sh->n_steps ? &sh->steps[k] : NULL;
        size_t at = p;
        int r = match_text(s, len, &p, sh->text + (st ? st->at : sh->tail_at), st ? st->len : sh->tail_len);
        if (r != FAST_OK)
            return r;
        *wrote = 1;
        put_embeds(sh, k, at, f);
        put_marks(sh, k, at, f);
        if (!st)
            break;
        if (p >= len)
            return FAST_TRUNC; /* the value begins beyond the window */
        size_t vs = p;
        if ((r = match_value(s, len, &p, st, f)) != FAST_OK)
            return r;
        if (st->field >= 0)
            set_field(f, st->field, vs, p);
    }
    *end = p;
    return FAST_OK;
}

static void to_front(pf_shapes *sh, int i)
{
    int id = sh->order[i];
    memmove(sh->order + 1, sh->order, (size_t)i * sizeof *sh->order);
    sh->order[0] = id;
}

int pf_shapes_match(pf_shapes *sh, const char *s, size_t len, size_t p, ev_fields *f, size_t *end)
{
    assert(sh != NULL && s != NULL && f != NULL && end != NULL);
    assert(p < len && s[p] == '{');
    int tries = 0;
    memset(f, 0, sizeof *f);
    for (int i = 0; i < sh->n && tries < TRIES; i++) {
        int wrote, r = match_shape(&sh->shapes[sh->order[i]], s, len, p, f, end, &wrote);
        if (r == FAST_OK)
            to_front(sh, i);
        if (r != FAST_SLOW)
            return r;
        if (wrote) { /* a shape whose start differs costs next to nothing */
            tries++;
            memset(f, 0, sizeof *f);
        }
    }
    return FAST_SLOW;
}

/* ---- learning ---- */

/* Appends s[a, b) to the shape's text; -1 when it does not fit. */
static int add_text(shape *sh, size_t *used, const char *s, size_t a, size_t b, uint16_t *at, uint16_t *n)
{
    if (b - a > SHAPE_TEXT - *used)
        return -1;
    memcpy(sh->text + *used, s + a, b - a);
    *at = (uint16_t)*used;
    *n = (uint16_t)(b - a);
    *used += b - a;
    return 0;
}

/* ph and cat (plain strings) stay in the constant text: events of other kinds then differ
 * within their first bytes. */
static int is_embedded(const char *s, const ev_record *rec, int i)
{
    int f = rec->field[i];
    return (f == E_PH || f == E_CAT) && s[rec->vs[i]] == '"' && rec->ve[i] - rec->vs[i] < 64;
}

/* Notes x as a mark when it lies in the constant text s[a, b) of step k. */
static void place_mark(mark *m, size_t x, int k, size_t a, size_t b)
{
    if (x >= a && x < b) {
        m->step = (int8_t)k;
        m->off = (uint16_t)(x - a);
    }
}

static void place_marks(shape *sh, const ev_record *rec, int k, size_t a, size_t b)
{
    if (!rec->args_close)
        return;
    place_mark(&sh->args_open, rec->args_open, k, a, b);
    place_mark(&sh->args_close, rec->args_close, k, a, b);
}

static int build(shape *sh, const char *s, size_t start, size_t end, const ev_record *rec)
{
    size_t used = 0, prev = start;
    sh->n_steps = sh->n_embeds = 0;
    sh->embed_steps = 0;
    sh->args_open.step = sh->args_close.step = -1;
    for (int i = 0; i < rec->n; i++) {
        if (is_embedded(s, rec, i)) {
            sh->embeds[sh->n_embeds++] = (embed){rec->field[i], (uint8_t)sh->n_steps, (uint16_t)(rec->vs[i] - prev),
                                                 (uint16_t)(rec->ve[i] - rec->vs[i])};
            sh->embed_steps |= UINT64_C(1) << sh->n_steps;
            continue;
        }
        step *st = &sh->steps[sh->n_steps++];
        if (add_text(sh, &used, s, prev, rec->vs[i], &st->at, &st->len))
            return -1;
        place_marks(sh, rec, sh->n_steps - 1, prev, rec->vs[i]);
        st->field = rec->field[i];
        st->depth = rec->depth[i];
        prev = rec->ve[i];
    }
    if (add_text(sh, &used, s, prev, end, &sh->tail_at, &sh->tail_len))
        return -1;
    place_marks(sh, rec, sh->n_steps, prev, end);
    size_t first = sh->n_steps ? sh->steps[0].len : sh->tail_len;
    sh->prefix_len = first < PREFIX ? first : PREFIX;
    memcpy(sh->prefix, sh->text, sh->prefix_len);
    return 0;
}

void pf_shapes_learn(pf_shapes *sh, const char *s, size_t start, size_t end, const ev_record *rec)
{
    assert(sh != NULL && s != NULL && rec != NULL);
    assert(start < end && s[start] == '{' && s[end - 1] == '}');
    if (rec->n < 0 || build(&sh->shapes[sh->spare], s, start, end, rec))
        return;
    if (sh->n < SHAPES) {
        memmove(sh->order + 1, sh->order, (size_t)sh->n * sizeof *sh->order);
        sh->order[0] = sh->spare;
        sh->n++;
        sh->spare = sh->n; /* slots fill in order; when all SHAPES are used, the extra one */
        return;
    }
    /* Full: the new shape takes the place of the least recently matched one. */
    int old = sh->order[SHAPES - 1];
    memmove(sh->order + 1, sh->order, (SHAPES - 1) * sizeof *sh->order);
    sh->order[0] = sh->spare;
    sh->spare = old;
}
