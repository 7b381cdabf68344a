# test_diff_calls.sh - --diff where counts change: a row whose launches differ between the sides is judged on total time (testdata/runs: reduce_kernel 48 -> 72 launches, Memcpy DtoD 3 -> 12), and the time-weighted B/A beside the geomean with the line naming the rows when they point opposite ways (owlv2 H100 vs MI300X); every figure from the raw events with Python.
# check: valgrind
. tests/cli/lib.sh

R=testdata/runs
BASE=$R/base_run1.json.gz,$R/base_run2.json.gz,$R/base_run3.json.gz
CHANGED=$R/changed_run1.json.gz,$R/changed_run2.json.gz,$R/changed_run3.json.gz
PEER=testdata/peer

"$PROFANA" --diff "$BASE" base "$CHANGED" changed bf16 --format json >"$TMP/runs.json" 2>"$TMP/runs.err" ||
    fail "runs: json" "exit $?"
"$PROFANA" --diff "$BASE" base "$CHANGED" changed bf16 >"$TMP/runs.txt" 2>/dev/null
"$PROFANA" --diff "$BASE" base "$CHANGED" changed bf16 --format md >"$TMP/runs.md" 2>/dev/null
"$PROFANA" --diff "$BASE" base "$CHANGED" changed bf16 --format csv >"$TMP/runs.csv" 2>/dev/null

# --- reduce_kernel and Memcpy DtoD over 3 runs a side, from the raw events ---
python3 - "$R" "$TMP" <<'PY' || fail "calls: checker" "exited $?"
import csv
import json
import math
import sys

sys.path.insert(0, "tests/cli")
import ci_oracle
import raw

R, tmp = sys.argv[1:3]


def check(what, ok, why=""):
    raw.check("calls", what, ok, why)


def per_run(side, pick):
    """Per run: (launches, total ns) of the one kernel name pick(name) accepts."""
    out = []
    for i in (1, 2, 3):
        acts = [a for a in raw.gpu_acts(raw.load("%s/%s_run%d.json.gz" % (R, side, i))) if pick(a["name"])]
        names = {a["name"] for a in acts}
        assert len(names) == 1, names
        out.append((names.pop(), len(acts), sum(raw.ns(a["dur"]) for a in acts)))
    return out


rows = json.load(open(tmp + "/runs.json"))["devices"][0]["rows"]
text = open(tmp + "/runs.txt").read().splitlines()
md = open(tmp + "/runs.md").read().splitlines()
csv_rows = list(csv.DictReader(open(tmp + "/runs.csv")))
cases = [("reduce_kernel", lambda n: n.startswith("void at::native::reduce_kernel<128, 4, "), (48, 72), "reduce_kernel<ReduceOp...128>"),
         ("Memcpy DtoD", lambda n: n.startswith("Memcpy DtoD"), (3, 12), "Memcpy DtoD")]
for label, pick, counts, short in cases:
    a, b = per_run("base", pick), per_run("changed", pick)
    name = a[0][0]
    row = [r for r in rows if r["name"] == name]
    check("%s: one matched row" % label, len(row) == 1 and row[0]["match"] == "exact", "%d rows" % len(row))
    row = row[0]
    ca, cb = {x[1] for x in a}, {x[1] for x in b}
    check("%s: Python counts %s launches a run in base, %s in changed (the issue's %d -> %d)"
          % (label, sorted(ca), sorted(cb), counts[0], counts[1]), ca == {counts[0]} and cb == {counts[1]})
    check("%s: profana's counts = Python's (%d, %d)" % (label, a[0][1], b[0][1]),
          (row["a_count"], row["b_count"]) == (a[0][1], b[0][1]), "%s %s" % (row["a_count"], row["b_count"]))
    check("%s: profana's totals = Python's (%.3f, %.3f us)" % (label, a[0][2] / 1e3, b[0][2] / 1e3),
          abs(row["a_total_us"] * 1e3 - a[0][2]) < 0.5 and abs(row["b_total_us"] * 1e3 - b[0][2]) < 0.5,
          "%s %s" % (row["a_total_us"], row["b_total_us"]))
    mean_a = sum(x[2] / x[1] for x in a) / 3
    mean_b = sum(x[2] / x[1] for x in b) / 3
    tot_a = sum(x[2] for x in a) / 3
    tot_b = sum(x[2] for x in b) / 3
    # what per-launch means would say (the old verdict), and what total time says
    pr, plo, phi, psp = ci_oracle.ratio_ci([x[2] / x[1] for x in a], [x[2] / x[1] for x in b])
    tr, tlo, thi, tsp = ci_oracle.ratio_ci([x[2] for x in a], [x[2] for x in b])
    check("%s: per launch it got faster (mean %.3f -> %.3f us, %s), in total slower (%.1f -> %.1f us a run, %s)"
          % (label, mean_a / 1e3, mean_b / 1e3, ci_oracle.verdict(pr, plo, phi, psp), tot_a / 1e3, tot_b / 1e3,
             ci_oracle.verdict(tr, tlo, thi, tsp)),
          ci_oracle.verdict(pr, plo, phi, psp) == "faster" and ci_oracle.verdict(tr, tlo, thi, tsp) == "slower")
    check("%s: judged on total time: basis total, verdict slower, interval [%.4f, %.4f] of the runs' totals (Python)"
          % (label, tlo, thi),
          row["basis"] == "total" and row["verdict"] == "slower" and abs(row["ratio_ci"][0] - tlo) < 1e-6 * tlo
          and abs(row["ratio_ci"][1] - thi) < 1e-6 * thi, "%s %s %s" % (row["basis"], row["verdict"], row["ratio_ci"]))
    check("%s: B/A = first runs' total ratio %.6f (Python), not the per-launch one" % (label, b[0][2] / a[0][2]),
          abs(row["ratio"] - b[0][2] / a[0][2]) < 1e-9 * row["ratio"], "%s" % row["ratio"])
    for fmt, lines in (("text", text), ("Markdown", md)):
        hit = [l for l in lines if l.lstrip("| ").startswith(short + " ") and "%.3f calls" % row["ratio"] in l]
        check("%s: %s marks B/A '%.3f calls' with the verdict slower" % (label, fmt, row["ratio"]),
              len(hit) == 1 and " slower" in hit[0], "%s" % hit)
    c = [r for r in csv_rows if r["Kernel Name"] == name]
    check("%s: CSV Basis total, B/A a plain number" % label,
          len(c) == 1 and c[0]["Basis"] == "total" and c[0]["B/A"] == "%.3f" % row["ratio"], "%s" % c[:1])
# rows of equal counts keep the per-launch basis
same = [r for r in rows if r["match"] and r["a_count"] == r["b_count"]]
check("rows with equal counts: basis call and B/A the mean ratio (%d rows)" % len(same),
      len(same) > 10 and all(r["basis"] == "call" and abs(r["ratio"] - r["b_mean_us"] / r["a_mean_us"]) < 1e-6 for r in same))
check("rows on one side only: no basis", all(r["basis"] is None for r in rows if r["match"] is None))
check("text: the calls note under the table",
      any(l.startswith("calls: 4 matched rows made a different number of launches on each side") for l in text))
check("text: the verdict line counts the rows judged on total time",
      any(l.startswith("Rows: ") and "4 of the rows with a verdict judged on total time" in l
          for l in open(tmp + "/runs.txt").read().replace("\n  ", " ").splitlines()))
PY

# --fail-above still gates the compared devices' GPU time (not row verdicts): unchanged exits
check_run "--fail-above 10, base x3 vs changed x3: exit 3 as before" 3 "$PROFANA" --diff "$BASE" base "$CHANGED" changed bf16 --fail-above 10
check_run "--fail-above 30, base x3 vs changed x3: exit 0 as before" 0 "$PROFANA" --diff "$BASE" base "$CHANGED" changed bf16 --fail-above 30

# --- owlv2 H100 vs MI300X: the geomean and the time-weighted ratio point opposite ways ---
A=$PEER/owlv2_h100.json.gz B=$PEER/owlv2_mi300.json.gz
for g in kernel op; do
    "$PROFANA" --diff "$A" h100 "$B" mi300 bf16 --group $g --format json >"$TMP/peer_$g.json" 2>/dev/null
done
"$PROFANA" --diff "$A" h100 "$B" mi300 bf16 >"$TMP/peer.txt" 2>/dev/null
"$PROFANA" --diff "$A" h100 "$B" mi300 bf16 --format md >"$TMP/peer.md" 2>/dev/null
"$PROFANA" --diff "$A" h100 "$B" mi300 bf16 --format csv >"$TMP/peer.csv" 2>"$TMP/peer.err"
python3 - "$A" "$B" "$TMP" <<'PY' || fail "owlv2: checker" "exited $?"
import json
import math
import sys
from collections import defaultdict

sys.path.insert(0, "tests/cli")
import raw

pa, pb, tmp = sys.argv[1:4]


def check(what, ok, why=""):
    raw.check("owlv2", what, ok, why)


def kernels(path):
    """Per kernel name: [launches, total ns], and the GPU time, from the raw events."""
    per = defaultdict(lambda: [0, 0])
    for a in raw.gpu_acts(raw.load(path)):
        per[a["name"]][0] += 1
        per[a["name"]][1] += raw.ns(a["dur"])
    return per, sum(v[1] for v in per.values())


(ka, ta), (kb, tb) = kernels(pa), kernels(pb)
total = tb / ta
d = json.load(open(tmp + "/peer_kernel.json"))["devices"][0]
s = d["summary"]
check("GPU time B/A %.4f = Python's (the issue's 0.585)" % total, abs(s["ratio"] - total) < 1e-9 and round(total, 3) == 0.585)
# the matched rows as profana paired them; every figure of theirs from Python's sums
logs, sa, sb, pairs = [], 0, 0, []
for r in d["rows"]:
    if r["match"] is None:
        continue
    na, nb = r["name"].split(" vs ") if " vs " in r["name"] else (r["name"], r["name"])
    (ca, xa), (cb, xb) = ka[na], kb[nb]
    sa += xa
    sb += xb
    logs.append(math.log((xb / cb) / (xa / ca)))
    pairs.append((na, xb - xa, math.log((xb / cb) / (xa / ca))))
geo, weighted = math.exp(sum(logs) / len(logs)), sb / sa
check("geomean %.4f over %d rows = Python's (the issue's 1.665)" % (geo, len(logs)),
      abs(s["geomean"] - geo) < 1e-9 * geo and round(geo, 3) == 1.665)
check("time-weighted B/A %.4f = Python's sum of B's matched totals / A's" % weighted,
      abs(s["weighted_ratio"] - weighted) < 1e-9 * weighted, "%s" % s["weighted_ratio"])
check("they point opposite ways: geomean > 1 > time-weighted", geo > 1 > weighted and s["opposite"] is not None)
want_time = [p[0] for p in sorted((p for p in pairs if p[1] < 0), key=lambda p: p[1])[:3]]
want_geo = [p[0] for p in sorted((p for p in pairs if p[2] > 0), key=lambda p: -p[2])[:3]]
got_time = [x["name"] for x in s["opposite"]["time"]]
got_geo = [x["name"] for x in s["opposite"]["geomean"]]
check("the rows named for the time: the 3 largest falls in total time (Python): %s" % want_time, got_time == want_time, "%s" % got_time)
check("the rows named for the geomean: the 3 largest per-launch ratios above 1 (Python): %s" % want_geo, got_geo == want_geo, "%s" % got_geo)
check("their figures: delta and mean ratio = Python's",
      all(abs(x["delta_us"] * 1e3 - dict((p[0], p[1]) for p in pairs)[x["name"]]) < 0.5 for x in s["opposite"]["time"])
      and all(abs(math.log(x["mean_ratio"]) - dict((p[0], p[2]) for p in pairs)[x["name"]]) < 1e-9 for x in s["opposite"]["geomean"]))
# --group op: every row matched, so the time-weighted ratio is the GPU time ratio, still opposite to the geomean
o = json.load(open(tmp + "/peer_op.json"))["devices"][0]["summary"]
check("--group op: time-weighted B/A = GPU time B/A %.4f (all time matched); geomean %.3f above 1, caveat given"
      % (total, o["geomean"]), abs(o["weighted_ratio"] - total) < 1e-9 and o["geomean"] > 1 and o["opposite"] is not None)
text = open(tmp + "/peer.txt").read().replace("\n  ", " ")
check("text: the geomean line carries the time-weighted ratio",
      "Geomean of per-row mean-time ratios B/A: %.3f over %d matched rows; time-weighted B/A (their total time): %.3f\n"
      % (geo, len(logs), weighted) in text)
check("text: the caveat line names the rows",
      ("The geomean (%.3f) and the time-weighted B/A (%.3f) point opposite ways" % (geo, weighted)) in text
      and "Total time moves down most in: Memcpy DtoH (delta " in text and "the geomean is pulled up most by: " in text)
md = open(tmp + "/peer.md").read().replace("\n  ", " ")
check("Markdown: the caveat line", "point opposite ways" in md and "; time-weighted B/A (their total time): %.3f" % weighted in md)
err = open(tmp + "/peer.err").read()
check("CSV: the caveat as a note on stderr", "profana: note: device pair 0: The geomean (%.3f) and the time-weighted B/A (%.3f)" % (geo, weighted) in err)
PY
check_run "--fail-above 0, h100 vs mi300: exit 0 (the gate reads GPU time, 0.585, not the geomean)" 0 "$PROFANA" --diff "$A" h100 "$B" mi300 bf16 --fail-above 0

# A self-diff: geomean = time-weighted = 1, no caveat anywhere
T=$TRACES/compiled_pair_b8.json
"$PROFANA" --diff "$T" a "$T" b bf16 --format json >"$TMP/self.json"
check_eq "self-diff: time-weighted 1, no caveat, every row basis call" \
    "$(json "(d['devices'][0]['summary']['weighted_ratio'], d['devices'][0]['summary']['opposite'], {r['basis'] for r in d['devices'][0]['rows']})" "$TMP/self.json")" \
    "(1, None, {'call'})"
