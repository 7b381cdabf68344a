# test_fit.sh - text a person reads fits the real width (issue 34): in tmux panes of 80x24, 100x40 and 160x50 (stdout piped) every command and grouping on testdata/ has no line over the width, no Source cell cut to a fragment, a headline wrapped once and a legend for every Source value shown; the width order ($COLUMNS, stdout's terminal, stderr's terminal under a pipe, 100; a real tmux pane when tmux is installed); shape keys keep their tensors' dims; tied columns; the GPU time outside the step windows against the raw events; notes after the headline; a vLLM execution_details.json refused; CSV and JSON without prose; --combine of an H100 and an MI300 trace.
# check: optimised
. tests/cli/lib.sh
set -u
E=$TRACES/eager_bf16.json
S=$TRACES/steps_bf16.json
M=testdata/multirank
P=testdata/peer
R=testdata/runs

# ---- every command at every width: the checks of check_text (below) on each output ----
: >"$TMP/cmds"
add() { printf '%s\n' "$*" >>"$TMP/cmds"; }
for f in $TRACES/*.json $P/*.json.gz testdata/public/*.json.gz; do
    for g in kernel op shape; do
        add --analysis "$f" bf16 --group $g --by-category
    done
done
add --analysis "$S" bf16 --steps
add --analysis "$E" bf16 --explain aten::mm
add --analysis "$E" bf16 --explain aten::_scaled_dot_product_cudnn_attention
add --analysis "$TRACES/cnn_fp32.json" fp32 --explain aten::convolution
for g in kernel op shape; do
    add --diff "$E" eager "$TRACES/compiled_bf16_b8.json" compiled bf16 --group $g
    add --diff "$P/owlv2_h100.json.gz" h100 "$P/owlv2_mi300.json.gz" mi300 bf16 --group $g
done
add --diff "$R/base_run1.json.gz,$R/base_run2.json.gz,$R/base_run3.json.gz" base "$R/changed_run1.json.gz,$R/changed_run2.json.gz,$R/changed_run3.json.gz" changed bf16
add --ranks "$M/tp_collectives_bf16_rank0.json.gz" "$M/tp_collectives_bf16_rank1.json.gz" bf16
add --ranks "$M/fsdp2_bf16_rank0.json.gz" "$M/fsdp2_bf16_rank1.json.gz" bf16
add --list-devices

# In a tmux pane of 80x24, 100x40 and 160x50 with no $COLUMNS: each command's stdout piped
# (`| cat`, as `| less` does) and its stderr the pane, so the width is the terminal's as a
# user's shell finds it. Without tmux the same sweep runs with $COLUMNS.
if command -v tmux >/dev/null 2>&1 && [ "${PF_NO_TMUX:-}" != 1 ]; then
    how=tmux
else
    how=COLUMNS
    echo "SKIP every command in a tmux pane: tmux is not installed (the sweep runs with \$COLUMNS)"
fi
n=0
for size in 80x24 100x40 160x50; do
    w=${size%x*}
    : >"$TMP/sweep.$w"
    while read -r line; do
        n=$((n + 1))
        if [ $how = tmux ]; then
            printf '%s %s --quiet | cat >%s\n' "$PROFANA" "$line" "$TMP/o.$n" >>"$TMP/sweep.$w"
        else
            # shellcheck disable=SC2086
            COLUMNS=$w "$PROFANA" $line --quiet >"$TMP/o.$n" 2>/dev/null
        fi
        printf '%s\t%s\t%s\n' "$w" "$TMP/o.$n" "$line" >>"$TMP/runs"
    done <"$TMP/cmds"
    [ $how = tmux ] && tmux -S "$TMP/sweep.sock.$w" new-session -d -c "$PWD" -x "$w" -y "${size#*x}" \
        "env -u COLUMNS sh $TMP/sweep.$w; echo done >$TMP/sweep.$w.done"
done
if [ $how = tmux ]; then
    # under valgrind the sweep takes minutes
    i=0
    while [ $i -lt 9000 ] && ! { [ -f "$TMP/sweep.80.done" ] && [ -f "$TMP/sweep.100.done" ] && [ -f "$TMP/sweep.160.done" ]; }; do
        sleep 0.2
        i=$((i + 1))
    done
    for w in 80 100 160; do
        tmux -S "$TMP/sweep.sock.$w" kill-server 2>/dev/null
        check_eq "tmux pane of $w columns: every command ran" "$(cat "$TMP/sweep.$w.done" 2>/dev/null)" "done"
    done
fi
# each width is used, not a narrower one everywhere: the widest line of its runs fills it
for w in 80 100 160; do
    widest=$(awk -F'\t' -v w="$w" '$1 == w { print $2 }' "$TMP/runs" | xargs awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')
    [ "$widest" -le "$w" ] && [ "$widest" -ge $((w - 2)) ] && pass "$how at $w columns: the widest line fills the width ($widest)" ||
        fail "$how at $w columns: the widest line fills the width" "$widest"
done

python3 - "$TMP/runs" <<'PY'
import re
import sys

runs = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
bad = {"width": [], "source": [], "legend": [], "headline": [], "ties": []}
SOURCE_OK = re.compile(r"^(-|mixed|[a-z0-9][a-z0-9~-]*(\+[a-z0-9][a-z0-9~-]*)*(\+[0-9]+)?)$")
for w, path, cmd in runs:
    w = int(w)
    lines = open(path, encoding="utf-8").read().split("\n")
    tag = "%s at %d" % (cmd, w)
    for l in lines:
        if len(l) > w:
            bad["width"].append("%s: %d characters: %s" % (tag, len(l), l[:120]))
            break
    # the Source column of each table: every cell a whole value, "mixed" or FIRST+N
    shown = set()
    for i, l in enumerate(lines):
        cells = [c.strip() for c in l.split(" | ")]
        if "Source" not in cells or i + 1 >= len(lines) or not lines[i + 1].startswith("---"):
            continue
        col, ncol = cells.index("Source"), len(cells)
        for r in lines[i + 2:]:
            rc = [c.strip() for c in r.split(" | ")]
            if len(rc) != ncol:
                if r.startswith("  "):  # a wrapped name's second line
                    continue
                break
            v = rc[col]
            if not SOURCE_OK.match(v) or re.search(r"[a-z]\.\.\.[a-z]", v):
                bad["source"].append("%s: Source cell %r" % (tag, v))
            for m in v.split("+"):
                m = m.split("~")[0]
                if m and not m.isdigit() and m not in ("-", "mixed"):
                    shown.add(m)
    # the legend names every Source value shown
    text = "\n".join(lines)
    leg = re.findall(r"^Source: .*(?:\n  .*)*", text, re.M)
    legtext = " ".join(leg).replace("\n  ", " ")
    for m in sorted(shown):
        if not re.search(r"(^|[ ,;])%s[:,]" % re.escape(m), legtext.replace("Source:", " ")):
            bad["legend"].append("%s: Source value %r not explained (legend: %r)" % (tag, m, legtext[:200]))
    # the headline wrapped once: a continuation line starts where the word could not fit above
    for i, l in enumerate(lines):
        if not (l.startswith("Headline: ") or l.startswith("- ")) or "--explain" in cmd:
            continue
        j = i
        while j + 1 < len(lines) and re.match(r"^ {2,}\S", lines[j + 1]):
            first = lines[j + 1].split()[0]
            if len(lines[j]) + 1 + len(first) <= w:
                bad["headline"].append("%s: broken early after %r" % (tag, lines[j][-40:]))
            j += 1
    # tied columns: --steps Top % with Top Category; --diff each side's Total with the other's
    for i, l in enumerate(lines):
        cells = [c.strip() for c in l.split(" | ")]
        if i + 1 < len(lines) and lines[i + 1].startswith("---"):
            if ("Top %" in cells) != ("Top Category" in cells):
                bad["ties"].append("%s: %s" % (tag, l))
            tot = [c for c in cells if c.endswith(" Total (us)") and c != "CPU Total (us)"]
            if len(tot) == 1:
                bad["ties"].append("%s: one side's total alone: %s" % (tag, l))
for k, what in (("width", "no line over the width"), ("source", "no Source cell cut to a fragment"),
                ("legend", "every Source value shown is explained under its table"),
                ("headline", "the headline is wrapped once (no line broken before the width)"),
                ("ties", "tied columns shown together")):
    ok = not bad[k]
    print("PASS %d runs at 80, 100, 160 columns: %s" % (len(runs), what) if ok else
          "FAIL %d runs: %s (%d: %s)" % (len(runs), what, len(bad[k]), "; ".join(bad[k][:3])))
PY

# ---- Source: a row's list over 16 characters reads FIRST+N, the Total's that does not fit "mixed" ----
COLUMNS=100 "$PROFANA" --analysis "$P/owlv2_mi300.json.gz" bf16 --quiet --group op >"$TMP/src.txt" 2>/dev/null
"$PROFANA" --analysis "$P/owlv2_mi300.json.gz" bf16 --quiet --group op --format csv >"$TMP/src.csv" 2>/dev/null
python3 - "$TMP/src.txt" "$TMP/src.csv" <<'PY'
import csv, sys
sys.path.insert(0, "tests/cli")
from raw import check
text = open(sys.argv[1]).read().split("\n")
rows = list(csv.DictReader(open(sys.argv[2])))
total = [r for r in rows if r["Op"] == "Total"][0]["Source"]
head = next(i for i, l in enumerate(text) if l.startswith("Op ") and "Source" in l)
col = [c.strip() for c in text[head].split(" | ")].index("Source")
cells = [[c.strip() for c in l.split(" | ")] for l in text[head + 2:] if l.count(" | ") == text[head].count(" | ")]
shown_total = [c for c in cells if c[0] == "Total"][0][col]
check("Source", "the CSV Total lists several sources (%s)" % total, "+" in total, total)
check("Source", "text's Total Source is the whole list or 'mixed' (%s)" % shown_total,
      shown_total in (total, "mixed"), shown_total)
legend = " ".join(l for l in text if l.startswith("Source:") or l.startswith("  "))
for m in sorted({m.split("~")[0] for m in total.split("+")} - {"more"}):
    check("Source legend", "explains %s" % m, (" %s:" % m) in legend or (" %s," % m) in legend, legend[:200])
PY

# ---- the width order: $COLUMNS, then the terminal (stderr's when stdout is a pipe), then 100 ----
"$PROFANA" --list-devices >"$TMP/w100" 2>/dev/null
w=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$TMP/w100")
[ "$w" -le 100 ] && [ "$w" -gt 80 ] && pass "no terminal, no COLUMNS: 100 columns (widest $w)" || fail "no terminal, no COLUMNS: 100 columns" "widest $w"
"$PROFANA" --list-devices --wide >"$TMP/wwide" 2>/dev/null
w=$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$TMP/wwide")
w=${w:-0}
[ "$w" -gt 160 ] && pass "--wide: every column (widest $w)" || fail "--wide: every column" "widest $w"
if command -v tmux >/dev/null 2>&1 && [ "${PF_NO_TMUX:-}" != 1 ]; then
    for size in 80x24 100x40 160x50; do
        cols=${size%x*} rows=${size#*x}
        sock=$TMP/tmux.$cols
        # stdout a file, stderr the pane: the pane's width applies
        tmux -S "$sock" new-session -d -x "$cols" -y "$rows" \
            "env -u COLUMNS $PROFANA --analysis $E bf16 --quiet --group shape >$TMP/t.$cols; echo \$? >$TMP/t.$cols.rc"
        i=0
        while [ ! -s "$TMP/t.$cols.rc" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
        tmux -S "$sock" kill-server 2>/dev/null
        w=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$TMP/t.$cols")
        [ "$w" -le "$cols" ] && [ "$w" -gt $((cols - 20)) ] && pass "tmux $size, stdout a file: fits the pane's $cols columns (widest $w)" ||
            fail "tmux $size, stdout a file: fits the pane" "widest $w"
    done
    # $COLUMNS comes before the terminal, --wide before both: a pane of 100, stdout piped
    sock=$TMP/tmux.order
    tmux -S "$sock" new-session -d -c "$PWD" -x 100 -y 40 \
        "COLUMNS=90 $PROFANA --analysis $E bf16 --quiet | cat >$TMP/t.c90; COLUMNS=90 $PROFANA --analysis $E bf16 --quiet --wide | cat >$TMP/t.wide; echo done >$TMP/t.order"
    i=0
    while [ ! -s "$TMP/t.order" ] && [ $i -lt 3000 ]; do sleep 0.1; i=$((i + 1)); done
    tmux -S "$sock" kill-server 2>/dev/null
    w=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$TMP/t.c90")
    [ "$w" -le 90 ] && [ "$w" -ge 88 ] && pass "tmux 100 columns, COLUMNS=90: \$COLUMNS first (widest $w)" ||
        fail "tmux 100 columns, COLUMNS=90: \$COLUMNS first" "widest $w"
    w=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$TMP/t.wide")
    [ "$w" -gt 160 ] && pass "tmux 100 columns, COLUMNS=90, --wide: --wide first (widest $w)" ||
        fail "tmux 100 columns, COLUMNS=90, --wide: --wide first" "widest $w"
else
    echo "SKIP tmux: not installed"
fi

# ---- shape keys: every tensor's dims kept (keys of at most 3 tensors at 100 columns) ----
COLUMNS=100 "$PROFANA" --analysis "$E" bf16 --quiet --group shape --top 0 >"$TMP/sh.txt" 2>/dev/null
"$PROFANA" --analysis "$E" bf16 --quiet --group shape --top 0 --format csv >"$TMP/sh.csv" 2>/dev/null
python3 - "$TMP/sh.txt" "$TMP/sh.csv" <<'PY'
import csv, re, sys
sys.path.insert(0, "tests/cli")
from raw import check
text = open(sys.argv[1]).read().split("\n")
keys = [r["Op (input shapes)"] for r in csv.DictReader(open(sys.argv[2])) if r["Op (input shapes)"] != "Total"]
head = next(i for i, l in enumerate(text) if l.startswith("Op (input shapes)"))
names, i = [], head + 2
while i < len(text) and " | " in text[i]:
    n = text[i].split(" | ")[0].strip()
    if i + 1 < len(text) and text[i + 1].startswith("  ") and " | " not in text[i + 1]:
        n += " " + text[i + 1].strip()
        i += 1
    names.append(n)
    i += 1
names = names[:len(keys)]
TENSOR = re.compile(r"\[[0-9,]*\][a-z]")
kept = lost = 0
for k, n in zip(keys, names):
    dims = re.findall(r"\[[0-9,]*\](?=[a-z])", k)
    if len(dims) > 3:
        continue
    flat = n.replace(" ", "")
    if all(d in flat for d in dims):
        kept += 1
    else:
        lost += 1
        print("FAIL shape key %r shown as %r: a tensor's dims lost" % (k, n))
check("shape keys", "every tensor's dims kept in %d keys of up to 3 tensors" % kept, kept > 10 and lost == 0, lost)
check("shape keys", "a scalar-trailing key is shortened, not cut in a dim",
      not any(re.search(r"\[[0-9,]*\.\.\.", n) for n in names if n.count("[") <= 4), names[:3])
PY

# ---- tied columns and Count in --group op at 80 ----
COLUMNS=80 "$PROFANA" --analysis "$E" bf16 --quiet --group op >"$TMP/op80" 2>/dev/null
check_grep "--group op at 80 columns keeps Count" "^Op  *| Count |" "$TMP/op80"
COLUMNS=80 "$PROFANA" --analysis "$E" bf16 --quiet --group op --format md >/dev/null 2>&1
COLUMNS=80 "$PROFANA" --analysis "$E" bf16 --quiet >"$TMP/k80" 2>/dev/null
if grep -q "| Source" "$TMP/k80"; then pass "80 columns: (Source shown)"; elif grep -q "^~dtype\|^Source:" "$TMP/k80"; then
    fail "80 columns: no Source footnote without the Source column" "$(grep '^~dtype\|^Source:' "$TMP/k80" | head -1)"
else pass "80 columns: no Source footnote without the Source column"; fi

# ---- --ranks: file names relative to their directory, named once ----
COLUMNS=80 "$PROFANA" --ranks "$M/tp_collectives_bf16_rank0.json.gz" "$M/tp_collectives_bf16_rank1.json.gz" bf16 >"$TMP/rk" 2>/dev/null
check_grep "--ranks: the common directory on the Ranks line" "traces in" "$TMP/rk"
check_grep "--ranks: the Trace column holds the file name" "^   0 | tp_collectives_bf16_rank0.json.gz |" "$TMP/rk"

# ---- the GPU time outside the step windows, against the raw events ----
F=$M/tp_collectives_bf16_rank0.json.gz
COLUMNS=200 "$PROFANA" --analysis "$F" bf16 --quiet >"$TMP/st" 2>/dev/null
python3 - "$F" "$TMP/st" <<'PY'
import re, sys
sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts, ns, check
ev = load(sys.argv[1])
steps = [e for e in ev if e.get("ph") == "X" and e.get("name", "").startswith("ProfilerStep#")]
launch = {}
for e in ev:
    if e.get("ph") == "X" and e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {}):
        launch.setdefault(e["args"]["correlation"], e)
acts = gpu_acts(ev)
total = sum(ns(a["dur"]) for a in acts)
inside = 0
for a in acts:
    r = launch.get(a["args"].get("correlation"))
    if r is not None and any(s["pid"] == r["pid"] and ns(s["ts"]) <= ns(r["ts"]) < ns(s["ts"]) + ns(s["dur"]) for s in steps):
        inside += ns(a["dur"])
out = total - inside
want = "%.2f%% of GPU time (%.3f us) runs outside the ProfilerStep windows" % (100.0 * out / total, out / 1e3)
text = open(sys.argv[2]).read()
check("outside the steps", "raw: %d of %d ns outside %d windows" % (out, total, len(steps)), out > 0 and len(steps) > 0)
check("outside the steps", "headline: " + want, want in text, text[:600])
check("outside the steps", "says how to leave it out (--step all)", "--step all counts the steps alone" in text)
PY
COLUMNS=200 "$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --quiet >"$TMP/nost" 2>/dev/null
if grep -q "^- steps:" "$TMP/nost"; then fail "no steps: no outside-steps line" "printed"; else pass "no steps: no outside-steps line"; fi

# ---- the headline's advice only where the rows it names carry figures ----
# eager_bf16's heaviest row is a GEMM kernel: its headroom finding carries a time. With the
# shapes of its aten::mm and aten::addmm calls removed (the fixture below), no gemm launch has
# FLOPs, so the finding must say its figures are unknown rather than give a time.
# gemm's share from the raw events: the kernels launched inside aten::mm and aten::addmm over
# all GPU activity (2652.356 of 5264.744 us: 50.38%)
gshare=$(python3 - "$E" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
acts = [e for e in ev if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
by_corr = {e["args"]["correlation"]: e for e in acts if e["cat"] == "kernel"}
ops = [e for e in ev if e.get("ph") == "X" and e.get("cat") == "cpu_op"]
g = 0
for r in ev:
    if r.get("ph") != "X" or r.get("cat") not in ("cuda_runtime", "cuda_driver"):
        continue
    k = by_corr.get(r.get("args", {}).get("correlation"))
    inside = [o for o in ops if k and o["tid"] == r["tid"] and o["ts"] <= r["ts"] <= o["ts"] + o["dur"]]
    if inside and min(inside, key=lambda o: o["dur"])["name"] in ("aten::mm", "aten::addmm"):
        g += k["dur"]
print("%.2f" % (100 * g / sum(e["dur"] for e in acts)))
PY
)
COLUMNS=200 "$PROFANA" --analysis "$E" bf16 --quiet >"$TMP/adv1" 2>/dev/null
check_grep "advice: gemm's rows have FLOPs ($gshare% of GPU time): the heaviest row's headroom is a time" "^- headroom: [0-9.]* us to win" "$TMP/adv1"
python3 - "$E" "$TMP/noshape.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = 0
for e in d["traceEvents"]:
    if e.get("ph") == "X" and e.get("cat") == "cpu_op" and e.get("name") in ("aten::mm", "aten::addmm"):
        for k in ("Input Dims", "Input type", "Input Strides", "Concrete Inputs"):
            n += e.get("args", {}).pop(k, None) is not None
assert n > 0
json.dump(d, open(sys.argv[2], "w"))
PY
COLUMNS=200 "$PROFANA" --analysis "$TMP/noshape.json" bf16 --quiet >"$TMP/adv2" 2>/dev/null
"$PROFANA" --analysis "$TMP/noshape.json" bf16 --quiet --group op --format json >"$TMP/adv2.json" 2>/dev/null
check_eq "advice fixture: aten::mm and aten::addmm rows without FLOPS %" \
    "$(json "sorted(set(repr(r.get('flops_pct')) for r in d['devices'][0]['rows'] if r['name'] in ('aten::mm', 'aten::addmm')))" "$TMP/adv2.json")" "['None']"
check_grep "advice: gemm still takes $gshare% (time unchanged)" "^- top categories by GPU time: gemm $gshare%" "$TMP/adv2"
if grep -q "^- headroom: [0-9.]* us to win" "$TMP/adv2"; then fail "advice: no headroom time where the heaviest row shows '-'" "$(grep '^- headroom' "$TMP/adv2")"
else pass "advice: no headroom time where the heaviest row shows '-'"; fi
check_grep "advice: says the heaviest row's figures are unknown" "^- headroom: heaviest row .*its figures are unknown" "$TMP/adv2"

# ---- notes about the trace after the headline, grouped; none on stderr in text ----
"$PROFANA" --analysis "$P/owlv2_mi300.json.gz" bf16 --quiet >"$TMP/mi.out" 2>"$TMP/mi.err"
check_eq "MI300: the undeclared-device note is not on stderr in text" "$(grep -c 'not in deviceProperties' "$TMP/mi.err")" 0
h=$(grep -n '^Headline:' "$TMP/mi.out" | head -1 | cut -d: -f1)
nn=$(grep -n '^- device 2 is not in deviceProperties' "$TMP/mi.out" | head -1 | cut -d: -f1)
nt=$(grep -n '^Notes on the trace:' "$TMP/mi.out" | head -1 | cut -d: -f1)
[ -n "$h" ] && [ -n "$nt" ] && [ -n "$nn" ] && [ "$h" -lt "$nt" ] && [ "$nt" -lt "$nn" ] &&
    pass "MI300: 'Notes on the trace' after the headline holds the device note" || fail "MI300: notes after the headline" "headline $h, notes $nt, note $nn"
"$PROFANA" --analysis "$P/owlv2_mi300.json.gz" bf16 --quiet --format json >"$TMP/mi.json" 2>"$TMP/mi.err"
check_grep "MI300 JSON: the note on stderr" "device 2 is not in deviceProperties" "$TMP/mi.err"

# ---- a vLLM execution_details.json is not a trace: exit 1, what it is, --graph-capture ----
printf '[\n  {"file": "graph_capture_rank_0.pt.trace.json.gz", "batch_size": 32, "mode": "FULL"}\n]\n' >"$TMP/execution_details.json"
check_run "execution_details.json" 1 "$PROFANA" --analysis "$TMP/execution_details.json" bf16
check_grep "execution_details.json: says what it is" "^profana: error: .*execution_details.json: byte 0: a vLLM execution_details.json" "$TMP/err"
check_grep "execution_details.json: points to --graph-capture" "graph-capture" "$TMP/err"
check_eq "execution_details.json: one error line" "$(wc -l <"$TMP/err" | tr -d ' ')" 1

# ---- CSV and JSON carry no prose; --steps --format csv starts with its header ----
"$PROFANA" --analysis "$S" bf16 --steps --format csv >"$TMP/sc" 2>/dev/null
check_eq "--steps --format csv: the first line is the header" "$(head -n 1 "$TMP/sc" | cut -d, -f1-3)" "Step,Device,Span (us)"
"$PROFANA" --analysis "$E" bf16 --steps --format csv >"$TMP/sc0" 2>"$TMP/sc0.err"
check_eq "--steps --format csv without steps: its header alone on stdout (issue 47)" "$(cut -d, -f1-3 "$TMP/sc0")" "Step,Device,Span (us)"
check_grep "--steps --format csv without steps: the message on stderr" "No ProfilerStep annotations" "$TMP/sc0.err"
for f in "$S" "$P/owlv2_mi300.json.gz"; do
    "$PROFANA" --analysis "$f" bf16 --format csv >"$TMP/c.csv" 2>/dev/null
    check_eq "$(basename "$f") CSV: starts with its header" "$(head -n 1 "$TMP/c.csv" | cut -d, -f1-2)" "Device,Kernel Name"
    if grep -q -e "^Steps:" -e "^Notes" -e "^Headline" "$TMP/c.csv"; then fail "$(basename "$f") CSV: no prose" "$(grep -e '^Steps:' -e '^Notes' "$TMP/c.csv" | head -1)"; else pass "$(basename "$f") CSV: no prose"; fi
    "$PROFANA" --analysis "$f" bf16 --format json >"$TMP/c.json" 2>/dev/null
    python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$TMP/c.json" && pass "$(basename "$f") JSON: one document" || fail "$(basename "$f") JSON: one document" "$(head -c 200 "$TMP/c.json")"
done

# ---- --combine of an H100 and an MI300 trace: every device's model known ----
"$PROFANA" --combine "$P/owlv2_h100.json.gz" "$P/owlv2_mi300.json.gz" "$TMP/comb.json" >/dev/null 2>&1
"$PROFANA" --analysis "$TMP/comb.json" bf16 --quiet >"$TMP/comb.out" 2>"$TMP/comb.err"
if grep -q "model is unknown\|unknown device" "$TMP/comb.out" "$TMP/comb.err"; then
    fail "--combine H100 + MI300: no device's model unknown" "$(grep -h 'model is unknown\|unknown device' "$TMP/comb.out" "$TMP/comb.err" | head -1)"
else pass "--combine H100 + MI300: no device's model unknown"; fi
check_grep "--combine H100 + MI300: the MI300 device matches MI300X" "^Device 18: .*matched: MI300X" "$TMP/comb.out"
"$PROFANA" --analysis "$P/owlv2_mi300.json.gz" bf16 --format json 2>/dev/null >"$TMP/m1.json"
"$PROFANA" --analysis "$TMP/comb.json" bf16 --format json 2>/dev/null >"$TMP/m2.json"
check_eq "--combine: the MI300 device's busy time is the MI300 trace's" \
    "$(json "[x['headline']['busy_us'] for x in d['devices'] if x['id'] == 18][0]" "$TMP/m2.json")" \
    "$(json "d['devices'][0]['headline']['busy_us']" "$TMP/m1.json")"
