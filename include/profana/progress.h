/* progress.h - a progress bar on stderr while a long trace loads: bytes read, MB/s, time left. */
/* layer: util (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_PROGRESS_H
#define PROFANA_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

typedef struct pf_progress pf_progress;

/* Reads how many bytes are done; called from the bar's own thread. */
typedef int64_t (*pf_progress_poll)(const void *arg);

/* Starts a thread that redraws the bar on stderr a few times a second: poll(arg) bytes of
 * total (-1 when unknown). Nothing is drawn during the first 0.3 s, nor before min_bytes
 * are done. The caller decides whether stderr is a terminal. Returns NULL when the thread
 * cannot start (the load then simply shows no bar). */
pf_progress *pf_progress_start(int64_t total, int64_t min_bytes, pf_progress_poll poll, const void *arg);

/* Stops the thread and erases the bar. NULL is a no-op. */
void pf_progress_stop(pf_progress *p);

/* The bar's text (no line ending) for done of total bytes (total -1: unknown) after secs
 * seconds: "[#####-----]  45%  450 of 1000 MB  512 MB/s  1.1 s left". */
void pf_progress_format(char *buf, size_t n, int64_t done, int64_t total, double secs);

#endif
