# test_report.sh - --report FILE.html: self-contained, deterministic, the text output's tables as HTML tables, both charts inline; where Chromium is installed, a headless screenshot of a report with a dot above a roof (a fixture made at test time), every table fitting 1400 px, and sorting by a click.
# check: valgrind
. tests/cli/lib.sh

# html_tables FILE: the page as JSON: its tables (caption, header, body rows, footer rows, as cell texts), the
# number of inline <svg> elements and of roofline dots, and every src/href attribute.
html_tables() {
    python3 - "$1" <<'PY'
import json, sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tables, self.svgs, self.dots, self.links, self.cell, self.part = [], 0, 0, [], None, None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.links += [v for k, v in attrs if k in ("src", "href")]
        if tag == "svg": self.svgs += 1
        if tag == "circle" and a.get("class", "").startswith("dot"): self.dots += 1
        if tag == "table": self.tables.append({"caption": "", "head": [], "body": [], "foot": []})
        if tag in ("thead", "tbody", "tfoot"): self.part = {"thead": "head", "tbody": "body", "tfoot": "foot"}[tag]
        if tag == "tr" and self.part in ("body", "foot"): self.tables[-1][self.part].append([])
        if tag in ("td", "th", "caption"): self.cell = ""
    def handle_endtag(self, tag):
        if tag in ("td", "th", "caption") and self.cell is not None:
            t = self.tables[-1]
            if tag == "caption": t["caption"] = self.cell
            elif tag == "th": t["head"].append(self.cell)
            else: t[self.part][-1].append(self.cell)
            self.cell = None
    def handle_data(self, data):
        if self.cell is not None: self.cell += data
p = P()
p.feed(open(sys.argv[1], encoding="utf-8").read())
json.dump({"tables": p.tables, "svgs": p.svgs, "dots": p.dots, "links": p.links}, sys.stdout)
PY
}

# text_table FILE: the first table of the text output as JSON: header cells and rows of cells.
text_table() {
    python3 - "$1" <<'PY'
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
i = next(i for i, l in enumerate(lines) if l.startswith("-----")) - 1
cells = lambda l: [c.strip() for c in l.split(" | ")]
rows = []
for l in lines[i + 2:]:
    if " | " not in l: break  # a blank line, or the footnotes under the table
    rows.append(cells(l))
json.dump({"head": cells(lines[i]), "rows": rows}, sys.stdout)
PY
}

f="$TRACES/eager_bf16.json"
check_run "report" 0 "$PROFANA" --analysis "$f" bf16 --quiet --wide --top 0 --name_limit 0 --report "$TMP/r.html"
cp "$TMP/out" "$TMP/text"
html_tables "$TMP/r.html" >"$TMP/t.json"
text_table "$TMP/text" >"$TMP/text.json"
check_eq "report: three tables for one device (rows, categories, streams)" "$(json 'len(d["tables"])' "$TMP/t.json")" 3
check_eq "report: captions" "$(json '",".join(t["caption"] for t in d["tables"])' "$TMP/t.json")" "Rows by GPU time,Categories,Streams"
python3 - "$TMP/t.json" "$TMP/text.json" >"$TMP/cmp" <<'PY'
import json, re, sys
h, t = json.load(open(sys.argv[1]))["tables"][0], json.load(open(sys.argv[2]))


def same(p, x):
    """A page cell as the text's: equal, or (issue 47: GB's six decimals) the text's figure to the page's
    fewer decimals."""
    m, n = re.fullmatch(r"-?\d+\.(\d+)", p), re.fullmatch(r"-?\d+\.(\d+)", x)
    return p == x or bool(m and n and len(m.group(1)) < len(n.group(1)) and
                          abs(float(p) - float(x)) <= 0.5 * 10 ** -len(m.group(1)) + 1e-12)


rows = lambda a, b: len(a) == len(b) and all(len(r) == len(q) and all(map(same, r, q)) for r, q in zip(a, b))
print("head", h["head"] == t["head"])
print("rows", rows(h["body"], t["rows"][:-1]))
print("total", rows(h["foot"], [t["rows"][-1]]))
PY
check_eq "report: the rows table has the text output's columns" "$(grep '^head' "$TMP/cmp")" "head True"
check_eq "report: every row and cell as the text output shows it (names whole, figures past 3 decimals to 3 significant digits)" "$(grep '^rows' "$TMP/cmp")" "rows True"
check_eq "report: the Total row in the footer" "$(grep '^total' "$TMP/cmp")" "total True"
# Row count and GPU time straight from the trace: every kernel, memcpy and memset is in one row.
python3 - "$f" >"$TMP/raw" <<'PY'
import json, sys
from decimal import Decimal
ev = [e for e in json.load(open(sys.argv[1]), parse_float=Decimal)["traceEvents"]
      if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
print(len({e["name"] for e in ev}), len(ev), "%.3f" % (sum(Decimal(e["dur"]) for e in ev)))
PY
read -r names acts us <"$TMP/raw"
check_eq "report: one body row per kernel name in the trace" "$(json 'len(d["tables"][0]["body"])' "$TMP/t.json")" "$names"
check_eq "report: Total count = activities in the trace" "$(json 'd["tables"][0]["foot"][0][2]' "$TMP/t.json")" "$acts"
check_eq "report: Total time = summed durations in the trace" "$(json 'd["tables"][0]["foot"][0][3]' "$TMP/t.json")" "$us"
check_eq "report: the charts inline (roofline, breakdown, timeline)" "$(json 'd["svgs"]' "$TMP/t.json")" 3
"$PROFANA" --analysis "$f" bf16 --quiet --plot roofline "$TMP/r.svg" >/dev/null
check_eq "report: the roofline's dots" "$(json 'd["dots"]' "$TMP/t.json")" "$(grep -c '<circle class="dot' "$TMP/r.svg")"
check_grep "report: trace header" "Trace $f: " "$TMP/r.html"
check_grep "report: device header line" "Device 0: NVIDIA H100 80GB HBM3 | matched: H100 SXM | peaks:" "$TMP/r.html"
check_grep "report: busy line" "GPU busy: span " "$TMP/r.html"

# Self-contained: no src or href, no external styles, fonts or scripts; the only URL is the SVG namespace.
check_eq "report: no src/href" "$(json 'len(d["links"])' "$TMP/t.json")" 0
check_eq "report: no URL but the SVG namespace" \
    "$(grep -o 'https\?://[^"]*' "$TMP/r.html" | sort -u)" "http://www.w3.org/2000/svg"
check_eq "report: no @import or url()" "$(grep -c '@import\|url(' "$TMP/r.html")" 0
check_grep "report: tables sortable by a click" "addEventListener('click'" "$TMP/r.html"

# Names with markup characters are escaped, and come back whole from the HTML parser.
python3 - "$TMP/t.json" >"$TMP/names" <<'PY'
import json, sys
print(sum(1 for r in json.load(open(sys.argv[1]))["tables"][0]["body"] if "<" in r[0] and "&" in r[0]))
PY
check_eq "report: names with < and & come back whole" "$(cat "$TMP/names")" \
    "$(python3 -c "import json,sys; print(len({e['name'] for e in json.load(open(sys.argv[1]))['traceEvents'] if e.get('cat')=='kernel' and '<' in e['name'] and '&' in e['name']}))" "$f")"

# Deterministic: the same trace gives the same bytes.
"$PROFANA" --analysis "$f" bf16 --quiet --top 0 --name_limit 0 --report "$TMP/r2.html" >/dev/null
cmp -s "$TMP/r.html" "$TMP/r2.html" && pass "report: same bytes twice" || fail "report: same bytes twice" "differ"

# --diff: per device pair the pair table and the category table; both charts.
check_run "diff report" 0 "$PROFANA" --diff "$TRACES/compiled_pair_b8.json" b8 "$TRACES/compiled_pair_b16.json" b16 bf16 \
    --quiet --wide --name_limit 0 --report "$TMP/d.html"
html_tables "$TMP/d.html" >"$TMP/d.json"
check_eq "diff report: captions" "$(json '",".join(t["caption"] for t in d["tables"])' "$TMP/d.json")" "Rows by change,Categories"
check_eq "diff report: both charts inline" "$(json 'd["svgs"]' "$TMP/d.json")" 2
text_table "$TMP/out" >"$TMP/dtext.json"
check_eq "diff report: rows as the text output shows them" \
    "$(python3 -c "import json,sys; a=json.load(open(sys.argv[1]))['tables'][0]; b=json.load(open(sys.argv[2])); print(a['head']==b['head'] and a['body']==b['rows'])" "$TMP/d.json" "$TMP/dtext.json")" True
check_grep "diff report: pair heading" "<h2>Device pair 0: b8 device 0" "$TMP/d.html"

# Bad path: exit 1, one line, no file.
mkdir -p "$TMP/bad"
check_run "report into a directory" 1 "$PROFANA" --analysis "$f" bf16 --quiet --report "$TMP/bad"
check_grep "report into a directory: message" "^profana: error: .*is a directory" "$TMP/err"
check_run "report into a missing directory" 1 "$PROFANA" --analysis "$f" bf16 --quiet --report "$TMP/bad/no/r.html"
check_eq "report into a missing directory: one line" "$(wc -l <"$TMP/err")" 1
check_eq "report: no file left behind" "$(find "$TMP/bad" -type f | wc -l)" 0

# The screenshot's fixture: eager_bf16.json with the launches of its heaviest GEMM kernel made to
# run in half their time, so that kernel runs above the bf16 roof (twice its FLOPS %), as a wrong
# formula or peak would show it: a red dot and a red row.
python3 - "$f" "$TMP/over.json" >"$TMP/over_kernel" <<'PY'
import json, sys
from decimal import Decimal
doc = json.load(open(sys.argv[1]), parse_float=Decimal)
ev = doc["traceEvents"]
tot = {}
for e in ev:
    if e.get("ph") == "X" and e.get("cat") == "kernel" and e["name"].startswith("nvjet"):
        tot[e["name"]] = tot.get(e["name"], 0) + Decimal(e["dur"])
top = max(tot, key=tot.get)
for e in ev:
    if e.get("ph") == "X" and e.get("cat") == "kernel" and e["name"] == top:
        e["dur"] = e["dur"] / 2
json.dump(doc, open(sys.argv[2], "w"), default=str)
print(top)
PY
over_kernel=$(cat "$TMP/over_kernel")
# (Decimal durations are written back as strings; rewrite them as numbers)
sed -i 's/"dur": "\([0-9.]*\)"/"dur": \1/g; s/"ts": "\([0-9.]*\)"/"ts": \1/g' "$TMP/over.json"
check_run "over-roof fixture: report" 0 "$PROFANA" --analysis "$TMP/over.json" bf16 --quiet --report "$TMP/over.html"
"$PROFANA" --analysis "$TMP/over.json" bf16 --quiet --format json >"$TMP/over_rows.json"
"$PROFANA" --analysis "$f" bf16 --quiet --format json >"$TMP/base_rows.json"
pcts=$(python3 - "$TMP/base_rows.json" "$TMP/over_rows.json" "$over_kernel" <<'PY'
import json, sys
get = lambda p: [r for r in json.load(open(p))["devices"][0]["rows"] if r["name"] == sys.argv[3]][0]["flops_pct"]
print("%.1f %.1f" % (get(sys.argv[1]), get(sys.argv[2])))
PY
)
set -- $pcts
check_eq "over-roof fixture: the kernel's FLOPS % doubled ($1 -> $2), above 100" \
    "$(python3 -c 'import sys; a, b = map(float, sys.argv[1:]); print(b > 100 and abs(b - 2 * a) <= 0.2)' "$1" "$2")" True
check_eq "over-roof fixture: its dot is drawn red (class dot over)" \
    "$(grep -c '<circle class="dot over"' "$TMP/over.html")" 1

# Headless Chromium shows the page: the screenshot holds the breakdown's gemm orange (#ff7f0e), the
# red (#d62728) of the fixture's dot above a roof and the tables' header blue (#dde6f3).
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ]; then
    echo "SKIP report screenshot: $CHROMIUM is not installed (apt-get install chromium to run it)"
    exit 0
fi
# (--run-all-compositor-stages-before-draw and a virtual time budget: the shot waits for the page's
# layout and paint, which a loaded machine can finish after the load event; CI once saw no table.)
timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$TMP/chromium" \
    --run-all-compositor-stages-before-draw --virtual-time-budget=5000 \
    --window-size=1000,2400 --screenshot="$TMP/shot.png" "file://$(cd "$TMP" && pwd)/over.html" >"$TMP/chromium.log" 2>&1
python3 - "$TMP/shot.png" >"$TMP/colors" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR": w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    if kind == b"IDAT": idat += body
    pos += 12 + n
bpp = {2: 3, 6: 4}[ctype]
raw, stride, prev, out = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    out.append(bytes(line)); prev = line
px = {}
for line in out:
    for i in range(0, stride, bpp):
        k = line[i:i + 3]
        px[k] = px.get(k, 0) + 1
for name, rgb in (("orange", (255, 127, 14)), ("red", (214, 39, 40)), ("blue", (221, 230, 243))):
    print(name, px.get(bytes(rgb), 0))
PY
check_eq "screenshot: decoded" "$(wc -l <"$TMP/colors")" 3
while read -r name n; do
    if [ "$n" -ge 40 ]; then pass "screenshot: $name pixels ($n)"; else fail "screenshot: $name pixels" "only $n; $(tail -c 300 "$TMP/chromium.log")"; fi
done <"$TMP/colors"

# Every table and prose block of a report fits a 1400-pixel window (nothing scrolls sideways, the
# page no wider than the window), with every column (--wide) in each grouping, a --diff, and the
# vLLM decode trace with its graph capture (the longest coverage line); measured by the browser.
fits() { # NAME HTML
    sed 's|</body>|<script>var o = [];document.querySelectorAll("div.scroll,pre,.chart").forEach(function (e) { if (e.scrollWidth > e.clientWidth) o.push(e.tagName + " " + e.scrollWidth + ">" + e.clientWidth); });if (document.documentElement.scrollWidth > document.documentElement.clientWidth) o.push("page " + document.documentElement.scrollWidth);document.body.setAttribute("data-overflow", o.join("; ") \|\| "none");</script></body>|' \
        "$2" >"$TMP/fit.html"
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$TMP/chromium" \
        --window-size=1400,1000 --dump-dom "file://$(cd "$TMP" && pwd)/fit.html" 2>>"$TMP/chromium.log" |
        sed -n 's/.*data-overflow="\([^"]*\)".*/\1/p' >"$TMP/fit.out"
    check_eq "fits 1400 px: $1" "$(cat "$TMP/fit.out")" none
}
# (--group shape, the widest keys, in `make check`; every grouping in check-full: a browser start
# is 2 s)
for g in ${PF_SWEEP_ALL:+kernel op} shape; do
    "$PROFANA" --analysis "$f" bf16 --quiet --wide --group $g --report "$TMP/w.html" >/dev/null
    fits "--analysis --wide --group $g" "$TMP/w.html"
done
"$PROFANA" --diff "$TRACES/compiled_pair_b8.json" b8 "$TRACES/compiled_pair_b16.json" b16 bf16 --quiet --wide --group op \
    --report "$TMP/w.html" >/dev/null
fits "--diff --wide --group op" "$TMP/w.html"
V=testdata/public/vllm_decode_full
"$PROFANA" --analysis "$V/graph_execution.json.gz" bf16 --quiet --wide --graph-capture "$V/capture_traces" \
    --report "$TMP/w.html" >/dev/null
fits "vLLM decode with its capture, --wide" "$TMP/w.html"

# The sorting script in the same browser: one click on "Count" sorts the rows largest first, a second click
# smallest first; the Total row stays in the footer.
for clicks in 1 2; do
    sed "s|</body>|<script>for (var i = 0; i < $clicks; i++) document.querySelectorAll('table.sortable th')[2].click();</script></body>|" \
        "$TMP/r.html" >"$TMP/click$clicks.html"
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --user-data-dir="$TMP/chromium" --dump-dom \
        "file://$(cd "$TMP" && pwd)/click$clicks.html" >"$TMP/dom$clicks.html" 2>>"$TMP/chromium.log"
    html_tables "$TMP/dom$clicks.html" >"$TMP/dom$clicks.json"
done
check_eq "sorting: one click on Count sorts largest first" \
    "$(json 'str([int(r[2]) for r in d["tables"][0]["body"]] == sorted((int(r[2]) for r in d["tables"][0]["body"]), reverse=True))' "$TMP/dom1.json")" True
check_eq "sorting: a second click smallest first" \
    "$(json 'str([int(r[2]) for r in d["tables"][0]["body"]] == sorted(int(r[2]) for r in d["tables"][0]["body"]))' "$TMP/dom2.json")" True
check_eq "sorting: every row kept" "$(json 'len(d["tables"][0]["body"])' "$TMP/dom1.json")" "$names"
check_eq "sorting: Total stays in the footer" "$(json 'd["tables"][0]["foot"][0][0]' "$TMP/dom1.json")" Total
