# test_outputs.sh - outputs of --analysis and the general commands: write errors exit 1, a failed write leaves no file and the old one intact, no input is overwritten, names survive every format.
. tests/cli/lib.sh
set -u

SRC=$TRACES/explicit_bf16.json
NAMES=tests/broken/kernel_name_quotes_escapes.json

# run ARGS...: profana with stdout in $TMP/out, stderr in $TMP/err, exit status in $status.
run() {
    "$PROFANA" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
    status=$?
}

# check_failed NAME PATH: the last run failed the documented way: exit 1 (no signal, no
# sanitizer report), nothing on stdout, one stderr line "profana: error: PATH: ...".
check_failed() {
    check_eq "$1: exit 1" "$status" 1
    check_eq "$1: stdout empty" "$(wc -c <"$TMP/out" | tr -d ' ')" 0
    check_eq "$1: one stderr line" "$(wc -l <"$TMP/err" | tr -d ' ')" 1
    case $(head -n 1 "$TMP/err") in
    "profana: error: $2"*) pass "$1: error names $2" ;;
    *) fail "$1: error names $2" "got '$(head -c 300 "$TMP/err")'" ;;
    esac
}

# check_only NAME DIR FILES: DIR holds exactly FILES (names, space-separated, sorted; '' for
# none): no temporary file is left behind and nothing else was created.
check_only() {
    check_eq "$1: $(basename "$2") holds only '$3'" "$(ls -A "$2" | tr '\n' ' ' | sed 's/ $//')" "$3"
}

# check_same NAME FILE COPY: FILE still has the bytes of COPY.
check_same() {
    if cmp -s "$2" "$3"; then pass "$1"; else fail "$1" "$(basename "$2") changed"; fi
}

# as_other_user CMD...: runs CMD as a user who may not write into a directory it does not
# own. root writes anywhere, so as root CMD runs as nobody; otherwise as the caller, for
# whom a mode-555 directory is read-only.
as_other_user() {
    if [ "$(id -u)" -ne 0 ]; then
        "$@"
        return
    fi
    setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
}

# The input is a copy: a test that fails must not damage testdata/.
cp "$SRC" "$TMP/trace.json"
cp "$SRC" "$TMP/trace.orig"
T=$TMP/trace.json

# ---- standard output that cannot be written (a full disk) ----

for fmt in text csv json md; do
    "$PROFANA" --analysis "$T" bf16 --format $fmt >/dev/full 2>"$TMP/err"
    status=$?
    : >"$TMP/out"
    check_failed "--analysis --format $fmt >/dev/full" "cannot write to standard output"
done
B=$TRACES/explicit_fp32.json
STEPS=$TRACES/steps_bf16.json
# Every command that prints, as MESSAGE|ARGS: the message after "profana: error: ".
while IFS='|' read -r msg args; do
    # shellcheck disable=SC2086 # the words of $args are the arguments
    "$PROFANA" $args >/dev/full 2>"$TMP/err" </dev/null
    status=$?
    : >"$TMP/out"
    check_failed "$(echo "$args" | sed "s|$TMP/||; s|$TRACES/||g") >/dev/full" "$msg"
done <<EOF
cannot write to standard output|--list-devices
cannot write to standard output|--list-devices --format json
cannot write to standard output|--help
cannot write to standard output|--version
cannot write to standard output|--analysis $T bf16 --by-category
cannot write to standard output|--analysis $T bf16 --group op --top 2
cannot write to standard output|--analysis $T bf16 --explain aten::mm
cannot write to standard output|--analysis $STEPS bf16 --steps
cannot write to standard output|--diff $T a $B b bf16
-: write failed|--augment_trace $T - bf16
-: write failed|--combine $T $B -
EOF

# ---- output files: --plot roofline, --plot breakdown, --report, --summary ----

# Each kind of output file, as KIND:OPTIONS (the file name is added last).
OUTPUTS="svg:--plot roofline
svg:--plot breakdown
html:--report
json:--summary"

mkdir "$TMP/ok"
echo "$OUTPUTS" | while IFS=: read -r ext opt; do
    label="$opt"
    # shellcheck disable=SC2086 # $opt is one or two words
    set -- $opt

    # A path that works: the file appears whole, readable as the umask allows, nothing else.
    out=$TMP/ok/out.$ext
    run --analysis "$T" bf16 "$@" "$out"
    check_eq "$label: exit 0" "$status" 0
    check_eq "$label: tables still on stdout" "$(grep -c '^Device 0: NVIDIA H100' "$TMP/out")" 1
    if [ -s "$out" ]; then pass "$label: file written"; else fail "$label: file written" "empty or missing"; fi
    if [ "$ext" = json ]; then end="}"; else end="</$ext>"; fi
    if tail -c 16 "$out" | grep -q "$end\$"; then pass "$label: ends the document"; else fail "$label: ends the document" "no $end at the end"; fi
    check_eq "$label: mode follows the umask" "$(stat -c %a "$out")" "$(printf '%o' $((0666 & ~$(umask))))"
    check_only "$label" "$TMP/ok" "out.$ext"
    rm -f "$out"

    # The path is a directory: refused before anything is written.
    mkdir "$TMP/ok/dir.$ext"
    run --analysis "$T" bf16 "$@" "$TMP/ok/dir.$ext"
    check_failed "$label DIR" "$TMP/ok/dir.$ext: is a directory"
    check_only "$label DIR" "$TMP/ok/dir.$ext" ""
    check_only "$label DIR: nothing beside it" "$TMP/ok" "dir.$ext"
    rmdir "$TMP/ok/dir.$ext"

    # A full disk: /dev/full takes no byte.
    run --analysis "$T" bf16 "$@" /dev/full
    check_failed "$label /dev/full" "/dev/full: write failed"

    # A file-size limit stops the write half way (what a full disk does to a regular file):
    # exit 1, the old output intact, the temporary file removed.
    mkdir "$TMP/lim"
    echo "old output" >"$TMP/lim/out.$ext"
    cp "$TMP/lim/out.$ext" "$TMP/old"
    # (a summary of this trace, without communication kernels, is some 200 bytes: a rank's
    # trace with them gives one of 6.5 kB; plain, since gzip inflates into a memory file that
    # the limit counts too)
    in=$T
    [ "$ext" = json ] && gzip -dc testdata/multirank/fsdp2_bf16_rank0.json.gz >"$TMP/rank.json" && in=$TMP/rank.json
    (trap '' XFSZ; ulimit -f 2; exec "$PROFANA" --analysis "$in" bf16 "$@" "$TMP/lim/out.$ext" >"$TMP/out" 2>"$TMP/err" </dev/null)
    status=$?
    check_failed "$label write cut short" "$TMP/lim/out.$ext: write failed"
    check_same "$label write cut short: old output intact" "$TMP/lim/out.$ext" "$TMP/old"
    check_only "$label write cut short: no temporary file left" "$TMP/lim" "out.$ext"
    rm -rf "$TMP/lim" "$TMP/rank.json"

    # A directory the user cannot write to, holding an old output: exit 1, the old one intact.
    mkdir "$TMP/ro"
    echo "old output" >"$TMP/ro/out.$ext"
    cp "$TMP/ro/out.$ext" "$TMP/old"
    chmod 555 "$TMP/ro"
    chmod 711 "$TMP"
    as_other_user "$PROFANA" --analysis "$T" bf16 "$@" "$TMP/ro/out.$ext" >"$TMP/out" 2>"$TMP/err" </dev/null
    status=$?
    chmod 700 "$TMP"
    chmod 755 "$TMP/ro"
    check_failed "$label read-only directory" "$TMP/ro/out.$ext: cannot create"
    check_same "$label read-only directory: old output intact" "$TMP/ro/out.$ext" "$TMP/old"
    check_only "$label read-only directory: nothing added" "$TMP/ro" "out.$ext"
    rm -rf "$TMP/ro"

    # A directory that does not exist.
    run --analysis "$T" bf16 "$@" "$TMP/no/such/dir/out.$ext"
    check_failed "$label missing directory" "$TMP/no/such/dir/out.$ext: cannot create"

    # The output names the input: refused, the trace untouched.
    run --analysis "$T" bf16 "$@" "$T"
    if [ "$status" -eq 1 ] || [ "$status" -eq 2 ]; then pass "$label INPUT: refused"; else fail "$label INPUT: refused" "exit $status"; fi
    check_same "$label INPUT: trace untouched" "$T" "$TMP/trace.orig"
    cp "$TMP/trace.orig" "$T"
done

# Several outputs: one bad path costs all of them, before any is written.
mkdir "$TMP/multi" "$TMP/multi/bad.html"
run --analysis "$T" bf16 --plot roofline "$TMP/multi/r.svg" --plot breakdown "$TMP/multi/b.svg" --report "$TMP/multi/bad.html"
check_failed "three outputs, the last a directory" "$TMP/multi/bad.html: is a directory"
check_only "three outputs, the last a directory: none written" "$TMP/multi" "bad.html"
run --analysis "$T" bf16 --plot roofline "$TMP/multi/same" --report "$TMP/multi/same"
check_eq "one file named for two outputs: exit 1" "$status" 1
check_only "one file named for two outputs: none written" "$TMP/multi" "bad.html"
rm -rf "$TMP/multi"

# ---- names survive every format: quotes, comma, backslash, newline and '|' in a kernel name ----

WANT='nvjet "q" a,b\c
|d'
run --analysis "$NAMES" bf16 --format json
check_eq "name with quotes, comma, backslash, newline, pipe: exit 0" "$status" 0
check_eq "JSON keeps the name" "$(json 'd["devices"][0]["rows"][0]["name"]' "$TMP/out")" "$WANT"
run --analysis "$NAMES" bf16 --format csv
check_eq "CSV keeps the name" "$(python3 -c 'import csv, sys; r = list(csv.DictReader(open(sys.argv[1], newline=""))); print(r[0]["Kernel Name"])' "$TMP/out")" "$WANT"
run --analysis "$NAMES" bf16 --format md --name_limit 0
check_eq "Markdown: the row stays one line with every cell" \
    "$(grep -c '^| nvjet "q" a,b\\c \\|d | gemm ' "$TMP/out")" 1

# ---- outputs named by a descriptor (issue 48): written in place, never replaced by a rename ----
# Before, `--summary /dev/stdout >>log` renamed a new file over log (its earlier lines gone)
# and `--summary /dev/stdout >out` over out (the tables gone), exit 0. The oracle: the
# summary alone (--summary -) and the tables alone (no --summary), one after the other, after
# what the file held.
D48=$TMP/d48
mkdir "$D48"
"$PROFANA" --analysis "$SRC" bf16 --summary - >"$D48/summary" 2>/dev/null
"$PROFANA" --analysis "$SRC" bf16 >"$D48/tables" 2>/dev/null
printf 'line 1 of the log\nline 2 of the log\n' >"$D48/before"
for name in /dev/stdout /proc/self/fd/1 /dev/fd/1; do
    cp "$D48/before" "$D48/log.txt"
    "$PROFANA" --analysis "$SRC" bf16 --summary "$name" >>"$D48/log.txt" 2>"$TMP/err"
    check_eq "--summary $name >>log: exit 0" "$?" 0
    cat "$D48/before" "$D48/summary" "$D48/tables" >"$D48/want"
    check_same "--summary $name >>log: the log keeps its lines, then the summary and the tables" "$D48/log.txt" "$D48/want"
    check_eq "--summary $name >>log: the third line is the summary" \
        "$(python3 -c 'import json, sys; print(json.loads(open(sys.argv[1]).read().splitlines()[2])["profana_summary"])' "$D48/log.txt")" 1
    "$PROFANA" --analysis "$SRC" bf16 --summary "$name" >"$D48/out.txt" 2>"$TMP/err"
    check_eq "--summary $name >out: exit 0" "$?" 0
    cat "$D48/summary" "$D48/tables" >"$D48/want"
    check_same "--summary $name >out: the summary and the tables, none lost" "$D48/out.txt" "$D48/want"
done
check_only "descriptor outputs: no temporary file left" "$D48" "before log.txt out.txt summary tables want"
"$PROFANA" --analysis "$SRC" bf16 --summary /dev/stdout 2>/dev/null | cat >"$D48/piped"
cat "$D48/summary" "$D48/tables" >"$D48/want"
check_same "--summary /dev/stdout into a pipe: the summary and the tables" "$D48/piped" "$D48/want"
# a chart to standard error appended to a log, as the shell opened it
"$PROFANA" --analysis "$SRC" bf16 --plot roofline "$D48/chart.svg" >/dev/null 2>&1
cp "$D48/before" "$D48/err.log"
"$PROFANA" --analysis "$SRC" bf16 --plot roofline /dev/stderr >/dev/null 2>>"$D48/err.log"
check_eq "--plot roofline /dev/stderr 2>>log: exit 0" "$?" 0
cat "$D48/before" "$D48/chart.svg" >"$D48/want"
check_same "--plot roofline /dev/stderr 2>>log: the log's lines, then the chart" "$D48/err.log" "$D48/want"
# --augment_trace and --combine to a descriptor: what '-' gives, after what the file held
"$PROFANA" --augment_trace "$SRC" - bf16 >"$D48/aug" 2>/dev/null
cp "$D48/before" "$D48/aug.log"
"$PROFANA" --augment_trace "$SRC" /dev/stdout bf16 >>"$D48/aug.log" 2>/dev/null
check_eq "--augment_trace IN /dev/stdout >>log: exit 0" "$?" 0
cat "$D48/before" "$D48/aug" >"$D48/want"
check_same "--augment_trace IN /dev/stdout >>log: the log's lines, then the trace" "$D48/aug.log" "$D48/want"
"$PROFANA" --combine "$SRC" "$SRC" - >"$D48/comb" 2>/dev/null
"$PROFANA" --combine "$SRC" "$SRC" /proc/self/fd/1 >"$D48/comb.out" 2>/dev/null
check_eq "--combine A B /proc/self/fd/1 >out: exit 0" "$?" 0
check_same "--combine A B /proc/self/fd/1 >out: what - gives" "$D48/comb.out" "$D48/comb"
# writing in place cannot be safe: refused in one line, exit 2, before anything is read
run --analysis "$SRC" bf16 --summary /proc/self/fd/0
check_eq "--summary /proc/self/fd/0 (read only): exit 2" "$status" 2
check_eq "--summary /proc/self/fd/0: one line" "$(cat "$TMP/err")" \
    "profana: error: /proc/self/fd/0: names descriptor 0, which is open for reading only"
run --analysis "$SRC" bf16 --report /dev/fd/9
check_eq "--report /dev/fd/9 (not open): exit 2" "$status" 2
check_eq "--report /dev/fd/9: one line" "$(cat "$TMP/err")" "profana: error: /dev/fd/9: names descriptor 9, which is not open"
run --analysis "$SRC" bf16 --plot timeline /proc/self/status
check_eq "--plot timeline /proc/self/status (a file of /proc): exit 2" "$status" 2
check_grep "--plot timeline /proc/self/status: one line" "^profana: error: /proc/self/status: a file of /proc" "$TMP/err"
