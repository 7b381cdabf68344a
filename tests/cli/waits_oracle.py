# waits_oracle.py - why the GPU waits, computed from the raw events with Python's json module, independently of profana: per device the exclusive breakdown of its span (compute, exposed communication, memcpy, memset, idle; by interval arithmetic on merged intervals), idle gaps by cause (the launch call of the activity that ends each gap, by correlation id), launch statistics, queue depth per stream, and the breakdown per ProfilerStep. Prints one JSON document {"devices": [{id, breakdown, idle_causes, launch, queue, step_breakdown}]} in profana's units (us).
# Usage: python3 tests/cli/waits_oracle.py TRACE [--step all|N] [--phase prefill|decode|mixed] (--phase: the activities of that phase by phases_oracle.py's rules)
import sys

sys.path.insert(0, "tests/cli")
from raw import load, ns  # noqa: E402

KERNEL_CATS = ("kernel", "Kernel")
MEMCPY_CATS = ("gpu_memcpy", "Memcpy")
MEMSET_CATS = ("gpu_memset", "Memset")
RUNTIME_CATS = ("cuda_runtime", "cuda_driver", "Runtime")
OP_CATS = ("cpu_op", "Operator")
# communication: the launching op is a collective, else the kernel is NCCL/RCCL or a custom all-reduce
COMM_OPS = ("c10d::", "_c10d_functional::", "c10d_functional::", "nccl:", "symm_mem::")
COMM_KERNELS = ("all_reduce_kernel", "cross_device_reduce")
BINS = [("<5", 0, 5000), ("5-10", 5000, 10000), ("10-50", 10000, 50000), ("50-100", 50000, 100000),
        (">=100", 100000, None)]


def is_x(e):
    return isinstance(e, dict) and e.get("ph") == "X" and "ts" in e and "dur" in e


def device_of(e):
    a = e.get("args") or {}
    return a["device"] if "device" in a else e.get("pid")


def classify(e, op):
    """compute, comm, memcpy or memset."""
    name, cat = e.get("name", ""), e["cat"]
    if cat in MEMCPY_CATS or (cat in KERNEL_CATS and name.startswith("__amd_rocclr_copy")):
        return "memcpy"
    if cat in MEMSET_CATS or (cat in KERNEL_CATS and name.startswith("__amd_rocclr_fill")):
        return "memset"
    if name.startswith("triton_") or (op or "").startswith("triton_"):
        return "compute"
    if op and (op.startswith(COMM_OPS) or op == "record_param_comms"):
        return "comm"
    low = name.lower()
    if "nccl" in low or "rccl" in low or any(k in name for k in COMM_KERNELS):
        return "comm"
    return "compute"


def merge(iv):
    out = []
    for s, e in sorted(iv):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def length(m):
    return sum(e - s for s, e in m)


def minus(a, b):
    """|union(a) minus union(b)|: a's merged intervals less their overlap with b's."""
    a, b = merge(a), merge(b)
    total, j = 0, 0
    for s, e in a:
        cur = s
        while j < len(b) and b[j][1] <= cur:
            j += 1
        k = j
        while k < len(b) and b[k][0] < e:
            if b[k][0] > cur:
                total += b[k][0] - cur
            cur = max(cur, b[k][1])
            k += 1
        if cur < e:
            total += e - cur
    return total


def breakdown(acts):
    iv = lambda cls: [(a["s"], a["e"]) for a in acts if a["cls"] in cls]
    span = max(a["e"] for a in acts) - min(a["s"] for a in acts)
    comp = length(merge(iv(("compute",))))
    comm = minus(iv(("comm",)), iv(("compute",)))
    memcpy = minus(iv(("memcpy",)), iv(("compute", "comm")))
    memset = minus(iv(("memset",)), iv(("compute", "comm", "memcpy")))
    busy = length(merge(iv(("compute", "comm", "memcpy", "memset"))))
    comm_total = length(merge(iv(("comm",))))
    return {"span_us": span / 1e3, "compute_us": comp / 1e3, "communication_us": comm / 1e3,
            "memcpy_us": memcpy / 1e3, "memset_us": memset / 1e3, "idle_us": (span - busy) / 1e3,
            "communication_total_us": comm_total / 1e3,
            "overlap_pct": 100 * (1 - comm / comm_total) if comm_total else None}


def idle_causes(acts):
    """Gaps between merged busy intervals; the activity starting at a gap's end (the first in
    file order) and its launch call's end split it."""
    m = merge([(a["s"], a["e"]) for a in acts])
    host = lat = unattr = 0
    gaps = 0
    first_at = {}
    for a in acts:
        if a["s"] not in first_at or a["i"] < first_at[a["s"]]["i"]:
            first_at[a["s"]] = a
    for (s0, e0), (s1, e1) in zip(m, m[1:]):
        g0, g1 = e0, s1
        if g1 <= g0:
            continue
        gaps += 1
        ender = first_at[g1]
        if ender["launch"] is None:
            unattr += g1 - g0
            continue
        call_end = ender["launch"][0] + ender["launch"][1]
        h = min(max(call_end - g0, 0), g1 - g0)
        host += h
        lat += g1 - g0 - h
    return {"host_wait_us": host / 1e3, "launch_latency_us": lat / 1e3, "unattributed_us": unattr / 1e3,
            "gaps": gaps}


def nearest_rank(v, p):
    v = sorted(v)
    k = -(-p * len(v) // 100)
    return v[max(k, 1) - 1]


def launch(acts):
    ks = [a for a in acts if a["kernel"] and a["launch"] is not None]
    hist = []
    for name, lo, hi in BINS:
        inb = [a for a in ks if a["e"] - a["s"] >= lo and (hi is None or a["e"] - a["s"] < hi)]
        hist.append({"bin": name, "count": len(inb), "time_us": sum(a["e"] - a["s"] for a in inb) / 1e3})
    delays = [a["s"] - (a["launch"][0] + a["launch"][1]) for a in ks]
    return {"count": len(ks),
            "call_us_mean": sum(a["launch"][1] for a in ks) / len(ks) / 1e3 if ks else None,
            "delay_us_p50": nearest_rank(delays, 50) / 1e3 if ks else None,
            "delay_us_p99": nearest_rank(delays, 99) / 1e3 if ks else None,
            # a graph launch is one call for all its kernels: they are not compared with it one by one
            "launch_bound": sum(1 for a in ks if not a["graph"] and a["e"] - a["s"] < a["launch"][1]),
            "histogram": hist}


def queue(acts):
    lo, hi = min(a["s"] for a in acts), max(a["e"] for a in acts)
    out = []
    for st in sorted({a["stream"] for a in acts}):
        iv = []
        for a in acts:
            if a["stream"] != st:
                continue
            q0 = min(a["launch"][0], a["s"]) if a["launch"] is not None else a["s"]
            q0, q1 = max(q0, lo), min(a["e"], hi)
            if q1 > q0:
                iv.append((q0, q1))
        # depth on each stretch between consecutive boundaries: the net count of intervals
        # opened at or before its start
        delta = {lo: 0, hi: 0}
        for s, e in iv:
            delta[s] = delta.get(s, 0) + 1
            delta[e] = delta.get(e, 0) - 1
        pts = sorted(delta)
        mx, weighted, empty, d = 0, 0, 0, 0
        for t0, t1 in zip(pts, pts[1:]):
            d += delta[t0]
            mx = max(mx, d)
            weighted += d * (t1 - t0)
            empty += (t1 - t0) if d == 0 else 0
        out.append({"stream": st, "max_depth": mx, "mean_depth": weighted / (hi - lo) if hi > lo else 0,
                    "empty_us": empty / 1e3})
    return out


def steps(events, acts_all, has_launch):
    """Step number per activity (by index): the CPU-side ProfilerStep#N window of the launch
    call's process that holds the call's start (older Kineto wrote the window as an Operator); with no launch call in the trace, the GPU-side
    annotation on the activity's device that holds its start."""
    owner = {}
    if has_launch:
        wins = [(e.get("pid"), ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), int(e["name"].split("#")[1]))
                for e in events if is_x(e) and e.get("cat") in ("user_annotation",) + OP_CATS
                and e.get("name", "").startswith("ProfilerStep#")]
        for a in acts_all:
            if a["launch"] is None:
                continue
            for pid, t0, t1, n in wins:
                if pid == a["launch"][2] and t0 <= a["launch"][0] < t1:
                    owner[a["i"]] = n
    else:
        wins = [(device_of(e), ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), int(e["name"].split("#")[1]))
                for e in events if is_x(e) and e.get("cat") == "gpu_user_annotation"
                and e.get("name", "").startswith("ProfilerStep#")]
        for a in acts_all:
            for dev, t0, t1, n in wins:
                if dev == a["dev"] and t0 <= a["s"] < t1:
                    owner[a["i"]] = n
    return owner


def main():
    path, opts = sys.argv[1], dict(zip(sys.argv[2::2], sys.argv[3::2]))
    sel, phase = opts.get("--step"), opts.get("--phase")
    events = load(path)
    in_phase = None
    if phase is not None:
        from phases_oracle import act_phases
        in_phase = {id(e) for e, p in act_phases(events) if p == phase}
    runtime, pids = {}, {}
    ops = {}
    for e in events:
        if not is_x(e):
            continue
        a = e.get("args") or {}
        if e.get("cat") in RUNTIME_CATS and "correlation" in a:
            c = a["correlation"]
            runtime.setdefault(c, e)
            pids.setdefault(c, set()).add(e.get("pid"))
        if e.get("cat") in OP_CATS and "External id" in a:
            ops.setdefault(a["External id"], e.get("name"))
    acts = []
    for e in events:
        if not is_x(e) or e.get("cat") not in KERNEL_CATS + MEMCPY_CATS + MEMSET_CATS:
            continue
        if in_phase is not None and id(e) not in in_phase:
            continue
        a = e.get("args") or {}
        c = a.get("correlation")
        r = runtime.get(c) if c is not None and len(pids.get(c, ())) == 1 else None
        s = ns(e["ts"])
        acts.append({"i": len(acts), "s": s, "e": s + ns(e["dur"]), "dev": device_of(e), "stream": a.get("stream", 0),
                     "kernel": e["cat"] in KERNEL_CATS,
                     "cls": classify(e, ops.get(a.get("External id"))),
                     "launch": (ns(r["ts"]), ns(r["dur"]), r.get("pid")) if r is not None else None,
                     "graph": r is not None and r.get("name", "") in ("cudaGraphLaunch", "hipGraphLaunch")})
    owner = steps(events, acts, any(a["launch"] is not None for a in acts))
    if sel is not None:
        acts = [a for a in acts if a["i"] in owner and (sel == "all" or owner[a["i"]] == int(sel))]
    devices = []
    for dev in sorted({a["dev"] for a in acts}):
        da = [a for a in acts if a["dev"] == dev]
        per = []
        for n in sorted({owner[a["i"]] for a in da if a["i"] in owner}):
            sa = [a for a in da if owner.get(a["i"]) == n]
            per.append({"step": n, "activities": len(sa), "breakdown": breakdown(sa)})
        devices.append({"id": dev, "breakdown": breakdown(da), "idle_causes": idle_causes(da), "launch": launch(da),
                        "queue": queue(da), "step_breakdown": per})
    json_out = {"trace": path, "devices": devices}
    import json
    print(json.dumps(json_out, indent=1, default=float))


if __name__ == "__main__":
    main()
