# sequences_oracle.py - repeated kernel sequences from the raw events (the oracle of --group sequence): per device
# and stream, the kernel events by start; every run of 2 to 8 names, counted left to right where an occurrence does
# not overlap the one counted before it; a run occurring twice or more, unless a run one kernel longer that starts
# with it or ends with it occurs as often. Prints JSON {device: [[kernels..., count, total_us], ...]} by total time.
# Usage: python3 sequences_oracle.py TRACE
import gzip
import json
import sys

path = sys.argv[1]
doc = json.load(gzip.open(path) if path.endswith(".gz") else open(path))
ev = doc["traceEvents"] if isinstance(doc, dict) else doc
streams = {}
for i, e in enumerate(ev):
    if e.get("ph") == "X" and e.get("cat") == "kernel" and "ts" in e:
        a = e.get("args", {})
        streams.setdefault((a.get("device", 0), a.get("stream", 0)), []).append((e["ts"], i, e["name"], e["dur"]))

out = {}
for dev in sorted({d for d, _ in streams}):
    seen = {}
    for (d, s), ks in sorted(streams.items()):
        if d != dev:
            continue
        ks.sort()
        names = [k[2] for k in ks]
        durs = [k[3] for k in ks]
        for n in range(2, 9):
            last_end = {}
            for i in range(len(names) - n + 1):
                key = tuple(names[i:i + n])
                c, t = seen.get(key, (0, 0.0))
                if key in last_end and i < last_end[key]:
                    continue
                last_end[key] = i + n
                seen[key] = (c + 1, t + sum(durs[i:i + n]))
    covered = set()  # (run, count) of the runs one kernel shorter than a run seen twice or more
    for k, (c, _) in seen.items():
        if c >= 2 and len(k) > 2:
            covered.add((k[:-1], c))
            covered.add((k[1:], c))
    keep = [list(key) + [c, round(t, 3)] for key, (c, t) in seen.items() if c >= 2 and (key, c) not in covered]
    keep.sort(key=lambda r: (-r[-1], -(len(r) - 2), r[:-2]))
    out[str(dev)] = keep
print(json.dumps(out))
