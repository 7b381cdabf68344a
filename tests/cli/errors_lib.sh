# errors_lib.sh - helpers of the error tests (test_errors.sh, test_broken.sh): run profana, check its exit status, its one error line, that it did not crash, and what an accepted broken trace prints.
# Sourced after tests/cli/lib.sh.

BROKEN=tests/broken
GOOD=$TRACES/explicit_bf16.json
VALID=$BROKEN/valid_minimal.json
DTYPES="bf16 fp16 fp32 fp64 fp8 int8 bfloat16 float16 half float32 float float64 double"


# run ARGS...: runs profana (stdin from /dev/null unless redirected by the caller);
# stdout in $TMP/out, stderr in $TMP/err, exit status in $status.
run() {
    "$PROFANA" "$@" >"$TMP/out" 2>"$TMP/err"
    status=$?
}

# run_stdin FILE ARGS...: like run, with FILE on standard input.
run_stdin() {
    in=$1
    shift
    "$PROFANA" "$@" <"$in" >"$TMP/out" 2>"$TMP/err"
    status=$?
}

# check_has NAME TEXT FILE: FILE contains the fixed string TEXT.
check_has() {
    if grep -F -q -e "$2" "$3"; then pass "$1"; else fail "$1" "no '$2' in $(basename "$3"): $(head -c 300 "$3")"; fi
}

# check_no_crash NAME: the last run neither died of a signal nor tripped a sanitizer;
# returns 1 after a crash, so that callers skip the checks a crash makes meaningless.
check_no_crash() {
    if [ "$status" -ge 128 ]; then
        fail "$1: no crash" "status $status; stderr: $(head -c 300 "$TMP/err")"
        return 1
    fi
    if grep -q -e 'runtime error' -e 'AddressSanitizer' -e 'LeakSanitizer' "$TMP/err"; then
        fail "$1: no crash" "sanitizer: $(grep -e 'runtime error' -e 'Sanitizer' "$TMP/err" | head -n 1 | head -c 300)"
        return 1
    fi
    pass "$1: no crash"
}

# check_status NAME WANT: the last run did not crash and exited with WANT (returns 1 after a crash).
check_status() {
    check_no_crash "$1" || return 1
    check_eq "$1: exit" "$status" "$2"
}

# check_error_line NAME PATH: the last run failed the documented way: empty stdout, one
# stderr line "profana: error: PATH: byte N: ..." (a parse error names where it stopped;
# a gzip error says "compressed byte N").
check_error_line() {
    check_eq "$1: stdout empty" "$(wc -c <"$TMP/out" | tr -d ' ')" 0
    check_eq "$1: one stderr line" "$(wc -l <"$TMP/err" | tr -d ' ')" 1
    line=$(head -n 1 "$TMP/err")
    case $line in
    "profana: error: $2: byte "[0-9]* | "profana: error: $2: compressed byte "[0-9]*)
        pass "$1: 'profana: error: $2: byte N:' prefix" ;;
    *) fail "$1: 'profana: error: $2: byte N:' prefix" "got '$(printf '%s' "$line" | head -c 300)'" ;;
    esac
}

# check_no_negative NAME: an accepted run prints no negative figure (times, counts, rates).
check_no_negative() {
    if grep -E -q '(^|[ |,:])-[0-9]' "$TMP/out"; then
        fail "$1: no negative figure" "$(grep -E '(^|[ |,:])-[0-9]' "$TMP/out" | head -n 1 | head -c 300)"
    else
        pass "$1: no negative figure"
    fi
}

# check_trace NAME FILE WANT_STATUS MESSAGE: --analysis FILE bf16 exits WANT_STATUS with
# MESSAGE ('-' for none required) on stderr, or (a note about the trace) in text's "Notes on
# the trace" after the headline; a failure is one error line, a success also writes
# well-formed JSON with --format json, the note then on stderr.
check_trace() {
    run --analysis "$2" bf16 </dev/null
    check_status "$1" "$3" || return
    cat "$TMP/out" "$TMP/err" >"$TMP/said"
    [ "$4" = - ] || check_has "$1: stderr or the text's notes have '$4'" "$4" "$TMP/said"
    if [ "$3" -eq 0 ] && [ "$4" != - ]; then
        run --analysis "$2" bf16 --format json </dev/null
        check_has "$1 --format json: stderr has '$4'" "$4" "$TMP/err"
    fi
    if [ "$3" -ne 0 ]; then
        check_error_line "$1" "$2"
        return
    fi
    check_no_negative "$1"
    run --analysis "$2" bf16 --format json </dev/null
    check_status "$1 --format json" 0 || return
    json_later "$1 --format json: parses" "$TMP/out"
}

# check_json NAME FILE EXPR: EXPR (Python, on the --format json document d) is true.
check_json() {
    run --analysis "$BROKEN/$2" bf16 --format json </dev/null
    check_status "$1" 0 || return
    json_later "$1" "$TMP/out" "$3"
}

# json_later NAME FILE [EXPR]: FILE is JSON (and EXPR, Python on the document d, is true),
# checked by json_flush with the others in one python3 run: a hundred interpreters cost more
# than all the runs of profana they check.
json_n=0
json_later() {
    json_n=$((json_n + 1))
    mkdir -p "$TMP/jsonq"
    cp "$2" "$TMP/jsonq/$json_n.json"
    printf '%s' "$1" >"$TMP/jsonq/$json_n.name"
    printf '%s' "${3:-}" >"$TMP/jsonq/$json_n.expr"
}

# json_flush: the PASS or FAIL line of each json_later, in order (at the end of a test file).
json_flush() {
    [ "$json_n" -gt 0 ] || return 0
    python3 - "$TMP/jsonq" "$json_n" <<'PY'
import json, sys
q, n = sys.argv[1], int(sys.argv[2])
for i in range(1, n + 1):
    name = open("%s/%d.name" % (q, i), encoding="utf-8").read()
    expr = open("%s/%d.expr" % (q, i), encoding="utf-8").read()
    text = open("%s/%d.json" % (q, i), encoding="utf-8", errors="replace").read()
    try:
        d = json.loads(text)
    except ValueError:
        print("FAIL %s (%s)" % (name, text[:300] if not expr else "not JSON: " + text[:300]))
        continue
    if not expr:
        print("PASS " + name)
        continue
    try:
        v = eval(expr)
    except Exception as e:
        v = "%s: %s" % (type(e).__name__, e)
    print("PASS " + name if v is True else "FAIL %s (got '%s', want 'True')" % (name, v))
PY
    json_n=0
    rm -rf "$TMP/jsonq"
}

# check_same_table FIXTURE: its text output is the same as the valid trace's.
check_same_table() {
    run --analysis "$VALID" bf16 </dev/null
    cp "$TMP/out" "$TMP/want"
    run --analysis "$BROKEN/$1" bf16 </dev/null
    check_status "$1" 0 || return
    # the broken trace's notes (what was skipped) are its own: the tables are compared
    sed -i '/^Notes on the trace:$/,/^$/d' "$TMP/out" "$TMP/want"
    if cmp -s "$TMP/out" "$TMP/want"; then pass "$1: same table as valid_minimal.json"; else fail "$1: same table as valid_minimal.json" "$(diff "$TMP/want" "$TMP/out" | head -c 300)"; fi
}

# Usage errors (exit 2) are rows of tests/cli/usage_errors.tsv, run by tests/cli/test_usage.sh.

# repeat STRING N: prints STRING N times (by doubling: fast for megabytes).
repeat() {
    r_s=$1
    r_n=$2
    r_out=
    while [ "$r_n" -gt 0 ]; do
        [ $((r_n % 2)) -eq 1 ] && r_out=$r_out$r_s
        r_s=$r_s$r_s
        r_n=$((r_n / 2))
    done
    printf '%s' "$r_out"
}
