# test_graph.sh - CUDA/HIP-graph replays: --graph-capture maps each replayed kernel of the public vLLM decode trace to the op that recorded it in the capture, in launch order (the mapping, the ops' launches, the GEMMs' FLOPs and the shares of GPU time from the raw events); without a capture, a kernel with no op takes the figures of linked launches of the same name and geometry (eager_bf16.json with one GEMM kernel unlinked at test time, FLOPs by hand from the shapes).
# check: valgrind
. tests/cli/lib.sh

PUB=testdata/public/vllm_decode_full
if [ ! -d "$PUB" ]; then
    echo "SKIP graph: the vLLM decode trace is absent ($PUB)"
    exit 0
fi

# ---- the oracle: the replay's kernels and the capture's launch calls, read by Python ----
python3 - "$PUB" >"$TMP/expect" <<'PY' || fail "graph: oracle" "exited $?"
import collections
import glob
import gzip
import json
import sys
from decimal import Decimal

d = sys.argv[1]
rep = json.load(gzip.open(d + "/graph_execution.json.gz"))["traceEvents"]
cap_file = json.load(open(d + "/capture_traces/execution_details.json"))[0]["file"]
cap = json.load(gzip.open(d + "/capture_traces/" + cap_file))["traceEvents"]

# replayed kernels: those whose correlation is a graph launch's, by start time
graph_corr = {e["args"]["correlation"] for e in rep if e.get("cat") == "cuda_runtime" and "GraphLaunch" in e["name"]}
acts = [e for e in rep if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
replayed = sorted((e for e in acts if e.get("cat") == "kernel" and e["args"].get("correlation") in graph_corr),
                  key=lambda e: Decimal(str(e["ts"])))
# captured launches: kernel launch calls between the capture's begin and end, in launch order
rt = [e for e in cap if e.get("cat") == "cuda_runtime"]
begin = min(Decimal(str(e["ts"])) for e in rt if "StreamBeginCapture" in e["name"])
end = max(Decimal(str(e["ts"])) for e in rt if "StreamEndCapture" in e["name"])
captured = sorted((e for e in rt if "kernel" in e["args"] and begin <= Decimal(str(e["ts"])) <= end),
                  key=lambda e: Decimal(str(e["ts"])))
ops = {e["args"]["External id"]: e for e in cap if e.get("cat") == "cpu_op" and "External id" in e["args"]}
assert len(replayed) == len(captured), (len(replayed), len(captured))
assert all(r["name"] == c["args"]["kernel"] for r, c in zip(replayed, captured))
total = sum(Decimal(str(e["dur"])) for e in acts)
rep_ops = {e["args"]["External id"]: e for e in rep if e.get("cat") == "cpu_op" and "External id" in e["args"]}
print("mapped %d %.2f" % (len(replayed), 100 * sum(Decimal(str(e["dur"])) for e in replayed) / total))
# launches per op name: the replay's own ops plus the capture's through the mapping
per_op = collections.Counter(ops[c["args"]["External id"]]["name"] for c in captured)
for e in acts:
    o = rep_ops.get(e["args"].get("External id"))
    if o:
        per_op[o["name"]] += 1
for name in ("aten::addmm", "vllm::moe_forward", "_C_cache_ops::reshape_and_cache_flash", "_C::rotary_embedding"):
    print("launches %s %d" % (name, per_op[name]))


# aten::addmm(bias, a[M,K], b[K,N]): 2*M*N*K, once per call (capture calls through the mapping)
def addmm_flop(op):
    dims = op["args"]["Input Dims"]
    (m, k), (_, n) = dims[1], dims[2]
    return 2 * m * n * k


calls = {c["args"]["External id"] for c in captured if ops[c["args"]["External id"]]["name"] == "aten::addmm"}
own = {e["args"]["External id"] for e in acts if rep_ops.get(e["args"].get("External id"), {}).get("name") == "aten::addmm"}
print("addmm_gflop %.3f" % ((sum(addmm_flop(ops[i]) for i in calls) + sum(addmm_flop(rep_ops[i]) for i in own)) / 1e9))


# vllm::moe_forward(hidden [T, H], router_logits [T, E]): its top-k and its two packed mxfp4
# expert weights are on the capture's cpu_ops nested inside it (same thread, within its span):
# TopK's second Concrete Input, and the uint8 views [E, H/2, N1] and [E, I/2, H]
def moe_flop(op):
    (t, h), (_, e) = op["args"]["Input Dims"][:2]
    t0, t1 = op["ts"], op["ts"] + op["dur"]
    kids = [c for c in cap if c.get("cat") == "cpu_op" and c is not op and c["tid"] == op["tid"]
            and c["pid"] == op["pid"] and t0 <= c["ts"] and c["ts"] + c["dur"] <= t1]
    k = int([c for c in kids if c["name"] == "TopK"][0]["args"]["Concrete Inputs"][1])
    views = []
    for c in kids:
        dims, typ = c["args"]["Input Dims"][0], c["args"]["Input type"][0]
        if typ == "unsigned char" and len(dims) == 3 and dims[0] == e and dims not in views:
            views.append(dims)
    (_, k1, n1), (_, k2, n2) = views[:2]
    assert k1 * 2 == h and n2 == h and 2 * (k2 * 2) == n1, (views, h)
    return 2 * t * k * (h * n1 + k2 * 2 * h)


moe = [ops[c["args"]["External id"]] for c in captured if ops[c["args"]["External id"]]["name"] == "vllm::moe_forward"]
calls = {id(o): o for o in moe}  # once per call, each replay's copy counted
per_replay = {}
for c in captured:
    o = ops[c["args"]["External id"]]
    if o["name"] == "vllm::moe_forward":
        per_replay[o["args"]["External id"]] = moe_flop(o)
print("moe_call_flop %d" % sorted(set(per_replay.values()))[0])
print("moe_calls %d" % len(per_replay))
print("moe_gflop %.3f" % (sum(per_replay.values()) / 1e9))
PY

set -- $(grep ^mapped "$TMP/expect"); n=$2; share=$3
check_run "graph: --graph-capture DIR (execution_details.json)" 0 \
    "$PROFANA" --analysis "$PUB/graph_execution.json.gz" bf16 --wide --graph-capture "$PUB/capture_traces"
cp "$TMP/out" "$TMP/with.txt"
check_grep "graph: with the capture no activity is without a launching op" "; 0 without a launching op;" "$TMP/with.txt"
check_grep "graph: the coverage line gives the share of GPU time whose ops came from the capture (Python: $share%)" \
    "; ops from the graph capture: $share%" "$TMP/with.txt"
"$PROFANA" --analysis "$PUB/graph_execution.json.gz" bf16 --wide >"$TMP/without.txt" 2>&1
check_grep "graph: without the capture the Why line names --graph-capture ($n replayed kernels)" \
    "^Why: $n GPU activities.*graph-replayed kernels get their ops from the capture's trace with --graph-capture PATH" \
    "$TMP/without.txt"

"$PROFANA" --analysis "$PUB/graph_execution.json.gz" bf16 --group op --format json \
    --graph-capture "$PUB/capture_traces" >"$TMP/op.json"
while read -r _ name want; do
    got=$(python3 -c 'import json,sys; r=[r for r in json.load(open(sys.argv[1]))["devices"][0]["rows"] if r["name"]==sys.argv[2]]; print(r[0]["launches"] if r else 0)' "$TMP/op.json" "$name")
    check_eq "graph: $name launches (replay's own plus the capture's, in launch order)" "$got" "$want"
done <<EOF_LAUNCHES
$(grep ^launches "$TMP/expect")
EOF_LAUNCHES
set -- $(grep ^addmm_gflop "$TMP/expect"); want=$2
got=$(python3 -c 'import json,sys; r=[r for r in json.load(open(sys.argv[1]))["devices"][0]["rows"] if r["name"]=="aten::addmm"][0]; print("%.3f" % (r["flop"]/1e9))' "$TMP/op.json")
check_eq "graph: aten::addmm GFLOP from the capture's shapes, once per replayed call (2*M*N*K by hand)" "$got" "$want"
# moe_forward: top-k and the expert weights from the ops nested inside it in the capture.
# By hand: T=32 tokens, H=3072, k=4, w1 [32, 1536, 5888] uint8 (mxfp4: K = 3072), w2
# [32, 1472, 3072] (I = 2944 = 5888/2, gated): 2*32*4*(3072*5888 + 2944*3072) = 6,945,767,424
check_eq "graph: vllm::moe_forward FLOP per call from its nested ops (Python on the capture)" \
    "$(grep ^moe_call_flop "$TMP/expect" | cut -d' ' -f2)" 6945767424
set -- $(grep ^moe_gflop "$TMP/expect"); want=$2
got=$(python3 -c 'import json,sys; r=[r for r in json.load(open(sys.argv[1]))["devices"][0]["rows"] if r["name"]=="vllm::moe_forward"][0]; print("%.3f" % (r["flop"]/1e9), r["source"])' "$TMP/op.json")
check_eq "graph: vllm::moe_forward GFLOP over the replay's calls (Python: $want)" "$got" "$want moe~ub"
pct=$(sed -n 's/.*; FLOPs for \([0-9.]*\)%.*/\1/p' "$TMP/with.txt")
check_eq "graph: FLOPs known for at least 80% of the decode replay's GPU time ($pct%)" \
    "$(python3 -c 'import sys; print(float(sys.argv[1]) >= 80)' "${pct:-0}")" True
# the eager B200 vLLM trace is not in testdata/ (../shared's public traces only)
B200=../shared/testdata/public/tracelens/b200_vllm_eager.json.gz
[ -f "$B200" ] || B200=/work/shared/testdata/public/tracelens/b200_vllm_eager.json.gz
if [ -f "$B200" ]; then
"$PROFANA" --analysis "$B200" bf16 --group op --format json >"$TMP/b200.json" 2>/dev/null
check_eq "graph: an eager moe_forward with no nested weight views has no figures (source unrecorded)" \
    "$(python3 -c 'import json,sys; r=[r for d in json.load(open(sys.argv[1]))["devices"] for r in d["rows"] if r["name"]=="vllm::moe_forward"][0]; print(r["source"], r["flop"], r["bytes"])' "$TMP/b200.json")" \
    "unrecorded None None"
else
    echo "SKIP graph: eager moe_forward: the public B200 vLLM trace is absent ($B200)"
fi
check_eq "graph: JSON coverage.graph_capture.count" \
    "$(json 'd["devices"][0]["coverage"]["graph_capture"]["count"]' "$TMP/op.json")" "$n"

# a single capture file works as well as its directory
check_run "graph: --graph-capture FILE" 0 "$PROFANA" --analysis "$PUB/graph_execution.json.gz" bf16 --wide \
    --graph-capture "$(ls "$PUB"/capture_traces/*.json.gz)"
check_grep "graph: --graph-capture FILE maps the same share" "; ops from the graph capture: $share%" "$TMP/out"
# a capture of another graph maps nothing, and says so
check_run "graph: a capture that matches no replay" 0 "$PROFANA" --analysis "$PUB/graph_execution.json.gz" bf16 \
    --graph-capture "$TRACES/eager_bf16.json"
# (a note about the trace: in text, among the notes after the headline)
check_grep "graph: a note counts the replayed kernels that match no captured graph" \
    "^- .*$n graph-replayed kernels match no captured graph" "$TMP/out"
check_run "graph: a missing capture is an error" 1 "$PROFANA" --analysis "$PUB/graph_execution.json.gz" bf16 \
    --graph-capture "$TMP/nothing.json"
check_grep "graph: the error names the capture path" "^profana: error: $TMP/nothing.json: " "$TMP/err"
mkdir "$TMP/empty"
check_run "graph: a directory without traces is an error" 1 "$PROFANA" --analysis "$PUB/graph_execution.json.gz" bf16 \
    --graph-capture "$TMP/empty"
# A FIFO in a capture directory (issue 48: the run waited forever for a writer): listed by
# name or by execution_details.json, it is passed over with a warning, never opened, and the
# other captures map as before; a directory holding only FIFOs is an error.
mkdir "$TMP/fifos" "$TMP/fifos_listed" "$TMP/fifos_only"
cp "$PUB"/capture_traces/*.json.gz "$TMP/fifos/"
mkfifo "$TMP/fifos/zz_capture.json" "$TMP/fifos_only/capture.json"
check_run "graph: a FIFO in the capture directory: no hang" 0 timeout 60 "$PROFANA" --analysis "$PUB/graph_execution.json.gz" \
    bf16 --wide --graph-capture "$TMP/fifos"
check_grep "graph: a FIFO in the capture directory: the others map as before" "; ops from the graph capture: $share%" "$TMP/out"
check_eq "graph: a FIFO in the capture directory: one warning" "$(cat "$TMP/err")" \
    "profana: warning: $TMP/fifos/zz_capture.json: is a FIFO, not a capture trace (a regular file): passed over"
cp "$PUB"/capture_traces/* "$TMP/fifos_listed/"
mkfifo "$TMP/fifos_listed/fifo.json.gz"
python3 -c "
import json, sys
p = sys.argv[1] + '/execution_details.json'
d = json.load(open(p))
json.dump([{'file': 'fifo.json.gz', 'batch_size': 1, 'mode': 'FULL'}] + d, open(p, 'w'))" "$TMP/fifos_listed"
check_run "graph: a FIFO that execution_details.json lists: no hang" 0 timeout 60 "$PROFANA" --analysis \
    "$PUB/graph_execution.json.gz" bf16 --wide --graph-capture "$TMP/fifos_listed"
check_grep "graph: a FIFO that execution_details.json lists: the others map as before" "; ops from the graph capture: $share%" "$TMP/out"
check_grep "graph: a FIFO that execution_details.json lists: a warning" "fifo.json.gz: is a FIFO, not a capture trace" "$TMP/err"
check_run "graph: a directory of FIFOs only: an error, no hang" 1 timeout 60 "$PROFANA" --analysis "$PUB/graph_execution.json.gz" \
    bf16 --graph-capture "$TMP/fifos_only"
check_grep "graph: a directory of FIFOs only: the error" "^profana: error: $TMP/fifos_only: no capture trace" "$TMP/err"

# ---- without a capture: figures inferred from linked launches of the same name and geometry ----
python3 - "$TRACES/eager_bf16.json" "$TMP" >"$TMP/infer" <<'PY' || fail "infer: fixture" "exited $?"
import json
import sys
from decimal import Decimal

src, tmp = sys.argv[1:3]
t = json.load(open(src))
ev = t["traceEvents"]
ops = {e["args"]["External id"]: e for e in ev if e.get("cat") == "cpu_op" and "External id" in e["args"]}
NAME = "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NNT"
ks = [e for e in ev if e.get("cat") == "kernel" and e["name"] == NAME]
# the kernel runs at two geometries; its launches at grid [2,66,1] are all aten::mm of one shape
twins = [k for k in ks if k["args"]["grid"] == [2, 66, 1]]
assert len(twins) > 1 and len({json.dumps(ops[k["args"]["External id"]]["args"]["Input Dims"]) for k in twins}) == 1


def mm_flop(k):
    (m, kk), (_, n) = ops[k["args"]["External id"]]["args"]["Input Dims"][:2]
    return 2 * m * n * kk


flop = sum(mm_flop(k) for k in ks)  # before the id goes: the unlinked one's own shapes are its twins'
gone = twins[0]
del gone["args"]["External id"]  # its op unknown, as a replayed or library-launched kernel's
for e in ev:  # its launch call on a thread without ops (inside its op it would link by nesting)
    if e.get("cat") in ("cuda_runtime", "cuda_driver") and e["args"].get("correlation") == gone["args"]["correlation"]:
        e["tid"] = 999999
acts = [e for e in ev if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
total = sum(Decimal(str(e["dur"])) for e in acts)
print("row %s %d %.6f" % (NAME, len(ks), flop / 1e9))
print("share %.2f" % (100 * Decimal(str(gone["dur"])) / total))
json.dump(t, open(tmp + "/unlinked_one.json", "w"))
# the same kernel without its geometry: nothing to tell it by, nothing inferred
del gone["args"]["grid"]
json.dump(t, open(tmp + "/nogrid.json", "w"))
PY
set -- $(grep ^row "$TMP/infer"); kname=$2; count=$3; gflop=$4
set -- $(grep ^share "$TMP/infer"); ishare=$2
"$PROFANA" --analysis "$TMP/unlinked_one.json" bf16 --format json >"$TMP/inf.json"
check_eq "infer: the unlinked launch takes the FLOPs of its twins (same name, grid, block): row GFLOP = sum of 2*M*N*K over $count launches" \
    "$(python3 -c 'import json,sys; r=[r for r in json.load(open(sys.argv[1]))["devices"][0]["rows"] if r["name"]==sys.argv[2]][0]; print("%.6f" % (r["flop"]/1e9), r["count"])' "$TMP/inf.json" "$kname")" \
    "$gflop $count"
check_eq "infer: Source says inferred" \
    "$(python3 -c 'import json,sys; r=[r for r in json.load(open(sys.argv[1]))["devices"][0]["rows"] if r["name"]==sys.argv[2]][0]; print("inferred" in r["source"].split("+"))' "$TMP/inf.json" "$kname")" True
"$PROFANA" --analysis "$TMP/unlinked_one.json" bf16 --wide >"$TMP/inf.txt" 2>&1
check_grep "infer: the coverage line gives the inferred share (Python: $ishare%)" \
    "; no launching op: $ishare% (figures inferred from linked launches of the same kernel and geometry: $ishare%)" "$TMP/inf.txt"
check_grep "infer: FLOPs known for all GPU time" "FLOPs for 100.00%" "$TMP/inf.txt"
check_grep "infer: the Why line says which ones took inferred figures" "; 1 of them take the figures of the launches" "$TMP/inf.txt"
"$PROFANA" --analysis "$TMP/nogrid.json" bf16 --wide >"$TMP/ng.txt" 2>&1
if [ ! -s "$TMP/nogrid.json" ] || grep -q "inferred" "$TMP/ng.txt"; then fail "infer: no geometry, nothing inferred" "$(grep Coverage "$TMP/ng.txt")"; else pass "infer: no geometry, nothing inferred"; fi

# docs/analysis.md's example (section "CUDA/HIP-graph replays"): its output lines are the binary's
python3 - docs/analysis.md >"$TMP/readme_lines" <<'PY'
import sys
text = open(sys.argv[1]).read()
block = text.split("## CUDA/HIP-graph replays", 1)[1].split("```", 2)[1]
for line in block.strip().splitlines()[1:]:
    print(line)
PY
"$PROFANA" --analysis "$PUB/graph_execution.json.gz" bf16 --wide --graph-capture "$PUB/capture_traces" >"$TMP/readme_out" 2>/dev/null
while IFS= read -r line; do
    if grep -qxF -- "$line" "$TMP/readme_out"; then pass "graph: README example line: $(printf %.60s "$line")"; else fail "graph: README example line" "not in the output: $line"; fi
done <"$TMP/readme_lines"
[ -s "$TMP/readme_lines" ] || fail "graph: README example" "no example found"
