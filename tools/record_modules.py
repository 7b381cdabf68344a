# record_modules.py - records the module-view traces on the GPU machine (issue 44), with_modules=True, with_stack=True (torch 2.11 writes the `nn.Module: NAME_i` events only with the stack) and record_shapes, random weights from a config (nothing downloaded):
#   qwen2_train     an eager Qwen2ForCausalLM training step (4 decoder layers, hidden 512, bf16, batch 4 x 256
#                   tokens), forward + backward + AdamW(fused=True), 2 profiler steps
#   llama_generate  LlamaForCausalLM.generate (4 layers, hidden 512, bf16, batch 2, a 128-token prompt, 16 new
#                   tokens, greedy), one generate call: a prefill forward then 15 decode forwards
#   mlp_stack       the same training step over a hand-made nn.Sequential of 3 Blocks (Linear-GELU-Linear), fp32
#                   with TF32 on: a small model whose module tree a test can write out by hand
# Usage: python3 record_modules.py OUTDIR [NAME...]   (writes OUTDIR/NAME.json.gz and OUTDIR/env.txt)
import gzip
import os
import shutil
import sys

import torch
import torch.nn as nn
from torch.profiler import ProfilerActivity, profile, record_function, schedule

out = sys.argv[1]
only = sys.argv[2:]
os.makedirs(out, exist_ok=True)
dev = "cuda"
torch.manual_seed(0)


def save(path):
    with open(path, "rb") as f, gzip.open(path + ".gz", "wb", compresslevel=9) as g:
        shutil.copyfileobj(f, g)
    os.remove(path)
    print("wrote", path + ".gz", os.path.getsize(path + ".gz"), flush=True)


def record_steps(name, step, steps=2):
    if only and name not in only:
        return
    for _ in range(2):
        step()
    torch.cuda.synchronize()
    path = os.path.join(out, name + ".json")
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True, with_modules=True, with_stack=True,
                 schedule=schedule(wait=0, warmup=1, active=steps, repeat=1),
                 on_trace_ready=lambda p: p.export_chrome_trace(path)) as p:
        for i in range(steps + 1):
            step()
            if i == steps:
                torch.cuda.synchronize()
            p.step()
    save(path)


def train_step(model, make_batch):
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)

    def step():
        ids = make_batch()
        loss = model(input_ids=ids, labels=ids).loss
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    return step


if not only or "qwen2_train" in only:
    from transformers import Qwen2Config, Qwen2ForCausalLM
    cfg = Qwen2Config(vocab_size=8192, hidden_size=512, intermediate_size=1408, num_hidden_layers=4,
                      num_attention_heads=8, num_key_value_heads=4, max_position_embeddings=1024,
                      attn_implementation="sdpa")
    m = Qwen2ForCausalLM(cfg).to(dev, torch.bfloat16).train()
    record_steps("qwen2_train", train_step(m, lambda: torch.randint(0, 8192, (4, 256), device=dev)))
    del m

if not only or "llama_generate" in only:
    from transformers import LlamaConfig, LlamaForCausalLM
    cfg = LlamaConfig(vocab_size=8192, hidden_size=512, intermediate_size=1408, num_hidden_layers=4,
                      num_attention_heads=8, num_key_value_heads=4, max_position_embeddings=1024,
                      attn_implementation="sdpa")
    m = LlamaForCausalLM(cfg).to(dev, torch.bfloat16).eval()
    prompt = torch.randint(0, 8192, (2, 128), device=dev)
    kw = dict(max_new_tokens=16, min_new_tokens=16, do_sample=False, pad_token_id=0)
    with torch.no_grad():
        m.generate(prompt, **kw)
        torch.cuda.synchronize()
        path = os.path.join(out, "llama_generate.json")
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True,
                     with_modules=True, with_stack=True) as p:
            with record_function("generate"):
                m.generate(prompt, **kw)
            torch.cuda.synchronize()
        p.export_chrome_trace(path)
    save(path)
    del m

if not only or "mlp_stack" in only:
    torch.backends.cuda.matmul.allow_tf32 = True

    class Block(nn.Module):
        def __init__(self, w):
            super().__init__()
            self.up = nn.Linear(w, 4 * w)
            self.act = nn.GELU()
            self.down = nn.Linear(4 * w, w)

        def forward(self, x):
            return x + self.down(self.act(self.up(x)))

    class Net(nn.Module):
        def __init__(self, w):
            super().__init__()
            self.blocks = nn.Sequential(*[Block(w) for _ in range(3)])
            self.head = nn.Linear(w, 16)

        def forward(self, x):
            return self.head(self.blocks(x))

    net = Net(1024).to(dev)
    opt = torch.optim.AdamW(net.parameters(), lr=1e-4, fused=True)
    x = torch.randn(4096, 1024, device=dev)
    y = torch.randint(0, 16, (4096,), device=dev)

    def step():
        loss = nn.functional.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
    record_steps("mlp_stack", step)

with open(os.path.join(out, "env.txt"), "w") as f:
    import transformers
    f.write("torch %s, transformers %s, %s\n" % (torch.__version__, transformers.__version__,
                                                torch.cuda.get_device_name()))
