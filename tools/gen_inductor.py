# gen_inductor.py - records compiled training steps twice each (issue 28's oracle pairs):
# plain (the Inductor kernel modules the trace names are kept) and with
# TORCHINDUCTOR_BENCHMARK_KERNEL=1 (Inductor writes its own kernel_num_gb / kernel_flop into
# each launch's args). Each recording runs in a fresh process with a fresh TORCHINDUCTOR_CACHE_DIR.
# Usage (on the GPU machine): python3 tools/gen_inductor.py OUTDIR [MODEL:MODE ...]
#        MODEL: bert t5 llama gpt2 mistral; MODE: default, max-autotune-no-cudagraphs, reduce-overhead
import gzip, json, os, shutil, subprocess, sys, time

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
if len(sys.argv) >= 2 and (len(sys.argv) == 2 or ":" in sys.argv[2]):
    jobs = sys.argv[2:] or ["bert:default", "t5:default", "llama:max-autotune-no-cudagraphs", "gpt2:reduce-overhead"]
    for job in jobs:
        model, cmode = job.split(":")
        for rec in ("plain", "bench"):
            cache = os.path.join("/tmp/ind_cache", f"{model}_{rec}")
            shutil.rmtree(cache, ignore_errors=True)
            env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=cache, TORCHINDUCTOR_UNIQUE_KERNEL_NAMES="1")
            env.pop("TORCHINDUCTOR_BENCHMARK_KERNEL", None)
            if rec == "bench":
                env["TORCHINDUCTOR_BENCHMARK_KERNEL"] = "1"
            t = time.time()
            r = subprocess.run([sys.executable, __file__, out, "run", model, cmode, rec, cache], env=env)
            print(job, rec, "rc", r.returncode, f"{time.time() - t:.1f}s", flush=True)
    sys.exit(0)

_, _, _, model, cmode, rec, cache = sys.argv
import torch
from torch.profiler import profile, ProfilerActivity
dev = "cuda"
torch.manual_seed(0)
if model == "bert":
    from transformers import BertConfig, BertForMaskedLM
    m = BertForMaskedLM(BertConfig(vocab_size=8192, hidden_size=512, num_hidden_layers=2, num_attention_heads=8,
                                   intermediate_size=2048))
    ids = torch.randint(0, 8192, (8, 256), device=dev)
    kw = dict(input_ids=ids, labels=ids)
elif model == "t5":
    from transformers import T5Config, T5ForConditionalGeneration
    m = T5ForConditionalGeneration(T5Config(vocab_size=8192, d_model=512, d_kv=64, d_ff=2048, num_layers=2,
                                            num_decoder_layers=2, num_heads=8,
                                            decoder_start_token_id=0, pad_token_id=0))
    ids = torch.randint(0, 8192, (8, 256), device=dev)
    kw = dict(input_ids=ids, labels=torch.randint(0, 8192, (8, 128), device=dev))
elif model == "llama":
    from transformers import LlamaConfig, LlamaForCausalLM
    m = LlamaForCausalLM(LlamaConfig(vocab_size=8192, hidden_size=512, intermediate_size=1408, num_hidden_layers=2,
                                     num_attention_heads=8, num_key_value_heads=2))
    ids = torch.randint(0, 8192, (8, 256), device=dev)
    kw = dict(input_ids=ids, labels=ids)
elif model == "mistral":
    from transformers import MistralConfig, MistralForCausalLM
    m = MistralForCausalLM(MistralConfig(vocab_size=8192, hidden_size=512, intermediate_size=1536, num_hidden_layers=2,
                                         num_attention_heads=8, num_key_value_heads=4))
    ids = torch.randint(0, 8192, (4, 512), device=dev)
    kw = dict(input_ids=ids, labels=ids)
else:
    from transformers import GPT2Config, GPT2LMHeadModel
    m = GPT2LMHeadModel(GPT2Config(vocab_size=8192, n_embd=512, n_layer=2, n_head=8, n_positions=512))
    ids = torch.randint(0, 8192, (8, 256), device=dev)
    kw = dict(input_ids=ids, labels=ids)
m = m.to(dev, torch.bfloat16)
opt = torch.optim.AdamW(m.parameters(), lr=1e-4, fused=True)
cm = torch.compile(m, mode=None if cmode == "default" else cmode)


def step():
    o = cm(**kw)
    o.loss.backward()
    opt.step()
    opt.zero_grad(set_to_none=True)


for _ in range(3):
    step()
torch.cuda.synchronize()
with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True) as p:
    step()
    torch.cuda.synchronize()
name = f"ind_{model}_{cmode.replace('-no-cudagraphs', '').replace('-', '_')}_{rec}"
path = os.path.join("/tmp", name + ".json")
p.export_chrome_trace(path)
with open(path) as f:
    doc = json.load(f)
with gzip.open(os.path.join(out, name + ".json.gz"), "wt") as f:
    json.dump(doc, f, separators=(",", ":"))
# keep only the modules the trace names, as xx/cxxxx.py under OUT/NAME_modules
files = sorted({e["args"]["kernel_file"] for e in doc["traceEvents"]
                if e.get("cat") == "cpu_op" and isinstance(e.get("args"), dict) and "kernel_file" in e["args"]})
mdir = os.path.join(out, name + "_modules")
for kf in files:
    d = os.path.join(mdir, os.path.basename(os.path.dirname(kf)))
    os.makedirs(d, exist_ok=True)
    if os.path.exists(kf):
        shutil.copy(kf, d)
print("wrote", name, os.path.getsize(path), "modules", len(files), flush=True)
