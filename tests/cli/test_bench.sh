# test_bench.sh - make bench's parts: gen_trace's copies keep their links (counts, time, FLOPs and unlinked kernels scale with the copies), and tests/bench/run.sh on small sizes prints every row.
# check: every build
# check: optimised
. tests/cli/lib.sh
set -u

# The tools are built beside the binary under test; under valgrind PROFANA is a wrapper and
# there is no build beside it (the plain and the sanitizer runs cover this file).
B=$(dirname "$PROFANA")
GEN=$B/bench/gen_trace
[ -x "$GEN" ] && [ -x "$B/bench/bench_run" ] || exit 0

# ---- gen_trace: copies of one template ----
T=$TRACES/eager_bf16.json
"$GEN" "$TMP/gen.json" 4 "$T" >"$TMP/gen_out"
check_eq "gen_trace: exit 0" "$?" 0
copies=$(cut -d ' ' -f 2 "$TMP/gen_out")
check_eq "gen_trace: 4 MB of a 1.2 MB trace takes 4 copies" "$copies" 4
check_near "gen_trace: the file holds 4 MB" "$(wc -c <"$TMP/gen.json")" 4000000 0.35
# Read with Python: every copy's kernels, and cpu_op ids that never repeat.
python3 - "$T" "$TMP/gen.json" "$copies" >"$TMP/gen_py" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))["traceEvents"]
g = json.load(open(sys.argv[2]))["traceEvents"]
c = int(sys.argv[3])
kern = lambda ev: [e for e in ev if e.get("cat") == "kernel"]
ids = [e["args"]["External id"] for e in g if e.get("cat") == "cpu_op"]
print(len(kern(t)) * c, len(kern(g)))
print(len(ids), len(set(ids)))
print(round(sum(e["dur"] for e in kern(t)) * c, 3), round(sum(e["dur"] for e in kern(g)), 3))
EOF
set -- $(sed -n 1p "$TMP/gen_py")
check_eq "gen_trace: kernels = 4 x the template's (Python)" "$2" "$1"
set -- $(sed -n 2p "$TMP/gen_py")
check_eq "gen_trace: every cpu_op's External id is fresh (Python)" "$2" "$1"
set -- $(sed -n 3p "$TMP/gen_py")
check_near "gen_trace: kernel time = 4 x the template's (Python)" "$2" "$1" 1e-9
# profana: kernels link to their own copy's op, so the figures scale with the copies.
"$PROFANA" --analysis "$T" bf16 --format json >"$TMP/tmpl.json" 2>/dev/null
"$PROFANA" --analysis "$TMP/gen.json" bf16 --format json >"$TMP/gen_an.json" 2>/dev/null
for f in gpu_activities unlinked; do
    check_eq "gen_trace: $f = 4 x the template's" "$(json "d['$f']" "$TMP/gen_an.json")" \
        "$(json "d['$f'] * 4" "$TMP/tmpl.json")"
done
check_near "gen_trace: FLOPs = 4 x the template's" "$(json "d['devices'][0]['total']['flop']" "$TMP/gen_an.json")" \
    "$(json "d['devices'][0]['total']['flop'] * 4" "$TMP/tmpl.json")" 1e-12
check_near "gen_trace: bytes = 4 x the template's" "$(json "d['devices'][0]['total']['bytes']" "$TMP/gen_an.json")" \
    "$(json "d['devices'][0]['total']['bytes'] * 4" "$TMP/tmpl.json")" 1e-12

# ---- run.sh: every row, on 2 MB traces, one run each ----
BENCH_SIZES=2 BENCH_DIFF_MB=1 BENCH_RUNS=1 BENCH_JSON=0 BENCH_RANKS=6 sh tests/bench/run.sh "$B" >"$TMP/bench" 2>&1
check_eq "make bench (2 MB): exit 0" "$?" 0
for row in "--analysis -j 1" "--analysis -j 2" "--analysis - (a pipe)" "--augment_trace" "--analysis .json.gz" \
    "zlib inflate alone" "--diff A B" "--ranks (summaries)"; do
    check_grep "make bench (2 MB): a row for $row" "$row" "$TMP/bench"
done
if grep -q "(exit" "$TMP/bench"; then fail "make bench (2 MB): every command exits 0" "$(grep "(exit" "$TMP/bench")"; else
    pass "make bench (2 MB): every command exits 0"; fi
check_grep "make bench (2 MB): the gzip row says its share of zlib's speed" "read at [0-9]*% of the speed of zlib" "$TMP/bench"

# ---- gen_summaries.py: 6 ranks from the FSDP2 pair match as 3 pairs ----
"$PROFANA" --analysis testdata/multirank/fsdp2_bf16_rank0.json.gz bf16 --summary "$TMP/p0.summary" --quiet >/dev/null
"$PROFANA" --analysis testdata/multirank/fsdp2_bf16_rank1.json.gz bf16 --summary "$TMP/p1.summary" --quiet >/dev/null
mkdir -p "$TMP/six"
python3 tests/bench/gen_summaries.py "$TMP/six" 6 "$TMP/p0.summary" "$TMP/p1.summary" >/dev/null
"$PROFANA" --ranks testdata/multirank/fsdp2_bf16_rank0.json.gz testdata/multirank/fsdp2_bf16_rank1.json.gz bf16 \
    --format json >"$TMP/pair.json"
"$PROFANA" --ranks "$TMP/six" bf16 --format json >"$TMP/six.json"
check_eq "gen_summaries: 6 ranks" "$(json 'len(d["ranks"])' "$TMP/six.json")" 6
check_eq "gen_summaries: 3 pairs match 3 x the pair's instances" "$(json 'd["matched"]' "$TMP/six.json")" \
    "$(json '3 * d["matched"]' "$TMP/pair.json")"
check_eq "gen_summaries: nothing unmatched" "$(json 'd["unmatched"]' "$TMP/six.json")" 0
