/* fuzz_demangle.c - libFuzzer target for the Itanium demangler (pf_demangle) and the short names built on it (pf_name_short, pf_names_short_set). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "profana/demangle.h"
#include "profana/names.h"

#define REQUIRE(cond) FUZZ_REQUIRE(cond)

/* Input: a name, "_Z" put before it when it lacks one (tests/fuzz/seeds.py writes the mangled
 * names of testdata/); copied into a block of exactly its size plus the NUL, so that
 * AddressSanitizer catches a read past it. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    int prefix = !(size >= 2 && data[0] == '_' && data[1] == 'Z');
    size_t n = size + (prefix ? 2 : 0);
    char *name = malloc(n + 1);
    if (!name)
        return 0;
    if (prefix)
        memcpy(name, "_Z", 2);
    memcpy(name + (prefix ? 2 : 0), data, size);
    name[n] = 0;
    char *plain = pf_demangle(name);
    /* a result is text, never empty; the output cap holds */
    REQUIRE(!plain || (*plain && strlen(plain) < ((size_t)4 << 20)));
    free(plain);
    char buf[256];
    pf_name_short(name, 1, buf, sizeof buf);
    REQUIRE(strlen(buf) < sizeof buf);
    const char *keys[2] = {name, "_ZN5aiter3fooIiEEvPT_"};
    char *out[2];
    if (pf_names_short_set(keys, 2, 1, out) == 0) {
        REQUIRE(out[0] && out[1] && strcmp(out[0], out[1]) != 0);
        free(out[0]);
        free(out[1]);
    }
    free(name);
    return 0;
}
