/* tabulate_export.c - a table's rows as CSV, as JSON objects and as NDJSON lines (the text and Markdown printer is tabulate.c). */
#include <stdio.h>
#include <string.h>

#include "profana/jsonw.h"
#include "tabulate_cells.h"

/* ---- CSV ---- */

static void csv_field(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

void pf_table_print_csv(FILE *out, const pf_table *t, int header)
{
    assert(out && t);
    for (int r = header ? -1 : 0; r < t->nrows; r++) {
        for (int c = 0; c < t->ncols; c++) {
            if (!shown_in(t, c, PF_IN_CSV))
                continue;
            if (r < 0)
                csv_field(out, t->cols[c].title);
            else if (cell_kind_get(t, r, c) != CELL_NULL)
                csv_field(out, cell_get(t, r, c)->text);
            fputc(',', out);
        }
        /* last, so that a reader summing a column (pandas, DuckDB) can leave the Total out */
        fputs(r < 0 ? "Kind\n" : t->summary[r] ? "total\n" : "row\n", out);
    }
}

/* ---- JSON rows (the writer is render/jsonw.c) ---- */

void pf_table_print_ndjson(FILE *out, const pf_table *t, const char *table, const char *trace, int64_t device)
{
    assert(out && t && table);
    for (int r = 0; r < t->nrows; r++) {
        pf_jw w;
        pf_jw_init(&w, out);
        pf_jw_doc_begin(&w);
        pf_jw_key(&w, "table");
        pf_jw_str(&w, table);
        if (trace) {
            pf_jw_key(&w, "trace");
            pf_jw_str(&w, trace);
        }
        if (device >= 0) {
            pf_jw_key(&w, "device");
            pf_jw_int(&w, device);
        }
        pf_jw_key(&w, "kind");
        pf_jw_str(&w, t->summary[r] ? "total" : "row");
        pf_table_json_fields(&w, t, r);
        pf_jw_obj_end(&w);
        putc_unlocked('\n', out);
    }
}

void pf_table_json_fields(pf_jw *w, const pf_table *t, int row)
{
    for (int c = 0; c < t->ncols; c++) {
        const cell *x = cell_get(t, row, c);
        if (!t->cols[c].key || !shown_in(t, c, PF_IN_JSON))
            continue;
        pf_jw_key(w, t->cols[c].key);
        switch (cell_kind_get(t, row, c)) {
        case CELL_NULL:
            pf_jw_null(w);
            break;
        case CELL_STR:
            pf_jw_str(w, x->text);
            break;
        case CELL_INT:
            pf_jw_int(w, x->i);
            break;
        case CELL_NUM:
            pf_jw_num(w, x->num);
            break;
        case CELL_BOOL:
            pf_jw_bool(w, strcmp(x->text, "true") == 0);
            break;
        }
    }
}

void pf_table_json_row(pf_jw *w, const pf_table *t, int row)
{
    pf_jw_obj_begin(w);
    pf_table_json_fields(w, t, row);
    pf_jw_obj_end(w);
}

void pf_table_json_rows(pf_jw *w, const pf_table *t)
{
    pf_jw_arr_begin(w);
    for (int r = 0; r < t->nrows; r++)
        if (!t->summary[r])
            pf_table_json_row(w, t, r);
    pf_jw_arr_end(w);
}
