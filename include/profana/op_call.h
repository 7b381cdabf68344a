/* op_call.h - an op invocation as the trace records it (its arguments' dims, types and concrete values), shared by the model and the formulas. */
/* layer: trace (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_OP_CALL_H
#define PROFANA_OP_CALL_H

#include <stdint.h>

#define PF_MAX_DIMS 8

/* One positional argument of a cpu_op, as the trace records it (Input Dims, Input type,
 * Concrete Inputs at the same index). */
typedef struct pf_arg {
    int ndim;                  /* dims recorded; 0 for scalars and non-tensors */
    int64_t dims[PF_MAX_DIMS];
    int is_list;               /* TensorList: dims not kept, see list_numel */
    int64_t list_numel;        /* sum of the elements of a TensorList's tensors; -1 when the
                                * trace recorded the list as [] without its elements' shapes
                                * (pf_op_lists_unrecorded) */
    const char *type;          /* "Input type" entry; "" when absent */
    const char *concrete;      /* "Concrete Inputs" entry; "" when absent */
    unsigned expanded;         /* bit d: "Input Strides" gives dim d (of more than one
                                * element) stride 0, as expand() makes: its elements along d
                                * are one element in memory */
} pf_arg;

struct pf_op_nest;

/* An op invocation as the formulas see it. Storage belongs to the caller. (Pointers first,
 * then the ints: 32 bytes, one per op of the model.) */
typedef struct pf_op_call {
    const char *name;          /* full op name, "aten::mm" */
    const pf_arg *args;
    const struct pf_op_nest *nested; /* the ops recorded inside this one, for the few ops whose
                                * formula reads them (pf_op_family_reads_nested); NULL otherwise */
    int nargs;
    int assumed_size;          /* element size to assume for tensors the trace records without
                                * a type (a TensorList): the command line's DTYPE, set by
                                * pf_formula_apply_ex; 0 = none, their bytes stay unknown */
} pf_op_call;

/* The ops recorded inside an op (its thread, within its span), in order: a fused MoE whose
 * expert weights and top-k appear only on the views and the routing op it runs. Their own
 * nested is NULL. */
typedef struct pf_op_nest {
    const pf_op_call *calls;
    int n;
} pf_op_nest;

/* Product of the dims of a tensor argument; 1 for a 0-d tensor; list_numel for a list.
 * -1 when a dim is negative or the product does not fit in int64 (sizes are untrusted). */
int64_t pf_arg_numel(const pf_arg *a);

/* Bytes of a tensor argument: numel x element size of its type; 0 for non-tensors; -1 when
 * its element count is unknown. */
double pf_arg_bytes(const pf_arg *a);

/* The elements of a tensor argument that are distinct in memory: pf_arg_numel with every
 * expanded (stride-0) dim counted once. -1 as pf_arg_numel. */
int64_t pf_arg_stored_numel(const pf_arg *a);

/* 1 when the call's tensor lists were recorded without their elements' shapes: every
 * TensorList argument recorded as [] (recent PyTorch), their list_numel -1; 0 otherwise (no
 * list, or lists with shapes, an empty one among them). Their bytes and FLOPs are unknown. */
int pf_op_lists_unrecorded(const pf_op_call *call);

#endif
