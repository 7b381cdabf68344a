# test_summary.sh - --analysis --summary and --ranks over summaries on the two-rank H200 traces (testdata/multirank/): --ranks over summaries prints byte for byte what it prints over the traces (text, JSON, CSV; files, a directory found by content, gzip); a summary's members against the raw events; the per-step figures against tests/cli/ranks_oracle.py; another version and broken summaries refused with one line; the README's commands.
# check: valgrind
. tests/cli/lib.sh

MR=testdata/multirank
mkdir -p "$TMP/sum" "$TMP/dir"

# Every trace summarised; FSDP2's rank 1 with a name that says nothing of what it holds.
for t in fsdp2_bf16_rank0 fsdp2_bf16_rank1 tp_collectives_bf16_rank0 tp_collectives_bf16_rank1; do
    check_run "summary of $t" 0 "$PROFANA" --analysis "$MR/$t.json.gz" bf16 --summary "$TMP/sum/$t.json" --quiet
done
check_grep "--summary prints the analysis as well" "^Device [0-9]" "$TMP/out"
mv "$TMP/sum/fsdp2_bf16_rank1.json" "$TMP/sum/fsdp2_r1.out"
check_eq "no temporary file left beside the summaries" "$(ls "$TMP/sum" | wc -l | tr -d ' ')" 4

# same NAME ARGS...: --ranks over the traces and over their summaries, byte for byte, in text,
# JSON and CSV. The arguments are pairs: a trace, then its summary.
same() {
    name=$1
    shift
    traces= sums=
    while [ $# -gt 0 ]; do
        traces="$traces $1"
        sums="$sums $2"
        shift 2
    done
    for fmt in text json csv; do
        # shellcheck disable=SC2086
        "$PROFANA" --ranks $traces bf16 --format "$fmt" >"$TMP/traces.$fmt" 2>"$TMP/traces.err"
        # shellcheck disable=SC2086
        "$PROFANA" --ranks $sums bf16 --format "$fmt" >"$TMP/sums.$fmt" 2>"$TMP/sums.err"
        if [ -s "$TMP/traces.$fmt" ] && cmp -s "$TMP/traces.$fmt" "$TMP/sums.$fmt"; then
            pass "$name: --ranks over summaries = over traces ($fmt, $(wc -c <"$TMP/sums.$fmt" | tr -d ' ') bytes)"
        else
            fail "$name: --ranks over summaries = over traces ($fmt)" "$(diff "$TMP/traces.$fmt" "$TMP/sums.$fmt" | head -c 400) $(cat "$TMP/sums.err")"
        fi
    done
}

same fsdp2 "$MR/fsdp2_bf16_rank0.json.gz" "$TMP/sum/fsdp2_bf16_rank0.json" \
    "$MR/fsdp2_bf16_rank1.json.gz" "$TMP/sum/fsdp2_r1.out"
same tp "$MR/tp_collectives_bf16_rank1.json.gz" "$TMP/sum/tp_collectives_bf16_rank1.json" \
    "$MR/tp_collectives_bf16_rank0.json.gz" "$TMP/sum/tp_collectives_bf16_rank0.json"
same "tp, one trace and one summary" "$MR/tp_collectives_bf16_rank0.json.gz" "$MR/tp_collectives_bf16_rank0.json.gz" \
    "$MR/tp_collectives_bf16_rank1.json.gz" "$TMP/sum/tp_collectives_bf16_rank1.json"

# A directory: the summaries are found by their content, whatever their names; other files are
# left alone. A summary written to a .gz name is compressed and read back.
cp "$TMP/sum/fsdp2_bf16_rank0.json" "$TMP/dir/zero"
cp "$TMP/sum/fsdp2_r1.out" "$TMP/dir/one.summary"
echo "notes" >"$TMP/dir/notes.txt"
check_run "directory of summaries" 0 "$PROFANA" --ranks "$TMP/dir" bf16 --format json
"$PROFANA" --ranks "$MR/fsdp2_bf16_rank0.json.gz" "$MR/fsdp2_bf16_rank1.json.gz" bf16 --format json >"$TMP/fsdp.json"
check_eq "directory: the traces' output" "$(cmp -s "$TMP/out" "$TMP/fsdp.json" && echo same)" same
check_run "gzip summary" 0 "$PROFANA" --analysis "$MR/tp_collectives_bf16_rank0.json.gz" bf16 --summary "$TMP/t0.json.gz" --quiet
check_eq "gzip summary: compressed" "$(head -c 2 "$TMP/t0.json.gz" | od -An -tx1 | tr -d ' ')" 1f8b
check_run "gzip summary read" 0 "$PROFANA" --ranks "$TMP/t0.json.gz" "$TMP/sum/tp_collectives_bf16_rank1.json" bf16 --format json
"$PROFANA" --ranks "$MR/tp_collectives_bf16_rank0.json.gz" "$MR/tp_collectives_bf16_rank1.json.gz" bf16 --format json >"$TMP/tp.json"
check_eq "gzip summary: the traces' output" "$(cmp -s "$TMP/out" "$TMP/tp.json" && echo same)" same
check_run "--summary -" 0 "$PROFANA" --analysis "$MR/tp_collectives_bf16_rank0.json.gz" bf16 --summary - --quiet
check_eq "--summary - prints the summary alone" "$(cmp -s "$TMP/out" "$TMP/sum/tp_collectives_bf16_rank0.json" && echo same)" same

# A summary's members against the raw events: version, trace, rank, device, and one record per
# NCCL kernel in start order with its args.
python3 - "$MR/fsdp2_bf16_rank1.json.gz" "$TMP/sum/fsdp2_r1.out" <<'PY'
import gzip, json, sys
sys.path.insert(0, "tests/cli")
from raw import check, ns
from decimal import Decimal
d = json.load(gzip.open(sys.argv[1], "rt"), parse_float=Decimal)
s = json.load(open(sys.argv[2]))
check("members", "schema profana/1, then profana_summary: version 1", list(s)[:2] == ["schema", "profana_summary"] and s["schema"] == "profana/1" and s["profana_summary"] == 1)
check("members", "trace as given", s["trace"] == sys.argv[1])
check("members", "rank from distributedInfo", s["rank"] == d["distributedInfo"]["rank"] == 1)
check("members", "device H200", s["device"] == "H200" and d["deviceProperties"][0]["name"] == "NVIDIA H200")
nccl = sorted((e for e in d["traceEvents"] if e.get("ph") == "X" and e.get("cat") == "kernel" and "nccl" in e["name"].lower()),
              key=lambda e: ns(e["ts"]))
k = s["comm_kernels"]
check("members", "one record per NCCL kernel (%d)" % len(nccl), len(k) == len(nccl))
check("members", "their starts and durations", [(c["ts_ns"], c["dur_ns"]) for c in k] == [(ns(e["ts"]), ns(e["dur"])) for e in nccl])
named = [(c, e) for c, e in zip(k, nccl) if "Collective name" in e["args"]]
check("members", "names, groups and sizes from the args",
      all(c["name"] == e["args"]["Collective name"] and c["process_group"] == e["args"]["Process Group Name"]
          and c["group_size"] == e["args"]["Group size"] for c, e in named) and len(named) > 0)
check("members", "4 kernels without args have null name and bytes",
      sum(1 for c in k if c["name"] is None and c["bytes"] is None) == len(nccl) - len(named) == 4)
check("members", "steps #2..#5", [st["step"] for st in s["steps"]] == [2, 3, 4, 5])
PY

# Per-step figures against the oracle, from the summaries.
"$PROFANA" --ranks "$TMP/sum/fsdp2_bf16_rank0.json" "$TMP/sum/fsdp2_r1.out" bf16 --format json >"$TMP/steps.json"
"$PROFANA" --ranks "$TMP/sum/tp_collectives_bf16_rank0.json" "$TMP/sum/tp_collectives_bf16_rank1.json" bf16 --format json >"$TMP/tpsteps.json"
run_oracle tests/cli/ranks_oracle.py "$MR/fsdp2_bf16_rank1.json.gz" "$MR/fsdp2_bf16_rank0.json.gz" >"$TMP/steps.want"
run_oracle tests/cli/ranks_oracle.py "$MR/tp_collectives_bf16_rank0.json.gz" "$MR/tp_collectives_bf16_rank1.json.gz" >"$TMP/tpsteps.want"
python3 - "$TMP/steps.json" "$TMP/steps.want" "$TMP/tpsteps.json" "$TMP/tpsteps.want" <<'PY'
import json, sys
sys.path.insert(0, "tests/cli")
from raw import check
for name, got, want in (("fsdp2", sys.argv[1], sys.argv[2]), ("tp", sys.argv[3], sys.argv[4])):
    g, w = json.load(open(got))["steps"], json.load(open(want))["steps"]
    check(name, "steps: %d rows, (rank, step) as the oracle's" % len(w), [(r["rank"], r["step"]) for r in g] ==
          [(r["rank"], r["step"]) for r in w] and len(w) == 8)
    for a, b in zip(g, w):
        for k in ("gpu_us", "busy_us", "comm_us", "exposed_comm_us", "idle_us", "span_us"):
            check(name, "rank %d step %d %s %s" % (b["rank"], b["step"], k, a[k]),
                  abs(a[k] - b[k]) <= 1e-9 * max(1.0, abs(b[k])), "want %s" % b[k])
        pct = a["exposed_pct"]
        check(name, "rank %d step %d exposed_pct <= 100" % (b["rank"], b["step"]),
              pct is not None and 0 <= pct <= 100 and abs(pct - 100 * b["exposed_comm_us"] / b["comm_us"]) < 0.006)
g = json.load(open(sys.argv[1]))
check("fsdp2", "the steps of a rank sum to no more than its GPU time",
      all(sum(s["gpu_us"] for s in g["steps"] if s["rank"] == r["rank"]) <= r["gpu_us"] + 1e-6 for r in g["ranks"]))
PY

# Another version, and broken summaries: one line, exit 1.
sed 's/"profana_summary":1/"profana_summary":2/' "$TMP/sum/tp_collectives_bf16_rank1.json" >"$TMP/v2.json"
check_run "version 2" 1 "$PROFANA" --ranks "$TMP/sum/tp_collectives_bf16_rank0.json" "$TMP/v2.json" bf16
check_eq "version 2: one line" "$(wc -l <"$TMP/err" | tr -d ' ')" 1
check_grep "version 2: says so" "^profana: error: $TMP/v2.json: a profana summary of version 2; this profana reads version 1" "$TMP/err"
head -c 500 "$TMP/sum/tp_collectives_bf16_rank1.json" >"$TMP/cut.json"
check_run "cut summary" 1 "$PROFANA" --ranks "$TMP/sum/tp_collectives_bf16_rank0.json" "$TMP/cut.json" bf16
check_eq "cut summary: one line" "$(wc -l <"$TMP/err" | tr -d ' ')" 1
check_grep "cut summary: where" "^profana: error: $TMP/cut.json: byte 500: " "$TMP/err"
sed 's/"busy_ns":[0-9]*,//' "$TMP/sum/tp_collectives_bf16_rank1.json" >"$TMP/nobusy.json"
check_run "summary without busy_ns" 1 "$PROFANA" --ranks "$TMP/sum/tp_collectives_bf16_rank0.json" "$TMP/nobusy.json" bf16
check_grep "summary without busy_ns: says which" "^profana: error: $TMP/nobusy.json: byte [0-9]*: the summary has no \"busy_ns\"" "$TMP/err"
sed 's/"dur_ns":[0-9]*/"dur_ns":"x"/' "$TMP/sum/tp_collectives_bf16_rank1.json" >"$TMP/mistyped.json"
check_run "mistyped summary" 1 "$PROFANA" --ranks "$TMP/sum/tp_collectives_bf16_rank0.json" "$TMP/mistyped.json" bf16
check_eq "mistyped summary: one line" "$(wc -l <"$TMP/err" | tr -d ' ')" 1
cp "$TMP/sum/tp_collectives_bf16_rank0.json" "$TMP/rank0_again.json"
check_run "two summaries of one rank" 1 "$PROFANA" --ranks "$TMP/sum/tp_collectives_bf16_rank0.json" "$TMP/rank0_again.json" bf16
check_grep "two summaries of one rank: message" "rank 0 is also the rank of" "$TMP/err"
check_run "a summary named twice" 2 "$PROFANA" --ranks "$TMP/sum/tp_collectives_bf16_rank0.json" "$TMP/sum/tp_collectives_bf16_rank0.json" bf16
check_grep "a summary named twice: message" "the same file as $TMP/sum/tp_collectives_bf16_rank0.json: a trace named twice" "$TMP/err"

# --summary refuses what it cannot do: standard input (the trace is read twice); its own input,
# --step and --explain are rows of tests/cli/usage_errors.tsv.
check_run "--summary of standard input" 2 sh -c "'$PROFANA' --analysis - bf16 --summary '$TMP/x.json' <'$MR/tp_collectives_bf16_rank0.json.gz'"
check_run "--summary into a directory" 1 "$PROFANA" --analysis "$MR/tp_collectives_bf16_rank0.json.gz" bf16 --summary "$TMP/dir" --quiet
check_run "--summary of a broken trace" 1 "$PROFANA" --analysis tests/broken/bad_escape_in_name.json bf16 --summary "$TMP/b.json"
check_eq "--summary of a broken trace: no file" "$(ls "$TMP/b.json" 2>/dev/null)" ""

# The README's commands (section "Rank summaries" under --ranks), as written, with traces/ and summaries/
# in a scratch directory holding the traces under the README's names.
mkdir -p "$TMP/readme/traces" "$TMP/readme/summaries"
cp "$MR/tp_collectives_bf16_rank0.json.gz" "$TMP/readme/traces/rank0.json.gz"
cp "$MR/tp_collectives_bf16_rank1.json.gz" "$TMP/readme/traces/rank1.json.gz"
sed -n '/^## Rank summaries/,/^# /p' docs/ranks.md | sed -n 's/^\$ profana //p' >"$TMP/readme.cmds"
check_eq "README: four summary commands" "$(wc -l <"$TMP/readme.cmds" | tr -d ' ')" 4
while read -r line; do
    # shellcheck disable=SC2086
    set -- $(echo "$line" | sed "s# traces/# $TMP/readme/traces/#g; s# summaries# $TMP/readme/summaries#g")
    check_run "README: profana $line" 0 "$PROFANA" "$@" --quiet
done <"$TMP/readme.cmds"
check_eq "README: the summaries are written" "$(ls "$TMP/readme/summaries" | wc -l | tr -d ' ')" 2
check_eq "README: the last command (--ranks over the directory) as over the traces" \
    "$("$PROFANA" --ranks "$TMP/readme/traces" bf16 --format json | cmp -s - "$TMP/out" && echo same)" same
