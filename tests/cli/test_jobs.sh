# test_jobs.sh - every trace in testdata/ (and each .json.gz inflated to plain JSON, which is parsed in parallel parts) gives the same stdout, stderr and exit status at -j 1, 2, 3, 7 and 16.
. tests/cli/lib.sh
set -u

# Under valgrind (PROFANA a wrapper, no build beside it) some 400 runs would take many
# minutes; the plain and the sanitizer runs cover this file.
if ! [ -x "$(dirname "$PROFANA")/bench/gen_trace" ]; then
    echo "SKIP every trace at -j 1, 2, 3, 7, 16: $PROFANA is not a build's binary (valgrind)"
    exit 0
fi

# The sanitizer build (several times slower) runs -j 16 against -j 1: more threads than cores,
# each chunk a thread's; the plain build (make check-full) runs 2, 3, 7 and 16.
JOBS_N="2 3 7 16"
grep -q __asan_init "$PROFANA" 2>/dev/null && JOBS_N="16"

n=0
for f in $(find testdata -name '*.json' -o -name '*.json.gz' | grep -v '^testdata/reference/' | sort); do
    inputs=$f
    case $f in
    *.gz)
        plain=$TMP/plain_$(basename "$f" .gz)
        gzip -dc "$f" >"$plain" 2>/dev/null && inputs="$f $plain"
        ;;
    esac
    for in in $inputs; do
        b=$(basename "$in")
        "$PROFANA" --analysis "$in" bf16 --group op --format json --quiet -j 1 >"$TMP/o1" 2>"$TMP/e1"
        s1=$?
        bad=""
        for j in $JOBS_N; do
            "$PROFANA" --analysis "$in" bf16 --group op --format json --quiet -j "$j" >"$TMP/oj" 2>"$TMP/ej"
            sj=$?
            cmp -s "$TMP/o1" "$TMP/oj" && cmp -s "$TMP/e1" "$TMP/ej" && [ "$s1" = "$sj" ] || bad="$bad -j $j"
        done
        n=$((n + 1))
        check_eq "$b: -j $(echo "$JOBS_N" | sed 's/ /, /g') = -j 1 (stdout, stderr, status)" "$bad" ""
    done
    rm -f "$TMP"/plain_*
done
[ "$n" -ge 40 ] && pass "every trace of testdata/ ran ($n inputs)" || fail "every trace of testdata/ ran" "only $n inputs"

# A trace large enough that linking runs on several threads (64 Ki op records and more): 40
# copies of eager_bf16.json's events with shifted times and the same External ids, so that
# every id repeats and the first copy's op must win on every thread count.
python3 - "$TRACES/eager_bf16.json" "$TMP/big.json" <<'PYEOF'
import json, sys
t = json.load(open(sys.argv[1]))
ev = t["traceEvents"]
out = []
for k in range(40):
    for e in ev:
        e2 = dict(e)
        if isinstance(e2.get("ts"), (int, float)):
            e2["ts"] = e2["ts"] + k * 1e6
        out.append(e2)
t["traceEvents"] = out
json.dump(t, open(sys.argv[2], "w"))
PYEOF
"$PROFANA" --analysis "$TMP/big.json" bf16 --group op --format json --quiet -j 1 >"$TMP/o1" 2>"$TMP/e1"
bad=""
for j in 2 3 7 16; do
    "$PROFANA" --analysis "$TMP/big.json" bf16 --group op --format json --quiet -j "$j" >"$TMP/oj" 2>"$TMP/ej"
    cmp -s "$TMP/o1" "$TMP/oj" && cmp -s "$TMP/e1" "$TMP/ej" || bad="$bad -j $j"
done
check_eq "40 copies (73,560 op records) with repeated External ids: -j 2, 3, 7, 16 = -j 1" "$bad" ""
check_grep "40 copies: the repeated ids are noted" "cpu_ops repeat an earlier External id" "$TMP/e1"
