# test_runs.sh - --diff with several runs a side (testdata/runs: three H100 sessions each of a base step, the same step, and a step with an unfused layer norm): each interval and verdict against an oracle that reads the raw events and computes Welch's t interval on log times itself (ci_oracle.py), and the --fail-above gate on the interval.
# check: valgrind
. tests/cli/lib.sh

R=testdata/runs
BASE=$R/base_run1.json.gz,$R/base_run2.json.gz,$R/base_run3.json.gz
SAME=$R/same_run1.json.gz,$R/same_run2.json.gz,$R/same_run3.json.gz
CHANGED=$R/changed_run1.json.gz,$R/changed_run2.json.gz,$R/changed_run3.json.gz

"$PROFANA" --diff "$BASE" base "$SAME" same bf16 --format json >"$TMP/same.json"
"$PROFANA" --diff "$BASE" base "$CHANGED" changed bf16 --format json >"$TMP/changed.json"

python3 - "$TMP" "$R" <<'PY' || fail "runs: checker" "exited $?"
import json
import sys
from collections import defaultdict

sys.path.insert(0, "tests/cli")
import ci_oracle
import raw

tmp, R = sys.argv[1:3]


def check(what, ok, why=""):
    raw.check("runs", what, ok, why)


def runs(side):
    """Per run: the device's GPU time and each kernel name's mean time per launch (ns), its
    launches and its total time (ns), from the raw events."""
    out = []
    for i in (1, 2, 3):
        acts = raw.gpu_acts(raw.load("%s/%s_run%d.json.gz" % (R, side, i)))
        tot, per = 0, defaultdict(list)
        for a in acts:
            d = raw.ns(a["dur"])
            tot += d
            per[a["name"]].append(d)
        out.append((tot, {k: sum(v) / len(v) for k, v in per.items()}, {k: len(v) for k, v in per.items()},
                    {k: sum(v) for k, v in per.items()}))
    return out


def near(x, y, tol=1e-6):
    return abs(x - y) <= tol * max(1.0, abs(y))


base = runs("base")
for side in ("same", "changed"):
    other = runs(side)
    dev = json.load(open("%s/%s.json" % (tmp, side)))["devices"][0]
    s = dev["summary"]
    r, lo, hi, spread = ci_oracle.ratio_ci([x[0] for x in base], [x[0] for x in other])
    v = ci_oracle.verdict(r, lo, hi, spread)
    check("base x3 vs %s x3: GPU time B/A %.4f, 95%% CI [%.4f, %.4f], spread %.4f, %s (Python from the raw events)"
          % (side, r, lo, hi, spread, v),
          near(s["runs_ratio"], r) and near(s["ratio_ci"][0], lo) and near(s["ratio_ci"][1], hi)
          and near(s["spread"], spread) and s["verdict"] == v and s["runs"] == [3, 3],
          "got %s %s %s %s" % (s["runs_ratio"], s["ratio_ci"], s["spread"], s["verdict"]))
    # every matched row whose name is in every run: the interval of its mean time per launch,
    # or of its total time where the first runs' launch counts differ (the row's basis)
    rows_ok, n_rows, judged, a_total = True, 0, 0, sum(x["a_total_us"] or 0 for x in dev["rows"])
    for row in dev["rows"]:
        name = row["name"]
        by_total = row["match"] is not None and base[0][2].get(name) != other[0][2].get(name)
        pick = 3 if by_total else 1
        av = [x[pick].get(name, 0) for x in base]
        bv = [x[pick].get(name, 0) for x in other]
        if row["match"] is not None and row["basis"] != ("total" if by_total else "call"):
            rows_ok = False
            print("  row %s: basis %s, want %s" % (name[:60], row["basis"], "total" if by_total else "call"))
        if row["verdict"] in ("slower", "faster"):
            judged += row["a_total_us"] or 0
        if sum(x > 0 for x in av) < 2 or sum(x > 0 for x in bv) < 2:
            rows_ok &= row["ratio_ci"] is None and row["verdict"] is None
            continue
        n_rows += 1
        rr, rlo, rhi, rsp = ci_oracle.ratio_ci(av, bv)
        ok = near(row["ratio_ci"][0], rlo) and near(row["ratio_ci"][1], rhi) and row["verdict"] == ci_oracle.verdict(rr, rlo, rhi, rsp)
        if not ok:
            print("  row %s: got %s %s, want [%f, %f] %s" % (name[:60], row["ratio_ci"], row["verdict"], rlo, rhi,
                                                          ci_oracle.verdict(rr, rlo, rhi, rsp)))
        rows_ok &= ok
    check("base x3 vs %s x3: each of %d rows' interval and verdict = Python's; rows with no interval are null" % (side, n_rows),
          rows_ok and n_rows > 15)
    if side == "same":
        check("base x3 vs same x3: overall same", s["verdict"] == "same", s["verdict"])
        check("base x3 vs same x3: rows judged slower or faster hold %.2f%% of base's GPU time (< 5%%)"
              % (100 * judged / a_total), judged / a_total < 0.05)
    else:
        check("base x3 vs changed x3: overall slower with its interval inside (1.1, 1.3)",
              s["verdict"] == "slower" and 1.1 < s["ratio_ci"][0] and s["ratio_ci"][1] < 1.3, "%s" % s["ratio_ci"])
PY

check_run "--fail-above 2, base x3 vs same x3: the interval holds 1" 0 "$PROFANA" --diff "$BASE" base "$SAME" same bf16 --fail-above 2
check_run "--fail-above 10, base x3 vs changed x3: the lower bound is above 1.10" 3 "$PROFANA" --diff "$BASE" base "$CHANGED" changed bf16 --fail-above 10
check_grep "--fail-above's line gives the change and the interval" \
    "^profana: changed's GPU time is 2[0-9].[0-9][0-9]% above base's (B/A 1.2[0-9][0-9], 95% interval \[1.2[0-9][0-9], 1.2[0-9][0-9]\] over 3 and 3 runs)" "$TMP/err"
check_run "--fail-above 30, base x3 vs changed x3: the lower bound is below 1.30" 0 "$PROFANA" --diff "$BASE" base "$CHANGED" changed bf16 --fail-above 30

# text and Markdown: the interval and verdict per row, and the pair's line
"$PROFANA" --diff "$BASE" base "$CHANGED" changed bf16 --wide >"$TMP/c.txt"
check_grep "text: the interval and verdict columns" "| B/A 95% CI *| Verdict" "$TMP/c.txt"
check_grep "text: the pair's line" "^Over 3 runs of base and 3 of changed: GPU time B/A 1.2[0-9][0-9], 95% CI \[1.2[0-9][0-9], 1.2[0-9][0-9]\], run-to-run spread [0-9.]*%: slower" "$TMP/c.txt"
check_grep "text: the rows' verdicts counted" "^Rows: [0-9]* slower (" "$TMP/c.txt"
"$PROFANA" --diff "$BASE" base "$CHANGED" changed bf16 --format md >"$TMP/c.md"
check_grep "Markdown: the interval column" "| B/A 95% CI *| Verdict" "$TMP/c.md"
"$PROFANA" --diff "$BASE" base "$CHANGED" changed bf16 --format csv >"$TMP/c.csv" 2>"$TMP/c.err"
check_grep "CSV: the basis, interval and verdict columns" ",Basis,B/A 95% CI,Verdict,Kind$" "$TMP/c.csv"

# one run a side: as before, no interval anywhere
"$PROFANA" --diff $R/base_run1.json.gz base $R/changed_run1.json.gz changed bf16 >"$TMP/one.txt"
"$PROFANA" --diff $R/base_run1.json.gz base $R/changed_run1.json.gz changed bf16 --format json >"$TMP/one.json"
if grep -q "95% CI\|^Over \|Verdict" "$TMP/one.txt" || grep -q '"ratio_ci"\|"verdict"' "$TMP/one.json"; then
    fail "one run a side: no interval columns or lines" "$(grep -n "CI\|Over\|verdict" "$TMP/one.txt" "$TMP/one.json" | head -3)"
else
    pass "one run a side: no interval columns or lines"
fi
check_run "one run a side with several on the other: the rows have no interval" 0 "$PROFANA" --diff $R/base_run1.json.gz base "$CHANGED" changed bf16
check_grep "one run a side: the pair's line says there is no interval" "no interval (fewer than 2 runs a side)" "$TMP/out"
check_run "a missing run: the trace error" 1 "$PROFANA" --diff "$R/base_run1.json.gz,$TMP/nope.json" base "$CHANGED" changed bf16
check_grep "a missing run: named" "nope.json" "$TMP/err"
# docs/diff.md's example command, as written there
cmd=$(awk '/<!-- runs-example/ { on = 1; next } on && /^```$/ { if (++n == 2) exit; next } on' docs/diff.md | sed 's/\\$//' | tr '\n' ' ')
# shellcheck disable=SC2086
check_run "README: the several-runs example exits 3 (its interval's lower bound is above 1.10)" 3 $(echo "$cmd" | sed "s|^profana|$PROFANA|")

# Traces with different numbers of profiler steps compare per step: steps_bf16.json (3 steps)
# against the same steps recorded twice over (6 steps, made here: every event again 1 s later
# with fresh ids and steps #5..#7): twice the GPU time, the same time per step.
python3 - "$TRACES/steps_bf16.json" "$TMP/six_steps.json" <<'PY'
import json
import re
import sys

src, dst = sys.argv[1:3]
t = json.load(open(src))
more = []
for e in t["traceEvents"]:
    if e.get("ph") in ("s", "f") or "ts" not in e:
        continue
    c = json.loads(json.dumps(e))
    c["ts"] = float(c["ts"]) + 1e6
    a = c.get("args", {})
    for k in ("External id", "correlation"):
        if isinstance(a.get(k), int):
            a[k] += 10**7
    c["name"] = re.sub(r"^ProfilerStep#(\d+)$", lambda m: "ProfilerStep#%d" % (int(m.group(1)) + 3), c["name"])
    more.append(c)
t["traceEvents"] += more
json.dump(t, open(dst, "w"))
PY
S=$TRACES/steps_bf16.json
"$PROFANA" --diff "$S,$S" three "$TMP/six_steps.json,$TMP/six_steps.json" six bf16 --format json >"$TMP/steps.json" 2>/dev/null
check_eq "per step: 3 steps against the same 6 times over: B/A of GPU time per step 1, of the totals 2" \
    "$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["devices"][0]["summary"]; print(s["per_step"], "%.6f" % s["runs_ratio"], "%.6f" % s["ratio"], s["verdict"])' "$TMP/steps.json")" \
    "True 1.000000 2.000000 same"

# --top N keeps the rows of largest change; each keeps its own interval
"$PROFANA" --diff "$BASE" base "$CHANGED" changed bf16 --format json --top 5 >"$TMP/top.json"
check_eq "--top 5: each row shown keeps the interval and verdict it has in the whole table" \
    "$(python3 -c '
import json, sys
whole = {(r["name"], r["match"]): (r["ratio_ci"], r["verdict"]) for r in json.load(open(sys.argv[1]))["devices"][0]["rows"]}
top = json.load(open(sys.argv[2]))["devices"][0]["rows"]
print(len(top), all(whole[(r["name"], r["match"])] == (r["ratio_ci"], r["verdict"]) for r in top))' "$TMP/changed.json" "$TMP/top.json")" "5 True"

# Issue 47: the GPU-time line of a several-run diff is the first runs', and says so (its B/A 1.217 read
# as the runs' 1.210 a few lines below); its B/A against the first runs' raw events.
COLUMNS=120 "$PROFANA" --diff "$R/base_run1.json.gz,$R/base_run2.json.gz,$R/base_run3.json.gz" base \
    "$R/changed_run1.json.gz,$R/changed_run2.json.gz,$R/changed_run3.json.gz" changed bf16 --quiet >"$TMP/first" 2>&1
want=$(python3 -c '
import sys
sys.path.insert(0, "tests/cli")
from raw import gpu_acts, load, ns
a, b = (sum(ns(e["dur"]) for e in gpu_acts(load(p))) for p in sys.argv[1:3])
print("%.3f" % (b / a))' "$R/base_run1.json.gz" "$R/changed_run1.json.gz")
check_grep "several runs: the GPU-time line names the first runs, B/A $want from their raw events" \
    "^GPU time of each side's first run (every run: below): base .*, B/A $want " "$TMP/first"
