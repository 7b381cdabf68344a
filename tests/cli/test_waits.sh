#!/bin/sh
# test_waits.sh - why the GPU waits: the time breakdown, idle by cause, launch statistics and queue depth of every trace of testdata/ (and ../shared's public and multi-rank traces when present) against tests/cli/waits_oracle.py, which reads the raw events, to 0.01 us; the breakdown sums to the span and the causes to the idle time; hand-made traces where each cause dominates, with their figures worked out by hand here; the headline's advice per cause; --waits in text, Markdown and CSV.
# check: optimised
. "$(dirname "$0")/lib.sh"

W=testdata/waits

# oracle NAME TRACE [--step S]: profana's JSON against the oracle's
oracle() {
    name=$1 f=$2
    shift 2
    if ! "$PROFANA" --analysis "$f" bf16 --format json "$@" >"$TMP/got.json" 2>"$TMP/err"; then
        fail "$name: analysed" "$(head -c 200 "$TMP/err")"
        return
    fi
    run_oracle tests/cli/waits_oracle.py "$f" "$@" >"$TMP/want.json" || { fail "$name: oracle" "$f"; return; }
    python3 tests/cli/waits_compare.py "$name" "$TMP/got.json" "$TMP/want.json"
}

# ---- every trace we have (../shared only when present: a fresh clone has testdata/ alone) ----
# testdata/hta/ is left out: its kernels link to ops by nesting, which this test's oracle (links by
# External id) does not follow; tests/cli/test_nesting.sh checks that trace.
traces=$(sweep_traces | grep -v '^testdata/hta/')
for f in $traces; do
    oracle "$f" "$f"
done
# a combined trace of two ranks: their launch calls share correlation ids across processes
if "$PROFANA" --combine testdata/multirank/tp_collectives_bf16_rank0.json.gz \
    testdata/multirank/tp_collectives_bf16_rank1.json.gz "$TMP/comb.json" >/dev/null 2>"$TMP/err"; then
    oracle "tp_collectives combined" "$TMP/comb.json"
else
    fail "tp_collectives combined" "$(head -c 200 "$TMP/err")"
fi
# --step: the selected activities only
oracle "steps_bf16 --step 3" testdata/traces/steps_bf16.json --step 3
oracle "steps_bf16 --step all" testdata/traces/steps_bf16.json --step all

# ---- hand-made traces: each figure worked out from the events (times in us, offset 1000) ----
# jeq NAME TRACE EXPR WANT: a Python expression on device 0 of profana's JSON (`d`) equals WANT
# (a Python literal: 220 and 220.0 are equal)
jeq() {
    "$PROFANA" --analysis "$2" bf16 --format json 2>/dev/null >"$TMP/j.json"
    python3 - "$1" "$3" "$4" "$TMP/j.json" "${5:-}" <<'PY'
import json, sys
sys.path.insert(0, "tests/cli")
from raw import check
name, expr, want, path = sys.argv[1:5]
d = json.load(open(path))["devices"][0]
got = eval(expr)
check(name, "= " + want, got == eval(want), "got %r, want %s" % (got, want))
PY
}


# host_wait.json: kernels [100,110) [200,210) [300,320) on stream 7, launch calls [90,95) [180,195)
# [290,298). Span 220, busy 40, idle 180. Gap [110,200): the call ended at 195, so 85 host wait
# and 5 latency; gap [210,300): the call ended at 298, so 88 and 2. Host wait 173 = 96.11% of idle.
F=$W/host_wait.json
jeq "host_wait: span, idle" $F '(d["breakdown"]["span_us"], d["breakdown"]["idle_us"])' "(220.0, 180.0)"
jeq "host_wait: causes 173 + 7 + 0, 2 gaps" $F \
    '[d["idle_causes"][k] for k in ("host_wait_us", "launch_latency_us", "unattributed_us", "gaps")]' \
    "[173.0, 7.0, 0.0, 2]"
# launches: calls 5, 15, 8 us (mean 9.333); delays 100-95=5, 200-195=5, 300-298=2: sorted [2,5,5],
# p50 rank ceil(1.5)=2 -> 5, p99 rank ceil(2.97)=3 -> 5; the 10 us kernel of the 15 us call is
# shorter than its call; 10, 10, 20 us are all in 10-50.
jeq "host_wait: launches 3, p50 5, p99 5, 1 launch-bound" $F \
    '(d["launch"]["count"], round(d["launch"]["call_us_mean"], 3), d["launch"]["delay_us_p50"], d["launch"]["delay_us_p99"], d["launch"]["launch_bound"])' \
    "(3, 9.333, 5.0, 5.0, 1)"
jeq "host_wait: histogram 10-50: 3 kernels, 40 us" $F \
    '[(h["bin"], h["count"], h["time_us"]) for h in d["launch"]["histogram"] if h["count"]]' \
    "[('10-50', 3, 40.0)]"
# queue: [90,110) [180,210) [290,320) clipped to the span [100,320]: depth 1 for 10+30+30 = 70 us
jeq "host_wait: queue max 1, mean 70/220, empty 150" $F \
    '[(q["stream"], q["max_depth"], round(q["mean_depth"], 6), q["empty_us"]) for q in d["queue"]]' \
    "[(7, 1, 0.318182, 150.0)]"
# the headline's findings: the host wait (96.11% of the idle time), in gaps under 1 ms under no
# annotation, is launch overhead, and it holds over half the idle: CUDA graphs advised
jeq "host_wait: headline: launch overhead = the host wait, CUDA graphs advised" $F \
    '[(f["time_us"] == d["idle_causes"]["host_wait_us"], "CUDA graphs" in f["advice"]) for f in d["headline"]["findings"] if f["kind"] == "launch_overhead"]' \
    "[(True, True)]"

# launch_latency.json: the same kernels, their calls [10,15) [20,25) [30,35) long before: every gap
# (90 + 90) is latency. Queue: [10,110) [20,210) [30,320) clipped to [100,320]: depth 3 on
# [100,110), 2 on [110,210), 1 on [210,320): max 3, mean (30+200+110)/220, never empty.
F=$W/launch_latency.json
jeq "launch_latency: causes 0 + 180 + 0" $F \
    '[d["idle_causes"][k] for k in ("host_wait_us", "launch_latency_us", "unattributed_us")]' "[0.0, 180.0, 0.0]"
jeq "launch_latency: delays 85, 175, 265: p50 175, p99 265" $F \
    '(d["launch"]["delay_us_p50"], d["launch"]["delay_us_p99"], d["launch"]["launch_bound"])' "(175.0, 265.0, 0)"
jeq "launch_latency: queue max 3, mean 340/220, empty 0" $F \
    '[(q["max_depth"], round(q["mean_depth"], 6), q["empty_us"]) for q in d["queue"]]' "[(3, 1.545455, 0.0)]"
jeq "launch_latency: headline: a launch_latency finding of 90 + 90 us" $F \
    '[f["time_us"] for f in d["headline"]["findings"] if f["kind"] == "launch_latency"]' "[180.0]"
jeq "launch_latency: headline advice: what holds the stream" $F \
    '["holds the stream" in f["advice"] for f in d["headline"]["findings"] if f["kind"] == "launch_latency"]' "[True]"

# unattributed.json: kernel 2 has no launch call; kernel 3's correlation id is used by calls of two
# processes (which one launched it is unknown): both gaps, 180 us, are unattributed.
F=$W/unattributed.json
jeq "unattributed: causes 0 + 0 + 180" $F \
    '[d["idle_causes"][k] for k in ("host_wait_us", "launch_latency_us", "unattributed_us")]' "[0.0, 0.0, 180.0]"
jeq "unattributed: one kernel with its launch call" $F 'd["launch"]["count"]' 1
jeq "unattributed: headline: no host finding claims the unattributed idle" $F \
    '[f["kind"] for f in d["headline"]["findings"] if f["kind"] in ("host_region", "host_python", "sync", "launch_overhead", "host_unnamed", "launch_latency")]' "[]"

# breakdown.json: gemm [0,100), NCCL [50,150) (under c10d::allreduce_), memcpy [140,170), memset
# [160,180), relu [200,210). Compute 100+10; communication [100,150) = 50 exposed of 100 (50%
# overlapped); memcpy [150,170) = 20; memset [170,180) = 10; idle [180,200) = 20; sum 210 = span.
# Steps: #1 holds the launches of the first four ([0,180): no idle), #2 the relu.
F=$W/breakdown.json
jeq "breakdown: span, compute, comm, memcpy, memset, idle, comm total, overlap" $F \
    '[d["breakdown"][k] for k in ("span_us", "compute_us", "communication_us", "memcpy_us", "memset_us", "idle_us", "communication_total_us", "overlap_pct")]' \
    "[210.0, 110.0, 50.0, 20.0, 10.0, 20.0, 100.0, 50.0]"
jeq "breakdown: per step" $F \
    '[(s["step"], s["activities"], s["breakdown"]["span_us"], s["breakdown"]["compute_us"], s["breakdown"]["idle_us"]) for s in d["step_breakdown"]]' \
    "[(1, 4, 180.0, 100.0, 0.0), (2, 1, 10.0, 10.0, 0.0)]"
jeq "breakdown: no communication in step 2: overlap unknown" $F \
    'd["step_breakdown"][1]["breakdown"]["overlap_pct"]' "None"

# comm_dominant (made here): NCCL all-reduce [1000,1100) on stream 20, gemm [1010,1060) on stream 7.
# GPU time 150 us, communication 100/150 = 66.67% (dominant); compute hides [1010,1060): 50 of
# 100 us overlapped = 50.00%; exposed 50 us of the 100 us span = 50.00%.
python3 - "$TMP/comm_dominant.json" <<'PY'
import json, sys
def k(name, stream, ts, dur):
    return {"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": stream, "ts": ts, "dur": dur,
            "args": {"device": 0, "stream": stream}}
json.dump({"deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "numSms": 132}],
           "traceEvents": [k("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 20, 1000, 100),
                           k("sm90_xmma_gemm_bf16bf16_bf16f32", 7, 1010, 50)]}, open(sys.argv[1], "w"))
PY
oracle "comm_dominant" "$TMP/comm_dominant.json"
jeq "comm_dominant: the headline's communication finding: 50 us exposed of 100" "$TMP/comm_dominant.json" \
    '[(f["time_us"], "(100.000 us in all)" in f["evidence"], "--ranks" in f["advice"]) for f in d["headline"]["findings"] if f["kind"] == "communication"]' \
    "[(50.0, True, True)]"

# ---- formats ----
F=$W/breakdown.json
check_run "--waits csv" 0 "$PROFANA" --analysis $F bf16 --waits --format csv
check_eq "--waits csv: the device's row" "$(sed -n 2p "$TMP/out")" "0,all,5,210.000,110.000,50.000,20.000,10.000,20.000,50.00,100.000,row"
check_eq "--waits csv: four tables" "$(grep -c '^Device,' "$TMP/out")" 4
check_grep "--waits csv: queue of stream 7 (depth 2 on [0,100), 1 on [100,210): mean 310/210)" "^0,7,2,1.476,0.000,0.00,row$" "$TMP/out"
COLUMNS=80 "$PROFANA" --analysis $F bf16 --waits >"$TMP/t80" 2>/dev/null
check_eq "text at 80 columns: no line wider" "$(awk 'length > 80' "$TMP/t80" | head -3)" ""
check_grep "text: the span line after the headline" \
    "^Span: compute 52.38%, communication 23.81% exposed of 47.62%" "$TMP/t80"
check_grep "text: --waits adds the step breakdown" "^ *0 | 2 " "$TMP/t80"
check_run "markdown" 0 "$PROFANA" --analysis $F bf16 --format md
check_grep "markdown: a list under its title" "^- Span: compute 52.38%" "$TMP/out"
check_run "--steps with --waits: usage error" 2 "$PROFANA" --analysis $F bf16 --steps --waits

# ---- --plot timeline: lanes, bins and legend where the JSON says ----
# timeline NAME TRACE: the SVG against the same run's JSON (streams' busy time, idle causes,
# categories): a lane per stream in order, its bins summing to its busy time, the idle lane's
# bins to the idle causes, every bin inside its lane, the legend naming what the bins show.
timeline() {
    if ! "$PROFANA" --analysis "$2" bf16 --format json --plot timeline "$TMP/tl.svg" >"$TMP/tl.json" 2>"$TMP/err"; then
        fail "$1: --plot timeline" "$(head -c 200 "$TMP/err")"
        return
    fi
    python3 - "$1" "$TMP/tl.svg" "$TMP/tl.json" "$2" <<'PY'
import json, sys
import xml.etree.ElementTree as ET
sys.path.insert(0, "tests/cli")
from raw import check, load, gpu_acts, ns as to_ns
name, svg, js = sys.argv[1], ET.parse(sys.argv[2]).getroot(), json.load(open(sys.argv[3]))
ns = "{http://www.w3.org/2000/svg}"
plot = svg.find(ns + "g[@class='plot']")
left, width = float(plot.get("data-left")), float(plot.get("data-width"))
# the time scale: the first GPU activity's start to the last one's end, in the raw events' ns
acts = gpu_acts(load(sys.argv[4]))
t0, t1 = min(to_ns(e["ts"]) for e in acts), max(to_ns(e["ts"]) + to_ns(e["dur"]) for e in acts)
check(name, "timeline: data-t0-ns, data-t1-ns = the raw events' first start, last end (%d, %d)" % (t0, t1),
      (int(plot.get("data-t0-ns")), int(plot.get("data-t1-ns"))) == (t0, t1),
      (plot.get("data-t0-ns"), plot.get("data-t1-ns")))
lanes = [g for g in plot.iter(ns + "g") if g.get("class", "").startswith("lane")]
want = []
for d in js["devices"]:
    want += [("lane", d["id"], s["stream"]) for s in d["streams"]] + [("lane idle", d["id"], None)]
got = [(g.get("class"), int(g.get("data-device")), int(g.get("data-stream")) if g.get("data-stream") else None)
       for g in lanes]
check(name, "timeline: a lane per stream and an idle lane per device, in the JSON's order", got == want,
      "got %s want %s" % (got, want))
dev = {d["id"]: d for d in js["devices"]}
bad, inside, shown, colors = [], True, set(), {}
for g in lanes:
    d = dev[int(g.get("data-device"))]
    y, h = float(g.get("data-y")), float(g.get("data-height"))
    bins = g.findall(ns + "rect[@class='bin']")
    for r in bins:
        x, w, ry, rh = (float(r.get(k)) for k in ("x", "width", "y", "height"))
        inside &= left - 1e-6 <= x and x + w <= left + width + 1e-6 and y - 1e-6 <= ry and ry + rh <= y + h + 1e-6
        label = r.get("data-category") or r.get("data-cause").replace("_", " ")
        shown.add(label)
        colors.setdefault(label, set()).add(r.get("fill"))
    if g.get("data-stream"):
        s = [s for s in d["streams"] if s["stream"] == int(g.get("data-stream"))][0]
        tot = sum(int(r.get("data-ns")) for r in bins)
        if abs(int(g.get("data-busy-ns")) / 1e3 - s["busy_us"]) > 0.01 or tot != int(g.get("data-busy-ns")):
            bad.append(("stream", s["stream"], tot, s["busy_us"]))
    else:
        ic = d["idle_causes"]
        for k in ("host_wait", "launch_latency", "unattributed"):
            tot = sum(int(r.get("data-%s-ns" % k.replace("_", "-"))) for r in bins)
            if abs(tot / 1e3 - ic[k + "_us"]) > 0.01 or int(g.get("data-%s-ns" % k.replace("_", "-"))) != tot:
                bad.append((d["id"], k, tot, ic[k + "_us"]))
check(name, "timeline: each lane's bins sum to its busy time (JSON streams) or idle causes (JSON idle_causes)",
      not bad, bad[:4])
check(name, "timeline: every bin inside its lane and the plot", inside)
check(name, "timeline: one colour per category or cause", all(len(c) == 1 for c in colors.values()), colors)
leg = svg.find(ns + "g[@class='legend']")
labels = [t.text for t in leg.findall(ns + "text")]
swatch = {t.text: r.get("fill") for t, r in zip(leg.findall(ns + "text"), leg.findall(ns + "rect"))}
check(name, "timeline: the legend names what the bins show", set(labels) == shown, "legend %s bins %s" % (labels, shown))
check(name, "timeline: legend colours are the bins'", all({swatch[l]} == colors[l] for l in shown if l in swatch))
cats = {c["category"] for d in js["devices"] for c in d["categories"]}
check(name, "timeline: its categories are the JSON's", shown - {"host wait", "launch latency", "unattributed"} <= cats)
check(name, "timeline: the legend below the lanes",
      float(leg.get("data-y")) >= max(float(g.get("data-y")) + float(g.get("data-height")) for g in lanes))
PY
}
timeline "host_wait" $W/host_wait.json
timeline "breakdown" $W/breakdown.json
timeline "steps_bf16" testdata/traces/steps_bf16.json
timeline "tp_collectives combined (two devices)" "$TMP/comb.json"
timeline "mi300_resnet_convs" testdata/public/mi300_resnet_convs.json.gz
# a long trace (1.08 s span, 5164 idle gaps, clock past 1e15 ns): binned, the same checks
timeline "owlv2_h100 (1.08 s)" testdata/peer/owlv2_h100.json.gz
check_run "--diff with --plot timeline: refused" 1 "$PROFANA" --diff $W/host_wait.json a $W/breakdown.json b bf16 \
    --plot timeline "$TMP/d.svg"
check_grep "--diff with --plot timeline: says why" "draws one trace" "$TMP/err"

# Headless Chromium lays the timeline out where its attributes say: each lane's track at its
# data-y, the lanes one under the other, the legend below them with one label per swatch.
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ]; then
    echo "SKIP timeline in Chromium: $CHROMIUM is not installed (apt-get install chromium to run it)"
    exit 0
fi
"$PROFANA" --analysis "$TMP/comb.json" bf16 --plot timeline "$TMP/c.svg" >/dev/null 2>&1
{
    printf '<!DOCTYPE html><html><body style="margin:0">'
    sed 1d "$TMP/c.svg"
    cat <<'HTML'
<pre id="out"></pre><script>
const svg = document.querySelector("svg"), top0 = svg.getBoundingClientRect().top, out = {lanes: [], legend: []};
for (const g of svg.querySelectorAll("g.lane")) {
  const r = g.querySelector("rect.track").getBoundingClientRect();
  out.lanes.push({y: +g.dataset.y, h: +g.dataset.height, top: r.top - top0, height: r.height,
                  bins: g.querySelectorAll("rect.bin").length});
}
const leg = svg.querySelector("g.legend");
for (const t of leg.querySelectorAll("text")) out.legend.push([t.textContent, t.getBoundingClientRect().top - top0]);
out.legendTop = leg.getBoundingClientRect().top - top0;
document.getElementById("out").textContent = JSON.stringify(out);
</script></body></html>
HTML
} >"$TMP/tl.html"
timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --user-data-dir="$TMP/chromium" --dump-dom \
    "file://$(cd "$TMP" && pwd)/tl.html" >"$TMP/tl.dom" 2>"$TMP/chromium.log"
python3 - "$TMP/tl.dom" <<'PY'
import html, json, re, sys
sys.path.insert(0, "tests/cli")
from raw import check
m = re.search(r'<pre id="out">(.*?)</pre>', open(sys.argv[1]).read(), re.S)
check("chromium", "timeline: the page ran its script", bool(m and m.group(1)), "no output")
if m and m.group(1):
    o = json.loads(html.unescape(m.group(1)))
    check("chromium", "timeline: 4 lanes (2 devices x (1 stream + idle))", len(o["lanes"]) == 4, len(o["lanes"]))
    check("chromium", "timeline: each lane's track drawn at its data-y, data-height tall",
          all(abs(l["top"] - l["y"]) < 0.5 and abs(l["height"] - l["h"]) < 0.5 for l in o["lanes"]), o["lanes"])
    check("chromium", "timeline: lanes one under the other",
          all(a["top"] + a["height"] <= b["top"] for a, b in zip(o["lanes"], o["lanes"][1:])), o["lanes"])
    check("chromium", "timeline: stream lanes drew bins", all(l["bins"] > 0 for l in o["lanes"]), o["lanes"])
    last = max(l["top"] + l["height"] for l in o["lanes"])
    check("chromium", "timeline: the legend below the lanes, every label in it",
          o["legendTop"] >= last and all(t >= last for _, t in o["legend"]), (o["legendTop"], last, o["legend"]))
    check("chromium", "timeline: legend labels", {l for l, _ in o["legend"]} >= {"gemm", "communication"}, o["legend"])
PY
