/* trace_window.h - a window of a trace's text that the parser reads through, and the loader's one way to its input: the window opens, shares and closes the reader (trace_window.c) (not a public interface). */
#ifndef PROFANA_TRACE_WINDOW_H
#define PROFANA_TRACE_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "profana/error.h"
#include "trace_reader.h"

/* buf[0..len) is the text from offset base on; the parser refills it one element at a time,
 * so memory follows the largest event, not the file. Over a mapped file the window is the
 * whole file (base 0, eof set) and the parser hands back pages it has passed instead; over
 * growing gzip text it moves through the mapping and waits for more, copying nothing. */
typedef struct pf_window {
    pf_reader *r;
    char *buf;
    size_t cap, len;
    int64_t base;
    int eof;                   /* buf[len] is the end of the text */
    int mapped;                /* buf is the reader's mapping: read-only, never refilled */
    const char *growing;       /* the growing mapping's text (buf = growing + base); else NULL */
    int releases;              /* a growing window that gives back the text it has passed */
    int64_t done_step;         /* a mapped window's pages go back in steps of this many bytes
                                  (pf_window_done_step; PF_WINDOW_DONE_STEP when made) */
    /* the input, as the reader told when the window was made (read-only): */
    int64_t size;              /* bytes as stored (compressed for gzip); -1 when unknown (a pipe) */
    int seekable;              /* any offset can be read (a plain regular file): threads may
                                  each take a part, through windows of their own */
    int64_t growing_cap;       /* growing text: the longest it can hold; else 0 */
    int owns;                  /* the window opened the reader (pf_window_open) and closes it */
} pf_window;

/* A mapped window gives its pages back (pf_window_done) in steps of this many bytes; growing
 * gzip text in steps of its segments, so that the inflater, which holds only a few, need not
 * wait. Each parsing thread holds up to a step of the file resident: at 4 MB the scan of a
 * 100 MB trace peaked 3.6 MB (-j 1) and 6.2 MB (-j 2) above what it kept; at 1 MB, 0.8 MB
 * and 0.7 MB, for a madvise call per megabyte; at 256 KB, with sixteen threads, 23-24 MB in
 * all against 25-28 MB at 1 MB, for no time measurable. */
#define PF_WINDOW_DONE_STEP (INT64_C(1) << 18)

/* The step for each of `threads` threads parsing parts of a file at once (at least 1): 2 MB
 * over the threads, within PF_WINDOW_DONE_STEP and 1 MB, so that up to 8 threads together hold
 * at most 2 MB of the file and more threads 256 KB each, as before. (The loader's own window,
 * which reads a file in order when one thread parses, keeps PF_WINDOW_DONE_STEP: there is no
 * other thread to stop.) Each hand-back stops the process's other threads to flush their TLBs (an
 * interprocessor interrupt, dear in a virtual machine): on the 2-core VM, 300 MB trace at
 * -j 2, the scan took 0.196-0.204 s with 256 KB steps and 0.180-0.188 s with 1 MB. */
int64_t pf_window_done_step(size_t threads);

/* An empty window that reads from offset at. Returns 0 or -1 (out of memory). */
int pf_window_init(pf_window *w, pf_reader *r, int64_t at);

/* Opens path ("-" = standard input; gzip sniffed, pf_reader_open) and makes the window that
 * owns its reader, from offset 0; over growing gzip text it gives back the text it passed
 * (releases). Returns 0 or -1 with err set; the window is then still freed with
 * pf_window_free (and its size may be known). */
int pf_window_open(pf_window *w, const char *path, pf_error *err);

/* An empty window, from offset 0, over the same input as `of` (a parsing thread's own): it
 * never closes the reader. Returns 0 or -1 (out of memory). */
int pf_window_share(pf_window *w, const pf_window *of);

/* Of the input's stored bytes (w->size), how many were read so far; any thread may ask (the
 * progress bar does). */
int64_t pf_window_progress(const pf_window *w);

/* Growing text only: adds delta to the threads that parse it (pf_reader_consumers), which the
 * inflater runs only a little ahead of. */
void pf_window_parsers(pf_window *w, int delta);

/* Growing text only: no window over it reads below upto again; its memory goes back to the
 * inflater. Any thread. */
void pf_window_release(pf_window *w, int64_t upto);

/* What the end of the input told, once read to its end (pf_window_drain). */
typedef struct pf_window_end {
    int64_t gz_cut;            /* the compressed offset at which gzip input ended inside a
                                  member, its text so far delivered as the whole; -1 none */
    double inflate_secs;       /* gzip: the wall seconds its inflating thread ran; else -1 */
} pf_window_end;

/* Reads a stream to its end (nothing for a seekable file) and fills *end. Returns -1 with err
 * set when the gzip data turns out corrupt there (which outranks a parse error before it, as
 * when the whole input was decompressed first); 0 otherwise. */
int pf_window_drain(pf_window *w, pf_window_end *end, pf_error *err);

/* Empties the window and moves it to offset at (seekable and growing readers only; a mapped
 * window already holds every offset). */
void pf_window_seek(pf_window *w, int64_t at);

/* The text in [from, upto) is parsed: a mapped window returns its whole pages to the system
 * (they count in the process's memory otherwise) and counts them for the progress bar. */
void pf_window_done(pf_window *w, int64_t from, int64_t upto);

/* Drops buf[0..keep), keeps the rest at the front and reads more after it, growing the
 * buffer when it is full. Returns 0 (setting eof at the end of the text) or -1 with err set. */
int pf_window_more(pf_window *w, size_t keep, pf_error *err);

/* Frees the window's buffer, and closes the reader when the window owns it. */
void pf_window_free(pf_window *w);

#endif
