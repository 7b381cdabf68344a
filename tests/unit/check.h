/* check.h - tiny assertion macros for the C unit tests; each prints PASS/FAIL lines that tests/run.sh counts. */
#ifndef PROFANA_TEST_CHECK_H
#define PROFANA_TEST_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Writes text to a new temporary file whose path starts with prefix (e.g.
 * "/tmp/profana_test_x_"); returns its path (the caller unlinks and frees it), NULL on error. */
static inline char *check_write_temp(const char *prefix, const char *text)
{
    size_t n = strlen(prefix);
    char *path = malloc(n + 7);
    if (!path)
        return NULL;
    memcpy(path, prefix, n);
    memcpy(path + n, "XXXXXX", 7);
    int fd = mkstemp(path);
    ssize_t len = (ssize_t)strlen(text);
    if (fd < 0 || write(fd, text, (size_t)len) != len) {
        if (fd >= 0) {
            close(fd);
            unlink(path);
        }
        free(path);
        return NULL;
    }
    close(fd);
    return path;
}

#endif
