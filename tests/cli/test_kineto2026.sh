# test_kineto2026.sh - the trace fields Kineto writes in 2026 (libkineto/src/output_json.cpp and its CUPTI activities), on small hand-made traces written here: cuda_sync rows on virtual tids, PM-sampling counters under a string pid, unsigned 64-bit ids, same-stream overlaps (programmatic dependent launch); figures written by hand.
. tests/cli/lib.sh

# The traces: kernels, runtime calls and ops in the shape Kineto writes them (pid = device for
# GPU rows, tid = stream), each with one of the 2026 fields.
python3 - "$TMP" <<'PY' || fail "kineto2026: generator" "exited $?"
import json
import sys

tmp = sys.argv[1]
PROPS = [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85028110336,
          "computeMajor": 9, "computeMinor": 0, "numSms": 132}]


def op(E, name, eid, ts, dur, tid=1):
    E.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": tid, "ts": ts, "dur": dur,
              "args": {"External id": eid}})


def call(E, name, corr, ts, dur, eid=None, tid=1):
    args = {"correlation": corr}
    if eid is not None:
        args["External id"] = eid
    E.append({"ph": "X", "cat": "cuda_runtime", "name": name, "pid": 1, "tid": tid, "ts": ts, "dur": dur,
              "args": args})


def kernel(E, name, ts, dur, stream=7, eid=None, corr=None):
    args = {"device": 0, "stream": stream, "grid": [1, 1, 1], "block": [128, 1, 1]}
    if corr is not None:
        args["correlation"] = corr
    if eid is not None:
        args["External id"] = eid
    E.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": stream, "ts": ts, "dur": dur,
              "args": args})


def write(name, E, **meta):
    doc = {"schemaVersion": 1, "deviceProperties": PROPS}
    doc.update(meta)
    doc["traceEvents"] = E
    json.dump(doc, open("%s/%s.json" % (tmp, name), "w"), indent=1)


def two_kernels(E):
    """stream 7: a GEMM at 100-150 and an elementwise kernel at 160-180 us, each from its op."""
    op(E, "aten::mm", 1, 10, 20)
    call(E, "cudaLaunchKernel", 101, 12, 5, 1)
    kernel(E, "sm90_xmma_gemm_bf16bf16_bf16f32", 100, 50, eid=1, corr=101)
    op(E, "aten::relu", 2, 40, 20)
    call(E, "cudaLaunchKernel", 102, 42, 5, 2)
    kernel(E, "vectorized_elementwise_kernel", 160, 20, eid=2, corr=102)


# 1. cuda_sync: CUPTI's synchronization records, written on a virtual tid (stream + 1,000,000)
# whose thread_name is "stream N (sync)"; Context Sync has no stream (-1).
E = []
two_kernels(E)
op(E, "aten::item", 3, 70, 200)
call(E, "cudaStreamSynchronize", 103, 75, 190, 3)
E.append({"ph": "X", "cat": "cuda_sync", "name": "Stream Sync", "pid": 0, "tid": 1000007, "ts": 180, "dur": 85,
          "args": {"cuda_sync_kind": "stream_synchronize", "stream": 7, "correlation": 103, "device": 0,
                   "context": 1}})
E.append({"ph": "X", "cat": "cuda_sync", "name": "Context Sync", "pid": 0, "tid": 999999, "ts": 266, "dur": 3,
          "args": {"stream": -1, "correlation": 104, "device": 0, "context": 1}})
E.append({"ph": "X", "cat": "cuda_sync", "name": "Event Sync", "pid": 3, "tid": 1000013, "ts": 270, "dur": 2,
          "args": {"stream": 13, "correlation": 105, "device": 3, "context": 1, "event": 9}})
E.append({"name": "thread_name", "ph": "M", "ts": 0, "pid": 0, "tid": 1000007, "args": {"name": "stream 7 (sync)"}})
E.append({"name": "thread_name", "ph": "M", "ts": 0, "pid": 3, "tid": 1000013, "args": {"name": "stream 13 (sync)"}})
E.append({"name": "thread_name", "ph": "M", "ts": 0, "pid": 0, "tid": 7, "args": {"name": "stream 7 "}})
write("sync", E)

# 2. PM sampling: counter ("C") events under the string pid "GPU N Counters", one member per
# metric; a device and stream in their args must not make them activities either.
E = []
two_kernels(E)
for i in range(6):
    E.append({"ph": "C", "name": "PM Sampling", "pid": "GPU 0 Counters", "tid": 0, "ts": 100 + 15 * i,
              "args": {"sm__cycles_active.avg": 1000 + i, "dram__throughput.avg.pct_of_peak_sustained_elapsed": 42.5}})
    E.append({"ph": "C", "cat": "kernel", "name": "gr__cycles_active", "pid": "GPU 2 Counters", "tid": 0,
              "ts": 100 + 15 * i, "dur": 1, "args": {"device": 2, "stream": 9, "correlation": 7, "value": 5}})
E.append({"name": "process_name", "ph": "M", "ts": 0, "pid": "GPU 0 Counters", "tid": 0,
          "args": {"name": "GPU 0 Counters"}})
write("counters", E)

# 3. ids as unsigned 64-bit numbers, above 2^63 and up to 2^64 - 1 (which is -1 as a bit
# pattern: no id must take it for "none"); kernel durations 30, 40, 50, 60 us tell the links apart.
U = 18446744073709551615  # 2^64 - 1
H = 9223372036854775808   # 2^63
E = []
for i, (name, eid, corr) in enumerate([("aten::mm", U, H), ("aten::relu", H, U),
                                      ("aten::mm", U - 1, H - 1), ("aten::relu", 5, U - 1)]):
    t = 10 + 100 * i
    op(E, name, eid, t, 20)
    call(E, "cudaLaunchKernel", corr, t + 2, 5, eid)
    kernel(E, "kernel_%d" % i, t + 90, 30 + 10 * i, eid=eid, corr=corr)
# no External id, launched from a thread without ops (links to none); no ids at all
call(E, "cudaLaunchKernel", 7, 500, 5, tid=2)
kernel(E, "kernel_no_ext", 600, 10, corr=7)
kernel(E, "kernel_no_ids", 700, 5)
write("u64", E)

# 4. programmatic dependent launch (sm_90+): on stream 7 gemm_b starts at 140 while gemm_a runs
# (100-150); on stream 9 a kernel lies inside another (300-400 and 310-320); stream 8's kernel
# overlaps stream 7's, which is ordinary concurrency.
E = []
op(E, "aten::mm", 1, 10, 20)
call(E, "cudaLaunchKernel", 101, 12, 5, 1)
kernel(E, "gemm_a", 100, 50, eid=1, corr=101)
op(E, "aten::mm", 2, 40, 20)
call(E, "cudaLaunchKernelExC", 102, 42, 5, 2)
kernel(E, "gemm_b", 140, 30, eid=2, corr=102)
op(E, "aten::relu", 3, 70, 20)
call(E, "cudaLaunchKernel", 103, 72, 5, 3)
kernel(E, "relu_k", 180, 10, eid=3, corr=103)
op(E, "aten::add", 4, 80, 10)
call(E, "cudaLaunchKernel", 104, 82, 5, 4)
kernel(E, "add_k", 145, 10, stream=8, eid=4, corr=104)
op(E, "aten::mm", 5, 90, 10)
call(E, "cudaLaunchKernelExC", 105, 92, 5, 5)
kernel(E, "gemm_c", 300, 100, stream=9, eid=5, corr=105)
op(E, "aten::relu", 6, 100, 10)
call(E, "cudaLaunchKernelExC", 106, 102, 5, 6)
kernel(E, "relu_c", 310, 10, stream=9, eid=6, corr=106)
write("pdl", E)
PY

for t in sync counters u64 pdl; do
    "$PROFANA" --analysis "$TMP/$t.json" bf16 --group op --format json >"$TMP/$t.out.json" 2>"$TMP/$t.err" ||
        fail "kineto2026: $t: --analysis" "exit $?"
done
"$PROFANA" --analysis "$TMP/pdl.json" bf16 >"$TMP/pdl.txt" 2>&1
# two traces with counters combined: their string pids stay apart, still no activity from them
"$PROFANA" --combine "$TMP/counters.json" "$TMP/counters.json" "$TMP/cc.json" 2>/dev/null ||
    fail "kineto2026: counters: --combine" "exit $?"
"$PROFANA" --analysis "$TMP/cc.json" bf16 --format json >"$TMP/cc.out.json" 2>/dev/null
check_eq "kineto2026: u64: --explain names the op's External id 2^64 - 1 whole" \
    "$("$PROFANA" --analysis "$TMP/u64.json" bf16 --explain aten::mm 2>&1 | grep '^Op:' | cut -d, -f2)" " External id 18446744073709551615"
check_eq "kineto2026: u64: --explain JSON external_id 2^64 - 1" \
    "$("$PROFANA" --analysis "$TMP/u64.json" bf16 --explain aten::mm --format json 2>&1 | grep -o '"external_id":[0-9]*')" '"external_id":18446744073709551615'

python3 - "$TMP" <<'PY' || fail "kineto2026: checker" "exited $?"
import json
import sys

sys.path.insert(0, "tests/cli")
import raw

tmp = sys.argv[1]


def check(what, ok, why=""):
    raw.check("kineto2026", what, ok, why)


def out(name):
    return json.load(open("%s/%s.out.json" % (tmp, name)))


def rows(dev):
    return {r["name"]: (r["count"], r["total_us"]) for r in dev["rows"]}


# 1. cuda_sync rows: not activities, no stream 1000007 or 13, no device 3
d = out("sync")
dev = d["devices"]
check("sync: one device (0), none from the sync rows' pids", [x["id"] for x in dev] == [0], [x["id"] for x in dev])
check("sync: 2 GPU activities (the kernels; not the 3 sync rows)", d["gpu_activities"] == 2, d["gpu_activities"])
check("sync: streams = [7], busy 70 us (50 + 20)",
      [(s["stream"], s["busy_us"]) for s in dev[0]["streams"]] == [(7, 70)], dev[0]["streams"])
check("sync: queue streams = [7]", [q["stream"] for q in dev[0]["queue"]] == [7], dev[0]["queue"])
check("sync: busy 70 us of a 80 us span", (dev[0]["busy"]["busy_us"], dev[0]["busy"]["span_us"]) == (70, 80),
      dev[0]["busy"])
err = open("%s/sync.err" % tmp).read()
check("sync: no note of unknown GPU-like events", "like GPU activity" not in err, err)

# 2. counters: no activity, no device 2
d = out("counters")
dev = d["devices"]
check("counters: one device (0)", [x["id"] for x in dev] == [0], [x["id"] for x in dev])
check("counters: 2 GPU activities", d["gpu_activities"] == 2, d["gpu_activities"])
check("counters: streams = [7], busy 70 us",
      [(s["stream"], s["busy_us"]) for s in dev[0]["streams"]] == [(7, 70)], dev[0]["streams"])
err = open("%s/counters.err" % tmp).read()
check("counters: no note of unknown GPU-like events", "like GPU activity" not in err, err)

d = json.load(open("%s/cc.out.json" % tmp))
check("counters: two combined: 4 activities on 2 devices (2 kernels each)",
      (d["gpu_activities"], len(d["devices"])) == (4, 2), (d["gpu_activities"], [x["id"] for x in d["devices"]]))

# 3. u64 ids: aten::mm has kernels 0 and 2 (30 + 50 us), aten::relu 1 and 3 (40 + 60 us)
d = out("u64")
dev = d["devices"][0]
r = rows(dev)
check("u64: aten::mm = 2 kernels, 80 us (ids 2^64-1 and 2^64-2)", r.get("aten::mm") == (2, 80), r)
check("u64: aten::relu = 2 kernels, 100 us (ids 2^63 and 5)", r.get("aten::relu") == (2, 100), r)
check("u64: 6 activities, 2 without an op (no External id: not the op of id 2^64-1)",
      (d["gpu_activities"], d["unlinked"]) == (6, 2), (d["gpu_activities"], d["unlinked"]))
check("u64: 5 launch calls found by correlation (2^63, 2^64-1, 2^63-1, 2^64-2, 7)",
      dev["launch"]["count"] == 5, dev["launch"])
check("u64: all 4 linked by External id, none by nesting",
      (dev["coverage"]["linked_by_external_id"]["count"], dev["coverage"]["linked_by_nesting"]["count"]) == (4, 0),
      dev["coverage"])

# 4. PDL: union 100-170, 180-190, 300-400 = 180 us; summed 50+30+10+10+100+10 = 210 us;
# same-stream overlaps: gemm_b (10 us with gemm_a), relu_c (its 10 us inside gemm_c)
d = out("pdl")
b = d["devices"][0]["busy"]
check("pdl: busy 180 us (the union), span 300 us", (b["busy_us"], b["span_us"]) == (180, 300), b)
check("pdl: summed 210 us", b["sum_us"] == 210, b)
check("pdl: 2 same-stream overlaps, 20 us", (b["stream_overlaps"], b["stream_overlap_us"]) == (2, 20), b)
st = [(s["stream"], s["count"], s["busy_us"]) for s in d["devices"][0]["streams"]]
check("pdl: per stream busy: 7 80 us, 8 10 us, 9 100 us", st == [(7, 3, 80), (8, 1, 10), (9, 2, 100)], st)
txt = open("%s/pdl.txt" % tmp).read()
check("pdl: the note line names 2 activities and 20 us",
      "note: 2 activities started on their stream before the previous one ended (20.000 us shared: "
      "programmatic dependent launch on sm_90+, or overlapping timestamps): counted once in busy time" in
      " ".join(txt.split()), txt[-800:])
check("pdl: not a corrupt trace (no warning)", "warning" not in txt, txt[-800:])
PY
