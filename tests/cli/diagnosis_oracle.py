# diagnosis_oracle.py - the time of a planted or known cause of slowness, read from a trace's raw events independently of profana (test_diagnosis.sh compares each first finding's time_us with it).
#   python3 diagnosis_oracle.py TRACE CAUSE   prints the cause's time in us, where CAUSE is
#     frame:TEXT      GPU idle (host-wait part of each gap) while the launching thread was inside a
#                     user annotation or Python frame whose name contains TEXT
#     sync:TEXT       the gaps that begin while the launching thread is in a runtime call whose name
#                     contains TEXT, or that such a call holds for most of its length
#     attention       GPU time of the kernels whose op touches an [.., S, S] score matrix
#                     (S >= 256: an input of that shape, or a matmul [.., S, D] x [.., D, S])
#     fp32_matmul     GPU time of kernels of mm/addmm/bmm/matmul/linear ops on float tensors
#     pageable        GPU time of the copies from or to pageable host memory
#     idle_short      GPU idle in gaps under 1 ms whose launching thread was under no annotation
#     annotation:NAME the summed duration of the user annotations named NAME
#     row:TEXT        GPU time of the kernels whose name contains TEXT
import sys
from collections import defaultdict

sys.path.insert(0, "tests/cli")
import raw  # noqa: E402

GPU = ("kernel", "gpu_memcpy", "gpu_memset")


def load(path):
    ev = [e for e in raw.load(path) if isinstance(e, dict)]
    for e in ev:
        if "ts" in e:
            e["ts"] = float(e["ts"])
        if "dur" in e:
            e["dur"] = float(e["dur"])
    return ev


def gaps(ev):
    """Per device (the one with most GPU time), its gaps: (from, to, ending activity)."""
    acts = [e for e in ev if e.get("ph") == "X" and e.get("cat") in GPU]
    by_dev = defaultdict(list)
    for e in acts:
        by_dev[raw.device(e)].append(e)
    dev = max(by_dev, key=lambda d: sum(e["dur"] for e in by_dev[d]))
    a = sorted(by_dev[dev], key=lambda e: e["ts"])
    out, end = [], a[0]["ts"] + a[0]["dur"]
    for e in a[1:]:
        if e["ts"] > end:
            out.append((end, e["ts"], e))
        end = max(end, e["ts"] + e["dur"])
    return out, by_dev[dev]


def launches(ev):
    return {e["args"]["correlation"]: e for e in ev if e.get("cat") in ("cuda_runtime", "cuda_driver")
            and e.get("ph") == "X" and "correlation" in e.get("args", {})}


def overlap(a0, a1, spans):
    """Length of [a0, a1) covered by the union of spans."""
    cov, cur = 0.0, a0
    for s, e in sorted(spans):
        s, e = max(s, cur), min(e, a1)
        if e > s:
            cov += e - s
            cur = e
    return cov


def frame_idle(ev, text):
    gs, _ = gaps(ev)
    calls = launches(ev)
    marks = defaultdict(list)
    for e in ev:
        if e.get("ph") == "X" and e.get("cat") in ("user_annotation", "python_function") and text in e.get("name", ""):
            marks[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"]))
    total = 0.0
    for f, t, e in gs:
        c = calls.get(e.get("args", {}).get("correlation"))
        if not c:
            continue
        host_end = min(t, max(f, c["ts"] + c["dur"]))
        total += overlap(f, host_end, marks[(c["pid"], c["tid"])])
    return total


def sync_idle(ev, text):
    gs, _ = gaps(ev)
    calls = launches(ev)
    syncs = defaultdict(list)
    for e in ev:
        if e.get("ph") == "X" and e.get("cat") in ("cuda_runtime", "cuda_driver") and text in e.get("name", ""):
            syncs[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"]))
    total = 0.0
    for f, t, e in gs:
        c = calls.get(e.get("args", {}).get("correlation"))
        if not c:
            continue
        for s0, s1 in syncs[(c["pid"], c["tid"])]:
            if (s0 <= f + 5 and s1 >= f - 5) or (s0 < t and min(s1, t) - max(s0, f) >= (t - f) / 2):
                total += t - f
                break
    return total


def op_of(ev):
    ops = {}
    for e in ev:
        if e.get("cat") == "cpu_op" and "External id" in e.get("args", {}):
            ops.setdefault(e["args"]["External id"], e)
    return ops


def attention(ev):
    _, acts = gaps(ev)
    ops = op_of(ev)
    def sq(d):
        return isinstance(d, list) and len(d) >= 2 and all(isinstance(x, int) for x in d[-2:]) and d[-1] >= 256 and d[-1] == d[-2]
    seqs = set()
    for o in ops.values():
        if o["name"] in ("aten::_softmax", "aten::softmax", "aten::_safe_softmax", "aten::_softmax_backward_data"):
            d = o["args"].get("Input Dims", [[]])[0]
            if sq(d):
                seqs.add(d[-1])
    total = 0.0
    for a in acts:
        o = ops.get(a.get("args", {}).get("External id"))
        if not o:
            continue
        dims = o["args"].get("Input Dims", [])
        hit = any(sq(d) and d[-1] in seqs for d in dims)
        if not hit and o["name"] in ("aten::bmm", "aten::matmul", "aten::mm") and len(dims) >= 2:
            x, y = dims[0], dims[1]
            hit = len(x) >= 2 and len(y) >= 2 and x[-2] in seqs and x[-2] == y[-1]
        total += a["dur"] if hit else 0
    return total


def fp32_matmul(ev):
    _, acts = gaps(ev)
    ops = op_of(ev)
    total = 0.0
    for a in acts:
        o = ops.get(a.get("args", {}).get("External id"))
        if o and o["name"] in ("aten::mm", "aten::addmm", "aten::bmm", "aten::matmul", "aten::linear") and \
                "float" in o["args"].get("Input type", []) and a.get("cat") == "kernel":
            total += a["dur"]
    return total


def idle_short(ev):
    gs, _ = gaps(ev)
    calls = launches(ev)
    ann = defaultdict(list)
    for e in ev:
        if e.get("ph") == "X" and e.get("cat") == "user_annotation" and not e["name"].startswith("ProfilerStep#"):
            ann[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"]))
    total = 0.0
    for f, t, e in gs:
        c = calls.get(e.get("args", {}).get("correlation"))
        if c and t - f < 1000:
            host_end = min(t, max(f, c["ts"] + c["dur"]))
            total += (host_end - f) - overlap(f, host_end, ann[(c["pid"], c["tid"])])
    return total


def cause_time(path, cause):
    ev = load(path)
    kind, _, arg = cause.partition(":")
    if kind == "frame":
        return frame_idle(ev, arg)
    if kind == "sync":
        return sync_idle(ev, arg)
    if kind == "attention":
        return attention(ev)
    if kind == "fp32_matmul":
        return fp32_matmul(ev)
    if kind == "pageable":
        return sum(e["dur"] for e in ev if e.get("cat") == "gpu_memcpy" and "Pageable" in e.get("name", ""))
    if kind == "idle_short":
        return idle_short(ev)
    if kind == "annotation":
        return sum(e["dur"] for e in ev if e.get("cat") == "user_annotation" and e.get("name") == arg)
    if kind == "row":
        return sum(e["dur"] for e in ev if e.get("cat") == "kernel" and arg in e.get("name", ""))
    raise SystemExit("unknown cause " + cause)


if __name__ == "__main__":
    print("%.3f" % cause_time(sys.argv[1], sys.argv[2]))
