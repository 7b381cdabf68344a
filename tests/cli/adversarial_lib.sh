# adversarial_lib.sh - helpers of the hostile-input tests (test_adversarial.sh, test_output_edges.sh, test_limits.sh, test_fuzz_regress.sh): a run under a time limit that checks for signals, sanitizer findings and temporary files left; strict JSON and SVG checks.
# Sourced after tests/cli/lib.sh.
BROKEN=tests/broken
VALID=$BROKEN/valid_minimal.json
LIMIT=15 # seconds of CPU a run may take, sanitizer builds included

# limited CMD...: CMD under two limits: $LIMIT seconds of CPU time (ulimit -t: what the
# program spends itself, whatever else runs: `make check` runs two test files per core and CI
# a valgrind pass beside them, which stretched wall-clock limits past a slow run's 20 s), and
# 8 x $LIMIT of wall time against a hang that spends no CPU. Exit 124: the wall limit;
# 152 (SIGXCPU): the CPU limit.
limited() {
    (ulimit -t "$LIMIT" && exec timeout "$((LIMIT * 8))" "$@")
}

# guarded NAME WANT CMD...: runs CMD in the empty directory $TMP/w (which outputs are written
# to) under `limited`: stdout $TMP/out, stderr $TMP/err; checks the exit status, that no
# sanitizer spoke and that no temporary file is left in $TMP/w. Returns 1 when the status is wrong.
guarded() {
    g_name=$1
    g_want=$2
    shift 2
    rm -rf "$TMP/w" && mkdir "$TMP/w"
    # a file-size limit (in blocks of 512 or 1024 bytes) keeps a runaway writer off the disk
    (ulimit -f 400000 && limited "$@") >"$TMP/out" 2>"$TMP/err"
    g_st=$?
    if grep -q -e 'runtime error' -e 'Sanitizer' "$TMP/err"; then
        fail "$g_name: no sanitizer finding" "$(grep -e 'runtime error' -e 'Sanitizer' "$TMP/err" | head -n 1 | head -c 300)"
    fi
    left=$(find "$TMP/w" -name '*.tmp-*' | head -n 3)
    check_eq "$g_name: no temporary file left" "$left" ""
    if [ "$g_st" -eq 124 ] || [ "$g_st" -eq 152 ]; then
        fail "$g_name: exit $g_want" "$([ "$g_st" -eq 124 ] && echo "still running after $((LIMIT * 8)) s" || echo "more than $LIMIT s of CPU")"
        return 1
    fi
    if [ "$g_st" -ne "$g_want" ]; then
        fail "$g_name: exit $g_want" "got $g_st; stderr: $(head -c 300 "$TMP/err")"
        return 1
    fi
    pass "$g_name: exit $g_want"
}

# strict_json NAME FILE: FILE is JSON that a strict reader accepts: UTF-8, no NaN/Infinity.
strict_json() {
    if python3 -c '
import json, sys
def no(c): raise ValueError("non-finite number " + c)
json.loads(open(sys.argv[1], "rb").read().decode("utf-8"), parse_constant=no)' "$2" 2>"$TMP/pyerr"; then
        pass "$1: valid JSON"
    else
        fail "$1: valid JSON" "$(tail -n 1 "$TMP/pyerr" | head -c 300)"
    fi
}

# svg_ok NAME FILE: FILE is well-formed XML of at most 1 MB.
svg_ok() {
    if python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$2" 2>/dev/null; then
        pass "$1: well-formed"
    else
        fail "$1: well-formed" "$(head -c 200 "$2")"
    fi
    check_eq "$1: under 1 MB" "$([ "$(wc -c <"$2")" -le 1048576 ] && echo yes)" yes
}

