/* test_steps.c - pf_steps_compute's step numbers (written in the pass that finds the steps, for the waits) against pf_steps_numbers, the rule --ranks and --runs use, on the real traces; and the steps trace's numbers against its ProfilerStep annotations. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "profana/analysis.h"
#include "profana/trace.h"

static const char *const traces[] = {
    "testdata/traces/eager_bf16.json",         "testdata/traces/steps_bf16.json",
    "testdata/traces/compiled_bf16_b8.json",   "testdata/traces/cnn_fp32.json",
    "testdata/peer/owlv2_h100.json.gz",
};

/* The two give the same number to every activity; returns how many are in a step. */
static size_t check_same_numbers(const char *path, const pf_trace *t)
{
    size_t n = t->n_acts ? t->n_acts : 1, in_step = 0;
    int64_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    pf_analysis an = {.trace = t, .opts = {.step = PF_STEP_EVERY}, .cats = calloc(n, 1)};
    pf_error err;
    int ok = a && b && an.cats && pf_steps_numbers(t, a, &err) == 0 && pf_steps_compute(&an, b, &err) == 0;
    for (size_t i = 0; ok && i < t->n_acts; i++) {
        ok = a[i] == b[i];
        in_step += a[i] != PF_NO_STEP;
    }
    char name[256];
    snprintf(name, sizeof name, "%s: pf_steps_compute's numbers = pf_steps_numbers' (%zu activities, %zu in a step)", path,
             t->n_acts, in_step);
    CHECK(name, ok);
    free(a);
    free(b);
    free(an.cats);
    free(an.steps);
    free(an.selected);
    return in_step;
}

int main(void)
{
    size_t in_steps = 0;
    for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) {
        pf_trace *t;
        pf_error err;
        if (pf_trace_load(traces[i], &t, &err)) {
            CHECK(err.msg, 0);
            continue;
        }
        in_steps += check_same_numbers(traces[i], t);
        pf_trace_free(t);
    }
    /* not vacuous: steps_bf16.json is a profiler schedule of ProfilerStep#N windows */
    CHECK("some activities of the traces lie in a step", in_steps > 0);
    CHECK_DONE();
}
