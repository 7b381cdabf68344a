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
