/* explain.h - --explain's engine: finds the first invocation of an op or kernel, and works out its inputs, the formula's expression and the figures and rates the analysis gives it. */
/* layer: analysis (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_EXPLAIN_H
#define PROFANA_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>

#include "profana/analysis.h"
#include "profana/error.h"
#include "profana/formulas.h"

/* How the query found the invocation: an op name, a whole kernel name, or part of one. */
typedef enum pf_inv_match { PF_INV_OP = 0, PF_INV_KERNEL, PF_INV_KERNEL_PART } pf_inv_match;

/* What finding gave. Only PF_INV_FOUND fills the invocation's figures. */
typedef enum pf_inv_found {
    PF_INV_FOUND = 0,
    PF_INV_NOT_LAUNCHED,       /* the op is there (matches invocations), none launched GPU activity
                                  itself: its kernels link to the ops it calls */
    PF_INV_NO_MATCH,           /* no op or kernel of that name; hints: close names */
    PF_INV_AMBIGUOUS           /* part of several kernel names: n_names of them, the first in hints */
} pf_inv_found;

enum {
    PF_INV_HINTS = 4,          /* names suggested at most */
    PF_INV_MAX_NAMES = 1000    /* distinct kernel names counted at most (more read "at least") */
};

/* Achieved rates and percentages of some figures over some time; < 0 = unknown. */
typedef struct pf_inv_rates {
    double flop, bytes, ns;
    double tflops, gbps, flops_pct, bw_pct;
    const char *bound;         /* "compute", "memory", NULL */
    int cache_served;          /* bw_pct unknown: faster than DRAM's peak with bytes that fit
                                  the device's cache (pf_dram_pct) */
} pf_inv_rates;

/* One invocation and everything said about it. */
typedef struct pf_invocation {
    const pf_trace *t;
    pf_analysis_opts opts;     /* DTYPE, --tf32, --device */
    const char *query;
    pf_inv_found found;
    /* ---- when not found ---- */
    const char *hints[PF_INV_HINTS]; /* close names (no match), or the first names (ambiguous) */
    int n_hints;
    size_t n_names;            /* ambiguous: kernel names containing the query, at most PF_INV_MAX_NAMES */
    /* ---- the invocation ---- */
    pf_inv_match kind;
    const char *name;          /* the op or kernel name matched (interned) */
    size_t act;                /* the matched launch, or the op's first activity */
    int32_t op;                /* the invocation's cpu_op; -1 for an activity with none */
    size_t rank, matches;      /* its place among the matches (file order), and their number */
    size_t same_inputs;        /* other invocations of the op with the same inputs */
    size_t *acts;              /* the invocation's activities in file order */
    size_t n_acts;
    pf_act_work *work;         /* parallel to acts, as the analysis attributes them */
    unsigned char *carries;    /* parallel to acts: carries a part of the op's work */
    pf_share *shares;          /* parallel to acts: the part of the op's FLOPs and bytes each
                                  carries (pf_work_shares) */
    int carrier;               /* index into acts of the first kernel carrying the op's work
                                  (its FLOPs where it has any); -1 none */
    const pf_device *dev;
    const pf_device_info *info;
    /* ---- the formula ---- */
    int has_formula_run;       /* the formula was applied (not Inductor, args readable) */
    int formula_rc;            /* PF_FORMULA_* of that run */
    pf_work fw;                /* its figures */
    pf_explain ex;             /* its expression text */
    const char *family;        /* "gemm", "inductor", "no formula (estimate)", "-" */
    const char *status;        /* "ok", or why there are no figures */
    /* ---- the figures ---- */
    pf_act_work op_work;       /* the op's work (its carrier's, or its formula's when none) */
    double peak_flops;         /* FLOP/s at op_work.dtype's peak; 0 unknown */
    pf_inv_rates carrier_rates; /* over the kernels carrying its FLOPs (carrier >= 0 only): their
                                  summed figures over their summed time */
    pf_inv_rates total_rates;  /* over all the activities, as its --group op row */
} pf_invocation;

/* Finds the query in t (loaded with every op, launching or not): an op exactly (its first
 * invocation that launched GPU activity), else a kernel (or memcpy/memset) exactly, else
 * part of exactly one kernel name; and, when found, works out its figures with o's DTYPE,
 * --tf32 and --device. Borrows t and query. Returns 0 with inv->found saying what came of
 * it (free inv with pf_invocation_free), or -1 with err set when memory runs out. */
int pf_invocation_find(const pf_trace *t, const pf_analysis_opts *o, const char *query, pf_invocation *inv,
                       pf_error *err);

/* Frees what pf_invocation_find allocated in inv. */
void pf_invocation_free(pf_invocation *inv);

#endif
