/* op_family.h - ATen op name -> the family named by what it computes (gemm, convolution, attention), with the argument positions that describe one call on any backend. */
/* layer: catalog (README: Where things are) */
#ifndef PROFANA_OP_FAMILY_H
#define PROFANA_OP_FAMILY_H

#define PF_FAMILY_MAX_ARGS 8

/* One op of a family. cuDNN's and MIOpen's convolutions, or the cuDNN, flash and efficient
 * attention backends, are different ops with their arguments in different places; the
 * positions below list the arguments that say what was computed, in one order per family, so
 * one call gets the same key whichever backend ran it. */
typedef struct pf_op_family {
    const char *op;                    /* "aten::cudnn_convolution" */
    const char *family;                /* "convolution" */
    int nargs;                         /* positions used; 0 = every tensor argument in order */
    signed char args[PF_FAMILY_MAX_ARGS]; /* argument positions, in the family's order */
    int seq_first;                     /* the 4-D tensors among them are [B, S, H, D]; keys show
                                          them as [B, H, S, D] like the other backends */
} pf_op_family;

/* The entry of an op name ("aten::mm"), or NULL when it belongs to no family. Pure. */
const pf_op_family *pf_op_family_lookup(const char *op_name);

/* The whole table and its size, for tests. Static storage. */
const pf_op_family *pf_op_family_table(int *count);

#endif
