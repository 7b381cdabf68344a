# test_errors.sh - broken traces too big to commit (generated), files that cannot be read, standard input, --help and --version, every dtype spelling: exit status, one-line messages, no crash (the committed broken traces: test_broken.sh).
# check: valgrind
. tests/cli/lib.sh
set -u
. tests/cli/errors_lib.sh

# ---- generated: too big to commit ----

# A 10 MB kernel name in the valid trace.
{
    sed -n '/"cat": "kernel"/q;p' "$VALID"
    printf '    "ph": "X", "cat": "kernel", "name": "'
    repeat k 10000000
    printf '", "pid": 0, "tid": 7,\n'
    sed '1,/"cat": "kernel"/d' "$VALID"
} >"$TMP/name_10mb.json"
check_trace "name_10mb.json" "$TMP/name_10mb.json" 0 -
run --analysis "$TMP/name_10mb.json" bf16 --format csv </dev/null
check_status "name_10mb.json --format csv" 0
check_eq "name_10mb.json --format csv: whole name printed" "$(awk 'length($0) > 10000000 { n++ } END { print n + 0 }' "$TMP/out")" 1

# Nesting 100000 deep: at the top, inside a kernel's args, and never closed.
repeat '[' 100000 >"$TMP/deep_arrays.json"
repeat ']' 100000 >>"$TMP/deep_arrays.json"
{
    sed -n '/"queued": 0/q;p' "$VALID"
    printf '      "External id": 1, "queued": '
    repeat '{"a": ' 100000
    printf 0
    repeat '}' 100000
    printf ', "device": 0, "stream": 7\n'
    sed '1,/"queued": 0/d' "$VALID"
} >"$TMP/deep_objects_in_args.json"
repeat '[' 100000 >"$TMP/deep_unclosed.json"
for f in deep_arrays.json deep_objects_in_args.json deep_unclosed.json; do
    check_trace "$f" "$TMP/$f" 1 nesting
done

# ---- files that cannot be read ----

run --analysis "$TMP/no_such_file.json" bf16 </dev/null
check_status "missing file" 1
check_has "missing file: cannot open" "profana: error: $TMP/no_such_file.json: cannot open" "$TMP/err"
check_eq "missing file: one stderr line" "$(wc -l <"$TMP/err" | tr -d ' ')" 1

mkdir "$TMP/dir.json"
run --analysis "$TMP/dir.json" bf16 </dev/null
check_status "directory" 1
check_has "directory: is a directory" "profana: error: $TMP/dir.json: is a directory" "$TMP/err"
check_eq "directory: one stderr line" "$(wc -l <"$TMP/err" | tr -d ' ')" 1

# ---- standard input ----

run --analysis "$GOOD" bf16 </dev/null
cp "$TMP/out" "$TMP/want"
run_stdin "$GOOD" --analysis - bf16
check_status "stdin" 0
check_eq "stdin: first line names the device" "$(head -n 1 "$TMP/out" | cut -d '|' -f 1)" "Device 0: NVIDIA H100 80GB HBM3 "
if cmp -s "$TMP/out" "$TMP/want"; then pass "stdin: same output as the file"; else fail "stdin: same output as the file" "$(diff "$TMP/want" "$TMP/out" | head -c 300)"; fi
run_stdin /dev/null --analysis - bf16
check_status "empty stdin" 1
check_has "empty stdin: empty file" "empty file" "$TMP/err"

# ---- usage errors: tests/cli/usage_errors.tsv (test_usage.sh); here --help and --version ----

run --help </dev/null
check_status "--help" 0
# an option's help wraps onto lines indented to its column: read each option as one line
sed -e ':a' -e 'N' -e '$!ba' -e 's/\n \{33\}/ /g' "$TMP/out" >"$TMP/help_joined"
for word in --analysis --list-devices --group --format; do
    check_has "--help mentions $word" "$word" "$TMP/out"
done
# the defaults --help shows come from the option table, which also applies them
check_has "--help: --name_limit's default" "(default 0: cut only to fit the width)" "$TMP/help_joined"
check_has "--help: --group's default" "group rows by kernel name (default)" "$TMP/out"
check_has "--help: --top's default" "the N largest changes; default 0 = all)" "$TMP/help_joined"
check_has "--help: --format's default" "output format (default text)" "$TMP/out"
check_eq "--help: no {default} left" "$(grep -c '{default}' "$TMP/out")" 0
run -h </dev/null
check_status "-h" 0
sed -e ':a' -e 'N' -e '$!ba' -e 's/\n \{33\}/ /g' "$TMP/out" >"$TMP/help_joined"
check_has "-h is --help" "(default 0: cut only to fit the width)" "$TMP/help_joined"
run --version </dev/null
check_status "--version" 0
check_has "--version prints the version" "profana " "$TMP/out"

# ---- every accepted dtype spelling ----

for d in $DTYPES; do
    run --analysis "$GOOD" "$d" </dev/null
    check_status "dtype $d" 0
done

json_flush
