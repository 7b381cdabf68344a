# probe_graph_fields.py - records a small CUDA graph's capture and its replays under the profiler and lists which of Kineto's 2026 fields (graph id, graph node id, host_name, Comms Id) torch writes, per event category (issue 43 item 5)
# Usage: python3 probe_graph_fields.py OUTDIR   (writes OUTDIR/cuda_graph_capture.json.gz, OUTDIR/cuda_graph_replay.json.gz; prints the keys)
import gzip
import json
import os
import shutil
import sys

import torch
from torch.profiler import ProfilerActivity, profile

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
x = torch.randn(1024, 1024, device="cuda")
w = torch.randn(1024, 1024, device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    for _ in range(3):
        y = torch.relu(x @ w)
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()


def report(name, path):
    d = json.load(open(path))
    keys = {}
    for e in d.get("traceEvents", []):
        keys.setdefault(e.get("cat"), set()).update((e.get("args") or {}).keys())
    print(name, "top-level keys:", sorted(k for k in d if k != "traceEvents"))
    for cat, ks in sorted(keys.items(), key=lambda kv: str(kv[0])):
        print(name, cat, sorted(ks))
    with open(path, "rb") as f, gzip.open(path + ".gz", "wb") as g2:
        shutil.copyfileobj(f, g2)
    os.remove(path)


path = os.path.join(out, "cuda_graph_capture.json")
with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True) as p:
    with torch.cuda.graph(g):
        y = torch.relu(x @ w) + 1
    torch.cuda.synchronize()
p.export_chrome_trace(path)
report("capture", path)
path = os.path.join(out, "cuda_graph_replay.json")
with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True) as p:
    for _ in range(4):
        g.replay()
    torch.cuda.synchronize()
p.export_chrome_trace(path)
report("replay", path)
