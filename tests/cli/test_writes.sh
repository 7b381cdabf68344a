# test_writes.sh - ops that write rather than read, on real traces: an out= argument written only (DDP's mul(self, scalar, out) on the MI300 ResNet trace, rnn_fft's mul(0-d, other, out)) and an in-place write through an index counted by the part written (kv_decode's index_copy_), each against the raw events' shapes by hand, and no such row above the DRAM peak.
# check: valgrind
. tests/cli/lib.sh

PUBLIC=../shared/testdata/public/tracelens
W=testdata/w2026

python3 - "$PROFANA" "$PUBLIC" "$W" "$TMP" <<'PY' || fail "writes: checker" "exited $?"
import json
import subprocess
import sys

sys.path.insert(0, "tests/cli")
import raw

profana, public, w2026, tmp = sys.argv[1:5]
SIZE = {"c10::BFloat16": 2, "float": 4, "double": 8, "long int": 8}


def check(what, ok, why=""):
    raw.check("writes", what, ok, why)


def numel(dims):
    n = 1
    for d in dims:
        n *= d
    return n


def rows(path, dtype, group):
    out = subprocess.run([profana, "--analysis", path, dtype, "--group", group, "--top", "0", "--format", "json"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)["devices"][0]["rows"]


def launched_ops(events, name):
    """The cpu_ops of that name that launched GPU work (the innermost op of their kernels)."""
    ids = {a["args"].get("External id") for a in raw.gpu_acts(events)}
    return [e for e in events if e.get("cat") == "cpu_op" and e["name"] == name and e["args"].get("External id") in ids]


# ---- DDP's mul(self, 0-d double, out): self read, the scalar read, out written, not read ----
path = public + "/mi300_resnet_act_checkpoint.json.gz"
try:
    ev = raw.load(path)
except OSError:
    print("SKIP writes: %s absent" % path)
    ev = None
if ev is not None:
    want = {}
    for e in launched_ops(ev, "aten::mul"):
        dims, types = e["args"]["Input Dims"], e["args"]["Input type"]
        if len(dims) != 3 or not all(types):
            continue
        # by hand: self numel x size + the 0-d scalar + out numel x size
        per_call = numel(dims[0]) * SIZE[types[0]] + SIZE[types[1]] + numel(dims[2]) * SIZE[types[2]]
        want.setdefault(tuple(map(tuple, dims)), []).append(per_call)
    got = {r["name"]: r for r in rows(path, "bf16", "shape") if r["name"].startswith("aten::mul(")}
    check("MI300 ResNet: mul(self, scalar, out) rows found", len(want) == 17 and len(got) >= 17, "%d %d" % (len(want), len(got)))
    bad = []
    for r in got.values():
        dims = r["name"][len("aten::mul("):-1]
        match = [v for k, v in want.items() if "[%s]" % ",".join(map(str, k[0])) == dims.split("bf16")[0]]
        if not match or abs(r["bytes"] - sum(match[0])) > 0.5 or r["bw_pct"] > 100:
            bad.append((r["name"], r["bytes"], match[0][:1] if match else None))
    check("MI300 ResNet: every mul(self, scalar, out) row = self + scalar + out written, per call", not bad, str(bad[:3]))
    r = got["aten::mul([1000,512]bf16, []fp64, [1000,512]bf16)"]
    # by hand: 1000*512*2 read + 8 + 1000*512*2 written = 2048008 a call (out read too gave 3072008)
    check("MI300 ResNet: mul([1000,512], scalar, out) 2,048,008 B a call", r["bytes"] / r["count"] == 2048008,
          str(r["bytes"] / r["count"]))

# ---- rnn_fft's mul(0-d double, float [64,8192], out float [64,8192]) ----
r = [r for r in rows(w2026 + "/rnn_fft.json.gz", "fp32", "shape")
     if r["name"] == "aten::mul([]fp64, [64,8192]fp32, [64,8192]fp32)"][0]
# by hand: 8 + 64*8192*4 read + 64*8192*4 written = 4194312; FLOP 64*8192 = 524288
check("rnn_fft: mul(0-d, other, out) 4,194,312 B and 524,288 FLOP a call",
      r["count"] == 1 and r["bytes"] == 4194312 and r["flop"] == 524288, str((r["count"], r["bytes"], r["flop"])))
check("rnn_fft: mul(0-d, other, out) not above the DRAM peak", r["bw_pct"] is not None and r["bw_pct"] <= 100,
      str(r["bw_pct"]))

# ---- kv_decode's index_copy_(cache, dim, index, token): the token's part written ----
path = w2026 + "/kv_decode.json.gz"
ev = raw.load(path)
want = 0
for e in launched_ops(ev, "aten::index_copy_"):
    dims, types = e["args"]["Input Dims"], e["args"]["Input type"]
    # by hand: index read + source read + as many elements of self written
    want += numel(dims[2]) * SIZE[types[2]] + 2 * numel(dims[3]) * SIZE[types[0]]
r = [r for r in rows(path, "bf16", "op") if r["name"] == "aten::index_copy_"][0]
check("kv_decode: index_copy_ bytes = index + source + source-sized part of the cache (8 x 262,152)",
      want == 8 * 262152 and r["bytes"] == want, "%s %s" % (want, r["bytes"]))
check("kv_decode: index_copy_ under 100%% of the DRAM peak (was 5937%%): %.1f%%" % r["bw_pct"], r["bw_pct"] < 100)
check("kv_decode: index_copy_ source estimate", r["source"] == "estimate", r["source"])
PY
