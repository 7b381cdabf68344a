# test_gzip_out.sh - outputs named .gz are gzip (--augment_trace, --combine: the same bytes as the plain output, inflated by Python), and a cut-off .json.gz is read like a cut-off .json (the warning and event count Python predicts; --strict an error).
# check: valgrind
. tests/cli/lib.sh

T=$TRACES/eager_bf16.json

# gunzip_eq NAME GZ PLAIN: GZ is gzip whose content is PLAIN's bytes, and smaller.
gunzip_eq() {
    check_eq "$1: gzip magic" "$(head -c 2 "$2" | od -An -tx1 | tr -d ' ')" 1f8b
    check_eq "$1: inflates to the plain output" "$(python3 -c 'import gzip,sys; print(gzip.open(sys.argv[1]).read() == open(sys.argv[2], "rb").read())' "$2" "$3")" True
    check_eq "$1: smaller than the plain output" "$(test "$(wc -c <"$2")" -lt "$(wc -c <"$3")" && echo yes)" yes
}

# ---- --augment_trace and --combine write a .gz path compressed ----
check_run "augment to .json" 0 "$PROFANA" --augment_trace "$T" "$TMP/aug.json" bf16 --extra
check_run "augment to .json.gz" 0 "$PROFANA" --augment_trace "$T" "$TMP/aug.json.gz" bf16 --extra
gunzip_eq "augment .json.gz" "$TMP/aug.json.gz" "$TMP/aug.json"
"$PROFANA" --analysis "$TMP/aug.json" bf16 --format csv >"$TMP/a_plain.csv" 2>/dev/null
check_run "analysis of the augmented .json.gz" 0 "$PROFANA" --analysis "$TMP/aug.json.gz" bf16 --format csv
check_eq "analysis of the augmented .json.gz = of the plain one" "$(cmp -s "$TMP/out" "$TMP/a_plain.csv" && echo same)" same
# the issue's case: a .gz rewritten in place stays gzip
gzip -c "$T" >"$TMP/inplace.json.gz"
check_run "augment a .json.gz in place" 0 "$PROFANA" --augment-trace "$TMP/inplace.json.gz" "$TMP/inplace.json.gz" bf16 --extra
gunzip_eq "augment in place" "$TMP/inplace.json.gz" "$TMP/aug.json"
check_run "combine to .json" 0 "$PROFANA" --combine "$T" "$TRACES/eager_fp16.json" "$TMP/c.json"
check_run "combine to .json.gz" 0 "$PROFANA" --combine "$T" "$TRACES/eager_fp16.json" "$TMP/c.json.gz"
gunzip_eq "combine .json.gz" "$TMP/c.json.gz" "$TMP/c.json"
# a run that fails leaves an existing .gz as it was (temporary file and rename)
cp "$TMP/c.json.gz" "$TMP/c_before.json.gz"
check_run "combine from a missing input" 1 "$PROFANA" --combine "$T" "$TMP/missing.json" "$TMP/c.json.gz"
check_eq "failed combine: the .gz untouched" "$(cmp -s "$TMP/c.json.gz" "$TMP/c_before.json.gz" && echo same)" same
check_eq "failed combine: no temporary file left" "$(ls "$TMP" | grep -c 'tmp-')" 0
# standard output stays plain whatever the input was
check_run "augment a .gz to standard output" 0 "$PROFANA" --augment_trace "$TMP/aug.json.gz" - bf16
check_eq "augment to standard output: plain JSON" "$(python3 -c 'import json,sys; print(type(json.load(open(sys.argv[1]))).__name__)' "$TMP/out")" dict

# ---- a cut-off .json.gz: the complete events of the text it inflates to ----
gzip -c "$T" >"$TMP/whole.json.gz"
size=$(wc -c <"$TMP/whole.json.gz")
for frac in 20 55 90 999; do
    if [ "$frac" = 999 ]; then cut=$((size - 4)); else cut=$((size * frac / 100)); fi # 999: the trailer's length cut
    head -c "$cut" "$TMP/whole.json.gz" >"$TMP/cut.json.gz"
    # What Python inflates from the cut bytes, and what the cut text holds (tests/cli/cuts.py's rules).
    want=$(python3 - "$TMP/cut.json.gz" <<'PY'
import sys, zlib
sys.path.insert(0, "tests/cli")
from cuts import classify, element_extents, ws
text = zlib.decompressobj(31).decompress(open(sys.argv[1], "rb").read()).decode("latin-1")
whole = open("testdata/traces/eager_bf16.json", "rb").read().decode("latin-1")
bracket, close, extents = element_extents(whole)
kind, done = classify(whole, ws(whole, 0), bracket, close, extents, len(text), len(whole.rstrip(" \t\r\n")))
if len(text) == len(whole):  # every byte of the trace: only the gzip trailer is missing
    kind = "complete"
print(kind, len(text), done)
PY
)
    set -- $want
    kind=$1 at=$2 events=$3
    check_run "cut .json.gz at compressed byte $cut ($kind)" 0 "$PROFANA" --analysis "$TMP/cut.json.gz" bf16
    case $kind in
    inside) check_grep "cut .json.gz at $cut: warning with the complete events" "warning: .*: byte $at: trace is cut off inside an event; analysed the $events complete events" "$TMP/err" ;;
    between) check_grep "cut .json.gz at $cut: warning with the complete events" "warning: .*: byte $at: trace is cut off after the last complete event; analysed the $events complete events" "$TMP/err" ;;
    complete) check_grep "cut .json.gz at $cut: the whole trace, its check not made" "warning: .*: compressed byte $cut: gzip data is cut off after a whole trace" "$TMP/err" ;;
    *) fail "cut .json.gz at $cut" "python3 says '$kind': the test's cuts should fall inside the events" ;;
    esac
    check_eq "cut .json.gz at $cut: one warning" "$(grep -c 'warning' "$TMP/err")" 1
    check_run "cut .json.gz at $cut --strict" 1 "$PROFANA" --analysis "$TMP/cut.json.gz" bf16 --strict
    check_grep "cut .json.gz at $cut --strict: the gzip error" "error: .*: compressed byte $cut: gzip data is cut off" "$TMP/err"
    # rewriting needs the whole text: a cut input is still an error there
    check_run "augment from a cut .json.gz" 1 "$PROFANA" --augment_trace "$TMP/cut.json.gz" "$TMP/x.json" bf16
done
