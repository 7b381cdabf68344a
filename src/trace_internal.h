/* trace_internal.h - steps of loading shared by the loader's files (not a public interface). */
#ifndef PROFANA_TRACE_INTERNAL_H
#define PROFANA_TRACE_INTERNAL_H

#include "profana/trace.h"

/* Builds t->devices from the deviceProperties text (len 0 when absent) and the devices
 * the activities run on. Returns 0 or -1 with err set. */
int pf_trace_devices_from_props(pf_trace *t, const char *text, size_t len, pf_error *err);

/* Links activities to cpu_ops by External id and parses the args of linked ops from the
 * source text src. Returns 0 or -1 with err set (out of memory only). */
int pf_trace_link(pf_trace *t, const char *src, pf_error *err);

#endif
