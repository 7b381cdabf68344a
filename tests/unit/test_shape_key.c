/* test_shape_key.c - unit tests of the --group shape key cut (src/render/shape_key.c): scalars and trailing defaults go first, then the op's namespace and name; every tensor's dims stay. Expected strings written out by hand. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* render/view_parts.h (a render-internal header): cuts a shape key to limit characters */
void pf_shape_key_cut(char *buf, int limit);

static void expect(const char *name, const char *key, int limit, const char *want)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", key);
    pf_shape_key_cut(buf, limit);
    CHECK_STR(name, buf, want);
}

int main(void)
{
    const char *addmm = "aten::addmm([4096]bf16, [4096,1024]bf16, [1024,4096]bf16, 1, 1)"; /* 63 */
    expect("fits: unchanged", addmm, 63, addmm);
    /* 12 + 10 + 2 + 15 + 2 + 15 + 4 (", ..") + 1 = 61 */
    expect("trailing scalars dropped first", addmm, 61, "aten::addmm([4096]bf16, [4096,1024]bf16, [1024,4096]bf16, ..)");
    /* no spaces: 58; without "aten::": 52 */
    expect("no spaces after commas", addmm, 58, "aten::addmm([4096]bf16,[4096,1024]bf16,[1024,4096]bf16,..)");
    expect("then the namespace", addmm, 52, "addmm([4096]bf16,[4096,1024]bf16,[1024,4096]bf16,..)");
    const char *ln = "aten::native_layer_norm([8,512,1024]bf16, [1024], [1024]bf16, [1024]bf16, 1e-05)";
    /* "[1024]" (an int list) is a scalar: "_"; 24 + 16 + 3 + 12 + 12 + 4 + 1 = 72 */
    expect("a scalar between tensors as _", ln, 72,
           "aten::native_layer_norm([8,512,1024]bf16, _, [1024]bf16, [1024]bf16, ..)");
    /* the dims part "([8,512,1024]bf16,_,[1024]bf16,[1024]bf16,..)" is 45: the op gets 10,
     * cut in its middle (4 + "..." + 3) */
    expect("then the op's name, cut", ln, 55, "nati...orm([8,512,1024]bf16,_,[1024]bf16,[1024]bf16,..)");
    /* fewer than 6 characters left for the op: the whole key is cut in its middle */
    char buf[512];
    snprintf(buf, sizeof buf, "%s", ln);
    pf_shape_key_cut(buf, 40);
    CHECK("too narrow: cut to the limit", strlen(buf) == 40 && strstr(buf, "...") != NULL);
    expect("not OP(ARGS): a middle cut", "a_long_kernel_name_without_args", 12, "a_lon...args");
    expect("a scalar tensor keeps its type", "aten::div([8,512,1024]fp32, []long int)", 33, "div([8,512,1024]fp32,[]long int)");
    CHECK_DONE();
}
