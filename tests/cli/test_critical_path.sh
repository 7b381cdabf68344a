# test_critical_path.sh - --group critical-path: each step's critical path (HTA's graph) against tests/cli/critical_path_oracle.py (the graph rebuilt from the raw events) on the diagnosis traces and two of testdata/traces; a hand-made trace whose path and split are worked out by hand; CSV, text, refusals.
. tests/cli/lib.sh
set -u

cat >"$TMP/cmp.py" <<'EOF2'
import json, sys
got = json.load(open(sys.argv[1]))["steps"]
want = [json.loads(l) for l in open(sys.argv[2])]
keys = ["length_us", "cpu_us", "gpu_us", "comm_us", "copy_us", "launch_us", "gap_us"]
bad = ["%d steps vs %d" % (len(got), len(want))] if len(got) != len(want) else []
for g, w in zip(got, want):
    if g["step"] != w["step"]:
        bad.append("step %s vs %s" % (g["step"], w["step"]))
    bad += ["step %s %s: %.3f vs %.3f" % (g["step"], k, g[k], w[k]) for k in keys if abs(g[k] - w[k]) > 0.0015]
print("; ".join(bad) or "ok %d" % len(got))
EOF2
for f in testdata/diagnosis/*.json.gz "$TRACES/steps_bf16.json" "$TRACES/eager_bf16.json"; do
    n=$(basename "$f")
    check_run "$n --group critical-path" 0 "$PROFANA" --analysis "$f" bf16 --group critical-path --format json
    run_oracle tests/cli/critical_path_oracle.py "$f" >"$TMP/want"
    got=$(python3 "$TMP/cmp.py" "$TMP/out" "$TMP/want")
    check_eq "$n: each step's path length and split equal the raw events' graph (${got#ok } steps)" "${got%% *}" ok
done

# By hand. Thread 1, in ProfilerStep#1 (0-200 us):
#   aten::fwd 10-50 launches K1 (cudaLaunchKernel 12-16), K2 (20-24), a copy C3 (cudaMemcpyAsync 30-34);
#   cudaDeviceSynchronize 55-115; a host gap 115-130; aten::post 130-150 launches K4 (135-140).
# Stream 7: K1 20-50, K2 (ncclDevKernel, communication) 50-90, C3 90-110, K4 160-170.
# K1 and K4 find the stream idle at their launch (launch edges 12->20: 8 us, 135->160: 25 us);
# K2 and C3 were launched while the stream was busy (gap edges, 0 us). The sync returns when
# C3 (the last work launched before it) ends: edge C3 end -> sync end. The top-level ops are
# chained with no time (HTA), so the host gap 115-130 is not on the path. Longest path:
#   fwd start -(fwd 2)-> K1's launch call -(launch 8)-> K1 (30) -> K2 (40) -> C3 (20) -> sync end
#   -> post start -(post 5)-> K4's launch call -(launch 25)-> K4 (10)
# = 140 us: CPU 7, GPU 40, Comm 40, Copy 20, Launch 33, Gaps 0; host 40/140 = 28.57%: GPU-bound.
python3 - "$TMP/hand.json" <<'EOF2'
import json, sys
def x(cat, name, ts, dur, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": 1, "tid": tid, "ts": ts, "dur": dur, "args": args}
gpu = {"device": 0, "stream": 7}
ev = [x("user_annotation", "ProfilerStep#1", 0, 200),
      x("cpu_op", "aten::fwd", 10, 40),
      x("cuda_runtime", "cudaLaunchKernel", 12, 4, correlation=1),
      x("cuda_runtime", "cudaLaunchKernel", 20, 4, correlation=2),
      x("cuda_runtime", "cudaMemcpyAsync", 30, 4, correlation=3),
      x("cuda_runtime", "cudaDeviceSynchronize", 55, 60, correlation=5),
      x("cpu_op", "aten::post", 130, 20),
      x("cuda_runtime", "cudaLaunchKernel", 135, 5, correlation=4),
      x("kernel", "K1", 20, 30, tid=7, correlation=1, **gpu),
      x("kernel", "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 50, 40, tid=7, correlation=2, **gpu),
      x("gpu_memcpy", "Memcpy DtoD (Device -> Device)", 90, 20, tid=7, correlation=3, bytes=1 << 20, **gpu),
      x("kernel", "K4", 160, 10, tid=7, correlation=4, **gpu)]
json.dump({"deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}], "traceEvents": ev}, open(sys.argv[1], "w"))
EOF2
check_run "hand-made trace" 0 "$PROFANA" --analysis "$TMP/hand.json" bf16 --group critical-path --format json
check_eq "hand-made trace: length and split by hand (CPU, GPU, Comm, Copy, Launch, Gaps)" \
    "$(json '[round(d["steps"][0][k], 3) for k in ("length_us", "cpu_us", "gpu_us", "comm_us", "copy_us", "launch_us", "gap_us")]' "$TMP/out")" \
    "[140, 7, 40, 40, 20, 33, 0]"
check_eq "hand-made trace: host share 40/140 and the verdict" \
    "$(json '(round(d["steps"][0]["host_pct"], 2), d["steps"][0]["verdict"])' "$TMP/out")" "(28.57, 'GPU-bound')"
check_eq "hand-made trace: the path runs from aten::fwd's start (10 us) to K4's end (170 us), through the sync" \
    "$(json '(d["steps"][0]["path_start_us"], d["steps"][0]["path_end_us"], d["steps"][0]["syncs_on_path"])' "$TMP/out")" \
    "(10, 170, 1)"
check_eq "hand-made trace: the contributors by time" \
    "$(json '[(i["name"][:4], i["part"], i["time_us"]) for i in d["steps"][0]["items"]]' "$TMP/out")" \
    "[('nccl', 'comm', 40), ('K1', 'gpu', 30), ('Memc', 'copy', 20), ('K4', 'gpu', 10), ('aten', 'cpu', 5), ('aten', 'cpu', 2)]"
# Without the step: the whole trace is one window, the same path.
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["traceEvents"]=d["traceEvents"][1:]; json.dump(d, open(sys.argv[2],"w"))' \
    "$TMP/hand.json" "$TMP/nostep.json"
check_run "hand-made trace without ProfilerStep" 0 "$PROFANA" --analysis "$TMP/nostep.json" bf16 --group critical-path --format json
check_eq "without ProfilerStep: one path over the whole trace, 140 us" \
    "$(json '(d["whole_trace"], len(d["steps"]), d["steps"][0]["step"], d["steps"][0]["length_us"])' "$TMP/out")" "(True, 1, None, 140)"
check_run "CSV" 0 "$PROFANA" --analysis "$TMP/hand.json" bf16 --group critical-path --format csv
check_eq "CSV: a header and the step's row with its top contributor, Kind row" "$(sed -n 2p "$TMP/out" | cut -d, -f1,3,18-)" \
    "1,140.000,GPU-bound,ncclDevKernel_AllReduce_Sum_f32_RING_LL,40.000,row"
check_run "text" 0 "$PROFANA" --analysis "$TMP/hand.json" bf16 --group critical-path
check_grep "text: the step's row, GPU-bound" "^   1 |   140.000 | .* GPU-bound$" "$TMP/out"
check_run "--top 2" 0 "$PROFANA" --analysis "$TMP/hand.json" bf16 --group critical-path --format json --top 2
check_eq "--top 2: two contributors" "$(json 'len(d["total"]["items"])' "$TMP/out")" 2
check_run "--group critical-path --report" 2 "$PROFANA" --analysis "$TMP/hand.json" bf16 --group critical-path --report "$TMP/r.html"
check_run "--group critical-path --depth" 2 "$PROFANA" --analysis "$TMP/hand.json" bf16 --group critical-path --depth 2
check_run "--step 2" 0 "$PROFANA" --analysis testdata/diagnosis/item_sync.json.gz bf16 --group critical-path --step 2 --format json
check_eq "--step 2: that step's path alone" "$(json '[s["step"] for s in d["steps"]]' "$TMP/out")" "[2]"
COLUMNS=80 "$PROFANA" --analysis testdata/diagnosis/item_sync.json.gz bf16 --group critical-path >"$TMP/w80" 2>/dev/null
check_eq "text at 80 columns: no line wider" "$(awk 'length($0) > 80' "$TMP/w80" | wc -l)" 0
