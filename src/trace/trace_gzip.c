/* trace_gzip.c - the gzip half of the reader: the inflating thread (member after member, with its own CRC check), the ring or the growing mapping it fills, and what the parsers ask of that mapping. */
#define _GNU_SOURCE /* memfd_create, mremap (MREMAP_DONTUNMAP), MAP_POPULATE */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "profana/crc32.h"
#include "profana/timings.h"
#include "trace_gzip.h"
#include "trace_reader.h"

#ifdef PF_ASAN
#include <sanitizer/asan_interface.h>
#else
#define ASAN_POISON_MEMORY_REGION(a, n) ((void)(a), (void)(n))
#define ASAN_UNPOISON_MEMORY_REGION(a, n) ((void)(a), (void)(n))
#endif

/* Without a growing mapping (see gz_area), gzip output travels in a few large blocks: enough
 * to keep both threads busy, little memory. */
enum { GZ_BLOCK = 128 << 10, GZ_BLOCKS = 4, GZ_IN = 64 << 10 };

/* The growing mapping: text offset x lives at text[x] of one large reservation of address
 * space, so that several threads parse inflated text as they parse a mapped file. Each
 * segment borrows a slot of a memory file while its text is in use and gives it back once
 * parsed: the same few megabytes serve the whole stream, with no fresh page to fault in and
 * zero per megabyte. The inflater holds at most AREA_SLOTS_BASE segments, and
 * AREA_SLOTS_EACH more per parsing thread (each may hold a 2 MB part), unless every parser
 * waits for text (an event longer than that): then it takes more. A few megabytes of lead
 * absorb the threads' jitter; more only cost memory (16 slots were a sixth of a 100 MB
 * trace), since the slower side sets the pace either way. */
enum { AREA_SEG = PF_GROWING_SEGMENT, AREA_SLOTS_BASE = 4, AREA_SLOTS_EACH = 2, AREA_STEP = 256 << 10 };

/* Inflated text is at most 1032 times the deflate data (its densest code); a pipe's size is
 * unknown, so it gets a terabyte of address space, which costs nothing until used. */
#define AREA_RATIO 1032
#define AREA_PIPE_CAP (INT64_C(1) << 40)

typedef struct gz_block {
    char *data;
    size_t len, at;
} gz_block;

typedef struct gz_area {
    char *text;                /* the reservation; PROT_NONE where no slot is mapped */
    int64_t cap;               /* its size (a multiple of AREA_SEG) */
    int fd;                    /* the memory file whose slots back the segments */
    uint32_t *slot_of;         /* per segment: its slot + 1, 0 when none */
    uint32_t *free_slots;
    size_t n_free, n_slots, cap_free;
    int64_t produced;          /* text[0..produced) is inflated */
    size_t room;               /* the inflater writes text[produced..produced + room) */
    int64_t mapped;            /* segments below this offset have slots... */
    int64_t released;          /* ...that the parsers are done with below this one... */
    int64_t unmapped;          /* ...and whose slots serve again below this one */
    int consumers, waiting;    /* threads that parse it; those waiting for text */
    int moves;                 /* 1 while the kernel moves slots (area_move); the inflater's alone */
} gz_area;

/* The inflating thread and where its output goes: the area, or else a ring of blocks. */
struct pf_gz_pipe {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    gz_area *area;
    gz_block ring[GZ_BLOCKS];
    size_t head, count;        /* blocks ready for the parser, from head on */
    gz_block *filling;         /* the block being inflated into */
    int done, failed, stop;
    int started;               /* the thread runs (and must be joined) */
    int64_t cut_at;            /* compressed offset where the input ended inside a member; -1 none */
    double inflate_secs;       /* the inflating thread's wall time, once done (--timings) */
    pf_error err;
};

/* ---- where the inflated text goes ---- */

/* Each sink hands the inflater room to write (0, or 1 when the parser stopped listening,
 * or -1 with err), takes what was written and (end, if any) the end of the text. */
typedef struct gz_sink {
    int (*room)(pf_reader *r, char **out, size_t *n, pf_error *err);
    void (*wrote)(pf_reader *r, size_t n);
    void (*end)(pf_reader *r);
} gz_sink;

/* The ring: waits for a free block; 1 when the parser asked to stop. */
static int ring_room(pf_reader *r, char **out, size_t *n, pf_error *err)
{
    pf_gz_pipe *g = r->gz;
    (void)err;
    if (!g->filling) {
        pthread_mutex_lock(&g->lock);
        while (g->count == GZ_BLOCKS && !g->stop)
            pthread_cond_wait(&g->changed, &g->lock);
        g->filling = g->stop ? NULL : &g->ring[(g->head + g->count) % GZ_BLOCKS];
        pthread_mutex_unlock(&g->lock);
        if (!g->filling)
            return 1;
        g->filling->len = g->filling->at = 0;
    }
    *out = g->filling->data + g->filling->len;
    *n = GZ_BLOCK - g->filling->len;
    return 0;
}

static void ring_publish(pf_gz_pipe *g)
{
    pthread_mutex_lock(&g->lock);
    g->count++;
    g->filling = NULL;
    pthread_cond_broadcast(&g->changed);
    pthread_mutex_unlock(&g->lock);
}

static void ring_wrote(pf_reader *r, size_t n)
{
    pf_gz_pipe *g = r->gz;
    g->filling->len += n;
    if (g->filling->len == GZ_BLOCK)
        ring_publish(g);
}

static void ring_end(pf_reader *r)
{
    if (r->gz->filling && r->gz->filling->len)
        ring_publish(r->gz);
}

static void area_unmap(pf_reader *r, int64_t from, int64_t upto);

/* Whether the inflater may map another segment now (called with the lock held). */
static int area_may_map(const pf_gz_pipe *g)
{
    const gz_area *a = g->area;
    size_t most = AREA_SLOTS_BASE + AREA_SLOTS_EACH * (size_t)(a->consumers > 0 ? a->consumers : 0);
    return g->stop || a->n_free > 0 || a->n_slots < most || a->waiting >= a->consumers;
}

/* Grows the memory file by one slot, with room for it in the free list. */
static int area_new_slot(pf_reader *r, pf_error *err)
{
    pf_gz_pipe *g = r->gz;
    gz_area *a = g->area;
    size_t n = a->n_slots + 1;
    if (ftruncate(a->fd, (off_t)n * AREA_SEG) != 0)
        return pf_fail(err, "%s: out of memory while decompressing", r->name);
    pthread_mutex_lock(&g->lock);
    uint32_t *list = n > a->cap_free ? realloc(a->free_slots, 2 * n * sizeof *list) : a->free_slots;
    if (list) {
        a->cap_free = n > a->cap_free ? 2 * n : a->cap_free;
        a->free_slots = list;
        a->free_slots[a->n_free++] = (uint32_t)a->n_slots++;
    }
    pthread_mutex_unlock(&g->lock);
    return list ? 0 : pf_fail(err, "%s: out of memory while decompressing", r->name);
}

/* The segment at a->mapped takes over the slot of the released segment at from, page-table
 * entries and all (mremap): no page to look up and map again, none to unmap one by one,
 * where mapping a slot afresh (MAP_POPULATE) and unmapping it once parsed cost about six
 * times as much (0.35 against 0.05 ms a megabyte on a 2-core AMD EPYC virtual machine). The old range keeps an
 * empty mapping (MREMAP_DONTUNMAP), made a reservation again: no gap opens in the
 * reservation, which another thread's mmap could take. 0, or -1 where the kernel cannot
 * (before Linux 5.13). */
static int area_move(gz_area *a, int64_t from)
{
    assert(a != NULL && a->moves);
    assert(from >= 0 && from % AREA_SEG == 0 && from < a->mapped);
#ifdef MREMAP_DONTUNMAP
    char *old = a->text + from, *seg = a->text + a->mapped;
    ASAN_UNPOISON_MEMORY_REGION(old, AREA_SEG);
    if (mremap(old, AREA_SEG, AREA_SEG, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, seg) == MAP_FAILED)
        return -1;
    mmap(old, AREA_SEG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
    ASAN_POISON_MEMORY_REGION(seg, AREA_SEG);
    a->slot_of[a->mapped / AREA_SEG] = a->slot_of[from / AREA_SEG];
    a->slot_of[from / AREA_SEG] = 0;
    a->mapped += AREA_SEG;
    return 0;
#else
    (void)a;
    (void)from;
    return -1;
#endif
}

/* A slot for the segment at a->mapped: that of the oldest segment the parsers released, a
 * free one, or a new one at the memory file's end. */
static int area_map_next(pf_reader *r, pf_error *err)
{
    pf_gz_pipe *g = r->gz;
    gz_area *a = g->area;
    if (a->mapped + AREA_SEG > a->cap)
        return pf_fail(err, "%s: decompressed text longer than %lld bytes", r->name, (long long)a->cap);
    pthread_mutex_lock(&g->lock);
    while (a->released == a->unmapped && !area_may_map(g))
        pthread_cond_wait(&g->changed, &g->lock);
    /* Segments the parsers are done with serve again before the memory file grows: the same
     * few slots serve the whole stream. */
    int64_t reuse = -1;
    if (!g->stop && a->released > a->unmapped && (a->moves || a->n_free == 0)) {
        reuse = a->unmapped;
        a->unmapped += AREA_SEG;
    }
    int stopped = g->stop, fresh = a->n_free == 0;
    pthread_mutex_unlock(&g->lock);
    if (stopped)
        return 1;
    if (reuse >= 0 && a->moves && area_move(a, reuse) == 0)
        return 0;
    if (reuse >= 0) { /* its slot goes through the free list */
        a->moves = 0;
        area_unmap(r, reuse, reuse + AREA_SEG);
        fresh = 0;
    }
    if (fresh && area_new_slot(r, err))
        return -1;
    pthread_mutex_lock(&g->lock);
    uint32_t slot = a->free_slots[--a->n_free];
    pthread_mutex_unlock(&g->lock);
    char *seg = a->text + a->mapped;
    if (mmap(seg, AREA_SEG, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED | MAP_POPULATE, a->fd,
             (off_t)slot * AREA_SEG) == MAP_FAILED)
        return pf_fail(err, "%s: out of memory while decompressing", r->name);
    ASAN_POISON_MEMORY_REGION(seg, AREA_SEG);
    a->slot_of[a->mapped / AREA_SEG] = slot + 1;
    a->mapped += AREA_SEG;
    return 0;
}

static int area_room(pf_reader *r, char **out, size_t *n, pf_error *err)
{
    gz_area *a = r->gz->area;
    if (a->produced == a->mapped) {
        int rc = area_map_next(r, err);
        if (rc)
            return rc;
    }
    *out = a->text + a->produced;
    *n = a->mapped - a->produced < AREA_STEP ? (size_t)(a->mapped - a->produced) : AREA_STEP;
    ASAN_UNPOISON_MEMORY_REGION(*out, *n); /* zlib reads back what it wrote (its window) */
    a->room = *n;
    return 0;
}

static void area_wrote(pf_reader *r, size_t n)
{
    pf_gz_pipe *g = r->gz;
    gz_area *a = g->area;
    ASAN_POISON_MEMORY_REGION(a->text + a->produced + n, a->room - n);
    pthread_mutex_lock(&g->lock);
    a->produced += (int64_t)n;
    if (a->waiting)
        pthread_cond_broadcast(&g->changed);
    pthread_mutex_unlock(&g->lock);
}

static const gz_sink ring_sink = {ring_room, ring_wrote, ring_end};
static const gz_sink area_sink = {area_room, area_wrote, NULL}; /* its text is published as written */

/* Reserves the address space and opens the memory file; 0 leaves the ring to be used (the
 * reservation can fail under an address-space limit or a memory checker). */
static int area_open(pf_reader *r)
{
    int64_t cap = r->size > 0 && r->size < AREA_PIPE_CAP / AREA_RATIO ? r->size * AREA_RATIO + AREA_SEG
                                                                       : AREA_PIPE_CAP;
    cap = (cap + AREA_SEG - 1) / AREA_SEG * AREA_SEG;
    gz_area *a = calloc(1, sizeof *a);
    if (!a)
        return 0;
    a->fd = memfd_create("profana-gzip", MFD_CLOEXEC);
    a->slot_of = calloc((size_t)(cap / AREA_SEG), sizeof *a->slot_of);
    void *m = mmap(NULL, (size_t)cap, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (a->fd < 0 || !a->slot_of || m == MAP_FAILED) {
        if (m != MAP_FAILED)
            munmap(m, (size_t)cap);
        if (a->fd >= 0)
            close(a->fd);
        free(a->slot_of);
        free(a);
        return 0;
    }
    a->text = m;
    a->cap = cap;
    a->consumers = 1;
#ifdef MREMAP_DONTUNMAP
    a->moves = 1;
#endif
    r->gz->area = a;
    return 1;
}

/* Gives the slots of the segments in [from, upto) back (both multiples of AREA_SEG). */
static void area_unmap(pf_reader *r, int64_t from, int64_t upto)
{
    pf_gz_pipe *g = r->gz;
    gz_area *a = g->area;
    if (upto <= from)
        return;
    ASAN_UNPOISON_MEMORY_REGION(a->text + from, (size_t)(upto - from));
    mmap(a->text + from, (size_t)(upto - from), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE,
         -1, 0);
    pthread_mutex_lock(&g->lock);
    for (int64_t s = from / AREA_SEG; s < upto / AREA_SEG; s++) {
        a->free_slots[a->n_free++] = a->slot_of[s] - 1; /* the list has room for every slot */
        a->slot_of[s] = 0;
    }
    pthread_cond_broadcast(&g->changed);
    pthread_mutex_unlock(&g->lock);
}

static void area_close(gz_area *a)
{
    if (!a)
        return;
    ASAN_UNPOISON_MEMORY_REGION(a->text + a->unmapped, (size_t)(a->mapped - a->unmapped));
    munmap(a->text, (size_t)a->cap);
    close(a->fd);
    free(a->slot_of);
    free(a->free_slots);
    free(a);
}

/* ---- the inflating thread ---- */

static void gz_finish(pf_gz_pipe *g, int failed)
{
    pthread_mutex_lock(&g->lock);
    g->done = 1;
    g->failed = failed;
    pthread_cond_broadcast(&g->changed);
    pthread_mutex_unlock(&g->lock);
}

/* Next compressed input: the sniffed bytes, then the file. 0 at its end, -1 on error. */
static long gz_input(pf_reader *r, unsigned char *buf, pf_error *err)
{
    if (r->pending_at < r->pending_len) {
        size_t n = r->pending_len - r->pending_at;
        memcpy(buf, r->pending + r->pending_at, n);
        r->pending_at = r->pending_len;
        return (long)n;
    }
    long n = pf_reader_read_fd(r, r->fd, (char *)buf, GZ_IN, err);
    if (n > 0)
        pf_reader_add_progress(r, (size_t)n);
    return n;
}

/* A gzip member's check. zlib checks the gzip header itself; once the header is read, its
 * table-driven CRC of the data (a fifth of the inflating thread's time) is switched off and
 * the member is checked here instead, with a CRC several times faster, against the trailer:
 * the same verdict, at the same compressed offset, as zlib's own check. A member that is not
 * gzip (zlib's automatic detection also takes a zlib stream) keeps zlib's check. */
typedef struct gz_check {
    gz_header head;            /* head.done: 1 once zlib has read a gzip header */
    int ours;                  /* zlib's data check is off: this one counts */
    uint32_t crc, len;         /* of the member's text so far (len modulo 2^32, as gzip keeps it) */
    unsigned char tail[8];     /* the last 8 compressed bytes before the current input buffer */
} gz_check;

static void check_start(z_stream *z, gz_check *c)
{
    memset(&c->head, 0, sizeof c->head);
    c->ours = 0;
    c->crc = c->len = 0;
    inflateValidate(z, 1);
    inflateGetHeader(z, &c->head);
}

/* tail becomes the last 8 bytes of tail followed by b[0, n). */
static void keep_tail(unsigned char tail[8], const unsigned char *b, size_t n)
{
    if (n >= 8) {
        memcpy(tail, b + n - 8, 8);
        return;
    }
    memmove(tail, tail + n, 8 - n);
    memcpy(tail + 8 - n, b, n);
}

static uint32_t le32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* Text out[0, n) inflated: counted into the check, which takes over from zlib's once the
 * gzip header is behind. */
static void check_text(z_stream *z, gz_check *c, const char *out, size_t n)
{
    /* No text comes before the header is done, and a call that reads the header may also
     * inflate: take over first, then count. A zlib-format member stays zlib's to check. */
    if (!c->ours && c->head.done == 1) {
        inflateValidate(z, 0);
        c->ours = 1;
    }
    if (!c->ours)
        return;
    c->crc = pf_crc32(c->crc, out, n);
    c->len += (uint32_t)n;
}

/* The member ended, its trailer being the 8 bytes before in[k] (some perhaps in the buffer
 * before): 0, or the compressed offset zlib reports a mismatch at (after the CRC for a wrong
 * CRC, after the length for a wrong length). end is the offset of in[k]. */
static int64_t check_end(const gz_check *c, const unsigned char *in, size_t k, int64_t end)
{
    if (!c->ours)
        return 0; /* zlib checked it */
    unsigned char t[8];
    memcpy(t, c->tail, 8);
    keep_tail(t, in, k);
    return le32(t) != c->crc ? end - 4 : le32(t + 4) != c->len ? end : 0;
}

/* Where the inflater is in the compressed input: in[0] is at compressed offset base. */
typedef struct gz_in {
    unsigned char *in;
    int64_t base;
    int eof;                   /* the input is read to its end */
    int ended;                 /* a member ended: another may follow */
    gz_check check;
} gz_in;

/* More compressed input once zlib has used what it had (the bytes used kept for the trailer
 * check); then the whitespace after an ended member skipped. 0, or -1 with err set. */
static int gz_refill(pf_reader *r, z_stream *z, gz_in *s, pf_error *err)
{
    if (z->avail_in == 0 && !s->eof) {
        size_t used = z->next_in ? (size_t)(z->next_in - s->in) : 0;
        keep_tail(s->check.tail, s->in, used);
        s->base += (int64_t)used;
        long n = gz_input(r, s->in, err);
        if (n < 0)
            return -1;
        s->eof = n == 0;
        z->next_in = s->in;
        z->avail_in = (uInt)n;
    }
    /* A line end (or other whitespace) after a member, as `echo >>` or a text-mode copy
     * leaves, is not data: skipped, as it is between events. */
    while (s->ended && z->avail_in > 0 && strchr(" \t\r\n", *z->next_in) && *z->next_in) {
        z->next_in++;
        z->avail_in--;
    }
    return 0;
}

/* One call of inflate into the room the sink gives, its text counted into the check. 0 to
 * go on, 1 when the parser stopped listening, -1 with err set (the messages and compressed
 * offsets of the whole-buffer decompression). */
static int gz_step(pf_reader *r, const gz_sink *sink, z_stream *z, gz_in *s, pf_error *err)
{
    char *out;
    size_t room;
    int got = sink->room(r, &out, &room, err);
    if (got)
        return got;
    z->next_out = (unsigned char *)out;
    z->avail_out = (uInt)room;
    int rc = inflate(z, Z_NO_FLUSH);
    check_text(z, &s->check, out, room - z->avail_out);
    sink->wrote(r, room - z->avail_out);
    if (rc == Z_MEM_ERROR)
        return pf_fail(err, "%s: out of memory while decompressing", r->name);
    int64_t at = s->base + (z->next_in - s->in);
    int64_t bad = rc == Z_STREAM_END ? check_end(&s->check, s->in, (size_t)(z->next_in - s->in), at) : 0;
    if (bad) {
        rc = Z_DATA_ERROR;
        at = bad;
    }
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
        return pf_fail(err, "%s: compressed byte %lld: corrupt or truncated gzip data", r->name, (long long)at);
    s->ended = rc == Z_STREAM_END;
    return 0;
}

/* Inflates member after member, as gunzip does, with the messages and compressed offsets
 * the whole-buffer decompression gives. Returns 0 at the end of the input, -1 with err. */
static int gz_inflate(pf_reader *r, const gz_sink *sink, z_stream *z, unsigned char *in, pf_error *err)
{
    gz_in s = {.in = in};
    memset(s.check.tail, 0, sizeof s.check.tail);
    check_start(z, &s.check);
    for (;;) {
        if (gz_refill(r, z, &s, err))
            return -1;
        if (s.ended && z->avail_in == 0 && !s.eof)
            continue;
        if (z->avail_in == 0 && s.eof) {
            if (sink->end)
                sink->end(r);
            /* Cut inside a member (an upload cut short): the text inflated so far is delivered,
             * as a cut-off .json is read, and the loader says what was lost. */
            r->gz->cut_at = s.ended ? -1 : s.base + (int64_t)(z->next_in - in);
            return 0;
        }
        if (s.ended && inflateReset(z) == Z_OK) {
            s.ended = 0; /* another gzip member follows */
            check_start(z, &s.check);
        }
        int rc = gz_step(r, sink, z, &s, err);
        if (rc)
            return rc < 0 ? -1 : 0; /* 1: the parser stopped listening */
    }
}

static void *gz_main(void *arg)
{
    pf_reader *r = arg;
    pf_gz_pipe *g = r->gz;
    double t0 = pf_timings_now();
    z_stream z;
    memset(&z, 0, sizeof z);
    unsigned char *in = malloc(GZ_IN > PF_READER_SNIFF ? GZ_IN : PF_READER_SNIFF);
    int rc;
    if (!in || inflateInit2(&z, 15 + 32) != Z_OK)
        rc = pf_fail(&g->err, "%s: cannot start gzip decompression", r->name);
    else
        rc = gz_inflate(r, g->area ? &area_sink : &ring_sink, &z, in, &g->err);
    inflateEnd(&z);
    free(in);
    g->inflate_secs = pf_timings_now() - t0; /* published by gz_finish's lock */
    gz_finish(g, rc != 0);
    return NULL;
}

int pf_gz_start(pf_reader *r, pf_error *err)
{
    assert(r != NULL && r->gz == NULL && err != NULL);
    pf_gz_pipe *g = calloc(1, sizeof *g);
    if (!g)
        return pf_fail(err, "%s: out of memory", r->name);
    r->gz = g;
    g->cut_at = -1;
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->changed, NULL);
    if (!area_open(r))
        for (int i = 0; i < GZ_BLOCKS; i++)
            if (!(g->ring[i].data = malloc(GZ_BLOCK)))
                return pf_fail(err, "%s: out of memory", r->name);
    if (pthread_create(&g->thread, NULL, gz_main, r) != 0)
        return pf_fail(err, "%s: cannot start the decompression thread", r->name);
    g->started = 1;
    return 0;
}

long pf_gz_read(pf_reader *r, char *buf, size_t n, pf_error *err)
{
    assert(r != NULL && r->gz != NULL && r->gz->area == NULL && buf != NULL && err != NULL);
    pf_gz_pipe *g = r->gz;
    pthread_mutex_lock(&g->lock);
    while (g->count == 0 && !g->done)
        pthread_cond_wait(&g->changed, &g->lock);
    long got = 0;
    if (g->count > 0) {
        gz_block *b = &g->ring[g->head];
        size_t k = b->len - b->at < n ? b->len - b->at : n;
        pthread_mutex_unlock(&g->lock); /* the block is ours until it is released below */
        memcpy(buf, b->data + b->at, k);
        b->at += k;
        got = (long)k;
        pthread_mutex_lock(&g->lock);
        if (b->at == b->len) {
            g->head = (g->head + 1) % GZ_BLOCKS;
            g->count--;
            pthread_cond_broadcast(&g->changed);
        }
    } else if (g->failed) {
        *err = g->err;
        got = -1;
    }
    pthread_mutex_unlock(&g->lock);
    return got;
}

/* ---- the growing mapping, for the parsers ---- */

int pf_reader_growing(const pf_reader *r, const char **text, int64_t *cap)
{
    assert(r != NULL && text != NULL);
    const gz_area *a = r->gz ? r->gz->area : NULL;
    *text = a ? a->text : NULL;
    if (cap)
        *cap = a ? a->cap : 0;
    return a != NULL;
}

long pf_reader_wait(pf_reader *r, int64_t have, pf_error *err)
{
    assert(r != NULL && err != NULL);
    assert(have >= 0);
    pf_gz_pipe *g = r->gz;
    gz_area *a = g->area;
    pthread_mutex_lock(&g->lock);
    if (a->produced <= have && !g->done) {
        a->waiting++;
        pthread_cond_broadcast(&g->changed); /* the inflater may be waiting for all of us */
        while (a->produced <= have && !g->done)
            pthread_cond_wait(&g->changed, &g->lock);
        a->waiting--;
    }
    long n = a->produced > have ? (long)(a->produced - have) : 0;
    if (n == 0 && g->failed) {
        *err = g->err;
        n = -1;
    }
    pthread_mutex_unlock(&g->lock);
    return n;
}

void pf_reader_release(pf_reader *r, int64_t upto)
{
    assert(r != NULL);
    pf_gz_pipe *g = r->gz;
    gz_area *a = g->area;
    pthread_mutex_lock(&g->lock);
    int64_t to = upto / AREA_SEG * AREA_SEG;
    if (to > a->produced / AREA_SEG * AREA_SEG)
        to = a->produced / AREA_SEG * AREA_SEG;
    if (to > a->released) {
        a->released = to; /* its slots serve the inflater again (area_map_next) */
        pthread_cond_broadcast(&g->changed);
    }
    /* Once the text is all inflated, nothing reuses them: their memory goes back now. */
    int64_t from = a->unmapped;
    if (g->done)
        a->unmapped = a->released;
    to = a->unmapped;
    pthread_mutex_unlock(&g->lock);
    area_unmap(r, from, to);
}

void pf_reader_consumers(pf_reader *r, int delta)
{
    assert(r != NULL);
    pf_gz_pipe *g = r->gz;
    pthread_mutex_lock(&g->lock);
    g->area->consumers += delta;
    pthread_cond_broadcast(&g->changed);
    pthread_mutex_unlock(&g->lock);
}

double pf_reader_inflate_secs(pf_reader *r)
{
    assert(r != NULL);
    if (!r->gz)
        return -1;
    pthread_mutex_lock(&r->gz->lock);
    double secs = r->gz->done ? r->gz->inflate_secs : -1;
    pthread_mutex_unlock(&r->gz->lock);
    return secs;
}

int64_t pf_reader_gz_cut(pf_reader *r)
{
    assert(r != NULL);
    if (!r->gz)
        return -1;
    pthread_mutex_lock(&r->gz->lock);
    int64_t at = r->gz->done ? r->gz->cut_at : -1;
    pthread_mutex_unlock(&r->gz->lock);
    return at;
}

int pf_reader_drain(pf_reader *r, pf_error *err)
{
    assert(r != NULL && err != NULL);
    if (!r->gz)
        return 0;
    char buf[1 << 14];
    long k;
    if (r->gz->area) { /* what was inflated is no longer needed */
        int64_t have = 0;
        while ((k = pf_reader_wait(r, have, err)) > 0) {
            have += k;
            pf_reader_release(r, have);
        }
        return k < 0 ? -1 : 0;
    }
    while ((k = pf_gz_read(r, buf, sizeof buf, err)) > 0)
        ;
    return k < 0 ? -1 : 0;
}

void pf_gz_close(pf_gz_pipe *g)
{
    if (!g)
        return;
    if (g->started) {
        pthread_mutex_lock(&g->lock);
        g->stop = 1;
        pthread_cond_broadcast(&g->changed);
        pthread_mutex_unlock(&g->lock);
        pthread_join(g->thread, NULL);
    }
    pthread_mutex_destroy(&g->lock);
    pthread_cond_destroy(&g->changed);
    for (int i = 0; i < GZ_BLOCKS; i++)
        free(g->ring[i].data);
    area_close(g->area);
    free(g);
}
