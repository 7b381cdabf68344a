/* cmd_ranks.c - `--ranks PATH... DTYPE`: expands directories into their traces, summaries and NCCL Inspector logs, has the ranks engine (include/profana/ranks.h) load, summarise and match them, and prints the view (src/render/ranks_view.c) and writes the --plot ranks and --report files (src/render/report_html.c). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profana/cli.h"
#include "profana/ranks.h"
#include "profana/ranks_culprit.h"
#include "profana/ranks_inspector.h"
#include "profana/report.h"

/* What a file holds, when its first bytes were already read (a directory's entries). */
enum { KIND_UNKNOWN = -1, KIND_OTHER = 0, KIND_INSPECTOR = 1 };

typedef struct path_list {
    char **v;
    signed char *kind;         /* kind[i]: KIND_* of v[i] */
    size_t n, cap;
} path_list;

static int push_kind(path_list *l, const char *dir, const char *name, int kind)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return -1;
        l->v = v;
        signed char *k = realloc(l->kind, cap);
        if (!k)
            return -1;
        l->kind = k;
        l->cap = cap;
    }
    l->kind[l->n] = (signed char)kind;
    size_t need = (dir ? strlen(dir) + 1 : 0) + strlen(name) + 1;
    char *p = malloc(need);
    if (!p)
        return -1;
    snprintf(p, need, "%s%s%s", dir ? dir : "", dir ? "/" : "", name);
    l->v[l->n++] = p;
    return 0;
}

static int push(path_list *l, const char *dir, const char *name)
{
    return push_kind(l, dir, name, KIND_UNKNOWN);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && strcmp(s + n - k, suffix) == 0;
}

typedef struct name_kind {
    char *path;
    signed char kind;
} name_kind;

static int by_name(const void *x, const void *y)
{
    return strcmp(((const name_kind *)x)->path, ((const name_kind *)y)->path);
}

/* Sorts l's entries [first, n) by name, their kinds with them. */
static int sort_names(path_list *l, size_t first)
{
    size_t m = l->n - first;
    name_kind *t = malloc((m ? m : 1) * sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < m; i++)
        t[i] = (name_kind){l->v[first + i], l->kind[first + i]};
    qsort(t, m, sizeof *t, by_name);
    for (size_t i = 0; i < m; i++) {
        l->v[first + i] = t[i].path;
        l->kind[first + i] = t[i].kind;
    }
    free(t);
    return 0;
}

/* Whether the directory entry name of dir is a rank's input: a regular file (or a link to
 * one) named .json or .json.gz, or another regular file that holds a summary or an NCCL
 * Inspector log, whatever its name. Anything else (a FIFO would block the run, a socket, a device, a subdirectory) is
 * passed over, with a warning when its name says trace. A regular file that cannot be read
 * might be a rank's summary: never passed over without a word. Returns 1, 0, or -1 after
 * printing why; *kind receives KIND_INSPECTOR or KIND_OTHER when the first bytes were read. */
static int is_rank_file(const char *dir, const char *name, int *kind)
{
    *kind = KIND_UNKNOWN;
    if (name[0] == '.')
        return 0;
    size_t need = strlen(dir) + strlen(name) + 2;
    char *p = malloc(need);
    if (!p) {
        fprintf(stderr, "profana: error: out of memory\n");
        return -1;
    }
    snprintf(p, need, "%s/%s", dir, name);
    int named = ends_with(name, ".json") || ends_with(name, ".json.gz");
    struct stat st;
    int fd, yes = 0;
    int gone = stat(p, &st) != 0 ? errno : 0;
    if (gone == ENOENT) { /* a dangling link, or removed since readdir */
        fprintf(stderr, "profana: warning: %s: no such file (a dangling link?), passed over\n", p);
    } else if (gone) {
        fprintf(stderr, "profana: error: %s: cannot stat: %s\n", p, strerror(gone));
        yes = -1;
    } else if (!S_ISREG(st.st_mode)) {
        if (named)
            fprintf(stderr, "profana: warning: %s: not a regular file, passed over\n", p);
    } else {
        /* the first bytes once: a summary, an Inspector log, or (named so) a trace */
        char head[128];
        pf_error err;
        long n = pf_source_head(p, head, sizeof head, &err);
        if (n < 0 && (fd = open(p, O_RDONLY)) < 0) {
            fprintf(stderr, "profana: error: %s: cannot read: %s\n", p, strerror(errno));
            free(p);
            return -1;
        }
        if (n < 0)
            close(fd);
        int insp = n > 0 && pf_inspector_sniff_text(head, (size_t)n);
        *kind = insp ? KIND_INSPECTOR : KIND_OTHER;
        yes = named || insp || (n > 0 && pf_rank_summary_sniff_text(head, (size_t)n));
    }
    free(p);
    return yes;
}

/* The .json and .json.gz files directly in dir and its other files that hold summaries, by
 * name (the order that gives ranks to traces without distributedInfo.rank). Returns 0, or an
 * exit status after printing why. */
static int add_dir(path_list *l, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "profana: error: %s: cannot read the directory\n", dir);
        return PF_EXIT_TRACE;
    }
    size_t first = l->n;
    struct dirent *e;
    int rc = 0;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        int kind, yes = is_rank_file(dir, e->d_name, &kind);
        if (yes < 0)
            rc = PF_EXIT_TRACE;
        else if (yes && push_kind(l, dir, e->d_name, kind))
            rc = pf_cli_error("out of memory");
    }
    closedir(d);
    if (rc)
        return rc;
    if (l->n == first) {
        fprintf(stderr, "profana: error: %s: no .json or .json.gz traces, no summaries and no NCCL Inspector logs in the "
                        "directory\n", dir);
        return PF_EXIT_TRACE;
    }
    return sort_names(l, first) ? pf_cli_error("out of memory") : 0;
}

static int expand(const pf_cli *cli, int n, path_list *l)
{
    for (int k = 0; k < n; k++) {
        const char *p = cli->pos[k];
        struct stat st;
        int bad = pf_cli_need_rereadable(p, "--ranks");
        if (bad)
            return bad;
        int rc = stat(p, &st) == 0 && S_ISDIR(st.st_mode) ? add_dir(l, p) : push(l, NULL, p) ? pf_cli_error("out of memory") : 0;
        if (rc)
            return rc;
    }
    return 0;
}

/* One file of the list by device and inode, and its place in the list. */
typedef struct file_at {
    dev_t dev;
    ino_t ino;
    size_t i;
} file_at;

static int by_file(const void *x, const void *y)
{
    const file_at *a = x, *b = y;
    if (a->dev != b->dev)
        return a->dev < b->dev ? -1 : 1;
    if (a->ino != b->ino)
        return a->ino < b->ino ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* A trace (or summary) named twice, by one path or two (a link, "./x", a directory and a
 * file in it), would be counted as two ranks: refused, one line, exit 2, before anything is
 * read. A name that cannot be stat'ed is left to the loader. Returns 0 or an exit status. */
static int named_once(const path_list *l)
{
    file_at *k = malloc((l->n ? l->n : 1) * sizeof *k);
    if (!k)
        return pf_cli_error("out of memory");
    size_t m = 0;
    struct stat st;
    for (size_t i = 0; i < l->n; i++)
        if (stat(l->v[i], &st) == 0)
            k[m++] = (file_at){st.st_dev, st.st_ino, i};
    qsort(k, m, sizeof *k, by_file);
    int rc = 0;
    for (size_t j = 1; j < m && !rc; j++)
        if (k[j].dev == k[j - 1].dev && k[j].ino == k[j - 1].ino) {
            fprintf(stderr, "profana: error: %s: the same file as %s: a trace named twice would count as two ranks\n",
                    l->v[k[j].i], l->v[k[j - 1].i]);
            rc = PF_EXIT_USAGE;
        }
    free(k);
    return rc;
}

static void print_warnings(const char *w)
{
    while (w && *w) {
        const char *nl = strchr(w, '\n');
        size_t len = nl ? (size_t)(nl - w) : strlen(w);
        fprintf(stderr, "profana: warning: %.*s\n", (int)len, w);
        w += len + (nl != NULL);
    }
}

static void free_list(path_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    free(l->kind);
    *l = (path_list){0};
}

/* Moves the NCCL Inspector logs of l (told by their content) to insp, keeping the order. */
static int split_inspector(path_list *l, path_list *insp)
{
    size_t k = 0;
    for (size_t i = 0; i < l->n; i++) {
        int is_log = l->kind[i] == KIND_UNKNOWN ? pf_inspector_sniff(l->v[i]) : l->kind[i] == KIND_INSPECTOR;
        if (!is_log) {
            l->kind[k] = l->kind[i];
            l->v[k++] = l->v[i];
            continue;
        }
        if (push(insp, NULL, l->v[i]))
            return pf_cli_error("out of memory");
        free(l->v[i]);
    }
    l->n = k;
    return 0;
}

static int run(const pf_cli *cli, path_list *l)
{
    pf_rank_summary *s;
    char *warnings;
    pf_error err;
    path_list il = {0};
    int irc = split_inspector(l, &il);
    if (irc) {
        free_list(&il);
        return irc;
    }
    if (pf_ranks_load((const char *const *)l->v, l->n, &cli->load, &s, &warnings, &err)) {
        free_list(&il);
        return pf_cli_error(err.msg);
    }
    print_warnings(warnings);
    free(warnings);
    pf_ranks_report rep;
    if (pf_ranks_match(s, l->n, &rep, &err)) {
        free_list(&il);
        pf_ranks_free(s, l->n);
        return pf_cli_error(err.msg);
    }
    pf_culprit_report cul;
    if (pf_ranks_culprits(s, l->n, &rep, &cul, &err)) {
        free_list(&il);
        pf_ranks_report_free(&rep);
        pf_ranks_free(s, l->n);
        return pf_cli_error(err.msg);
    }
    pf_insp_report insp;
    int have_insp = il.n > 0;
    if (have_insp && pf_ranks_inspector((const char *const *)il.v, il.n, cli->load.jobs, s, l->n, &rep, &insp, &err)) {
        free_list(&il);
        pf_culprit_report_free(&cul);
        pf_ranks_report_free(&rep);
        pf_ranks_free(s, l->n);
        return pf_cli_error(err.msg);
    }
    free_list(&il);
    /* --plot / --report files written first, put in place once standard output went out whole */
    pf_view_opts v = pf_cli_view_opts(cli);
    pf_ranks_run run_ = {s, l->n, &rep, &cul, (const char *const *)l->v, l->n};
    pf_plot_files files;
    int rc = PF_EXIT_OK;
    if (pf_plots_write_ranks(&v, &run_, &files, &err))
        rc = pf_cli_error(err.msg);
    else if (pf_view_ranks(stdout, cli->format, cli->wide ? 0 : pf_cli_width(), s, l->n, &rep, &cul,
                           have_insp ? &insp : NULL))
        rc = pf_cli_error("out of memory");
    else
        rc = pf_cli_stdout_status();
    if (rc == PF_EXIT_OK && pf_plots_commit(&files, &err))
        rc = pf_cli_error(err.msg);
    else if (rc != PF_EXIT_OK)
        pf_plots_abort(&files);
    if (have_insp)
        pf_insp_report_free(&insp);
    pf_culprit_report_free(&cul);
    pf_ranks_report_free(&rep);
    pf_ranks_free(s, l->n);
    return rc;
}

int cmd_ranks(const pf_cli *cli)
{
    int n = cli->npos - 1;
    const char *dtype = cli->pos[n];
    if (pf_dtype_parse_cli(dtype) == PF_DT_UNKNOWN)
        return pf_cli_usage_error("unknown DTYPE '%s'; accepted: %s", dtype, pf_dtype_cli_choices());
    path_list l = {0};
    int rc = expand(cli, n, &l);
    if (rc == 0)
        rc = named_once(&l);
    if (rc == 0)
        rc = run(cli, &l);
    free_list(&l);
    return rc;
}
