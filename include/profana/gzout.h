/* gzout.h - a stdio stream that gzip-compresses what is written to it into another stream: outputs named .gz. */
/* layer: util (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_GZOUT_H
#define PROFANA_GZOUT_H

#include <stdio.h>

/* Whether the n bytes at buf begin a gzip member (its magic, 1f 8b): 1 or 0. buf may be
 * NULL only when n is 0. Pure. */
int pf_is_gzip(const void *buf, size_t n);

/* Whether an output path asks for gzip: it ends in ".gz" (any case). */
int pf_gzout_wanted(const char *path);

/* A write-only stream whose bytes go, gzip-compressed (one member, zlib's default level),
 * into raw. Closing it (fclose) writes the end of the member and fails (EOF) when any write
 * into raw failed; raw stays open. A write error into raw makes the stream's writes fail
 * with raw's errno. NULL when memory runs out. */
FILE *pf_gzout_open(FILE *raw);

#endif
