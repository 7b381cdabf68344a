/* error.c - fills the one-line error that functions below main return (include/profana/error.h). */
#include "profana/error.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>

int pf_fail(pf_error *err, const char *fmt, ...)
{
    assert(err && fmt);
    va_list ap;
    va_start(ap, fmt);
    /* cppcheck-suppress ctuuninitvar ; vsnprintf only writes err->msg: callers pass fresh errors */
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}
