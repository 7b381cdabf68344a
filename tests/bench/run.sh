#!/bin/sh
# run.sh - `make bench`: builds 100 MB and 1 GB traces from testdata/ in a temporary directory and times profana on them against python3's json.load.
# Usage: tests/bench/run.sh BUILD_DIR (with profana, bench/gen_trace and bench/bench_run built).
# BENCH_SIZES overrides the sizes in MB ("100 1000"); BENCH_DIFF_MB the size of each --diff
# input (500); BENCH_JSON=0 skips json.load (slow: minutes and gigabytes for 1 GB);
# BENCH_RUNS the runs of each profana row (and of zlib's inflate), of which the fastest counts (3);
# BENCH_GAP the seconds between those runs (1); BENCH_RANKS the rank summaries --ranks merges (1000).
# Every row: wall seconds, MB/s and events/s of the input, the peak resident memory of the
# process, and how many times faster than json.load of the same file it ran.
set -u
cd "$(dirname "$0")/../.." || exit 2
B=${1:-build}
BIN=$B/profana
GEN=$B/bench/gen_trace
RUN=$B/bench/bench_run
SIZES=${BENCH_SIZES:-"100 1000"}
DIFF_MB=${BENCH_DIFF_MB:-500}
# Each profana row is the fastest of BEST runs: on a shared machine one run can lose a
# tenth or more to a neighbour. json.load runs once (its minute on 1 GB would be three).
# Before each run, sync: the kernel's writeback of the trace just generated, the .gz just
# made or the last --augment_trace output would otherwise take CPU from the run measured.
# And the runs are GAP seconds apart: on the 2-core virtual machine this was measured on,
# two-thread runs slow down by a third for spells of a second or more (consecutive runs
# alike), and runs back to back would all land in one spell.
BEST=${BENCH_RUNS:-3}
GAP=${BENCH_GAP:-1}
TEMPLATES=$(ls testdata/traces/*.json)
DIR=$(mktemp -d "${TMPDIR:-/tmp}/profana-bench.XXXXXX") || exit 1
trap 'rm -rf "$DIR"' EXIT INT TERM

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
mem=$(awk '/MemTotal/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo)
echo "profana bench on: $cpu, $(nproc) cores, $mem GB memory ($(uname -sr))"
echo "traces: testdata/traces/*.json replicated with fresh ids and shifted times (tests/bench/gen_trace.c), in $DIR"
echo

# fastest N CMD...: the fastest of N runs of `bench_run CMD...` (its output line).
fastest() {
    n=$1
    shift
    for i in $(seq "$n"); do
        [ "$i" -gt 1 ] && sleep "$GAP"
        sync
        "$RUN" "$@"
    done | sort -n | head -n 1
}

# measure LABEL NAME BYTES EVENTS JSON_SECS CMD...: times CMD (stdout to $DIR/out) and
# prints a row for an input of BYTES bytes holding EVENTS events: the fastest of $BEST runs.
measure() {
    label=$1 name=$2 bytes=$3 events=$4 base=$5
    shift 5
    set -- $(fastest "$BEST" time "$DIR/out" "$@")
    secs=$1 peak=$2 status=$3
    awk -v l="$label" -v f="$name" -v b="$bytes" -v n="$events" -v s="$secs" -v p="$peak" \
        -v j="$base" -v st="$status" 'BEGIN {
        ratio = (j > 0 && s > 0) ? sprintf("%.1fx", j / s) : "-"
        if (st != 0) ratio = ratio " (exit " st ")"
        printf "%-22s %-26s %8.1f %7.2f %8.0f %11.0f %8.0f %6.1f%%  %s\n", f, l, b / 1e6, s, b / 1e6 / s, n / s,
               p / 1024, 100 * p * 1024 / b, ratio }'
    LAST_SECS=$secs
}

header() {
    printf "%-22s %-26s %8s %7s %8s %11s %8s %7s  %s\n" trace command MB seconds MB/s events/s "peak MB" "of file" \
        "vs json.load"
}

json_load() { # FILE EVENTS: times json.load (one run), sets JSON_SECS (0 when skipped)
    JSON_SECS=0
    [ "${BENCH_JSON:-1}" = 0 ] && return
    runs=$BEST
    BEST=1
    measure "python3 json.load" "$(basename "$1")" "$(wc -c <"$1")" "$2" 0 \
        python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$1"
    BEST=$runs
    JSON_SECS=$LAST_SECS
}

not_implemented() { # ARGS: the subcommand is still a placeholder
    "$BIN" "$@" 2>&1 | grep -q "not implemented yet"
}

header
for mb in $SIZES; do
    t=$DIR/trace_${mb}MB.json
    events=$("$GEN" "$t" "$mb" $TEMPLATES | cut -d ' ' -f 1) || exit 1
    name=$(basename "$t")
    bytes=$(wc -c <"$t")
    json_load "$t" "$events"
    for j in $(printf '1\n2\n%s\n' "$(nproc)" | sort -nu); do
        measure "--analysis -j $j" "$name" "$bytes" "$events" "$JSON_SECS" "$BIN" --analysis "$t" bf16 --quiet -j "$j"
    done
    measure "--analysis - (a pipe)" "$name" "$bytes" "$events" "$JSON_SECS" \
        sh -c "cat '$t' | '$BIN' --analysis - bf16 --quiet"
    if not_implemented --augment_trace "$DIR/none" "$DIR/none.out" bf16; then
        echo "TODO: --augment_trace is not implemented yet; rerun make bench once it is"
    else
        measure "--augment_trace" "$name" "$bytes" "$events" "$JSON_SECS" \
            "$BIN" --augment_trace "$t" "$DIR/augmented.json" bf16 --quiet
        rm -f "$DIR/augmented.json"
    fi
    gzip -1 -c "$t" >"$t.gz"
    set -- $(fastest "$BEST" inflate "$t.gz")
    zsecs=$1
    measure "--analysis .json.gz" "$name.gz" "$bytes" "$events" "$JSON_SECS" "$BIN" --analysis "$t.gz" bf16 --quiet
    awk -v s="$LAST_SECS" -v z="$zsecs" -v b="$bytes" 'BEGIN {
        printf "%-22s %-26s %8.1f %7.2f %8.0f   (.json.gz read at %.0f%% of the speed of zlib inflate alone)\n",
               "", "zlib inflate alone", b / 1e6, z, b / 1e6 / z, 100 * z / s }'
    rm -f "$t" "$t.gz"
done

if not_implemented --diff "$DIR/none" A "$DIR/none" B bf16; then
    echo "TODO: --diff is not implemented yet; rerun make bench once it is"
else
    a=$DIR/diff_a.json
    b=$DIR/diff_b.json
    ea=$("$GEN" "$a" "$DIFF_MB" $TEMPLATES | cut -d ' ' -f 1) || exit 1
    eb=$("$GEN" "$b" "$DIFF_MB" $(ls -r testdata/traces/*.json) | cut -d ' ' -f 1) || exit 1
    measure "--diff A B (sizes summed)" "A+B: 2 x ${DIFF_MB} MB" "$(($(wc -c <"$a") + $(wc -c <"$b")))" \
        "$((ea + eb))" 0 "$BIN" --diff "$a" A "$b" B bf16 --quiet
fi

# --ranks over many ranks' summaries: the FSDP2 pair of testdata/multirank/ summarised, then
# copied to BENCH_RANKS ranks with shifted times (tests/bench/gen_summaries.py); the row's
# MB are the summaries' bytes, its events their communication kernels.
RANKS=${BENCH_RANKS:-1000}
mkdir -p "$DIR/summaries"
for r in 0 1; do
    "$BIN" --analysis "testdata/multirank/fsdp2_bf16_rank$r.json.gz" bf16 --summary "$DIR/pair$r.summary" --quiet \
        >/dev/null || exit 1
done
kernels=$(python3 tests/bench/gen_summaries.py "$DIR/summaries" "$RANKS" "$DIR/pair0.summary" "$DIR/pair1.summary") ||
    exit 1
measure "--ranks (summaries)" "$RANKS rank summaries" "$(cat "$DIR"/summaries/* | wc -c)" "$kernels" 0 \
    "$BIN" --ranks "$DIR/summaries" bf16 --quiet

# The scaling table: one trace at -j 1, 2, 4, 8, 16 (those the host has cores for), with the
# speed-up over -j 1 (tests/bench/scaling.sh), on the largest of the sizes (BENCH_SCALING_MB overrides).
echo
BENCH_RUNS=$BEST BENCH_GAP=$GAP ./tests/bench/scaling.sh "$B" ${BENCH_SCALING_MB:-$(printf "%s\n" $SIZES | sort -n | tail -n 1)}
