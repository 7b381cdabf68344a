# test_jobs.sh - every trace in testdata/ (and each .json.gz inflated to plain JSON, which is parsed in parallel parts) gives the same stdout, stderr and exit status at -j 1, 2, 3, 7 and 16.
. tests/cli/lib.sh
set -u

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
        for j in 2 3 7 16; do
            "$PROFANA" --analysis "$in" bf16 --group op --format json --quiet -j "$j" >"$TMP/oj" 2>"$TMP/ej"
            sj=$?
            cmp -s "$TMP/o1" "$TMP/oj" && cmp -s "$TMP/e1" "$TMP/ej" && [ "$s1" = "$sj" ] || bad="$bad -j $j"
        done
        n=$((n + 1))
        check_eq "$b: -j 2, 3, 7, 16 = -j 1 (stdout, stderr, status)" "$bad" ""
    done
    rm -f "$TMP"/plain_*
done
[ "$n" -ge 40 ] && pass "every trace of testdata/ ran ($n inputs)" || fail "every trace of testdata/ ran" "only $n inputs"
