/* test_cpu_time.c - unit tests of pf_cpu_op_times: self and total CPU time by nesting per thread, with threads interleaved, a thread out of time order, and equal intervals. */
#include <inttypes.h>
#include <stdlib.h>

#include "check.h"
#include "profana/analysis.h"
#include "profana/strtab.h"

/* What one name should sum to. */
typedef struct want {
    const char *name;
    int64_t calls, total_ns, self_ns;
} want;

static const pf_op_cpu *find(const pf_op_cpu *r, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(r[i].name, name) == 0)
            return &r[i];
    return NULL;
}

/* Runs pf_cpu_op_times on ev (names interned in s) and checks that exactly the names of w
 * come out, with w's sums. */
static void check_times(const char *label, pf_strtab *s, pf_cpu_event *ev, size_t n_ev, const want *w,
                        size_t n_w)
{
    pf_trace t = {.strings = s, .cpu = ev, .n_cpu = n_ev};
    pf_op_cpu *r = NULL;
    size_t n = 0;
    char msg[200];
    snprintf(msg, sizeof msg, "%s: computed, %zu names", label, n_w);
    CHECK(msg, pf_cpu_op_times(&t, &r, &n) == 0 && n == n_w);
    for (size_t i = 0; i < n_w; i++) {
        const pf_op_cpu *got = find(r, n, w[i].name);
        snprintf(msg, sizeof msg, "%s: %s: %" PRId64 " calls, total %" PRId64 ", self %" PRId64, label, w[i].name,
                 w[i].calls, w[i].total_ns, w[i].self_ns);
        CHECK(msg, got && got->calls == w[i].calls && got->total_ns == w[i].total_ns && got->self_ns == w[i].self_ns);
    }
    free(r);
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
    const want w[] = {{"aten::A", 2, 160, 69}, {"aten::B", 2, 70, 60}, {"aten::C", 3, 40, 40}};
    check_times("nesting", s, ev, sizeof ev / sizeof *ev, w, sizeof w / sizeof *w);
    pf_strtab_free(s);
}

/* Equal intervals: the one earlier in the file is the parent (self 0), as before any sort;
 * a parent and child with one start: the longer is the parent. Thread 7 is out of order
 * (late first), so it is sorted, and its equal intervals keep file order:
 *   thread 7: outer [100,150), first in the file, holds inner [100,150): outer self 0, inner 50.
 *   thread 9: outer [0,30) is longer: it holds inner [0,10): outer self 20, inner 10. */
static void test_ties(void)
{
    pf_strtab *s = pf_strtab_new();
    const char *P = pf_strtab_intern(s, "outer", 5), *Q = pf_strtab_intern(s, "inner", 5),
               *L = pf_strtab_intern(s, "late", 4);
    pf_cpu_event ev[] = {{L, 7, 500, 5}, {P, 7, 100, 50}, {Q, 7, 100, 50}, {Q, 9, 0, 10}, {P, 9, 0, 30}};
    const want w[] = {{"outer", 2, 80, 20}, {"inner", 2, 60, 60}, {"late", 1, 5, 5}};
    check_times("ties", s, ev, sizeof ev / sizeof *ev, w, sizeof w / sizeof *w);
    pf_strtab_free(s);
}

/* Many threads (the thread table grows): each holds x [0,10) around x [2,5): 13 in all,
 * 10 of it self. And no intervals at all. */
static void test_many_threads(void)
{
    pf_strtab *s = pf_strtab_new();
    const char *X = pf_strtab_intern(s, "x", 1);
    enum { N = 5000 };
    pf_cpu_event *ev = malloc(2 * N * sizeof *ev);
    if (!ev) {
        CHECK("memory for 5000 threads", 0);
        pf_strtab_free(s);
        return;
    }
    for (int i = 0; i < N; i++) {
        ev[2 * i] = (pf_cpu_event){X, (uint64_t)i * 0x100000001u, 0, 10};
        ev[2 * i + 1] = (pf_cpu_event){X, (uint64_t)i * 0x100000001u, 2, 3};
    }
    const want w[] = {{"x", 2 * N, 13 * N, 10 * N}};
    check_times("5000 threads", s, ev, 2 * N, w, 1);
    check_times("no intervals", s, ev, 0, NULL, 0);
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
