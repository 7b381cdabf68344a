/* devices.c - the GPU datasheet table (dense peaks, bandwidth, clocks) and matching of trace device names to it. */
#include "profana/devices.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* cudaDeviceProp.name and hipDeviceProp_t.name are char[256]; nothing real is longer. */
#define NAME_CAP 256

#define GIB 1073741824.0

/* Columns: key, aliases, num_sms, cc (major x 10 + minor), mem_gib_min, mem_gib_max,
 * peaks {FP64, FP32, TF32, BF16, FP16, FP8, INT8, FP6, FP4}, GB/s, GB, boost MHz, tensor MHz, source,
 * last-level cache MB (0 = not in the table; its source is named in the source string), clock, match,
 * derived figures (PF_DEV_DERIVED), footnote, achievable figures (none in the built-in table).
 * All figures from the sources listed in docs/devices.md; its source keys are named in each source string.
 * FP64 is the matrix/tensor rate where the part has one, since fp64 matmuls run on it. */
static const pf_device_info device_table[] = {
    /* NVIDIA Hopper: tensor peaks are computed at a lower clock than the max SM clock (docs/devices.md: Clock scaling). */
    {"H100 SXM", {"NVIDIA H100 80GB HBM3", NULL}, 132, 90, 78.5, 80.5,
     {67, 67, 494.5, 989.5, 989.5, 1979, 1979}, 3350, 80, 1980, 1830,
     "docs/devices.md N1 N2 E1 E2: nvidia.com/en-us/data-center/h100 (dense = sparse/2; fp64 tensor, vector 34); L2 50 MB: NVIDIA H100 Tensor Core GPU Architecture whitepaper", 50, 0, NULL, 0, NULL, {0}, 0},
    {"H100 PCIe", {"NVIDIA H100 PCIe", NULL}, 114, 90, 78.5, 80.5,
     {51, 51, 378, 756.5, 756.5, 1513, 1513}, 2000, 80, 1755, 1620,
     "docs/devices.md N1 N2 N3 E5: nvidia.com/en-us/data-center/h100 (dense = sparse/2; fp64 tensor, vector 26); L2 50 MB: NVIDIA H100 Tensor Core GPU Architecture whitepaper", 50, 0, NULL, 0, NULL, {0}, 0},
    {"H100 NVL", {"NVIDIA H100 NVL", NULL}, 132, 90, 91.5, 94.0,
     {60, 60, 417.5, 835.5, 835.5, 1670.5, 1670.5}, 3900, 94, 1785, 1545,
     "docs/devices.md N1 E2 E6: nvidia.com/en-us/data-center/h100 (dense = sparse/2; fp64 tensor, vector 30; "
     "tensor clock derived); L2 50 MB: NVIDIA H100 Tensor Core GPU Architecture whitepaper", 50, 0, NULL, 0, NULL, {0}, 0},
    {"H100 (Meta)", {"NVIDIA H100", NULL}, 132, 90, 93.0, 97.0,
     {67, 67, 494.5, 989.5, 989.5, 1979, 1979}, 2400, 96, 1980, 1830,
     "docs/devices.md E3 E4: github.com/pytorch/ao torchao/testing/training/roofline_utils.py "
     "(2.4 TB/s Meta variant; compute and clocks assumed as H100 SXM); L2 50 MB: NVIDIA H100 Tensor Core GPU Architecture whitepaper", 50, 0, NULL, 0, NULL, {0}, 0},
    {"H200", {"NVIDIA H200", NULL}, 132, 90, 138.0, 142.0,
     {67, 67, 494.5, 989.5, 989.5, 1979, 1979}, 4800, 141, 1980, 1830,
     "docs/devices.md N4 N2 E7: nvidia.com/en-us/data-center/h200 (dense = sparse/2; fp64 tensor, vector 34; "
     "boost assumed as H100 SXM); L2 60 MB: docs/devices.md E7, the device's own report (torch L2_cache_size)", 60, 0, NULL, 0, NULL, {0}, 0},
    {"H200 NVL", {"NVIDIA H200 NVL", NULL}, 132, 90, 0, 0,
     {60, 60, 417.5, 835.5, 835.5, 1670.5, 1670.5}, 4800, 141, 1785, 1545,
     "docs/devices.md N4: nvidia.com/en-us/data-center/h200 (dense = sparse/2; fp64 tensor, vector 30; "
     "SMs and clocks assumed as H100 NVL)", 0, 0, NULL, 0, NULL, {0}, 0},
    /* Hopper variants of 2026's fleets. */
    {"GH200", {"NVIDIA GH200 480GB", NULL}, 132, 90, 93.0, 95.5,
     {67, 67, 494.5, 989.5, 989.5, 1979, 1979}, 4000, 96, 1980, 1830,
     "NVIDIA GH200 Grace Hopper Superchip datasheet (the H100 SXM GPU: dense = sparse/2; 96 GB HBM3 at 4 TB/s; "
     "clocks assumed as H100 SXM); name, 132 SMs, 96768 MB: github.com/stas00/ml-engineering pull 60", 0, 0, NULL, 0,
     "GH200: compute as H100 SXM (the same GPU) and 4 TB/s for the 96 GB HBM3 version, per NVIDIA's GH200 "
     "datasheet as commonly quoted (not re-read for this table); the 144 GB HBM3e version (4.9 TB/s) has no row",
     {0}, 0},
    {"H20", {"NVIDIA H20", NULL}, 0, 90, 0, 0,
     {0, 44, 74, 148, 148, 296, 0}, 4000, 96, 0, 0,
     "docs/devices.md S6: willitrunai.com (H20 96GB) and a second secondary page", 0, 0, NULL, 0,
     "H20: secondary sources only; NVIDIA publishes no datasheet", {0}, 0},
    {"H800", {"NVIDIA H800", NULL}, 132, 90, 78.5, 80.5,
     {1, 67, 494.5, 989.5, 989.5, 1979, 1979}, 3350, 80, 1980, 1830,
     "philisun.com technical-analysis/nvidia-h800-vs-h100 (the H100 SXM die; fp64 1 TFLOP/s, NVLink 400 GB/s; "
     "low-precision compute and 3.35 TB/s as H100 SXM)", 0, 0, NULL, 0,
     "H800 and H800 PCIe: a secondary source: H100 figures but fp64 (and NVLink)", {0}, 0},
    {"H800 PCIe", {"NVIDIA H800 PCIe", NULL}, 114, 90, 78.5, 80.5,
     {0, 51, 378, 756.5, 756.5, 1513, 1513}, 2000, 80, 1755, 1620,
     "philisun.com technical-analysis/nvidia-h800-vs-h100 (low-precision compute as H100 PCIe; fp64 cut, "
     "no figure)", 0, 0, NULL, 0, NULL, {0}, 0},
    /* NVIDIA Blackwell: the current sheets are used where the 2024 ones differ (docs/devices.md: Uncertain values). */
    {"B200", {"NVIDIA B200", NULL}, 148, 100, 176.0, 181.0,
     {37, 75, 1100, 2250, 2250, 4500, 4500, 4500, 9000}, 7700, 180, 1965, 1856,
     "docs/devices.md N6 E12 E13: nvdam.widen.net/s/wwnsxrhm2w/blackwell-datasheet-3384703 "
     "(dense = sparse/2; tensor clock derived; fp4 9000, fp6 at the fp8 rate: docs/devices.md S1 S2); L2 126 MB: docs/devices.md E12, the device's own report (torch L2_cache_size)", 126, 0, NULL, 0, NULL, {0}, 0},
    {"GB200", {"NVIDIA GB200", NULL}, 0, 100, 0, 0,
     {40, 80, 1250, 2500, 2500, 5000, 5000, 5000, 10000}, 8000, 186, 2062, 2008,
     "docs/devices.md N6 E14: nvdam.widen.net/s/wwnsxrhm2w/blackwell-datasheet-3384703 (NVL72 per GPU, "
     "dense = sparse/2; NVIDIA Exemplar says bf16 2450; SM count unknown; tensor clock derived; fp4 10000, fp6 at the "
     "fp8 rate: docs/devices.md)", 0, 0, NULL, 0, NULL, {0}, 0},
    /* Blackwell Ultra (docs/devices.md). "GB300" is a name of its own, not "B300" in a longer word:
     * token matching keeps them apart (pytorch/torchtitan#2884). FP64 and INT8 are cut on these
     * parts and no dense figure was found: unknown. SM count and clocks unknown. */
    {"B300", {"NVIDIA B300 SXM6 AC", "NVIDIA B300", NULL}, 0, 0, 0, 0,
     {0, 75, 1125, 2250, 2250, 4500, 0, 4500, 13500}, 7700, 288, 0, 0,
     "docs/devices.md S3 S2 S5: HGX B300 108 PF dense fp4 / 8 (fibermall.com post 17161); per-GPU dense table "
     "(verda.com GB300 NVL72 architecture); name NVIDIA B300 SXM6 AC: NVIDIA/cosmos-framework#114", 0, 0, NULL, 0,
     "B300: fp4 13,500 is the HGX B300's 108 PF / 8; verda.com gives 14,000: sources differ. Bandwidth 7,700 GB/s "
     "(as B200's current sheet); some sources give 8,000", {0}, 0},
    {"GB300", {"NVIDIA GB300", NULL}, 0, 0, 0, 0,
     {0, 80, 1250, 2500, 2500, 5000, 0, 5000, 15000}, 8000, 288, 0, 0,
     "docs/devices.md S2 S4: verda.com GB300 NVL72 per-GPU dense table; PrimeIntellect-ai/prime-rl#3168 "
     "(15 PF dense fp4); pytorch/pytorch#196944", 0, 0, NULL, 0, NULL, {0}, 0},
    /* NVIDIA Ampere data centre: one clock for all dtypes; SXM vs PCIe only by name (docs/devices.md: Telling variants apart). */
    {"A100 SXM 80GB", {"NVIDIA A100-SXM4-80GB", NULL}, 108, 80, 78.5, 80.5,
     {19.5, 19.5, 156, 312, 312, 0, 624}, 2039, 80, 1410, 1410,
     "docs/devices.md N5 E2 E8: nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/"
     "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf (dense; fp64 tensor, vector 9.7); L2 40 MB: NVIDIA A100 Tensor Core GPU Architecture whitepaper", 40, 0, NULL, 0, NULL, {0}, 0},
    {"A100 SXM 40GB", {"NVIDIA A100-SXM4-40GB", NULL}, 108, 80, 38.5, 40.5,
     {19.5, 19.5, 156, 312, 312, 0, 624}, 1555, 40, 1410, 1410,
     "docs/devices.md N5 E9: nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/"
     "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf (dense; fp64 tensor, vector 9.7); L2 40 MB: NVIDIA A100 Tensor Core GPU Architecture whitepaper", 40, 0, NULL, 0, NULL, {0}, 0},
    {"A100 PCIe 80GB", {"NVIDIA A100 80GB PCIe", NULL}, 108, 80, 78.5, 80.5,
     {19.5, 19.5, 156, 312, 312, 0, 624}, 1935, 80, 1410, 1410,
     "docs/devices.md N5 E10: nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/"
     "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf (dense; fp64 tensor, vector 9.7); L2 40 MB: NVIDIA A100 Tensor Core GPU Architecture whitepaper", 40, 0, NULL, 0, NULL, {0}, 0},
    {"A100 PCIe 40GB", {"NVIDIA A100-PCIE-40GB", NULL}, 108, 80, 38.5, 40.5,
     {19.5, 19.5, 156, 312, 312, 0, 624}, 1555, 40, 1410, 1410,
     "docs/devices.md N5 E11: nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/"
     "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf (dense; fp64 tensor, vector 9.7); L2 40 MB: NVIDIA A100 Tensor Core GPU Architecture whitepaper", 40, 0, NULL, 0, NULL, {0}, 0},
    /* GA10x, Ada, Volta, Turing have no FP64 tensor path: FP64 is the derived vector rate. */
    {"A10", {"NVIDIA A10", NULL}, 72, 86, 21.0, 23.0,
     {0.98, 31.2, 62.5, 125, 125, 0, 250}, 600, 24, 1695, 1695,
     "docs/devices.md N9 E16: nvidia.com/content/dam/en-zz/Solutions/Data-Center/a10/pdf/a10-datasheet.pdf "
     "(dense; fp64 vector derived)", 0, 0, NULL, PF_DEV_DERIVED(PF_DT_FP64), NULL, {0}, 0},
    {"A10G", {"NVIDIA A10G", NULL}, 80, 86, 21.0, 23.0,
     {1.1, 35, 35, 70, 70, 0, 140}, 600, 24, 1710, 1710,
     "docs/devices.md N10 E17: d1.awsstatic.com/product-marketing/ec2/NVIDIA_AWS_A10G_DataSheet_FINAL_02_17_2022.pdf "
     "(dense; int8, fp64 and clock derived)", 0, 0, NULL, PF_DEV_DERIVED(PF_DT_FP64) | PF_DEV_DERIVED(PF_DT_INT8), NULL, {0}, 0},
    {"L4", {"NVIDIA L4", NULL}, 58, 89, 21.0, 23.0,
     {0.47, 30.3, 60, 121, 121, 242.5, 242.5}, 300, 24, 2040, 2040,
     "docs/devices.md N7 E2 E15: resources.nvidia.com/en-us-l4/l4-datasheet (dense = sparse/2; fp64 vector derived)", 0, 0, NULL, PF_DEV_DERIVED(PF_DT_FP64), NULL, {0}, 0},
    {"L40S", {"NVIDIA L40S", NULL}, 142, 89, 43.5, 45.5,
     {1.43, 91.6, 183, 362.05, 362.05, 733, 733}, 864, 48, 2520, 2490,
     "docs/devices.md N8 E2: resources.nvidia.com/en-us-l40s/l40s-datasheet-28413 (dense; fp64 vector derived)", 0, 0, NULL, PF_DEV_DERIVED(PF_DT_FP64), NULL, {0}, 0},
    {"RTX 4090", {"NVIDIA GeForce RTX 4090", NULL}, 128, 89, 23.0, 24.5,
     {1.29, 82.6, 82.6, 165.2, 165.2, 330.3, 660.6}, 1008, 24, 2520, 2520,
     "docs/devices.md N13 E2: images.nvidia.com/aem-dam/Solutions/geforce/ada/nvidia-ada-gpu-architecture.pdf "
     "(dense, fp32 accumulate; fp64 vector derived)", 0, 0, NULL, PF_DEV_DERIVED(PF_DT_FP64), NULL, {0}, 0},
    {"RTX 6000 Ada", {"NVIDIA RTX 6000 Ada Generation", NULL}, 142, 89, 46.5, 48.5,
     {1.42, 91.1, 182.1, 364.2, 364.2, 728.5, 728.5}, 960, 48, 2505, 2505,
     "docs/devices.md N14 E2: grafikkarten.com/de/news/nvidia-rtx-6000-grafikkarte-der-ada-generation "
     "(tensor peaks and fp64 derived: 142 SMs x 2505 MHz)", 0, 0, NULL, PF_DEV_DERIVED(PF_DT_FP64) | PF_DEV_DERIVED(PF_DT_TF32) | PF_DEV_DERIVED(PF_DT_BF16) | PF_DEV_DERIVED(PF_DT_FP16) | PF_DEV_DERIVED(PF_DT_FP8) | PF_DEV_DERIVED(PF_DT_INT8), NULL, {0}, 0},
    /* Blackwell GB202 (sm_120): the vendors print sparse FP4 "AI TOPS" and FP32; the tensor peaks
     * are derived. The three RTX PRO 6000 editions share 188 SMs and 96 GB; the Max-Q's 300 W
     * peaks were not found, so it has its own row with none (a Max-Q is no Server Edition). */
    {"RTX PRO 6000 Server", {"NVIDIA RTX PRO 6000 Blackwell Server Edition", NULL}, 188, 120, 0, 0,
     {0, 125, 0, 500, 500, 1000, 0, 1000, 2000}, 1792, 96, 0, 0,
     "docs/devices.md S7: 4000 sparse fp4 AI TOPS, 125 TFLOP/s fp32, 512-bit x 28 Gbps = 1792 GB/s "
     "(topcpu.net GTC 2025 report; 188 SMs); tensor peaks derived: fp4 = 4000 / 2, fp8 = fp6 = fp4 / 2, "
     "bf16 = fp16 = fp8 / 2", 0, 0, NULL,
     PF_DEV_DERIVED(PF_DT_BF16) | PF_DEV_DERIVED(PF_DT_FP16) | PF_DEV_DERIVED(PF_DT_FP8) | PF_DEV_DERIVED(PF_DT_FP6) |
         PF_DEV_DERIVED(PF_DT_FP4),
     NULL, {0}, 0},
    {"RTX PRO 6000 Workstation", {"NVIDIA RTX PRO 6000 Blackwell Workstation Edition", NULL}, 188, 120, 0, 0,
     {0, 125, 0, 500, 500, 1000, 0, 1000, 2000}, 1792, 96, 0, 0,
     "docs/devices.md S7 (as the Server Edition: the editions share the core specifications, topcpu.net "
     "GTC 2025 report); tensor peaks derived as there", 0, 0, NULL,
     PF_DEV_DERIVED(PF_DT_BF16) | PF_DEV_DERIVED(PF_DT_FP16) | PF_DEV_DERIVED(PF_DT_FP8) | PF_DEV_DERIVED(PF_DT_FP6) |
         PF_DEV_DERIVED(PF_DT_FP4),
     NULL, {0}, 0},
    {"RTX PRO 6000 Max-Q", {"NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", NULL}, 188, 120, 0, 0,
     {0}, 1792, 96, 0, 0,
     "topcpu.net GTC 2025 report (188 SMs, 96 GB at 1792 GB/s as the other editions); blog.us.fixstars.com "
     "(a 300 W part)", 0, 0, NULL, 0, "RTX PRO 6000 Max-Q: its compute peaks were not found, so FLOPS % is unknown",
     {0}, 0},
    {"RTX 5090", {"NVIDIA GeForce RTX 5090", NULL}, 170, 120, 30.5, 32.0,
     {0, 104.8, 104.8, 209.5, 209.5, 419.0, 0, 419.0, 1676}, 1792, 32, 2407, 2407,
     "Linux Format May 2025 (pocketmags.com): 170 SMs, 2407 MHz, 104.8 TFLOP/s fp32, 3352 sparse fp4, 1792 GB/s; "
     "tensor peaks derived: 170 SMs x 1024 fp16 FLOP/clk x 2.407 GHz = 419.0 (as RTX 4090: 128 x 1024 x 2.52 = "
     "330.3), halved for fp32 accumulate; fp8 = fp6 = 419.0 with fp32 accumulate; fp4 = 3352 / 2; tf32 = fp32",
     0, 0, NULL,
     PF_DEV_DERIVED(PF_DT_TF32) | PF_DEV_DERIVED(PF_DT_BF16) | PF_DEV_DERIVED(PF_DT_FP16) |
         PF_DEV_DERIVED(PF_DT_FP8) | PF_DEV_DERIVED(PF_DT_FP6) | PF_DEV_DERIVED(PF_DT_FP4),
     NULL, {0}, 0},
    {"V100 SXM2 16GB", {"Tesla V100-SXM2-16GB", NULL}, 80, 70, 15.0, 16.5,
     {7.8, 15.7, 0, 0, 125, 0, 0}, 900, 16, 1530, 1530,
     "docs/devices.md N11 E18: images.nvidia.com/content/technologies/volta/pdf/"
     "volta-v100-datasheet-update-us-1165301-r5.pdf (dense; fp64 vector, no tensor fp64)", 0, 0, NULL, 0, NULL, {0}, 0},
    {"V100 SXM2 32GB", {"Tesla V100-SXM2-32GB", NULL}, 80, 70, 31.0, 32.5,
     {7.8, 15.7, 0, 0, 125, 0, 0}, 900, 32, 1530, 1530,
     "docs/devices.md N11: images.nvidia.com/content/technologies/volta/pdf/"
     "volta-v100-datasheet-update-us-1165301-r5.pdf (dense; fp64 vector, no tensor fp64)", 0, 0, NULL, 0, NULL, {0}, 0},
    {"T4", {"Tesla T4", NULL}, 40, 75, 14.0, 15.5,
     {0.25, 8.1, 0, 0, 65, 0, 130}, 320, 16, 1590, 1590,
     "docs/devices.md N12 E19: nvidia.com/content/dam/en-zz/Solutions/Data-Center/tesla-t4/"
     "t4-tensor-core-datasheet-951643.pdf (dense; fp64 vector derived)", 0, 0, NULL, PF_DEV_DERIVED(PF_DT_FP64), NULL, {0}, 0},
    /* AMD CDNA: one clock for all dtypes; a generic ROCm name is resolved by CUs + memory (docs/devices.md: Telling variants apart). */
    {"MI210", {"AMD Instinct MI210", NULL}, 104, 90, 62.0, 65.0,
     {45.3, 22.6, 0, 181.0, 181.0, 0, 181.0}, 1638.4, 64, 1700, 1700,
     "docs/devices.md A2 A7 A10: amd.com/system/files/documents/amd-instinct-mi210-brochure.pdf "
     "(dense; fp64 matrix, vector 22.6; fp32 vector, matrix 45.3)", 0, 0, NULL, 0, NULL, {0}, 0},
    /* One MI250 GCD: 104 CUs, not the MI250X's 110, so the same figures as an MI210. HIP names it
     * by the PCI ID's amdgpu.ids entry, "AMD Instinct MI250X / MI250", shared with the MI250X: the
     * CU count tells them apart. It comes before MI250X so that --device with that name finds it
     * by its only alias. */
    {"MI250", {"AMD Instinct MI250X / MI250", NULL}, 104, 90, 62.0, 65.0,
     {45.3, 22.6, 0, 181.0, 181.0, 0, 181.0}, 1638.4, 64, 1700, 1700,
     "docs/devices.md A1 A2 A6 A10: rocm.docs.amd.com/en/latest/conceptual/gpu-arch/mi250.html (MI250 GCD: 104 CUs, "
     "1.7 GHz, fp64 vector 22.6 per GCD, 1.6 TB/s per GCD; OAM table fp64 matrix 90.5, fp16/bf16/int8 362.1, "
     "halved per GCD = 104 CUs x 1024 FLOP/clk x 1.7 GHz = 181.0)", 0, 0, NULL, 0, NULL, {0}, 0},
    {"MI250X", {"AMD Instinct MI250X", "AMD Instinct MI250X / MI250", NULL}, 110, 90, 62.0, 65.0,
     {47.9, 23.9, 0, 191.5, 191.5, 0, 191.5}, 1638.4, 64, 1700, 1700,
     "docs/devices.md A1 A2 A6 E23: amd.com/en/products/accelerators/instinct/mi200/mi250x.html "
     "(per GCD = half the OAM; fp64 matrix, vector 23.9; fp32 vector, matrix 47.9)", 0, 0, NULL, 0, NULL, {0}, 0},
    {"MI300A", {"AMD Instinct MI300A", NULL}, 228, 94, 0, 0,
     {122.6, 122.6, 490.3, 980.6, 980.6, 1961.2, 1961.2}, 5300, 128, 2100, 2100,
     "docs/devices.md A2 A4 E22: amd.com/content/dam/amd/en/documents/instinct-tech-docs/data-sheets/"
     "amd-instinct-mi300a-data-sheet.pdf (dense; fp64 matrix, vector 61.3; memory unified with the CPU); 256 MB AMD Infinity Cache in front of HBM: AMD Instinct MI300 data sheets", 256, 0, NULL, 0, NULL, {0}, 0},
    {"MI300X", {"AMD Instinct MI300X", "AMD Instinct MI300X VF", "AMD Instinct MI300X HF", NULL}, 304, 94, 185.0, 196.0,
     {163.4, 163.4, 653.7, 1307.4, 1307.4, 2614.9, 2614.9}, 5300, 192, 2100, 2100,
     "docs/devices.md A1 A2 A3 E20 E21: amd.com/content/dam/amd/en/documents/instinct-tech-docs/data-sheets/"
     "amd-instinct-mi300x-data-sheet.pdf (dense; fp64 matrix, vector 81.7); 256 MB AMD Infinity Cache in front of HBM: AMD Instinct MI300 data sheets", 256, 0, NULL, 0, NULL, {0}, 0},
    {"MI325X", {"AMD Instinct MI325X", NULL}, 304, 94, 245.0, 260.0,
     {163.4, 163.4, 653.7, 1307.4, 1307.4, 2614.9, 2614.9}, 6000, 256, 2100, 2100,
     "docs/devices.md A2 A5 A10: amd.com/en/products/accelerators/instinct/mi300/mi325x.html "
     "(dense; compute as MI300X; fp64 matrix, vector 81.7); 256 MB AMD Infinity Cache in front of HBM: AMD Instinct MI300 data sheets", 256, 0, NULL, 0, NULL, {0}, 0},
    /* CDNA4 has no TF32 matrix hardware, hence 0 rather than the FP32 fallback PyTorch lists. */
    {"MI350X", {"AMD Instinct MI350X", NULL}, 256, 95, 280.0, 290.0,
     {72.1, 144.2, 0, 2306.9, 2306.9, 4614, 4614, 9228, 9228}, 8000, 288, 2200, 2200,
     "docs/devices.md A2 A8 A9 E25: amd.com/content/dam/amd/en/documents/instinct-tech-docs/product-briefs/"
     "amd-instinct-mi350x-gpu-brochure.pdf (dense; fp64 matrix = vector); fp4 and fp6 derived: twice fp8, fp6 at the "
     "fp4 rate (AMD's Alan Smith: hn.cotyhamilton.com/item/44332221)", 0, 0, NULL,
     PF_DEV_DERIVED(PF_DT_FP6) | PF_DEV_DERIVED(PF_DT_FP4), NULL, {0}, 0},
    {"MI355X", {"AMD Instinct MI355X", NULL}, 256, 95, 280.0, 290.0,
     {78.6, 157.3, 0, 2516.6, 2516.6, 5033, 5033, 10066, 10066}, 8000, 288, 2400, 2400,
     "docs/devices.md A2 A8 E24: amd.com/en/products/accelerators/instinct/mi350/mi355x.html "
     "(dense = sparse/2; fp64 matrix = vector; fp4 = fp6 10066: docs/devices.md)", 0, 0, NULL, 0, NULL, {0}, 0},
    /* Intel PVC: what Kineto records as numSms on XPU is unchecked, so the SM count stays unknown. */
    {"Max 1550", {"Intel(R) Data Center GPU Max 1550", NULL}, 0, 0, 62.0, 65.0,
     {26.2, 26.2, 209.7, 419.4, 419.4, 0, 838.9}, 1638.4, 64, 1600, 1600,
     "docs/devices.md I1 I2 E28: ark.intel.com/content/www/us/en/ark/products/232873/intel-data-center-gpu-max-1550.html "
     "(per stack = half the card; fp64 vector, no matrix fp64; XMX peaks derived; torchtitan uses 1300 MHz)", 0, 0, NULL, PF_DEV_DERIVED(PF_DT_TF32) | PF_DEV_DERIVED(PF_DT_BF16) | PF_DEV_DERIVED(PF_DT_FP16) | PF_DEV_DERIVED(PF_DT_INT8), NULL, {0}, 0},
    {"Max 1100", {"Intel(R) Data Center GPU Max 1100", NULL}, 0, 0, 46.5, 48.5,
     {22.2, 22.2, 177.8, 355.5, 355.5, 0, 711.1}, 1228.8, 48, 1550, 1550,
     "docs/devices.md I1 I3 E29: intel.com/content/www/us/en/products/sku/232876/intel-data-center-gpu-max-1100/"
     "specifications.html (fp64 vector, no matrix fp64; tf32 derived)", 0, 0, NULL, PF_DEV_DERIVED(PF_DT_TF32), NULL, {0}, 0},
};

#define DEVICE_COUNT ((int)ARRAY_LEN(device_table))

/* Names a runtime reports when it does not know the product: ROCm without a current
 * amdgpu.ids gives "AMD Radeon Graphics" or "" (docs/devices.md E24 E26 E27). Such a name is
 * resolved among the entries whose aliases start with vendor_prefix (normalised). */
typedef struct generic_name {
    const char *name;
    const char *vendor_prefix;
} generic_name;

static const generic_name generic_names[] = {
    {"", "amd"},
    {"AMD Radeon Graphics", "amd"},
};

/* A name reduced to [a-z0-9], remembering where each kept character was in the original,
 * so that a match can be checked against the separators the normalisation dropped. */
typedef struct norm_name {
    char text[NAME_CAP];
    int orig_pos[NAME_CAP];
    int len;
} norm_name;

static int is_alnum_ascii(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static char lower_ascii(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* Returns 0 when the name does not fit: no real device name is that long, and a
 * truncated name could fake an end-of-name match. */
static int normalise(const char *s, norm_name *out)
{
    out->len = 0;
    for (int i = 0; s[i] != '\0'; i++) {
        if (!is_alnum_ascii(s[i]))
            continue;
        if (out->len >= NAME_CAP - 1)
            return 0;
        out->text[out->len] = lower_ascii(s[i]);
        out->orig_pos[out->len] = i;
        out->len++;
    }
    out->text[out->len] = '\0';
    return 1;
}

static int same_normalised(const char *a, const char *b)
{
    norm_name na, nb;
    return normalise(a, &na) && normalise(b, &nb) && strcmp(na.text, nb.text) == 0;
}

/* A separator (or either end) must surround the match in the original name, so that
 * "NVIDIA A10" does not match inside "NVIDIA A100..." nor "NVIDIA L4" inside "NVIDIA L40S". */
static int is_token_match(const norm_name *name, int start, int len)
{
    int end = start + len;
    int starts_ok = start == 0 || name->orig_pos[start] != name->orig_pos[start - 1] + 1;
    int ends_ok = end == name->len || name->orig_pos[end] != name->orig_pos[end - 1] + 1;
    return starts_ok && ends_ok;
}

static int contains_token(const norm_name *name, const char *alias)
{
    int len = (int)strlen(alias);
    if (len == 0 || len > name->len)
        return 0;
    for (int start = 0; start + len <= name->len; start++) {
        if (memcmp(name->text + start, alias, (size_t)len) == 0 && is_token_match(name, start, len))
            return 1;
    }
    return 0;
}

/* Length of the longest alias of e found in name as a whole token; 0 when none is. */
static int longest_alias_match(const pf_device_info *e, const norm_name *name)
{
    int best = 0;
    for (size_t i = 0; i < ARRAY_LEN(e->aliases) && e->aliases[i]; i++) {
        norm_name alias;
        if (normalise(e->aliases[i], &alias) && alias.len > best && contains_token(name, alias.text))
            best = alias.len;
    }
    return best;
}

static int has_mem_range(const pf_device_info *e)
{
    return e->mem_gib_max > 0;
}

static int mem_in_range(const pf_device_info *e, double mem_gib)
{
    return mem_gib >= e->mem_gib_min && mem_gib <= e->mem_gib_max;
}

/* A trace with more SMs than the full part cannot be that part; fewer is a MIG slice
 * or a compute partition of it, so that is kept. */
static int too_many_sms(const pf_device_info *e, int num_sms)
{
    return e->num_sms > 0 && num_sms > e->num_sms;
}

/* Memory only rules a part out where the name alone cannot tell it from a sibling:
 * a MIG slice of a lone part reports less memory and must still match. */
static int excluded(const pf_device_info *e, int num_sms, double mem_gib, int has_sibling)
{
    if (too_many_sms(e, num_sms))
        return 1;
    return has_sibling && mem_gib > 0 && has_mem_range(e) && !mem_in_range(e, mem_gib);
}

static int tie_score(const pf_device_info *e, int num_sms, double mem_gib)
{
    int score = 0;
    if (e->num_sms > 0 && num_sms > 0 && e->num_sms == num_sms)
        score += 2;
    if (mem_gib > 0 && has_mem_range(e) && mem_in_range(e, mem_gib))
        score += 1;
    return score;
}

/* The trace's properties, ready for comparing with entries. */
typedef struct props {
    int num_sms;
    double mem_gib; /* 0 = unknown */
    int cc;         /* 0 = unknown */
} props;

/* Picks among the entries whose longest matching alias has the winning length; info NULL
 * when all are ruled out or two remain equally good. */
static pf_device_match pick_candidate(const int *lens, int best_len, const props *p)
{
    int n_candidates = 0;
    for (int i = 0; i < DEVICE_COUNT; i++)
        n_candidates += lens[i] == best_len;

    pf_device_match m = {NULL, PF_DEVMATCH_NONE, NULL};
    int best_score = -1, tied = 0;
    for (int i = 0; i < DEVICE_COUNT; i++) {
        const pf_device_info *e = &device_table[i];
        if (lens[i] != best_len || excluded(e, p->num_sms, p->mem_gib, n_candidates > 1))
            continue;
        int score = tie_score(e, p->num_sms, p->mem_gib);
        if (score > best_score) {
            m.info = e;
            best_score = score;
            tied = 0;
        } else if (score == best_score) {
            tied = 1;
        }
    }
    if (tied || !m.info)
        return (pf_device_match){NULL, PF_DEVMATCH_NONE, NULL};
    m.basis = n_candidates > 1 ? PF_DEVMATCH_NAME_PROPS : PF_DEVMATCH_NAME;
    return m;
}

/* The longest alias length of each entry found in name; returns the longest overall. */
static int alias_lengths(const norm_name *name, int *lens)
{
    int best_len = 0;
    for (int i = 0; i < DEVICE_COUNT; i++) {
        lens[i] = longest_alias_match(&device_table[i], name);
        if (lens[i] > best_len)
            best_len = lens[i];
    }
    return best_len;
}

static const char *generic_vendor(const char *name)
{
    for (size_t i = 0; i < ARRAY_LEN(generic_names); i++) {
        if (same_normalised(name, generic_names[i].name))
            return generic_names[i].vendor_prefix;
    }
    return NULL;
}

static int from_vendor(const pf_device_info *e, const char *vendor_prefix)
{
    norm_name alias;
    return e->aliases[0] && normalise(e->aliases[0], &alias) &&
           strncmp(alias.text, vendor_prefix, strlen(vendor_prefix)) == 0;
}

/* Two entries whose every figure the analysis uses is the same: whichever of them the
 * device is, its percentages and bounds come out the same. */
static int same_figures(const pf_device_info *a, const pf_device_info *b)
{
    for (int k = 0; k < PF_DT_COUNT; k++)
        if (a->peak_tflops[k] != b->peak_tflops[k])
            return 0;
    return a->peak_gbps == b->peak_gbps && a->boost_mhz == b->boost_mhz && a->tensor_mhz == b->tensor_mhz;
}

/* The entry's product word: the first word of its first alias that holds a digit
 * ("a100" in "NVIDIA A100-SXM4-40GB", "mi300x", "4090"), normalised; 0 when none. */
static int product_word(const pf_device_info *e, char *out, size_t cap)
{
    const char *s = e->aliases[0];
    size_t n = 0;
    int digit = 0;
    for (size_t i = 0;; i++) {
        char c = s[i];
        if (is_alnum_ascii(c)) {
            if (n + 1 < cap)
                out[n++] = lower_ascii(c);
            digit |= c >= '0' && c <= '9';
            continue;
        }
        if (digit && n > 0) {
            out[n] = '\0';
            return 1;
        }
        if (c == '\0')
            return 0;
        n = 0;
    }
}

/* The full part's SM count, a memory range holding the trace's memory and, when both
 * sides know it, the same cc: what a properties match asks of an entry. */
static int fits_properties(const pf_device_info *e, const props *p)
{
    if (e->num_sms != p->num_sms)
        return 0;
    if (p->cc > 0 && e->cc > 0 && p->cc != e->cc)
        return 0;
    return !(p->mem_gib > 0 && has_mem_range(e) && !mem_in_range(e, p->mem_gib));
}

/* Among the entries `want` accepts, the one fitting the properties; several fitting
 * entries give no match unless all have the first one's figures (it is then kept, the
 * next is its twin). */
static pf_device_match match_fitting(int (*want)(const pf_device_info *, const void *), const void *arg,
                                     const props *p, pf_devmatch_basis basis)
{
    pf_device_match m = {NULL, PF_DEVMATCH_NONE, NULL};
    if (p->num_sms <= 0)
        return m;
    for (int i = 0; i < DEVICE_COUNT; i++) {
        const pf_device_info *e = &device_table[i];
        if (!want(e, arg) || !fits_properties(e, p))
            continue;
        if (!m.info) {
            m.info = e;
        } else if (!same_figures(m.info, e)) {
            return (pf_device_match){NULL, PF_DEVMATCH_NONE, NULL};
        } else if (!m.twin) {
            m.twin = e;
        }
    }
    if (m.info)
        m.basis = basis;
    return m;
}

static int want_vendor(const pf_device_info *e, const void *vendor_prefix)
{
    return from_vendor(e, (const char *)vendor_prefix);
}

/* The entry's product word is a whole word of the trace's name. */
static int want_product(const pf_device_info *e, const void *name)
{
    char word[NAME_CAP];
    return product_word(e, word, sizeof word) && contains_token((const norm_name *)name, word);
}

/* A name no alias matches: only its product word (an "A100" in a board name), with the
 * full SM count and a known memory, identifies a part, so that a cut-down sibling such as
 * an L40 never passes for an L40S and a MIG slice is not resolved this way. */
static pf_device_match match_by_product(const norm_name *name, const props *p)
{
    if (p->mem_gib <= 0)
        return (pf_device_match){NULL, PF_DEVMATCH_NONE, NULL};
    return match_fitting(want_product, name, p, PF_DEVMATCH_PROPS);
}

const pf_device_info *pf_devices_table(int *count)
{
    if (count)
        *count = DEVICE_COUNT;
    return device_table;
}

pf_device_match pf_devices_lookup(const pf_device_query *q)
{
    const char *s = q->name ? q->name : "";
    props p = {q->num_sms, q->total_mem_bytes > 0 ? (double)q->total_mem_bytes / GIB : 0.0, q->cc};
    const char *vendor = generic_vendor(s);
    /* Without a product name only the full CU count and memory identify a part; a
     * partition or a pair with different figures (MI350X / MI355X) gives none. */
    if (vendor)
        return match_fitting(want_vendor, vendor, &p, PF_DEVMATCH_GENERIC);
    norm_name norm;
    int lens[ARRAY_LEN(device_table)];
    if (!normalise(s, &norm) || norm.len == 0)
        return (pf_device_match){NULL, PF_DEVMATCH_NONE, NULL};
    int best_len = alias_lengths(&norm, lens);
    return best_len ? pick_candidate(lens, best_len, &p) : match_by_product(&norm, &p);
}

const pf_device_info *pf_devices_match(const char *name, int num_sms, int64_t total_mem_bytes)
{
    pf_device_query q = {name, num_sms, total_mem_bytes, 0};
    return pf_devices_lookup(&q).info;
}

/* "SMs" or, for AMD parts, "CUs". */
static const char *unit_word(const pf_device_info *e)
{
    return from_vendor(e, "amd") ? "CUs" : "SMs";
}

const char *pf_devices_label(const pf_device_query *q, const pf_device_info *info, char *buf, size_t cap)
{
    if (cap == 0)
        return buf;
    if (info && info->match) {
        snprintf(buf, cap, "%s (device file; %s)", info->key,
                 pf_devices_file_matches(info, q->name) ? "its match is in the name" : "given by --device");
        return buf;
    }
    pf_device_match m = pf_devices_lookup(q);
    const char *key = info ? info->key : "unknown";
    const char *mem = q->total_mem_bytes > 0 ? " and memory" : "";
    /* by key: an analysis may hold a copy of the entry (pf_devset, --clock) */
    int given = info && (!m.info || strcmp(m.info->key, info->key) != 0);
    if (!info || given || m.basis == PF_DEVMATCH_NAME) {
        snprintf(buf, cap, "%s%s", key, given ? " (given by --device)" : "");
        return buf;
    }
    char twin[64] = "";
    if (m.twin)
        snprintf(twin, sizeof twin, " or %s", m.twin->key);
    const char *how = m.basis == PF_DEVMATCH_NAME_PROPS ? "name shared; by "
                      : m.basis == PF_DEVMATCH_GENERIC  ? "generic name; by "
                                                     : "by ";
    snprintf(buf, cap, "%s%s (%s%s%s%s)", key, twin, how, unit_word(info), mem, m.twin ? "; same figures" : "");
    return buf;
}

int pf_devices_file_matches(const pf_device_info *e, const char *name)
{
    if (!e || !e->match || !name)
        return 0;
    for (const char *p = name; *p; p++) {
        size_t k = 0;
        while (e->match[k] && tolower((unsigned char)p[k]) == tolower((unsigned char)e->match[k]))
            k++;
        if (!e->match[k])
            return 1;
    }
    return 0;
}

static int normalises_to(const char *s, const char *wanted)
{
    norm_name n;
    return normalise(s, &n) && strcmp(n.text, wanted) == 0;
}

static int entry_named(const pf_device_info *e, const char *wanted)
{
    if (normalises_to(e->key, wanted))
        return 1;
    for (size_t i = 0; i < ARRAY_LEN(e->aliases) && e->aliases[i]; i++) {
        if (normalises_to(e->aliases[i], wanted))
            return 1;
    }
    return 0;
}

/* GPU-to-GPU link bandwidth per entry key. Kept beside the table, not in it, because only a
 * few products have a published figure here yet; an entry without one is unknown ('-').
 * Vendors quote NVLink as the sum of both directions; a collective's bus bandwidth is one
 * direction's (nccl-tests doc/PERFORMANCE.md: "The measurement is of a unidirectional
 * bandwidth"), so the peak is half the quoted figure. */
typedef struct device_link {
    const char *key;
    double gbps;               /* per direction, all links together */
    const char *source;
    int mesh_links;            /* a direct mesh (xGMI) of this many links, one per peer, gbps
                                  split evenly over them; 0: switched (NVLink) */
} device_link;

static const device_link device_links[] = {
    {"H100 SXM", 450, "NVLink 4, 900 GB/s bidirectional per GPU (18 links): nvidia.com/en-us/data-center/technologies/hopper-architecture; half per direction", 0},
    {"H200", 450, "NVLink 4, 900 GB/s bidirectional per GPU (18 links): nvidia.com/en-us/data-center/technologies/hopper-architecture; half per direction", 0},
    /* AMD quotes xGMI (Infinity Fabric) per link, both directions together: 7 links, one to
     * each peer of an 8-GPU node (a full mesh, no switch) */
    {"MI300X", 448, "xGMI (4th-gen Infinity Fabric), 7 links x 128 GB/s bidirectional (896 GB/s peer-to-peer): AMD Instinct MI300X data sheet, amd.com/content/dam/amd/en/documents/instinct-tech-docs/data-sheets/amd-instinct-mi300x-data-sheet.pdf; half per direction, one link per peer", 7},
    {"MI325X", 448, "xGMI (4th-gen Infinity Fabric), 7 links x 128 GB/s bidirectional (896 GB/s peer-to-peer): amd.com/en/products/accelerators/instinct/mi300/mi325x.html; half per direction, one link per peer", 7},
    {"MI355X", 537.6, "xGMI (4th-gen Infinity Fabric), 7 links x 153.6 GB/s bidirectional (1075.2 GB/s peer-to-peer): amd.com/en/products/accelerators/instinct/mi350/mi355x.html; half per direction, one link per peer", 7},
};

int pf_devices_link(const pf_device_info *info, double *gbps, const char **source)
{
    for (size_t i = 0; info && !info->match && i < sizeof device_links / sizeof device_links[0]; i++) {
        if (strcmp(info->key, device_links[i].key) == 0) {
            *gbps = device_links[i].gbps;
            *source = device_links[i].source;
            return 0;
        }
    }
    return -1;
}

int pf_devices_link_for(const pf_device_info *info, int n, double *gbps, const char **source)
{
    if (n < 2)
        return -1;
    for (size_t i = 0; info && !info->match && i < sizeof device_links / sizeof device_links[0]; i++) {
        const device_link *l = &device_links[i];
        if (strcmp(info->key, l->key) != 0)
            continue;
        int used = l->mesh_links && n - 1 < l->mesh_links ? n - 1 : l->mesh_links;
        *gbps = l->mesh_links ? l->gbps * used / l->mesh_links : l->gbps;
        *source = l->source;
        return 0;
    }
    return -1;
}

const pf_device_info *pf_devices_find(const char *name)
{
    norm_name wanted;
    if (!name || !normalise(name, &wanted) || wanted.len == 0)
        return NULL;
    for (int i = 0; i < DEVICE_COUNT; i++) {
        if (entry_named(&device_table[i], wanted.text))
            return &device_table[i];
    }
    return NULL;
}
