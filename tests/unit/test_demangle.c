/* test_demangle.c - unit tests of the Itanium demangler (util/demangle.c) against names whose readable form GNU c++filt gives, the one it cannot read, and hostile input; with a FILE argument, a filter (one name a line in, its demangled form or the name itself out) for tests/cli/test_demangle.sh. */
#include <stdlib.h>

#include "check.h"
#include "profana/demangle.h"

static void check_dm(const char *name, const char *mangled, const char *want)
{
    char *got = pf_demangle(mangled);
    CHECK_STR(name, got ? got : "(null)", want);
    free(got);
}

/* Hand values: each as `c++filt` (GNU binutils 2.40) writes it. */
static void test_forms(void)
{
    check_dm("plain function", "_Z1fv", "f()");
    check_dm("template function: return type, T_", "_ZN5aiter3fooIiEEvPT_", "void aiter::foo<int>(int*)");
    check_dm("const member function", "_ZNK1A1fEv", "A::f() const");
    check_dm("pointer to function", "_Z1fPFviE", "f(void (*)(int))");
    check_dm("anonymous namespace", "_ZN2at6native12_GLOBAL__N_14implIfEEvv",
             "void at::native::(anonymous namespace)::impl<float>()");
    check_dm("literals: int, unsigned, bool, negative", "_Z1fILi5ELj3ELb1ELin1EEvv", "void f<5, 3u, true, -1>()");
    check_dm("enum literal", "_ZN1fILNS_1EE2EEEvv", "void f<(f::E)2>()");
    check_dm("lambda in a local name", "_ZZ4mainENKUlvE_clEv", "main::{lambda()#1}::operator()() const");
    check_dm("bf16 and const char*", "_Z1fDF16bPKc", "f(std::bfloat16_t, char const*)");
    check_dm("constructor, destructor", "_ZN1AC2Ev", "A::A()");
    check_dm("destructor", "_ZN1AD1Ev", "A::~A()");
    check_dm("pack expansion", "_Z3fooIJidEEvDpT_", "void foo<int, double>(int, double)");
    check_dm("pack expansion of a pattern through a substitution", "_Z5packsIJifEEvSt5tupleIJDpT_EEDpPS1_",
             "void packs<int, float>(std::tuple<int, float>, int*, float*)");
    check_dm("empty pack", "_Z1fIJEEvv", "void f<>()");
    check_dm("reference to array", "_Z1fRA3_i", "f(int (&) [3])");
    check_dm("ABI tag", "_ZN1A1fB5cxx11Ev", "A::f[abi:cxx11]()");
    check_dm("std:: abbreviations", "_ZNSt6vectorIiSaIiEE9push_backERKi",
             "std::vector<int, std::allocator<int> >::push_back(int const&)");
    check_dm("expression in a template argument", "_ZN1fIXntLb0EEEEvv", "void f<!(false)>()");
    check_dm("function returning a pointer to function", "_Z3barPFPFivEvE", "bar(int (*(*)())())");
    check_dm("pointer to member function", "_Z1fM1AFviE", "f(void (A::*)(int))");
    check_dm("clone suffix", "_ZN3foo3barEv.constprop.0", "foo::bar() [clone .constprop.0]");
    check_dm("vtable", "_ZTV1A", "vtable for A");
    check_dm("a template variable (no signature)", "_Z1fIiE", "f<int>");
    check_dm("guard variable of a local static", "_ZGVZ1fvE1x", "guard variable for f()::x");
    /* aiter on MI300 (testdata/public/mi300_sglang_qwen3_prefilldecode) */
    check_dm("aiter kernel", "_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi64ELi8ELb0ELb0ELb1ELi1EEEvPT0_PT_PfS4_S4_S4_diiiiiiib",
             "void aiter::add_rmsnorm_quant_kernel<std::bfloat16_t, std::bfloat16_t, 64, 8, false, false, true, 1>"
             "(std::bfloat16_t*, std::bfloat16_t*, float*, std::bfloat16_t*, std::bfloat16_t*, std::bfloat16_t*, "
             "double, int, int, int, int, int, int, int, bool)");
    /* c++filt 2.40 cannot read Clang 17's template-param-decl (Tn): by hand, the declaration
     * T (*)(T const&) is not printed but its types are substitutions (S3_ = T_, S4_ = T_ const,
     * S5_ = T_ const&), and the argument is &silu<__hip_bfloat16> */
    check_dm("Clang's template-param-decl (by hand)",
             "_ZN7sgl_hip10activation18act_and_mul_kernelI14__hip_bfloat16TnPFT_RKS3_EXadL_Z4siluIS2_ES3_S5_EEEEvPS3_PS4_i",
             "void sgl_hip::activation::act_and_mul_kernel<__hip_bfloat16, &silu<__hip_bfloat16> >"
             "(__hip_bfloat16*, __hip_bfloat16 const*, int)");
}

static void test_refused(void)
{
    const char *bad[] = {"", "_Z", "f", "_Zv", "_Z1", "_Z9ab", "_ZN1aE1", "_Z1fIi", "_ZN1aIiEEvT0_", "_ZS9_", "_Z1fPFv",
                         "_ZN1fIXnwLb0EEEEvv", "_Z1fDF", "_Z1fILi", "_ZTh1a"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char what[96];
        snprintf(what, sizeof what, "malformed or unknown refused: '%s'", bad[i]);
        char *got = pf_demangle(bad[i]);
        CHECK(what, got == NULL);
        free(got);
    }
    /* each substitution doubles the text: 2^60 characters asked for, refused at the cap */
    char bomb[2048] = "_Z1fIJ1aIiE";
    for (int i = 1; i <= 60; i++) {
        char id[8], sub[24];
        int n = i - 1, k = 0;
        char digits[8];
        do {
            digits[k++] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[n % 36];
            n /= 36;
        } while (n);
        for (int j = 0; j < k; j++)
            id[j] = digits[k - 1 - j];
        id[k] = 0;
        snprintf(sub, sizeof sub, "S_IS%s_S%s_E", id, id);
        strcat(bomb, sub);
    }
    strcat(bomb, "EEvv");
    char *got = pf_demangle(bomb);
    CHECK("doubling substitutions refused (output capped)", got == NULL);
    free(got);
    /* nesting deeper than the cap: refused, not a stack overflow */
    size_t n = 200000;
    char *deep = malloc(n + 8);
    if (deep) {
        memcpy(deep, "_Z1f", 4);
        memset(deep + 4, 'P', n);
        memcpy(deep + 4 + n, "i", 2);
        got = pf_demangle(deep);
        CHECK("200000 pointers refused", got == NULL);
        free(got);
        memset(deep + 4, 'J', n);
        memcpy(deep, "_Z1fI", 5);
        got = pf_demangle(deep);
        CHECK("200000 nested packs refused", got == NULL);
        free(got);
        free(deep);
    }
    /* every prefix of aiter's name that ends before its nested name closes is malformed:
     * refused, and read without a step past its end (ASan, valgrind) */
    const char *aiter = "_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi64ELi8ELb0ELb0ELb1ELi1EEEvPT0_PT_PfS4_S4_S4_diiiiiiib";
    size_t closed = (size_t)(strstr(aiter, "EEEv") - aiter) + 3;
    char buf[256];
    int refused = 0;
    for (size_t k = 0; k < closed; k++) {
        memcpy(buf, aiter, k);
        buf[k] = 0;
        got = pf_demangle(buf);
        refused += got == NULL;
        free(got);
    }
    CHECK("every prefix of aiter's name before its nested name closes refused", refused == (int)closed);
}

/* The filter: one name a line, its demangled form or itself. */
static int filter(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 2;
    size_t cap = 1 << 20;
    char *line = malloc(cap);
    while (line && fgets(line, (int)cap, f)) {
        line[strcspn(line, "\n")] = 0;
        char *s = pf_demangle(line);
        puts(s ? s : line);
        free(s);
    }
    free(line);
    fclose(f);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2)
        return filter(argv[1]);
    test_forms();
    test_refused();
    return check_failures != 0;
}
