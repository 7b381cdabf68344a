/* trace_values.h - the values of an event's members, read from the text and the extents that trace_fields.c found (trace_values.c; not a public interface). */
#ifndef PROFANA_TRACE_VALUES_H
#define PROFANA_TRACE_VALUES_H

#include <stddef.h>
#include <stdint.h>
#include <assert.h>
#include <string.h>

#include "profana/trace.h"
#include "trace_event.h"

/* Times beyond these are not from a profiler (2^50 ns is 13 days): refusing them keeps
 * every sum and every ts + dur far from int64 overflow. */
#define PF_MAX_DUR_NS (INT64_C(1) << 50)
#define PF_MAX_TS_NS (INT64_C(1) << 61)

/* Fields of a GPU activity's (or a launch call's) args. */
typedef struct pf_act_args {
    int64_t ext_id, device, stream, correlation, bytes; /* -1, 0, 0, -1, -1 when absent */
    int has_device, has_stream;
    int has_ext, has_corr;     /* ext_id, correlation read (pf_ev_id_span: an id of 2^64 - 1
                                  reads -1, which only these tell from none) */
    size_t grid[2], block[2], kernel[2]; /* extents of their values; [0, 0) absent */
} pf_act_args;

/* What an event's category makes of it. */
typedef enum pf_cat_kind {
    CAT_OTHER,                 /* not GPU-like, or a kind profana does not read */
    CAT_KERNEL,
    CAT_MEMCPY,
    CAT_MEMSET,
    CAT_CPU_OP,
    CAT_GPU_ANNOTATION,        /* gpu_user_annotation: GPU-side ProfilerStep#N */
    CAT_USER_ANNOTATION,       /* a host interval; ProfilerStep#N ones are the CPU-side steps */
    CAT_RUNTIME,               /* cuda_runtime, cuda_driver: host intervals that launch GPU work */
    CAT_HOST,                  /* overhead, python_function */
    CAT_KNOWN                  /* known and not read, though GPU-like: cuda_sync */
} pf_cat_kind;

/* Whether the value s[sp[0], sp[1]) is exactly the text quoted (quotes included). */
static inline int pf_ev_span_is(const char *s, const size_t sp[2], const char *quoted)
{
    size_t n = strlen(quoted);
    return sp[1] - sp[0] == n && memcmp(s + sp[0], quoted, n) == 0;
}

/* FNV-1a of the bytes s[sp[0], sp[1]) continued from h: equal texts, equal hashes. */
static inline uint64_t pf_ev_hash_span(const char *s, const size_t sp[2], uint64_t h)
{
    for (size_t i = sp[0]; i < sp[1]; i++) {
        h ^= (unsigned char)s[i];
        h *= UINT64_C(1099511628211);
    }
    return h;
}

/* An op's External id (pf_ev_id_span) into *id: the first one in its args. Returns 1, or 0
 * when it has none or it is unreadable (*id then -1). */
int pf_ev_op_ext_id(const char *s, size_t len, const ev_fields *f, int64_t *id);

/* The whole number of args member arg (A_*), spelled key (what the validating scanner's
 * events are searched for): the first one; -1 when it has none or it is unreadable. */
int64_t pf_ev_op_int(const char *s, size_t len, const ev_fields *f, int arg, const char *key);

/* N of a ProfilerStep#N name (pf_ev_is_step said it starts so); -1 when the rest is not a
 * number (or has more than 2^40 in it). */
int64_t pf_ev_step_number(const char *s, const ev_fields *f);

/* A runtime call's kind by its name: a graph launch, a capture's begin, or any other call. */
pf_launch_kind pf_ev_launch_kind(const char *s, const ev_fields *f);

/* The validating scanner's reading of the args object s[sp[0], sp[1]) into *a: for a repeated
 * key the last readable one wins (pf_ev_act_args when f->slow). */
void pf_ev_act_args_slow(const char *s, size_t len, const size_t sp[2], pf_act_args *a);

/* ---- read for every event: inline, so that the per-event path stays in trace_records.c's
 * translation unit (as fast as when the scanner was one file) ---- */

/* The whole number s[sp[0], sp[1]) into *v (and 1 into *ok, when ok is not NULL); both left as
 * they were when the extent is absent or not a whole number. */
static inline void pf_ev_int_span(const char *s, const size_t sp[2], int64_t *v, int *ok)
{
    int64_t x;
    if (sp[1] && pf_json_int(s, sp[0], sp[1], &x) == 0) {
        *v = x;
        if (ok)
            *ok = 1;
    }
}

/* An id (External id, correlation): Kineto writes them as unsigned 64-bit numbers, so a
 * whole number in [0, 2^64) (quoted or not; ".0" allowed, as pf_json_int) goes into *v as its
 * bit pattern (one above 2^63 - 1 reads negative: ids are only compared, never added) and 1
 * into *ok; both left as they were when the extent is absent or holds no such number (a
 * negative one included: no id). */
static inline void pf_ev_id_span(const char *s, const size_t sp[2], int64_t *v, int *ok)
{
    size_t p = sp[0], e = sp[1];
    if (!e)
        return;
    if (e - p >= 2 && s[p] == '"' && s[e - 1] == '"') {
        p++;
        e--;
    }
    if (p >= e || s[p] < '0' || s[p] > '9')
        return;
    uint64_t acc = 0;
    for (; p < e && s[p] >= '0' && s[p] <= '9'; p++) {
        unsigned d = (unsigned)(s[p] - '0');
        if (acc > (UINT64_MAX - d) / 10)
            return;
        acc = acc * 10 + d;
    }
    if (p < e && s[p] == '.')
        for (p++; p < e && s[p] == '0'; p++)
            ;
    if (p != e)
        return;
    *v = acc <= (uint64_t)INT64_MAX ? (int64_t)acc : -(int64_t)(UINT64_MAX - acc) - 1;
    if (ok)
        *ok = 1;
}

/* The args of the event of s[0, len) whose members f holds, read into *a: by f's extents on
 * the fast path, by iterating the args object (pf_ev_act_args_slow) when f->slow. Absent:
 * ext_id, correlation and bytes -1, device and stream 0, extents [0, 0). */
static inline void pf_ev_act_args(const char *s, size_t len, const ev_fields *f, pf_act_args *a)
{
    assert(s != NULL && f != NULL && a != NULL);
    a->ext_id = a->correlation = a->bytes = -1;
    a->device = a->stream = 0;
    a->has_device = a->has_stream = a->has_ext = a->has_corr = 0;
    memset(a->grid, 0, sizeof a->grid);
    memset(a->block, 0, sizeof a->block);
    memset(a->kernel, 0, sizeof a->kernel);
    if (f->slow) {
        pf_ev_act_args_slow(s, len, f->ev[E_ARGS], a);
        return;
    }
    pf_ev_id_span(s, f->arg[A_EXT], &a->ext_id, &a->has_ext);
    pf_ev_int_span(s, f->arg[A_DEVICE], &a->device, &a->has_device);
    pf_ev_int_span(s, f->arg[A_STREAM], &a->stream, &a->has_stream);
    pf_ev_id_span(s, f->arg[A_CORR], &a->correlation, &a->has_corr);
    pf_ev_int_span(s, f->arg[A_BYTES], &a->bytes, NULL);
    memcpy(a->grid, f->arg[A_GRID], sizeof a->grid);
    memcpy(a->block, f->arg[A_BLOCK], sizeof a->block);
    memcpy(a->kernel, f->arg[A_KERNEL], sizeof a->kernel);
}

/* A launch geometry: the whole numbers of its grid and of its block ("[32, 2, 1]"), hashed in
 * order, so that spacing does not matter; 0 when either is absent, never 0 otherwise. */
static inline uint64_t pf_ev_geometry(const char *s, const pf_act_args *a)
{
    assert(s != NULL && a != NULL);
    assert(a->grid[0] <= a->grid[1] && a->block[0] <= a->block[1]);
    if (!a->grid[1] || !a->block[1])
        return 0;
    uint64_t h = UINT64_C(1469598103934665603);
    const size_t *parts[2] = {a->grid, a->block};
    for (int k = 0; k < 2; k++) {
        uint64_t v = 0;
        int in = 0;
        for (size_t i = parts[k][0]; i <= parts[k][1]; i++) {
            int digit = i < parts[k][1] && s[i] >= '0' && s[i] <= '9';
            if (digit) {
                v = v * 10 + (uint64_t)(s[i] - '0');
                in = 1;
            } else if (in) {
                h = (h ^ v) * UINT64_C(1099511628211);
                v = 0;
                in = 0;
            }
        }
        h = (h ^ UINT64_C(0xff)) * UINT64_C(1099511628211); /* grid [1,2] block [3] != grid [1] block [2,3] */
    }
    return h ? h : 1;
}

/* The event's ts and dur in nanoseconds. -1 when either is missing, not a number, or out of a
 * profiler's range (dur in [0, PF_MAX_DUR_NS], |ts| <= PF_MAX_TS_NS); else 0. */
static inline int pf_ev_times(const char *s, const ev_fields *f, int64_t *ts, int64_t *dur)
{
    assert(s != NULL && f != NULL && ts != NULL && dur != NULL);
    const size_t *t = f->ev[E_TS], *d = f->ev[E_DUR];
    if (pf_json_us_to_ns(s, t[0], t[1], ts) || pf_json_us_to_ns(s, d[0], d[1], dur))
        return -1;
    if (*dur < 0 || *dur > PF_MAX_DUR_NS || *ts > PF_MAX_TS_NS || *ts < -PF_MAX_TS_NS)
        return -1;
    return 0;
}

/* The device of a GPU-side event: args.device, else pid (ROCm and annotations). -1 when it is
 * outside [0, 65535]; else 0 with *dev set. */
static inline int pf_ev_device(const char *s, const ev_fields *f, const pf_act_args *aa, int64_t *dev)
{
    assert(s != NULL && f != NULL && aa != NULL && dev != NULL);
    int64_t pid = 0;
    const size_t *sp = f->ev[E_PID];
    *dev = aa->device;
    if (!aa->has_device && sp[1] && pf_json_int(s, sp[0], sp[1], &pid) == 0)
        *dev = pid;
    return *dev < 0 || *dev > 65535 ? -1 : 0;
}

/* Whether the event's name is a string that starts with "ProfilerStep#". */
static inline int pf_ev_is_step(const char *s, const ev_fields *f)
{
    assert(s != NULL && f != NULL);
    static const char prefix[] = "\"ProfilerStep#";
    size_t n = sizeof prefix - 1;
    const size_t *sp = f->ev[E_NAME];
    return sp[1] - sp[0] > n && memcmp(s + sp[0], prefix, n) == 0;
}

/* A process: the hash of its pid text (the same text, the same process), never 0; 62 bits,
 * so that a launch record holds it and its kind in one word (pf_launch_rec). */
static inline uint64_t pf_ev_process(const char *s, const ev_fields *f)
{
    assert(s != NULL && f != NULL);
    uint64_t h = pf_ev_hash_span(s, f->ev[E_PID], UINT64_C(1469598103934665603)) & ((UINT64_C(1) << 62) - 1);
    return h ? h : 1;
}

/* Whether the n bytes at c are the literal quoted (of length n). */
static inline int pf_ev_lit_is(const char *c, size_t n, const char *quoted)
{
    assert(strlen(quoted) == n);
    return memcmp(c, quoted, n) == 0;
}

/* The category by its quoted text, told apart by length first. Host-side intervals nest on
 * their thread; the per-op CPU times come from that nesting. Older Kineto (PyTorch 1.8,
 * 1.9) spelt the categories Kernel, Memcpy, Memset, Runtime and Operator. sp: the quoted value's
 * extent (quotes included). */
static inline pf_cat_kind pf_ev_category(const char *s, const size_t sp[2])
{
    assert(s != NULL);
    assert(sp[0] <= sp[1]);
    const char *c = s + sp[0];
    size_t n = sp[1] - sp[0];
    switch (n) {
    case 8:
        return pf_ev_lit_is(c, n, "\"kernel\"")   ? CAT_KERNEL
               : pf_ev_lit_is(c, n, "\"Kernel\"") ? CAT_KERNEL
               : pf_ev_lit_is(c, n, "\"cpu_op\"") ? CAT_CPU_OP
               : pf_ev_lit_is(c, n, "\"Memcpy\"") ? CAT_MEMCPY
               : pf_ev_lit_is(c, n, "\"Memset\"") ? CAT_MEMSET
                                            : CAT_OTHER;
    case 9:
        return pf_ev_lit_is(c, n, "\"Runtime\"") ? CAT_RUNTIME : CAT_OTHER;
    case 10:
        return pf_ev_lit_is(c, n, "\"overhead\"") ? CAT_HOST : pf_ev_lit_is(c, n, "\"Operator\"") ? CAT_CPU_OP : CAT_OTHER;
    case 11:
        return pf_ev_lit_is(c, n, "\"cuda_sync\"") ? CAT_KNOWN : CAT_OTHER;
    case 12:
        return pf_ev_lit_is(c, n, "\"gpu_memcpy\"") ? CAT_MEMCPY : pf_ev_lit_is(c, n, "\"gpu_memset\"") ? CAT_MEMSET : CAT_OTHER;
    case 13:
        return pf_ev_lit_is(c, n, "\"cuda_driver\"") ? CAT_RUNTIME : CAT_OTHER;
    case 14:
        return pf_ev_lit_is(c, n, "\"cuda_runtime\"") ? CAT_RUNTIME : CAT_OTHER;
    case 17:
        return pf_ev_lit_is(c, n, "\"user_annotation\"")   ? CAT_USER_ANNOTATION
               : pf_ev_lit_is(c, n, "\"python_function\"") ? CAT_HOST
                                                    : CAT_OTHER;
    case 21:
        return pf_ev_lit_is(c, n, "\"gpu_user_annotation\"") ? CAT_GPU_ANNOTATION : CAT_OTHER;
    default:
        return CAT_OTHER;
    }
}

#endif
