/* ranks_windows.h - what ranks.c asks of ranks_windows.c: the windows before a rank's communication kernels and its compute kernels by name (private to src/analysis). */
#ifndef PROFANA_RANKS_WINDOWS_H
#define PROFANA_RANKS_WINDOWS_H

#include <stddef.h>

#include "profana/error.h"
#include "profana/ranks.h"
#include "profana/trace.h"

/* Fills s->wins (one per s->comms, whose activities are comm_acts[0, s->n_comms), in the same
 * order: by start), s->labels, s->kernels and s->compute_sum_ns from t. cats[i] is the
 * pf_category of t->acts[i]. Returns 0, or -1 with err set when memory runs out (s's new
 * members then NULL). */
int pf_rank_windows(const pf_trace *t, const unsigned char *cats, const size_t *comm_acts, pf_rank_summary *s,
                    pf_error *err);

#endif
