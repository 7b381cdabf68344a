# test_report_blocks.sh - the --analysis --report page carries everything the text output prints (issue 47): every prose line of the text (headline, Span / Idle by cause / Launches / Queue, notes on the trace, coverage, footnotes, Source legend, collectives) is on the page; its rows, categories and streams tables cell for cell against --format json; the Span block's shares against the JSON's breakdown; GB and other figures with at most 3 significant digits past 3 decimals; in headless Chromium at 1400 px no two texts overlapping and no word broken across lines (with a control of each), on the --analysis and --diff pages and, with every chart, on the public TraceLens traces (all of them in check-full).
# check: optimised
. tests/cli/lib.sh

TRACES_R="$TRACES/eager_bf16.json $TRACES/steps_bf16.json $TRACES/compiled_bf16_b8.json testdata/public/mi300_resnet_convs.json.gz
testdata/multirank/fsdp2_bf16_rank1.json.gz testdata/diagnosis/pageable_copy.json.gz $PEER_TRACES"
i=0
for f in $TRACES_R; do
    i=$((i + 1))
    for g in kernel op; do
        "$PROFANA" --analysis "$f" bf16 --quiet --group $g --report "$TMP/r$i$g.html" --wide >"$TMP/r$i$g.txt" 2>/dev/null
        "$PROFANA" --analysis "$f" bf16 --quiet --group $g --format json >"$TMP/r$i$g.json" 2>/dev/null
        echo "$f $g $TMP/r$i$g"
    done
done >"$TMP/runs"

python3 - "$TMP/runs" <<'PY'
import json, math, re, sys
from html.parser import HTMLParser
sys.path.insert(0, "tests/cli")
from raw import check


class Page(HTMLParser):
    """The page's text outside scripts, styles and charts, and its tables as cell texts."""
    def __init__(self):
        super().__init__()
        self.parts, self.skip, self.tables, self.cell, self.part = [], 0, [], None, None

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "svg"):
            self.skip += 1
        if tag in ("p", "pre", "td", "th", "tr", "h1", "h2", "caption"):
            self.parts.append("\n")
        if tag == "table":
            self.tables.append({"caption": "", "head": [], "rows": []})
        if tag in ("thead", "tbody", "tfoot"):
            self.part = tag
        if tag == "tr" and self.part in ("tbody", "tfoot"):
            self.tables[-1]["rows"].append([])
        if tag in ("td", "th", "caption"):
            self.cell = ""

    def handle_endtag(self, tag):
        if tag in ("script", "style", "svg"):
            self.skip -= 1
        if tag in ("td", "th", "caption") and self.cell is not None:
            t = self.tables[-1]
            if tag == "caption":
                t["caption"] = self.cell
            elif tag == "th":
                t["head"].append(self.cell)
            else:
                t["rows"][-1].append(self.cell)
            self.cell = None

    def handle_data(self, d):
        if not self.skip:
            self.parts.append(d)
        if self.cell is not None:
            self.cell += d


# the JSON member of each column a page table shows; None: a column JSON does not carry
ROW_FIELDS = {"Category": "category", "Count": "count", "Launches": "launches", "Total (us)": "total_us",
              "Mean (us)": "mean_us", "Time %": "pct", "GFLOP": ("flop", 1e9), "GB": ("bytes", 1e9),
              "TFLOP/s": "tflops", "GB/s": "gbps", "FLOPS %": "flops_pct", "BW %": "bw_pct",
              "FLOPS % ach": "flops_ach_pct", "BW % ach": "bw_ach_pct", "Bound": "bound", "Source": "source",
              "Calls": "calls", "CPU Total (us)": "cpu_total_us", "Self CPU (us)": "self_cpu_us"}
CAT_FIELDS = {"Category": "category", "Kernels": "kernels", "Launches": "count", "Total (us)": "total_us",
              "Time %": "pct", "TFLOP/s": "tflops", "GB/s": "gbps"}
STREAM_FIELDS = {"Stream": "stream", "Launches": "count", "Busy (us)": "busy_us", "Busy % of span": None}
MARKS = ("cache", "~ub", "op")  # words a percentage shows in place of a figure (footnoted)


def same(cell, want):
    """Whether a page cell shows the JSON value: a number to the decimals it shows (a trailing mark
    "!", "?", "*" set aside), a word equal, '-' for null, a footnoted word for a figure."""
    cell = cell.strip()
    if want is None:
        return cell == "-" or cell in MARKS or cell.endswith("*")
    if isinstance(want, str):
        return cell == want
    if cell in MARKS:
        return True
    m = re.fullmatch(r"(-?\d+)(?:\.(\d+))?([!?*]?)", cell)
    if not m:
        return False
    if m.group(3) == "*":  # the known part of a partly covered row: test_partial.sh checks it
        return True
    dec = len(m.group(2) or "")
    return abs(float(cell.rstrip("!?*")) - want) <= 0.5 * 10 ** -dec + 1e-9 * abs(want)


def sensible(cell):
    """At most 3 decimals, or more only as the 3 significant digits of a figure under 0.1."""
    m = re.fullmatch(r"-?(\d+)\.(\d+)[!?*]?", cell.strip())
    if not m or len(m.group(2)) <= 3:
        return True
    return m.group(1) == "0" and len(m.group(2).lstrip("0")) <= 3


def compare(name, table, rows, fields, key_col):
    head = table["head"]
    bad, n = [], 0
    for r, row in zip(table["rows"], rows):
        for h, cell in zip(head, r):
            f = fields.get(h, key_col if h == head[0] else "?")
            if f is None or (h == head[0] and key_col is None):
                continue
            if f == "?":
                bad.append("no JSON member for column " + h)
                continue
            want = row.get(f[0]) / f[1] if isinstance(f, tuple) and row.get(f[0]) is not None else (
                None if isinstance(f, tuple) else row.get(f))
            n += 1
            if not same(cell, want):
                bad.append("%s: %r != %r" % (h, cell, want))
    check(name, "%s: %d rows, %d cells as --format json" % (table["caption"], len(rows), n),
          len(table["rows"]) == len(rows) and n > 0 and not bad, bad[:3])


for line in open(sys.argv[1]):
    trace, group, base = line.split()
    name = "%s --group %s" % (trace.split("/")[-1], group)
    page = Page()
    page.feed(open(base + ".html").read())
    text = re.sub(r"\s+", " ", " ".join(page.parts))
    lines = [l for l in open(base + ".txt").read().split("\n")
             if l.strip() and " | " not in l and not re.fullmatch(r"-+", l)]
    missing = [l for l in lines if re.sub(r"\s+", " ", l.strip()) not in text]
    check(name, "the page carries all %d prose lines of the text output" % len(lines), lines and not missing,
          missing[:2])
    for want in ("Span: ", "Idle by cause: ", "Launches: ", "Queue (", "Source: "):
        if any(l.startswith(want) for l in lines):
            check(name, "the page carries the text's %r line" % want.strip(), want in text)
    d = json.load(open(base + ".json"))
    tables = {}
    for t in page.tables:
        tables.setdefault(t["caption"], []).append(t)
    for k, dev in enumerate(d["devices"]):
        rows = dev["rows"] + [dev["total"]]
        compare(name + " device %d" % dev["id"], tables["Rows by GPU time"][k], rows, ROW_FIELDS, None)
        compare(name + " device %d" % dev["id"], tables["Categories"][k], dev["categories"], CAT_FIELDS, "category")
        compare(name + " device %d" % dev["id"], tables["Streams"][k], dev["streams"], STREAM_FIELDS, "stream")
        b = dev["breakdown"]
        m = re.search(r"Span: compute ([\d.]+)%", text)
        if b["span_us"] and m:
            check(name, "the Span line's compute share as the JSON's breakdown (%s%%)" % m.group(1),
                  abs(float(m.group(1)) - 100 * b["compute_us"] / b["span_us"]) <= 0.005 + 1e-9)
    cells = [c for t in page.tables for r in t["rows"] for c in r]
    odd = [c for c in cells if not sensible(c)]
    check(name, "every figure with at most 3 decimals, or at most 3 significant digits under 0.1 (%d cells)" % len(cells), not odd,
          odd[:3])
    gb = [r[t["head"].index("GB")] for t in tables["Rows by GPU time"] for r in t["rows"]]
    check(name, "GB with 3 decimals, or 3 significant digits under 0.1", all(sensible(c) for c in gb), gb[:3])
PY

# In headless Chromium at 1400 px (where installed): no two texts of the page overlap (the bounding boxes of
# its text, cells clipped to their box) and no word breaks across two lines, on eager_bf16's page and on
# TraceLens' MI300 ResNet page; then a control of each: two texts placed on one spot, and a narrow cell
# that must break "normalization" (the page's own rule, overflow-wrap: anywhere).
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ]; then
    echo "SKIP report in Chromium: $CHROMIUM is not installed (apt-get install chromium to run it)"
    exit 0
fi
layout() { # NAME PAGE [control]
    cp tests/cli/page_layout.js "$TMP/page_layout.js"
    sed 's|</body>|<script src="page_layout.js"></script></body>|' "$2" >"$TMP/page.html"
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$TMP/chromium" \
        --window-size=1400,1000 --dump-dom "file://$(cd "$TMP" && pwd)/page.html" 2>>"$TMP/chromium.log" >"$TMP/dom.html"
    overlaps=$(sed -n 's/.*data-overlaps="\([^"]*\)".*/\1/p' "$TMP/dom.html")
    broken=$(sed -n 's/.*data-broken="\([^"]*\)".*/\1/p' "$TMP/dom.html")
    if [ "${3:-}" = control ]; then
        case $overlaps in *"control text"*) pass "Chromium: the control's overlap is found" ;;
        *) fail "Chromium: the control's overlap is found" "got '$overlaps'" ;; esac
        case $broken in *normalization*) pass "Chromium: the control's broken word is found" ;;
        *) fail "Chromium: the control's broken word is found" "got '$broken'" ;; esac
    else
        check_eq "Chromium: $1: no two texts overlap" "$overlaps" none
        check_eq "Chromium: $1: no word broken across lines" "$broken" none
    fi
}
"$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --quiet --report "$TMP/p1.html" >/dev/null
layout eager_bf16 "$TMP/p1.html"
"$PROFANA" --analysis testdata/public/mi300_resnet_convs.json.gz bf16 --quiet --report "$TMP/p2.html" >/dev/null
layout mi300_resnet_convs "$TMP/p2.html"
# --diff's page, and (issue 47) every chart and the page on the public TraceLens traces: make
# check one of them, check-full (PF_SWEEP_ALL) all; the charts' texts by text_overlaps (lib.sh),
# the pages by page_layout.js
"$PROFANA" --diff "$TRACES/eager_bf16.json" bf16 "$TRACES/eager_fp16.json" fp16 bf16 --quiet --report "$TMP/d1.html" >/dev/null
layout "--diff eager bf16 vs fp16" "$TMP/d1.html"
PUB=../shared/testdata/public/tracelens
if [ -n "$PF_SWEEP_ALL" ]; then
    PAGES="$PUB/b200_vllm_eager.json.gz $PUB/mi300_sglang_qwen3_prefilldecode.json.gz $PUB/mi300_resnet_act_checkpoint.json.gz
testdata/public/vllm_decode_graph_execution.json.gz $TRACES/eager_bf16.json testdata/w2026/kv_decode.json.gz $PEER_TRACES"
else
    PAGES="$PUB/b200_vllm_eager.json.gz"
fi
for f in $PAGES; do
    [ -f "$f" ] || { fail "Chromium: $f" "missing (../shared/testdata)"; continue; }
    n=$(basename "$f")
    case $f in "$PUB"/*) "$PROFANA" --analysis "$f" bf16 --quiet --report "$TMP/pp.html" >/dev/null 2>&1 &&
        layout "$n" "$TMP/pp.html" ;; esac
    for c in roofline breakdown timeline; do
        "$PROFANA" --analysis "$f" bf16 --quiet --plot "$c" "$TMP/pc.svg" >/dev/null 2>&1
        check_eq "Chromium: $n --plot $c: no two texts overlap" "$(text_overlaps "$TMP/pc.svg" svg)" none
    done
done
# the control: a paragraph on top of the first one, and a 40 px cell that breaks its word anywhere
sed 's|<body>|<body><p style="position:absolute;top:24px;left:24px;margin:0;font-size:22px">control text</p><h1 style="margin-top:0">control text</h1><table><tr><td style="width:40px;max-width:40px;overflow-wrap:anywhere;white-space:normal">normalization</td></tr></table>|' \
    "$TMP/p1.html" >"$TMP/ctl.html"
layout control "$TMP/ctl.html" control
