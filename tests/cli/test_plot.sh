# test_plot.sh - --plot roofline / breakdown: every chart of the testdata traces renders with rsvg-convert; dots, a hand-checked GEMM and the breakdown against figures from the raw events.
# check: optimised
. tests/cli/lib.sh

if ! command -v rsvg-convert >/dev/null 2>&1; then
    fail "rsvg-convert" "not installed (make check installs librsvg2-bin through tests/deps.sh)"
    exit 1
fi

# svg_dots FILE: per dot of a row with both figures whole (not "dot partial": test_roofline.sh) "name<TAB>x<TAB>y<TAB>cx<TAB>cy<TAB>over<TAB>panel x0 x1 y0 y1 left top width height",
# from the SVG as Python's XML parser reads it (which also proves it well-formed).
svg_dots() {
    python3 - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
for g in root.iter(ns + "g"):
    if g.get("class") != "plot":
        continue
    axis = " ".join(g.get("data-" + k) for k in ("x0", "x1", "y0", "y1", "left", "top", "width", "height"))
    for c in g.iter(ns + "circle"):
        if c.get("class", "").startswith("dot") and "partial" not in c.get("class"):
            print("\t".join([c.get("data-name"), c.get("data-x"), c.get("data-y"), c.get("cx"), c.get("cy"),
                             str(int("over" in c.get("class"))), axis]))
PY
}

# json_dots FILE: the rows of --format json output that have FLOPs, bytes and time above 0, and how many are
# above a roof (FLOPS % or BW % over 100), per device: "device rows over".
json_dots() {
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for dev in d["devices"]:
    rows = [r for r in dev["rows"] if (r["flop"] or 0) > 0 and (r["bytes"] or 0) > 0 and r["total_us"] > 0]
    over = [r for r in rows if (r["flops_pct"] or 0) > 100 or (r["bw_pct"] or 0) > 100]
    print(dev["id"], len(rows), len(over))
PY
}

# occurrences STRING FILE: how often STRING occurs (an SVG is one long line).
occurrences() {
    grep -oF -- "$1" "$2" | wc -l
}

# load PATH: Python that binds d to the trace, plain or gzip-compressed.
LOAD='import gzip, json, sys
from decimal import Decimal
op = gzip.open if sys.argv[1].endswith(".gz") else open
d = json.load(op(sys.argv[1], "rt"), parse_float=Decimal)'

is_png() {
    [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]
}

# Every chart of every testdata trace renders to PNG; one dot per row with FLOPs and bytes. The large peer
# traces run once (--group op: their ops are what an H100 and an MI300X share); the breakdowns are kept
# for the checks against the raw events below.
for f in "$TRACES"/*.json $PEER_TRACES; do
    base=$(basename "$f")
    case $f in *.gz) groups=op ;; *) groups="kernel op" ;; esac
    for group in $groups; do
        check_run "$base --group $group: plots" 0 "$PROFANA" --analysis "$f" bf16 --quiet --group $group --top 0 \
            --format json --plot roofline "$TMP/r.svg" --plot breakdown "$TMP/b.svg"
        for kind in r b; do
            if rsvg-convert "$TMP/$kind.svg" -o "$TMP/$kind.png" 2>"$TMP/rsvg.err" && is_png "$TMP/$kind.png"; then
                pass "$base --group $group: $kind.svg renders"
            else
                fail "$base --group $group: $kind.svg renders" "$(head -c 300 "$TMP/rsvg.err")"
            fi
        done
        json_dots "$TMP/out" >"$TMP/want"
        svg_dots "$TMP/r.svg" >"$TMP/dots"
        check_eq "$base --group $group: one dot per row with FLOPs and bytes" "$(wc -l <"$TMP/dots")" \
            "$(awk '{ n += $2 } END { print n + 0 }' "$TMP/want")"
        check_eq "$base --group $group: dots above a roof = rows over 100% of a peak" \
            "$(awk -F'\t' '{ n += $6 } END { print n + 0 }' "$TMP/dots")" "$(awk '{ n += $3 } END { print n + 0 }' "$TMP/want")"
        check_eq "$base --group $group: panels" "$(occurrences 'class="panel"' "$TMP/r.svg")" "$(wc -l <"$TMP/want")"
        cp "$TMP/b.svg" "$TMP/breakdown-$base.svg"
    done
done

# The hand-checked GEMM: aten::mm of [2048,512] x [512,512] bf16 in explicit_bf16, with --group shape.
# FLOPs 2*M*N*K and bytes (MK + KN + MN) * 2 per call from the shapes in the trace; time summed from the GPU
# activities whose External id is one of those calls'.
python3 - "$TRACES/explicit_bf16.json" >"$TMP/gemm" <<'PY'
import json, sys
from decimal import Decimal
d = json.load(open(sys.argv[1]), parse_float=Decimal)
ev = d["traceEvents"]
calls = [e for e in ev if e.get("cat") == "cpu_op" and e["name"] == "aten::mm"
         and e["args"]["Input Dims"] == [[2048, 512], [512, 512]]]
ids = {e["args"]["External id"] for e in calls}
ns = sum(int(Decimal(e["dur"]) * 1000) for e in ev
         if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset") and e["args"].get("External id") in ids)
(m, k), (_, n) = calls[0]["args"]["Input Dims"]
flop = 2 * m * n * k * len(calls)
nbytes = (m * k + k * n + m * n) * 2 * len(calls)
print(len(calls), flop, nbytes, flop / nbytes, flop / (ns * 1e-9) / 1e12)
PY
read -r calls flop nbytes intensity tflops <"$TMP/gemm"
check_eq "gemm: 3 calls of the [2048,512]x[512,512] mm in the trace" "$calls" 3
check_eq "gemm: FLOPs by hand (3 x 2*2048*512*512)" "$flop" $((3 * 2 * 2048 * 512 * 512))
check_eq "gemm: bytes by hand (3 x (2048*512 + 512*512 + 2048*512) * 2)" "$nbytes" $((3 * (2048 * 512 + 512 * 512 + 2048 * 512) * 2))
check_run "gemm: --group shape roofline" 0 "$PROFANA" --analysis "$TRACES/explicit_bf16.json" bf16 --quiet --group shape \
    --plot roofline "$TMP/g.svg"
svg_dots "$TMP/g.svg" | grep -F "aten::mm([2048,512]bf16, [512,512]bf16)	" >"$TMP/gdot"
check_eq "gemm: one dot" "$(wc -l <"$TMP/gdot")" 1
IFS='	' read -r _ x y cx cy _ axis <"$TMP/gdot"
check_near "gemm: data-x = FLOP/byte" "$x" "$intensity" 0.00001
check_near "gemm: data-y = TFLOP/s" "$y" "$tflops" 0.00001
# Where the dot must sit, from the plot's axis range and its hand-computed figures.
set -- $axis
want_cx=$(awk -v v="$intensity" -v a="$1" -v b="$2" -v l="$5" -v w="$7" 'BEGIN { printf "%.4f", l + (log(v) / log(10) - a) / (b - a) * w }')
want_cy=$(awk -v v="$tflops" -v a="$3" -v b="$4" -v t="$6" -v h="$8" 'BEGIN { printf "%.4f", t + h - (log(v) / log(10) - a) / (b - a) * h }')
check_near "gemm: cx on the log axis" "$cx" "$want_cx" 0.00002
check_near "gemm: cy on the log axis" "$cy" "$want_cy" 0.00002
ndots=$(svg_dots "$TMP/g.svg" | wc -l)
check_eq "gemm: the heaviest dots labelled (10, or every dot when fewer)" "$(occurrences 'class="dot-label"' "$TMP/g.svg")" \
    "$((ndots < 10 ? ndots : 10))"
check_run "labels: eager_bf16" 0 "$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --quiet --plot roofline "$TMP/e.svg"
check_eq "labels: the 10 heaviest of eager_bf16's dots" "$(occurrences 'class="dot-label"' "$TMP/e.svg")" 10
check_grep "gemm: compute roof of bf16" '>bf16 989.5 TFLOP/s<' "$TMP/g.svg"
check_grep "gemm: memory roof" '>DRAM 3350 GB/s<' "$TMP/g.svg"
check_grep "gemm: axis units" 'Arithmetic intensity (FLOP/byte)' "$TMP/g.svg"

# --tf32: the fp32 GEMMs of explicit_fp32 are measured against the TF32 roof, which the chart then draws
# at the device table's TF32 peak (the one the header line prints).
check_run "tf32 roofline" 0 "$PROFANA" --analysis "$TRACES/explicit_fp32.json" fp32 --quiet --tf32 --plot roofline "$TMP/t.svg"
tf32=$(grep -o 'tf32 [0-9.]* TFLOP/s' "$TMP/out" | head -n 1)
check_eq "tf32: header names the TF32 peak" "${tf32:+yes}" yes
check_grep "tf32: TF32 roof drawn" ">$tf32<" "$TMP/t.svg"
check_grep "tf32: FP32 roof drawn (element-wise work)" '>fp32 67.0 TFLOP/s<' "$TMP/t.svg"

# Breakdown: per device, the memset and memcpy segments and the idle time against the raw events.
raw_breakdown() {
    python3 -c "$LOAD
$(cat <<'PY'
iv = {}
for e in d["traceEvents"]:
    if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset"):
        s = int(Decimal(e["ts"]) * 1000)
        iv.setdefault(e["args"].get("device", e.get("pid")), []).append((s, s + int(Decimal(e["dur"]) * 1000), e["cat"]))
for dev in sorted(iv):
    spans = sorted(iv[dev])
    union, cur = 0, None
    for s, t, _ in spans:
        if cur is None or s > cur[1]:
            union += cur[1] - cur[0] if cur else 0
            cur = [s, t]
        else:
            cur[1] = max(cur[1], t)
    union += cur[1] - cur[0]
    span = max(t for _, t, _ in spans) - spans[0][0]
    memset = sum(t - s for s, t, c in spans if c == "gpu_memset")
    memcpy = sum(t - s for s, t, c in spans if c == "gpu_memcpy")
    print(dev, span, span - union, memset, memcpy)
PY
)" "$1"
}
svg_segs() {
    python3 - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
for i, g in enumerate(g for g in ET.parse(sys.argv[1]).getroot().iter(ns + "g") if g.get("class") == "bar"):
    segs = {r.get("data-category"): float(r.get("data-ns")) for r in g.iter(ns + "rect") if r.get("class") == "seg"}
    width = sum(float(r.get("width")) for r in g.iter(ns + "rect") if r.get("class") == "seg")
    outline = [float(r.get("width")) for r in g.iter(ns + "rect") if r.get("class") == "outline"][0]
    print(i, g.get("data-span-ns"), segs.get("idle", 0), segs.get("memset", 0), segs.get("memcpy", 0),
          sum(segs.values()), width, outline)
PY
}
for f in "$TRACES"/eager_bf16.json "$TRACES"/cnn_fp32.json "$TRACES"/steps_bf16.json ${PF_SWEEP_ALL:+testdata/peer/owlv2_mi300.json.gz}; do
    base=$(basename "$f")
    raw_breakdown "$f" >"$TMP/raw"
    svg_segs "$TMP/breakdown-$base.svg" >"$TMP/segs"
    paste -d' ' "$TMP/raw" "$TMP/segs" >"$TMP/both"
    while read -r dev span idle memset memcpy _ gspan gidle gmemset gmemcpy gsum gwidth goutline; do
        check_near "$base dev $dev: bar spans the GPU span" "$gspan" "$span" 0.000001
        check_near "$base dev $dev: idle = span - union of activity" "$gidle" "$idle" 0.000001
        check_near "$base dev $dev: memset segment = summed gpu_memset time" "$gmemset" "$memset" 0.00001
        check_near "$base dev $dev: memcpy segment = summed gpu_memcpy time" "$gmemcpy" "$memcpy" 0.00001
        check_near "$base dev $dev: segments fill the span" "$gsum" "$span" 0.00001
        check_near "$base dev $dev: segment widths fill the bar" "$gwidth" "$goutline" 0.0001
    done <"$TMP/both"
done

# --diff: one bar per side, on one time scale (bar widths in the ratio of the spans).
check_run "diff breakdown" 0 "$PROFANA" --diff "$TRACES/compiled_pair_b8.json" b8 "$TRACES/compiled_pair_b16.json" b16 bf16 \
    --quiet --plot breakdown "$TMP/db.svg" --plot roofline "$TMP/dr.svg"
raw_breakdown "$TRACES/compiled_pair_b8.json" >"$TMP/ra"
raw_breakdown "$TRACES/compiled_pair_b16.json" >"$TMP/rb"
svg_segs "$TMP/db.svg" >"$TMP/segs"
check_eq "diff: two bars" "$(wc -l <"$TMP/segs")" 2
check_grep "diff: pair heading" '>Device pair 0<' "$TMP/db.svg"
check_grep "diff: A's bar" 'data-label="b8: Device 0' "$TMP/db.svg"
check_grep "diff: B's bar" 'data-label="b16: Device 0' "$TMP/db.svg"
ratio_want=$(awk '{ print $2 }' "$TMP/rb" "$TMP/ra" | paste -sd' ' | awk '{ print $1 / $2 }')
ratio_got=$(awk '{ print $8 }' "$TMP/segs" | paste -sd' ' | awk '{ print $2 / $1 }')
check_near "diff: bars on one scale (width ratio = span ratio)" "$ratio_got" "$ratio_want" 0.0001
check_eq "diff: one roofline panel for the pair (issue 47)" "$(occurrences 'class="panel"' "$TMP/dr.svg")" 1
rsvg-convert "$TMP/db.svg" -o "$TMP/db.png" && rsvg-convert "$TMP/dr.svg" -o "$TMP/dr.png" && pass "diff: charts render" ||
    fail "diff: charts render" "rsvg-convert failed"

# The broken-trace corpus: whatever loads (odd names, invalid UTF-8, NULs, no GPU activity) still gives
# well-formed SVG (every fixture, parsed by Python in one run) that renders (rsvg-convert, 70 ms a
# chart: in `make check` the fixtures with odd names or figures, the rendering's risks; every one
# in check-full).
mkdir -p "$TMP/bk"
for f in tests/broken/*.json; do
    b=$(basename "$f" .json)
    "$PROFANA" --analysis "$f" bf16 --quiet --group shape --plot roofline "$TMP/bk/$b.x.svg" --plot breakdown "$TMP/bk/$b.y.svg" \
        >/dev/null 2>&1 || rm -f "$TMP/bk/$b".*
done
python3 - "$TMP/bk" <<'PY' >"$TMP/bk.parsed"
import os, sys, xml.etree.ElementTree as E
d = sys.argv[1]
names = sorted({n.rsplit(".", 2)[0] for n in os.listdir(d)})
for n in names:
    try:
        for k in "xy":
            E.parse(os.path.join(d, "%s.%s.svg" % (n, k)))
        print("ok", n)
    except Exception as e:
        print("bad", n, str(e)[:100])
PY
while read -r verdict b rest; do
    ok=$verdict
    case $b in *name* | *utf8* | *escape* | *nul* | *1e* | *huge* | *quote* | *bom*) render=1 ;; *) render=${PF_SWEEP_ALL:+1} ;; esac
    if [ "$ok" = ok ] && [ -n "$render" ]; then
        rsvg-convert "$TMP/bk/$b.x.svg" -o "$TMP/x.png" 2>/dev/null && rsvg-convert "$TMP/bk/$b.y.svg" -o "$TMP/y.png" 2>/dev/null || ok=render
    fi
    if [ "$ok" = ok ]; then
        pass "broken/$b.json: charts well-formed${render:+ and render}"
    else
        fail "broken/$b.json: charts well-formed" "${ok}: $rest"
    fi
done <"$TMP/bk.parsed"
check_eq "broken: every fixture that loads parsed" "$(wc -l <"$TMP/bk.parsed")" "$(ls "$TMP/bk" | grep -c '\.x\.svg$')"

# Deterministic: the same trace gives the same bytes.
for i in 1 2; do
    "$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --quiet --plot roofline "$TMP/d$i-r.svg" \
        --plot breakdown "$TMP/d$i-b.svg" >/dev/null
done
cmp -s "$TMP/d1-r.svg" "$TMP/d2-r.svg" && pass "roofline: same bytes twice" || fail "roofline: same bytes twice" "differ"
cmp -s "$TMP/d1-b.svg" "$TMP/d2-b.svg" && pass "breakdown: same bytes twice" || fail "breakdown: same bytes twice" "differ"
"$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --quiet -j 1 --plot roofline "$TMP/d3-r.svg" >/dev/null
cmp -s "$TMP/d1-r.svg" "$TMP/d3-r.svg" && pass "roofline: same bytes with -j 1" || fail "roofline: same bytes with -j 1" "differ"

# Bad output paths: exit 1, one line on stderr, no table printed, no file left behind (not even the good one).
mkdir -p "$TMP/bad/dir"
check_bad() { # NAME PATTERN ARGS...
    name=$1
    pat=$2
    shift 2
    check_run "$name" 1 "$PROFANA" --analysis "$TRACES/explicit_bf16.json" bf16 --quiet "$@"
    check_eq "$name: one line on stderr" "$(wc -l <"$TMP/err")" 1
    check_grep "$name: message" "^profana: error: .*$pat" "$TMP/err"
    check_eq "$name: nothing on stdout" "$(wc -c <"$TMP/out")" 0
    check_eq "$name: no file left" "$(find "$TMP/bad" -type f | wc -l)" 0
}
check_bad "roofline into a directory" "is a directory" --plot roofline "$TMP/bad/dir"
check_bad "breakdown into a missing directory" "No such file or directory" --plot roofline "$TMP/bad/ok.svg" \
    --plot breakdown "$TMP/bad/missing/b.svg"
check_bad "roofline where nothing can be created" "cannot" --plot breakdown "$TMP/bad/ok.svg" \
    --plot roofline /proc/profana-test.svg
check_bad "one file for two outputs" "named for two outputs" --plot roofline "$TMP/bad/x.svg" --plot breakdown "$TMP/bad/x.svg"
cp "$TRACES/compiled_pair_b16.json" "$TMP/b16.json"
check_run "diff: a chart over input B" 1 "$PROFANA" --diff "$TRACES/compiled_pair_b8.json" b8 "$TMP/b16.json" b16 bf16 --quiet \
    --plot breakdown "$TMP/b16.json"
check_grep "diff: a chart over input B: message" "^profana: error: .*b16.json: is an input trace" "$TMP/err"
cmp -s "$TMP/b16.json" "$TRACES/compiled_pair_b16.json" && pass "diff: input B untouched" || fail "diff: input B untouched" "changed"
