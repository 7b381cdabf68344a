/* shape_key.c - fits a --group shape key ("aten::addmm([4096]bf16, [4096,1024]bf16, [1024,4096]bf16, 1, 1)") to a width the way a reader needs it: scalars and trailing defaults go first, then the op name shrinks, then equal tensors in a row merge ("5x[8,16,512,64]bf16"), then whole tensors between the first and the last go; a tensor shown keeps all its dims. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "profana/names.h"
#include "view_parts.h"

enum { ARGS_MAX = 64 };

/* The op name's length kept before tensors are left out: "triton_red...ew_15" still names a
 * kernel, "tr...15" does not. */
enum { OP_READABLE = 16 };

/* A key split at its top-level commas: op name, then each argument (trimmed). */
typedef struct key_parts {
    char op[256];
    char *args[ARGS_MAX];
    int nargs;
    int tensor[ARGS_MAX];
    char buf[2048];
} key_parts;

/* A tensor argument: "[dims]dtype", "[]long int" or "list[dims]TensorList": dims, then the
 * name of a type. "[1024]" (an int list) and "[True, True]" are not: no type follows. */
static int is_tensor(const char *a)
{
    const char *close = strrchr(a, ']');
    if (!close || !(a[0] == '[' || strncmp(a, "list[", 5) == 0))
        return 0;
    char t = close[1];
    return (t >= 'a' && t <= 'z') || (t >= 'A' && t <= 'Z');
}

static size_t chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* Splits key into p; 0, or -1 when it is not OP(ARGS) or too long to split here. */
static int split(const char *key, key_parts *p)
{
    const char *open = strchr(key, '(');
    size_t len = strlen(key);
    if (!open || len < 2 || key[len - 1] != ')' || (size_t)(open - key) >= sizeof p->op || len >= sizeof p->buf)
        return -1;
    /* OP(ARGS) whole: its '(' closes at the end ("A(..) vs B(..)", a --diff row matched under
     * two keys, is not one key, and is cut in its middle) */
    int level = 0;
    for (const char *c = open; *c; c++) {
        level += *c == '(' ? 1 : *c == ')' ? -1 : 0;
        if (level == 0 && c[1])
            return -1;
    }
    memcpy(p->op, key, (size_t)(open - key));
    p->op[open - key] = 0;
    size_t body = len - (size_t)(open - key) - 2;
    memcpy(p->buf, open + 1, body);
    p->buf[body] = 0;
    p->nargs = 0;
    int depth = 0;
    char *start = p->buf;
    for (char *c = p->buf;; c++) {
        if (*c == '[' || *c == '(')
            depth++;
        else if ((*c == ']' || *c == ')') && depth > 0)
            depth--;
        if (*c && (*c != ',' || depth > 0))
            continue;
        if (p->nargs == ARGS_MAX)
            return -1;
        int end = *c == 0;
        *c = 0;
        while (*start == ' ')
            start++;
        if (*start || !end || p->nargs)
            p->args[p->nargs++] = start;
        if (end)
            break;
        start = c + 1;
    }
    for (int i = 0; i < p->nargs; i++)
        p->tensor[i] = is_tensor(p->args[i]);
    return 0;
}

/* What a cut key shows, in order: an argument (arg >= 0), `count` equal tensors in a row as
 * one "Nx[dims]dtype", or the ".." of arguments left out (arg -1). */
typedef struct item {
    int arg, count;
} item;

/* The first keep arguments as items, equal tensors in a row merged when merge is set, a ".."
 * for the arguments past keep. Returns the number of items (at most ARGS_MAX + 1). */
static int items_of(const key_parts *p, int keep, int merge, item *it)
{
    int n = 0;
    for (int i = 0; i < keep; i++) {
        if (merge && n && it[n - 1].arg >= 0 && p->tensor[i] && strcmp(p->args[it[n - 1].arg], p->args[i]) == 0) {
            it[n - 1].count++;
            continue;
        }
        it[n++] = (item){i, 1};
    }
    if (keep < p->nargs)
        it[n++] = (item){-1, 0};
    return n;
}

/* Writes OP(ITEM,ITEM...) into out (n bytes): arguments that are not tensors as "_" when
 * scalars is 0; sep between items. */
static void join(const key_parts *p, const char *op, const item *it, int nit, int scalars, const char *sep, char *out,
                 size_t n)
{
    size_t len = (size_t)snprintf(out, n, "%s(", op);
    for (int i = 0; i < nit && len < n; i++) {
        const char *s = it[i].arg < 0 ? ".." : p->tensor[it[i].arg] || scalars ? p->args[it[i].arg] : "_";
        if (it[i].count > 1)
            len += (size_t)snprintf(out + len, n - len, "%s%dx%s", i ? sep : "", it[i].count, s);
        else
            len += (size_t)snprintf(out + len, n - len, "%s%s", i ? sep : "", s);
    }
    if (len < n)
        snprintf(out + len, n - len, ")");
}

/* How many arguments remain once the trailing ones that are not tensors are dropped. */
static int keep_through_last_tensor(const key_parts *p)
{
    int k = p->nargs;
    while (k > 0 && !p->tensor[k - 1])
        k--;
    return k;
}

/* OP(ITEMS) with the op's name cut in its middle to what the items leave of limit, down to
 * op_min characters (or its whole length, if shorter); 1 when it fits. */
static int join_cut_op(const key_parts *p, const char *op, const item *it, int nit, char *out, size_t n, int limit,
                       size_t op_min)
{
    join(p, "", it, nit, 0, ",", out, n);
    size_t dims = chars(out);
    if (op_min > chars(op))
        op_min = chars(op);
    if (dims + op_min > (size_t)limit)
        return 0;
    char name[256];
    snprintf(name, sizeof name, "%s", op);
    pf_name_cut(name, (int)((size_t)limit - dims));
    join(p, name, it, nit, 0, ",", out, n);
    return chars(out) <= (size_t)limit;
}

/* The items of a cut with the first `front` and last `back` tensor items of all (nall, a
 * trailing ".." of its own when all ends with one) and a ".." between them. */
static int ends_items(const item *all, int body, int trailing, int front, int back, item *it)
{
    int k = 0;
    for (int i = 0; i < front; i++)
        it[k++] = all[i];
    it[k++] = (item){-1, 0};
    for (int i = body - back; i < body; i++)
        it[k++] = all[i];
    if (trailing && back > 0)
        it[k++] = (item){-1, 0};
    return k;
}

/* The widest OP(FIRST,..,LAST) that fits limit: whole tensors from both ends (the first one
 * always), the arguments between as one ".."; the op's name cut as join_cut_op cuts it, to no
 * fewer than op_min characters. 1 when one fits. */
static int join_ends(const key_parts *p, const char *op, const item *all, int nall, char *out, size_t n, int limit,
                     size_t op_min)
{
    item t[ARGS_MAX + 1], it[ARGS_MAX + 3];
    int body = 0, trailing = nall && all[nall - 1].arg < 0;
    for (int i = 0; i < nall; i++)
        if (all[i].arg >= 0 && p->tensor[all[i].arg])
            t[body++] = all[i];
    if (body == 0)
        return 0;
    int front = 1, back = 0, grew = 1;
    /* one more from the front, then one more from the back, while they fit and leave one out */
    while (grew) {
        grew = 0;
        for (int side = 0; side < 2; side++) {
            int f = front + (side == 0), b = back + (side == 1);
            if (f + b >= body || !join_cut_op(p, op, it, ends_items(t, body, trailing, f, b, it), out, n, limit, op_min))
                continue;
            front = f, back = b, grew = 1;
        }
    }
    return join_cut_op(p, op, it, ends_items(t, body, trailing, front, back, it), out, n, limit, op_min);
}

void pf_shape_key_cut(char *buf, int limit)
{
    assert(buf);
    if (limit <= 3 || chars(buf) <= (size_t)limit)
        return;
    key_parts *p = malloc(sizeof *p);
    char *out = malloc(4096);
    if (!p || !out || split(buf, p)) {
        free(p);
        free(out);
        pf_name_cut(buf, limit);
        return;
    }
    int keep = keep_through_last_tensor(p);
    const char *ns = strstr(p->op, "::");
    char op[256];
    snprintf(op, sizeof op, "%s", ns ? ns + 2 : p->op);
    item plain[ARGS_MAX + 1], merged[ARGS_MAX + 1];
    int nplain = items_of(p, keep, 0, plain), nmerged = items_of(p, keep, 1, merged);
    /* the ladder, least lost first; the first rung that fits is taken */
    const struct {
        const char *op;
        const item *it;
        int nit, scalars;
        const char *sep;
    } rung[] = {
        {p->op, plain, nplain, 1, ", "}, /* trailing defaults and scalars dropped */
        {p->op, plain, nplain, 0, ", "}, /* scalars between tensors as "_" */
        {p->op, plain, nplain, 0, ","},  /* no space after commas */
        {op, plain, nplain, 0, ","},     /* the op without its namespace */
    };
    int done = 0;
    for (size_t r = 0; r < sizeof rung / sizeof rung[0] && !done; r++) {
        join(p, rung[r].op, rung[r].it, rung[r].nit, rung[r].scalars, rung[r].sep, out, 4096);
        done = chars(out) <= (size_t)limit;
    }
    /* then the op's name cut in its middle, the dims whole: every tensor, then equal tensors
     * in a row as one "Nx[dims]dtype", while the op keeps OP_READABLE characters, then 10;
     * then whole tensors left out between the first and the last ones (a tensor is shown with
     * all its dims or not at all: a cut inside one reads as another shape); then all three
     * with the op down to 6 */
    const struct {
        size_t op_min;
        int ends; /* 0: plain, 1: merged, 2: ends */
    } step[] = {{OP_READABLE, 0}, {OP_READABLE, 1}, {10, 0}, {10, 1}, {OP_READABLE, 2}, {6, 0}, {6, 1}, {6, 2}};
    for (size_t k = 0; k < sizeof step / sizeof step[0] && !done; k++)
        done = step[k].ends == 2 ? join_ends(p, op, merged, nmerged, out, 4096, limit, step[k].op_min)
                                 : join_cut_op(p, op, step[k].ends ? merged : plain, step[k].ends ? nmerged : nplain,
                                               out, 4096, limit, step[k].op_min);
    if (done && strlen(out) <= strlen(buf))
        memcpy(buf, out, strlen(out) + 1);
    else
        pf_name_cut(buf, limit);
    free(p);
    free(out);
}
