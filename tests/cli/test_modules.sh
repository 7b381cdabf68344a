# test_modules.sh - --group module: forward and backward GPU time per nn.Module path against tests/cli/modules_oracle.py (raw events, backward through the fwdbwd flows where profana follows sequence numbers) on a recorded MLP training step (testdata/diagnosis/numpy_preprocess) and TraceLens' Owlv2 inference (testdata/peer/owlv2_h100); classes, self time, --depth and --top, a trace without module events, refusals.
# check: valgrind
. tests/cli/lib.sh
set -u

TRAIN=testdata/diagnosis/numpy_preprocess.json.gz
OWL=testdata/peer/owlv2_h100.json.gz
NOSTACK=testdata/modules/mlp_stack_nostack.json.gz

# compare FILE.json ORACLE.json: every path's forward and backward time and calls, and the
# device's totals, within 0.5% (or 0.002 us); prints "ok N" or what differs
compare() {
    python3 - "$1" "$2" <<'EOF'
import json, sys
got = json.load(open(sys.argv[1]))["devices"][0]
want = json.load(open(sys.argv[2]))
bad = []
def near(a, b):
    return abs(a - b) <= max(0.002, 0.005 * abs(b))
for k in ("gpu_us", "forward_us", "backward_us"):
    if not near(got[k], want[k]):
        bad.append("%s %s != %s" % (k, got[k], want[k]))
rows = {r["path"]: r for r in got["modules"]}
for p, (fw, bw, calls) in want["paths"].items():
    if fw == 0 and bw == 0:
        if p in rows:
            bad.append("%s: a row without time" % p)
        continue
    r = rows.get(p)
    if r is None:
        bad.append("%s: no row" % p)
    elif not (near(r["forward_us"], fw) and near(r["backward_us"], bw) and r["calls"] == calls):
        bad.append("%s: %s %s %s != %s %s %s" % (p, r["forward_us"], r["backward_us"], r["calls"], fw, bw, calls))
extra = [p for p in rows if p not in want["paths"]]
bad += ["%s: not in the oracle" % p for p in extra]
print("; ".join(bad[:5]) if bad else "ok %d" % len(rows))
EOF
}

for f in $TRAIN $OWL; do
    n=$(basename "$f" .json.gz)
    check_run "$n --group module --format json" 0 "$PROFANA" --analysis "$f" bf16 --group module --format json
    cp "$TMP/out" "$TMP/$n.json"
    run_oracle tests/cli/modules_oracle.py "$f" >"$TMP/$n.oracle.json"
    got=$(compare "$TMP/$n.json" "$TMP/$n.oracle.json")
    check_eq "$n: forward and backward per module path equal the raw events' (${got#ok } paths)" "${got%% *}" ok
done

# --group annotation: the same over record_function ranges, on an FSDP2 rank (FSDP's and NCCL's
# annotations, nested) and the training step (the optimizer's).
for f in testdata/multirank/fsdp2_bf16_rank0.json.gz $TRAIN; do
    n=$(basename "$f" .json.gz)
    check_run "$n --group annotation --format json" 0 "$PROFANA" --analysis "$f" bf16 --group annotation --format json
    cp "$TMP/out" "$TMP/$n.ann.json"
    run_oracle tests/cli/modules_oracle.py --annotations "$f" >"$TMP/$n.ann.oracle.json"
    got=$(compare "$TMP/$n.ann.json" "$TMP/$n.ann.oracle.json")
    check_eq "$n: forward and backward per annotation path equal the raw events' (${got#ok } paths)" "${got%% *}" ok
done
check_eq "training step: Optimizer.step#SGD.step is an annotation row" \
    "$(json '[r["calls"] for r in d["devices"][0]["modules"] if r["path"] == "Optimizer.step#SGD.step"]' "$TMP/numpy_preprocess.ann.json")" "[3]"
check_run "no annotations" 0 "$PROFANA" --analysis testdata/traces/eager_bf16.json bf16 --group annotation
check_grep "no annotations: how to add them" "record_function" "$TMP/out"

# The training step: the backward kernels (launched inside a backward op: autograd's thread)
# reach their modules for at least 90% of their time; by hand, the first Linear has no input
# gradient to compute (its input needs none), so its backward is about half of the others'.
got=$(python3 - "$TRAIN" "$TMP/numpy_preprocess.json" <<'EOF'
import gzip, json, sys
ev = json.load(gzip.open(sys.argv[1]))["traceEvents"]
X = [e for e in ev if e.get("ph") == "X"]
bw_ops = [e for e in X if e.get("cat") == "cpu_op" and e.get("args", {}).get("Fwd thread id", 0) > 0]
rt = {e["args"]["correlation"]: e for e in X if e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {})}
bw = 0.0
for k in X:
    if k.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset"):
        c = rt.get(k["args"].get("correlation"))
        if c and any(o["tid"] == c["tid"] and o["ts"] <= c["ts"] <= o["ts"] + o["dur"] for o in bw_ops):
            bw += k["dur"]
d = json.load(open(sys.argv[2]))["devices"][0]
top = sum(r["backward_us"] for r in d["modules"] if r["depth"] == 0)
lin = {r["name"]: r["backward_us"] for r in d["modules"] if r["depth"] == 1}
others = [lin[k] for k in ("Linear_1", "Linear_2", "Linear_3")]
print("%s %s" % ("yes" if top >= 0.9 * bw else "no %.1f of %.1f" % (top, bw),
                 "yes" if lin["Linear_0"] < 0.65 * min(others) else "no %s" % lin))
EOF
)
set -- $got
check_eq "training step: >= 90% of the backward kernels' time reaches a top-level module" "$1" yes
check_eq "training step: Linear_0's backward (no input gradient) below two thirds of the others'" "$2" yes

# Self time: a path's total less its children's totals; a class sums its paths (once each).
got=$(python3 - "$TMP/owlv2_h100.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))["devices"][0]
rows = d["modules"]
kids = {}
for r in rows:
    if "/" in r["path"]:
        kids.setdefault(r["path"].rsplit("/", 1)[0], []).append(r)
bad = [r["path"] for r in rows
       if abs(r["total_us"] - sum(k["total_us"] for k in kids.get(r["path"], [])) - r["self_us"]) > 0.005]
lin = [r for r in rows if r["name"].startswith("Linear_")]
cls = {c["name"]: c for c in d["classes"]}["Linear"]
ok_cls = abs(cls["total_us"] - sum(r["total_us"] for r in lin)) < 0.01 and cls["calls"] == sum(r["calls"] for r in lin)
print("%s %s" % ("yes" if not bad else "no " + ",".join(bad[:3]), "yes" if ok_cls else "no"))
EOF
)
set -- $got
check_eq "Owlv2: self time = total - the children's totals, on every row" "$1" yes
check_eq "Owlv2: the Linear class sums its paths' time and calls" "$2" yes

# --depth and --top: rows at most N levels deep; the N with the most time (ancestors first).
"$PROFANA" --analysis "$OWL" bf16 --group module --format json --depth 2 >"$TMP/d2.json"
check_eq "--depth 2: the deepest row is at depth 1" \
    "$(json 'max(r["depth"] for r in d["devices"][0]["modules"])' "$TMP/d2.json")" 1
"$PROFANA" --analysis "$OWL" bf16 --group module --format json --top 3 >"$TMP/t3.json"
check_eq "--top 3: three rows, Owlv2ForObjectDetection_0 and two below it" \
    "$(json '[r["path"] for r in d["devices"][0]["modules"]]' "$TMP/t3.json")" \
    "['Owlv2ForObjectDetection_0', 'Owlv2ForObjectDetection_0/Owlv2Model_0', 'Owlv2ForObjectDetection_0/Owlv2Model_0/Owlv2VisionTransformer_0']"
check_run "text tree" 0 "$PROFANA" --analysis "$OWL" bf16 --group module --depth 3
check_grep "text: children indented two spaces a level" "^    Owlv2VisionTransformer_0 " "$TMP/out"
check_grep "text: the class table" "^Module class " "$TMP/out"
check_run "CSV" 0 "$PROFANA" --analysis "$OWL" bf16 --group module --format csv --depth 2
check_eq "CSV: a header and one line per row" "$(sed -n 1p "$TMP/out" | cut -d, -f1-3)" "Device,Path,Depth"

# A trace recorded with with_modules=True but without the stack (torch 2.11 writes no module
# events then): one line saying how to record them, exit 0, no table.
check_run "no module events" 0 "$PROFANA" --analysis "$NOSTACK" bf16 --group module
check_eq "no module events: one line (wrapped to the width, its lines after the first indented)" \
    "$(awk 'NR == 1 || !/^  /' "$TMP/out" | wc -l)" 1
check_eq "no module events: no line over the width (120)" "$(awk 'length > 120' "$TMP/out" | wc -l)" 0
check_grep "no module events: how to record them" "with_stack=True" "$TMP/out"
check_run "no module events, JSON" 0 "$PROFANA" --analysis "$NOSTACK" bf16 --group module --format json
check_eq "no module events, JSON: no devices, a note" "$(json 'len(d["devices"]) == 0 and "with_stack" in d["note"]' "$TMP/out")" True

# Refusals: module grouping has no rows table, and --diff compares rows tables.
check_run "--group module --waits" 2 "$PROFANA" --analysis "$TRAIN" bf16 --group module --waits
check_run "--group module --diff" 2 "$PROFANA" --diff "$TRAIN" a "$TRAIN" b bf16 --group module
check_run "--depth without --group module" 2 "$PROFANA" --analysis "$TRAIN" bf16 --depth 2

# A hand-made trace whose answer is written here: Net_0 holds Block_0 (ts 100-300) on thread 1;
# kernel k1 (10 us) is launched inside Block_0, k2 (20 us) inside Net_0 only, k3 (40 us) outside
# both; on autograd's thread 2, MmBackward0 (sequence number 7, whose forward op aten::mm sits in
# Block_0) launches k4 (80 us), and AccumulateGrad (no sequence number, as torch writes it)
# launches k5 (160 us): backward, but of no module.
python3 - "$TMP/hand.json" <<'EOF'
import json, sys
ev = [
    {"ph": "X", "cat": "python_function", "name": "nn.Module: Net_0", "pid": 1, "tid": 1, "ts": 50, "dur": 400},
    {"ph": "X", "cat": "python_function", "name": "nn.Module: Block_0", "pid": 1, "tid": 1, "ts": 100, "dur": 200},
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 110, "dur": 20,
     "args": {"External id": 1, "Sequence number": 7, "Fwd thread id": 0}},
    {"ph": "X", "cat": "cpu_op", "name": "MmBackward0", "pid": 1, "tid": 2, "ts": 1000, "dur": 50,
     "args": {"External id": 2, "Sequence number": 7, "Fwd thread id": 1}},
    {"ph": "X", "cat": "cpu_op", "name": "torch::autograd::AccumulateGrad", "pid": 1, "tid": 2, "ts": 1100, "dur": 50,
     "args": {"External id": 3}},
]
def launch(corr, tid, ts, kts, dur):
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": tid, "ts": ts, "dur": 5,
               "args": {"correlation": corr}})
    ev.append({"ph": "X", "cat": "kernel", "name": "k%d" % corr, "pid": 0, "tid": 7, "ts": kts, "dur": dur,
               "args": {"correlation": corr, "device": 0, "stream": 7}})
launch(1, 1, 120, 2000, 10)
launch(2, 1, 320, 2100, 20)
launch(3, 1, 500, 2200, 40)
launch(4, 2, 1010, 2300, 80)
launch(5, 2, 1110, 2500, 160)
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
EOF
check_run "hand-made trace" 0 "$PROFANA" --analysis "$TMP/hand.json" bf16 --group module --format json
check_eq "hand-made trace: Net_0 forward 30, backward 80; Block_0 forward 10, backward 80, self 90" \
    "$(json '[(r["path"], r["forward_us"], r["backward_us"], r["self_us"], r["calls"]) for r in d["devices"][0]["modules"]]' "$TMP/out")" \
    "[('Net_0', 30, 80, 20, 1), ('Net_0/Block_0', 10, 80, 90, 1)]"
check_eq "hand-made trace: GPU 310 = forward 30 + backward 80 + backward without a module 160 + outside 40" \
    "$(json '[d["devices"][0][k] for k in ("gpu_us", "forward_us", "backward_us", "backward_unattributed_us", "outside_us")]' "$TMP/out")" \
    "[310, 30, 80, 160, 40]"

# --step N: the activities of that step, and the calls that start inside its window (the
# training step runs the model once a step: one call of each path).
check_run "--step 2" 0 "$PROFANA" --analysis "$TRAIN" bf16 --group module --step 2 --format json
check_eq "--step 2: one call of each path" "$(json 'sorted(set(r["calls"] for r in d["devices"][0]["modules"]))' "$TMP/out")" "[1]"

# --report: a trace with module events gets each device's module table (whole paths, at most 4
# levels, the 40 with the most time), its totals those of --group module's JSON.
check_run "--report with module events" 0 "$PROFANA" --analysis "$TRAIN" bf16 --quiet --report "$TMP/r.html"
got=$(python3 - "$TMP/r.html" "$TMP/numpy_preprocess.json" <<'EOF'
import json, sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__(); self.tables = []; self.cap = None; self.cell = None; self.row = None
    def handle_starttag(self, tag, a):
        if tag == "table": self.tables.append({"caption": "", "rows": []})
        elif tag == "caption": self.cap = ""
        elif tag == "tr": self.row = []
        elif tag in ("td", "th"): self.cell = ""
    def handle_endtag(self, tag):
        if tag == "caption": self.tables[-1]["caption"] = self.cap; self.cap = None
        elif tag in ("td", "th") and self.row is not None: self.row.append(self.cell); self.cell = None
        elif tag == "tr": self.tables[-1]["rows"].append(self.row); self.row = None
    def handle_data(self, d):
        if self.cap is not None: self.cap += d
        if self.cell is not None: self.cell += d
p = P(); p.feed(open(sys.argv[1]).read())
t = [t for t in p.tables if t["caption"].startswith("Modules")]
if len(t) != 1:
    print("tables %d" % len(t)); sys.exit()
head, body = t[0]["rows"][0], t[0]["rows"][1:]
col = head.index("Total (us)")
want = {r["path"]: r["total_us"] for r in json.load(open(sys.argv[2]))["devices"][0]["modules"]}
got = {r[0]: float(r[col]) for r in body}
print("ok" if got.keys() == want.keys() and all(abs(got[k] - want[k]) < 0.001 for k in got) else "differ %s %s" % (got, want))
EOF
)
check_eq "--report: the module table's paths and totals are --group module's" "$got" ok
