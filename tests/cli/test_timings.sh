# test_timings.sh - --timings and PROFANA_TIMINGS=1: one stderr line per phase, output unchanged, and the phases adding up to the run's wall time as measured from outside (within 5%).
# check: every build
# check: optimised
. tests/cli/lib.sh
set -u

T=$TRACES/eager_bf16.json
"$PROFANA" --analysis "$T" bf16 --quiet -j 2 >"$TMP/plain" 2>"$TMP/plain_err"
check_run "--timings" 0 "$PROFANA" --analysis "$T" bf16 --quiet -j 2 --timings
cp "$TMP/out" "$TMP/timed"
cp "$TMP/err" "$TMP/timed_err"
check_eq "--timings: stdout unchanged" "$(cmp -s "$TMP/plain" "$TMP/timed" && echo same)" same
for phase in "read or map" "scan" "model build" "link and sort" "attribution" "aggregation" "render" "free" \
    "sum of phases" "total"; do
    check_grep "--timings: a line for $phase" "^profana: timings: $phase  *[0-9][0-9.]* s" "$TMP/timed_err"
done
check_grep "--timings: the scan says its threads" "^profana: timings: scan  *[0-9.]* s  *[12] thread" "$TMP/timed_err"
check_eq "--timings: nothing else on stderr" "$(grep -vc '^profana: timings: ' "$TMP/timed_err")" \
    "$(grep -c . "$TMP/plain_err")"
PROFANA_TIMINGS=1 "$PROFANA" --analysis "$T" bf16 --quiet >/dev/null 2>"$TMP/env_err"
check_eq "PROFANA_TIMINGS=1: the same lines" "$(grep -c '^profana: timings: ' "$TMP/env_err")" \
    "$(grep -c '^profana: timings: ' "$TMP/timed_err")"
PROFANA_TIMINGS=0 "$PROFANA" --analysis "$T" bf16 --quiet >/dev/null 2>"$TMP/env0_err"
check_eq "PROFANA_TIMINGS=0: none" "$(grep -c '^profana: timings: ' "$TMP/env0_err")" 0
# the lines sum: the phases (overlapped ones apart) against the "sum of phases" line
check_near "--timings: the phase lines add up to the sum line" \
    "$(awk '/^profana: timings: / && !/sum of phases|total|overlapped/ { sub(/^profana: timings: [a-z ]*[a-z] +/, ""); s += $1 } END { printf "%.6f", s }' "$TMP/timed_err")" \
    "$(sed -n 's/^profana: timings: sum of phases *\([0-9.]*\) s/\1/p' "$TMP/timed_err")" 0.001

gz=testdata/peer/owlv2_h100.json.gz
"$PROFANA" --analysis "$gz" bf16 --quiet --timings >/dev/null 2>"$TMP/gz_err"
check_grep "--timings .json.gz: inflate, overlapped with the scan" "^profana: timings: inflate .*overlapped" "$TMP/gz_err"

# Against the wall clock seen from outside, on a trace large enough (tens of MB) that
# starting and ending the process is a small part: a copy of eager_bf16.json's events with
# shifted times, written by Python. On a shared machine another process can take the CPU
# between the exit and the parent's clock, so the closest of three runs counts; the process's
# start and exit without a trace (`--version`) are taken off the wall clock. Under
# valgrind (PROFANA a wrapper, no build beside it) the tool's own start and exit dominate:
# skipped; under AddressSanitizer its leak check at exit is turned off for these runs.
if ! [ -x "$(dirname "$PROFANA")/bench/gen_trace" ]; then
    echo "SKIP --timings: the phases sum to the wall time: $PROFANA is not a build's binary (valgrind)"
    exit 0
fi
python3 - "$T" "$TMP/big.json" <<'PYEOF'
import json, sys
t = json.load(open(sys.argv[1]))
ev = t["traceEvents"]
out = []
for k in range(25):
    for e in ev:
        e2 = dict(e)
        if "ts" in e2 and isinstance(e2["ts"], (int, float)):
            e2["ts"] = e2["ts"] + k * 1e6
        out.append(e2)
t["traceEvents"] = out
json.dump(t, open(sys.argv[2], "w"))
PYEOF
best=$(python3 - "$PROFANA" "$TMP/big.json" <<'PYEOF'
import os, re, subprocess, sys, time
env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
# what starting and ending the process takes without a trace (a sanitizer's runtime: tens of ms,
# a tenth of this run), the least of three `--version` runs, is no phase of the analysis
start = None
for _ in range(3):
    t0 = time.monotonic()
    subprocess.run([sys.argv[1], "--version"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    start = min(start or 1e9, time.monotonic() - t0)
best = None
for _ in range(3):
    t0 = time.monotonic()
    p = subprocess.run([sys.argv[1], "--analysis", sys.argv[2], "bf16", "--quiet", "--timings"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    wall = time.monotonic() - t0 - start
    m = re.search(r"sum of phases +([0-9.]+) s", p.stderr)
    if p.returncode or not m:
        print("error"); sys.exit(0)
    off = abs(float(m.group(1)) - wall) / wall
    best = off if best is None or off < best else best
print("%.4f" % best)
PYEOF
)
check_eq "--timings: the phases sum to the wall time within 5% (off by $best)" \
    "$(awk -v b="$best" 'BEGIN { print (b != "error" && b <= 0.05) ? "yes" : "no" }')" yes

# The memory column: each phase's rise of the peak resident memory, which add up to at most
# the peak on the total line; that peak against the kernel's own count for the whole process
# (wait4's ru_maxrss, read here in Python), which can exceed it only by what the exit adds.
mem=$(python3 - "$PROFANA" "$TMP/big.json" <<'PYEOF'
import os, re, subprocess, sys
env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":detect_leaks=0")
p = subprocess.Popen([sys.argv[1], "--analysis", sys.argv[2], "bf16", "--quiet", "--timings"],
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
err = p.stderr.read()
_, status, ru = os.wait4(p.pid, 0)
rises = [float(x) for x in re.findall(r"thread[s ] +([+-][0-9.]+) MB peak$", err, re.M)]
total = re.search(r"total .* ([0-9.]+) MB peak resident memory$", err, re.M)
if status or not total or len(rises) < 6:
    print("error"); sys.exit(0)
peak, kernel = float(total.group(1)), ru.ru_maxrss / 1024.0
ok = all(r >= 0 for r in rises) and sum(rises) <= peak + 0.05 * len(rises) and peak <= kernel + 0.05 \
    and kernel - peak < 2.0
print("yes %.1f %.1f %.1f" % (sum(rises), peak, kernel) if ok else "no %.1f %.1f %.1f" % (sum(rises), peak, kernel))
PYEOF
)
check_eq "--timings: MB peak per phase sum to at most the total's peak, which is the kernel's (rises, peak, kernel: ${mem#* })" \
    "${mem%% *}" yes
