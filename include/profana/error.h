/* error.h - the error every layer below main and cmd/ returns: a one-line message, printed by cmd/. */
/* layer: util (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_ERROR_H
#define PROFANA_ERROR_H

/* An error below main: a one-line message ("FILE: byte 12: expected ','") that main
 * prints after "profana: error: ". */
typedef struct pf_error {
    char msg[1024];
} pf_error;

/* Fills err with a printf-style message; returns -1 so callers can `return pf_fail(...)`. */
int pf_fail(pf_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
