# test_cut.sh - every testdata trace cut at 20 pseudo-random offsets: never a crash; a warning and exit 0, or one error line and exit 1; --strict always exit 1.
. tests/cli/lib.sh
set -u

CUTS=${PF_SWEEP_ALL:+20}
CUTS=${CUTS:-5} # 20 in `make check-full`
STRICT=${PF_SWEEP_ALL:+5}
STRICT=${STRICT:-3} # of them also with --strict

# offsets FILE N: N offsets in [1, size-1], the same on every run (seeded by the size).
offsets() {
    awk -v size="$(wc -c <"$1")" -v n="$2" 'BEGIN { srand(size); for (i = 0; i < n; i++) print 1 + int(rand() * (size - 1)) }'
}

# check_cut NAME FILE SIZE STRICT: the last run on FILE (SIZE bytes) ended as documented.
check_cut() {
    if [ "$status" -ge 128 ] || grep -q -e 'runtime error' -e 'Sanitizer' "$TMP/err"; then
        fail "$1: no crash" "status $status: $(grep -m 1 -e 'ERROR' -e 'runtime error' -e '^profana' "$TMP/err" | head -c 300)"
        return
    fi
    if [ "$status" -eq 1 ]; then
        line=$(head -n 1 "$TMP/err")
        n=$(printf '%s\n' "$line" | sed -n "s|^profana: error: $2: byte \\([0-9]*\\): .*|\\1|p")
        if [ "$(wc -l <"$TMP/err" | tr -d ' ')" -eq 1 ] && [ ! -s "$TMP/out" ] && [ -n "$n" ] && [ "$n" -le "$3" ]; then
            pass "$1: one error line with a byte offset within the file"
        else
            fail "$1: one error line with a byte offset within the file" "$(head -c 300 "$TMP/err")"
        fi
    elif [ "$status" -eq 0 ] && [ "$4" = 0 ]; then
        n=$(sed -n "s|^profana: warning: $2: byte \\([0-9]*\\): .*|\\1|p" "$TMP/err" | head -n 1)
        if [ -n "$n" ] && [ "$n" -le "$3" ]; then
            pass "$1: a warning with a byte offset within the file"
        else
            fail "$1: a warning with a byte offset within the file" "$(head -c 300 "$TMP/err")"
        fi
    else
        fail "$1: exit 1, or 0 with a warning" "exit $status (strict $4): $(head -c 300 "$TMP/err")"
    fi
}

for f in "$TRACES"/*.json; do
    base=$(basename "$f" .json)
    i=0
    for at in $(offsets "$f" "$CUTS"); do
        head -c "$at" "$f" >"$TMP/cut.json"
        "$PROFANA" --analysis "$TMP/cut.json" bf16 >"$TMP/out" 2>"$TMP/err" </dev/null
        status=$?
        check_cut "$base cut at $at" "$TMP/cut.json" "$at" 0
        if [ "$i" -lt "$STRICT" ]; then
            "$PROFANA" --analysis "$TMP/cut.json" bf16 --strict >"$TMP/out" 2>"$TMP/err" </dev/null
            status=$?
            check_cut "$base cut at $at --strict" "$TMP/cut.json" "$at" 1
        fi
        i=$((i + 1))
    done
done
