# test_ranks_report.sh - --ranks --plot ranks FILE.svg and --ranks --report FILE.html on the bundled two-rank pairs and eight ranks made from one of them with a planted kernel (tests/cli/ranks_culprit_gen.py): each rank's span split (compute, exposed communication, copies, idle), its excess by cause, each collective's skew bars and the report's table cells equal --ranks --format json's figures (xml.etree, html.parser), the stragglers sentence against the late counts' share by hand, the report's prose lines those of the text output; no empty table where nothing matched (text, report, chart); 1,000 instances binned (hand-made summaries, skews by hand); refusals and no partial file; in headless Chromium no two texts of the chart or the report overlap (with a control).
# check: valgrind
. tests/cli/lib.sh

MR=testdata/multirank

# check_pair NAME PATH...: the chart and the report of a rank set against its JSON and text.
check_pair() {
    c_name=$1
    shift
    check_run "$c_name: --ranks --plot ranks --report" 0 "$PROFANA" --ranks "$@" bf16 --plot ranks "$TMP/$c_name.svg" \
        --report "$TMP/$c_name.html"
    "$PROFANA" --ranks "$@" bf16 --format json >"$TMP/$c_name.json"
    "$PROFANA" --ranks "$@" bf16 --wide >"$TMP/$c_name.txt"
    python3 - "$c_name" "$TMP/$c_name.svg" "$TMP/$c_name.html" "$TMP/$c_name.json" "$TMP/$c_name.txt" <<'PY'
import json, math, sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
sys.path.insert(0, "tests/cli")
from raw import check
name, svg, page, doc, text = sys.argv[1:]
d = json.load(open(doc))
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(svg).getroot()

def near(a, b, tol=0.0015):
    return a is not None and b is not None and abs(float(a) - float(b)) <= tol

def panel(cls):
    return [g for g in root.iter(NS + "g") if cls in g.get("class", "").split()]

# each rank's span: compute, exposed communication, copies alone, idle; they sum to the span
spans = panel("spans")[0]
for r in d["ranks"]:
    segs = {s.get("data-cause"): float(s.get("data-us")) for s in spans.iter(NS + "rect")
            if s.get("class") == "seg" and int(s.get("data-rank")) == r["rank"]}
    check(name, "rank %d: four parts drawn" % r["rank"], sorted(segs) == ["compute", "copy", "exposed-comm", "idle"], str(segs))
    check(name, "rank %d: compute %s = compute_us" % (r["rank"], segs["compute"]), near(segs["compute"], r["compute_us"]), str(r["compute_us"]))
    check(name, "rank %d: exposed %s = exposed_comm_us" % (r["rank"], segs["exposed-comm"]), near(segs["exposed-comm"], r["exposed_comm_us"]), str(r["exposed_comm_us"]))
    check(name, "rank %d: idle %s = idle_us" % (r["rank"], segs["idle"]), near(segs["idle"], r["idle_us"]), str(r["idle_us"]))
    check(name, "rank %d: copies %s = busy - compute - exposed" % (r["rank"], segs["copy"]),
          near(segs["copy"], r["busy_us"] - r["compute_us"] - r["exposed_comm_us"], 0.004), str(r))
    check(name, "rank %d: the parts sum to span_us %s" % (r["rank"], r["span_us"]), near(sum(segs.values()), r["span_us"], 0.004), str(segs))
# one time scale: a part's width over its time is the same everywhere
scale = {round(float(s.get("width")) / float(s.get("data-us")), 4) for s in spans.iter(NS + "rect")
         if s.get("class") == "seg" and float(s.get("data-us")) > 100}
check(name, "the span bars share one time scale", max(scale) - min(scale) < 1e-3, str(scale))

# the excess by cause, per rank with a late arrival
excess = panel("excess")[0]
for c in d["culprits"]:
    segs = {s.get("data-cause"): float(s.get("data-us")) for s in excess.iter(NS + "rect")
            if s.get("class") == "seg" and int(s.get("data-rank")) == c["rank"]}
    want = {k: c[k + "_excess_us"] for k in ("compute", "copy", "comm", "idle")}
    if sum(want.values()) <= 0:
        check(name, "rank %d: no excess bar" % c["rank"], not segs, str(segs))
        continue
    for k in want:
        check(name, "rank %d: excess %s %s = %s_excess_us" % (c["rank"], k, segs.get(k), k), near(segs.get(k), want[k]), str(want[k]))

# the skew of each collective row: its bars' counts, mean and largest skew; who was last
last = {}
skews = panel("skew")
check(name, "a skew chart per collective row (%d)" % len(d["collectives"]), len(skews) == len(d["collectives"]), str(len(skews)))
for c in d["collectives"]:
    g = [p for p in skews if p.get("data-name") == c["name"] and p.get("data-pg") == c["process_group"]
         and int(p.get("data-bytes")) == c["bytes"]]
    bars = [b for p in g for b in p.iter(NS + "rect") if b.get("class") == "skew-bar"]
    n = sum(int(b.get("data-count")) for b in bars)
    check(name, "%s: %d instances in bars" % (c["name"], n), len(g) == 1 and n == c["count"], str(c["count"]))
    mean = sum(float(b.get("data-sum-us")) for b in bars) / max(n, 1)
    check(name, "%s: mean skew %.3f = skew_us" % (c["name"], mean), near(mean, c["skew_us"]), str(c["skew_us"]))
    top = max(float(b.get("data-max-us")) for b in bars)
    check(name, "%s: largest skew %s = skew_max_us" % (c["name"], top), near(top, c["skew_max_us"]), str(c["skew_max_us"]))
    for b in bars:
        last[int(b.get("data-last-rank"))] = last.get(int(b.get("data-last-rank")), 0) + 1
for s in d["stragglers"]:
    check(name, "rank %d last at %d bars = late" % (s["rank"], last.get(s["rank"], 0)), last.get(s["rank"], 0) == s["late"], str(s["late"]))

# the report: every table's cells against the JSON, by its caption
class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tables, self.pres, self.cell, self.where, self.svg = [], [], None, None, 0
    def handle_starttag(self, tag, a):
        if tag == "svg":
            self.svg += 1
        if tag == "table":
            self.tables.append({"caption": "", "head": [], "rows": []})
        elif tag in ("caption", "th", "td", "pre"):
            self.cell, self.where = "", tag
        elif tag == "tr" and self.tables:
            self.tables[-1]["rows"].append([])
    def handle_data(self, t):
        if self.cell is not None:
            self.cell += t
    def handle_endtag(self, tag):
        if tag != self.where or self.cell is None:
            return
        if tag == "caption":
            self.tables[-1]["caption"] = self.cell
        elif tag == "th":
            self.tables[-1]["head"].append(self.cell)
        elif tag == "td":
            self.tables[-1]["rows"][-1].append(self.cell)
        elif tag == "pre":
            self.pres.append(self.cell)
        self.cell = self.where = None
p = Page()
p.feed(open(page, encoding="utf-8").read())
check(name, "the report holds the chart inline", p.svg >= 1, str(p.svg))
BASE = {"Rank": "rank", "GPU (us)": "gpu_us", "Busy (us)": "busy_us", "Comm (us)": "comm_us",
        "Exposed comm (us)": "exposed_comm_us", "Exposed %": "exposed_pct", "Idle (us)": "idle_us",
        "Span (us)": "span_us", "Compute (us)": "compute_us", "Step": "step", "GPU span (us)": "span_us",
        "Compute x": "compute_ratio", "Group": "process_group", "Ranks": "group_size", "Bytes": "bytes",
        "Count": "count", "Transfer (us)": "transfer_us", "Skew (us)": "skew_us", "Max skew (us)": "skew_max_us",
        "algbw (GB/s)": "algbw_gbps", "busbw (GB/s)": "busbw_gbps", "Link %": "link_pct",
        "Last to start": "late", "Wait imposed (us)": "wait_us", "Late": "late", "Late (us)": "late_us",
        "+Compute (us)": "compute_excess_us", "+Copy (us)": "copy_excess_us", "+Comm (us)": "comm_excess_us",
        "+Idle (us)": "idle_excess_us", "Cause": "culprit_kind", "Culprit": "culprit", "Culprit (us)": "culprit_excess_us",
        "Top culprit": "top_culprit", "Top (us)": "top_culprit_us", "Kernels x": "kernel_ratio",
        "Slower %": "slower_kernels_pct", "Uniform": "uniform", "Verdict": "verdict", "Seq": "seq",
        "Start (us)": "start_us", "Median rank": "median_rank", "Gap (us)": "gap_us"}
TABLES = {"Per rank": ("ranks", {"Trace": None}), "Per rank and profiler step": ("steps", {}),
          "Collectives matched across ranks": ("collectives", {"Collective": "name"}),
          "Stragglers: last to start": ("stragglers", {}),
          "Ranks with a verdict or a late arrival": ("culprits", {"Cause": "top_culprit_kind"}),
          "Late arrivals, latest first": ("late_arrivals", {"Collective": "collective"})}
def same(cell, v):
    if v is None:
        return cell == "-"
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        try:
            return abs(float(cell.rstrip("!?")) - v) <= 0.5 * 10 ** -max(len(cell.rstrip("!?").partition(".")[2]), 0) + 1e-9
        except ValueError:
            return False
    return cell == str(v)
seen = set()
for t in p.tables:
    key, extra = TABLES.get(t["caption"], (None, None))
    check(name, "report table '%s' is one of --ranks'" % t["caption"], key is not None, "")
    if key is None:
        continue
    seen.add(key)
    rows = [r for r in t["rows"] if r]
    want = d[key]
    if key == "culprits":
        want = [c for c in want if c["late"] > 0 or c["verdict"] != "no clear straggler"]
    if key == "late_arrivals":
        want = want[:20]
    if key == "steps":  # the table's rows by rank and step
        want = sorted(want, key=lambda r: (r["rank"], r["step"]))
    check(name, "%s: %d rows" % (key, len(rows)), len(rows) == len(want), str(len(want)))
    bad = []
    for r, w in zip(rows, want):
        for h, cell in zip(t["head"], r):
            k = extra.get(h, BASE.get(h)) if h in extra else BASE.get(h)
            if k is None:
                continue
            if not same(cell, w[k]):
                bad.append("%s %s: %r vs %r" % (key, h, cell, w[k]))
    check(name, "%s: every cell equals the JSON" % key, not bad, "; ".join(bad[:4]))
want_tables = {"ranks"} | ({"culprits"} if any(c["late"] > 0 or c["verdict"] != "no clear straggler" for c in d["culprits"]) else set()) | ({"collectives", "stragglers"} if d["matched"] else set()) | ({"steps"} if d["steps"] else set())
check(name, "the report has --ranks' tables", want_tables <= seen, str(seen))

# the stragglers sentence: a rank named when last more often than its share by more than
# two standard deviations of a fair draw (every instance on all k ranks: n/k and n(1/k)(1-1/k))
# and late by more than 100 us (the culprits' threshold) on average
n, k = d["matched"], len(d["ranks"])
named = [s["rank"] for s in d["stragglers"] if s["late"] > n / k + 2 * math.sqrt(n / k * (1 - 1 / k)) and
         s["wait_us"] / s["late"] > 100]
words = " ".join(" ".join(x.split()) for x in p.pres)
if named:
    check(name, "the report names rank %s a straggler" % named, all("rank %d was last to start" % r in words for r in named), words[:300])
else:
    check(name, "the report says no clear straggler", "Stragglers: no clear straggler" in words, words[:300])
# the report's prose is the text output's (unwrapped lines, --wide)
txt = open(text).read()
lines = [l for x in p.pres for l in x.splitlines() if l.strip()]
missing = [l for l in lines if l not in txt and not l.startswith("(the 20 latest")]
check(name, "each report line is a text output line", not missing, "; ".join(missing[:2]))
PY
}

check_pair tp $MR/tp_collectives_bf16_rank0.json.gz $MR/tp_collectives_bf16_rank1.json.gz
check_pair fsdp2 $MR/fsdp2_bf16_rank0.json.gz $MR/fsdp2_bf16_rank1.json.gz
# eight ranks made from the tensor-parallel rank 0 (tests/cli/ranks_culprit_gen.py), rank 5 with a
# 2 ms kernel before allreduce #8: its excess bar holds it
if python3 tests/cli/ranks_culprit_gen.py gen "$TMP/eight" 8 kernel 5 8 2000 >"$TMP/eight.planted"; then
    check_pair eight "$TMP/eight"
    python3 - "$TMP/eight.svg" <<'PY'
import sys
import xml.etree.ElementTree as ET
sys.path.insert(0, "tests/cli")
from raw import check
NS = "{http://www.w3.org/2000/svg}"
g = [g for g in ET.parse(sys.argv[1]).getroot().iter(NS + "g") if "excess" in g.get("class", "").split()][0]
c = sum(float(r.get("data-us")) for r in g.iter(NS + "rect") if r.get("data-rank") == "5" and r.get("data-cause") == "compute")
check("eight", "rank 5's compute excess %.3f us: the planted 2000 us (5%%)" % c, abs(c - 2000) <= 100, str(c))
PY
else
    fail "eight: generator" "python3 tests/cli/ranks_culprit_gen.py gen"
fi
# 1,000 all-reduces on two ranks (hand-made summaries, the skews known): the skew chart bins
# them, a bar per 3 instances at most 390 bars, and the bins keep the count, mean and maximum.
python3 - "$TMP/many" <<'PY'
import json, os, sys
d = sys.argv[1]
os.makedirs(d)
for r in (0, 1):
    ks = [{"name": "allreduce", "process_group": "0", "group_size": 2, "bytes": 1048576,
           "ts_ns": 1000000 * i + (r * (i % 7) * 1000), "dur_ns": 50000} for i in range(1000)]
    s = {"profana_summary": 1, "trace": "r%d.json" % r, "rank": r, "device": None, "devices": 1,
         "gpu_ns": 50000000, "busy_ns": 50000000, "span_ns": 999050000, "comm_ns": 50000000, "exposed_ns": 50000000,
         "steps": [], "comm_kernels": ks}
    json.dump(s, open("%s/r%d.summary.json" % (d, r), "w"))
PY
# The sentence names a rank that costs the time: 3 ranks, 20 all-reduces; rank 2 starts each
# 400 us after ranks 0 and 1 (by hand: last 20 times against a share of 20/3 = 6.7 and a
# threshold of 6.7 + 2 sqrt(20 (1/3)(2/3)) = 10.9; 800 us imposed each time, over 100 us).
python3 - "$TMP/late3" <<'PY'
import json, os, sys
d = sys.argv[1]
os.makedirs(d)
for r in (0, 1, 2):
    ks = [{"name": "allreduce", "process_group": "0", "group_size": 3, "bytes": 1048576,
           "ts_ns": 1000000 * i + (400000 if r == 2 else 0), "dur_ns": 50000} for i in range(20)]
    s = {"profana_summary": 1, "trace": "r%d.json" % r, "rank": r, "device": None, "devices": 1,
         "gpu_ns": 1000000, "busy_ns": 1000000, "span_ns": 20450000, "comm_ns": 1000000, "exposed_ns": 1000000,
         "steps": [], "comm_kernels": ks}
    json.dump(s, open("%s/r%d.summary.json" % (d, r), "w"))
PY
check_run "late rank: --ranks" 0 "$PROFANA" --ranks "$TMP/late3" bf16 --wide
check_grep "late rank: rank 2, last 20 times by 400 us, named with 800 us imposed each time" \
    "Stragglers: rank 2 was last to start 20 of its 20 matched collectives (its share 6.7), imposing 16000.000 us of waiting (800.000 us each)" "$TMP/out"

check_run "1,000 instances: --plot ranks" 0 "$PROFANA" --ranks "$TMP/many" bf16 --plot ranks "$TMP/many.svg"
python3 - "$TMP/many.svg" <<'PY'
import sys
import xml.etree.ElementTree as ET
sys.path.insert(0, "tests/cli")
from raw import check
NS = "{http://www.w3.org/2000/svg}"
bars = [b for b in ET.parse(sys.argv[1]).getroot().iter(NS + "rect") if b.get("class") == "skew-bar"]
# rank 1 starts (i mod 7) us after rank 0: skews 0..6 us, mean over 1,000 = sum(i % 7) / 1000
want_mean = sum(i % 7 for i in range(1000)) / 1000
n = sum(int(b.get("data-count")) for b in bars)
mean = sum(float(b.get("data-sum-us")) for b in bars) / n
check("many", "%d bars of at most 3 instances for 1,000" % len(bars), len(bars) <= 390 and n == 1000 and
      max(int(b.get("data-count")) for b in bars) == 3, str((len(bars), n)))
check("many", "binned mean skew %.4f us = %.4f by hand" % (mean, want_mean), abs(mean - want_mean) < 1e-6, "")
check("many", "largest skew 6 us", max(float(b.get("data-max-us")) for b in bars) == 6.0, "")
PY
check_grep "tp: rank 1, last at all 16 instances but 18.690 us each (under 100 us): no clear straggler" "Stragglers: no clear straggler" "$TMP/tp.txt"
check_grep "fsdp2: each rank last 24 of 48 times: no clear straggler" "Stragglers: no clear straggler" "$TMP/fsdp2.txt"

# Nothing matched: one line why, no empty Collective table or stragglers of zeros (text,
# report, chart). Single-rank traces without communication kernels; then two ranks whose
# collectives differ (the tensor-parallel rank 0 beside the FSDP2 rank 1).
none_case() { # NAME WHY TRACE TRACE
    check_run "$1: --ranks" 0 "$PROFANA" --ranks "$3" "$4" bf16 --plot ranks "$TMP/$1.svg" --report "$TMP/$1.html"
    check_grep "$1: the line why" "^No collective matched: $2" "$TMP/out"
    check_eq "$1: no Collective table, no stragglers table" "$(grep -c -e '^Collective ' -e 'Last to start' "$TMP/out")" 0
    check_eq "$1: the report has no collectives or stragglers table" \
        "$(grep -c -e '<caption>Collectives matched' -e '<caption>Stragglers' "$TMP/$1.html")" 0
    check_grep "$1: the report has the line why" "No collective matched: $2" "$TMP/$1.html"
    check_grep "$1: the chart says no skew" "No collective matched across the ranks: no skew to draw" "$TMP/$1.svg"
    "$PROFANA" --ranks "$3" "$4" bf16 --format md >"$TMP/$1.md"
    check_eq "$1: Markdown has no Collective table" "$(grep -c '^| Collective' "$TMP/$1.md")" 0
}
none_case nocomm "no rank's trace has communication kernels" $TRACES/eager_bf16.json $TRACES/eager_fp16.json
none_case differ "none of the 64 collective kernels with args has its instance on every rank" \
    $MR/tp_collectives_bf16_rank0.json.gz $MR/fsdp2_bf16_rank1.json.gz

# Refusals and no partial file: the other charts, --plot ranks elsewhere, an input as output,
# a directory that does not exist, a full disk.
T0=$MR/tp_collectives_bf16_rank0.json.gz
T1=$MR/tp_collectives_bf16_rank1.json.gz
check_run "--plot roofline with --ranks: refused" 2 "$PROFANA" --ranks "$T0" "$T1" bf16 --plot roofline "$TMP/r.svg"
check_grep "--plot roofline with --ranks: one line" "^profana: --plot roofline draws one trace's rows: --ranks draws --plot ranks$" "$TMP/err"
check_run "--plot ranks with --analysis: refused" 2 "$PROFANA" --analysis $TRACES/eager_bf16.json bf16 --plot ranks "$TMP/r.svg"
check_grep "--plot ranks with --analysis: one line" "^profana: --plot ranks applies to --ranks only$" "$TMP/err"
cp "$T1" "$TMP/in1.json.gz"
check_run "--report onto an input: refused" 1 "$PROFANA" --ranks "$T0" "$TMP/in1.json.gz" bf16 --report "$TMP/in1.json.gz" \
    --plot ranks "$TMP/side.svg"
check_eq "--report onto an input: the input intact, no chart left" "$(cmp -s "$T1" "$TMP/in1.json.gz" && echo same; ls "$TMP"/side.svg* 2>/dev/null)" same
check_run "--plot ranks into a missing directory" 1 "$PROFANA" --ranks "$T0" "$T1" bf16 --plot ranks "$TMP/no/such/r.svg" \
    --report "$TMP/r.html"
check_eq "missing directory: one error line, no report left" "$(wc -l <"$TMP/err") $(ls "$TMP"/r.html* 2>/dev/null)" "1 "
if [ -w /dev/full ]; then
    check_run "--ranks to a full stdout" 1 sh -c "'$PROFANA' --ranks '$T0' '$T1' bf16 --report '$TMP/f.html' >/dev/full"
    check_eq "full stdout: no report put in place" "$(ls "$TMP"/f.html* 2>/dev/null)" ""
fi

# In headless Chromium (where installed): no two texts of the chart, or of the report's
# chart, overlap; the control (a title written twice at one place) is found.
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ]; then
    echo "SKIP ranks chart in Chromium: $CHROMIUM is not installed (apt-get install chromium to run it)"
    exit 0
fi
for c in eight fsdp2 differ; do
    check_eq "Chromium: no two texts of the $c chart overlap" "$(text_overlaps "$TMP/$c.svg" svg.ranks)" none
done
check_eq "Chromium: no two texts of the fsdp2 report's chart overlap" "$(text_overlaps "$TMP/fsdp2.html" svg.ranks)" none
sed 's|\(<text class="title"[^>]*>[^<]*</text>\)|\1\1|' "$TMP/tp.svg" >"$TMP/ctl.svg"
check_grep "Chromium: the control's overlap is found" " / " "$(text_overlaps "$TMP/ctl.svg" svg.ranks >"$TMP/ctl.out"; echo "$TMP/ctl.out")"
