/* trace_values.c - reads the values of an event's members that the records need: times, device, ids and launch geometry from args, step numbers, launch kinds, and what the category makes of the event. Functions of the text alone. */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "../json/jscan_prim.h"
#include "trace_event.h"
#include "trace_values.h"

/* The validating scanner's reading of args: for a repeated key the last readable one wins. */
void pf_ev_act_args_slow(const char *s, size_t len, const size_t sp[2], pf_act_args *a)
{
    assert(s != NULL && a != NULL);
    assert(sp[0] <= sp[1] && sp[1] <= len);
    if (sp[1] == sp[0] || s[sp[0]] != '{')
        return;
    pf_jerr e;
    pf_jmember m;
    size_t p = sp[0];
    pf_json_obj_begin(s, len, &p, &e);
    while (pf_json_obj_next(s, len, &p, &m, &e) == 1) {
        size_t v[2] = {m.val_start, m.val_end};
        switch (pf_ev_args_key(s + m.key_start, m.key_end - m.key_start)) {
        case A_EXT:
            pf_ev_id_span(s, v, &a->ext_id, &a->has_ext);
            break;
        case A_DEVICE:
            pf_ev_int_span(s, v, &a->device, &a->has_device);
            break;
        case A_STREAM:
            pf_ev_int_span(s, v, &a->stream, &a->has_stream);
            break;
        case A_CORR:
            pf_ev_id_span(s, v, &a->correlation, &a->has_corr);
            break;
        case A_BYTES:
            pf_ev_int_span(s, v, &a->bytes, NULL);
            break;
        case A_GRID:
            memcpy(a->grid, v, sizeof v);
            break;
        case A_BLOCK:
            memcpy(a->block, v, sizeof v);
            break;
        case A_KERNEL:
            memcpy(a->kernel, v, sizeof v);
            break;
        default:
            break;
        }
    }
}

/* An op's External id: the first one in its args (unreadable: the op cannot be linked). */
int pf_ev_op_ext_id(const char *s, size_t len, const ev_fields *f, int64_t *id)
{
    assert(s != NULL && f != NULL && id != NULL);
    const size_t *sp = f->ev[E_ARGS];
    int ok = 0;
    *id = -1;
    if (!f->slow) {
        pf_ev_id_span(s, f->arg[A_EXT], id, &ok);
        return ok;
    }
    if (sp[1] == sp[0] || s[sp[0]] != '{')
        return 0;
    pf_jerr e;
    pf_jmember m;
    size_t p = sp[0];
    pf_json_obj_begin(s, len, &p, &e);
    while (pf_json_obj_next(s, len, &p, &m, &e) == 1) {
        if (pf_json_key_is(s, &m, "External id")) {
            size_t v[2] = {m.val_start, m.val_end};
            pf_ev_id_span(s, v, id, &ok);
            break;
        }
    }
    return ok;
}

int64_t pf_ev_op_int(const char *s, size_t len, const ev_fields *f, int arg, const char *key)
{
    assert(s != NULL && f != NULL && key != NULL);
    assert(arg >= 0 && arg < N_ARG);
    const size_t *sp = f->ev[E_ARGS];
    int64_t id = -1;
    if (!f->slow) {
        pf_ev_int_span(s, f->arg[arg], &id, NULL);
        return id;
    }
    if (sp[1] == sp[0] || s[sp[0]] != '{')
        return -1;
    pf_jerr e;
    pf_jmember m;
    size_t p = sp[0];
    pf_json_obj_begin(s, len, &p, &e);
    while (pf_json_obj_next(s, len, &p, &m, &e) == 1) {
        if (pf_json_key_is(s, &m, key)) {
            size_t v[2] = {m.val_start, m.val_end};
            pf_ev_int_span(s, v, &id, NULL);
            break;
        }
    }
    return id;
}

/* N of a ProfilerStep#N name (pf_ev_is_step said it starts so); -1 when the rest is not a number. */
int64_t pf_ev_step_number(const char *s, const ev_fields *f)
{
    assert(pf_ev_is_step(s, f));
    static const char prefix[] = "\"ProfilerStep#";
    const size_t *sp = f->ev[E_NAME];
    size_t p = sp[0] + sizeof prefix - 1;
    int64_t n = 0;
    for (; p + 1 < sp[1] && s[p] >= '0' && s[p] <= '9' && n < INT64_C(1) << 40; p++)
        n = n * 10 + (s[p] - '0');
    return p + 1 == sp[1] ? n : -1;
}

static int span_has(const char *s, const size_t sp[2], const char *lit)
{
    assert(s != NULL && lit != NULL);
    assert(sp[0] <= sp[1]);
    size_t n = strlen(lit);
    for (size_t i = sp[0]; i + n <= sp[1]; i++)
        if (memcmp(s + i, lit, n) == 0)
            return 1;
    return 0;
}

/* A graph launch replays kernels that have no op of their own; a capture's begin splits a
 * capture trace into its graphs. CUDA and HIP spell both alike after the prefix. */
pf_launch_kind pf_ev_launch_kind(const char *s, const ev_fields *f)
{
    assert(s != NULL && f != NULL);
    const size_t *sp = f->ev[E_NAME];
    if (span_has(s, sp, "GraphLaunch"))
        return PF_LAUNCH_GRAPH;
    return span_has(s, sp, "StreamBeginCapture") ? PF_LAUNCH_BEGIN_CAPTURE : PF_LAUNCH_CALL;
}

int pf_event_cat_gpu(const char *s, const size_t cat[2])
{
    assert(s != NULL && cat != NULL);
    switch (pf_ev_category(s, cat)) {
    case CAT_KERNEL:
    case CAT_MEMCPY:
    case CAT_MEMSET:
    case CAT_GPU_ANNOTATION:
        return 1;
    default:
        return 0;
    }
}

