# test_handler_torch.sh - profana.trace_handler (python/profana) on a real torch.profiler.profile, not a stand-in (issue 46): Debian's python3-torch (CPU only; .ci/run installs it) runs tools/run_handler.py, a schedule of 2 active steps repeated twice: 2 calls, each writing the trace, its document and its summary; the document equals `profana --analysis` of the trace run directly, the summary is one --ranks reads, and a trace without GPU activity gives one line and no metric. Only in `make check-full` (PF_CHECK_FULL=1): the test fails, never skips, where torch is missing.
. tests/cli/lib.sh

[ "${PF_CHECK_FULL:-}" = 1 ] || exit 0
if ! python3 -c 'import torch' 2>"$TMP/torch.err"; then
    fail "handler with torch: import torch" "$(tail -1 "$TMP/torch.err") (apt-get install python3-torch)"
    exit 0
fi
# the run is in $TMP: the binary's path made absolute (tests/run.sh passes build/profana)
case $PROFANA in /*) BIN=$PROFANA ;; *) BIN=$PWD/$PROFANA ;; esac
(cd "$TMP" && PYTHONPATH="$OLDPWD/python" PROFANA_BINARY="$BIN" python3 "$OLDPWD/tools/run_handler.py" "$TMP/run") >"$TMP/run.out" 2>&1
check_eq "handler with torch: tools/run_handler.py exits 0" "$?" 0
check_eq "handler with torch: 2 calls (schedule active=2, repeat=2)" "$(grep '^handler calls:' "$TMP/run.out")" "handler calls: 2"
n=$(ls "$TMP/run/traces" | grep -c '\.pt\.trace\.json\.gz$')
check_eq "handler with torch: 2 traces written (.pt.trace.json.gz)" "$n" 2
for t in "$TMP"/run/traces/*.pt.trace.json.gz; do
    b=${t%.json.gz}
    [ -s "$b.profana.json" ] && [ -s "$b.summary.json" ] && pass "handler with torch: $(basename "$b"): document and summary beside the trace" ||
        fail "handler with torch: $(basename "$b"): document and summary beside the trace" "$(ls "$TMP/run/traces")"
    "$PROFANA" --analysis "$t" fp32 --group kernel --quiet --format json >"$TMP/direct.json" 2>/dev/null
    check_eq "handler with torch: $(basename "$b"): its document is --analysis of the trace" \
        "$(python3 -c 'import json, sys; a, b = (json.load(open(f)) for f in sys.argv[1:]); a.pop("trace"); b.pop("trace"); print(a == b)' "$b.profana.json" "$TMP/direct.json")" True
    check_run "handler with torch: $(basename "$b"): --ranks reads its summary" 0 "$PROFANA" --ranks "$b.summary.json" fp32 --format json
done
# a CPU-only torch records no GPU activity: the handler says so, returns no metric
if python3 -c 'import torch, sys; sys.exit(torch.cuda.is_available())'; then
    check_eq "handler with torch (CPU): one line a trace, no GPU activity" "$(grep -c 'no GPU activity' "$TMP/run.out")" 2
    check_eq "handler with torch (CPU): no metric" "$(grep '^last metrics:' "$TMP/run.out")" "last metrics: {}"
fi
