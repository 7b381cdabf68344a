# test_per_call.sh - --group op and shape count op invocations (Mean per call, Launches beside), --diff compares per call and pairs loose keys only at counts within 2x, rows keep FLOPs when a memset has no size, and Sources are listed whole: against the raw events, key_averages and shapes by hand.
# check: optimised
. tests/cli/lib.sh

PUBLIC=../shared/testdata/public/tracelens
CONVS=testdata/public/mi300_resnet_convs.json.gz

# --- every op and shape row against the invocations read from the raw events (per_call.py) ---
# TraceLens' traces of 14 to 16 MB of JSON: the B200 one in `make check` (an MI300 trace is
# $CONVS), all three in check-full
for f in "$TRACES"/*.json $PEER_TRACES "$CONVS" "$PUBLIC"/b200_vllm_eager.json.gz ${PF_SWEEP_ALL:+"$PUBLIC"/mi300_*.json.gz}; do
    [ -f "$f" ] || { echo "SKIP per call: $f is absent"; continue; }
    base=$(basename "$f")
    for g in op shape; do
        "$PROFANA" --analysis "$f" bf16 --group "$g" --format json --top 0 >"$TMP/pc_$g.json" 2>/dev/null
    done
    # one oracle run a trace (it reads the trace once for both groups): a line a group
    run_oracle tests/cli/per_call.py op,shape "$f" "$TMP/pc_op.json" "$TMP/pc_shape.json" >"$TMP/pc.got"
    for g in op shape; do
        check_eq "$base --group $g: Count = invocations, Launches, Mean/Min/Max per invocation (Python)" \
            "$(head -n 1 "$TMP/pc.got")" "ok"
        sed -i 1d "$TMP/pc.got"
    done
done

# --- PyTorch's own key_averages: calls and CUDA time avg of every op whose CUDA time is all its own ---
for ref in "$REFS"/*.key_averages.txt; do
    base=$(basename "$ref" .key_averages.txt)
    "$PROFANA" --analysis "$TRACES/$base.json" bf16 --group op --format json --top 0 >"$TMP/ka.json"
    set -- $(python3 - "$ref" "$TMP/ka.json" <<'PY'
import json, re, sys
def us(v):
    m = re.fullmatch(r"([0-9.]+)(us|ms|s)", v)
    return float(m.group(1)) * {"us": 1, "ms": 1e3, "s": 1e6}[m.group(2)]
rows = {r["name"]: r for r in json.load(open(sys.argv[2]))["devices"][0]["rows"]}
n = bad = 0
for line in open(sys.argv[1]):
    f = re.split(r"\s{2,}", line.strip())
    if len(f) < 11 or not f[0].startswith("aten::") or not f[6].endswith("s"):
        continue
    name, self_cuda, cuda_total, avg, calls = f[0], us(f[6]), us(f[8]), us(f[9]), int(f[10])
    # a leaf op (Self CUDA = CUDA total): its kernels link to it, not to an op it calls
    if self_cuda == 0 or self_cuda != cuda_total or name not in rows:
        continue
    n += 1
    bad += rows[name]["count"] != calls or abs(rows[name]["mean_us"] - avg) > 0.0015
print(n, bad)
PY
)
    check_eq "$base: $1 leaf ops: Count = key_averages' calls, Mean = its CUDA time avg" "$2" "0"
    [ "$1" -gt 0 ] || fail "$base: key_averages rows compared" "none"
done
"$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --group op --format json >"$TMP/mm.json"
mm='[r for r in d["devices"][0]["rows"] if r["name"] == "aten::mm"][0]'
# key_averages: aten::mm 48 calls, CUDA total 1.764ms, avg 36.753us; 54 GPU activities (6 memsets)
check_eq "eager_bf16 aten::mm: 48 calls, 54 launches" "$(json "($mm)['count'], ($mm)['launches']" "$TMP/mm.json")" "(48, 54)"
check_near "eager_bf16 aten::mm: Mean = key_averages' 36.753 us" "$(json "($mm)['mean_us']" "$TMP/mm.json")" 36.753 0.00002

# Text: op and shape tables have Launches after Count; kernel tables do not (Count is launches).
"$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --wide --group op >"$TMP/op.txt"
check_grep "text --group op: Count | Launches" "^Op  *| Category *| Count | Launches | Total (us) | Mean (us)" "$TMP/op.txt"
"$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --group shape --format csv >"$TMP/shape.csv"
check_grep "csv --group shape: Count,Launches" "Count,Launches,Total (us)" "$TMP/shape.csv"
"$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --wide >"$TMP/k.txt"
check_grep "text --group kernel: Count then Total, no Launches" "^Kernel Name  *| Category *| Count | Total (us) | Mean (us)" "$TMP/k.txt"

# --- --diff per call: H100 vs MI300X, whose libraries launch different kernels per op ---
P=testdata/peer
"$PROFANA" --diff "$P/owlv2_h100.json.gz" H100 "$P/owlv2_mi300.json.gz" MI300X bf16 --group op --format json \
    >"$TMP/peer.json" 2>/dev/null
check_eq "owlv2 --diff --group op: counts are invocations, ratios and geomean per call (Python)" \
    "$(run_oracle tests/cli/per_call.py diff "$P/owlv2_h100.json.gz" "$P/owlv2_mi300.json.gz" "$TMP/peer.json")" "ok"
# aten::addmm by hand from the raw events: per-call means, not per-launch ones.
check_near "owlv2 aten::addmm B/A = per-call ratio" \
    "$(json "[r for r in d['devices'][0]['rows'] if r['name'] == 'aten::addmm'][0]['ratio']" "$TMP/peer.json")" \
    "$(python3 - "$P/owlv2_h100.json.gz" "$P/owlv2_mi300.json.gz" <<'PY'
import sys
sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts, ns
means = []
for p in sys.argv[1:]:
    ev = load(p)
    ids = {e["args"]["External id"] for e in ev if e.get("cat") == "cpu_op" and e["name"] == "aten::addmm"}
    t = [ns(a["dur"]) for a in gpu_acts(ev) if a["args"].get("External id") in ids]
    called = {a["args"]["External id"] for a in gpu_acts(ev) if a["args"].get("External id") in ids}
    means.append(sum(t) / len(called))
print(means[1] / means[0])
PY
)" 0.000001

# --- loose keys pair only at counts within 2x ---
python3 - "$TMP/ka_a.json" "$TMP/ka_b.json" "$TMP/ka_c.json" <<'PY'
import json, sys
def trace(runs):
    # runs: (kernel name, launches); kernels that normalise alike ("fused_1", "fused_2": one key)
    ev, ts = [], 0
    for name, n in runs:
        for _ in range(n):
            ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7, "ts": ts, "dur": 2,
                       "args": {"device": 0, "stream": 7}})
            ts += 3
    return {"deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}], "traceEvents": ev}
json.dump(trace([("fused_1", 3)]), open(sys.argv[1], "w"))
json.dump(trace([("fused_2", 6)]), open(sys.argv[2], "w"))
json.dump(trace([("fused_2", 7)]), open(sys.argv[3], "w"))
PY
"$PROFANA" --diff "$TMP/ka_a.json" a "$TMP/ka_b.json" b bf16 --format json >"$TMP/d6.json"
check_eq "3 launches vs 6 (2x): paired at the normalised level" "$(json "[r['match'] for r in d['devices'][0]['rows']]" "$TMP/d6.json")" "['normalised']"
"$PROFANA" --diff "$TMP/ka_a.json" a "$TMP/ka_c.json" c bf16 --format json >"$TMP/d7.json"
check_eq "3 launches vs 7 (over 2x): not a pair, one row per side" "$(json "[(r['a_count'], r['b_count'], r['match']) for r in d['devices'][0]['rows']]" "$TMP/d7.json")" "[(3, None, None), (None, 7, None)]"
"$PROFANA" --diff "$TMP/ka_a.json" a "$TMP/ka_a.json" b bf16 --format json >"$TMP/d3.json"
check_eq "the same kernel name pairs exactly whatever the counts" "$(json "[r['match'] for r in d['devices'][0]['rows']]" "$TMP/d3.json")" "['exact']"
# The compiled pair: Python's launch counts of every pair matched beyond the exact level.
"$PROFANA" --diff "$TRACES/compiled_pair_b8.json" b8 "$TRACES/compiled_pair_b16.json" b16 bf16 --format json >"$TMP/pair.json"
check_eq "compiled pair: every normalised pair's launch counts (Python) within 2x" "$(python3 - "$TRACES/compiled_pair_b8.json" "$TRACES/compiled_pair_b16.json" "$TMP/pair.json" <<'PY'
import json, sys
sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts
n = []
for p in sys.argv[1:3]:
    c = {}
    for e in gpu_acts(load(p)):
        c[e["name"]] = c.get(e["name"], 0) + 1
    n.append(c)
rows = [r for r in json.load(open(sys.argv[3]))["devices"][0]["rows"] if r["match"] == "normalised"]
bad = [r["name"] for r in rows if max(n[0][r["name"].split(" vs ")[0]], n[1][r["name"].split(" vs ")[1]])
       > 2 * min(n[0][r["name"].split(" vs ")[0]], n[1][r["name"].split(" vs ")[1]])]
print(len(rows) > 0, bad)
PY
)" "True []"

# --- ROCm memsets without a size: the convolution rows keep their FLOPs (MI300 ResNet) ---
# Forward: 2*N*K*Ho*Wo*(C/groups)*R*S with Ho = (H + 2*pad - dil*(R-1) - 1)//stride + 1;
# backward: that of its grad_output times the number of grad_input and grad_weight in output_mask.
# Also the forward convolutions' bytes (forward_bytes).
conv_flops() {
    python3 - "$1" <<'PY'
import json, sys
sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts
ev = load(sys.argv[1])
first = {}
for e in ev:
    if e.get("cat") == "cpu_op" and "External id" in e.get("args", {}):
        first.setdefault(e["args"]["External id"], e)
launched = {a["args"].get("External id") for a in gpu_acts(ev)}
flop = {"aten::miopen_convolution": 0, "aten::convolution_backward": 0}
forward_bytes = 0
def ints(s):
    return [int(x) for x in s.strip("[]").split(",")]
for i, op in first.items():
    if op["name"] not in flop or i not in launched:
        continue
    a = op["args"]
    dims, ci = a["Input Dims"], a["Concrete Inputs"]
    if op["name"] == "aten::miopen_convolution":   # input, weight, bias, padding, stride, dilation, groups
        (n, c, h, w), (k, cg, r, s) = dims[0], dims[1]
        pad, st, dil = ints(ci[3]), ints(ci[4]), ints(ci[5])
        ho = (h + 2 * pad[0] - dil[0] * (r - 1) - 1) // st[0] + 1
        wo = (w + 2 * pad[1] - dil[1] * (s - 1) - 1) // st[1] + 1
        flop[op["name"]] += 2 * n * k * ho * wo * cg * r * s
        # bf16: input + weight + bias + output, each once
        forward_bytes += 2 * (n * c * h * w + k * cg * r * s + (dims[2][0] if dims[2] else 0) + n * k * ho * wo)
    else:   # grad_output, input, weight, bias_sizes, stride, padding, dilation, transposed, opad, groups, mask
        (n, k, ho, wo), (_, cg, r, s) = dims[0], dims[2]
        mask = [m.strip() == "True" for m in ci[10].strip("[]").split(",")]
        flop[op["name"]] += 2 * n * k * ho * wo * cg * r * s * (mask[0] + mask[1])
print(json.dumps(dict(flop, forward_bytes=forward_bytes)))
PY
}
for f in "$CONVS" "$PUBLIC/mi300_resnet_act_checkpoint.json.gz"; do
    [ -f "$f" ] || { echo "SKIP conv FLOPs: $f is absent"; continue; }
    base=$(basename "$f")
    "$PROFANA" --analysis "$f" bf16 --group op --format json --top 0 >"$TMP/conv.json" 2>/dev/null
    conv_flops "$f" >"$TMP/want.json"
    for op in aten::miopen_convolution aten::convolution_backward; do
        row="[r for r in d['devices'][0]['rows'] if r['name'] == '$op'][0]"
        check_eq "$base $op: FLOPs = the shapes' (hand formula)" "$(json "($row)['flop']" "$TMP/conv.json")" \
            "$(json "d['$op']" "$TMP/want.json")"
        # MI300X dense bf16: 1307.4 TFLOP/s (datasheet)
        check_near "$base $op: TFLOP/s = FLOPs / GPU time" "$(json "($row)['tflops']" "$TMP/conv.json")" \
            "$(python3 -c "import json; print(json.load(open('$TMP/want.json'))['$op'] / ($(json "($row)['total_us']" "$TMP/conv.json") * 1e6))")" 0.000001
        check_near "$base $op: FLOPS % of MI300X's bf16 peak" "$(json "($row)['flops_pct']" "$TMP/conv.json")" \
            "$(json "($row)['tflops'] / 1307.4 * 100" "$TMP/conv.json")" 0.000001
        check_eq "$base $op: a memset without a size counts 0 bytes (source memset~0), so the row keeps its bytes" \
            "$(json "'memset~0' in ($row)['source'] and ($row)['bytes'] is not None" "$TMP/conv.json")" "True"
    done
    # the forward convolutions' bytes by hand from the shapes (bf16: input + weight + bias +
    # output, each once), the memsets adding 0
    check_near "$base aten::miopen_convolution: bytes = the shapes' input + weight + bias + output" \
        "$(json "[r for r in d['devices'][0]['rows'] if r['name'] == 'aten::miopen_convolution'][0]['bytes']" "$TMP/conv.json")" \
        "$(json "d['forward_bytes']" "$TMP/want.json")" 0.000001
done
check_eq "the fixture's memsets have no size (Python)" "$(python3 - "$CONVS" <<'PY'
import sys
sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts
m = [a for a in gpu_acts(load(sys.argv[1])) if a["cat"] == "gpu_memset"]
print(len(m) > 0, any("bytes" in a["args"] for a in m))
PY
)" "True False"

# --- the Total row's Source lists every source its rows have ---
for f in "$P/owlv2_mi300.json.gz" "$TRACES/eager_bf16.json"; do
    "$PROFANA" --analysis "$f" bf16 --format json --top 0 >"$TMP/src.json" 2>/dev/null
    check_eq "$(basename "$f"): Total Source = every row's sources" \
        "$(json "sorted(set(d['devices'][0]['total']['source'].split('+'))) == sorted({s for r in d['devices'][0]['rows'] if r['source'] for s in r['source'].split('+')})" "$TMP/src.json")" "True"
done
# owlv2 MI300X: GEMMs (aten::addmm, aten::mm, aten::bmm cpu_ops launching kernels, Python) are in its Total
check_eq "owlv2 MI300X: Python finds GEMM ops that launched kernels" "$(python3 - "$P/owlv2_mi300.json.gz" <<'PY'
import sys
sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts
ev = load(sys.argv[1])
ids = {e["args"]["External id"] for e in ev if e.get("cat") == "cpu_op" and e["name"] in ("aten::addmm", "aten::mm", "aten::bmm")}
print(any(a["args"].get("External id") in ids for a in gpu_acts(ev)))
PY
)" "True"
"$PROFANA" --analysis "$P/owlv2_mi300.json.gz" bf16 --format json >"$TMP/src.json" 2>/dev/null
check_eq "owlv2 MI300X: the Total row's Source names gemm" "$(json "'gemm' in d['devices'][0]['total']['source'].split('+')" "$TMP/src.json")" "True"

# --by-category with --group op: Count is calls there too (key_averages: aten::mm 48, aten::addmm 24).
"$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --wide --group op --by-category >"$TMP/bc.txt"
check_eq "--by-category --group op: gemm rows and Total count calls" \
    "$(sed -n '/^== gemm ==/,/^Total/p' "$TMP/bc.txt" | awk -F' [|] ' '/^aten::mm |^aten::addmm |^Total / { gsub(/ /, "", $1); printf "%s=%d ", $1, $3 }')" \
    "aten::mm=48 aten::addmm=24 Total=72 "
