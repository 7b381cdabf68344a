/* test_cpu_time.c - unit tests of pf_cpu_op_times: self and total CPU time by nesting per thread, with threads interleaved, a thread out of time order, and equal intervals. */
#include <stdlib.h>

#include "check.h"
#include "profana/analysis.h"
#include "profana/strtab.h"

static const pf_op_cpu *find(const pf_op_cpu *r, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(r[i].name, name) == 0)
            return &r[i];
    return NULL;
}

static int is(const pf_op_cpu *r, int64_t calls, int64_t total, int64_t self)
{
    return r && r->calls == calls && r->total_ns == total && r->self_ns == self;
}

/* Two threads interleaved in the file; thread 2's intervals out of time order (a sort);
 * thread 1 nested three deep; an interval that starts where its neighbour ends is not
 * inside it; an interval without a name is nobody's op but still a child. By hand:
 *   thread 1: A [0,100) holds B [10,40), B [50,90) and the unnamed [95,96); B [50,90)
 *             holds C [60,70). A self 100-30-40-1 = 29; B self 30 + (40-10) = 60; C self 10.
 *   thread 2: A [200,260) holds C [210,230); C [260,270) starts at A's end: outside.
 *             A self 60-20 = 40; C self 20 + 10 = 30.
 * So A: 2 calls, total 160, self 69; B: 2 calls, total 70, self 60; C: 3, total 40, self 40. */
static void test_nesting(void)
{
    pf_strtab *s = pf_strtab_new();
    const char *A = pf_strtab_intern(s, "aten::A", 7), *B = pf_strtab_intern(s, "aten::B", 7),
               *C = pf_strtab_intern(s, "aten::C", 7);
    pf_cpu_event ev[] = {
        {A, 1, 0, 100},   {C, 2, 260, 10}, {B, 1, 10, 30},  {C, 2, 210, 20},
        {B, 1, 50, 40},   {A, 2, 200, 60}, {C, 1, 60, 10},  {NULL, 1, 95, 1},
    };
    pf_trace t = {.strings = s, .cpu = ev, .n_cpu = sizeof ev / sizeof *ev};
    pf_op_cpu *r = NULL;
    size_t n = 0;
    CHECK("cpu times computed", pf_cpu_op_times(&t, &r, &n) == 0 && n == 3);
    CHECK("A: 2 calls, total 160, self 69", is(find(r, n, "aten::A"), 2, 160, 69));
    CHECK("B: 2 calls, total 70, self 60", is(find(r, n, "aten::B"), 2, 70, 60));
    CHECK("C: 3 calls, total 40, self 40", is(find(r, n, "aten::C"), 3, 40, 40));
    free(r);
    pf_strtab_free(s);
}

/* Equal intervals: the one earlier in the file is the parent (self 0), as before any sort;
 * a parent and child with one start: the longer is the parent. */
static void test_ties(void)
{
    pf_strtab *s = pf_strtab_new();
    const char *P = pf_strtab_intern(s, "outer", 5), *Q = pf_strtab_intern(s, "inner", 5),
               *L = pf_strtab_intern(s, "late", 4);
    /* Thread 7 is out of order (late first), so it is sorted: equal intervals keep file order. */
    pf_cpu_event ev[] = {{L, 7, 500, 5}, {P, 7, 100, 50}, {Q, 7, 100, 50}, {Q, 9, 0, 10}, {P, 9, 0, 30}};
    pf_trace t = {.strings = s, .cpu = ev, .n_cpu = sizeof ev / sizeof *ev};
    pf_op_cpu *r = NULL;
    size_t n = 0;
    CHECK("cpu times with ties computed", pf_cpu_op_times(&t, &r, &n) == 0 && n == 3);
    /* thread 7: outer [100,150) first in the file holds inner [100,150): outer self 0, inner 50.
     * thread 9: outer [0,30) is longer: it holds inner [0,10): outer self 20, inner 10. */
    CHECK("outer: self 0 + 20", is(find(r, n, "outer"), 2, 80, 20));
    CHECK("inner: self 50 + 10", is(find(r, n, "inner"), 2, 60, 60));
    CHECK("late: alone", is(find(r, n, "late"), 1, 5, 5));
    free(r);
    pf_strtab_free(s);
}

/* Many threads (the thread table grows) and no intervals at all. */
static void test_many_threads(void)
{
    pf_strtab *s = pf_strtab_new();
    const char *X = pf_strtab_intern(s, "x", 1);
    enum { N = 5000 };
    pf_cpu_event *ev = malloc(2 * N * sizeof *ev);
    for (int i = 0; i < N; i++) {
        ev[2 * i] = (pf_cpu_event){X, (uint64_t)i * 0x100000001u, 0, 10};
        ev[2 * i + 1] = (pf_cpu_event){X, (uint64_t)i * 0x100000001u, 2, 3};
    }
    pf_trace t = {.strings = s, .cpu = ev, .n_cpu = 2 * N};
    pf_op_cpu *r = NULL;
    size_t n = 0;
    CHECK("5000 threads: computed", pf_cpu_op_times(&t, &r, &n) == 0 && n == 1);
    CHECK("5000 threads: 10000 calls, total 65000, self 50000", is(find(r, n, "x"), 2 * N, 13 * N, 10 * N));
    free(r);
    t.n_cpu = 0;
    CHECK("no intervals: nothing", pf_cpu_op_times(&t, &r, &n) == 0 && n == 0);
    free(r);
    free(ev);
    pf_strtab_free(s);
}

int main(void)
{
    test_nesting();
    test_ties();
    test_many_threads();
    CHECK_DONE();
}
