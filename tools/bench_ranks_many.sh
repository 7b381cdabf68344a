#!/bin/sh
# bench_ranks_many.sh - `--ranks` over N rank summaries (default 10,000): the tensor-parallel pair of testdata/multirank/ summarised with --summary and copied by tests/bench/gen_summaries.py (each pair its own process group, times shifted), then `--ranks DIR` timed three times (text and JSON; wall, user and system seconds, peak memory by /usr/bin/time), the best of three printed. Not part of make check (docs/performance.md, "Many rank summaries").
# Usage: tools/bench_ranks_many.sh [PROFANA] [N]
set -eu
P=${1:-./build/profana}
N=${2:-10000}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
M=testdata/multirank
"$P" --analysis $M/tp_collectives_bf16_rank0.json.gz bf16 --summary "$T/r0.json" >/dev/null
"$P" --analysis $M/tp_collectives_bf16_rank1.json.gz bf16 --summary "$T/r1.json" >/dev/null
mkdir "$T/s"
kernels=$(python3 tests/bench/gen_summaries.py "$T/s" "$N" "$T/r0.json" "$T/r1.json")
echo "$N summaries, $(du -sk "$T/s" | cut -f1) kB, $kernels communication kernels; load: $(cut -d' ' -f1-3 /proc/loadavg)"
for fmt in text json; do
    for i in 1 2 3; do
        sync
        /usr/bin/time -f "%e %U %S %M" -o "$T/t$i" "$P" --ranks "$T/s" bf16 --format "$fmt" >/dev/null
        sleep 1
    done
    # the run of least CPU (user + sys)
    cat "$T/t1" "$T/t2" "$T/t3" | awk -v f="$fmt" '{ c = $2 + $3; if (NR == 1 || c < best) { best = c; line = $0 } }
        END { split(line, a, " "); printf "%-4s wall %.2f s, user %.2f s, sys %.2f s, user+sys %.2f s, peak %d MB\n", f, a[1], a[2], a[3], a[2] + a[3], a[4] / 1024 }'
done
