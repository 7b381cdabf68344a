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
