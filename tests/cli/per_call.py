# per_call.py - op rows per invocation, read from the raw events with Python's json module: the CLI tests' oracle for --group op and shape.
import json
import math
import sys

sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts, device, ns  # noqa: E402


def invocations(events):
    """Per (device, invocation) [name, launches, ns, cpu_op]: an invocation is the first cpu_op
    (in file order) of an External id; the GPU activities (kernel, memcpy, memset) with that
    External id are its launches. An activity linked to no cpu_op is an invocation of its
    own, named after the kernel (cpu_op None)."""
    first = {}
    for e in events:
        if e.get("ph") == "X" and e.get("cat") == "cpu_op" and "External id" in e.get("args", {}):
            first.setdefault(e["args"]["External id"], e)
    inv = {}
    for i, a in enumerate(gpu_acts(events)):
        op = first.get(a["args"].get("External id"))
        key = (device(a), id(op) if op else ("unlinked", i))
        v = inv.setdefault(key, [op["name"] if op else a["name"], 0, 0, op])
        v[1] += 1
        v[2] += ns(a["dur"])
    return inv


def op_rows(inv):
    """Per (device, op name): count (invocations), launches, total ns, min and max ns per invocation."""
    rows = {}
    for (dev, _), (name, launches, t, _op) in inv.items():
        r = rows.setdefault((dev, name), [0, 0, 0, None, None])
        r[0] += 1
        r[1] += launches
        r[2] += t
        r[3] = t if r[3] is None else min(r[3], t)
        r[4] = t if r[4] is None else max(r[4], t)
    return rows


def shape_rows(inv):
    """Per (device, op name): the sorted (count, launches, total ns) of its invocations grouped
    by their input shapes, types and concrete values."""
    groups = {}
    for (dev, _), (name, launches, t, op) in inv.items():
        args = op.get("args", {}) if op else {}
        key = json.dumps([args.get("Input Dims"), args.get("Input type"), args.get("Concrete Inputs")], default=str)
        g = groups.setdefault((dev, name, key), [0, 0, 0])
        g[0] += 1
        g[1] += launches
        g[2] += t
    out = {}
    for (dev, name, _), g in groups.items():
        out.setdefault((dev, name), []).append(tuple(g))
    return {k: sorted(v) for k, v in out.items()}


def close(a, b):
    return a is not None and abs(a - b) <= 1e-9 * max(1.0, abs(b))


def check_op(trace, ours, inv=None):
    """Failures of profana's --group op JSON against the raw events (inv: their invocations,
    when already read)."""
    rows, bad = op_rows(inv if inv is not None else invocations(load(trace))), []
    seen = set()
    for dev in ours["devices"]:
        for r in dev["rows"]:
            key = (dev["id"], r["name"])
            seen.add(key)
            want = rows.get(key)
            if not want:
                bad.append("%s: no such op in the raw events" % (key,))
                continue
            count, launches, t, lo, hi = want
            got = (r["count"], r["launches"], round(r["total_us"] * 1000))
            if got != (count, launches, t) or not close(r["mean_us"], t / count / 1000.0) \
                    or not close(r["min_us"], lo / 1000.0) or not close(r["max_us"], hi / 1000.0):
                bad.append("%s: got count %s launches %s total %s mean %s min %s max %s, want %s %s %s %s %s %s"
                           % (key, r["count"], r["launches"], got[2], r["mean_us"], r["min_us"], r["max_us"],
                              count, launches, t, t / count / 1000.0, lo / 1000.0, hi / 1000.0))
        tot = dev["total"]
        want_n = sum(v[0] for k, v in rows.items() if k[0] == dev["id"])
        want_l = sum(v[1] for k, v in rows.items() if k[0] == dev["id"])
        if (tot["count"], tot["launches"]) != (want_n, want_l):
            bad.append("device %s Total: count %s launches %s, want %s %s"
                       % (dev["id"], tot["count"], tot["launches"], want_n, want_l))
    missing = set(rows) - seen
    if missing:
        bad.append("rows missing: %s" % sorted(missing, key=str)[:5])
    return bad


def op_of(row_name, names):
    """The op (or unlinked kernel) name a --group shape row belongs to: the row's name when it
    is one, else the one it starts with followed by "("."""
    if row_name in names:
        return row_name
    return next((n for n in names if row_name.startswith(n + "(")), row_name)


def check_shape(trace, ours, inv=None):
    """Failures of profana's --group shape JSON: per op name, its rows' (count, launches,
    total) are the raw invocations grouped by shapes, and Mean is total / count."""
    want, bad = shape_rows(inv if inv is not None else invocations(load(trace))), []
    got = {}
    for dev in ours["devices"]:
        for r in dev["rows"]:
            if not close(r["mean_us"], r["total_us"] / r["count"]):
                bad.append("%s: mean %s is not total / count" % (r["name"], r["mean_us"]))
            name = op_of(r["name"], [k[1] for k in want if k[0] == dev["id"]])
            got.setdefault((dev["id"], name), []).append((r["count"], r["launches"], round(r["total_us"] * 1000)))
    got = {k: sorted(v) for k, v in got.items()}
    for k in sorted(set(want) | set(got), key=str):
        if want.get(k) != got.get(k):
            bad.append("%s: rows %s, want %s" % (k, got.get(k), want.get(k)))
    return bad


def check_diff(trace_a, trace_b, diff):
    """Failures of a --diff --group op JSON: each matched row's counts are the invocations,
    its ratio the per-call mean of B over A's, and the geomean theirs, from the raw events."""
    sides = [op_rows(invocations(load(p))) for p in (trace_a, trace_b)]
    bad, logs = [], []
    d = diff["devices"][0]
    for r in d["rows"]:
        if r["match"] is None:
            continue
        names = r["name"].split(" vs ") if " vs " in r["name"] else [r["name"], r["name"]]
        per = []
        for side, rows, name in zip("ab", sides, names):
            v = [x for k, x in rows.items() if k[1] == name]
            n, t = sum(x[0] for x in v), sum(x[2] for x in v)
            per.append(t / n)
            if r[side + "_count"] != n:
                bad.append("%s %s: count %s, want %s invocations" % (name, side, r[side + "_count"], n))
        ratio = per[1] / per[0]
        logs.append(math.log(ratio))
        if abs(r["ratio"] - ratio) > 1e-9 * ratio:
            bad.append("%s: ratio %s, want per-call %s" % (r["name"], r["ratio"], ratio))
    geo = math.exp(sum(logs) / len(logs))
    if abs(d["summary"]["geomean"] - geo) > 1e-9 * geo:
        bad.append("geomean %s, want %s" % (d["summary"]["geomean"], geo))
    return bad


if __name__ == "__main__":
    what, paths = sys.argv[1], sys.argv[2:]
    if what == "diff":
        fails = check_diff(*paths[:-1], json.load(open(paths[-1])))
        print("\n".join(fails[:8]) if fails else "ok")
        sys.exit(0)
    # per_call.py op|shape|op,shape TRACE OURS...: one line a group, the trace read once
    inv = invocations(load(paths[0]))
    for group, ours in zip(what.split(","), paths[1:]):
        fails = {"op": check_op, "shape": check_shape}[group](paths[0], json.load(open(ours)), inv)
        print(" | ".join(fails[:8]) if fails else "ok")
