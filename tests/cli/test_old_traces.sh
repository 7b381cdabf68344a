# test_old_traces.sh - older Kineto spellings (Kernel, Memcpy, Memset, Runtime, Operator, "external id") read as today's, against a hand-written trace whose figures are worked out below; GPU-like events of an unknown category warned about once.
. tests/cli/lib.sh

OLD=testdata/old/kineto_1_8.json

# testdata/old/kineto_1_8.json, by hand (times in us):
#   ProfilerStep#1 (Operator, pid 100) [0, 1000):
#     aten::mm    (tid 1) launches at 110 (correlation 500) Kernel gemmSN_TN_kernel_64addr [400, 410), 10 us
#     aten::copy_ (tid 2) launches at 310 (correlation 501) Memcpy HtoD [420, 425), 5 us, 4096 bytes
#     aten::zero_ (tid 1) launches at 460 (correlation 502) Memset [430, 432), 2 us, 1024 bytes
#   ProfilerStep#2 [1000, 1500):
#     aten::relu  (tid 1) launches at 1110 (correlation 503) Kernel relu [1200, 1203), 3 us
# GPU activities 4, GPU time 10 + 5 + 2 + 3 = 20 us. aten::mm: M=64 K=128 N=32 fp32:
# FLOP 2*64*32*128 = 524288; bytes (64*128 + 128*32 + 64*32)*4 = 57344.
# Step 1: 3 activities, GPU time 17, GPU span 432 - 400 = 32, busy 17 (no overlap), 53.125 %.
# Step 2: 1 activity, GPU time 3, GPU span 3, busy 3.
check_run "old spellings: analysed" 0 "$PROFANA" --analysis "$OLD" fp32 --format json
check_eq "old spellings: nothing on stderr" "$(cat "$TMP/err")" ""
check_eq "old spellings: 4 GPU activities" "$(json "d['gpu_activities']" "$TMP/out")" 4
check_eq "old spellings: all linked by 'external id'" "$(json "d['unlinked']" "$TMP/out")" 0
check_near "old spellings: GPU time 20 us" "$(json "d['devices'][0]['total']['total_us']" "$TMP/out")" 20 0.000001
row="[r for r in d['devices'][0]['rows'] if r['name']=='void gemmSN_TN_kernel_64addr'][0]"
check_eq "old spellings: Kernel read, with its op's FLOPs" "$(json "$row['flop']" "$TMP/out")" 524288
check_eq "old spellings: Kernel read, with its op's bytes" "$(json "$row['bytes']" "$TMP/out")" 57344
check_near "old spellings: Kernel time" "$(json "$row['total_us']" "$TMP/out")" 10 0.000001
row="[r for r in d['devices'][0]['rows'] if r['category']=='memcpy'][0]"
check_eq "old spellings: Memcpy read, with its bytes" "$(json "$row['bytes']" "$TMP/out")" 4096
check_near "old spellings: Memcpy time" "$(json "$row['total_us']" "$TMP/out")" 5 0.000001
row="[r for r in d['devices'][0]['rows'] if r['category']=='memset'][0]"
check_eq "old spellings: Memset read, with its bytes" "$(json "$row['bytes']" "$TMP/out")" 1024
check_near "old spellings: Memset time" "$(json "$row['total_us']" "$TMP/out")" 2 0.000001

check_run "old spellings: --group op" 0 "$PROFANA" --analysis "$OLD" fp32 --group op --format json
for op in aten::mm:10 aten::copy_:5 aten::zero_:2 aten::relu:3; do
    check_near "old spellings: ${op%:*} linked, its time" \
        "$(json "[r for r in d['devices'][0]['rows'] if r['name']=='${op%:*}'][0]['total_us']" "$TMP/out")" "${op##*:}" 0.000001
done

check_run "old spellings: --steps" 0 "$PROFANA" --analysis "$OLD" fp32 --steps --format json
check_eq "old spellings: Operator ProfilerStep windows, Runtime launches" "$(json "d['steps']['rule']" "$TMP/out")" cpu-launch
for s in "1 1000 3 17 32 17 53.125" "2 500 1 3 3 3 100"; do
    set -- $s
    row="[r for r in d['steps']['rows'] if r['step']==$1][0]"
    check_near "old spellings: step $1 span" "$(json "$row['span_us']" "$TMP/out")" "$2" 0.000001
    check_eq "old spellings: step $1 activities" "$(json "$row['count']" "$TMP/out")" "$3"
    check_near "old spellings: step $1 GPU time" "$(json "$row['gpu_time_us']" "$TMP/out")" "$4" 0.000001
    check_near "old spellings: step $1 GPU span" "$(json "$row['gpu_span_us']" "$TMP/out")" "$5" 0.000001
    check_near "old spellings: step $1 busy" "$(json "$row['busy_us']" "$TMP/out")" "$6" 0.000001
    check_near "old spellings: step $1 busy %" "$(json "$row['busy_pct']" "$TMP/out")" "$7" 0.000001
done
check_run "old spellings: --step 2" 0 "$PROFANA" --analysis "$OLD" fp32 --step 2 --format json
check_eq "old spellings: --step 2 keeps the relu kernel" "$(json "[r['name'] for r in d['devices'][0]['rows']]" "$TMP/out")" \
    "['void at::native::vectorized_elementwise_kernel<4, relu>']"

# Events that look like GPU activity (stream/device and correlation) in a category profana
# does not know: one counted warning, not silence. A cuda_sync event (known, not analysed)
# and a runtime call (correlation, no stream) are not counted.
cat >"$TMP/odd.json" <<'EOT'
{"traceEvents": [
 {"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 9, "tid": 9, "ts": 0, "dur": 50, "args": {"External id": 1}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 9, "ts": 10, "dur": 5, "args": {"External id": 1, "correlation": 7}},
 {"ph": "X", "cat": "kernel", "name": "relu_kernel", "pid": 0, "tid": 7, "ts": 60, "dur": 4, "args": {"External id": 1, "device": 0, "stream": 7, "correlation": 7}},
 {"ph": "X", "cat": "cuda_op", "name": "void sgemm_kernel", "pid": 0, "tid": 7, "ts": 70, "dur": 20, "args": {"stream": 7, "correlation": 8}},
 {"ph": "X", "cat": "gpu_op", "name": "void other_kernel", "pid": 0, "tid": 7, "ts": 95, "dur": 20, "args": {"device": 0, "correlation": 9}},
 {"ph": "X", "cat": "cuda_sync", "name": "Stream Sync", "pid": 0, "tid": 7, "ts": 120, "dur": 2, "args": {"device": 0, "stream": 7, "correlation": 10}},
 {"ph": "X", "cat": "mystery", "name": "no correlation", "pid": 0, "tid": 7, "ts": 130, "dur": 2, "args": {"device": 0, "stream": 7}}
]}
EOT
check_run "unknown category: still analysed" 0 "$PROFANA" --analysis "$TMP/odd.json" fp32 --format json
check_eq "unknown category: one warning line" "$(grep -c '^profana: warning:' "$TMP/err")" 1
check_eq "unknown category: the warning counts both and names the first category" "$(grep '^profana: warning:' "$TMP/err")" \
    "profana: warning: $TMP/odd.json: 2 events with a stream or device and a correlation id, like GPU activity, but of a category profana does not know (\"cuda_op\" and perhaps others): not analysed"
check_eq "unknown category: only the known kernel is analysed" "$(json "d['gpu_activities']" "$TMP/out")" 1
grep -v '"gpu_op"' "$TMP/odd.json" >"$TMP/odd1.json"
check_run "one unknown event" 0 "$PROFANA" --analysis "$TMP/odd1.json" fp32
check_eq "one unknown event: singular warning" "$(grep '^profana: warning:' "$TMP/err")" \
    "profana: warning: $TMP/odd1.json: 1 event with a stream or device and a correlation id, like GPU activity, but of a category profana does not know (\"cuda_op\"): not analysed"

# Today's traces have no such event: no warning on any of ours.
for f in "$TRACES"/*.json testdata/peer/*.json.gz; do
    check_run "$f: loads" 0 "$PROFANA" --analysis "$f" bf16 --format json
    if grep -q "category profana does not know" "$TMP/err"; then fail "$f: no unknown-category warning" "$(cat "$TMP/err")"; else pass "$f: no unknown-category warning"; fi
done
