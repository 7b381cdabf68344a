# test_jobs.sh - every trace in testdata/ (and each .json.gz inflated to plain JSON, which is parsed in parallel parts) gives the same stdout, stderr and exit status at -j 1, 2, 3, 7 and 16.
# check: every build
# check: optimised
. tests/cli/lib.sh
set -u

# Under valgrind (PROFANA a wrapper, no build beside it) some 400 runs would take many
# minutes; the plain and the sanitizer runs cover this file.
if ! [ -x "$(dirname "$PROFANA")/bench/gen_trace" ]; then
    echo "SKIP every trace at -j 1, 2, 3, 7, 16: $PROFANA is not a build's binary (valgrind)"
    exit 0
fi

# The sanitizer build (several times slower) runs -j 16 against -j 1: more threads than cores,
# each chunk a thread's; the plain build (make check-full) runs 2, 3, 7 and 16.
JOBS_N="2 3 7 16"
[ -n "$PF_SWEEP_ALL" ] || JOBS_N="3 16" # make check: an odd split and more threads than cores
grep -qE "__asan_init|__tsan_init" "$PROFANA" 2>/dev/null && JOBS_N="16"

n=0
for f in $(sweep_traces testdata | grep -v '^testdata/reference/'); do
    inputs=$f
    case $f in
    *.gz)
        plain=$TMP/plain_$(basename "$f" .gz)
        gzip -dc "$f" >"$plain" 2>/dev/null && inputs="$f $plain"
        ;;
    esac
    for in in $inputs; do
        b=$(basename "$in")
        "$PROFANA" --analysis "$in" bf16 --group op --format json --quiet -j 1 >"$TMP/o1" 2>"$TMP/e1"
        s1=$?
        bad=""
        for j in $JOBS_N; do
            "$PROFANA" --analysis "$in" bf16 --group op --format json --quiet -j "$j" >"$TMP/oj" 2>"$TMP/ej"
            sj=$?
            cmp -s "$TMP/o1" "$TMP/oj" && cmp -s "$TMP/e1" "$TMP/ej" && [ "$s1" = "$sj" ] || bad="$bad -j $j"
        done
        n=$((n + 1))
        check_eq "$b: -j $(echo "$JOBS_N" | sed 's/ /, /g') = -j 1 (stdout, stderr, status)" "$bad" ""
    done
    rm -f "$TMP"/plain_*
done
[ "$n" -ge 40 ] && pass "every trace of testdata/ ran ($n inputs)" || fail "every trace of testdata/ ran" "only $n inputs"

# A trace large enough that linking runs on several threads (64 Ki op records and more): 40
# copies of eager_bf16.json's events with shifted times and the same External ids, so that
# every id repeats and the first copy's op must win on every thread count.
python3 - "$TRACES/eager_bf16.json" "$TMP/big.json" <<'PYEOF'
import json, sys
t = json.load(open(sys.argv[1]))
ev = t["traceEvents"]
out = []
for k in range(40):
    for e in ev:
        e2 = dict(e)
        if isinstance(e2.get("ts"), (int, float)):
            e2["ts"] = e2["ts"] + k * 1e6
        out.append(e2)
t["traceEvents"] = out
json.dump(t, open(sys.argv[2], "w"))
PYEOF
"$PROFANA" --analysis "$TMP/big.json" bf16 --group op --format json --quiet -j 1 >"$TMP/o1" 2>"$TMP/e1"
bad=""
for j in 2 3 7 16; do
    "$PROFANA" --analysis "$TMP/big.json" bf16 --group op --format json --quiet -j "$j" >"$TMP/oj" 2>"$TMP/ej"
    cmp -s "$TMP/o1" "$TMP/oj" && cmp -s "$TMP/e1" "$TMP/ej" || bad="$bad -j $j"
done
check_eq "40 copies (73,560 op records) with repeated External ids: -j 2, 3, 7, 16 = -j 1" "$bad" ""
check_grep "40 copies: the repeated ids are noted" "cpu_ops repeat an earlier External id" "$TMP/e1"

# A trace of three devices and 66,000 kernels (more than the 65,536 activities from which the
# analysis lists each device's activities and finds the active devices in parallel ranges),
# in 4 ProfilerSteps, with a fourth device that runs nothing; vLLM's step annotations make
# steps 0 and 1 prefill and 2 and 3 decode. The same at every -j, with and without --step and
# --phase (which narrow the selection the lists follow; --phase lists after the phases).
python3 - "$TMP/devs.json" <<'PYEOF'
import json, sys
ev, ext, corr, ts = [], 1, 1, 1000.0
props = [{"id": d, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85017493504, "numSms": 132,
          "computeMajor": 9, "computeMinor": 0} for d in range(4)]
names = ["void gemm_kernel<a>()", "void elementwise_kernel<b>()", "void reduce_kernel<c>()"]
per_step = 16500
for step in range(4):
    ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % step, "pid": 1, "tid": 1,
               "ts": ts, "dur": per_step * 3.0 + 1})
    serving = "execute_context_1(16)_generation_0(0)" if step < 2 else "execute_context_0(0)_generation_4(4)"
    ev.append({"ph": "X", "cat": "user_annotation", "name": serving, "pid": 1, "tid": 1, "ts": ts + 0.05,
               "dur": per_step * 3.0})
    for k in range(per_step):
        dims = [[64, 64], [64, 64]] if k % 3 == 0 else [[4096]]
        ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm" if k % 3 == 0 else "aten::relu", "pid": 1,
                   "tid": 1, "ts": ts + 0.1, "dur": 2.0, "args": {"External id": ext, "Input Dims": dims}})
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                   "ts": ts + 0.5, "dur": 1.0, "args": {"External id": ext, "correlation": corr}})
        ev.append({"ph": "X", "cat": "kernel", "name": names[k % 3], "pid": 0, "tid": 7, "ts": ts + 5.0,
                   "dur": 1.0 + (k * 7919 % 13) / 8.0, "args": {"External id": ext, "device": (k // 5) % 3,
                   "stream": 7 + k % 2, "correlation": corr}})
        ext, corr, ts = ext + 1, corr + 1, ts + 3.0
    ts += 10.0
json.dump({"deviceProperties": props, "traceEvents": ev}, open(sys.argv[1], "w"))
PYEOF
# each device's launches in the selection, from the JSON (the events, as written, give k // 5 % 3
# of 16,500 kernels a step to each device: 16,500 a step in all)
counts() {
    python3 -c 'import json, sys; print(" ".join(str(d["total"]["count"]) for d in json.load(open(sys.argv[1]))["devices"]))' "$1"
}
for opt in "" "--step 2" "--phase decode"; do
    "$PROFANA" --analysis "$TMP/devs.json" bf16 --format json --quiet -j 1 $opt >"$TMP/o1" 2>"$TMP/e1"
    bad=""
    for j in $JOBS_N; do
        "$PROFANA" --analysis "$TMP/devs.json" bf16 --format json --quiet -j "$j" $opt >"$TMP/oj" 2>"$TMP/ej"
        cmp -s "$TMP/o1" "$TMP/oj" && cmp -s "$TMP/e1" "$TMP/ej" || bad="$bad -j $j"
    done
    check_eq "3 devices, 66,000 kernels${opt:+ ($opt)}: -j $(echo "$JOBS_N" | sed 's/ /, /g') = -j 1" "$bad" ""
    case $opt in
    "") want="22000 22000 22000" ;;
    "--step 2") want="5500 5500 5500" ;;
    *) want="11000 11000 11000" ;; # steps 2 and 3
    esac
    check_eq "3 devices${opt:+, $opt}: each device's launches as the events give them" "$(counts "$TMP/o1")" "$want"
done
