# test_formats.sh - every format carries what text does: Markdown tables end before any other line, --diff JSON has per-side rates, delta and categories, --by-category in CSV and JSON, --top for --diff by absolute change, and options that would do nothing are refused; figures against the raw events read by Python.
. tests/cli/lib.sh

A=$TRACES/compiled_pair_b8.json
B=$TRACES/compiled_pair_b16.json
T=$TRACES/eager_bf16.json

# ---- Markdown: a table is followed by a blank line, never by text (GitHub would make it a row) ----
# md_tables NAME FILE: no line right after a table row is text; and tables were printed.
md_tables() {
    bad=$(awk 'prev ~ /^\|/ && $0 != "" && $0 !~ /^\|/ { print NR ": " $0; exit } { prev = $0 }' "$2")
    check_eq "Markdown $1: a blank line after each table" "$bad" ""
    check_eq "Markdown $1: has tables" "$(test "$(grep -c '^|' "$2")" -gt 2 && echo yes)" yes
}
for g in kernel op shape; do
    "$PROFANA" --analysis "$T" bf16 --group $g --top 3 --format md >"$TMP/md" 2>/dev/null
    md_tables "--analysis --group $g --top 3" "$TMP/md"
    check_grep "Markdown --group $g --top 3: the rows-left-out line" "^(.* more rows: " "$TMP/md"
    "$PROFANA" --analysis "$T" bf16 --group $g --by-category --format md >"$TMP/md" 2>/dev/null
    md_tables "--analysis --group $g --by-category" "$TMP/md"
done
"$PROFANA" --analysis "$TRACES/steps_bf16.json" bf16 --steps --format md >"$TMP/md" 2>/dev/null
md_tables "--steps" "$TMP/md"
"$PROFANA" --diff "$A" b8 "$B" b16 bf16 --top 4 --format md >"$TMP/md" 2>/dev/null
md_tables "--diff --top 4" "$TMP/md"
check_grep "Markdown --diff --top 4: the rows-left-out line" "^(.* more rows with smaller changes" "$TMP/md"

# ---- --diff JSON: per-side rates, delta, and each pair's categories ----
check_run "--diff json" 0 "$PROFANA" --diff "$A" b8 "$B" b16 bf16 --format json
cp "$TMP/out" "$TMP/diff.json"
"$PROFANA" --analysis "$A" bf16 --format json >"$TMP/a.json" 2>/dev/null
"$PROFANA" --analysis "$B" bf16 --format json >"$TMP/b.json" 2>/dev/null
python3 - "$A" "$B" "$TMP/diff.json" "$TMP/a.json" "$TMP/b.json" <<'PY'
import json, sys
sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts, ns, check
ev = [gpu_acts(load(p)) for p in sys.argv[1:3]]
diff = json.load(open(sys.argv[3]))
an = [{r["name"]: r for r in json.load(open(p))["devices"][0]["rows"]} for p in sys.argv[4:6]]
dev = diff["devices"][0]
rows = dev["rows"]
keys = ("a_tflops", "a_gbps", "b_tflops", "b_gbps", "delta_us")
check("diff json", "every row has %s" % ", ".join(keys), all(all(k in r for k in keys) for r in rows))
# per kernel name, the summed time on each side from the raw events
tot = [{}, {}]
for side in (0, 1):
    for e in ev[side]:
        tot[side][e["name"]] = tot[side].get(e["name"], 0) + ns(e["dur"])
bad = []
for r in rows:
    if r["match"] != "exact":
        continue
    want = (tot[1][r["name"]] - tot[0][r["name"]]) / 1e3
    if abs(r["delta_us"] - want) > 1e-6:
        bad.append((r["name"], r["delta_us"], want))
exact = sum(r["match"] == "exact" for r in rows)
check("diff json", "delta_us of the %d exact rows = B - A from the raw events" % exact, exact > 10 and not bad, bad[:3])
# the rates are those of each side's own --analysis row (the same kernel, the same figures)
bad = []
for r in rows:
    if r["match"] != "exact":
        continue
    for side, p in ((0, "a_"), (1, "b_")):
        for k in ("tflops", "gbps"):
            got, want = r[p + k], an[side][r["name"]][k]
            if (got is None) != (want is None) or (got is not None and abs(got - want) > 1e-9 * max(1, abs(want))):
                bad.append((r["name"], p + k, got, want))
check("diff json", "a_/b_tflops and gbps are each side's --analysis rates", not bad, bad[:3])
# the device-to-device copies' GB/s from their raw bytes (read and written: 2 x bytes) and time
for side, p in ((0, "a_"), (1, "b_")):
    cp = [e for e in ev[side] if e["name"] == "Memcpy DtoD (Device -> Device)"]
    want = 2 * sum(int(e["args"]["bytes"]) for e in cp) / sum(ns(e["dur"]) for e in cp)
    got = [r for r in rows if r["name"] == "Memcpy DtoD (Device -> Device)"][0][p + "gbps"]
    check("diff json", "%sgbps of the DtoD copies %.3f = raw 2 x bytes / time %.3f" % (p, got, want), abs(got - want) < 1e-6 * want)
# categories: present, and their times add up to each side's GPU time from the raw events
cats = dev.get("categories", [])
check("diff json", "categories table present (%d)" % len(cats), len(cats) >= 4)
for side, k in ((0, "a_total_us"), (1, "b_total_us")):
    want = sum(ns(e["dur"]) for e in ev[side]) / 1e3
    got = sum(c[k] for c in cats)
    check("diff json", "categories' %s sum %.3f = raw GPU time %.3f" % (k, got, want), abs(got - want) < 1e-6)
check("diff json", "categories' delta_us = b - a", all(abs(c["delta_us"] - (c["b_total_us"] - c["a_total_us"])) < 1e-6 for c in cats))
PY
# text shows the same categories table
check_run "--diff text" 0 "$PROFANA" --diff "$A" b8 "$B" b16 bf16
python3 - "$TMP/out" "$TMP/diff.json" <<'PY'
import json, sys
sys.path.insert(0, "tests/cli")
from raw import check
text = open(sys.argv[1]).read().splitlines()
cats = json.load(open(sys.argv[2]))["devices"][0]["categories"]
i = next(k for k, l in enumerate(text) if l.startswith("Category "))
shown = [[c.strip() for c in l.split("|")] for l in text[i + 2:i + 2 + len(cats)]]
check("diff json", "categories in the text's order with its totals",
      [(s[0], s[1], s[2]) for s in shown] == [(c["category"], "%.3f" % c["a_total_us"], "%.3f" % c["b_total_us"]) for c in cats])
PY

# ---- --top for --diff: the N largest absolute changes, and a line for the rest ----
check_run "--diff --top 5 json" 0 "$PROFANA" --diff "$A" b8 "$B" b16 bf16 --top 5 --format json
cp "$TMP/out" "$TMP/top.json"
# (wide enough that the omitted-rows line is one line: a pipe's width is 100)
check_run "--diff --top 5 text" 0 env COLUMNS=200 "$PROFANA" --diff "$A" b8 "$B" b16 bf16 --top 5
python3 - "$A" "$B" "$TMP/diff.json" "$TMP/top.json" "$TMP/out" <<'PY'
import json, re, sys
sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts, ns, check
full = json.load(open(sys.argv[3]))["devices"][0]["rows"]
top = json.load(open(sys.argv[4]))["devices"][0]
text = open(sys.argv[5]).read()
ch = lambda r: abs((r["b_total_us"] or 0) - (r["a_total_us"] or 0))
check("--diff --top 5", "5 rows in JSON, rows_omitted %d" % top["rows_omitted"], len(top["rows"]) == 5 and top["rows_omitted"] == len(full) - 5)
want = sorted(ch(r) for r in full)[-5:][::-1]
check("--diff --top 5", "the rows of the 5 largest absolute changes, largest first", [round(ch(r), 3) for r in top["rows"]] == [round(x, 3) for x in want], ([ch(r) for r in top["rows"]], want))
# the line: the other rows' count and time, which with the shown rows make each side's raw total
m = re.search(r"\((\d+) more rows with smaller changes: b8 ([\d.]+) us, b16 ([\d.]+) us, delta (-?[\d.]+) us; --top 0 shows all\)", text)
check("--diff --top 5", "the line says what was left out", m is not None, text[:300])
if m:
    check("--diff --top 5", "left-out count %s" % m.group(1), int(m.group(1)) == len(full) - 5)
    for side, k, g in ((0, "a_total_us", 2), (1, "b_total_us", 3)):
        raw = sum(ns(e["dur"]) for e in gpu_acts(load(sys.argv[1 + side]))) / 1e3
        shown = sum(r[k] or 0 for r in top["rows"])
        check("--diff --top 5", "shown + left out = raw GPU time of side %d (%.3f)" % (side, raw), abs(shown + float(m.group(g)) - raw) < 0.002)
PY

# ---- --by-category in every format ----
for g in kernel op; do
    check_run "--by-category json --group $g" 0 "$PROFANA" --analysis "$T" bf16 --group $g --by-category --format json
    cp "$TMP/out" "$TMP/bc.json"
    check_run "--by-category csv --group $g" 0 "$PROFANA" --analysis "$T" bf16 --group $g --by-category --format csv
    cp "$TMP/out" "$TMP/bc.csv"
    check_run "--by-category text --group $g" 0 "$PROFANA" --analysis "$T" bf16 --group $g --by-category --name_limit 0
    python3 - "$T" "$TMP/bc.json" "$TMP/bc.csv" "$TMP/out" "$g" <<'PY'
import csv, json, sys
sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts, ns, check
g = sys.argv[5]
dev = json.load(open(sys.argv[2]))["devices"][0]
bc = dev.get("by_category")
check("--by-category json --group " + g, "present", bool(bc))
raw = sum(ns(e["dur"]) for e in gpu_acts(load(sys.argv[1]))) / 1e3
check("--by-category json --group " + g, "category totals sum to the raw GPU time %.3f" % raw, abs(sum(c["total"]["total_us"] for c in bc) - raw) < 0.001 * len(bc))
if g == "kernel":  # an op's row sits in one category, its memsets' time in the memset category's total
    check("--by-category json --group " + g, "each category's rows sum to its total", all(abs(sum(r["total_us"] for r in c["rows"]) - c["total"]["total_us"]) < 0.001 * (1 + len(c["rows"])) for c in bc))
check("--by-category json --group " + g, "all rows sum to the raw GPU time", abs(sum(r["total_us"] for c in bc for r in c["rows"]) - raw) < 0.001 * sum(len(c["rows"]) for c in bc))
cats = {c["category"]: c["total_us"] for c in dev["categories"]}
check("--by-category json --group " + g, "totals are the categories table's", all(abs(c["total"]["total_us"] - cats[c["category"]]) < 1e-6 for c in bc))
rows = list(csv.DictReader(open(sys.argv[3])))
want = [(c["category"], r["name"], "%.3f" % r["total_us"], str(r["count"])) for c in bc for r in c["rows"] + [c["total"]]]
got = [(r["Category"], r[next(k for k in r if k not in ("Device", "Category", "Total (us)", "Count", "Percent"))], r["Total (us)"], r["Count"]) for r in rows]
check("--by-category csv --group " + g, "one table of the JSON's rows and totals (%d lines)" % len(rows), got == want, (got[:2], want[:2]))
text = open(sys.argv[4]).read()
check("--by-category text --group " + g, "a table per category", all(("== %s ==" % c["category"]) in text for c in bc))
PY
done

# ---- --steps in JSON: the steps alone, as text prints its table alone ----
check_run "--steps json" 0 "$PROFANA" --analysis "$TRACES/steps_bf16.json" bf16 --steps --format json
check_eq "--steps json: steps, no device tables" "$(json "('steps' in d, 'devices' in d)" "$TMP/out")" "(True, False)"

check_run "--explain md still runs" 0 "$PROFANA" --analysis "$T" bf16 --explain aten::mm --format md

# ---- CSV's Kind column (issue 46): the Total line "total", every other "row", so that a sum over
# the rows counts each activity once: the raw GPU time, per --group, and over --diff's sides ----
for g in kernel op shape; do
    "$PROFANA" --analysis "$T" bf16 --group $g --format csv >"$TMP/kind_$g.csv"
done
"$PROFANA" --diff "$T" a "$T" b bf16 --format csv >"$TMP/kind_diff.csv"
"$PROFANA" --analysis "$T" bf16 --by-category --format csv >"$TMP/kind_bycat.csv"
python3 - "$T" "$TMP" <<'PY'
import csv, sys
sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts, ns, check
raw = sum(ns(e["dur"]) for e in gpu_acts(load(sys.argv[1]))) / 1e3
for g in ["kernel", "op", "shape"]:
    rows = list(csv.DictReader(open(sys.argv[2] + "/kind_%s.csv" % g)))
    header = open(sys.argv[2] + "/kind_%s.csv" % g).readline().rstrip("\n").split(",")
    check("csv Kind --group " + g, "the last column", header[-1] == "Kind", header[-3:])
    check("csv Kind --group " + g, "one total line, the Total", [r["Kind"] for r in rows if r["Kind"] != "row"] == ["total"]
          and [r for r in rows if r["Kind"] == "total"][0][header[1]] == "Total")
    s = sum(float(r["Total (us)"]) for r in rows if r["Kind"] == "row")
    check("csv Kind --group " + g, "the rows' Total (us) sum to the raw GPU time %.3f (%.3f)" % (raw, s),
          abs(s - raw) <= 0.0005 * len(rows) + 1e-9)
rows = list(csv.DictReader(open(sys.argv[2] + "/kind_diff.csv")))
check("csv Kind --diff", "every line row (no Total line in the rows table)", {r["Kind"] for r in rows} == {"row"})
rows = list(csv.DictReader(open(sys.argv[2] + "/kind_bycat.csv")))
cats = {r["Category"] for r in rows}
check("csv Kind --by-category", "a total per category", sum(r["Kind"] == "total" for r in rows) == len(cats) > 1)
s = sum(float(r["Total (us)"]) for r in rows if r["Kind"] == "row")
check("csv Kind --by-category", "the rows sum to the raw GPU time", abs(s - raw) <= 0.0005 * len(rows))
PY

# ---- --format ndjson (issue 46): a line per row of each table; the rows, their Total, the
# categories and streams of every device are the JSON document's, the rows sum to the raw GPU time ----
MI=testdata/peer/owlv2_mi300.json.gz
for f in "$T" "$MI"; do
    b=$(basename "$f")
    "$PROFANA" --analysis "$f" bf16 --group op --format ndjson --quiet >"$TMP/$b.ndjson" 2>/dev/null
    "$PROFANA" --analysis "$f" bf16 --group op --format json --quiet >"$TMP/$b.json" 2>/dev/null
done
M=testdata/multirank
"$PROFANA" --ranks $M/tp_collectives_bf16_rank0.json.gz $M/tp_collectives_bf16_rank1.json.gz bf16 --format ndjson >"$TMP/ranks.ndjson"
"$PROFANA" --ranks $M/tp_collectives_bf16_rank0.json.gz $M/tp_collectives_bf16_rank1.json.gz bf16 --format json >"$TMP/ranks.json"
python3 - "$TMP" "$T" "$MI" <<'PY'
import json, os, sys
sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts, ns, check
tmp = sys.argv[1]
LINE = ("schema", "table", "trace", "device", "kind")
for f in sys.argv[2:]:
    b = os.path.basename(f)
    lines = [json.loads(l) for l in open("%s/%s.ndjson" % (tmp, b))]
    doc = json.load(open("%s/%s.json" % (tmp, b)))
    strip = lambda l: {k: v for k, v in l.items() if k not in LINE}
    for d in doc["devices"]:
        mine = [l for l in lines if l["device"] == d["id"]]
        for table in ["rows", "categories", "streams"]:
            got = [strip(l) for l in mine if l["table"] == table and l["kind"] == "row"]
            check("ndjson " + b, "device %d: %s as the JSON's (%d)" % (d["id"], table, len(got)), got == d[table])
        tot = [strip(l) for l in mine if l["kind"] == "total"]
        check("ndjson " + b, "device %d: one total line, the JSON's total" % d["id"], tot == [d["total"]])
    check("ndjson " + b, "every line names the trace", all(l["trace"] == f for l in lines))
    raw = sum(ns(e["dur"]) for e in gpu_acts(load(f))) / 1e3
    s = sum(l["total_us"] for l in lines if l["table"] == "rows" and l["kind"] == "row")
    check("ndjson " + b, "the rows sum to the raw GPU time %.3f (%.3f)" % (raw, s), abs(s - raw) < 1e-6 * raw)
lines = [json.loads(l) for l in open(tmp + "/ranks.ndjson")]
doc = json.load(open(tmp + "/ranks.json"))
for table in ["ranks", "steps", "collectives", "stragglers"]:
    got = [{k: v for k, v in l.items() if k not in ("schema", "table", "kind")} for l in lines if l["table"] == table]
    check("ndjson --ranks", "%s as the JSON's (%d)" % (table, len(got)), got == doc[table] and len(got) > 0)
check("ndjson --ranks", "no line of a device or a trace of its own", all("device" not in l for l in lines))
PY
