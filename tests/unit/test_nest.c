/* test_nest.c - unit tests of the host intervals nested per thread (src/analysis/nest.c): parents, the innermost interval holding an instant, the outermost above it, two threads, a non-nested overlap taken as a sibling, worked out by hand. */
#include <stdint.h>

#include "check.h"
#include "../../src/analysis/nest.h"

/* Thread 1: A [0, 100] holds B [10, 50] which holds C [20, 30]; D [60, 90] in A; E [95, 120]
 * overlaps A's end without being inside it (a rounding): a sibling of A. Thread 2: F [0, 100].
 * Given out of order; tags name them. */
static void by_hand(void)
{
    pf_nest_span s[] = {
        {1, 60, 90, -1, 'D'}, {2, 0, 100, -1, 'F'}, {1, 20, 30, -1, 'C'},
        {1, 95, 120, -1, 'E'}, {1, 0, 100, -1, 'A'}, {1, 10, 50, -1, 'B'},
    };
    size_t n = sizeof s / sizeof s[0];
    pf_nest_build(s, n);
    CHECK("sorted by thread then start: A B C D E F",
          s[0].tag == 'A' && s[1].tag == 'B' && s[2].tag == 'C' && s[3].tag == 'D' && s[4].tag == 'E' && s[5].tag == 'F');
    CHECK("parents: A none, B A, C B, D A, E none (not inside A), F none",
          s[0].parent == -1 && s[1].parent == 0 && s[2].parent == 1 && s[3].parent == 0 && s[4].parent == -1 &&
              s[5].parent == -1);
    CHECK("25 on thread 1: C, the innermost", pf_nest_find(s, n, 1, 25) == 2);
    CHECK("30 (C's end) on thread 1: C, ends inclusive", pf_nest_find(s, n, 1, 30) == 2);
    CHECK("40 on thread 1: B (C ended)", pf_nest_find(s, n, 1, 40) == 1);
    CHECK("55 on thread 1: A (B ended, D not begun)", pf_nest_find(s, n, 1, 55) == 0);
    CHECK("97 on thread 1: E (the last to start)", pf_nest_find(s, n, 1, 97) == 4);
    CHECK("121 on thread 1: none", pf_nest_find(s, n, 1, 121) == -1);
    CHECK("-1 on thread 1: none", pf_nest_find(s, n, 1, -1) == -1);
    CHECK("50 on thread 2: F", pf_nest_find(s, n, 2, 50) == 5);
    CHECK("50 on thread 3: none", pf_nest_find(s, n, 3, 50) == -1);
    CHECK("root of C: A", pf_nest_root(s, 2) == 0);
    CHECK("root of E: E", pf_nest_root(s, 4) == 4);
    CHECK("after (1, INT64_MAX): F's index, past thread 1", pf_nest_after(s, n, 1, INT64_MAX) == 5);
    CHECK("after (1, 10): C's index (A and B start at or before 10)", pf_nest_after(s, n, 1, 10) == 2);
    pf_nest_build(NULL, 0);
    CHECK("empty: none found", pf_nest_find(NULL, 0, 1, 0) == -1);
}

static void module_calls(void)
{
    CHECK("nn.Module: Linear_0 is a module call", pf_nest_is_module_call("nn.Module: Linear_0"));
    CHECK("a python frame is not", !pf_nest_is_module_call("model.py(12): forward"));
    CHECK("NULL is not", !pf_nest_is_module_call(NULL));
}

int main(void)
{
    by_hand();
    module_calls();
    CHECK_DONE();
}
