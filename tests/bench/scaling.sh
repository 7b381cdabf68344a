#!/bin/sh
# scaling.sh - the scaling table of `make bench`: one generated trace read with --analysis at -j 1, 2, 4, 8, 16 (those the host has cores for), each the fastest of BENCH_RUNS runs: seconds, MB/s, peak memory, and speed-up over -j 1.
# Usage: tests/bench/scaling.sh BUILD_DIR [MB...]   (profana, bench/gen_trace and bench/bench_run built;
# sizes in MB, default 300). BENCH_RUNS (3), BENCH_GAP (1 s between runs), BENCH_JOBS ("1 2 4 8 16")
# and BENCH_TRACE (an existing trace to use instead of generating one) override.
set -u
cd "$(dirname "$0")/../.." || exit 2
B=${1:-build}
[ $# -gt 0 ] && shift
SIZES=${*:-300}
BIN=$B/profana
GEN=$B/bench/gen_trace
RUN=$B/bench/bench_run
BEST=${BENCH_RUNS:-3}
GAP=${BENCH_GAP:-1}
CORES=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
JOBS=${BENCH_JOBS:-"1 2 4 8 16"}
DIR=$(mktemp -d "${TMPDIR:-/tmp}/profana-scaling.XXXXXX") || exit 1
trap 'rm -rf "$DIR"' EXIT INT TERM

fastest() { # N CMD...: the fastest of N runs of `bench_run time` (its line: SECONDS PEAK_KB STATUS)
    n=$1
    shift
    for i in $(seq "$n"); do
        [ "$i" -gt 1 ] && sleep "$GAP"
        sync
        "$RUN" time "$DIR/out" "$@"
    done | sort -n | head -n 1
}

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
echo "profana scaling on: $cpu, $CORES cores, $(date -u '+%Y-%m-%d %H:%M UTC'), fastest of $BEST runs"
printf "%-18s %4s %8s %8s %8s %8s %7s %8s\n" trace "-j" MB seconds MB/s "peak MB" "of file" speed-up
for mb in $SIZES; do
    if [ -n "${BENCH_TRACE:-}" ]; then
        t=$BENCH_TRACE
    else
        t=$DIR/trace_${mb}MB.json
        "$GEN" "$t" "$mb" testdata/traces/*.json >/dev/null || exit 1
    fi
    bytes=$(wc -c <"$t")
    base=0
    for j in $JOBS; do
        [ "$j" -gt "$CORES" ] && continue
        set -- $(fastest "$BEST" "$BIN" --analysis "$t" bf16 --quiet -j "$j")
        [ "$3" -ne 0 ] && echo "profana exited $3 at -j $j" >&2
        [ "$j" -eq 1 ] && base=$1
        awk -v f="$(basename "$t")" -v j="$j" -v b="$bytes" -v s="$1" -v p="$2" -v z="$base" 'BEGIN {
            printf "%-18s %4d %8.1f %8.3f %8.0f %8.1f %6.1f%% %7.2fx\n", f, j, b / 1e6, s, b / 1e6 / s, p / 1024,
                   100 * p * 1024 / b, (z > 0 ? z / s : 0) }'
    done
    [ -z "${BENCH_TRACE:-}" ] && rm -f "$t"
done
