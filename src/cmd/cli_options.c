/* cli_options.c - the command line's tables: one row per command, one per option (its kind of action, the pf_cli field it writes, its default, the commands and modes it applies to), and the actions of the rows that call back. */
#include "cli_table.h"

#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/captures.h"
#include "profana/op_family.h"

/* The commands, each with the modes it has and the one it runs in when no mode option is
 * given. */
const command pf_cli_commands[] = {
    {"--analysis", ON_ANALYSIS, PF_MODE_TABLE, "FILE DTYPE", "ID",
     "per device, one row per kernel (or op, or op+shape): count, time, FLOPs, bytes,\n"
     "achieved TFLOP/s and GB/s, percent of the device's peak, roofline bound",
     "profana --analysis trace.json bf16 --group op --top 10"},
    {"--diff", ON_DIFF, PF_MODE_DIFF, "A.json[,A2...] NAME_A B.json[,B2...] NAME_B DTYPE", "ININD",
     "compare two traces row by row (exact name, then normalised name, then op family with\n"
     "shapes): per-row time ratio B/A, geomean, matched share; --fail-above PCT for CI;\n"
     "several runs a side (comma-separated): 95% intervals and a verdict per row",
     "profana --diff a.json before b.json after bf16 --fail-above 5"},
    {"--augment_trace", ON_AUGMENT, PF_MODE_AUGMENT, "IN OUT DTYPE", "IOD",
     "write IN to OUT with kernel_flop and kernel_num_gb added to the args of every kernel\n"
     "and op with figures (--extra: rates, percents, category); nothing else changes; OUT may\n"
     "be IN, - is standard output",
     "profana --augment_trace trace.json out.json bf16 --extra"},
    {"--combine", ON_COMBINE, PF_MODE_COMBINE, "IN1 IN2 [IN...] OUT", "II+O",
     "merge traces (e.g. of several ranks) into OUT, remapping colliding process ids and\n"
     "tagging each event with its input",
     "profana --combine a.json b.json out.json"},
    {"--ranks", ON_RANKS, PF_MODE_RANKS, "PATH... DTYPE", "P+D",
     "one trace per rank (.json, .json.gz, or directories of them): per rank GPU, busy,\n"
     "communication, exposed communication and idle time; collectives matched across ranks\n"
     "(transfer time, skew, bus bandwidth); the ranks that arrive last",
     "profana --ranks rank0.json.gz rank1.json.gz bf16"},
    {"--list-devices", ON_DEVICES, PF_MODE_DEVICES, "", "",
     "print the device table: names matched, dense peaks per dtype, bandwidth, source",
     "profana --list-devices --format md"},
};
const size_t pf_cli_n_commands = sizeof pf_cli_commands / sizeof pf_cli_commands[0];

/* offsetof(pf_cli, field), refusing to compile when the member is not of type `type`, so an
 * action never writes through a pointer of the wrong type. */
#define CLI_FIELD(type, field)                                                                     \
    (offsetof(pf_cli, field) +                                                                     \
     0 * sizeof(struct {                                                                           \
         _Static_assert(_Generic(((pf_cli *)0)->field, type: 1, default: 0), "pf_cli." #field " is not " #type); \
         int unused;                                                                               \
     }))

#define OPT_FLAG(name, help, on, field) {name, NULL, help, 0, on, ACT_SET, CLI_FIELD(int, field), NULL, NULL, NULL, PF_MODE_NONE, NULL}
#define OPT_FLAG_OFF(name, help, on, field) {name, NULL, help, 0, on, ACT_CLEAR, CLI_FIELD(int, field), NULL, NULL, NULL, PF_MODE_NONE, NULL}
#define OPT_COUNT(name, arg, help, on, field, def) {name, arg, help, 1, on, ACT_COUNT, CLI_FIELD(int, field), NULL, NULL, def, PF_MODE_NONE, NULL}
#define OPT_STRING(name, arg, help, on, field) {name, arg, help, 1, on, ACT_STRING, CLI_FIELD(const char *, field), NULL, NULL, NULL, PF_MODE_NONE, NULL}
#define OPT_ENUM(name, arg, help, on, type, field, choices, def) {name, arg, help, 1, on, ACT_ENUM, CLI_FIELD(type, field), choices, NULL, def, PF_MODE_NONE, NULL}
#define OPT_CALLBACK(name, arg, help, nvals, on, cb, def) {name, arg, help, nvals, on, ACT_CALLBACK, 0, NULL, cb, def, PF_MODE_NONE, NULL}
#define OPT_MODE_FLAG(name, help, on, mode, refusal) {name, NULL, help, 0, on, ACT_MODE, 0, NULL, NULL, NULL, mode, refusal}
#define OPT_MODE_STRING(name, arg, help, on, field, mode, refusal) {name, arg, help, 1, on, ACT_MODE, CLI_FIELD(const char *, field), NULL, NULL, NULL, mode, refusal}
#define OPT_EXIT(name, help, cb) {name, NULL, help, 0, ~0u, ACT_EXIT, 0, NULL, cb, NULL, PF_MODE_NONE, NULL}

/* An enum is set through an int (ACT_ENUM): the ones it sets must be int-sized. */
_Static_assert(sizeof(pf_group_by) == sizeof(int), "--group's enum is set as an int");


static int set_format(pf_cli *cli, const option *o, const char *v, const char *v2);
static int set_device(pf_cli *cli, const option *o, const char *v, const char *v2);
static int set_step(pf_cli *cli, const option *o, const char *v, const char *v2);
static int set_clock(pf_cli *cli, const option *o, const char *v, const char *v2);
static int set_fail_above(pf_cli *cli, const option *o, const char *v, const char *v2);
static int set_plot(pf_cli *cli, const option *o, const char *v, const char *v2);
static int set_jobs(pf_cli *cli, const option *o, const char *v, const char *v2);
static int set_no_tf32(pf_cli *cli, const option *o, const char *v, const char *v2);
static int show_help(pf_cli *cli, const option *o, const char *v, const char *v2);
static int show_version(pf_cli *cli, const option *o, const char *v, const char *v2);
static int show_man(pf_cli *cli, const option *o, const char *v, const char *v2);
static int show_ops(pf_cli *cli, const option *o, const char *v, const char *v2);

const option pf_cli_options[] = {
    OPT_COUNT("--name_limit", "N", "cut names to at most N characters in text and Markdown (default {default}: cut only "
              "to fit the width)",
              ON_ANALYSIS | ON_DIFF, name_limit, "0"),
    OPT_FLAG("--wide", "text: every column of the rows table, whole names, no line width (default: the columns that fit "
             "$COLUMNS, else the terminal of stdout, then of stderr, else 100 characters)", ON_ANALYSIS | ON_DIFF | ON_DEVICES | ON_RANKS, wide),
    OPT_STRING("--columns", "LIST", "text and Markdown: the rows table's columns, comma-separated (" COLUMNS_MARK "); "
               "the name column always shows and takes the width left",
               ON_TABLE | ON_DIFF, columns),
    OPT_ENUM("--group", "kernel|op|shape|module|annotation|sequence|critical-path", "group rows by {default} name (default), "
             "launching op, op with input shapes, or (--analysis) nn.Module path or record_function annotation: forward "
             "and backward GPU time per module (annotation) as a tree, then per class (name) (modules: a trace recorded "
             "with_stack=True; docs/analysis.md: Time per module), or repeated kernel sequences: runs of 2-8 kernels "
             "on a stream that recur, fusion candidates (docs/analysis.md: Repeated kernel sequences), or each "
             "profiler step's critical path: CPU ops, launches, GPU activities and syncs, split by part, CPU- or "
             "GPU-bound (docs/analysis.md: Critical path)",
             ON_TABLE | ON_DIFF, pf_group_by, an.group, pf_group_names, "kernel"),
    OPT_COUNT("--depth", "N", "--group module, annotation: only the rows at most N levels deep (default {default} = all)",
              ON_TABLE, depth, "0"),
    OPT_COUNT("--top", "N", "print only the N rows with the most GPU time (the Total row still counts all; --diff: "
              "the N largest changes; default {default} = all)",
              ON_TABLE | ON_DIFF, top, "0"),
    OPT_CALLBACK("--format", "text|csv|json|ndjson|md", "output format (default {default})", 1,
                 ON_ANALYSIS | ON_DIFF | ON_DEVICES | ON_RANKS, set_format, "text"),
    OPT_FLAG("--by-category", "after the tables, one table per category with its rows by time, count and percent",
             ON_TABLE, by_category),
    OPT_FLAG("--waits", "after the tables, why the GPU waits: time breakdown per device and step, idle by cause, "
             "launch delays, kernel-duration histogram, queue depth per stream", ON_TABLE, waits),
    OPT_FLAG("--tf32", "all fp32 matrix work (GEMM, convolution, attention) is measured against the TF32 peak "
             "(default: convolutions and kernels named tf32 only, as PyTorch runs them; see docs/formulas.md)",
             ON_ANALYSIS | ON_DIFF | ON_AUGMENT, an.tf32),
    OPT_CALLBACK("--no-tf32", NULL, "all fp32 work is measured against the FP32 peak, convolutions and kernels named tf32 "
                 "included", 0, ON_ANALYSIS | ON_DIFF | ON_AUGMENT, set_no_tf32, NULL),
    OPT_CALLBACK("--device", "NAME", "use this device-table entry for every device (default: the entry the trace's device name matches; see --list-devices)", 1,
                 ON_ANALYSIS | ON_DIFF | ON_AUGMENT, set_device, NULL),
    OPT_CALLBACK("--clock", "MHZ", "the clock the GPUs ran at: every compute peak is scaled by MHZ / the clock its datasheet "
                 "figure assumes (--list-devices: Peak MHz); bandwidth unchanged (default: the datasheet's clock)", 1,
                 ON_ANALYSIS | ON_DIFF | ON_AUGMENT, set_clock, NULL),
    OPT_STRING("--device-file", "FILE", "JSON list of device entries {name, match, tflops: {DTYPE: N}, gbps, clock_mhz} "
               "matched before the built-in table (default: $PROFANA_DEVICES, else none; see docs/devices.md)",
               ON_DEVICE_FILE, device_file),
    OPT_CALLBACK("--step", "all|N", "only the GPU work launched inside the CPU-side ProfilerStep windows (all, or step N; default: all GPU work)", 1,
                 ON_TABLE | ON_STEPS, set_step, NULL),
    OPT_ENUM("--phase", "prefill|decode|mixed|all", "serving traces: only the GPU work of that phase (vLLM/SGLang step "
             "annotations, else attention calls' query length; docs/serving.md: Serving phases (--phase)) (default {default})",
             ON_TABLE | ON_STEPS | ON_DIFF, int, an.phase, pf_phase_choices, "all"),
    OPT_MODE_FLAG("--steps", "--analysis: one line per ProfilerStep (span, GPU time, busy %, top category)", ON_ANALYSIS,
                  PF_MODE_STEPS, "--steps prints one line per step, no rows table"),
    OPT_STRING("--graph-capture", "PATH", "--analysis: give CUDA/HIP-graph-replayed kernels the ops that recorded them in "
               "this capture trace (or the traces of a directory, as its " PF_CAPTURE_LIST_NAME " lists them)",
               ON_ANALYSIS, graph_capture),
    OPT_STRING("--inductor-cache", "DIR", "a copy of the Inductor cache directory (/tmp/torchinductor_$USER on the training host): "
               "Triton launches take bytes and FLOPs from the kernel modules they name, found here by the recorded "
               "path's last two components (default: only at the recorded paths)",
               ON_ANALYSIS | ON_DIFF | ON_AUGMENT, an.inductor_cache),
    OPT_MODE_STRING("--explain", "OP_OR_KERNEL", "--analysis: shapes, dtypes, inputs, formula and figures of its first invocation",
                    ON_ANALYSIS, explain, PF_MODE_EXPLAIN,
                    "--explain prints one invocation (the first in the whole trace), no table, chart, report or summary"),
    OPT_CALLBACK("--fail-above", "PCT", "--diff: exit 3 when B's GPU time is over A's by more than PCT% (several runs: its 95% CI's low end) (default: no gate)", 1,
                 ON_DIFF, set_fail_above, NULL),
    OPT_FLAG("--extra", "--augment_trace: also achieved_tflops, achieved_gbps, flops_pct, bw_pct, kernel_category",
             ON_AUGMENT, extra),
    OPT_CALLBACK("--plot", "roofline|breakdown|timeline|ranks FILE.svg", "write a roofline chart, a GPU-time breakdown, "
                 "(--analysis) a timeline of the streams and idle causes or (--ranks) the ranks' spans, late-arrival "
                 "excess and collective skew as SVG (repeatable)", 2,
                 ON_TABLE | ON_STEPS | ON_DIFF | ON_RANKS, set_plot, NULL),
    OPT_STRING("--summary", "OUT.json", "--analysis: also write what --ranks needs of this trace (a small JSON rank summary, "
               "docs/ranks.md: Rank summaries); --ranks reads it in place of the trace; - prints it instead of the tables",
               ON_TABLE | ON_STEPS, summary),
    OPT_STRING("--report", "FILE.html", "write a self-contained HTML report (tables and charts)", ON_TABLE | ON_STEPS | ON_DIFF | ON_RANKS, report),
    OPT_CALLBACK("-j", "N", "parser threads (default: one per CPU this process may use; for .json.gz one of them inflates); "
                 "output is the same for every N", 1, ON_LOADERS, set_jobs, NULL),
    OPT_FLAG_OFF("--quiet", "no progress bar on stderr", ON_LOADERS, load.progress),
    OPT_FLAG("--strict", "a trace cut inside its last event is an error (exit 1), not a warning", ON_LOADERS, load.strict),
    OPT_FLAG("--timings", "--analysis: one line per phase on stderr (read, inflate, scan, model build, link and sort, "
             "attribution, aggregation, render) with its wall time and threads; also PROFANA_TIMINGS=1", ON_ANALYSIS,
             timings),
    OPT_EXIT("--help", "print this help", show_help),
    OPT_EXIT("--version", "print the version", show_version),
    OPT_EXIT("--man", "print this help as a man page (roff; make install installs it)", show_man),
    OPT_EXIT("--list-ops", NULL, show_ops), /* hidden (no help): the op table, for the tests */
};
const size_t pf_cli_n_options = sizeof pf_cli_options / sizeof pf_cli_options[0];
_Static_assert(sizeof pf_cli_options / sizeof pf_cli_options[0] <= MAX_OPTIONS, "parsed.given has a slot per option row");

/* ---- the actions of the rows that call back ---- */

static int set_format(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)o, (void)v2;
    return pf_format_parse(v, &cli->format) ? pf_cli_usage_error("--format wants text, csv, json, ndjson or md, not '%s'", v) : 0;
}

static int set_device(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)o, (void)v2;
    cli->device_name = v; /* resolved in resolve_devices: a device-file entry may be named */
    return 0;
}

static int set_clock(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)v2;
    char *end;
    double x = strtod(v, &end);
    if (!*v || *end || !(x >= 1) || x > 100000)
        return pf_cli_usage_error("%s wants a clock in MHz from 1 to 100000, not '%s'", o->name, v);
    cli->clock_mhz = x;
    return 0;
}

static int set_step(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)o, (void)v2;
    if (strcmp(v, "all") == 0) {
        cli->an.step = PF_STEP_ALL;
        return 0;
    }
    char *end;
    long long n = strtoll(v, &end, 10);
    if (!*v || *end || n < 0)
        return pf_cli_usage_error("--step wants all or a step number N (of ProfilerStep#N), not '%s'", v);
    cli->an.step = n;
    return 0;
}

static int set_fail_above(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)v2;
    char *end;
    double x = strtod(v, &end);
    if (!*v || *end || !(x >= 0) || x > 1e9)
        return pf_cli_usage_error("%s wants a percentage, 0 or more, not '%s'", o->name, v);
    cli->fail_above = x;
    return 0;
}

static int set_jobs(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)o, (void)v2;
    char *end;
    long n = strtol(v, &end, 10);
    if (!*v || *end || n < 1 || n > 1024)
        return pf_cli_usage_error("-j wants a number of threads from 1 to 1024, not '%s'", v);
    cli->load.jobs = (int)n;
    return 0;
}

/* --tf32 sets an.tf32 to 1 (ACT_SET), which is PF_TF32_ALL; --no-tf32 sets PF_TF32_NONE. The
 * later of the two wins. */
_Static_assert(PF_TF32_ALL == 1, "--tf32 is a flag that sets an.tf32 to 1");

static int set_no_tf32(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)o, (void)v, (void)v2;
    cli->an.tf32 = PF_TF32_NONE;
    return 0;
}

static int set_plot(pf_cli *cli, const option *o, const char *kind, const char *file)
{
    (void)o;
    if (!*file)
        return pf_cli_usage_error("--plot %s wants a file name", kind);
    if (strcmp(kind, "roofline") == 0)
        cli->plot_roofline = file;
    else if (strcmp(kind, "breakdown") == 0)
        cli->plot_breakdown = file;
    else if (strcmp(kind, "timeline") == 0)
        cli->plot_timeline = file;
    else if (strcmp(kind, "ranks") == 0)
        cli->plot_ranks = file;
    else
        return pf_cli_usage_error("--plot wants roofline, breakdown, timeline or ranks, then a file, not '%s'", kind);
    return 0;
}

static int show_help(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)cli, (void)o, (void)v, (void)v2;
    pf_cli_print_help(stdout);
    return pf_cli_stdout_status(); /* a full disk fails as any output does (exit 1) */
}

static int show_man(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)cli, (void)o, (void)v, (void)v2;
    pf_cli_print_man(stdout);
    return pf_cli_stdout_status(); /* a full disk fails as any output does (exit 1) */
}

/* --list-ops: one line per row of the op table (src/catalog/op_family.c), then its prefix
 * rows: the op (or prefix), its family, and "formula" or "-" (the generic estimate). The
 * tests read the op list from here instead of keeping a copy. */
static int show_ops(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)cli, (void)o, (void)v, (void)v2;
    int n = 0, np = 0;
    const pf_op_entry *rows = pf_op_family_table(&n), *pre = pf_op_family_prefixes(&np);
    for (int i = 0; i < n + np; i++) {
        const pf_op_entry *e = i < n ? &rows[i] : &pre[i - n];
        printf("%s\t%s\t%s\n", e->op, pf_op_family_name(e->family), e->formula != PF_OPF_NONE ? "formula" : "-");
    }
    return pf_cli_stdout_status(); /* a full disk fails as any output does (exit 1) */
}

static int show_version(pf_cli *cli, const option *o, const char *v, const char *v2)
{
    (void)cli, (void)o, (void)v, (void)v2;
    printf("profana %s\n", PROFANA_VERSION);
    return pf_cli_stdout_status(); /* a full disk fails as any output does (exit 1) */
}

/* ---- lookups into the tables (beside them: parsing and checking both look names up) ---- */

/* Whether the n characters at s spell name, '-' and '_' alike after the leading "--": the old
 * tool's --name_limit and --augment_trace beside --by-category, so both spellings of every
 * option are one row of the table. */
static int same_name(const char *s, size_t n, const char *name)
{
    if (strlen(name) != n)
        return 0;
    for (size_t k = 0; k < n; k++) {
        int dash = (s[k] == '-' || s[k] == '_') && (name[k] == '-' || name[k] == '_');
        if (s[k] != name[k] && !(k >= 2 && dash))
            return 0;
    }
    return 1;
}

/* cli_table.h */
const command *pf_cli_find_command(const char *s)
{
    for (size_t i = 0; i < pf_cli_n_commands; i++)
        if (same_name(s, strlen(s), pf_cli_commands[i].name))
            return &pf_cli_commands[i];
    return NULL;
}

/* cli_table.h */
const option *pf_cli_find_option(const char *s, size_t n)
{
    assert(s);
    for (size_t i = 0; i < pf_cli_n_options; i++)
        if (same_name(s, n, pf_cli_options[i].name))
            return &pf_cli_options[i];
    return NULL;
}
