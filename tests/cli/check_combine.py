# check_combine.py - checks a --combine output against its inputs with Python's own JSON parser: every event in input order, fields changed only as README's rules say, bytes kept.
# Usage: check_combine.py [--light] NAME OUT IN1 IN2 [IN...]; prints PASS/FAIL lines for tests/run.sh.
# --light (inputs not in Kineto's layout): no byte-level and deviceProperties checks.
import functools
import json
import re
import sys
from decimal import Decimal

import raw

light = sys.argv[1] == "--light"
name, outp, inputs = sys.argv[1 + light], sys.argv[2 + light], sys.argv[3 + light:]
check = functools.partial(raw.check, name)
read = raw.read_bytes


def events(doc):
    return doc["traceEvents"] if isinstance(doc, dict) else doc


def args(e):
    a = e.get("args", {})
    return a if isinstance(a, dict) else {}


out_text = read(outp)
out = json.loads(out_text, parse_float=Decimal)
ins = [json.loads(read(p), parse_float=Decimal) for p in inputs]
oev = events(out)
check("output parses as JSON", True)
check("event count = sum of the inputs' (%d)" % sum(len(events(d)) for d in ins),
      len(oev) == sum(len(events(d)) for d in ins))

# Split the output back into the inputs' runs of events, in input order.
runs, at = [], 0
for d in ins:
    runs.append(oev[at:at + len(events(d))])
    at += len(events(d))

# 1. Every event is tagged with its input (and rank), and the pids of two inputs never meet.
bad_tag = []
for k, (d, run) in enumerate(zip(ins, runs)):
    want = {"input": k + 1}
    if isinstance(d, dict) and "rank" in d.get("distributedInfo", {}):
        want["rank"] = d["distributedInfo"]["rank"]
    bad_tag += [e for e in run if isinstance(e, dict) and isinstance(e.get("args", {}), dict) and
                args(e).get("profana_source") != want][:1]
check("every event carries profana_source {input[, rank]} of its input", not bad_tag, str(bad_tag)[:200])
pids = [{repr(e.get("pid")) for e in run if isinstance(e, dict) and "pid" in e} for run in runs]
shared = [(i, j, pids[i] & pids[j]) for i in range(len(pids)) for j in range(i + 1, len(pids)) if pids[i] & pids[j]]
check("no process id is shared by two inputs", not shared, str(shared)[:200])

# 2. Field by field: the only changes are pid (one mapping per input, one-to-one), device
# (+ one shift per input), External id / correlation / flow id (+ one shift per input),
# ts (+ the difference of baseTimeNanoseconds) and the tag.
IDS = ("External id", "correlation", "Python id", "Python parent id")
base0 = ins[0].get("baseTimeNanoseconds") if isinstance(ins[0], dict) else None
for k, (d, run) in enumerate(zip(ins, runs)):
    pid_map, dev_shift, id_shift, diff = {}, set(), set(), []
    base = d.get("baseTimeNanoseconds") if isinstance(d, dict) else None
    ts_shift = Decimal(base - base0) / 1000 if base is not None and base0 is not None else 0
    for a, b in zip(events(d), run):
        if not isinstance(a, dict):
            if a != b:
                diff.append(b)
            continue
        a, b = json.loads(json.dumps(a, default=str)), json.loads(json.dumps(b, default=str))
        if "pid" in a:
            pid_map.setdefault(json.dumps(a["pid"]), set()).add(json.dumps(b["pid"]))
            a.pop("pid"), b.pop("pid")
        if "ts" in a:
            if Decimal(b.pop("ts")) - Decimal(a.pop("ts")) != ts_shift:
                diff.append("ts")
        if a.get("ph") in ("s", "f", "t") and isinstance(a.get("id"), int):
            id_shift.add(b.pop("id") - a.pop("id"))
        ba = args(b)
        ba.pop("profana_source", None)
        if "args" not in a and ba == {}:
            b.pop("args")
        aa = args(a)
        for key in IDS:
            if isinstance(aa.get(key), int):
                id_shift.add(ba.pop(key) - aa.pop(key))
        if isinstance(aa.get("device"), int):
            dev_shift.add(ba.pop("device") - aa.pop("device"))
        if a != b:
            diff.append((a, b))
    check("input %d: events equal but for the documented fields" % (k + 1), not diff, str(diff[:1])[:300])
    targets = [t for v in pid_map.values() for t in v]
    check("input %d: one pid mapping, one-to-one" % (k + 1),
          all(len(v) == 1 for v in pid_map.values()) and len(set(targets)) == len(targets), str(pid_map)[:200])
    check("input %d: one device shift and one id shift" % (k + 1), len(dev_shift) <= 1 and len(id_shift) <= 1,
          "%s %s" % (dev_shift, id_shift))
    if k == 0:
        check("input 1: nothing moves", all(v == {p} for p, v in pid_map.items()) and
              dev_shift <= {0} and id_shift <= {0}, str(pid_map)[:200])
    for p, v in sorted(pid_map.items()):
        print("MAP input %d pid %s -> %s" % (k + 1, p, sorted(v)[0]))
    print("MAP input %d devices %s ids %s" % (k + 1, " ".join(map(str, sorted(dev_shift))) or "-",
                                              " ".join(map(str, sorted(id_shift))) or "-"))

# 3. Bytes: with the tag removed and the changed fields' values blanked, the output is the
# first input with the later inputs' events after its own (Kineto layout), deviceProperties
# aside (checked as JSON below).
if not light and all(isinstance(d, dict) for d in ins):
    TAG = re.compile(rb'(, )?"profana_source": \{"input": \d+(, "rank": -?\d+)?\}')
    FIELDS = re.compile(rb'"(pid|id|External id|correlation|device|ts)": ("[^"]*"|-?[0-9.]+)')
    PROPS = re.compile(rb'"deviceProperties": \[[^\]]*\]')

    def norm(t):
        t = TAG.sub(b"", t).replace(b', "args": {}', b"")
        return PROPS.sub(b"", FIELDS.sub(rb'"\1": #', t))

    texts = [norm(read(p)) for p in inputs]
    first = texts[0]
    end = first.rindex(b"\n  ]")
    middle = b""
    for t, d in zip(texts[1:], ins[1:]):
        if events(d):
            start = t.index(b'"traceEvents": [') + len(b'"traceEvents": [')
            middle += b",\n  " + t[start:t.rindex(b"\n  ]")].lstrip()
    want = first[:end] + middle + first[end:]
    got = norm(out_text)
    check("bytes: the inputs' events copied byte for byte but for the changed fields", got == want,
          "first difference at byte %d" % next((i for i, (x, y) in enumerate(zip(got, want)) if x != y), min(len(got), len(want))))

# 4. deviceProperties: the first input's, then the later inputs' with their ids shifted as
# their events' devices are, an entry whose (id, name) is there already left out.
if not light and isinstance(out, dict):
    want = []
    for k, (d, run) in enumerate(zip(ins, runs)):
        shift = 0
        for a, b in zip(events(d), run):
            if isinstance(a, dict) and isinstance(args(a).get("device"), int):
                shift = b["args"]["device"] - a["args"]["device"]
                break
        for p in (d.get("deviceProperties", []) if isinstance(d, dict) else []):
            q = dict(p, id=p["id"] + shift)
            if not any(w["id"] == q["id"] and w["name"] == q["name"] for w in want):
                want.append(q)
    got = json.loads(json.dumps(out.get("deviceProperties", []), default=str))
    check("deviceProperties merged by id and name", got == json.loads(json.dumps(want, default=str)),
          "%s vs %s" % ([(p["id"], p["name"]) for p in got], [(p["id"], p["name"]) for p in want]))
    first = ins[0] if isinstance(ins[0], dict) else {}
    others = {k: v for k, v in out.items() if k not in ("traceEvents", "deviceProperties")}
    check("other top-level keys: the first input's",
          others == {k: v for k, v in first.items() if k not in ("traceEvents", "deviceProperties")})
sys.exit(0)
