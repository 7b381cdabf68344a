# test_devices.sh - device matching from hand-written deviceProperties: the header line's label and the peaks it brings.
. tests/cli/lib.sh

# One aten::mm [64, 128] x [128, 256] in bf16 and its kernel of 2 us, on a device described
# by the arguments: name, numSms, totalGlobalMem, computeMajor, computeMinor.
# By hand: FLOP 2 x 64 x 256 x 128 = 4194304; bytes (64 x 128 + 128 x 256 + 64 x 256) x 2 = 114688.
trace() {
    python3 - "$@" <<'PY'
import json, sys
out, name, sms, mem, major, minor = sys.argv[1:7]
props = [{"id": 0, "name": name, "numSms": int(sms), "totalGlobalMem": int(mem),
          "computeMajor": int(major), "computeMinor": int(minor), "warpSize": 32}]
b = "c10::BFloat16"
ev = [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 100, "dur": 5,
       "args": {"External id": 1, "Input Dims": [[64, 128], [128, 256]], "Input type": [b, b],
                "Concrete Inputs": ["", ""]}},
      {"ph": "X", "cat": "kernel", "name": "ampere_bf16_gemm", "pid": 0, "tid": 7, "ts": 110, "dur": 2,
       "args": {"External id": 1, "device": 0, "stream": 7, "correlation": 1}}]
json.dump({"deviceProperties": props, "traceEvents": ev}, open(out, "w"))
PY
}

# header NAME SMS MEM MAJOR MINOR: the header line of --analysis on such a trace, in $TMP/out.
header() {
    trace "$TMP/t.json" "$@"
    check_run "$1 ($2 SMs, $3 B): --analysis" 0 "$PROFANA" --analysis "$TMP/t.json" bf16 --wide
}

# Meta's HGX A100 board reports its board name. NVIDIA's driver lists NVIDIA A100-PG509-200 under
# PCI device 20B0, the A100-SXM4-40GB's (github.com/NVIDIA/open-gpu-kernel-modules README.md);
# 108 SMs, cc 8.0, and the 40 GB parts' totalGlobalMem (42298834944 B: DEVICES.md E9). The name is no
# alias; its word A100 and the properties fit the SXM and PCIe 40GB entries, whose datasheet
# figures are the same (DEVICES.md N5: bf16 312 TFLOP/s, 1555 GB/s), so both are named.
header "NVIDIA A100-PG509-200" 108 42298834944 8 0
check_grep "A100-PG509-200: matched by SMs and memory" \
    "^Device 0: NVIDIA A100-PG509-200 | matched: A100 SXM 40GB or A100 PCIe 40GB (by SMs and memory; same figures) | peaks: bf16 312.0 TFLOP/s, DRAM 1555 GB/s$" \
    "$TMP/out"
check_run "A100-PG509-200: --analysis json" 0 "$PROFANA" --analysis "$TMP/t.json" bf16 --format json
check_eq "A100-PG509-200: JSON entry and peaks" \
    "$(json "(d['devices'][0]['matched'], d['devices'][0]['peak_tflops']['bf16'], d['devices'][0]['peak_gbps'])" "$TMP/out")" \
    "('A100 SXM 40GB', 312, 1555)"
# FLOPS % by hand: 4194304 FLOP / 2e-6 s / 312e12 FLOP/s; BW % 114688 B / 2e-6 s / 1555e9 B/s.
want_flops_pct=$(python3 -c "print(4194304 / 2e-6 / 312e12 * 100)")
want_bw_pct=$(python3 -c "print(114688 / 2e-6 / 1555e9 * 100)")
check_near "A100-PG509-200: FLOPS % against 312 TFLOP/s" \
    "$(json "d['devices'][0]['rows'][0]['flops_pct']" "$TMP/out")" "$want_flops_pct" 1e-9
check_near "A100-PG509-200: BW % against 1555 GB/s" \
    "$(json "d['devices'][0]['rows'][0]['bw_pct']" "$TMP/out")" "$want_bw_pct" 1e-9

# The same board name with 80 GB: SXM (2039 GB/s) and PCIe (1935 GB/s) differ, so no entry.
header "NVIDIA A100-PG509-200" 108 85100068864 8 0
check_grep "A100-PG509-200 with 80 GB: unknown" "^Device 0: NVIDIA A100-PG509-200 | matched: unknown (no percent of peak: no datasheet to measure against)$" "$TMP/out"
# An L40 (142 SMs, 48 GB like the L40S; memory here a round 44.4 GiB) is no L40S: its product word differs.
header "NVIDIA L40" 142 47697362944 8 9
check_grep "L40: unknown, not an L40S" "^Device 0: NVIDIA L40 | matched: unknown" "$TMP/out"

# A generic ROCm name with 104 CUs and 64 GiB: an MI210 or one MI250 GCD (both 104 CUs; an MI250X
# GCD has 110: ROCm GPU specifications, DEVICES.md A2), whose figures are the same (181.0 bf16,
# 1638.4 GB/s: DEVICES.md A7 and the ROCm MI250 page, 362.1 / 2 per GCD).
header "AMD Radeon Graphics" 104 68702699520 9 0
check_grep "generic 104 CUs: MI210 or MI250, said so" \
    "^Device 0: AMD Radeon Graphics | matched: MI210 or MI250 (generic name; by CUs and memory; same figures) | peaks: bf16 181.0 TFLOP/s, DRAM 1638 GB/s$" \
    "$TMP/out"
header "AMD Radeon Graphics" 110 68702699520 9 0
check_grep "generic 110 CUs: one MI250X GCD" "matched: MI250X (generic name; by CUs and memory) | peaks: bf16 191.5 TFLOP/s" "$TMP/out"
# HIP's name for PCI ID 740C covers both the MI250X and the MI250 (amdgpu.ids, DEVICES.md A10).
header "AMD Instinct MI250X / MI250" 104 68702699520 9 0
check_grep "MI250X / MI250 with 104 CUs: MI250" "matched: MI250 (name shared; by CUs and memory) | peaks: bf16 181.0 TFLOP/s" "$TMP/out"
header "AMD Instinct MI250X / MI250" 110 68702699520 9 0
check_grep "MI250X / MI250 with 110 CUs: MI250X" "matched: MI250X (name shared; by CUs and memory) | peaks: bf16 191.5 TFLOP/s" "$TMP/out"

# A plain name match keeps its plain label; --device says it was given.
header "NVIDIA H100 80GB HBM3" 132 85018279936 9 0
check_grep "H100: plain label" "^Device 0: NVIDIA H100 80GB HBM3 | matched: H100 SXM | peaks: bf16 989.5 TFLOP/s" "$TMP/out"
check_run "--device on an H100 trace" 0 "$PROFANA" --analysis "$TMP/t.json" bf16 --wide --device MI300X
check_grep "--device: the label says so" "matched: MI300X (given by --device) | peaks: bf16 1307.4 TFLOP/s" "$TMP/out"
