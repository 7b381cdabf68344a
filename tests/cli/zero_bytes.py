# zero_bytes.py - the oracle of tests/cli/test_zero_bytes.sh: for one trace, prints a line per op row (its --analysis --group op JSON) and per op invocation (its --augment_trace output, which holds the trace's raw events with the figures added) that counts 0 bytes as known for an op whose kernels ran for a non-zero time; which ops launched which kernels comes from the raw events (External id).
import gzip
import json
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        d = json.load(f)
    return d["traceEvents"] if isinstance(d, dict) else d


def ops_by_ext(events):
    """The first cpu_op of each External id, as the kernels name their op."""
    ops = {}
    for e in events:
        if e.get("ph") == "X" and e.get("cat") == "cpu_op":
            x = (e.get("args") or {}).get("External id")
            if x is not None:
                ops.setdefault(x, e)
    return ops


def ran(e):
    return e.get("ph") == "X" and e.get("cat") == "kernel" and float(e.get("dur", 0)) > 0


def sweep(trace, analysis, augmented):
    events = load(augmented)
    ops = ops_by_ext(events)
    kernels = [e for e in events if ran(e) and (e.get("args") or {}).get("External id") in ops]
    launched = {ops[e["args"]["External id"]]["name"] for e in kernels}
    for dev in json.load(open(analysis))["devices"]:
        for r in dev["rows"]:
            if r["name"] in launched and r["bytes"] == 0:
                print("%s: op row %s: 0 bytes known (source %s), its kernels ran %.3f us"
                      % (trace, r["name"], r["source"], r["total_us"]))
    # --augment_trace splits an op's bytes over its kernels by time: 0 on one that ran only
    # when the op's own bytes are 0
    seen = set()
    for e in kernels:
        x = e["args"]["External id"]
        if e["args"].get("kernel_num_gb") == 0 and x not in seen:
            seen.add(x)
            o = ops[x]
            print("%s: %s (External id %s, Input Dims %s): 0 bytes known, kernel %s ran %s us"
                  % (trace, o["name"], x, json.dumps(o["args"].get("Input Dims"))[:80], e["name"][:60], e["dur"]))


if __name__ == "__main__":
    sweep(*sys.argv[1:4])
