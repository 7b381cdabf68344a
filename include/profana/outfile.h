/* outfile.h - output files written whole or not at all: a temporary file beside the target, renamed into place. */
#ifndef PROFANA_OUTFILE_H
#define PROFANA_OUTFILE_H

#include <stdio.h>

#include "profana/trace.h"

typedef struct pf_outfile {
    FILE *f;                   /* write here */
    char *path;                /* the target, as given; "-" = standard output */
    char *tmp;                 /* the temporary file; NULL for standard output */
} pf_outfile;

/* Opens a temporary file in the target's directory (standard output for "-"; a device or
 * FIFO such as /dev/full is opened directly, since a rename would replace it). Refuses a
 * target that is a directory. Returns 0, or -1 with err set ("PATH: reason") and nothing
 * created. */
int pf_outfile_open(pf_outfile *o, const char *path, pf_error *err);

/* Flushes and closes the temporary file and renames it over the target (the target's old
 * contents stay until then). On any write error returns -1 with err set, the temporary file
 * removed and the target untouched. Frees o's strings either way. */
int pf_outfile_commit(pf_outfile *o, pf_error *err);

/* Closes and removes the temporary file; the target is untouched. NULL f is a no-op. */
void pf_outfile_abort(pf_outfile *o);

/* Whether two paths name the same existing file (same device and inode). */
int pf_same_file(const char *a, const char *b);

#endif
