/* trace_marks.c - which host events are marks that the diagnosis reads: runtime calls that block the host until the GPU is done, and cpu_ops that read a GPU value back. */
#include <assert.h>
#include <string.h>

#include "profana/trace.h"

static int in_list(const char *const *list, const char *name, size_t len)
{
    assert(list != NULL && (name != NULL || len == 0));
    for (; *list; list++)
        if (strlen(*list) == len && memcmp(*list, name, len) == 0)
            return 1;
    return 0;
}

int pf_mark_is_sync(const char *name, size_t len)
{
    /* cudaMemcpyAsync and the copies that take a stream return at once; cudaMemcpy and
     * hipMemcpyWithStream wait for the copy (and so for the work queued before it). */
    static const char *const sync[] = {
        "cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize", "cudaMemcpy",
        "cudaMemcpy2D", "cudaMemcpy3D", "cuCtxSynchronize", "cuStreamSynchronize", "cuEventSynchronize",
        "hipDeviceSynchronize", "hipStreamSynchronize", "hipEventSynchronize", "hipMemcpy", "hipMemcpy2D",
        "hipMemcpyWithStream", NULL};
    assert(name != NULL || len == 0);
    return len >= 10 && (name[0] == 'c' || name[0] == 'h') && in_list(sync, name, len);
}

int pf_mark_is_blocking_op(const char *name, size_t len)
{
    static const char *const ops[] = {"aten::item", "aten::_local_scalar_dense", "aten::nonzero", "aten::unique",
                                      "aten::_unique2", "aten::unique_consecutive", "aten::masked_select",
                                      "aten::equal", "aten::is_nonzero", NULL};
    assert(name != NULL || len == 0);
    return len >= 10 && name[0] == 'a' && name[4] == ':' && in_list(ops, name, len);
}
