# test_ranks_inspector.sh - --ranks over NCCL Inspector logs (the plugin's documented format, written here by Python): each collective's arrivals, late rank and skew by hand (from starts, and from durations without event_trace_ts), the ranks that imposed the waiting, logs beside the bundled tensor-parallel pair joined with its collectives by communicator ranks and sequence number (offset 5), logs alone, told by content in a directory, and bad input refused with one line naming the byte.
. tests/cli/lib.sh

PAIR="testdata/multirank/tp_collectives_bf16_rank0.json.gz testdata/multirank/tp_collectives_bf16_rank1.json.gz"
mkdir -p "$TMP/logs"
# Four ranks (world communicator 0xa0, 4 ranks); ranks 2 and 3 share 0xb1 (comm ranks 0 and 1)
# without event_trace_ts; ranks 0 and 1 share 0xc2, the tensor-parallel pair's 16 collectives
# (kinds in the pair's order) numbered from 5.
# shellcheck disable=SC2086
python3 - "$TMP/logs" $PAIR <<'PY'
import gzip, json, os, sys
out = sys.argv[1]
# the pair's collective kinds in order (rank 0's kernels with collective args, by start)
d = json.load(gzip.open(sys.argv[2], "rt"))
kinds = [e["args"]["Collective name"] for e in sorted((e for e in d["traceEvents"] if e.get("cat") == "kernel" and "Collective name" in e.get("args", {})), key=lambda e: e["ts"])]
nccl = {"allreduce": "AllReduce", "_allgather_base": "AllGather", "_reduce_scatter_base": "ReduceScatter", "broadcast": "Broadcast"}
def rec(comm, rank, n, coll, sn, exec_us, start=None, host=None, size=1048576):
    r = {"header": {"id": comm, "rank": rank, "n_ranks": n, "nnodes": 1},
         "metadata": {"inspector_output_format_version": "v4.0", "git_rev": "", "rec_mechanism": "profiler_plugin",
                      "dump_timestamp_us": 1748030377748202, "hostname": host, "pid": 100 + rank},
         "coll_perf": {"coll": coll, "coll_sn": sn, "coll_msg_size_bytes": size, "coll_exec_time_us": exec_us,
                       "coll_algobw_gbs": 10.0, "coll_busbw_gbs": 15.0}}
    if start is not None:
        r["coll_perf"]["event_trace_ts"] = {"coll_start_ts": start - 7, "coll_stop_ts": start - 2,
            "kernel_events": [{"channel_id": 0, "kernel_start_ts": start + 3, "kernel_stop_ts": start + exec_us},
                              {"channel_id": 1, "kernel_start_ts": start, "kernel_stop_ts": start + exec_us}]}
    return r
T = 1752867229000000
# 0xa0 sn 10: kernel starts +0, +50, +400, +20 us: rank 2 late by 400 us; imposes 400+350+0+380 = 1130 us
# 0xa0 sn 11: starts +5, +5, +5, +905: rank 3 late, skew 900, imposes 2700
# 0xb1 sn 3 (ranks 2, 3 as comm ranks 0, 1): 500 us and 120 us, no starts: rank 3 late by 380 (from durations)
logs = {r: [] for r in range(4)}
for r, s in enumerate([0, 50, 400, 20]):
    logs[r].append(rec("0xa0", r, 4, "AllReduce", 10, 800 - s, T + s, "node-%d" % (r // 2)))
for r, s in enumerate([5, 5, 5, 905]):
    logs[r].append(rec("0xa0", r, 4, "AllGather", 11, 1000 - s, T + 10000 + s, "node-%d" % (r // 2)))
logs[2].append(rec("0xb1", 0, 2, "Broadcast", 3, 500, None, "node-1"))
logs[3].append(rec("0xb1", 1, 2, "Broadcast", 3, 120, None, "node-1"))
# 0xb1 sn 4: only rank 2 logged it: not matched
logs[2].append(rec("0xb1", 0, 2, "Broadcast", 4, 50, None, "node-1"))
for r in (0, 1):
    for k, name in enumerate(kinds):
        logs[r].append(rec("0xc2", r, 2, nccl[name], 5 + k, 100 + r, T + 20000 + 1000 * k + 30 * r, "node-0"))
for r, recs in logs.items():
    with open(os.path.join(out, "nccl-inspector-rank%d.log" % r), "w") as f:
        for x in recs:
            f.write(json.dumps(x) + "\n")

PY

# logs alone: the hand figures
check_run "logs alone: --ranks" 0 "$PROFANA" --ranks "$TMP/logs" bf16 --format json
cp "$TMP/out" "$TMP/alone.json"
inst() { json "[i for i in d['inspector']['instances'] if i['communicator'] == '$1' and i['seq'] == $2][0]$3" "$TMP/alone.json"; }
check_eq "0xa0 #10: late rank" "$(inst 0xa0 10 "['late_rank']")" 2
check_eq "0xa0 #10: skew 400 us" "$(inst 0xa0 10 "['skew_us'] == 400")" True
check_eq "0xa0 #10: skew from starts" "$(inst 0xa0 10 "['skew_from']")" start
check_eq "0xa0 #10: rank 1 arrived (earliest channel's kernel)" "$(inst 0xa0 10 "['arrivals'][1]['start_us'] == 1752867229000050")" True
check_eq "0xa0 #11: late rank" "$(inst 0xa0 11 "['late_rank']")" 3
check_eq "0xa0 #11: skew 900 us" "$(inst 0xa0 11 "['skew_us'] == 900")" True
check_eq "0xb1 #3: late rank (the shortest: comm rank 1 is rank 3)" "$(inst 0xb1 3 "['late_rank']")" 3
check_eq "0xb1 #3: skew from durations, 380 us" "$(inst 0xb1 3 "['skew_from']") $(inst 0xb1 3 "['skew_us'] == 380")" "duration True"
check_eq "0xb1 #3: arrivals unknown" "$(inst 0xb1 3 "['arrivals'][0]['start_us']")" None
check_eq "the record only rank 2 logged: not matched" "$(json "d['inspector']['incomplete']" "$TMP/alone.json")" 1
check_eq "four logs, by rank" "$(json "[(l['rank'], l['host']) for l in d['inspector']['logs']]" "$TMP/alone.json")" "[(0, 'node-0'), (1, 'node-0'), (2, 'node-1'), (3, 'node-1')]"
# records: 2 a rank on 0xa0, 3 on 0xb1, 16 on each of ranks 0 and 1 on 0xc2 = 43
# waiting imposed: rank 3: 2700 (#11) + 380 (#3); rank 2: 1130 (#10); rank 1 by the 0xc2 records (30 us each, 16 of them)
check_eq "stragglers: rank, late, wait imposed" "$(json "[(s['rank'], s['late'], float(s['wait_us'])) for s in d['inspector']['stragglers']]" "$TMP/alone.json")" "[(3, 2, 3080.0), (2, 1, 1130.0), (1, 16, 480.0), (0, 0, 0.0)]"
check_eq "nothing joined without Kineto ranks" "$(json "d['inspector']['joined']" "$TMP/alone.json")" 0
check_run "logs alone: text" 0 "$PROFANA" --ranks "$TMP/logs" bf16 --wide
check_grep "logs alone: the counts line" "^NCCL Inspector: 4 logs (ranks), 43 records; 19 collectives on 3 communicators" "$TMP/out"
check_grep "logs alone: the most skewed first" "^0xa0 *| *11 | AllGather" "$TMP/out"

# beside the Kineto pair: 0xc2 (ranks 0 and 1) joins group 0 at offset 5
# shellcheck disable=SC2086
check_run "beside the pair: --ranks" 0 "$PROFANA" --ranks $PAIR "$TMP/logs" bf16 --format json
cp "$TMP/out" "$TMP/both.json"
check_eq "joined: the pair's 16 collectives" "$(json "d['inspector']['joined']" "$TMP/both.json")" 16
check_eq "joined: every 0xc2 collective to group 0 at seq - 5" "$(json "all(i['kineto_process_group'] == '0' and i['kineto_seq'] == i['seq'] - 5 for i in d['inspector']['instances'] if i['communicator'] == '0xc2')" "$TMP/both.json")" True
check_eq "joined: no other communicator" "$(json "[i['communicator'] for i in d['inspector']['instances'] if i['kineto_seq'] is not None and i['communicator'] != '0xc2']" "$TMP/both.json")" "[]"
check_eq "the Kineto ranks' tables still there" "$(json "len(d['ranks'])" "$TMP/both.json")" 2
check_eq "joined: Kineto's skew of the instance beside" "$(json "all(i['kineto_skew_us'] is not None for i in d['inspector']['instances'] if i['communicator'] == '0xc2')" "$TMP/both.json")" True

# bad input: one line, the byte, exit 1
printf '{"header": {"id": "0x1", "rank": 0, "n_ranks": 1}, "coll_perf": {"coll": "AllReduce", "coll_sn": 1}}\n' >"$TMP/bad.log"
check_run "a record without its time" 1 "$PROFANA" --ranks "$TMP/bad.log" bf16
check_eq "a record without its time: one line" "$(cat "$TMP/err")" "profana: error: $TMP/bad.log: byte 0: a record without coll_perf.coll_exec_time_us"
printf '{"header": {"id": "0x1", "rank": 0, "n_ranks": 1}, "coll_perf": {"coll": "AllReduce", "coll_sn": 1, "coll_exec_time_us": 4}}\n{"header": [' >"$TMP/cut.log"
check_run "a cut log" 1 "$PROFANA" --ranks "$TMP/cut.log" bf16
check_grep "a cut log: the byte" "^profana: error: $TMP/cut.log: byte [0-9]*: " "$TMP/err"
cp "$TMP/logs/nccl-inspector-rank0.log" "$TMP/logs/again.log"
check_run "two logs of one rank" 1 "$PROFANA" --ranks "$TMP/logs" bf16
check_grep "two logs of one rank: named" "rank 0 is also the rank of" "$TMP/err"

# the JSON with logs validates against its schema
check_eq "beside the pair: valid against docs/schema/ranks.schema.json" "$(python3 -c "
import json, sys
import jsonschema
jsonschema.validate(json.load(open(sys.argv[1])), json.load(open('docs/schema/ranks.schema.json')))
print('valid')" "$TMP/both.json" 2>&1 | tail -1)" valid
