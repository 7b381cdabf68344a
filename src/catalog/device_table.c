/* device_table.c - the built-in GPU datasheet table: one row per product, its fields named (dense peaks, bandwidth, memory, clocks, sources). */
#include "device_table.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* A row's peaks by dtype: .peak_tflops = {FP64 = 67, FP32 = 67, ...}. */
#define FP64 [PF_DT_FP64]
#define FP32 [PF_DT_FP32]
#define TF32 [PF_DT_TF32]
#define BF16 [PF_DT_BF16]
#define FP16 [PF_DT_FP16]
#define FP8 [PF_DT_FP8]
#define INT8 [PF_DT_INT8]
#define FP6 [PF_DT_FP6]
#define FP4 [PF_DT_FP4]

/* One row per product, its fields named (pf_device_info in devices.h says what each holds); a
 * field left out is 0 or NULL: a peak of 0 has no such path or no figure, a mem_gib range of 0
 * matches any memory, a cache_mb of 0 is not known. The peaks are dense TFLOP/s (TOP/s for
 * INT8) by dtype; derived marks the figures computed rather than printed by the vendor
 * (PF_DEV_DERIVED); note is a caveat --list-devices prints as a footnote. All figures from
 * the sources listed in docs/devices.md; its source keys are named in each source string.
 * FP64 is the matrix/tensor rate where the part has one, since fp64 matmuls run on it.
 * Matching reads the rows in order (an MI250 before the MI250X that shares its alias). */
const pf_device_info pf_device_table[] = {
    /* NVIDIA Hopper: tensor peaks are computed at a lower clock than the max SM clock (docs/devices.md: Clock scaling). */
    {.key = "H100 SXM", .aliases = {"NVIDIA H100 80GB HBM3"},
     .num_sms = 132, .cc = 90, .mem_gib_min = 78.5, .mem_gib_max = 80.5,
     .peak_tflops = {FP64 = 67, FP32 = 67, TF32 = 494.5, BF16 = 989.5, FP16 = 989.5, FP8 = 1979, INT8 = 1979},
     .peak_gbps = 3350, .mem_gb = 80, .boost_mhz = 1980, .tensor_mhz = 1830, .cache_mb = 50,
     .source = "docs/devices.md N1 N2 E1 E2: nvidia.com/en-us/data-center/h100 (dense = sparse/2; fp64 "
               "tensor, vector 34); L2 50 MB: NVIDIA H100 Tensor Core GPU Architecture whitepaper"},
    {.key = "H100 PCIe", .aliases = {"NVIDIA H100 PCIe"},
     .num_sms = 114, .cc = 90, .mem_gib_min = 78.5, .mem_gib_max = 80.5,
     .peak_tflops = {FP64 = 51, FP32 = 51, TF32 = 378, BF16 = 756.5, FP16 = 756.5, FP8 = 1513, INT8 = 1513},
     .peak_gbps = 2000, .mem_gb = 80, .boost_mhz = 1755, .tensor_mhz = 1620, .cache_mb = 50,
     .source = "docs/devices.md N1 N2 N3 E5: nvidia.com/en-us/data-center/h100 (dense = sparse/2; fp64 "
               "tensor, vector 26); L2 50 MB: NVIDIA H100 Tensor Core GPU Architecture whitepaper"},
    {.key = "H100 NVL", .aliases = {"NVIDIA H100 NVL"},
     .num_sms = 132, .cc = 90, .mem_gib_min = 91.5, .mem_gib_max = 94.0,
     .peak_tflops = {FP64 = 60, FP32 = 60, TF32 = 417.5, BF16 = 835.5, FP16 = 835.5, FP8 = 1670.5,
                     INT8 = 1670.5},
     .peak_gbps = 3900, .mem_gb = 94, .boost_mhz = 1785, .tensor_mhz = 1545, .cache_mb = 50,
     .source = "docs/devices.md N1 E2 E6: nvidia.com/en-us/data-center/h100 (dense = sparse/2; fp64 tensor, "
               "vector 30; tensor clock derived); L2 50 MB: NVIDIA H100 Tensor Core GPU Architecture "
               "whitepaper"},
    {.key = "H100 (Meta)", .aliases = {"NVIDIA H100"},
     .num_sms = 132, .cc = 90, .mem_gib_min = 93.0, .mem_gib_max = 97.0,
     .peak_tflops = {FP64 = 67, FP32 = 67, TF32 = 494.5, BF16 = 989.5, FP16 = 989.5, FP8 = 1979, INT8 = 1979},
     .peak_gbps = 2400, .mem_gb = 96, .boost_mhz = 1980, .tensor_mhz = 1830, .cache_mb = 50,
     .source = "docs/devices.md E3 E4: github.com/pytorch/ao torchao/testing/training/roofline_utils.py (2.4 "
               "TB/s Meta variant; compute and clocks assumed as H100 SXM); L2 50 MB: NVIDIA H100 Tensor "
               "Core GPU Architecture whitepaper"},
    {.key = "H200", .aliases = {"NVIDIA H200"},
     .num_sms = 132, .cc = 90, .mem_gib_min = 138.0, .mem_gib_max = 142.0,
     .peak_tflops = {FP64 = 67, FP32 = 67, TF32 = 494.5, BF16 = 989.5, FP16 = 989.5, FP8 = 1979, INT8 = 1979},
     .peak_gbps = 4800, .mem_gb = 141, .boost_mhz = 1980, .tensor_mhz = 1830, .cache_mb = 60,
     .source = "docs/devices.md N4 N2 E7: nvidia.com/en-us/data-center/h200 (dense = sparse/2; fp64 tensor, "
               "vector 34; boost assumed as H100 SXM); L2 60 MB: docs/devices.md E7, the device's own report "
               "(torch L2_cache_size)"},
    {.key = "H200 NVL", .aliases = {"NVIDIA H200 NVL"},
     .num_sms = 132, .cc = 90,
     .peak_tflops = {FP64 = 60, FP32 = 60, TF32 = 417.5, BF16 = 835.5, FP16 = 835.5, FP8 = 1670.5,
                     INT8 = 1670.5},
     .peak_gbps = 4800, .mem_gb = 141, .boost_mhz = 1785, .tensor_mhz = 1545,
     .source = "docs/devices.md N4: nvidia.com/en-us/data-center/h200 (dense = sparse/2; fp64 tensor, vector "
               "30; SMs and clocks assumed as H100 NVL)"},
    /* Hopper variants of 2026's fleets. */
    {.key = "GH200", .aliases = {"NVIDIA GH200 480GB"},
     .num_sms = 132, .cc = 90, .mem_gib_min = 93.0, .mem_gib_max = 95.5,
     .peak_tflops = {FP64 = 67, FP32 = 67, TF32 = 494.5, BF16 = 989.5, FP16 = 989.5, FP8 = 1979, INT8 = 1979},
     .peak_gbps = 4000, .mem_gb = 96, .boost_mhz = 1980, .tensor_mhz = 1830,
     .source = "NVIDIA GH200 Grace Hopper Superchip datasheet (the H100 SXM GPU: dense = sparse/2; 96 GB "
               "HBM3 at 4 TB/s; clocks assumed as H100 SXM); name, 132 SMs, 96768 MB: "
               "github.com/stas00/ml-engineering pull 60",
     .note = "GH200: compute as H100 SXM (the same GPU) and 4 TB/s for the 96 GB HBM3 version, per NVIDIA's "
             "GH200 datasheet as commonly quoted (not re-read for this table); the 144 GB HBM3e version (4.9 "
             "TB/s) has no row"},
    {.key = "H20", .aliases = {"NVIDIA H20"},
     .cc = 90,
     .peak_tflops = {FP32 = 44, TF32 = 74, BF16 = 148, FP16 = 148, FP8 = 296},
     .peak_gbps = 4000, .mem_gb = 96,
     .source = "docs/devices.md S6: willitrunai.com (H20 96GB) and a second secondary page",
     .note = "H20: secondary sources only; NVIDIA publishes no datasheet"},
    {.key = "H800", .aliases = {"NVIDIA H800"},
     .num_sms = 132, .cc = 90, .mem_gib_min = 78.5, .mem_gib_max = 80.5,
     .peak_tflops = {FP64 = 1, FP32 = 67, TF32 = 494.5, BF16 = 989.5, FP16 = 989.5, FP8 = 1979, INT8 = 1979},
     .peak_gbps = 3350, .mem_gb = 80, .boost_mhz = 1980, .tensor_mhz = 1830,
     .source = "philisun.com technical-analysis/nvidia-h800-vs-h100 (the H100 SXM die; fp64 1 TFLOP/s, "
               "NVLink 400 GB/s; low-precision compute and 3.35 TB/s as H100 SXM)",
     .note = "H800 and H800 PCIe: a secondary source: H100 figures but fp64 (and NVLink)"},
    {.key = "H800 PCIe", .aliases = {"NVIDIA H800 PCIe"},
     .num_sms = 114, .cc = 90, .mem_gib_min = 78.5, .mem_gib_max = 80.5,
     .peak_tflops = {FP32 = 51, TF32 = 378, BF16 = 756.5, FP16 = 756.5, FP8 = 1513, INT8 = 1513},
     .peak_gbps = 2000, .mem_gb = 80, .boost_mhz = 1755, .tensor_mhz = 1620,
     .source = "philisun.com technical-analysis/nvidia-h800-vs-h100 (low-precision compute as H100 PCIe; "
               "fp64 cut, no figure)"},
    /* NVIDIA Blackwell: the current sheets are used where the 2024 ones differ (docs/devices.md: Uncertain values). */
    {.key = "B200", .aliases = {"NVIDIA B200"},
     .num_sms = 148, .cc = 100, .mem_gib_min = 176.0, .mem_gib_max = 181.0,
     .peak_tflops = {FP64 = 37, FP32 = 75, TF32 = 1100, BF16 = 2250, FP16 = 2250, FP8 = 4500, INT8 = 4500,
                     FP6 = 4500, FP4 = 9000},
     .peak_gbps = 7700, .mem_gb = 180, .boost_mhz = 1965, .tensor_mhz = 1856, .cache_mb = 126,
     .source = "docs/devices.md N6 E12 E13: nvdam.widen.net/s/wwnsxrhm2w/blackwell-datasheet-3384703 (dense "
               "= sparse/2; tensor clock derived; fp4 9000, fp6 at the fp8 rate: docs/devices.md S1 S2); L2 "
               "126 MB: docs/devices.md E12, the device's own report (torch L2_cache_size)"},
    {.key = "GB200", .aliases = {"NVIDIA GB200"},
     .cc = 100,
     .peak_tflops = {FP64 = 40, FP32 = 80, TF32 = 1250, BF16 = 2500, FP16 = 2500, FP8 = 5000, INT8 = 5000,
                     FP6 = 5000, FP4 = 10000},
     .peak_gbps = 8000, .mem_gb = 186, .boost_mhz = 2062, .tensor_mhz = 2008,
     .source = "docs/devices.md N6 E14: nvdam.widen.net/s/wwnsxrhm2w/blackwell-datasheet-3384703 (NVL72 per "
               "GPU, dense = sparse/2; NVIDIA Exemplar says bf16 2450; SM count unknown; tensor clock "
               "derived; fp4 10000, fp6 at the fp8 rate: docs/devices.md)"},
    /* Blackwell Ultra (docs/devices.md). "GB300" is a name of its own, not "B300" in a longer word:
     * token matching keeps them apart (pytorch/torchtitan#2884). FP64 and INT8 are cut on these
     * parts and no dense figure was found: unknown. SM count and clocks unknown. */
    {.key = "B300", .aliases = {"NVIDIA B300 SXM6 AC", "NVIDIA B300"},
     .peak_tflops = {FP32 = 75, TF32 = 1125, BF16 = 2250, FP16 = 2250, FP8 = 4500, FP6 = 4500, FP4 = 13500},
     .peak_gbps = 7700, .mem_gb = 288,
     .source = "docs/devices.md S3 S2 S5: HGX B300 108 PF dense fp4 / 8 (fibermall.com post 17161); per-GPU "
               "dense table (verda.com GB300 NVL72 architecture); name NVIDIA B300 SXM6 AC: "
               "NVIDIA/cosmos-framework#114",
     .note = "B300: fp4 13,500 is the HGX B300's 108 PF / 8; verda.com gives 14,000: sources differ. "
             "Bandwidth 7,700 GB/s (as B200's current sheet); some sources give 8,000"},
    {.key = "GB300", .aliases = {"NVIDIA GB300"},
     .peak_tflops = {FP32 = 80, TF32 = 1250, BF16 = 2500, FP16 = 2500, FP8 = 5000, FP6 = 5000, FP4 = 15000},
     .peak_gbps = 8000, .mem_gb = 288,
     .source = "docs/devices.md S2 S4: verda.com GB300 NVL72 per-GPU dense table; "
               "PrimeIntellect-ai/prime-rl#3168 (15 PF dense fp4); pytorch/pytorch#196944"},
    /* NVIDIA Ampere data centre: one clock for all dtypes; SXM vs PCIe only by name (docs/devices.md: Telling variants apart). */
    {.key = "A100 SXM 80GB", .aliases = {"NVIDIA A100-SXM4-80GB"},
     .num_sms = 108, .cc = 80, .mem_gib_min = 78.5, .mem_gib_max = 80.5,
     .peak_tflops = {FP64 = 19.5, FP32 = 19.5, TF32 = 156, BF16 = 312, FP16 = 312, INT8 = 624},
     .peak_gbps = 2039, .mem_gb = 80, .boost_mhz = 1410, .tensor_mhz = 1410, .cache_mb = 40,
     .source = "docs/devices.md N5 E2 E8: "
               "nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf "
               "(dense; fp64 tensor, vector 9.7); L2 40 MB: NVIDIA A100 Tensor Core GPU Architecture "
               "whitepaper"},
    {.key = "A100 SXM 40GB", .aliases = {"NVIDIA A100-SXM4-40GB"},
     .num_sms = 108, .cc = 80, .mem_gib_min = 38.5, .mem_gib_max = 40.5,
     .peak_tflops = {FP64 = 19.5, FP32 = 19.5, TF32 = 156, BF16 = 312, FP16 = 312, INT8 = 624},
     .peak_gbps = 1555, .mem_gb = 40, .boost_mhz = 1410, .tensor_mhz = 1410, .cache_mb = 40,
     .source = "docs/devices.md N5 E9: "
               "nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf "
               "(dense; fp64 tensor, vector 9.7); L2 40 MB: NVIDIA A100 Tensor Core GPU Architecture "
               "whitepaper"},
    {.key = "A100 PCIe 80GB", .aliases = {"NVIDIA A100 80GB PCIe"},
     .num_sms = 108, .cc = 80, .mem_gib_min = 78.5, .mem_gib_max = 80.5,
     .peak_tflops = {FP64 = 19.5, FP32 = 19.5, TF32 = 156, BF16 = 312, FP16 = 312, INT8 = 624},
     .peak_gbps = 1935, .mem_gb = 80, .boost_mhz = 1410, .tensor_mhz = 1410, .cache_mb = 40,
     .source = "docs/devices.md N5 E10: "
               "nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf "
               "(dense; fp64 tensor, vector 9.7); L2 40 MB: NVIDIA A100 Tensor Core GPU Architecture "
               "whitepaper"},
    {.key = "A100 PCIe 40GB", .aliases = {"NVIDIA A100-PCIE-40GB"},
     .num_sms = 108, .cc = 80, .mem_gib_min = 38.5, .mem_gib_max = 40.5,
     .peak_tflops = {FP64 = 19.5, FP32 = 19.5, TF32 = 156, BF16 = 312, FP16 = 312, INT8 = 624},
     .peak_gbps = 1555, .mem_gb = 40, .boost_mhz = 1410, .tensor_mhz = 1410, .cache_mb = 40,
     .source = "docs/devices.md N5 E11: "
               "nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf "
               "(dense; fp64 tensor, vector 9.7); L2 40 MB: NVIDIA A100 Tensor Core GPU Architecture "
               "whitepaper"},
    /* GA10x, Ada, Volta, Turing have no FP64 tensor path: FP64 is the derived vector rate. */
    {.key = "A10", .aliases = {"NVIDIA A10"},
     .num_sms = 72, .cc = 86, .mem_gib_min = 21.0, .mem_gib_max = 23.0,
     .peak_tflops = {FP64 = 0.98, FP32 = 31.2, TF32 = 62.5, BF16 = 125, FP16 = 125, INT8 = 250},
     .peak_gbps = 600, .mem_gb = 24, .boost_mhz = 1695, .tensor_mhz = 1695,
     .derived = PF_DEV_DERIVED(PF_DT_FP64),
     .source = "docs/devices.md N9 E16: "
               "nvidia.com/content/dam/en-zz/Solutions/Data-Center/a10/pdf/a10-datasheet.pdf (dense; fp64 "
               "vector derived)"},
    {.key = "A10G", .aliases = {"NVIDIA A10G"},
     .num_sms = 80, .cc = 86, .mem_gib_min = 21.0, .mem_gib_max = 23.0,
     .peak_tflops = {FP64 = 1.1, FP32 = 35, TF32 = 35, BF16 = 70, FP16 = 70, INT8 = 140},
     .peak_gbps = 600, .mem_gb = 24, .boost_mhz = 1710, .tensor_mhz = 1710,
     .derived = PF_DEV_DERIVED(PF_DT_FP64) | PF_DEV_DERIVED(PF_DT_INT8),
     .source = "docs/devices.md N10 E17: "
               "d1.awsstatic.com/product-marketing/ec2/NVIDIA_AWS_A10G_DataSheet_FINAL_02_17_2022.pdf "
               "(dense; int8, fp64 and clock derived)"},
    {.key = "L4", .aliases = {"NVIDIA L4"},
     .num_sms = 58, .cc = 89, .mem_gib_min = 21.0, .mem_gib_max = 23.0,
     .peak_tflops = {FP64 = 0.47, FP32 = 30.3, TF32 = 60, BF16 = 121, FP16 = 121, FP8 = 242.5, INT8 = 242.5},
     .peak_gbps = 300, .mem_gb = 24, .boost_mhz = 2040, .tensor_mhz = 2040,
     .derived = PF_DEV_DERIVED(PF_DT_FP64),
     .source = "docs/devices.md N7 E2 E15: resources.nvidia.com/en-us-l4/l4-datasheet (dense = sparse/2; "
               "fp64 vector derived)"},
    {.key = "L40S", .aliases = {"NVIDIA L40S"},
     .num_sms = 142, .cc = 89, .mem_gib_min = 43.5, .mem_gib_max = 45.5,
     .peak_tflops = {FP64 = 1.43, FP32 = 91.6, TF32 = 183, BF16 = 362.05, FP16 = 362.05, FP8 = 733, INT8 = 733},
     .peak_gbps = 864, .mem_gb = 48, .boost_mhz = 2520, .tensor_mhz = 2490,
     .derived = PF_DEV_DERIVED(PF_DT_FP64),
     .source = "docs/devices.md N8 E2: resources.nvidia.com/en-us-l40s/l40s-datasheet-28413 (dense; fp64 "
               "vector derived)"},
    {.key = "RTX 4090", .aliases = {"NVIDIA GeForce RTX 4090"},
     .num_sms = 128, .cc = 89, .mem_gib_min = 23.0, .mem_gib_max = 24.5,
     .peak_tflops = {FP64 = 1.29, FP32 = 82.6, TF32 = 82.6, BF16 = 165.2, FP16 = 165.2, FP8 = 330.3,
                     INT8 = 660.6},
     .peak_gbps = 1008, .mem_gb = 24, .boost_mhz = 2520, .tensor_mhz = 2520,
     .derived = PF_DEV_DERIVED(PF_DT_FP64),
     .source = "docs/devices.md N13 E2: "
               "images.nvidia.com/aem-dam/Solutions/geforce/ada/nvidia-ada-gpu-architecture.pdf (dense, fp32 "
               "accumulate; fp64 vector derived)"},
    {.key = "RTX 6000 Ada", .aliases = {"NVIDIA RTX 6000 Ada Generation"},
     .num_sms = 142, .cc = 89, .mem_gib_min = 46.5, .mem_gib_max = 48.5,
     .peak_tflops = {FP64 = 1.42, FP32 = 91.1, TF32 = 182.1, BF16 = 364.2, FP16 = 364.2, FP8 = 728.5,
                     INT8 = 728.5},
     .peak_gbps = 960, .mem_gb = 48, .boost_mhz = 2505, .tensor_mhz = 2505,
     .derived = PF_DEV_DERIVED(PF_DT_FP64) | PF_DEV_DERIVED(PF_DT_TF32) | PF_DEV_DERIVED(PF_DT_BF16) |
                PF_DEV_DERIVED(PF_DT_FP16) | PF_DEV_DERIVED(PF_DT_FP8) | PF_DEV_DERIVED(PF_DT_INT8),
     .source = "docs/devices.md N14 E2: "
               "grafikkarten.com/de/news/nvidia-rtx-6000-grafikkarte-der-ada-generation (tensor peaks and "
               "fp64 derived: 142 SMs x 2505 MHz)"},
    /* Blackwell GB202 (sm_120): the vendors print sparse FP4 "AI TOPS" and FP32; the tensor peaks
     * are derived. The three RTX PRO 6000 editions share 188 SMs and 96 GB; the Max-Q's 300 W
     * peaks were not found, so it has its own row with none (a Max-Q is no Server Edition). */
    {.key = "RTX PRO 6000 Server", .aliases = {"NVIDIA RTX PRO 6000 Blackwell Server Edition"},
     .num_sms = 188, .cc = 120,
     .peak_tflops = {FP32 = 125, BF16 = 500, FP16 = 500, FP8 = 1000, FP6 = 1000, FP4 = 2000},
     .peak_gbps = 1792, .mem_gb = 96,
     .derived = PF_DEV_DERIVED(PF_DT_BF16) | PF_DEV_DERIVED(PF_DT_FP16) | PF_DEV_DERIVED(PF_DT_FP8) |
                PF_DEV_DERIVED(PF_DT_FP6) | PF_DEV_DERIVED(PF_DT_FP4),
     .source = "docs/devices.md S7: 4000 sparse fp4 AI TOPS, 125 TFLOP/s fp32, 512-bit x 28 Gbps = 1792 GB/s "
               "(topcpu.net GTC 2025 report; 188 SMs); tensor peaks derived: fp4 = 4000 / 2, fp8 = fp6 = fp4 "
               "/ 2, bf16 = fp16 = fp8 / 2"},
    {.key = "RTX PRO 6000 Workstation", .aliases = {"NVIDIA RTX PRO 6000 Blackwell Workstation Edition"},
     .num_sms = 188, .cc = 120,
     .peak_tflops = {FP32 = 125, BF16 = 500, FP16 = 500, FP8 = 1000, FP6 = 1000, FP4 = 2000},
     .peak_gbps = 1792, .mem_gb = 96,
     .derived = PF_DEV_DERIVED(PF_DT_BF16) | PF_DEV_DERIVED(PF_DT_FP16) | PF_DEV_DERIVED(PF_DT_FP8) |
                PF_DEV_DERIVED(PF_DT_FP6) | PF_DEV_DERIVED(PF_DT_FP4),
     .source = "docs/devices.md S7 (as the Server Edition: the editions share the core specifications, "
               "topcpu.net GTC 2025 report); tensor peaks derived as there"},
    {.key = "RTX PRO 6000 Max-Q", .aliases = {"NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition"},
     .num_sms = 188, .cc = 120,
     .peak_gbps = 1792, .mem_gb = 96,
     .source = "topcpu.net GTC 2025 report (188 SMs, 96 GB at 1792 GB/s as the other editions); "
               "blog.us.fixstars.com (a 300 W part)",
     .note = "RTX PRO 6000 Max-Q: its compute peaks were not found, so FLOPS % is unknown"},
    {.key = "RTX 5090", .aliases = {"NVIDIA GeForce RTX 5090"},
     .num_sms = 170, .cc = 120, .mem_gib_min = 30.5, .mem_gib_max = 32.0,
     .peak_tflops = {FP32 = 104.8, TF32 = 104.8, BF16 = 209.5, FP16 = 209.5, FP8 = 419.0, FP6 = 419.0,
                     FP4 = 1676},
     .peak_gbps = 1792, .mem_gb = 32, .boost_mhz = 2407, .tensor_mhz = 2407,
     .derived = PF_DEV_DERIVED(PF_DT_TF32) | PF_DEV_DERIVED(PF_DT_BF16) | PF_DEV_DERIVED(PF_DT_FP16) |
                PF_DEV_DERIVED(PF_DT_FP8) | PF_DEV_DERIVED(PF_DT_FP6) | PF_DEV_DERIVED(PF_DT_FP4),
     .source = "Linux Format May 2025 (pocketmags.com): 170 SMs, 2407 MHz, 104.8 TFLOP/s fp32, 3352 sparse "
               "fp4, 1792 GB/s; tensor peaks derived: 170 SMs x 1024 fp16 FLOP/clk x 2.407 GHz = 419.0 (as "
               "RTX 4090: 128 x 1024 x 2.52 = 330.3), halved for fp32 accumulate; fp8 = fp6 = 419.0 with "
               "fp32 accumulate; fp4 = 3352 / 2; tf32 = fp32"},
    {.key = "V100 SXM2 16GB", .aliases = {"Tesla V100-SXM2-16GB"},
     .num_sms = 80, .cc = 70, .mem_gib_min = 15.0, .mem_gib_max = 16.5,
     .peak_tflops = {FP64 = 7.8, FP32 = 15.7, FP16 = 125},
     .peak_gbps = 900, .mem_gb = 16, .boost_mhz = 1530, .tensor_mhz = 1530,
     .source = "docs/devices.md N11 E18: "
               "images.nvidia.com/content/technologies/volta/pdf/volta-v100-datasheet-update-us-1165301-r5.pdf "
               "(dense; fp64 vector, no tensor fp64)"},
    {.key = "V100 SXM2 32GB", .aliases = {"Tesla V100-SXM2-32GB"},
     .num_sms = 80, .cc = 70, .mem_gib_min = 31.0, .mem_gib_max = 32.5,
     .peak_tflops = {FP64 = 7.8, FP32 = 15.7, FP16 = 125},
     .peak_gbps = 900, .mem_gb = 32, .boost_mhz = 1530, .tensor_mhz = 1530,
     .source = "docs/devices.md N11: "
               "images.nvidia.com/content/technologies/volta/pdf/volta-v100-datasheet-update-us-1165301-r5.pdf "
               "(dense; fp64 vector, no tensor fp64)"},
    {.key = "T4", .aliases = {"Tesla T4"},
     .num_sms = 40, .cc = 75, .mem_gib_min = 14.0, .mem_gib_max = 15.5,
     .peak_tflops = {FP64 = 0.25, FP32 = 8.1, FP16 = 65, INT8 = 130},
     .peak_gbps = 320, .mem_gb = 16, .boost_mhz = 1590, .tensor_mhz = 1590,
     .derived = PF_DEV_DERIVED(PF_DT_FP64),
     .source = "docs/devices.md N12 E19: "
               "nvidia.com/content/dam/en-zz/Solutions/Data-Center/tesla-t4/t4-tensor-core-datasheet-951643.pdf "
               "(dense; fp64 vector derived)"},
    /* AMD CDNA: one clock for all dtypes; a generic ROCm name is resolved by CUs + memory (docs/devices.md: Telling variants apart). */
    {.key = "MI210", .aliases = {"AMD Instinct MI210"},
     .num_sms = 104, .cc = 90, .mem_gib_min = 62.0, .mem_gib_max = 65.0,
     .peak_tflops = {FP64 = 45.3, FP32 = 22.6, BF16 = 181.0, FP16 = 181.0, INT8 = 181.0},
     .peak_gbps = 1638.4, .mem_gb = 64, .boost_mhz = 1700, .tensor_mhz = 1700,
     .source = "docs/devices.md A2 A7 A10: amd.com/system/files/documents/amd-instinct-mi210-brochure.pdf "
               "(dense; fp64 matrix, vector 22.6; fp32 vector, matrix 45.3)"},
    /* One MI250 GCD: 104 CUs, not the MI250X's 110, so the same figures as an MI210. HIP names it
     * by the PCI ID's amdgpu.ids entry, "AMD Instinct MI250X / MI250", shared with the MI250X: the
     * CU count tells them apart. It comes before MI250X so that --device with that name finds it
     * by its only alias. */
    {.key = "MI250", .aliases = {"AMD Instinct MI250X / MI250"},
     .num_sms = 104, .cc = 90, .mem_gib_min = 62.0, .mem_gib_max = 65.0,
     .peak_tflops = {FP64 = 45.3, FP32 = 22.6, BF16 = 181.0, FP16 = 181.0, INT8 = 181.0},
     .peak_gbps = 1638.4, .mem_gb = 64, .boost_mhz = 1700, .tensor_mhz = 1700,
     .source = "docs/devices.md A1 A2 A6 A10: rocm.docs.amd.com/en/latest/conceptual/gpu-arch/mi250.html "
               "(MI250 GCD: 104 CUs, 1.7 GHz, fp64 vector 22.6 per GCD, 1.6 TB/s per GCD; OAM table fp64 "
               "matrix 90.5, fp16/bf16/int8 362.1, halved per GCD = 104 CUs x 1024 FLOP/clk x 1.7 GHz = "
               "181.0)"},
    {.key = "MI250X", .aliases = {"AMD Instinct MI250X", "AMD Instinct MI250X / MI250"},
     .num_sms = 110, .cc = 90, .mem_gib_min = 62.0, .mem_gib_max = 65.0,
     .peak_tflops = {FP64 = 47.9, FP32 = 23.9, BF16 = 191.5, FP16 = 191.5, INT8 = 191.5},
     .peak_gbps = 1638.4, .mem_gb = 64, .boost_mhz = 1700, .tensor_mhz = 1700,
     .source = "docs/devices.md A1 A2 A6 E23: amd.com/en/products/accelerators/instinct/mi200/mi250x.html "
               "(per GCD = half the OAM; fp64 matrix, vector 23.9; fp32 vector, matrix 47.9)"},
    {.key = "MI300A", .aliases = {"AMD Instinct MI300A"},
     .num_sms = 228, .cc = 94,
     .peak_tflops = {FP64 = 122.6, FP32 = 122.6, TF32 = 490.3, BF16 = 980.6, FP16 = 980.6, FP8 = 1961.2,
                     INT8 = 1961.2},
     .peak_gbps = 5300, .mem_gb = 128, .boost_mhz = 2100, .tensor_mhz = 2100, .cache_mb = 256,
     .source = "docs/devices.md A2 A4 E22: "
               "amd.com/content/dam/amd/en/documents/instinct-tech-docs/data-sheets/amd-instinct-mi300a-data-sheet.pdf "
               "(dense; fp64 matrix, vector 61.3; memory unified with the CPU); 256 MB AMD Infinity Cache in "
               "front of HBM: AMD Instinct MI300 data sheets"},
    {.key = "MI300X", .aliases = {"AMD Instinct MI300X", "AMD Instinct MI300X VF", "AMD Instinct MI300X HF"},
     .num_sms = 304, .cc = 94, .mem_gib_min = 185.0, .mem_gib_max = 196.0,
     .peak_tflops = {FP64 = 163.4, FP32 = 163.4, TF32 = 653.7, BF16 = 1307.4, FP16 = 1307.4, FP8 = 2614.9,
                     INT8 = 2614.9},
     .peak_gbps = 5300, .mem_gb = 192, .boost_mhz = 2100, .tensor_mhz = 2100, .cache_mb = 256,
     .source = "docs/devices.md A1 A2 A3 E20 E21: "
               "amd.com/content/dam/amd/en/documents/instinct-tech-docs/data-sheets/amd-instinct-mi300x-data-sheet.pdf "
               "(dense; fp64 matrix, vector 81.7); 256 MB AMD Infinity Cache in front of HBM: AMD Instinct "
               "MI300 data sheets"},
    {.key = "MI325X", .aliases = {"AMD Instinct MI325X"},
     .num_sms = 304, .cc = 94, .mem_gib_min = 245.0, .mem_gib_max = 260.0,
     .peak_tflops = {FP64 = 163.4, FP32 = 163.4, TF32 = 653.7, BF16 = 1307.4, FP16 = 1307.4, FP8 = 2614.9,
                     INT8 = 2614.9},
     .peak_gbps = 6000, .mem_gb = 256, .boost_mhz = 2100, .tensor_mhz = 2100, .cache_mb = 256,
     .source = "docs/devices.md A2 A5 A10: amd.com/en/products/accelerators/instinct/mi300/mi325x.html "
               "(dense; compute as MI300X; fp64 matrix, vector 81.7); 256 MB AMD Infinity Cache in front of "
               "HBM: AMD Instinct MI300 data sheets"},
    /* CDNA4 has no TF32 matrix hardware, hence 0 rather than the FP32 fallback PyTorch lists. */
    {.key = "MI350X", .aliases = {"AMD Instinct MI350X"},
     .num_sms = 256, .cc = 95, .mem_gib_min = 280.0, .mem_gib_max = 290.0,
     .peak_tflops = {FP64 = 72.1, FP32 = 144.2, BF16 = 2306.9, FP16 = 2306.9, FP8 = 4614, INT8 = 4614,
                     FP6 = 9228, FP4 = 9228},
     .peak_gbps = 8000, .mem_gb = 288, .boost_mhz = 2200, .tensor_mhz = 2200,
     .derived = PF_DEV_DERIVED(PF_DT_FP6) | PF_DEV_DERIVED(PF_DT_FP4),
     .source = "docs/devices.md A2 A8 A9 E25: "
               "amd.com/content/dam/amd/en/documents/instinct-tech-docs/product-briefs/amd-instinct-mi350x-gpu-brochure.pdf "
               "(dense; fp64 matrix = vector); fp4 and fp6 derived: twice fp8, fp6 at the fp4 rate (AMD's "
               "Alan Smith: hn.cotyhamilton.com/item/44332221)"},
    {.key = "MI355X", .aliases = {"AMD Instinct MI355X"},
     .num_sms = 256, .cc = 95, .mem_gib_min = 280.0, .mem_gib_max = 290.0,
     .peak_tflops = {FP64 = 78.6, FP32 = 157.3, BF16 = 2516.6, FP16 = 2516.6, FP8 = 5033, INT8 = 5033,
                     FP6 = 10066, FP4 = 10066},
     .peak_gbps = 8000, .mem_gb = 288, .boost_mhz = 2400, .tensor_mhz = 2400,
     .source = "docs/devices.md A2 A8 E24: amd.com/en/products/accelerators/instinct/mi350/mi355x.html "
               "(dense = sparse/2; fp64 matrix = vector; fp4 = fp6 10066: docs/devices.md)"},
    /* Intel PVC: what Kineto records as numSms on XPU is unchecked, so the SM count stays unknown. */
    {.key = "Max 1550", .aliases = {"Intel(R) Data Center GPU Max 1550"},
     .mem_gib_min = 62.0, .mem_gib_max = 65.0,
     .peak_tflops = {FP64 = 26.2, FP32 = 26.2, TF32 = 209.7, BF16 = 419.4, FP16 = 419.4, INT8 = 838.9},
     .peak_gbps = 1638.4, .mem_gb = 64, .boost_mhz = 1600, .tensor_mhz = 1600,
     .derived = PF_DEV_DERIVED(PF_DT_TF32) | PF_DEV_DERIVED(PF_DT_BF16) | PF_DEV_DERIVED(PF_DT_FP16) |
                PF_DEV_DERIVED(PF_DT_INT8),
     .source = "docs/devices.md I1 I2 E28: "
               "ark.intel.com/content/www/us/en/ark/products/232873/intel-data-center-gpu-max-1550.html (per "
               "stack = half the card; fp64 vector, no matrix fp64; XMX peaks derived; torchtitan uses 1300 "
               "MHz)"},
    {.key = "Max 1100", .aliases = {"Intel(R) Data Center GPU Max 1100"},
     .mem_gib_min = 46.5, .mem_gib_max = 48.5,
     .peak_tflops = {FP64 = 22.2, FP32 = 22.2, TF32 = 177.8, BF16 = 355.5, FP16 = 355.5, INT8 = 711.1},
     .peak_gbps = 1228.8, .mem_gb = 48, .boost_mhz = 1550, .tensor_mhz = 1550,
     .derived = PF_DEV_DERIVED(PF_DT_TF32),
     .source = "docs/devices.md I1 I3 E29: "
               "intel.com/content/www/us/en/products/sku/232876/intel-data-center-gpu-max-1100/specifications.html "
               "(fp64 vector, no matrix fp64; tf32 derived)"},
};

const int pf_device_table_len = (int)ARRAY_LEN(pf_device_table);

_Static_assert(ARRAY_LEN(pf_device_table) <= PF_DEVICE_TABLE_CAP, "PF_DEVICE_TABLE_CAP holds every row");
