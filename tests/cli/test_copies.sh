# test_copies.sh - a memcpy's DRAM bytes: a device-to-device copy reads and writes its bytes (2x args.bytes), host<->device copies touch device memory once (1x); checked against the raw events and against the copy's shapes by hand.
. tests/cli/lib.sh

"$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --quiet --format json --group shape >"$TMP/shape.json"
"$PROFANA" --analysis testdata/peer/owlv2_h100.json.gz bf16 --quiet --format json >"$TMP/owl.json"
"$PROFANA" --analysis testdata/peer/owlv2_mi300.json.gz bf16 --quiet --format json >"$TMP/mi300.json" 2>/dev/null

python3 - "$TMP" "$TRACES/eager_bf16.json" <<'PY' || fail "copies: checker" "exited $?"
import json
import sys

sys.path.insert(0, "tests/cli")
import raw

tmp, eager = sys.argv[1:3]


def check(what, ok, why=""):
    raw.check("copies", what, ok, why)


def rows(path):
    return {r["name"]: r for r in json.load(open(path))["devices"][0]["rows"]}


# eager_bf16: aten::copy_ of an fp32 [8,512,1024] into an fp32 [8,512,1024], done by a DtoD
# memcpy, 3 times: each reads and writes 8*512*1024*4 = 16777216 bytes, 33554432 in DRAM;
# the row holds 3 * 33554432 = 100663296, as a same-dtype copy kernel would count it.
events = raw.load(eager)
ops = {e["args"]["External id"]: e for e in events if e.get("cat") == "cpu_op" and "External id" in e["args"]}
copies = [a for a in raw.gpu_acts(events) if a["name"].startswith("Memcpy DtoD")]
by_hand = 0
for a in copies:
    op = ops[a["args"]["External id"]]
    dims, types = op["args"]["Input Dims"], op["args"]["Input type"]
    n = 1
    for x in dims[1]:
        n *= x
    check("eager_bf16: the memcpy's args.bytes are the copied tensor's (%d elements of %s)" % (n, types[1]),
          a["args"]["bytes"] == n * 4 and types[1] == "float")
    by_hand += 2 * n * 4
row = [r for name, r in rows("%s/shape.json" % tmp).items() if name.startswith("aten::copy_") and r["source"] == "memcpy"]
check("eager_bf16: the DtoD copy_ row holds 2 x its bytes: %d by hand" % by_hand,
      len(row) == 1 and row[0]["bytes"] == by_hand == 100663296, str([r["bytes"] for r in row]))

# owlv2 on H100 and MI300X: each memcpy kind's row against args.bytes from the raw events.
for trace, path in (("testdata/peer/owlv2_h100.json.gz", "owl.json"), ("testdata/peer/owlv2_mi300.json.gz", "mi300.json")):
    got = rows("%s/%s" % (tmp, path))
    want = {}
    for a in raw.gpu_acts(raw.load(trace)):
        if a["cat"] == "gpu_memcpy" and "bytes" in a["args"]:
            want[a["name"]] = want.get(a["name"], 0) + a["args"]["bytes"] * (2 if "DtoD" in a["name"] else 1)
    kinds = sorted(want)
    check("%s: HtoD, DtoH and DtoD copies present (%s)" % (trace, ", ".join(k.split(" (")[0] for k in kinds)),
          len(kinds) == 3 and any("HtoD" in k for k in kinds) and any("DtoH" in k for k in kinds))
    for k in kinds:
        check("%s: %s bytes = %s x args.bytes = %d" % (trace, k, 2 if "DtoD" in k else 1, want[k]),
              k in got and got[k]["bytes"] == want[k], str(got.get(k, {}).get("bytes")))
PY
