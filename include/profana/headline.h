/* headline.h - the few lines --analysis prints per device before its tables: span, busy %, top categories, coverage, and what to look at next. */
/* layer: render (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_HEADLINE_H
#define PROFANA_HEADLINE_H

#include <stdio.h>

#include "profana/analysis.h"
#include "profana/tabulate.h"

/* What the trace lacks for figures, one rule for the headline and the "Why:" lines: no CPU
 * side at all (recorded with GPU activities only: no op and no launch call in the whole
 * trace), or no input shapes for any of the device's launches that have an op. */
typedef enum pf_lack { PF_LACK_NONE = 0, PF_LACK_CPU, PF_LACK_SHAPES } pf_lack;
pf_lack pf_headline_lack(const pf_analysis *an, const pf_device_report *d);

/* Prints device d's headline on out (text and Markdown read the same): one line with the
 * span, busy and idle time and busy %; a list of the top 3 categories by GPU time (those of
 * the category table), the FLOP and byte coverage, and at most two findings with what to do
 * next (the GPU idle most of its span, the trace lacking its CPU side or shapes, an unknown
 * device, one category taking most of the time), wrapped to 100 columns; then an empty line. */
void pf_headline_print(FILE *out, const pf_analysis *an, const pf_device_report *d);
/* The same, composed for width columns (0: 100, as pf_headline_print; below 40: 40), the width
 * the text is shown at, so it is wrapped once. */
void pf_headline_print_at(FILE *out, const pf_analysis *an, const pf_device_report *d, int width);

/* The same figures as the JSON member "headline": {"span_us", "busy_us", "idle_us",
 * "busy_pct", "idle_pct", "top_categories": [{"category", "pct"}], "flop_pct", "bytes_pct",
 * "findings": [{"kind", "text"}]} with kind "idle", "no_cpu", "no_shapes", "unknown_device"
 * or "dominant". */
void pf_headline_json(pf_jw *w, const pf_analysis *an, const pf_device_report *d);

#endif
