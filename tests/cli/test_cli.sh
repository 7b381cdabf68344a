# test_cli.sh - the command line: both spellings of every option and command, the nearest name for an unknown one, DTYPE in any case, --help's examples (each run on real traces) and defaults, make install and its man page.
. tests/cli/lib.sh

T=$TRACES/eager_bf16.json
T2=$TRACES/eager_fp16.json

# same_output NAME ARGS_A -- ARGS_B: both command lines exit 0 and print the same.
same_output() {
    name=$1
    shift
    a=""
    while [ "$1" != -- ]; do a="$a $1"; shift; done
    shift
    # shellcheck disable=SC2086
    "$PROFANA" $a >"$TMP/sa" 2>"$TMP/sa_err"
    sa=$?
    "$PROFANA" "$@" >"$TMP/sb" 2>"$TMP/sb_err"
    sb=$?
    check_eq "$name: exit statuses" "$sa $sb" "0 0"
    check_eq "$name: same output" "$(cmp -s "$TMP/sa" "$TMP/sb" && echo same)" same
    check_eq "$name: output not empty" "$(test -s "$TMP/sa" && echo yes)" yes
}

# ---- both spellings: '-' and '_' alike after the leading -- ----
same_output "--name-limit as --name_limit" --analysis $T bf16 --name_limit 12 -- --analysis "$T" bf16 --name-limit 12
same_output "--name-limit=N" --analysis $T bf16 --name_limit 12 -- --analysis "$T" bf16 --name-limit=12
same_output "--by_category as --by-category" --analysis $T bf16 --by-category -- --analysis "$T" bf16 --by_category
same_output "--no_tf32 as --no-tf32" --analysis $T bf16 --no-tf32 -- --analysis "$T" bf16 --no_tf32
same_output "--list_devices as --list-devices" --list-devices -- --list_devices
same_output "--fail_above as --fail-above" --diff $T a $T b bf16 --fail-above 5 -- --diff "$T" a "$T" b bf16 --fail_above 5
"$PROFANA" --augment_trace "$T" "$TMP/aug_underscore.json" bf16 >/dev/null 2>&1
check_run "--augment-trace runs" 0 "$PROFANA" --augment-trace "$T" "$TMP/aug_hyphen.json" bf16
check_eq "--augment-trace writes what --augment_trace writes" \
    "$(cmp -s "$TMP/aug_underscore.json" "$TMP/aug_hyphen.json" && echo same)" same


# ---- DTYPE in any case ----
same_output "DTYPE BF16 as bf16" --analysis $T bf16 -- --analysis "$T" BF16
same_output "DTYPE Float32 as float32" --analysis $T float32 --format csv -- --analysis "$T" Float32 --format csv

# ---- --help: one example per command, each runs; the defaults ----
check_run "--help" 0 "$PROFANA" --help
awk '/^Examples:/ { on = 1; next } on && /^$/ { exit } on' "$TMP/out" >"$TMP/examples"
for c in --analysis --diff --augment_trace --combine --list-devices; do
    check_eq "--help: one example of $c" "$(grep -c -- "^  profana $c " "$TMP/examples")" 1
done
check_eq "--help: the --list-devices example" "$(grep -c -- '--list-devices --format md' "$TMP/examples")" 1
check_eq "--help: six examples" "$(wc -l <"$TMP/examples" | tr -d ' ')" 6
n=0
while read -r prog args <&3; do
    n=$((n + 1))
    check_eq "--help example $n starts with profana" "$prog" profana
    # trace.json and a.json are real traces; b.json another; out.json a scratch file; rankN.json.gz
    # the multi-rank test traces
    args=$(echo "$args" | sed -e "s|trace\.json|$T|g" -e "s|a\.json|$T|g" -e "s|b\.json|$T2|g" -e "s|out\.json|$TMP/ex_out.json|g" \
        -e "s|rank\([01]\)\.json\.gz|testdata/multirank/fsdp2_bf16_rank\1.json.gz|g")
    # shellcheck disable=SC2086
    check_run "--help example $n runs ($args)" 0 "$PROFANA" $args
done 3<"$TMP/examples"
check_run "--help again" 0 "$PROFANA" --help
# an option's help wraps onto lines indented to its column: read each option as one line
sed -e ':a' -e 'N' -e '$!ba' -e 's/\n \{33\}/ /g' "$TMP/out" >"$TMP/help_joined"
for d in "--device NAME .*(default: the entry the trace's device name matches" "--step all|N .*default: all GPU work" \
    "--fail-above PCT .*(default: no gate)" "-j N .*(default: one per CPU" "in any case"; do
    check_eq "--help shows: $d" "$(grep -c -- "$d" "$TMP/help_joined")" 1
done
check_grep "--help: both spellings said" "spelled with - or _" "$TMP/out"

# ---- make install: PREFIX, DESTDIR, and the man page from the option table ----
# The build directory of the binary under test (under valgrind, the one valgrind runs).
bin=${PF_VALGRIND_BIN:-$PROFANA}
bdir=$(dirname "$bin")
# ./profana is make's copy of build/profana: installing with BUILD=. would build a second
# tree in the checkout
[ "$bdir" = . ] && bdir=build
stage=$TMP/stage
make --no-print-directory -s install BUILD="$bdir" DESTDIR="$stage" PREFIX=/opt/pf >"$TMP/make_out" 2>&1
check_eq "make install DESTDIR PREFIX: exit" "$?" 0
check_eq "make install: the binary" "$(test -x "$stage/opt/pf/bin/profana" && echo yes)" yes
check_eq "make install: the installed binary is the build's" "$(cmp -s "$stage/opt/pf/bin/profana" "$bin" && echo same)" same
man=$stage/opt/pf/share/man/man1/profana.1
check_eq "make install: the man page" "$(test -f "$man" && echo yes)" yes
make --no-print-directory -s install BUILD="$bdir" PREFIX="$TMP/prefix" >"$TMP/make_out" 2>&1
check_eq "make install PREFIX alone: exit" "$?" 0
check_eq "make install PREFIX alone: binary and man page" \
    "$(test -x "$TMP/prefix/bin/profana" && test -f "$TMP/prefix/share/man/man1/profana.1" && echo yes)" yes
# groff renders it without a warning; each option and example of --help is on the page
groff -man -Tutf8 -ww -P-cbou "$man" >"$TMP/man.txt" 2>"$TMP/man_err"
check_eq "man page: groff renders it" "$?" 0
check_eq "man page: no groff warnings" "$(cat "$TMP/man_err")" ""
"$PROFANA" --help | awk '/^Options:/ { on = 1; next } on && /^$/ { exit } on && /^  -/ { print $1 }' >"$TMP/help_opts"
check_eq "man page: --help lists options" "$(test "$(wc -l <"$TMP/help_opts")" -gt 15 && echo yes)" yes
# the rendered page as one line (a long help wraps)
tr -d '\n' <"$TMP/man.txt" >"$TMP/man_flat"
missing=""
while read -r o; do
    grep -q -F -- "$o" "$TMP/man_flat" || missing="$missing $o"
done <"$TMP/help_opts"
check_eq "man page: every option of --help" "$missing" ""
missing=""
while read -r line; do
    grep -q -F -- "$line" "$TMP/man_flat" || missing="$missing [$line]"
done <"$TMP/examples"
check_eq "man page: every example of --help" "$missing" ""
check_grep "man page: NAME section" "^NAME" "$TMP/man.txt"
