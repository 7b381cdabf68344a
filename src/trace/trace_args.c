/* trace_args.c - reads a linked cpu_op's args (shapes, types, concrete inputs, Inductor figures) with cJSON. */
#include <assert.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profana/trace.h"
#include "trace_model.h"

/* A dimension must be a non-negative integer a double holds exactly. */
static int read_dim(const cJSON *v, int64_t *out)
{
    if (!cJSON_IsNumber(v))
        return -1;
    double d = v->valuedouble;
    if (!(d >= 0 && d <= 9007199254740992.0) || d != floor(d))
        return -1;
    *out = (int64_t)d;
    return 0;
}

static int read_shape(const cJSON *dims, pf_arg *a)
{
    int n = cJSON_GetArraySize(dims);
    if (n > PF_MAX_DIMS)
        return -1;
    a->ndim = n;
    for (int i = 0; i < n; i++)
        if (read_dim(cJSON_GetArrayItem(dims, i), &a->dims[i]))
            return -1;
    return 0;
}

/* A TensorList records a list of shapes: keep the element count only. */
static int read_list(const cJSON *dims, pf_arg *a)
{
    const cJSON *shape;
    a->is_list = 1;
    a->list_numel = 0;
    cJSON_ArrayForEach(shape, dims) {
        pf_arg one = {0};
        if (!cJSON_IsArray(shape) || read_shape(shape, &one))
            return -1;
        /* [] in a list is a 0-d tensor (a fused optimizer's state_steps): one element */
        int64_t n = one.ndim == 0 ? 1 : pf_arg_numel(&one);
        if (n < 0 || a->list_numel > INT64_MAX - n)
            return -1;
        a->list_numel += n;
    }
    return 0;
}

static int read_dims(const cJSON *dims, pf_arg *a)
{
    if (!cJSON_IsArray(dims))
        return -1;
    const cJSON *first = cJSON_GetArrayItem(dims, 0);
    if (first && cJSON_IsArray(first))
        return read_list(dims, a);
    return read_shape(dims, a);
}

/* Marks the dims whose stride is 0 (an expanded tensor). Strides that are missing, of
 * another length than the dims, or unreadable say nothing: the tensor counts whole. */
static void read_strides(const cJSON *strides, pf_arg *a)
{
    if (!cJSON_IsArray(strides) || a->is_list || cJSON_GetArraySize(strides) != a->ndim)
        return;
    for (int d = 0; d < a->ndim; d++) {
        const cJSON *v = cJSON_GetArrayItem(strides, d);
        if (cJSON_IsNumber(v) && v->valuedouble == 0 && a->dims[d] > 1)
            a->expanded |= 1u << d;
    }
}

/* A TensorList recorded as [] is empty or was recorded without its elements' shapes: recent
 * PyTorch writes some TensorLists as [] (a fused AdamW's every list on a T5 step, a
 * _foreach_add_ on a ResNet all-reduce), older ones [[8192, 512], ...]. One call never mixes
 * the two: where another list of the call has shapes, [] is a list of nothing (AdamW's
 * max_exp_avg_sqs without amsgrad); where every list is [], an op over empty lists that
 * launched work would have done none, so their shapes were not recorded (list_numel -1). */
static void mark_bare_lists(pf_arg *args, int n, int bare, int shaped)
{
    if (bare == 0 || shaped > 0)
        return;
    for (int i = 0; i < n; i++)
        if (args[i].is_list)
            args[i].list_numel = -1;
}

static const char *string_at(pf_trace *t, const cJSON *arr, int i)
{
    const cJSON *v = cJSON_GetArrayItem(arr, i);
    if (!cJSON_IsString(v))
        return "";
    const char *s = pf_trace_intern_text(t, v->valuestring);
    return s ? s : "";
}

static double number_or(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) && isfinite(v->valuedouble) && v->valuedouble >= 0 ? v->valuedouble : -1;
}

static int read_inputs(pf_trace *t, pf_cpu_op *op, const cJSON *root)
{
    const cJSON *dims = cJSON_GetObjectItemCaseSensitive(root, "Input Dims");
    const cJSON *types = cJSON_GetObjectItemCaseSensitive(root, "Input type");
    const cJSON *conc = cJSON_GetObjectItemCaseSensitive(root, "Concrete Inputs");
    const cJSON *strides = cJSON_GetObjectItemCaseSensitive(root, "Input Strides");
    if (!dims)
        return 0; /* the op recorded no shapes: it simply has no figures */
    if (!cJSON_IsArray(dims) || (types && !cJSON_IsArray(types)) || (conc && !cJSON_IsArray(conc)))
        return -1;
    int n = cJSON_GetArraySize(dims);
    if ((types && cJSON_GetArraySize(types) != n) || n > 4096)
        return -1;
    pf_arg *args = calloc((size_t)(n ? n : 1), sizeof *args);
    if (!args)
        return -1;
    op->call.args = args;
    op->call.nargs = n;
    int bare = 0, shaped = 0;
    for (int i = 0; i < n; i++) {
        if (read_dims(cJSON_GetArrayItem(dims, i), &args[i]))
            return -1;
        args[i].type = string_at(t, types, i);
        args[i].concrete = string_at(t, conc, i);
        /* a TensorList recorded as [], like a scalar: empty, or its shapes not recorded */
        if (!args[i].is_list && args[i].ndim == 0 && strcmp(args[i].type, "TensorList") == 0) {
            args[i].is_list = 1;
            bare++;
        } else if (args[i].is_list) {
            shaped++;
        }
        if (cJSON_IsArray(strides) && cJSON_GetArraySize(strides) == n)
            read_strides(cJSON_GetArrayItem(strides, i), &args[i]);
    }
    mark_bare_lists(args, n, bare, shaped);
    return 0;
}

int pf_trace_parse_op_args(pf_trace *t, pf_cpu_op *op, const char *text, size_t len)
{
    assert(t != NULL && op != NULL);
    assert(text != NULL || len == 0);
    cJSON *root = cJSON_ParseWithLength(text, len);
    int rc = cJSON_IsObject(root) ? read_inputs(t, op, root) : -1;
    if (rc == 0) {
        op->kernel_flop = number_or(root, "kernel_flop");
        op->kernel_num_gb = number_or(root, "kernel_num_gb");
        const cJSON *kf = cJSON_GetObjectItemCaseSensitive(root, "kernel_file");
        op->kernel_file = cJSON_IsString(kf) && kf->valuestring[0] ? pf_trace_intern_text(t, kf->valuestring) : NULL;
    } else {
        free((void *)op->call.args);
        op->call.args = NULL;
        op->call.nargs = 0;
        op->bad_args = 1;
    }
    cJSON_Delete(root);
    return rc;
}
