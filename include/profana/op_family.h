/* op_family.h - the one table of ATen ops: each op's family (what it computes), the formula that counts its work, and the argument positions that describe one call on any backend. */
/* layer: catalog (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_OP_FAMILY_H
#define PROFANA_OP_FAMILY_H

#define PF_FAMILY_MAX_ARGS 8

/* What an op computes, whichever library ran it. Readers name the families in their own
 * words (small family -> name tables): the formula registry ("gemm", "conv", "norm", ...),
 * the diff's family matching ("gemm", "bmm", "convolution", ...), the categories (GEMM,
 * normalization, ...). */
typedef enum pf_family {
    PF_FAM_GEMM,               /* matrix product */
    PF_FAM_BMM,                /* batched matrix product */
    PF_FAM_GEMV,               /* matrix-vector and vector-vector products */
    PF_FAM_CONV,
    PF_FAM_CONV_BACKWARD,
    PF_FAM_CONV_TRANSPOSE,
    PF_FAM_ATTENTION,
    PF_FAM_ATTENTION_BACKWARD,
    PF_FAM_NORM,               /* normalisations and softmax */
    PF_FAM_REDUCE,             /* reductions and scans */
    PF_FAM_ELEMENTWISE,        /* arithmetic, activations, comparisons */
    PF_FAM_COPY,               /* copies, casts, concatenation, fills */
    PF_FAM_INDEX,              /* gathers and scatters by an index tensor */
    PF_FAM_COUNT
} pf_family;

/* The formula of src/formulas/ that counts an op's work (formulas.h), one per line of
 * formula_list.h; PF_OPF_NONE: none, the op gets the registry's generic estimate. */
typedef enum pf_op_formula {
    PF_OPF_NONE = 0,
#define PF_FORMULA(id, fn, word) PF_OPF_##id,
#include "profana/formula_list.h"
#undef PF_FORMULA
    PF_OPF_COUNT
} pf_op_formula;

/* What an estimated op writes, when not its family's default type. */
enum { PF_RESULT_DEFAULT = 0, PF_RESULT_BOOL = 1, PF_RESULT_LONG = 2 };

/* The parameters the estimate formulas read. Positions are argument indices, 0 meaning
 * none: argument 0 is always the tensor the op works on. */
typedef struct pf_op_spec {
    unsigned char flop;     /* 1: one FLOP per element written (element-wise arithmetic) */
    unsigned char result;   /* PF_RESULT_* */
    unsigned char dtype_at; /* a ScalarType code that sets the result type when given */
    unsigned char float_at; /* a bool asking for a float result (half_to_float) */
    unsigned char dim_at;   /* reductions and index ops: the dim, or list of dims */
    unsigned char index_at; /* index ops: the index tensor */
    unsigned char indices;  /* reductions that also write int64 indices (max.dim) */
    unsigned char out_at;   /* element-wise ops: the functional schema's argument count, where
                               the .out overload appends its out= tensor: a tensor last, at
                               this position or after, is the destination, written and not read */
} pf_op_spec;

/* The arguments that say what one call computed. cuDNN's and MIOpen's convolutions, or the
 * cuDNN, flash and efficient attention backends, are different ops with their arguments in
 * different places; the positions list them in one order per family, so one call gets the
 * same key whichever backend ran it. */
typedef struct pf_op_key {
    int nargs;                         /* positions used; 0 = every tensor argument in order */
    signed char args[PF_FAMILY_MAX_ARGS]; /* argument positions, in the family's order */
    int seq_first;                     /* the 4-D tensors among them are [B, S, H, D]; keys show
                                          them as [B, H, S, D] like the other backends */
} pf_op_key;

/* Where a convolution op keeps its arguments, by PF_CONV_*: positions from
 * native_functions.yaml, -1 when its schema has no such argument (then the default, or what
 * `implies` says). The row's diff key is built from the same positions (op_family.c). */
enum {
    PF_CONV_INPUT, PF_CONV_WEIGHT, PF_CONV_BIAS, PF_CONV_STRIDE, PF_CONV_PADDING, PF_CONV_DILATION,
    PF_CONV_TRANSPOSED, PF_CONV_OUTPUT_PADDING, PF_CONV_GROUPS,
    PF_CONV_GRAD_OUTPUT, PF_CONV_BIAS_SIZES, PF_CONV_OUTPUT_MASK, /* convolution_backward's own */
    PF_CONV_NPOS
};
/* What a convolution op implies when its schema has no argument for it. */
enum { PF_CONV_IMPLIES_TRANSPOSED = 1, PF_CONV_IMPLIES_DEPTHWISE = 2 };
typedef struct pf_conv_args {
    signed char pos[PF_CONV_NPOS];
    unsigned char implies;     /* PF_CONV_IMPLIES_* */
} pf_conv_args;

/* Where a fused attention op keeps its arguments (-1: it has none there). k and v always
 * follow q, cum_seq_k follows cum_q and max_k follows max_q. The row's diff key (q, k, v) is
 * built from q and seq_first (op_family.c). */
typedef struct pf_attn_args {
    unsigned char seq_first;   /* q is [B, S, H, D]; otherwise [B, H, S, D] */
    unsigned char backward;
    signed char grad_out, q, out, lse, bias;
    signed char cum_q, max_q;  /* variable-length batches: cumulative lengths, longest */
    signed char causal;        /* bool is_causal */
    signed char mask_type;     /* int custom_mask_type: 1 and 2 are causal masks */
    signed char want_lse;      /* bool compute_log_sumexp; without it logsumexp is written */
} pf_attn_args;

/* One ATen op. */
typedef struct pf_op_entry {
    const char *op;            /* "aten::cudnn_convolution", "_C::rms_norm"; in the prefix
                                  table, the start of the names it covers ("aten::_foreach_") */
    pf_family family;
    pf_op_formula formula;
    const pf_op_spec *spec;    /* NULL: all zero */
    const pf_op_key *key;      /* NULL: no key; the diff does not match it by family */
    int by_kernel;             /* 1: the categories pass its op over and go by its kernel's
                                  name (they never listed it) */
    const pf_conv_args *conv;  /* a convolution's argument positions (formulas/conv.c); NULL else */
    const pf_attn_args *attn;  /* a fused attention's (formulas/attention.c); NULL else */
} pf_op_entry;

/* The entry of an op name ("aten::mm"), or NULL when the table does not list it. A name the
 * table does not list may still start with one of a few prefixes that name a whole family
 * of ATen ops ("aten::_foreach_", "aten::upsample_") or Inductor launches of one template
 * ("triton_tem_fused_flex_attention"): the prefix's entry then. Pure. */
const pf_op_entry *pf_op_family_lookup(const char *op_name);

/* 1 when the formula of this op reads the ops recorded inside it (pf_op_call.nested): the
 * loader then keeps them for it. vLLM's moe_forward records only the hidden states and the
 * router logits; its expert weights and top-k appear on the views and the routing op it runs.
 * Pure. */
int pf_op_family_reads_nested(const char *op_name);

/* A family's name as `profana --list-ops` prints it ("gemm", "conv_backward"); f must be a
 * family of the enum (below PF_FAM_COUNT). Static storage. */
const char *pf_op_family_name(pf_family f);

/* The whole table (sorted by strcmp of the op name) and its size, for tests. Static storage. */
const pf_op_entry *pf_op_family_table(int *count);

/* The prefix entries (op is the prefix) and their count, for tests. Static storage. */
const pf_op_entry *pf_op_family_prefixes(int *count);

#endif
