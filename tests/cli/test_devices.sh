# test_devices.sh - device matching from hand-written deviceProperties: the header line's label and the peaks it brings.
. tests/cli/lib.sh
# the test imports tools/measure_peaks.py: no __pycache__ in the tree
export PYTHONDONTWRITEBYTECODE=1

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

# ---- issue 32: the devices of 2026, FP4/FP6 columns, strict matching, achievable peaks ----

# Every figure of docs/devices.md's "Device table" table of 2026 against --list-devices --format json:
# numbers equal, '-' unknown (null), '*' listed as derived, and the reported name among the names.
check_run "--list-devices json" 0 "$PROFANA" --list-devices --format json
cp "$TMP/out" "$TMP/devs.json"
python3 - docs/devices.md "$TMP/devs.json" >"$TMP/readme_check" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
devs = {d["key"]: d for d in json.load(open(sys.argv[2]))["devices"]}
start = next(i for i, l in enumerate(lines) if l.startswith("| Device | reported name | FP4 |"))
head = [c.strip() for c in lines[start].strip("|").split("|")]
cols = {"FP4": "fp4", "FP6": "fp6", "FP8": "fp8", "INT8": "int8", "BF16": "bf16", "TF32": "tf32", "FP32": "fp32", "GB/s": "peak_gbps"}
n = 0
for l in lines[start + 2:]:
    if not l.startswith("|"):
        break
    cells = dict(zip(head, [c.strip() for c in l.strip("|").split("|")]))
    d = devs.get(cells["Device"])
    if d is None:
        print("FAIL README row %s: no such entry" % cells["Device"]); continue
    name = cells["reported name"].strip("`")
    print(("PASS" if name in d["names"].split("; ") else "FAIL") + " README %s: reported name %s" % (cells["Device"], name))
    derived = (d["derived"] or "").split()
    for col, key in cols.items():
        text = cells[col]
        got = d[key]
        if text == "-":
            ok = got is None
        else:
            want = float(text.rstrip("*"))
            ok = got is not None and abs(got - want) <= 1e-9 * want and ((key in derived) == text.endswith("*"))
        n += 1
        print(("PASS" if ok else "FAIL") + " README %s %s: table %s, --list-devices %s%s" % (cells["Device"], col, text, got, " derived" if key in derived else ""))
print(("PASS" if n >= 14 * 8 else "FAIL") + " README table: %d figures checked" % n)
PY
cat "$TMP/readme_check"
check_eq "B300 footnote says the sources differ" \
    "$(json "'sources differ' in [x for x in d['devices'] if x['key'] == 'B300'][0]['note']" "$TMP/devs.json")" "True"
check_eq "H20 footnote says secondary sources" \
    "$(json "'secondary sources only' in [x for x in d['devices'] if x['key'] == 'H20'][0]['note']" "$TMP/devs.json")" "True"
# (--wide: the whole table; a pipe is 100 columns wide, which leaves FP6 and FP4 out)
"$PROFANA" --list-devices --wide >"$TMP/list.txt"
check_grep "--list-devices: FP6 and FP4 columns" "| FP8     | INT8   | FP6     | FP4     |" "$TMP/list.txt"
check_grep "--list-devices: derived mark explained" "^\* derived (units x rate x clock" "$TMP/list.txt"
check_grep "--list-devices: RTX PRO 6000 FP4 marked derived" "^RTX PRO 6000 Server .*| 2000.0\* |" "$TMP/list.txt"

# retrace IN OUT NAME SMS MEM: IN (a testdata trace) with its deviceProperties name, numSms and
# totalGlobalMem replaced.
retrace() {
    python3 - "$@" <<'PY'
import gzip, json, sys
src, out, name, sms, mem = sys.argv[1:6]
d = json.load(gzip.open(src) if src.endswith(".gz") else open(src))
for p in d["deviceProperties"]:
    p["name"], p["numSms"], p["totalGlobalMem"] = name, int(sms), int(mem)
json.dump(d, open(out, "w"))
PY
}
FP8T=testdata/w2026/int8_fp8_gemm.json.gz
MIB=1048576
# Each new device, named as its deviceProperties report it (memory from DEVICES.md and the
# sources in device_table.c where known, else 0), finds its entry and its bf16 peak.
while IFS='|' read -r name sms mem key bf16; do
    retrace "$FP8T" "$TMP/dev.json" "$name" "$sms" "$mem"
    check_run "$name: --analysis json" 0 "$PROFANA" --analysis "$TMP/dev.json" bf16 --format json
    check_eq "$name: matched $key, bf16 $bf16" \
        "$(json "(d['devices'][0]['matched'], d['devices'][0]['peak_tflops']['bf16'])" "$TMP/out")" "('$key', $bf16)"
done <<EOF2
NVIDIA B300 SXM6 AC|0|0|B300|2250
NVIDIA GB300|0|0|GB300|2500
NVIDIA GB200|0|0|GB200|2500
NVIDIA B200|148|$((182631 * MIB))|B200|2250
NVIDIA GH200 480GB|132|$((96768 * MIB))|GH200|989.5
NVIDIA H20|0|0|H20|148
NVIDIA H800|132|$((81000 * MIB))|H800|989.5
NVIDIA H800 PCIe|114|$((81008 * MIB))|H800 PCIe|756.5
NVIDIA H200 NVL|132|$((143156 * MIB))|H200 NVL|835.5
NVIDIA H200|132|$((143156 * MIB))|H200|989.5
NVIDIA H100 NVL|132|99861594112|H100 NVL|835.5
NVIDIA RTX PRO 6000 Blackwell Server Edition|188|0|RTX PRO 6000 Server|500
NVIDIA RTX PRO 6000 Blackwell Workstation Edition|188|0|RTX PRO 6000 Workstation|500
NVIDIA GeForce RTX 5090|170|$((32607 * MIB))|RTX 5090|209.5
EOF2

# Which column: int8_fp8_gemm.json.gz holds three aten::_int_mm (signed char) and three
# aten::_scaled_mm (Float8_e4m3fn) of 4096^3: 2*4096^3 FLOP each. Per kernel row, by hand:
# FLOP 3*2*4096^3 over the kernels' summed durations (read raw here) at the column's peak.
# An RTX 4090 has FP8 330.3 and INT8 660.6 (DEVICES.md N13: different columns, so a wrong pick shows).
python3 - "$FP8T" >"$TMP/durs" <<'PY'
import gzip, json, sys
d = json.load(gzip.open(sys.argv[1]))
s = {}
for e in d["traceEvents"]:
    if e.get("cat") == "kernel":
        k = "int8" if "i16832gemm_s8" in e["name"] else "fp8"
        s[k] = s.get(k, 0) + e["dur"]
print(s["int8"], s["fp8"])
PY
read -r int8_us fp8_us <"$TMP/durs"
retrace "$FP8T" "$TMP/4090.json" "NVIDIA GeForce RTX 4090" 128 25386352640
check_run "RTX 4090 int8/fp8: --analysis json" 0 "$PROFANA" --analysis "$TMP/4090.json" bf16 --format json
kpct() { json "[r['flops_pct'] for r in d['devices'][0]['rows'] if '$1' in r['name']][0]" "$2"; }
check_near "RTX 4090: _int_mm kernel at the INT8 peak 660.6" "$(kpct i16832gemm_s8 "$TMP/out")" \
    "$(python3 -c "print(3 * 2 * 4096**3 / ($int8_us * 1e-6) / 660.6e12 * 100)")" 1e-9
check_near "RTX 4090: _scaled_mm fp8 kernel at the FP8 peak 330.3" "$(kpct nvjet "$TMP/out")" \
    "$(python3 -c "print(3 * 2 * 4096**3 / ($fp8_us * 1e-6) / 330.3e12 * 100)")" 1e-9
# A B300 has FP8 4500 and no dense INT8 figure: the INT8 GEMM gets none, not another column's.
retrace "$FP8T" "$TMP/b300.json" "NVIDIA B300 SXM6 AC" 0 0
check_run "B300 int8/fp8: --analysis json" 0 "$PROFANA" --analysis "$TMP/b300.json" bf16 --format json
check_eq "B300: _int_mm kernel has no INT8 peak" "$(kpct i16832gemm_s8 "$TMP/out")" "None"
check_near "B300: _scaled_mm fp8 kernel at 4500" "$(kpct nvjet "$TMP/out")" \
    "$(python3 -c "print(3 * 2 * 4096**3 / ($fp8_us * 1e-6) / 4500e12 * 100)")" 1e-9

# FP4: a hand-made aten::_scaled_mm of A [256, 512] and B [512, 128] packed FP4 (two values per
# byte: K = 1024), block scales, bf16 out (out_dtype 15), one 10 us kernel on a B200 (FP4 9000,
# FP8 4500, INT8 4500). FLOP by hand: 2 * 256 * 128 * 1024 = 67108864.
fp4_trace() {
    python3 - "$@" <<'PY'
import json, sys
out, ta, ts = sys.argv[1:4]
props = [{"id": 0, "name": "NVIDIA B200", "numSms": 148, "totalGlobalMem": 182631 * 1048576,
          "computeMajor": 10, "computeMinor": 0, "warpSize": 32}]
ev = [{"ph": "X", "cat": "cpu_op", "name": "aten::_scaled_mm", "pid": 1, "tid": 1, "ts": 100, "dur": 20,
       "args": {"External id": 1, "Input Dims": [[256, 512], [512, 128], [256, 64], [64, 128], [], [], [], []],
                "Input type": [ta, ta, ts, ts, "", "", "Scalar", "Scalar"],
                "Concrete Inputs": ["", "", "", "", "", "", "15", "False"]}},
      {"ph": "X", "cat": "kernel", "name": "fp4_gemm_kernel", "pid": 0, "tid": 7, "ts": 110, "dur": 10,
       "args": {"External id": 1, "device": 0, "stream": 7, "correlation": 1}}]
json.dump({"deviceProperties": props, "traceEvents": ev}, open(out, "w"))
PY
}
fp4_pct=$(python3 -c "print(67108864 / 10e-6 / 9000e12 * 100)")
fp4_trace "$TMP/nvfp4.json" "c10::Float4_e2m1fn_x2" "c10::Float8_e4m3fn"
check_run "NVFP4 _scaled_mm: --analysis json" 0 "$PROFANA" --analysis "$TMP/nvfp4.json" bf16 --format json
check_eq "NVFP4: FLOP with K unpacked" "$(json "d['devices'][0]['rows'][0]['flop']" "$TMP/out")" "67108864"
check_near "NVFP4: at the FP4 peak 9000" "$(json "d['devices'][0]['rows'][0]['flops_pct']" "$TMP/out")" "$fp4_pct" 1e-9
fp4_trace "$TMP/mxfp4.json" "unsigned char" "c10::Float8_e8m0fnu"
check_run "MXFP4 packed uint8: --analysis json" 0 "$PROFANA" --analysis "$TMP/mxfp4.json" bf16 --format json
check_eq "MXFP4: FLOP with K unpacked" "$(json "d['devices'][0]['rows'][0]['flop']" "$TMP/out")" "67108864"
check_near "MXFP4: at the FP4 peak 9000" "$(json "d['devices'][0]['rows'][0]['flops_pct']" "$TMP/out")" "$fp4_pct" 1e-9
# uint8 without e8m0 scales is no MXFP4: INT8 (4500), K as recorded: 2 * 256 * 128 * 512.
fp4_trace "$TMP/u8.json" "unsigned char" "float"
check_run "uint8 with float scales: --analysis json" 0 "$PROFANA" --analysis "$TMP/u8.json" bf16 --format json
check_near "uint8 with float scales: INT8 at 4500" "$(json "d['devices'][0]['rows'][0]['flops_pct']" "$TMP/out")" \
    "$(python3 -c "print(2 * 256 * 128 * 512 / 10e-6 / 4500e12 * 100)")" 1e-9

# An unknown device: no percentage columns, the headline's finding, never a default.
header "NVIDIA Mystery 9000" 100 85017493504 9 0
check_grep "unknown: the finding" "unknown device: pass --device NAME or --device-file FILE" "$TMP/out"
check_grep "unknown: the table is there" "^Kernel Name .*| Total (us)" "$TMP/out"
if grep "^Kernel Name " "$TMP/out" | grep -q "FLOPS %\|BW %\|Bound"; then fail "unknown: no percentage columns" "$(grep -m1 '^Kernel Name' "$TMP/out")"; else pass "unknown: no percentage or bound columns"; fi
check_grep "unknown: stderr says how" "unknown device: pass --device NAME or --device-file FILE" "$TMP/err"
check_run "unknown: json" 0 "$PROFANA" --analysis "$TMP/t.json" bf16 --format json
check_eq "unknown: JSON matched, flops_pct, finding" \
    "$(json "(d['devices'][0]['matched'], d['devices'][0]['rows'][0]['flops_pct'], any(f['text'].startswith('unknown device: pass --device NAME or --device-file FILE') for f in d['devices'][0]['headline']['findings']))" "$TMP/out")" \
    "(None, None, True)"

# Achievable peaks from a device file (a hand-written TEST FIXTURE, not a measurement): fp8 1000,
# int8 800 TFLOP/s, 2500 GB/s achievable beside the datasheet's 1979 / 3350. By hand, per kernel
# row: FLOP as above at 1000 and 800; _int_mm bytes 3 * (4096^2 * (1 + 1 + 4)) at 2500 GB/s.
FIX=testdata/devices/test_fixture_achievable.json
check_run "achievable: --analysis json" 0 "$PROFANA" --analysis "$FP8T" bf16 --format json --device-file "$FIX"
ach() { json "[r['$1'] for r in d['devices'][0]['rows'] if '$2' in r['name']][0]" "$TMP/out"; }
check_near "achievable: _int_mm FLOPS % ach against 800" "$(ach flops_ach_pct i16832gemm_s8)" \
    "$(python3 -c "print(3 * 2 * 4096**3 / ($int8_us * 1e-6) / 800e12 * 100)")" 1e-9
check_near "achievable: fp8 FLOPS % ach against 1000" "$(ach flops_ach_pct nvjet)" \
    "$(python3 -c "print(3 * 2 * 4096**3 / ($fp8_us * 1e-6) / 1000e12 * 100)")" 1e-9
check_near "achievable: _int_mm BW % ach against 2500" "$(ach bw_ach_pct i16832gemm_s8)" \
    "$(python3 -c "print(3 * 4096**2 * 6 / ($int8_us * 1e-6) / 2500e9 * 100)")" 1e-9
check_near "achievable: FLOPS % still against the datasheet's 1979" "$(ach flops_pct nvjet)" \
    "$(python3 -c "print(3 * 2 * 4096**3 / ($fp8_us * 1e-6) / 1979e12 * 100)")" 1e-9
check_run "achievable: text" 0 env COLUMNS=160 "$PROFANA" --analysis "$FP8T" bf16 --device-file "$FIX"
check_grep "achievable: text shows FLOPS % ach and BW % ach" "FLOPS % | BW % | FLOPS % ach | BW % ach" "$TMP/out"
check_run "no achievable: text" 0 "$PROFANA" --analysis "$FP8T" bf16
if grep -q "% ach" "$TMP/out"; then fail "no achievable: no ach columns" "present"; else pass "no achievable: no ach columns"; fi
check_run "achievable: narrow text" 0 env COLUMNS=100 "$PROFANA" --analysis "$FP8T" bf16 --device-file "$FIX"
check_eq "achievable: lines fit 100 columns" "$(awk 'length > 100' "$TMP/out" | wc -l | tr -d ' ')" "0"

# tools/measure_peaks.py writes what --device-file reads: its entry builder, given the H100 SXM
# row of --list-devices and made-up achievable figures (no GPU here), makes a file profana takes,
# keeping the datasheet's percentages and adding the achievable ones.
python3 - "$TMP/devs.json" "$TMP/measured.json" <<'PY'
import json, sys
sys.path.insert(0, "tools")
import measure_peaks
ds = [d for d in json.load(open(sys.argv[1]))["devices"] if d["key"] == "H100 SXM"][0]
e = measure_peaks.make_entry("NVIDIA H100 80GB HBM3", ds, {"fp8": 1000.0, "bf16": 750.0}, 2500.0,
                             {"date": "test", "what": "made-up figures of the test, not a measurement"})
json.dump([e], open(sys.argv[2], "w"))
PY
check_run "measure_peaks.py's file: --analysis json" 0 "$PROFANA" --analysis "$FP8T" bf16 --format json --device-file "$TMP/measured.json"
check_eq "measure_peaks.py's file: matched, datasheet peaks kept" \
    "$(json "(d['devices'][0]['matched'], d['devices'][0]['peak_tflops']['fp8'], d['devices'][0]['peak_gbps'])" "$TMP/out")" \
    "('NVIDIA H100 80GB HBM3 (measured)', 1979, 3350)"
check_near "measure_peaks.py's file: fp8 FLOPS % ach against 1000" "$(ach flops_ach_pct nvjet)" \
    "$(python3 -c "print(3 * 2 * 4096**3 / ($fp8_us * 1e-6) / 1000e12 * 100)")" 1e-9
check_eq "measure_peaks.py's file: no int8 achievable, no FLOPS % ach" "$(ach flops_ach_pct i16832gemm_s8)" "None"
# Measured on a GPU machine without profana, then --fill adds the datasheet figures of the entry
# profana matches from the recorded properties (H100 SXM: fp8 1979, 3350 GB/s).
python3 - "$TMP/bare.json" <<'PY'
import json, sys
sys.path.insert(0, "tools")
import measure_peaks
e = measure_peaks.make_entry("NVIDIA H100 80GB HBM3", None, {"fp8": 1000.0}, 2500.0,
                             {"gpu": "NVIDIA H100 80GB HBM3", "sms": 132, "total_memory": 85017493504, "cc": [9, 0]})
json.dump([e], open(sys.argv[1], "w"))
PY
check_run "measure_peaks.py --fill" 0 python3 tools/measure_peaks.py --fill "$TMP/bare.json" --profana "$PROFANA"
check_eq "--fill: prints the path" "$(tail -n 1 "$TMP/out")" "$(cd "$TMP" && pwd -P)/bare.json"
check_eq "--fill: datasheet figures of H100 SXM added, achievable kept" \
    "$(json "(d[0]['tflops']['fp8'], d[0]['gbps'], d[0]['clock_mhz'], d[0]['achievable'], d[0]['measured']['datasheet_entry'])" "$TMP/bare.json")" \
    "(1979, 3350, 1830, {'tflops': {'fp8': 1000.0}, 'gbps': 2500.0}, 'H100 SXM')"

# ---- the measured device files (tools/measure_peaks.py on the GPU machine's H100 and H200) ----
for f in testdata/devices/measured_h100_sxm.json testdata/devices/measured_h200.json; do
    got=$(python3 -c "
import json,sys; e=json.load(open(sys.argv[1]))[0]; m=e['measured']
print(m['driver'] != '' and m['date'][:4] == '2026' and 'clocks.max.sm' in m['clocks_mhz'] and e['achievable']['tflops']['bf16'] > 0)" "$f")
    check_eq "$(basename "$f"): date, driver, clocks and achievable figures recorded" "$got" True
done
"$PROFANA" --analysis testdata/traces/explicit_bf16.json bf16 --device-file testdata/devices/measured_h100_sxm.json --group op --format json >"$TMP/ach.json" 2>/dev/null
# % of achievable = achieved / the file's achievable peak: each row's datasheet % times
# datasheet / achievable (bf16 989.5 / measured; DRAM 3350 / measured), from the file itself
got=$(python3 -c "
import json,sys
e=json.load(open(sys.argv[1]))[0]; d=json.load(open(sys.argv[2]))['devices'][0]
fr=e['tflops']['bf16']/e['achievable']['tflops']['bf16']; br=e['gbps']/e['achievable']['gbps']
r=[x for x in d['rows'] if x['name']=='aten::mm'][0]
# and from the row's own flop, bytes and time
t=r['total_us']*1e-6
ok=abs(r['flops_ach_pct']-r['flops_pct']*fr)<1e-6*r['flops_ach_pct'] and abs(r['bw_ach_pct']-r['bw_pct']*br)<1e-6*r['bw_ach_pct']
ok=ok and abs(r['flops_ach_pct']-100*r['flop']/t/1e12/e['achievable']['tflops']['bf16'])<1e-6*r['flops_ach_pct']
print(ok)" testdata/devices/measured_h100_sxm.json "$TMP/ach.json")
check_eq "measured H100 file: aten::mm's % of achievable = achieved / the measured peak" "$got" True
"$PROFANA" --analysis testdata/traces/explicit_bf16.json bf16 --device-file testdata/devices/measured_h100_sxm.json >"$TMP/ach.txt" 2>/dev/null
check_grep "measured H100 file: the text table shows FLOPS % ach" "FLOPS % ach" "$TMP/ach.txt"

# --- device files that are no device file (issue 48): a FIFO never blocks the run (before:
# opened and read, waiting forever for a writer); a key twice, a NUL in a string and a bad
# "achievable"."tflops" each refused in one line that names the key (before: "match" twice
# took the first, "tflops"."bf16" twice the last; "H100\u0000x" was read as "H100"; the
# achievable dtype was called "tflops").
trace "$TMP/d48.json" "NVIDIA H100 80GB HBM3" 132 85031714816 9 0
mkfifo "$TMP/devfifo.json"
check_run "--device-file a FIFO: no hang" 1 timeout 20 "$PROFANA" --analysis "$TMP/d48.json" bf16 --device-file "$TMP/devfifo.json"
check_eq "--device-file a FIFO: one line" "$(cat "$TMP/err")" "profana: error: $TMP/devfifo.json: is a FIFO, not a device file (a regular file of JSON)"
check_run "PROFANA_DEVICES a FIFO: no hang" 1 env PROFANA_DEVICES="$TMP/devfifo.json" timeout 20 "$PROFANA" --analysis "$TMP/d48.json" bf16
check_eq "PROFANA_DEVICES a FIFO: one line" "$(cat "$TMP/err")" "profana: error: $TMP/devfifo.json: is a FIFO, not a device file (a regular file of JSON)"
check_run "--device-file a character device" 1 timeout 20 "$PROFANA" --analysis "$TMP/d48.json" bf16 --device-file /dev/zero
check_eq "--device-file a character device: one line" "$(cat "$TMP/err")" "profana: error: /dev/zero: is a character device, not a device file (a regular file of JSON)"
# bad48 NAME FILE_TEXT WANT_MESSAGE
bad48() {
    printf '%s' "$2" >"$TMP/bad48.json"
    check_run "device file, $1" 1 "$PROFANA" --analysis "$TMP/d48.json" bf16 --device-file "$TMP/bad48.json"
    check_eq "device file, $1: one line naming the key" "$(cat "$TMP/err")" "profana: error: $TMP/bad48.json: $3"
}
bad48 '"match" twice' '[{"name": "a", "match": "H100", "match": "zzz"}]' 'byte 1: entry 1: the key "match" twice'
bad48 '"name" twice' '[{"name": "a", "name": "b", "match": "H100"}]' 'byte 1: entry 1: the key "name" twice'
bad48 '"tflops"."bf16" twice' '[{"name": "a", "match": "H100", "tflops": {"bf16": 1, "bf16": 2}}]' \
    'byte 1: entry 1: "tflops" names dtype bf16 twice ("bf16")'
bad48 '"achievable"."gbps" twice' '[{"name": "a", "match": "H100", "achievable": {"gbps": 1, "gbps": 2}}]' \
    'byte 1: entry 1: "achievable" has the key "gbps" twice'
bad48 'a bad "achievable"."tflops"' '[{"name": "a", "match": "H100", "achievable": {"tflops": {"bf16": -1}}}]' \
    'byte 1: entry 1: "achievable"."tflops"."bf16" is not a number from 0 to 1e9'
bad48 '"achievable"."tflops" not an object' '[{"name": "a", "match": "H100", "achievable": {"tflops": 3}}]' \
    'byte 1: entry 1: "achievable"."tflops" is not an object of DTYPE: TFLOP/s'
bad48 'a NUL in "name"' '[{"name": "H100\u0000x", "match": "H100"}]' \
    'byte 15: "name" holds a NUL character (\u0000 or a zero byte): not a name'
bad48 'a NUL in "match"' '[{"name": "a", "match": "H\u0000"}]' \
    'byte 26: "match" holds a NUL character (\u0000 or a zero byte): not a name'
bad48 'a NUL in a key' '[{"na\u0000me": "a", "match": "H"}]' \
    'byte 5: "na" holds a NUL character (\u0000 or a zero byte): not a name'
# an escaped backslash before u0000 is no NUL: the name is the six characters \u0000
printf '%s' '[{"name": "a\\u0000", "match": "H100"}]' >"$TMP/ok48.json"
check_run "device file, an escaped backslash then u0000: not a NUL" 0 "$PROFANA" --analysis "$TMP/d48.json" bf16 --device-file "$TMP/ok48.json" --wide
check_grep "device file, an escaped backslash then u0000: the name kept whole" 'matched: a\\u0000 ' "$TMP/out"
# a zero byte inside a name is a NUL too (one outside any string is no JSON: test_limits.sh)
printf '[{"name": "H1\000x", "match": "H100"}]' >"$TMP/bad48.json"
check_run "device file, a zero byte in \"name\"" 1 "$PROFANA" --analysis "$TMP/d48.json" bf16 --device-file "$TMP/bad48.json"
check_eq "device file, a zero byte in \"name\": one line naming the key" "$(cat "$TMP/err")" \
    "profana: error: $TMP/bad48.json: byte 13: \"name\" holds a NUL character (\\u0000 or a zero byte): not a name"

# A dtype the device lacks (issue 43): the V100 has no bf16 units and the A100 no fp8 (their
# datasheets give fp16 125 and fp32 15.7 TFLOP/s on the V100; fp8 appears with Hopper). The
# header shows '-' for the dtype, one line says why, and the rows with that work show '-' in
# FLOPS %, never a percentage of 0 TFLOP/s.
retrace "$TRACES/eager_bf16.json" "$TMP/v100.json" "Tesla V100-SXM2-16GB" 80 $((16 * 1024 * MIB))
check_run "V100, DTYPE bf16: exit 0" 0 "$PROFANA" --analysis "$TMP/v100.json" bf16 --wide
check_grep "V100, bf16: the header's peak is '-'" "peaks: fp32 15.7 TFLOP/s, bf16 -, DRAM 900 GB/s" "$TMP/out"
check_eq "V100, bf16: one line says the device table gives none" \
    "$(grep -c '^No peak for bf16: the device table gives V100 SXM2 16GB none' "$TMP/out")" 1
check_eq "V100, bf16: no 0.0 TFLOP/s peak" "$(grep -c 'bf16 0.0 TFLOP/s' "$TMP/out")" 0
check_run "V100, DTYPE bf16, CSV: exit 0" 0 "$PROFANA" --analysis "$TMP/v100.json" bf16 --format csv
check_eq "V100, bf16: the five bf16 GEMM rows (nvjet) have no FLOPS %" \
    "$(python3 -c 'import csv,sys; print(sorted(r["FLOPS %"] for r in csv.DictReader(open(sys.argv[1])) if r["Kernel Name"].startswith("nvjet")))' "$TMP/out")" \
    "['', '', '', '', '']"
check_eq "V100, bf16: the rows of BFloat16 kernels, 0 FLOPs among them (reduce, layer norm), have no FLOPS % either" \
    "$(python3 -c 'import csv,sys; r=[x for x in csv.DictReader(open(sys.argv[1])) if "BFloat16" in x["Kernel Name"]]; print(len(r) > 0, sorted({x["FLOPS %"] for x in r}), any(x["GFLOP"] == "0.000" for x in r))' "$TMP/out")" \
    "True [''] True"
retrace "$FP8T" "$TMP/a100.json" "NVIDIA A100-SXM4-80GB" 108 $((80 * 1024 * MIB))
check_run "A100, fp8 work: exit 0" 0 "$PROFANA" --analysis "$TMP/a100.json" fp8 --wide
check_grep "A100, fp8: the header's peak is '-'" " fp8 -," "$TMP/out"
check_grep "A100, fp8: one line says the device table gives none" "^No peak for fp8.*: the device table gives A100 SXM 80GB none" "$TMP/out"
# a device with the dtype: no such line (H100, bf16)
check_run "H100, bf16: exit 0" 0 "$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16
check_eq "H100, bf16: no 'No peak' line" "$(grep -c '^No peak' "$TMP/out")" 0
