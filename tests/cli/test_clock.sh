# test_clock.sh - --clock scales every compute peak by MHZ / the entry's datasheet clock (bandwidth unchanged); --device-file and $PROFANA_DEVICES entries come before the built-in table; bad device files are one-line errors.
. tests/cli/lib.sh

# One aten::mm [64, 128] x [128, 256] in bf16 and its kernel of 2 us on a device named $2.
# By hand: FLOP 2 x 64 x 256 x 128 = 4194304 in 2 us = 2.097152 TFLOP/s; bytes
# (64 x 128 + 128 x 256 + 64 x 256) x 2 = 114688 in 2 us = 57.344 GB/s.
trace() {
    python3 - "$@" <<'PY'
import json, sys
out, name = sys.argv[1:3]
props = [{"id": 0, "name": name, "numSms": 132, "totalGlobalMem": 85000000000,
          "computeMajor": 9, "computeMinor": 0, "warpSize": 32}]
b = "c10::BFloat16"
ev = [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 100, "dur": 5,
       "args": {"External id": 1, "Input Dims": [[64, 128], [128, 256]], "Input type": [b, b],
                "Concrete Inputs": ["", ""]}},
      {"ph": "X", "cat": "kernel", "name": "sm90_bf16_gemm", "pid": 0, "tid": 7, "ts": 110, "dur": 2,
       "args": {"External id": 1, "device": 0, "stream": 7, "correlation": 1}}]
json.dump({"deviceProperties": props, "traceEvents": ev}, open(out, "w"))
PY
}

# field FILE ROW KEY: a figure of the JSON row named ROW of device 0 ('-' for null).
field() {
    python3 - "$@" <<'PY'
import json, sys
path, row, key = sys.argv[1:4]
d = json.load(open(path))["devices"][0]
r = d if row == "-" else [x for x in d["rows"] if x["name"] == row][0]
v = r[key]
print("-" if v is None else v)
PY
}

# percent NUM DEN: 100 * NUM / DEN
percent() { awk -v n="$1" -v d="$2" 'BEGIN { printf "%.10g", 100 * n / d }'; }

# --- --clock on the bundled H100 SXM trace: the table's bf16 peak 989.5 TFLOP/s assumes the
# 1830 MHz tensor clock (NVIDIA H100 datasheet; DEVICES.md section 4), so at 1500 MHz the
# peak is 989.5 x 1500 / 1830 and FLOPS % is the plain one times 1830 / 1500.
E=$TRACES/eager_bf16.json
check_run "eager_bf16 --group op json" 0 "$PROFANA" --analysis "$E" bf16 --group op --format json
cp "$TMP/out" "$TMP/plain.json"
check_run "eager_bf16 --group op json --clock 1500" 0 "$PROFANA" --analysis "$E" bf16 --group op --format json --clock 1500
cp "$TMP/out" "$TMP/clock.json"
tf=$(field "$TMP/clock.json" aten::mm tflops)
check_near "--clock 1500: aten::mm FLOPS % = TFLOP/s / (989.5 x 1500/1830)" "$(field "$TMP/clock.json" aten::mm flops_pct)" \
    "$(awk -v t="$tf" 'BEGIN { printf "%.10g", 100 * t / (989.5 * 1500 / 1830) }')" 1e-9
check_near "--clock 1500: FLOPS % is the plain one x 1830/1500" "$(field "$TMP/clock.json" aten::mm flops_pct)" \
    "$(awk -v p="$(field "$TMP/plain.json" aten::mm flops_pct)" 'BEGIN { printf "%.10g", p * 1830 / 1500 }')" 1e-9
check_eq "--clock 1500: TFLOP/s unchanged" "$tf" "$(field "$TMP/plain.json" aten::mm tflops)"
check_eq "--clock 1500: BW % unchanged" "$(field "$TMP/clock.json" aten::mm bw_pct)" "$(field "$TMP/plain.json" aten::mm bw_pct)"
check_eq "--clock 1500: JSON peak bf16 = 989.5 x 1500/1830" \
    "$(python3 -c "import json; print(round(json.load(open('$TMP/clock.json'))['devices'][0]['peak_tflops']['bf16'], 6))")" \
    "$(python3 -c "print(round(989.5 * 1500 / 1830, 6))")"
check_run "eager_bf16 --clock=1500 text" 0 "$PROFANA" --analysis "$E" bf16 --wide --clock=1500 --top 1
check_grep "--clock: the header names the clock and the datasheet's" \
    "peaks: fp32 54.9 TFLOP/s, bf16 811.1 TFLOP/s, DRAM 3350 GB/s | clock 1500 MHz (peaks scaled from the datasheet's 1830 MHz)$" "$TMP/out"

# --list-devices shows the clock each peak assumes (H100 SXM: 1830 MHz, its 1980 MHz boost beside it).
check_run "--list-devices csv" 0 "$PROFANA" --list-devices --format csv
check_eq "--list-devices: H100 SXM Boost MHz, Peak MHz" \
    "$(python3 -c "
import csv; r = [x for x in csv.DictReader(open('$TMP/out')) if x['Device'] == 'H100 SXM'][0]; print(r['Boost MHz'], r['Peak MHz'])")" "1980 1830"

# --- device files, on the hand-made one-mm trace.
trace "$TMP/h100.json" "NVIDIA H100 80GB HBM3"
trace "$TMP/h20.json" "NVIDIA H20"
cat >"$TMP/devs.json" <<'J'
[
  {"name": "My H100", "match": "h100 80gb", "tflops": {"bf16": 500, "fp32": 50}, "gbps": 1000, "clock_mhz": 1000},
  {"name": "H20", "match": "nvidia H20", "tflops": {"BF16": 148}, "gbps": 4000, "clock_mhz": 1980},
  {"name": "No clock", "match": "nvidia nowhere", "tflops": {"bf16": 100}, "gbps": 100}
]
J
check_run "built-in H100 SXM" 0 "$PROFANA" --analysis "$TMP/h100.json" bf16 --format json
check_near "built-in: FLOPS % = 2.097152 / 989.5" "$(field "$TMP/out" sm90_bf16_gemm flops_pct)" "$(percent 2.097152 989.5)" 1e-9
check_run "--device-file: its entry before the table" 0 "$PROFANA" --analysis "$TMP/h100.json" bf16 --format json --device-file "$TMP/devs.json"
check_eq "--device-file: matched (any case)" "$(field "$TMP/out" - matched)" "My H100"
check_near "--device-file: FLOPS % = 2.097152 / 500" "$(field "$TMP/out" sm90_bf16_gemm flops_pct)" "$(percent 2.097152 500)" 1e-9
check_near "--device-file: BW % = 57.344 / 1000" "$(field "$TMP/out" sm90_bf16_gemm bw_pct)" "$(percent 57.344 1000)" 1e-9
check_run "--device_file with --clock 1500 (entry at 1000 MHz)" 0 "$PROFANA" --analysis "$TMP/h100.json" bf16 --format json --device_file "$TMP/devs.json" --clock 1500
check_near "--device-file --clock: FLOPS % = 2.097152 / (500 x 1.5)" "$(field "$TMP/out" sm90_bf16_gemm flops_pct)" "$(percent 2.097152 750)" 1e-9
check_near "--device-file --clock: BW % unchanged" "$(field "$TMP/out" sm90_bf16_gemm bw_pct)" "$(percent 57.344 1000)" 1e-9
check_run "PROFANA_DEVICES" 0 env PROFANA_DEVICES="$TMP/devs.json" "$PROFANA" --analysis "$TMP/h100.json" bf16 --format json
check_eq "PROFANA_DEVICES: matched" "$(field "$TMP/out" - matched)" "My H100"
check_run "--device-file over PROFANA_DEVICES" 0 env PROFANA_DEVICES="$TMP/none.json" "$PROFANA" --analysis "$TMP/h100.json" bf16 --format json --device-file "$TMP/devs.json"
check_eq "--device-file over PROFANA_DEVICES: matched" "$(field "$TMP/out" - matched)" "My H100"

# An H20 has a built-in entry since issue 32 (bf16 148, secondary sources); the file's entry
# comes first. A name in no entry is unknown, '-'.
check_run "H20 without a file" 0 "$PROFANA" --analysis "$TMP/h20.json" bf16 --format json
check_near "H20 without a file: the built-in entry, FLOPS % = 2.097152 / 148" "$(field "$TMP/out" sm90_bf16_gemm flops_pct)" "$(percent 2.097152 148)" 1e-9
trace "$TMP/l20.json" "NVIDIA L20"
check_run "L20 (no entry)" 0 "$PROFANA" --analysis "$TMP/l20.json" bf16 --format json
check_eq "L20 (no entry): FLOPS % unknown" "$(field "$TMP/out" sm90_bf16_gemm flops_pct)" "-"
check_run "H20 with the file" 0 env COLUMNS=200 "$PROFANA" --analysis "$TMP/h20.json" bf16 --device-file "$TMP/devs.json"
check_grep "H20 with the file: header" "^Device 0: NVIDIA H20 | matched: H20 (device file; its match is in the name) | peaks: bf16 148.0 TFLOP/s, DRAM 4000 GB/s$" "$TMP/out"
check_run "H20 with the file, json" 0 "$PROFANA" --analysis "$TMP/h20.json" bf16 --format json --device-file "$TMP/devs.json"
check_near "H20 with the file: FLOPS % = 2.097152 / 148" "$(field "$TMP/out" sm90_bf16_gemm flops_pct)" "$(percent 2.097152 148)" 1e-9
check_run "--device names a file entry" 0 "$PROFANA" --analysis "$TMP/h20.json" bf16 --format json --device-file "$TMP/devs.json" --device "no clock"
check_near "--device 'no clock': FLOPS % = 2.097152 / 100" "$(field "$TMP/out" sm90_bf16_gemm flops_pct)" "$(percent 2.097152 100)" 1e-9
check_run "--clock on an entry without a clock" 0 "$PROFANA" --analysis "$TMP/h20.json" bf16 --format json --device-file "$TMP/devs.json" --device "no clock" --clock 1500
check_eq "--clock, entry without a clock: FLOPS % unknown" "$(field "$TMP/out" sm90_bf16_gemm flops_pct)" "-"
check_near "--clock, entry without a clock: BW % = 57.344 / 100" "$(field "$TMP/out" sm90_bf16_gemm bw_pct)" "$(percent 57.344 100)" 1e-9
check_run "--list-devices --device-file" 0 "$PROFANA" --list-devices --format csv --device-file "$TMP/devs.json"
check_eq "--list-devices: the file's entries first" "$(sed -n '2,4p' "$TMP/out" | cut -d, -f1 | tr '\n' ';')" "My H100;H20;No clock;"

# --- bad device files: one line, the byte where it stops making sense (counted by hand), exit 1.
# bad FILE_TEXT WANT_MESSAGE
bad() {
    printf '%s' "$1" >"$TMP/bad.json"
    check_run "bad device file: $2" 1 "$PROFANA" --analysis "$TMP/h100.json" bf16 --device-file "$TMP/bad.json"
    check_eq "bad device file: $2: message" "$(cat "$TMP/err")" "profana: error: $TMP/bad.json: $2"
}
bad '[{"name": "x" "match": "y"}]' 'byte 14: not JSON'
bad '{"name": "x"}' 'byte 0: expected a list of device entries'
bad '[{"name": "a", "match": "b"}, {"name": "c"}]' 'byte 30: entry 2: an entry without a "match" string (a part of the trace'"'"'s device name)'
bad '[{"name": "a", "match": "b", "tflops": {"bf17": 1}}]' 'byte 1: entry 1: "tflops" has an unknown dtype "bf17"'
bad '[{"name": "a", "match": "b", "gbps": -1}]' 'byte 1: entry 1: "gbps" is not a number from 0 to 1e9'
bad '[{"name": "a", "match": "b", "clock": 1}]' 'byte 1: entry 1: unknown key "clock" (name, match, tflops, gbps, clock_mhz, achievable, measured)'
bad '[7]' 'byte 1: entry 1: an entry is not an object'
check_run "missing device file" 1 "$PROFANA" --analysis "$TMP/h100.json" bf16 --device-file "$TMP/nope.json"
check_eq "missing device file: one line" "$(wc -l <"$TMP/err")" 1
check_run "bad PROFANA_DEVICES" 1 env PROFANA_DEVICES="$TMP/bad.json" "$PROFANA" --analysis "$TMP/h100.json" bf16
check_run "PROFANA_DEVICES ignored by --combine" 0 env PROFANA_DEVICES="$TMP/bad.json" "$PROFANA" --combine "$TMP/h100.json" "$TMP/h20.json" "$TMP/c.json"

# --- the README's examples: the --clock command and its header line, and the device file.
awk '/^\$ profana --analysis testdata\/traces\/eager_bf16.json bf16 --clock 1500/ { on = 1; next } on && /^```/ { exit } on' docs/devices.md >"$TMP/readme_clock"
check_run "README --clock example" 0 "$PROFANA" --analysis "$E" bf16 --wide --clock 1500 --top 1
check_eq "README --clock example: its header line" "$(head -n 1 "$TMP/out")" "$(cat "$TMP/readme_clock")"
awk '/the option wins over the variable/ { want = 1; next } want && /^```/ { if (on) exit; on = 1; next } on' docs/devices.md >"$TMP/readme_devs.json"
check_run "README device file on an H20" 0 "$PROFANA" --analysis "$TMP/h20.json" bf16 --format json --device-file "$TMP/readme_devs.json"
check_eq "README device file: matched" "$(field "$TMP/out" - matched)" "H20"
check_near "README device file: FLOPS % = 2.097152 / 148" "$(field "$TMP/out" sm90_bf16_gemm flops_pct)" "$(percent 2.097152 148)" 1e-9
