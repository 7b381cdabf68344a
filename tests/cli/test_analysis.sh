# test_analysis.sh - `--analysis` on the real H100 traces, checked against the raw events and PyTorch's own FLOP totals.
# check: optimised
. tests/cli/lib.sh

# Counts and summed duration (ns) of kernel+memcpy+memset events per device, read from the
# raw JSON with Python's parser: independent of profana's scanner.
raw_counts() {
    python3 - "$1" <<'PY'
import json, sys
from decimal import Decimal
d = json.load(open(sys.argv[1]), parse_float=Decimal)
acc = {}
for e in d["traceEvents"]:
    if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset"):
        dev = e["args"].get("device", e.get("pid"))
        n, ns = acc.get(dev, (0, 0))
        acc[dev] = (n + 1, ns + int(Decimal(e["dur"]) * 1000))
for dev in sorted(acc):
    print(dev, acc[dev][0], acc[dev][1])
PY
}

# Per device from profana's JSON: id, rows' launches sum, rows' total_us sum (ns), Total row
# (launches: GPU activities in every --group; count is invocations for op and shape).
our_counts() {
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for dev in d["devices"]:
    rows = dev["rows"]
    assert dev["rows_omitted"] == 0
    print(dev["id"], sum(r["launches"] for r in rows), round(sum(r["total_us"] for r in rows) * 1000),
          dev["total"]["launches"], round(dev["total"]["total_us"] * 1000))
PY
}

for f in "$TRACES"/*.json; do
    base=$(basename "$f" .json)
    for g in kernel op shape; do
        check_run "$base --group $g" 0 "$PROFANA" --analysis "$f" bf16 --group "$g" --format json
        our_counts "$TMP/out" >"$TMP/ours"
        raw_counts "$f" | while read -r dev n ns; do
            line=$(grep "^$dev " "$TMP/ours")
            set -- $line
            check_eq "$base/$g dev $dev: row launches add up to the GPU events" "$2" "$n"
            check_eq "$base/$g dev $dev: Total launches" "$4" "$n"
            check_near "$base/$g dev $dev: row times add up to the summed durations" "$3" "$ns" 0.0001
            check_near "$base/$g dev $dev: Total time" "$5" "$ns" 0.0001
        done
    done
done

# PyTorch's per-op "Total MFLOPs" (key_averages, last column) against our --group op rows.
ref_mflops() { # FILE OP
    awk -v op="$2" '$1 == op { print $NF }' "$1"
}

our_flop() { # JSON ROWNAME -> MFLOP
    python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in d["devices"][0]["rows"] if r["name"] == sys.argv[2]]
print(rows[0]["flop"] / 1e6 if rows and rows[0]["flop"] is not None else "missing")
PY
}

for base in explicit_bf16 explicit_fp32 eager_bf16 eager_fp32 compiled_bf16_b8; do
    "$PROFANA" --analysis "$TRACES/$base.json" bf16 --group op --format json >"$TMP/op.json"
    for op in aten::mm aten::addmm aten::bmm aten::baddbmm; do
        want=$(ref_mflops "$REFS/$base.key_averages.txt" "$op")
        [ -n "$want" ] || continue
        check_near "$base: $op FLOPs = PyTorch's Total MFLOPs ($want)" "$(our_flop "$TMP/op.json" "$op")" "$want" 0.000001
    done
done

# The CNN: cudnn_convolution carries aten::conv2d's FLOPs (PyTorch counts them on conv2d).
"$PROFANA" --analysis "$TRACES/cnn_fp32.json" fp32 --group op --format json >"$TMP/cnn.json"
check_near "cnn: aten::cudnn_convolution = PyTorch's aten::conv2d MFLOPs" \
    "$(our_flop "$TMP/cnn.json" aten::cudnn_convolution)" "$(ref_mflops "$REFS/cnn_fp32.key_averages.txt" aten::conv2d)" 0.001
# Hand calculation, per step: conv1 2*32*64*(64*64)*3*9 = 452984832 (grad_weight only: mask
# [False, True, True]); conv2 (3x3, stride 2, pad 1: 32x32 -> 16x16) 2*32*128*256*64*9 =
# 1207959552, both gradients; conv3 (1x1) 2*32*256*256*128 = 536870912, both gradients.
# Three steps: 3 * (452984832 + 2*1207959552 + 2*536870912) = 11827937280.
check_eq "cnn: convolution_backward FLOPs by hand (output masks)" \
    "$(our_flop "$TMP/cnn.json" aten::convolution_backward)" "11827.93728"

# With --group shape, a backward with both gradients costs twice its forward.
"$PROFANA" --analysis "$TRACES/cnn_fp32.json" fp32 --group shape --format json >"$TMP/shape.json"
shape_flop() { # JSON PREFIX
    python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(int(sum(r["flop"] for r in d["devices"][0]["rows"] if r["name"].startswith(sys.argv[2]) and r["flop"] is not None)))
PY
}
fwd=$(shape_flop "$TMP/shape.json" "aten::cudnn_convolution([32,128,16,16]fp32, [256,128,1,1]fp32")
bwd=$(shape_flop "$TMP/shape.json" "aten::convolution_backward([32,256,16,16]fp32, [32,128,16,16]fp32, [256,128,1,1]fp32")
check_eq "cnn: 1x1 conv forward, 3 steps, by hand (3*536870912)" "$fwd" "1610612736"
check_eq "cnn: its backward with both gradients = 2 x forward" "$bwd" "3221225472"

# The device: the H100 of these traces is the H100 SXM entry, at dense datasheet peaks.
check_eq "H100 80GB HBM3 matches H100 SXM" "$(json 'd["devices"][0]["matched"]' "$TMP/cnn.json")" "H100 SXM"
check_eq "H100 SXM dense bf16 peak" "$(json 'd["devices"][0]["peak_tflops"]["bf16"]' "$TMP/cnn.json")" "989.5"
check_eq "H100 SXM DRAM bandwidth" "$(json 'd["devices"][0]["peak_gbps"]' "$TMP/cnn.json")" "3350"

# A GEMM row by hand: explicit_bf16 aten::addmm is [2048,512] x [512,512] + bias[512], bf16.
# FLOP 2*2048*512*512 = 1073741824 per call, 3 calls; bytes (2048*512 + 512*512 + 2048*512
# + 512) * 2 = 4719616 per call.
"$PROFANA" --analysis "$TRACES/explicit_bf16.json" bf16 --group op --format json >"$TMP/ex.json"
check_eq "explicit_bf16 addmm flop by hand" "$(json '[r for r in d["devices"][0]["rows"] if r["name"]=="aten::addmm"][0]["flop"]' "$TMP/ex.json")" "3221225472"
check_eq "explicit_bf16 addmm bytes by hand" "$(json '[r for r in d["devices"][0]["rows"] if r["name"]=="aten::addmm"][0]["bytes"]' "$TMP/ex.json")" "14158848"
# Its three kernels ran 5.023 + ... us in total: the rate is total FLOP over total time.
check_eq "explicit_bf16 addmm rate = flop / time" \
    "$(json 'round([r for r in d["devices"][0]["rows"] if r["name"]=="aten::addmm"][0]["tflops"], 6)' "$TMP/ex.json")" \
    "$(json 'round(3221225472 / ([r for r in d["devices"][0]["rows"] if r["name"]=="aten::addmm"][0]["total_us"] * 1e-6) / 1e12, 6)' "$TMP/ex.json")"

# No percentage above 100 without its marker, in any trace's text output.
for f in "$TRACES"/*.json; do
    "$PROFANA" --analysis "$f" bf16 --name_limit 30 >"$TMP/t.txt"
    bad=$(awk -F' [|] ' 'NR > 4 { for (i = 11; i <= 12; i++) { v = $i; gsub(/ /, "", v); if (v + 0 > 100 && v !~ /!$/) print v } }' "$TMP/t.txt")
    check_eq "$(basename "$f"): no unmarked percentage over 100" "$bad" ""
done

# The formats carry the same rows: CSV has one line per row plus header and Total.
"$PROFANA" --analysis "$TRACES/explicit_bf16.json" bf16 --format csv >"$TMP/ex.csv"
check_eq "CSV: header + 14 kernel rows + Total" "$(wc -l <"$TMP/ex.csv" | tr -d ' ')" "16"
check_grep "CSV header names the columns" "^Device,Kernel Name,Category,Count,Total (us),Mean (us)" "$TMP/ex.csv"
"$PROFANA" --analysis "$TRACES/explicit_bf16.json" bf16 --format md >"$TMP/ex.md"
# Header + 14 rows + Total; the category table: header + 7 categories (gemm, reduction,
# elementwise, normalization, memcpy, memset, ...: counted from the JSON); the stream table:
# header + stream 7.
ncat=$("$PROFANA" --analysis "$TRACES/explicit_bf16.json" bf16 --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["devices"][0]["categories"]))')
check_eq "Markdown: one table line per row" "$(grep -c '^| ' "$TMP/ex.md")" "$((16 + 1 + ncat + 2))"
"$PROFANA" --analysis "$TRACES/explicit_bf16.json" bf16 --top 3 --format json >"$TMP/top.json"
check_eq "--top 3 keeps 3 rows" "$(json 'len(d["devices"][0]["rows"])' "$TMP/top.json")" "3"
check_eq "--top 3 says how many it left out" "$(json 'd["devices"][0]["rows_omitted"]' "$TMP/top.json")" "11"
check_eq "--top keeps the Total of all 69 activities" "$(json 'd["devices"][0]["total"]["count"]' "$TMP/top.json")" "69"

# --name_limit cuts names in text only.
"$PROFANA" --analysis "$TRACES/explicit_bf16.json" bf16 --name_limit 20 >"$TMP/nl.txt"
# the first row: the line under the table's dashed rule (the headline comes before the table)
check_eq "--name_limit 20 cuts the name column to 20 characters" "$(awk -F' [|] ' 'rule { print length($1); exit } /^-+$/ { rule = 1 }' "$TMP/nl.txt")" "20"

# --device forces an entry; fp32 GEMMs use the TF32 peak with --tf32.
"$PROFANA" --analysis "$TRACES/explicit_fp32.json" fp32 --group op --format json --device "A100 SXM 80GB" >"$TMP/a100.json"
check_eq "--device forces the A100 entry" "$(json 'd["devices"][0]["matched"]' "$TMP/a100.json")" "A100 SXM 80GB"
"$PROFANA" --analysis "$TRACES/explicit_fp32.json" fp32 --group op --format json >"$TMP/f32.json"
"$PROFANA" --analysis "$TRACES/explicit_fp32.json" fp32 --group op --format json --tf32 >"$TMP/tf32.json"
mm_pct='[r for r in d["devices"][0]["rows"] if r["name"]=="aten::mm"][0]["flops_pct"]'
# fp32 peak 67, tf32 peak 494.5: the same work is 494.5/67 times fewer percent of peak.
check_near "--tf32 measures fp32 GEMMs against the TF32 peak" \
    "$(json "$mm_pct" "$TMP/tf32.json")" "$(python3 -c "print($(json "$mm_pct" "$TMP/f32.json") * 67 / 494.5)")" 0.000001

# The demo command of the README runs.
check_run "README: make demo's command" 0 "$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16
check_grep "demo names the device and its match" "Device 0: NVIDIA H100 80GB HBM3 | matched: H100 SXM" "$TMP/out"
check_run "README: --list-devices" 0 "$PROFANA" --list-devices
check_grep "--list-devices lists MI300X" "MI300X" "$TMP/out"

# Compressed input, and the ROCm device-id quirk: the MI300X trace declares device 0 and runs on 2.
check_run "peer MI300X .json.gz" 0 "$PROFANA" --analysis testdata/peer/owlv2_mi300.json.gz bf16 --format json
cp "$TMP/out" "$TMP/mi300.json"
check_eq "MI300X VF matches the MI300X entry" "$(json 'd["devices"][0]["matched"]' "$TMP/mi300.json")" "MI300X"
check_eq "its events run on device 2" "$(json 'd["devices"][0]["id"]' "$TMP/mi300.json")" "2"
check_grep "the undeclared device is noted" "device 2 is not in deviceProperties" "$TMP/err"
gunzip -c testdata/peer/owlv2_h100.json.gz >"$TMP/h100.json"
"$PROFANA" --analysis testdata/peer/owlv2_h100.json.gz bf16 --format csv >"$TMP/gz.csv"
"$PROFANA" --analysis "$TMP/h100.json" bf16 --format csv >"$TMP/plain.csv"
check_eq ".json.gz gives the same rows as the decompressed file" "$(cmp -s "$TMP/gz.csv" "$TMP/plain.csv" && echo same)" "same"
raw_counts "$TMP/h100.json" >"$TMP/raw"
check_eq "peer H100: Total count = raw GPU events" "$(awk -F, '$2 == "Total" { print $4 }' "$TMP/gz.csv")" "$(awk '{ print $2 }' "$TMP/raw")"

# The README's example output is what the binary prints for it today.
awk '/^\$ profana --analysis testdata/ { on = 1; print; next } on && /^```/ { exit } on' README.md >"$TMP/readme_example"
cmd=$(head -n 1 "$TMP/readme_example" | sed 's/^\$ profana //')
tail -n +2 "$TMP/readme_example" >"$TMP/readme_want"
# shellcheck disable=SC2086
COLUMNS=120 "$PROFANA" $cmd >"$TMP/readme_got" # the width the README examples are shown at
check_eq "README example output is current" "$(cmp -s "$TMP/readme_want" "$TMP/readme_got" && echo same)" "same"

# --group op: CPU time from the nesting of host events, against the profiler's own table
# (key_averages "CPU total", column 5, in ms or us).
ref_cpu_total_us() { # FILE OP
    awk -v op="$2" '$1 == op { v = $5; if (v ~ /ms$/) { sub(/ms$/, "", v); v *= 1000 } else sub(/us$/, "", v); print v }' "$1"
}
"$PROFANA" --analysis "$TRACES/explicit_bf16.json" bf16 --group op --format json >"$TMP/cpu.json"
for op in aten::mm aten::addmm; do
    check_near "explicit_bf16: $op CPU total = key_averages' CPU total" \
        "$(json "[r['cpu_total_us'] for r in d['devices'][0]['rows'] if r['name']=='$op'][0]" "$TMP/cpu.json")" \
        "$(ref_cpu_total_us "$REFS/explicit_bf16.key_averages.txt" "$op")" 0.01
done
# Self CPU excludes nested events: aten::addmm 168.133 us in the profiler's table.
check_near "explicit_bf16: aten::addmm self CPU" \
    "$(json "[r['self_cpu_us'] for r in d['devices'][0]['rows'] if r['name']=='aten::addmm'][0]" "$TMP/cpu.json")" 168.133 0.01
check_eq "explicit_bf16: aten::mm calls" "$(json "[r['calls'] for r in d['devices'][0]['rows'] if r['name']=='aten::mm'][0]" "$TMP/cpu.json")" "9"

# Attention by hand (REFERENCE section 3), per invocation, times the invocations that
# launched GPU work (counted from the raw events):
#   eager_bf16 _cudnn_attention_forward: q,k,v [8,16,512,64] (B,H,S,D), causal:
#     (2*8*16*512*512*64 + 2*8*16*512*512*64) / 2 = 4294967296; backward 2.5x = 10737418240.
#   eager_fp32 _efficient_attention_forward: [4,256,16,64] (B,S,H,D), custom_mask_type 1:
#     (2*4*16*256*256*64 * 2) / 2 = 536870912; backward 1342177280.
invocations() { # FILE OP
    python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ids = {e["args"]["External id"] for e in d["traceEvents"] if e.get("cat") == "cpu_op" and e["name"] == sys.argv[2]}
print(len({e["args"].get("External id") for e in d["traceEvents"]
           if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset") and e["args"].get("External id") in ids}))
PY
}
check_attention() { # TRACE OP PER_CALL
    "$PROFANA" --analysis "$TRACES/$1.json" bf16 --group op --format json >"$TMP/att.json"
    n=$(invocations "$TRACES/$1.json" "$2")
    check_eq "$1: $2 FLOPs by hand ($n x $3)" \
        "$(json "[r['flop'] for r in d['devices'][0]['rows'] if r['name']=='$2'][0]" "$TMP/att.json")" "$((n * $3))"
}
check_attention eager_bf16 aten::_cudnn_attention_forward 4294967296
check_attention eager_bf16 aten::_cudnn_attention_backward 10737418240
check_attention eager_fp32 aten::_efficient_attention_forward 536870912
check_attention eager_fp32 aten::_efficient_attention_backward 1342177280

# Bytes are known for at least 95% of GPU time on every trace (issue 3).
for f in "$TRACES"/*.json; do
    "$PROFANA" --analysis "$f" bf16 --format json >"$TMP/cov.json"
    pct=$(json "round(100*sum(r['total_us'] for r in d['devices'][0]['rows'] if r['bytes'] is not None)/d['devices'][0]['total']['total_us'],2)" "$TMP/cov.json")
    check_eq "$(basename "$f"): bytes known for >= 95% of GPU time ($pct%)" "$(awk -v p="$pct" 'BEGIN { print (p >= 95) }')" "1"
done

# Coverage: since the max-pool ops got their formula (spatial.c), every op of the CNN has one:
# no op is listed as missing and FLOPs are known for all its GPU time.
"$PROFANA" --analysis "$TRACES/cnn_fp32.json" fp32 --group op --format json >"$TMP/cov.json"
check_eq "cnn: no op without a formula" "$(json "[m['op'] for m in d['devices'][0]['coverage']['missing']]" "$TMP/cov.json")" "[]"
check_near "cnn: flop_pct = 100%" "$(json "d['devices'][0]['coverage']['flop_pct']" "$TMP/cov.json")" 100 0.000001
# bytes_pct is the formulas' share; generic guesses (source "generic") have their own.
for f in "$TRACES"/*.json; do
    "$PROFANA" --analysis "$f" bf16 --format json >"$TMP/cov.json"
    check_eq "$(basename "$f"): coverage bytes_pct + bytes_generic_pct >= 95" \
        "$(json "d['devices'][0]['coverage']['bytes_pct'] + d['devices'][0]['coverage']['bytes_generic_pct'] >= 95" "$TMP/cov.json")" "True"
done
