# record_diagnosis.py - records the diagnosis panel on the GPU machine: one trace per planted cause of slowness (issue 42), each a few ProfilerStep windows with record_shapes:
#   load_batch        each step prepares its batch on the CPU inside record_function("load_batch") (a 20 ms sleep + CPU tensor work)
#   numpy_preprocess  each step runs NumPy FFTs on the CPU before the GPU work, unannotated, recorded with_stack=True
#   eager_attention   softmax(q @ k^T * scale) @ v over S=4096 (B=2, H=16, D=64, bf16), forward and backward
#   fp32_no_tf32      an fp32 MLP (8192 x 4096 x 4096) with TF32 off (allow_tf32=False), forward and backward
#   unfused_adam      Adam(foreach=False) over 100 bf16 Linear(1024, 1024) layers, batch 4096
#   item_sync         a bf16 MLP of 24 layers with h.sum().item() after each layer (a cudaStreamSynchronize each)
#   device_sync       the same MLP with torch.cuda.synchronize() after each layer (timing instrumentation)
#   pageable_copy     a 256 MiB pageable host tensor copied to the GPU each step (x.cuda()), then a small GEMM
#   launch_bound      batch-1 inference of a 24-layer Linear(256, 256)+GELU MLP, 20 forwards a step
#   scatter_contention index_add_ of 65,536 x 1,024 rows into 4 rows (atomics on few addresses), far below both roofs
#   healthy_gemm      bf16 8192^3 matmuls back to back (the control: nothing to fix but the GEMM's headroom)
# Usage: python3 record_diagnosis.py OUTDIR   (writes OUTDIR/NAME.json.gz and OUTDIR/env.txt)
import gzip
import os
import shutil
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile, record_function, schedule

out = sys.argv[1]
only = sys.argv[2:]
os.makedirs(out, exist_ok=True)
dev = "cuda"
torch.manual_seed(0)
STEPS = 3


def record(name, make, stack=False):
    if only and name not in only:
        return
    step = make()
    for _ in range(2):
        step()
    torch.cuda.synchronize()
    path = os.path.join(out, name + ".json")
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True, with_stack=stack,
                 schedule=schedule(wait=0, warmup=1, active=STEPS, repeat=1),
                 on_trace_ready=lambda p: p.export_chrome_trace(path)) as p:
        for i in range(STEPS + 1):
            step()
            if i == STEPS:  # the last step's work must end before the trace is collected
                torch.cuda.synchronize()
            p.step()
    with open(path, "rb") as f, gzip.open(path + ".gz", "wb", compresslevel=9) as g:
        shutil.copyfileobj(f, g)
    os.remove(path)
    print("wrote", name, os.path.getsize(path + ".gz"), flush=True)


def mlp(width, depth, dtype=torch.float32):
    return nn.Sequential(*[nn.Linear(width, width) for _ in range(depth)]).to(dev, dtype)


def load_batch():
    m = mlp(1024, 4)
    opt = torch.optim.SGD(m.parameters(), lr=0.01)

    def step():
        with record_function("load_batch"):
            time.sleep(0.02)
            x = torch.randn(512, 1024)
            x = (x - x.mean(0)) / x.std(0)
        x = x.to(dev)
        opt.zero_grad(set_to_none=True)
        m(x).pow(2).mean().backward()
        opt.step()
    return step


def numpy_preprocess():
    m = mlp(1024, 4)
    opt = torch.optim.SGD(m.parameters(), lr=0.01)
    rng = np.random.default_rng(0)

    def step():
        a = rng.random(1 << 20)
        for _ in range(6):
            a = np.abs(np.fft.ifft(np.fft.fft(a)))
        x = torch.from_numpy(a[: 512 * 1024].astype(np.float32)).view(512, 1024).to(dev)
        opt.zero_grad(set_to_none=True)
        m(x).pow(2).mean().backward()
        opt.step()
    return step


def eager_attention():
    B, H, S, D = 2, 16, 4096, 64
    proj = nn.Linear(H * D, 3 * H * D).to(dev, torch.bfloat16)
    outp = nn.Linear(H * D, H * D).to(dev, torch.bfloat16)
    x = torch.randn(B, S, H * D, device=dev, dtype=torch.bfloat16, requires_grad=True)

    def step():
        q, k, v = proj(x).view(B, S, 3, H, D).permute(2, 0, 3, 1, 4)
        a = torch.softmax((q @ k.transpose(-2, -1)) * D ** -0.5, dim=-1)
        y = outp((a @ v).transpose(1, 2).reshape(B, S, H * D))
        y.float().pow(2).mean().backward()
    return step


def fp32_no_tf32():
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    m = nn.Sequential(nn.Linear(4096, 4096), nn.ReLU(), nn.Linear(4096, 4096)).to(dev)
    x = torch.randn(8192, 4096, device=dev)

    def step():
        m(x).pow(2).mean().backward()
    return step


def unfused_adam():
    # the forward and backward are GPU-bound (bf16 GEMMs of 4096 x 1024 x 1024, longer than their
    # launches): the optimizer's per-parameter launches are the planted cause
    m = mlp(1024, 100, torch.bfloat16)
    opt = torch.optim.Adam(m.parameters(), lr=1e-3, foreach=False, fused=False)
    x = torch.randn(4096, 1024, device=dev, dtype=torch.bfloat16)

    def step():
        opt.zero_grad(set_to_none=True)
        m(x).float().pow(2).mean().backward()
        opt.step()
    return step


def sync_mlp(sync):
    def make():
        m = mlp(2048, 24, torch.bfloat16)
        x = torch.randn(2048, 2048, device=dev, dtype=torch.bfloat16)

        def step():
            h = x
            with torch.no_grad():
                for layer in m:
                    h = torch.relu(layer(h))
                    sync(h)
        return step
    return make


def pageable_copy():
    host = torch.randn(64 * 1024 * 1024)  # 256 MiB, pageable
    w = torch.randn(1024, 1024, device=dev)

    def step():
        d = host.to(dev)
        (d.view(-1, 1024)[:4096] @ w).sum()
    return step


def launch_bound():
    m = nn.Sequential(*[nn.Sequential(nn.Linear(256, 256), nn.GELU()) for _ in range(24)]).to(dev)
    x = torch.randn(1, 256, device=dev)

    def step():
        with torch.no_grad():
            for _ in range(20):
                m(x)
    return step


def scatter_contention():
    out_t = torch.zeros(4, 1024, device=dev)
    src = torch.randn(65536, 1024, device=dev)
    idx = torch.randint(0, 4, (65536,), device=dev)

    def step():
        for _ in range(4):
            out_t.index_add_(0, idx, src)
    return step


def healthy_gemm():
    a = torch.randn(8192, 8192, device=dev, dtype=torch.bfloat16)
    b = torch.randn(8192, 8192, device=dev, dtype=torch.bfloat16)

    def step():
        for _ in range(8):
            a @ b
    return step


with open(os.path.join(out, "env.txt"), "w") as f:
    f.write("torch %s, CUDA %s, %s\n" % (torch.__version__, torch.version.cuda, torch.cuda.get_device_name()))
record("load_batch", load_batch)
record("numpy_preprocess", numpy_preprocess, stack=True)
record("eager_attention", eager_attention)
record("unfused_adam", unfused_adam)
record("item_sync", sync_mlp(lambda h: h.sum().item()))
record("device_sync", sync_mlp(lambda h: torch.cuda.synchronize()))
record("pageable_copy", pageable_copy)
record("launch_bound", launch_bound)
record("scatter_contention", scatter_contention)
record("healthy_gemm", healthy_gemm)
record("fp32_no_tf32", fp32_no_tf32)  # last: it turns TF32 off for the process
