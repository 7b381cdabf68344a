# percentiles.py - each row's nearest-rank p50/p90/p99 and population standard deviation, read from the raw events with Python's json module: the CLI tests' oracle for the spread columns (issue 31 item 5).
import json
import sys

sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts, device, ns  # noqa: E402
from per_call import invocations, op_of  # noqa: E402

TOL_US = 0.01


def spread(values):
    """(p50, p90, p99, std) in ns of a list of ns: the ceil(p n / 100)-th smallest value
    (nearest rank), and the population standard deviation, computed here without numpy."""
    v = sorted(values)
    n = len(v)
    pct = [v[max(1, -(-p * n // 100)) - 1] for p in (50, 90, 99)]
    mean = sum(v) / n
    std = (sum((x - mean) ** 2 for x in v) / n) ** 0.5
    return tuple(pct) + (std,)


def kernel_samples(events):
    """Per (device, kernel name): every launch's duration."""
    out = {}
    for a in gpu_acts(events):
        out.setdefault((device(a), a["name"]), []).append(ns(a["dur"]))
    return out


def op_samples(events):
    """Per (device, op name): every invocation's summed GPU time (per_call.invocations' rule:
    an activity without an op is an invocation of its own, named after the kernel)."""
    out = {}
    for (dev, _), (name, _launches, t, _op) in invocations(events).items():
        out.setdefault((dev, name), []).append(t)
    return out


def shape_samples(events):
    """Per (device, op name): the invocations' times per distinct (shapes, types, values)."""
    groups = {}
    for (dev, _), (name, _launches, t, op) in invocations(events).items():
        args = op.get("args", {}) if op else {}
        key = json.dumps([args.get("Input Dims"), args.get("Input type"), args.get("Concrete Inputs")], default=str)
        groups.setdefault((dev, name, key), []).append(t)
    out = {}
    for (dev, name, _), v in groups.items():
        out.setdefault((dev, name), []).append(v)
    return out


OLD_CATS = {"Kernel": "kernel", "Memcpy": "gpu_memcpy", "Memset": "gpu_memset", "Operator": "cpu_op"}


def normalise(events):
    """Kineto 1.8's spelling (cat Kernel, Memcpy, Memset, Operator; args "external id") as
    today's, so that the old trace is read by the same rules."""
    for e in events:
        if e.get("cat") in OLD_CATS:
            e["cat"] = OLD_CATS[e["cat"]]
            args = e.get("args", {})
            if "external id" in args and "External id" not in args:
                args["External id"] = args["external id"]
    return events


def near(row, want):
    got = [row.get(k) for k in ("p50_us", "p90_us", "p99_us", "std_us")]
    return all(g is not None and abs(g - w / 1000.0) <= TOL_US for g, w in zip(got, want))


def fmt(want):
    return "(%s)" % ", ".join("%.3f" % (w / 1000.0) for w in want)


def check(group, trace, ours, events=None):
    """Failures of profana's JSON (--top 0) against the raw events (read from trace unless given:
    normalise only renames, so one reading serves several groups); and how many rows matched."""
    events = normalise(load(trace) if events is None else events)
    bad, n = [], 0
    if group == "shape":
        want = shape_samples(events)
        got = {}
        for dev in ours["devices"]:
            for r in dev["rows"]:
                name = op_of(r["name"], [k[1] for k in want if k[0] == dev["id"]])
                got.setdefault((dev["id"], name), []).append(r)
        for key in sorted(set(want) | set(got), key=str):
            # match each row to the shape group of its count and total, then compare spreads
            pool = [(len(v), sum(v), spread(v)) for v in want.get(key, [])]
            for r in got.get(key, []):
                hit = [p for p in pool if p[0] == r["count"] and p[1] == round(r["total_us"] * 1000) and near(r, p[2])]
                if not hit:
                    bad.append("%s %s: p50/p90/p99/std (%s, %s, %s, %s) match no shape group"
                               % (key, r["name"], r["p50_us"], r["p90_us"], r["p99_us"], r["std_us"]))
                    continue
                pool.remove(hit[0])
                n += 1
            if pool:
                bad.append("%s: %d shape groups without a row" % (key, len(pool)))
    else:
        want = (kernel_samples if group == "kernel" else op_samples)(events)
        seen = set()
        for dev in ours["devices"]:
            for r in dev["rows"]:
                key = (dev["id"], r["name"])
                seen.add(key)
                if key not in want:
                    bad.append("%s: no such row in the raw events" % (key,))
                    continue
                w = spread(want[key])
                if not near(r, w):
                    bad.append("%s: got (%s, %s, %s, %s), want %s"
                               % (key, r["p50_us"], r["p90_us"], r["p99_us"], r["std_us"], fmt(w)))
                n += 1
        missing = set(want) - seen
        if missing:
            bad.append("rows missing: %s" % sorted(missing, key=str)[:5])
    # the Total row: every sample of the device
    per_dev = {}
    samples = {"kernel": kernel_samples, "op": op_samples}.get(group, op_samples)(events)
    for (dev, _), v in samples.items():
        per_dev.setdefault(dev, []).extend(v)
    for dev in ours["devices"]:
        w = spread(per_dev.get(dev["id"], [0]))
        if not near(dev["total"], w):
            t = dev["total"]
            bad.append("device %s Total: got (%s, %s, %s, %s), want %s"
                       % (dev["id"], t["p50_us"], t["p90_us"], t["p99_us"], t["std_us"], fmt(w)))
    return bad, n


if __name__ == "__main__":
    # percentiles.py GROUP[,GROUP...] TRACE OURS...: one line per group, the trace read once
    groups, trace, paths = sys.argv[1].split(","), sys.argv[2], sys.argv[3:]
    events = load(trace)
    for group, path in zip(groups, paths):
        fails, n = check(group, trace, json.load(open(path)), events)
        print(" | ".join(fails[:8]) if fails else "ok %d" % n)
