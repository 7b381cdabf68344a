# test_structure.sh - the shape of src/ (issue 41; beside test_layers.sh): no call circle among the files of one folder, no file over 800 lines (an allowlist for files of one job) or function over 100, every .c in docs/HACKING.md's file map, every docs pointer of the code names a section that exists, no extern function without a caller outside its file. The rules: docs/HACKING.md, "Structure (tests)"; the checks: tests/cli/structure.py.
. tests/cli/lib.sh
set -u

python3 tests/cli/structure.py . >"$TMP/out" 2>"$TMP/err"
st=$?
cat "$TMP/out"
if [ "$st" -gt 1 ] || [ -s "$TMP/err" ]; then
    fail "structure.py ran" "status $st: $(head -c 300 "$TMP/err")"
fi
