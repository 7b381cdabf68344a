/* group_keys.c - the keys rows are grouped by: --group shape's "aten::mm([2048,512]bf16, [512,512]bf16)", built once per op. */
#include "pipeline.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int pf_an_append(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
    assert(buf && len && fmt);
    if (*len >= n)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *len, n - *len, fmt, ap);
    va_end(ap);
    if (w < 0 || (size_t)w >= n - *len) {
        *len = n;
        return -1;
    }
    *len += (size_t)w;
    return 0;
}

void pf_key_append_arg(char *buf, size_t n, size_t *len, const pf_arg *a, int with_dtype)
{
    assert(buf && len && a);
    if (a->is_list && a->list_numel < 0) {
        pf_an_append(buf, n, len, "list[?]"); /* recorded [] without its shapes */
    } else if (a->is_list) {
        pf_an_append(buf, n, len, "list[%lld]", (long long)a->list_numel);
    } else if (a->ndim > 0 || pf_type_size(a->type) > 0) {
        pf_an_append(buf, n, len, "[");
        for (int d = 0; d < a->ndim; d++)
            pf_an_append(buf, n, len, d ? ",%lld" : "%lld", (long long)a->dims[d]);
        pf_an_append(buf, n, len, "]");
    } else {
        pf_an_append(buf, n, len, "%s", a->concrete[0] ? a->concrete : "-");
        return;
    }
    if (!with_dtype)
        return;
    pf_dtype d = pf_dtype_from_type_string(a->type);
    pf_an_append(buf, n, len, "%s", d != PF_DT_UNKNOWN ? pf_dtype_name(d) : a->type);
}

void pf_key_append_args(char *buf, size_t n, size_t *len, const pf_op_call *call, int with_dtype)
{
    assert(buf && len && call);
    for (int i = 0; i < call->nargs && *len < n; i++) {
        if (i)
            pf_an_append(buf, n, len, ", ");
        pf_key_append_arg(buf, n, len, &call->args[i], with_dtype);
    }
}

/* "aten::mm([2048,512]bf16, [512,512]bf16)": the op with the shapes and dtypes of its inputs. */
static const char *shape_key(pf_analysis *an, const pf_cpu_op *op)
{
    assert(an->keys && op->name);
    char buf[1024];
    size_t len = 0;
    pf_an_append(buf, sizeof buf, &len, "%s(", op->name);
    pf_key_append_args(buf, sizeof buf, &len, &op->call, 1);
    pf_an_append(buf, sizeof buf, &len, ")");
    if (len >= sizeof buf)
        len = sizeof buf - 1;
    return pf_strtab_intern(an->keys, buf, len);
}

/* pipeline.h; one key per op, however many of its activities ran. */
int pf_an_shape_keys(pf_analysis *an, const dev_acc *accs, const char ***out)
{
    assert(an && out && (accs || an->trace->n_devices == 0));
    const pf_trace *t = an->trace;
    *out = NULL;
    if (an->opts.group != PF_GROUP_SHAPE)
        return 0;
    const char **keys = calloc(t->n_ops ? t->n_ops : 1, sizeof *keys);
    if (!keys)
        return -1;
    *out = keys;
    for (int d = 0; d < t->n_devices; d++)
        for (size_t k = 0; k < accs[d].n_acts; k++) {
            int32_t op = t->acts[accs[d].acts[k]].op;
            if (op >= 0 && !keys[op] && !(keys[op] = shape_key(an, &t->ops[op])))
                return -1;
        }
    return 0;
}
