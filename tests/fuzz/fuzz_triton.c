/* fuzz_triton.c - libFuzzer target for the Inductor kernel-module parser (pf_triton_parse) and the figures it gives a launch built to fit it (pf_triton_work). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "profana/triton.h"

#define REQUIRE(cond) FUZZ_REQUIRE(cond)

/* Input: a module's text, as Inductor writes it under its cache (tests/fuzz/seeds.py copies
 * the modules of testdata/inductor/). The text is copied into a block of exactly its size,
 * so that AddressSanitizer catches a read past it. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size ? size : 1);
    pf_triton_kernel *k = malloc(sizeof *k);
    if (!text || !k) {
        free(text);
        free(k);
        return 0;
    }
    memcpy(text, data, size);
    const char *why = NULL;
    int rc = pf_triton_parse(text, size, k, &why);
    REQUIRE(rc == 0 || rc == -1);
    REQUIRE(why != NULL);
    REQUIRE(rc == 0 || *why);
    if (rc == 0) {
        REQUIRE(k->nparams >= 0 && k->nparams <= PF_TRITON_MAX_PARAMS);
        /* a launch that fits: a [4, 8] tensor per pointer, 32 for each scalar */
        pf_arg *args = calloc((size_t)(k->nparams ? k->nparams : 1), sizeof *args);
        for (int i = 0; args && i < k->nparams; i++) {
            if (k->params[i].role != PF_TRITON_SCALAR) {
                args[i].ndim = 2;
                args[i].dims[0] = 4;
                args[i].dims[1] = 8;
                args[i].type = "float";
            } else {
                args[i].type = "Scalar";
            }
            args[i].concrete = k->params[i].role == PF_TRITON_SCALAR ? "32" : "";
        }
        if (args) {
            pf_op_call call = {"triton_poi_fuzz_0", args, NULL, k->nparams, 0};
            pf_work w;
            pf_explain ex;
            int wr = pf_triton_work(&call, text, size, "", &ex, &w);
            REQUIRE(wr == 0 || wr == -1);
            REQUIRE(!isnan(w.flop) && !isinf(w.flop) && !isnan(w.bytes) && !isinf(w.bytes));
            REQUIRE(memchr(ex.sizes, 0, sizeof ex.sizes) && memchr(ex.bytes, 0, sizeof ex.bytes));
        }
        free(args);
    }
    free(text);
    free(k);
    return 0;
}
