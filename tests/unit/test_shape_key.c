/* test_shape_key.c - unit tests of the --group shape key cut (src/render/shape_key.c): scalars and trailing defaults go first, then the op's namespace, equal tensors in a row merged, the op's name, then whole tensors between the first and the last; every tensor shown keeps its dims. Expected strings written out by hand. */
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
    /* the dims part "([8,512,1024]bf16,_,[1024]bf16,[1024]bf16,..)" is 45: the op gets 16,
     * cut in its middle (7 + "..." + 6) */
    expect("then the op's name, cut", ln, 61, "native_...r_norm([8,512,1024]bf16,_,[1024]bf16,[1024]bf16,..)");
    /* at 55 the op would get 10: the two [1024]bf16 in a row as one "2x[1024]bf16" instead, the
     * op whole (17 + 36 = 53) */
    expect("equal tensors in a row merged", ln, 55, "native_layer_norm([8,512,1024]bf16,_,2x[1024]bf16,..)");
    /* at 50 the op gets 14 of them (6 + "..." + 5) */
    expect("merged, the op's name cut", ln, 50, "native..._norm([8,512,1024]bf16,_,2x[1024]bf16,..)");
    /* fewer than 6 characters left for the op: whole tensors left out between the first and
     * the last, never a cut inside one; "([8,512,1024]bf16,..)" is 21, the op keeps 17 */
    expect("too narrow: whole tensors left out", ln, 40, "native_layer_norm([8,512,1024]bf16,..)");
    const char *att = "aten::_cudnn_attention_backward([8,16,512,64]bf16, [8,16,512,64]bf16, [8,16,512,64]bf16, "
                      "[8,16,512,64]bf16, [8,16,512,64]bf16, [8,16,512,1]fp32, []long int, []long int, -, -, -, 512, "
                      "512, 0., True, -)";
    /* 25 + "(5x[8,16,512,64]bf16,[8,16,512,1]fp32,2x[]long int,..)" 55 = 80 */
    expect("five equal tensors as 5x", att, 80,
           "_cudnn_attention_backward(5x[8,16,512,64]bf16,[8,16,512,1]fp32,2x[]long int,..)");
    /* at 50 the second tensor would leave the op fewer than 16 ("(5x[8,16,512,64]bf16,[8,16,512,1]fp32,..)"
     * is 41): the first tensor alone, the op whole (25 + 24) */
    expect("whole tensors left out, the op readable", att, 50, "_cudnn_attention_backward(5x[8,16,512,64]bf16,..)");
    /* at 40 the first tensor alone: "(5x[8,16,512,64]bf16,..)" is 24, the op's name 16 (7 + "..." + 6) */
    expect("the first tensor alone", att, 40, "_cudnn_...ckward(5x[8,16,512,64]bf16,..)");
    expect("not OP(ARGS): a middle cut", "a_long_kernel_name_without_args", 12, "a_lon...args");
    /* a --diff row matched under two keys: "A(..) vs B(..)" is cut in its middle, both ends kept */
    expect("two keys: a middle cut", "aten::mm([4096]bf16, [4]bf16) vs aten::mm([4096]fp16, [4]fp16)", 20,
           "aten::mm(...[4]fp16)");
    expect("a scalar tensor keeps its type", "aten::div([8,512,1024]fp32, []long int)", 33, "div([8,512,1024]fp32,[]long int)");
    CHECK_DONE();
}
