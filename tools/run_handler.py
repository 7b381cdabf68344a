# run_handler.py - runs profana's torch.profiler handler (profana.trace_handler) with the real torch on the GPU machine, once (issue 46): a bf16 MLP training loop under a profiler schedule of 2 active steps, twice; prints what the handler printed and returned and what it wrote
# Without CUDA (a CPU-only torch such as Debian's python3-torch) the same loop runs in fp32 on the CPU with the CPU activity alone.
# Usage: python3 run_handler.py OUTDIR   (the wheel installed, or PYTHONPATH=python with PROFANA_BINARY set)
import json
import os
import sys

import torch
import torch.nn as nn
from torch.profiler import ProfilerActivity, profile, schedule

import profana

out = sys.argv[1]
gpu = torch.cuda.is_available()
dev, dt, dtype = ("cuda", torch.bfloat16, "bf16") if gpu else ("cpu", torch.float32, "fp32")
acts = [ProfilerActivity.CPU, ProfilerActivity.CUDA] if gpu else [ProfilerActivity.CPU]
print("torch", torch.__version__, torch.cuda.get_device_name() if gpu else "cpu", "profana", profana.binary(), flush=True)
w = 2048 if gpu else 256
net = nn.Sequential(nn.Linear(w, 4 * w), nn.GELU(), nn.Linear(4 * w, w)).to(dev, dt)
opt = torch.optim.AdamW(net.parameters(), lr=1e-4, fused=True) if gpu else torch.optim.AdamW(net.parameters(), lr=1e-4)
x = torch.randn(2 * w, w, device=dev, dtype=dt)
handler = profana.trace_handler(os.path.join(out, "traces"), dtype, worker_name="gpu" if gpu else "cpu")
returned = []
with profile(activities=acts, record_shapes=True,
             schedule=schedule(wait=1, warmup=1, active=2, repeat=2),
             on_trace_ready=lambda p: returned.append(handler(p))) as p:
    for _ in range(8):
        net(x).float().square().mean().backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        p.step()
if gpu:
    torch.cuda.synchronize()
print("handler calls:", len(returned))
print("last metrics:", json.dumps(returned[-1], sort_keys=True) if returned else None)
print("files:", sorted(os.listdir(os.path.join(out, "traces"))))
