/* trace_devices.c - the trace's devices: the deviceProperties list and the devices its activities run on, sorted by id for pf_trace_device's binary search. */
#include <assert.h>
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "profana/jscan.h"
#include "profana/mem.h"
#include "trace_model.h"

#ifndef NDEBUG
/* For assert() only: whether t->devices is in ascending order of id. */
static int devices_sorted(const pf_trace *t)
{
    for (int i = 1; i < t->n_devices; i++)
        if (t->devices[i - 1].id > t->devices[i].id)
            return 0;
    return 1;
}
#endif

/* t->devices is sorted by id once built (pf_trace_devices_from_props): a binary search, so
 * that a trace of many devices costs no time per device per activity. */
const pf_device *pf_trace_device(const pf_trace *t, int id)
{
    assert(t != NULL);
    int lo = 0, hi = t->n_devices;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (t->devices[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->n_devices && t->devices[lo].id == id ? &t->devices[lo] : NULL;
}

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
    /* Room doubles when the count reaches a power of two (the capacity is implied by the
     * count): 65,536 devices are 17 reallocations, not 65,536 copies of a growing array. */
    size_t n = (size_t)t->n_devices;
    if ((n & (n - 1)) == 0) {
        pf_device *grown = realloc(t->devices, (n ? 2 * n : 1) * sizeof *grown);
        if (!grown)
            return NULL;
        t->devices = grown;
    }
    pf_device *d = &t->devices[t->n_devices++];
    memset(d, 0, sizeof *d);
    d->id = id;
    d->name = "";
    return d;
}

/* While t->devices is built (unsorted), `seen` (PF_DEVICE_IDS bytes) says which ids it holds. */
#define PF_DEVICE_IDS 65536

static int device_from_json(pf_trace *t, const cJSON *o, unsigned char *seen)
{
    int64_t id = json_int_field(o, "id", -1);
    if (!cJSON_IsObject(o) || id < 0 || id >= PF_DEVICE_IDS || seen[id])
        return 0; /* an entry we cannot key is ignored; its events still get a device */
    seen[id] = 1;
    pf_device *d = device_add(t, (int)id);
    if (!d)
        return -1;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name");
    if (cJSON_IsString(name))
        d->name = pf_trace_intern_text(t, name->valuestring);
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
/* One note per undeclared device up to this many, then one line for the rest. */
#define UNDECLARED_NOTED 8

static int add_undeclared_devices(pf_trace *t, unsigned char *seen)
{
    const pf_device *model = single_declared_model(t);
    pf_device copy = model ? *model : (pf_device){0}; /* device_add may move the model */
    size_t n = 0;
    for (size_t i = 0; i < t->n_acts; i++) {
        int id = t->acts[i].device;
        if (id < 0 || id >= PF_DEVICE_IDS || seen[id])
            continue;
        seen[id] = 1;
        pf_device *d = device_add(t, id);
        if (!d)
            return -1;
        if (model) {
            *d = copy;
            d->id = id;
            d->declared = 0;
            d->inherited = 1;
        }
        if (n++ >= UNDECLARED_NOTED)
            continue;
        if (model ? pf_trace_note(t, "device %d is not in deviceProperties; it takes the one model declared there (%s)",
                                  id, copy.name)
                  : pf_trace_note(t, "device %d is not in deviceProperties: its model is unknown", id))
            return -1;
    }
    if (n > UNDECLARED_NOTED && pf_trace_note(t, "%zu more devices are not in deviceProperties%s%s%s", n - UNDECLARED_NOTED,
                                              model ? "; they take the one model declared there (" : ": their model is unknown",
                                              model ? copy.name : "", model ? ")" : ""))
        return -1;
    return 0;
}

static int cmp_device(const void *a, const void *b)
{
    const pf_device *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

int pf_trace_devices_from_props(pf_trace *t, char *text, size_t len, pf_error *err)
{
    assert(t != NULL && err != NULL);
    assert(text != NULL || len == 0);
    unsigned char *seen = calloc(PF_DEVICE_IDS, 1);
    int rc = seen ? 0 : -1;
    if (rc == 0 && len) {
        pf_json_fix_surrogates(text, len); /* one lone \ud800 would cost cJSON the whole list */
        cJSON *arr = cJSON_ParseWithLength(text, len);
        const cJSON *o;
        if (cJSON_IsArray(arr))
            cJSON_ArrayForEach(o, arr) if (!rc) rc = device_from_json(t, o, seen);
        cJSON_Delete(arr);
    }
    if (rc == 0)
        rc = add_undeclared_devices(t, seen);
    free(seen);
    if (rc)
        return pf_fail(err, "%s: out of memory", t->path);
    if (t->n_devices > 1)
        qsort(t->devices, (size_t)t->n_devices, sizeof *t->devices, cmp_device);
    assert(devices_sorted(t)); /* pf_trace_device's binary search relies on it */
    return 0;
}

