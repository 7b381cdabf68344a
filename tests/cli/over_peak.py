# over_peak.py - reads --analysis JSON (one file per argument) and prints one line per kernel, op or shape row whose FLOPS % or BW % is above 100 without a cache or ~ub mark (cache_served, upper_bound), and per row whose launches all have inferred figures yet shows none.
import json
import sys

for path in sys.argv[1:]:
    d = json.load(open(path))
    for dev in d["devices"]:
        for r in dev["rows"]:
            for key in ("flops_pct", "bw_pct"):
                v = r.get(key)
                if v is not None and v > 100 and not r.get("cache_served") and not r.get("upper_bound"):
                    print("%s: %s %s %.1f%% (source %s)" % (d["trace"], r["name"][:80], key, v, r.get("source")))
            if r.get("source") == "inferred" and r.get("flop") is None and r.get("bytes") is None:
                print("%s: %s inferred but shows no figures" % (d["trace"], r["name"][:80]))
