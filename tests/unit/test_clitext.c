/* test_clitext.c - unit tests of the small one-place helpers of branch struct: roff escaping and the did-you-mean distance (util/clitext.c), the gzip test (pf_is_gzip), the dtype column titles (pf_dtype_label) and the --group names (pf_group_names); each against values written out by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "profana/analysis.h"
#include "profana/clitext.h"
#include "profana/dtype.h"
#include "profana/gzout.h"

/* What pf_roff_text writes for s, as a string. */
static const char *roff(const char *s, char *buf, size_t cap)
{
    FILE *f = fmemopen(buf, cap, "w");
    if (!f)
        return "";
    pf_roff_text(f, s, strlen(s));
    fclose(f);
    return buf;
}

static void test_roff(void)
{
    char b[256];
    CHECK_STR("roff: hyphens escaped", roff("--top", b, sizeof b), "\\-\\-top");
    CHECK_STR("roff: a backslash as \\e", roff("a\\b", b, sizeof b), "a\\eb");
    CHECK_STR("roff: a line starting with '.' guarded", roff(".x\n'y", b, sizeof b), "\\&.x\n\\&'y");
    CHECK_STR("roff: a '.' inside a line left", roff("a.b", b, sizeof b), "a.b");
}

static void test_distance(void)
{
    CHECK("distance: equal names 0", pf_name_distance("--group", 7, "--group") == 0);
    CHECK("distance: '-' and '_' alike", pf_name_distance("--name-limit", 12, "--name_limit") == 0);
    CHECK("distance: one letter left out is 1 (--grup)", pf_name_distance("--grup", 6, "--group") == 1);
    CHECK("distance: --analyse to --analysis is 2 (one substitution, one insertion)",
          pf_name_distance("--analyse", 9, "--analysis") == 2);
    CHECK("distance: only the n characters count", pf_name_distance("--top=3", 5, "--top") == 0);
    char longname[80];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = 0;
    CHECK("distance: a name of 64 or more counts as far", pf_name_distance(longname, 79, "--top") == (size_t)-1);
}

static void test_gzip(void)
{
    CHECK("gzip: 1f 8b is gzip", pf_is_gzip("\x1f\x8b\x08", 3) == 1);
    CHECK("gzip: one byte is not", pf_is_gzip("\x1f", 1) == 0);
    CHECK("gzip: '{' is not", pf_is_gzip("{\"traceEvents\"", 14) == 0);
    CHECK("gzip: nothing is not", pf_is_gzip(NULL, 0) == 0);
}

static void test_names(void)
{
    static const char *const titles[PF_DT_COUNT] = {"FP64", "FP32", "TF32", "BF16", "FP16", "FP8", "INT8", "FP6", "FP4"};
    int bad = 0;
    for (int d = 0; d < PF_DT_COUNT; d++) {
        char up[16];
        const char *name = pf_dtype_name((pf_dtype)d);
        size_t k = 0;
        for (; name[k] && k + 1 < sizeof up; k++)
            up[k] = (char)(name[k] >= 'a' && name[k] <= 'z' ? name[k] - 32 : name[k]);
        up[k] = 0;
        bad += strcmp(pf_dtype_label((pf_dtype)d), titles[d]) != 0 || strcmp(up, titles[d]) != 0;
    }
    CHECK("dtype titles: FP64 .. FP4 in enum order, each its name in capitals", bad == 0);
    CHECK_STR("group names: kernel", pf_group_names[PF_GROUP_KERNEL], "kernel");
    CHECK_STR("group names: op", pf_group_names[PF_GROUP_OP], "op");
    CHECK_STR("group names: shape", pf_group_names[PF_GROUP_SHAPE], "shape");
    CHECK("group names: NULL after the last (--group's choices)", pf_group_names[PF_GROUP_CRITICAL_PATH + 1] == NULL);
}

int main(void)
{
    test_roff();
    test_distance();
    test_gzip();
    test_names();
    CHECK_DONE();
}
