/* diag.h - the diagnosis's parts (diag_gaps.c: what the host did in the idle gaps; diag_patterns.c: patterns of the GPU work; diagnose.c: findings ranked) (not a public interface). */
#ifndef PROFANA_DIAG_H
#define PROFANA_DIAG_H

#include "profana/diagnose.h"
#include "profana/waits.h"

/* Gaps shorter than this are launch or dispatch overhead when nothing named covers them: the
 * host ran ops back to back (Python, dispatch, launches) and never stopped for a millisecond. */
#define PF_DIAG_SHORT_GAP_NS 1000000

/* A growing list of findings. */
typedef struct pf_diag_list {
    pf_finding *f;
    int n, cap;
} pf_diag_list;

/* A new zeroed finding of kind at the end of l (time and share unknown); NULL when memory
 * runs out. */
pf_finding *pf_diag_add(pf_diag_list *l, const char *kind);

/* Fills g's gap bins, covers and sync figures from w's gaps (one device's) and the trace's
 * host marks. Returns 0, or -1 when memory runs out. */
int pf_diag_gaps(const pf_analysis *an, const pf_waits *w, pf_diagnosis *g);

/* Adds the findings of the GPU work's patterns on device d to l: eager attention, fp32 matrix
 * work without TF32, pageable copies, the heaviest row's headroom. span_ns: the device's
 * span, for the shares. Returns 0, or -1 when memory runs out. */
int pf_diag_patterns(const pf_analysis *an, const pf_device_report *d, int64_t span_ns, pf_diag_list *l);

/* name cut to fit a line of prose (a mangled name demangled first): at most 72 bytes, "..."
 * marking a cut. Returns buf. */
const char *pf_diag_name(char *buf, size_t cap, const char *name);

/* The share of span a time is, for pf_finding.pct. */
double pf_diag_pct(double time_us, int64_t span_ns);

#endif
