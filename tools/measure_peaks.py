#!/usr/bin/env python3
"""measure_peaks.py - measures achievable peaks on this machine's GPU and writes a profana --device-file.

What it measures (each under a few seconds; the whole run stays under about a minute):
  - large square GEMMs (torch.mm) in bf16, fp16, tf32 (fp32 with allow_tf32) and fp32, and fp8
    (e4m3 x e4m3 through torch._scaled_mm, tensor-wise scales, bf16 out) where the GPU has it;
    the best TFLOP/s over a few sizes, counting 2*M*N*K FLOP;
  - a device-to-device copy (dst.copy_(src) of 1 GiB), counting read + write bytes.
Timing: CUDA events around N back-to-back calls after warm-up; the best of several repeats.

The file holds one entry matching this GPU's name: the datasheet figures of profana's built-in
entry for it when --profana names a binary (profana --list-devices --format json), so that
"% of datasheet" stays the same, and the measured "achievable" figures beside them, with
"measured": date, torch, CUDA, driver, GPU name, SM and memory clocks (nvidia-smi) and what ran.

  python3 tools/measure_peaks.py --profana ./profana --out h100.json
  profana --analysis trace.json bf16 --device-file h100.json

Where the GPU machine has no profana binary, measure there without --profana and add the
datasheet figures afterwards on any machine that has one (the file keeps what profana needs):
  python3 tools/measure_peaks.py --out h100.json                  # on the GPU machine
  python3 tools/measure_peaks.py --fill h100.json --profana ./profana   # anywhere

Prints the output path as its last line. Exits 1 with one line on stderr when there is no GPU.
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import time

TIME_BUDGET_S = 50.0  # stop measuring new dtypes past this, so the run stays under a minute


def fail(msg):
    print("measure_peaks.py: error: " + msg, file=sys.stderr)
    sys.exit(1)


def smi_query(fields):
    """nvidia-smi's values for fields of GPU 0 (CUDA_VISIBLE_DEVICES respected), or {}."""
    try:
        idx = os.environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")[0] or "0"
        out = subprocess.run(["nvidia-smi", "-i", idx, "--query-gpu=" + ",".join(fields),
                              "--format=csv,noheader,nounits"], capture_output=True, text=True, timeout=10)
        vals = [v.strip() for v in out.stdout.strip().splitlines()[0].split(",")]
        return dict(zip(fields, vals)) if len(vals) == len(fields) else {}
    except (OSError, subprocess.SubprocessError, IndexError):
        return {}


def time_op(torch, fn, iters, repeats=5):
    """Best seconds per call of fn over repeats of iters back-to-back calls (after warm-up)."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    best = float("inf")
    for _ in range(repeats):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(iters):
            fn()
        end.record()
        torch.cuda.synchronize()
        best = min(best, start.elapsed_time(end) / 1e3 / iters)
    return best


def gemm_tflops(torch, dtype_name, n):
    """Achieved TFLOP/s of an n x n x n GEMM in dtype_name, or None when it cannot run here."""
    dev = "cuda"
    torch.backends.cuda.matmul.allow_tf32 = dtype_name == "tf32"
    if dtype_name == "fp8":
        if not hasattr(torch, "float8_e4m3fn") or not hasattr(torch, "_scaled_mm"):
            return None
        a = torch.randn(n, n, device=dev).to(torch.float8_e4m3fn)
        b = torch.randn(n, n, device=dev).to(torch.float8_e4m3fn).t()  # column-major, as _scaled_mm wants
        one = torch.tensor(1.0, device=dev)

        def fn():
            return torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
    else:
        dt = {"bf16": torch.bfloat16, "fp16": torch.float16, "tf32": torch.float32, "fp32": torch.float32}[dtype_name]
        a = torch.randn(n, n, device=dev, dtype=dt)
        b = torch.randn(n, n, device=dev, dtype=dt)

        def fn():
            return torch.mm(a, b)
    try:
        fn()
        torch.cuda.synchronize()
    except (RuntimeError, TypeError):
        return None  # no fp8 path on this GPU (e.g. sm_80) or this torch
    iters = 20 if dtype_name not in ("fp32",) else 5
    s = time_op(torch, fn, iters)
    return 2.0 * n * n * n / s / 1e12


def copy_gbps(torch, nbytes=1 << 30):
    """Achieved GB/s of a device-to-device copy, read + write counted."""
    src = torch.empty(nbytes, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    s = time_op(torch, lambda: dst.copy_(src), 10)
    return 2.0 * nbytes / s / 1e9


def datasheet_entry(profana, props):
    """The built-in entry profana itself matches this GPU to (its --analysis of a one-op trace
    carrying this GPU's deviceProperties), from --list-devices: (entry dict, key), or (None, None)."""
    import tempfile
    dev = {"id": 0, "name": props.name, "numSms": props.multi_processor_count, "totalGlobalMem": props.total_memory,
           "computeMajor": props.major, "computeMinor": props.minor, "warpSize": 32}
    b = "c10::BFloat16"
    ev = [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 100, "dur": 5,
           "args": {"External id": 1, "Input Dims": [[64, 64], [64, 64]], "Input type": [b, b],
                    "Concrete Inputs": ["", ""]}},
          {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 110, "dur": 2,
           "args": {"External id": 1, "device": 0, "stream": 7, "correlation": 1}}]
    try:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({"deviceProperties": [dev], "traceEvents": ev}, f)
        run = lambda *a: subprocess.run([profana, *a], capture_output=True, text=True, timeout=30, check=True).stdout
        key = json.loads(run("--analysis", f.name, "bf16", "--format", "json"))["devices"][0]["matched"]
        table = json.loads(run("--list-devices", "--format", "json"))["devices"]
    except (OSError, subprocess.SubprocessError, ValueError, KeyError, IndexError) as e:
        print("measure_peaks.py: warning: cannot ask profana (%s); datasheet figures left out" % e, file=sys.stderr)
        return None, None
    finally:
        os.unlink(f.name)
    if not key:
        print("measure_peaks.py: warning: profana knows no entry for %r; datasheet figures left out" % props.name,
              file=sys.stderr)
    return next((d for d in table if d["key"] == key), None), key


def make_entry(name, ds, achieved, gbps, measured):
    """One --device-file entry: matching name, the datasheet figures of profana's entry ds (a
    --list-devices json row, or None), the achievable figures and how they were measured."""
    entry = {"name": name + " (measured)", "match": name}
    if ds:
        entry["tflops"] = {k: ds[k] for k in ("fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "int8", "fp6", "fp4")
                           if ds.get(k)}
        if ds.get("peak_gbps"):
            entry["gbps"] = ds["peak_gbps"]
        if ds.get("peak_mhz"):
            entry["clock_mhz"] = ds["peak_mhz"]
    entry["achievable"] = {"tflops": achieved, "gbps": gbps}
    entry["measured"] = measured
    return entry


def fill(path, profana):
    """Adds the datasheet figures of the entry profana matches to each entry of path (a file this
    script wrote without --profana), from the properties recorded in its "measured"."""
    import types
    if not profana:
        fail("--fill needs --profana BINARY")
    try:
        entries = json.load(open(path))
    except (OSError, ValueError) as e:
        fail("%s: %s" % (path, e))
    for i, e in enumerate(entries):
        m = e.get("measured") or {}
        cc = m.get("cc") or [0, 0]
        props = types.SimpleNamespace(name=m.get("gpu") or e["match"], multi_processor_count=m.get("sms", 0),
                                      total_memory=m.get("total_memory", 0), major=cc[0], minor=cc[1])
        ds, key = datasheet_entry(profana, props)
        entries[i] = make_entry(props.name, ds, e["achievable"]["tflops"], e["achievable"]["gbps"],
                                dict(m, datasheet_entry=key))
        entries[i]["name"], entries[i]["match"] = e["name"], e["match"]
    with open(path, "w") as f:
        json.dump(entries, f, indent=1)
        f.write("\n")
    print(os.path.abspath(path))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", help="device file to write (default: measured_<gpu>.json)")
    ap.add_argument("--profana", help="profana binary: copy the datasheet figures of its matching entry")
    ap.add_argument("--size", type=int, default=8192, help="GEMM size n (n x n x n); default 8192")
    ap.add_argument("--fill", metavar="FILE", help="add the datasheet figures (--profana) to FILE, measured "
                    "earlier without them, and stop; needs no GPU")
    args = ap.parse_args()
    if args.fill:
        return fill(args.fill, args.profana)
    t0 = time.time()
    try:
        import torch
    except ImportError:
        fail("PyTorch is not installed")
    if not torch.cuda.is_available():
        fail("no CUDA (or ROCm) GPU visible to PyTorch")
    torch.manual_seed(0)
    props = torch.cuda.get_device_properties(0)
    name = props.name

    achieved = {}
    sizes = [args.size, args.size // 2] if args.size >= 4096 else [args.size]
    for dt in ("bf16", "fp16", "fp8", "tf32", "fp32"):
        if time.time() - t0 > TIME_BUDGET_S:
            print("measure_peaks.py: warning: time budget spent; %s not measured" % dt, file=sys.stderr)
            continue
        results = [r for r in (gemm_tflops(torch, dt, n) for n in sizes) if r]
        if results:
            achieved[dt] = round(max(results), 1)
        print("%-5s %s" % (dt, ("%.1f TFLOP/s" % achieved[dt]) if dt in achieved else "not available"),
              file=sys.stderr)
    torch.backends.cuda.matmul.allow_tf32 = False
    gbps = round(copy_gbps(torch), 0)
    print("copy  %.0f GB/s (read + write)" % gbps, file=sys.stderr)

    smi = smi_query(["driver_version", "clocks.sm", "clocks.max.sm", "clocks.mem", "clocks.max.mem",
                     "power.limit", "pstate"])
    ds, key = datasheet_entry(args.profana, props) if args.profana else (None, None)
    entry = make_entry(name, ds, achieved, gbps, {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "tool": "tools/measure_peaks.py: best of torch.mm n^3 (n = %s) per dtype, fp8 via torch._scaled_mm "
                "(e4m3, tensor-wise scales, bf16 out); 1 GiB device-to-device copy, read + write bytes"
                % "/".join(str(n) for n in sizes),
        "gpu": name, "sms": props.multi_processor_count, "total_memory": props.total_memory,
        "cc": [props.major, props.minor],
        "torch": torch.__version__, "cuda": torch.version.cuda, "hip": getattr(torch.version, "hip", None),
        "driver": smi.get("driver_version"), "datasheet_entry": key,
        "clocks_mhz": {k: smi.get(k) for k in ("clocks.sm", "clocks.max.sm", "clocks.mem", "clocks.max.mem")},
        "power_limit_w": smi.get("power.limit"), "pstate": smi.get("pstate"),
        "seconds": round(time.time() - t0, 1),
    })
    out = args.out or "measured_%s.json" % "".join(c if c.isalnum() else "_" for c in name).strip("_")
    with open(out, "w") as f:
        json.dump([entry], f, indent=1)
        f.write("\n")
    if not ds:
        print("measure_peaks.py: warning: %s has no datasheet figures, and a device-file entry comes before the "
              "built-in table: add them with --fill %s --profana BINARY before using it" % (out, out), file=sys.stderr)
    print(os.path.abspath(out))


if __name__ == "__main__":
    main()
