/* regfile.h - files a trace or a command line names, opened only when they are regular files: never a FIFO (which blocks) or a device (which an open can arm). */
/* layer: util (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_REGFILE_H
#define PROFANA_REGFILE_H

#include <stdio.h>
#include <sys/stat.h>

/* Opens path for reading if it is a regular file (a symbolic link to one included), without
 * ever opening anything else: the name is first opened with O_PATH, which opens no file
 * (no driver sees it, a FIFO does not wait for a writer), checked with fstat, and only a
 * regular file is then opened, through that descriptor (/proc/self/fd), so the file checked
 * is the file read. Without /proc: stat, then an O_NONBLOCK open that fstat must find to be
 * the same regular file. Returns a blocking, close-on-exec descriptor, with *st filled (st
 * may be NULL); -1 with errno set from the system (ENOENT, EACCES, ...); or -2 when path
 * names something other than a regular file (*st then says what: pf_file_kind). */
int pf_open_regular(const char *path, struct stat *st);

/* pf_open_regular as a stdio stream ("rb"); NULL with errno set, and *special (may be NULL)
 * set to 1 when the path names something other than a regular file, else 0. */
FILE *pf_fopen_regular(const char *path, int *special);

/* What a file of mode m is, for a message: "a FIFO", "a character device", "a block device",
 * "a socket", "a directory", "a regular file", "a symbolic link". Static storage. */
const char *pf_file_kind(mode_t m);

#endif
