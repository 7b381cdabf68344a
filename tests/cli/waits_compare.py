# waits_compare.py - compares profana's --format json waits members (breakdown, idle_causes, launch, queue, step_breakdown) with tests/cli/waits_oracle.py's, to 0.01 us, and checks that the breakdown sums to the span and the causes to the idle time; prints PASS/FAIL lines. Usage: waits_compare.py NAME GOT.json WANT.json
import json
import sys

sys.path.insert(0, "tests/cli")
from raw import check  # noqa: E402

US = 0.01          # microseconds: the tolerance
name, got, want = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))


def near(a, b, tol=US):
    if b is None or a is None:
        return a is None and b is None
    return abs(a - b) <= tol


def same(tag, g, w, keys, tol=US):
    bad = [(k, g.get(k), w.get(k)) for k in keys if not near(g.get(k), w.get(k), tol)]
    check(name, tag, not bad, "got/want %s" % bad)


gd = {d["id"]: d for d in got["devices"]}
check(name, "devices %s" % sorted(gd), sorted(gd) == [d["id"] for d in want["devices"]],
      "want %s" % [d["id"] for d in want["devices"]])
BK = ("span_us", "compute_us", "communication_us", "memcpy_us", "memset_us", "idle_us", "communication_total_us")
for w in want["devices"]:
    g = gd.get(w["id"])
    if g is None:
        continue
    dev = "dev %s" % w["id"]
    gb, wb = g["breakdown"], w["breakdown"]
    same(dev + " breakdown (span %.3f us, idle %.3f us)" % (wb["span_us"], wb["idle_us"]), gb, wb, BK)
    same(dev + " overlap_pct", gb, wb, ("overlap_pct",))
    parts = sum(gb[k] for k in ("compute_us", "communication_us", "memcpy_us", "memset_us", "idle_us"))
    check(name, dev + " breakdown sums to the span", near(parts, gb["span_us"]), "%s vs %s" % (parts, gb["span_us"]))
    gc, wc = g["idle_causes"], w["idle_causes"]
    big = max(("host_wait_us", "launch_latency_us", "unattributed_us"), key=lambda k: wc[k])
    same(dev + " idle causes (largest %s %.3f us)" % (big, wc[big]), gc, wc,
         ("host_wait_us", "launch_latency_us", "unattributed_us"))
    check(name, dev + " gaps %d" % wc["gaps"], gc["gaps"] == wc["gaps"], gc["gaps"])
    causes = gc["host_wait_us"] + gc["launch_latency_us"] + gc["unattributed_us"]
    check(name, dev + " causes sum to idle", near(causes, gb["idle_us"]), "%s vs %s" % (causes, gb["idle_us"]))
    gl, wl = g["launch"], w["launch"]
    check(name, dev + " launch count %d, launch_bound %d" % (wl["count"], wl["launch_bound"]),
          (gl["count"], gl["launch_bound"]) == (wl["count"], wl["launch_bound"]), (gl["count"], gl["launch_bound"]))
    same(dev + " launch call mean, delay p50/p99", gl, wl, ("call_us_mean", "delay_us_p50", "delay_us_p99"))
    check(name, dev + " histogram", [(h["bin"], h["count"]) for h in gl["histogram"]] ==
          [(h["bin"], h["count"]) for h in wl["histogram"]] and
          all(near(a["time_us"], b["time_us"]) for a, b in zip(gl["histogram"], wl["histogram"])),
          "got %s want %s" % (gl["histogram"], wl["histogram"]))
    check(name, dev + " queue streams", [q["stream"] for q in g["queue"]] == [q["stream"] for q in w["queue"]],
          "got %s want %s" % ([q["stream"] for q in g["queue"]], [q["stream"] for q in w["queue"]]))
    qbad = [(a, b) for a, b in zip(g["queue"], w["queue"])
            if a["max_depth"] != b["max_depth"] or not near(a["empty_us"], b["empty_us"])
            or not near(a["mean_depth"], b["mean_depth"], 1e-6)]
    check(name, dev + " queue depth per stream", not qbad, qbad[:3])
    gs = {s["step"]: s for s in g["step_breakdown"]}
    check(name, dev + " steps %s" % sorted(gs), sorted(gs) == [s["step"] for s in w["step_breakdown"]],
          [s["step"] for s in w["step_breakdown"]])
    sbad = [s["step"] for s in w["step_breakdown"] if s["step"] in gs and
            (gs[s["step"]]["activities"] != s["activities"] or
             not all(near(gs[s["step"]]["breakdown"][k], s["breakdown"][k]) for k in BK))]
    check(name, dev + " breakdown per step", not sbad, "steps %s" % sbad)
    # the headline's idle finding names the largest cause measured here, with its share
    idle_f = [f["text"] for f in g["headline"]["findings"] if f["kind"] == "idle"]
    if idle_f and wb["idle_us"] > 0:
        share = "%.2f%% of the idle time" % (100 * wc[big] / wb["idle_us"])
        words = {"host_wait_us": "is host wait", "launch_latency_us": "is launch latency",
                 "unattributed_us": "launch call is not in the trace"}[big]
        check(name, dev + " headline: idle finding names %s (%s)" % (big, share),
              share in idle_f[0] and words in idle_f[0], idle_f[0])
    # where communication dominates, the finding weighs the advice to overlap it by what the raw
    # events say: the share of it compute already hides and the share of the span it holds alone
    comm_f = [f["text"] for f in g["headline"]["findings"]
              if f["kind"] == "dominant" and f["text"].startswith("communication takes")]
    if comm_f and wb["communication_total_us"] > 0:
        want_s = "%.2f%% of it overlapped with compute, %.2f%% of the span exposed" % (
            wb["overlap_pct"], 100 * wb["communication_us"] / wb["span_us"])
        check(name, dev + " headline: communication finding with the measured overlap (%s)" % want_s,
              want_s in comm_f[0], comm_f[0])
