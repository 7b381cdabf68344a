"""ranks_culprit_gen.py - rank sets with a planted straggler for tests/cli/test_ranks_culprit.sh, and the check of --ranks' culprits against what was planted.

  gen OUTDIR N MODE [ARGS]   writes N rank traces into OUTDIR and prints what was planted (JSON)
    N = 2: the bundled tensor-parallel pair; N > 2: copies of its rank 0 (each moved by a
    constant of at most 5 us and its compute kernels' durations by at most 0.5%, seeded)
    MODE none                       nothing planted
    MODE kernel RANK IDX X_US       a kernel of X_US us on RANK just before its IDX-th collective
                                    (start order); what follows on RANK moves X_US later; on the
                                    other ranks that collective waits X_US longer and what follows
                                    it moves X_US later
    MODE gap RANK IDX X_US LABEL    the same as idle GPU time, with a user annotation LABEL of
                                    X_US us on the thread that launches the collective, ending at
                                    its launch
    MODE both RANK IDX X_US RANK2 IDX2 X2_US LABEL   a kernel on RANK and a gap on RANK2
    MODE slow RANK FACTOR           every compute kernel of RANK FACTOR times longer
    MODE data RANK IDX X_US         more work: on RANK the last aten::mm kernel before its IDX-th
                                    collective X_US longer and its op's first input twice as many
                                    rows (Input Dims), what follows X_US later; the others wait as
                                    for a kernel
  check PLANTED.json GOT.json     PASS/FAIL lines: the culprit rank, collective, kernel or gap and
                                  its excess (5%), the verdict; the uniform ratio (2%); none: no
                                  straggler

The expected figures are the planted ones, never profana's.
"""
import gzip
import json
import os
import random
import sys

SRC = "testdata/multirank/tp_collectives_bf16_rank%d.json.gz"
BASE = 4603314000000.0  # every rank's times moved by one constant: small numbers keep 3 decimals exact


def load(path):
    with gzip.open(path, "rt") as f:
        return json.load(f)


def is_gpu(e):
    return e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")


def is_comm(e):
    return e.get("ph") == "X" and e.get("cat") == "kernel" and "Collective name" in e.get("args", {})


def is_compute(e):
    return e.get("ph") == "X" and e.get("cat") == "kernel" and not e["name"].startswith("nccl") and not is_comm(e)


def r3(x):
    return round(x, 3)


def rebase(d, offset):
    for e in d["traceEvents"]:
        if "ts" in e:
            e["ts"] = r3(float(e["ts"]) - BASE + offset)


def ranks(n, seed=45):
    rnd = random.Random(seed)
    if n == 2:
        out = [load(SRC % 0), load(SRC % 1)]
        for d in out:
            rebase(d, 0.0)
        return out
    src = json.dumps(load(SRC % 0))
    out = []
    for r in range(n):
        d = json.loads(src)
        rebase(d, 0.0 if r == 0 else rnd.uniform(-5, 5))
        d["distributedInfo"]["rank"] = r
        d["distributedInfo"]["world_size"] = n
        for e in d["traceEvents"]:
            a = e.get("args")
            if isinstance(a, dict) and "Group size" in a:
                a["Group size"] = n
            if r and is_compute(e):
                e["dur"] = r3(e["dur"] * (1 + rnd.uniform(-0.005, 0.005)))
        out.append(d)
    return out


def comms(d):
    return sorted((e for e in d["traceEvents"] if is_comm(e)), key=lambda e: e["ts"])


def plant(rs, rank, idx, x, gap_label=None):
    """Makes rank `rank` x us late at its idx-th collective; returns what was planted."""
    d = rs[rank]
    c = comms(d)[idx]
    t0 = c["ts"]
    gpu = [e for e in d["traceEvents"] if is_gpu(e)]
    # the window must end in idle time or a kernel's end, not inside a kernel, for the planted
    # time to be all of the excess
    assert not any(e["ts"] < t0 < e["ts"] + e["dur"] for e in gpu), "a kernel runs across the chosen collective's start"
    for e in gpu:
        if e["ts"] >= t0:
            e["ts"] = r3(e["ts"] + x)
    planted = {"rank": rank, "start_us": r3(t0 + x), "excess_us": x, "collective": c["args"]["Collective name"]}
    if gap_label is None:
        k = dict(c)
        k["name"] = "planted_straggler_kernel"
        k["ts"] = r3(t0)
        k["dur"] = x
        k["args"] = {"device": c["args"]["device"], "stream": c["args"]["stream"], "correlation": 999999999}
        d["traceEvents"].append(k)
        planted.update(kind="kernel", label="planted_straggler_kernel")
    else:
        corr = c["args"]["correlation"]
        launch = [e for e in d["traceEvents"] if e.get("cat") in ("cuda_runtime", "cuda_driver")
                  and e.get("args", {}).get("correlation") == corr]
        assert len(launch) == 1, "the collective's launch call"
        lc = launch[0]
        d["traceEvents"].append({"ph": "X", "cat": "user_annotation", "name": gap_label, "pid": lc["pid"],
                                 "tid": lc["tid"], "ts": r3(lc["ts"] - x), "dur": x, "args": {}})
        planted.update(kind="host gap", label=gap_label)
    others_wait(rs, rank, idx, x)
    return planted


def others_wait(rs, rank, idx, x):
    """The ranks but `rank` wait x longer in their idx-th collective; what follows moves x later."""
    for r, o in enumerate(rs):
        if r == rank:
            continue
        oc = comms(o)[idx]
        end = oc["ts"] + oc["dur"]
        for e in o["traceEvents"]:
            if is_gpu(e) and e["ts"] >= end:
                e["ts"] = r3(e["ts"] + x)
        oc["dur"] = r3(oc["dur"] + x)


def plant_data(rs, rank, idx, x):
    """Rank `rank`'s last aten::mm before its idx-th collective runs x us longer on twice the rows."""
    d = rs[rank]
    cs = comms(d)
    c = cs[idx]
    t0 = c["ts"]
    prev_end = max(p["ts"] + p["dur"] for p in cs[:idx]) if idx else float("-inf")
    ops = {}
    for e in d["traceEvents"]:
        a = e.get("args", {})
        if e.get("cat") == "cpu_op" and e.get("name") == "aten::mm" and a.get("Input Dims"):
            ops[a.get("External id")] = e
    mm = [e for e in d["traceEvents"] if is_compute(e) and e["args"].get("External id") in ops
          and prev_end <= e["ts"] and e["ts"] + e["dur"] <= t0]
    assert mm, "an aten::mm kernel in the window"
    k = max(mm, key=lambda e: e["ts"] + e["dur"])
    end = k["ts"] + k["dur"]
    for e in d["traceEvents"]:
        if is_gpu(e) and e is not k and e["ts"] >= end:
            e["ts"] = r3(e["ts"] + x)
    k["dur"] = r3(k["dur"] + x)
    dims = ops[k["args"]["External id"]]["args"]["Input Dims"]
    rows = dims[0][0]
    dims[0] = [2 * rows] + dims[0][1:]
    others_wait(rs, rank, idx, x)
    return {"rank": rank, "start_us": r3(t0 + x), "excess_us": x, "collective": c["args"]["Collective name"],
            "kind": "kernel", "label": "aten::mm", "verdict": "data imbalance",
            "shapes_has": "[%d,%s]" % (2 * rows, ",".join(str(v) for v in dims[0][1:])),
            "median_has": "[%d,%s]" % (rows, ",".join(str(v) for v in dims[0][1:]))}


def gen(argv):
    outdir, n, mode = argv[0], int(argv[1]), argv[2]
    rs = ranks(n)
    if mode == "none":
        planted = {"kind": "none"}
    elif mode == "kernel":
        planted = plant(rs, int(argv[3]), int(argv[4]), float(argv[5]))
    elif mode == "gap":
        planted = plant(rs, int(argv[3]), int(argv[4]), float(argv[5]), argv[6])
    elif mode == "both":
        planted = {"kind": "multi", "items": [plant(rs, int(argv[3]), int(argv[4]), float(argv[5])),
                                              plant(rs, int(argv[6]), int(argv[7]), float(argv[8]), argv[9])]}
    elif mode == "data":
        planted = plant_data(rs, int(argv[3]), int(argv[4]), float(argv[5]))
    elif mode == "slow":
        rank, f = int(argv[3]), float(argv[4])
        for e in rs[rank]["traceEvents"]:
            if is_compute(e):
                e["dur"] = r3(e["dur"] * f)
        planted = {"kind": "slow", "rank": rank, "ratio": f}
    else:
        sys.exit("unknown mode " + mode)
    os.makedirs(outdir, exist_ok=True)
    for r, d in enumerate(rs):
        with open(os.path.join(outdir, "rank%03d.json" % r), "w") as f:
            json.dump(d, f)
    planted["n"] = n
    print(json.dumps(planted))


def check(argv):
    p = json.load(open(argv[0]))
    got = json.load(open(argv[1]))
    name = argv[2]
    ok = [True]

    def say(what, cond, detail=""):
        print("%s %s: %s%s" % ("PASS" if cond else "FAIL", name, what, "" if cond else " (" + detail + ")"))
        ok[0] &= bool(cond)

    verdict = {c["rank"]: c for c in got["culprits"]}
    if p["kind"] == "none":
        say("no late arrival", got["late_arrivals"] == [], str(got["late_arrivals"][:2]))
        say("no straggler", all(c["verdict"] == "no clear straggler" for c in got["culprits"]),
            str([(c["rank"], c["verdict"]) for c in got["culprits"] if c["verdict"] != "no clear straggler"]))
        return ok[0]
    if p["kind"] == "slow":
        c = verdict[p["rank"]]
        say("rank %d compute straggler" % p["rank"], c["verdict"] == "compute straggler", c["verdict"])
        say("rank %d every kernel slower" % p["rank"], c["uniform"] == "yes", str(c))
        r = c["kernel_ratio"]
        say("kernel ratio %s within 2%% of %s" % (r, p["ratio"]), r is not None and abs(r - p["ratio"]) <= 0.02 * p["ratio"])
        others = [k for k in got["culprits"] if k["rank"] != p["rank"] and k["verdict"] != "no clear straggler"]
        say("no other straggler", not others, str(others[:2]))
        return ok[0]
    items = p["items"] if p["kind"] == "multi" else [p]
    for q in items:
        check_planted(q, got, verdict, say)
    planted = {q["rank"] for q in items}
    others = [k for k in got["culprits"] if k["rank"] not in planted and k["verdict"] != "no clear straggler"]
    say("no other straggler", not others, str([(k["rank"], k["verdict"]) for k in others[:3]]))
    return ok[0]


def check_planted(p, got, verdict, say):
    rows = [a for a in got["late_arrivals"] if a["rank"] == p["rank"] and abs(a["start_us"] - p["start_us"]) < 0.002]
    say("rank %d late at the %s starting at %.3f us" % (p["rank"], p["collective"], p["start_us"]), len(rows) == 1,
        "late arrivals: %s" % [(a["rank"], a["start_us"]) for a in got["late_arrivals"]])
    if rows:
        a = rows[0]
        say("collective %s" % a["collective"], a["collective"] == p["collective"], p["collective"])
        say("cause %s" % a["culprit_kind"], a["culprit_kind"] == p["kind"], p["kind"])
        say("culprit %s" % a["culprit"], a["culprit"] == p["label"], p["label"])
        e = a["culprit_excess_us"]
        say("excess %s us within 5%% of %s" % (e, p["excess_us"]),
            e is not None and abs(e - p["excess_us"]) <= 0.05 * p["excess_us"])
        say("late %s us at least the planted %s us less 5%%" % (a["late_us"], p["excess_us"]),
            a["late_us"] >= 0.95 * p["excess_us"])
        if "shapes_has" in p:
            sh, ref = a.get("culprit_shapes") or "", a.get("median_shapes") or ""
            say("its shapes %s hold the planted %s" % (sh, p["shapes_has"]), p["shapes_has"] + "bf16" in sh)
            say("the median rank's %s hold %s, not %s" % (ref, p["median_has"], p["shapes_has"]),
                p["median_has"] + "bf16" in ref and p["shapes_has"] not in ref)
    want = p.get("verdict") or ("compute straggler" if p["kind"] == "kernel" else "host straggler")
    c = verdict.get(p["rank"], {})
    say("rank %d %s" % (p["rank"], want), c.get("verdict") == want, str(c.get("verdict")))


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2:])
    elif sys.argv[1] == "check":
        sys.exit(0 if check(sys.argv[2:]) else 1)
    else:
        sys.exit(__doc__)
