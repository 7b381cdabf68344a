# test_linked.sh - every trace of testdata/, ../shared/testdata/public/ and multirank/ links >= 95% of the GPU time whose launch call the trace holds to an op (issue 43's "Done when"), by External id or by nesting; profana's linked, unlinked and no-launch-call figures equal tests/cli/nesting_oracle.py's from the raw events. GPU time launched before profiling began (its runtime call is not in the trace) and graph replays (test_graph.sh links them with --graph-capture) are left out of the share and checked as their own figures.
# check: optimised
. tests/cli/lib.sh

# make check sweeps the traces up to 2 MB of JSON (the oracle reads every event in Python); check-full all of them
PF_SWEEP_MAX_MB=${PF_SWEEP_MAX_MB:-2}
n=0
for f in $(sweep_traces | grep -v "^testdata/old/"); do  # the old formats: test_old_traces.sh
    run_oracle tests/cli/nesting_oracle.py "$f" >"$TMP/o.json" 2>"$TMP/o.err" || { fail "$f: oracle" "$(tail -1 "$TMP/o.err")"; continue; }
    "$PROFANA" --analysis "$f" bf16 --format json --quiet >"$TMP/a.json" 2>/dev/null
    [ -s "$TMP/a.json" ] || continue  # traces profana refuses are test_broken.sh's
    n=$((n + 1))
    python3 - "$f" "$TMP/o.json" "$TMP/a.json" <<'PY'
import json
import sys

sys.path.insert(0, "tests/cli")
import raw

name, o, a = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
cov = {k: 0.0 for k in ("linked_by_external_id", "linked_by_nesting", "no_launching_op")}
for d in a["devices"]:
    for k in cov:
        cov[k] += d["coverage"][k]["total_us"]
near = lambda x, y: abs(x - y) <= 1e-6 * max(1.0, abs(y)) + 1e-3
linked = o["external_id_us"] + o["nesting_us"]
launchable = o["total_us"] - o["none_graph_us"] - o["none_no_call_us"]
share = 100.0 * linked / launchable if launchable > 0 else 100.0
raw.check(name, "linked %.3f us = oracle's (External id %.3f + nesting %.3f)" % (linked, o["external_id_us"], o["nesting_us"]),
          near(cov["linked_by_external_id"] + cov["linked_by_nesting"], linked), cov)
raw.check(name, "no launching op %.3f us = oracle's" % o["none_us"], near(cov["no_launching_op"], o["none_us"]), cov)
raw.check(name, ">= 95%% of the GPU time with its launch call in the trace linked to an op (%.2f%% of %.1f us)" % (share, launchable),
          share >= 95.0, o)
PY
done
[ "$n" -ge 20 ] && pass "linked: swept $n traces" || fail "linked: swept $n traces" "want >= 20"
