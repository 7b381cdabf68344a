# test_nesting.sh - kernels linked to their op by nesting where the External id finds none (HTA's test traces' shape: a kernel's External id is its correlation, its launch call lies inside cpu_ops on its thread): the hand-made cases of tests/cli/hta_shape.py by hand and against nesting_oracle.py, its training-step look-alike, eager_bf16.json rewritten in that shape (every op's row as the original's), the share of GPU time linked each way in text and JSON.
# check: valgrind
. tests/cli/lib.sh

python3 tests/cli/hta_shape.py cases "$TMP/cases.json" || fail "nesting: cases fixture" "exited $?"
python3 tests/cli/hta_shape.py lookalike "$TMP/hta_lookalike.json" || fail "nesting: look-alike fixture" "exited $?"
cmp -s "$TMP/hta_lookalike.json" testdata/hta/hta_lookalike.json && pass "nesting: testdata/hta/hta_lookalike.json is the generator's" ||
    fail "nesting: testdata/hta/hta_lookalike.json is the generator's" "regenerate it with tests/cli/hta_shape.py"

# The oracle's figures against the analysis's JSON: the time linked each way, and each launching op's GPU time
# (--group op: an activity without an op is its own kernel's row).
check_oracle() {
    run_oracle tests/cli/nesting_oracle.py "$2" >"$TMP/oracle.json" || fail "$1: oracle" "exited $?"
    "$PROFANA" --analysis "$2" bf16 --group op --format json --top 0 >"$TMP/an.json" 2>"$TMP/an.err"
    python3 - "$1" "$TMP/oracle.json" "$TMP/an.json" <<'PY'
import json
import sys

sys.path.insert(0, "tests/cli")
import raw

name, o, a = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
d = a["devices"][0]
c = d["coverage"]
near = lambda x, y: abs(x - y) <= 1e-6 * max(1.0, abs(y))
raw.check(name, "GPU time linked by nesting %.3f us in %d activities (oracle)" % (o["nesting_us"], o["nesting_n"]),
          near(c["linked_by_nesting"]["total_us"], o["nesting_us"]) and c["linked_by_nesting"]["count"] == o["nesting_n"],
          c["linked_by_nesting"])
raw.check(name, "GPU time linked by External id %.3f us (oracle)" % o["external_id_us"],
          near(c["linked_by_external_id"]["total_us"], o["external_id_us"]), c["linked_by_external_id"])
raw.check(name, "GPU time without a launching op %.3f us in %d activities (oracle)" % (o["none_us"], o["none_n"]),
          near(c["no_launching_op"]["total_us"], o["none_us"]) and c["no_launching_op"]["count"] == o["none_n"],
          c["no_launching_op"])
raw.check(name, "JSON linked_by_nesting at the top = the devices' count", a["linked_by_nesting"] == o["nesting_n"],
          a["linked_by_nesting"])
rows = {r["name"]: r["total_us"] for r in d["rows"]}
bad = {k: (rows.get(k), v) for k, v in o["by_op"].items() if rows.get(k) is None or not near(rows[k], v)}
raw.check(name, "each launching op's GPU time, %d rows (oracle: innermost enclosing op)" % len(o["by_op"]),
          not bad and len(rows) == len(o["by_op"]), bad or sorted(rows))
PY
}

# ---- the hand-made cases (tests/cli/hta_shape.py, "cases"), by hand ----
check_oracle "cases" "$TMP/cases.json"
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); print(o["nesting_n"], o["none_n"], o["by_op"]["aten::mm"], o["by_op"]["aten::addmm"], o["by_op"]["aten::linear"], o["by_op"]["aten::_to_copy"], o["by_op"]["aten::mul"], o["by_op"]["aten::fill_"], o["by_op"]["aten::zero_"])' \
    "$TMP/oracle.json" >"$TMP/hand"
# by hand: A addmm 8; B linear 3; C _to_copy 4 (of two ops of one span the later; the call outlives copy_);
# G mul 9 by its External id; I mm 13 + 14; J fill_ 2 (the call is the op's span); K zero_ 1.5 (a call of no
# length at the op's end); unlinked: D (a thread without ops), E (another process), F (a graph launch, 2
# kernels), H (no launch call)
check_eq "cases: the oracle agrees with the hand values" "$(cat "$TMP/hand")" "7 5 27.0 8.0 3.0 4.0 9.0 2.0 1.5"
check_eq "cases: the External-id link wins over nesting (aten::mul, not aten::div)" \
    "$(json '[r["name"] for r in d["devices"][0]["rows"] if r["name"] == "aten::div"]' "$TMP/an.json")" "[]"
COLUMNS=400 "$PROFANA" --analysis "$TMP/cases.json" bf16 >"$TMP/cases.txt" 2>&1
check_grep "cases: the counts line adds the activities linked by nesting" \
    "; 5 without a launching op, 7 linked to their op by nesting; GPU time 95.500 us" "$TMP/cases.txt"
# 9 us of 95.5 by External id, 45.5 by nesting, 41 none
check_grep "cases: the coverage line gives the share linked each way" \
    "; op by External id 9.42%, by nesting 47.64%; no launching op: 42.93%" "$TMP/cases.txt"
check_grep "cases: a Why line says what was seen: External ids no op has, the calls inside ops" \
    "^Why: 7 GPU activities (45.500 us, 47.64% of GPU time) have an External id that no cpu_op has, and their launch call lies inside a cpu_op on its thread: each is linked to the innermost one (by nesting)" \
    "$TMP/cases.txt"
check_grep "cases: the unlinked ones by what was seen: outside any op, a graph launch, no call" \
    "^Why: 5 GPU activities (41.000 us, 42.93% of GPU time) have no launching op: 2 launched by a call outside any recorded op on its thread (a library's or Triton's own launch); 2 replayed from a CUDA graph (launched by a graph launch call); 1 with no launch call in the trace" \
    "$TMP/cases.txt"

# ---- the look-alike of a training step (forward, backward on the autograd thread, optimizer, NCCL) ----
check_oracle "look-alike" "$TMP/hta_lookalike.json"
if grep -q "CUDA-graph\|CUDA graph" "$TMP/an.err"; then fail "look-alike: no CUDA-graph blame" "$(cat "$TMP/an.err")"; else pass "look-alike: no CUDA-graph blame"; fi
COLUMNS=400 "$PROFANA" --analysis "$TMP/hta_lookalike.json" bf16 >"$TMP/look.txt" 2>&1
if grep "^Why" "$TMP/look.txt" | grep -q "graph"; then fail "look-alike: the Why lines blame no graph replay" "$(grep ^Why "$TMP/look.txt")"; else pass "look-alike: the Why lines blame no graph replay"; fi
check_grep "look-alike: >= 95% of GPU time linked to an op (98.82%)" "; op by External id 0.00%, by nesting 98.82%; no launching op: 1.18%" "$TMP/look.txt"

# ---- eager_bf16.json in HTA's shape: every activity's External id replaced by one no op has ----
python3 - "$TRACES/eager_bf16.json" "$TMP/eager_hta.json" <<'PY' || fail "eager in HTA's shape: fixture" "exited $?"
import json
import sys

t = json.load(open(sys.argv[1]))
for e in t["traceEvents"]:
    if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset", "cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {}):
        e["args"]["External id"] = e["args"]["correlation"] + 10 ** 7
json.dump(t, open(sys.argv[2], "w"))
PY
check_oracle "eager in HTA's shape" "$TMP/eager_hta.json"
for j in 1 4; do
    "$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --group op --format csv -j "$j" >"$TMP/orig.csv" 2>/dev/null
    "$PROFANA" --analysis "$TMP/eager_hta.json" bf16 --group op --format csv -j "$j" >"$TMP/hta.csv" 2>/dev/null
    if [ -s "$TMP/orig.csv" ] && cmp -s "$TMP/orig.csv" "$TMP/hta.csv"; then
        pass "eager in HTA's shape, -j $j: the op table is the original's, byte for byte (nesting finds the External id's op)"
    else
        fail "eager in HTA's shape, -j $j: the op table is the original's" "$(diff "$TMP/orig.csv" "$TMP/hta.csv" | head -5)"
    fi
done

# ---- the bundled look-alike (testdata/hta/): the same share from the file as generated ----
"$PROFANA" --analysis testdata/hta/hta_lookalike.json bf16 --format json >"$TMP/tl.json" 2>/dev/null
check_eq "testdata/hta/hta_lookalike.json: 372 activities linked by nesting, 3 (NCCL on a thread without ops) none" \
    "$(json 'd["linked_by_nesting"], d["unlinked"]' "$TMP/tl.json")" "(372, 3)"
