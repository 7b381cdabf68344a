/* inductor_src.h - the run's Inductor modules, each read and parsed once (src/analysis/inductor_src.c): private to src/analysis/. */
#ifndef PROFANA_INDUCTOR_SRC_H
#define PROFANA_INDUCTOR_SRC_H

#include "profana/analysis.h"

/* Seconds of CPU time one module's parse may take (docs/reliability.md, "Limits"):
 * the parse is linear, a 16 MB module about 0.1 s; past this its launches get the trace-only
 * lower bound and the run one note. */
#define PF_MODULE_BUDGET_S 2.0

/* A run's modules by the path read and its size: one read and one parse each, whatever the
 * number of launches (or of threads: a lock guards it) that name it. budget_s: each parse's
 * CPU-time budget (> 0). NULL when memory runs out. */
pf_modules *pf_modules_new(double budget_s);

/* The notes the run's modules gave (one per module whose parse ran past its budget), moved
 * to the caller (*n of them, an array of malloc'd strings; NULL when none), and frees m. */
char **pf_modules_free_notes(pf_modules *m, int *n);

/* Frees m and its notes. NULL is a no-op. */
void pf_modules_free(pf_modules *m);

#endif
