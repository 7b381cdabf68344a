# test_peaks.sh - no kernel, op or shape row above 100% of a peak on any trace of testdata/ and ../shared/testdata/public/ unless it is marked (cache: L2-served; ~ub: an upper bound), and no row of inferred launches without figures; read from the JSON rows by tests/cli/over_peak.py.
# check: optimised
. tests/cli/lib.sh

n=0
for f in $(sweep_traces testdata ../shared/testdata/public); do
    case $f in
    */capture_traces/* | */execution_details.json) continue ;; # graph captures: read with --graph-capture
    esac
    for g in kernel op shape; do
        n=$((n + 1))
        "$PROFANA" --analysis "$f" bf16 --group $g --format json >"$TMP/$n.json" 2>/dev/null ||
            fail "$f --group $g" "exit $?"
    done
done
check_eq "traces read (3 groupings each)" "$([ "$n" -ge 90 ] && echo yes)" yes
python3 tests/cli/over_peak.py "$TMP"/*.json >"$TMP/over"
if [ -s "$TMP/over" ]; then
    while IFS= read -r line; do fail "row above a peak unmarked, or inferred without figures" "$line"; done <"$TMP/over"
else
    pass "no row above 100% of a peak unmarked, no inferred row without figures ($n analyses)"
fi
