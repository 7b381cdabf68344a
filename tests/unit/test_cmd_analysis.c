/* test_cmd_analysis.c - the --analysis command called as the fuzz target calls it, with the options main would parse but none of the settings main adds: what the command needs (the idle gaps its timeline draws) it must work out itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "profana/cli.h"

/* How often needle occurs in the file at path; -1 when it cannot be read. */
static long count_in_file(const char *path, const char *needle)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    static char buf[1 << 22];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    long k = 0;
    for (const char *p = buf; (p = strstr(p, needle)) != NULL; p++)
        k++;
    return k;
}

/* --plot timeline FILE through cmd_analysis alone: the timeline's idle lane reads the gaps,
 * which the analysis keeps only when asked (pf_analysis_opts.idle_gaps); the fuzz target
 * found them missing (an assert) when main did the asking. eager_bf16.json's one stream
 * is busy a fifth of its span (README's demo): the idle lane has bins with a cause. */
static void check_timeline(void)
{
    char svg[] = "/tmp/test_cmd_analysis_XXXXXX";
    int fd = mkstemp(svg);
    if (fd < 0) {
        CHECK("a temporary file", 0);
        return;
    }
    close(fd);
    const char *pos[2] = {"testdata/traces/eager_bf16.json", "bf16"};
    pf_cli cli = {.command = "--analysis", .pos = pos, .npos = 2, .format = PF_FMT_TEXT, .fail_above = -1};
    cli.an.default_dtype = PF_DT_BF16;
    cli.an.step = PF_STEP_EVERY;
    cli.load.jobs = 1;
    cli.plot_timeline = svg;
    fflush(stdout);
    int out = dup(1);
    int rc = -1;
    if (out >= 0 && freopen("/dev/null", "w", stdout)) {
        rc = cmd_analysis(&cli);
        fflush(stdout);
        dup2(out, 1);
        close(out);
    }
    CHECK("cmd_analysis --plot timeline without main's settings: exit 0", rc == PF_EXIT_OK);
    CHECK("its idle lane has gaps by cause", count_in_file(svg, "data-cause=") > 0);
    unlink(svg);
}

int main(void)
{
    check_timeline();
    CHECK_DONE();
}
