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
    cell *cells;               /* rows x stride */
    unsigned char *kinds;      /* rows x stride: each cell's cell_kind */
    int *slot;                 /* per column, its place in a row of cells; -1: a column whose
                                  cells are not kept (pf_table_keep); NULL: every column's */
    int stride;                /* cells a row: ncols, or the columns kept */
    unsigned char *summary;
    uint64_t lists;            /* columns of '+'-joined lists (pf_table_list_col) */
    int nrows, cap;
    int failed;
    struct text_block *texts;  /* the cells' texts and labels (table_text) */
    char **labels;             /* per row, what text and Markdown show instead of the cell of
                                  column label_col (pf_table_label); NULL: none yet */
    int label_col;             /* the one column with labels; -1: none */
};

/* Where the cell at (row, col), both within the table, lies in cells and kinds; -1: a column
 * not kept. */
static inline long cell_index(const pf_table *t, int row, int col)
{
    assert(row >= 0 && row < t->nrows && col >= 0 && col < t->ncols);
    int s = t->slot ? t->slot[col] : col;
    return s < 0 ? -1 : (long)row * t->stride + s;
}

/* The cell at (row, col), both within the table: an empty one in a column not kept. */
static inline const cell *cell_get(const pf_table *t, int row, int col)
{
    static const cell empty; /* what a column not kept reads as: null, no text */
    long i = cell_index(t, row, col);
    return i < 0 ? &empty : &t->cells[i];
}

/* The kind of the cell at (row, col), both within the table. */
static inline cell_kind cell_kind_get(const pf_table *t, int row, int col)
{
    long i = cell_index(t, row, col);
    return i < 0 ? CELL_NULL : (cell_kind)t->kinds[i];
}

/* Whether column col shows in the format(s) where (PF_IN_*): a column without a show mask
 * shows everywhere. */
static inline int shown_in(const pf_table *t, int col, unsigned where)
{
    return !t->cols[col].show || (t->cols[col].show & where);
}

#endif
