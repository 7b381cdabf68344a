# test_inductor.sh - Inductor's Triton launches: bytes from the kernel modules a plain compiled recording names (--inductor-cache) against Inductor's own kernel_num_gb in a TORCHINDUCTOR_BENCHMARK_KERNEL=1 recording of the same step (testdata/inductor/, tools/gen_inductor.py); without the modules every Triton row has a figure marked as a lower bound; a hand-checked in-place kernel.
# check: valgrind
. tests/cli/lib.sh
D=testdata/inductor

# Each model twice: the benchmark recording itself with Inductor's figures removed from its
# args at test time (the same kernels and modules as the oracle: every launch pairs), and the
# plain recording (a separate compile: kernels pair by name without Inductor's counter, shapes
# and types; the few that the two compiles fused differently stay unpaired and count against).
strip() {
    python3 - "$1" "$2" <<'PY'
import gzip, json, sys
d = json.load(gzip.open(sys.argv[1]))
for e in d["traceEvents"]:
    a = e.get("args")
    if isinstance(a, dict):
        a.pop("kernel_num_gb", None)
        a.pop("kernel_flop", None)
with gzip.open(sys.argv[2], "wt") as f:
    json.dump(d, f)
PY
}
for m in bert_default t5_default llama_default; do
    mkdir -p "$TMP/$m.b" && tar xzf "$D/${m}_bench_modules.tar.gz" -C "$TMP/$m.b"
    strip "$D/${m}_bench.json.gz" "$TMP/$m.stripped.json.gz"
    "$PROFANA" --analysis "$TMP/$m.stripped.json.gz" bf16 --inductor-cache "$TMP/$m.b" --format json >"$TMP/$m.s.json" 2>"$TMP/err"
    run_oracle tests/cli/inductor_oracle.py "$TMP/$m.stripped.json.gz" "$D/${m}_bench.json.gz" "$TMP/$m.s.json" >"$TMP/$m.s.or" ||
        fail "$m: oracle" "exited $?"
    tri=$(awk '$1 == "triton_us" { print $2 }' "$TMP/$m.s.or")
    match=$(awk '$1 == "match_us" { print $2 }' "$TMP/$m.s.or")
    if awk -v m="$match" -v t="$tri" 'BEGIN { exit !(t > 0 && m >= 0.95 * t) }'; then
        pass "$m (same recording): bytes within 1% of Inductor's kernel_num_gb for >= 95% of Triton GPU time ($match of $tri us)"
    else
        fail "$m (same recording): Triton bytes vs Inductor" "$match of $tri us; $(grep mismatched "$TMP/$m.s.or")"
    fi
    mkdir -p "$TMP/$m" && tar xzf "$D/${m}_plain_modules.tar.gz" -C "$TMP/$m"
    "$PROFANA" --analysis "$D/${m}_plain.json.gz" bf16 --inductor-cache "$TMP/$m" --format json >"$TMP/$m.json" 2>"$TMP/err"
    check_eq "$m: analysis with modules exits 0" "$?" 0
    run_oracle tests/cli/inductor_oracle.py "$D/${m}_plain.json.gz" "$D/${m}_bench.json.gz" "$TMP/$m.json" >"$TMP/$m.or" ||
        fail "$m: oracle" "exited $?"
    tri=$(awk '$1 == "triton_us" { print $2 }' "$TMP/$m.or")
    match=$(awk '$1 == "match_us" { print $2 }' "$TMP/$m.or")
    all=$(awk '$1 == "all_us" { print $2 }' "$TMP/$m.or")
    known=$(awk '$1 == "known_us" { print $2 }' "$TMP/$m.or")
    lists=$(awk '$1 == "lists_us" { print $2 }' "$TMP/$m.or")
    if awk -v m="$match" -v t="$tri" 'BEGIN { exit !(t > 0 && m >= 0.90 * t) }'; then
        pass "$m (plain recording): bytes within 1% of Inductor's for >= 90% of Triton GPU time, unpaired kernels counted against ($match of $tri us)"
    else
        fail "$m (plain recording): Triton bytes vs Inductor" "$match of $tri us; $(grep mismatched "$TMP/$m.or")"
    fi
    # the ops whose tensor lists were recorded as [] have no bytes (docs/formulas.md)
    if awk -v k="$known" -v a="$all" -v l="$lists" 'BEGIN { exit !(a > 0 && k >= 0.97 * (a - l) && k <= a - l + 0.001) }'; then
        pass "$m: bytes known for >= 97% of the GPU time outside ops whose tensor lists are [] ($known of $all - $lists us)"
    else
        fail "$m: bytes known" "$known of $all - $lists us"
    fi
    # without the modules: every Triton row has bytes, marked a lower bound
    "$PROFANA" --analysis "$D/${m}_plain.json.gz" bf16 --format json >"$TMP/$m.lb.json" 2>/dev/null
    got=$(json "sum(1 for r in d['devices'][0]['rows'] if r['name'].startswith('triton_') and (r['bytes'] is None or '~lb' not in r['source']))" "$TMP/$m.lb.json")
    check_eq "$m: without modules, no Triton row without bytes or its ~lb mark" "$got" 0
    "$PROFANA" --analysis "$D/${m}_plain.json.gz" bf16 >"$TMP/$m.lb.txt" 2>/dev/null
    check_grep "$m: the ~lb footnote" "^~lb: a lower bound" "$TMP/$m.lb.txt"
    check_grep "$m: the headline says how to get exact Triton figures" "TORCHINDUCTOR_BENCHMARK_KERNEL=1" "$TMP/$m.lb.txt"
done

# The benchmark recording's own figures are Source inductor, taken as recorded.
"$PROFANA" --analysis "$D/bert_default_bench.json.gz" bf16 --format json >"$TMP/bench.json" 2>/dev/null
got=$(json "sorted({r['source'] for r in d['devices'][0]['rows'] if r['name'].startswith('triton_')})" "$TMP/bench.json")
check_eq "bert bench: Triton rows take Inductor's own figures" "$got" "['inductor']"

# An in-place pointwise kernel by hand (max-autotune llama, SiLU backward): in_out_ptr0
# [8,256,1408] bf16 read and written, in_ptr0 and in_ptr1 [2048,1408] bf16 read, out_ptr0
# [8,256,1408] bf16 written: 2883584 elements each, 2 bytes:
# 2*2883584*2 + 2883584*2 + 2883584*2 + 2883584*2 = 28835840 bytes a launch.
mkdir -p "$TMP/ma" && tar xzf "$D/llama_max_autotune_plain_modules.tar.gz" -C "$TMP/ma"
k=triton_poi_fused__unsafe_view_mul_silu_silu_backward_view_5
"$PROFANA" --analysis "$D/llama_max_autotune_plain.json.gz" bf16 --inductor-cache "$TMP/ma" --explain "$k" >"$TMP/ma.txt" 2>&1
check_grep "in-place SiLU backward: bytes by hand (in_out twice)" "bytes = 2883584\*2\*2 + 2883584\*2 + 2883584\*2 + 2883584\*2 = 28835840" "$TMP/ma.txt"
check_grep "in-place SiLU backward: source triton-src" "source triton-src" "$TMP/ma.txt"
# the same without the module: each tensor once (a lower bound): 4 * 2883584*2 = 23068672
"$PROFANA" --analysis "$D/llama_max_autotune_plain.json.gz" bf16 --explain "$k" >"$TMP/ma_lb.txt" 2>&1
check_grep "in-place SiLU backward without module: a lower bound" "source triton~lb" "$TMP/ma_lb.txt"
check_grep "in-place SiLU backward without module: each tensor once" "= 23068672" "$TMP/ma_lb.txt"

# A GEMM template launch (no kernel_file recorded): 2*M*N*K from its shapes, by hand:
# triton_tem_fused_mm_t_view_9: A [8,256,512], B [512,512], out [2048,512]: 2*2048*512*512.
"$PROFANA" --analysis "$D/llama_max_autotune_plain.json.gz" bf16 --explain triton_tem_fused_mm_t_view_9 >"$TMP/tem.txt" 2>&1
check_grep "GEMM template: 2*M*N*K by hand" "flop 1073741824" "$TMP/tem.txt"

# A module that is not one (a FIFO, a directory, garbage) leaves the launch to the lower bound,
# with the reason, and never blocks.
mkdir -p "$TMP/bad/25" && printf 'not python' >"$TMP/bad/25/c25bnpw35pxhjni6rrofnr7ihasoxq7rlk5lsmvwjwkjbqngukbg.py"
"$PROFANA" --analysis "$D/bert_default_plain.json.gz" bf16 --inductor-cache "$TMP/bad" --format json >"$TMP/bad.json" 2>/dev/null
check_eq "garbage module: exit 0" "$?" 0
got=$(json "sum(1 for r in d['devices'][0]['rows'] if r['name'].startswith('triton_') and r['bytes'] is None)" "$TMP/bad.json")
check_eq "garbage module: every Triton row still has bytes" "$got" 0

# A kernel_file that names no regular file (issue 48): a FIFO, a device such as /dev/ptmx. It is
# never opened, with --inductor-cache or without (before, it was opened O_NONBLOCK, then
# fstat'ed: an open arms some devices, and answered a FIFO's writer), and the launch falls to
# the lower bound with the reason. Opened or not is seen by a writer blocked on the FIFO until
# a reader opens it; /dev/ptmx under strace, where strace runs.
# kfile_trace OUT KERNEL_FILE: one Triton launch whose module is KERNEL_FILE.
kfile_trace() {
    python3 - "$1" "$2" <<'PY'
import json, sys
k = "triton_poi_fused_add_0"
op = {"ph": "X", "cat": "cpu_op", "name": k, "pid": 1, "tid": 1, "ts": 1000, "dur": 50,
      "args": {"External id": 7, "Input Dims": [[1024], [1024], [1024]],
               "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"],
               "Concrete Inputs": ["", "", ""], "kernel_backend": "triton", "kernel_name": k,
               "kernel_file": sys.argv[2]}}
kern = {"ph": "X", "cat": "kernel", "name": k, "pid": 0, "tid": 7, "ts": 1060, "dur": 10,
        "args": {"External id": 7, "device": 0, "stream": 7, "correlation": 9}}
launch = {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1020,
          "dur": 5, "args": {"External id": 7, "correlation": 9}}
json.dump({"deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85031714816,
                                 "numSms": 132}], "traceEvents": [op, launch, kern]}, open(sys.argv[1], "w"))
PY
}
# not_opened NAME FIFO CMD...: runs CMD (under a time limit) while a writer waits on FIFO; the
# writer must still be waiting after it: nothing opened the FIFO.
not_opened() {
    no_name=$1 no_fifo=$2
    shift 2
    rm -f "$TMP/opened"
    (exec 3>"$no_fifo" && echo yes >"$TMP/opened") &
    no_w=$!
    timeout 60 "$@" >"$TMP/no.out" 2>"$TMP/no.err"
    no_rc=$?
    sleep 0.3
    check_eq "$no_name: exit 0, no hang" "$no_rc" 0
    if [ -e "$TMP/opened" ]; then fail "$no_name: the FIFO is never opened" "a reader opened it"; else pass "$no_name: the FIFO is never opened"; fi
    kill "$no_w" 2>/dev/null
    wait "$no_w" 2>/dev/null
}
mkfifo "$TMP/kfifo.py"
kfile_trace "$TMP/kfifo.json" "$TMP/kfifo.py"
not_opened "kernel_file a FIFO, no --inductor-cache" "$TMP/kfifo.py" "$PROFANA" --analysis "$TMP/kfifo.json" bf16 --explain triton_poi_fused_add_0
check_grep "kernel_file a FIFO: the lower bound" "source triton~lb" "$TMP/no.out"
check_grep "kernel_file a FIFO: the reason" "the module path is a FIFO, not a regular file: passed over" "$TMP/no.out"
mkdir -p "$TMP/kcache/ab"
mkfifo "$TMP/kcache/ab/cfifo.py"
kfile_trace "$TMP/kcache.json" "/nonexistent/ab/cfifo.py"
not_opened "kernel module a FIFO under --inductor-cache" "$TMP/kcache/ab/cfifo.py" "$PROFANA" --analysis "$TMP/kcache.json" bf16 --inductor-cache "$TMP/kcache"
kfile_trace "$TMP/kptmx.json" /dev/ptmx
if strace -f -o /dev/null true 2>/dev/null; then
    # (LeakSanitizer cannot run under ptrace: leaks are checked by the runs above)
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
        strace -f -e trace=open,openat -o "$TMP/strace.log" "$PROFANA" --analysis "$TMP/kptmx.json" bf16 --explain triton_poi_fused_add_0 >"$TMP/ptmx.out" 2>&1
    check_eq "kernel_file /dev/ptmx: exit 0" "$?" 0
    got=$(grep '/dev/ptmx' "$TMP/strace.log" | grep -cv O_PATH)
    check_eq "kernel_file /dev/ptmx: opened only with O_PATH (no driver open)" "$got" 0
    check_grep "kernel_file /dev/ptmx: the reason" "the module path is a character device, not a regular file: passed over" "$TMP/ptmx.out"
else
    echo "SKIP kernel_file /dev/ptmx under strace: strace cannot trace here"
fi

# A trace that keeps kernel_flop but not kernel_num_gb (issue 43): the bytes come from the
# kernel's module under --inductor-cache (Source inductor+src), against Inductor's own
# kernel_num_gb of the unstripped recording (inductor_oracle.py); without the modules the
# bytes stay unknown, the FLOPs Inductor's.
python3 - "$D/bert_default_bench.json.gz" "$TMP/nogb.json.gz" <<'PY'
import gzip, json, sys
d = json.load(gzip.open(sys.argv[1]))
for e in d["traceEvents"]:
    a = e.get("args")
    if isinstance(a, dict):
        a.pop("kernel_num_gb", None)
with gzip.open(sys.argv[2], "wt") as f:
    json.dump(d, f)
PY
mkdir -p "$TMP/nogb" && tar xzf "$D/bert_default_bench_modules.tar.gz" -C "$TMP/nogb"
"$PROFANA" --analysis "$TMP/nogb.json.gz" bf16 --inductor-cache "$TMP/nogb" --format json >"$TMP/nogb.out.json" 2>"$TMP/err"
check_eq "kernel_flop without kernel_num_gb, --inductor-cache: exit 0" "$?" 0
run_oracle tests/cli/inductor_oracle.py "$TMP/nogb.json.gz" "$D/bert_default_bench.json.gz" "$TMP/nogb.out.json" >"$TMP/nogb.or" ||
    fail "kernel_flop without kernel_num_gb: oracle" "exited $?"
tri=$(awk '$1 == "triton_us" { print $2 }' "$TMP/nogb.or")
match=$(awk '$1 == "match_us" { print $2 }' "$TMP/nogb.or")
if awk -v m="$match" -v t="$tri" 'BEGIN { exit !(t > 0 && m >= 0.95 * t) }'; then
    pass "kernel_flop without kernel_num_gb: bytes from the modules within 1% of Inductor's for >= 95% of Triton GPU time ($match of $tri us)"
else
    fail "kernel_flop without kernel_num_gb: bytes from the modules" "$match of $tri us; $(grep mismatched "$TMP/nogb.or")"
fi
"$PROFANA" --analysis "$TMP/nogb.json.gz" bf16 --inductor-cache "$TMP/nogb" --format csv >"$TMP/nogb.csv" 2>/dev/null
check_eq "kernel_flop without kernel_num_gb: every Triton row's source is inductor+src" \
    "$(python3 -c 'import csv,sys; print(sorted({r["Source"] for r in csv.DictReader(open(sys.argv[1])) if r["Kernel Name"].startswith("triton_")}))' "$TMP/nogb.csv")" \
    "['inductor+src']"
"$PROFANA" --analysis "$TMP/nogb.json.gz" bf16 --format csv >"$TMP/nogb0.csv" 2>/dev/null
check_eq "kernel_flop without kernel_num_gb, no cache: Triton rows keep Inductor's FLOPs, bytes unknown" \
    "$(python3 -c 'import csv,sys; print(sorted({(r["Source"], r["GB"]) for r in csv.DictReader(open(sys.argv[1])) if r["Kernel Name"].startswith("triton_")}))' "$TMP/nogb0.csv")" \
    "[('inductor', '')]"
