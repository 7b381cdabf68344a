# ranks_oracle.py - the figures of --ranks computed from the raw events with Python's json module, independently of profana: per rank, and per rank and ProfilerStep#N (the GPU work whose launch call, found by correlation, starts inside the CPU-side step window of its process), GPU, busy, communication (NCCL kernels by name), exposed communication (communication minus compute kernels, by interval subtraction), idle, span, compute (the union of the other kernels); collectives matched by process group and order; stragglers. Prints one JSON document shaped like profana's.
import json
import sys
from decimal import Decimal

sys.path.insert(0, "tests/cli")
from raw import GPU_CATS, device, ns, union  # noqa: E402

import gzip  # noqa: E402

ELEM = {"BFloat16": 2, "Half": 2, "Float": 4, "Double": 8}
LINK_GBPS = {"NVIDIA H200": 450.0, "NVIDIA H100 80GB HBM3": 450.0}


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f, parse_float=Decimal)


def is_comm(e):
    n = e["name"].lower()
    return e["cat"] == "kernel" and ("nccl" in n or "rccl" in n)


def is_compute(e):
    return e["cat"] == "kernel" and not is_comm(e)


def merge(spans):
    out = []
    for s, e in sorted(spans):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def minus(a, b):
    """Length of the union of a not covered by the union of b (interval subtraction)."""
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


def times(ev, r):
    """Adds the figures of the GPU activities ev, device by device, to r."""
    r.update({k: r.get(k, 0) for k in ("gpu", "busy", "comm", "exposed", "span", "compute")})
    for dev in sorted({device(e) for e in ev}):
        acts = [e for e in ev if device(e) == dev]
        iv = lambda xs: [(ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])) for e in xs]
        allv = iv(acts)
        r["gpu"] += sum(b - a for a, b in allv)
        r["busy"] += union(allv)
        r["span"] += max(b for _, b in allv) - min(a for a, _ in allv)
        r["comm"] += union(iv([e for e in acts if is_comm(e)]))
        r["compute"] += union(iv([e for e in acts if is_compute(e)]))
        r["exposed"] += minus(iv([e for e in acts if is_comm(e)]), iv([e for e in acts if is_compute(e)]))
    r["idle"] = r["span"] - r["busy"]
    return r


def step_of(d, ev):
    """Step number per GPU activity (by id()): the CPU-side ProfilerStep#N window of the
    process whose launch call (same correlation) starts inside it."""
    allev = d["traceEvents"]
    wins = [(e["pid"], ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), int(e["name"].split("#")[1])) for e in allev
            if e.get("ph") == "X" and e.get("cat") == "user_annotation" and e.get("name", "").startswith("ProfilerStep#")]
    launch = {}
    for e in allev:
        if e.get("ph") == "X" and e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {}):
            launch.setdefault(e["args"]["correlation"], e)
    out = {}
    for a in ev:
        r = launch.get(a["args"].get("correlation"))
        if r is None:
            continue
        for pid, t0, t1, n in wins:
            if pid == r["pid"] and t0 <= ns(r["ts"]) < t1:
                out[id(a)] = n
    return out


def rank_figures(path, order):
    d = load(path)
    ev = [e for e in d["traceEvents"] if e.get("ph") == "X" and e.get("cat") in GPU_CATS]
    rank = d.get("distributedInfo", {}).get("rank", order)
    r = times(ev, {"rank": rank, "trace": path})
    owner = step_of(d, ev)
    r["steps"] = [times([e for e in ev if owner.get(id(e)) == n], {"rank": rank, "step": n})
                  for n in sorted(set(owner.values()))]
    colls = []
    for e in sorted((e for e in ev if is_comm(e)), key=lambda e: ns(e["ts"])):
        a = e["args"]
        if "Collective name" not in a:
            continue
        nbytes = max(a["In msg nelems"], a["Out msg nelems"]) * ELEM[a["dtype"]]
        colls.append((a["Process Group Name"], a["Collective name"], nbytes, a["Group size"],
                      ns(e["ts"]), ns(e["dur"])))
    dev_name = d["deviceProperties"][0]["name"] if d.get("deviceProperties") else ""
    return r, colls, dev_name


def factor(name, n):
    s = name.replace("_", "").lower()
    if "allreduce" in s:
        return 2 * (n - 1) / n
    if "allgather" in s or "reducescatter" in s:
        return (n - 1) / n
    if "broadcast" in s:
        return 1.0
    return None


def main(paths):
    ranks, per_rank, devs = [], {}, set()
    for i, p in enumerate(paths):
        r, colls, dev = rank_figures(p, i)
        ranks.append(r)
        per_rank[r["rank"]] = colls
        devs.add(dev)
    ranks.sort(key=lambda r: r["rank"])
    link = LINK_GBPS.get(devs.pop()) if len(devs) == 1 else None
    inst = {}
    for rank, colls in per_rank.items():
        seq = {}
        for c in colls:
            k = (c[0], seq.get(c[0], 0))
            seq[c[0]] = k[1] + 1
            inst.setdefault(k, []).append((rank, c))
    rows, late, wait = {}, {r["rank"]: 0 for r in ranks}, {r["rank"]: 0 for r in ranks}
    matched = 0
    for k, members in inst.items():
        c0 = members[0][1]
        if len(members) != c0[3]:
            continue
        matched += 1
        starts = [c[4] for _, c in members]
        last = max(starts)
        if last > min(starts):
            who = min(rk for rk, c in members if c[4] == last)
            late[who] += 1
            wait[who] += sum(last - s for s in starts)
        row = rows.setdefault((c0[1], c0[0], c0[2]), {"count": 0, "transfer": 0, "skew": 0, "n": c0[3], "skew_max": 0})
        row["skew_max"] = max(row["skew_max"], last - min(starts))
        row["count"] += 1
        row["transfer"] += min(c[5] for _, c in members)
        row["skew"] += last - min(starts)
    out = {"ranks": [{"rank": r["rank"], "gpu_us": r["gpu"] / 1000, "busy_us": r["busy"] / 1000,
                      "comm_us": r["comm"] / 1000, "exposed_comm_us": r["exposed"] / 1000,
                      "idle_us": r["idle"] / 1000, "span_us": r["span"] / 1000,
                      "compute_us": r["compute"] / 1000} for r in ranks],
           "steps": [{"rank": st["rank"], "step": st["step"], "gpu_us": st["gpu"] / 1000, "busy_us": st["busy"] / 1000,
                      "comm_us": st["comm"] / 1000, "exposed_comm_us": st["exposed"] / 1000,
                      "idle_us": st["idle"] / 1000, "span_us": st["span"] / 1000} for r in ranks for st in r["steps"]],
           "collectives": [], "matched": matched,
           "stragglers": sorted(({"rank": k, "late": late[k], "wait_us": wait[k] / 1000} for k in late),
                                key=lambda s: (-s["wait_us"], -s["late"], s["rank"]))}
    for (name, pg, nbytes), row in sorted(rows.items()):
        algbw = row["count"] * nbytes / row["transfer"]
        busbw = algbw * factor(name, row["n"])
        out["collectives"].append({"name": name, "process_group": pg, "bytes": nbytes, "count": row["count"],
                                   "transfer_us": row["transfer"] / 1000 / row["count"],
                                   "skew_us": row["skew"] / 1000 / row["count"],
                                   "skew_max_us": row["skew_max"] / 1000,
                                   "algbw_gbps": algbw, "busbw_gbps": busbw,
                                   "link_pct": 100 * busbw / link if link else None})
    print(json.dumps(out))


main(sys.argv[1:])
