#!/usr/bin/env python3
# critical_path_oracle.py - the critical path of each ProfilerStep window from the raw events
# (HTA's graph as docs/analysis.md, "Critical path" states it), written apart from
# src/analysis/critical_path.c: prints one JSON line per step {"step", "length_us", "cpu_us",
# "gpu_us", "comm_us", "copy_us", "launch_us", "gap_us"}.
import gzip
import json
import sys
from decimal import Decimal

CPU_CATS = {"cpu_op", "Operator"}
RUNTIME_CATS = {"cuda_runtime", "cuda_driver", "Runtime"}
GPU_CATS = {"kernel": "kernel", "Kernel": "kernel", "gpu_memcpy": "copy", "Memcpy": "copy",
            "gpu_memset": "copy", "Memset": "copy"}
SYNCS = {"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize", "cudaMemcpy",
         "cudaMemcpy2D", "cudaMemcpy3D", "cuCtxSynchronize", "cuStreamSynchronize", "cuEventSynchronize",
         "hipDeviceSynchronize", "hipStreamSynchronize", "hipEventSynchronize", "hipMemcpy", "hipMemcpy2D",
         "hipMemcpyWithStream"}
PARTS = ["cpu", "gpu", "comm", "copy", "launch", "gap"]


def ns(x):
    return int(Decimal(str(x)) * 1000) if not isinstance(x, Decimal) else int(x * 1000)


def load(path):
    op = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with op(path, "rt") as f:
        doc = json.load(f, parse_float=Decimal)
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def is_step(name):
    return name.startswith("ProfilerStep#")


def read(path):
    """Host events (dicts with thread, ts, end, name, kind), activities, windows."""
    evs = [e for e in load(path) if isinstance(e, dict) and e.get("ph") == "X" and "dur" in e]
    windows, ops, calls, acts, every = [], [], [], [], {}
    for i, e in enumerate(evs):
        cat, name, args = e.get("cat", ""), e.get("name", ""), e.get("args") or {}
        ts, dur = ns(e["ts"]), ns(e["dur"])
        thread = (str(e.get("pid")), str(e.get("tid")))
        if cat in ("user_annotation", "cpu_op", "Operator") and is_step(name):
            windows.append((ts, ts + dur, int(name.split("#")[1])))
        if cat in CPU_CATS and not is_step(name) and dur > 0:
            ops.append({"thread": thread, "ts": ts, "end": ts + dur, "name": name, "kind": 0})
        elif cat in RUNTIME_CATS:
            calls.append({"thread": thread, "ts": ts, "end": ts + dur, "name": name, "dur": dur,
                          "corr": args.get("correlation"), "sync": name in SYNCS})
        if cat in GPU_CATS:
            every.setdefault((int(args.get("device", -1)), int(args.get("stream", -1))), []).append((ts, i, ts + dur))
        if cat in GPU_CATS and "correlation" in args:
            part = GPU_CATS[cat]
            if part == "kernel":
                low = name.lower()
                part = "comm" if "nccl" in low or "rccl" in low else "gpu"
            acts.append({"i": i, "ts": ts, "end": ts + dur, "dur": dur, "name": name, "part": part,
                         "corr": args["correlation"], "stream": (int(args.get("device", -1)), int(args.get("stream", -1)))})
    prev_end = {}  # the end of the activity before it on its stream, over the whole trace
    for lst in every.values():
        lst.sort()
        for k, (_, i, _) in enumerate(lst):
            prev_end[i] = lst[k - 1][2] if k else None
    for a in acts:
        a["prev_end"] = prev_end[a["i"]]
    by_corr = {}
    for c in calls:
        if c["corr"] is not None:
            by_corr.setdefault(c["corr"], c)
    for a in acts:
        a["call"] = by_corr.get(a["corr"])
    host = ops[:]
    launched = {id(a["call"]) for a in acts if a["call"] is not None}
    for c in calls:
        if c["dur"] > 0 and (c["sync"] or id(c) in launched):
            c["kind"] = 2 if c["sync"] else 1
            host.append(c)
    return sorted(windows), host, [a for a in acts if a["call"] is not None and a["call"]["dur"] > 0]


def path_of(host, acts, ws, we):
    host = [h for h in host if ws <= h["ts"] <= we]
    acts = [a for a in acts if ws <= a["call"]["ts"] <= we]
    node_ts, edges = [], []   # edges: (src, dst, weight, part or None)

    def node(t):
        node_ts.append(t)
        return len(node_ts) - 1

    for h in host:
        h["s"], h["e"] = node(h["ts"]), node(h["end"])
    for a in acts:
        a["s"], a["e"] = node(a["ts"]), node(a["end"])

    def edge(u, v, w, part):
        edges.append((u, v, max(w, 0), part))

    # each thread's call stack, depth first
    threads = {}
    for h in host:
        threads.setdefault(h["thread"], []).append(h)
    for th in sorted(threads):
        evs = sorted(threads[th], key=lambda h: (h["ts"], -(h["end"] - h["ts"]), h["kind"]))
        stack, last, last_top = [], None, None
        for h in evs + [None]:
            while stack and (h is None or h["end"] > stack[-1]["end"]):
                top = stack.pop()
                edge(last, top["e"], 0 if top["kind"] == 2 else top["end"] - node_ts[last], "cpu")
                if stack:
                    last = top["e"]
                else:
                    last, last_top = None, top["e"]
            if h is None:
                break
            if not stack and last_top is not None:
                edge(last_top, h["s"], 0, None)
            if last is not None:
                edge(last, h["s"], h["ts"] - node_ts[last], "cpu")
            stack.append(h)
            last = h["s"]

    # the streams
    streams = {}
    for a in sorted(acts, key=lambda a: (a["stream"], a["ts"], a["i"])):
        streams.setdefault(a["stream"], []).append(a)
    for key in sorted(streams):
        prev = None
        for a in streams[key]:
            edge(a["s"], a["e"], a["dur"], a["part"])
            if a["prev_end"] is None or a["prev_end"] < a["call"]["ts"]:
                edge(a["call"]["s"], a["s"], a["ts"] - a["call"]["ts"], "launch")
            elif prev is not None:
                edge(prev["e"], a["s"], a["ts"] - prev["end"], "gap")
            prev = a

    # syncs: per stream, the last activity launched before the call that ended before it returned
    for h in host:
        if h["kind"] != 2:
            continue
        for key in sorted(streams):
            for a in reversed(streams[key]):
                if a["end"] <= h["end"] and a["call"]["ts"] < h["ts"]:
                    edge(a["e"], h["e"], 0, None)
                    break

    # longest path: topological order, each node's best in-edge (the first of equals)
    n = len(node_ts)
    ins = [[] for _ in range(n)]
    outs = [[] for _ in range(n)]
    for k, (u, v, w, p) in enumerate(edges):
        ins[v].append(k)
        outs[u].append(k)
    deg = [len(x) for x in ins]
    queue = [v for v in range(n) if deg[v] == 0]
    dist, pred = [0] * n, [None] * n
    best = None
    for v in queue:  # grows as it goes
        for k in ins[v]:
            u, _, w, _ = edges[k]
            if pred[v] is None or dist[u] + w > dist[v]:
                dist[v], pred[v] = dist[u] + w, k
        if best is None or (dist[v], node_ts[v]) > (dist[best], node_ts[best]):
            best = v
        for k in outs[v]:
            d = edges[k][1]
            deg[d] -= 1
            if deg[d] == 0:
                queue.append(d)
    split = dict.fromkeys(PARTS, 0)
    v = best
    while v is not None and pred[v] is not None:
        u, _, w, p = edges[pred[v]]
        if p is not None:
            split[p] += w
        v = u
    return split


def main():
    windows, host, acts = read(sys.argv[1])
    if not windows:
        windows = [(-(1 << 62), 1 << 62, None)]
    for ws, we, number in windows:
        split = path_of(host, acts, ws, we)
        out = {"step": number, "length_us": sum(split.values()) / 1e3}
        out.update({p + "_us": split[p] / 1e3 for p in PARTS})
        print(json.dumps(out))


if __name__ == "__main__":
    main()
