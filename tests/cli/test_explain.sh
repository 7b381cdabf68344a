# test_explain.sh - `--analysis --explain NAME` on the real traces: the invocation, its inputs, formula and figures, checked against the raw events read with Python and hand calculations; and the upper-bound marking of variable-length attention.
. tests/cli/lib.sh

# first_invocation TRACE OP|KERNEL: the first cpu_op named OP that launched GPU activity (or
# the op that launched the first activity named KERNEL), as JSON: its args, its activities,
# how many cpu_ops (with an External id) share its name. Read with Python's own parser.
first_invocation() {
    python3 - "$1" "$2" <<'PY'
import json, sys
from decimal import Decimal
d = json.load(open(sys.argv[1]), parse_float=Decimal)
ev = d["traceEvents"]
gpu = [e for e in ev if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
ops = [e for e in ev if e.get("cat") == "cpu_op" and "External id" in e.get("args", {})]
launched = {g["args"].get("External id") for g in gpu}
name = sys.argv[2]
named = [o for o in ops if o["name"] == name]
if named:
    op = next(o for o in named if o["args"]["External id"] in launched)
    kind, launches = "op", None
else:
    first = next(g for g in gpu if g["name"] == name)
    op = next(o for o in ops if o["args"]["External id"] == first["args"].get("External id"))
    kind, launches = "kernel", sum(1 for g in gpu if g["name"] == name)
    named = [o for o in ops if o["name"] == op["name"]]
acts = [g for g in gpu if g["args"].get("External id") == op["args"]["External id"]]
kernels = [g for g in acts if g["cat"] == "kernel"]
longest = max(kernels, key=lambda g: Decimal(g["dur"]))
# docs/analysis.md "How work is attributed": FLOPs on the math kernels by time, else on the
# kernels that are no library helper (tests/cli/kernel_roles.py)
sys.path.insert(0, "tests/cli")
from kernel_roles import carriers
math = carriers(kernels)
print(json.dumps({"math": [kernels.index(g) for g in math], "math_dur": str(sum(Decimal(g["dur"]) for g in math)),
                  "kernel_idx": [acts.index(g) for g in kernels],"kind": kind, "op": op["name"], "ext": op["args"]["External id"], "args": op["args"],
                  "rank": named.index(op) + 1, "named": len(named), "launches": launches,
                  "durs": [str(g["dur"]) for g in acts], "longest": longest["name"],
                  "longest_dur": str(longest["dur"]), "ts": str(acts[0]["ts"])}, default=str))
PY
}

# py EXPR: evaluates EXPR with `i` = the first_invocation JSON in $TMP/inv.json and `d` = the
# --explain JSON in $TMP/out.
py() {
    python3 -c "import json,sys; from decimal import Decimal; i=json.load(open(sys.argv[2])); d=json.load(open(sys.argv[3])); v=eval(sys.argv[1]); print(v if not isinstance(v,float) else repr(v))" \
        "$1" "$TMP/inv.json" "$TMP/out"
}

# ---- aten::mm on explicit_bf16: 2*M*N*K from its Input Dims, the kernel's duration ----

first_invocation "$TRACES/explicit_bf16.json" aten::mm >"$TMP/inv.json"
check_run "mm: --explain json" 0 "$PROFANA" --analysis "$TRACES/explicit_bf16.json" bf16 --explain aten::mm --format json
M=$(py "i['args']['Input Dims'][0][0]"); K=$(py "i['args']['Input Dims'][0][1]"); N=$(py "i['args']['Input Dims'][1][1]")
check_eq "mm: matched the op" "$(py "(d['match'], d['op'], d['external_id'])")" "$(py "('op', 'aten::mm', i['ext'])")"
check_eq "mm: first of the invocations in file order" "$(py "(d['invocation'], d['matches'])")" "$(py "(i['rank'], i['named'])")"
check_eq "mm: flop = 2*M*N*K" "$(py "d['flop']")" "$((2 * M * N * K))"
check_eq "mm: bytes = (MK + KN + MN)*2" "$(py "d['bytes']")" "$(((M * K + K * N + M * N) * 2))"
check_eq "mm: formula text" "$(py "d['formula']['flop_expr']")" "2*M*N*K = 2*$M*$N*$K"
check_eq "mm: family and module" "$(py "(d['formula']['family'], d['formula']['module'])")" "('gemm', 'gemm.c')"
check_eq "mm: kernel durations from the trace" "$(py "[a['dur_us'] for a in d['activities']]")" "$(py "[float(x) for x in i['durs']]")"
check_eq "mm: its GEMM kernels carry the FLOPs" "$(py "[k for k in range(len(d['activities'])) if (d['activities'][k]['flop'] or 0) > 0]")" \
    "$(py "[i['kernel_idx'][m] for m in i['math']]")"
check_near "mm: TFLOP/s = 2MNK / its GEMM kernels' time" "$(py "d['carrier']['tflops']")" \
    "$(py "2*$M*$N*$K / (float(i['math_dur']) * 1e-6) / 1e12")" 0.000001
check_near "mm: FLOPS % of the H100 SXM dense bf16 peak (989.5)" "$(py "d['carrier']['flops_pct']")" \
    "$(py "100 * 2*$M*$N*$K / (float(i['math_dur']) * 1e-6) / 989.5e12")" 0.000001
check_near "mm: first activity's timestamp" "$(py "d['ts_us']")" "$(py "float(i['ts'])")" 0.0000000001
check_eq "mm: device" "$(py "(d['device'], d['device_name'], d['matched_device'])")" "(0, 'NVIDIA H100 80GB HBM3', 'H100 SXM')"
check_run "mm: --explain text" 0 "$PROFANA" --analysis "$TRACES/explicit_bf16.json" bf16 --explain aten::mm
check_grep "mm: text shows the expression and value" "flop  = 2\*M\*N\*K = 2\*$M\*$N\*$K = $((2 * M * N * K))" "$TMP/out"
check_grep "mm: text shows the inputs" "\[$M, $K\] | c10::BFloat16" "$TMP/out"
check_grep "mm: text says which invocation" "invocation 1 of $(python3 -c "import json; print(json.load(open('$TMP/inv.json'))['named'])") in file order" "$TMP/out"

# ---- cuDNN attention backward on eager_bf16, found by its kernel's whole name ----

kernel=$(python3 - "$TRACES/eager_bf16.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
ids = {e["args"]["External id"] for e in ev if e.get("cat") == "cpu_op" and e["name"] == "aten::_cudnn_attention_backward"}
ks = [e for e in ev if e.get("cat") == "kernel" and e["args"].get("External id") in ids]
print(max(ks, key=lambda e: e["dur"])["name"])
PY
)
first_invocation "$TRACES/eager_bf16.json" "$kernel" >"$TMP/inv.json"
check_run "cudnn backward by kernel name" 0 "$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --explain "$kernel" --format json
check_eq "cudnn backward: matched the kernel, its op" "$(py "(d['match'], d['op'], d['matches'])")" "$(py "('kernel', 'aten::_cudnn_attention_backward', i['launches'])")"
# [B, H, S, D] = Input Dims[1]; k, v at 2, 3; is_causal is Concrete Inputs[14].
want=$(py "(lambda q, k, v, c: 2*q[0]*q[1]*q[2]*k[2]*(3*q[3] + 2*v[3]) // (2 if c == 'True' else 1))(*i['args']['Input Dims'][1:4], i['args']['Concrete Inputs'][14])")
check_eq "cudnn backward: flop = 2BHSqSk(3D + 2Dv), halved when causal" "$(py "d['flop']")" "$want"
want=$(py "sum(__import__('math').prod(s) * (4 if t == 'float' else 2) for s, t in zip(i['args']['Input Dims'][0:6], i['args']['Input type'][0:6])) + sum(__import__('math').prod(s) * 2 for s in i['args']['Input Dims'][1:4])")
check_eq "cudnn backward: bytes = grad_out + q + k + v + out + lse + dq + dk + dv" "$(py "d['bytes']")" "$want"
check_eq "cudnn backward: FLOPs on its attention kernels, by time" "$(py "[round(float((d['activities'][k]['flop'] or 0) / d['flop']), 9) for k in i['kernel_idx']]")" \
    "$(py "[round(float(Decimal(i['durs'][k]) / Decimal(i['math_dur'])), 9) if j in i['math'] else 0.0 for j, k in enumerate(i['kernel_idx'])]")"
check_near "cudnn backward: its kernels' FLOPs sum to the op's" "$(py "sum(a['flop'] or 0 for a in d['activities'])")" "$(py "d['flop']")" 0.000001
check_near "cudnn backward: invocation time = its activities' durations" "$(py "d['invocation_total']['dur_us']")" "$(py "float(sum(Decimal(x) for x in i['durs']))")" 0.0000001

# ---- efficient attention forward on eager_fp32: [B, S, H, D], custom_mask_type at 9 ----

first_invocation "$TRACES/eager_fp32.json" aten::_efficient_attention_forward >"$TMP/inv.json"
check_run "efficient forward" 0 "$PROFANA" --analysis "$TRACES/eager_fp32.json" fp32 --explain aten::_efficient_attention_forward --format json
want=$(py "(lambda q, k, v, m: 2*q[0]*q[2]*q[1]*k[1]*(q[3] + v[3]) // (2 if m in ('1', '2') else 1))(*i['args']['Input Dims'][0:3], i['args']['Concrete Inputs'][9])")
check_eq "efficient forward: flop from [B,S,H,D] and the mask type" "$(py "d['flop']")" "$want"
check_eq "efficient forward: dtype fp32" "$(py "d['dtype']")" "fp32"

# ---- convolution on cnn_fp32: output size from padding (2), stride (3), dilation (4), groups (5) ----

first_invocation "$TRACES/cnn_fp32.json" aten::cudnn_convolution >"$TMP/inv.json"
check_run "cudnn_convolution" 0 "$PROFANA" --analysis "$TRACES/cnn_fp32.json" fp32 --explain aten::cudnn_convolution --format json
want=$(python3 - "$TMP/inv.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["args"]
x, w = a["Input Dims"][0], a["Input Dims"][1]
pad, stride, dil = (json.loads(a["Concrete Inputs"][p]) for p in (2, 3, 4))
g = int(a["Concrete Inputs"][5])
out = [(x[2 + i] + 2 * pad[i] - dil[i] * (w[2 + i] - 1) - 1) // stride[i] + 1 for i in range(2)]
flop = 2 * x[0] * w[0] * out[0] * out[1] * (x[1] // g) * w[2] * w[3]
nbytes = 4 * (x[0] * x[1] * x[2] * x[3] + w[0] * w[1] * w[2] * w[3] + x[0] * w[0] * out[0] * out[1])
print(flop, nbytes)
PY
)
check_eq "conv: flop and bytes by hand" "$(py "d['flop']") $(py "d['bytes']")" "$want"

# ---- cat on eager_bf16 / eager_fp32, by a part of its kernel's name ----

for pair in "eager_bf16 bf16" "eager_fp32 fp32"; do
    set -- $pair
    check_run "$1 cat by part of its kernel name" 0 "$PROFANA" --analysis "$TRACES/$1.json" "$2" --explain CatArrayBatchedCopy --format json
    # The kernel's template says the element size (OpaqueType<2u>): independent of DTYPE.
    want=$(python3 - "$TRACES/$1.json" <<'PY'
import json, math, re, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
k = next(e for e in ev if e.get("cat") == "kernel" and "CatArrayBatchedCopy" in e["name"])
op = next(e for e in ev if e.get("cat") == "cpu_op" and e["args"].get("External id") == k["args"]["External id"])
size = int(re.search(r"OpaqueType<(\d+)u>", k["name"]).group(1))
print(op["args"]["Input type"][0], 2 * size * sum(math.prod(s) for s in op["args"]["Input Dims"][0]))
PY
)
    check_eq "$1 cat: TensorList bytes = 2 x elements x the kernel's element size" \
        "$(json "d['formula']['sizes'].startswith('TensorList') and 'TensorList'" "$TMP/out") $(json "d['bytes']" "$TMP/out")" "$want"
    check_eq "$1 cat: source marks the assumed dtype" "$(json "(d['match'], d['op'], d['source'])" "$TMP/out")" "('kernel-substring', 'aten::cat', 'estimate~dtype')"
done
check_run "cat: --analysis marks ~dtype" 0 "$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --group op --top 0
check_grep "cat: the row's source" "^aten::cat .*estimate~dtype" "$TMP/out"
check_grep "cat: the footnote" "^~dtype: bytes of a tensor list" "$TMP/out"

# ---- an Inductor launch: its own figures ----

first_invocation "$TRACES/compiled_bf16_b8.json" triton_poi_fused_gelu_view_2 >"$TMP/inv.json"
check_run "triton launch" 0 "$PROFANA" --analysis "$TRACES/compiled_bf16_b8.json" bf16 --explain triton_poi_fused_gelu_view_2 --format json
check_eq "triton: Inductor's figures" "$(py "(d['source'], d['formula']['family'], d['flop'], d['bytes'])")" \
    "$(py "('inductor', 'inductor', i['args']['kernel_flop'], round(float(i['args']['kernel_num_gb']) * 1e9))")"

# ---- an op whose only activity is a memcpy: formula shown, not counted ----

check_run "copy_ by memcpy" 0 "$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --explain aten::copy_ --format json
check_eq "copy_: not counted, the memcpy's bytes" "$(json "(d['counted'], d['carrier'], [a['kind'] for a in d['activities']])" "$TMP/out")" "(False, None, ['memcpy'])"

# ---- errors ----

check_run "unknown name" 1 "$PROFANA" --analysis "$TRACES/explicit_bf16.json" bf16 --explain aten::nonexistent
check_eq "unknown name: one line" "$(wc -l <"$TMP/err")" "1"
check_grep "unknown name: says so" "no op or kernel of that name" "$TMP/err"
check_run "other case" 1 "$PROFANA" --analysis "$TRACES/explicit_bf16.json" bf16 --explain ATEN::MM
check_grep "other case: hints the name" "close: 'aten::mm'" "$TMP/err"
n=$(python3 -c "import json,sys; print(len({e['name'] for e in json.load(open(sys.argv[1]))['traceEvents'] if e.get('cat') == 'kernel' and 'nvjet' in e['name']}))" "$TRACES/eager_bf16.json")
check_run "part of several kernel names" 1 "$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --explain nvjet
check_grep "several: how many" "is part of $n kernel names" "$TMP/err"
check_run "wrapper op" 1 "$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --explain aten::linear
check_grep "wrapper op: says why" "none launched GPU activity" "$TMP/err"

# ---- variable-length attention: an upper bound, marked in the table, JSON and --explain ----
# One packed _flash_attention_forward: q [300, 8, 64], k and v [300, 2, 64], cum_seq [4]
# (3 sequences), max_q = max_k = 128, causal; and one aten::mm [64, 32] x [32, 16]
# (FLOP 2 x 64 x 16 x 32 = 65536, bytes (64 x 32 + 32 x 16 + 64 x 16) x 2 = 7168).
# By hand: FLOP 2 x 3 x 8 x 128 x 128 x (64 + 64) / 2 = 50331648; bytes q 300 x 8 x 64 x 2
# = 307200, k, v 76800 each, out 307200, logsumexp 3 x 8 x 128 x 4 = 12288: 780288.
python3 - "$TRACES/explicit_bf16.json" "$TMP/varlen.json" <<'PY'
import json, sys
props = json.load(open(sys.argv[1]))["deviceProperties"]
def op(name, ext, ts, dims, types, conc):
    return {"ph": "X", "cat": "cpu_op", "name": name, "pid": 1, "tid": 1, "ts": ts, "dur": 5,
            "args": {"External id": ext, "Input Dims": dims, "Input type": types, "Concrete Inputs": conc}}
def kernel(name, ext, ts, dur):
    return {"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7, "ts": ts, "dur": dur,
            "args": {"External id": ext, "device": 0, "stream": 7, "correlation": ext}}
b = "c10::BFloat16"
ev = [op("aten::_flash_attention_forward", 1, 100,
         [[300, 8, 64], [300, 2, 64], [300, 2, 64], [4], [4], [], [], [], [], [], []],
         [b, b, b, "int", "int", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar", ""],
         ["", "", "", "", "", "128", "128", "0.", "True", "False", ""]),
      kernel("flash_fwd_kernel", 1, 110, 10.0),
      op("aten::mm", 2, 200, [[64, 32], [32, 16]], [b, b], ["", ""]),
      kernel("nvjet_mm", 2, 210, 2.0)]
json.dump({"deviceProperties": props, "traceEvents": ev}, open(sys.argv[2], "w"))
PY
check_run "varlen: --analysis json" 0 "$PROFANA" --analysis "$TMP/varlen.json" bf16 --group op --format json
check_eq "varlen: the attention row is an upper bound" \
    "$(json "[(r['name'], r['flop'], r['bytes'], r['source'], r['upper_bound']) for r in d['devices'][0]['rows']]" "$TMP/out")" \
    "[('aten::_flash_attention_forward', 50331648, 780288, 'attention~ub', True), ('aten::mm', 65536, 7168, 'gemm', False)]"
check_eq "varlen: so is the Total" "$(json "d['devices'][0]['total']['upper_bound']" "$TMP/out")" "True"
check_run "varlen: --analysis text" 0 "$PROFANA" --analysis "$TMP/varlen.json" bf16
check_grep "varlen: source cell marked" "^flash_fwd_kernel .*| attention~ub" "$TMP/out"
check_grep "varlen: footnote" "^~ub: an upper bound" "$TMP/out"
check_run "no varlen: no footnote" 0 "$PROFANA" --analysis "$TRACES/explicit_bf16.json" bf16
check_eq "no varlen: no ~ub line" "$(grep -c '~ub' "$TMP/out")" "0"
check_run "varlen: --explain" 0 "$PROFANA" --analysis "$TMP/varlen.json" bf16 --explain flash_fwd_kernel --format json
check_eq "varlen: --explain says upper bound" "$(json "(d['flop'], d['bytes'], d['upper_bound'])" "$TMP/out")" "(50331648, 780288, True)"
check_eq "varlen: --explain names max_q" "$(json "'max_q' in d['formula']['sizes'] and 'an upper bound' in d['formula']['sizes']" "$TMP/out")" "True"

# ---- the README's --explain example: every line it shows is in the output ----

awk '/^\$ profana --analysis testdata\/traces\/explicit_bf16.json bf16 --explain/ { on = 1; print; next } on && /^```/ { exit } on' README.md >"$TMP/readme"
cmd=$(head -n 1 "$TMP/readme" | sed 's/^\$ profana //')
# shellcheck disable=SC2086
check_run "README --explain example runs" 0 "$PROFANA" $cmd
tail -n +2 "$TMP/readme" | grep -v '^\.\.\.$' >"$TMP/readme_lines"
check_eq "README --explain example: lines shown" "$(wc -l <"$TMP/readme_lines")" "4"
check_eq "README --explain example: each line is printed" "$(grep -c -x -F -f "$TMP/readme_lines" "$TMP/out")" "4"
