# probe_graph_fields.py - records a small CUDA-graph replay (torch.cuda.graphs) under the profiler and lists which of Kineto's 2026 fields (graph id, graph node id, host_name, Comms Id) torch writes (issue 43 item 5)
# Usage: python3 probe_graph_fields.py OUTDIR   (writes OUTDIR/cuda_graph_replay.json.gz)
import gzip, json, os, shutil, sys
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
with torch.cuda.graph(g):
    y = torch.relu(x @ w) + 1
torch.cuda.synchronize()
path = os.path.join(out, "cuda_graph_replay.json")
with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True) as p:
    for _ in range(4):
        g.replay()
    torch.cuda.synchronize()
p.export_chrome_trace(path)
d = json.load(open(path))
keys = set()
for e in d.get("traceEvents", []):
    keys.update((e.get("args") or {}).keys())
print("top-level keys:", sorted(k for k in d if k != "traceEvents"))
print("arg keys:", sorted(keys))
with open(path, "rb") as f, gzip.open(path + ".gz", "wb") as g2:
    shutil.copyfileobj(f, g2)
os.remove(path)
