# test_inductor.sh - Inductor's Triton launches: bytes from the kernel modules a plain compiled recording names (--inductor-cache) against Inductor's own kernel_num_gb in a TORCHINDUCTOR_BENCHMARK_KERNEL=1 recording of the same step (testdata/inductor/, tools/gen_inductor.py); without the modules every Triton row has a figure marked as a lower bound; a hand-checked in-place kernel.
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
