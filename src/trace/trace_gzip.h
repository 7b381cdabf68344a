/* trace_gzip.h - what the reader's two halves share: the reader's fields, its progress count and read(2) (trace_reader.c, trace_gzip.c), and the gzip half's entry points (trace_gzip.c) (not a public interface). */
#ifndef PROFANA_TRACE_GZIP_H
#define PROFANA_TRACE_GZIP_H

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "profana/error.h"
#include "trace_reader.h"

/* A stream's first bytes, read to tell gzip from text and delivered first: at most this many. */
#define PF_READER_SNIFF (1 << 16)

/* The inflating thread and where its output goes (trace_gzip.c). */
typedef struct pf_gz_pipe pf_gz_pipe;

struct pf_reader {
    const char *name;          /* for messages: the path as given ("-": standard input) */
    int fd, own_fd;
    int seekable;
    int64_t size;
    atomic_llong progress;
    int64_t pos;               /* a stream: offset of the next byte of text */
    const char *map;           /* a plain regular file, mapped whole; NULL otherwise */
    char *pending;             /* a stream: bytes read while sniffing, delivered first */
    size_t pending_len, pending_at;
    pf_gz_pipe *gz;
};

/* n more bytes of the input read (the progress bar's count). */
static inline void pf_reader_add_progress(pf_reader *r, size_t n)
{
    atomic_fetch_add_explicit(&r->progress, (long long)n, memory_order_relaxed);
}

/* read(2) that retries interrupted calls; -1 with err set on failure. */
static inline long pf_reader_read_fd(pf_reader *r, int fd, char *buf, size_t n, pf_error *err)
{
    for (;;) {
        ssize_t k = read(fd, buf, n);
        if (k >= 0)
            return (long)k;
        if (errno != EINTR)
            return pf_fail(err, "%s: read error: %s", r->name, strerror(errno));
    }
}

/* Starts inflating r's gzip input (the sniffed bytes in r->pending first, then r->fd) on a
 * thread of its own, into a growing mapping (pf_reader_growing) or, where that cannot be
 * had, a ring of blocks read with pf_gz_read. Sets r->gz. Returns 0 or -1 with err set. */
int pf_gz_start(pf_reader *r, pf_error *err);

/* Copies up to n of the next inflated bytes from the ring into buf. Returns the count, 0 at
 * the end of the text, or -1 with the inflater's error. */
long pf_gz_read(pf_reader *r, char *buf, size_t n, pf_error *err);

/* Stops the inflating thread and frees what it used. NULL is a no-op. */
void pf_gz_close(pf_gz_pipe *g);

#endif
