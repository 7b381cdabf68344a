# test_errors.sh - broken traces (tests/broken/EXPECTED, generated huge ones), I/O and usage errors: exit status, one-line messages, no crash.
. tests/cli/lib.sh
set -u

BROKEN=tests/broken
GOOD=$TRACES/explicit_bf16.json
VALID=$BROKEN/valid_minimal.json
DTYPES="bf16 fp16 fp32 fp64 fp8 int8 bfloat16 float16 half float32 float float64 double"

# ---- helpers ----

# run ARGS...: runs profana (stdin from /dev/null unless redirected by the caller);
# stdout in $TMP/out, stderr in $TMP/err, exit status in $status.
run() {
    "$PROFANA" "$@" >"$TMP/out" 2>"$TMP/err"
    status=$?
}

# run_stdin FILE ARGS...: like run, with FILE on standard input.
run_stdin() {
    in=$1
    shift
    "$PROFANA" "$@" <"$in" >"$TMP/out" 2>"$TMP/err"
    status=$?
}

# check_has NAME TEXT FILE: FILE contains the fixed string TEXT.
check_has() {
    if grep -F -q -e "$2" "$3"; then pass "$1"; else fail "$1" "no '$2' in $(basename "$3"): $(head -c 300 "$3")"; fi
}

# check_no_crash NAME: the last run neither died of a signal nor tripped a sanitizer;
# returns 1 after a crash, so that callers skip the checks a crash makes meaningless.
check_no_crash() {
    if [ "$status" -ge 128 ]; then
        fail "$1: no crash" "status $status; stderr: $(head -c 300 "$TMP/err")"
        return 1
    fi
    if grep -q -e 'runtime error' -e 'AddressSanitizer' -e 'LeakSanitizer' "$TMP/err"; then
        fail "$1: no crash" "sanitizer: $(grep -e 'runtime error' -e 'Sanitizer' "$TMP/err" | head -n 1 | head -c 300)"
        return 1
    fi
    pass "$1: no crash"
}

# check_status NAME WANT: the last run did not crash and exited with WANT (returns 1 after a crash).
check_status() {
    check_no_crash "$1" || return 1
    check_eq "$1: exit" "$status" "$2"
}

# check_error_line NAME PATH: the last run failed the documented way: empty stdout, one
# stderr line "profana: error: PATH: byte N: ..." (a parse error names where it stopped;
# a gzip error says "compressed byte N").
check_error_line() {
    check_eq "$1: stdout empty" "$(wc -c <"$TMP/out" | tr -d ' ')" 0
    check_eq "$1: one stderr line" "$(wc -l <"$TMP/err" | tr -d ' ')" 1
    line=$(head -n 1 "$TMP/err")
    case $line in
    "profana: error: $2: byte "[0-9]* | "profana: error: $2: compressed byte "[0-9]*)
        pass "$1: 'profana: error: $2: byte N:' prefix" ;;
    *) fail "$1: 'profana: error: $2: byte N:' prefix" "got '$(printf '%s' "$line" | head -c 300)'" ;;
    esac
}

# check_no_negative NAME: an accepted run prints no negative figure (times, counts, rates).
check_no_negative() {
    if grep -E -q '(^|[ |,:])-[0-9]' "$TMP/out"; then
        fail "$1: no negative figure" "$(grep -E '(^|[ |,:])-[0-9]' "$TMP/out" | head -n 1 | head -c 300)"
    else
        pass "$1: no negative figure"
    fi
}

# check_trace NAME FILE WANT_STATUS MESSAGE: --analysis FILE bf16 exits WANT_STATUS with
# MESSAGE ('-' for none required) on stderr; a failure is one error line, a success also
# writes well-formed JSON with --format json.
check_trace() {
    run --analysis "$2" bf16 </dev/null
    check_status "$1" "$3" || return
    [ "$4" = - ] || check_has "$1: stderr has '$4'" "$4" "$TMP/err"
    if [ "$3" -ne 0 ]; then
        check_error_line "$1" "$2"
        return
    fi
    check_no_negative "$1"
    run --analysis "$2" bf16 --format json </dev/null
    check_status "$1 --format json" 0 || return
    if python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$TMP/out" 2>/dev/null; then
        pass "$1 --format json: parses"
    else
        fail "$1 --format json: parses" "$(head -c 300 "$TMP/out")"
    fi
}

# check_json NAME FILE EXPR: EXPR (Python, on the --format json document d) is true.
check_json() {
    run --analysis "$BROKEN/$2" bf16 --format json </dev/null
    check_status "$1" 0 || return
    check_eq "$1" "$(json "$3" "$TMP/out" 2>/dev/null)" True
}

# check_same_table FIXTURE: its text output is the same as the valid trace's.
check_same_table() {
    run --analysis "$VALID" bf16 </dev/null
    cp "$TMP/out" "$TMP/want"
    run --analysis "$BROKEN/$1" bf16 </dev/null
    check_status "$1" 0 || return
    if cmp -s "$TMP/out" "$TMP/want"; then pass "$1: same table as valid_minimal.json"; else fail "$1: same table as valid_minimal.json" "$(diff "$TMP/want" "$TMP/out" | head -c 300)"; fi
}

# check_usage NAME TEXT ARGS...: a usage error: exit 2, empty stdout, stderr starting with
# 'profana: ', containing TEXT and the hint to --help.
check_usage() {
    name=$1
    text=$2
    shift 2
    run "$@" </dev/null
    check_status "usage: $name" 2 || return
    check_eq "usage: $name: stdout empty" "$(wc -c <"$TMP/out" | tr -d ' ')" 0
    check_eq "usage: $name: 'profana: ' prefix" "$(head -c 9 "$TMP/err")" "profana: "
    check_has "usage: $name: says '$text'" "$text" "$TMP/err"
    check_has "usage: $name: hint" "profana --help" "$TMP/err"
}

# repeat STRING N: prints STRING N times (by doubling: fast for megabytes).
repeat() {
    r_s=$1
    r_n=$2
    r_out=
    while [ "$r_n" -gt 0 ]; do
        [ $((r_n % 2)) -eq 1 ] && r_out=$r_out$r_s
        r_s=$r_s$r_s
        r_n=$((r_n / 2))
    done
    printf '%s' "$r_out"
}

# ---- the fixtures of tests/broken ----

while read -r file want msg <&3; do
    case $file in '' | '#'*) continue ;; esac
    check_trace "$file" "$BROKEN/$file" "$want" "$msg"
    # The same bytes on standard input (read into memory, not mapped) behave the same.
    run_stdin "$BROKEN/$file" --analysis - bf16
    if check_status "$file on stdin" "$want" && [ "$msg" != - ]; then
        check_has "$file on stdin: stderr has '$msg'" "$msg" "$TMP/err"
    fi
done 3<"$BROKEN/EXPECTED"

for f in "$BROKEN"/*.json "$BROKEN"/*.gz; do
    [ -e "$f" ] || continue
    base=$(basename "$f")
    if grep -q "^$base " "$BROKEN/EXPECTED"; then pass "$base: listed in EXPECTED"; else fail "$base: listed in EXPECTED" "no line"; fi
done

# What the run prints for the fixtures that are accepted.
check_json "valid_minimal.json: mm FLOP 2*64*32*16" valid_minimal.json 'd["devices"][0]["rows"][0]["flop"] == 65536'
check_json "valid_minimal.json: mm bytes (64*32+32*16+64*16)*2" valid_minimal.json 'd["devices"][0]["rows"][0]["bytes"] == 7168'
check_json "valid_minimal.json: device" valid_minimal.json 'd["devices"][0]["matched"] == "H100 SXM"'
check_json "kernel_dur_zero.json: counted, 0 us" kernel_dur_zero.json 'd["devices"][0]["total"]["count"] == 1 and d["devices"][0]["total"]["total_us"] == 0'
check_json "kernel_external_id_unmatched.json: unlinked" kernel_external_id_unmatched.json 'd["unlinked"] == 1'
check_json "kernel_unknown_category.json: only the known kernel analysed" kernel_unknown_category.json 'd["gpu_activities"] == 1 and d["unlinked"] == 0'
check_json "mm_wrong_arity.json: no FLOP figure" mm_wrong_arity.json 'd["devices"][0]["rows"][0]["flop"] is None'
check_json "conv_concrete_inputs_not_numbers.json: no FLOP figure" conv_concrete_inputs_not_numbers.json 'd["devices"][0]["rows"][0]["flop"] is None'
check_json "kernel_name_invalid_utf8.json: U+FFFD in name" kernel_name_invalid_utf8.json 'd["devices"][0]["rows"][0]["name"] == "nvjet_\ufffd\ufffd_bad\ufffd(_utf8"'
check_json "name_with_nul_escape.json: NUL shown as U+FFFD" name_with_nul_escape.json 'd["devices"][0]["rows"][0]["name"] == "nvjet\ufffdtail"'
check_json "bare_event_array.json: one kernel" bare_event_array.json 'd["gpu_activities"] == 1 and d["unlinked"] == 0'
check_json "kernel_missing_ts.json: kernel skipped" kernel_missing_ts.json 'd["gpu_activities"] == 0'
for f in utf8_bom.json crlf_line_ends.json missing_ph.json duplicate_external_id.json events_not_objects.json \
    gzip_valid.json.gz gzip_two_members.json.gz; do
    check_same_table "$f"
done

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

# ---- usage errors ----

check_usage "no arguments" "no command given"
check_usage "--bogus" "unknown option '--bogus'" --analysis "$GOOD" bf16 --bogus
check_usage "dtype bf17" "unknown DTYPE 'bf17'" --analysis "$GOOD" bf17
check_has "usage: dtype bf17: lists bf16" "bf16" "$TMP/err"
check_has "usage: dtype bf17: lists float32" "float32" "$TMP/err"
check_usage "--analysis with one argument" "--analysis wants 2 arguments" --analysis "$GOOD"
check_usage "--group banana" "banana" --analysis "$GOOD" bf16 --group banana
check_usage "--format xml" "xml" --analysis "$GOOD" bf16 --format xml
check_usage "--top -3" "'-3'" --analysis "$GOOD" bf16 --top -3
check_usage "--name_limit abc" "'abc'" --analysis "$GOOD" bf16 --name_limit abc
check_usage "--device NoSuchGPU" "NoSuchGPU" --analysis "$GOOD" bf16 --device NoSuchGPU
check_usage "--top without a value" "--top needs a value" --analysis "$GOOD" bf16 --top
check_usage "--by-category with --diff" "--by-category does not apply to --diff" --diff "$GOOD" A "$GOOD" B bf16 --by-category
check_usage "--extra with --analysis" "--extra does not apply to --analysis" --analysis "$GOOD" bf16 --extra
check_usage "--fail-above with --analysis" "--fail-above does not apply to --analysis" --analysis "$GOOD" bf16 --fail-above 5
check_usage "--group with --augment_trace" "--group does not apply to --augment_trace" --augment_trace "$GOOD" "$TMP/aug.json" bf16 --group op
check_usage "-j0" "-j wants a number of threads" --analysis "$GOOD" bf16 -j0
check_usage "--step banana" "--step wants all or a step number" --analysis "$GOOD" bf16 --step banana
check_usage "--plot pie" "--plot wants roofline, breakdown or timeline" --analysis "$GOOD" bf16 --plot pie "$TMP/x.svg"
check_usage "--plot without a file" "--plot needs two values" --analysis "$GOOD" bf16 --plot roofline
check_usage "--combine with one input" "--combine wants at least 3 arguments" --combine "$GOOD" "$TMP/c.json"

run --help </dev/null
check_status "--help" 0
for word in --analysis --list-devices --group --format; do
    check_has "--help mentions $word" "$word" "$TMP/out"
done
# the defaults --help shows come from the option table, which also applies them
check_has "--help: --name_limit's default" "(default 0: cut only to fit the width)" "$TMP/out"
check_has "--help: --group's default" "group rows by kernel name (default)" "$TMP/out"
check_has "--help: --top's default" "the N largest changes; default 0 = all)" "$TMP/out"
check_has "--help: --format's default" "output format (default text)" "$TMP/out"
check_eq "--help: no {default} left" "$(grep -c '{default}' "$TMP/out")" 0
run -h </dev/null
check_status "-h" 0
check_has "-h is --help" "(default 0: cut only to fit the width)" "$TMP/out"
check_usage "-h=x" "unknown option '-h=x'" -h=x
check_usage "--help=x" "--help takes no value" --help=x
check_usage "--group typo lists the table's choices" "--group wants kernel, op or shape, not 'ops'" --analysis "$GOOD" bf16 --group ops
run --version </dev/null
check_status "--version" 0
check_has "--version prints the version" "profana " "$TMP/out"

# ---- every accepted dtype spelling ----

for d in $DTYPES; do
    run --analysis "$GOOD" "$d" </dev/null
    check_status "dtype $d" 0
done
