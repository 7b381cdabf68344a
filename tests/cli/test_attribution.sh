# test_attribution.sh - how an op's work is split over its kernels (FLOPs on its math kernels, named by whole words, never on library helpers; bytes over all, by time), kernels carrying none of its FLOPs marked, CUDA-graph replays without their capture unknown with their cause, inferred figures shown; the split and the causes against the raw events read by Python and hand formulas, and every trace swept for helper rows with FLOPs.
# check: optimised
. tests/cli/lib.sh

# docs/analysis.md "How work is attributed": the math kernels are those whose names name the
# arithmetic in a whole word, the library helpers excepted (the oracles' copy of the rule:
# tests/cli/kernel_roles.py).
ORACLE='
import json, re, sys
from decimal import Decimal
sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts, ns
from kernel_roles import is_helper, is_math
'

# ---- GRU backward (testdata/w2026/rnn_fft.json.gz): 25.8 GFLOP over its GEMM kernels ----
R=testdata/w2026/rnn_fft.json.gz
python3 - "$R" >"$TMP/gru.json" <<PY
$ORACLE
ev = load(sys.argv[1])
op = next(e for e in ev if e.get("cat") == "cpu_op" and e["name"] == "aten::_cudnn_rnn_backward"
          and any(g["args"].get("External id") == e["args"]["External id"] for g in gpu_acts(ev)))
a = op["args"]
kernels = [g for g in gpu_acts(ev) if g["cat"] == "kernel" and g["args"].get("External id") == a["External id"]]
# GRU: 3 gates; hidden (Concrete Inputs[11]) 512; input size 512 (Input Dims[0][2]); tokens =
# 16 * 128; hx [layers * dirs, batch, H] = [2, 16, 512] with 1 layer: 2 directions.
# FLOP = 2 * tokens * dirs * gates * H * (in + H), once for the data and once for the weight
# gradients (output_mask [True, False, False, True]).
dims = a["Input Dims"]
H, I, tokens, dirs = int(a["Concrete Inputs"][11]), dims[0][2], dims[0][0] * dims[0][1], dims[4][0]
flop = 2 * (2 * tokens * dirs * 3 * H * (I + H))
math = [k for k in kernels if is_math(k["name"])]
mns = sum(ns(k["dur"]) for k in math)
print(json.dumps({"flop": flop, "n": len(kernels), "n_math": len(math),
                  "share": [ns(k["dur"]) / mns if is_math(k["name"]) else 0.0 for k in kernels]}))
PY
check_eq "GRU backward: hand FLOPs 2*2*2048*2*3*512*(512+512)" "$(json "d['flop']" "$TMP/gru.json")" 25769803776
check_run "GRU backward: --explain json" 0 "$PROFANA" --analysis "$R" fp32 --explain aten::_cudnn_rnn_backward --format json
cp "$TMP/out" "$TMP/ex.json"
check_eq "GRU backward: the op's FLOPs are the hand figure" "$(json "d['flop']" "$TMP/ex.json")" "$(json "d['flop']" "$TMP/gru.json")"
check_near "GRU backward: its kernels' FLOPs sum to the op's" "$(json "sum(a['flop'] or 0 for a in d['activities'])" "$TMP/ex.json")" 25769803776 0.000000001
python3 - "$TMP/ex.json" "$TMP/gru.json" >"$TMP/cmp" <<'PY'
import json, sys
d, o = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
ks = [a for a in d["activities"] if a["kind"] == "kernel"]
got = [(a["flop"] or 0) / d["flop"] for a in ks]
print(len(ks) == o["n"] and all(abs(g - w) <= 1e-9 for g, w in zip(got, o["share"])))
PY
check_eq "GRU backward: FLOPs on its GEMM kernels only, in proportion to their time" "$(cat "$TMP/cmp")" True
check_eq "GRU backward: the element-wise kernels say they carry none" \
    "$(json "all('FLOPs none' in a['work'] for a in d['activities'] if 'elementWise' in a['name'])" "$TMP/ex.json")" True
check_run "GRU: kernel rows json" 0 "$PROFANA" --analysis "$R" fp32 --format json
cp "$TMP/out" "$TMP/k.json"
check_eq "GRU: no kernel row above 100% of a peak" \
    "$(json "[r['name'][:40] for r in d['devices'][0]['rows'] if (r['flops_pct'] or 0) > 100 or (r['bw_pct'] or 0) > 100]" "$TMP/k.json")" "[]"
check_eq "GRU_elementWise_bp2: no FLOPs, marked flop_elsewhere (not 0.0)" \
    "$(json "[(r['flop'], r['flops_pct'], r['flop_elsewhere']) for r in d['devices'][0]['rows'] if r['name'].startswith('void GRU_elementWise_bp2')]" "$TMP/k.json")" \
    "[(None, None, True)]"
check_run "GRU: text" 0 "$PROFANA" --analysis "$R" fp32 --wide
check_grep "text: GRU_elementWise_bp2's FLOPS % reads op" "^void GRU_elementWise_bp2.*| *op |" "$TMP/out"
check_grep "text: the op footnote" "^op: the kernel does none of its op's arithmetic" "$TMP/out"

# ---- augment: MI300 Im2d2Col_v2 gets no kernel_flop 0 as a fact; its conv's GEMM gets the FLOPs ----
M=testdata/peer/owlv2_mi300.json.gz
check_run "mi300 augment" 0 "$PROFANA" --augment_trace "$M" "$TMP/aug.json" bf16
python3 - "$TMP/aug.json" >"$TMP/cmp" <<PY
$ORACLE
ev = load(sys.argv[1])
im = [e for e in gpu_acts(ev) if "Im2d2Col" in e["name"]]
print(len(im) > 0 and all("kernel_flop" not in e["args"] and "kernel_num_gb" in e["args"] for e in im))
# the first: aten::miopen_convolution [1,3,1008,1008] * [1024,3,14,14], stride 14: output 72x72;
# 2 * N * K * C * R * S * OH * OW = 2 * 1 * 1024 * 3 * 14 * 14 * 72 * 72 = 6242697216 FLOP, on its
# Tensile GEMM (Cijk_...)
ext = im[0]["args"]["External id"]
sib = [e for e in gpu_acts(ev) if e["cat"] == "kernel" and e["args"].get("External id") == ext and e is not im[0]]
print([(e["name"][:5], e["args"].get("kernel_flop")) for e in sib] == [("Cijk_", 2 * 1024 * 3 * 14 * 14 * 72 * 72)])
PY
check_eq "mi300: Im2d2Col_v2 carries its bytes and no kernel_flop; the conv's GEMM carries 2NKCRS*OH*OW" \
    "$(cat "$TMP/cmp" | tr '\n' ' ')" "True True "

# ---- CUDA-graph replays without their capture (torch.compile reduce-overhead, GPT-2) ----
G=testdata/graph/gpt2_reduce_overhead_plain.json.gz
python3 - "$G" >"$TMP/g.json" <<PY
$ORACLE
ev = load(sys.argv[1])
graph = {e["args"]["correlation"] for e in ev if e.get("cat") == "cuda_runtime" and e["name"] == "cudaGraphLaunch"}
acts = gpu_acts(ev)
rep = [e for e in acts if e["cat"] == "kernel" and e["args"].get("correlation") in graph]
geo = lambda e: (e["name"], json.dumps(e["args"].get("grid")), json.dumps(e["args"].get("block")))
outside = {geo(e) for e in acts if e["cat"] == "kernel" and e["args"].get("correlation") not in graph}
total = sum(ns(e["dur"]) for e in acts)
unknown = [e for e in rep if geo(e) not in outside]
print(json.dumps({"pct": 100 * sum(ns(e["dur"]) for e in unknown) / total, "n": len(rep),
                  "names": sorted({e["name"] for e in unknown})}))
PY
check_run "graph: json" 0 "$PROFANA" --analysis "$G" bf16 --format json
cp "$TMP/out" "$TMP/gj.json"
check_near "graph: replayed kernels' time share is the graph cause's" \
    "$(json "d['devices'][0]['coverage']['graph_replay_pct']" "$TMP/gj.json")" "$(json "d['pct']" "$TMP/g.json")" 0.000000001
python3 - "$TMP/gj.json" "$TMP/g.json" >"$TMP/cmp" <<'PY'
import json, sys
d, o = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
rows = {r["name"]: r for r in d["devices"][0]["rows"]}
print(o["n"] > 0 and all(rows[n]["flop"] is None and rows[n]["bytes"] is None for n in o["names"]))
PY
check_eq "graph: the replayed kernels' rows have no figures (no generic guess)" "$(cat "$TMP/cmp")" True
check_run "graph: text" 0 "$PROFANA" --analysis "$G" bf16
check_grep "graph: the cause" "CUDA-graph replay: record its capture and pass --graph-capture" "$TMP/out"
check_eq "graph: not 'no input shapes recorded', no CompiledFunction formula wanted" \
    "$(grep -c 'no input shapes recorded\|without a formula: CompiledFunction' "$TMP/out")" 0

# ---- a kernel replayed in a graph that also ran outside it takes those launches' figures ----
cat >"$TMP/syn.json" <<'EOF2'
{"traceEvents": [
{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 100, "dur": 50, "args": {"External id": 1, "Input Dims": [[64, 128], [128, 32]], "Input type": ["c10::BFloat16", "c10::BFloat16"], "Concrete Inputs": ["", ""]}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 105, "dur": 5, "args": {"External id": 1, "correlation": 10}},
{"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 0, "tid": 7, "ts": 110, "dur": 2, "args": {"External id": 1, "device": 0, "stream": 7, "correlation": 10, "grid": [4, 1, 1], "block": [128, 1, 1]}},
{"ph": "X", "cat": "cpu_op", "name": "Torch-Compiled Region: 0/0", "pid": 1, "tid": 1, "ts": 200, "dur": 50, "args": {"External id": 2}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaGraphLaunch", "pid": 1, "tid": 1, "ts": 205, "dur": 5, "args": {"External id": 2, "correlation": 20}},
{"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 0, "tid": 7, "ts": 210, "dur": 4, "args": {"External id": 2, "device": 0, "stream": 7, "correlation": 20, "grid": [4, 1, 1], "block": [128, 1, 1]}},
{"ph": "X", "cat": "kernel", "name": "other_kernel", "pid": 0, "tid": 7, "ts": 215, "dur": 4, "args": {"External id": 2, "device": 0, "stream": 7, "correlation": 20, "grid": [8, 1, 1], "block": [128, 1, 1]}},
{"ph": "X", "cat": "cpu_op", "name": "Torch-Compiled Region: 1/0", "pid": 1, "tid": 1, "ts": 300, "dur": 50, "args": {"External id": 3}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 305, "dur": 5, "args": {"External id": 3, "correlation": 30}},
{"ph": "X", "cat": "kernel", "name": "region_kernel", "pid": 0, "tid": 7, "ts": 310, "dur": 2, "args": {"External id": 3, "device": 0, "stream": 7, "correlation": 30, "grid": [2, 1, 1], "block": [64, 1, 1]}}
]}
EOF2
check_run "inferred: json" 0 "$PROFANA" --analysis "$TMP/syn.json" bf16 --device "H100 SXM" --format json
cp "$TMP/out" "$TMP/s.json"
# by hand: aten::mm [64,128] x [128,32] bf16: 2*64*128*32 = 524288 FLOP, (8192 + 4096 + 2048) * 2 =
# 28672 bytes per launch; the replayed launch of the same name and geometry takes them: 2 launches
check_eq "inferred: gemm_kernel's row shows the inferred figures (2 x 524288 FLOP, 2 x 28672 B)" \
    "$(json "[(r['flop'], r['bytes'], r['source']) for r in d['devices'][0]['rows'] if r['name'] == 'gemm_kernel']" "$TMP/s.json")" \
    "[(1048576, 57344, 'gemm+inferred')]"
check_eq "inferred: the replayed kernel with no twin has none" \
    "$(json "[(r['flop'], r['bytes']) for r in d['devices'][0]['rows'] if r['name'] == 'other_kernel']" "$TMP/s.json")" "[(None, None)]"
# 4 us of the 12 us: other_kernel (the replay's); 2 us: region_kernel under a compiled region without shapes
check_near "inferred: graph cause 4 / 12 us" "$(json "d['devices'][0]['coverage']['graph_replay_pct']" "$TMP/s.json")" 33.333333333 0.000000001
check_near "compiled region cause 2 / 12 us" "$(json "d['devices'][0]['coverage']['compiled_region_pct']" "$TMP/s.json")" 16.666666667 0.000000001
check_eq "compiled region: not counted as no shapes" "$(json "d['devices'][0]['coverage']['no_shapes_pct'] == 0" "$TMP/s.json")" True
# ---- every trace: no helper kernel's row shows FLOPs; cuBLAS's nvjet GEMMs carry theirs ----
# (before: a splitKreduce_kernel beside an nvjet GEMM read 62-68% of the bf16 peak, cuDNN's
# convert_dq_to_16bits took 4.6-19.7% of its attention backward's FLOPs)
n=0
for f in $(sweep_traces testdata ../shared/testdata/public); do
    case $f in */capture_traces/* | */execution_details.json | testdata/devices/*) continue ;; esac
    n=$((n + 1))
    "$PROFANA" --analysis "$f" bf16 --group kernel --format json >"$TMP/sweep_$n.json" 2>/dev/null || fail "$f --group kernel" "exit $?"
done
python3 - "$TMP"/sweep_*.json >"$TMP/roles" <<PY
$ORACLE
bad, helpers, nvjet = [], 0, 0
for path in sys.argv[1:]:
    d = json.load(open(path))
    for dev in d["devices"]:
        for r in dev["rows"]:
            if is_helper(r["name"]):
                helpers += 1
                if r["flop"]:
                    bad.append("%s: helper %s has %s FLOP" % (d["trace"], r["name"][:60], r["flop"]))
            elif r["name"].startswith("nvjet_"):
                nvjet += r["flop"] is not None and r["flop"] > 0
                if r["flop_elsewhere"] or r["flop"] == 0:
                    bad.append("%s: nvjet %s carries no FLOPs" % (d["trace"], r["name"][:60]))
print(json.dumps({"bad": bad, "helpers": helpers, "nvjet": nvjet}))
PY
check_eq "every trace ($n): no helper kernel row carries FLOPs, no nvjet row is left without them" \
    "$(json "d['bad']" "$TMP/roles")" "[]"
check_eq "every trace: the sweep saw helper rows and nvjet rows with FLOPs" \
    "$(json "d['helpers'] >= 20 and d['nvjet'] >= 40" "$TMP/roles")" True

# ---- cuDNN attention backward (eager_bf16): its FLOPs on the flash bprop kernel alone ----
E=$TRACES/eager_bf16.json
python3 - "$E" >"$TMP/bw.json" <<PY
$ORACLE
ev = load(sys.argv[1])
ops = {e["args"]["External id"]: e for e in ev if e.get("cat") == "cpu_op" and "External id" in e.get("args", {})}
ks = [g for g in gpu_acts(ev) if g["cat"] == "kernel" and ops.get(g["args"].get("External id"), {}).get("name")
      == "aten::_cudnn_attention_backward"]
print(json.dumps({"math": sorted({k["name"] for k in ks if is_math(k["name"])}),
                  "helpers": sorted({k["name"][:40] for k in ks if is_helper(k["name"])})}))
PY
check_eq "cuDNN attention backward: one math kernel (the flash bprop), two helpers (dot(dO, O), dQ conversion)" \
    "$(json "(len(d['math']), d['math'][0][:40], d['helpers'])" "$TMP/bw.json")" \
    "(1, 'cudnn_generated_fort_native_sdpa_sm90_fl', ['void cudnn::fusion::compute_dot_do_o_spe', 'void cudnn::fusion::convert_dq_to_16bits'])"
check_run "cuDNN attention backward: --group op json" 0 "$PROFANA" --analysis "$E" bf16 --group op --format json
cp "$TMP/out" "$TMP/bwo.json"
check_run "cuDNN attention backward: --group kernel json" 0 "$PROFANA" --analysis "$E" bf16 --format json
cp "$TMP/out" "$TMP/bwk.json"
check_near "cuDNN attention backward: the bprop kernel's FLOPs are the whole op's" \
    "$(json "[r['flop'] for r in d['devices'][0]['rows'] if r['name'].startswith('cudnn_generated_fort_native_sdpa_sm90_flash_bprop')][0]" "$TMP/bwk.json")" \
    "$(json "[r['flop'] for r in d['devices'][0]['rows'] if r['name'] == 'aten::_cudnn_attention_backward'][0]" "$TMP/bwo.json")" \
    0.000000001
check_eq "cuDNN attention backward: convert_dq_to_16bits and dot(dO, O) carry none (flop_elsewhere)" \
    "$(json "sorted((r['flop'], r['flop_elsewhere']) for r in d['devices'][0]['rows'] if 'convert_dq' in r['name'] or 'dot_do_o' in r['name'])" "$TMP/bwk.json")" \
    "[(None, True), (None, True)]"

check_run "graph: --explain a replayed kernel" 0 env COLUMNS=200 "$PROFANA" --analysis "$G" bf16 --explain nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT
check_grep "graph: --explain gives the graph cause" "status none: CUDA-graph replay: record its capture and pass --graph-capture" "$TMP/out"
check_grep "graph: --explain shows no figures" "^Figures: flop unknown, bytes unknown" "$TMP/out"
