# test_time_ends.sh - times at the ends of the range the loader takes (|ts| <= 2^61 ns): the timeline's bins and the queue-depth sum in 64-bit-safe arithmetic (issue 48 defect 4), figures by hand.
. tests/cli/lib.sh

# Four 1 ms kernels on stream 7 of one device: A at L = -2305843009213693 us, launched at L; B,
# C, D back to back ending at H = 2305843009213693 us, launched at L+1, L+2, L+3 us. The span
# S = H - L = 4611686018427386000 ns (146 years: a bin number times it overflowed int64 past
# 127 days). The queue (launch to end, d = 1e6 ns), by hand:
#   [L, L+1us) 1, [L+1, L+2us) 2, [L+2, L+3us) 3, [L+3us, L+d) 4, [L+d, H-2d) 3 (B, C, D queued),
#   [H-2d, H-d) 2, [H-d, H) 1
# weighted = 1000 + 2*1000 + 3*1000 + 4*(d-3000) + 3*(S-3d) + 2d + d = 3S - 2d - 6000 (past
# int64: before, the mean printed -1.00), mean = 3 - (2d + 6000)/S. One idle gap [L+d, H-3d),
# ended by B, launched long before it: all launch latency, S - 4d = 4611686018423386000 ns.
python3 - "$TMP/ends.json" <<'PY'
import json, sys
L, H, d = -2305843009213693, 2305843009213693, 1000
def k(i, ts, lts):
    return [{"ph": "X", "cat": "kernel", "name": "kern%d" % i, "pid": 0, "tid": 7, "ts": ts, "dur": d,
             "args": {"device": 0, "stream": 7, "correlation": i}},
            {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": lts, "dur": 0,
             "args": {"correlation": i}}]
ev = k(1, L, L) + k(2, H - 3 * d, L + 1) + k(3, H - 2 * d, L + 2) + k(4, H - d, L + 3)
json.dump({"deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85031714816,
                                 "numSms": 132}], "traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$PROFANA" --analysis "$TMP/ends.json" bf16 --waits --format json --plot timeline "$TMP/ends.svg" --report "$TMP/ends.html" \
    >"$TMP/ends.out" 2>"$TMP/err"
check_eq "int64 ends: exit 0" "$?" 0
got=$(python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
def find(o):
    if isinstance(o, dict):
        if 'mean_depth' in o:
            yield o
        for v in o.values():
            yield from find(v)
    elif isinstance(o, list):
        for v in o:
            yield from find(v)
qs = list(find(d))
S, dd = 4611686018427386000, 1000000
want = 3 - (2 * dd + 6000) / S
print(len(qs), qs[0]['max_depth'], abs(qs[0]['mean_depth'] - want) <= 1e-9 * want)" "$TMP/ends.out")
check_eq "int64 ends: one queue, max depth 4, mean depth 3 - (2d + 6000)/S by hand" "$got" "1 4 True"
"$PROFANA" --analysis "$TMP/ends.json" bf16 --waits >"$TMP/ends.txt" 2>&1
check_grep "int64 ends: the text's mean depth 3.00, not negative" "3.00 on average" "$TMP/ends.txt"

# The timeline: 840 bins across S. The idle lane has the gap in every bin (it starts in bin 0
# and ends in bin 839: before, half of them were missing); the stream lane has A in bin 0 and
# B, C, D in bin 839 (before, the last kernels were missing); its busy time 4d.
lanes() {
    python3 - "$1" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
for lane in re.findall(r'<g class="lane[^"]*".*?</g>', s, re.S):
    head = lane.split('>')[0]
    xs = [float(x) for x in re.findall(r'<rect class="bin"[^>]*? x="([-0-9.e]+)"', lane)]
    a = dict(re.findall(r'(data-[a-z-]+)="([^"]*)"', head))
    kind = "idle" if "idle" in head else "stream"
    print(kind, len(xs), "%g" % min(xs), "%g" % max(xs), a.get("data-busy-ns", a.get("data-launch-latency-ns")))
PY
}
lanes "$TMP/ends.svg" >"$TMP/lanes"
check_eq "int64 ends: the stream lane: bins 0 and 839 (x 130 and 969), busy 4d" "$(grep ^stream "$TMP/lanes")" "stream 2 130 969 4000000"
check_eq "int64 ends: the idle lane: all 840 bins, launch latency S - 4d" "$(grep ^idle "$TMP/lanes")" "idle 840 130 969 4611686018423386000"
lanes "$TMP/ends.html" >"$TMP/lanes.html"
check_eq "int64 ends: --report's timeline the same" "$(cat "$TMP/lanes.html")" "$(cat "$TMP/lanes")"
