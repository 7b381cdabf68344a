# test_ranks.sh - --ranks on the two-rank H200 traces (testdata/multirank/) against tests/cli/ranks_oracle.py, which reads the raw events: per rank GPU, busy, communication, exposed communication and idle time; every collective instance matched; transfer time, skew, bus bandwidth and percent of the NVLink peak; stragglers; ranks from distributedInfo or the order given; directories; errors.
# check: valgrind
. tests/cli/lib.sh

MR=testdata/multirank
F0=$MR/fsdp2_bf16_rank0.json.gz
F1=$MR/fsdp2_bf16_rank1.json.gz
T0=$MR/tp_collectives_bf16_rank0.json.gz
T1=$MR/tp_collectives_bf16_rank1.json.gz

# compare NAME GOT.json WANT.json: every figure of the oracle equals profana's (1e-9 relative:
# both are exact nanoseconds printed as microseconds), collective rows in the same order.
compare() {
    python3 - "$@" <<'PY'
import json, sys
sys.path.insert(0, "tests/cli")
from raw import check
name, got, want = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
def near(a, b):
    if b is None:
        return a is None
    return a is not None and abs(a - b) <= 1e-9 * max(1.0, abs(b))
check(name, "ranks in rank order", [r["rank"] for r in got["ranks"]] == [r["rank"] for r in want["ranks"]])
for g, w in zip(got["ranks"], want["ranks"]):
    for k in ("gpu_us", "busy_us", "comm_us", "exposed_comm_us", "idle_us", "span_us", "compute_us"):
        check(name, "rank %d %s %s" % (w["rank"], k, g[k]), near(g[k], w[k]), "want %s" % w[k])
check(name, "matched %d instances" % got["matched"], got["matched"] == want["matched"], "want %d" % want["matched"])
check(name, "collective rows", [(c["name"], c["bytes"]) for c in got["collectives"]] ==
      [(c["name"], c["bytes"]) for c in want["collectives"]], str(want["collectives"]))
for g, w in zip(got["collectives"], want["collectives"]):
    for k in ("process_group", "count"):
        check(name, "%s %s" % (w["name"], k), g[k] == w[k], "got %s want %s" % (g[k], w[k]))
    for k in ("transfer_us", "skew_us", "skew_max_us", "algbw_gbps", "busbw_gbps", "link_pct"):
        check(name, "%s %s %s" % (w["name"], k, g[k]), near(g[k], w[k]), "want %s" % w[k])
check(name, "stragglers", [(s["rank"], s["late"]) for s in got["stragglers"]] ==
      [(s["rank"], s["late"]) for s in want["stragglers"]], str(want["stragglers"]))
for g, w in zip(got["stragglers"], want["stragglers"]):
    check(name, "rank %d wait_us" % w["rank"], near(g["wait_us"], w["wait_us"]), "want %s" % w["wait_us"])
PY
}

# The FSDP2 pair, given in reverse order: ranks come from distributedInfo.rank.
check_run "fsdp2 json" 0 "$PROFANA" --ranks "$F1" "$F0" bf16 --format json
cp "$TMP/out" "$TMP/fsdp.json"
run_oracle tests/cli/ranks_oracle.py "$F1" "$F0" >"$TMP/fsdp.want"
compare fsdp2 "$TMP/fsdp.json" "$TMP/fsdp.want"
check_eq "fsdp2: rank 1 (the one that sleeps) is the top straggler" \
    "$(json 'd["stragglers"][0]["rank"]' "$TMP/fsdp.json")" 1
check_eq "fsdp2: 4 NCCL kernels of rank 1 began before the profiler's window (no args)" \
    "$(json 'd["no_args"]' "$TMP/fsdp.json")" 4
check_eq "fsdp2: no collective left unmatched" "$(json 'd["unmatched"]' "$TMP/fsdp.json")" 0

# The tensor-parallel pair: all-reduce, all-gather, reduce-scatter and broadcast.
check_run "tp json" 0 "$PROFANA" --ranks "$T0" "$T1" bf16 --format json
cp "$TMP/out" "$TMP/tp.json"
run_oracle tests/cli/ranks_oracle.py "$T0" "$T1" >"$TMP/tp.want"
compare tp "$TMP/tp.json" "$TMP/tp.want"

# Bus bandwidth by hand for n = 2 from nccl-tests' factors: all-reduce 2(n-1)/n = 1, broadcast 1,
# all-gather and reduce-scatter (n-1)/n = 1/2; the all-reduce moves 8192 x 4096 bf16 = 67108864
# bytes (its record_param_comms' Input Dims), the all-gather's full buffer is twice its input.
python3 - "$TMP/tp.json" <<'PY'
import json, sys
sys.path.insert(0, "tests/cli")
from raw import check
d = json.load(open(sys.argv[1]))
rows = {c["name"]: c for c in d["collectives"]}
for name, f in (("allreduce", 1.0), ("broadcast", 1.0), ("_allgather_base", 0.5), ("_reduce_scatter_base", 0.5)):
    c = rows[name]
    check("tp hand", "%s busbw = algbw * %s" % (name, f), abs(c["busbw_gbps"] - f * c["algbw_gbps"]) < 1e-9)
    check("tp hand", "%s algbw = bytes / transfer" % name,
          abs(c["algbw_gbps"] - c["bytes"] / (c["transfer_us"] * 1000)) < 1e-9 * c["algbw_gbps"])
    check("tp hand", "%s link %% of 450 GB/s" % name, abs(c["link_pct"] - c["busbw_gbps"] / 4.5) < 1e-9)
check("tp hand", "all-reduce of 8192 x 4096 bf16", rows["allreduce"]["bytes"] == 8192 * 4096 * 2)
check("tp hand", "all-gather's full buffer", rows["_allgather_base"]["bytes"] == 2 * 8192 * 4096 * 2)
check("tp hand", "broadcast of 4096 x 4096 bf16", rows["broadcast"]["bytes"] == 4096 * 4096 * 2)
check("tp hand", "4 instances each (steps 2..5; step 1's began before the window)",
      all(c["count"] == 4 for c in rows.values()))
PY

# The text table carries the same figures; CSV and Markdown print the four tables and the culprits' two.
check_run "fsdp2 text" 0 "$PROFANA" --ranks "$F0" "$F1" bf16
check_grep "text: matched line" "48 instances matched on every rank of their group" "$TMP/out"
check_grep "text: link source" "Link: 450 GB/s per direction (NVLink 4" "$TMP/out"
check_grep "text: exposed comm" "$(json '"%.3f" % d["ranks"][0]["exposed_comm_us"]' "$TMP/fsdp.json")" "$TMP/out"
check_run "fsdp2 csv" 0 "$PROFANA" --ranks "$F0" "$F1" bf16 --format csv
check_eq "csv: six tables (ranks, steps, collectives, stragglers, culprits, late arrivals)" "$(grep -c '^Rank,\|^Collective,' "$TMP/out")" 6
check_grep "csv: the step table" "^Rank,Step," "$TMP/out"
check_run "fsdp2 md" 0 "$PROFANA" --ranks "$F0" "$F1" bf16 --format md -j 1
check_grep "md: pipe table" "^| Rank | Trace" "$TMP/out"

# A directory of traces; ranks without distributedInfo take their position in the order given.
mkdir -p "$TMP/dir"
cp "$T0" "$T1" "$TMP/dir/"
check_run "directory" 0 "$PROFANA" --ranks "$TMP/dir" bf16 --format json
check_eq "directory: same figures as the files" \
    "$(json '[r["comm_us"] for r in d["ranks"]]' "$TMP/out")" "$(json '[r["comm_us"] for r in d["ranks"]]' "$TMP/tp.json")"
for r in 0 1; do
    python3 -c "
import gzip, json, sys
d = json.load(gzip.open(sys.argv[1], 'rt'))
del d['distributedInfo']
json.dump(d, open(sys.argv[2], 'w'))" "$MR/tp_collectives_bf16_rank$r.json.gz" "$TMP/anon$r.json"
done
check_run "no distributedInfo" 0 "$PROFANA" --ranks "$TMP/anon1.json" "$TMP/anon0.json" bf16 --format json
check_eq "no distributedInfo: rank 0 is the first given" "$(json 'd["ranks"][0]["trace"]' "$TMP/out")" "$TMP/anon1.json"
check_eq "no distributedInfo: the same matches" "$(json 'd["matched"]' "$TMP/out")" 16

# Errors: two traces of one rank, standard input, an unknown DTYPE, a missing file.
cp "$T0" "$TMP/copy_of_rank0.json.gz"
check_run "duplicate rank" 1 "$PROFANA" --ranks "$T0" "$TMP/copy_of_rank0.json.gz" bf16
check_grep "duplicate rank: message" "rank 0 is also the rank of" "$TMP/err"
# One trace named twice (issue 48): by one path, by a symbolic link, by a hard link, as a
# directory's file and by its own path: refused in one line, exit 2, before anything is read
# (a trace without distributedInfo named twice was two ranks, exit 0).
check_run "the same trace twice" 2 "$PROFANA" --ranks "$T0" "$T0" bf16
check_eq "the same trace twice: one line" "$(cat "$TMP/err")" \
    "profana: error: $T0: the same file as $T0: a trace named twice would count as two ranks"
check_run "the same trace twice, no distributedInfo" 2 "$PROFANA" --ranks "$TMP/anon0.json" "$TMP/anon0.json" bf16
check_eq "the same trace twice, no distributedInfo: nothing printed" "$(wc -c <"$TMP/out")" 0
ln -s "$TMP/anon0.json" "$TMP/anon0.link.json"
ln "$TMP/anon0.json" "$TMP/anon0.hard.json"
check_run "the same trace by a symbolic link" 2 "$PROFANA" --ranks "$TMP/anon0.json" "$TMP/anon0.link.json" bf16
check_grep "the same trace by a symbolic link: named" "^profana: error: $TMP/anon0.link.json: the same file as $TMP/anon0.json" "$TMP/err"
check_run "the same trace by a hard link" 2 "$PROFANA" --ranks "$TMP/anon0.hard.json" "$TMP/anon1.json" "$TMP/anon0.json" bf16
check_eq "the same trace by a hard link: one line" "$(wc -l <"$TMP/err")" 1
mkdir "$TMP/twice" && cp "$TMP/anon1.json" "$TMP/twice/r1.json"
check_run "a directory's trace named again" 2 "$PROFANA" --ranks "$TMP/twice" "$TMP/twice/./r1.json" bf16
check_eq "a directory's trace named again: one line" "$(wc -l <"$TMP/err")" 1
check_run "missing file" 1 "$PROFANA" --ranks "$T0" "$TMP/nope.json" bf16
check_grep "missing file: one error line" "^profana: error: $TMP/nope.json" "$TMP/err"

# docs/ranks.md's example prints what profana prints.
python3 - "$PROFANA" <<'PY'
import subprocess, sys
sys.path.insert(0, "tests/cli")
from raw import check
text = open("docs/ranks.md").read()
cmd = "$ profana --ranks testdata/multirank/tp_collectives_bf16_rank0.json.gz testdata/multirank/tp_collectives_bf16_rank1.json.gz bf16\n"
start = text.index(cmd) + len(cmd)
want = text[start:text.index("```", start)]
args = cmd.split()[2:]
import os
# the width the README examples are shown at
got = subprocess.run([sys.argv[1]] + args, capture_output=True, text=True, env={**os.environ, "COLUMNS": "120"}).stdout
check("readme", "the --ranks example is what profana prints", got == want, "got:\n" + got)
PY
