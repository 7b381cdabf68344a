# test_marks.sh - sanity marks: '!' above 100% of a peak, '?' above 90%, each with its footnote, in text, Markdown, CSV/JSON notes and the report; the memcpy figure from the raw events and the H100's datasheet bandwidth.
. tests/cli/lib.sh

T=$TRACES/eager_bf16.json

# The device-to-device copies of eager_bf16.json: read and written (2 x bytes) over their time,
# against the H100 SXM's 3350 GB/s (NVIDIA's datasheet).
pct=$(python3 - "$T" <<'PY'
import sys
sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts, ns
cp = [e for e in gpu_acts(load(sys.argv[1])) if e["name"] == "Memcpy DtoD (Device -> Device)"]
print("%.1f" % (100 * 2 * sum(int(e["args"]["bytes"]) for e in cp) / sum(ns(e["dur"]) for e in cp) / 3350))
PY
)
check_eq "DtoD copies: above 90% of DRAM's peak by hand" "$(awk -v p="$pct" 'BEGIN { print (p > 90 && p <= 100) ? "yes" : "no" }')" yes
check_run "text" 0 "$PROFANA" --analysis "$T" bf16 --wide
check_grep "text: the copies' BW % marked ? ($pct)" "^Memcpy DtoD (Device -> Device) .*| *$pct? |" "$TMP/out"
check_grep "text: the ? footnote" "^? above 90% of the device's peak: possible, but check the peak" "$TMP/out"
check_eq "text: the footnote names the clock and L2" "$(grep '^? above 90%' "$TMP/out" | grep -c 'clock.*L2 cache')" 1
check_run "md" 0 "$PROFANA" --analysis "$T" bf16 --format md
# Markdown shows the short name (README: Text width and short names)
check_grep "md: the copies' BW % marked ?" "| Memcpy DtoD  *| .*| *$pct? |" "$TMP/out"
check_grep "md: the ? footnote" "^? above 90% of the device's peak" "$TMP/out"
check_run "json" 0 "$PROFANA" --analysis "$T" bf16 --format json
cp "$TMP/out" "$TMP/a.json"
check_eq "json: the copies' note" "$(json "[r['note'] for r in d['devices'][0]['rows'] if r['name'].startswith('Memcpy DtoD')][0]" "$TMP/a.json")" \
    "above 90% of peak: check the peak, the clock, L2-resident data"
check_run "csv" 0 "$PROFANA" --analysis "$T" bf16 --format csv
check_grep "csv: the copies' note" "^0,Memcpy DtoD.*above 90% of peak" "$TMP/out"
check_run "report" 0 "$PROFANA" --analysis "$T" bf16 --report "$TMP/r.html"
check_grep "report: the ? footnote" "? above 90% of the device" "$TMP/r.html"

# On every trace and grouping: a text row is marked ? exactly when a percentage of its JSON row
# is above 90 and none above 100, and ! when one is above 100; the footnotes only then.
bad=""
for f in "$TRACES"/*.json; do
    for g in kernel op shape; do
        "$PROFANA" --analysis "$f" bf16 --wide --group $g --name_limit 0 >"$TMP/t.txt" 2>/dev/null
        "$PROFANA" --analysis "$f" bf16 --group $g --format json >"$TMP/t.json" 2>/dev/null
        r=$(python3 - "$TMP/t.txt" "$TMP/t.json" <<'PY'
import json, sys
text = open(sys.argv[1]).read().splitlines()
devs = json.load(open(sys.argv[2]))["devices"]
bad = []
lines = iter(text)
for d in devs:
    for row in d["rows"] + [d["total"]]:
        pcts = [p for p in (row["flops_pct"], row["bw_pct"]) if p is not None]
        want = "!" if any(p > 100 for p in pcts) else "?" if any(p > 90 for p in pcts) else ""
        for line in lines:  # the row's line, in order
            cells = [c.strip() for c in line.split(" | ")]
            if cells and cells[0] == row["name"]:
                break
        else:
            bad.append("no line for " + row["name"][:40])
            break
        got = "".join(m for m in "!?" if any(c.endswith(m) and c[:-1].replace(".", "").isdigit() for c in cells))
        if got != want:
            bad.append("%s: got %r want %r" % (row["name"][:40], got, want))
    any_q = any(r["note"] and r["note"].startswith("above 90%") for r in d["rows"])
    if any_q != any(l.startswith("? above 90%") for l in text):
        bad.append("footnote")
print("; ".join(bad[:3]))
PY
)
        [ -n "$r" ] && bad="$bad [$(basename "$f") $g: $r]"
    done
done
check_eq "every trace and grouping: ? and ! exactly where the JSON percentages say" "$bad" ""
