# test_steps.sh - --step and --steps against the GPU-side ProfilerStep annotations and activity intervals computed from the raw events.
. tests/cli/lib.sh

T="$TRACES/steps_bf16.json"

# Per GPU-side step: number, annotation start and duration (ns), and the activities on its
# device that start inside it: count, summed duration, union of intervals, first start, last end.
raw_steps() {
    python3 - "$1" <<'PY'
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
}

raw_steps "$T" >"$TMP/raw"
check_eq "raw: three GPU steps in the trace" "$(wc -l <"$TMP/raw" | tr -d ' ')" 3

check_run "default run" 0 "$PROFANA" --analysis "$T" bf16
check_grep "header says how many steps" "^Steps: 3 GPU-side ProfilerStep annotations (#2..#4); analysing all GPU activity" "$TMP/out"

check_run "--steps" 0 "$PROFANA" --analysis "$T" bf16 --steps --format json
all=0
while read -r n t0 dur cnt sum busy lo hi; do
    all=$((all + cnt))
    row="[r for r in d['steps']['rows'] if r['step']==$n][0]"
    check_near "--steps #$n: span = annotation" "$(json "$row['span_us']*1000" "$TMP/out")" "$dur" 0.000001
    check_eq "--steps #$n: activities" "$(json "$row['count']" "$TMP/out")" "$cnt"
    check_near "--steps #$n: GPU time" "$(json "$row['gpu_time_us']*1000" "$TMP/out")" "$sum" 0.000001
    check_near "--steps #$n: busy = union" "$(json "$row['busy_us']*1000" "$TMP/out")" "$busy" 0.000001
    check_near "--steps #$n: busy %" "$(json "$row['busy_pct']" "$TMP/out")" "$(awk -v b="$busy" -v s="$dur" 'BEGIN{print 100*b/s}')" 0.0001

    check_run "--step $n" 0 "$PROFANA" --analysis "$T" bf16 --step "$n" --format json
    check_eq "--step $n: activities" "$(json "d['devices'][0]['activities']" "$TMP/out")" "$cnt"
    check_near "--step $n: busy = union" "$(json "d['devices'][0]['busy']['busy_us']*1000" "$TMP/out")" "$busy" 0.000001
    check_near "--step $n: span = the activities' hull" "$(json "d['devices'][0]['busy']['span_us']*1000" "$TMP/out")" "$((hi - lo))" 0.000001
    check_near "--step $n: span = annotation duration (0.1%)" "$(json "d['devices'][0]['busy']['span_us']*1000" "$TMP/out")" "$dur" 0.001
    check_eq "--step $n: selection in JSON" "$(json "d['steps']['selected']" "$TMP/out")" "$n"
done <"$TMP/raw"

check_run "--step all" 0 "$PROFANA" --analysis "$T" bf16 --step all --format json
check_eq "--step all: activities of every step" "$(json "d['devices'][0]['activities']" "$TMP/out")" "$all"
check_eq "--step all: selection in JSON" "$(json "d['steps']['selected']" "$TMP/out")" all

check_run "--steps text" 0 "$PROFANA" --analysis "$T" bf16 --steps
check_grep "--steps text: a line per step" "^   3 |      0 |  1263.708 |" "$TMP/out"

check_run "--step of a step the trace lacks" 1 "$PROFANA" --analysis "$T" bf16 --step 9
check_eq "--step 9: one-line error" "$(cat "$TMP/err")" "profana: error: $T: --step 9: no GPU-side ProfilerStep#9 in the trace (see --steps)"
check_run "--step on a trace without GPU steps" 1 "$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --step all
check_grep "--step without GPU steps: says why" "no GPU-side ProfilerStep annotation" "$TMP/err"
check_run "--step x is a usage error" 2 "$PROFANA" --analysis "$T" bf16 --step x
check_run "no steps: no Steps line" 0 "$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16
if grep -q "^Steps:" "$TMP/out"; then fail "no steps: no Steps line" "printed one"; else pass "no steps: no Steps line"; fi
