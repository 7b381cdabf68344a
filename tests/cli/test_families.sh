# test_families.sh - issue 19's figures on the public serving traces and the CNN's max-pool ops: per-call bytes and FLOPs of the serving ops within 2% of hand values written here, and Python's sums from the raw events.
. tests/cli/lib.sh

PUB=../shared/testdata/public/tracelens
SG=$PUB/mi300_sglang_qwen3_prefilldecode.json.gz
VL=$PUB/b200_vllm_eager.json.gz

# per_call FILE OP FIELD: the op row's figure (--group op) divided by its calls
per_call() {
    "$PROFANA" --analysis "$1" bf16 --group op --top 0 --format json 2>/dev/null >"$TMP/pc.json"
    json "[r['$3'] / r['count'] for r in d['devices'][0]['rows'] if r['name'] == '$2'][0]" "$TMP/pc.json"
}

if [ -f "$SG" ] && [ -f "$VL" ]; then
    # By hand (issue 19), from the shapes the trace records:
    # silu_and_mul(out [15360, 12288], in [15360, 24576]) bf16: read in, write out
    #   15360*24576*2 + 15360*12288*2 = 1132462080
    check_near "sglang: silu_and_mul bytes per call = 1.1325 GB" "$(per_call "$SG" sgl_kernel::silu_and_mul bytes)" 1132462080 0.02
    # store_cache(k, v [15360, 1024] bf16 -> caches [835874, 1024], indices [15360] int64):
    #   k and v read, the same rows written: 4*15360*1024*2 + 15360*8 = 125952000
    check_near "sglang: store_cache bytes per call = 126 MB" "$(per_call "$SG" sglang::store_cache bytes)" 125952000 0.02
    # mha_batch_prefill: 15 causal sequences of 1024 tokens, 32 heads of 128:
    #   2*15*32*1024*1024*(128 + 128)/2 = 128849018880
    check_near "sglang: mha_batch_prefill FLOPs per call = 128.85 GFLOP" "$(per_call "$SG" aiter::mha_batch_prefill flop)" 128849018880 0.02
    # reshape_and_cache_flash(key, value [888, 1, 64] bf16 -> fp8 caches, slots [888] int64,
    # k_scale, v_scale fp32): 2*888*64*2 + 2*888*64*1 + 888*8 + 2*4 = 348104
    check_near "vllm: reshape_and_cache_flash bytes per call = 348 KB" "$(per_call "$VL" _C_cache_ops::reshape_and_cache_flash bytes)" 348104 0.02
    # The same four from the raw events with Python: the shapes of each call, the rules above.
    python3 - "$SG" "$VL" >"$TMP/hand" <<'PY'
import gzip, json, sys
def calls(p, name):
    ev = json.load(gzip.open(p))["traceEvents"]
    launched = {e["args"].get("External id") for e in ev if e.get("cat") == "kernel"}
    return [e["args"] for e in ev if e.get("cat") == "cpu_op" and e["name"] == name and e["args"].get("External id") in launched]
size = {"c10::BFloat16": 2, "long int": 8, "unsigned char": 1, "float": 4, "int": 4}
def nbytes(a, i):
    n = 1
    for x in a["Input Dims"][i]:
        n *= x
    return n * size[a["Input type"][i]]
def numel(a, i):
    n = 1
    for x in a["Input Dims"][i]:
        n *= x
    return n
sg, vl = sys.argv[1], sys.argv[2]
c = calls(sg, "sgl_kernel::silu_and_mul")
print("silu", sum(nbytes(a, 0) + nbytes(a, 1) for a in c) / len(c))
c = calls(sg, "sglang::store_cache")
print("store", sum(2 * nbytes(a, 0) + 2 * nbytes(a, 1) + nbytes(a, 4) for a in c) / len(c))
c = calls(sg, "aiter::mha_batch_prefill")
def mha(a):
    t, h, d = a["Input Dims"][0]
    b = a["Input Dims"][3][0] - 1
    sq, sk = int(a["Concrete Inputs"][6]), int(a["Concrete Inputs"][7])
    assert t == b * sq and sk == sq
    return 2 * b * h * sq * sk * (d + d) / (2 if a["Concrete Inputs"][12] == "True" else 1)
print("mha", sum(mha(a) for a in c) / len(c))
c = calls(vl, "_C_cache_ops::reshape_and_cache_flash")
print("rcf", sum(nbytes(a, 0) + nbytes(a, 1) + numel(a, 0) * size[a["Input type"][2]] + numel(a, 1) * size[a["Input type"][3]] + nbytes(a, 4) + 8 for a in c) / len(c))
PY
    check_near "sglang: silu_and_mul = Python's sum from the raw events" "$(per_call "$SG" sgl_kernel::silu_and_mul bytes)" "$(awk '$1=="silu"{print $2}' "$TMP/hand")" 0.000001
    check_near "sglang: store_cache = Python's sum from the raw events" "$(per_call "$SG" sglang::store_cache bytes)" "$(awk '$1=="store"{print $2}' "$TMP/hand")" 0.000001
    check_near "sglang: mha_batch_prefill = Python's sum from the raw events" "$(per_call "$SG" aiter::mha_batch_prefill flop)" "$(awk '$1=="mha"{print $2}' "$TMP/hand")" 0.000001
    check_near "vllm: reshape_and_cache_flash = Python's sum from the raw events" "$(per_call "$VL" _C_cache_ops::reshape_and_cache_flash bytes)" "$(awk '$1=="rcf"{print $2}' "$TMP/hand")" 0.000001
    # the source says which figures are exact and which a ceiling
    "$PROFANA" --analysis "$SG" bf16 --group op --top 0 --format json 2>/dev/null >"$TMP/sg.json"
    check_eq "sglang: mha_batch_prefill is exact (every sequence max_q long)" \
        "$(json "[(r['source'], r['upper_bound']) for r in d['devices'][0]['rows'] if r['name'] == 'aiter::mha_batch_prefill'][0]" "$TMP/sg.json")" "('attention', False)"
else
    echo "SKIP public traces not found under $PUB"
fi

# cnn_fp32's max_pool2d_with_indices and its backward, by hand from the raw events: forward
# reads the input and writes the maxima and int64 indices; backward reads grad_output and
# the indices and writes a gradient the input's size. Kernel 2, stride 2 (the default), no
# padding: the output is the input halved in both spatial dims.
python3 - "$TRACES/cnn_fp32.json" >"$TMP/pool" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
launched = {e["args"].get("External id") for e in ev if e.get("cat") == "kernel"}
tot = {}
for e in ev:
    a = e.get("args", {})
    if e.get("cat") != "cpu_op" or a.get("External id") not in launched:
        continue
    if e["name"] == "aten::max_pool2d_with_indices":
        n, c, h, w = a["Input Dims"][0]
        assert a["Concrete Inputs"][1] == "[2, 2]"
        b = n * c * h * w * 4 + n * c * (h // 2) * (w // 2) * (4 + 8)
    elif e["name"] == "aten::max_pool2d_with_indices_backward":
        g = a["Input Dims"][0]
        s = a["Input Dims"][1]
        b = g[0] * g[1] * g[2] * g[3] * (4 + 8) + s[0] * s[1] * s[2] * s[3] * 4
    else:
        continue
    tot[e["name"]] = tot.get(e["name"], 0) + b
for k in sorted(tot):
    print(k, tot[k])
PY
"$PROFANA" --analysis "$TRACES/cnn_fp32.json" fp32 --group op --top 0 --format json >"$TMP/cnn.json"
while read -r op want; do
    check_near "cnn: $op bytes = Python's from the raw events" \
        "$(json "[r['bytes'] for r in d['devices'][0]['rows'] if r['name'] == '$op'][0]" "$TMP/cnn.json")" "$want" 0.000001
done <"$TMP/pool"
check_eq "cnn: both max-pool ops checked" "$(wc -l <"$TMP/pool")" 2
