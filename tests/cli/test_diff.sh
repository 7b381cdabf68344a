# test_diff.sh - --diff on the real traces: self-diffs, a batch-size pair, bf16 vs fp16, H100 vs MI300X (and the line naming --group op when kernels match little), the CI gate and errors, against figures read with Python's parser.
. tests/cli/lib.sh

PEER=testdata/peer

# raw_stats TRACE: "total_ns distinct_kernel_names" of the trace's GPU activities.
raw_stats() {
    python3 - "$1" <<'PY'
import sys
sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts, ns
acts = gpu_acts(load(sys.argv[1]))
print(sum(ns(e["dur"]) for e in acts), len({e["name"] for e in acts}))
PY
}

# op_launches TRACE OP...: per op, a JSON object {op: [launches, distinct shape keys,
# invocations]} of the GPU activities linked (External id) to a cpu_op of that name.
op_launches() {
    python3 - "$@" <<'PY'
import json, sys
sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts
events = load(sys.argv[1])
want = set(sys.argv[2:])
ops = {e["args"]["External id"]: e for e in events
       if e.get("cat") == "cpu_op" and "External id" in e.get("args", {})}
out = {}
for a in gpu_acts(events):
    op = ops.get(a["args"].get("External id"))
    if not op or op["name"] not in want:
        continue
    o = out.setdefault(op["name"], [0, set(), set()])
    o[0] += 1
    args = op["args"]
    o[1].add(json.dumps([args.get("Input Dims"), args.get("Input type"), args.get("Concrete Inputs")], default=str))
    o[2].add(args["External id"])
print(json.dumps({k: [v[0], len(v[1]), len(v[2])] for k, v in out.items()}))
PY
}

# coverage DIFF.json SIDE RAW.json: per op of RAW.json (op_launches), one line "op launches
# shapes invocations matched_invocations unmatched_rows rows" (a row's count is its
# invocations) over the diff's rows whose name on
# SIDE (a or b; a name "A vs B" gives each side its part) is a call of that op.
coverage() {
    python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
side, raw = sys.argv[2], json.load(open(sys.argv[3]))
for op in sorted(raw):
    launches = unmatched = rows = 0
    for dev in d["devices"]:
        for r in dev["rows"]:
            if r[side + "_count"] is None:
                continue
            parts = r["name"].split(" vs ")
            name = parts[0] if side == "a" or len(parts) == 1 else parts[1]
            if not name.startswith(op + "("):
                continue
            rows += 1
            if r["match"] is None:
                unmatched += 1
            else:
                launches += r[side + "_count"]
    print(op, *raw[op], launches, unmatched, rows)
PY
}

# self_check DIFF.json: "all_exact all_ratios_1 geomean only_a only_b all_matched a_pct b_pct
# ratio a_total_ns rows" of device pair 0.
self_check() {
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["devices"][0]
s, rows = d["summary"], d["rows"]
print(sorted({r["match"] for r in rows}) == ["exact"], sorted({r["ratio"] for r in rows if r["a_mean_us"] > 0}) == [1],
      s["geomean"], s["only_a"], s["only_b"], s["matched_rows"] == len(rows), s["a_matched_pct"], s["b_matched_pct"],
      s["ratio"], round(s["a_total_us"] * 1000), len(rows))
PY
}

# --- a trace against itself: every row exact, every ratio and the geomean 1 ---
for f in "$TRACES/eager_bf16.json" "$TRACES/cnn_fp32.json" "$TRACES/compiled_pair_b8.json" \
    "$TRACES/compiled_module_profile_0.json"; do
    base=$(basename "$f")
    set -- $(raw_stats "$f")
    total_ns=$1 kernels=$2
    for g in kernel op shape; do
        check_run "self $base --group $g" 0 "$PROFANA" --diff "$f" A "$f" B bf16 --group $g --format json
        set -- $(self_check "$TMP/out")
        check_eq "self $base $g: all rows exact, every ratio 1" "$1 $2" "True True"
        check_eq "self $base $g: geomean 1" "$3" "1"
        check_eq "self $base $g: no row alone, all matched" "$4 $5 $6" "0 0 True"
        check_eq "self $base $g: matched 100% of each side, ratio 1" "$7 $8 $9" "100 100 1"
        check_eq "self $base $g: total = Python's sum of GPU durations" "${10}" "$total_ns"
        [ "$g" = kernel ] && check_eq "self $base: one row per kernel name" "${11}" "$kernels"
    done
done

# --- two torch.compile runs of one model, batch 8 and 16: >= 90% of each side's time matched ---
A="$TRACES/compiled_pair_b8.json" B="$TRACES/compiled_pair_b16.json"
check_run "compiled pair: --group kernel" 0 "$PROFANA" --diff "$A" b8 "$B" b16 bf16 --format json
cp "$TMP/out" "$TMP/pair.json"
# The matched share recomputed from the rows: each matched row's time is the trace's time for
# that kernel name (Python), and normalised pairs are one Inductor kernel renumbered.
python3 - "$A" "$B" "$TMP/pair.json" >"$TMP/pair.chk" <<'PY'
import json, re, sys
sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts, ns
per = []
for path in sys.argv[1:3]:
    t = {}
    for e in gpu_acts(load(path)):
        t[e["name"]] = t.get(e["name"], 0) + ns(e["dur"])
    per.append(t)
d = json.load(open(sys.argv[3]))["devices"][0]
matched = [0, 0]
bad = 0
for r in d["rows"]:
    if r["match"] is None:
        continue
    names = r["name"].split(" vs ") if " vs " in r["name"] else [r["name"], r["name"]]
    for i, side in enumerate("ab"):
        matched[i] += per[i][names[i]]
        bad += abs(per[i][names[i]] - round(r[side + "_total_us"] * 1000)) > 0
    if r["match"] == "normalised":
        bad += re.sub(r"_\d+$", "", names[0]) != re.sub(r"_\d+$", "", names[1])
    elif r["match"] != "exact" or names[0] != names[1]:
        bad += 1
for i in range(2):
    print("%.6f" % (100.0 * matched[i] / sum(per[i].values())))
print(bad)
PY
{ read -r pct_a; read -r pct_b; read -r bad; } <"$TMP/pair.chk"
check_eq "compiled pair: every matched row is the same kernel, renumbered at most" "$bad" "0"
check_near "compiled pair: b8 matched share = Python's ($pct_a%)" "$(json "d['devices'][0]['summary']['a_matched_pct']" "$TMP/pair.json")" "$pct_a" 0.000001
check_near "compiled pair: b16 matched share = Python's ($pct_b%)" "$(json "d['devices'][0]['summary']['b_matched_pct']" "$TMP/pair.json")" "$pct_b" 0.000001
check_eq "compiled pair: >= 90% of b8's GPU time matched" "$(awk -v p="$pct_a" 'BEGIN { print (p >= 90) }')" "1"
check_eq "compiled pair: >= 90% of b16's GPU time matched" "$(awk -v p="$pct_b" 'BEGIN { print (p >= 90) }')" "1"
check_eq "compiled pair: renumbered Inductor kernels matched as normalised" \
    "$(json "sum(r['match'] == 'normalised' for r in d['devices'][0]['rows']) > 0" "$TMP/pair.json")" "True"
check_eq "compiled pair: rows by |delta|, matched ones first" "$(json "(lambda rows, m: [abs(r['b_total_us'] - r['a_total_us']) for r in m] == sorted((abs(r['b_total_us'] - r['a_total_us']) for r in m), reverse=True) and rows[:len(m)] == m)(d['devices'][0]['rows'], [r for r in d['devices'][0]['rows'] if r['match']])" "$TMP/pair.json")" "True"
# geomean of the per-row mean ratios, recomputed from the rows
check_near "compiled pair: geomean of the rows' mean ratios" "$(json "d['devices'][0]['summary']['geomean']" "$TMP/pair.json")" \
    "$(json "__import__('math').exp(sum(__import__('math').log(r['b_mean_us'] / r['a_mean_us']) for r in d['devices'][0]['rows'] if r['match']) / d['devices'][0]['summary']['matched_rows'])" "$TMP/pair.json")" 0.000001
set -- $(raw_stats "$A")
a_ns=$1
set -- $(raw_stats "$B")
b_ns=$1
check_near "compiled pair: ratio of totals = Python's" "$(json "d['devices'][0]['summary']['ratio']" "$TMP/pair.json")" \
    "$(awk -v a="$a_ns" -v b="$b_ns" 'BEGIN { printf "%.9f", b / a }')" 0.000001

# Text: the issue's columns, the levels line, the summary lines.
check_run "compiled pair: text" 0 "$PROFANA" --diff "$A" b8 "$B" b16 bf16 --wide
check_grep "text: columns" "^Kernel Name *| b8 Count | b8 Mean (us) | b8 Total (us) | b16 Count | b16 Mean (us) | b16 Total (us) | B/A *| Delta (us) | b8 TFLOP/s | b8 GB/s *| b16 TFLOP/s | b16 GB/s *| Match" "$TMP/out"
check_grep "text: rows per level" "^Matched rows: $(json "d['devices'][0]['summary']['matched_rows']" "$TMP/pair.json") (exact [0-9]*, normalised [0-9]*); only in b8: $(json "d['devices'][0]['summary']['only_a']" "$TMP/pair.json"), only in b16: $(json "d['devices'][0]['summary']['only_b']" "$TMP/pair.json")$" "$TMP/out"
check_grep "text: totals and ratio" "^GPU time: b8 $(awk -v a="$a_ns" 'BEGIN { printf "%.3f", a / 1000 }') us, b16 $(awk -v b="$b_ns" 'BEGIN { printf "%.3f", b / 1000 }') us, B/A " "$TMP/out"
check_grep "text: geomean line, with the time-weighted ratio beside it" "^Geomean of per-row mean-time ratios B/A: [0-9.]* over [0-9]* matched rows; time-weighted B/A (their total time): [0-9.]*$" "$TMP/out"
check_grep "text: category table of both sides" "^Category *| b8 Total (us) | b16 Total (us) | B/A *| Delta (us)$" "$TMP/out"
check_grep "text: one-side rows show -" "| *- | *- | *- | *- | *-" "$TMP/out"
check_run "compiled pair: csv" 0 "$PROFANA" --diff "$A" b8 "$B" b16 bf16 --format csv
check_eq "csv: one line per row plus the header" "$(python3 -c "import csv,sys; print(len(list(csv.reader(open(sys.argv[1])))) - 1)" "$TMP/out")" "$(json "len(d['devices'][0]['rows'])" "$TMP/pair.json")"
check_run "compiled pair: md" 0 "$PROFANA" --diff "$A" b8 "$B" b16 bf16 --format md
check_grep "md: a heading per device pair" "^### Device pair 0: b8 device 0 (NVIDIA H100 80GB HBM3) vs b16 device 0" "$TMP/out"
check_grep "md: a pipe table" "^| Kernel Name  *| b8 Count |" "$TMP/out"

# JSON has exactly the issue's keys.
check_eq "json: keys" "$(json "(sorted(d), sorted(d['devices'][0]), sorted(d['devices'][0]['a']), sorted(d['devices'][0]['rows'][0]), sorted(d['devices'][0]['summary']))" "$TMP/pair.json")" \
    "(['devices', 'schema'], ['a', 'b', 'categories', 'rows', 'rows_omitted', 'summary'], ['id', 'name'], ['a_count', 'a_gbps', 'a_mean_us', 'a_tflops', 'a_total_us', 'b_count', 'b_gbps', 'b_mean_us', 'b_tflops', 'b_total_us', 'basis', 'delta_us', 'match', 'name', 'ratio'], ['a_matched_pct', 'a_total_us', 'b_matched_pct', 'b_total_us', 'geomean', 'matched_rows', 'only_a', 'only_b', 'opposite', 'ratio', 'weighted_ratio'])"
check_eq "json: one-side rows have null on the missing side" "$(json "all((r['b_count'] is None) != (r['a_count'] is None) and r['ratio'] is None for r in d['devices'][0]['rows'] if r['match'] is None)" "$TMP/pair.json")" "True"

# --- bf16 against fp16 (eager): every GEMM and attention invocation matched by shape ---
A="$TRACES/eager_bf16.json" B="$TRACES/eager_fp16.json"
OPS="aten::mm aten::addmm aten::bmm aten::baddbmm aten::_cudnn_attention_forward aten::_cudnn_attention_backward aten::_flash_attention_forward aten::_flash_attention_backward aten::_efficient_attention_forward aten::_efficient_attention_backward"
check_run "bf16 vs fp16: --group shape" 0 "$PROFANA" --diff "$A" bf16 "$B" fp16 bf16 --group shape --format json
cp "$TMP/out" "$TMP/dt.json"
op_launches "$A" $OPS >"$TMP/ra.json"
op_launches "$B" $OPS >"$TMP/rb.json"
check_eq "bf16 vs fp16: Python finds GEMM and attention ops on both sides" \
    "$(json "sorted(d)" "$TMP/ra.json") $(json "sorted(d)" "$TMP/rb.json")" \
    "['aten::_cudnn_attention_backward', 'aten::_cudnn_attention_forward', 'aten::addmm', 'aten::mm'] ['aten::_cudnn_attention_backward', 'aten::_cudnn_attention_forward', 'aten::addmm', 'aten::mm']"
# The kernels differ: no GEMM kernel name is in both traces.
check_eq "bf16 vs fp16: the GEMM kernels have different names" "$(python3 - "$A" "$B" <<'PY'
import sys
sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts
names = [{e["name"] for e in gpu_acts(load(p)) if e["name"].startswith("nvjet")} for p in sys.argv[1:]]
print(len(names[0]) > 0 and not names[0] & names[1])
PY
)" "True"
for side in a b; do
    coverage "$TMP/dt.json" $side "$TMP/r$side.json" >"$TMP/cov"
    check_eq "bf16 vs fp16 ($side): one coverage line per op" "$(wc -l <"$TMP/cov" | tr -d ' ')" "$(json "len(d)" "$TMP/r$side.json")"
    while read -r op launches shapes calls got_calls unmatched rows; do
        check_eq "bf16 vs fp16 ($side): all $calls invocations of $op matched ($launches launches, $shapes shapes)" \
            "$got_calls $unmatched $rows" "$calls 0 $shapes"
    done <"$TMP/cov"
done
check_eq "bf16 vs fp16: GEMM rows match at shape-any-dtype" "$(json "sorted({r['match'] for r in d['devices'][0]['rows'] if r['name'].startswith('aten::mm(')})" "$TMP/dt.json")" "['shape-any-dtype']"

# --- H100 against MI300X (owlv2): every GEMM, attention and convolution invocation matched ---
A="$PEER/owlv2_h100.json.gz" B="$PEER/owlv2_mi300.json.gz"
OPS="$OPS aten::cudnn_convolution aten::miopen_convolution aten::convolution aten::_convolution"
check_run "H100 vs MI300X: --group shape" 0 "$PROFANA" --diff "$A" h100 "$B" mi300 bf16 --group shape --format json
cp "$TMP/out" "$TMP/peer.json"
op_launches "$A" $OPS >"$TMP/ra.json"
op_launches "$B" $OPS >"$TMP/rb.json"
check_eq "H100: Python finds GEMMs and cuDNN convolution" "$(json "sorted(d)" "$TMP/ra.json")" "['aten::addmm', 'aten::bmm', 'aten::cudnn_convolution', 'aten::mm']"
check_eq "MI300X: Python finds GEMMs and MIOpen convolution" "$(json "sorted(d)" "$TMP/rb.json")" "['aten::addmm', 'aten::bmm', 'aten::miopen_convolution', 'aten::mm']"
for side in a b; do
    coverage "$TMP/peer.json" $side "$TMP/r$side.json" >"$TMP/cov"
    check_eq "H100 vs MI300X ($side): one coverage line per op" "$(wc -l <"$TMP/cov" | tr -d ' ')" "$(json "len(d)" "$TMP/r$side.json")"
    while read -r op launches shapes calls got_calls unmatched rows; do
        check_eq "H100 vs MI300X ($side): all $calls invocations of $op matched ($launches launches, $shapes shapes)" \
            "$got_calls $unmatched $rows" "$calls 0 $shapes"
    done <"$TMP/cov"
done
check_eq "H100 vs MI300X: the convolution pairs cuDNN with MIOpen at the shape level" \
    "$(json "[(r['name'].split(' vs ')[1].split('(')[0], r['match']) for r in d['devices'][0]['rows'] if r['name'].startswith('aten::cudnn_convolution(')]" "$TMP/peer.json")" \
    "[('aten::miopen_convolution', 'shape')]"
check_eq "H100 vs MI300X: device 0 against device 2" "$(json "(d['devices'][0]['a']['id'], d['devices'][0]['b']['id'], d['devices'][0]['b']['name'])" "$TMP/peer.json")" "(0, 2, 'AMD Instinct MI300X VF')"
check_run "H100 vs MI300X: --group op" 0 "$PROFANA" --diff "$A" h100 "$B" mi300 bf16 --group op --format json
check_eq "--group op: cudnn_convolution meets miopen_convolution as a normalised (family) match" \
    "$(json "[r['match'] for r in d['devices'][0]['rows'] if r['name'] == 'aten::cudnn_convolution vs aten::miopen_convolution']" "$TMP/out")" "['normalised']"

# --- the low-match hint (issue 47): at --group kernel H100 and MI300X share few kernel names (the raw
# events: less than half of either side's kernel time is in names the other side ran), so the diff names
# --group op, with its matched shares as --group op's own diff reports them; a batch-size pair gets none ---
cp "$TMP/out" "$TMP/op.json"
check_run "H100 vs MI300X: --group kernel" 0 "$PROFANA" --diff "$A" h100 "$B" mi300 bf16 --top 3
python3 - "$A" "$B" "$TMP/out" "$TMP/op.json" <<'PY'
import json, re, sys
sys.path.insert(0, "tests/cli")
from raw import check, gpu_acts, load, ns

acts = [[e for e in gpu_acts(load(f))] for f in sys.argv[1:3]]
names = [{e["name"] for e in a} for a in acts]
shared = [100.0 * sum(ns(e["dur"]) for e in acts[k] if e["name"] in names[1 - k]) / sum(ns(e["dur"]) for e in acts[k])
          for k in (0, 1)]
text = re.sub(r"\n  ", " ", open(sys.argv[3]).read())
kern = [float(x) for x in re.search(r"^Matched time: ([\d.]+)% of h100's GPU time, ([\d.]+)% of mi300's$", text, re.M).groups()]
check("hint", "raw: under half of each side's time in kernel names the other ran (%.2f%%, %.2f%%)" % tuple(shared),
      max(shared) < 50, shared)
check("hint", "--group kernel matches at least the exactly shared names' time (%s >= %.2f, %.2f)" % (kern, *shared),
      all(k >= s - 0.005 for k, s in zip(kern, shared)))
m = re.search(r"^--group op matches more: ([\d.]+)% of h100's GPU time, ([\d.]+)% of mi300's \(", text, re.M)
op = json.load(open(sys.argv[4]))["devices"][0]["summary"]
check("hint", "the line naming --group op is printed", m is not None, text[-600:])
if m:
    check("hint", "its shares are --group op's own (%s, %s)" % m.groups(),
          abs(float(m.group(1)) - op["a_matched_pct"]) < 0.005 and abs(float(m.group(2)) - op["b_matched_pct"]) < 0.005)
PY
check_run "b8 vs b16: --group kernel" 0 "$PROFANA" --diff "$TRACES/compiled_pair_b8.json" b8 "$TRACES/compiled_pair_b16.json" b16 bf16
check_eq "b8 vs b16: a diff matching most of its kernel time names no other grouping" "$(grep -c 'matches more' "$TMP/out")" 0

# --- --fail-above: exit 3 when B's time exceeds A's by more than PCT, 0 otherwise ---
A="$TRACES/compiled_pair_b8.json" B="$TRACES/compiled_pair_b16.json"
set -- $(raw_stats "$A")
a_ns=$1
set -- $(raw_stats "$B")
b_ns=$1
pct=$(awk -v a="$a_ns" -v b="$b_ns" 'BEGIN { printf "%.4f", (b / a - 1) * 100 }')
below=$(awk -v p="$pct" 'BEGIN { printf "%.2f", p - 0.5 }')
above=$(awk -v p="$pct" 'BEGIN { printf "%.2f", p + 0.5 }')
check_run "--fail-above $below (b16 is $pct% slower)" 3 "$PROFANA" --diff "$A" b8 "$B" b16 bf16 --fail-above "$below"
check_grep "--fail-above: says why on stderr" "b16's GPU time .* is $(awk -v p="$pct" 'BEGIN { printf "%.2f", p }')% above b8's .*more than --fail-above $below% allows" "$TMP/err"
check_grep "--fail-above: the table is still printed" "^Device pair 0:" "$TMP/out"
check_run "--fail-above $above" 0 "$PROFANA" --diff "$A" b8 "$B" b16 bf16 --fail-above "$above"
check_run "--fail-above=0 when B is faster" 0 "$PROFANA" --diff "$B" b16 "$A" b8 bf16 --fail-above=0 --format json
check_run "--fail-above 0 on a self-diff" 0 "$PROFANA" --diff "$A" x "$A" y bf16 --fail-above 0

# --- errors ---
check_run "missing B trace" 1 "$PROFANA" --diff "$A" a "$TMP/nope.json" b bf16
check_grep "missing trace: one error line" "^profana: error: $TMP/nope.json" "$TMP/err"
check_eq "missing trace: nothing on stdout" "$(wc -c <"$TMP/out" | tr -d ' ')" "0"
check_run "a directory as A" 1 "$PROFANA" --diff testdata a "$B" b bf16
check_run "a trace with a bad string" 1 "$PROFANA" --diff "$A" a tests/broken/bad_escape_in_name.json b bf16
check_grep "bad trace: the byte where it stops making sense" "^profana: error: tests/broken/bad_escape_in_name.json: byte 769: bad escape in string" "$TMP/err"

# --- devices pair by position; the ones without a counterpart are named ---
python3 - "$TMP/two.json" "$TMP/one.json" <<'PY'
import json, sys
def trace(devices):
    ev = [{"ph": "X", "cat": "kernel", "name": "k", "pid": d, "tid": 7, "ts": 10 + d, "dur": 2 + d,
           "args": {"device": d, "stream": 7}} for d in devices]
    return {"deviceProperties": [{"id": d, "name": "NVIDIA H100 80GB HBM3"} for d in devices], "traceEvents": ev}
json.dump(trace([0, 1]), open(sys.argv[1], "w"))
json.dump(trace([0]), open(sys.argv[2], "w"))
PY
check_run "two devices against one" 0 "$PROFANA" --diff "$TMP/two.json" two "$TMP/one.json" one bf16
check_grep "left-out device named" "^two has more devices than one; left out: device 1 (NVIDIA H100 80GB HBM3)$" "$TMP/out"
check_run "two devices against one (json)" 0 "$PROFANA" --diff "$TMP/one.json" one "$TMP/two.json" two bf16 --format json
check_eq "json: one device pair" "$(json "len(d['devices'])" "$TMP/out")" "1"
check_grep "json: left-out device noted on stderr" "^profana: note: two has more devices than one; left out: device 1" "$TMP/err"

# --- the --diff example of docs/diff.md: each line it shows is a line of today's output, in order ---
awk '/^\$ profana --diff testdata/ { on = 1; print; next } on && /^```/ { exit } on' docs/diff.md >"$TMP/readme_example"
cmd=$(head -n 1 "$TMP/readme_example" | sed 's/^\$ profana //')
# shellcheck disable=SC2086
COLUMNS=120 "$PROFANA" $cmd >"$TMP/readme_got" 2>/dev/null # the width the README examples are shown at
tail -n +2 "$TMP/readme_example" >"$TMP/readme_want"
check_eq "README --diff example: every line shown is output, in order" "$(python3 - "$TMP/readme_want" "$TMP/readme_got" <<'PY'
import sys
want = open(sys.argv[1]).read().splitlines()
got = open(sys.argv[2]).read().splitlines()
i = 0
for line in want:
    if line == "...":
        continue
    while i < len(got) and got[i] != line:
        i += 1
    if i == len(got):
        print("missing: " + line)
        break
    i += 1
else:
    print(len([w for w in want if w != "..."]) > 10)
PY
)" "True"

# --diff of a compiled run read from the trace alone (Triton bytes a lower bound: its modules
# are not on this machine) against the same model recorded with Inductor's own kernel_num_gb
# (issue 43): every plain-side GB/s of a Triton row is marked ~lb, no bench-side one is, and
# the footnote says what ~lb is, once; the default columns (no GB/s) carry neither.
ID=testdata/inductor
"$PROFANA" --diff "$ID/bert_default_plain.json.gz" plain "$ID/bert_default_bench.json.gz" bench bf16 \
    --columns a_gbps,b_gbps --name_limit 60 >"$TMP/lb.txt" 2>&1
check_eq "diff ~lb: exit 0" "$?" 0
check_eq "diff ~lb: every plain-side Triton GB/s marked, no bench-side one" \
    "$(awk -F'|' '$1 ~ /^triton_(poi|red|per|tem)_/ && $2 ~ /[0-9]/ { a += ($2 ~ /~lb/); b += ($3 ~ /~lb/); n++ } END { print (n > 0 && a == n), b }' "$TMP/lb.txt")" "1 0"
check_eq "diff ~lb: the footnote once" "$(grep -c '^~lb: a lower bound' "$TMP/lb.txt")" 1
"$PROFANA" --diff "$ID/bert_default_plain.json.gz" plain "$ID/bert_default_bench.json.gz" bench bf16 >"$TMP/lb0.txt" 2>&1
check_eq "diff ~lb: default columns (no GB/s): no mark, no footnote" "$(grep -c '~lb' "$TMP/lb0.txt")" 0
