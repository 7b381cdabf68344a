# gen_summaries.py - `make bench`'s many ranks: N rank summaries (--summary files) made from the two of one rank pair, rank r a copy of rank r % 2's with rank r, its own process group per pair ("pair K" of group size 2, so each pair matches its collectives on its own) and every time shifted by pair K times the pair's span, as a job of N ranks would have them. Prints how many communication kernels they hold.
# Usage: python3 tests/bench/gen_summaries.py OUTDIR N SUMMARY_RANK0 SUMMARY_RANK1
import json
import os
import sys

out, n, pair = sys.argv[1], int(sys.argv[2]), [json.load(open(p)) for p in sys.argv[3:5]]
starts = [k["ts_ns"] for s in pair for k in s["comm_kernels"]]
shift = max(starts) - min(starts) + 10**6 if starts else 10**6
kernels = 0
for r in range(n):
    s = json.loads(json.dumps(pair[r % 2]))
    s["rank"] = r
    for k in s["comm_kernels"]:
        k["ts_ns"] += (r // 2) * shift
        if k["process_group"] is not None:
            k["process_group"] = "pair %d" % (r // 2)
    for w in s.get("windows", []):  # each window's start moves with its kernel
        if w[0] >= 0:
            w[0] += (r // 2) * shift
    kernels += len(s["comm_kernels"])
    with open(os.path.join(out, "rank%05d.summary" % r), "w") as f:
        json.dump(s, f, separators=(",", ":"))
print(kernels)
