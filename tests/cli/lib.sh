# lib.sh - helpers for the CLI tests: run the binary, compare figures, print PASS/FAIL lines.
# Sourced by tests/cli/test_*.sh with $PROFANA set to the binary under test.
: "${PROFANA:=./profana}"
# Text output fits $COLUMNS: tests see the width of a pipe (120) unless they set it.
unset COLUMNS
TRACES=testdata/traces
REFS=testdata/reference
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1 ($2)"; }

# run_oracle [-i FILE] SCRIPT ARG...: `python3 SCRIPT ARG... [<FILE]`, whose verdict (stdout, exit
# status) is kept in $PF_ORACLE_CACHE (tests/run.sh makes one per suite) under a key of the bytes
# of SCRIPT, of tests/cli/*.py (what it imports), of every argument (the contents of one naming a
# file, so temporary paths do not matter) and of FILE. The passes of `make check` feed an oracle
# the same trace and, where profana agrees with itself across builds, the same output: the
# second pass reads the first's verdict instead of parsing the trace again. A byte of
# difference anywhere is another key, so the oracle runs. Without PF_ORACLE_CACHE it just runs.
run_oracle() {
    o_in=/dev/null
    if [ "$1" = -i ]; then
        o_in=$2
        shift 2
    fi
    if [ -z "${PF_ORACLE_CACHE:-}" ] || [ ! -d "$PF_ORACLE_CACHE" ]; then
        python3 "$@" <"$o_in"
        return
    fi
    o_key=$({
        cat tests/cli/*.py "$o_in"
        for o_a in "$@"; do
            if [ -f "$o_a" ]; then printf '\nfile %s\n' "$(wc -c <"$o_a")" && cat "$o_a"; else printf '\narg %s\n' "$o_a"; fi
        done
    } | md5sum | cut -c1-32)
    o_c=$PF_ORACLE_CACHE/$o_key
    if [ ! -f "$o_c.rc" ]; then
        python3 "$@" <"$o_in" >"$o_c.out.$$"
        echo $? >"$o_c.rc.$$"
        mv "$o_c.out.$$" "$o_c.out" && mv "$o_c.rc.$$" "$o_c.rc"
    fi
    cat "$o_c.out"
    return "$(cat "$o_c.rc")"
}

# TraceLens' Owlv2 pair (55 and 61 MB of JSON): swept by `make check-full` (which sets
# PF_SWEEP_ALL for every build; PF_CHECK_FULL, run.sh --full's, counts too), left out of `make
# check`'s sweeps as sweep_traces leaves out every trace above 4 MB.
PF_SWEEP_ALL=${PF_SWEEP_ALL:-${PF_CHECK_FULL:-}}
if [ -n "$PF_SWEEP_ALL" ]; then PEER_TRACES="testdata/peer/owlv2_h100.json.gz testdata/peer/owlv2_mi300.json.gz"; else PEER_TRACES=""; fi

# sweep_traces [DIR...]: the trace files (.json, .json.gz) under each DIR (by default testdata/
# and ../shared's public and multi-rank traces, where present), sorted, testdata/ first; a file
# whose bytes equal an earlier one's is left out (../shared keeps copies of some testdata/
# traces), and so are the device files and vLLM's execution_details.json. Without PF_SWEEP_ALL
# (`make check`) a trace above PF_SWEEP_MAX_MB (4) MB of JSON is left out too: Python's
# json.load takes about 2 s a 60 MB trace, and a sweep runs its oracle on every trace; `make
# check-full` sweeps them all (docs/reliability.md, "How it is checked").
sweep_traces() {
    [ $# -gt 0 ] || set -- testdata ../shared/testdata/public ../shared/testdata/multirank
    s_max=$((${PF_SWEEP_MAX_MB:-4} * 1048576))
    for s_d in "$@"; do
        [ -d "$s_d" ] && find "$s_d" \( -name '*.json' -o -name '*.json.gz' \) | sort
    done | grep -v -e '^testdata/devices/' -e 'execution_details\.json$' | while read -r s_f; do
        if [ -z "$PF_SWEEP_ALL" ]; then
            case $s_f in
            *.gz) s_n=$(gzip -l "$s_f" | awk 'NR == 2 { print $2 }') ;;
            *) s_n=$(wc -c <"$s_f") ;;
            esac
            [ "$s_n" -le "$s_max" ] || continue
        fi
        printf '%s %s\n' "$(md5sum <"$s_f" | cut -c1-32)" "$s_f"
    done | awk '!seen[$1]++ { print $2 }'
}

# check_eq NAME GOT WANT
check_eq() {
    if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got '$2', want '$3'"; fi
}

# check_near NAME GOT WANT RELTOL: |got - want| <= reltol * |want|
check_near() {
    if awk -v g="$2" -v w="$3" -v r="$4" 'BEGIN { d = g - w; if (d < 0) d = -d; a = w < 0 ? -w : w; exit !(g != "" && d <= r * a) }'; then
        pass "$1"
    else
        fail "$1" "got '$2', want '$3' within $4"
    fi
}

# check_run NAME WANT_STATUS CMD...: runs CMD, output in $TMP/out, $TMP/err
check_run() {
    name=$1
    want=$2
    shift 2
    "$@" >"$TMP/out" 2>"$TMP/err"
    st=$?
    if [ "$st" -eq "$want" ]; then pass "$name: exit $want"; else fail "$name: exit" "got $st, want $want; stderr: $(head -c 300 "$TMP/err")"; fi
}

# check_grep NAME PATTERN FILE
check_grep() {
    if grep -q -- "$2" "$3"; then pass "$1"; else fail "$1" "no '$2' in $(basename "$3"): $(head -c 300 "$3")"; fi
}

# json EXPR FILE: evaluates a Python expression on the parsed JSON document `d`.
json() {
    python3 -c "import json,sys; d=json.load(open(sys.argv[2])); v=eval(sys.argv[1]); print(v if not isinstance(v,float) else repr(v))" "$1" "$2"
}

# text_overlaps FILE SCOPE: in headless Chromium ($CHROMIUM, default /usr/bin/chromium), the
# <text> elements of FILE (an SVG chart, or an HTML page with charts inline) that overlap by
# the browser's bounding boxes, two texts being compared when they lie in one element matched
# by the CSS selector SCOPE (texts inside a "g.plot" or turned by a transform left out):
# prints "A / B; ..." or "none" (nothing when Chromium gave no page).
text_overlaps() {
    t_js='<script>var o = [];document.querySelectorAll("'"$2"'").forEach(function (p) {var r = [];p.querySelectorAll("text").forEach(function (t) { if (!t.closest("g.plot") && !t.getAttribute("transform")) r.push([t.textContent, t.getBoundingClientRect()]); });for (var i = 0; i < r.length; i++) for (var j = 0; j < i; j++) { var a = r[i][1], b = r[j][1]; if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) o.push(r[i][0] + " / " + r[j][0]); }});document.body.setAttribute("data-overlaps", o.join("; ") || "none");</script>'
    case $1 in
    *.svg) { printf '<!DOCTYPE html><html><body>'; sed '1{/^<?xml/d}' "$1"; printf '%s</body></html>' "$t_js"; } >"$TMP/overlaps.html" ;;
    *) awk -v js="$t_js" '{ i = index($0, "</body>"); if (i) { print substr($0, 1, i - 1) js substr($0, i) } else print }' "$1" >"$TMP/overlaps.html" ;;
    esac
    timeout 120 "${CHROMIUM:-/usr/bin/chromium}" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --user-data-dir="$TMP/chromium" --window-size=1400,1600 --dump-dom "file://$(cd "$TMP" && pwd)/overlaps.html" \
        2>>"$TMP/chromium.log" | sed -n 's/.*data-overlaps="\([^"]*\)".*/\1/p'
}
