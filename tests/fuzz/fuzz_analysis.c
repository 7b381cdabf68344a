/* fuzz_analysis.c - libFuzzer target for --analysis on any bytes: load, attribution, formulas, every printer, --explain, --steps, plots. */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "common.h"
#include "profana/cli.h"

/* The command line is chosen by a hash of the input, so that each input runs one of the
 * option combinations and the fuzzer's mutations visit all of them. */
static uint64_t hash(const uint8_t *data, size_t size)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * UINT64_C(1099511628211);
    return h;
}

/* Takes the next choice among n from the hash. */
static unsigned pick(uint64_t *h, unsigned n)
{
    unsigned r = (unsigned)(*h % n);
    *h /= n;
    return r;
}

static void choose_options(pf_cli *cli, uint64_t h)
{
    static const char *const dtypes[] = {"bf16", "fp32", "fp16", "fp8"};
    static const pf_dtype dtype_ids[] = {PF_DT_BF16, PF_DT_FP32, PF_DT_FP16, PF_DT_FP8};
    static const char *const devices[] = {NULL, "H100 SXM", "MI300X"};
    static const char *const explain[] = {"aten::mm", "aten::addmm", "gemm", "triton_", "Memcpy", "aten::convolution",
                                          "aten::_efficient_attention_forward", "nvjet"};
    static const int tops[] = {0, 1, 3};
    static const int limits[] = {40, 0, 5};
    static const int64_t steps[] = {PF_STEP_EVERY, PF_STEP_EVERY, PF_STEP_ALL, 3};
    unsigned d = pick(&h, 4);
    cli->pos[1] = dtypes[d];
    cli->an.default_dtype = dtype_ids[d];
    cli->an.group = (pf_group_by)pick(&h, 3);
    cli->format = (pf_format)pick(&h, 4);
    cli->top = tops[pick(&h, 3)];
    cli->name_limit = limits[pick(&h, 3)];
    cli->by_category = (int)pick(&h, 2);
    cli->an.tf32 = (int)pick(&h, 3);
    cli->an.step = steps[pick(&h, 4)];
    cli->mode = pick(&h, 4) == 0 ? PF_MODE_STEPS : PF_MODE_TABLE;
    cli->device_name = devices[pick(&h, 3)];
    cli->an.force_device = cli->device_name ? pf_devices_find(cli->device_name) : NULL;
    if (pick(&h, 4) == 0) {
        cli->mode = PF_MODE_EXPLAIN;
        cli->explain = explain[pick(&h, 8)];
    }
    /* three names for the bit bucket: one file may not be named for two outputs */
    if (pick(&h, 4) == 0) {
        cli->plot_roofline = "/dev/null";
        cli->plot_breakdown = "/dev/zero";
    }
    if (pick(&h, 4) == 0)
        cli->report = "/dev/stdout";
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* The tables go nowhere; what matters is that printing them is safe. */
    if (!freopen("/dev/null", "w", stdout) || fuzz_capped_stdout())
        return -1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    fuzz_output_start();
    int fd = fuzz_input_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    const char *pos[2] = {path, "bf16"};
    pf_cli cli = {.command = "--analysis", .pos = pos, .npos = 2, .format = PF_FMT_TEXT, .fail_above = -1};
    cli.load.jobs = 1;
    choose_options(&cli, hash(data, size));
    int rc = pf_cli_run(&cli); /* --analysis in the mode chosen */
    /* Every outcome is an exit status the README documents; anything else is a finding. */
    if (rc != PF_EXIT_OK && rc != PF_EXIT_TRACE && rc != PF_EXIT_USAGE) {
        fprintf(stderr, "fuzz_analysis: pf_cli_run returned %d\n", rc);
        __builtin_trap();
    }
    fflush(stdout);
    clearerr(stdout);
    close(fd);
    return 0;
}
