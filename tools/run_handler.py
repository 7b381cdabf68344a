# run_handler.py - runs profana's torch.profiler handler (profana.trace_handler) with the real torch on the GPU machine, once (issue 46): a bf16 MLP training loop under a profiler schedule of 2 active steps, twice; prints what the handler printed and returned and what it wrote
# Usage: python3 run_handler.py OUTDIR   (the wheel installed, or PYTHONPATH=python with PROFANA_BINARY set)
import json
import os
import sys

import torch
import torch.nn as nn
from torch.profiler import ProfilerActivity, profile, schedule

import profana

out = sys.argv[1]
print("torch", torch.__version__, torch.cuda.get_device_name(), "profana", profana.binary(), flush=True)
net = nn.Sequential(nn.Linear(2048, 8192), nn.GELU(), nn.Linear(8192, 2048)).to("cuda", torch.bfloat16)
opt = torch.optim.AdamW(net.parameters(), lr=1e-4, fused=True)
x = torch.randn(4096, 2048, device="cuda", dtype=torch.bfloat16)
handler = profana.trace_handler(os.path.join(out, "traces"), "bf16", worker_name="h100")
returned = []
with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True,
             schedule=schedule(wait=1, warmup=1, active=2, repeat=2),
             on_trace_ready=lambda p: returned.append(handler(p))) as p:
    for _ in range(8):
        net(x).float().square().mean().backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        p.step()
torch.cuda.synchronize()
print("handler calls:", len(returned))
print("last metrics:", json.dumps(returned[-1], sort_keys=True) if returned else None)
print("files:", sorted(os.listdir(os.path.join(out, "traces"))))
