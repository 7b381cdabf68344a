# test_usage.sh - every refusal of a command line, as data: each row of tests/cli/usage_errors.tsv
# check: valgrind
# (arguments, exit status, message) runs once; it must exit with that status, print nothing on
# stdout, print exactly the message as the first line of stderr (a shell pattern: * and ?
# match anything, \ quotes them and [), then, for a usage error (2), only the hint
# "Try 'profana --help'."; and it must write nothing: the scratch directory @OUT stays empty and
# the file @KEEP keeps its one line "previous".
# Words of the arguments are split at spaces (no globbing; "(none)": no arguments); in them and
# in the message, @TRACES,
# @RUNS and @MULTI stand for testdata/traces, testdata/runs and testdata/multirank, @OUT for an
# empty scratch directory and @KEEP for a file that must stay as it was. Standard input is empty.
. "$(dirname "$0")/lib.sh"

TABLE=${USAGE_TABLE:-tests/cli/usage_errors.tsv}
OUT=$TMP/out.d
KEEP=$TMP/keep

expand() {
    printf '%s' "$1" | sed -e "s#@TRACES#testdata/traces#g; s#@RUNS#testdata/runs#g; s#@MULTI#testdata/multirank#g" \
        -e "s#@OUT#$OUT#g; s#@KEEP#$KEEP#g"
}

set -f
rows=0
tab=$(printf '\t')
while IFS="$tab" read -r args status message; do
    case $args in '' | '#'*) continue ;; esac
    rows=$((rows + 1))
    name="usage: $args"
    [ "$args" = "(none)" ] && args=
    if [ -z "$status" ] || [ -z "$message" ]; then
        fail "$name" "row $rows: wants arguments, a status and a message, tab-separated"
        continue
    fi
    rm -rf "$OUT" && mkdir "$OUT" && echo previous >"$KEEP"
    # shellcheck disable=SC2046 # the words of a row are split on purpose
    "$PROFANA" $(expand "$args") </dev/null >"$TMP/stdout" 2>"$TMP/stderr"
    st=$?
    want=$(expand "$message")
    first=$(sed -n 1p "$TMP/stderr")
    rest=$(sed 1d "$TMP/stderr")
    problem=
    [ "$st" = "$status" ] || problem="exit $st, want $status"
    [ -z "$problem" ] && [ -s "$TMP/stdout" ] && problem="stdout not empty: $(head -c 200 "$TMP/stdout")"
    # shellcheck disable=SC2254 # the message is a pattern
    [ -z "$problem" ] && case $first in $want) ;; *) problem="first stderr line '$first', want '$want'" ;; esac
    [ -z "$problem" ] && [ "$status" = 2 ] && [ "$rest" != "Try 'profana --help'." ] && problem="after the message: '$rest', want the --help hint alone"
    [ -z "$problem" ] && [ -n "$(ls -A "$OUT")" ] && problem="wrote $(ls -A "$OUT" | head -3 | tr '\n' ' ')"
    [ -z "$problem" ] && [ "$(cat "$KEEP")" != previous ] && problem="changed @KEEP"
    if [ -z "$problem" ]; then pass "$name"; else fail "$name" "$problem"; fi
done <"$TABLE"
# a table that stopped being read (a bad path, a lost tab) must not pass as a short run
[ "$rows" -ge 60 ] && pass "usage: the table's $rows rows ran" || fail "usage: the table's rows ran" "only $rows"
