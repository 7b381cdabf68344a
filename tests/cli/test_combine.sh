# test_combine.sh - --combine: every event of every input in order, colliding pids/devices/ids moved by README's rules, --analysis sees each input's devices, failures leave OUT as it was.
. tests/cli/lib.sh

A=$TRACES/eager_bf16.json
B=$TRACES/eager_fp16.json
C=$TRACES/explicit_fp32.json

# check_combine NAME OUT IN...: the Python checks of tests/cli/check_combine.py; the pid and
# shift lines it prints ("MAP input K ...") are kept in $TMP/map.
check_combine() {
    python3 tests/cli/check_combine.py "$@" >"$TMP/check" || fail "checker $*" "exited $?"
    grep -v '^MAP ' "$TMP/check"
    grep '^MAP ' "$TMP/check" >"$TMP/map"
}

# raw_acts FILE: GPU activities and their summed duration (ns), from Python's parser.
raw_acts() {
    python3 - "$1" <<'PY'
import sys
sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts, ns
a = gpu_acts(load(sys.argv[1]))
print(len(a), sum(ns(e["dur"]) for e in a))
PY
}

# ---- two ranks' traces, each on device 0 ----
check_run "combine two traces" 0 "$PROFANA" --combine "$A" "$B" "$TMP/ab.json"
check_combine "A+B" "$TMP/ab.json" "$A" "$B"
# Both use pids 0..15 (GPU 0 and Kineto's "GPU N" slots): the second input's move up by 16
# with its device; its host pid 433 is free and stays; -1, "Spans", "Traces" and "" were
# taken by the first input.
check_grep "A+B: GPU pid 0 moves with its device" "^MAP input 2 pid 0 -> 16$" "$TMP/map"
check_grep "A+B: Kineto's GPU slot pid 15 too" "^MAP input 2 pid 15 -> 31$" "$TMP/map"
check_grep "A+B: a free host pid stays (433)" "^MAP input 2 pid 433 -> 433$" "$TMP/map"
check_grep "A+B: a taken host pid moves by 10,000,000 (-1)" "^MAP input 2 pid -1 -> 9999999$" "$TMP/map"
check_grep "A+B: a taken string pid gets its input number" '^MAP input 2 pid "Spans" -> "Spans \[2\]"$' "$TMP/map"
check_grep "A+B: devices of input 2 move by 16" "^MAP input 2 devices 16 " "$TMP/map"
# Ids of input 2 start right above input 1's largest External id / correlation / flow id.
maxid=$(python3 -c "
import json, sys
ev = json.load(open(sys.argv[1]))['traceEvents']
ids = [e['args'][k] for e in ev for k in ('External id', 'correlation') if isinstance(e.get('args', {}).get(k), int)]
ids += [e['id'] for e in ev if e.get('ph') in ('s', 'f', 't') and isinstance(e.get('id'), int)]
print(max(ids))" "$A")
check_grep "A+B: ids of input 2 shift by 1 + input 1's largest ($maxid)" "^MAP input 2 devices 16 ids $((maxid + 1))$" "$TMP/map"

# --analysis of the combined trace: each input's device, with its own activities.
"$PROFANA" --analysis "$TMP/ab.json" bf16 --format json >"$TMP/ab_an.json" 2>"$TMP/err"
check_eq "A+B analysis: devices 0 and 16" "$(json "[x['id'] for x in d['devices']]" "$TMP/ab_an.json")" "[0, 16]"
for pair in "0 $A" "16 $B"; do
    dev=${pair%% *}
    f=${pair#* }
    set -- $(raw_acts "$f")
    check_eq "A+B analysis device $dev: activities of $(basename "$f")" \
        "$(json "[x['activities'] for x in d['devices'] if x['id']==$dev][0]" "$TMP/ab_an.json")" "$1"
    check_near "A+B analysis device $dev: GPU time of $(basename "$f")" \
        "$(json "[x['total']['total_us'] for x in d['devices'] if x['id']==$dev][0]*1000" "$TMP/ab_an.json")" "$2" 0.0000001
done
check_eq "A+B analysis: no activity without a launching op" "$(json "d['unlinked']" "$TMP/ab_an.json")" 0
# Work survives the move: device 16's FLOPs are what B alone gives.
"$PROFANA" --analysis "$B" bf16 --format json >"$TMP/b_an.json" 2>/dev/null
check_eq "A+B analysis: device 16 FLOPs = B's alone" \
    "$(json "[x['total']['flop'] for x in d['devices'] if x['id']==16][0]" "$TMP/ab_an.json")" \
    "$(json "d['devices'][0]['total']['flop']" "$TMP/b_an.json")"

# ---- a trace with itself, three inputs, ranks, a later time base ----
check_run "combine a trace with itself" 0 "$PROFANA" --combine "$A" "$A" "$TMP/aa.json"
check_combine "A+A" "$TMP/aa.json" "$A" "$A"
check_grep "A+A: the shared host pid 441 moves by 10,000,000" "^MAP input 2 pid 441 -> 10000441$" "$TMP/map"

# Ranks from distributedInfo, and a base time 5 us later: input 2's ts move by +5.000.
python3 - "$C" "$TMP/r3.json" <<'PY'
import sys
t = open(sys.argv[1]).read()
t = t.replace('"schemaVersion": 1,', '"schemaVersion": 1,\n  "distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 4},', 1)
t = t.replace('"baseTimeNanoseconds": 1790857026000000000', '"baseTimeNanoseconds": 1790857026000005000', 1)
open(sys.argv[2], "w").write(t)
PY
check_run "combine three inputs" 0 "$PROFANA" --combine "$A" "$TMP/r3.json" "$B" "$TMP/three.json"
check_combine "A+C(rank 3, base +5us)+B" "$TMP/three.json" "$A" "$TMP/r3.json" "$B"
check_grep "three: devices of input 3 move by 32" "^MAP input 3 devices 32 " "$TMP/map"
"$PROFANA" --analysis "$TMP/three.json" bf16 --format json >"$TMP/three_an.json" 2>/dev/null
check_eq "three: analysis shows devices 0, 16, 32" "$(json "[x['id'] for x in d['devices']]" "$TMP/three_an.json")" "[0, 16, 32]"

# A gzip input and standard input as inputs.
gzip -c "$C" >"$TMP/c.json.gz"
check_run "gzip and standard input" 0 sh -c "\"$PROFANA\" --combine \"$TMP/c.json.gz\" - \"$TMP/gz.json\" <\"$A\""
check_combine "gz+stdin" "$TMP/gz.json" "$C" "$A"

# A bare event array first: the output becomes an object to hold deviceProperties.
python3 -c "
import json, sys
print(json.dumps(json.load(open(sys.argv[1]))['traceEvents'], indent=1))" "$C" >"$TMP/bare.json"
check_run "bare event array first" 0 "$PROFANA" --combine "$TMP/bare.json" "$A" "$TMP/bare_out.json"
check_combine "bare+A" "$TMP/bare_out.json" "$TMP/bare.json" "$A"

# Odd inputs from the broken-trace corpus that --analysis accepts, first and second.
for f in empty_traceEvents events_not_objects cpu_only_no_device_properties top_level_array_of_numbers \
    kernel_args_not_object bare_event_array valid_minimal; do
    check_run "$f + C" 0 "$PROFANA" --combine "tests/broken/$f.json" "$C" "$TMP/odd.json"
    check_combine --light "$f + C" "$TMP/odd.json" "tests/broken/$f.json" "$C"
    check_run "C + $f" 0 "$PROFANA" --combine "$C" "tests/broken/$f.json" "$TMP/odd.json"
    check_combine --light "C + $f" "$TMP/odd.json" "$C" "tests/broken/$f.json"
done

# ---- OUT: standard output, errors leave it as it was ----
check_run "OUT - is standard output" 0 "$PROFANA" --combine "$A" "$B" -
if cmp -s "$TMP/out" "$TMP/ab.json"; then pass "standard output: same bytes as to a file"; else fail "standard output" "differs"; fi
mkdir "$TMP/d"
echo previous >"$TMP/d/keep.json"
check_run "a broken input" 1 "$PROFANA" --combine "$A" tests/broken/cut_off_inside_event.json "$TMP/d/keep.json"
check_grep "a broken input: byte offset" "^profana: error: tests/broken/cut_off_inside_event.json: byte [0-9]*: trace is cut off" "$TMP/err"
check_eq "a broken input: OUT as it was" "$(cat "$TMP/d/keep.json")" previous
check_run "a missing input" 1 "$PROFANA" --combine "$A" "$TMP/nope.json" "$TMP/d/keep.json"
check_eq "a missing input: OUT as it was" "$(cat "$TMP/d/keep.json")" previous
check_run "OUT /dev/full" 1 "$PROFANA" --combine "$A" "$B" /dev/full
check_grep "/dev/full: one error line" "^profana: error: /dev/full: write failed" "$TMP/err"
(trap '' XFSZ; ulimit -f 64; "$PROFANA" --combine "$A" "$B" "$TMP/d/keep.json" >"$TMP/out" 2>"$TMP/err")
check_eq "write cut short by a file-size limit: exit 1" "$?" 1
check_eq "write cut short: OUT as it was" "$(cat "$TMP/d/keep.json")" previous
check_eq "no temporary file left" "$(ls -a "$TMP/d" | grep -c '\.tmp-')" 0
check_run "one input only" 2 "$PROFANA" --combine "$A" "$TMP/d/keep.json"
check_run "standard input twice" 2 "$PROFANA" --combine - - "$TMP/d/keep.json"
