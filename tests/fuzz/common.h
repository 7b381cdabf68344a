/* common.h - what the libFuzzer targets share: the fuzz input as a file path the loader can open. */
#ifndef PROFANA_FUZZ_COMMON_H
#define PROFANA_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* Puts data into an anonymous in-memory file (memfd) and writes its path ("/dev/fd/N") into
 * path. Returns the descriptor (close it when done), or -1 when the file cannot be made.
 * A read one byte past the text is caught either way: the loader, built with
 * AddressSanitizer, reads files into buffers whose unfilled end is poisoned instead of
 * mapping them (PF_ASAN in src/trace/trace_internal.h); --augment_trace and --combine read the
 * whole text with pf_source_read, which the fuzz build wraps (-Wl,--wrap=pf_source_read,
 * common.c) to move the text into a heap block of exactly its size (a mapped file would
 * hide such a read up to the end of its page). */
int fuzz_input_file(const uint8_t *data, size_t size, char *path, size_t path_size);

/* The entry points libFuzzer calls (each target defines the first; Initialize is optional). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#endif
