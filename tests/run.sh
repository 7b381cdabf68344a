#!/bin/sh
# run.sh - runs the C unit tests and the CLI tests against each build directory given, prints "N passed, N failed".
# Each test prints lines "PASS name" / "FAIL name (why)"; a test program that exits non-zero
# without a FAIL line counts as one failure, so a crash is never silent.
cd "$(dirname "$0")/.." || exit 2
pass=0
fail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

tally() { # $1 = label, $2 = exit status; reads the test's output from $log
    p=$(grep -c '^PASS ' "$log")
    f=$(grep -c '^FAIL ' "$log")
    grep '^FAIL ' "$log" | sed "s|^|  $1: |"
    if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "  $1: FAIL exited with status $2"
        tail -n 5 "$log" | sed "s|^|    |"
        f=1
    fi
    printf '%-44s %4d passed, %d failed\n' "$1" "$p" "$f"
    pass=$((pass + p))
    fail=$((fail + f))
}

for build in "$@"; do
    for t in "$build"/tests/test_*; do
        [ -x "$t" ] || continue
        "$t" >"$log" 2>&1
        tally "$build/$(basename "$t")" $?
    done
    for t in tests/cli/test_*.sh; do
        PROFANA="$build/profana" sh "$t" >"$log" 2>&1
        tally "$build/$(basename "$t")" $?
    done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
