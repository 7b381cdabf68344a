/* combine.h - one trace from several (--combine): every event of every input in input order, colliding process, device and event ids moved apart, each event tagged with its input. */
/* layer: rewrite (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_COMBINE_H
#define PROFANA_COMBINE_H

#include <stddef.h>

#include "profana/error.h"

/* How to combine. */
typedef struct pf_combine_opts {
    int jobs;                  /* threads that survey and copy each input's events; 0 = one per core */
} pf_combine_opts;

/* Writes to out_path ("-" = standard output) one trace holding the events of inputs[0, n)
 * (n >= 1; each a path, "-" = standard input, plain JSON or gzip), as docs/rewrite.md, "Merging traces"
 * says: the first input's text, with each later input's events after its own, every event
 * copied byte for byte except
 *   - args.profana_source = {"input": K[, "rank": R]} (K from 1, R from distributedInfo), an
 *     event without args getting "args": {"profana_source": ...};
 *   - pids (a GPU pid moves with its input's devices; another integer pid an earlier input
 *     uses moves by 10,000,000 * (K - 1), or further by 10,000,000 * n; a taken string pid
 *     "P" becomes "P [K]"), args.device and deviceProperties ids (the input's GPU block moves
 *     past the earlier ones' when they meet), the linking ids (External id, correlation,
 *     Python id, Python parent id, flow ids: moved above the earlier inputs' when they
 *     overlap) and ts (by the difference of baseTimeNanoseconds from the first input's);
 * deviceProperties is the first input's entries then the later inputs' new (id, name) ones.
 * Every input is read and planned before out_path is opened, and out_path is written whole or
 * not at all (pf_outfile): on error it is as it was. The caller makes sure that out_path is
 * none of the inputs and that "-" is at most one of them. o may be NULL (defaults).
 * Returns 0, or -1 with err set: "PATH: byte N: what" for an input that is not a complete,
 * valid trace (N counts bytes of the decompressed text), "PATH: ..." for one that cannot be
 * read or whose ids cannot move (too many devices, a pid or id too large), "OUT: write
 * failed: ..." and "out of memory". Nothing is printed. */
int pf_combine(const char *const *inputs, size_t n, const char *out_path, const pf_combine_opts *o, pf_error *err);

#endif
