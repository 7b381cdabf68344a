/* source_legend.c - the Source column's values explained in one footnote line under a rows table, for the values the table shows only, so a reader needs no README to read "generic" or "kv-cache". */
#include <assert.h>
#include <string.h>

#include "view_parts.h"

/* The values that are not a formula family's name, and what each means. A value not listed
 * here is a family whose formula (docs: Formulas) gave the figures. */
static const struct {
    const char *value, *note;
} legend[] = {
    {"estimate", "a byte model of the op (each input read, each output written once)"},
    {"generic", "no formula, each tensor argument counted once, FLOPs unknown"},
    {"inductor", "Inductor's own kernel_flop and kernel_num_gb"},
    {"inductor+src", "Inductor's own figure where the trace keeps it, the other from the kernel's module (--inductor-cache)"},
    {"triton-src", "read from the Inductor Triton kernel's module"},
    {"triton", "an Inductor Triton launch read from the trace alone"},
    {"memcpy", "the copy's recorded bytes"},
    {"memset", "the fill's recorded bytes"},
    {"inferred", "the figures of launches of the same kernel, grid and block that have an op"},
    {"mismatch", "shapes inconsistent with the op: no figures"},
    {"bad-args", "arguments the formula cannot read: no figures"},
    {"unrecorded", "the trace lacks what the formula needs: no figures"},
    {"more", "further sources the row lists in CSV and JSON"},
};
enum { LEGEND_N = sizeof legend / sizeof legend[0], VALUES_MAX = 48, VALUE_LEN = 32 };

static int legend_index(const char *v)
{
    for (int i = 0; i < LEGEND_N; i++)
        if (strcmp(legend[i].value, v) == 0)
            return i;
    return -1;
}

/* Adds the members of a '+'-joined list, each without its "~suffix" (the suffixes have
 * footnotes of their own), to vals[0, *n) once each. */
static void add_members(const char *list, char vals[][VALUE_LEN], int *n)
{
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, "+");
        size_t base = strcspn(p, "~+");
        char v[VALUE_LEN];
        snprintf(v, sizeof v, "%.*s", (int)(base < sizeof v ? base : sizeof v - 1), p);
        int seen = !v[0] || strcmp(v, "-") == 0;
        for (int i = 0; i < *n && !seen; i++)
            seen = strcmp(vals[i], v) == 0;
        if (!seen && *n < VALUES_MAX)
            memcpy(vals[(*n)++], v, sizeof v);
        p += len + (p[len] == '+');
    }
}

void pf_view_source_legend(FILE *out, const pf_table *t, int col)
{
    assert(out && t && col >= 0 && col < pf_table_ncols(t));
    char vals[VALUES_MAX][VALUE_LEN];
    int n = 0;
    for (int r = 0; r < pf_table_rows(t); r++) {
        const char *s = pf_table_cell(t, r, col);
        if (s)
            add_members(s, vals, &n);
    }
    if (!n)
        return;
    fputs("Source:", out);
    const char *sep = " ";
    /* the formula families first, as one entry */
    int families = 0;
    for (int i = 0; i < n; i++)
        if (legend_index(vals[i]) < 0) {
            fprintf(out, "%s%s", families ? ", " : sep, vals[i]);
            families++;
        }
    if (families) {
        fputs(families > 1 ? ": their op family's formula" : ": its op family's formula", out);
        sep = "; ";
    }
    for (int k = 0; k < LEGEND_N; k++)
        for (int i = 0; i < n; i++)
            if (strcmp(vals[i], legend[k].value) == 0) {
                fprintf(out, "%s%s: %s", sep, legend[k].value, legend[k].note);
                sep = "; ";
            }
    fputc('\n', out);
}
