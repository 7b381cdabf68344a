# test_collectives.sh - one rank's collectives in --analysis (count, total, mean, algbw, busbw, link %) against the raw events read by Python (collectives_oracle.py) on the multi-rank and public traces; the xGMI link figures; --ranks matching on a recorded sequence number, by hand.
# check: valgrind
. tests/cli/lib.sh

MR=testdata/multirank
PUBLIC=../shared/testdata/public/tracelens

# check_colls TRACE LINK PATTERN: every row and the kernel counts against the raw events; LINK
# is the link's peak per direction written out by hand (collectives_oracle.py link_for):
# H200 NVLink 4 900 GB/s both ways through NVSwitch = 450 per direction for any group; MI300X
# xGMI 7 links of 128 GB/s both ways = 64 per direction per peer link.
check_colls() {
    base=$(echo "$1" | sed 's|.*testdata/||')
    if [ ! -f "$1" ]; then echo "SKIP collectives: $1 is absent"; return; fi
    "$PROFANA" --analysis "$1" bf16 --format json >"$TMP/c.json" 2>/dev/null
    got=$(run_oracle tests/cli/collectives_oracle.py "$1" "$TMP/c.json" "$2" "$3")
    case $got in
    "ok "*) pass "$base: ${got#ok } collective rows: count, total, mean, algbw, busbw, link % = the raw events' (Python)" ;;
    *) fail "$base: collectives against the raw events" "$got" ;;
    esac
}
for f in $MR/*.json.gz; do check_colls "$f" switch:450 ncclDevKernel; done
check_colls "$PUBLIC/mi300_resnet_act_checkpoint.json.gz" mesh:64:7 ncclDevKernel
check_colls "$PUBLIC/b200_vllm_eager.json.gz" none "nccl|multimem_all_reduce"
# a trace without communication: no member
"$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --format json >"$TMP/n.json"
check_eq "no communication: collectives null" "$(json "d['collectives']" "$TMP/n.json")" "None"

# --- by hand: tp_collectives rank 0, allreduce of [8192,4096] bf16 over 2 ranks ---
# 8192 * 4096 * 2 B = 67108864 B; its 4 kernels with args, from the raw events:
"$PROFANA" --analysis "$MR/tp_collectives_bf16_rank0.json.gz" bf16 --format json >"$TMP/tp.json"
set -- $(python3 - "$MR/tp_collectives_bf16_rank0.json.gz" <<'PY'
import gzip, json, sys
ev = json.load(gzip.open(sys.argv[1], "rt"))["traceEvents"]
ar = [e for e in ev if e.get("cat") == "kernel" and "AllReduce" in e["name"]][1:]  # the first has no launch call
t = sum(int(round(float(e["dur"]) * 1000)) for e in ar)
algbw = 4 * 67108864 / t   # bytes per ns = GB/s
print(len(ar), t / 1000.0, algbw, algbw * 2 * (2 - 1) / 2, 100 * algbw / 450)
PY
)
row='[r for r in d["collectives"]["rows"] if r["name"] == "allreduce"][0]'
check_eq "tp rank 0 allreduce: 67108864 B, 4 kernels with args" \
    "$(json "($row)['bytes'], ($row)['count']" "$TMP/tp.json")" "(67108864, $1)"
check_near "tp rank 0 allreduce: total = the 4 kernels' ($2 us)" "$(json "($row)['total_us']" "$TMP/tp.json")" "$2" 0.0000001
check_near "tp rank 0 allreduce: algbw = 4 x 67108864 B / total" "$(json "($row)['algbw_gbps']" "$TMP/tp.json")" "$3" 0.000001
check_near "tp rank 0 allreduce: busbw = algbw x 2(n-1)/n = algbw for n = 2" "$(json "($row)['busbw_gbps']" "$TMP/tp.json")" "$4" 0.000001
check_near "tp rank 0 allreduce: Link % = busbw / 450 GB/s" "$(json "($row)['link_pct']" "$TMP/tp.json")" "$5" 0.000001
"$PROFANA" --analysis "$MR/tp_collectives_bf16_rank0.json.gz" bf16 >"$TMP/tp.txt"
check_grep "text: a Collectives table" "^Collective  *| Group | Ranks | Bytes" "$TMP/tp.txt"
check_grep "text: 4 kernels without args named" "20 communication kernels, 4 of them" "$TMP/tp.txt"
"$PROFANA" --analysis - bf16 <"$MR/tp_collectives_bf16_rank0.json.gz" >"$TMP/in.txt" 2>/dev/null
check_grep "standard input: collectives unknown, and why" "^Collectives: unknown: the trace was read from standard input" "$TMP/in.txt"

# --- the xGMI figures (profana --list-devices' table is not the oracle: the data sheets are) ---
# MI300X, MI325X: 7 links x 128 GB/s bidirectional = 64 GB/s per direction per link; a group
# of 8 uses 7 links (448 GB/s), a group of 2 one (64 GB/s). MI355X: 7 x 153.6 -> 76.8 per link.
python3 - "$TMP/mi.json" <<'PY'
import json, sys
ev = [{"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "pid": 0, "tid": 7,
       "ts": 100 + 100 * i, "dur": 50, "args": {"device": 0, "stream": 7, "Collective name": "allreduce",
       "Process Group Name": "0", "Group size": n, "dtype": "BFloat16", "In msg nelems": 1 << 20,
       "Out msg nelems": 1 << 20}} for i, n in enumerate([8, 2])]
json.dump({"deviceProperties": [{"id": 0, "name": "AMD Instinct MI300X", "numSms": 304}], "traceEvents": ev},
          open(sys.argv[1], "w"))
PY
"$PROFANA" --analysis "$TMP/mi.json" bf16 --format json >"$TMP/mi.out" 2>/dev/null
# 2 MiB in 50 us: algbw 2097152 / 50000 = 41.94304 GB/s; busbw x 2*7/8 = 73.40032 (n 8), x 1 (n 2)
check_near "MI300X, 8 ranks: Link % = 73.40032 / 448" \
    "$(json "[r for r in d['collectives']['rows'] if r['group_size'] == 8][0]['link_pct']" "$TMP/mi.out")" \
    "$(echo '100 * 73.40032 / 448' | bc -l)" 0.000001
check_near "MI300X, 2 ranks: Link % = 41.94304 / 64 (one link)" \
    "$(json "[r for r in d['collectives']['rows'] if r['group_size'] == 2][0]['link_pct']" "$TMP/mi.out")" \
    "$(echo '100 * 41.94304 / 64' | bc -l)" 0.000001
for dev in "MI325X:448:304" "MI355X:537.6:256"; do
    sms=${dev##*:} dev=${dev%:*}
    sed "s/AMD Instinct MI300X/AMD Instinct ${dev%%:*}/; s/\"numSms\": 304/\"numSms\": $sms/" "$TMP/mi.json" >"$TMP/mi2.json"
    "$PROFANA" --analysis "$TMP/mi2.json" bf16 --format json >"$TMP/mi2.out" 2>/dev/null
    check_near "${dev%%:*}, 8 ranks: link ${dev#*:} GB/s per direction" \
        "$(json "[r for r in d['collectives']['rows'] if r['group_size'] == 8][0]['link_gbps']" "$TMP/mi2.out")" "${dev#*:}" 0.0000001
done

# --- --ranks on a recorded sequence number, by hand ---
# Two ranks, one process group: rank 1 ran its two all-reduces in the other order. In order,
# its first (4 MiB) meets rank 0's first (2 MiB): no instance agrees in size. On Seq, both match.
python3 - "$TMP" <<'PY'
import json, sys
def trace(rank, order, seq):
    ev = []
    for i, (s, n) in enumerate(order):
        a = {"device": 0, "stream": 7, "Collective name": "allreduce", "Process Group Name": "0", "Group size": 2,
             "dtype": "BFloat16", "In msg nelems": n, "Out msg nelems": n}
        if seq:
            a["Seq"] = s
        ev.append({"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "pid": 0,
                   "tid": 7, "ts": 1000 + 100 * i + 10 * rank, "dur": 40, "args": a})
    return {"distributedInfo": {"rank": rank, "world_size": 2},
            "deviceProperties": [{"id": 0, "name": "NVIDIA H200", "numSms": 132}], "traceEvents": ev}
for seq in (1, 0):
    json.dump(trace(0, [(1, 1 << 20), (2, 2 << 20)], seq), open("%s/r0_%d.json" % (sys.argv[1], seq), "w"))
    json.dump(trace(1, [(2, 2 << 20), (1, 1 << 20)], seq), open("%s/r1_%d.json" % (sys.argv[1], seq), "w"))
PY
"$PROFANA" --ranks "$TMP/r0_1.json" "$TMP/r1_1.json" bf16 --format json >"$TMP/rs.json" 2>/dev/null
check_eq "--ranks with Seq: 2 matched, both on Seq, none unmatched" \
    "$(json "d['matched'], d['matched_by_seq'], d['unmatched']" "$TMP/rs.json")" "(2, 2, 0)"
# rank 0 starts its Seq 1 at 1000 us, rank 1 at 1110 us: skew 110 us; Seq 2: 1100 and 1010: 90 us
check_eq "--ranks with Seq: skews 110 and 90 us by hand" \
    "$(json "sorted(float(r['skew_us']) for r in d['collectives'])" "$TMP/rs.json")" "[90.0, 110.0]"
"$PROFANA" --ranks "$TMP/r0_0.json" "$TMP/r1_0.json" bf16 --format json >"$TMP/ro.json" 2>/dev/null
check_eq "--ranks without Seq: by order, sizes disagree: none matched, 4 unmatched" \
    "$(json "d['matched'], d['matched_by_seq'], d['unmatched']" "$TMP/ro.json")" "(0, 0, 4)"
"$PROFANA" --ranks "$TMP/r0_1.json" "$TMP/r1_1.json" bf16 >"$TMP/rs.txt" 2>/dev/null
check_grep "--ranks text: the Seq line" "sequence numbers (args Seq): 2 instances" "$TMP/rs.txt"

# One rank's transfer estimate (each kind's fastest instance times its count) against the
# transfer that --ranks measures over both ranks, read from the raw events by ranks_oracle.py
# (per matched instance the fastest rank's kernel): within 10% of the rank's communication time.
for pair in fsdp2_bf16 tp_collectives_bf16; do
    run_oracle tests/cli/ranks_oracle.py "$MR/${pair}_rank0.json.gz" "$MR/${pair}_rank1.json.gz" >"$TMP/$pair.oracle"
    for r in 0 1; do
        "$PROFANA" --analysis "$MR/${pair}_rank$r.json.gz" bf16 --format json >"$TMP/$pair.$r.json" 2>/dev/null
        "$PROFANA" --analysis "$MR/${pair}_rank$r.json.gz" bf16 >"$TMP/$pair.$r.txt" 2>/dev/null
        python3 - "$TMP/$pair.$r.json" "$TMP/$pair.oracle" "$r" "$pair" "$TMP/$pair.$r.txt" <<'PY'
import json, re, sys
sys.path.insert(0, "tests/cli")
from raw import check
a, o, r, name = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3]), sys.argv[4]
rows = a["collectives"]["rows"]
est = sum(x["transfer_est_us"] for x in rows)
total = sum(x["total_us"] for x in rows)
transfer = sum(c["count"] * c["transfer_us"] for c in o["collectives"])
comm = [x for x in o["ranks"] if x["rank"] == r][0]["comm_us"]
check("%s rank %d" % (name, r), "transfer estimate %.1f us within 10%% of comm (%.1f us) of --ranks' %.1f us"
      % (est, comm, transfer), abs(est - transfer) <= 0.1 * comm)
text = open(sys.argv[5]).read()
m = re.search(r"includes waiting for\s+later\s+ranks:\s+about\s+(\d+)%", text)
want = 100 * (total - est) / total
check("%s rank %d" % (name, r), "the finding's waiting share %s%% = (total - estimate) / total %.1f%%"
      % (m and m.group(1), want), m is not None and abs(int(m.group(1)) - want) <= 0.5)
PY
    done
done
