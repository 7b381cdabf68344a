#!/bin/sh
# test_waits.sh - why the GPU waits: the time breakdown, idle by cause, launch statistics and queue depth of every trace of testdata/ (and ../shared's public and multi-rank traces when present) against tests/cli/waits_oracle.py, which reads the raw events, to 0.01 us; the breakdown sums to the span and the causes to the idle time; hand-made traces where each cause dominates, with their figures worked out by hand here; the headline's advice per cause; --waits in text, Markdown and CSV.
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
    python3 tests/cli/waits_oracle.py "$f" "$@" >"$TMP/want.json" || { fail "$name: oracle" "$f"; return; }
    python3 tests/cli/waits_compare.py "$name" "$TMP/got.json" "$TMP/want.json"
}

# ---- every trace we have (../shared only when present: a fresh clone has testdata/ alone) ----
traces=$(find testdata ../shared/testdata/public ../shared/testdata/multirank -name '*.json' -o -name '*.json.gz' \
    2>/dev/null | grep -v -e execution_details.json -e '^testdata/devices/' | sort)
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

# finding NAME TRACE TEXT: the headline's idle finding holds TEXT
finding() {
    jeq "$1" "$2" '[f["text"] for f in d["headline"]["findings"] if f["kind"] == "idle" and sys.argv[5] in f["text"]] != []' True "$3"
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
finding "host_wait: headline: host-bound, 96.11% of the idle time, its advice" $F \
    "Host-bound: 96.11% of the idle time is host wait (work not yet launched): CPU ops, Python and syncs; CUDA graphs"

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
finding "launch_latency: headline: 100% launch latency, stream dependencies and syncs" $F \
    "100.00% of the idle time is launch latency"
finding "launch_latency: headline advice" $F "stream dependencies (events, waits on other streams) and synchronizations"

# unattributed.json: kernel 2 has no launch call; kernel 3's correlation id is used by calls of two
# processes (which one launched it is unknown): both gaps, 180 us, are unattributed.
F=$W/unattributed.json
jeq "unattributed: causes 0 + 0 + 180" $F \
    '[d["idle_causes"][k] for k in ("host_wait_us", "launch_latency_us", "unattributed_us")]' "[0.0, 0.0, 180.0]"
jeq "unattributed: one kernel with its launch call" $F 'd["launch"]["count"]' 1
finding "unattributed: headline: record the CPU side" $F \
    "100.00% of the idle time ends with work whose launch call is not in the trace: record the CPU side"

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

# ---- formats ----
F=$W/breakdown.json
check_run "--waits csv" 0 "$PROFANA" --analysis $F bf16 --waits --format csv
check_eq "--waits csv: the device's row" "$(sed -n 2p "$TMP/out")" "0,all,5,210.000,110.000,50.000,20.000,10.000,20.000,50.00,100.000"
check_eq "--waits csv: four tables" "$(grep -c '^Device,' "$TMP/out")" 4
check_grep "--waits csv: queue of stream 7 (depth 2 on [0,100), 1 on [100,210): mean 310/210)" "^0,7,2,1.476,0.000,0.00$" "$TMP/out"
COLUMNS=80 "$PROFANA" --analysis $F bf16 --waits >"$TMP/t80" 2>/dev/null
check_eq "text at 80 columns: no line wider" "$(awk 'length > 80' "$TMP/t80" | head -3)" ""
check_grep "text: the span line after the headline" \
    "^Span: compute 52.38%, communication 23.81% exposed of 47.62%" "$TMP/t80"
check_grep "text: --waits adds the step breakdown" "^ *0 | 2 " "$TMP/t80"
check_run "markdown" 0 "$PROFANA" --analysis $F bf16 --format md
check_grep "markdown: a list under its title" "^- Span: compute 52.38%" "$TMP/out"
check_run "--steps with --waits: usage error" 2 "$PROFANA" --analysis $F bf16 --steps --waits
