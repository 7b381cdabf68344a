# test_width.sh - text output fits the width: $COLUMNS, the terminal's (tmux at 100 columns), else 100; --wide, --columns, --name_limit; the short names of one table are distinct kernels (against the raw events read by python3).
# check: optimised
. tests/cli/lib.sh
set -u
E=$TRACES/eager_bf16.json

# widest LABEL FILE: the longest line of FILE in characters (python3 counts UTF-8 as characters)
widest() { python3 -c "import sys; print(max([len(l.rstrip('\n')) for l in open(sys.argv[1], encoding='utf-8')] or [0]))" "$1"; }

# fits NAME WIDTH FILE
fits() {
    w=$(widest "$3")
    if [ "$w" -le "$2" ]; then pass "$1: widest line $w <= $2"; else fail "$1" "a line of $w characters, more than $2: $(awk -v m="$2" 'length($0) > m { print; exit }' "$3")"; fi
}

# --- --analysis, each grouping (and --by-category), every trace: at most 80 with COLUMNS=80, 100 without ---
for f in $TRACES/*.json testdata/w2026/*.json.gz; do
    [ -f "$f" ] || continue
    b=$(basename "$f")
    for g in kernel op shape; do
        COLUMNS=80 "$PROFANA" --analysis "$f" bf16 --quiet --group "$g" --by-category >"$TMP/o80" 2>/dev/null
        fits "$b --group $g, COLUMNS=80" 80 "$TMP/o80"
        env -u COLUMNS "$PROFANA" --analysis "$f" bf16 --quiet --group "$g" >"$TMP/o100" 2>/dev/null
        fits "$b --group $g, no COLUMNS, not a terminal" 100 "$TMP/o100"
    done
done
COLUMNS=100 "$PROFANA" --analysis "$TRACES/steps_bf16.json" bf16 --quiet --steps >"$TMP/o" 2>/dev/null
fits "steps_bf16.json --steps, COLUMNS=100" 100 "$TMP/o"

# --- --diff: one run a side (each grouping) and several (interval and verdict columns) ---
P8=$TRACES/compiled_pair_b8.json
P16=$TRACES/compiled_pair_b16.json
for g in kernel op shape; do
    COLUMNS=100 "$PROFANA" --diff "$E" eager "$TRACES/compiled_bf16_b8.json" compiled bf16 --quiet --group "$g" >"$TMP/d100" 2>/dev/null
    fits "--diff eager vs compiled --group $g, COLUMNS=100" 100 "$TMP/d100"
    env -u COLUMNS "$PROFANA" --diff "$P8" batch8 "$P16" batch16 bf16 --quiet --group "$g" >"$TMP/d100" 2>/dev/null
    fits "--diff b8 vs b16 --group $g, no COLUMNS" 100 "$TMP/d100"
done
R=testdata/runs
COLUMNS=100 "$PROFANA" --diff "$R/base_run1.json.gz,$R/base_run2.json.gz,$R/base_run3.json.gz" base \
    "$R/changed_run1.json.gz,$R/changed_run2.json.gz,$R/changed_run3.json.gz" changed bf16 --quiet >"$TMP/d" 2>/dev/null
fits "--diff over three runs a side, COLUMNS=100" 100 "$TMP/d"
check_grep "--diff over three runs: the Verdict column fits at 100" "Verdict" "$TMP/d"
COLUMNS=60 "$PROFANA" --analysis "$E" bf16 --quiet >"$TMP/o" 2>/dev/null
fits "COLUMNS=60: narrower still" 60 "$TMP/o"

# --- the default kernel table of eager_bf16.json: no two rows read the same, and they are the
# trace's distinct kernels: as many rows as raw names, each row's time one raw name's time ---
for cols in 100 120; do
    COLUMNS=$cols "$PROFANA" --analysis "$E" bf16 --quiet >"$TMP/k"
    python3 - "$E" "$TMP/k" "$cols" <<'PY'
import sys
sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts, ns, check
path, out, cols = sys.argv[1:]
lines = open(out).read().split("\n")
head = next(i for i, l in enumerate(lines) if l.startswith("Kernel Name"))
title = [c.strip() for c in lines[head].split(" | ")]
rows = []
for l in lines[head + 2:]:
    if " | " not in l:
        break
    rows.append([c.strip() for c in l.split(" | ")])
body = [r for r in rows if r[0] != "Total"]
names = [r[0] for r in body]
name = "COLUMNS=%s kernel table" % cols
check(name, "no two rows show the same name", len(set(names)) == len(names),
      [n for n in names if names.count(n) > 1])
per = {}
for e in gpu_acts(load(path)):
    per[e["name"]] = per.get(e["name"], 0) + ns(e["dur"])
check(name, "one row per raw kernel name (%d)" % len(per), len(body) == len(per), "%d rows" % len(body))
ti = title.index("Total (us)")
got = sorted(round(float(r[ti]), 3) for r in body)
want = sorted(round(v / 1e3, 3) for v in per.values())
check(name, "each row's Total is one raw name's summed time", got == want, (got, want))
PY
done

# --- --wide: every column text has, titled as the README lists them; no width limit ---
"$PROFANA" --analysis "$E" bf16 --quiet --wide >"$TMP/w"
hdr=$(grep '^Kernel Name' "$TMP/w" | sed 's/  */ /g')
check_eq "--wide: every column of --group kernel" "$hdr" "Kernel Name | Category | Count | Total (us) | Mean (us) | Time % | GFLOP | GB | TFLOP/s | GB/s | FLOPS % | BW % | Bound | Source"
"$PROFANA" --analysis "$E" bf16 --quiet --wide --group op >"$TMP/w"
hdr="| $(grep '^Op ' "$TMP/w" | head -n 1 | sed 's/  */ /g') |"
for c in "Op" "Category" "Count" "Launches" "Total (us)" "Mean (us)" "Time %" "GFLOP" "GB" "TFLOP/s" "GB/s" "FLOPS %" "BW %" "Bound" "Source" "Calls" "CPU Total (us)" "Self CPU (us)"; do
    case $hdr in
    *"| $c |"*) pass "--wide --group op: column '$c'" ;;
    *) fail "--wide --group op: column '$c'" "header: $hdr" ;;
    esac
done
w=$(widest "$TMP/w")
[ "$w" -gt 120 ] && pass "--wide: no width limit ($w characters)" || fail "--wide: no width limit" "widest line $w"
"$PROFANA" --diff "$P8" a "$P16" b bf16 --quiet --wide >"$TMP/w"
check_eq "--diff --wide: every column" "$(grep '^Kernel Name' "$TMP/w" | sed 's/  */ /g')" "Kernel Name | a Count | a Mean (us) | a Total (us) | b Count | b Mean (us) | b Total (us) | B/A | Delta (us) | a TFLOP/s | a GB/s | b TFLOP/s | b GB/s | Match"

# --- --columns: the named columns (in the table's order), the name column always ---
COLUMNS=100 "$PROFANA" --analysis "$E" bf16 --quiet --columns pct,total_us,gflop >"$TMP/c"
check_eq "--columns pct,total_us,gflop" "$(grep '^Kernel Name' "$TMP/c" | sed 's/  */ /g')" "Kernel Name | Total (us) | Time % | GFLOP"
"$PROFANA" --diff "$P8" a "$P16" b bf16 --quiet --columns ratio,b_total_us >"$TMP/c"
check_eq "--diff --columns ratio,b_total_us" "$(grep '^Kernel Name' "$TMP/c" | sed 's/  */ /g')" "Kernel Name | b Total (us) | B/A"
"$PROFANA" --analysis "$E" bf16 --quiet --columns total_us --format md >"$TMP/c"
check_eq "--columns in Markdown" "$(grep '^| Kernel Name' "$TMP/c" | sed 's/  */ /g')" "| Kernel Name | Total (us) |"
check_run "--columns calls with --group op" 0 "$PROFANA" --analysis "$E" bf16 --columns calls --group op

# --- Markdown carries every column; CSV and JSON whole names ---
"$PROFANA" --analysis "$E" bf16 --quiet --format md >"$TMP/m"
check_grep "Markdown: every column (Category, GFLOP, Bound)" "^| Kernel Name .*| Category .*| GFLOP .*| Bound" "$TMP/m"
"$PROFANA" --analysis "$E" bf16 --quiet --format csv >"$TMP/csv"
check_grep "CSV: whole names" "void at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::BFloat16>" "$TMP/csv"

# --- --name_limit cuts further: every name at most 20 characters ---
"$PROFANA" --analysis "$E" bf16 --quiet --name_limit 20 >"$TMP/n"
longest=$(awk -F' [|] ' '/^Kernel Name/ { on = 1; getline; next } on && NF > 1 { n = length($1); sub(/ +$/, "", $1); if (length($1) > m) m = length($1) } on && NF <= 1 { exit } END { print m }' "$TMP/n")
[ "$longest" -le 20 ] && pass "--name_limit 20: names of at most 20 characters ($longest)" || fail "--name_limit 20" "a name of $longest"

# --- a real terminal: tmux at 100 columns, the screen read back ---
if command -v tmux >/dev/null 2>&1; then
    S=profana_width_$$
    abs=$(cd "$(dirname "$PROFANA")" && pwd)/$(basename "$PROFANA")
    # no COLUMNS in its environment: the width comes from the terminal (TIOCGWINSZ)
    tmux -L "$S" new-session -d -x 100 -y 50 -s "$S" "env -u COLUMNS '$abs' --analysis '$E' bf16 --quiet --top 8 ; echo done-$$; sleep 30"
    i=0
    while [ $i -lt 50 ] && ! tmux -L "$S" capture-pane -p -t "$S" 2>/dev/null | grep -q "done-$$"; do
        sleep 0.2
        i=$((i + 1))
    done
    tmux -L "$S" capture-pane -p -J -t "$S" >"$TMP/screen" 2>/dev/null
    tmux -L "$S" kill-server 2>/dev/null
    check_grep "tmux: the command finished" "done-$$" "$TMP/screen"
    fits "tmux at 100 columns: every screen line (joined where wrapped)" 100 "$TMP/screen"
    check_grep "tmux: the table's header on one line" "^Kernel Name  *| Total (us) | Time % | .* | Source$" "$TMP/screen"
    n=$(awk '/^Kernel Name/ { on = 1; next } on && /^-+$/ { next } on && / [|] / { n++ } on && !/ [|] / { exit } END { print n + 0 }' "$TMP/screen")
    check_eq "tmux: the table intact (8 rows and Total, each on one line)" "$n" 9
else
    echo "SKIP tmux test: tmux is not installed (tests/deps.sh test installs it)"
fi
