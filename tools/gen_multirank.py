# Copied from ../shared/tools/gen_multirank.py (the recorder the project was given); recorded testdata/multirank/ on two H200s.
# Multi-rank traces (one per rank) for the multi-rank issue: FSDP2 training with a CPU-side
# straggler on rank 1, a tensor-parallel MLP with all_reduce / all_gather / reduce_scatter, and
# DDP with overlapped gradient buckets. Each run records ProfilerSteps on every rank.
# Usage: torchrun --nproc_per_node=2 gen_multirank.py OUTDIR
import os, sys, time
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F
from torch.profiler import profile, ProfilerActivity, schedule

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
dist.init_process_group("nccl")
rank, world = dist.get_rank(), dist.get_world_size()
torch.cuda.set_device(rank)
dev = torch.device("cuda", rank)
ACT = [ProfilerActivity.CPU, ProfilerActivity.CUDA]


class Block(nn.Module):
    def __init__(self, d=1024, h=16):
        super().__init__()
        self.h = h
        self.ln = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(self.ln(x)).split(D, -1)
        sh = lambda t: t.view(B, T, self.h, D // self.h).transpose(1, 2)
        a = F.scaled_dot_product_attention(sh(q), sh(k), sh(v), is_causal=True).transpose(1, 2).reshape(B, T, D)
        x = x + self.o(a)
        return x + self.ff(x)


def record(name, step_fn, steps=6):
    path = os.path.join(out, f"{name}_rank{rank}.json")
    def handler(p):
        p.export_chrome_trace(path)
    with profile(activities=ACT, record_shapes=True, schedule=schedule(wait=1, warmup=1, active=steps - 2),
                 on_trace_ready=handler) as p:
        for i in range(steps):
            step_fn(i)
            p.step()
    torch.cuda.synchronize()
    dist.barrier()
    if rank == 0:
        print("wrote", name, flush=True)


def fsdp2():
    from torch.distributed.fsdp import fully_shard
    torch.manual_seed(0)
    m = nn.Sequential(*[Block() for _ in range(4)]).to(dev, torch.bfloat16)
    for b in m:
        fully_shard(b)
    fully_shard(m)
    opt = torch.optim.AdamW(m.parameters(), lr=1e-4)
    x = torch.randn(4, 512, 1024, device=dev, dtype=torch.bfloat16)
    def step(i):
        if rank == 1 and i % 2 == 0:
            time.sleep(0.004)                                   # a CPU-side straggler every other step
        m(x).float().pow(2).mean().backward()
        opt.step()
        opt.zero_grad()
    for i in range(2):
        step(i)
    record("fsdp2_bf16", step)


def tensor_parallel():
    torch.manual_seed(rank)
    d, f = 4096, 16384 // world
    w1 = torch.randn(d, f, device=dev, dtype=torch.bfloat16) * 0.01
    w2 = torch.randn(f, d, device=dev, dtype=torch.bfloat16) * 0.01
    x = torch.randn(8192, d, device=dev, dtype=torch.bfloat16)
    def step(i):
        y = F.gelu(x @ w1) @ w2
        dist.all_reduce(y)
        g = torch.empty(world * 8192, d, device=dev, dtype=torch.bfloat16)
        dist.all_gather_into_tensor(g, y)
        r = torch.empty(8192 // world, d, device=dev, dtype=torch.bfloat16)
        dist.reduce_scatter_tensor(r, y)
        dist.broadcast(r, 0)
    for i in range(2):
        step(i)
    record("tp_collectives_bf16", step)


def ddp():
    from torch.nn.parallel import DistributedDataParallel as DDP
    torch.manual_seed(0)
    m = DDP(nn.Sequential(*[Block() for _ in range(4)]).to(dev, torch.bfloat16), device_ids=[rank],
            bucket_cap_mb=8)
    opt = torch.optim.SGD(m.parameters(), lr=1e-3)
    x = torch.randn(8, 512, 1024, device=dev, dtype=torch.bfloat16)
    def step(i):
        m(x).float().pow(2).mean().backward()
        opt.step()
        opt.zero_grad()
    for i in range(2):
        step(i)
    record("ddp_overlap_bf16", step)


for f in (fsdp2, tensor_parallel, ddp):
    t = time.time()
    try:
        f()
    except Exception as e:
        import traceback
        traceback.print_exc()
        print("FAILED", f.__name__, e, flush=True)
    if rank == 0:
        print(f.__name__, f"{time.time() - t:.1f}s", flush=True)
dist.destroy_process_group()
