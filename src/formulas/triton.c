/* triton.c - figures of Inductor's Triton launches: bytes and FLOPs from the generated module's text (source "triton-src"), else a lower bound from the trace alone (source "triton~lb"). */
#include "families.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

enum { MAX_ACCESS_PAIRS = 2048 };

typedef struct accesses {
    int param[MAX_ACCESS_PAIRS];
    uint64_t index[MAX_ACCESS_PAIRS];
    int n;
} accesses;

/* Records one access of param through index expression hash h, once per distinct h. */
static void note_access(accesses *acc, pf_triton_kernel *k, int param, uint64_t h)
{
    for (int i = 0; i < acc->n; i++)
        if (acc->param[i] == param && acc->index[i] == h)
            return;
    if (acc->n == MAX_ACCESS_PAIRS)
        return;
    acc->param[acc->n] = param;
    acc->index[acc->n++] = h;
    k->params[param].accesses++;
}

/* The balanced parenthesised text starting after "(" at text[p]; its end (the ')'), or end
 * when it does not close before end. */
static size_t close_paren(const char *text, size_t p, size_t end)
{
    int depth = 1;
    for (; p < end; p++) {
        depth += text[p] == '(';
        depth -= text[p] == ')';
        if (depth == 0)
            return p;
    }
    return end;
}

/* Every tl.load / tl.store / tl.atomic_* through a parameter: "tl.load(in_ptr0 + (x0 + 64*x1), ...)"
 * gives in_ptr0 the index "x0 + 64*x1"; a pointer passed without an offset, the index "". */
static void read_accesses(const char *text, size_t b, size_t e, const span *params, pf_triton_kernel *k)
{
    accesses *a = calloc(1, sizeof *a);
    if (!a)
        return;
    static const char *const calls[] = {"tl.load(", "tl.store(", "tl.atomic_"};
    for (size_t c = 0; c < sizeof calls / sizeof calls[0]; c++) {
        for (size_t p = find(text, e, b, calls[c]); p < e; p = find(text, e, p + 1, calls[c])) {
            size_t q = p + strlen(calls[c]);
            if (c == 2) {
                while (q < e && is_ident(text[q]))
                    q++;
                if (q >= e || text[q] != '(')
                    continue;
                q++;
            }
            size_t id = q;
            while (q < e && is_ident(text[q]))
                q++;
            span name = {text + id, q - id};
            int param = -1;
            for (int i = 0; i < k->nparams && param < 0; i++)
                if (k->params[i].role != PF_TRITON_SCALAR && name.n == params[i].n &&
                    memcmp(name.s, params[i].s, name.n) == 0)
                    param = i;
            if (param < 0)
                continue;
            uint64_t h = hash_span("", 0);
            if (q + 4 <= e && memcmp(text + q, " + (", 4) == 0) {
                size_t ce = close_paren(text, q + 4, e);
                h = hash_span(text + q + 4, ce - (q + 4));
            }
            note_access(a, k, param, h);
        }
    }
    free(a);
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

/* Sum of ops_of over the body's "tmpN = ..." lines. */
static int body_ops(const char *text, size_t b, size_t e)
{
    int total = 0;
    for (size_t p = b; p < e;) {
        size_t eol = find(text, e, p, "\n");
        size_t q = skip_spaces(text, p, eol);
        if (q + 3 < eol && memcmp(text + q, "tmp", 3) == 0) {
            size_t eq = find(text, eol, q, " = ");
            if (eq < eol)
                total += ops_of(text + eq + 3, eol - (eq + 3));
        }
        p = eol + 1;
    }
    return total;
}

static int numel_name(span n)
{
    return span_is(n, "xnumel") || span_is(n, "ynumel") || span_is(n, "znumel") || span_is(n, "rnumel") ||
           (span_starts(n, "r") && n.n == 8 && n.s[1] >= '0' && n.s[1] <= '9' && memcmp(n.s + 2, "_numel", 6) == 0);
}

int pf_triton_parse(const char *text, size_t len, pf_triton_kernel *k, const char **why)
{
    assert(text && k && why);
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
    read_accesses(text, body, end, params, k);
    k->ops_per_elem = body_ops(text, body, end);
    rc = 0;
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

int pf_triton_work(const pf_op_call *call, const char *module, size_t len, const char *why_no_module,
                   pf_explain *ex, pf_work *w)
{
    assert(call && w && pf_triton_is_launch(call->name));
    if (ex)
        memset(ex, 0, sizeof *ex);
    memset(w, 0, sizeof *w);
    w->flop = w->bytes = -1;
    w->explain = ex;
    const char *why = why_no_module;
    if (module) {
        pf_triton_kernel *k = malloc(sizeof *k);
        if (!k)
            return lower_bound(call, "out of memory", w);
        int rc = -1;
        if (pf_triton_parse(module, len, k, &why) == 0) {
            if (args_fit(call, k))
                rc = from_module(call, k, w);
            else
                why = "the module's launch parameters do not match the launch's arguments";
        }
        free(k);
        if (rc == PF_FORMULA_OK)
            return rc;
    }
    return lower_bound(call, why, w);
}
