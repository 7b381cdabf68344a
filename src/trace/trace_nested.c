/* trace_nested.c - nested ops: the records found inside an op whose formula reads them (right after it in the file, on its thread, within its span), on several threads for large traces. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "profana/mem.h"
#include "profana/op_family.h"
#include "profana/parallel.h"
#include "trace_model.h"
#include "trace_records.h"
#include "trace_vec.h"

/* An op whose formula reads the ops recorded inside it (pf_op_family_reads_nested) keeps the
 * records that follow it in the file on its thread and lie within its span: Kineto writes an
 * op's children right after it. The look-ahead is bounded so that a malformed trace cannot
 * make linking quadratic, and so is what one op keeps; a nest ends at the next op that reads
 * its own (what all nests keep is then bounded by the trace's records). */
#define NEST_SCAN 4096
#define NEST_MAX 1024

void pf_nests_free(pf_nests *ns)
{
    assert(ns != NULL);
    free(ns->list);
    free(ns->recs);
}

/* Record rec's host interval in *span; 0 when its times could not be read. */
static int rec_span(const pf_op_rec *rec, pf_cpu_event *span)
{
    *span = (pf_cpu_event){rec->name, rec->thread, rec->ts_ns, rec->dur_ns};
    return rec->ts_ns != PF_NO_SPAN;
}

/* The record after (v, i) in file order, moving the cursor there; NULL at the end. */
static const pf_op_rec *rec_after(const pf_op_recs *r, size_t *v, size_t *i)
{
    for (++*i; *v < r->n_vecs; ++*v, *i = 0)
        if (*i < r->vecs[*v]->n)
            return pf_segvec_at(r->vecs[*v], *i);
    return NULL;
}

static int push_child(pf_nests *ns, const pf_op_rec *rec)
{
    if (pf_grow((void **)&ns->recs, &ns->cap_recs, ns->n_recs + 1, sizeof *ns->recs, 64))
        return -1;
    ns->recs[ns->n_recs++] = (pf_nest_rec){rec->name, rec->key};
    return 0;
}

/* pf_op_family_reads_nested by interned name: a few hundred names, hundreds of thousands of
 * records. A slot holds one name (pointer) and its answer; -1: empty. */
typedef struct nested_names {
    const char *name[256];
    signed char reads[256];
} nested_names;

static int reads_nested(nested_names *nn, const char *name)
{
    size_t h = (size_t)(((uint64_t)(uintptr_t)name * UINT64_C(0x9E3779B97F4A7C15)) >> 56);
    if (nn->reads[h] < 0 || nn->name[h] != name) {
        nn->name[h] = name;
        nn->reads[h] = (signed char)(pf_op_family_reads_nested(name) != 0);
    }
    return nn->reads[h];
}

/* Record g at cursor (v, i), whose span is p: its children. */
static int add_nest(pf_nests *ns, nested_names *nn, const pf_op_recs *r, const pf_cpu_event *p,
                    int32_t g, size_t v, size_t i)
{
    assert(ns != NULL && nn != NULL && r != NULL && p != NULL);
    if (pf_grow((void **)&ns->list, &ns->cap, ns->n + 1, sizeof *ns->list, 16))
        return -1;
    pf_nest *n = &ns->list[ns->n++];
    *n = (pf_nest){g, ns->n_recs, 0};
    int64_t end = p->ts_ns + p->dur_ns;
    const pf_op_rec *rec;
    for (int k = 0; k < NEST_SCAN && n->n < NEST_MAX && (rec = rec_after(r, &v, &i)); k++) {
        pf_cpu_event span;
        const pf_cpu_event *c = &span;
        if (!rec_span(rec, &span) || c->thread != p->thread)
            continue;
        if (c->ts_ns > end)
            break;
        /* the next op on this thread that reads its own nested ops owns what follows, inside
         * this span or not: so nests do not overlap, and what they keep in all is at most one
         * entry per record of the trace (ops that each began inside the previous and ended
         * after it kept up to NEST_MAX entries each, the same children again and again) */
        if (reads_nested(nn, rec->name))
            break;
        if (c->ts_ns < p->ts_ns || c->ts_ns + c->dur_ns > end)
            continue;
        if (push_child(ns, rec))
            return -1;
        n->n++;
    }
    return 0;
}

/* pf_nests_find over a range of vectors: its own nests (children indexed within them). */
typedef struct nests_job {
    const pf_op_recs *r;
    const unsigned char *keep;
    const size_t *start;       /* per vector: its first record's index in the sequence */
    pf_nests *parts;              /* per range */
    int *failed;               /* per range: out of memory */
} nests_job;

static void nests_range(void *ctx, size_t v0, size_t v1, size_t k)
{
    const nests_job *j = ctx;
    nested_names nn;
    memset(nn.reads, 0xff, sizeof nn.reads);
    for (size_t v = v0; v < v1 && !j->failed[k]; v++)
        for (size_t i = 0; i < j->r->vecs[v]->n && !j->failed[k]; i++) {
            const pf_op_rec *rec = pf_segvec_at(j->r->vecs[v], i);
            int32_t g = (int32_t)(j->start[v] + i);
            if (!j->keep[g] || !reads_nested(&nn, rec->name))
                continue;
            pf_cpu_event p;
            j->failed[k] = rec_span(rec, &p) && add_nest(&j->parts[k], &nn, j->r, &p, g, v, i);
        }
}

/* The ranges' nests, in order, into ns (the parts are freed). */
static int join_nests(pf_nests *ns, pf_nests *parts, size_t w)
{
    size_t n = 0, n_recs = 0;
    for (size_t k = 0; k < w; k++) {
        n += parts[k].n;
        n_recs += parts[k].n_recs;
    }
    if (w == 1 || n == 0) { /* one part, or nothing: taken as it is */
        *ns = parts[0];
        for (size_t k = 1; k < w; k++)
            pf_nests_free(&parts[k]);
        return 0;
    }
    ns->list = malloc(n * sizeof *ns->list);
    ns->recs = malloc((n_recs ? n_recs : 1) * sizeof *ns->recs);
    int rc = ns->list && ns->recs ? 0 : -1;
    for (size_t k = 0; k < w; k++) {
        for (size_t q = 0; rc == 0 && q < parts[k].n; q++) {
            ns->list[ns->n] = parts[k].list[q];
            ns->list[ns->n++].first += ns->n_recs;
        }
        if (rc == 0 && parts[k].n_recs)
            memcpy(ns->recs + ns->n_recs, parts[k].recs, parts[k].n_recs * sizeof *ns->recs);
        ns->n_recs += rc == 0 ? parts[k].n_recs : 0;
        pf_nests_free(&parts[k]);
    }
    ns->cap = ns->n;
    ns->cap_recs = ns->n_recs;
    return rc;
}

/* The children of every kept record whose op reads them, on up to `jobs` threads (each
 * chunk's records on one; the look-ahead reads on into the next chunks): the same nests, in
 * file order, for every number of threads. */
int pf_nests_find(const pf_op_recs *r, const unsigned char *keep, pf_nests *ns, size_t jobs)
{
    assert(r != NULL && (keep != NULL || r->n == 0) && ns != NULL && jobs >= 1);
    size_t w = pf_trace_workers(r->n, r->n_vecs, jobs);
    size_t *start = malloc((r->n_vecs + 1) * sizeof *start);
    pf_nests *parts = calloc(w, sizeof *parts);
    int *failed = calloc(w, sizeof *failed);
    int rc = start && parts && failed ? 0 : -1;
    if (rc == 0) {
        start[0] = 0;
        for (size_t v = 0; v < r->n_vecs; v++)
            start[v + 1] = start[v] + r->vecs[v]->n;
        nests_job j = {r, keep, start, parts, failed};
        pf_parallel_ranges(r->n_vecs, w, nests_range, &j);
        for (size_t k = 0; k < w; k++)
            rc |= failed[k] ? -1 : 0;
    }
    if (rc == 0)
        rc = join_nests(ns, parts, w);
    else
        for (size_t k = 0; parts && k < w; k++)
            pf_nests_free(&parts[k]);
    free(start);
    free(parts);
    free(failed);
    return rc;
}
