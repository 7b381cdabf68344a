/* names.c - the one shortening rule for row keys (kernel signatures, op keys), used by the text tables and the charts alike, and how colliding short names are told apart. */
#include "profana/names.h"
#include "profana/demangle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copies s without what sits inside <...> (template arguments), in place. A '>' with no '<'
 * open (as in "->") is kept. */
static void drop_templates(char *s)
{
    char *o = s;
    int depth = 0, paren = 0; /* parentheses inside template arguments: "<(8)>(0)>" */
    for (; *s; s++) {
        if (depth > 0 && (*s == '(' || *s == ')'))
            paren += *s == '(' ? 1 : -1;
        else if (*s == '<' && paren <= 0)
            depth++;
        else if (*s == '>' && depth > 0 && paren <= 0)
            depth--;
        else if (depth == 0)
            *o++ = *s;
    }
    *o = 0;
}

/* Cuts a trailing, balanced "(...)": a kernel's argument list. */
static void drop_arg_list(char *s)
{
    size_t n = strlen(s);
    if (n == 0 || s[n - 1] != ')')
        return;
    int depth = 0;
    for (size_t i = n; i-- > 0;) {
        depth += s[i] == ')';
        depth -= s[i] == '(';
        if (depth == 0) {
            if (i > 0)
                s[i] = 0;
            return;
        }
    }
}

static void trim(char *s)
{
    size_t n = strlen(s), b = 0;
    while (n > 0 && s[n - 1] == ' ')
        s[--n] = 0;
    while (s[b] == ' ')
        b++;
    memmove(s, s + b, n - b + 1);
}

/* The last component of a qualified name (at::native::add -> add), in place. */
static void drop_namespaces(char *s)
{
    const char *last = s, *p = s;
    while ((p = strstr(p, "::")) != NULL)
        last = p += 2;
    memmove(s, last, strlen(last) + 1);
    trim(s);
}

/* The name of a kernel's first template argument that is not a number (its functor, in
 * ATen's element-wise kernels), without its own arguments and namespaces, into out; "" when
 * there is none. s starts after the function name's '<'. */
static void first_type_arg(const char *s, char *out, size_t n)
{
    out[0] = 0;
    while (*s) {
        while (*s == ' ')
            s++;
        size_t len = 0;
        int depth = 0, paren = 0; /* angle brackets inside parentheses are operators: "(8)>(0)" */
        while (s[len] && !(depth == 0 && paren == 0 && (s[len] == ',' || s[len] == '>'))) {
            paren += (s[len] == '(') - (s[len] == ')');
            if (paren == 0)
                depth += (s[len] == '<') - (s[len] == '>');
            len++;
        }
        /* numbers, "-1" and expressions or casts ("(ck::Enum)1", "((8)>(0))") are values */
        int value = (s[0] >= '0' && s[0] <= '9') || s[0] == '-' ||
                    (s[0] == '(' && strncmp(s, "(anonymous namespace)", 21) != 0);
        if (len && !value) {
            size_t cut = 0; /* to the argument's own '<' or '(', "(anonymous namespace)" passed over */
            while (s[cut] && !strchr("<(", s[cut]))
                cut++;
            while (strncmp(s + cut, "(anonymous namespace)", 21) == 0) {
                cut += 21;
                while (s[cut] && !strchr("<(", s[cut]))
                    cut++;
            }
            snprintf(out, n, "%.*s", (int)(cut < len ? cut : len), s);
            drop_namespaces(out);
            return;
        }
        if (s[len] != ',')
            return;
        s += len + 1;
    }
}

/* Where the signature's name ends: its template arguments' '<' or its argument list's '('
 * (not that of "(anonymous namespace)"), whichever comes first; NULL for a plain name. */
static const char *name_end(const char *s)
{
    const char *lt = strchr(s, '<'), *paren = s;
    while ((paren = strchr(paren, '(')) != NULL && strncmp(paren, "(anonymous namespace)", 21) == 0)
        paren += 21;
    if (lt && (!paren || lt < paren))
        return lt;
    return paren;
}

/* Where a signature's qualified function name starts, past its return type, which may hold
 * templates and expressions of its own ("std::enable_if<!(false), void>::type
 * internal::gemvx::kernel<...>(...)"): found from the end, over the argument list and the
 * function's template arguments (angle brackets inside parentheses are operators), back to a
 * space outside brackets. The key itself when it is no signature ("Memcpy DtoD (Device ->
 * Device)", "nvjet_...") or has no return type. */
static const char *skip_return_type(const char *key)
{
    size_t n = strlen(key);
    if (n == 0 || key[n - 1] != ')')
        return key;
    long i = (long)n - 1;
    int depth = 0;
    for (; i >= 0; i--) { /* the argument list */
        depth += (key[i] == ')') - (key[i] == '(');
        if (depth == 0)
            break;
    }
    i--;
    if (i >= 0 && key[i] == '>') { /* the function's template arguments */
        int angle = 0, paren = 0;
        for (; i >= 0; i--) {
            paren += (key[i] == ')') - (key[i] == '(');
            if (paren == 0)
                angle += (key[i] == '>') - (key[i] == '<');
            if (angle == 0 && paren == 0)
                break;
        }
        i--;
    }
    if (i < 0 || key[i] == ' ')
        return key;
    int angle = 0, paren = 0;
    for (; i >= 0; i--) { /* the qualified name, "(anonymous namespace)" and "{lambda(int)#1}" inside */
        paren += (key[i] == ')' || key[i] == '}') - (key[i] == '(' || key[i] == '{');
        if (paren == 0)
            angle += (key[i] == '>') - (key[i] == '<');
        if (paren == 0 && angle == 0 && key[i] == ' ')
            return key + i + 1;
        if (paren < 0 || angle < 0)
            return key;
    }
    return key;
}

static const char *skip_void(const char *key)
{
    key = skip_return_type(key);
    return strncmp(key, "void ", 5) == 0 ? key + 5 : key;
}

/* A template argument that names a scalar type ("int", "unsigned long", "__nv_bfloat16"):
 * after a name as plain as "kernel" it tells nothing. */
static int scalar_type(const char *s)
{
    static const char *const WORDS[] = {"int", "unsigned", "signed", "long", "short", "char", "float", "double",
                                        "bool", "half", "__half", "__nv_bfloat16", "__hip_bfloat16", "bfloat16_t"};
    if (!*s)
        return 1;
    for (size_t i = 0; i < sizeof WORDS / sizeof WORDS[0]; i++)
        if (strncmp(s, WORDS[i], strlen(WORDS[i])) == 0 && (!s[strlen(WORDS[i])] || s[strlen(WORDS[i])] == ' '))
            return 1;
    return 0;
}

/* The scope around a function named only "kernel" (cuBLAS' internal::gemvx::kernel): the
 * last namespace or class of name (templates and arguments dropped) but "(anonymous
 * namespace)", into out; "" when there is none. */
static void kernel_scope(const char *name, char *out, size_t n)
{
    out[0] = 0;
    size_t len = strlen(name);
    char *s = malloc(len + 1);
    if (!s)
        return;
    memcpy(s, name, len + 1);
    drop_templates(s);
    drop_arg_list(s);
    trim(s);
    const char *parts[64];
    int k = 0;
    parts[k++] = s;
    for (char *p = strstr(s, "::"); p && k < 64; p = strstr(p + 2, "::")) {
        p[0] = p[1] = 0;
        parts[k++] = p + 2;
    }
    for (int i = k - 2; i >= 0; i--) /* parts[k - 1] is the function */
        if (*parts[i] && strcmp(parts[i], "(anonymous namespace)") != 0) {
            snprintf(out, n, "%s", parts[i]);
            break;
        }
    free(s);
}

/* base<functor> of a C++ kernel signature into buf; the key itself when that leaves nothing. */
static void kernel_base_name(const char *key, char *buf, size_t n)
{
    const char *s = skip_void(key), *end = name_end(s);
    char arg[128], scope[128];
    arg[0] = scope[0] = 0;
    if (end && *end == '<')
        first_type_arg(end + 1, arg, sizeof arg);
    snprintf(buf, n, "%s", s);
    drop_templates(buf);
    drop_arg_list(buf);
    trim(buf);
    drop_namespaces(buf);
    if (!*buf) {
        snprintf(buf, n, "%s", key);
        return;
    }
    /* a function named only "kernel" keeps its scope ("gemvx::kernel"), and a scalar first
     * argument ("int") says nothing of it: "<...>" */
    if (strcmp(buf, "kernel") == 0) {
        kernel_scope(s, scope, sizeof scope);
        if (*scope)
            snprintf(buf, n, "%s::kernel", scope);
        if (end && *end == '<' && scalar_type(arg))
            snprintf(arg, sizeof arg, "...");
    }
    if (*arg) {
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "<%s>", arg);
    }
}

const char *pf_name_short(const char *key, int kernel, char *buf, size_t n)
{
    if (n == 0)
        return buf;
    char *plain = kernel ? pf_demangle(key) : NULL; /* ROCm's kernels come mangled */
    if (kernel)
        kernel_base_name(plain ? plain : key, buf, n);
    else
        snprintf(buf, n, "%s", key);
    free(plain);
    return buf;
}

static size_t count_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* Where the '<' that the final '>' closes sits, in characters from the start; 0 when the name
 * does not end in template arguments. */
static size_t template_tail(const char *s, size_t chars)
{
    size_t n = strlen(s), c = chars;
    if (n == 0 || s[n - 1] != '>')
        return 0;
    int depth = 0;
    for (size_t i = n; i-- > 0;) {
        c -= ((unsigned char)s[i] & 0xC0) != 0x80;
        depth += s[i] == '>';
        depth -= s[i] == '<';
        if (depth == 0)
            return c;
    }
    return 0;
}

/* A cut keeps at least this many characters of a kernel's name before its "<functor>". */
#define HEAD_MIN 8

void pf_name_cut(char *buf, int limit)
{
    size_t chars = count_chars(buf);
    if (limit <= 3 || chars <= (size_t)limit)
        return;
    size_t tail = ((size_t)limit - 3) / 2, head = (size_t)limit - 3 - tail;
    /* "vectorized_elementwise_kernel<CUDAFunctor_add>": what tells kernels apart is the
     * functor, so it stays whole when the name keeps a few characters of its own */
    size_t lt = template_tail(buf, chars);
    if (lt > 0 && chars - lt + 3 + HEAD_MIN <= (size_t)limit) {
        tail = chars - lt;
        head = (size_t)limit - 3 - tail;
    }
    /* tail 0 (a limit of 4 keeps one character and "..."): the tail starts at the end */
    size_t i = 0, c = 0, head_end = 0, tail_start = strlen(buf);
    for (; buf[i]; i++) {
        if (((unsigned char)buf[i] & 0xC0) == 0x80)
            continue;
        if (c == head)
            head_end = i;
        if (c == chars - tail)
            tail_start = i;
        c++;
    }
    memcpy(buf + head_end, "...", 3);
    memmove(buf + head_end + 3, buf + tail_start, strlen(buf + tail_start) + 1);
}

/* ---- telling colliding names apart ---- */

/* A member of a group of keys whose short names collide. */
typedef struct member {
    size_t i;                  /* index into the keys */
    const char *key;
    const char *shown;         /* its short name, for sorting */
} member;

static int is_word(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The p-th word (letters, digits, '_') of the key after its name, namespaces ("at::") and
 * "(anonymous namespace)" left out, into w; 0 when the key has fewer words. */
static int word_at(const char *key, int p, char *w, size_t n)
{
    const char *s = skip_void(key), *end = name_end(s);
    if (!end)
        return 0;
    for (s = end; *s;) {
        if (!is_word(*s)) {
            s++;
            continue;
        }
        size_t len = 0;
        while (is_word(s[len]))
            len++;
        int qualifier = s[len] == ':' && s[len + 1] == ':';
        int anon = (len == 9 && strncmp(s, "anonymous", 9) == 0) || (len == 9 && strncmp(s, "namespace", 9) == 0);
        if (!qualifier && !anon && p-- == 0) {
            snprintf(w, n, "%.*s", (int)len, s);
            return 1;
        }
        s += len;
    }
    return 0;
}

/* Appends "...word" to out[i] before its closing '>' (or as "<...word>" when it has none). */
static int append_word(char **out, size_t i, const char *word)
{
    size_t len = strlen(out[i]), wl = strlen(word);
    char *s = malloc(len + wl + 6);
    if (!s)
        return -1;
    if (len > 0 && out[i][len - 1] == '>')
        snprintf(s, len + wl + 6, "%.*s...%s>", (int)(len - 1), out[i], word);
    else
        snprintf(s, len + wl + 6, "%s<...%s>", out[i], word);
    free(out[i]);
    out[i] = s;
    return 0;
}

static int append_suffix(char **out, size_t i, size_t k)
{
    size_t len = strlen(out[i]) + 24;
    char *s = malloc(len);
    if (!s)
        return -1;
    snprintf(s, len, "%s #%zu", out[i], k);
    free(out[i]);
    out[i] = s;
    return 0;
}

#define WORD_MAX 256
/* How deep words are compared before numbering: a key has fewer words than this in practice. */
#define WORDS_MAX 4096

/* Tells apart the m members of g (all with the same shown name) from word p on: the first word
 * at which they differ is appended to each, and members still sharing it recurse. */
static int distinguish(member *g, size_t m, int p, char **out)
{
    char a[WORD_MAX], b[WORD_MAX];
    for (; p < WORDS_MAX; p++) {
        int differ = 0, any = 0;
        int ha = word_at(g[0].key, p, a, sizeof a);
        any |= ha;
        for (size_t j = 1; j < m && !differ; j++) {
            int hb = word_at(g[j].key, p, b, sizeof b);
            any |= hb;
            differ = ha != hb || (ha && strcmp(a, b) != 0);
        }
        if (differ)
            break;
        if (!any) { /* the words ran out: alike but for namespaces or punctuation */
            for (size_t j = 1; j < m; j++)
                if (append_suffix(out, g[j].i, j + 1))
                    return -1;
            return 0;
        }
    }
    if (p == WORDS_MAX)
        return 0;
    /* members with the same word at p form a run after a stable partition by that word */
    for (size_t j = 0; j < m;) {
        if (!word_at(g[j].key, p, a, sizeof a))
            snprintf(a, sizeof a, "-");
        size_t run = j + 1;
        for (size_t k = j + 1; k < m; k++) {
            if (!word_at(g[k].key, p, b, sizeof b))
                snprintf(b, sizeof b, "-");
            if (strcmp(a, b) != 0)
                continue;
            member t = g[k];
            memmove(&g[run + 1], &g[run], (k - run) * sizeof *g);
            g[run++] = t;
        }
        for (size_t k = j; k < run; k++)
            if (append_word(out, g[k].i, a))
                return -1;
        if (run - j > 1 && distinguish(g + j, run - j, p + 1, out))
            return -1;
        j = run;
    }
    return 0;
}

static int cmp_member(const void *x, const void *y)
{
    const member *a = x, *b = y;
    int c = strcmp(a->shown, b->shown);
    return c ? c : (a->i > b->i) - (a->i < b->i);
}

static void free_all(char **out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(out[i]);
        out[i] = NULL;
    }
}

static void free_plain(char **plain, size_t n)
{
    for (size_t i = 0; plain && i < n; i++)
        free(plain[i]);
    free(plain);
}

int pf_names_short_set(const char *const *keys, size_t n, int kernel, char **out)
{
    memset(out, 0, n * sizeof *out);
    member *ms = malloc((n ? n : 1) * sizeof *ms);
    /* mangled keys are told apart by their demangled words */
    char **plain = kernel ? calloc(n ? n : 1, sizeof *plain) : NULL;
    for (size_t i = 0; ms && (plain || !kernel) && i < n; i++) {
        if (plain)
            plain[i] = pf_demangle(keys[i]);
        const char *key = plain && plain[i] ? plain[i] : keys[i];
        size_t len = strlen(key) + 8; /* "x::kernel<...>" can outgrow "x::kernel<i>()" */
        if (!(out[i] = malloc(len)))
            break;
        pf_name_short(key, kernel, out[i], len);
    }
    if (!ms || (kernel && !plain) || (n && !out[n - 1])) {
        free(ms);
        free_plain(plain, n);
        free_all(out, n);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        ms[i] = (member){i, plain && plain[i] ? plain[i] : keys[i], out[i]};
    qsort(ms, n, sizeof *ms, cmp_member);
    /* the short names point into out, which distinguish rewrites: a group's are let go of
     * before it is, and the next group's are still as pf_name_short wrote them */
    for (size_t j = 0; j < n;) {
        size_t e = j + 1;
        while (e < n && strcmp(ms[e].shown, ms[j].shown) == 0)
            e++;
        for (size_t k = j; k < e; k++)
            ms[k].shown = NULL;
        if (e - j > 1 && distinguish(ms + j, e - j, 0, out)) {
            free(ms);
            free_plain(plain, n);
            free_all(out, n);
            return -1;
        }
        j = e;
    }
    free(ms);
    free_plain(plain, n);
    return 0;
}
