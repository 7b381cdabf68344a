# phases_oracle.py - each GPU activity's serving phase read from the raw events with Python's json module (vLLM/SGLang step annotations, else an attention call's query length), summed per device: the oracle of test_phases.sh (issue 31 item 6).
import json
import re
import sys

sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts, device, ns  # noqa: E402

PHASES = ("none", "prefill", "decode", "mixed")
VLLM = re.compile(r"^execute_(?:\d+_)?context_(\d+)\(.*_generation_(\d+)\(")
SGLANG = re.compile(r"^step\[(EXTEND|PREFILL|DECODE|MIXED)[ \]]")
# the query's length dimension of a 4-D query (first argument) per attention op
QUERY_DIM = {"aten::scaled_dot_product_attention": 2, "aten::_scaled_dot_product_flash_attention": 2,
             "aten::_scaled_dot_product_efficient_attention": 2, "aten::_scaled_dot_product_cudnn_attention": 2,
             "aten::_cudnn_attention_forward": 2, "aten::_flash_attention_forward": 1,
             "aten::_efficient_attention_forward": 1, "flash_attn::_flash_attn_forward": 1}


def annotation_phase(name):
    m = VLLM.match(name)
    if m:
        c, g = int(m.group(1)), int(m.group(2))
        return "mixed" if c and g else "prefill" if c else "decode" if g else None
    m = SGLANG.match(name)
    if m:
        return {"EXTEND": "prefill", "PREFILL": "prefill", "DECODE": "decode", "MIXED": "mixed"}[m.group(1)]
    return None


def act_phases(events):
    """Each GPU activity (the event itself) with its phase: none, prefill, decode or mixed."""
    cpu, gpu = [], []
    for e in events:
        if e.get("ph") != "X" or e.get("cat") not in ("user_annotation", "gpu_user_annotation"):
            continue
        p = annotation_phase(e.get("name", ""))
        if p:
            span = (ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), p)
            if e["cat"] == "user_annotation":
                cpu.append(span)
            else:
                gpu.append((device(e),) + span)
    launch = {e["args"]["correlation"]: e for e in events if e.get("ph") == "X" and
              e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in e.get("args", {})}
    first_op = {}
    for e in events:
        if e.get("ph") == "X" and e.get("cat") == "cpu_op" and "External id" in e.get("args", {}):
            first_op.setdefault(e["args"]["External id"], e)
    acts = []
    for a in gpu_acts(events):
        call = launch.get(a["args"].get("correlation"))
        if call:
            t = ns(call["ts"])
            held = [s for s in cpu if s[0] <= t < s[1]]
        else:
            t = ns(a["ts"])
            held = [s[1:] for s in gpu if s[0] == device(a) and s[1] <= t < s[2]]
        p = max(held)[2] if held else None  # the innermost: the latest start
        if p is None:
            ext = a["args"].get("External id", call["args"].get("External id") if call else None)
            op = first_op.get(ext)
            if op and op["name"] in QUERY_DIM:
                dims = (op["args"].get("Input Dims") or [[]])[0]
                if len(dims) == 4:
                    q = dims[QUERY_DIM[op["name"]]]
                    p = "decode" if q == 1 else "prefill" if q > 1 else None
                    p = p and p + "?"  # by the query's length
        acts.append((a, p))
    # a long query is a prefill only in a trace where some attention call decodes
    decoding = any(p == "decode?" for _, p in acts)
    out = [[a, "none" if p is None or (p == "prefill?" and not decoding) else p.rstrip("?")] for a, p in acts]
    if not cpu and not gpu and any(p != "none" for _, p in out):
        spread(events, out, launch, [p is not None and p.endswith("?") for _, p in acts])
    return [tuple(x) for x in out]


def spread(events, out, launch, by_query):
    """Without step annotations, an attention call's phase covers the forward it sits in:
    every activity launched inside the outermost nn.Module call (its thread's) that launched
    phased attention calls takes their phase (both: mixed); then, in launch order, the rest take
    the phase of the phased launches around them, split at the widest launch gap where the two
    differ."""
    calls = {}
    for e in events:
        if e.get("ph") == "X" and e.get("cat") == "python_function" and e.get("name", "").startswith("nn.Module: "):
            calls.setdefault((e["pid"], e["tid"]), []).append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])))
    top = {}
    for th, spans in calls.items():
        kept = []
        for s0, s1 in sorted(spans, key=lambda x: (x[0], -x[1])):
            if not kept or s0 >= kept[-1][1]:
                kept.append((s0, s1))
        top[th] = kept

    def forward(a):
        call = launch.get(a["args"].get("correlation"))
        if not call:
            return None
        t = ns(call["ts"])
        for i, (s0, s1) in enumerate(top.get((call["pid"], call["tid"]), [])):
            if s0 <= t < s1:
                return (call["pid"], call["tid"], i)
        return None

    seen = {}
    for (a, p), q in zip(out, by_query):
        f = forward(a) if q and p != "none" else None
        if f is not None:
            seen.setdefault(f, set()).add(p)
    for x in out:
        if x[1] == "none":
            f = forward(x[0])
            if f in seen:
                x[1] = next(iter(seen[f])) if len(seen[f]) == 1 else "mixed"
    # launch order: the launched activities by their call's start (ties: file order)
    order = []
    for i, x in enumerate(out):
        call = launch.get(x[0]["args"].get("correlation"))
        if call:
            order.append((ns(call["ts"]), i))
    order.sort()
    phased = [k for k, (_, i) in enumerate(order) if out[i][1] != "none"]
    if not phased:
        return
    for k in range(0, phased[0]):
        out[order[k][1]][1] = out[order[phased[0]][1]][1]
    for k in range(phased[-1] + 1, len(order)):
        out[order[k][1]][1] = out[order[phased[-1]][1]][1]
    for lo, hi in zip(phased, phased[1:]):
        before, after = out[order[lo][1]][1], out[order[hi][1]][1]
        split = hi
        if before != after:
            gaps = [(order[k][0] - order[k - 1][0], -k) for k in range(lo + 1, hi + 1)]
            split = -max(gaps)[1]  # the widest gap; the first of equal ones
        for k in range(lo + 1, hi):
            out[order[k][1]][1] = before if k < split else after


def phases(events):
    """Per device: GPU time (ns) per phase."""
    out = {}
    for a, p in act_phases(events):
        d = out.setdefault(device(a), dict.fromkeys(PHASES, 0))
        d[p] += ns(a["dur"])
    return out


if __name__ == "__main__":
    trace, what = sys.argv[1], sys.argv[2]
    want = phases(load(trace))
    if what == "shares":  # profana's JSON (all phases) on stdin: each device's phases member
        ours = json.load(sys.stdin)
        bad = []
        for dev in ours["devices"]:
            w, g = want.get(dev["id"]), dev["phases"]
            known = w and (w["prefill"] or w["decode"] or w["mixed"])
            if not known:
                if g is not None:
                    bad.append("device %s: phases %s, want none" % (dev["id"], g))
                continue
            for p in PHASES:
                if g is None or abs(g[p + "_us"] - w[p] / 1000.0) > 0.01:
                    bad.append("device %s %s: %s us, want %s" % (dev["id"], p, g and g[p + "_us"], w[p] / 1000.0))
        print("\n".join(bad) if bad else "ok")
    else:  # the GPU time (us) of each phase named (comma-separated) per device, as "id:us" words, a line a phase
        for p in what.split(","):
            print(" ".join("%s:%.3f" % (d, v[p] / 1000.0) for d, v in sorted(want.items()) if v[p]))
