# test_w2026.sh - the workloads of 2026 recorded on an H100 (testdata/w2026, tools/record_2026.py): FLOPs known for at least 90% of GPU time, and the new families' figures against hand formulas applied to each invocation's recorded shapes.
# check: valgrind
. tests/cli/lib.sh

W=testdata/w2026
for t in moe_grouped_mm:bf16 int8_fp8_gemm:bf16 fused_adamw:fp32 rnn_fft:fp32 kv_decode:bf16 flex_attention:bf16; do
    name=${t%%:*} dtype=${t##*:}
    "$PROFANA" --analysis "$W/$name.json.gz" "$dtype" --group op --format json --top 0 >"$TMP/$name.json" 2>/dev/null
    check_eq "$name: FLOPs known for at least 90% of GPU time" \
        "$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["devices"][0]["coverage"]; print(c["flop_pct"] >= 90 or c)' "$TMP/$name.json")" True
done

python3 - "$W" "$TMP" <<'PY' || fail "w2026: checker" "exited $?"
import json
import math
import sys

sys.path.insert(0, "tests/cli")
import raw

W, tmp = sys.argv[1:3]


def check(what, ok, why=""):
    raw.check("w2026", what, ok, why)


def ops(name):
    """The cpu_ops that launched GPU work (an op calling another launches through the inner one)."""
    ev = raw.load("%s/%s.json.gz" % (W, name))
    launched = {a["args"].get("External id") for a in raw.gpu_acts(ev)}
    return [e for e in ev if e.get("cat") == "cpu_op" and e["args"].get("External id") in launched]


def own_transfer_bytes(name, op):
    """args.bytes of the memsets and memcpys the op's calls launched (they count in its row)."""
    ev = raw.load("%s/%s.json.gz" % (W, name))
    ids = {e["args"]["External id"] for e in ev if e.get("cat") == "cpu_op" and e["name"] == op}
    return sum(a["args"].get("bytes", 0) for a in raw.gpu_acts(ev)
               if a["cat"] != "kernel" and a["args"].get("External id") in ids)


def row(name, op):
    rows = json.load(open("%s/%s.json" % (tmp, name)))["devices"][0]["rows"]
    return next(r for r in rows if r["name"] == op)


def near(x, y):
    return abs(x - y) <= 1e-9 * max(1.0, abs(y))


# _grouped_mm, 2-D A [M, K] against 3-D B [E, K, N] (offs splits M) or 2-D B [K, N] (offs
# splits K, a weight gradient): 2*M*K*N over all groups either way.
flop = sum(2 * e["args"]["Input Dims"][0][0] * e["args"]["Input Dims"][0][1] * e["args"]["Input Dims"][1][-1]
           for e in ops("moe_grouped_mm") if e["name"] == "aten::_grouped_mm")
r = row("moe_grouped_mm", "aten::_grouped_mm")
check("MoE: aten::_grouped_mm FLOPs = sum of 2*M*K*N from the shapes = %d" % flop, near(r["flop"], flop), r["flop"])

# int8 and fp8 GEMMs: 2*M*K*N; _int_mm writes int32, _scaled_mm reads the row-wise scales
for op in ("aten::_int_mm", "aten::_scaled_mm"):
    calls = [e["args"]["Input Dims"] for e in ops("int8_fp8_gemm") if e["name"] == op]
    flop = sum(2 * d[0][0] * d[0][1] * d[1][1] for d in calls)
    r = row("int8_fp8_gemm", op)
    check("%s: %d calls, FLOPs 2*M*K*N = %d" % (op, len(calls), flop), len(calls) == 3 and near(r["flop"], flop), r["flop"])
d = next(e["args"]["Input Dims"] for e in ops("int8_fp8_gemm") if e["name"] == "aten::_int_mm")
r = row("int8_fp8_gemm", "aten::_int_mm")
want = 3 * (d[0][0] * d[0][1] + d[1][0] * d[1][1] + d[0][0] * d[1][1] * 4)
check("aten::_int_mm bytes: int8 A and B read, int32 out written = %d" % want, near(r["bytes"], want), r["bytes"])
d = next(e["args"]["Input Dims"] for e in ops("int8_fp8_gemm") if e["name"] == "aten::_scaled_mm")
want = 3 * (d[0][0] * d[0][1] + d[1][0] * d[1][1] + 4 * (d[2][0] * d[2][1] + d[3][0] * d[3][1]) + 2 * d[0][0] * d[1][1])
want += own_transfer_bytes("int8_fp8_gemm", "aten::_scaled_mm")
r = row("int8_fp8_gemm", "aten::_scaled_mm")
check("aten::_scaled_mm bytes: fp8 A and B, fp32 row-wise scales, bf16 out, and its memsets = %d" % want,
      near(r["bytes"], want), r["bytes"])

# FFT, 5 N log2 N a complex transform, half that for a real one: rfft of [64, 8192],
# irfft back to 8192 points, fft of complex [64, 4096]
fft = {"aten::_fft_r2c": 2.5 * 64 * 8192 * 13, "aten::_fft_c2r": 2.5 * 64 * 8192 * 13, "aten::_fft_c2c": 5 * 64 * 4096 * 12}
for op, want in fft.items():
    r = row("rnn_fft", op)
    check("%s FLOPs by hand %d" % (op, want), near(r["flop"], want), r["flop"])
# sort of fp32 [256, 32768]: values and int64 indices written, the input read, 0 FLOP
calls = [e for e in ops("rnn_fft") if e["name"] == "aten::sort"]
r = row("rnn_fft", "aten::sort")
n = 256 * 32768
check("aten::sort: %d calls, bytes (4 + 4 + 8) a element = %d, 0 FLOP" % (len(calls), len(calls) * 16 * n),
      near(r["bytes"], len(calls) * 16 * n) and r["flop"] == 0, "%s %s" % (r["bytes"], r["flop"]))

# fused AdamW (fp32): params, exp_avg, exp_avg_sq read and written, grads read, 4 fp32 steps
a = next(e["args"] for e in ops("fused_adamw") if e["name"] == "aten::_fused_adamw_")
numel = sum(math.prod(s) for s in a["Input Dims"][0])
want = (2 * 3 * numel + numel) * 4 + len(a["Input Dims"][5]) * 4
r = row("fused_adamw", "aten::_fused_adamw_")
check("aten::_fused_adamw_ bytes: %d parameters, (2*3 + 1) * 4 bytes each + the steps = %d" % (numel, want),
      near(r["bytes"], want) and near(r["flop"], 3 * numel), "%s %s" % (r["bytes"], r["flop"]))

# flex attention under torch.compile (B=4, H=16, S=1024, Dh=64, causal block mask, bf16):
# Inductor's template launches take q, k, v first as [B, H, S, D]; the block mask's sparsity
# is not recorded, so every query against every key: forward 4*B*H*Sq*Sk*D =
# 4*4*16*1024*1024*64, backward 2.5 times that, both an upper bound. Bytes: every tensor
# argument (the launch's outputs are among them) once, at its recorded type's size.
SIZE = {"c10::BFloat16": 2, "float": 4, "int": 4}
fwd = 4 * 4 * 16 * 1024 * 1024 * 64
for op, want in (("triton_tem_fused_flex_attention_0", fwd), ("triton_tem_fused_flex_attention_backward_1", 2.5 * fwd)):
    a = next(e["args"] for e in ops("flex_attention") if e["name"] == op)
    qkv = a["Input Dims"][:3]
    nbytes = sum(math.prod(d) * SIZE[t] for d, t in zip(a["Input Dims"], a["Input type"]) if d)
    r = row("flex_attention", op)
    check("%s: q, k, v %s, dense FLOPs by hand %d, bytes of its tensor arguments %d, an upper bound"
          % (op, qkv, want, nbytes),
          qkv == [[4, 16, 1024, 64]] * 3 and near(r["flop"], want) and near(r["bytes"], nbytes)
          and r["source"] == "attention~ub" and r["upper_bound"] is True,
          "%s %s %s" % (r["flop"], r["bytes"], r["source"]))
PY
