# inductor_oracle.py - Inductor's own kernel_num_gb (a TORCHINDUCTOR_BENCHMARK_KERNEL=1 recording
# of the same compiled step) against profana's bytes per Triton kernel on the plain recording.
# Reads the raw events itself: per kernel name, the plain trace's GPU time and its launches'
# Inductor bytes, each launch matched to the benchmark recording's launch of the same kernel
# (its name without Inductor's trailing counter, which can differ between the two compiles,
# with the same argument shapes and types). Prints "KEY VALUE" lines for the shell test:
#   triton_us, match_us (Triton GPU time whose bytes are within 1% of Inductor's), all_us,
#   known_us (GPU time whose row has bytes), lists_us (GPU time of kernels whose op records every
#   TensorList as [], without shapes: a T5 or BERT step's _fused_adamw_, bytes unknown), mismatched
#   names.
# Usage: python3 inductor_oracle.py PLAIN.json.gz BENCH.json.gz PROFANA_ROWS.json
import gzip
import json
import re
import sys
from collections import defaultdict

plain = json.load(gzip.open(sys.argv[1]))["traceEvents"]
bench = json.load(gzip.open(sys.argv[2]))["traceEvents"]
rows = json.load(open(sys.argv[3]))["devices"][0]["rows"]

def key(e):
    a = e["args"]
    return (re.sub(r"_[0-9]+$", "", a.get("kernel_name", e["name"])), json.dumps(a.get("Input Dims")),
            json.dumps(a.get("Input type")))


inductor_b = {}
for e in bench:
    if e.get("cat") == "cpu_op" and "kernel_num_gb" in e.get("args", {}):
        inductor_b[key(e)] = e["args"]["kernel_num_gb"] * 1e9
launcher = {e["args"]["External id"]: e for e in plain
            if e.get("cat") == "cpu_op" and "External id" in e.get("args", {})}
gpu = [e for e in plain if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]


def bare_lists(op):
    a = op.get("args", {}) if op else {}
    lists = [d for d, t in zip(a.get("Input Dims", []), a.get("Input type", [])) if t == "TensorList"]
    return bool(lists) and all(d == [] for d in lists)


lists_us = sum(e["dur"] for e in gpu if bare_lists(launcher.get(e["args"].get("External id"))))
time_of = defaultdict(float)
want_of = defaultdict(float)
for e in gpu:
    time_of[e["name"]] += e["dur"]
    if not e["name"].startswith("triton_"):
        continue
    op = launcher.get(e["args"].get("External id"))
    b = inductor_b.get(key(op)) if op else None
    want_of[e["name"]] = -1e300 if b is None or want_of[e["name"]] < 0 else want_of[e["name"]] + b

by_name = {r["name"]: r for r in rows}
triton_us = match_us = known_us = 0.0
bad = []
for name, us in time_of.items():
    r = by_name.get(name)
    if r is not None and r["bytes"] is not None:
        known_us += us
    if not name.startswith("triton_"):
        continue
    triton_us += us
    want = want_of[name]
    if r is None or r["bytes"] is None or want < 0:
        bad.append(name[:40] + "(unmatched)")
    elif abs(r["bytes"] - want) <= 0.01 * want:
        match_us += us
    else:
        bad.append("%s(%.0f/%.0f)" % (name[:40], r["bytes"], want))
print("triton_us %.3f" % triton_us)
print("match_us %.3f" % match_us)
print("all_us %.3f" % sum(time_of.values()))
print("known_us %.3f" % known_us)
print("lists_us %.3f" % lists_us)
print("mismatched " + (" ".join(bad) or "-"))
