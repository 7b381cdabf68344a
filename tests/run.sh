#!/bin/sh
# run.sh - runs the C unit tests and the CLI tests against each build directory given, prints "N passed, N failed".
# Usage: tests/run.sh [-j N] [--once BUILD] [--full BUILD] BUILD... [--valgrind BUILD]... [--tsan BUILD] [--cppcheck] [NAME...]
#   NAME             (any argument that is not a folder) only the tests of that name: the unit
#                    program BUILD/tests/test_NAME and the CLI file tests/cli/test_NAME.sh, where
#                    they exist; `waits`, `test_waits`, `test_waits.sh` and `tests/cli/test_waits.sh`
#                    name the same; without a BUILD, on build/ (`tests/run.sh waits usage`)
#   BUILD            its tests/test_* programs and tests/cli/test_*.sh with PROFANA=BUILD/profana
#   --full BUILD     the same, with PF_CHECK_FULL=1: the tests kept for `make check-full` run too
#                    (tests/cli/test_slurm.sh, which starts a Slurm cluster: once per suite)
#   --valgrind BUILD its unit programs and the CLI files with the line "# check: valgrind",
#                    every program run under valgrind memcheck (tests/valgrind.sh); any error
#                    or definite/indirect leak fails the test file that caused it
#   --valgrind-units BUILD  only BUILD's unit test programs under valgrind
#   --units BUILD    only BUILD's unit test programs (whatever NAMEs select; `make check-fast`)
#   --fast-on BUILD  (with --once) a CLI file with the line "# check: optimised" (a sweep over
#                    every trace, minutes under the sanitizers) runs on BUILD instead of the
#                    --once build (`make check`; `make check-full` runs it on both)
#   --once BUILD     (before the builds) a CLI test file without the line "# check: every build"
#                    runs on BUILD alone among the plain and --full builds, unless --full and it
#                    holds PF_CHECK_FULL tests (`make check`: on the sanitizer
#                    build, which checks memory as well as figures; `make check-full` runs every
#                    file on every build); files with the line (limits of time or memory that
#                    differ by build, -j determinism) run on each
#   --tsan BUILD     a ThreadSanitizer build's threaded unit tests and tests/cli/test_jobs.sh,
#                    a reported race failing the file (`make check-full`)
#   --cppcheck       `make cppcheck`: one PASS, or one FAIL per finding
#   -j N             test files run N at a time (default: one per core); results print in order
# Each test prints lines "PASS name" / "FAIL name (why)" / "SKIP name: why"; a test program that
# exits non-zero without a FAIL line counts as one failure, so a crash is never silent. Skips
# are counted apart, listed, and never count as passes.
cd "$(dirname "$0")/.." || exit 2
# The Python packages the tests import (pandas, jsonschema, torch) are Debian's, installed by
# apt-get (tests/deps.sh, .ci/run) for Debian's /usr/bin/python3: a python3 earlier on PATH
# (pyenv's, as on the CI machines, or a venv's) does not see them.
[ -x /usr/bin/python3 ] && PATH=/usr/bin:$PATH && export PATH

# ---- one test file (run by xargs below): run.sh --one DIR IDX MODE BUILD TEST ----
if [ "${1:-}" = --one ]; then
    dir=$2 idx=$3 mode=$4 build=$5 t=$6
    log=$dir/$idx
    date +%s >"$log.start"
    if [ "$mode" = cppcheck ]; then
        make --no-print-directory -s cppcheck >"$log.raw" 2>&1
        st=$?
        grep -E '^[^ ]+:[0-9]+:[0-9]+: ' "$log.raw" | sed 's/^/FAIL cppcheck: /' >"$log.out"
        if [ "$st" -eq 0 ]; then
            echo "PASS cppcheck: no findings" >>"$log.out"
        elif [ ! -s "$log.out" ]; then
            cat "$log.raw" >"$log.out"
        fi
        echo "$st" >"$log.rc"
        date +%s >"$log.end"
        exit 0
    fi
    # ThreadSanitizer: a race reported ends the program (status 66), and test_jobs.sh sees
    # the report on stderr at -j 16 and not at -j 1. Without address randomisation (setarch
    # -R, inherited by the programs a test runs) where the system allows it: TSan's runtime in
    # some GCC releases cannot start under the wider randomisation of recent kernels.
    norand=
    if [ "$mode" = tsan ]; then
        export TSAN_OPTIONS="halt_on_error=1 exitcode=66"
        setarch "$(uname -m)" -R true 2>/dev/null && norand="setarch $(uname -m) -R"
    fi
    if [ "$mode" = valgrind ]; then
        # tests may run profana as another user (test_outputs.sh: a read-only directory)
        mkdir -p "$log.vg" && chmod 1777 "$log.vg"
        export PF_VALGRIND_LOG="$log.vg" PF_VALGRIND_BIN="$build/profana"
        case $t in
        *.sh) PROFANA=tests/valgrind.sh sh "$t" >"$log.out" 2>&1 ;;
        *) PF_VALGRIND_BIN=$t tests/valgrind.sh >"$log.out" 2>&1 ;;
        esac
    else
        # --full: PF_CHECK_FULL=1 for this build's tests only, so a check-full-only test runs once.
        unset PF_CHECK_FULL
        [ "$mode" = full ] && export PF_CHECK_FULL=1
        case $t in
        *.sh) PROFANA="$build/profana" $norand sh "$t" >"$log.out" 2>&1 ;;
        *) $norand "$t" >"$log.out" 2>&1 ;;
        esac
    fi
    echo $? >"$log.rc"
    date +%s >"$log.end"
    exit 0
fi

jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
chmod 711 "$dir"
# the oracles' verdicts, shared by the passes (tests/cli/lib.sh: run_oracle)
mkdir "$dir/oracle" && chmod 1777 "$dir/oracle"
export PF_ORACLE_CACHE="$dir/oracle"
list=$dir/list
: >"$list"
mode=plain
once=
fast_on=
n=0
names=
builds=0
# key TEST: a test's name without folder, "test_" and ".sh" (build/tests/test_waits -> waits)
key() {
    k=${1##*/}
    k=${k%.sh}
    k=${k%.c}
    echo "${k#test_}"
}
add_all() { # MODE BUILD TEST, whatever the names
    n=$((n + 1))
    printf '%s %s %s %s\n' "$n" "$1" "$2" "$3" >>"$list"
}
add() { # MODE BUILD TEST, if the names (when any) select it
    if [ -n "$names" ]; then
        k=$(key "$3")
        case " $names " in *" $k "*) ;; *) return ;; esac
    fi
    n=$((n + 1))
    printf '%s %s %s %s\n' "$n" "$1" "$2" "$3" >>"$list"
}
# The names first, so that a name after the builds still selects their tests.
prev=
for a in "$@"; do
    case $prev in
    -j | --once | --fast-on | --valgrind-units | --units | --tsan) ;;
    *) case $a in -*) ;; *) [ -d "$a" ] || names="$names $(key "$a")" ;; esac ;;
    esac
    prev=$a
done
while [ $# -gt 0 ]; do
    case $1 in
    -j) jobs=$2; shift 2; continue ;;
    --once) once=$2; shift 2; continue ;;
    --fast-on) fast_on=$2; shift 2; continue ;;
    --valgrind) mode=valgrind; shift; continue ;;
    --full) mode=full; shift; continue ;;
    --valgrind-units)
        for t in "$2"/tests/test_*; do
            [ -x "$t" ] && add_all valgrind "$2" "$t"
        done
        shift 2
        continue
        ;;
    --units)
        for t in "$2"/tests/test_*; do
            [ -x "$t" ] && add_all plain "$2" "$t"
        done
        shift 2
        continue
        ;;
    --cppcheck) add_all cppcheck - cppcheck; shift; continue ;;
    --tsan)
        # the files that run threads against each other: the -j test and the unit tests the
        # build holds (the Makefile builds only the threaded ones there: TSAN_UNITS)
        for t in "$2"/tests/test_*; do
            [ -x "$t" ] && add_all tsan "$2" "$t"
        done
        add_all tsan "$2" tests/cli/test_jobs.sh
        shift 2
        continue
        ;;
    esac
    if [ ! -d "$1" ]; then
        # a test's name (read above), unless it is the value of an option
        shift
        continue
    fi
    builds=$((builds + 1))
    for t in "$1"/tests/test_*; do
        [ -x "$t" ] && add "$mode" "$1" "$t"
    done
    for t in tests/cli/test_*.sh; do
        # --once: a file runs on the other plain builds only with its line (and, under --full,
        # when it holds tests kept for the full check: PF_CHECK_FULL)
        if [ -n "$fast_on" ] && [ "$mode" != valgrind ] && grep -q '^# check: optimised' "$t"; then
            [ "$1" = "$fast_on" ] || continue
        elif [ -n "$once" ] && [ "$mode" != valgrind ] && [ "$1" != "$once" ] &&
            ! grep -q '^# check: every build' "$t" &&
            ! { [ "$mode" = full ] && grep -q PF_CHECK_FULL "$t"; }; then
            continue
        fi
        # valgrind (20-50x slower than the plain build) runs the files that carry the line
        # "# check: valgrind", chosen so that every command and input kind runs under it
        # (docs/reliability.md, "How it is checked"); the sanitizer build runs them all
        if [ "$mode" = valgrind ] && ! grep -q '^# check: valgrind' "$t"; then
            continue
        fi
        add "$mode" "$1" "$t"
    done
    mode=plain
    shift
done
# Names alone: on build/, as `make` builds it.
if [ -n "$names" ] && [ "$builds" -eq 0 ]; then
    for t in build/tests/test_*; do
        [ -x "$t" ] && add plain build "$t"
    done
    for t in tests/cli/test_*.sh; do
        add plain build "$t"
    done
fi
for k in $names; do
    if ! cut -d' ' -f4 "$list" | while read -r t; do [ "$(key "$t")" = "$k" ] && echo x; done | grep -q x; then
        echo "run.sh: no test named '$k' (a unit program build/tests/test_$k or tests/cli/test_$k.sh; was it built?)" >&2
        exit 2
    fi
done
if [ "$n" -eq 0 ]; then
    echo "run.sh: no tests (usage: tests/run.sh [-j N] BUILD... [--valgrind BUILD]... [NAME...])" >&2
    exit 2
fi
for tool in valgrind cppcheck; do
    if grep -q " $tool " "$list" && ! command -v $tool >/dev/null 2>&1; then
        echo "run.sh: $tool is not installed (tests/deps.sh test installs it)" >&2
        exit 2
    fi
done

# The slowest first (valgrind, then CLI tests), so that no long file starts last.
awk '{ p = ($2 == "valgrind") ? 0 : 2; if ($4 ~ /\.sh$/) p--; print p, $0 }' "$list" | sort -s -n -k1,1 | cut -d' ' -f2- |
    xargs -P "$jobs" -n 4 sh tests/run.sh --one "$dir"

pass=0
fail=0
skip=0
failed=""
while read -r idx mode build t; do
    label=$build/$(basename "$t")
    [ "$mode" = valgrind ] && label="valgrind:$label"
    [ "$mode" = tsan ] && label="tsan:$label"
    [ "$mode" = cppcheck ] && label=cppcheck
    log=$dir/$idx
    st=$(cat "$log.rc" 2>/dev/null || echo 127)
    p=$(grep -c '^PASS ' "$log.out")
    f=$(grep -c '^FAIL ' "$log.out")
    k=$(grep -c '^SKIP ' "$log.out")
    grep -E '^(FAIL|SKIP) ' "$log.out" | sed "s|^|  $label: |"
    grep -E '^FAIL ' "$log.out" | sed "s|^|  $label: |" >>"$dir/failures"
    if [ "$st" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "  $label: FAIL exited with status $st" | tee -a "$dir/failures"
        tail -n 5 "$log.out" | sed "s|^|    |"
        f=1
    fi
    # valgrind writes nothing with -q unless it found an error or a leak.
    for v in "$log".vg/*; do
        [ -s "$v" ] || continue
        echo "  $label: FAIL valgrind: $(grep -m 1 -v '^==[0-9]*== *$' "$v" | sed 's/^==[0-9]*== //')" |
            tee -a "$dir/failures"
        sed -n '1,12p' "$v" | sed "s|^|    |"
        f=$((f + 1))
    done
    secs=$(($(cat "$log.end" 2>/dev/null || echo 0) - $(cat "$log.start" 2>/dev/null || echo 0)))
    skipped=""
    [ "$k" -gt 0 ] && skipped=", $k skipped"
    printf '%-44s %4d passed, %d failed%s  (%d s)\n' "$label" "$p" "$f" "$skipped" "$secs"
    [ "$f" -gt 0 ] && failed="$failed $label"
    pass=$((pass + p))
    fail=$((fail + f))
    skip=$((skip + k))
done <"$list"
[ "$skip" -gt 0 ] && echo "$skip skipped (the SKIP lines above say why; not counted as passed)"
# The failures again (the first 30), because CI shows only the log's tail.
if [ -n "$failed" ]; then
    echo "failed in:$failed"
    head -n 30 "$dir/failures"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
