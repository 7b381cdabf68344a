/* view_columns.c - --columns against the views' tables: a list checked against the table the command will print (--analysis's device table or --diff's rows) before any trace is read, and the names its help lists; above both views, so neither calls the other. */
#include <assert.h>
#include <stdio.h>

#include "profana/view.h"
#include "view_parts.h"

int pf_view_check_columns(const pf_view_opts *v, char *err, size_t n)
{
    assert(v && err && n > 0);
    int picked[64];
    if (!v->columns)
        return 0;
    if (v->names[0]) {
        pf_dview o;
        pf_dview_init(&o, v, NULL);
        return pf_cols_pick(o.rows.cols, PF_DVIEW_NCOLS, v->columns, picked, 64, err, n) < 0 ? -1 : 0;
    }
    pf_aview a;
    pf_aview_init(&a, v);
    return pf_cols_pick(a.cols, pf_aview_ncols(v), v->columns, picked, 64, err, n) < 0
               ? -1
               : 0;
}

const char *pf_view_runs_column(const pf_view_opts *v)
{
    assert(v && v->names[0]);
    int picked[64];
    char err[256];
    pf_dview o;
    pf_dview_init(&o, v, NULL);
    int n = v->columns ? pf_cols_pick(o.rows.cols, PF_DVIEW_NCOLS, v->columns, picked, 64, err, sizeof err) : 0;
    for (int i = 0; i < n; i++)
        if (pf_dview_runs_only(picked[i]))
            return o.rows.cols[picked[i]].id ? o.rows.cols[picked[i]].id : o.rows.cols[picked[i]].key;
    return NULL;
}

void pf_view_columns_help(char *s, size_t n)
{
    assert(s && n > 0);
    *s = 0;
    pf_dview_columns_help(s, n, pf_aview_columns_help(s, n, 0));
}
