# test_fuzz_regress.sh - replays the fuzzers' past findings (tests/fuzz/regress/) and an input across the loader's 64 KB parts through the commands the fuzz targets drive: no signal, no sanitizer finding, no hang, exit 0 or 1.
. tests/cli/lib.sh
set -u
. tests/cli/adversarial_lib.sh

# replay NAME CMD...: CMD under the time limit; exit 0 or 1, nothing from a sanitizer
replay() {
    r_name=$1
    shift
    (ulimit -f 400000 && exec timeout "$LIMIT" "$@") >/dev/null 2>"$TMP/err"
    r_st=$?
    if grep -q -e 'runtime error' -e 'Sanitizer' "$TMP/err"; then
        fail "$r_name: no sanitizer finding" "$(grep -e 'runtime error' -e 'Sanitizer' "$TMP/err" | head -n 1 | head -c 300)"
    elif [ "$r_st" -eq 0 ] || [ "$r_st" -eq 1 ]; then
        pass "$r_name: exit 0 or 1"
    else
        fail "$r_name: exit 0 or 1" "got $r_st; $(head -c 300 "$TMP/err")"
    fi
}

# an input larger than the loader's 64 KB parts, generated: whitespace across three of them
python3 -c '
import sys
s = open(sys.argv[1]).read()
i = s.index("{\n    \"ph\": \"X\", \"cat\": \"kernel\"")
open(sys.argv[2], "w").write(s[:i] + " " * (3 * 65536 + 17) + s[i:])' "$VALID" "$TMP/across_64k_parts.json"
n=0
for f in tests/fuzz/regress/*.json "$TMP/across_64k_parts.json"; do
    n=$((n + 1))
    b=$(basename "$f")
    for opts in "" "--format json" "--group op --format json --top 0" "--group shape --format md" "--explain nvjet" \
        "--explain aten" "--steps" "--by-category --format csv" "-j 4"; do
        replay "$b --analysis $opts" "$PROFANA" --analysis "$f" bf16 $opts
    done
    replay "$b --plot --report" "$PROFANA" --analysis "$f" bf16 --plot roofline "$TMP/r.svg" --plot breakdown "$TMP/b.svg" \
        --report "$TMP/r.html"
    replay "$b --diff" "$PROFANA" --diff "$f" a "$VALID" b bf16 --plot roofline "$TMP/d.svg"
    replay "$b --augment_trace" "$PROFANA" --augment_trace "$f" "$TMP/aug.json" bf16 --extra
    replay "$b --combine" "$PROFANA" --combine "$f" "$VALID" "$TMP/c.json"
done
check_eq "regression inputs replayed" "$([ "$n" -ge 4 ] && echo yes)" yes
