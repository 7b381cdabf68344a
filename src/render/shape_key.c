/* shape_key.c - fits a --group shape key ("aten::addmm([4096]bf16, [4096,1024]bf16, [1024,4096]bf16, 1, 1)") to a width the way a reader needs it: scalars and trailing defaults go first, then the op name shrinks, and every tensor's dims stay; a middle cut only when even that is too wide. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "profana/names.h"
#include "view_parts.h"

enum { ARGS_MAX = 64 };

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

/* Writes OP(ARG,ARG...) into out (n bytes): the first keep arguments, those that are not
 * tensors as "_" when scalars is 0, ",.." for the ones dropped; sep between arguments. */
static void join(const key_parts *p, const char *op, int keep, int scalars, const char *sep, char *out, size_t n)
{
    size_t len = (size_t)snprintf(out, n, "%s(", op);
    for (int i = 0; i < keep && len < n; i++)
        len += (size_t)snprintf(out + len, n - len, "%s%s", i ? sep : "", p->tensor[i] || scalars ? p->args[i] : "_");
    if (keep < p->nargs && len < n)
        len += (size_t)snprintf(out + len, n - len, "%s..", keep ? sep : "");
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
    /* the ladder, least lost first; the first rung that fits is taken */
    const struct {
        const char *op;
        int keep, scalars;
        const char *sep;
    } rung[] = {
        {p->op, keep, 1, ", "}, /* trailing defaults and scalars dropped */
        {p->op, keep, 0, ", "}, /* scalars between tensors as "_" */
        {p->op, keep, 0, ","},  /* no space after commas */
        {op, keep, 0, ","},     /* the op without its namespace */
    };
    int done = 0;
    for (size_t r = 0; r < sizeof rung / sizeof rung[0] && !done; r++) {
        join(p, rung[r].op, rung[r].keep, rung[r].scalars, rung[r].sep, out, 4096);
        done = chars(out) <= (size_t)limit;
    }
    if (!done) { /* the op name cut in its middle, down to 6 characters, the dims whole */
        join(p, "", keep, 0, ",", out, 4096);
        size_t dims = chars(out);
        if (dims + 6 <= (size_t)limit) {
            pf_name_cut(op, (int)((size_t)limit - dims));
            join(p, op, keep, 0, ",", out, 4096);
            done = chars(out) <= (size_t)limit;
        }
    }
    if (done && strlen(out) <= strlen(buf))
        memcpy(buf, out, strlen(out) + 1);
    else
        pf_name_cut(buf, limit);
    free(p);
    free(out);
}
