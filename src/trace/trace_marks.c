/* trace_marks.c - which host events are marks that the diagnosis reads: runtime calls that block the host until the GPU is done, and cpu_ops that read a GPU value back. */
#include <assert.h>
#include <string.h>

#include "profana/trace.h"

/* A name and its length: every runtime call and cpu_op of a trace is looked up, so lengths
 * are compared before bytes. */
typedef struct lit {
    const char *s;
    size_t n;
} lit;
#define L(x) {x, sizeof x - 1}

static int in_list(const lit *list, size_t count, const char *name, size_t len)
{
    assert(list != NULL && (name != NULL || len == 0));
    for (size_t i = 0; i < count; i++)
        if (list[i].n == len && memcmp(list[i].s, name, len) == 0)
            return 1;
    return 0;
}

int pf_mark_is_sync(const char *name, size_t len)
{
    /* cudaMemcpyAsync and the copies that take a stream return at once; cudaMemcpy and
     * hipMemcpyWithStream wait for the copy (and so for the work queued before it). */
    static const lit sync[] = {
        L("cudaDeviceSynchronize"), L("cudaStreamSynchronize"), L("cudaEventSynchronize"), L("cudaMemcpy"),
        L("cudaMemcpy2D"), L("cudaMemcpy3D"), L("cuCtxSynchronize"), L("cuStreamSynchronize"),
        L("cuEventSynchronize"), L("hipDeviceSynchronize"), L("hipStreamSynchronize"), L("hipEventSynchronize"),
        L("hipMemcpy"), L("hipMemcpy2D"), L("hipMemcpyWithStream")};
    assert(name != NULL || len == 0);
    return len >= 9 && (name[0] == 'c' || name[0] == 'h') && in_list(sync, sizeof sync / sizeof *sync, name, len);
}

int pf_mark_is_blocking_op(const char *name, size_t len)
{
    static const lit ops[] = {L("aten::item"),         L("aten::_local_scalar_dense"), L("aten::nonzero"),
                              L("aten::unique"),       L("aten::_unique2"), L("aten::unique_consecutive"),
                              L("aten::masked_select"), L("aten::equal"), L("aten::is_nonzero")};
    assert(name != NULL || len == 0);
    return len >= 10 && name[0] == 'a' && name[4] == ':' && in_list(ops, sizeof ops / sizeof *ops, name, len);
}
