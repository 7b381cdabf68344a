/* inductor_src.c - finds and reads the Inductor kernel module a Triton launch names (kernel_file), so that its figures come from the module's own text (triton.h). */
#include <assert.h>
#include <errno.h>
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

/* The module of op (at its recorded path, else under dir), or NULL with *why. */
static char *read_module(const pf_cpu_op *op, const char *dir, size_t *len, const char **why)
{
    if (!op->kernel_file) {
        *why = "the launch records no kernel_file";
        return NULL;
    }
    char *text = NULL;
    if (dir) {
        char *p = cache_path(dir, op->kernel_file);
        text = p ? read_regular(p, len, why) : NULL;
        if (!p)
            *why = "the recorded kernel_file has no folder/file.py ending";
        free(p);
        if (text)
            return text;
    }
    const char *why_dir = *why;
    text = read_regular(op->kernel_file, len, why);
    if (!text && dir)
        *why = why_dir;
    return text;
}

int pf_op_figures(const pf_cpu_op *op, const pf_analysis_opts *o, pf_explain *ex, pf_work *w)
{
    assert(op && o && w);
    if (!pf_triton_is_launch(op->call.name) || pf_formula_lookup(op->call.name))
        return pf_formula_apply_ex(&op->call, o->default_dtype, ex, w);
    const char *why = "";
    size_t len = 0;
    char *text = read_module(op, o->inductor_cache, &len, &why);
    int rc = pf_triton_work(&op->call, text, len, why, ex, w);
    free(text);
    return rc;
}
