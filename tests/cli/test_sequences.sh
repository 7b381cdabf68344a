# test_sequences.sh - --group sequence: repeated kernel sequences against tests/cli/sequences_oracle.py (every run of 2-8 kernels per stream from the raw events) on a training step, TraceLens' Owlv2 and eager_bf16; a hand-made trace by hand; text, CSV, refusals.
# check: valgrind
. tests/cli/lib.sh
set -u

cat >"$TMP/cmp.py" <<'EOF'
import json, sys
got = json.load(open(sys.argv[1]))
want = json.load(open(sys.argv[2]))
bad = []
for d in got["devices"]:
    g = sorted((tuple(r["kernels"]), r["count"], round(r["total_us"], 3)) for r in d["sequences"])
    w = sorted((tuple(r[:-2]), r[-2], r[-1]) for r in want[str(d["id"])])
    if g != w:
        bad.append("device %d: %d rows vs %d" % (d["id"], len(g), len(w)))
print("; ".join(bad) or "ok %d" % sum(len(d["sequences"]) for d in got["devices"]))
EOF
for f in testdata/diagnosis/numpy_preprocess.json.gz testdata/peer/owlv2_h100.json.gz "$TRACES/eager_bf16.json"; do
    n=$(basename "$f")
    check_run "$n --group sequence" 0 "$PROFANA" --analysis "$f" bf16 --group sequence --format json --top 1000000
    run_oracle tests/cli/sequences_oracle.py "$f" >"$TMP/want.json"
    got=$(python3 "$TMP/cmp.py" "$TMP/out" "$TMP/want.json")
    check_eq "$n: every repeated sequence, its count and time equal the raw events' (${got#ok } sequences)" "${got%% *}" ok
done

# By hand: stream 7 runs A B C A B C A B (1 to 8 us), stream 8 runs B C (10, 20 us). Counted
# left to right without overlap: AB 3 times (3 + 9 + 15 us), BC twice there and once on stream
# 8 (5 + 11 + 30), ABC, BCA, CAB twice each (21, 27, 33); no run of 4 occurs twice; CA (twice)
# is left out as BCA ends with it as often; BC stays (BCA, ABC: twice, BC thrice); no B B
# across the two streams.
python3 - "$TMP/hand.json" <<'EOF'
import json, sys
ev, t = [], 0
for stream, names in ((7, "ABCABCAB"), (8, "BC")):
    for i, nm in enumerate(names):
        dur = i + 1 if stream == 7 else 10 * (i + 1)
        ev.append({"ph": "X", "cat": "kernel", "name": nm, "pid": 0, "tid": stream, "ts": t, "dur": dur,
                   "args": {"device": 0, "stream": stream, "correlation": len(ev) + 1}})
        t += 100
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
EOF
check_run "hand-made trace" 0 "$PROFANA" --analysis "$TMP/hand.json" bf16 --group sequence --format json
check_eq "hand-made trace: the sequences, counts and times by hand, by time" \
    "$(json '[("".join(r["kernels"]), r["count"], r["total_us"]) for r in d["devices"][0]["sequences"]]' "$TMP/out")" \
    "[('BC', 3, 46), ('CAB', 2, 33), ('BCA', 2, 27), ('AB', 3, 27), ('ABC', 2, 21)]"
check_eq "hand-made trace: % of kernel time (46 of 66 us)" \
    "$(json 'round(d["devices"][0]["sequences"][0]["pct"], 2)' "$TMP/out")" 69.7
check_run "--top 2" 0 "$PROFANA" --analysis "$TMP/hand.json" bf16 --group sequence --format csv --top 2
check_eq "--top 2, CSV: a header and two rows" "$(wc -l <"$TMP/out")" 3
check_run "text" 0 "$PROFANA" --analysis "$TMP/hand.json" bf16 --group sequence
check_grep "text: each sequence's kernels listed under the table" "^    3\\. B$" "$TMP/out"
check_run "--group sequence --report" 2 "$PROFANA" --analysis "$TMP/hand.json" bf16 --group sequence --report "$TMP/r.html"
check_run "--group sequence --depth" 2 "$PROFANA" --analysis "$TMP/hand.json" bf16 --group sequence --depth 2
