/* augment.h - the engine of --augment_trace: which pairs go into each GPU activity's and op's args, and the trace written again with them spliced into its original text. */
/* layer: rewrite (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_AUGMENT_H
#define PROFANA_AUGMENT_H

#include <stddef.h>
#include <stdint.h>

#include "profana/analysis.h"
#include "profana/error.h"
#include "profana/splice.h"

typedef struct pf_augment_opts {
    pf_analysis_opts an;       /* DTYPE, --tf32 and --device, as for the analysis; every
                                  activity is augmented, whatever an.step says */
    int extra;                 /* --extra: rates, percents of peak and the category too */
    int jobs;                  /* threads for the splice (-j); 0 = one per core */
} pf_augment_opts;

/* The pairs for one event, in the order they are written: kernel_flop, kernel_num_gb;
 * with extra achieved_tflops, achieved_gbps, flops_pct, bw_pct, kernel_category. A figure
 * that is unknown is left out. kv[i].val points into text: do not copy the struct. */
typedef struct pf_augment_pairs {
    pf_kv kv[7];
    char text[7][64];
    size_t n;
} pf_augment_pairs;

/* A plan: the figures of every activity and op, and the events to change in text order. */
typedef struct pf_augment pf_augment;

/* Plans the augmentation of t. An activity gets its own work (an op's work sits on its
 * longest kernel, as the analysis attributes it; copies and fills carry their bytes); an op
 * gets its formula's work (its carrier kernel's) over the time of all its activities, or
 * the sums of its copies' and fills' when it launched no kernel. an is t's analysis with
 * o->an, over every step: required when o->extra (categories and device peaks), NULL
 * otherwise (the work is then computed here). Borrows t and an (keep them alive until
 * pf_augment_free). Returns 0 with *out, or -1 with err set (out of memory). */
int pf_augment_plan(const pf_trace *t, const pf_analysis *an, const pf_augment_opts *o, pf_augment **out,
                    pf_error *err);

/* The number of events the plan changes. */
size_t pf_augment_count(const pf_augment *g);

/* The pairs for event k (k < pf_augment_count, in text order) into *p; returns the byte
 * offset of the event's '{' in the trace text. */
int64_t pf_augment_event(const pf_augment *g, size_t k, pf_augment_pairs *p);

/* Reads in (the file the planned trace was loaded from) again and writes it to out, whole
 * or not at all, with each planned event's pairs in its args (a pair whose key is there
 * already replaces its value). Returns 0, or -1 with err set: in cannot be read, has
 * changed since it was loaded, out cannot be written, or memory runs out. */
int pf_augment_write(const pf_augment *g, const char *in, const char *out, pf_error *err);

/* Frees a plan. NULL is a no-op. */
void pf_augment_free(pf_augment *g);

#endif
