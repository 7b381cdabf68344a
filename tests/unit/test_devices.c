/* test_devices.c - unit tests for the device table and matching of trace device names to it. */
#include "check.h"
#include "profana/devices.h"

#include <stdint.h>

#define MIB (1024LL * 1024LL)

typedef struct name_case {
    const char *name;
    int num_sms;
    int64_t mem_bytes;
    const char *want_key; /* NULL: no match expected */
} name_case;

/* Memory figures are observed totalGlobalMem values from DEVICES.md where one exists. */
static const name_case name_cases[] = {
    {"NVIDIA H100 80GB HBM3", 132, 85017493504LL, "H100 SXM"},
    {"NVIDIA H100 80GB HBM3", 0, 0, "H100 SXM"},
    {"NVIDIA H100 PCIe", 114, 81008 * MIB, "H100 PCIe"},
    {"NVIDIA H100 NVL", 132, 99861594112LL, "H100 NVL"},
    {"NVIDIA H100", 132, 101997215744LL, "H100 (Meta)"},
    {"NVIDIA H200", 132, 143156 * MIB, "H200"},
    {"NVIDIA H200 NVL", 132, 0, "H200 NVL"},
    {"NVIDIA B200", 148, 182631 * MIB, "B200"},
    {"NVIDIA GB200", 0, 0, "GB200"},
    {"NVIDIA A100-SXM4-80GB", 108, 85100068864LL, "A100 SXM 80GB"},
    {"NVIDIA A100-SXM4-40GB", 108, 42298834944LL, "A100 SXM 40GB"},
    {"NVIDIA A100 80GB PCIe", 108, 81049 * MIB, "A100 PCIe 80GB"},
    {"NVIDIA A100-PCIE-40GB", 108, 0, "A100 PCIe 40GB"},
    {"NVIDIA A10", 72, 0, "A10"},
    {"NVIDIA A10G", 80, 22587 * MIB, "A10G"},
    {"Tesla V100-SXM2-16GB", 80, 0, "V100 SXM2 16GB"},
    {"Tesla V100-SXM2-32GB", 80, 0, "V100 SXM2 32GB"},
    {"Tesla T4", 40, 15104 * MIB, "T4"},
    {"NVIDIA L4", 58, 23570219008LL, "L4"},
    {"NVIDIA L40S", 142, 47803596800LL, "L40S"},
    {"NVIDIA GeForce RTX 4090", 128, 25386352640LL, "RTX 4090"},
    {"NVIDIA RTX 6000 Ada Generation", 142, 51002867712LL, "RTX 6000 Ada"},
    {"AMD Instinct MI300X", 304, 196592 * MIB, "MI300X"},
    {"AMD Instinct MI300X VF", 304, 205571227648LL, "MI300X"},
    {"AMD Instinct MI300X HF", 304, 0, "MI300X"},
    {"AMD Instinct MI250X", 110, 0, "MI250X"},
    {"AMD Instinct MI250X / MI250", 110, 0, "MI250X"},
    {"AMD Instinct MI250X/MI250", 110, 0, "MI250X"},
    {"AMD Instinct MI325X", 304, 0, "MI325X"},
    {"AMD Instinct MI355X", 256, 0, "MI355X"},
    {"AMD Instinct MI350X", 256, 0, "MI350X"},
    {"AMD Instinct MI300A", 228, 0, "MI300A"},
    {"AMD Instinct MI210", 104, 0, "MI210"},
    /* The devices of 2026 (issue 32). "NVIDIA B300 SXM6 AC": NVIDIA/cosmos-framework#114; GB300 is a
     * name of its own, never a B300 (pytorch/torchtitan#2884); GH200 96768 MB, 132 SMs:
     * stas00/ml-engineering pull 60. */
    {"NVIDIA B300 SXM6 AC", 0, 0, "B300"},
    {"NVIDIA B300", 0, 0, "B300"},
    {"NVIDIA GB300", 0, 0, "GB300"},
    {"NVIDIA GB200", 152, 0, "GB200"},
    {"NVIDIA GH200 480GB", 132, 96768 * MIB, "GH200"},
    {"NVIDIA H20", 0, 0, "H20"},
    {"NVIDIA H800", 132, 81559 * MIB - 500 * MIB, "H800"},
    {"NVIDIA H800 PCIe", 114, 81008 * MIB, "H800 PCIe"},
    {"NVIDIA RTX PRO 6000 Blackwell Server Edition", 188, 0, "RTX PRO 6000 Server"},
    {"NVIDIA RTX PRO 6000 Blackwell Workstation Edition", 188, 0, "RTX PRO 6000 Workstation"},
    {"NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", 188, 0, "RTX PRO 6000 Max-Q"},
    {"NVIDIA GeForce RTX 5090", 170, 32607 * MIB, "RTX 5090"},
    /* The NVL parts before their SXM siblings: the longest name wins. */
    {"NVIDIA H200 NVL", 132, 143156 * MIB, "H200 NVL"},
    {"NVIDIA H100 NVL", 132, 0, "H100 NVL"},
    /* Names the table does not hold get nothing, never a sibling's figures. */
    {"NVIDIA GB300 NVL72 Rubin", 0, 0, "GB300"},
    {"NVIDIA B30", 0, 0, NULL},
    {"NVIDIA GeForce RTX 5080", 84, 16 * 1024 * MIB, NULL},
    /* HIP's "MI250X / MI250" (PCI 740C) is either: 110 CUs per MI250X GCD, 104 per MI250 GCD. */
    {"AMD Instinct MI250X / MI250", 104, 64LL * 1024 * MIB - 16 * MIB, "MI250"},
    {"AMD Instinct MI250X / MI250", 0, 0, NULL},
    /* Board names: the product word with the full SM count and memory (DEVICES.md E9: 42298834944 B). */
    {"NVIDIA A100-PG509-200", 108, 42298834944LL, "A100 SXM 40GB"},
    {"NVIDIA A100-PG509-200", 108, 0, NULL},
    {"NVIDIA A100-PG509-200", 98, 42298834944LL, NULL},
    {"NVIDIA A100-PG509-200", 108, 85100068864LL, NULL},
    {"NVIDIA PG509-210", 108, 85100068864LL, NULL},
    {"NVIDIA L40", 142, 47697362944LL, NULL},
    {"Intel(R) Data Center GPU Max 1550", 512, 65520 * MIB, "Max 1550"},
    {"Intel(R) Data Center GPU Max 1100", 448, 49136 * MIB, "Max 1100"},
    /* A MIG slice or compute partition reports fewer SMs and less memory: still the part. */
    {"NVIDIA H100 NVL", 16, 12 * 1024 * MIB, "H100 NVL"},
    {"AMD Instinct MI300X", 38, 24 * 1024 * MIB, "MI300X"},
    /* More SMs than the full part: not that part. */
    {"NVIDIA H100 PCIe", 132, 0, NULL},
    /* Generic ROCm names resolve by CUs + memory, only when one part fits. */
    {"AMD Radeon Graphics", 304, 196592 * MIB, "MI300X"},
    {"AMD Radeon Graphics", 304, 256LL * 1024 * MIB, "MI325X"},
    {"AMD Radeon Graphics", 304, 0, NULL},
    {"", 228, 128LL * 1024 * MIB, "MI300A"},
    {NULL, 110, 64LL * 1024 * MIB - 16 * MIB, "MI250X"},
    {"AMD Radeon Graphics", 104, 64LL * 1024 * MIB - 16 * MIB, "MI210"}, /* or an MI250 GCD: lookup's twin */
    {"AMD Radeon Graphics", 256, 288LL * 1024 * MIB, NULL},
    {"AMD Radeon Graphics", 38, 0, NULL},
    {"AMD Radeon Graphics", 0, 0, NULL},
    {"", 132, 85017493504LL, NULL},
    /* Unknown products. */
    {"NVIDIA GeForce GTX 1080", 20, 0, NULL},
    {"Foo", 0, 0, NULL},
    {"NVIDIA", 0, 0, NULL},
    {"NVIDIA A1000", 0, 0, NULL},
    {"NVIDIA L40", 142, 0, NULL},
};

static void check_name_cases(void)
{
    char label[160];
    for (size_t i = 0; i < sizeof(name_cases) / sizeof(name_cases[0]); i++) {
        const name_case *c = &name_cases[i];
        const pf_device_info *d = pf_devices_match(c->name, c->num_sms, c->mem_bytes);
        snprintf(label, sizeof(label), "match \"%s\" sms=%d mem=%lld", c->name ? c->name : "(null)",
                 c->num_sms, (long long)c->mem_bytes);
        if (c->want_key)
            CHECK_STR(label, d ? d->key : NULL, c->want_key);
        else
            CHECK(label, d == NULL);
    }
}

typedef struct lookup_case {
    pf_device_query q;
    const char *want_key;  /* NULL: no match */
    pf_devmatch_basis want_basis;
    const char *want_twin; /* NULL: none */
    const char *want_label;
} lookup_case;

#define A100_40 42298834944LL
#define GIB64 (64LL * 1024 * MIB - 16 * MIB)

/* Hand values: deviceProperties -> entry, what the match rests on, twin and label. */
static const lookup_case lookup_cases[] = {
    {{"NVIDIA H100 80GB HBM3", 132, 85018279936LL, 90}, "H100 SXM", PF_DEVMATCH_NAME, NULL, "H100 SXM"},
    /* Meta's HGX A100 40GB board (NVIDIA's driver: PCI device 20B0, as A100-SXM4-40GB): SXM and
     * PCIe 40GB fit, with the same datasheet figures (DEVICES.md N5). */
    {{"NVIDIA A100-PG509-200", 108, A100_40, 80}, "A100 SXM 40GB", PF_DEVMATCH_PROPS, "A100 PCIe 40GB",
     "A100 SXM 40GB or A100 PCIe 40GB (by SMs and memory; same figures)"},
    {{"NVIDIA A100-PG509-200", 108, A100_40, 0}, "A100 SXM 40GB", PF_DEVMATCH_PROPS, "A100 PCIe 40GB",
     "A100 SXM 40GB or A100 PCIe 40GB (by SMs and memory; same figures)"},
    /* A cc that is not the A100's 8.0 rules it out. */
    {{"NVIDIA A100-PG509-200", 108, A100_40, 90}, NULL, PF_DEVMATCH_NONE, NULL, "unknown"},
    /* 104 CUs and 64 GiB: an MI210 or an MI250 GCD (not an MI250X GCD: 110 CUs). */
    {{"AMD Radeon Graphics", 104, GIB64, 90}, "MI210", PF_DEVMATCH_GENERIC, "MI250",
     "MI210 or MI250 (generic name; by CUs and memory; same figures)"},
    {{"AMD Radeon Graphics", 104, 0, 0}, "MI210", PF_DEVMATCH_GENERIC, "MI250",
     "MI210 or MI250 (generic name; by CUs; same figures)"},
    {{"AMD Radeon Graphics", 104, GIB64, 94}, NULL, PF_DEVMATCH_NONE, NULL, "unknown"},
    {{"AMD Radeon Graphics", 110, GIB64, 90}, "MI250X", PF_DEVMATCH_GENERIC, NULL,
     "MI250X (generic name; by CUs and memory)"},
    {{"", 304, 196592 * MIB, 94}, "MI300X", PF_DEVMATCH_GENERIC, NULL, "MI300X (generic name; by CUs and memory)"},
    /* MI350X and MI355X share CUs and memory but not figures: none. */
    {{"AMD Radeon Graphics", 256, 288LL * 1024 * MIB, 95}, NULL, PF_DEVMATCH_NONE, NULL, "unknown"},
    {{"AMD Instinct MI250X / MI250", 104, GIB64, 90}, "MI250", PF_DEVMATCH_NAME_PROPS, NULL,
     "MI250 (name shared; by CUs and memory)"},
    {{"AMD Instinct MI250X / MI250", 110, 0, 90}, "MI250X", PF_DEVMATCH_NAME_PROPS, NULL,
     "MI250X (name shared; by CUs)"},
};

/* CHECK_STR where NULL may be wanted too. */
static void check_key(const char *label, const pf_device_info *got, const char *want)
{
    if (want)
        CHECK_STR(label, got ? got->key : NULL, want);
    else
        CHECK(label, got == NULL);
}

static void check_lookup_cases(void)
{
    char label[200], got[160];
    for (size_t i = 0; i < sizeof(lookup_cases) / sizeof(lookup_cases[0]); i++) {
        const lookup_case *c = &lookup_cases[i];
        pf_device_match m = pf_devices_lookup(&c->q);
        snprintf(label, sizeof(label), "lookup \"%s\" sms=%d mem=%lld cc=%d", c->q.name, c->q.num_sms,
                 (long long)c->q.total_mem_bytes, c->q.cc);
        check_key(label, m.info, c->want_key);
        CHECK(label, m.basis == c->want_basis);
        check_key(label, m.twin, c->want_twin);
        CHECK_STR(label, pf_devices_label(&c->q, m.info, got, sizeof got), c->want_label);
    }
}

static void check_labels(void)
{
    char got[160];
    pf_device_query h100 = {"NVIDIA H100 80GB HBM3", 132, 85018279936LL, 90};
    CHECK_STR("label: --device", pf_devices_label(&h100, pf_devices_find("MI300X"), got, sizeof got),
              "MI300X (given by --device)");
    CHECK_STR("label: forced equal to the match", pf_devices_label(&h100, pf_devices_find("H100 SXM"), got, sizeof got),
              "H100 SXM");
    pf_device_query pg509 = {"NVIDIA A100-PG509-200", 108, A100_40, 80};
    CHECK_STR("label: truncated", pf_devices_label(&pg509, pf_devices_find("A100 SXM 40GB"), got, 14),
              "A100 SXM 40GB");
}

/* The MI250 GCD entry by hand from the ROCm MI250 page: 104 CUs x 1024 FLOP/clk x 1.7 GHz = 181.0
 * TFLOP/s bf16 (OAM 362.1 / 2), 104 x 256 x 1.7 GHz = 45.3 fp64 matrix, 104 x 128 x 1.7 = 22.6
 * fp32 vector, 1.6 TB/s per GCD (3276.8 / 2 = 1638.4 GB/s); the same as the MI210's brochure. */
static void check_mi250(void)
{
    const pf_device_info *d = pf_devices_find("MI250");
    CHECK("mi250 found", d != NULL);
    if (!d)
        return;
    CHECK_NEAR("mi250 bf16", d->peak_tflops[PF_DT_BF16], 181.0);
    CHECK_NEAR("mi250 fp64", d->peak_tflops[PF_DT_FP64], 45.3);
    CHECK_NEAR("mi250 fp32", d->peak_tflops[PF_DT_FP32], 22.6);
    CHECK_NEAR("mi250 gbps", d->peak_gbps, 1638.4);
    CHECK("mi250 cus", d->num_sms == 104);
    CHECK("mi250 cc", d->cc == 90);
    CHECK("a100 cc 8.0", pf_devices_find("A100 SXM 40GB")->cc == 80);
    CHECK("mi300x cc 9.4", pf_devices_find("MI300X")->cc == 94);
    CHECK("b200 cc 10.0", pf_devices_find("B200")->cc == 100);
}

static void check_h100_sxm_figures(void)
{
    const pf_device_info *d = pf_devices_match("NVIDIA H100 80GB HBM3", 132, 85017493504LL);
    CHECK("h100 sxm found", d != NULL);
    if (!d)
        return;
    CHECK_NEAR("h100 sxm fp64", d->peak_tflops[PF_DT_FP64], 67);
    CHECK_NEAR("h100 sxm fp32", d->peak_tflops[PF_DT_FP32], 67);
    CHECK_NEAR("h100 sxm tf32", d->peak_tflops[PF_DT_TF32], 494.5);
    CHECK_NEAR("h100 sxm bf16", d->peak_tflops[PF_DT_BF16], 989.5);
    CHECK_NEAR("h100 sxm fp16", d->peak_tflops[PF_DT_FP16], 989.5);
    CHECK_NEAR("h100 sxm fp8", d->peak_tflops[PF_DT_FP8], 1979);
    CHECK_NEAR("h100 sxm int8", d->peak_tflops[PF_DT_INT8], 1979);
    CHECK_NEAR("h100 sxm gbps", d->peak_gbps, 3350);
    CHECK_NEAR("h100 sxm boost", d->boost_mhz, 1980);
    CHECK_NEAR("h100 sxm tensor clock", d->tensor_mhz, 1830);
    CHECK("h100 sxm sms", d->num_sms == 132);
}

static void check_other_figures(void)
{
    const pf_device_info *meta = pf_devices_find("H100 (Meta)");
    CHECK("meta h100 found", meta != NULL);
    if (meta) {
        CHECK_NEAR("meta h100 gbps", meta->peak_gbps, 2400);
        CHECK_NEAR("meta h100 bf16 as sxm", meta->peak_tflops[PF_DT_BF16], 989.5);
    }
    const pf_device_info *mi355 = pf_devices_find("mi355x");
    CHECK("mi355x tf32 is 0", mi355 && mi355->peak_tflops[PF_DT_TF32] == 0);
    const pf_device_info *v100 = pf_devices_find("V100 SXM2 16GB");
    CHECK("v100 bf16 is 0", v100 && v100->peak_tflops[PF_DT_BF16] == 0);
    const pf_device_info *a100 = pf_devices_find("A100 SXM 80GB");
    CHECK("a100 fp8 is 0", a100 && a100->peak_tflops[PF_DT_FP8] == 0);
    CHECK("a100 int8 624", a100 && a100->peak_tflops[PF_DT_INT8] == 624);
}

static int has_alias(const pf_device_info *d)
{
    return d->aliases[0] != NULL && d->aliases[0][0] != '\0';
}

static int alias_list_terminated(const pf_device_info *d)
{
    size_t n = sizeof(d->aliases) / sizeof(d->aliases[0]);
    for (size_t i = 0; i < n; i++) {
        if (!d->aliases[i])
            return 1;
    }
    return 0;
}

static void check_entry(const pf_device_info *d)
{
    char label[160];
    const char *key = d->key ? d->key : "(null)";
#define ENTRY_CHECK(what, cond)                                   \
    do {                                                          \
        snprintf(label, sizeof(label), "table %s: %s", key, what); \
        CHECK(label, cond);                                       \
    } while (0)
    ENTRY_CHECK("key", d->key && d->key[0]);
    ENTRY_CHECK("alias", has_alias(d));
    ENTRY_CHECK("aliases NULL-terminated", alias_list_terminated(d));
    /* an entry without compute peaks says why in a footnote (RTX PRO 6000 Max-Q) */
    ENTRY_CHECK("bf16 or fp16 peak", d->peak_tflops[PF_DT_BF16] > 0 || d->peak_tflops[PF_DT_FP16] > 0 || d->note);
    ENTRY_CHECK("fp32 peak", d->peak_tflops[PF_DT_FP32] > 0 || d->note);
    ENTRY_CHECK("bandwidth", d->peak_gbps > 0);
    ENTRY_CHECK("memory size", d->mem_gb > 0);
    /* clocks unknown (0, 0: --clock then gives no compute peak) or both known */
    ENTRY_CHECK("clocks", (d->boost_mhz == 0 && d->tensor_mhz == 0) ||
                              (d->boost_mhz > 0 && d->tensor_mhz > 0 && d->tensor_mhz <= d->boost_mhz));
    ENTRY_CHECK("source", d->source && (strstr(d->source, "docs/devices.md") || strstr(d->source, ".com")));
    ENTRY_CHECK("derived only on figures it has", !(d->derived & ~((PF_DEV_DERIVED_BW << 1) - 1)));
    ENTRY_CHECK("no achievable figure in the built-in table", d->achievable_gbps == 0 &&
                                                                    d->achievable_tflops[PF_DT_BF16] == 0);
    ENTRY_CHECK("mem range", d->mem_gib_min <= d->mem_gib_max && d->mem_gib_min >= 0);
    ENTRY_CHECK("no negative peak", d->peak_tflops[PF_DT_FP64] >= 0 && d->peak_tflops[PF_DT_TF32] >= 0 &&
                                        d->peak_tflops[PF_DT_FP8] >= 0 && d->peak_tflops[PF_DT_INT8] >= 0);
    ENTRY_CHECK("found by key", pf_devices_find(d->key) == d);
    ENTRY_CHECK("found by first alias", pf_devices_find(d->aliases[0]) == d);
#undef ENTRY_CHECK
}

static void check_table(void)
{
    int count = 0;
    const pf_device_info *table = pf_devices_table(&count);
    CHECK("table non-empty", table != NULL && count >= 30);
    int keys_unique = 1;
    for (int i = 0; i < count; i++) {
        check_entry(&table[i]);
        for (int j = i + 1; j < count; j++)
            keys_unique &= strcmp(table[i].key, table[j].key) != 0;
    }
    CHECK("table keys unique", keys_unique);
}

/* Every entry's own first alias, with its full SM count and mid-range memory, finds that entry. */
static void check_table_self_match(void)
{
    int count = 0;
    const pf_device_info *table = pf_devices_table(&count);
    char label[160];
    for (int i = 0; i < count; i++) {
        const pf_device_info *d = &table[i];
        double mid = (d->mem_gib_min + d->mem_gib_max) / 2.0;
        int64_t bytes = (int64_t)(mid * 1073741824.0);
        snprintf(label, sizeof(label), "self match %s", d->key);
        const pf_device_info *got = pf_devices_match(d->aliases[0], d->num_sms, bytes);
        CHECK_STR(label, got ? got->key : NULL, d->key);
    }
}

/* No entry's reported names match another entry: each alias of entry i, with i's full SM
 * count, mid-range memory and cc, finds i and nothing else; by name alone it finds i, or
 * nothing when another entry reports the very same name (MI250X / MI250: the CUs decide). */
static void check_every_pair(void)
{
    int count = 0;
    const pf_device_info *table = pf_devices_table(&count);
    int pairs = 0, bad_props = 0, bad_name = 0;
    for (int i = 0; i < count; i++) {
        const pf_device_info *d = &table[i];
        int64_t bytes = (int64_t)((d->mem_gib_min + d->mem_gib_max) / 2.0 * 1073741824.0);
        for (int a = 0; a < 6 && d->aliases[a]; a++) {
            pf_device_query q = {d->aliases[a], d->num_sms, bytes, d->cc};
            pf_device_query bare = {d->aliases[a], 0, 0, 0};
            const pf_device_info *got = pf_devices_lookup(&q).info, *by_name = pf_devices_lookup(&bare).info;
            int shared = 0;
            for (int j = 0; j < count; j++) {
                if (j == i)
                    continue;
                pairs++;
                for (int b = 0; b < 6 && table[j].aliases[b]; b++)
                    shared |= strcmp(table[j].aliases[b], d->aliases[a]) == 0;
                if (got == &table[j] || by_name == &table[j]) {
                    printf("FAIL pair: %s's name \"%s\" matches %s\n", d->key, d->aliases[a], table[j].key);
                    bad_props += got == &table[j];
                    bad_name += by_name == &table[j];
                }
            }
            if (got != d) {
                printf("FAIL pair: %s's name \"%s\" with its properties finds %s\n", d->key, d->aliases[a],
                       got ? got->key : "nothing");
                bad_props++;
            }
            if (by_name != d && !(by_name == NULL && shared)) {
                printf("FAIL pair: %s's name \"%s\" alone finds %s\n", d->key, d->aliases[a],
                       by_name ? by_name->key : "nothing");
                bad_name++;
            }
        }
    }
    CHECK("every pair: names checked against every other entry", pairs > 40 * 40);
    CHECK("every pair: a name with its properties finds only its own entry", bad_props == 0);
    CHECK("every pair: a name alone finds only its own entry (or none when shared)", bad_name == 0);
}

/* The peak column of a matrix product's operands (pf_dtype_of_operands), written out. */
static void check_operand_dtypes(void)
{
    const char *f8 = "c10::Float8_e4m3fn", *f4 = "c10::Float4_e2m1fn_x2", *e8 = "c10::Float8_e8m0fnu";
    CHECK("operands: fp8 x fp8 is FP8", pf_dtype_of_operands(f8, "c10::Float8_e5m2", "float") == PF_DT_FP8);
    CHECK("operands: NVFP4 (e4m3 scales) is FP4", pf_dtype_of_operands(f4, f4, f8) == PF_DT_FP4);
    CHECK("operands: packed uint8 with e8m0 scales is MXFP4", pf_dtype_of_operands("unsigned char", "unsigned char", e8) == PF_DT_FP4);
    CHECK("operands: uint8 with float scales stays INT8", pf_dtype_of_operands("unsigned char", "unsigned char", "float") == PF_DT_INT8);
    CHECK("operands: int8 (_int_mm) is INT8", pf_dtype_of_operands("signed char", "signed char", NULL) == PF_DT_INT8);
    CHECK("operands: fp8 x fp4 runs at FP8 (the slower)", pf_dtype_of_operands(f8, f4, e8) == PF_DT_FP8);
    CHECK("operands: fp4 x fp8 runs at FP8 (either order)", pf_dtype_of_operands(f4, f8, e8) == PF_DT_FP8);
    CHECK("operands: bf16 x fp8 runs at BF16", pf_dtype_of_operands("c10::BFloat16", f8, NULL) == PF_DT_BF16);
    CHECK("operands: fp32 x bf16 runs at FP32", pf_dtype_of_operands("float", "c10::BFloat16", NULL) == PF_DT_FP32);
    CHECK("operands: one type unknown keeps the other", pf_dtype_of_operands("", "c10::Half", NULL) == PF_DT_FP16);
    CHECK("operands: both unknown", pf_dtype_of_operands("", NULL, NULL) == PF_DT_UNKNOWN);
    CHECK("packing: fp4 x2 is 2", pf_dtype_packing(f4, NULL) == 2 && pf_dtype_packing("Float4_e2m1fn_x2", "") == 2);
    CHECK("packing: MXFP4 uint8 is 2, plain uint8 1", pf_dtype_packing("unsigned char", e8) == 2 &&
                                                           pf_dtype_packing("unsigned char", "float") == 1);
    CHECK("packing: fp8 is 1", pf_dtype_packing(f8, "float") == 1);
    CHECK("cli: fp4, fp6, nvfp4, mxfp4", pf_dtype_parse_cli("fp4") == PF_DT_FP4 && pf_dtype_parse_cli("FP6") == PF_DT_FP6 &&
                                             pf_dtype_parse_cli("nvfp4") == PF_DT_FP4 && pf_dtype_parse_cli("mxfp4") == PF_DT_FP4);
    CHECK_STR("names: fp6", pf_dtype_name(PF_DT_FP6), "fp6");
    CHECK_STR("names: fp4", pf_dtype_name(PF_DT_FP4), "fp4");
}

static void check_find(void)
{
    static const struct {
        const char *query;
        const char *want_key;
    } cases[] = {
        {"h100-sxm", "H100 SXM"},
        {"H100 SXM", "H100 SXM"},
        {"mi300x", "MI300X"},
        {"MI300X", "MI300X"},
        {"NVIDIA H100 80GB HBM3", "H100 SXM"},
        {"h100 (meta)", "H100 (Meta)"},
        {"nvidia h100", "H100 (Meta)"},
        {"h200", "H200"},
        {"h200-nvl", "H200 NVL"},
        {"a10", "A10"},
        {"a10g", "A10G"},
        {"l4", "L4"},
        {"AMD Instinct MI300X VF", "MI300X"},
        {"max-1550", "Max 1550"},
        {"rtx_4090", "RTX 4090"},
    };
    char label[160];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const pf_device_info *d = pf_devices_find(cases[i].query);
        snprintf(label, sizeof(label), "find \"%s\"", cases[i].query);
        CHECK_STR(label, d ? d->key : NULL, cases[i].want_key);
    }
    CHECK("find NULL", pf_devices_find(NULL) == NULL);
    CHECK("find empty", pf_devices_find("") == NULL);
    CHECK("find unknown", pf_devices_find("gtx1080") == NULL);
    CHECK("find is exact, not substring", pf_devices_find("h100") == NULL);
}

int main(void)
{
    check_name_cases();
    check_lookup_cases();
    check_labels();
    check_mi250();
    check_h100_sxm_figures();
    check_other_figures();
    check_table();
    check_table_self_match();
    check_every_pair();
    check_operand_dtypes();
    check_find();
    CHECK_DONE();
}
