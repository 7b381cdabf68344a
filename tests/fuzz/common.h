/* common.h - what the libFuzzer targets share: the fuzz input as a file path the loader can open. */
#ifndef PROFANA_FUZZ_COMMON_H
#define PROFANA_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* Puts data into an anonymous in-memory file (memfd) and writes its path ("/dev/fd/N") into
 * path. Returns the descriptor (close it when done), or -1 when the file cannot be made.
 * The loader reads it through its ordinary pf_source_read; the fuzz build links with
 * -Wl,--wrap=pf_source_read so that the text it parses then sits in a heap block of exactly
 * its size, where AddressSanitizer catches a read one byte past the end (a mapped file
 * would hide such a read up to the end of its page). */
int fuzz_input_file(const uint8_t *data, size_t size, char *path, size_t path_size);

/* The entry points libFuzzer calls (each target defines the first; Initialize is optional). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#endif
