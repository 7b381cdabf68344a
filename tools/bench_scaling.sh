#!/bin/sh
# bench_scaling.sh - one command for the scaling table on any host: builds profana and the bench tools, generates traces from testdata/, and prints seconds, MB/s, peak memory and speed-up at -j 1, 2, 4, 8, 16 (those the host has cores for).
# Usage: tools/bench_scaling.sh [MB...]   (default: 300 1000 4000 on 8 or more cores, else 300)
# Needs only this repository, a C compiler, make, libcjson and zlib; no network. The traces go
# to $TMPDIR (4 GB of disk for the 4000 MB one) and are removed afterwards. BENCH_RUNS (3),
# BENCH_GAP (1 s) and BENCH_JOBS ("1 2 4 8 16") as for tests/bench/scaling.sh.
set -u
cd "$(dirname "$0")/.." || exit 2
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
if [ $# -eq 0 ]; then
    if [ "$cores" -ge 8 ]; then set -- 300 1000 4000; else set -- 300; fi
fi
B=${BUILD:-build}
make --no-print-directory -j"$cores" BUILD="$B" "$B/profana" "$B/bench/gen_trace" "$B/bench/bench_run" >/dev/null || exit 1
exec tests/bench/scaling.sh "$B" "$@"
