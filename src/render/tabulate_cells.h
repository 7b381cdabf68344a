/* tabulate_cells.h - the table's cells, shared by the printer (tabulate.c) and its CSV and JSON writers (tabulate_export.c); not a public interface. */
#ifndef PROFANA_RENDER_TABULATE_CELLS_H
#define PROFANA_RENDER_TABULATE_CELLS_H

#include <assert.h>
#include <stdint.h>

#include "profana/tabulate.h"

typedef enum cell_kind { CELL_NULL = 0, CELL_STR, CELL_INT, CELL_NUM, CELL_BOOL } cell_kind;

/* One cell a row a column: 16 bytes, not 40, its label and its kind kept apart (a table of
 * 250,000 distinct kernels has 7.5 million cells). */
typedef struct cell {
    char *text;                /* what text/CSV/Markdown show */
    union {
        double num;            /* CELL_NUM: the value JSON writes */
        int64_t i;             /* CELL_INT */
    };
} cell;

struct pf_table {
    const pf_col *cols;
    int ncols;
    cell *cells;               /* rows x ncols */
    unsigned char *kinds;      /* rows x ncols: each cell's cell_kind */
    unsigned char *summary;
    uint64_t lists;            /* columns of '+'-joined lists (pf_table_list_col) */
    int nrows, cap;
    int failed;
    struct text_block *texts;  /* the cells' texts and labels (table_text) */
    char **labels;             /* per row, what text and Markdown show instead of the cell of
                                  column label_col (pf_table_label); NULL: none yet */
    int label_col;             /* the one column with labels; -1: none */
};

/* The cell at (row, col), both within the table. */
static inline const cell *cell_get(const pf_table *t, int row, int col)
{
    assert(row >= 0 && row < t->nrows && col >= 0 && col < t->ncols);
    return &t->cells[(size_t)row * (size_t)t->ncols + (size_t)col];
}

/* The kind of the cell at (row, col), both within the table. */
static inline cell_kind cell_kind_get(const pf_table *t, int row, int col)
{
    assert(row >= 0 && row < t->nrows && col >= 0 && col < t->ncols);
    return (cell_kind)t->kinds[(size_t)row * (size_t)t->ncols + (size_t)col];
}

/* Whether column col shows in the format(s) where (PF_IN_*): a column without a show mask
 * shows everywhere. */
static inline int shown_in(const pf_table *t, int col, unsigned where)
{
    return !t->cols[col].show || (t->cols[col].show & where);
}

#endif
