# ranks_nodes_gen.py - test_ranks_nodes.sh's rank sets and its oracle: copies of the bundled tensor-parallel pair as N ranks, each with distributedInfo.rank, a top-level host_name (or none) and its collectives moved to the process group its rank's pair names; and, from the raw events alone, the nodes, each matched collective's placement (one node or several) and the transfer (fastest kernel) and skew (last minus first start) summed per placement, as --ranks' JSON gives them.
# Usage: python3 ranks_nodes_gen.py gen OUTDIR PAIR0 PAIR1 NODES   (NODES: comma-separated host of each rank, '-' for none; ranks 2k and 2k+1 form group "pair k")
#        python3 ranks_nodes_gen.py check OUTDIR PROFANA_JSON   (prints PASS/FAIL lines)
import gzip
import json
import os
import sys


def load(p):
    with (gzip.open if p.endswith(".gz") else open)(p, "rt") as f:
        return json.load(f)


def gen(out, p0, p1, nodes):
    os.makedirs(out, exist_ok=True)
    pair = [load(p0), load(p1)]
    hosts = nodes.split(",")
    for r, host in enumerate(hosts):
        d = json.loads(json.dumps(pair[r % 2]))
        d["distributedInfo"]["rank"] = r
        if host != "-":
            d["host_name"] = host
        for e in d["traceEvents"]:
            a = e.get("args")
            if isinstance(a, dict) and "Process Group Name" in a:
                a["Process Group Name"] = "pair %d" % (r // 2)
                a["Process Group Ranks"] = "[%d, %d]" % (r // 2 * 2, r // 2 * 2 + 1)
        with open(os.path.join(out, "rank%02d.json" % r), "w") as f:
            json.dump(d, f)


def collectives(d):
    """The collective kernels of one rank by start: (pg, name, ts_ns, dur_ns), as the trace gives them."""
    ks = []
    for i, e in enumerate(d["traceEvents"]):
        a = e.get("args") or {}
        if e.get("cat") == "kernel" and e.get("ph") == "X" and "Collective name" in a:
            ks.append((round(e["ts"] * 1000), i, a["Process Group Name"], a["Collective name"], round(e["dur"] * 1000)))
    ks.sort()
    return [(pg, name, ts, dur) for ts, _, pg, name, dur in ks]


def check(out, got_path):
    got = json.load(open(got_path))
    ranks = {}
    for f in sorted(os.listdir(out)):
        if f.endswith(".json"):
            d = load(os.path.join(out, f))
            ranks[d["distributedInfo"]["rank"]] = d
    host = {r: d.get("host_name") for r, d in ranks.items()}
    ok = True

    def say(name, cond, detail=""):
        nonlocal ok
        ok &= bool(cond)
        print(("PASS " if cond else "FAIL ") + name + ("" if cond else " (%s)" % detail))

    # the node column: each rank's host_name, null without one
    node_col = {row["rank"]: row.get("node") for row in got["ranks"]}
    say("node column", node_col == host, "%s vs %s" % (node_col, host))
    known = all(h is not None for h in host.values())
    say("node count", got["nodes"] == (len(set(host.values())) if known else None), got["nodes"])
    # instances: per group, the k-th collective of each of its ranks
    inst = {}
    for r, d in ranks.items():
        seen = {}
        for pg, name, ts, dur in collectives(d):
            k = seen.get(pg, 0)
            seen[pg] = k + 1
            inst.setdefault((pg, k), []).append((r, name, ts, dur))
    split = {"intra": [0, 0, 0], "inter": [0, 0, 0]}
    for key, m in inst.items():
        if len(m) != 2 or m[0][1] != m[1][1]:
            continue
        where = "intra" if host[m[0][0]] == host[m[1][0]] else "inter"
        split[where][0] += 1
        split[where][1] += min(x[3] for x in m)
        split[where][2] += max(x[2] for x in m) - min(x[2] for x in m)
    for where in ("intra", "inter"):
        g = got[where + "_node"]
        if not known:
            say(where + "-node unknown", g is None, g)
            continue
        c, t, s = split[where]
        say(where + "-node instances", g is not None and g["instances"] == c, "%s vs %d" % (g, c))
        say(where + "-node transfer", g is not None and abs(g["transfer_us"] - t / 1000) <= 0.002 * max(1, c), "%s vs %.3f" % (g, t / 1000))
        say(where + "-node skew", g is not None and abs(g["skew_us"] - s / 1000) <= 0.002 * max(1, c), "%s vs %.3f" % (g, s / 1000))
    # each collectives row's placement
    want_row = {}
    for (pg, k), m in inst.items():
        if len(m) == 2 and all(host[x[0]] is not None for x in m):  # this group's own ranks
            want_row[pg] = "intra" if host[m[0][0]] == host[m[1][0]] else "inter"
    # an inter-node row has no Link %: the device's link peak (NVLink) is not the network's
    say("inter-node rows without link_pct", all(r.get("link_pct") is None for r in got["collectives"] if r.get("nodes") == "inter"))
    rows_ok = all(row.get("nodes") == want_row.get(row["process_group"]) for row in got["collectives"])
    say("collectives rows' Nodes", rows_ok, [(r["process_group"], r.get("nodes")) for r in got["collectives"]])
    return ok


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(*sys.argv[2:6])
    else:
        sys.exit(0 if check(sys.argv[2], sys.argv[3]) else 1)
