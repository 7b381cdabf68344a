/* diag_list.c - the diagnosis's shared pieces: the growing list of findings, a name cut to fit prose, a time's share of the span (below diagnose.c and diag_patterns.c, so neither calls the other). */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "profana/demangle.h"

pf_finding *pf_diag_add(pf_diag_list *l, const char *kind)
{
    assert(l != NULL && kind != NULL);
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 8;
        pf_finding *nf = realloc(l->f, (size_t)cap * sizeof *nf);
        if (!nf)
            return NULL;
        l->f = nf;
        l->cap = cap;
    }
    pf_finding *f = &l->f[l->n++];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->time_us = f->pct = -1;
    return f;
}

const char *pf_diag_name(char *buf, size_t cap, const char *name)
{
    assert(buf != NULL && cap >= 4 && name != NULL);
    char *plain = pf_demangle(name); /* ROCm's kernels come mangled */
    if (plain)
        name = plain;
    size_t n = strlen(name), most = cap - 1 < 72 ? cap - 1 : 72;
    if (n <= most) {
        memcpy(buf, name, n + 1);
    } else {
        memcpy(buf, name, most - 3);
        memcpy(buf + most - 3, "...", 4);
    }
    free(plain);
    return buf;
}

double pf_diag_pct(double time_us, int64_t span_ns)
{
    return time_us >= 0 && span_ns > 0 ? 100.0 * time_us * 1e3 / (double)span_ns : -1;
}
