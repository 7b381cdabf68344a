# Copied from ../shared/tools/gen_runs.py (the recorder the project was given); recorded testdata/runs/ on an H100 (issue 22).
# Repeated runs of one workload, for diffs that must tell a real change from run-to-run noise.
# Writes OUTDIR/{base,same,changed}_run{1,2,3}.json: "base" and "same" are the same training step
# recorded in separate profiler sessions; "changed" swaps the fused layer norm of the blocks for an
# unfused composite (more, slower element-wise kernels) and keeps everything else.
# Usage: python3 gen_runs.py OUTDIR
import os, sys
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.profiler import profile, ProfilerActivity

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
dev = "cuda"


class Block(nn.Module):
    def __init__(self, d=1024, h=16, unfused=False):
        super().__init__()
        self.h, self.unfused = h, unfused
        self.ln = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def norm(self, x):
        if not self.unfused:
            return self.ln(x)
        m = x.mean(-1, keepdim=True)
        v = (x - m).pow(2).mean(-1, keepdim=True)
        return (x - m) / torch.sqrt(v + 1e-5) * self.ln.weight + self.ln.bias

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(self.norm(x)).split(D, -1)
        sh = lambda t: t.view(B, T, self.h, D // self.h).transpose(1, 2)
        a = F.scaled_dot_product_attention(sh(q), sh(k), sh(v), is_causal=True).transpose(1, 2).reshape(B, T, D)
        x = x + self.o(a)
        return x + self.ff(x)


def record(name, unfused):
    torch.manual_seed(0)
    m = nn.Sequential(*[Block(unfused=unfused) for _ in range(4)]).to(dev, torch.bfloat16)
    x = torch.randn(8, 512, 1024, device=dev, dtype=torch.bfloat16)
    step = lambda: m(x).float().pow(2).mean().backward()
    for _ in range(3):
        step()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True) as p:
        for _ in range(3):
            step()
        torch.cuda.synchronize()
    p.export_chrome_trace(os.path.join(out, name + ".json"))
    print("wrote", name, flush=True)


for i in (1, 2, 3):
    record(f"base_run{i}", False)
    record(f"same_run{i}", False)
    record(f"changed_run{i}", True)
