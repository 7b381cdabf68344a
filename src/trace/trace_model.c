/* trace_model.c - the model's core: notes and warnings, decoded text interned, the store the ops point into, freeing, and the thread count of the link steps (links: trace_links.c, nested ops: trace_nested.c, launch calls: trace_launches.c). */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/jscan.h"
#include "profana/mem.h"
#include "trace_model.h"

static int add_line(char ***lines, int *n, const char *fmt, va_list ap)
{
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    char **l = realloc(*lines, (size_t)(*n + 1) * sizeof *l);
    if (!l)
        return -1;
    *lines = l;
    if (!(l[*n] = strdup(buf)))
        return -1;
    ++*n;
    return 0;
}

int pf_trace_note(pf_trace *t, const char *fmt, ...)
{
    assert(t != NULL && fmt != NULL);
    va_list ap;
    va_start(ap, fmt);
    int rc = add_line(&t->notes, &t->n_notes, fmt, ap);
    va_end(ap);
    return rc;
}

int pf_trace_warn(pf_trace *t, const char *fmt, ...)
{
    assert(t != NULL && fmt != NULL);
    va_list ap;
    va_start(ap, fmt);
    int rc = add_line(&t->warnings, &t->n_warnings, fmt, ap);
    va_end(ap);
    return rc;
}

/* What the ops point into: arg arrays that they share (one per distinct args text) and the
 * calls of nested ops (pf_op_call.nested). */
struct pf_trace_store {
    void **arrays;
    size_t n, cap;
};

int pf_trace_store_add(pf_trace *t, void *a)
{
    assert(t != NULL && a != NULL);
    struct pf_trace_store *st = t->store;
    if (!st && !(st = t->store = calloc(1, sizeof *st)))
        return -1;
    if (pf_grow((void **)&st->arrays, &st->cap, st->n + 1, sizeof *st->arrays, 64))
        return -1;
    st->arrays[st->n++] = a;
    return 0;
}

const char *pf_trace_intern_text(pf_trace *t, const char *s)
{
    assert(t != NULL && s != NULL);
    char *clean = pf_json_text_dup(s);
    const char *r = clean ? pf_strtab_intern(t->strings, clean, strlen(clean)) : NULL;
    free(clean);
    return r;
}

/* Threads for n items of work over `parts` parts: one for a small job (under 64 Ki items,
 * where starting threads costs more than it saves), else up to one a part. */
size_t pf_trace_workers(size_t n, size_t parts, size_t jobs)
{
    assert(jobs >= 1);
    return n < 65536 ? 1 : jobs < parts ? jobs : parts ? parts : 1;
}

static void store_free(struct pf_trace_store *st)
{
    if (!st)
        return;
    for (size_t i = 0; i < st->n; i++)
        free(st->arrays[i]);
    free(st->arrays);
    free(st);
}

static void free_lines(char **lines, int n)
{
    for (int i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
}

void pf_trace_free(pf_trace *t)
{
    if (!t)
        return;
    store_free(t->store);
    free_lines(t->notes, t->n_notes);
    free_lines(t->warnings, t->n_warnings);
    for (size_t i = 0; i < t->n_adopted; i++)
        pf_trace_free(t->adopted[i]);
    free(t->adopted);
    free(t->launches);
    free(t->ops);
    free(t->acts);
    free(t->cpu);
    free(t->marks);
    free(t->autograd);
    free(t->gpu_steps);
    free(t->cpu_steps);
    free(t->devices);
    free(t->host_name);
    pf_strtab_free(t->strings);
    free(t);
}
