/* demangle.c - an Itanium C++ ABI demangler for kernel names, written as GNU c++filt writes them: nested, local and template names, substitutions, template parameters and packs, types, literals and expressions. One job in one file: a recursive descent whose parts call each other in a circle (type -> name -> template arguments -> type). */
#include "profana/demangle.h"

#include <assert.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#define DEPTH_MAX 256
/* All text made for one name: substitutions can double the output at each reference, so a
 * short hostile name could ask for gigabytes; CK's longest names need under 100 KB. */
#define BYTES_MAX ((size_t)4 << 20)

/* A type as text around the place its declarator goes: "void (*" ")(int)" for a pointer to
 * a function, so that a further '*' or "const" lands inside the parentheses. */
typedef enum { K_PLAIN, K_FUNC, K_DECL, K_ARRAY, K_PACK } kind;

typedef struct dtype {
    const char *pre, *post; /* never NULL once made */
    kind k;
    int simple;             /* as an expression: a name, printed without parentheses; for a
                             * pack, that its list ended in an empty pack */
    const struct dtype *elems; /* a pack's elements (K_PACK) */
    size_t nelems;
    long tparam;            /* a template parameter's index, resolved again where a
                             * substitution names it inside a pack expansion */
} dtype;

typedef struct tlist {
    dtype *a;
    size_t n;
} tlist;

typedef struct dm {
    const char *p;
    dtype *subs;            /* substitution candidates, S_ first */
    size_t nsubs, csubs;
    tlist cur;              /* the template arguments T_ refers to: the encoding's name's last */
    int in_name, level;     /* parsing the encoding's name; template arguments nesting */
    void **allocs;
    size_t nallocs, callocs, bytes;
    int depth, fail;
    const char *last_name;  /* the last source name: what a constructor is called */
    long pack_index;        /* expanding a pack: the element T_ of a pack stands for, else -1 */
    long pack_len;          /* the length of the first pack a pattern met, else -1 */
    tlist last_pack;        /* the last argument list read: a pack's elements */
    int last_quirk;         /* and whether it ended in an empty pack (c++filt's ">>") */
} dm;

static dtype plain(const char *s)
{
    return (dtype){s, "", K_PLAIN, 0, NULL, 0, -1};
}

static int peek(const dm *d, int k)
{
    for (int i = 0; i < k; i++)
        if (!d->p[i])
            return 0;
    return (unsigned char)d->p[k];
}

static int eat(dm *d, char c)
{
    if (*d->p != c)
        return 0;
    d->p++;
    return 1;
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int is_upper(int c)
{
    return c >= 'A' && c <= 'Z';
}

static int is_lower(int c)
{
    return c >= 'a' && c <= 'z';
}

static int is_template_param(const dm *d)
{
    return d->p[0] == 'T' && (d->p[1] == '_' || is_digit(d->p[1]));
}

typedef struct op {
    const char code[3];
    const char *name;
    int arity;
} op;

/* text: every piece lives in d's arena until pf_demangle returns; NULL (and d->fail) when the
 * cap or memory runs out */
static void *alloc(dm *d, size_t n);
static const char *cat(dm *d, int n, ...);
static const char *copy_n(dm *d, const char *s, size_t n);
static const char *whole(dm *d, dtype t);
static int add_sub(dm *d, dtype t);
static long number(dm *d);
static long seq_id(dm *d);
static dtype failed(dm *d);

/* names (demangle.c) */
static const char *source_name(dm *d);
static const char *name(dm *d, const char **quals, int *tmpl);
static const char *encoding(dm *d, int part);
static const char *template_args(dm *d);
static dtype template_param(dm *d);
static dtype param_at(dm *d, long id);
static dtype substitution(dm *d, int *is_st);

/* types, literals and expressions (demangle_type.c) */
static const op *find_op(const dm *d);
static dtype type(dm *d);
static dtype expression(dm *d);
static dtype literal(dm *d);
static const char *params(dm *d);
static dtype expand(dm *d, int expr);


static void *alloc(dm *d, size_t n)
{
    if (d->fail || d->bytes + n > BYTES_MAX) {
        d->fail = 1;
        return NULL;
    }
    if (d->nallocs == d->callocs) {
        size_t c = d->callocs ? 2 * d->callocs : 64;
        void **a = realloc(d->allocs, c * sizeof *a);
        if (!a) {
            d->fail = 1;
            return NULL;
        }
        d->allocs = a;
        d->callocs = c;
    }
    void *m = malloc(n ? n : 1);
    if (!m) {
        d->fail = 1;
        return NULL;
    }
    d->allocs[d->nallocs++] = m;
    d->bytes += n;
    return m;
}

/* The n strings joined (NULLs fail the name). */
static const char *cat(dm *d, int n, ...)
{
    va_list ap;
    size_t len = 0;
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        const char *s = va_arg(ap, const char *);
        if (!s)
            d->fail = 1;
        else
            len += strlen(s);
    }
    va_end(ap);
    char *out = d->fail ? NULL : alloc(d, len + 1);
    if (!out)
        return NULL;
    char *o = out;
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        const char *s = va_arg(ap, const char *);
        size_t l = strlen(s);
        memcpy(o, s, l);
        o += l;
    }
    va_end(ap);
    *o = 0;
    return out;
}

static const char *copy_n(dm *d, const char *s, size_t n)
{
    char *o = alloc(d, n + 1);
    if (!o)
        return NULL;
    memcpy(o, s, n);
    o[n] = 0;
    return o;
}


static const char *whole(dm *d, dtype t)
{
    return cat(d, 2, t.pre, t.post);
}

static int add_sub(dm *d, dtype t)
{
    if (d->fail)
        return -1;
    if (d->nsubs == d->csubs) {
        size_t c = d->csubs ? 2 * d->csubs : 32;
        dtype *s = alloc(d, c * sizeof *s);
        if (!s)
            return -1;
        if (d->nsubs)
            memcpy(s, d->subs, d->nsubs * sizeof *s);
        d->subs = s;
        d->csubs = c;
    }
    d->subs[d->nsubs++] = t;
    return 0;
}






/* A decimal number; -1 when there is none or it is absurd. */
static long number(dm *d)
{
    if (!is_digit(*d->p))
        return -1;
    long n = 0;
    while (is_digit(*d->p)) {
        n = n * 10 + (*d->p++ - '0');
        if (n > 1000000)
            return -1;
    }
    return n;
}

/* <seq-id> in base 36, then '_': 0 for a bare '_', id + 1 otherwise. */
static long seq_id(dm *d)
{
    if (eat(d, '_'))
        return 0;
    long n = 0;
    while (is_digit(*d->p) || is_upper(*d->p)) {
        n = n * 36 + (is_digit(*d->p) ? *d->p - '0' : *d->p - 'A' + 10);
        d->p++;
        if (n > 1000000)
            return -1;
    }
    return eat(d, '_') ? n + 1 : -1;
}
static dtype failed(dm *d)
{
    d->fail = 1;
    return plain("");
}

/* <source-name>: a length and that many characters; GCC's anonymous namespace named. */
static const char *source_name(dm *d)
{
    long n = number(d);
    if (n <= 0)
        return d->fail = 1, NULL;
    for (long i = 0; i < n; i++)
        if (!d->p[i])
            return d->fail = 1, NULL;
    const char *s = d->p;
    d->p += n;
    if (n >= 10 && strncmp(s, "_GLOBAL_", 8) == 0 && strchr("._$", s[8]) && s[9] == 'N')
        return d->last_name = "(anonymous namespace)";
    return d->last_name = copy_n(d, s, (size_t)n);
}
static const char *unqualified_name(dm *d, int *ctor)
{
    const char *s = NULL;
    int c = *d->p;
    if (is_digit(c)) {
        s = source_name(d);
    } else if (c == 'L') { /* internal linkage, maybe a discriminator after */
        d->p++;
        s = source_name(d);
    } else if (c == 'C' && (is_digit(peek(d, 1)) || peek(d, 1) == 'I')) {
        d->p++;
        if (eat(d, 'I')) {
            d->p++;
            (void)type(d);
        } else {
            d->p++;
        }
        *ctor = 1;
        s = d->last_name;
        if (!s)
            d->fail = 1;
    } else if (c == 'D' && is_digit(peek(d, 1))) {
        d->p += 2;
        *ctor = 1;
        s = d->last_name ? cat(d, 2, "~", d->last_name) : (d->fail = 1, NULL);
    } else if (c == 'U' && peek(d, 1) == 't') { /* unnamed type: Ut [n] _ */
        d->p += 2;
        long n = is_digit(*d->p) ? number(d) + 1 : 0;
        if (n < 0 || !eat(d, '_'))
            return d->fail = 1, NULL;
        char num[24];
        snprintf(num, sizeof num, "%ld", n + 1);
        s = cat(d, 3, "{unnamed type#", num, "}");
    } else if (c == 'U' && peek(d, 1) == 'l') { /* lambda: Ul <types> E [n] _ */
        d->p += 2;
        const char *plist = "";
        int first = 1, nparams = 0;
        while (*d->p == 'T' && peek(d, 1) && strchr("ytnpk", peek(d, 1))) { /* template-param-decls: not printed */
            d->p += 2;
            if (d->p[-1] == 'n')
                (void)type(d);
            else if (d->p[-1] != 'y')
                return d->fail = 1, NULL;
        }
        while (!d->fail && *d->p && *d->p != 'E') {
            int v = *d->p == 'v';
            dtype t = type(d);
            nparams++;
            if (v && nparams == 1 && *d->p == 'E')
                break;
            const char *w = whole(d, t);
            if (w && *w) {
                plist = first ? w : cat(d, 3, plist, ", ", w);
                first = 0;
            }
        }
        if (!eat(d, 'E'))
            return d->fail = 1, NULL;
        long n = is_digit(*d->p) ? number(d) + 1 : 0;
        if (n < 0 || !eat(d, '_'))
            return d->fail = 1, NULL;
        char num[24];
        snprintf(num, sizeof num, "%ld", n + 1);
        s = cat(d, 5, "{lambda(", plist, ")#", num, "}");
    } else if (c == 'c' && peek(d, 1) == 'v') {
        d->p += 2;
        *ctor = 1;
        s = cat(d, 2, "operator ", whole(d, type(d)));
    } else if (c == 'l' && peek(d, 1) == 'i') {
        d->p += 2;
        s = cat(d, 3, "operator\"\" ", source_name(d), "");
    } else if (is_lower(c)) {
        const op *o = find_op(d);
        if (!o)
            return d->fail = 1, NULL;
        d->p += 2;
        s = cat(d, 3, "operator", is_lower(o->name[0]) ? " " : "", o->name);
    } else {
        return d->fail = 1, NULL;
    }
    while (!d->fail && *d->p == 'B') { /* ABI tags */
        const char *keep = d->last_name;
        d->p++;
        s = cat(d, 4, s, "[abi:", source_name(d), "]");
        d->last_name = keep;
    }
    return d->fail ? NULL : s;
}

/* <substitution> after its 'S'; *std for the abbreviations (St: "std" as a prefix). */
static dtype substitution(dm *d, int *is_st)
{
    static const struct {
        char c;
        const char *s;
    } STD[] = {{'a', "std::allocator"}, {'b', "std::basic_string"}, {'s', "std::string"},
               {'i', "std::istream"},   {'o', "std::ostream"},      {'d', "std::iostream"}};
    *is_st = 0;
    if (eat(d, 't')) {
        *is_st = 1;
        return plain("std");
    }
    for (size_t i = 0; i < sizeof STD / sizeof STD[0]; i++)
        if (eat(d, STD[i].c)) {
            d->last_name = strrchr(STD[i].s, ':') + 1;
            return plain(STD[i].s);
        }
    long id = seq_id(d);
    if (id < 0 || (size_t)id >= d->nsubs)
        return failed(d);
    if (d->subs[id].tparam >= 0 && d->subs[id].k == K_PACK)
        return param_at(d, d->subs[id].tparam);
    return d->subs[id];
}

/* <template-param> after its 'T'. */
static dtype template_param(dm *d)
{
    long id = eat(d, '_') ? 0 : number(d) + 1; /* decimal, unlike substitutions */
    if (id > 0 && !eat(d, '_'))
        return failed(d);
    return param_at(d, id);
}

static dtype param_at(dm *d, long id)
{
    if (id < 0 || (size_t)id >= d->cur.n)
        return failed(d);
    dtype t = d->cur.a[id];
    t.tparam = id;
    if (t.k == K_PACK && d->pack_index >= 0)
        return (size_t)d->pack_index < t.nelems ? t.elems[d->pack_index] : failed(d);
    if (t.k == K_PACK && d->pack_len < 0)
        d->pack_len = (long)t.nelems;
    return t;
}


/* A literal after its 'L': "5", "5u", "true", "(ck::Enum)1", "&name". */
static const char *template_args(dm *d)
{
    if ((!eat(d, 'I') && !eat(d, 'J')) || d->depth + d->level > DEPTH_MAX)
        return d->fail = 1, NULL;
    const char *keep_name = d->last_name;
    int top = d->in_name && d->level == 0;
    d->level++;
    tlist l = {NULL, 0};
    size_t cap = 0;
    const char *text = "";
    int first = 1, quirk = 0;
    while (!d->fail && *d->p && *d->p != 'E') {
        /* template-param-decls before an argument (Clang 17+): not printed, but their
         * types are substitution candidates */
        while (!d->fail && d->p[0] == 'T' && d->p[1] && strchr("ytnpk", d->p[1])) {
            char k = d->p[1];
            d->p += 2;
            if (k == 'n')
                (void)type(d);
            else if (k != 'y')
                d->fail = 1;
        }
        dtype a;
        if (eat(d, 'L')) {
            a = literal(d);
        } else if (eat(d, 'X')) {
            a = expression(d);
            if (!eat(d, 'E'))
                d->fail = 1;
        } else if (*d->p == 'J') {
            const char *pack = template_args(d); /* "<a, b>" */
            size_t n = pack ? strlen(pack) : 0;
            if (n >= 2 && pack[n - 2] == ' ')
                n--;
            a = (dtype){n >= 2 ? copy_n(d, pack + 1, n - 2) : "", "", K_PACK, d->last_quirk, d->last_pack.a, d->last_pack.n, -1};
        } else {
            a = type(d);
        }
        if (d->fail)
            break;
        if (l.n == cap) {
            cap = cap ? 2 * cap : 8;
            dtype *na = alloc(d, cap * sizeof *na);
            if (!na)
                break;
            if (l.n)
                memcpy(na, l.a, l.n * sizeof *na);
            l.a = na;
        }
        l.a[l.n++] = a;
        if (top)
            d->cur = l;
        const char *w = whole(d, a);
        /* c++filt's quirk: an empty pack after other arguments leaves its ", " as the last
         * character written, so no space goes before the closing '>' */
        quirk = a.k == K_PACK && w && ((!*w && !first) || (*w && a.simple));
        if (w && (*w || a.k != K_PACK)) {
            text = first ? w : cat(d, 3, text, ", ", w);
            first = 0;
        }
    }
    d->level--;
    d->last_name = keep_name;
    if (d->fail || !eat(d, 'E'))
        return d->fail = 1, NULL;
    if (top)
        d->cur = l;
    d->last_pack = l;
    d->last_quirk = quirk;
    size_t n = strlen(text);
    return cat(d, 3, "<", text, n && text[n - 1] == '>' && !quirk ? " >" : ">");
}

/* <nested-name> after its 'N'; *quals gets the member function's qualifiers, *tmpl whether
 * the name ends in template arguments of a function (one with a return type). */
static const char *nested_name(dm *d, const char **quals, int *tmpl)
{
    const char *q = "";
    if (eat(d, 'r'))
        q = " restrict";
    if (eat(d, 'V'))
        q = cat(d, 2, " volatile", q);
    if (eat(d, 'K'))
        q = cat(d, 2, " const", q);
    if (eat(d, 'R'))
        q = cat(d, 2, q, " &");
    else if (eat(d, 'O'))
        q = cat(d, 2, q, " &&");
    *quals = q;
    const char *ret = NULL;
    *tmpl = 0;
    while (!d->fail) {
        int c = *d->p, is_sub = 0, ctor = 0;
        const char *comp;
        if (c == 0) {
            return d->fail = 1, NULL;
        } else if (c == 'E') {
            d->p++;
            return ret ? ret : (d->fail = 1, NULL);
        } else if (c == 'S') {
            d->p++;
            int st;
            dtype s = substitution(d, &st);
            comp = whole(d, s);
            is_sub = 1;
        } else if (c == 'I') {
            if (!ret)
                return d->fail = 1, NULL;
            ret = cat(d, 2, ret, template_args(d));
            *tmpl = *tmpl == -1 ? -1 : 1;
            if (!d->fail && *d->p != 'E' && add_sub(d, plain(ret)))
                return NULL;
            continue;
        } else if (is_template_param(d)) {
            d->p++;
            comp = whole(d, template_param(d));
        } else if (c == 'D' && (peek(d, 1) == 'T' || peek(d, 1) == 't')) {
            comp = whole(d, type(d));
        } else if (c == 'M') {
            d->p++;
            continue;
        } else {
            comp = unqualified_name(d, &ctor);
        }
        *tmpl = 0;
        ret = ret ? cat(d, 3, ret, "::", comp) : comp;
        if (!is_sub && *d->p != 'E' && add_sub(d, plain(ret)))
            return NULL;
        if (ctor)
            *tmpl = -1; /* a constructor: never a return type, even with template arguments */
    }
    return NULL;
}

/* <local-name> after its 'Z': the function, then the entity inside it. */
static const char *local_name(dm *d, const char **quals, int *tmpl)
{
    const char *fn = encoding(d, 2); /* c++filt leaves its return type out */
    if (!eat(d, 'E'))
        return d->fail = 1, NULL;
    const char *ent;
    *quals = "";
    *tmpl = 0;
    if (eat(d, 's')) {
        ent = "string literal";
    } else {
        if (eat(d, 'd')) { /* a default argument's scope */
            if (*d->p != '_' && number(d) < 0)
                return d->fail = 1, NULL;
            if (!eat(d, '_'))
                return d->fail = 1, NULL;
        }
        ent = name(d, quals, tmpl);
    }
    if (eat(d, '_')) { /* discriminator: _ digit, or __ number _ */
        if (eat(d, '_')) {
            if (number(d) < 0 || !eat(d, '_'))
                return d->fail = 1, NULL;
        } else if (!is_digit(*d->p)) {
            return d->fail = 1, NULL;
        } else {
            d->p++;
        }
    }
    return cat(d, 3, fn, "::", ent);
}

static const char *name(dm *d, const char **quals, int *tmpl)
{
    *quals = "";
    *tmpl = 0;
    if (++d->depth > DEPTH_MAX)
        return d->fail = 1, NULL;
    const char *r;
    if (eat(d, 'N')) {
        r = nested_name(d, quals, tmpl);
    } else if (eat(d, 'Z')) {
        r = local_name(d, quals, tmpl);
    } else if (*d->p == 'S' && peek(d, 1) != 't') {
        d->p++;
        int st;
        r = whole(d, substitution(d, &st));
        if (*d->p == 'I') {
            r = cat(d, 2, r, template_args(d));
            *tmpl = 1;
        }
    } else {
        int ctor = 0;
        if (*d->p == 'S') { /* St: std:: */
            d->p += 2;
            r = cat(d, 2, "std::", unqualified_name(d, &ctor));
        } else {
            r = unqualified_name(d, &ctor);
        }
        if (*d->p == 'I') {
            if (add_sub(d, plain(r)))
                return NULL;
            r = cat(d, 2, r, template_args(d));
            *tmpl = ctor ? -1 : 1;
        }
    }
    d->depth--;
    return d->fail ? NULL : r;
}

/* cv-qualifiers applied to a type: "int const", "void (* const)()", a function's "() const". */
/* <encoding>: a function's name and signature, or a data name. part 1: the name without its
 * signature (a function's address in a template argument); 2: without its return type (the
 * function around a local name). */
static const char *encoding(dm *d, int part)
{
    if (++d->depth > DEPTH_MAX)
        return d->fail = 1, NULL;
    if (d->p[0] == 'T' && strchr("VTIS", d->p[1]) && d->p[1]) {
        static const char *const what[] = {"vtable for ", "VTT for ", "typeinfo for ", "typeinfo name for "};
        const char *w = what[strchr("VTIS", d->p[1]) - "VTIS"];
        d->p += 2;
        d->depth--;
        return cat(d, 2, w, whole(d, type(d)));
    }
    if (d->p[0] == 'G' && d->p[1] == 'V') {
        d->p += 2;
        const char *q;
        int t;
        const char *n = name(d, &q, &t);
        d->depth--;
        return cat(d, 2, "guard variable for ", n);
    }
    if (d->p[0] == 'T' || d->p[0] == 'G')
        return d->fail = 1, NULL; /* thunks and other special names */
    const char *q;
    int tmpl, keep = d->in_name;
    d->in_name = 1;
    const char *n = name(d, &q, &tmpl);
    d->in_name = keep;
    if (d->fail)
        return NULL;
    if (!*d->p || *d->p == 'E' || *d->p == '.') {
        d->depth--;
        return n;
    }
    keep = d->in_name;
    d->in_name = 0;
    const char *ret = "";
    if (tmpl == 1) {
        dtype r = type(d);
        ret = cat(d, 2, whole(d, r), " ");
    }
    const char *ps = params(d);
    d->in_name = keep;
    d->depth--;
    if (part == 1)
        return n;
    return cat(d, 4, part == 2 ? "" : ret, n, ps, q);
}
char *pf_demangle(const char *mangled)
{
    assert(mangled != NULL);
    if (strncmp(mangled, "_Z", 2) != 0)
        return NULL;
    dm d;
    memset(&d, 0, sizeof d);
    d.p = mangled + 2;
    d.pack_index = d.pack_len = -1;
    const char *s = encoding(&d, 0);
    /* clone suffixes: ".constprop.0" -> " [clone .constprop.0]" */
    while (!d.fail && d.p[0] == '.' && (is_lower(d.p[1]) || d.p[1] == '_' || is_digit(d.p[1]))) {
        const char *b = d.p++;
        while (is_lower(*d.p) || *d.p == '_' || is_digit(*d.p))
            d.p++;
        while (d.p[0] == '.' && is_digit(d.p[1]))
            for (d.p++; is_digit(*d.p); d.p++)
                ;
        s = cat(&d, 4, s, " [clone ", copy_n(&d, b, (size_t)(d.p - b)), "]");
    }
    char *out = NULL;
    if (!d.fail && s && !*d.p) {
        size_t n = strlen(s);
        if ((out = malloc(n + 1)) != NULL)
            memcpy(out, s, n + 1);
    }
    for (size_t i = 0; i < d.nallocs; i++)
        free(d.allocs[i]);
    free(d.allocs);
    return out;
}

static const op OPS[] = {
    {"aN", "&=", 2}, {"aS", "=", 2},  {"aa", "&&", 2}, {"ad", "&", 1},  {"an", "&", 2},   {"aw", "co_await", 1},
    {"cl", "()", 2}, {"cm", ",", 2},  {"co", "~", 1},  {"dV", "/=", 2}, {"da", "delete[]", 1}, {"de", "*", 1},
    {"dl", "delete", 1}, {"dv", "/", 2}, {"eO", "^=", 2}, {"eo", "^", 2}, {"eq", "==", 2}, {"ge", ">=", 2},
    {"gt", ">", 2},  {"ix", "[]", 2}, {"lS", "<<=", 2}, {"le", "<=", 2}, {"ls", "<<", 2}, {"lt", "<", 2},
    {"mI", "-=", 2}, {"mL", "*=", 2}, {"mi", "-", 2},  {"ml", "*", 2},  {"mm", "--", 1},  {"na", "new[]", 3},
    {"ne", "!=", 2}, {"ng", "-", 1},  {"nt", "!", 1},  {"nw", "new", 3}, {"oR", "|=", 2},  {"oo", "||", 2},
    {"or", "|", 2},  {"pL", "+=", 2}, {"pl", "+", 2},  {"pm", "->*", 2}, {"pp", "++", 1},  {"ps", "+", 1},
    {"pt", "->", 2}, {"qu", "?", 3},  {"rM", "%=", 2}, {"rS", ">>=", 2}, {"rm", "%", 2},  {"rs", ">>", 2},
    {"ss", "<=>", 2},
};

static const op *find_op(const dm *d)
{
    if (!d->p[0] || !d->p[1])
        return NULL;
    for (size_t i = 0; i < sizeof OPS / sizeof OPS[0]; i++)
        if (OPS[i].code[0] == d->p[0] && OPS[i].code[1] == d->p[1])
            return &OPS[i];
    return NULL;
}

/* <unqualified-name>; *ctor set for constructors, destructors and conversions (no return
 * type is mangled for them). */
static dtype literal(dm *d)
{
    if (d->p[0] == '_' && d->p[1] == 'Z') {
        d->p += 2;
        dtype t = plain(encoding(d, 1));
        t.simple = 1;
        return eat(d, 'E') ? t : failed(d);
    }
    int builtin = is_lower(*d->p) && *d->p != 'u';
    char code = *d->p;
    dtype t = type(d);
    if (d->fail)
        return t;
    int neg = eat(d, 'n');
    const char *v = d->p;
    while (*d->p && *d->p != 'E')
        d->p++;
    if (!eat(d, 'E'))
        return failed(d);
    const char *val = copy_n(d, v, (size_t)(d->p - 1 - v));
    const char *sign = neg ? "-" : "";
    if (builtin && code == 'b' && !neg && (strcmp(val, "0") == 0 || strcmp(val, "1") == 0))
        return plain(val[0] == '1' ? "true" : "false");
    if (builtin && strchr("ijlmxy", code)) {
        const char *suffix = code == 'i' ? "" : code == 'j' ? "u" : code == 'l' ? "l" : code == 'm' ? "ul" : code == 'x' ? "ll" : "ull";
        return plain(cat(d, 3, sign, val, suffix));
    }
    return plain(cat(d, 5, "(", whole(d, t), ")", sign, val));
}

/* An expression as c++filt prints it: operands in parentheses but for names. */
static const char *subexpr(dm *d, dtype e)
{
    const char *w = whole(d, e);
    return e.simple ? w : cat(d, 3, "(", w, ")");
}

static dtype expression(dm *d)
{
    if (++d->depth > DEPTH_MAX)
        return failed(d);
    dtype r;
    if (eat(d, 'L')) {
        r = literal(d);
    } else if (is_template_param(d)) {
        d->p++;
        r = template_param(d);
        r.simple = 0;
    } else if (d->p[0] == 'f' && d->p[1] == 'p') {
        d->p += 2;
        while (strchr("rVK", *d->p) && *d->p)
            d->p++;
        long n = eat(d, '_') ? 0 : number(d) + 1;
        if (n < 0 || (n > 0 && !eat(d, '_')))
            return failed(d);
        char num[40];
        snprintf(num, sizeof num, "{parm#%ld}", n + 1);
        r = plain(copy_n(d, num, strlen(num)));
        r.simple = 1;
    } else if (d->p[0] == 's' && d->p[1] == 'p') { /* a pack expansion */
        d->p += 2;
        r = expand(d, 1);
    } else if (d->p[0] == 's' && (d->p[1] == 't' || d->p[1] == 'z')) {
        int is_type = d->p[1] == 't';
        d->p += 2;
        r = plain(cat(d, 3, "sizeof (", whole(d, is_type ? type(d) : expression(d)), ")"));
    } else if (d->p[0] == 'c' && d->p[1] == 'v') {
        d->p += 2;
        dtype t = type(d);
        if (eat(d, '_'))
            return failed(d);
        r = plain(cat(d, 4, "(", whole(d, t), ")", subexpr(d, expression(d))));
    } else {
        const op *o = find_op(d);
        if (!o || strcmp(o->code, "nw") == 0 || strcmp(o->code, "na") == 0)
            return failed(d);
        d->p += 2;
        dtype a = expression(d);
        if (o->arity == 1) {
            r = plain(cat(d, 2, o->name, strcmp(o->code, "ad") == 0 && a.simple ? whole(d, a) : subexpr(d, a)));
        } else if (o->arity == 2) {
            dtype b = expression(d);
            r = plain(cat(d, 3, subexpr(d, a), o->name, subexpr(d, b)));
        } else {
            dtype b = expression(d), c = expression(d);
            r = plain(cat(d, 5, subexpr(d, a), "?", subexpr(d, b), " : ", subexpr(d, c)));
        }
    }
    d->depth--;
    return r;
}

/* A template argument list's text, "<a, b>", with c++filt's "> >". The list is kept for T_
 * when it belongs to the encoding's name (the last one there wins). */
static dtype qualify(dm *d, dtype t, const char *q)
{
    if (t.k == K_FUNC) { /* before a ref-qualifier: "() const &" */
        size_t n = strlen(t.post), r = n >= 3 && strcmp(t.post + n - 3, " &&") == 0 ? 3
                                     : n >= 2 && strcmp(t.post + n - 2, " &") == 0 ? 2 : 0;
        t.post = cat(d, 3, copy_n(d, t.post, n - r), q, t.post + n - r);
    } else
        t.pre = cat(d, 2, t.pre, q);
    return t;
}

/* A pointer, reference or rvalue reference to t. */
static dtype point(dm *d, dtype t, const char *p)
{
    size_t n = strlen(t.pre);
    if (*p == '&' && t.k != K_FUNC && t.k != K_ARRAY && n && t.pre[n - 1] == '&') {
        /* a reference to a reference (a template parameter's): "&" unless both are "&&" */
        int rr = n >= 2 && t.pre[n - 2] == '&';
        if (rr && p[1] != '&')
            t.pre = copy_n(d, t.pre, n - 1);
        return t;
    }
    if (t.k == K_FUNC || t.k == K_ARRAY) {
        t.pre = cat(d, 4, t.pre, t.k == K_ARRAY ? " " : "", "(", p);
        t.post = cat(d, 2, ")", t.post);
        t.k = K_DECL;
    } else {
        t.pre = cat(d, 2, t.pre, p);
    }
    return t;
}

/* A function type's parameter list after the return type: "(int, float)", "()" for a lone
 * void; stops before 'E' or the end. */
static const char *params(dm *d)
{
    const char *text = "";
    int first = 1, n = 0;
    while (!d->fail && *d->p && *d->p != 'E' && *d->p != '.') {
        if ((*d->p == 'R' || *d->p == 'O') && peek(d, 1) == 'E')
            break; /* a ref-qualifier of a function type */
        int v = *d->p == 'v';
        dtype t = type(d);
        n++;
        if (v && n == 1 && (*d->p == 'E' || *d->p == 0 || *d->p == '.' ||
                            ((*d->p == 'R' || *d->p == 'O') && peek(d, 1) == 'E')))
            break;
        const char *w = whole(d, t);
        if (w && (*w || t.k != K_PACK)) {
            text = first ? w : cat(d, 3, text, ", ", w);
            first = 0;
        }
    }
    return cat(d, 3, "(", text, ")");
}
static const struct {
    char c;
    const char *name;
} BUILTIN[] = {
    {'v', "void"},          {'w', "wchar_t"},   {'b', "bool"},          {'c', "char"},
    {'a', "signed char"},   {'h', "unsigned char"}, {'s', "short"},     {'t', "unsigned short"},
    {'i', "int"},           {'j', "unsigned int"},  {'l', "long"},      {'m', "unsigned long"},
    {'x', "long long"},     {'y', "unsigned long long"}, {'n', "__int128"}, {'o', "unsigned __int128"},
    {'f', "float"},         {'d', "double"},    {'e', "long double"},   {'g', "__float128"},
    {'z', "..."},
};

static const struct {
    char c;
    const char *name;
} DBUILTIN[] = {
    {'d', "decimal64"}, {'e', "decimal128"}, {'f', "decimal32"}, {'h', "half"},  {'i', "char32_t"},
    {'s', "char16_t"},  {'u', "char8_t"},    {'a', "auto"},      {'c', "decltype(auto)"},
    {'n', "decltype(nullptr)"},
};

/* Dp's pattern read once (its substitutions made), then again for each element of the pack
 * it names: "DpPT_" with T_ = {int, float} is "int*, float*". */
static dtype expand(dm *d, int expr)
{
    const char *p0 = d->p;
    long keep_index = d->pack_index, keep_len = d->pack_len;
    d->pack_len = -1;
    dtype t = expr ? expression(d) : type(d);
    long n = d->pack_len;
    d->pack_len = keep_len;
    if (d->fail || n < 0 || keep_index >= 0)
        return t;
    const char *end = d->p, *text = "";
    size_t nsubs = d->nsubs;
    for (long i = 0; i < n && !d->fail; i++) {
        d->p = p0;
        d->pack_index = i;
        const char *w = whole(d, expr ? expression(d) : type(d));
        text = i == 0 ? w : cat(d, 3, text, ", ", w);
        d->nsubs = nsubs;
    }
    d->pack_index = keep_index;
    d->p = end;
    return (dtype){text, "", K_PACK, 0, NULL, 0, -1};
}

/* The D-types: extended floats, char types, packs, decltype, vectors. Returns whether the
 * type is a substitution candidate in *sub. */
static dtype d_type(dm *d, int *sub)
{
    *sub = 0;
    int c = *d->p++;
    for (size_t i = 0; i < sizeof DBUILTIN / sizeof DBUILTIN[0]; i++)
        if (c == DBUILTIN[i].c)
            return plain(DBUILTIN[i].name);
    if (c == 'F') { /* DF16b, DF<N>_, DF<N>x */
        if (d->p[0] == '1' && d->p[1] == '6' && d->p[2] == 'b') {
            d->p += 3;
            return plain("std::bfloat16_t");
        }
        long n = number(d);
        if (n < 0)
            return failed(d);
        char buf[40];
        int x = *d->p == 'x';
        if (!eat(d, '_') && !eat(d, 'x'))
            return failed(d);
        snprintf(buf, sizeof buf, "_Float%ld%s", n, x ? "x" : "");
        return plain(copy_n(d, buf, strlen(buf)));
    }
    if (c == 'B' || c == 'U') { /* _BitInt(N) */
        long n = number(d);
        if (n < 0 || !eat(d, '_'))
            return failed(d);
        char buf[48];
        snprintf(buf, sizeof buf, "%s_BitInt(%ld)", c == 'U' ? "unsigned " : "", n);
        return plain(copy_n(d, buf, strlen(buf)));
    }
    *sub = 1;
    if (c == 'p') /* a pack expansion: the pattern once per element of the pack it names */
        return expand(d, 0);
    if (c == 'T' || c == 't') {
        dtype e = expression(d);
        if (!eat(d, 'E'))
            return failed(d);
        return plain(cat(d, 3, "decltype (", whole(d, e), ")"));
    }
    if (c == 'v') { /* Dv <n> _ <type>: GNU vector */
        long n = number(d);
        if (n < 0 || !eat(d, '_'))
            return failed(d);
        char buf[40];
        snprintf(buf, sizeof buf, " __vector(%ld)", n);
        return plain(cat(d, 2, whole(d, type(d)), buf));
    }
    return failed(d);
}

/* F [Y] <return type> <parameters> [R|O] E, after its 'F'. */
static dtype function_type(dm *d)
{
    eat(d, 'Y');
    dtype ret = type(d);
    const char *ps = params(d);
    const char *q = eat(d, 'R') ? " &" : eat(d, 'O') ? " &&" : "";
    if (!eat(d, 'E'))
        return failed(d);
    if (ret.k == K_DECL) /* returning a pointer to a function: "int (*(*)())()" */
        return (dtype){ret.pre, cat(d, 3, ps, q, ret.post), K_FUNC, 0, NULL, 0, -1};
    return (dtype){cat(d, 2, whole(d, ret), " "), cat(d, 2, ps, q), K_FUNC, 0, NULL, 0, -1};
}

/* A <n> _ <type> or A [<expression>] _ <type>, after its 'A'. */
static dtype array_type(dm *d)
{
    const char *dim = "";
    if (is_digit(*d->p)) {
        const char *s = d->p;
        (void)number(d);
        dim = copy_n(d, s, (size_t)(d->p - s));
    } else if (*d->p != '_') {
        dim = whole(d, expression(d));
    }
    if (!eat(d, '_'))
        return failed(d);
    dtype e = type(d);
    if (e.k == K_ARRAY)
        return (dtype){e.pre, cat(d, 4, " [", dim, "]", e.post), K_ARRAY, 0, NULL, 0, -1};
    return (dtype){whole(d, e), cat(d, 3, " [", dim, "]"), K_ARRAY, 0, NULL, 0, -1};
}

/* A pointer to member, M <class> <member type>, after its 'M'. */
static dtype member_type(dm *d)
{
    const char *cls = whole(d, type(d));
    dtype m = type(d);
    if (m.k == K_FUNC)
        return (dtype){cat(d, 4, m.pre, "(", cls, "::*"), cat(d, 2, ")", m.post), K_DECL, 0, NULL, 0, -1};
    return plain(cat(d, 4, whole(d, m), " ", cls, "::*"));
}

/* A vendor's name and its template arguments: u <source-name> [<template-args>] (a type), or
 * U <source-name> [<template-args>] <type> (a qualifier, as address spaces), after the letter. */
static dtype vendor_type(dm *d, int qualifier)
{
    const char *s = source_name(d);
    if (*d->p == 'I')
        s = cat(d, 2, s, template_args(d));
    return qualifier ? qualify(d, type(d), cat(d, 2, " ", s)) : plain(s);
}

/* A substitution as a type, after its 'S'; *sub cleared when it is no new candidate (a bare
 * substitution; the std:: abbreviations without template arguments). */
static dtype sub_type(dm *d, int *sub)
{
    int st;
    dtype r = substitution(d, &st);
    if (*d->p == 'I')
        return plain(cat(d, 2, whole(d, r), template_args(d)));
    *sub = 0;
    return r;
}

/* cv-qualifiers r V K, then the type they qualify. */
static dtype qualified_type(dm *d)
{
    int rs = eat(d, 'r'), v = eat(d, 'V'), k = eat(d, 'K');
    dtype r = type(d);
    if (k)
        r = qualify(d, r, " const");
    if (v)
        r = qualify(d, r, " volatile");
    if (rs)
        r = qualify(d, r, " restrict");
    return r;
}

static dtype type(dm *d)
{
    if (d->fail || ++d->depth > DEPTH_MAX)
        return failed(d);
    int c = *d->p, sub = 1;
    const char *q;
    int t;
    dtype r;
    for (size_t i = 0; i < sizeof BUILTIN / sizeof BUILTIN[0]; i++)
        if (c == BUILTIN[i].c) {
            d->p++;
            d->depth--;
            return plain(BUILTIN[i].name);
        }
    if (c == 'K' || c == 'V' || c == 'r') {
        r = qualified_type(d);
    } else if (c == 'P' || c == 'R' || c == 'O') {
        d->p++;
        r = point(d, type(d), c == 'P' ? "*" : c == 'R' ? "&" : "&&");
    } else if (c == 'C' || c == 'G') {
        d->p++;
        r = type(d);
        r.pre = cat(d, 2, r.pre, c == 'C' ? " _Complex" : " _Imaginary");
    } else if (c == 'F' || c == 'A' || c == 'M' || c == 'D' || c == 'u') {
        d->p++;
        r = c == 'F' ? function_type(d) : c == 'A' ? array_type(d) : c == 'M' ? member_type(d)
          : c == 'D' ? d_type(d, &sub) : vendor_type(d, 0);
    } else if (c == 'T') {
        if (!is_template_param(d))
            return failed(d);
        d->p++;
        r = template_param(d);
        if (*d->p == 'I') { /* a template template parameter with its arguments */
            if (add_sub(d, r))
                return failed(d);
            r = plain(cat(d, 2, whole(d, r), template_args(d)));
        }
    } else if (c == 'U' && is_digit(peek(d, 1))) {
        d->p++;
        r = vendor_type(d, 1);
    } else if (c == 'S' && peek(d, 1) != 't') {
        d->p++;
        r = sub_type(d, &sub);
    } else if (is_digit(c) || c == 'N' || c == 'Z' || c == 'S' || c == 'U') { /* a class or enum's name */
        r = plain(name(d, &q, &t));
    } else {
        return failed(d);
    }
    if (d->fail || !r.pre || !r.post)
        return failed(d);
    if (c != 'T' && c != 'S')
        r.tparam = -1;
    if (sub && add_sub(d, r))
        return failed(d);
    d->depth--;
    return r;
}
