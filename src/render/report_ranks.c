/* report_ranks.c - the --report page of --ranks: its counts lines, the chart, every table and sentence of its text output, the culprits' prose. */
#include "report_parts.h"

#include <assert.h>
#include <stdio.h>

#include "profana/plot.h"
#include "ranks_culprit_view.h"
#include "view_parts.h"


static void print_rank_counts(FILE *out, const void *p)
{
    const pf_ranks_run *r = p;
    pf_rview_counts(out, r->s, r->n, r->rep);
}

static void print_rank_no_match(FILE *out, const void *p)
{
    const pf_ranks_run *r = p;
    pf_rview_no_match(out, r->s, r->n, r->rep);
}

static void print_rank_stragglers(FILE *out, const void *p)
{
    const pf_ranks_run *r = p;
    pf_rview_stragglers(out, r->s, r->n, r->rep);
}

static void print_rank_link_over(FILE *out, const void *p)
{
    const pf_ranks_run *r = p;
    for (size_t i = 0; i < r->rep->n_rows; i++)
        if (r->rep->rows[i].link_pct > 100) {
            fputs("!: above the link's peak: the link figure does not fit this machine (another topology, or a "
                  "transfer within one GPU)\n", out);
            return;
        }
}

static void print_rank_prose(FILE *out, const void *p)
{
    const pf_ranks_run *r = p;
    pf_culprit_prose(out, r->cul);
    if (r->cul->n_late > PF_CULPRIT_TEXT_ROWS)
        fprintf(out, "(the %d latest of %zu late arrivals below; --format json or csv lists them all)\n",
                PF_CULPRIT_TEXT_ROWS, r->cul->n_late);
}

int pf_report_ranks_page(pf_xw *w, const pf_ranks_run *r)
{
    assert(w && r);
    pf_table *t[PF_RVIEW_TABLES];
    int rc = pf_rview_tables(t, r->s, r->n, r->rep, r->cul, 1);
    if (rc == 0)
        rc = pf_html_pre_of(w, print_rank_counts, r);
    if (rc == 0) {
        pf_html_h2(w, "Charts");
        pf_xw_begin(w, "div");
        pf_xw_attr(w, "class", "chart");
        rc = pf_plot_ranks(w, r->s, r->n, r->rep, r->cul);
        pf_xw_end(w);
        pf_xw_raw(w, "\n");
    }
    if (rc == 0) {
        pf_html_h2(w, "Ranks");
        pf_html_table(w, t[PF_RVIEW_RANKS], "Per rank");
        if (t[PF_RVIEW_STEPS])
            pf_html_table(w, t[PF_RVIEW_STEPS], "Per rank and profiler step");
        pf_html_h2(w, "Collectives");
        if (r->rep->matched > 0) { /* else one line why, not an empty table and zeros */
            pf_html_table(w, t[PF_RVIEW_COLLS], "Collectives matched across ranks");
            rc = pf_html_pre_of(w, print_rank_link_over, r);
            pf_html_table(w, t[PF_RVIEW_STRAGS], "Stragglers: last to start");
            rc |= pf_html_pre_of(w, print_rank_stragglers, r);
        } else {
            rc = pf_html_pre_of(w, print_rank_no_match, r);
        }
    }
    pf_rview_free(t);
    if (rc == 0) {
        pf_html_h2(w, "Culprits");
        rc = pf_html_pre_of(w, print_rank_prose, r);
    }
    pf_table *ct[2] = {pf_culprit_rank_table(r->cul, 0), pf_culprit_late_table(r->cul, PF_CULPRIT_TEXT_ROWS)};
    static const char *const captions[2] = {"Ranks with a verdict or a late arrival", "Late arrivals, latest first"};
    for (int k = 0; k < 2; k++) {
        if (rc == 0 && ct[k] && pf_table_rows(ct[k]) == 0) {
            pf_table_free(ct[k]);
            continue;
        }
        if (rc == 0)
            rc = pf_html_put_table(w, ct[k], captions[k]);
        else
            pf_table_free(ct[k]);
    }
    return rc;
}
