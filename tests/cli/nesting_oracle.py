# nesting_oracle.py - which op each GPU activity of a trace links to, from the raw events, independently of
# profana: by External id (the first cpu_op with it), else by nesting (HTA's rule: the innermost cpu_op on the
# launch call's pid and tid with op.ts <= call.ts and call end <= op end; innermost: latest start, then earliest
# end, then last in file order; a graph launch's kernels take none). Prints JSON: the GPU time linked each way,
# unlinked (and of that: no launch call in the trace, a graph launch, a call outside any op), and the GPU time
# per launching op name (per kernel name where none).
import json
import sys
from decimal import Decimal

sys.path.insert(0, "tests/cli")
import raw  # noqa: E402

GRAPH_LAUNCHES = ("cudaGraphLaunch", "hipGraphLaunch")


def links(events):
    ops = [e for e in events if e.get("ph") == "X" and e.get("cat") == "cpu_op" and "External id" in e.get("args", {})]
    first = {}
    for op in ops:
        first.setdefault(op["args"]["External id"], op)
    calls = {}
    for e in events:
        if e.get("ph") == "X" and e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {}):
            calls.setdefault(e["args"]["correlation"], []).append(e)
    by_thread = {}
    for i, op in enumerate(ops):
        by_thread.setdefault((str(op["pid"]), str(op["tid"])), []).append((i, op))
    out = []
    for a in raw.gpu_acts(events):
        ext = a["args"].get("External id")
        if ext in first:
            out.append((a, first[ext], "external_id", ""))
            continue
        cs = calls.get(a["args"].get("correlation"), [])
        if not cs or len({str(c["pid"]) for c in cs}) > 1 or cs[0]["name"] in GRAPH_LAUNCHES:
            out.append((a, None, "none", "graph" if cs and cs[0]["name"] in GRAPH_LAUNCHES else "no_call"))
            continue
        c = cs[0]
        cts, cend = raw.ns(c["ts"]), raw.ns(c["ts"]) + raw.ns(c["dur"])
        best = None
        for i, op in by_thread.get((str(c["pid"]), str(c["tid"])), []):
            ots, oend = raw.ns(op["ts"]), raw.ns(op["ts"]) + raw.ns(op["dur"])
            if ots <= cts and cend <= oend:
                key = (ots, -oend, i)
                if best is None or key > best[0]:
                    best = (key, op)
        out.append((a, best[1] if best else None, "nesting" if best else "none", "" if best else "outside"))
    return out


def main():
    events = raw.load(sys.argv[1])
    res = {"external_id_us": Decimal(0), "nesting_us": Decimal(0), "none_us": Decimal(0), "nesting_n": 0,
           "none_n": 0, "total_us": Decimal(0), "by_op": {}, "none_graph_us": Decimal(0),
           "none_no_call_us": Decimal(0), "none_outside_us": Decimal(0)}
    for a, op, how, why in links(events):
        dur = Decimal(a["dur"])
        res[how + "_us"] += dur
        if why:
            res["none_" + why + "_us"] += dur
        res["total_us"] += dur
        if how != "external_id":
            res[how + "_n"] += 1
        key = op["name"] if op else a["name"]
        res["by_op"][key] = res["by_op"].get(key, Decimal(0)) + dur
    print(json.dumps(res, default=lambda d: float(d), sort_keys=True))


if __name__ == "__main__":
    main()
