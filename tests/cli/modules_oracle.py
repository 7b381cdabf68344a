# modules_oracle.py - GPU time per nn.Module path from the raw events, by a route of its own (the test's oracle for --group module):
#   module calls   python_function events "nn.Module: NAME"; a call's path joins the calls that hold it on its
#                  (pid, tid), the shortest holder being its parent (searched pairwise, no nesting stack)
#   forward        a GPU activity (kernel, gpu_memcpy, gpu_memset) whose runtime call (cuda_runtime/cuda_driver with
#                  its correlation) starts inside a module call on the call's thread: to the shortest such call
#   backward       else, the cpu_ops holding the launch on its thread, innermost first, until one that a fwdbwd
#                  flow's 'f' end binds to (same pid, tid and start), or an autograd engine's evaluate_function
#                  wrapper holding such an end (its first); the flow's 's' end (the forward op) lies in a
#                  module call on its thread: to the shortest such call. (profana follows sequence numbers instead.)
# Prints JSON: {"gpu_us", "forward_us", "backward_us", "paths": {path: [forward_us, backward_us, calls]}} for device
# 0 (the traces are single-GPU). With --annotations the ranges are the user_annotation events (record_function),
# ProfilerStep#N excepted, by the same rules. Usage: python3 modules_oracle.py [--annotations] TRACE
import bisect
import gzip
import json
import sys

ann = sys.argv[1] == "--annotations"
path = sys.argv[-1]
doc = json.load(gzip.open(path) if path.endswith(".gz") else open(path))
ev = doc["traceEvents"] if isinstance(doc, dict) else doc
X = [e for e in ev if e.get("ph") == "X" and "ts" in e and "dur" in e]

if ann:
    mods = [dict(e, name="nn.Module: " + e["name"]) for e in X
            if e.get("cat") == "user_annotation" and not e["name"].startswith("ProfilerStep#")]
else:
    mods = [e for e in X if e.get("cat") == "python_function" and e["name"].startswith("nn.Module: ")]


def shortest(cands):
    return min(cands, key=lambda a: (a["dur"], -a["ts"])) if cands else None


# per thread by start: the holders of an instant all start at or before it; of those that hold it the
# shortest is the innermost (the scan back stops at the first holder of a call that holds it)
by_thread = {}
for m in mods:
    by_thread.setdefault((m["pid"], m["tid"]), []).append(m)
starts = {}
for th, ms in by_thread.items():
    ms.sort(key=lambda a: (a["ts"], -a["dur"]))
    starts[th] = [a["ts"] for a in ms]
paths = {}


def holders(th, lo_ts, hi_ts, skip=None):
    ms = by_thread.get(th, [])
    i = bisect.bisect_right(starts.get(th, []), lo_ts)
    out = []
    while i > 0:
        i -= 1
        a = ms[i]
        if a is not skip and a["ts"] <= lo_ts and hi_ts <= a["ts"] + a["dur"]:
            out.append(a)
    return out


def path_of(m):
    k = id(m)
    if k not in paths:
        th = (m["pid"], m["tid"])
        up = shortest([a for a in holders(th, m["ts"], m["ts"] + m["dur"], m)
                       if (a["dur"], -a["ts"]) > (m["dur"], -m["ts"])])
        name = m["name"][len("nn.Module: "):]
        paths[k] = (path_of(up) + "/" if up else "") + name
    return paths[k]


def module_at(th, ts):
    return shortest(holders(th, ts, ts))


runtime = {}
for e in X:
    if e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {}):
        runtime.setdefault(e["args"]["correlation"], []).append(e)
ops_by_thread = {}
for e in X:
    if e.get("cat") == "cpu_op":
        ops_by_thread.setdefault((e["pid"], e["tid"]), []).append(e)
flow_s = {e["id"]: e for e in ev if e.get("cat") == "fwdbwd" and e.get("ph") == "s"}
flow_f = {}
for e in ev:
    if e.get("cat") == "fwdbwd" and e.get("ph") == "f":
        flow_f[(e["pid"], e["tid"], e["ts"])] = e["id"]

out = {}
gpu = fwd = bwd = 0.0
for e in X:
    if e.get("cat") not in ("kernel", "gpu_memcpy", "gpu_memset") or e.get("args", {}).get("device", 0) != 0:
        continue
    gpu += e["dur"]
    calls = runtime.get(e.get("args", {}).get("correlation"), [])
    if len(calls) != 1:
        continue
    c = calls[0]
    th = (c["pid"], c["tid"])
    m = module_at(th, c["ts"])
    back = False
    if m is None:
        held = sorted((o for o in ops_by_thread.get(th, []) if o["ts"] <= c["ts"] <= o["ts"] + o["dur"]),
                      key=lambda o: o["dur"])
        for o in held:
            fid = flow_f.get((o["pid"], o["tid"], o["ts"]))
            if fid is None and o["name"].startswith("autograd::engine::evaluate_function: "):
                # the engine's wrapper of a node (its bias-gradient sum runs there, outside the
                # node's own slice, which the flow binds to): the first flow end inside it
                inside = sorted(k for k in flow_f if k[:2] == (o["pid"], o["tid"]) and o["ts"] <= k[2] <= o["ts"] + o["dur"])
                fid = flow_f[inside[0]] if inside else None
            if fid is not None and fid in flow_s:
                s = flow_s[fid]
                m = module_at((s["pid"], s["tid"]), s["ts"])
                back = m is not None
                break
    if m is None:
        continue
    p = path_of(m)
    parts = p.split("/")
    for k in range(1, len(parts) + 1):
        row = out.setdefault("/".join(parts[:k]), [0.0, 0.0, 0])
        row[1 if back else 0] += e["dur"]
    if back:
        bwd += e["dur"]
    else:
        fwd += e["dur"]
for m in mods:
    out.setdefault(path_of(m), [0.0, 0.0, 0])[2] += 1
print(json.dumps({"gpu_us": gpu, "forward_us": fwd, "backward_us": bwd, "paths": out}))
