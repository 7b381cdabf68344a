/* modules.h - GPU time by the model's own modules (--group module) or by user annotations (--group annotation): the kernels each call launched (forward) and those of the backward ops its autograd nodes ran (backward). */
/* layer: analysis (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_MODULES_H
#define PROFANA_MODULES_H

#include <stddef.h>
#include <stdint.h>

#include "profana/analysis.h"
#include "profana/error.h"
#include "profana/strtab.h"

/* One module path on one device ("Qwen2ForCausalLM_0/Qwen2Model_0/Qwen2DecoderLayer_1"), or
 * with by_class one module class (the last component without its _N: "Qwen2DecoderLayer"). */
typedef struct pf_module_row {
    const char *path;                  /* interned in the view; a class name with by_class */
    const char *name;                  /* the last component of path (points into it) */
    int depth;                         /* components before the last (0: a top-level module) */
    int32_t parent;                    /* index of the parent path's row on the same device, -1 none */
    int64_t calls;                     /* calls of the path (module ranges in the trace, on any
                                          thread; with --step, those that start inside the
                                          selected steps' CPU-side windows; by_class: of every
                                          path of the class) */
    int64_t fwd_ns, bwd_ns;            /* GPU time of the activities attributed to it or to a
                                          module below it: launched inside its call (forward),
                                          or by a backward op whose autograd node its forward
                                          made (backward) */
    int64_t self_fwd_ns, self_bwd_ns;  /* the same for the path itself, not below it */
    pf_row fig;                        /* its activities (forward and backward) as a row: count,
                                          time, FLOPs, bytes, rates and peaks as --group rows */
} pf_module_row;

/* The module rows of one device. */
typedef struct pf_module_device {
    const pf_device_report *report;    /* the analysis' report of the device (info, Total) */
    pf_module_row *rows;               /* paths in tree order: a parent before its children,
                                          siblings by total time, largest first */
    size_t n_rows;
    pf_module_row *classes;            /* classes by total time, largest first */
    size_t n_classes;
    int64_t gpu_ns;                    /* the device's GPU time (the analysis' selection) */
    int64_t fwd_ns, bwd_ns;            /* attributed to some module: forward, backward */
    int64_t bwd_unattributed_ns;       /* launched by a backward op whose forward op lies in no
                                          module call or is not in the trace, or elsewhere on
                                          autograd's thread (AccumulateGrad has no number) */
    int64_t outside_ns;                /* launched outside every module call and backward op
                                          (the loss, the optimizer), or with no launch call known */
} pf_module_device;

typedef struct pf_module_view {
    int annotations;                   /* 1: the ranges are user annotations (--group annotation) */
    pf_module_device *devices;         /* parallel to the analysis' devices */
    int n_devices;
    int64_t n_module_calls;            /* nn.Module ranges (annotations) in the trace: 0 = recorded
                                          without them */
    int64_t n_backward_ops;            /* backward ops with a sequence number */
    pf_strtab *paths;                  /* owns the paths and class names */
} pf_module_view;

/* Builds the module view of an analysis whose trace was loaded with pf_load_opts.autograd
 * (else backward time is all unattributed) over the analysis' selection (--step, --phase).
 * A module call is a Python event "nn.Module: NAME_i" (torch.profiler, with_stack=True); its
 * path joins the names of the module calls that enclose it on its thread. An activity goes
 * forward to the innermost module call that holds its launch call's start on the call's
 * thread; else, backward, to the innermost module call that holds the start of the forward
 * op whose sequence number is that of the innermost backward op holding its launch call
 * (the ends of the profiler's fwdbwd flow). With annotations, the ranges are the user
 * annotations (record_function; not ProfilerStep#N) instead of module calls, by the same
 * rules, and a "class" is an annotation name wherever it nests. Returns 0 and *out (free with
 * pf_module_view_free), or -1 with err set when memory runs out. */
int pf_module_view_build(const pf_analysis *an, int annotations, pf_module_view **out, pf_error *err);

void pf_module_view_free(pf_module_view *v);

#endif
