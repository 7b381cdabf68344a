# test_roofline.sh - the roofline places every row with GPU time (issue 47): dots, dots of rows known in part, the bandwidth strip; the SVG's data-gpu-us per panel (and per side of a --diff chart) against the GPU time of the raw events (within 0.5%), memcpy marks against their recorded bytes, the y axis of TraceLens' traces by hand, and in headless Chromium no two texts under a chart overlapping (with a control).
# check: optimised
. tests/cli/lib.sh

PUBLIC=../shared/testdata/public/tracelens
NS='{http://www.w3.org/2000/svg}'

# Every bundled trace at --group kernel and op; the public ones where the checkout has them.
set -- "$TRACES"/*.json testdata/w2026/*.json.gz $PEER_TRACES testdata/public/mi300_resnet_convs.json.gz \
    testdata/multirank/tp_collectives_bf16_rank0.json.gz
# (their 14 and 16 MB of JSON through the oracle: `make check-full`; the ResNet's y axis is checked
# by hand below in both)
for f in ${PF_SWEEP_ALL:+"$PUBLIC"/mi300_resnet_act_checkpoint.json.gz "$PUBLIC"/mi300_sglang_qwen3_prefilldecode.json.gz}; do
    [ -f "$f" ] && set -- "$@" "$f"
done
for f in "$@"; do
    base=$(basename "$f")
    if "$PROFANA" --analysis "$f" bf16 --quiet --group kernel --plot roofline "$TMP/k.svg" >/dev/null 2>"$TMP/err" &&
        "$PROFANA" --analysis "$f" bf16 --quiet --group op --plot roofline "$TMP/o.svg" >/dev/null 2>>"$TMP/err"; then
        run_oracle tests/cli/roofline_oracle.py "$f" "$base --group kernel" "$TMP/k.svg" "$base --group op" "$TMP/o.svg"
    else
        fail "$base: --plot roofline" "$(head -c 200 "$TMP/err")"
    fi
done

# --diff: one chart a device pair, A hollow and B filled, arrows from A's dot to B's; each side's marks
# hold its own trace's GPU time (a batch-size pair of one H100 session, and the H100/MI300X pair).
for pair in "$TRACES/compiled_pair_b8.json $TRACES/compiled_pair_b16.json" ${PEER_TRACES:+"$PEER_TRACES"}; do
    set -- $pair
    name="diff $(basename "$1") $(basename "$2")"
    if "$PROFANA" --diff "$1" a "$2" b bf16 --quiet --group op --plot roofline "$TMP/d.svg" >/dev/null 2>"$TMP/err"; then
        run_oracle tests/cli/roofline_oracle.py --diff "$1" "$2" "$name" "$TMP/d.svg"
    else
        fail "$name: --plot roofline" "$(head -c 200 "$TMP/err")"
    fi
done

# The rows that placed: a dot, a strip mark or a row counted in the strip's box for each row of the
# JSON output with time, once.
"$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --quiet --top 0 --format json --plot roofline "$TMP/e.svg" >"$TMP/e.json"
placed=$(python3 - "$TMP/e.svg" "$TMP/e.json" <<'PY'
import json, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
marks = [e for e in ET.parse(sys.argv[1]).getroot().iter() if e.get("data-gpu-us") is not None]
names = sorted(e.get("data-name") for e in marks if e.get("data-name") is not None)
boxed = sum(int(e.get("data-rows")) for e in marks if e.get("class") == "strip-unknown")
rows = sorted(r["name"] for r in json.load(open(sys.argv[2]))["devices"][0]["rows"] if r["total_us"] > 0)
print(len(names) + boxed, len(rows), len(set(names)) == len(names) and set(names) <= set(rows))
PY
)
set -- $placed
check_eq "eager_bf16: every row with time placed once ($2 rows)" "$1 $3" "$2 True"

# TraceLens' Owlv2 on an H100 (issue 47): the softmax that holds most of the time has no FLOPs, so it is
# on the strip, and the y axis no longer runs down to 1e-7 for a few microsecond dots: by hand, the
# heaviest dots lie between 0.1 and 1000 TFLOP/s.
"$PROFANA" --analysis testdata/peer/owlv2_h100.json.gz bf16 --quiet --plot roofline "$TMP/o.svg" >/dev/null
python3 - "$TMP/o.svg" >"$TMP/o" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
plot = next(g for g in root.iter(ns + "g") if g.get("class") == "plot")
soft = [c for c in root.iter(ns + "circle") if c.get("class", "").startswith("strip-dot") and "softmax" in c.get("data-name")]
print(plot.get("data-y0"), plot.get("data-y1"), len(soft))
PY
read -r y0 y1 soft <"$TMP/o"
check_eq "owlv2_h100: y axis from 0.1 TFLOP/s (was 1e-7)" "$y0" "-1"
check_eq "owlv2_h100: y axis up to 10000 TFLOP/s (over the bf16 roof)" "$y1" "4"
check_eq "owlv2_h100: the softmax kernels on the bandwidth strip" "$([ "$soft" -gt 0 ] && echo yes)" yes

# The MI300 ResNet trace of the issue: its chart was empty ("no group has both FLOPs and bytes"); at
# --group kernel the convolution kernels lack figures on the launches outside the profiled ops, so
# they are dashed dots, placed by the launches that have them, and the note points to --group op.
if [ -f "$PUBLIC/mi300_resnet_act_checkpoint.json.gz" ]; then
    "$PROFANA" --analysis "$PUBLIC/mi300_resnet_act_checkpoint.json.gz" bf16 --quiet --plot roofline "$TMP/m.svg" >/dev/null
    check_eq "mi300_resnet: dashed dots drawn" "$(grep -o 'class="dot partial"' "$TMP/m.svg" | wc -l | awk '$1 > 0 { print "yes" }')" yes
    check_grep "mi300_resnet: the note names --group op" 'group op places each op whole' "$TMP/m.svg"
    check_grep "mi300_resnet: the strip's box of rows without bytes (the collectives)" 'class="strip-unknown"' "$TMP/m.svg"
else
    echo "SKIP mi300_resnet: $PUBLIC not in this checkout"
fi

# In headless Chromium (where installed): the texts under each chart (strip title, tick labels, the box of
# rows without bytes, the strip's roof label, legend, notes) keep apart, by the browser's bounding boxes.
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ]; then
    echo "SKIP roofline in Chromium: $CHROMIUM is not installed (apt-get install chromium to run it)"
    exit 0
fi
apart() { # NAME SVG [control]
    text_overlaps "$2" g.panel >"$TMP/apart.out"
    if [ "${3:-}" = control ]; then
        check_eq "Chromium: the control's overlap is found" "$(cut -c1-40 "$TMP/apart.out")" "$(cut -c1-40 "$TMP/want.out")"
    else
        check_eq "Chromium: no two texts under the $1 chart overlap" "$(cat "$TMP/apart.out")" none
    fi
}
"$PROFANA" --analysis testdata/peer/owlv2_h100.json.gz bf16 --quiet --plot roofline "$TMP/c1.svg" >/dev/null
apart "owlv2_h100" "$TMP/c1.svg"
"$PROFANA" --analysis testdata/public/mi300_resnet_convs.json.gz bf16 --quiet --plot roofline "$TMP/c2.svg" >/dev/null
apart "mi300_resnet_convs" "$TMP/c2.svg"
"$PROFANA" --diff testdata/peer/owlv2_h100.json.gz h100 testdata/peer/owlv2_mi300.json.gz mi300 bf16 --quiet --group op \
    --plot roofline "$TMP/c3.svg" >/dev/null 2>&1
apart "owlv2 h100/mi300 --diff" "$TMP/c3.svg"
# The control: the strip's title written twice at one place is an overlap the check must find.
python3 - "$TMP/c1.svg" "$TMP/ctl.svg" "$TMP/want.out" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
m = re.search(r'<text class="strip-title"[^>]*>([^<]*)</text>', s)
open(sys.argv[2], "w").write(s[:m.end()] + m.group(0) + s[m.end():])
open(sys.argv[3], "w").write(m.group(1) + " / " + m.group(1) + "\n")
PY
apart "control" "$TMP/ctl.svg" control
