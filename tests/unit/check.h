/* check.h - tiny assertion macros for the C unit tests; each prints PASS/FAIL lines that tests/run.sh counts. */
#ifndef PROFANA_TEST_CHECK_H
#define PROFANA_TEST_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_failures;

#define CHECK(name, cond)                                                        \
    do {                                                                         \
        if (cond) {                                                              \
            printf("PASS %s\n", (name));                                         \
        } else {                                                                 \
            printf("FAIL %s (%s:%d: %s)\n", (name), __FILE__, __LINE__, #cond);  \
            check_failures++;                                                    \
        }                                                                        \
    } while (0)

/* Relative tolerance 1e-9 (exact for integers that doubles hold). */
#define CHECK_NEAR(name, got, want)                                              \
    do {                                                                         \
        double g_ = (got), w_ = (want);                                          \
        int ok_ = fabs(g_ - w_) <= 1e-9 * fmax(1.0, fabs(w_));                   \
        if (ok_) {                                                               \
            printf("PASS %s\n", (name));                                         \
        } else {                                                                 \
            printf("FAIL %s (%s:%d: got %.17g, want %.17g)\n", (name), __FILE__,  \
                   __LINE__, g_, w_);                                            \
            check_failures++;                                                    \
        }                                                                        \
    } while (0)

#define CHECK_STR(name, got, want)                                               \
    do {                                                                         \
        const char *g_ = (got), *w_ = (want);                                    \
        int ok_ = g_ && w_ && strcmp(g_, w_) == 0;                               \
        if (ok_) {                                                               \
            printf("PASS %s\n", (name));                                         \
        } else {                                                                 \
            printf("FAIL %s (%s:%d: got \"%s\", want \"%s\")\n", (name), __FILE__,\
                   __LINE__, g_ ? g_ : "(null)", w_ ? w_ : "(null)");             \
            check_failures++;                                                    \
        }                                                                        \
    } while (0)

#define CHECK_DONE() return check_failures ? 1 : 0

#endif
