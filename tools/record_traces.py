# record_traces.py - records the extra H100 traces the tests use (fp16 eager, compiled batch pair, GPU ProfilerStep annotations).
# Usage on the GPU machine: python3 tools/record_traces.py OUTDIR [--compiled-only]
# Needs ../shared/tools/gen_eager.py and gen_compiled.py (or copies in tools/_gen/).
import os, sys, time
import torch
from torch.profiler import profile, ProfilerActivity, schedule

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
here = os.path.dirname(os.path.abspath(__file__))
shared = os.path.join(here, "..", "..", "shared", "tools")
if not os.path.isdir(shared):
    shared = os.path.join(here, "_gen")


def model_module(name):
    # Dynamo must import the models' module, so the generator's definitions (its code before
    # the recording starts) are written out as a real module and imported.
    src = open(os.path.join(shared, name + ".py")).read().split("\nt0 = time.time()")[0]
    src = src.replace("out = sys.argv[1]\nos.makedirs(out, exist_ok=True)\n", "out = None\n")
    with open(os.path.join(here, name + "_models.py"), "w") as f:
        f.write(src)
    sys.path.insert(0, here)
    mod = __import__(name + "_models")
    mod.out = out
    return mod


def record_steps(eager):
    # GPU-side ProfilerStep#N annotations appear only with a schedule and prof.step().
    fn = eager.transformer_step(torch.bfloat16, B=2, T=256, layers=1)
    for _ in range(2):
        fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True,
                 schedule=schedule(wait=1, warmup=1, active=3)) as p:
        for _ in range(5):
            fn()
            p.step()
        torch.cuda.synchronize()
    path = os.path.join(out, "steps_bf16.json")
    p.export_chrome_trace(path)
    print("wrote", path, os.path.getsize(path), flush=True)


t0 = time.time()
if "--compiled-only" not in sys.argv:
    eager = model_module("gen_eager")
    eager.trace("eager_fp16", eager.transformer_step(torch.float16))
    record_steps(eager)
comp = model_module("gen_compiled")
for B in (8, 16):
    comp.trace(f"compiled_bf16_b{B}", comp.step(B))
print("done in", round(time.time() - t0, 1), "s", flush=True)
