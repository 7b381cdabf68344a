# test_ranks_culprit.sh - --ranks' culprits on rank sets made from the bundled tensor-parallel pair by tests/cli/ranks_culprit_gen.py, which plants on one rank an extra kernel or a host gap before a chosen collective (moving what follows) or slows every kernel by 15%: the late rank, the collective, the planted kernel or gap and its excess (5%), the verdict, the uniform ratio (2%), a data imbalance (one rank's op on other shapes) named with both shape sets, on 2, 8 and 64 ranks; no straggler where none was planted; summaries give the same output.
. tests/cli/lib.sh

GEN=tests/cli/ranks_culprit_gen.py

# case NAME N MODE ARGS...: a rank set planted as asked, --ranks over it, the check of its JSON
case_of() {
    c_name=$1
    shift
    if ! python3 "$GEN" gen "$TMP/$c_name" "$@" >"$TMP/$c_name.planted"; then
        fail "$c_name: generator" "python3 $GEN gen $*"
        return
    fi
    check_run "$c_name: --ranks" 0 "$PROFANA" --ranks "$TMP/$c_name" bf16 --format json
    cp "$TMP/out" "$TMP/$c_name.json"
    python3 "$GEN" check "$TMP/$c_name.planted" "$TMP/$c_name.json" "$c_name"
}

# two ranks: the recorded pair (its own skew of tens of us is below the threshold)
case_of pair_none 2 none
case_of pair_kernel 2 kernel 0 8 3000
case_of pair_gap 2 gap 1 10 2500 load_batch
# eight ranks: copies of rank 0, moved by up to 5 us, kernels +-0.5%
case_of eight_none 8 none
case_of eight_kernel 8 kernel 5 8 2000
case_of eight_gap 8 gap 2 12 1200 load_batch
case_of eight_slow 8 slow 3 1.15
# data imbalance: one rank's aten::mm on twice the rows, 1.8 ms longer (2 and 8 ranks)
case_of pair_data 2 data 1 8 1800
case_of eight_data 8 data 6 4 1800
# 64 ranks: a kernel on one rank and a host gap on another, in one set
case_of many_both 64 both 63 5 1500 17 11 3000 load_batch

# The text names the culprit in prose.
check_run "eight_kernel: text" 0 "$PROFANA" --ranks "$TMP/eight_kernel" bf16 --wide
if grep -q "^Rank 5 reached allreduce #8 (group 0) 2.0 ms after median rank [0-9]*: its .planted_straggler_kernel. kernels took 2.0 ms more" "$TMP/out"; then
    pass "eight_kernel: the prose names rank 5, the all-reduce and the kernel"
else
    fail "eight_kernel: the prose names rank 5, the all-reduce and the kernel" "$(grep '^Rank' "$TMP/out" | head -3)"
fi
check_run "pair_data: text" 0 "$PROFANA" --ranks "$TMP/pair_data" bf16 --wide
check_grep "pair_data: the verdict in prose" "^Rank 1: data imbalance: late at 1 collective(s)" "$TMP/out"
# the calls that differ, from the planted dims: the first mm's [8192,8192] input doubled
check_grep "pair_data: the calls that differ, both ranks'" \
    "kernels took 1.8 ms more than rank 0's, on other shapes (\[16384,8192\]bf16, \[8192,4096\]bf16 here; \[8192,8192\]bf16, \[8192,4096\]bf16 on rank 0)$" "$TMP/out"
check_run "pair_none: text" 0 "$PROFANA" --ranks "$TMP/pair_none" bf16
if grep -q "^Culprits: no clear straggler" "$TMP/out"; then pass "pair_none: says no clear straggler"; else fail "pair_none: says no clear straggler" "$(grep Culprits "$TMP/out")"; fi

# Summaries carry the windows: --ranks over them prints what it prints over the traces.
mkdir -p "$TMP/sum"
for f in "$TMP"/eight_gap/*.json; do
    "$PROFANA" --analysis "$f" bf16 --summary "$TMP/sum/$(basename "$f" .json).summary.json" >/dev/null 2>&1
done
for fmt in text json csv; do
    "$PROFANA" --ranks "$TMP/eight_gap" bf16 --format $fmt >"$TMP/a.$fmt" 2>&1
    "$PROFANA" --ranks "$TMP/sum" bf16 --format $fmt >"$TMP/b.$fmt" 2>&1
    if sed 's/eight_gap/sum/; s/\.json/.summary.json/g' "$TMP/a.$fmt" | cmp -s - "$TMP/b.$fmt" || cmp -s "$TMP/a.$fmt" "$TMP/b.$fmt"; then
        pass "summaries: $fmt as over the traces"
    else
        fail "summaries: $fmt as over the traces" "$(diff "$TMP/a.$fmt" "$TMP/b.$fmt" | head -4)"
    fi
done

# A summary without windows (an older profana's): the late arrival is listed, without a cause.
python3 - "$TMP/sum" <<'PY'
import json, os, sys
d = sys.argv[1]
for n in os.listdir(d):
    p = os.path.join(d, n)
    s = json.load(open(p))
    del s["windows"], s["window_shapes"]
    json.dump(s, open(p, "w"))
PY
check_run "no windows: --ranks" 0 "$PROFANA" --ranks "$TMP/sum" bf16 --format json
python3 - "$TMP/out" <<'PY'
import json, sys
sys.path.insert(0, "tests/cli")
from raw import check
d = json.load(open(sys.argv[1]))
check("no windows", "culprit_windows false", d["culprit_windows"] is False)
late = [a for a in d["late_arrivals"] if a["rank"] == 2]
check("no windows", "rank 2's late arrival listed", len(late) == 1)
check("no windows", "without a cause", late and late[0]["culprit_kind"] == "-" and late[0]["compute_excess_us"] is None)
PY

# A summary whose windows do not fit it is refused with one line, exit 1.
"$PROFANA" --analysis "$TMP/pair_none/rank000.json" bf16 --summary "$TMP/bad.summary.json" >/dev/null 2>&1
python3 - "$TMP/bad.summary.json" "$TMP/bad2.summary.json" "$TMP/bad3.summary.json" "$TMP/bad4.summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
t = json.loads(json.dumps(s))
s["windows"][1][7] = len(s["labels"])  # a label that "labels" lacks
json.dump(s, open(sys.argv[1], "w"))
t["windows"].pop()  # one window short
t["window_shapes"].pop()
json.dump(t, open(sys.argv[2], "w"))
u = json.loads(json.dumps(t))
u["windows"].append(s["windows"][-1])  # windows whole again, their shapes one short
json.dump(u, open(sys.argv[3], "w"))
u["window_shapes"].append([len(s["labels"]), -1, -1, -1])  # a shape label that "labels" lacks
json.dump(u, open(sys.argv[4], "w"))
PY
check_run "a window naming a missing label" 1 "$PROFANA" --ranks "$TMP/bad.summary.json" "$TMP/pair_none/rank001.json" bf16
check_grep "a window naming a missing label: said" "^profana: error: $TMP/bad.summary.json: byte [0-9]*: a window names a label that \"labels\" lacks$" "$TMP/err"
check_run "one window short" 1 "$PROFANA" --ranks "$TMP/bad2.summary.json" "$TMP/pair_none/rank001.json" bf16
check_grep "one window short: said" "does not list one window per communication kernel" "$TMP/err"
check_run "window shapes one short" 1 "$PROFANA" --ranks "$TMP/bad3.summary.json" "$TMP/pair_none/rank001.json" bf16
check_grep "window shapes one short: said" "\"window_shapes\" lists fewer windows than \"windows\"" "$TMP/err"
check_run "a window shape naming a missing label" 1 "$PROFANA" --ranks "$TMP/bad4.summary.json" "$TMP/pair_none/rank001.json" bf16
check_grep "a window shape naming a missing label: said" "a window names a label that \"labels\" lacks" "$TMP/err"
