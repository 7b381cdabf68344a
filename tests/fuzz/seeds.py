#!/usr/bin/env python3
"""seeds.py - writes the fuzzers' seed corpora: small traces cut from testdata/, the broken-trace corpus, and op args.

Usage: tests/fuzz/seeds.py OUTDIR
  OUTDIR/trace/  for fuzz_load and fuzz_analysis: every file of tests/broken/, and per testdata
                 trace a few small traces (deviceProperties, a handful of GPU activities of
                 different ops with their launching cpu_ops, runtime calls and ProfilerStep
                 annotations), plain and gzip-compressed
  OUTDIR/args/   for fuzz_args: "OP_NAME\\nARGS_JSON" of distinct linked cpu_ops
The real traces are megabytes; a fuzzer mutates small inputs far faster, and these keep
every field and structure of the real ones.
"""
import glob
import tarfile
import gzip
import json
import re
import os
import shutil
import sys

GPU_CATS = {"kernel", "gpu_memcpy", "gpu_memset"}
SEED_EVENTS = 12  # GPU activities per small trace
PART = 65536  # the loader's parallel parts: one seed per trace crosses them


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", errors="surrogateescape") as f:
        return json.load(f)


def ext_id(e):
    a = e.get("args")
    return a.get("External id") if isinstance(a, dict) else None


def small_traces(doc):
    """Yields small trace documents, each with SEED_EVENTS GPU activities of distinct names."""
    events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    ops = {}
    runtime = {}
    for e in events:
        if e.get("cat") == "cpu_op" and ext_id(e) is not None:
            ops.setdefault(ext_id(e), e)
        if e.get("cat") in ("cuda_runtime", "cuda_driver") and isinstance(e.get("args"), dict):
            runtime.setdefault(e["args"].get("correlation"), e)
    steps = [e for e in events if str(e.get("name", "")).startswith("ProfilerStep#")]
    seen = set()
    gpu = []
    for e in events:
        if e.get("cat") in GPU_CATS and e.get("name") not in seen:
            seen.add(e.get("name"))
            gpu.append(e)
    for start in range(0, len(gpu), SEED_EVENTS):
        chosen = gpu[start:start + SEED_EVENTS]
        out = []
        for e in chosen:
            op = ops.get(ext_id(e))
            if op is not None:
                out.append(op)
            rt = runtime.get(e.get("args", {}).get("correlation"))
            if rt is not None:
                out.append(rt)
            out.append(e)
        out += steps[:4]
        small = {k: v for k, v in doc.items() if k != "traceEvents"} if isinstance(doc, dict) else {}
        small["traceEvents"] = out
        yield small
        if start >= 4 * SEED_EVENTS:
            break


def op_args(doc):
    """Yields "name\\nargs" texts of linked cpu_ops with distinct name and shapes."""
    events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
    linked = {ext_id(e) for e in events if e.get("cat") in GPU_CATS}
    seen = set()
    for e in events:
        if e.get("cat") != "cpu_op" or ext_id(e) not in linked:
            continue
        key = (e.get("name"), json.dumps(e["args"].get("Input Dims")))
        if key in seen:
            continue
        seen.add(key)
        yield "%s\n%s" % (e.get("name"), json.dumps(e["args"]))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    trace_dir = os.path.join(out, "trace")
    args_dir = os.path.join(out, "args")
    for d in (trace_dir, args_dir):
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    n_broken = n_traces = n_args = 0
    for f in sorted(glob.glob(os.path.join(root, "tests", "broken", "*"))):
        if os.path.basename(f) != "EXPECTED":
            shutil.copy(f, os.path.join(trace_dir, "broken_" + os.path.basename(f)))
            n_broken += 1
    # past findings (tests/fuzz/regress/) are seeds too: their neighbourhood is where bugs were
    for f in sorted(glob.glob(os.path.join(root, "tests", "fuzz", "regress", "*.json"))):
        shutil.copy(f, os.path.join(trace_dir, "regress_" + os.path.basename(f)))
        n_broken += 1
    paths = sorted(glob.glob(os.path.join(root, "testdata", "traces", "*.json*")))
    paths += sorted(glob.glob(os.path.join(root, "testdata", "peer", "*.json*")))
    for path in paths:
        base = os.path.basename(path).split(".")[0]
        doc = load(path)
        for i, small in enumerate(small_traces(doc)):
            # Kineto indents; the compact form keeps the others small
            text = json.dumps(small, indent=1 if i == 0 else None).encode("utf-8", "surrogateescape")
            with open(os.path.join(trace_dir, "%s_%d.json" % (base, i)), "wb") as f:
                f.write(text)
            if i == 0:
                with open(os.path.join(trace_dir, "%s_%d.json.gz" % (base, i)), "wb") as f:
                    f.write(gzip.compress(text, mtime=0))
            n_traces += 1
            if i == 0 and len(text) < PART:
                # one seed longer than the loader's 64 KB parts: its events repeated until
                # they cross several of them (run.sh's -max_len is above this)
                big = dict(small, traceEvents=small["traceEvents"] * (3 * PART // len(text) + 1))
                with open(os.path.join(trace_dir, "%s_%d_big.json" % (base, i)), "wb") as f:
                    f.write(json.dumps(big, indent=1).encode("utf-8", "surrogateescape"))
        for i, text in enumerate(op_args(doc)):
            with open(os.path.join(args_dir, "%s_%d.txt" % (base, i)), "w", encoding="utf-8",
                      errors="surrogateescape") as f:
                f.write(text)
            n_args += 1
    # fuzz_triton: the Inductor kernel modules of testdata/inductor/
    triton_dir = os.path.join(out, "triton")
    shutil.rmtree(triton_dir, ignore_errors=True)
    os.makedirs(triton_dir)
    n_mod = 0
    for tgz in sorted(glob.glob(os.path.join(root, "testdata", "inductor", "*_modules.tar.gz"))):
        with tarfile.open(tgz) as tar:
            for m in tar.getmembers():
                if m.isfile() and m.name.endswith(".py"):
                    data = tar.extractfile(m).read()
                    with open(os.path.join(triton_dir, "%d.py" % n_mod), "wb") as f:
                        f.write(data)
                    n_mod += 1
    print("seeds: %d Inductor modules" % n_mod)
    # fuzz_demangle: the mangled names (_Z...) of testdata/'s traces, one a file
    dm_dir = os.path.join(out, "demangle")
    shutil.rmtree(dm_dir, ignore_errors=True)
    os.makedirs(dm_dir)
    names = set()
    for path in sorted(glob.glob(os.path.join(root, "testdata", "**", "*.json*"), recursive=True)):
        opener = gzip.open if path.endswith(".gz") else open
        try:
            with opener(path, "rb") as f:
                names.update(m.decode("utf-8", "surrogateescape")
                             for m in re.findall(rb'"(_Z[^"\\]*)"', f.read()))
        except (OSError, EOFError):
            continue
    for i, n in enumerate(sorted(names)):
        with open(os.path.join(dm_dir, "%d.txt" % i), "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(n)
    print("seeds: %d mangled names" % len(names))
    print("seeds: %d small traces, %d broken traces, %d op args in %s" % (n_traces, n_broken, n_args, out))


if __name__ == "__main__":
    main()
