/* common.h - what the libFuzzer targets share: the fuzz input as a file path the loader can open. */
#ifndef PROFANA_FUZZ_COMMON_H
#define PROFANA_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* Puts data into an anonymous in-memory file (memfd) and writes its path ("/dev/fd/N") into
 * path. Returns the descriptor (close it when done), or -1 when the file cannot be made.
 * A read one byte past the text is caught either way: the loader, built with
 * AddressSanitizer, reads files into buffers whose unfilled end is poisoned instead of
 * mapping them (PF_ASAN in src/trace/trace_reader.h); --augment_trace and --combine read the
 * whole text with pf_source_read, which the fuzz build wraps (-Wl,--wrap=pf_source_read,
 * common.c) to move the text into a heap block of exactly its size (a mapped file would
 * hide such a read up to the end of its page). */
int fuzz_input_file(const uint8_t *data, size_t size, char *path, size_t path_size);

/* The most one input may print on standard output (64 MB). A table, JSON or report that grows
 * without end (a roofline axis looping over 1e300 wrote 16.6 GB before it was killed: issue 23)
 * is a finding, not a slow case: past the cap the target aborts, which libFuzzer reports and
 * saves like a crash. A target that prints calls fuzz_capped_stdout once (its Initialize, after
 * pointing descriptor 1 at /dev/null) and fuzz_output_start before each input. */
#ifndef FUZZ_OUTPUT_CAP
#define FUZZ_OUTPUT_CAP ((size_t)64 << 20)
#endif

/* Replaces stdout with a stream that counts what is written and aborts past the cap.
 * Returns 0, or -1 when the stream cannot be made. */
int fuzz_capped_stdout(void);

/* Starts counting one input's output from zero. */
void fuzz_output_start(void);

/* A broken promise of a contract is a finding like a crash: FUZZ_REQUIRE(cond) prints
 * "FILE:LINE: contract broken: COND" and aborts. libFuzzer runs the targets with their stderr
 * closed (-close_fd_mask, tests/fuzz/run.sh), so the line is also appended to the file named by
 * PF_FUZZ_REPORT where set: run.sh prints it beside the finding. */
#define FUZZ_REQUIRE(cond)                                                                \
    do {                                                                                  \
        if (!(cond))                                                                      \
            fuzz_broken(__FILE__, __LINE__, #cond);                                       \
    } while (0)

/* Reports a finding (FILE:LINE: contract broken: WHAT) on stderr and in $PF_FUZZ_REPORT, then
 * aborts. */
_Noreturn void fuzz_broken(const char *file, int line, const char *what);

/* The entry points libFuzzer calls (each target defines the first; Initialize is optional). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#endif
