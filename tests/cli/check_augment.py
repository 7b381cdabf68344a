# check_augment.py - checks an --augment_trace output against its input with Python's own JSON parser: bytes kept, keys present, GEMM FLOPs by hand formula.
# Usage: check_augment.py NAME INPUT OUTPUT [--extra]; prints PASS/FAIL lines for tests/run.sh.
import functools
import json
import os
import re
import subprocess
import sys
from decimal import Decimal

import raw

name, inp, outp = sys.argv[1:4]
extra = "--extra" in sys.argv[4:]

KEYS = "kernel_flop|kernel_num_gb|achieved_tflops|achieved_gbps|flops_pct|bw_pct|kernel_category"
INSERTED = re.compile(rb', "(?:' + KEYS.encode() + rb')": (?:-?[0-9][0-9.eE+-]*|"[a-z_]+")')
ANY_PAIR = re.compile(rb'"(' + KEYS.encode() + rb')": (?:-?[0-9][0-9.eE+-]*|"[a-z_]+")')
GPU_CATS = ("kernel", "gpu_memcpy", "gpu_memset")
SIZES = {"c10::BFloat16": 2, "c10::Half": 2, "float": 4, "double": 8}
# Ops with a FLOP formula (README "Formulas") that does matrix work: their kernels must carry
# both keys. From the op table itself (profana --list-ops: op, family, "formula" or "-"), not a
# copy of it: the ATen GEMM, convolution and attention ops that have a formula.
MATRIX_FAMILIES = {"gemm", "bmm", "conv", "conv_backward", "conv_transpose", "attention", "attention_backward"}
_listed = subprocess.run([os.environ.get("PROFANA", "./profana"), "--list-ops"], check=True,
                         capture_output=True, text=True).stdout.splitlines()
FORMULA_OPS = {op for op, family, formula in (line.split("\t") for line in _listed)
               if op.startswith("aten::") and family in MATRIX_FAMILIES and formula == "formula"}
assert "aten::mm" in FORMULA_OPS and "aten::convolution_backward" in FORMULA_OPS, FORMULA_OPS
check = functools.partial(raw.check, name)
read = raw.read_bytes


def near(a, b, rel=1e-12):
    return abs(a - b) <= rel * max(abs(b), 1e-300)


src = read(inp)
out = read(outp)
# 1. Byte preservation: drop the pairs profana appends, and blank the values of those keys
# that the input already had (replaced in place); what remains must be the input.
stripped = ANY_PAIR.sub(rb'"\1": #', INSERTED.sub(b"", out))
check("removing the inserted pairs gives back the input byte for byte",
      stripped == ANY_PAIR.sub(rb'"\1": #', INSERTED.sub(b"", src)),
      "outputs differ in length %d vs %d" % (len(stripped), len(src)))
check("something was inserted", len(out) > len(src))

d = json.loads(out, parse_float=Decimal)
check("output parses as JSON", True)
orig = json.loads(src, parse_float=Decimal)
ev = d["traceEvents"] if isinstance(d, dict) else d
oev = orig["traceEvents"] if isinstance(orig, dict) else orig
check("same number of events", len(ev) == len(oev))

ops = {}
for e in ev:
    if e.get("cat") == "cpu_op" and "External id" in e.get("args", {}):
        ops.setdefault(e["args"]["External id"], e)
acts = [e for e in ev if e.get("ph") == "X" and e.get("cat") in GPU_CATS]
by_op = {}
for a in acts:
    op = ops.get(a["args"].get("External id"))
    if op is not None:
        by_op.setdefault(id(op), (op, []))[1].append(a)

# docs/analysis.md "How work is attributed": an op's FLOPs go to its math kernels (a name
# that names the arithmetic in a whole word, the library helpers excepted; else its kernels
# that are no helper), bytes to all its kernels, each in proportion to time
# (tests/cli/kernel_roles.py).
from kernel_roles import carriers as flop_kernels  # beside raw, in this folder


def ns(a):
    return int((a["dur"] * 1000).to_integral_value()) if isinstance(a["dur"], Decimal) else int(a["dur"] * 1000)


def flop_carriers(kernels):
    """The kernels that carry the op's FLOPs, and their summed time."""
    m = flop_kernels(kernels)
    return m, sum(ns(a) for a in m)


# 2. Every kernel of an op with a formula carries kernel_num_gb (its share of the bytes), and
# kernel_flop unless its op's FLOPs are on its math kernels (no 0 written as if measured).
missing = []
for op, its in by_op.values():
    if op["name"] not in FORMULA_OPS:
        continue
    kernels = [a for a in its if a["cat"] == "kernel"]
    carriers, _ = flop_carriers(kernels)
    for a in kernels:
        want_flop = any(a is c for c in carriers)
        if "kernel_num_gb" not in a["args"] or ("kernel_flop" in a["args"]) != want_flop:
            missing.append(a["name"])
n_formula = sum(1 for a in acts if ops.get(a["args"].get("External id"), {}).get("name") in FORMULA_OPS)
check("every kernel of an op with a formula carries its bytes, and its FLOPs where it is a math kernel (%d kernels)"
      % n_formula, not missing, "wrong on %s" % missing[:3])
# A device-to-device copy reads and writes its bytes in the same DRAM: twice args.bytes;
# host<->device copies and fills touch device memory once.


def dram_bytes(a):
    return a["args"]["bytes"] * (2 if a["name"].startswith("Memcpy DtoD") else 1)


bad = [a["name"] for a in acts if a["cat"] != "kernel" and "bytes" in a["args"] and
       not (a["args"].get("kernel_flop") == 0 and
            near(float(a["args"].get("kernel_num_gb", -1)), dram_bytes(a) / 1e9))]
n_dtod = sum(1 for a in acts if a["name"].startswith("Memcpy DtoD") and "bytes" in a["args"])
check("memcpy/memset: kernel_flop 0, kernel_num_gb = bytes / 1e9 (x 2 for %d DtoD copies)" % n_dtod,
      not bad, str(bad[:3]))


def numel(shape):
    n = 1
    for x in shape:
        n *= x
    return n


def gemm(op):
    """(FLOP, bytes) of a GEMM op from its Input Dims, README formulas."""
    a = op["args"]
    dims, types = a["Input Dims"], a["Input type"]
    bias = op["name"] in ("aten::addmm", "aten::baddbmm")
    A, B = dims[1:3] if bias else dims[0:2]
    s = SIZES[types[1 if bias else 0]]
    M, K, N = A[-2], A[-1], B[-1]
    b = numel(A[:-2])
    flop = 2 * b * M * N * K
    nbytes = b * (M * K + K * N + M * N) * s
    if bias:
        nbytes += numel(dims[0]) * SIZES[types[0]]
    return flop, nbytes


# 3. GEMM: its math kernels carry 2*b*M*N*K in proportion to their time, the others no
# kernel_flop; every kernel its share of the bytes by time; the cpu_op carries the whole
# op's FLOPs and bytes (its memsets carry their own bytes).
n_gemm = 0
gbad = []
for op, its in by_op.values():
    if op["name"] not in ("aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm"):
        continue
    flop, nbytes = gemm(op)
    kernels = [a for a in its if a["cat"] == "kernel"]
    carriers, math_ns = flop_carriers(kernels)
    all_ns = sum(ns(a) for a in kernels)
    n_gemm += 1
    for a in kernels:
        got = a["args"].get("kernel_flop")
        if any(a is c for c in carriers):
            want = flop * ns(a) / math_ns if math_ns else flop / len(carriers)
            if got is None or abs(got - want) > 1:
                gbad.append("%s kernel %s: kernel_flop %s, want %s" % (op["name"], a["name"][:40], got, want))
        elif got is not None:
            gbad.append("%s kernel %s: kernel_flop %s, want none" % (op["name"], a["name"][:40], got))
        want_b = nbytes * ns(a) / all_ns if all_ns else nbytes / len(kernels)
        if not near(float(a["args"]["kernel_num_gb"]), want_b / 1e9, 1e-9):
            gbad.append("%s kernel %s: kernel_num_gb %s, want %s" % (op["name"], a["name"][:40], a["args"]["kernel_num_gb"], want_b / 1e9))
    if op["args"].get("kernel_flop") != flop or not near(float(op["args"]["kernel_num_gb"]), nbytes / 1e9):
        gbad.append("%s cpu_op: %s %s" % (op["name"], op["args"].get("kernel_flop"), op["args"].get("kernel_num_gb")))
check("GEMM kernels carry 2bMNK FLOPs and the formula's bytes by time, their ops the whole (%d ops)" % n_gemm,
      not gbad, "; ".join(gbad[:3]))

# 4. Inductor's own figures on its ops stay what they were.
changed = []
for o, e in zip(oev, ev):
    a = o.get("args") if isinstance(o, dict) else None
    if isinstance(a, dict) and "kernel_flop" in a and o.get("cat") == "cpu_op":
        b = e["args"]
        if b["kernel_flop"] != a["kernel_flop"] or not near(float(b["kernel_num_gb"]), float(a["kernel_num_gb"])):
            changed.append(o["name"])
check("Inductor's kernel_flop / kernel_num_gb on its ops kept", not changed, str(changed[:3]))

# 5. --extra: rates from the event's own figures and time, percent of the H100's dense
# datasheet peaks (bf16 989.5 TFLOP/s, fp32 67 TFLOP/s, 3350 GB/s).
if extra:
    bad = []
    peaks = {"c10::BFloat16": 989.5e12, "c10::Half": 989.5e12, "float": 67e12}
    for op, its in by_op.values():
        if op["name"] not in ("aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm"):
            continue
        flop, nbytes = gemm(op)
        t = op["args"]["Input type"][1 if op["name"] in ("aten::addmm", "aten::baddbmm") else 0]
        kernels = [a for a in its if a["cat"] == "kernel"]
        carriers, math_ns = flop_carriers(kernels)
        carrier = max(carriers, key=lambda a: a["dur"])
        x = carrier["args"]
        # split by time: every FLOP carrier runs at the op's rate over the FLOP carriers,
        # every kernel at its bytes' rate over all the kernels
        fdur = math_ns * 1e-9
        bdur = sum(ns(a) for a in kernels) * 1e-9
        if not (near(float(x["achieved_tflops"]), flop / fdur / 1e12, 1e-9) and
                near(float(x["achieved_gbps"]), nbytes / bdur / 1e9, 1e-9) and
                near(float(x["flops_pct"]), 100 * flop / fdur / peaks[t], 1e-9) and
                near(float(x["bw_pct"]), 100 * nbytes / bdur / 3350e9, 1e-9) and
                x["kernel_category"] == "gemm"):
            bad.append((op["name"], x))
        tot = sum(float(a["dur"]) for a in its) * 1e-6
        if not near(float(op["args"]["achieved_tflops"]), flop / tot / 1e12, 1e-9):
            bad.append((op["name"], "op", op["args"]["achieved_tflops"]))
    check("--extra: GEMM rates, percent of peak and category", not bad, str(bad[:2]))
    nocat = [a["name"] for a in acts if "kernel_category" not in a["args"]]
    check("--extra: every GPU activity has kernel_category", not nocat, str(nocat[:3]))
sys.exit(0)
