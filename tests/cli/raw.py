# raw.py - reads traces with Python's own json module, independently of profana, for the CLI tests' expected figures.
import gzip
import json
from decimal import Decimal

GPU_CATS = ("kernel", "gpu_memcpy", "gpu_memset")


def load(path):
    """The trace's events, numbers as Decimal so microseconds convert to exact nanoseconds."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        d = json.load(f, parse_float=Decimal)
    return d["traceEvents"] if isinstance(d, dict) else d


def read_bytes(path):
    """The file's bytes, decompressed when it is gzip (told by its magic, as profana does)."""
    data = open(path, "rb").read()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def check(name, what, ok, why=""):
    """One PASS or FAIL line, which tests/run.sh counts."""
    print("PASS %s: %s" % (name, what) if ok else "FAIL %s: %s (%s)" % (name, what, why))


def ns(v):
    return int(Decimal(v) * 1000)


def gpu_acts(events):
    return [e for e in events if e.get("ph") == "X" and e.get("cat") in GPU_CATS]


def device(e):
    return e["args"].get("device", e.get("pid"))


def union(spans):
    """Length of the union of [start, end) intervals."""
    total, cur = 0, None
    for s, e in sorted(spans):
        if cur is None or s > cur[1]:
            if cur:
                total += cur[1] - cur[0]
            cur = [s, e]
        else:
            cur[1] = max(cur[1], e)
    return total + (cur[1] - cur[0] if cur else 0)
