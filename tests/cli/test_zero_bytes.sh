# test_zero_bytes.sh - no op row, and no op invocation, of any trace of testdata/ and ../shared/testdata/public/ counts 0 bytes as known for an op whose kernels ran for a non-zero time (issue 43: a fused AdamW whose tensor lists were recorded as [] read 0 B, BW 0.0%, inside the bytes coverage); tests/cli/zero_bytes.py reads the raw events, the --group op JSON and the --augment_trace output; a hand-made control shows the sweep catches such a row.
# check: optimised
. tests/cli/lib.sh

n=0
: >"$TMP/zero"
for f in $(sweep_traces testdata ../shared/testdata/public); do
    case $f in
    */capture_traces/* | */execution_details.json | testdata/devices/*) continue ;; # captures; device files
    esac
    n=$((n + 1))
    if ! "$PROFANA" --analysis "$f" bf16 --group op --format json >"$TMP/a.json" 2>/dev/null; then
        fail "$f --group op" "exit $?"
    elif ! "$PROFANA" --augment_trace "$f" "$TMP/aug.json" bf16 2>/dev/null; then
        fail "$f --augment_trace" "exit $?"
    else
        python3 tests/cli/zero_bytes.py "$f" "$TMP/a.json" "$TMP/aug.json" >>"$TMP/zero" || fail "$f: oracle" "exit $?"
    fi
done
check_eq "traces swept (every trace of testdata/ and the public ones)" "$([ "$n" -ge 40 ] && echo yes)" yes
if [ -s "$TMP/zero" ]; then
    while IFS= read -r line; do fail "0 bytes counted as known for work that ran" "$line"; done <"$TMP/zero"
else
    pass "no op row or invocation counts 0 bytes as known for kernels that ran ($n traces)"
fi

# The control: a cat of a list of empty tensors ([[0, 512]]: shapes recorded, 0 elements) whose
# kernel ran 5 us is 0 bytes known, and the sweep says so, for the row and the invocation.
python3 - "$TMP" <<'PY'
import json, sys
d = json.load(open("testdata/lists/bare_lists.json"))
for e in d["traceEvents"]:
    a = e.get("args", {})
    if e.get("cat") == "cpu_op" and a.get("External id") == 3:
        e["name"] = "aten::cat"
        a["Input Dims"], a["Input type"], a["Concrete Inputs"] = [[[0, 512]], []], ["TensorList", "Scalar"], ["", "0"]
json.dump(d, open(sys.argv[1] + "/control.json", "w"))
PY
"$PROFANA" --analysis "$TMP/control.json" bf16 --group op --format json >"$TMP/c.json"
"$PROFANA" --augment_trace "$TMP/control.json" "$TMP/c.aug.json" bf16
python3 tests/cli/zero_bytes.py control "$TMP/c.json" "$TMP/c.aug.json" >"$TMP/c.out"
check_eq "control: the sweep reports the 0-byte cat's row and its invocation" \
    "$(grep -c 'aten::cat' "$TMP/c.out")" 2
