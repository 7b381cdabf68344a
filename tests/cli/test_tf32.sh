# test_tf32.sh - which peak fp32 matrix work is measured against (default: convolutions and kernels named tf32 on the TF32 peak; --tf32, --no-tf32), percents worked out by hand from the raw events' shapes and times.
# check: valgrind
. tests/cli/lib.sh

T=$TRACES/cnn_fp32.json
for opt in "" --tf32 --no-tf32; do
    for g in kernel op shape; do
        # shellcheck disable=SC2086
        "$PROFANA" --analysis "$T" fp32 --quiet --format json --group $g $opt >"$TMP/cnn_${g}${opt}.json"
    done
done
"$PROFANA" --analysis "$TRACES/explicit_fp32.json" fp32 --quiet --format json --group op >"$TMP/mm.json"
"$PROFANA" --analysis "$T" fp32 --quiet --format json --explain aten::cudnn_convolution >"$TMP/explain.json"

# The H100 SXM's dense datasheet peaks (../shared/DEVICES.md, src/catalog/device_table.c): fp32
# 67 TFLOP/s, tf32 494.5 TFLOP/s. Each convolution's FLOPs by hand from its recorded input
# shapes: 2 * N * Cout * Hout * Wout * Cin * kh * kw (groups 1), Hout = (H + 2p - d(k-1) - 1) / s + 1;
# its time: the summed durations of the GPU activities its invocations launched.
python3 - "$T" "$TMP" "$TRACES/explicit_fp32.json" <<'PY' || fail "tf32: checker" "exited $?"
import json
import sys

sys.path.insert(0, "tests/cli")
import raw

trace, tmp, mm_trace = sys.argv[1:4]
FP32, TF32 = 67e12, 494.5e12


def check(what, ok, why=""):
    raw.check("tf32", what, ok, why)


def near(a, b, rel=1e-9):
    return a is not None and abs(a - b) <= rel * abs(b)


def launched_ns(events, name):
    """{External id: op event} of the ops named name, and ns of GPU work each launched."""
    ops = {e["args"]["External id"]: e for e in events if e.get("cat") == "cpu_op" and e.get("name") == name}
    ns = {}
    for a in raw.gpu_acts(events):
        x = a["args"].get("External id")
        if x in ops:
            ns[x] = ns.get(x, 0) + raw.ns(a["dur"])
    return ops, ns


def conv_flop(op):
    a = op["args"]
    (n, cin, h, w), (cout, _, kh, kw) = a["Input Dims"][0], a["Input Dims"][1]
    pad, stride, dil = (json.loads(a["Concrete Inputs"][i]) for i in (2, 3, 4))
    ho = (h + 2 * pad[0] - dil[0] * (kh - 1) - 1) // stride[0] + 1
    wo = (w + 2 * pad[1] - dil[1] * (kw - 1) - 1) // stride[1] + 1
    return 2 * n * cout * ho * wo * cin * kh * kw


events = raw.load(trace)
ops, ns = launched_ns(events, "aten::cudnn_convolution")
flop = sum(conv_flop(ops[x]) for x in ns)
t = sum(ns.values()) * 1e-9
check("cnn_fp32: 9 cudnn_convolution calls, 6593445888 FLOP by hand", len(ns) == 9 and flop == 6593445888,
      "%d calls, %d FLOP" % (len(ns), flop))
# PyTorch's own totals agree: aten::conv2d 6593.446 MFLOPs, cudnn_convolution CUDA total 219.553 us.
ref = {l.split()[0]: l.split() for l in open("testdata/reference/cnn_fp32.key_averages.txt") if l.strip()}
check("cnn_fp32: FLOPs by hand = key_averages' aten::conv2d MFLOPs", "%.3f" % (flop / 1e6) == ref["aten::conv2d"][-1],
      "%.3f vs %s" % (flop / 1e6, ref["aten::conv2d"][-1]))
check("cnn_fp32: time from the raw events = key_averages' cudnn_convolution CUDA total",
      "%.3fus" % (t * 1e6) == ref["aten::cudnn_convolution"][6], "%.3f vs %s" % (t * 1e6, ref["aten::cudnn_convolution"][6]))


def op_row(path, name):
    d = json.load(open(path))
    return next(r for r in d["devices"][0]["rows"] if r["name"] == name)


want = {"": TF32, "--tf32": TF32, "--no-tf32": FP32}
for opt, peak in want.items():
    r = op_row("%s/cnn_op%s.json" % (tmp, opt), "aten::cudnn_convolution")
    pct = 100 * flop / peak / t
    check("cnn_fp32 %s: aten::cudnn_convolution FLOPS %% = 100 * %d / %.1f TFLOP/s / %.9f s = %.4f"
          % (opt or "default", flop, peak / 1e12, t, pct), near(r["flops_pct"], pct), "got %s" % r["flops_pct"])

# By default no row of any grouping is above 100% of its FLOP peak (with --no-tf32 the
# TF32 convolution kernels are: the s1688gemm ones 101% of the fp32 peak, their ops' FLOPs split over
# their conv kernels by time, which is why).
for g in ("kernel", "op", "shape"):
    rows = json.load(open("%s/cnn_%s.json" % (tmp, g)))["devices"][0]["rows"]
    over = [(r["name"][:50], r["flops_pct"]) for r in rows if (r["flops_pct"] or 0) > 100]
    check("cnn_fp32 --group %s: no row above 100%% of its FLOP peak (%d rows)" % (g, len(rows)), not over, str(over))
# Nor above 100% of DRAM's peak: an element-wise row whose bytes (every input read, the output
# written, by hand from the shapes) move faster than the H100's 3350 GB/s while one call's
# bytes fit its 50 MiB L2 (52428800 bytes) got part of them from the cache: its BW % is
# unknown (null, "cache" in text), cache_served true.
for g in ("kernel", "op", "shape"):
    rows = json.load(open("%s/cnn_%s.json" % (tmp, g)))["devices"][0]["rows"]
    over = [(r["name"][:50], r["bw_pct"]) for r in rows if (r["bw_pct"] or 0) > 100]
    check("cnn_fp32 --group %s: no row above 100%% of DRAM's peak" % g, not over, str(over))
tb_ops, tb_ns = launched_ns(events, "aten::threshold_backward")
big = [x for x in tb_ns if tb_ops[x]["args"]["Input Dims"][0] == [32, 256, 16, 16]]
call_bytes = 3 * 32 * 256 * 16 * 16 * 4
t_big = sum(tb_ns[x] for x in big) * 1e-9
row = next(r for r in json.load(open("%s/cnn_shape.json" % tmp))["devices"][0]["rows"]
           if r["name"].startswith("aten::threshold_backward([32,256,16,16]"))
check("cnn_fp32: threshold_backward [32,256,16,16] x %d: %d bytes a call by hand in %.9f s = %.1f GB/s > 3350"
      % (len(big), call_bytes, t_big, len(big) * call_bytes / t_big / 1e9),
      len(big) == 3 and len(big) * call_bytes / t_big > 3350e9 and call_bytes <= 52428800
      and near(row["gbps"], len(big) * call_bytes / t_big / 1e9), "got %s" % row["gbps"])
check("cnn_fp32: that row's BW % is unknown and cache-served", row["bw_pct"] is None and row["cache_served"] is True,
      "got %s %s" % (row["bw_pct"], row["cache_served"]))
rows = json.load(open("%s/cnn_kernel--no-tf32.json" % tmp))["devices"][0]["rows"]
check("cnn_fp32 --no-tf32: the s1688gemm / tf32 conv kernels exceed the fp32 peak",
      any((r["flops_pct"] or 0) > 100 for r in rows))

# --explain measures the same way: the first cudnn_convolution (External id 8708, input
# [32,3,64,64], weight [64,3,3,3], stride 1, padding 1: 2*32*64*64*64*3*3*3 = 452984832 FLOP)
# on its one kernel, against the TF32 peak.
x = json.load(open("%s/explain.json" % tmp))
op = next(o for o in ops.values() if o["args"]["External id"] == 8708)
t1 = ns[8708] * 1e-9
pct = 100 * 452984832 / TF32 / t1
check("--explain: flop by hand = the formula's", conv_flop(op) == 452984832 == x["flop"] and x["dtype"] == "tf32")
check("--explain: carrier FLOPS %% = 100 * 452984832 / 494.5 TFLOP/s / %.9f s = %.6f" % (t1, pct),
      near(x["carrier"]["flops_pct"], pct, 1e-12), "got %s" % x["carrier"]["flops_pct"])

# fp32 GEMMs stay on the fp32 peak by default (matmul allow_tf32 is off): 2*M*N*K by hand.
events = raw.load(mm_trace)
ops, ns = launched_ns(events, "aten::mm")
flop = 0
for x in ns:
    (m, k), (_, n) = ops[x]["args"]["Input Dims"][:2]
    flop += 2 * m * n * k
t = sum(ns.values()) * 1e-9
r = op_row("%s/mm.json" % tmp, "aten::mm")
pct = 100 * flop / FP32 / t
check("explicit_fp32 default: aten::mm FLOPS %% = 100 * %d / 67 TFLOP/s / %.9f s = %.4f (fp32 peak)" % (flop, t, pct),
      near(r["flops_pct"], pct), "got %s" % r["flops_pct"])
PY

check_run "--help lists --no-tf32" 0 "$PROFANA" --help
check_grep "--help: --no-tf32 row" "^  --no-tf32 " "$TMP/out"
check_run "--no-tf32 after --tf32: the later wins" 0 "$PROFANA" --analysis "$T" fp32 --quiet --format json --group op --tf32 --no-tf32
check_eq "--tf32 --no-tf32 gives --no-tf32's figures" "$(cmp -s "$TMP/out" "$TMP/cnn_op--no-tf32.json" && echo same)" same
"$PROFANA" --analysis "$T" fp32 --wide --group shape >"$TMP/cnn_shape.txt" 2>&1
check_grep "cnn_fp32 text: the cache-served row reads 'cache' in BW %" "^aten::threshold_backward(\[32,256,16,1.* | cache | memory" "$TMP/cnn_shape.txt"
check_grep "cnn_fp32 text: a footnote says why" "^cache: the bytes moved faster than DRAM's peak and a call's bytes fit the 50 MiB cache" "$TMP/cnn_shape.txt"
"$PROFANA" --analysis "$T" fp32 --explain aten::threshold_backward >"$TMP/tb.txt" 2>&1
check_grep "--explain: the invocation's GB/s is said to come in part from the cache, with no DRAM percent" \
    "GB/s (faster than DRAM's peak with bytes that fit the cache: served in part from it)" "$TMP/tb.txt"
