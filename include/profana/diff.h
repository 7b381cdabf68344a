/* diff.h - pairs the rows of two analyses (exact key, normalised kernel name, op family with shapes) and summarises the change per device pair. */
/* layer: analysis (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_DIFF_H
#define PROFANA_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "profana/analysis.h"

/* How a pair of rows was matched, tried in this order; each row is matched at most once. */
typedef enum pf_match {
    PF_MATCH_EXACT = 0,        /* the same group key */
    PF_MATCH_NORMALISED,       /* --group kernel: pf_diff_normalise_kernel, without then with
                                  fold_lists; --group op: the op's family */
    PF_MATCH_SHAPE,            /* --group shape: op family, canonical arguments, shapes and dtypes */
    PF_MATCH_SHAPE_ANY_DTYPE,  /* the same without dtypes (a bf16 run against an fp16 run) */
    PF_MATCH_LEVELS,
    PF_MATCH_NONE = -1         /* a row found on one side only */
} pf_match;

/* "exact", "normalised", "shape", "shape-any-dtype"; NULL for PF_MATCH_NONE. */
const char *pf_match_name(pf_match m);

/* One line of a diff: a matched pair, or a row of one side (the other is NULL). */
typedef struct pf_diff_row {
    const pf_row *a, *b;
    pf_match match;
    int by_total;              /* matched, and the counts (calls; launches for --group kernel)
                                  differ: B/A is of total time, not time per call, since a
                                  cheaper call made more often is not a faster row */
} pf_diff_row;

/* How many rows the summary names on each side of a disagreement. */
enum { PF_DIFF_CAUSES = 3 };

typedef struct pf_diff_summary {
    int64_t a_total_ns, b_total_ns;    /* every activity of each device */
    double ratio;                      /* b_total / a_total; < 0 when A ran nothing */
    double geomean;                    /* geometric mean of b_mean / a_mean over matched rows
                                          whose means are both above 0; < 0 when none */
    size_t geomean_rows;               /* the rows it covers */
    size_t matched_rows, only_a, only_b;
    size_t matched_at[PF_MATCH_LEVELS]; /* matched rows per level */
    int64_t a_matched_ns, b_matched_ns; /* time of the matched rows on each side */
    double a_matched_pct, b_matched_pct; /* their share of each side's time (0 when none) */
    double weighted;                   /* time-weighted B/A: b_matched_ns / a_matched_ns; < 0
                                          when A's matched rows took no time */
    int opposite;                      /* geomean and weighted on opposite sides of 1 */
    /* When opposite: the matched rows (indices into the device's rows) that move the total
     * most in weighted's direction (largest |B total - A total|), and those that pull the
     * geomean most the other way (largest |ln(B mean / A mean)|), at most PF_DIFF_CAUSES each. */
    size_t time_rows[PF_DIFF_CAUSES], n_time_rows;
    size_t geo_rows[PF_DIFF_CAUSES], n_geo_rows;
    /* Another grouping that matches clearly more of the time (a cross-vendor --group kernel
     * diff: its kernel names differ, its ops do): alt_group (a pf_group_by) and its matched
     * shares of each side's time; alt_group -1 when none. pf_diff_run leaves -1; the command
     * sets it (pf_diff_hint_group). */
    int alt_group;
    double alt_a_pct, alt_b_pct;
} pf_diff_summary;

/* Device i of A against device i of B. */
typedef struct pf_diff_device {
    const pf_device_report *a, *b;     /* borrowed from the two analyses */
    pf_diff_row *rows;                 /* matched rows by |B total - A total| (largest first),
                                          then A's unmatched rows, then B's, each by time */
    size_t n_rows;
    pf_diff_summary summary;
} pf_diff_device;

typedef struct pf_diff {
    pf_diff_device *devices;           /* min(A's, B's devices with activity) pairs */
    int n_devices;
    const pf_device_report *left_out;  /* the devices of the side with more of them that have no
                                          counterpart: n_left_out, contiguous in its analysis */
    int n_left_out;
    int left_out_side;                 /* 0: they are A's, 1: B's */
} pf_diff;

/* Pairs device i of A with device i of B (position among the devices that ran something,
 * not the id: an AMD trace's GPU may be device 2) and matches their rows. group says which
 * keys the rows carry (the --group both analyses ran with). The diff borrows a and b (keep
 * them alive). Returns 0 and *out (free with pf_diff_free), or -1 with err set (out of
 * memory only). */
int pf_diff_run(const pf_analysis *a, const pf_analysis *b, pf_group_by group, pf_diff **out, pf_error *err);

/* Below this share of either side's time matched (percent), a --group kernel diff is worth
 * comparing with --group op; that grouping is named when the smaller of its shares beats the
 * larger of the kernel diff's by PF_DIFF_HINT_GAIN points. */
#define PF_DIFF_HINT_BELOW 50.0
#define PF_DIFF_HINT_GAIN 20.0

/* Whether d (a --group kernel diff) has a device pair matching less than PF_DIFF_HINT_BELOW
 * percent of both sides' time: the cue to diff the op grouping too. */
int pf_diff_matches_little(const pf_diff *d);
/* Sets alt_group (group) and its shares on each device pair of d whose pair in alt (the same
 * traces diffed by group) matches at least PF_DIFF_HINT_GAIN points more of both sides. */
void pf_diff_hint_group(pf_diff *d, const pf_diff *alt, pf_group_by group);

/* Frees a diff. NULL is a no-op. */
void pf_diff_free(pf_diff *d);

/* Matches the rows of one device pair (ta / tb: the traces whose ops the rows' op fields index,
 * used by the shape levels; may be NULL for --group kernel and op) into out (rows allocated,
 * summary filled). Returns 0 or -1 when memory runs out. */
int pf_diff_device_run(const pf_device_report *a, const pf_trace *ta, const pf_device_report *b,
                       const pf_trace *tb, pf_group_by group, pf_diff_device *out);

/* A matched row's B/A as the diff judges it: of total time when r->by_total, else of mean
 * time per call (per launch for --group kernel); < 0 when a side is missing or A's figure is
 * 0. Pure. */
double pf_diff_row_ratio(const pf_diff_row *r);

/* Frees what pf_diff_device_run allocated. */
void pf_diff_device_free(pf_diff_device *d);

/* The key a kernel name matches on after an exact match failed, written into buf (n bytes,
 * cut to fit): trailing "_<number>" indices (Inductor numbers its kernels per graph) and
 * hash-like "_<hex>" suffixes (8+ lowercase hex digits mixing digits and letters) removed,
 * tile shapes such as 256x128 (also after letters: MT128x128x64) folded to "#", then element
 * types (c10::BFloat16, float, bf16, ...) to "T" and other standalone integers (3ul) to "#".
 * With fold_lists, C++ template arguments and parameter lists are first emptied to "<>" and
 * "()" (the matcher tries that second, as it merges more kernels). Returns buf. Pure. */
const char *pf_diff_normalise_kernel(const char *name, int fold_lists, char *buf, size_t n);

/* The family an op is matched by when its name differs between the traces ("gemm", "bmm",
 * "gemv", "convolution", "convolution_backward", "convolution_transpose", "attention",
 * "attention_backward"), from the op table (op_family.h); NULL when the op has none. Static
 * storage. */
const char *pf_diff_family(const char *op_name);

/* The vendor-neutral key of a cpu_op's call into buf: its family ("gemm", "convolution",
 * "attention", ...; the op's own name when it has none) and the arguments the family table
 * lists, in the family's order (every argument for ops of no family), as --group shape
 * spells them, with dtypes unless with_dtype is 0; [B, S, H, D] attention tensors shown as
 * [B, H, S, D]. Returns buf. Pure. */
const char *pf_diff_shape_key(const pf_cpu_op *op, int with_dtype, char *buf, size_t n);

/* The levels tried for a grouping, in order, into levels; returns how many (2 or 3):
 * kernel and op: exact, normalised; shape: exact, shape, shape-any-dtype. */
int pf_diff_levels(pf_group_by group, pf_match levels[PF_MATCH_LEVELS]);

#endif
