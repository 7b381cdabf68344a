# test_why.sh - the analysis says why figures are missing: no input shapes recorded (split from "no formula"), a GPU-only trace, activities without a launching op and whether their launch call is in the trace, tensor lists recorded as [] (testdata/lists/bare_lists.json: unknown, not 0, and a fused AdamW with shapes by hand); fixtures derived from eager_bf16.json at test time, expected figures from the raw events.
# check: valgrind
. tests/cli/lib.sh

python3 - "$TRACES/eager_bf16.json" "$TMP" <<'PY' || fail "why: fixtures" "exited $?"
import json
import sys

src, tmp = sys.argv[1:3]
t = json.load(open(src))
ev = t["traceEvents"]
SHAPE_KEYS = ("Input Dims", "Input type", "Input Strides", "Concrete Inputs")


def write(name, events):
    d = dict(t)
    d["traceEvents"] = events
    json.dump(d, open("%s/%s" % (tmp, name), "w"))


# record_shapes off: the cpu_ops carry no argument fields at all
noshapes = json.loads(json.dumps(ev))
for e in noshapes:
    if e.get("cat") == "cpu_op":
        for k in SHAPE_KEYS:
            e.get("args", {}).pop(k, None)
write("noshapes.json", noshapes)
# GPU activities only (ProfilerActivity.CUDA alone): no cpu_op, no runtime call
write("gpuonly.json", [e for e in ev if e.get("cat") not in ("cpu_op", "cuda_runtime", "cuda_driver", "user_annotation",
                                                             "python_function")])
# every aten::addmm cpu_op dropped (its kernels keep their launch calls, moved to a thread
# without ops, as a library's own launches are: inside an op they would link by nesting), and
# every aten::mm cpu_op dropped with its kernels' launch calls
def corr_of(name):
    ids = {e["args"]["External id"] for e in ev if e.get("cat") == "cpu_op" and e["name"] == name}
    return {e["args"]["correlation"] for e in ev
            if e.get("cat") in ("kernel", "gpu_memset", "gpu_memcpy") and e["args"].get("External id") in ids}


mm_corr, addmm_corr = corr_of("aten::mm"), corr_of("aten::addmm")
unlinked = json.loads(json.dumps(ev))
for e in unlinked:
    if e.get("cat") in ("cuda_runtime", "cuda_driver") and e["args"].get("correlation") in addmm_corr:
        e["tid"] = 999999
write("unlinked.json", [e for e in unlinked if not (e.get("cat") == "cpu_op" and e["name"] in ("aten::addmm", "aten::mm"))
                        and not (e.get("cat") in ("cuda_runtime", "cuda_driver") and e["args"].get("correlation") in mm_corr)])
PY

python3 - "$TMP" <<'PY' >"$TMP/expect" || fail "why: oracle" "exited $?"
# Expected figures from the derived traces' raw events.
import sys
from decimal import Decimal

sys.path.insert(0, "tests/cli")
import raw

tmp = sys.argv[1]


def linked(events):
    ops = {e["args"]["External id"]: e for e in events if e.get("cat") == "cpu_op" and "External id" in e["args"]}
    launches = {e["args"]["correlation"] for e in events if e.get("cat") in ("cuda_runtime", "cuda_driver")}
    return ops, launches


ev = raw.load(tmp + "/noshapes.json")
acts = raw.gpu_acts(ev)
total = sum(Decimal(a["dur"]) for a in acts)
kern = sum(Decimal(a["dur"]) for a in acts if a["cat"] == "kernel")
print("noshapes %.2f" % (100 * kern / total))

ev = raw.load(tmp + "/unlinked.json")
ops, launches = linked(ev)
acts = raw.gpu_acts(ev)
total = sum(Decimal(a["dur"]) for a in acts)
un = [a for a in acts if a["args"].get("External id") not in ops]
no_call = [a for a in un if a["args"]["correlation"] not in launches]
print("unlinked %d %.3f %.2f %d %d" % (len(un), sum(Decimal(a["dur"]) for a in un),
                                     100 * sum(Decimal(a["dur"]) for a in un) / total, len(un) - len(no_call), len(no_call)))
PY

# shellcheck disable=SC2046
set -- $(grep noshapes "$TMP/expect")
ns_pct=$2
"$PROFANA" --analysis "$TMP/noshapes.json" bf16 --wide --group op >"$TMP/ns.txt" 2>&1
check_grep "no shapes: the coverage line gives the share of GPU time without shapes (kernels' time, Python)" \
    "; no input shapes recorded: $ns_pct%" "$TMP/ns.txt"
check_grep "no shapes: one line says why and how to record them" \
    "^Why: the trace has no input shapes (recorded without record_shapes.*record_shapes=True)" "$TMP/ns.txt"
if grep -q "ops without a formula" "$TMP/ns.txt"; then
    fail "no shapes: no op is blamed on a missing formula" "$(grep Coverage "$TMP/ns.txt")"
else
    pass "no shapes: no op is blamed on a missing formula"
fi
"$PROFANA" --analysis "$TMP/noshapes.json" bf16 --format json >"$TMP/ns.json"
check_eq "no shapes: JSON coverage.no_shapes_pct" \
    "$(python3 -c 'import json,sys; print("%.2f" % json.load(open(sys.argv[1]))["devices"][0]["coverage"]["no_shapes_pct"])' "$TMP/ns.json")" "$ns_pct"

"$PROFANA" --analysis "$TMP/gpuonly.json" bf16 --wide >"$TMP/go.txt" 2>&1
check_grep "GPU-only: one line says the trace has no CPU activity and how to record it" \
    "^Why: the trace has no CPU activity (recorded with GPU activities only).*ProfilerActivity.CPU" "$TMP/go.txt"
check_grep "GPU-only: every activity has no launching op" "; no launching op: 100.00%" "$TMP/go.txt"

# shellcheck disable=SC2046
set -- $(grep unlinked "$TMP/expect")
n=$2 us=$3 pct=$4 in_trace=$5 no_call=$6
"$PROFANA" --analysis "$TMP/unlinked.json" bf16 --wide >"$TMP/un.txt" 2>&1
check_grep "no launching op: the coverage line gives their share (Python: $pct%)" "; no launching op: $pct%" "$TMP/un.txt"
check_grep "no launching op: how many, how long, and why ($n: $in_trace with a launch call, $no_call without)" \
    "^Why: $n GPU activities ($us us, $pct% of GPU time) have no launching op: $in_trace launched by a call outside any recorded op.*; $no_call with no launch call in the trace" \
    "$TMP/un.txt"
"$PROFANA" --analysis "$TMP/unlinked.json" bf16 --format json >"$TMP/un.json"
check_eq "no launching op: JSON coverage.no_launching_op" \
    "$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["devices"][0]["coverage"]["no_launching_op"]; print(c["count"], "%.3f" % c["total_us"], c["no_launch_call"])' "$TMP/un.json")" \
    "$n $us $no_call"
"$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --wide >"$TMP/ok.txt" 2>&1
if grep -q "^Why:" "$TMP/ok.txt"; then fail "complete trace: no Why line" "$(grep ^Why "$TMP/ok.txt")"; else pass "complete trace: no Why line"; fi

# Tensor lists recorded as [] (testdata/lists/bare_lists.json, written by hand in the shape
# recent PyTorch records them): an op whose every TensorList is [] has unknown bytes and
# FLOPs, never 0, and the coverage says why; lists with shapes (an empty one among them) keep
# their figures. The share: kernels of ops whose every TensorList is [] (raw events).
BARE=testdata/lists/bare_lists.json
bare_pct=$(python3 - "$BARE" <<'PY'
import sys
from decimal import Decimal

sys.path.insert(0, "tests/cli")
import raw

ev = raw.load(sys.argv[1])
bare = set()
for e in ev:
    a = e.get("args", {})
    if e.get("cat") == "cpu_op" and "Input type" in a:
        lists = [d for d, t in zip(a["Input Dims"], a["Input type"]) if t == "TensorList"]
        if lists and all(d == [] for d in lists):
            bare.add(a["External id"])
acts = raw.gpu_acts(ev)
total = sum(Decimal(x["dur"]) for x in acts)
print("%.2f" % (100 * sum(Decimal(x["dur"]) for x in acts if x["args"]["External id"] in bare) / total))
PY
)
"$PROFANA" --analysis "$BARE" bf16 --wide --group shape >"$TMP/bl.txt" 2>&1
check_grep "lists []: the coverage line gives their share (Python: $bare_pct%)" \
    "; tensor-list shapes not recorded: $bare_pct%" "$TMP/bl.txt"
check_grep "lists []: one line says why, and that the kernels' own figures are used" \
    "^Why: tensor-list shapes not recorded: .*as \[\] without shapes.*unknown ($bare_pct% of GPU time), not 0;.*kernel_num_gb" \
    "$TMP/bl.txt"
check_grep "lists []: the row's GB is '-' (text), source unrecorded" \
    "^aten::_fused_adamw_(list\[?\]TensorList, .*| *- | *- | *- | *- | *- | *- | -  *| unrecorded$" "$TMP/bl.txt"
"$PROFANA" --analysis "$BARE" bf16 --group shape --format json >"$TMP/bl.json"
check_eq "lists []: JSON rows bytes and flop null, source unrecorded (fused adamw, foreach add_)" \
    "$(json "[(r['bytes'], r['flop'], r['source']) for r in d['devices'][0]['rows'] if 'list[?]' in r['name']]" "$TMP/bl.json")" \
    "[(None, None, 'unrecorded'), (None, None, 'unrecorded')]"
# by hand: params [1024,1024] + [1024] = 1049600 elements, exp_avgs, exp_avg_sqs read and
# written, grads read, max_exp_avg_sqs [] empty, two fp32 steps: (2*3*1049600 + 1049600)*2 + 2*4
check_eq "lists with shapes: the fused AdamW by hand, 14694408 B, 3148800 FLOP" \
    "$(json "[(r['bytes'], r['flop']) for r in d['devices'][0]['rows'] if 'list[1049600]' in r['name']]" "$TMP/bl.json")" \
    "[(14694408, 3148800)]"
check_eq "lists []: not in bytes coverage, JSON coverage.lists_unrecorded_pct" \
    "$(json "'%.2f %.2f %.2f' % (d['devices'][0]['coverage']['bytes_pct'], d['devices'][0]['coverage']['bytes_unknown_pct'], d['devices'][0]['coverage']['lists_unrecorded_pct'])" "$TMP/bl.json")" \
    "$(python3 -c "print('%.2f %.2f %.2f' % (100 - $bare_pct, $bare_pct, $bare_pct))")"
"$PROFANA" --analysis "$BARE" bf16 --group op --format json >"$TMP/blo.json"
check_eq "lists []: the op row holding them has no bytes (null), the foreach row none" \
    "$(json "[r['bytes'] for r in d['devices'][0]['rows'] if r['name'] in ('aten::_fused_adamw_', 'aten::_foreach_add_')]" "$TMP/blo.json")" \
    "[None, None]"
"$PROFANA" --analysis "$BARE" bf16 --explain aten::_fused_adamw_ >"$TMP/ble.txt" 2>&1
check_grep "lists []: --explain says the shapes were not recorded" "tensor-list shapes not recorded" "$TMP/ble.txt"
