# record_round5.py - records the traces issue 43's "Done when" names on the GPU machine, one profiler session each, record_shapes on, .json.gz:
#   attn_bwd_cudnn   SDPA forward + backward through cuDNN's attention (sdpa_kernel(CUDNN_ATTENTION)), bf16, batch 4, 16 heads, 1024 tokens, head 64, causal
#   attn_bwd_flash   the same through FlashAttention (sdpa_kernel(FLASH_ATTENTION))
#   splitk_gemm      torch.mm on shapes that make cuBLAS split K (64x65536x64, 128x32768x128 and 256x16384x256, bf16 and fp32 without TF32): its reduce kernels
#   foreach_adamw    a training step of an MLP with AdamW(foreach=True) (the _foreach_* ops, TensorList args)
# Usage: python3 record_round5.py OUTDIR [NAME...]   (writes OUTDIR/NAME.json.gz; prints each recording's name and size)
import gzip
import os
import shutil
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.profiler import ProfilerActivity, profile

out = sys.argv[1]
only = sys.argv[2:]
os.makedirs(out, exist_ok=True)
dev = "cuda"
torch.manual_seed(0)


def record(name, fn, warm=2):
    if only and name not in only:
        return
    try:
        for _ in range(warm):
            fn()
        torch.cuda.synchronize()
        path = os.path.join(out, name + ".json")
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True) as p:
            fn()
            torch.cuda.synchronize()
        p.export_chrome_trace(path)
        with open(path, "rb") as f, gzip.open(path + ".gz", "wb", compresslevel=9) as g:
            shutil.copyfileobj(f, g)
        os.remove(path)
        print("wrote", name, os.path.getsize(path + ".gz"), flush=True)
    except Exception as e:  # one backend missing must not lose the others
        print("FAILED", name, type(e).__name__, str(e)[:300], flush=True)


def attention(backend):
    q, k, v = (torch.randn(4, 16, 1024, 64, device=dev, dtype=torch.bfloat16, requires_grad=True) for _ in range(3))

    def fn():
        with sdpa_kernel(backend):
            o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        o.sum().backward()
    return fn


record("attn_bwd_cudnn", attention(SDPBackend.CUDNN_ATTENTION))
record("attn_bwd_flash", attention(SDPBackend.FLASH_ATTENTION))

torch.backends.cuda.matmul.allow_tf32 = False
gemms = [(torch.randn(m, k, device=dev, dtype=dt), torch.randn(k, n, device=dev, dtype=dt))
         for (m, k, n) in [(64, 65536, 64), (128, 32768, 128), (256, 16384, 256)]
         for dt in (torch.bfloat16, torch.float32)]


def splitk():
    for a, b in gemms:
        torch.mm(a, b)


record("splitk_gemm", splitk)

net = nn.Sequential(nn.Linear(1024, 4096), nn.GELU(), nn.Linear(4096, 1024)).to(dev)
opt = torch.optim.AdamW(net.parameters(), lr=1e-4, foreach=True)
x = torch.randn(2048, 1024, device=dev)


def train():
    net(x).square().mean().backward()
    opt.step()
    opt.zero_grad(set_to_none=True)


record("foreach_adamw", train)
