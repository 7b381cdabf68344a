# collectives_oracle.py - one rank's collectives read from the raw events with Python's json module: per (collective, process group, group size, bytes) the count, total time, algbw, busbw and link %, the oracle of test_collectives.sh (issue 31 item 7).
import json
import sys

sys.path.insert(0, "tests/cli")
from raw import load, ns  # noqa: E402

# element sizes of the dtypes PyTorch writes in a collective's args
ELEM = {"BFloat16": 2, "Half": 2, "Float": 4, "Double": 8, "Long": 8, "Int": 4, "Short": 2, "Char": 1, "Byte": 1,
        "Bool": 1, "Float8_e4m3fn": 1, "Float8_e5m2": 1, "Float8_e4m3fnuz": 1, "Float8_e5m2fnuz": 1}


def bus_factor(name, n):
    """nccl-tests doc/PERFORMANCE.md, written out here: all-reduce 2(n-1)/n; all-gather,
    reduce-scatter, all-to-all (n-1)/n; broadcast, reduce 1."""
    s = name.lower().replace("_", "")
    if "allreduce" in s:
        return 2.0 * (n - 1) / n
    if "allgather" in s or "reducescatter" in s or "alltoall" in s:
        return (n - 1) / n
    if "broadcast" in s or "reduce" in s or "send" in s or "recv" in s:
        return 1.0
    return None


def coll_args(kernel, by_corr, ops):
    """The collective args of a kernel: its own, else those of the cpu_op its launch call
    (by correlation) or its own External id names."""
    a = kernel.get("args", {})
    if "Collective name" in a:
        return a
    ext = a.get("External id")
    if ext is None and a.get("correlation") in by_corr:
        ext = by_corr[a["correlation"]].get("args", {}).get("External id")
    for op in ops.get(ext, []):
        if "Collective name" in op.get("args", {}):
            return op["args"]
    return None


def rows(events, is_comm):
    by_corr = {e["args"]["correlation"]: e for e in events
               if e.get("ph") == "X" and e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {})}
    ops = {}
    for e in events:
        if e.get("ph") == "X" and e.get("cat") == "cpu_op" and "External id" in e.get("args", {}):
            ops.setdefault(e["args"]["External id"], []).append(e)
    out, kernels, no_args = {}, 0, 0
    for k in events:
        if k.get("ph") != "X" or k.get("cat") != "kernel" or not is_comm(k["name"]):
            continue
        kernels += 1
        a = coll_args(k, by_corr, ops)
        if a is None:
            no_args += 1
            continue
        n = max(a.get("In msg nelems", -1), a.get("Out msg nelems", -1))
        size = n * ELEM[a["dtype"]] if n >= 0 and a.get("dtype") in ELEM else None
        key = (a["Collective name"], str(a.get("Process Group Name", "")), a.get("Group size", 0), size)
        r = out.setdefault(key, [0, 0])
        r[0] += 1
        r[1] += ns(k["dur"])
    return out, kernels, no_args


def link_for(spec, n):
    """The link's peak per direction for a group of n: "switch:G" (NVLink through NVSwitch: G
    whatever n), "mesh:G:L" (xGMI: one link of G to each of L peers, n - 1 of them used), or
    "none"."""
    f = spec.split(":")
    if f[0] == "switch":
        return float(f[1])
    if f[0] == "mesh":
        return float(f[1]) * min(n - 1, int(f[2]))
    return None


def check(trace, ours, link, pattern):
    """Failures of profana's JSON "collectives" against the raw events."""
    pats = pattern.split("|")
    want, kernels, no_args = rows(load(trace), lambda name: any(p in name for p in pats))
    got = ours.get("collectives") or {"rows": [], "kernels": 0, "no_args": 0}
    bad = []
    if (got["kernels"], got["no_args"]) != (kernels, no_args):
        bad.append("kernels %s, without args %s; want %s, %s" % (got["kernels"], got["no_args"], kernels, no_args))
    seen = set()
    for r in got["rows"]:
        key = (r["name"], r["process_group"] or "", r["group_size"] or 0, r["bytes"])
        seen.add(key)
        if key not in want:
            bad.append("%s: no such collective in the raw events" % (key,))
            continue
        count, t = want[key]
        algbw = count * key[3] / t if key[3] is not None else None
        f = bus_factor(key[0], key[2])
        busbw = algbw * f if algbw is not None and f is not None else None
        peak = link_for(link, key[2])
        pct = 100 * busbw / peak if busbw is not None and peak else None
        ok = r["count"] == count and abs(r["total_us"] - t / 1000.0) <= 0.01 \
            and abs(r["mean_us"] - t / count / 1000.0) <= 0.01
        for g, w in ((r["algbw_gbps"], algbw), (r["busbw_gbps"], busbw), (r["link_pct"], pct)):
            ok = ok and ((g is None and w is None) or (g is not None and w is not None and abs(g - w) <= 1e-6 * max(1, w)))
        if not ok:
            bad.append("%s: got count %s total %s algbw %s busbw %s link %s; want %s %s %s %s %s"
                       % (key, r["count"], r["total_us"], r["algbw_gbps"], r["busbw_gbps"], r["link_pct"],
                          count, t / 1000.0, algbw, busbw, pct))
    if set(want) - seen:
        bad.append("rows missing: %s" % sorted(set(want) - seen, key=str)[:4])
    return bad, len(seen)


if __name__ == "__main__":
    trace, ours, link, pattern = sys.argv[1:5]
    fails, n = check(trace, json.load(open(ours)), link, pattern)
    print("\n".join(fails[:8]) if fails else "ok %d" % n)
