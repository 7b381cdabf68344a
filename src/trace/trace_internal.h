/* trace_internal.h - the loader's parts shared by its files: input readers, text windows, per-chunk event vectors, model assembly (not a public interface). */
#ifndef PROFANA_TRACE_INTERNAL_H
#define PROFANA_TRACE_INTERNAL_H

#include <stdint.h>

#include "profana/strtab.h"
#include "profana/trace.h"

/* Under AddressSanitizer files are read, not mapped, into buffers whose unfilled end is
 * poisoned: a read past the text is then caught as if the file ended there. */
#if defined(__SANITIZE_ADDRESS__)
#define PF_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PF_ASAN 1
#endif
#endif

/* ---- the input (trace_reader.c) ---- */

/* The text of a trace as it is read: a plain regular file (read at any offset, so that
 * threads can each take a part), or a stream: standard input, a pipe, or gzip data, which
 * one thread decompresses while another parses. */
typedef struct pf_reader pf_reader;

/* Opens path ("-" = standard input) and sniffs gzip. Returns 0 or -1 with err set
 * ("PATH: cannot open: ...", "PATH: is a directory, not a trace file"). */
int pf_reader_open(const char *path, pf_reader **out, pf_error *err);

/* The input's name for messages: the path, or "<stdin>". */
const char *pf_reader_name(const pf_reader *r);

/* 1 when any offset can be read (a plain regular file); 0 for a stream, read in order. */
int pf_reader_seekable(const pf_reader *r);

/* A plain regular file is mapped whole: sets *text and *len and returns 1; 0 otherwise. */
int pf_reader_mapping(const pf_reader *r, const char **text, size_t *len);

/* Counts n more bytes as done for the progress bar (a mapped file is never "read"). */
void pf_reader_count(pf_reader *r, size_t n);

/* Bytes of the input as stored (compressed for gzip); -1 when unknown (a pipe). */
int64_t pf_reader_size(const pf_reader *r);

/* Of those, how many were read so far; any thread may ask (the progress bar does). */
int64_t pf_reader_progress(const pf_reader *r);

/* Reads up to n bytes of text at offset off into buf (a stream: off must be where the last
 * read ended). Returns the count, 0 at the end of the text, or -1 with err set. Seekable
 * readers may be read by several threads at once. */
long pf_reader_read(pf_reader *r, char *buf, size_t n, int64_t off, pf_error *err);

/* Reads a stream to its end and returns -1 with err set when the gzip data turns out corrupt
 * there (which outranks a parse error before it, as when the whole input was decompressed
 * first); 0 otherwise. */
int pf_reader_drain(pf_reader *r, pf_error *err);

/* After the text was read to its end (pf_reader_drain): the compressed offset at which a gzip
 * input ended inside a member, whose text so far was delivered as the whole text; -1 when
 * it did not, or the input is not gzip. */
int64_t pf_reader_gz_cut(pf_reader *r);

/* Stops a decompressing thread and frees everything. NULL is a no-op. */
void pf_reader_close(pf_reader *r);

/* gzip is normally inflated into a growing mapping: offset x of the text at text[x] once
 * inflated, so that several threads parse it in place. Sets *text and *cap (the longest
 * text it can hold; cap may be NULL) and returns 1 when so; such a reader is read with
 * pf_reader_wait, never pf_reader_read. */
int pf_reader_growing(const pf_reader *r, const char **text, int64_t *cap);

/* The growing text is mapped, and handed back by pf_reader_release, in segments of this many
 * bytes: parsers release it in steps of one segment. */
#define PF_GROWING_SEGMENT (1 << 20)

/* Waits until text beyond offset have is inflated, or the text ended. Returns how many bytes
 * after have are ready, 0 at the end of the text, or -1 with the inflater's error. */
long pf_reader_wait(pf_reader *r, int64_t have, pf_error *err);

/* Text below upto will not be read again: its memory goes back to the inflater. Any thread. */
void pf_reader_release(pf_reader *r, int64_t upto);

/* Adds delta to the number of threads that parse the growing text (one, the opener, at
 * first). The inflater runs only a little ahead of them, except while all of them wait. */
void pf_reader_consumers(pf_reader *r, int delta);

/* ---- a window of the text (trace_scan.c) ---- */

/* buf[0..len) is the text from offset base on; the parser refills it one element at a time,
 * so memory follows the largest event, not the file. Over a mapped file the window is the
 * whole file (base 0, eof set) and the parser hands back pages it has passed instead; over
 * growing gzip text it moves through the mapping and waits for more, copying nothing. */
typedef struct pf_window {
    pf_reader *r;
    char *buf;
    size_t cap, len;
    int64_t base;
    int eof;                   /* buf[len] is the end of the text */
    int mapped;                /* buf is the reader's mapping: read-only, never refilled */
    const char *growing;       /* the growing mapping's text (buf = growing + base); else NULL */
    int releases;              /* a growing window that gives back the text it has passed */
} pf_window;

/* An empty window that reads from offset at. Returns 0 or -1 (out of memory). */
int pf_window_init(pf_window *w, pf_reader *r, int64_t at);

/* Empties the window and moves it to offset at (seekable and growing readers only; a mapped
 * window already holds every offset). */
void pf_window_seek(pf_window *w, int64_t at);

/* The text in [from, upto) is parsed: a mapped window returns its whole pages to the system
 * (they count in the process's memory otherwise) and counts them for the progress bar. */
void pf_window_done(pf_window *w, int64_t from, int64_t upto);

/* Drops buf[0..keep), keeps the rest at the front and reads more after it, growing the
 * buffer when it is full. Returns 0 (setting eof at the end of the text) or -1 with err set. */
int pf_window_more(pf_window *w, size_t keep, pf_error *err);

void pf_window_free(pf_window *w);

/* ---- growable arrays in blocks (trace_vec.c) ---- */

/* Elements live in fixed blocks mapped from the system, so that moving them into one array
 * returns each block as soon as it is copied: never two copies of the events at once. */
typedef struct pf_segvec {
    char **blocks;
    size_t n_blocks, cap_blocks;
    size_t elem, n;
    size_t per_block;          /* a power of two (1 << shift): no division per element */
    size_t block_bytes;
    unsigned shift;
} pf_segvec;

void pf_segvec_init(pf_segvec *v, size_t elem);

/* A new element at the end (zeroed), or NULL when memory runs out. */
void *pf_segvec_push(pf_segvec *v);

/* Element i (< v->n). */
static inline void *pf_segvec_at(const pf_segvec *v, size_t i)
{
    return v->blocks[i >> v->shift] + (i & (v->per_block - 1)) * v->elem;
}

/* Moves the elements in order to dst (room for v->n) and empties v, block by block: a full
 * block that lands on a page boundary of dst (a large array from pf_model_alloc starts on
 * one) is remapped there, the others are copied. */
void pf_segvec_drain(pf_segvec *v, void *dst);

/* Frees everything; v is then empty (and reusable). */
void pf_segvec_free(pf_segvec *v);

/* malloc for one of the model's arrays (freed with free); large ones (2 MB and more) are
 * page-aligned, for pf_segvec_drain, and backed by huge pages where the system offers them. */
void *pf_model_alloc(size_t n);

/* ---- one part of traceEvents, parsed by one thread (trace_scan.c) ---- */

/* A cpu_op with an External id, kept compact until linking decides which ops the model
 * needs. key is the interned text of the args members the formulas read ("Input Dims",
 * "Input type", "Concrete Inputs", kernel_flop, kernel_num_gb), so equal args parse once;
 * NULL when it has none of them. */
typedef struct pf_op_rec {
    const char *name;
    const char *key;
    int64_t ext_id;
    int64_t src_off;
    pf_src_args args;
    uint32_t cpu_at;           /* its host interval (span and thread): its index in its part's
                                  cpu vector; PF_NO_CPU when its times could not be read. An
                                  index, not the span itself, keeps records small (a copy of
                                  the span would cost a 1 GB trace 47 MB) */
} pf_op_rec;

#define PF_NO_CPU UINT32_MAX

/* A host call that may have launched GPU work (cuda_runtime, cuda_driver): its correlation id
 * names the GPU activity it launched. Kept until linking gives each activity its launch. */
typedef struct pf_launch_rec {
    int64_t correlation;
    int64_t ts_ns;
    int64_t dur_ns;            /* the call's duration */
    uint64_t process;          /* hash of its pid text, never 0 */
    uint64_t geometry;         /* its grid and block (pf_activity.geometry); 0 none */
    int64_t ext_id;            /* launch_names only; else -1 */
    const char *kernel;        /* the kernel it launched (launch_names only); NULL none */
    pf_launch_kind kind;
} pf_launch_rec;

typedef enum pf_chunk_end {
    PF_END_STOPPED,            /* reached its end: the next element starts at next */
    PF_END_ARRAY,              /* the array closed: next is the offset after ']' */
    PF_END_CUT,                /* the text ended inside the array (see cut_at, cut_inside) */
    PF_END_ERROR               /* err holds the message */
} pf_chunk_end;

typedef struct pf_chunk {
    pf_segvec acts, cpu, ops, steps; /* pf_activity, pf_cpu_event, pf_op_rec, pf_step */
    pf_segvec launches, cpu_steps; /* pf_launch_rec; pf_step (CPU-side ProfilerStep#N) */
    size_t n_events, n_bad_events, n_steps;
    size_t n_unknown_gpu;      /* GPU-like events of an unknown category */
    const char *unknown_cat;   /* the first one's category (interned), for the warning */
    int64_t start;             /* offset of its first element; -1 when none was found */
    pf_chunk_end end;
    int64_t next;
    int64_t cut_at;            /* PF_END_CUT: where the text ended */
    int cut_inside;            /* PF_END_CUT: 1 inside an element, 0 between two */
    pf_error err;
} pf_chunk;

void pf_chunk_init(pf_chunk *c);
void pf_chunk_free(pf_chunk *c);

/* What one parsing thread owns. */
typedef struct pf_scanner {
    pf_window *w;
    pf_strcache *strs;
    struct pf_shapes *shapes;  /* the event shapes this thread has seen (trace_event.h) */
    const char *path;
    int depth;                 /* nesting depth of the array's elements (the limit counts it) */
    int launch_names;          /* keep each launch call's kernel name and External id
                                  (pf_load_opts.launches: a graph capture's trace) */
    char *key;                 /* scratch for pf_op_rec.key */
    size_t key_cap;
} pf_scanner;

/* Where parsing begins in the window: right after the array's '[', or at an element. */
typedef enum pf_scan_from { PF_FROM_OPEN, PF_FROM_ELEMENT } pf_scan_from;

/* Parses elements of the events array from sc->w->buf[at] into c until the array ends, the
 * text ends, an error, or the next element starts at or after offset stop_at. Every outcome
 * is in c->end. */
void pf_scan_events(pf_scanner *sc, pf_chunk *c, size_t at, pf_scan_from from, int64_t stop_at);

/* The first offset in [from, limit) where an event seems to start ('{' after "}," and
 * before '"'), in *start; -1 when the text ends with none, PF_NO_START_HERE when none starts
 * before limit (the text reaching past it: a long event or a long stretch of whitespace).
 * A guess that the chunk before confirms (it must end exactly there), so a false one costs
 * time, never correctness. 0 or -1 on a read error. */
enum { PF_NO_START_HERE = -2 };
int pf_scan_find_start(pf_window *w, int64_t from, int64_t limit, int64_t *start, pf_error *err);

/* How far before from pf_scan_find_start reads (the "}," before an event at from). */
enum { PF_SCAN_BACK = 64 };

/* ---- the model (trace_model.c) ---- */

/* Text of the trace already decoded by cJSON (a device name, an input type), interned as
 * every name is kept: valid UTF-8 without control characters (pf_json_text_dup). NULL when
 * memory runs out. */
const char *pf_trace_intern_text(pf_trace *t, const char *s);

/* Builds t->devices from the deviceProperties text (len 0 when absent) and the devices
 * the activities run on; lone surrogate escapes in text are rewritten in place
 * (pf_json_fix_surrogates). Returns 0 or -1 with err set. */
int pf_trace_devices_from_props(pf_trace *t, char *text, size_t len, pf_error *err);

/* Links activities (and t->launches, when kept) to the op records of the chunks (in order)
 * by External id, builds t->ops from the linked records (all_ops: from all of them), in
 * file order, and parses the args of linked ops once per distinct args text. cpu_base[v]:
 * where chunk v's host intervals start in t->cpu (a record's cpu_at counts from there). Frees
 * the records. Returns 0 or -1 with err set (out of memory only). */
int pf_trace_link(pf_trace *t, pf_segvec *const *ops, const size_t *cpu_base, size_t n_vecs, int all_ops,
                  pf_error *err);

/* Gives each activity the start and process of the launch call with its correlation id
 * (launch_ts_ns, launch_process; PF_NO_LAUNCH when none, or when calls of two processes
 * share the id), whether it was a graph launch, and its geometry when its own args lack it;
 * counts them in t->n_launched. keep: the records become t->launches (ops linked later by
 * pf_trace_link); else they are freed. Returns 0 or -1 with err set (out of memory only). */
int pf_trace_link_launches(pf_trace *t, pf_segvec *const *launches, size_t n_vecs, int keep, pf_error *err);

/* Appends a warning (printf-style) to t->warnings. Returns 0 or -1 when memory runs out. */
int pf_trace_warn(pf_trace *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
