/* fuzz_commands.c - libFuzzer target for --diff, --augment_trace and --combine on any bytes, each against a valid trace or itself. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "profana/cli.h"

/* tests/broken/valid_minimal.json: one mm on an H100 and its kernel, the other side of a
 * --diff and the other input of a --combine. */
static const char valid_trace[] =
    "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\", "
    "\"totalGlobalMem\": 85017493504, \"computeMajor\": 9, \"computeMinor\": 0, \"numSms\": 132}],\n"
    "\"traceEvents\": [\n"
    "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 441, \"tid\": 484, \"ts\": 990.0, "
    "\"dur\": 20.0, \"args\": {\"External id\": 1, \"Concrete Inputs\": [\"\", \"\"], \"Input type\": "
    "[\"c10::BFloat16\", \"c10::BFloat16\"], \"Input Dims\": [[64, 32], [32, 16]]}},\n"
    "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"nvjet_sm90_tst_64x16_bf16_NNT\", \"pid\": 0, \"tid\": 7, "
    "\"ts\": 1000.5, \"dur\": 2.25, \"args\": {\"External id\": 1, \"device\": 0, \"stream\": 7, "
    "\"correlation\": 100}}\n"
    "], \"traceName\": \"valid.json\"}\n";

static char valid_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (!freopen("/dev/null", "w", stdout) || fuzz_capped_stdout())
        return -1;
    /* kept open for the whole run: the path names this descriptor */
    return fuzz_input_file((const uint8_t *)valid_trace, sizeof valid_trace - 1, valid_path, sizeof valid_path) < 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    fuzz_output_start();
    int fd = fuzz_input_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    uint64_t h = UINT64_C(1469598103934665603);
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * UINT64_C(1099511628211);
    const char *other = h & 1 ? valid_path : path;
    h >>= 1;
    const char *pos[5];
    pf_cli cli = {.pos = pos, .format = (pf_format)(h % 4), .name_limit = 40, .fail_above = -1};
    h /= 4;
    cli.an.default_dtype = PF_DT_BF16;
    cli.an.step = PF_STEP_EVERY;
    cli.an.group = (pf_group_by)(h % 3);
    h /= 3;
    cli.load.jobs = 1;
    int rc;
    switch (h % 3) {
    case 0: /* --diff A a B b bf16 [--fail-above 10] */
        pos[0] = path, pos[1] = "a", pos[2] = other, pos[3] = "b", pos[4] = "bf16";
        cli.npos = 5;
        cli.command = "--diff";
        cli.fail_above = h & 8 ? 10 : -1;
        rc = cmd_diff(&cli);
        break;
    case 1: /* --augment_trace IN /dev/null bf16 [--extra] */
        pos[0] = path, pos[1] = "/dev/null", pos[2] = "bf16";
        cli.npos = 3;
        cli.command = "--augment_trace";
        cli.extra = (h & 8) != 0;
        rc = cmd_augment(&cli);
        break;
    default: /* --combine IN OTHER /dev/null */
        pos[0] = path, pos[1] = other, pos[2] = "/dev/null";
        cli.npos = 3;
        cli.command = "--combine";
        rc = cmd_combine(&cli);
        break;
    }
    if (rc < PF_EXIT_OK || rc > PF_EXIT_SLOWER) {
        fprintf(stderr, "fuzz_commands: %s returned %d\n", cli.command, rc);
        __builtin_trap();
    }
    fflush(stdout);
    clearerr(stdout);
    close(fd);
    return 0;
}
