/* trace_reader.h - the input of the loader (trace_reader.c; gzip: trace_gzip.c): a mapped file, a stream, or gzip text inflated by a thread of its own (not a public interface). */
#ifndef PROFANA_TRACE_READER_H
#define PROFANA_TRACE_READER_H

#include <stddef.h>
#include <stdint.h>

#include "profana/error.h"

/* Under AddressSanitizer files are read, not mapped, into buffers whose unfilled end is
 * poisoned: a read past the text is then caught as if the file ended there. */
#if defined(__SANITIZE_ADDRESS__)
#define PF_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PF_ASAN 1
#endif
#endif

/* ---- the input (trace_reader.c) ---- */

/* The text of a trace as it is read: a plain regular file (read at any offset, so that
 * threads can each take a part), or a stream: standard input, a pipe, or gzip data, which
 * one thread decompresses while another parses. */
typedef struct pf_reader pf_reader;

/* Opens path ("-" = standard input) and sniffs gzip. Returns 0 or -1 with err set
 * ("PATH: cannot open: ...", "PATH: is a directory, not a trace file"). */
int pf_reader_open(const char *path, pf_reader **out, pf_error *err);

/* The input's name for messages: the path as given ("-" for standard input). */
const char *pf_reader_name(const pf_reader *r);

/* 1 when any offset can be read (a plain regular file); 0 for a stream, read in order. */
int pf_reader_seekable(const pf_reader *r);

/* A plain regular file is mapped whole: sets *text and *len and returns 1; 0 otherwise. */
int pf_reader_mapping(const pf_reader *r, const char **text, size_t *len);

/* Counts n more bytes as done for the progress bar (a mapped file is never "read"). */
void pf_reader_count(pf_reader *r, size_t n);

/* Bytes of the input as stored (compressed for gzip); -1 when unknown (a pipe). */
int64_t pf_reader_size(const pf_reader *r);

/* Of those, how many were read so far; any thread may ask (the progress bar does). */
int64_t pf_reader_progress(const pf_reader *r);

/* Reads up to n bytes of text at offset off into buf (a stream: off must be where the last
 * read ended). Returns the count, 0 at the end of the text, or -1 with err set. Seekable
 * readers may be read by several threads at once. */
long pf_reader_read(pf_reader *r, char *buf, size_t n, int64_t off, pf_error *err);

/* Stops a decompressing thread and frees everything. NULL is a no-op. */
void pf_reader_close(pf_reader *r);

/* ---- gzip (trace_gzip.c) ---- */

/* Reads a stream to its end and returns -1 with err set when the gzip data turns out corrupt
 * there (which outranks a parse error before it, as when the whole input was decompressed
 * first); 0 otherwise. */
int pf_reader_drain(pf_reader *r, pf_error *err);

/* After the text was read to its end (pf_reader_drain): the compressed offset at which a gzip
 * input ended inside a member, whose text so far was delivered as the whole text; -1 when
 * it did not, or the input is not gzip. */
int64_t pf_reader_gz_cut(pf_reader *r);

/* gzip input read to its end: the wall seconds its inflating thread ran (beside the
 * parsers); -1 for other input, or before the inflater is done. */
double pf_reader_inflate_secs(pf_reader *r);

/* gzip is normally inflated into a growing mapping: offset x of the text at text[x] once
 * inflated, so that several threads parse it in place. Sets *text and *cap (the longest
 * text it can hold; cap may be NULL) and returns 1 when so; such a reader is read with
 * pf_reader_wait, never pf_reader_read. */
int pf_reader_growing(const pf_reader *r, const char **text, int64_t *cap);

/* The growing text is mapped, and handed back by pf_reader_release, in segments of this many
 * bytes: parsers release it in steps of one segment. */
#define PF_GROWING_SEGMENT (1 << 20)

/* Waits until text beyond offset have is inflated, or the text ended. Returns how many bytes
 * after have are ready, 0 at the end of the text, or -1 with the inflater's error. */
long pf_reader_wait(pf_reader *r, int64_t have, pf_error *err);

/* Text below upto will not be read again: its memory goes back to the inflater. Any thread. */
void pf_reader_release(pf_reader *r, int64_t upto);

/* Adds delta to the number of threads that parse the growing text (one, the opener, at
 * first). The inflater runs only a little ahead of them, except while all of them wait. */
void pf_reader_consumers(pf_reader *r, int delta);

#endif
