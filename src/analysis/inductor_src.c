/* inductor_src.c - finds and reads the Inductor kernel module a Triton launch names (kernel_file), so that its figures come from the module's own text (triton.h); each module read and parsed once a run. */
#include "inductor_src.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profana/analysis.h"
#include "profana/regfile.h"
#include "profana/triton.h"

/* Inductor writes a few KB a kernel; a module past this is no kernel module. */
enum { MODULE_MAX_BYTES = 16 << 20 };

/* Reads path if it is a regular file of at most MODULE_MAX_BYTES: never opens a FIFO (which
 * blocks) or a device (which an open can arm: /dev/ptmx, a watchdog) that a trace names, with
 * --inductor-cache or without (pf_open_regular checks before it opens). Returns the text
 * (malloc'd, *len bytes) or NULL with *why. */
static char *read_regular(const char *path, size_t *len, const char **why)
{
    struct stat st;
    int fd = pf_open_regular(path, &st);
    *len = 0;
    if (fd == -2) {
        *why = S_ISFIFO(st.st_mode)  ? "the module path is a FIFO, not a regular file: passed over"
               : S_ISCHR(st.st_mode) ? "the module path is a character device, not a regular file: passed over"
                                     : "the module path is not a regular file: passed over";
        return NULL;
    }
    if (fd < 0) {
        *why = errno == ENOENT ? "the module is not at its recorded path (pass --inductor-cache DIR)"
                               : "the module cannot be opened";
        return NULL;
    }
    if (st.st_size > MODULE_MAX_BYTES) {
        *why = "the module path is not a regular file of at most 16 MB";
        close(fd);
        return NULL;
    }
    char *text = malloc((size_t)st.st_size + 1);
    size_t n = 0;
    ssize_t r = 1;
    while (text && n < (size_t)st.st_size && (r = read(fd, text + n, (size_t)st.st_size - n)) > 0)
        n += (size_t)r;
    close(fd);
    if (!text || r < 0) {
        free(text);
        *why = "the module cannot be read";
        return NULL;
    }
    *len = n;
    return text;
}

/* DIR/xx/cxxxx.py for a recorded path .../xx/cxxxx.py: Inductor's cache keeps each module
 * under a folder named by the first characters of its hash, so a copy of the cache directory
 * holds it at the same last two components. NULL when the path has fewer or memory is out. */
static char *cache_path(const char *dir, const char *recorded)
{
    const char *base = strrchr(recorded, '/');
    if (!base || base == recorded)
        return NULL;
    const char *parent = base - 1;
    while (parent > recorded && parent[-1] != '/')
        parent--;
    size_t n = strlen(dir) + 1 + strlen(parent) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, parent);
    return p;
}

/* ---- the run's modules ---- */

typedef struct module {
    char *path;
    off_t size;
    pf_triton_kernel *k;       /* NULL: not a module profana reads (why) */
    const char *why;
} module;

struct pf_modules {
    pthread_mutex_t lock;      /* over everything below */
    double budget_s;
    module **slots;            /* open addressing by path and size */
    size_t cap, n;
    char **notes;
    int n_notes;
};

pf_modules *pf_modules_new(double budget_s)
{
    assert(budget_s > 0);
    pf_modules *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->budget_s = budget_s;
    m->cap = 64;
    m->slots = calloc(m->cap, sizeof *m->slots);
    if (!m->slots || pthread_mutex_init(&m->lock, NULL)) {
        free(m->slots);
        free(m);
        return NULL;
    }
    return m;
}

char **pf_modules_free_notes(pf_modules *m, int *n)
{
    assert(n);
    *n = 0;
    if (!m)
        return NULL;
    char **notes = m->notes;
    *n = m->n_notes;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i]) {
            free(m->slots[i]->path);
            free(m->slots[i]->k);
            free(m->slots[i]);
        }
    free(m->slots);
    pthread_mutex_destroy(&m->lock);
    free(m);
    return notes;
}

void pf_modules_free(pf_modules *m)
{
    int n;
    char **notes = pf_modules_free_notes(m, &n);
    for (int i = 0; i < n; i++)
        free(notes[i]);
    free(notes);
}

static size_t slot_of(const pf_modules *m, const char *path, off_t size)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (const char *s = path; *s; s++)
        h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
    h ^= (uint64_t)size * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t)(h ^ h >> 29) & (m->cap - 1);
}

/* The slot of (path, size): its entry, or the free slot where it goes. */
static module **find_slot(pf_modules *m, const char *path, off_t size)
{
    size_t i = slot_of(m, path, size);
    while (m->slots[i] && !(m->slots[i]->size == size && strcmp(m->slots[i]->path, path) == 0))
        i = (i + 1) & (m->cap - 1);
    return &m->slots[i];
}

static int grow(pf_modules *m)
{
    pf_modules bigger = *m;
    bigger.cap = m->cap * 2;
    bigger.slots = calloc(bigger.cap, sizeof *bigger.slots);
    if (!bigger.slots)
        return -1;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i])
            *find_slot(&bigger, m->slots[i]->path, m->slots[i]->size) = m->slots[i];
    free(m->slots);
    m->slots = bigger.slots;
    m->cap = bigger.cap;
    return 0;
}

/* One note more; memory out: the note is lost, not the run. */
static void add_note(pf_modules *m, const char *path)
{
    char **notes = realloc(m->notes, (size_t)(m->n_notes + 1) * sizeof *notes);
    if (!notes)
        return;
    m->notes = notes;
    size_t n = strlen(path) + 200;
    char *s = malloc(n);
    if (!s)
        return;
    snprintf(s, n,
             "%s: parsing the Inductor module ran past its time budget (%g s of CPU time): its launches have "
             "the trace-only lower bound (source triton~lb)",
             path, m->budget_s);
    m->notes[m->n_notes++] = s;
}

/* The module at path, read and parsed on its first use (m locked): its entry, or NULL with
 * *why when it cannot be read (the read is tried again by a later launch: a missing file costs
 * a failed open, not a parse). */
static const module *module_at(pf_modules *m, const char *path, const char **why)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
        module *e = *find_slot(m, path, st.st_size);
        if (e)
            return e;
    }
    size_t len;
    char *text = read_regular(path, &len, why);
    if (!text)
        return NULL;
    module *e = calloc(1, sizeof *e);
    if (e)
        e->path = strdup(path);
    if (e)
        e->k = malloc(sizeof *e->k);
    if (!e || !e->path || !e->k || ((m->n + 1) * 2 > m->cap && grow(m))) {
        if (e) {
            free(e->path);
            free(e->k);
        }
        free(e);
        free(text);
        *why = "out of memory";
        return NULL;
    }
    e->size = (off_t)len;
    int rc = pf_triton_parse_within(text, len, m->budget_s, e->k, &e->why);
    free(text);
    if (rc) {
        free(e->k);
        e->k = NULL;
    }
    if (rc == -2)
        add_note(m, path);
    module **slot = find_slot(m, e->path, e->size);
    if (*slot) { /* the file changed size between the stat and the read: keep the first */
        free(e->path);
        free(e->k);
        free(e);
        return *slot;
    }
    *slot = e;
    m->n++;
    return e;
}

/* The module of op (at its recorded path, else under dir), or NULL with *why. */
static const module *op_module(pf_modules *m, const pf_cpu_op *op, const char *dir, const char **why)
{
    if (!op->kernel_file) {
        *why = "the launch records no kernel_file";
        return NULL;
    }
    const module *e = NULL;
    pthread_mutex_lock(&m->lock);
    if (dir) {
        char *p = cache_path(dir, op->kernel_file);
        e = p ? module_at(m, p, why) : NULL;
        if (!p)
            *why = "the recorded kernel_file has no folder/file.py ending";
        free(p);
    }
    if (!e) {
        const char *why_dir = *why;
        e = module_at(m, op->kernel_file, why);
        if (!e && dir)
            *why = why_dir;
    }
    pthread_mutex_unlock(&m->lock);
    return e;
}

int pf_op_figures(const pf_cpu_op *op, const pf_analysis_opts *o, pf_explain *ex, pf_work *w)
{
    assert(op && o && w);
    if (!pf_triton_is_launch(op->call.name) || pf_formula_lookup(op->call.name))
        return pf_formula_apply_ex(&op->call, o->default_dtype, ex, w);
    pf_modules *own = o->modules ? NULL : pf_modules_new(PF_MODULE_BUDGET_S);
    pf_modules *m = o->modules ? o->modules : own;
    const char *why = "out of memory";
    const module *e = m ? op_module(m, op, o->inductor_cache, &why) : NULL;
    int rc = pf_triton_work_parsed(&op->call, e ? e->k : NULL, e ? e->why : why, ex, w);
    pf_modules_free(own);
    return rc;
}
