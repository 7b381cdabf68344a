/* trace_model.c - the model after scanning: devices, External-id links, notes, and freeing. */
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_internal.h"

int pf_fail(pf_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

int pf_trace_note(pf_trace *t, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char **notes = realloc(t->notes, (size_t)(t->n_notes + 1) * sizeof *notes);
    if (!notes)
        return -1;
    t->notes = notes;
    if (!(notes[t->n_notes] = strdup(buf)))
        return -1;
    t->n_notes++;
    return 0;
}

void pf_trace_free(pf_trace *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n_ops; i++)
        free((void *)t->ops[i].call.args);
    for (int i = 0; i < t->n_notes; i++)
        free(t->notes[i]);
    free(t->notes);
    free(t->ops);
    free(t->acts);
    free(t->cpu);
    free(t->gpu_steps);
    free(t->devices);
    pf_strtab_free(t->strings);
    free(t);
}

const pf_device *pf_trace_device(const pf_trace *t, int id)
{
    for (int i = 0; i < t->n_devices; i++)
        if (t->devices[i].id == id)
            return &t->devices[i];
    return NULL;
}

/* ---- devices ---- */

/* Casting a double outside the int64 range is undefined: such values count as absent. */
static int64_t json_int_field(const cJSON *o, const char *key, int64_t dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= -9.0e18 && v->valuedouble <= 9.0e18))
        return dflt;
    return (int64_t)v->valuedouble;
}

static pf_device *device_add(pf_trace *t, int id)
{
    pf_device *d = realloc(t->devices, (size_t)(t->n_devices + 1) * sizeof *d);
    if (!d)
        return NULL;
    t->devices = d;
    d = &t->devices[t->n_devices++];
    memset(d, 0, sizeof *d);
    d->id = id;
    d->name = "";
    return d;
}

static int device_from_json(pf_trace *t, const cJSON *o)
{
    int64_t id = json_int_field(o, "id", -1);
    if (!cJSON_IsObject(o) || id < 0 || id > 65535 || pf_trace_device(t, (int)id))
        return 0; /* an entry we cannot key is ignored; its events still get a device */
    pf_device *d = device_add(t, (int)id);
    if (!d)
        return -1;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name");
    if (cJSON_IsString(name))
        d->name = pf_strtab_intern(t->strings, name->valuestring, strlen(name->valuestring));
    if (!d->name)
        return -1;
    d->num_sms = (int)json_int_field(o, "numSms", 0);
    d->total_mem = json_int_field(o, "totalGlobalMem", 0);
    d->cc_major = (int)json_int_field(o, "computeMajor", 0);
    d->cc_minor = (int)json_int_field(o, "computeMinor", 0);
    d->warp_size = (int)json_int_field(o, "warpSize", 0);
    d->declared = 1;
    return 0;
}

/* The model every declared device shares, or NULL when they differ or none is declared. */
static const pf_device *single_declared_model(const pf_trace *t)
{
    const pf_device *first = NULL;
    for (int i = 0; i < t->n_devices; i++) {
        const pf_device *d = &t->devices[i];
        if (!d->declared)
            continue;
        if (first && (strcmp(first->name, d->name) != 0 || first->num_sms != d->num_sms))
            return NULL;
        if (!first)
            first = d;
    }
    return first;
}

/* ROCm traces may declare device 0 while the events run on device 2: an undeclared device
 * takes the model when only one model is declared. */
static int add_undeclared_devices(pf_trace *t)
{
    for (size_t i = 0; i < t->n_acts; i++) {
        int id = t->acts[i].device;
        if (pf_trace_device(t, id))
            continue;
        const pf_device *model = single_declared_model(t);
        pf_device copy = model ? *model : (pf_device){0};
        pf_device *d = device_add(t, id);
        if (!d)
            return -1;
        if (model) {
            *d = copy;
            d->id = id;
            d->declared = 0;
            d->inherited = 1;
            if (pf_trace_note(t, "device %d is not in deviceProperties; it takes the one model declared there (%s)",
                              id, copy.name))
                return -1;
        } else if (pf_trace_note(t, "device %d is not in deviceProperties: its model is unknown", id)) {
            return -1;
        }
    }
    return 0;
}

static int cmp_device(const void *a, const void *b)
{
    const pf_device *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

int pf_trace_devices_from_props(pf_trace *t, const char *text, size_t len, pf_error *err)
{
    if (len) {
        cJSON *arr = cJSON_ParseWithLength(text, len);
        const cJSON *o;
        int rc = 0;
        if (cJSON_IsArray(arr))
            cJSON_ArrayForEach(o, arr) if (!rc) rc = device_from_json(t, o);
        cJSON_Delete(arr);
        if (rc)
            return pf_fail(err, "%s: out of memory", t->path);
    }
    if (add_undeclared_devices(t))
        return pf_fail(err, "%s: out of memory", t->path);
    if (t->n_devices > 1)
        qsort(t->devices, (size_t)t->n_devices, sizeof *t->devices, cmp_device);
    return 0;
}

/* ---- External id links ---- */

typedef struct id_map {
    int64_t *keys;
    int32_t *vals;
    size_t cap;
} id_map;

static size_t id_hash(int64_t k, size_t cap)
{
    uint64_t h = (uint64_t)k * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h >> 17) & (cap - 1);
}

static int id_map_init(id_map *m, size_t n)
{
    m->cap = 16;
    while (m->cap < n * 2)
        m->cap *= 2;
    m->keys = malloc(m->cap * sizeof *m->keys);
    m->vals = malloc(m->cap * sizeof *m->vals);
    if (!m->keys || !m->vals)
        return -1;
    for (size_t i = 0; i < m->cap; i++)
        m->keys[i] = -1;
    return 0;
}

static void id_map_free(id_map *m)
{
    free(m->keys);
    free(m->vals);
}

/* Inserts k -> v unless k is there; returns 1 when k was already present. */
static int id_map_put(id_map *m, int64_t k, int32_t v)
{
    size_t i = id_hash(k, m->cap);
    for (; m->keys[i] != -1; i = (i + 1) & (m->cap - 1))
        if (m->keys[i] == k)
            return 1;
    m->keys[i] = k;
    m->vals[i] = v;
    return 0;
}

static int32_t id_map_get(const id_map *m, int64_t k)
{
    for (size_t i = id_hash(k, m->cap); m->keys[i] != -1; i = (i + 1) & (m->cap - 1))
        if (m->keys[i] == k)
            return m->vals[i];
    return -1;
}

static int resolve_op(pf_trace *t, pf_cpu_op *op, const char *src)
{
    if (op->call.name)
        return 0;
    op->call.name = op->name;
    if (op->args_end <= op->args_start)
        return 0;
    /* Malformed args only cost this op its figures (counted), never the run. */
    pf_trace_parse_op_args(t, op, src + op->args_start, op->args_end - op->args_start);
    return 0;
}

int pf_trace_link(pf_trace *t, const char *src, pf_error *err)
{
    id_map m = {0};
    if (t->n_ops > INT32_MAX || id_map_init(&m, t->n_ops)) {
        id_map_free(&m);
        return pf_fail(err, "%s: out of memory", t->path);
    }
    for (size_t i = 0; i < t->n_ops; i++)
        t->n_duplicate_ids += (size_t)id_map_put(&m, t->ops[i].ext_id, (int32_t)i);
    for (size_t i = 0; i < t->n_acts; i++) {
        pf_activity *a = &t->acts[i];
        a->op = a->ext_id >= 0 ? id_map_get(&m, a->ext_id) : -1;
        if (a->op < 0)
            t->n_unlinked++;
        else
            resolve_op(t, &t->ops[a->op], src);
    }
    id_map_free(&m);
    size_t bad = 0;
    for (size_t i = 0; i < t->n_ops; i++)
        bad += (size_t)t->ops[i].bad_args;
    if (t->n_duplicate_ids &&
        pf_trace_note(t, "%zu cpu_ops repeat an earlier External id; kernels link to the first", t->n_duplicate_ids))
        return pf_fail(err, "out of memory");
    if (bad && pf_trace_note(t, "%zu linked cpu_ops have malformed args; their kernels get no figures", bad))
        return pf_fail(err, "out of memory");
    if (t->n_bad_events &&
        pf_trace_note(t, "%zu events skipped: a field could not be read (bad ts/dur/name/device)", t->n_bad_events))
        return pf_fail(err, "out of memory");
    return 0;
}
