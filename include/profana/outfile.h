/* outfile.h - output files written whole or not at all: a temporary file beside the target, renamed into place. */
/* layer: util (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_OUTFILE_H
#define PROFANA_OUTFILE_H

#include <stdio.h>

#include "profana/error.h"

typedef struct pf_outfile {
    FILE *f;                   /* write here */
    char *path;                /* the target ("-" = standard output; a symbolic link resolved) */
    char *tmp;                 /* the temporary file; NULL for standard output */
    size_t stem;               /* where tmp's ".tmp-XXXXXX" suffix starts */
    char *buf;                 /* f's buffer (large, so a whole trace goes out in few writes) */
    int replaces;              /* the target existed when opened */
    int unnamed;               /* tmp is not created yet: the file is unnamed until commit */
    struct pf_outfile_syncer *syncer; /* flushes to disk while writing (replacing only) */
    FILE *raw;                 /* a target named .gz: the temporary file under f, which compresses */
    int finished;              /* pf_outfile_finish done: f closed, the data under tmp */
} pf_outfile;

/* Opens a temporary file in the target's directory (unnamed where the system allows, so
 * that a run killed by a signal leaves none behind) (standard output for "-"). A target that
 * is not a regular file is written in place, as a stream, never replaced by a rename: one of
 * this process's descriptors (/dev/stdout, /dev/fd/N, /proc/self/fd/N) through a duplicate of
 * it, so its offset and append mode are shared (`--summary /dev/stdout >>log` appends to log);
 * a device or FIFO (/dev/full) opened without truncating; what pf_outfile_check refuses is
 * refused. A target that
 * is a symbolic link is written where it points, so the link stays (a dangling link: the
 * file it names is created); an existing target keeps its owner (where the writer may
 * give it) and permission bits. A name too long for the ".tmp-XXXXXX" suffix gets a short
 * temporary name in the same directory. A regular target whose name ends in ".gz" is written
 * gzip-compressed: f compresses into the temporary file. Refuses a target that is a
 * directory. Returns 0, or -1 with err set ("PATH: reason") and nothing created. */
int pf_outfile_open(pf_outfile *o, const char *path, pf_error *err);

/* Whether path may be written: 0, or -1 with err set ("PATH: reason") when writing it in
 * place cannot be safe: a descriptor of this process that is not open or is open for reading
 * only, or a name of /proc that is a regular file (another process's descriptor onto a file,
 * a kernel setting). Opens nothing; "-" and regular files pass. */
int pf_outfile_check(const char *path, pf_error *err);

/* Flushes and closes the temporary file and renames it over the target (the target's old
 * contents stay until then). When the rename replaces an existing file, the data is synced
 * to disk first (most of it while it is written, by a thread that pf_outfile_open starts),
 * so that a crash leaves the old file or the new one, never an empty one; a new file is not
 * synced (a crash can only lose the new output, and syncing 100 MB costs
 * as much as writing it). On any write error returns -1 with err set, the temporary file
 * removed and the target untouched. Frees o's strings either way. */
int pf_outfile_commit(pf_outfile *o, pf_error *err);

/* The first half of pf_outfile_commit, for outputs committed together: everything but the
 * rename (written, flushed, synced where it replaces, closed, named beside the target), so
 * that every write error of every output is known before any target changes. Then
 * pf_outfile_commit renames it (or pf_outfile_abort removes it). On a write error returns -1
 * with err set, the temporary file removed, o released (an abort after it is a no-op). */
int pf_outfile_finish(pf_outfile *o, pf_error *err);

/* Sets err to "PATH: write failed: REASON" from errno after a failed write to o->f and
 * returns -1. */
int pf_outfile_write_error(const pf_outfile *o, pf_error *err);

/* Closes and removes the temporary file; the target is untouched. NULL f is a no-op. */
void pf_outfile_abort(pf_outfile *o);

/* Whether two paths name the same existing file (same device and inode). */
int pf_same_file(const char *a, const char *b);

/* Whether two output paths would write one file: the same existing file (device and
 * inode: hard links included), or the same name once symbolic links are followed and the
 * directory is made absolute ("x", "./x", "d/../x"). "-" is the same only as "-". */
int pf_same_output(const char *a, const char *b);

#endif
