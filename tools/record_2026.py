# record_2026.py - records small traces of the workloads of 2026 named in issue 19 on the GPU machine, one profiler session each, with record_shapes:
#   moe_grouped_mm   MoE experts through torch._grouped_mm (2-D x 3-D with offs), forward + backward
#   int8_fp8_gemm    torch._int_mm and fp8 row-wise torch._scaled_mm
#   fused_adamw      a training step of an MLP with AdamW(fused=True) and a foreach SGD step
#   flex_attention   flex_attention (causal block mask) under torch.compile, forward + backward
#   rnn_fft          nn.LSTM and nn.GRU forward + backward, torch.fft.rfft/irfft/fft, topk, sort, cumsum
#   kv_decode        a decode step: one new token per sequence written into a KV cache (index_copy_), SDPA over the cache
# Usage: python3 record_2026.py OUTDIR   (writes OUTDIR/NAME.json)
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
dev = "cuda"
torch.manual_seed(0)


def record(name, fn, warm=2):
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True) as p:
        fn()
        torch.cuda.synchronize()
    p.export_chrome_trace(os.path.join(out, name + ".json"))
    print("wrote", name, flush=True)


def moe():
    E, T, D, H = 8, 2048, 1024, 2048
    x = torch.randn(T, D, device=dev, dtype=torch.bfloat16, requires_grad=True)
    w1 = torch.randn(E, D, H, device=dev, dtype=torch.bfloat16, requires_grad=True)
    w2 = torch.randn(E, H, D, device=dev, dtype=torch.bfloat16, requires_grad=True)
    counts = torch.full((E,), T // E, device=dev, dtype=torch.int32)
    offs = torch.cumsum(counts, 0, dtype=torch.int32)

    def step():
        h = torch._grouped_mm(x, w1, offs=offs)
        y = torch._grouped_mm(F.silu(h), w2, offs=offs)
        y.float().pow(2).mean().backward()
    return step


def quant():
    a8 = torch.randint(-128, 127, (4096, 4096), device=dev, dtype=torch.int8)
    b8 = torch.randint(-128, 127, (4096, 4096), device=dev, dtype=torch.int8).t()
    a = torch.randn(4096, 4096, device=dev).to(torch.float8_e4m3fn)
    b = torch.randn(4096, 4096, device=dev).to(torch.float8_e4m3fn).t()
    sa = torch.rand(4096, 1, device=dev, dtype=torch.float32)
    sb = torch.rand(1, 4096, device=dev, dtype=torch.float32)

    def step():
        for _ in range(3):
            torch._int_mm(a8, b8)
            torch._scaled_mm(a, b, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16)
    return step


def adamw():
    m = nn.Sequential(nn.Linear(2048, 4096), nn.GELU(), nn.Linear(4096, 2048)).to(dev)
    opt = torch.optim.AdamW(m.parameters(), lr=1e-3, fused=True)
    m2 = nn.Linear(2048, 2048).to(dev)
    opt2 = torch.optim.SGD(m2.parameters(), lr=1e-3, momentum=0.9, foreach=True)
    x = torch.randn(1024, 2048, device=dev)

    def step():
        opt.zero_grad(set_to_none=True)
        m(x).pow(2).mean().backward()
        opt.step()
        opt2.zero_grad(set_to_none=True)
        m2(x).pow(2).mean().backward()
        opt2.step()
    return step


def flex():
    from torch.nn.attention.flex_attention import create_block_mask, flex_attention
    B, H, S, Dh = 4, 16, 1024, 64
    q, k, v = (torch.randn(B, H, S, Dh, device=dev, dtype=torch.bfloat16, requires_grad=True) for _ in range(3))
    mask = create_block_mask(lambda b, h, qi, ki: qi >= ki, None, None, S, S, device=dev)
    fa = torch.compile(flex_attention)

    def step():
        fa(q, k, v, block_mask=mask).float().sum().backward()
    return step


def rnn_fft():
    lstm = nn.LSTM(512, 1024, num_layers=2, batch_first=True).to(dev)
    gru = nn.GRU(512, 512, batch_first=True, bidirectional=True).to(dev)
    x = torch.randn(16, 128, 512, device=dev, requires_grad=True)
    s = torch.randn(64, 8192, device=dev)
    c = torch.randn(64, 4096, device=dev, dtype=torch.complex64)
    big = torch.randn(256, 32768, device=dev)

    def step():
        y, _ = lstm(x)
        z, _ = gru(x)
        (y.sum() + z.sum()).backward()
        torch.fft.irfft(torch.fft.rfft(s), n=8192)
        torch.fft.fft(c)
        torch.topk(big, 64, dim=-1)
        torch.sort(big, dim=-1)
        torch.cumsum(big, dim=-1)
    return step


def kv_decode():
    B, H, Dh, L, layers = 16, 32, 128, 2048, 4
    kc = [torch.zeros(B, H, L, Dh, device=dev, dtype=torch.bfloat16) for _ in range(layers)]
    vc = [torch.zeros(B, H, L, Dh, device=dev, dtype=torch.bfloat16) for _ in range(layers)]
    wq = [torch.randn(H * Dh, H * Dh, device=dev, dtype=torch.bfloat16) * 0.01 for _ in range(layers)]
    x = torch.randn(B, 1, H * Dh, device=dev, dtype=torch.bfloat16)
    pos = torch.tensor([1000], device=dev)

    @torch.no_grad()
    def step():
        h = x
        for i in range(layers):
            q = (h @ wq[i]).view(B, 1, H, Dh).transpose(1, 2)
            kc[i].index_copy_(2, pos, q)
            vc[i].index_copy_(2, pos, q)
            a = F.scaled_dot_product_attention(q, kc[i][:, :, :1001], vc[i][:, :, :1001])
            h = a.transpose(1, 2).reshape(B, 1, H * Dh)
    return step


for name, make in (("moe_grouped_mm", moe), ("int8_fp8_gemm", quant), ("fused_adamw", adamw),
                   ("flex_attention", flex), ("rnn_fft", rnn_fft), ("kv_decode", kv_decode)):
    try:
        record(name, make())
    except Exception as e:  # one workload failing must not lose the others
        print("FAILED", name, type(e).__name__, str(e)[:300], flush=True)
