/* triton.c - figures of Inductor's Triton launches: bytes and FLOPs from the generated module's text (source "triton-src"), else a lower bound from the trace alone (source "triton~lb"). */
#include "families.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profana/dtype.h"
#include "profana/satmath.h"
#include "profana/triton.h"

int pf_triton_is_launch(const char *name)
{
    return name && strncmp(name, "triton_", 7) == 0;
}

/* Whether name is an Inductor template launch (triton_tem_*): a GEMM or attention template,
 * whose launch records no kernel_file. */
static int triton_is_template(const char *name)
{
    return name && strncmp(name, "triton_tem_", 11) == 0;
}

/* ---- the module's text ---- */

typedef struct span {
    const char *s;
    size_t n;
} span;

static int span_is(span a, const char *lit)
{
    size_t n = strlen(lit);
    return a.n == n && memcmp(a.s, lit, n) == 0;
}

static int span_starts(span a, const char *lit)
{
    size_t n = strlen(lit);
    return a.n >= n && memcmp(a.s, lit, n) == 0;
}

/* First occurrence of lit in text[from, len); len when absent. */
static size_t find(const char *text, size_t len, size_t from, const char *lit)
{
    size_t n = strlen(lit);
    for (size_t i = from; n <= len && i + n <= len; i++)
        if (text[i] == lit[0] && memcmp(text + i, lit, n) == 0)
            return i;
    return len;
}

static int is_ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Element size of a Triton pointer type's pointee ("bf16" of "*bf16"); 0 when unknown. */
static int pointee_size(span t)
{
    static const struct {
        const char *name;
        int size;
    } types[] = {{"bf16", 2}, {"fp16", 2}, {"fp32", 4}, {"fp64", 8}, {"i1", 1}, {"i8", 1},
                 {"u8", 1},   {"i16", 2},  {"u16", 2},  {"i32", 4},  {"u32", 4}, {"i64", 8},
                 {"u64", 8},  {"fp8e4nv", 1}, {"fp8e5", 1}, {"fp8e4b15", 1}, {"fp8e4b8", 1},
                 {"fp8e5b16", 1}, {"fp8e8m0", 1}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (span_is(t, types[i].name))
            return types[i].size;
    return 0;
}

/* A quoted Python string at text[*p] ('...'); its contents, *p past the closing quote. */
static int quoted(const char *text, size_t len, size_t *p, span *out)
{
    if (*p >= len || text[*p] != '\'')
        return -1;
    size_t b = ++*p;
    while (*p < len && text[*p] != '\'' && text[*p] != '\n')
        ++*p;
    if (*p >= len || text[*p] != '\'')
        return -1;
    *out = (span){text + b, *p - b};
    ++*p;
    return 0;
}

typedef struct sig_entry {
    span name, type;
} sig_entry;

/* The entries of "'signature': {'in_ptr0': '*bf16', ..., 'XBLOCK': 'constexpr'}". */
static int read_signature(const char *text, size_t len, sig_entry *e, int max, int *n, const char **why)
{
    size_t p = find(text, len, 0, "'signature': {");
    *n = 0;
    if (p == len) {
        *why = "no triton_meta signature";
        return -1;
    }
    p += strlen("'signature': {");
    while (p < len && text[p] != '}') {
        while (p < len && (text[p] == ' ' || text[p] == ','))
            p++;
        if (p < len && text[p] == '}')
            break;
        sig_entry s;
        if (quoted(text, len, &p, &s.name) || p + 2 > len || text[p] != ':' || text[p + 1] != ' ') {
            *why = "the signature is not of the form 'name': 'type'";
            return -1;
        }
        p += 2;
        if (quoted(text, len, &p, &s.type)) {
            *why = "the signature is not of the form 'name': 'type'";
            return -1;
        }
        if (*n == max) {
            *why = "more parameters than profana reads (256)";
            return -1;
        }
        e[(*n)++] = s;
    }
    if (p >= len) {
        *why = "the signature is cut off";
        return -1;
    }
    return 0;
}

/* The launch parameters of the @triton.jit def line, in order: those not annotated
 * tl.constexpr (XBLOCK and friends come from the launch configuration, not the arguments). */
static int read_def(const char *text, size_t len, span *params, int max, int *n, size_t *body, const char **why)
{
    size_t p = find(text, len, 0, "@triton.jit");
    p = find(text, len, p, "\ndef ");
    size_t open = find(text, len, p, "(");
    size_t close = find(text, len, open, "):");
    *n = 0;
    if (p == len || open == len || close == len || find(text, open, p + 1, "\n") < open) {
        *why = "no @triton.jit def line";
        return -1;
    }
    for (size_t a = open + 1; a < close;) {
        size_t b = a;
        while (b < close && text[b] != ',')
            b++;
        while (a < b && (text[a] == ' ' || text[a] == '\n'))
            a++;
        size_t e = a;
        while (e < b && is_ident(text[e]))
            e++;
        span whole = {text + a, b - a};
        int constexpr_ = find(whole.s, whole.n, 0, "constexpr") < whole.n;
        if (e > a && !constexpr_) {
            if (*n == max) {
                *why = "more parameters than profana reads (256)";
                return -1;
            }
            params[(*n)++] = (span){text + a, e - a};
        }
        a = b + 1;
    }
    *body = close + 2;
    return 0;
}

/* End of the kernel's body: the first top-level line after it (the benchmark harness's
 * get_args, or the end of the module). */
static size_t body_end(const char *text, size_t len, size_t from)
{
    for (size_t i = from; i + 1 < len; i++)
        if (text[i] == '\n' && text[i + 1] != ' ' && text[i + 1] != '\n' && text[i + 1] != '\t' &&
            text[i + 1] != '\r')
            return i + 1;
    return len;
}

static uint64_t hash_span(const char *s, size_t n)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * UINT64_C(1099511628211);
    return h;
}

/* ---- the time budget ---- */

/* The parse's deadline on this thread's CPU clock (other threads' work, a loaded machine's
 * waits, do not count against it); deadline 0: none. */
typedef struct budget {
    int64_t deadline_ns;
} budget;

static int64_t thread_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int budget_spent(const budget *bg)
{
    return bg->deadline_ns > 0 && thread_ns() > bg->deadline_ns;
}

/* ---- the body's accesses, in one pass ---- */

/* Python's tokenizer refuses parentheses nested deeper than this (MAXLEVEL): a module with
 * more is not one Python would load, so profana reads none of it. */
enum { PAREN_MAX_DEPTH = 200 };

/* Index expressions are told apart by a polynomial hash modulo the Mersenne prime 2^61 - 1,
 * kept as a running prefix over the body: the hash of any stretch is then two prefixes and a
 * power, so an access's index costs the same whether it closes at once or never. */
#define HASH_MOD ((UINT64_C(1) << 61) - 1)
#define HASH_BASE UINT64_C(1000003)

static uint64_t mod_mul(uint64_t a, uint64_t b)
{
    __uint128_t p = (__uint128_t)a * b;
    uint64_t r = (uint64_t)(p & HASH_MOD) + (uint64_t)(p >> 61);
    return r >= HASH_MOD ? r - HASH_MOD : r;
}

static uint64_t mod_pow(uint64_t b, size_t e)
{
    uint64_t r = 1;
    for (; e; e >>= 1, b = mod_mul(b, b))
        if (e & 1)
            r = mod_mul(r, b);
    return r;
}

/* Hash of text[a, b) from the prefix hashes at a and b. */
static uint64_t stretch_hash(uint64_t pa, uint64_t pb, size_t a, size_t b)
{
    uint64_t sub = mod_mul(pa, mod_pow(HASH_BASE, b - a));
    return pb >= sub ? pb - sub : pb + HASH_MOD - sub;
}

/* Distinct (parameter, index) pairs, at most MAX_ACCESS_PAIRS, in an open-addressing set. */
enum { MAX_ACCESS_PAIRS = 2048, ACCESS_SLOTS = 4096 };

typedef struct accesses {
    uint64_t index[ACCESS_SLOTS];
    int param[ACCESS_SLOTS];   /* -1: free */
    int n;
} accesses;

/* Records one access of param through index expression hash h, once per distinct h. */
static void note_access(accesses *acc, pf_triton_kernel *k, int param, uint64_t h)
{
    size_t i = (size_t)((h ^ (uint64_t)param * UINT64_C(0x9E3779B97F4A7C15)) * UINT64_C(0xC2B2AE3D27D4EB4F) >> 52);
    for (; acc->param[i] >= 0; i = (i + 1) & (ACCESS_SLOTS - 1))
        if (acc->param[i] == param && acc->index[i] == h)
            return;
    if (acc->n == MAX_ACCESS_PAIRS)
        return;
    acc->param[i] = param;
    acc->index[i] = h;
    acc->n++;
    k->params[param].accesses++;
}

/* The pointer parameters by name, for one look-up per access. */
enum { NAME_SLOTS = 2 * PF_TRITON_MAX_PARAMS };

typedef struct param_names {
    const span *params;
    int slot[NAME_SLOTS];      /* parameter index, -1: free */
} param_names;

static size_t name_slot(const char *s, size_t n)
{
    return (size_t)(hash_span(s, n) >> 55) & (NAME_SLOTS - 1);
}

static void names_init(param_names *pn, const span *params, const pf_triton_kernel *k)
{
    pn->params = params;
    for (int i = 0; i < NAME_SLOTS; i++)
        pn->slot[i] = -1;
    for (int i = 0; i < k->nparams; i++) {
        if (k->params[i].role == PF_TRITON_SCALAR)
            continue;
        size_t s = name_slot(params[i].s, params[i].n);
        while (pn->slot[s] >= 0 && !(params[pn->slot[s]].n == params[i].n &&
                                     memcmp(params[pn->slot[s]].s, params[i].s, params[i].n) == 0))
            s = (s + 1) & (NAME_SLOTS - 1);
        if (pn->slot[s] < 0)
            pn->slot[s] = i; /* a name twice: the first, as the loop over parameters found it */
    }
}

/* The pointer parameter named text[a, b); -1 when none is. */
static int names_find(const param_names *pn, const char *s, size_t n)
{
    for (size_t i = name_slot(s, n); pn->slot[i] >= 0; i = (i + 1) & (NAME_SLOTS - 1)) {
        span p = pn->params[pn->slot[i]];
        if (p.n == n && memcmp(p.s, s, n) == 0)
            return pn->slot[i];
    }
    return -1;
}

/* An access whose index is still open: where its index starts, and the prefix hash there. */
typedef struct open_access {
    int depth;                 /* the parenthesis depth inside its "(" */
    int param;
    size_t start;
    uint64_t prefix;
} open_access;

/* The position past "tl.load(", "tl.store(" or "tl.atomic_xxx(" at text[p]; 0 when none starts there. */
static size_t call_at(const char *text, size_t p, size_t e)
{
    if (e - p < 8 || text[p] != 't' || text[p + 1] != 'l' || text[p + 2] != '.')
        return 0;
    if (memcmp(text + p + 3, "load(", 5) == 0)
        return p + 8;
    if (e - p >= 9 && memcmp(text + p + 3, "store(", 6) == 0)
        return p + 9;
    if (e - p >= 10 && memcmp(text + p + 3, "atomic_", 7) == 0) {
        size_t q = p + 10;
        while (q < e && is_ident(text[q]))
            q++;
        return q < e && text[q] == '(' ? q + 1 : 0;
    }
    return 0;
}

/* Every tl.load / tl.store / tl.atomic_* through a parameter: "tl.load(in_ptr0 + (x0 + 64*x1), ...)"
 * gives in_ptr0 the index "x0 + 64*x1"; a pointer passed without an offset, the index "". An
 * index runs to its parenthesis's match, or to the body's end when it has none. One pass over
 * text[b, e): parentheses counted as it goes, each open index on a stack at most
 * PAREN_MAX_DEPTH deep. Returns 0, -1 with *why (nested too deep, out of memory), or -2
 * when the budget is spent (checked every 64 KiB). */
static int read_accesses(const char *text, size_t b, size_t e, const span *params, pf_triton_kernel *k,
                         const budget *bg, const char **why)
{
    accesses *a = malloc(sizeof *a);
    param_names *pn = malloc(sizeof *pn);
    open_access *stack = malloc(PAREN_MAX_DEPTH * sizeof *stack);
    int rc = 0, depth = 0, top = 0, pending = -1;
    size_t pending_at = 0;
    uint64_t prefix = 0;
    if (!a || !pn || !stack) {
        *why = "out of memory";
        rc = -1;
        goto done;
    }
    a->n = 0;
    for (size_t i = 0; i < ACCESS_SLOTS; i++)
        a->param[i] = -1;
    names_init(pn, params, k);
    for (size_t p = b; p < e; p++) {
        if (((p - b) & 0xffff) == 0xffff && budget_spent(bg)) {
            rc = -2;
            goto done;
        }
        uint64_t next = mod_mul(prefix, HASH_BASE) + (unsigned char)text[p] + 1; /* the prefix past text[p] */
        next = next >= HASH_MOD ? next - HASH_MOD : next;
        size_t q = text[p] == 't' ? call_at(text, p, e) : 0;
        if (q) {
            size_t id = q;
            while (q < e && is_ident(text[q]))
                q++;
            int param = names_find(pn, text + id, q - id);
            if (param >= 0 && q + 4 <= e && memcmp(text + q, " + (", 4) == 0) {
                pending = param; /* its index opens at the "(" of " + (" */
                pending_at = q + 3;
            } else if (param >= 0) {
                note_access(a, k, param, 0);
            }
        }
        if (text[p] == '(') {
            if (++depth > PAREN_MAX_DEPTH) {
                *why = "parentheses nested deeper than Python allows (200)";
                rc = -1;
                goto done;
            }
            if (pending >= 0 && p == pending_at) {
                stack[top++] = (open_access){depth, pending, p + 1, next};
                pending = -1;
            }
        } else if (text[p] == ')' && depth > 0) {
            if (top > 0 && stack[top - 1].depth == depth) {
                top--;
                note_access(a, k, stack[top].param, stretch_hash(stack[top].prefix, prefix, stack[top].start, p));
            }
            depth--;
        }
        prefix = next;
    }
    while (top > 0) { /* never closed: the index runs to the body's end */
        top--;
        note_access(a, k, stack[top].param, stretch_hash(stack[top].prefix, prefix, stack[top].start, e));
    }
done:
    free(a);
    free(pn);
    free(stack);
    return rc;
}

/* Arithmetic operations of one tmp statement's right-hand side: binary + - * /, a leading
 * unary minus, and calls of math functions and reductions, each one operation. Loads,
 * constants (tl.full), casts, comparisons and selects (tl.where) count none. */
static int ops_of(const char *s, size_t n)
{
    static const char *const skip[] = {"tl.load(", "tl.full(", "tl.arange(", "tl.broadcast_to("};
    static const char *const ops[] = {" + ", " - ", " * ", " / ", "libdevice.", "tl_math.", "tl.sum(",
                                      "tl.max(", "tl.min(", "triton_helpers.max2(", "triton_helpers.min2(",
                                      "triton_helpers.maximum(", "triton_helpers.minimum(", "tl.sqrt(",
                                      "tl.rsqrt(", "tl.exp(", "tl.log(", "tl.abs(", "tl.fma("};
    for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++)
        if (find(s, n, 0, skip[i]) < n)
            return 0;
    int count = n > 0 && s[0] == '-';
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        for (size_t p = find(s, n, 0, ops[i]); p < n; p = find(s, n, p + 1, ops[i]))
            count++;
    return count;
}

/* The first position in text[q, end) that is not a space; end when there is none. */
static size_t skip_spaces(const char *text, size_t q, size_t end)
{
    while (q < end && text[q] == ' ')
        q++;
    return q;
}

/* Sum of ops_of over the body's "tmpN = ..." lines into *total; -2 when the budget is spent
 * (checked every 64 KiB), else 0. */
static int body_ops(const char *text, size_t b, size_t e, const budget *bg, int *total)
{
    *total = 0;
    for (size_t p = b, mark = b; p < e;) {
        if (p - mark >= 0x10000) {
            if (budget_spent(bg))
                return -2;
            mark = p;
        }
        size_t eol = find(text, e, p, "\n");
        size_t q = skip_spaces(text, p, eol);
        if (q + 3 < eol && memcmp(text + q, "tmp", 3) == 0) {
            size_t eq = find(text, eol, q, " = ");
            if (eq < eol)
                *total += ops_of(text + eq + 3, eol - (eq + 3));
        }
        p = eol + 1;
    }
    return 0;
}

static int numel_name(span n)
{
    return span_is(n, "xnumel") || span_is(n, "ynumel") || span_is(n, "znumel") || span_is(n, "rnumel") ||
           (span_starts(n, "r") && n.n == 8 && n.s[1] >= '0' && n.s[1] <= '9' && memcmp(n.s + 2, "_numel", 6) == 0);
}

int pf_triton_parse(const char *text, size_t len, pf_triton_kernel *k, const char **why)
{
    return pf_triton_parse_within(text, len, 0, k, why);
}

int pf_triton_parse_within(const char *text, size_t len, double budget_s, pf_triton_kernel *k, const char **why)
{
    assert(text && k && why && budget_s >= 0);
    budget bg = {budget_s > 0 ? thread_ns() + (int64_t)(budget_s * 1e9) : 0};
    static const char *const none = "";
    *why = none;
    memset(k, 0, sizeof *k);
    sig_entry *sig = malloc(PF_TRITON_MAX_PARAMS * 2 * sizeof *sig);
    span *params = malloc(PF_TRITON_MAX_PARAMS * sizeof *params);
    int nsig = 0, rc = -1;
    size_t body = 0;
    if (!sig || !params) {
        *why = "out of memory";
        goto done;
    }
    if (read_signature(text, len, sig, PF_TRITON_MAX_PARAMS * 2, &nsig, why) ||
        read_def(text, len, params, PF_TRITON_MAX_PARAMS, &k->nparams, &body, why))
        goto done;
    for (int i = 0; i < k->nparams; i++) {
        pf_triton_param *pp = &k->params[i];
        span type = {NULL, 0};
        for (int j = 0; j < nsig && !type.s; j++)
            if (sig[j].name.n == params[i].n && memcmp(sig[j].name.s, params[i].s, params[i].n) == 0)
                type = sig[j].type;
        if (!type.s) {
            *why = "a launch parameter is missing from the signature";
            goto done;
        }
        pp->is_numel = numel_name(params[i]);
        if (type.n == 0 || type.s[0] != '*')
            continue;
        pp->elem_size = pointee_size((span){type.s + 1, type.n - 1});
        if (!pp->elem_size) {
            *why = "a pointer of an element type profana does not know";
            goto done;
        }
        pp->role = span_starts(params[i], "in_out_ptr") ? PF_TRITON_INOUT
                   : span_starts(params[i], "out_ptr")  ? PF_TRITON_OUT
                                                        : PF_TRITON_IN;
    }
    size_t end = body_end(text, len, body);
    rc = read_accesses(text, body, end, params, k, &bg, why);
    if (rc == 0)
        rc = body_ops(text, body, end, &bg, &k->ops_per_elem);
    if (rc == 0 && budget_spent(&bg))
        rc = -2;
    if (rc == -2)
        *why = "parsing the module ran past its time budget";
done:
    free(sig);
    free(params);
    return rc;
}

/* ---- figures ---- */

/* Product of the launch's iteration-space arguments (xnumel x rnumel ...); -1 when one is
 * missing or unreadable. */
static int64_t iteration_space(const pf_op_call *call, const pf_triton_kernel *k)
{
    int64_t n = 1, v;
    for (int i = 0; i < k->nparams; i++) {
        if (!k->params[i].is_numel)
            continue;
        if (pf_concrete_int(call->args[i].concrete, &v) < 0 || v < 0)
            return -1;
        n = pf_mul_nonneg(n, v);
    }
    return n;
}

/* Whether the call's arguments fit the module's parameters one for one: a tensor for each
 * pointer, a scalar for each other parameter. */
static int args_fit(const pf_op_call *call, const pf_triton_kernel *k)
{
    if (call->nargs != k->nparams)
        return 0;
    for (int i = 0; i < k->nparams; i++) {
        int tensor = pf_arg_is_tensor(&call->args[i]) && strcmp(call->args[i].type, "Scalar") != 0;
        if ((k->params[i].role != PF_TRITON_SCALAR) != tensor)
            return 0;
    }
    return 1;
}

static const char *const role_names[] = {"", "read", "written", "read+written"};

static int from_module(const pf_op_call *call, const pf_triton_kernel *k, pf_work *w)
{
    int64_t space = iteration_space(call, k);
    double bytes = 0;
    int terms = 0;
    pf_ex_rule(w, "triton.c", "the largest tensor argument");
    pf_ex(w, PF_EX_SIZES, "Inductor module: %d launch parameters, iteration space %lld", k->nparams,
          (long long)space);
    for (int i = 0; i < k->nparams && bytes >= 0; i++) {
        const pf_triton_param *p = &k->params[i];
        if (p->role == PF_TRITON_SCALAR)
            continue;
        int64_t n = pf_arg_numel(&call->args[i]);
        int sliced = space >= 0 && n > space && p->accesses > 0;
        if (sliced)
            n = pf_mul_nonneg(space, p->accesses);
        int times = p->role == PF_TRITON_INOUT ? 2 : 1;
        double b = n < 0 ? -1 : (double)n * p->elem_size * times;
        bytes = b < 0 ? -1 : pf_bytes_add(bytes, b);
        pf_ex(w, PF_EX_BYTES, "%s%lld*%d%s", terms++ ? " + " : "", (long long)n, p->elem_size, times == 2 ? "*2" : "");
        pf_ex(w, PF_EX_SIZES, "; arg %d %s%s", i, role_names[p->role],
              sliced ? " (a slice: accesses x iteration space)" : "");
    }
    double flop = space >= 0 ? (double)space * k->ops_per_elem : -1;
    pf_ex(w, PF_EX_FLOP, "%d ops per element (body) * %lld", k->ops_per_elem, (long long)space);
    pf_estimate_done(call, w, flop, bytes);
    w->source = "triton-src";
    return PF_FORMULA_OK;
}

/* 2*M*N*K of a GEMM template from its first two tensors (A [.., M, K], B [.., K, N]) and its
 * last (the output, [.., M, N]); -1 when the shapes do not fit that reading. */
static double template_gemm_flop(const pf_op_call *call)
{
    const pf_arg *t[3] = {NULL, NULL, NULL};
    int n = 0;
    for (int i = 0; i < call->nargs; i++)
        if (pf_arg_is_tensor(&call->args[i]) && call->args[i].ndim >= 2) {
            if (n < 2)
                t[n] = &call->args[i];
            t[2] = &call->args[i];
            n++;
        }
    if (n < 3 || !strstr(call->name, "mm"))
        return -1;
    int64_t k = t[0]->dims[t[0]->ndim - 1], nn = t[2]->dims[t[2]->ndim - 1];
    int64_t a = pf_arg_numel(t[0]), b = pf_arg_numel(t[1]), c = pf_arg_numel(t[2]);
    if (k <= 0 || nn <= 0 || a <= 0 || b <= 0 || c <= 0 || c % nn || a % k)
        return -1;
    int64_t rows = c / nn;     /* batch x M */
    if (a / k != rows || b % (k * nn))
        return -1;
    return 2.0 * (double)rows * (double)nn * (double)k;
}

int64_t pf_triton_launch_cap(const pf_op_call *call)
{
    assert(call);
    static const char *const kinds[] = {"triton_poi_", "triton_red_", "triton_per_"};
    int known = 0, n = call->nargs;
    int64_t cap = 1, v;
    for (size_t k = 0; call->name && k < sizeof kinds / sizeof kinds[0]; k++)
        known |= strncmp(call->name, kinds[k], strlen(kinds[k])) == 0;
    if (!known || n < 1 || call->args[n - 1].is_list || pf_arg_is_tensor(&call->args[n - 1]))
        return -1;
    for (int i = n - 1; i >= 0 && !call->args[i].is_list && !pf_arg_is_tensor(&call->args[i]); i--) {
        if (pf_concrete_int(call->args[i].concrete, &v) < 0 || v < 0)
            return -1;
        if (v == 0 && i < n - 1)
            break; /* load_seed_offset 0 before xnumel, r0_numel: not a size */
        cap = pf_mul_nonneg(cap, v);
    }
    return cap;
}

static int lower_bound(const pf_op_call *call, const char *why, pf_work *w)
{
    int64_t cap = pf_triton_launch_cap(call);
    double bytes = 0;
    int terms = 0, tensors = 0;
    pf_ex_rule(w, "triton.c", "the largest tensor argument");
    for (int i = 0; i < call->nargs && bytes >= 0; i++) {
        const pf_arg *a = &call->args[i];
        if (a->is_list || !pf_arg_is_tensor(a))
            continue;
        tensors++;
        int64_t n = pf_arg_numel(a);
        int size = pf_type_size(a->type);
        int capped = cap >= 0 && n > cap;
        n = capped ? cap : n;
        bytes = n < 0 || size <= 0 ? -1 : pf_bytes_add(bytes, (double)n * size);
        pf_ex(w, PF_EX_BYTES, "%s%lld*%d", terms++ ? " + " : "", (long long)n, size);
    }
    if (!tensors)
        return -1;
    double flop = triton_is_template(call->name) ? template_gemm_flop(call) : -1;
    pf_estimate_done(call, w, flop, bytes);
    w->lower_bound = 1;
    w->source = "triton~lb";
    if (flop >= 0)
        pf_ex(w, PF_EX_FLOP, "2*M*N*K of a GEMM template (A, B, output shapes) = %.0f", flop);
    pf_ex(w, PF_EX_SIZES, "a lower bound from the trace alone: every tensor argument once (in-place ones too)%s; "
          "module: %s", cap >= 0 ? ", each at most the launch's iteration space (its trailing integers)" : "",
          why && *why ? why : "none");
    return PF_FORMULA_OK;
}

/* The common start of pf_triton_work and pf_triton_work_parsed. */
static void work_clear(pf_explain *ex, pf_work *w)
{
    if (ex)
        memset(ex, 0, sizeof *ex);
    memset(w, 0, sizeof *w);
    w->flop = w->bytes = -1;
    w->explain = ex;
}

int pf_triton_work_parsed(const pf_op_call *call, const pf_triton_kernel *k, const char *why_no_module,
                          pf_explain *ex, pf_work *w)
{
    assert(call && w && pf_triton_is_launch(call->name) && (k || why_no_module));
    work_clear(ex, w);
    if (k && args_fit(call, k))
        return from_module(call, k, w);
    return lower_bound(call, k ? "the module's launch parameters do not match the launch's arguments" : why_no_module,
                       w);
}

int pf_triton_work(const pf_op_call *call, const char *module, size_t len, const char *why_no_module,
                   pf_explain *ex, pf_work *w)
{
    assert(call && w && pf_triton_is_launch(call->name));
    work_clear(ex, w);
    const char *why = why_no_module;
    if (module) {
        pf_triton_kernel *k = malloc(sizeof *k);
        if (!k)
            return lower_bound(call, "out of memory", w);
        int rc = pf_triton_parse(module, len, k, &why) == 0 ? pf_triton_work_parsed(call, k, why, ex, w) : -2;
        free(k);
        if (rc != -2)
            return rc;
        work_clear(ex, w);
    }
    return lower_bound(call, why, w);
}
