/* analysis.h - aggregation shared by every subcommand: work per GPU activity, groups per device, rates and peaks. */
/* layer: analysis (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_ANALYSIS_H
#define PROFANA_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "profana/categories.h"
#include "profana/devices.h"
#include "profana/devset.h"
#include "profana/formulas.h"
#include "profana/rates.h"
#include "profana/trace.h"

/* PF_GROUP_MODULE, PF_GROUP_ANNOTATION: --analysis's module view (modules.h) over nn.Module
 * calls or user annotations; PF_GROUP_SEQUENCE: the repeated kernel sequences (sequences.h);
 * PF_GROUP_CRITICAL_PATH: each step's critical path (critical_path.h);
 * each in place of the rows table, the analysis under it grouping by kernel. */
typedef enum pf_group_by {
    PF_GROUP_KERNEL = 0,
    PF_GROUP_OP,
    PF_GROUP_SHAPE,
    PF_GROUP_MODULE,
    PF_GROUP_ANNOTATION,
    PF_GROUP_SEQUENCE,
    PF_GROUP_CRITICAL_PATH
} pf_group_by;
/* The groups' names as --group takes them ("kernel", "op", "shape", "module", "annotation",
 * "sequence", "critical-path"), by pf_group_by, then NULL: the one list that the option table,
 * the views and the report read. */
extern const char *const pf_group_names[PF_GROUP_CRITICAL_PATH + 2];

/* Whether a grouping is a module view's (PF_GROUP_MODULE or PF_GROUP_ANNOTATION). */
static inline int pf_group_is_tree(pf_group_by g)
{
    return g == PF_GROUP_MODULE || g == PF_GROUP_ANNOTATION;
}

/* Whether a grouping prints a view of its own instead of the rows table. */
static inline int pf_group_is_view(pf_group_by g)
{
    return pf_group_is_tree(g) || g == PF_GROUP_SEQUENCE || g == PF_GROUP_CRITICAL_PATH;
}

/* The serving phase of a GPU activity (src/analysis/phases.c): none (not known to be
 * either: no step annotation holds its launch and it is no attention call with a query
 * length), prefill, decode, or mixed (a batch of both). */
enum { PF_PHASE_NONE = 0, PF_PHASE_PREFILL, PF_PHASE_DECODE, PF_PHASE_MIXED, PF_PHASE_COUNT };

typedef struct pf_modules pf_modules;

typedef struct pf_analysis_opts {
    pf_dtype default_dtype;            /* for work whose dtype the trace does not show */
    int tf32;                          /* a pf_tf32: which fp32 matrix work is measured at the
                                          TF32 peak (0 = PyTorch's defaults, --tf32, --no-tf32) */
    pf_group_by group;
    const pf_device_info *force_device; /* --device: used for every device; NULL = match */
    const pf_devset *devices;          /* what trace devices are matched against (--device-file,
                                          --clock); NULL = the built-in table */
    int64_t step;                      /* --step: PF_STEP_EVERY (no filter), PF_STEP_ALL
                                          (inside any GPU ProfilerStep), or N */
    const char *inductor_cache;        /* --inductor-cache DIR: a copy of Inductor's cache
                                          directory, where Triton launches' modules are looked
                                          for first; NULL = only at their recorded paths */
    struct pf_modules *modules;        /* the run's Inductor modules, each read and parsed once
                                          (pf_work_all makes one for its run when NULL) */
    struct pf_timings *timings;        /* --timings: attribution and aggregation are added
                                          here; NULL = none */
    int jobs;                          /* threads for the per-activity figures (-j, resolved);
                                          0 or 1 = one */
    int phase;                         /* --phase: PF_PHASE_PREFILL, _DECODE or _MIXED selects
                                          those activities; PF_PHASE_NONE (0) = all */
    int idle_gaps;                     /* 1: keep each device's idle gaps (pf_waits.gaps), which
                                          the timeline draws (--plot timeline, --report); 0:
                                          only their count and sums (32 bytes an activity less
                                          at the height of the analysis) */
} pf_analysis_opts;

enum { PF_STEP_EVERY = -1, PF_STEP_ALL = -2 };

/* Figures of one GPU activity after attribution (an op's FLOPs on its math kernels, its bytes
 * over all its kernels, by time: pf_work_shares). */
typedef struct pf_act_work {
    double flop;                       /* < 0 unknown */
    double bytes;                      /* < 0 unknown */
    double op_flop, op_bytes;          /* the whole op invocation's figures before the split
                                          (< 0 unknown; the activity's own for a copy or fill) */
    const char *source;                /* "gemm", "conv", "inductor", "memcpy", "memset",
                                          "mismatch", "bad-args"; NULL when none */
    pf_dtype dtype;                    /* the peak that applies (default and --tf32 applied) */
    /* Flags of 0 or 1 (elsewhere: two bits) as bit-fields: one record per GPU activity lives
     * through the analysis, 48 bytes instead of 88. */
    unsigned no_formula : 1;           /* its op has no formula: nothing, or the generic guess */
    unsigned no_shapes : 1;            /* its op's call has no recorded arguments (the trace was
                                          recorded without record_shapes): no figures, and no
                                          formula is to blame */
    unsigned generic : 1;              /* the figures are the generic guess (source "generic"):
                                          the Total and category rows leave its bytes out */
    unsigned upper_bound : 1;          /* the figures are a ceiling (variable-length attention) */
    unsigned lower_bound : 1;          /* the figures are a floor (an Inductor launch without
                                          its module: source "triton~lb") */
    unsigned inferred : 1;             /* no launching op: the figures of the linked launches of
                                          its kernel name and geometry (pf_work_infer) */
    unsigned graph_replay : 1;         /* replayed by a graph launch whose capture is not given
                                          (--graph-capture): the op it links to, if any, only
                                          launched the graph, so its figures are unknown */
    unsigned compiled_region : 1;      /* its op is a torch.compile region (Torch-Compiled Region,
                                          CompiledFunction) without recorded shapes */
    unsigned lists_unrecorded : 1;     /* its op's tensor lists were recorded as [] without their
                                          shapes (pf_op_lists_unrecorded) and the op carries no
                                          figures of its own: bytes and FLOPs unknown */
    unsigned elsewhere : 2;            /* PF_ELSEWHERE_* bits: the op's FLOPs (bytes) are known
                                          and nonzero but carried by its other kernels, so this
                                          activity's 0 is attribution, not a measurement */
} pf_act_work;

enum { PF_ELSEWHERE_FLOP = 1, PF_ELSEWHERE_BYTES = 2 };

/* The part of its op invocation's work one activity carries: 0 to 1 of its FLOPs and of its
 * bytes (0 for an activity with no op, a memcpy or a memset: they carry their own). */
typedef struct pf_share {
    double flop, bytes;
} pf_share;

/* More than there are distinct sources (the formulas' families, their ~dtype and ~ub
 * variants, inductor, memcpy, memset, mismatch, bad-args), so a row lists every one. */
#define PF_ROW_MAX_SOURCES 32

/* A row's Source list (pf_row.sources) as a path in a tree of the lists of one device
 * report's rows: a node is a list's last member, and its parent the list without it, so the
 * rows of one list (mostly one source) share its nodes and a row holds one pointer, not
 * PF_ROW_MAX_SOURCES (a trace may have 250,000 distinct kernels, a row each, or 65,536 devices
 * of three rows each). */
typedef struct pf_source_node {
    const struct pf_source_node *up;   /* the list without its last member; NULL: none */
    const char *source;                /* the last member */
    struct pf_source_node *child;      /* the lists one longer: the first of them */
    struct pf_source_node *sibling;    /* the next list as long with the same parent */
    struct pf_source_node *next;       /* every node of the tree in a chain, for freeing */
} pf_source_node;

/* The nodes of one report's Source lists; zeroed: empty. */
typedef struct pf_source_tree {
    pf_source_node *roots;             /* the lists of one member */
    pf_source_node *nodes;             /* every node (pf_source_node.next) */
} pf_source_tree;

/* Frees every node of t; t is then empty. */
void pf_source_tree_free(pf_source_tree *t);

/* One group of activities on one device. */
typedef struct pf_row {
    const char *key;                   /* group name; owned by the analysis */
    int32_t op;                        /* the cpu_op of its first launch (index into the
                                          trace's ops), -1 none: --diff builds vendor-neutral
                                          keys from it */
    int64_t count;                     /* GPU activities (launches) */
    int64_t invocations;               /* --group op and shape: op invocations that launched the
                                          row's activities (a launch without an op counts as one);
                                          else, and for the category rows, = count */
    int64_t total_ns;
    int64_t min_ns, max_ns;            /* per invocation (op, shape: an invocation's summed
                                          activity time), else per launch */
    double flop, bytes;                /* totals over launches with known figures */
    int64_t flop_known, bytes_known;   /* launches with a known figure */
    int64_t flop_known_ns, bytes_known_ns; /* their GPU time: a row known in part has its rate
                                          over that part (the roofline's partial dots) */
    double both_flop, both_bytes;      /* FLOPs and bytes of the launches with both known */
    int64_t both_ns;                   /* and their GPU time */
    double flop_peak_s;                /* sum of flop / peak(dtype): seconds at peak */
    double byte_peak_s;                /* sum of bytes / peak bandwidth */
    int peak_ok;                       /* every launch with figures had a peak */
    double flop_ach_s, byte_ach_s;     /* as flop_peak_s, byte_peak_s at the measured achievable
                                          peaks (pf_achievable_flops, pf_achievable_bytes) */
    int ach_ok;                        /* every launch with figures had an achievable peak */
    int is_total;                      /* the device's Total row (and a category row): figures
                                          of the launches that have them, bytes of formulas
                                          only (not generic guesses); a group row shows
                                          figures only when every launch has them */
    int64_t cat_ns[PF_CAT_COUNT];      /* time per category: the row's category is the largest */
    int64_t calls, cpu_total_ns, self_cpu_ns; /* --group op: the op's CPU figures */
    int has_cpu;
    pf_source_node *sources;           /* its distinct sources in the order they came: the
                                          node of the last (pf_row_sources lists them); NULL:
                                          none; the nodes are the report's (pf_source_tree) */
    int n_sources;
    int sources_more;                  /* more sources than PF_ROW_MAX_SOURCES: shown as "+more" */
    int64_t upper_bound_n;             /* launches whose figures are a ceiling (pf_act_work.upper_bound) */
    int64_t flop_elsewhere_n;          /* launches whose op's FLOPs are on its other kernels
                                          (PF_ELSEWHERE_FLOP): a row of only those shows none */
    int64_t generic_n;                 /* launches whose figures are the generic guess */
    int64_t p50_ns, p90_ns, p99_ns;    /* nearest-rank percentiles of the row's times, per
                                          launch (--group kernel) or per invocation (op, shape;
                                          as min_ns, max_ns); 0 without has_spread */
    double std_ns;                     /* their population standard deviation */
    int has_spread;                    /* the four above are set (a group row or a Total) */
} pf_row;

/* Launches and busy time (union of activity intervals) of one stream. */
typedef struct pf_stream_busy {
    int64_t stream;
    int64_t count;
    int64_t busy_ns;
    int64_t overlaps;          /* activities that start before an earlier one of the stream
                                  ends (programmatic dependent launch, sm_90+): counted once
                                  in busy_ns, as every overlap */
    int64_t overlap_ns;        /* the time they share with the earlier ones */
} pf_stream_busy;

/* When the device worked: its span (first start to last end), the union of its activity
 * intervals, and the same per stream. */
typedef struct pf_busy {
    int64_t start_ns, end_ns;          /* span; both 0 when the device ran nothing */
    int64_t busy_ns;                   /* union of the intervals */
    int64_t sum_ns;                    /* summed durations: sum - busy is the overlap */
    pf_stream_busy *streams;           /* sorted by stream id */
    size_t n_streams;
    int64_t stream_overlaps;           /* the streams' overlaps and overlap_ns, summed */
    int64_t stream_overlap_ns;
} pf_busy;

typedef struct pf_device_report {
    const pf_device *device;
    const pf_device_info *info;        /* NULL when the device is unknown */
    pf_row *rows;                      /* sorted by total time, largest first */
    size_t n_rows;
    pf_row total;                      /* every activity of the device */
    pf_busy busy;
    pf_source_tree sources;            /* its rows' Source lists (pf_row.sources) */
    pf_row *cats[PF_CAT_COUNT];        /* per category: launches, time, work (sums of known); NULL
                                          until an activity of it comes (a row is 624 bytes, and a
                                          trace may have 65,536 devices of one kernel): read them
                                          through pf_report_cat */
    int64_t bytes_known_ns, flop_known_ns; /* GPU time whose bytes (by a formula: the bytes of
                                          the Total row) / FLOPs are known */
    int64_t bytes_generic_ns;          /* GPU time whose bytes are a generic guess only */
    pf_row *missing;                   /* ops without a formula, by time, largest first */
    size_t n_missing;
    int64_t no_shapes_ns;              /* GPU time of launches whose op has no recorded shapes */
    int64_t graph_replay_ns;           /* GPU time of graph-replayed kernels without their capture
                                          (pf_act_work.graph_replay) and no inferred figures */
    int64_t compiled_region_ns;        /* GPU time of launches under a torch.compile region op
                                          without shapes (pf_act_work.compiled_region) */
    int64_t lists_unrecorded_ns;       /* GPU time of launches whose op's tensor lists have no
                                          recorded shapes (pf_act_work.lists_unrecorded) */
    int64_t shapes_ns;                 /* GPU time of launches whose op has recorded shapes */
    int64_t triton_lb_ns;              /* GPU time of Inductor Triton launches whose figures are
                                          a lower bound (module not read: source "triton~lb") */
    int64_t unlinked_n, unlinked_ns;   /* selected activities with no launching op, and their time */
    int64_t inferred_n, inferred_ns;   /* of those, the ones with inferred figures (pf_work_infer) */
    int64_t no_launch_n, no_launch_ns; /* of those, the ones whose launch call is not in the
                                          trace either (launched before profiling began, or
                                          CPU activity not recorded) */
    int64_t graph_launch_n;            /* of those, the ones launched by a graph launch */
    int64_t nested_n, nested_ns;       /* activities linked to their op by nesting
                                          (pf_activity.nested), and their time */
    int64_t captured_n, captured_ns;   /* activities whose op came from a graph capture */
    int64_t graphed_ns;                /* GPU time of its activities launched by a graph launch
                                          (any, inside --step or not), summed once when the
                                          lists are made, not per device over every activity */
    int64_t cat_kernels[PF_CAT_COUNT]; /* distinct kernel names per category */
    unsigned dtypes;                   /* bit per pf_dtype that work with FLOPs ran at on the
                                          device (any activity, inside --step or not) */
    int64_t n_kind[3];                 /* its selected activities by pf_activity kind */
    const size_t *acts;                /* its selected activities (indexes into the trace's
                                          acts) in file order, in pf_analysis.dev_acts: what is
                                          done per device costs its own activities, not all */
    size_t n_acts;
} pf_device_report;

/* One profiler step on one device and its GPU activities: those launched inside the
 * CPU-side ProfilerStep#N window (by any thread of its process), or, when the trace has no
 * launch calls (steps_gpu_side), those that start inside the GPU-side annotation. */
typedef struct pf_step_report {
    int64_t number;                    /* N */
    int device;                        /* -1: a CPU-side window that launched no GPU work */
    int64_t ts_ns, dur_ns;             /* the window (CPU side) or the annotation (GPU side) */
    int64_t count;                     /* its activities */
    int64_t sum_ns;                    /* their summed durations */
    int64_t busy_ns;                   /* union of their intervals */
    int64_t cat_ns[PF_CAT_COUNT];      /* their time per category */
    int64_t gpu_start_ns, gpu_end_ns;  /* first start and last end of its activities (0, 0: none) */
} pf_step_report;

typedef struct pf_analysis {
    const pf_trace *trace;
    pf_analysis_opts opts;
    unsigned char *selected;           /* per activity: inside the --step selection; NULL
                                          when every activity counts (no --step) */
    pf_step_report *steps;             /* steps by start time (GPU side: by device, then start);
                                          a CPU-side window has a row per device it launched on */
    size_t n_steps;
    int steps_gpu_side;                /* 1: steps are the GPU-side annotations (no activity's
                                          launch call is in the trace) */
    pf_act_work *work;                 /* parallel to trace->acts */
    unsigned char *cats;               /* pf_category per activity, parallel to trace->acts */
    pf_device_report *devices;         /* one per trace device with activity, by id */
    int n_devices;
    size_t *dev_acts;                  /* the devices' lists of activities (pf_device_report.acts),
                                          one array */
    pf_strtab *keys;                   /* group keys built from shapes */
    struct pf_waits *waits;            /* why the GPU waits, parallel to devices (waits.h) */
    struct pf_coll_table *colls;       /* one rank's collectives (pf_analysis_collectives);
                                          NULL when not computed or the trace has none */
    const char *colls_unknown;         /* why they could not be read (the trace came from
                                          standard input); NULL otherwise */
    unsigned char *phase;              /* PF_PHASE_* per activity (pf_phases_compute_on) */
    int64_t (*phase_ns)[PF_PHASE_COUNT]; /* per trace device (index into trace->devices): GPU
                                          time of the --step selection per phase */
    int64_t phase_annotations;         /* vLLM/SGLang step annotations found */
    int phase_spread;                  /* how attention calls' phases were spread to their
                                          forwards: bit 1 nn.Module calls, bit 2 launch order
                                          (src/analysis/pipeline.h, PF_SPREAD_*); 0 none */
    char **notes;                      /* what the analysis itself found worth a line on stderr
                                          ("profana: note:"): an Inductor module whose parse ran
                                          past its time budget */
    int n_notes;
} pf_analysis;

/* Whether an analysis with options o reads the trace's host intervals (pf_trace.cpu): --group
 * op does, for each op's CPU time, and --group critical-path, for the call stacks. When it does not, the trace may be loaded without
 * them (pf_load_opts.op_spans_only: pf_cli_parse sets it for every command). */
int pf_analysis_needs_host(const pf_analysis_opts *o);

/* Attributes work to every activity and groups them per device (only the activities inside
 * the --step selection when opts->step asks for one). The analysis borrows t (keep it
 * alive). Returns 0 and *out (free with pf_analysis_free), or -1 with err set: out of
 * memory, or a --step the trace has no ProfilerStep for. */
int pf_analysis_run(const pf_trace *t, const pf_analysis_opts *o, pf_analysis **out, pf_error *err);

/* Frees an analysis. NULL is a no-op. */
void pf_analysis_free(pf_analysis *a);

/* Fills a->colls with the trace's collectives when it has communication kernels
 * (pf_rank_summarize reads their args again from path, the file the trace was loaded from;
 * src/analysis/collectives.c), measured against the link of the devices' common entry. A
 * trace that cannot be read again (standard input) sets a->colls_unknown instead. Returns 0,
 * or -1 with err set when the file cannot be read or memory runs out. */
int pf_analysis_collectives(pf_analysis *a, const char *path, pf_error *err);

/* Fills a->steps from the trace's CPU-side ProfilerStep#N windows: an activity belongs to
 * the window of its launch call's process that holds the call's start. When no activity's
 * launch call is known, from the GPU-side annotations instead (steps_gpu_side: an activity
 * belongs to the annotation on its device that holds its start). When a->opts.step asks for
 * a selection, also a->selected. Needs a->cats. num: NULL, or room for t->n_acts: each
 * activity's step number (pf_steps_numbers' result, from the same pass, so the steps are
 * found once). Returns 0, or -1 with err set: the trace has no such step, or memory ran out.
 * Called by pf_analysis_run. */
int pf_steps_compute(pf_analysis *a, int64_t *num, pf_error *err);

/* Each activity's serving phase into a->phase and each device's GPU time per phase into
 * a->phase_ns (over the --step selection), then, with a->opts.phase, narrows a->selected to
 * that phase. An activity's phase: that of the innermost step annotation (vLLM's
 * "execute_..._context_C(...)_generation_G(...)": prefill when C > 0 and G = 0, decode when
 * C = 0 and G > 0, mixed when both; SGLang's "step[EXTEND|PREFILL|DECODE|MIXED ...]")
 * holding its launch call's start (CPU side, any thread), or for an activity without a
 * launch call its start (GPU side, on its device); else, for the kernels of an attention
 * call with a recorded query, decode when its query length is 1 and
 * prefill when longer, the latter only in a trace with such a decode call (a training step's
 * attention has long queries too), spread to the whole forward the call sits in (without step
 * annotations: the outermost nn.Module call holding it, else by launch order; phase_spread.c);
 * else none. The annotations are read from the file
 * t->path again (the model keeps none): none for standard input; a gzip file is inflated
 * again only with a->opts.phase or when the trace launches a serving library's ops
 * (vllm::, sglang, _C::, ...). Returns 0, or -1 with err set. Called by pf_analysis_run
 * after pf_steps_compute, on `threads` threads (at least 1): the same result on any number. */
int pf_phases_compute_on(pf_analysis *a, size_t threads, pf_error *err);

/* The threads pf_phases_compute_on runs on: pf_work_threads(a->trace, a->opts.jobs). */
size_t pf_phases_threads(const pf_analysis *a);

/* The name of phase p (0 <= p < PF_PHASE_COUNT): "none", "prefill", "decode", "mixed", as
 * the views and JSON keys write it. */
const char *pf_phase_name(int p);

/* --phase's values by PF_PHASE_*, then NULL: "all" (PF_PHASE_NONE: no selection), then each
 * phase's name (pf_phase_name). Read by the option table and the views. */
extern const char *const pf_phase_choices[PF_PHASE_COUNT + 1];

/* No step: an activity that pf_steps_numbers finds in no ProfilerStep. */
#define PF_NO_STEP INT64_MIN

/* Each activity's ProfilerStep number, by pf_steps_compute's rule, into num[0, t->n_acts);
 * PF_NO_STEP for one in no step. Returns 0, or -1 with err set when memory runs out. */
int pf_steps_numbers(const pf_trace *t, int64_t *num, pf_error *err);

/* Whether activity i counts in this analysis (inside the --step selection). */
static inline int pf_analysis_selected(const pf_analysis *a, size_t i)
{
    return !a->selected || a->selected[i];
}

/* Work of one activity (used by the analysis and by --augment_trace): its share s (from
 * pf_work_shares) of the formula or Inductor's figures of its op, or memcpy/memset bytes. */
void pf_work_of(const pf_trace *t, const pf_analysis_opts *o, size_t i, pf_share s, pf_act_work *w);

/* pf_work_of for every activity into w[0, t->n_acts) (shares from pf_work_shares), with
 * one formula run per distinct op invocation (name, args, Inductor figures): the same
 * figures, a fraction of the time, on pf_work_threads(t, o->jobs) threads. Returns 0, or -1
 * when memory runs out. */
int pf_work_all(const pf_trace *t, const pf_analysis_opts *o, const pf_share *shares, pf_act_work *w);

/* A kernel without a launching op (a graph replay without its capture, a library's own
 * launch) takes the figures of the launches of the same kernel name and launch geometry
 * (grid and block) that have an op, when every one of them comes from an op with the same
 * known work (op_flop, op_bytes): the mean of their shares of it (source "inferred",
 * inferred set); kernels without a geometry get nothing. w is pf_work_all's. Runs on
 * `threads` threads (1 to PF_THREADS_MAX: pf_work_threads), with the same result for any
 * number: each key's figures are summed in activity order. Returns 0, or -1 when memory
 * runs out. */
int pf_work_infer(const pf_trace *t, pf_act_work *w, size_t threads);

/* Which part of its op invocation's work each activity carries. FLOPs: the op's math kernels
 * (gemm, conv or attention by kernel name, data-layout kernels such as im2col excepted) in
 * proportion to their time; all its kernels by time when it has none. Bytes: all its kernels
 * in proportion to time. Launches of zero time split by count. Shares of one op sum to 1 per
 * figure. Runs on `threads` threads (at least 1: pf_work_threads), with the same result for
 * any number. Returns a per-activity array (caller frees), or NULL when memory runs out. */
pf_share *pf_work_shares(const pf_trace *t, size_t threads);

/* How many threads a pass over t's activities runs on at -j jobs (the work: pf_work_shares,
 * pf_work_all, pf_work_infer; the categories, the serving phases, the devices' lists): 1 for
 * jobs <= 1 or fewer than 64 Ki activities, else jobs, at most PF_THREADS_MAX. */
size_t pf_work_threads(const pf_trace *t, int jobs);

/* The formula figures of op's call (pf_formula_apply_ex with DTYPE as the assumed type; ex
 * may be NULL). An Inductor Triton launch the op table does not list is read from its
 * generated module instead (pf_triton_work): the module at o->inductor_cache's copy of the
 * recorded kernel_file's last two components, else at the recorded path itself, read only
 * when it is a regular file; without one, the trace-only lower bound with the reason in the
 * explanation. o->modules, when set, holds each module read and parsed once for the run
 * (a parse past its budget: the lower bound, and a note there); NULL: read here each time.
 * Returns what the formula returns (PF_FORMULA_*, or -1: no figures). */
int pf_op_figures(const pf_cpu_op *op, const pf_analysis_opts *o, pf_explain *ex, pf_work *w);

/* Appends one cpu_op argument to buf[*len..n) as --group shape keys spell it: "[2048,512]bf16"
 * (dims, then the dtype unless with_dtype is 0), "list[N]" for a TensorList, else its concrete
 * value or "-". A value that does not fit sets *len to n. */
void pf_key_append_arg(char *buf, size_t n, size_t *len, const pf_arg *a, int with_dtype);

/* Appends every argument of call the same way, joined by ", " ("[2048,512]bf16, [512,512]bf16"):
 * the inside of a --group shape key's parentheses. */
void pf_key_append_args(char *buf, size_t n, size_t *len, const pf_op_call *call, int with_dtype);

/* Whether a row shows a FLOP (bytes) figure: every launch has one, or it is the Total row; a
 * row (not the Total) whose launches all carry their ops' FLOPs elsewhere shows none. */
int pf_row_has_flop(const pf_row *r);
int pf_row_has_bytes(const pf_row *r);
/* CPU figures of one op name over the whole trace. */
typedef struct pf_op_cpu {
    const char *name;                  /* interned in the trace */
    int64_t calls;                     /* cpu_op events of this name */
    int64_t total_ns;                  /* summed durations (inclusive) */
    int64_t self_ns;                   /* minus the host intervals nested directly inside */
} pf_op_cpu;

/* Computes pf_op_cpu for every cpu_op name from the nesting of host intervals per thread.
 * Returns 0 with *out (caller frees) and *n, or -1 when memory runs out. */
int pf_cpu_op_times(const pf_trace *t, pf_op_cpu **out, size_t *n);

/* Computes the busy time of the activities acts[idx[0..n)], in any order. Returns 0, or
 * -1 when memory runs out. b->streams is owned by the caller (free it). */
int pf_busy_compute(const pf_activity *acts, const size_t *idx, size_t n, pf_busy *b);


/* The spread of each row's times (pf_row.p50_ns to std_ns, has_spread): over the samples of
 * the device's activities acts[0, n_acts) that went to a row (act_row[i] >= 0, an index into
 * rows[0, n_rows)): one per activity, or with per_invocation one per op invocation (the summed
 * time of its activities here; an activity without an op is one of its own), which is how
 * pf_row.invocations counts them. total gets the spread of every sample. The samples live only
 * during the call. Returns 0, or -1 when memory runs out. */
int pf_row_spread(const pf_trace *t, int per_invocation, const size_t *acts, size_t n_acts, const int32_t *act_row,
                  pf_row *rows, size_t n_rows, pf_row *total);

/* A row of that key, empty: no time, no figures, no op, min at INT64_MAX. */
void pf_row_init(pf_row *r, const char *key);

/* Adds activity a, its work w and category cat to row r, at the peaks of info (NULL: an
 * unknown device): what every grouping's rows, the Total and the categories take of it, but
 * for the Source list, which only a report's rows keep (src/analysis/rows.c). */
void pf_row_add_activity(pf_row *r, const pf_activity *a, const pf_act_work *w, const pf_device_info *info,
                         pf_category cat);

/* The category with the most time in the row. */
pf_category pf_row_category(const pf_row *r);

/* Rates of a row (src/analysis/rates.c: the rule of include/profana/rates.h); < 0 when unknown. */
double pf_row_tflops(const pf_row *r);
double pf_row_gbps(const pf_row *r);
/* A group row whose FLOPs (bytes) are known for some of its launches only, not all (and not
 * carried elsewhere): the rate and percent of peak of those launches over their own time
 * (pf_row.flop_known_ns, bytes_known_ns); < 0 for any other row or when unknown. */
double pf_row_part_tflops(const pf_row *r);
double pf_row_part_gbps(const pf_row *r);
double pf_row_part_flops_pct(const pf_row *r, const pf_device_info *info);
double pf_row_part_bw_pct(const pf_row *r, const pf_device_info *info);
/* Percent of peak; < 0 when unknown (no device, no figures, no peak for the dtype). */
double pf_row_flops_pct(const pf_row *r, const pf_device_info *info);
double pf_row_bw_pct(const pf_row *r, const pf_device_info *info);

/* A row's percent of the achievable peaks (pf_row_flops_pct, pf_row_bw_pct against the
 * measured figures); < 0 (unknown) when the device has none for a launch's dtype or the row
 * shows no figures. */
double pf_row_flops_ach_pct(const pf_row *r, const pf_device_info *info);
double pf_row_bw_ach_pct(const pf_row *r, const pf_device_info *info);
/* 1 when the row's BW % is unknown because its bytes moved faster than DRAM's peak while an
 * invocation's bytes fit the device's cache (pf_dram_pct): shown as "cache", not a number. */
int pf_row_cache_served(const pf_row *r, const pf_device_info *info);
/* 1 when a percentage of the row would be above 100 because of a generic guess (its bytes,
 * every input read and output written whole, are a ceiling): shown as "~ub", not a number. */
int pf_row_guess_over(const pf_row *r, const pf_device_info *info);
/* "compute", "memory", or NULL when the figures do not say. */
const char *pf_row_bound(const pf_row *r, const pf_device_info *info);
/* GPU time per invocation (per launch for kernel rows), in ns; 0 for an empty row. */
double pf_row_mean_ns(const pf_row *r);
/* Sources joined with '+' (every one of them), written into buf; "-" when none. Returns buf. */
const char *pf_row_source(const pf_row *r, char *buf, size_t n);
/* r's distinct sources in the order they came into out (room for PF_ROW_MAX_SOURCES); returns
 * how many. */
int pf_row_sources(const pf_row *r, const char **out);
/* Category c's row of d: d->cats[c], or an empty row (count and times 0) when the device ran
 * nothing of it. */
const pf_row *pf_report_cat(const pf_device_report *d, int c);

#endif
