# test_steps.sh - --step and --steps against profiler steps computed from the raw events: the GPU work launched (runtime call matched by correlation) inside each CPU-side ProfilerStep window, and the GPU-side annotations for a trace without launch calls.
# check: valgrind
. tests/cli/lib.sh

T="$TRACES/steps_bf16.json"

# Per CPU-side step (user_annotation ProfilerStep#N): number, window start and duration (ns),
# and the GPU activities whose launch call (the cuda_runtime/cuda_driver event with the same
# correlation) starts inside the window, on any thread of the window's process: count, summed
# duration, union of intervals, first start, last end. A last line "all COUNT SUM" for every step.
raw_cpu_steps() {
    python3 - "$1" <<'PY'
import sys
sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts, ns, union
ev = load(sys.argv[1])
steps = [e for e in ev if e.get("ph") == "X" and e.get("cat") == "user_annotation"
         and e.get("name", "").startswith("ProfilerStep#")]
launch = {}
for e in ev:
    if e.get("ph") == "X" and e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {}):
        launch.setdefault(e["args"]["correlation"], e)
acts = gpu_acts(ev)
n_all = sum_all = 0
for s in sorted(steps, key=lambda e: ns(e["ts"])):
    t0, dur = ns(s["ts"]), ns(s["dur"])
    ins = []
    for a in acts:
        r = launch.get(a["args"].get("correlation"))
        if r is not None and r["pid"] == s["pid"] and t0 <= ns(r["ts"]) < t0 + dur:
            ins.append((ns(a["ts"]), ns(a["ts"]) + ns(a["dur"])))
    n_all += len(ins)
    sum_all += sum(e - b for b, e in ins)
    print(s["name"].split("#")[1], t0, dur, len(ins), sum(e - b for b, e in ins), union(ins),
          min(b for b, _ in ins), max(e for _, e in ins))
print("all", n_all, sum_all)
PY
}

raw_cpu_steps "$T" >"$TMP/raw"
grep -v '^all' "$TMP/raw" >"$TMP/steps"
read -r _ all_n all_ns <<EOT
$(grep '^all' "$TMP/raw")
EOT
check_eq "raw: three CPU-side steps in the trace" "$(wc -l <"$TMP/steps" | tr -d ' ')" 3
check_eq "raw: GPU time launched inside the CPU-side steps is 782.994 us" "$all_ns" 782994

# (the Steps line is a note on the trace after the headline: "- Steps: ..."; wide enough to
# be one line)
check_run "default run" 0 env COLUMNS=300 "$PROFANA" --analysis "$T" bf16
check_grep "header says how many steps and the rule" "^- Steps: 3 ProfilerStep windows on the CPU (#2..#4), each with the GPU work launched inside it; analysing all GPU activity" "$TMP/out"

check_run "--steps" 0 "$PROFANA" --analysis "$T" bf16 --steps --format json
check_eq "--steps: rule in JSON" "$(json "d['steps']['rule']" "$TMP/out")" cpu-launch
check_eq "--steps: one row per step" "$(json "len(d['steps']['rows'])" "$TMP/out")" 3
while read -r n t0 dur cnt sum busy lo hi; do
    row="[r for r in d['steps']['rows'] if r['step']==$n][0]"
    check_near "--steps #$n: span = CPU window" "$(json "$row['span_us']*1000" "$TMP/out")" "$dur" 0.000001
    check_near "--steps #$n: GPU span = hull of its activities" "$(json "$row['gpu_span_us']*1000" "$TMP/out")" "$((hi - lo))" 0.000001
    check_eq "--steps #$n: activities" "$(json "$row['count']" "$TMP/out")" "$cnt"
    check_near "--steps #$n: GPU time" "$(json "$row['gpu_time_us']*1000" "$TMP/out")" "$sum" 0.000001
    check_near "--steps #$n: busy = union" "$(json "$row['busy_us']*1000" "$TMP/out")" "$busy" 0.000001
    check_near "--steps #$n: busy % of the GPU span" "$(json "$row['busy_pct']" "$TMP/out")" "$(awk -v b="$busy" -v s="$((hi - lo))" 'BEGIN{print 100*b/s}')" 0.0001
    check_eq "--steps #$n: device" "$(json "$row['device']" "$TMP/out")" 0
done <"$TMP/steps"

while read -r n t0 dur cnt sum busy lo hi; do
    check_run "--step $n" 0 "$PROFANA" --analysis "$T" bf16 --step "$n" --format json
    check_eq "--step $n: activities" "$(json "d['devices'][0]['activities']" "$TMP/out")" "$cnt"
    check_near "--step $n: GPU time" "$(json "d['devices'][0]['total']['total_us']*1000" "$TMP/out")" "$sum" 0.000001
    check_near "--step $n: busy = union" "$(json "d['devices'][0]['busy']['busy_us']*1000" "$TMP/out")" "$busy" 0.000001
    check_near "--step $n: span = the activities' hull" "$(json "d['devices'][0]['busy']['span_us']*1000" "$TMP/out")" "$((hi - lo))" 0.000001
    check_eq "--step $n: selection in JSON" "$(json "d['steps']['selected']" "$TMP/out")" "$n"
done <"$TMP/steps"

check_run "--step all" 0 "$PROFANA" --analysis "$T" bf16 --step all --format json
check_eq "--step all: activities launched in every step" "$(json "d['devices'][0]['activities']" "$TMP/out")" "$all_n"
check_near "--step all: GPU time launched in every step" "$(json "d['devices'][0]['total']['total_us']*1000" "$TMP/out")" "$all_ns" 0.000001
check_eq "--step all: selection in JSON" "$(json "d['steps']['selected']" "$TMP/out")" all

check_run "--steps text" 0 "$PROFANA" --analysis "$T" bf16 --steps
check_grep "--steps text: a line per step" "^   3 |      0 |  3947.273 |" "$TMP/out"

check_run "--step of a step the trace lacks" 1 "$PROFANA" --analysis "$T" bf16 --step 9
check_eq "--step 9: one-line error" "$(cat "$TMP/err")" "profana: error: $T: --step 9: no ProfilerStep#9 in the trace (see --steps)"
check_run "--step on a trace without steps" 1 "$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --step all
check_grep "--step without steps: says why" "no ProfilerStep annotation on the CPU side" "$TMP/err"
check_run "no steps: no Steps line" 0 "$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16
if grep -q "Steps:" "$TMP/out"; then fail "no steps: no Steps line" "printed one"; else pass "no steps: no Steps line"; fi

# Without launch calls (the runtime and driver events removed), the steps are the GPU-side
# annotations: an activity belongs to the one on its device that holds its start.
python3 - "$T" "$TMP/nolaunch.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["traceEvents"] = [e for e in d["traceEvents"] if e.get("cat") not in ("cuda_runtime", "cuda_driver")]
json.dump(d, open(sys.argv[2], "w"))
PY
python3 - "$TMP/nolaunch.json" >"$TMP/gsteps" <<'PY'
import sys
sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts, device, ns, union
ev = load(sys.argv[1])
steps = [e for e in ev if e.get("cat") == "gpu_user_annotation" and e.get("name", "").startswith("ProfilerStep#")]
acts = gpu_acts(ev)
for s in sorted(steps, key=lambda e: ns(e["ts"])):
    t0, dur = ns(s["ts"]), ns(s["dur"])
    ins = [(ns(a["ts"]), ns(a["ts"]) + ns(a["dur"])) for a in acts
           if device(a) == device(s) and t0 <= ns(a["ts"]) < t0 + dur]
    print(s["name"].split("#")[1], t0, dur, len(ins), sum(e - b for b, e in ins), union(ins),
          min(b for b, _ in ins), max(e for _, e in ins))
PY
check_run "no launch calls: --steps" 0 "$PROFANA" --analysis "$TMP/nolaunch.json" bf16 --steps --format json
check_eq "no launch calls: rule in JSON" "$(json "d['steps']['rule']" "$TMP/out")" gpu-annotation
check_grep "no launch calls: a note says why" "profana: note: .*no GPU activity has its launch call.*GPU-side ProfilerStep annotations" "$TMP/err"
while read -r n t0 dur cnt sum busy lo hi; do
    row="[r for r in d['steps']['rows'] if r['step']==$n][0]"
    check_near "no launch calls #$n: span = annotation" "$(json "$row['span_us']*1000" "$TMP/out")" "$dur" 0.000001
    check_eq "no launch calls #$n: activities" "$(json "$row['count']" "$TMP/out")" "$cnt"
    check_near "no launch calls #$n: GPU time" "$(json "$row['gpu_time_us']*1000" "$TMP/out")" "$sum" 0.000001
    check_near "no launch calls #$n: busy = union" "$(json "$row['busy_us']*1000" "$TMP/out")" "$busy" 0.000001
done <"$TMP/gsteps"
check_run "no launch calls: header" 0 env COLUMNS=300 "$PROFANA" --analysis "$TMP/nolaunch.json" bf16
check_grep "no launch calls: header names the GPU-side rule" "^- Steps: 3 GPU-side ProfilerStep annotations (#2..#4; the trace has no launch calls" "$TMP/out"
check_run "launch calls: no fallback note" 0 "$PROFANA" --analysis "$T" bf16
if grep -q "no GPU activity has its launch call" "$TMP/err"; then fail "launch calls: no fallback note" "printed one"; else pass "launch calls: no fallback note"; fi
