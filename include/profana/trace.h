/* trace.h - the trace-event model (devices, GPU activities, cpu_ops) and the loader that fills it. */
/* layer: trace (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_TRACE_H
#define PROFANA_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "profana/error.h"
#include "profana/op_call.h"
#include "profana/strtab.h"

typedef enum pf_act_kind { PF_ACT_KERNEL = 0, PF_ACT_MEMCPY, PF_ACT_MEMSET } pf_act_kind;

/* A device: declared in deviceProperties, or only seen in events. */
typedef struct pf_device {
    int id;
    const char *name;          /* interned; "" when the trace gives none */
    int num_sms;               /* 0 when unknown */
    int64_t total_mem;         /* bytes; 0 when unknown */
    int cc_major, cc_minor;
    int warp_size;
    int declared;              /* 1 when deviceProperties lists it */
    int inherited;             /* 1 when it took the single declared model (ROCm id quirk) */
} pf_device;

/* Where an event's args object lies in the text, so that a writer (--augment_trace) can
 * go straight to it instead of parsing the event again: its '{' is at src_off + at, its
 * '}' at src_off + at + len - 1. len 0: unknown (no args object, or too far to note). */
typedef struct pf_src_args {
    uint32_t at, len;
} pf_src_args;

/* One GPU activity: a kernel, memcpy or memset ("X" event). One per GPU event of the trace,
 * so the small fields share words (bit-fields): 112 bytes, not 120. */
typedef struct pf_activity {
    const char *name;          /* interned */
    int device;
    int32_t op;                /* index into pf_trace.ops of the launching cpu_op (the first with
                                  its External id, which the loader keeps only until it links
                                  them: 8 bytes an activity; where none has it, the op enclosing
                                  its launch call: nested); -1 none */
    int64_t stream;
    int64_t ts_ns, dur_ns;     /* exact, from the microsecond text */
    int64_t correlation;       /* -1 when absent (has_correlation 0); ids are unsigned 64-bit
                                  in the trace and kept as their bit pattern (2^64 - 1 is -1
                                  with has_correlation 1) */
    int64_t bytes;             /* memcpy/memset args.bytes; -1 when absent */
    uint64_t geometry;         /* a hash of its grid and block (its args, else its launch
                                  call's); 0 when the trace gives neither */
    int64_t launch_ts_ns;      /* start of its launch call (the cuda_runtime/cuda_driver event
                                  with its correlation id); PF_NO_LAUNCH when none is known */
    int64_t launch_dur_ns;     /* that call's duration; 0 when none is known */
    uint64_t launch_thread;    /* that call's thread (a hash of its pid and tid, as
                                  pf_cpu_event.thread); 0 when none is known */
    uint64_t launch_process : 62; /* that call's process: a hash of its pid text (62 bits); 0 none */
    uint64_t graph : 1;        /* 1: launched by a graph launch (cudaGraphLaunch, hipGraphLaunch) */
    uint64_t captured : 1;     /* 1: op is the one that recorded it in a graph capture
                                  (pf_trace_graft_captures), not one of this trace */
    pf_src_args args;          /* where its args object is in the text */
    int64_t src_off : 59;      /* byte offset of the event's '{' in the (decompressed) text */
    uint64_t has_correlation : 1; /* 1: args.correlation read (correlation) */
    uint64_t has_ext : 1;      /* 1: args "External id" read (linking's, until then) */
    uint64_t nested : 1;       /* 1: op is the innermost op enclosing its launch call on the
                                  call's thread, its External id matching none (linked by nesting) */
    uint64_t kind : 2;         /* pf_act_kind */
} pf_activity;

/* A cpu_op that launched GPU activity (a GPU activity's External id is its own); with
 * pf_load_opts.all_ops, every cpu_op with an External id. Its args are parsed only when a
 * GPU activity links to it (see call); ops whose args read the same share one parse
 * (call.args is shared). Memory then follows the launches, not every host-side op. */
typedef struct pf_cpu_op {
    const char *name;          /* interned: "aten::mm" */
    int64_t ext_id;            /* unsigned 64-bit in the trace, kept as its bit pattern */
    pf_op_call call;           /* name/args; nargs == 0 until resolved, or when none recorded */
    double kernel_flop;        /* Inductor's figures; < 0 when absent */
    double kernel_num_gb;
    const char *kernel_file;   /* Inductor's generated module of a Triton launch (args
                                  "kernel_file", interned); NULL when absent */
    int bad_args;              /* 1 when its args could not be read (counted warning) */
    pf_src_args args;          /* where its args object is in the text */
    int64_t src_off;           /* byte offset of the event's '{' in the (decompressed) text */
} pf_cpu_op;

/* What a runtime call with a correlation id is, by its name. */
typedef enum pf_launch_kind {
    PF_LAUNCH_CALL = 0,        /* a kernel launch, a copy, anything else */
    PF_LAUNCH_GRAPH,           /* cudaGraphLaunch, hipGraphLaunch: replays a captured graph */
    PF_LAUNCH_BEGIN_CAPTURE    /* cudaStreamBeginCapture, hipStreamBeginCapture: a capture begins */
} pf_launch_kind;

/* A launch call of a graph capture's trace (kept with pf_load_opts.launches): during capture
 * a launch records a kernel into the graph and runs nothing, so the call and its op are all
 * the trace has of it. */
typedef struct pf_launch {
    const char *kernel;        /* interned kernel name; NULL: not a kernel launch */
    pf_launch_kind kind;
    int32_t op;                /* index into pf_trace.ops of the op that made the call; -1 none */
    int ran;                   /* 1: a GPU activity has its correlation (it ran: not captured) */
    int64_t ext_id, correlation, ts_ns; /* ids as pf_activity.correlation's bit pattern */
    uint64_t process;
    uint64_t geometry;         /* as pf_activity.geometry; 0 none */
    int has_ext;               /* 1: ext_id read; 0: none (ext_id -1) */
} pf_launch;

/* launch_ts_ns of an activity whose launch call is unknown (no runtime event with its
 * correlation id, or several processes' calls share it). */
#define PF_NO_LAUNCH INT64_MIN

/* A ProfilerStep#N annotation: on the GPU side (cat gpu_user_annotation) the span of one
 * profiler step on one device; on the CPU side (user_annotation) the step's window on the
 * thread that called prof.step(), what --step restricts the analysis to (the GPU work
 * launched inside it, from any thread of its process). */
typedef struct pf_step {
    int64_t number;            /* N of ProfilerStep#N */
    int device;                /* GPU side: its device; CPU side: -1 */
    int64_t ts_ns, dur_ns;
    uint64_t process;          /* CPU side: its process, as pf_activity.launch_process; GPU side: 0 */
} pf_step;

/* A host-side interval (cpu_op, CUDA runtime/driver call, annotation) on one thread: what
 * the per-op CPU times need. name is the interned op name for cpu_ops, NULL otherwise. */
typedef struct pf_cpu_event {
    const char *name;
    uint64_t thread;           /* hash of pid and tid */
    int64_t ts_ns, dur_ns;
} pf_cpu_event;

/* What a host-side mark is: the events that say what the CPU was doing while the GPU waited. */
typedef enum pf_mark_kind {
    PF_MARK_ANNOTATION = 0,    /* a user annotation (record_function), not ProfilerStep#N */
    PF_MARK_PYTHON,            /* a Python frame (python_function: with_stack=True traces) */
    PF_MARK_SYNC,              /* a runtime call that blocks the host until the GPU is done:
                                  *Synchronize, a synchronous memcpy (pf_mark_is_sync) */
    PF_MARK_BLOCKING_OP        /* a cpu_op that waits for the GPU to read a value back
                                  (aten::item, aten::_local_scalar_dense, aten::nonzero ...) */
} pf_mark_kind;

/* One host-side mark on one thread (kept whatever pf_load_opts.op_spans_only says: the
 * diagnosis reads them to say what covers the GPU's idle gaps). */
typedef struct pf_host_mark {
    const char *name;          /* interned */
    uint64_t thread;           /* hash of pid and tid, as pf_cpu_event.thread */
    int64_t ts_ns, dur_ns;
    int kind;                  /* pf_mark_kind */
} pf_host_mark;

/* A cpu_op with an autograd sequence number (kept with pf_load_opts.autograd): in the forward
 * pass, an op recorded while autograd node seq was made (the node's op and the calls around
 * it share the number); in the backward pass, an op that runs node seq on autograd's thread
 * (its "Fwd thread id" names the forward thread, from 1; forward ops write 0). The two ends of
 * torch.profiler's fwdbwd flow. */
typedef struct pf_autograd_op {
    uint64_t thread;           /* hash of pid and tid, as pf_cpu_event.thread */
    int64_t ts_ns, dur_ns;
    int64_t seq;               /* "Sequence number" (>= 0) */
    int backward;              /* 1: a backward op */
} pf_autograd_op;

/* Whether a runtime call of this name (len bytes, not terminated) blocks the host until GPU
 * work ends: cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize, cudaMemcpy
 * and cudaMemcpy2D/3D (synchronous), their hip and cu* driver forms, hipMemcpyWithStream. */
int pf_mark_is_sync(const char *name, size_t len);

/* Whether a cpu_op of this name (len bytes) reads a GPU value back on the host and so waits
 * for the GPU: aten::item, aten::_local_scalar_dense, aten::nonzero, aten::unique family,
 * aten::masked_select, aten::equal, aten::is_nonzero. */
int pf_mark_is_blocking_op(const char *name, size_t len);

/* A loaded trace. Everything is owned by it and freed by pf_trace_free. */
typedef struct pf_trace {
    const char *path;          /* as given; "-" for standard input */
    pf_strtab *strings;
    pf_device *devices;        /* sorted by id */
    int n_devices;
    char *host_name;           /* the top-level "host_name" Kineto writes (the node the rank
                                  ran on), owned; NULL when the trace has none */
    int rank;                  /* distributedInfo.rank (a whole number from 0 to 2^24); -1
                                  when the trace names none */
    pf_activity *acts;         /* in file order */
    size_t n_acts;
    pf_cpu_op *ops;
    size_t n_ops;
    pf_cpu_event *cpu;         /* host intervals in file order (none with
                                  pf_load_opts.op_spans_only) */
    size_t n_cpu;
    size_t n_host;             /* host-side events with a duration ("X": cpu_op, runtime or
                                  driver call, annotation, other host event), kept in cpu or not */
    int op_spans_only;         /* loaded with pf_load_opts.op_spans_only */
    size_t n_events;           /* every element of traceEvents */
    size_t n_unlinked;         /* activities without a launching op: their External id matches
                                  no cpu_op, and no op encloses their launch call */
    size_t n_nested;           /* activities linked by nesting (pf_activity.nested) */
    size_t n_duplicate_ids;    /* cpu_ops whose External id an earlier cpu_op had */
    size_t n_bad_events;       /* events skipped because a field could not be read */
    size_t n_steps;            /* ProfilerStep#N annotations on the CPU side */
    pf_step *gpu_steps;        /* GPU-side ProfilerStep#N annotations in file order */
    size_t n_gpu_steps;
    pf_step *cpu_steps;        /* CPU-side ProfilerStep#N windows in file order */
    size_t n_cpu_steps;
    size_t n_launched;         /* activities whose launch call is known (launch_ts_ns) */
    size_t n_unknown_gpu;      /* "X" events of a category profana does not know that look
                                  like GPU activity (args stream or device, and correlation) */
    pf_host_mark *marks;       /* annotations, Python frames, syncs, blocking ops, in file order */
    size_t n_marks;
    pf_autograd_op *autograd;  /* pf_load_opts.autograd: the ops with a sequence number, in file
                                  order; else NULL */
    size_t n_autograd;
    pf_launch *launches;       /* pf_load_opts.launches: every runtime call with a correlation
                                  id, in file order; else NULL */
    size_t n_launches;
    struct pf_trace **adopted; /* graph captures whose ops this trace's activities use */
    size_t n_adopted;
    char **notes;              /* remarks worth one line each on stderr ("profana: note:") */
    int n_notes;
    char **warnings;           /* "byte N: trace is cut off ..." ("profana: warning:") */
    int n_warnings;
    struct pf_trace_store *store; /* what the loader allocated for the ops (shared args) */
} pf_trace;

/* How to load: threads, progress on stderr, strictness about a trace cut short. */
typedef struct pf_load_opts {
    int jobs;                  /* parser threads; 0 = one per core */
    int progress;              /* 1: a progress bar on stderr for large inputs (caller checks isatty) */
    int strict;                /* 1: a trace cut inside its last event is an error, not a warning */
    int all_ops;               /* 1: keep every cpu_op with an External id in ops, not only
                                  those that launched GPU activity (--explain counts them) */
    int launches;              /* 1: keep the launch calls (pf_trace.launches) with their kernel
                                  names and ops: a graph capture's trace */
    int op_spans_only;         /* 1: keep no host intervals (an op record carries its own span
                                  for the nested-op search); host events are counted in
                                  n_host: for a caller that will not ask for per-op CPU times
                                  (a 300 MB trace's scan holds 10 MB less) */
    struct pf_timings *timings; /* --timings: the loader's phases are added here; NULL = none */
    int autograd;              /* 1: keep the ops with an autograd sequence number
                                  (pf_trace.autograd: the module view's backward pass) */
} pf_load_opts;

/* Loads a Kineto chrome trace from path ("-" = standard input; plain JSON or gzip, told by
 * its content). On success returns 0 and *out owns the model (free with pf_trace_free). On
 * error returns -1, *out is NULL and err holds "PATH: byte N: what was expected" (or the I/O
 * reason). opts may be NULL (defaults: every core, no progress, not strict).
 * A plain file is parsed by opts->jobs threads, each taking a stretch of traceEvents; their
 * results join in file order, so the model is the same for every number of threads. A
 * stream (gzip, standard input) is read by one thread while another parses it. Memory
 * follows the model, not the file: a plain file is mapped and its pages are handed back
 * behind the parser; a stream passes through a window that grows to its largest event.
 * A trace cut off inside traceEvents keeps its complete events, with one entry in warnings
 * (opts->strict: an error instead); a bare event array may lack its closing ']'. */
int pf_trace_load_opts(const char *path, const pf_load_opts *opts, pf_trace **out, pf_error *err);

/* pf_trace_load_opts with the defaults. */
int pf_trace_load(const char *path, pf_trace **out, pf_error *err);

/* Frees a trace and everything it owns. NULL is a no-op. */
void pf_trace_free(pf_trace *t);

/* Gives each graph-replayed kernel of replay (activities launched by a graph launch, which
 * have no op) the op that recorded it during capture: the kernels of one replay, by start
 * time, are matched to the kernel launches of one captured graph, in launch order, when
 * their names (and, where both are known, geometries) agree one for one and exactly one
 * captured graph agrees. A graph of caps is the launches recorded between one
 * *StreamBeginCapture and the next (kernel launch calls whose kernel never ran). Each replay
 * gets its own copies of the ops (appended to replay->ops, captured set), so that each
 * replay's work counts once. Graphs are compared by a hash of their kernel names first, so
 * the time grows with the replays and graphs, not their product. replay adopts the caps some
 * replay took ops from (freed with it) and frees the others now (caps[] itself is the
 * caller's). Adds a note per kind of replay left unmatched. *mapped: activities given an op.
 * Returns 0, or -1 with err set when memory runs out (caps are adopted either way). */
int pf_trace_graft_captures(pf_trace *replay, pf_trace **caps, size_t n_caps, size_t *mapped, pf_error *err);

/* The capture traces that path names: path itself when it is a file; for a directory, the
 * files its execution_details.json lists ("file" of each entry: vLLM's and SGLang's capture
 * directories; a file named twice, or by two names, once), else every *.json and *.json.gz
 * in it, by name. *out is an array of n
 * malloc'd paths (free each, and the array). Returns 0, or -1 with err set (unreadable
 * directory, malformed execution_details.json, no trace in the directory). */
int pf_capture_paths(const char *path, char ***out, size_t *n, pf_error *err);

/* The device record with this id, or NULL. */
const pf_device *pf_trace_device(const pf_trace *t, int id);

/* ---- used by the loader's parts (src/trace_*.c) ---- */

/* Reads the whole input (file via mmap, or stdin; gzip decompressed by the loader's reader,
 * with its messages) into *buf: the text that every src_off points into. *mapped says how
 * pf_source_release frees it. Returns 0, or -1 with err set and *buf NULL. */
int pf_source_read(const char *path, char **buf, size_t *len, int *mapped, pf_error *err);

/* Says that buf[0, upto) of what pf_source_read returned will not be read again: a mapped
 * file hands those pages back (memory then follows the reading, not the file); the text
 * stays readable (it would be read from the file again). */
void pf_source_done(const char *buf, size_t len, int mapped, size_t upto);

/* After a failure reading PATH, whose size was `len` when it was read: when the file is now
 * smaller (another process cut it meanwhile), that is the cause, and err becomes "PATH: byte
 * N: the file changed (it shrank) while being read"; returns 1 then, else 0 with err as it
 * was. */
int pf_source_changed(const char *path, size_t len, pf_error *err);

/* The first bytes of path's text (gzip inflated, as the loader reads it) into buf[0, cap), to
 * tell what a file holds without reading it all. Returns how many (fewer at the end of the
 * text), or -1 with err set. */
long pf_source_head(const char *path, char *buf, size_t cap, pf_error *err);

/* Releases what pf_source_read returned. */
void pf_source_release(char *buf, size_t len, int mapped);

/* Parses the args object text of a linked cpu_op into op->call and its Inductor figures,
 * allocating an arg array (op->call.args) that the caller frees. Returns 0, or -1 when the
 * args are malformed (op->bad_args set; the op then has no figures). */
int pf_trace_parse_op_args(pf_trace *t, pf_cpu_op *op, const char *text, size_t len);

/* Appends a note (printf-style) to t->notes. Returns 0 or -1 when memory runs out. */
int pf_trace_note(pf_trace *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
