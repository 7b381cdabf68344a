/* test_op_family.c - unit tests of the op table (src/catalog/op_family.c) and of what its three readers (formula registry, diff families, categories) make of one row. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "profana/categories.h"
#include "profana/diff.h"
#include "profana/formulas.h"
#include "profana/op_family.h"

/* Every row well-formed: sorted (bisection), found by lookup, values in range. */
static void test_table(void)
{
    int n = -1, sorted = 1, found = 1, ranges = 1, keys = 1, aten = 1, specs = 1;
    const pf_op_entry *t = pf_op_family_table(&n);
    CHECK("table has rows", t && n > 200);
    for (int i = 0; i < n; i++) {
        const pf_op_entry *e = &t[i];
        if (i > 0 && strcmp(t[i - 1].op, e->op) >= 0)
            sorted = 0;
        if (pf_op_family_lookup(e->op) != e)
            found = 0;
        if ((int)e->family < 0 || e->family >= PF_FAM_COUNT || (int)e->formula < 0 ||
            e->formula >= PF_OPF_COUNT || (e->by_kernel != 0 && e->by_kernel != 1))
            ranges = 0;
        if (e->key && (e->key->nargs < 0 || e->key->nargs > PF_FAMILY_MAX_ARGS))
            keys = 0;
        for (int a = 0; e->key && a < e->key->nargs; a++)
            keys &= e->key->args[a] >= 0;
        /* ATen ops, or a serving library's custom ops named with their namespace */
        aten &= strncmp(e->op, "aten::", 6) == 0 || (strstr(e->op, "::") && e->by_kernel);
        specs &= !e->spec || e->formula != PF_OPF_NONE;
    }
    CHECK("sorted by strcmp, no duplicates", sorted);
    CHECK("every row found by lookup", found);
    CHECK("family, formula and category mark in range", ranges);
    CHECK("key positions in range", keys);
    CHECK("every op is an ATen op or a namespaced custom op going by its kernel", aten);
    CHECK("a spec only where a formula reads it", specs);
    CHECK("unknown op", pf_op_family_lookup("aten::no_such_op") == NULL);
    CHECK("NULL op", pf_op_family_lookup(NULL) == NULL);
    CHECK("no prefix", pf_op_family_lookup("mm") == NULL);
}

static const char *cat_of_op(const char *op)
{
    return pf_category_name(pf_category_of(PF_ACT_KERNEL, "some_kernel", op));
}

static const char *str_or(const char *s, const char *none)
{
    return s ? s : none;
}

/* One row, three readers, each in its own words. */
static void expect(const char *op, const char *formula_family, const char *diff_family, const char *category)
{
    char label[200];
    const pf_formula *f = pf_formula_lookup(op);
    snprintf(label, sizeof label, "%s: registry family", op);
    CHECK_STR(label, f ? f->family : "-", formula_family);
    snprintf(label, sizeof label, "%s: diff family", op);
    CHECK_STR(label, str_or(pf_diff_family(op), "-"), diff_family);
    snprintf(label, sizeof label, "%s: category", op);
    CHECK_STR(label, cat_of_op(op), category);
}

static void test_readers(void)
{
    expect("aten::mm", "gemm", "gemm", "gemm");
    expect("aten::bmm", "gemm", "bmm", "gemm");
    expect("aten::mv", "-", "gemv", "gemm");
    expect("aten::matmul", "-", "gemm", "gemm");
    expect("aten::dot", "-", "-", "gemm");
    expect("aten::cudnn_convolution", "conv", "convolution", "conv");
    expect("aten::convolution_backward", "conv", "convolution_backward", "conv");
    expect("aten::_slow_conv2d_forward", "conv", "-", "conv");
    expect("aten::_flash_attention_backward", "attention", "attention_backward", "attention");
    expect("aten::scaled_dot_product_attention", "-", "attention", "attention");
    expect("aten::native_layer_norm", "norm", "-", "normalization");
    expect("aten::sum", "reduce", "-", "reduction");
    expect("aten::aminmax", "-", "-", "reduction");
    expect("aten::add", "elementwise", "-", "elementwise");
    expect("aten::add_", "elementwise", "-", "elementwise");
    expect("aten::clone", "copy", "-", "elementwise");
    expect("aten::fill_", "copy", "-", "elementwise");
    expect("aten::fill", "-", "-", "elementwise");
    expect("aten::embedding", "index", "-", "elementwise");
    expect("aten::index_put", "-", "-", "elementwise");
    /* rows the categories leave to the kernel's name (by_kernel) */
    expect("aten::acos", "elementwise", "-", "other");
    expect("aten::cumsum", "scan", "-", "other");
    expect("aten::stack", "copy", "-", "other");
    /* issue 28's formulas keep the categories the ops had without them: those whose base op
     * has a row take its category (scatter_ as scatter), the others the kernel's name */
    expect("aten::scatter_", "copy", "-", cat_of_op("aten::scatter"));
    expect("aten::index_add_", "index", "-", cat_of_op("aten::index_add"));
    expect("aten::index_put_", "index", "-", cat_of_op("aten::index_put"));
    expect("aten::index_copy_", "index", "-", "other");
    expect("aten::_index_put_impl_", "index", "-", "other");
    expect("aten::embedding_dense_backward", "index", "-", "other");
    expect("aten::nll_loss_forward", "loss", "-", "other");
    expect("aten::nll_loss_backward", "loss", "-", "other");
    expect("aten::arange", "elementwise", "-", "elementwise");
    CHECK_STR("by_kernel: the kernel name decides", pf_category_name(pf_category_of(PF_ACT_KERNEL, "xmma_gemm", "aten::acos")),
              "gemm");
    CHECK_STR("the op decides over the kernel name", pf_category_name(pf_category_of(PF_ACT_KERNEL, "xmma_gemm", "aten::add")),
              "elementwise");
    /* an in-place variant takes its op's category; one "_" only */
    CHECK_STR("in-place variant", cat_of_op("aten::sum_"), "reduction");
    CHECK_STR("in-place variant of an op with no formula", cat_of_op("aten::mv_"), "gemm");
    CHECK_STR("two underscores are no variant", cat_of_op("aten::add__"), "other");
    CHECK_STR("underscore alone", cat_of_op("_"), "other");
    CHECK_STR("empty op", cat_of_op(""), "other");
}

int main(void)
{
    test_table();
    test_readers();
    CHECK_DONE();
}
