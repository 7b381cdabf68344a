# test_scaling.sh - adversarial shapes doubled three times (issue 48): the Inductor module parser (a module of unclosed `tl.load(ptr + (` lines; many launches over one module) and the timeline's output; time and peak memory grow at most linearly (<= 2.5x a doubling).
. tests/cli/lib.sh

# Each shape at sizes n, 2n, 4n, 8n is generated here, run 3 times, and the best of the 3
# kept (times under ASan, or on a busy machine, vary from run to run): its wall time, its
# peak resident memory and, for the timeline, the SVG's bytes. The peak comes from GNU time
# where it is installed: Linux keeps a process's ru_maxrss across exec, so a child forked
# from Python starts at Python's own (about 10 MB, a floor that hides small growth); without
# it, os.wait4's ru_maxrss of that run alone, floor included. Each doubling must cost at most 2.5x, times plus 50 ms (a process's start and
# the loader's fixed work, which no size doubles, read as noise at small sizes).
python3 - "$PROFANA" "$TMP" >"$TMP/scaling" <<'PY'
import json, os, resource, sys, time

profana, tmp = sys.argv[1], sys.argv[2]
K = "triton_poi_fused_add_0"
DEV = [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85031714816, "numSms": 132}]

def module(path, size, closed):
    head = ("import triton\n@triton_heuristics.pointwise(\n"
            "    triton_meta={'signature': {'in_ptr0': '*bf16', 'out_ptr0': '*bf16', 'xnumel': 'i32', "
            "'XBLOCK': 'constexpr'}},\n)\n@triton.jit\ndef " + K +
            "(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):\n    xindex = xoffset + tl.arange(0, XBLOCK)[:]\n")
    line = "    tmp0 = tl.load(in_ptr0 + (x0 + 1" + ("))\n" if closed else "\n")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(head + line * ((size - len(head)) // len(line)))

def launches(path, n, kernel_file):
    ev = []
    for i in range(n):
        m = 1024 + i  # distinct shapes: each launch is a distinct op invocation
        ev += [{"ph": "X", "cat": "cpu_op", "name": K, "pid": 1, "tid": 1, "ts": 1000 + 100 * i, "dur": 50,
                "args": {"External id": i + 1, "Input Dims": [[m], [m], []],
                         "Input type": ["c10::BFloat16", "c10::BFloat16", "Scalar"],
                         "Concrete Inputs": ["", "", str(m)], "kernel_backend": "triton", "kernel_name": K,
                         "kernel_file": kernel_file}},
               {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                "ts": 1020 + 100 * i, "dur": 5, "args": {"External id": i + 1, "correlation": i + 1}},
               {"ph": "X", "cat": "kernel", "name": K, "pid": 0, "tid": 7, "ts": 1060 + 100 * i, "dur": 10,
                "args": {"External id": i + 1, "device": 0, "stream": 7, "correlation": i + 1}}]
    json.dump({"deviceProperties": DEV, "traceEvents": ev}, open(path, "w"))

def kernels(path, n):
    # n kernels on one stream, 1 us each, 1 us apart, under distinct names: the timeline's input
    ev = [{"ph": "X", "cat": "kernel", "name": "k%d" % (i % 64), "pid": 0, "tid": 7, "ts": 2 * i, "dur": 1,
           "args": {"device": 0, "stream": 7, "correlation": i + 1}} for i in range(n)]
    json.dump({"deviceProperties": DEV, "traceEvents": ev}, open(path, "w"))

GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
RSS = os.path.join(tmp, "rss")

def run(argv, out=None):
    best = None
    if GNU_TIME:
        argv = [GNU_TIME, "-f", "%M", "-o", RSS] + argv
    for _ in range(3):
        pid = os.fork()
        if pid == 0:  # 30 s of CPU at most: a quadratic shape ends as a failure, not a hang
            resource.setrlimit(resource.RLIMIT_CPU, (30, 30))
            fd = os.open(os.devnull, os.O_WRONLY)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            os.execv(argv[0], argv)
        _, status, ru = os.wait4(pid, 0)
        # CPU time (its own and its reaped children's: GNU time's profana), not the wall clock,
        # which a loaded machine stretches at random (CI ran the file beside other tests)
        dt = ru.ru_utime + ru.ru_stime
        if status != 0:
            return None
        rss = int(open(RSS).read().split()[-1]) if GNU_TIME else ru.ru_maxrss
        r = (dt, rss, os.path.getsize(out) if out else 0)
        best = r if best is None else (min(best[0], r[0]), min(best[1], r[1]), r[2])
    return best

def shape(name, sizes, make):
    for n in sizes:
        argv, out = make(n)
        r = run(argv, out)
        print(name, n, *(("%.4f %d %d" % r).split() if r else ["fail", "0", "0"]))
        if not r:
            break

def unclosed(mb):
    d = os.path.join(tmp, "u%d" % mb)
    module(os.path.join(d, "ab", "cabunclosed.py"), mb << 20, False)
    launches(os.path.join(d, "t.json"), 1, os.path.join(d, "ab", "cabunclosed.py"))
    return [profana, "--analysis", os.path.join(d, "t.json"), "bf16"], None

def many(n):
    # n launches over one module of n/50 MB, both doubled: n reads of it would grow as n^2
    t, mod = os.path.join(tmp, "many%d.json" % n), os.path.join(tmp, "m%d" % n, "ab", "cabone.py")
    module(mod, (n // 50) << 20, True)
    launches(t, n, mod)
    return [profana, "--analysis", t, "bf16"], None

def timeline(n):
    t, svg = os.path.join(tmp, "k%d.json" % n), os.path.join(tmp, "k%d.svg" % n)
    kernels(t, n)
    return [profana, "--analysis", t, "bf16", "--plot", "timeline", svg], svg

shape("unclosed", [1, 2, 4, 8], unclosed)          # MB of `tl.load(in_ptr0 + (x0 + 1` lines
shape("launches", [50, 100, 200, 400], many)       # distinct launches over one module of 1 to 8 MB
shape("timeline", [2000, 4000, 8000, 16000], timeline)  # kernels on one stream
PY
check_eq "scaling: every run exits 0" "$(grep -c ' fail ' "$TMP/scaling")" 0
# doubling SHAPE COLUMN WHAT SLACK: each size's figure over the size before's at most 2.5x (+SLACK)
doubling() {
    awk -v s="$1" -v c="$2" -v slack="$4" '$1 == s { if (n++ && $c > 2.5 * prev + slack) bad = bad " " $2 ": " $c " after " prev; prev = $c }
        END { if (n != 4) print "missing sizes"; else if (bad) print "over 2.5x:" bad; else print "ok" }' "$TMP/scaling" >"$TMP/verdict"
    check_eq "scaling: $1: $3 at most 2.5x a doubling ($(awk -v s="$1" -v c="$2" '$1 == s { printf "%s%s", n++ ? " " : "", $c }' "$TMP/scaling"))" "$(cat "$TMP/verdict")" ok
}
doubling unclosed 3 "time (s)" 0.05
doubling unclosed 4 "peak memory (KB)" 0
doubling launches 3 "time (s)" 0.05
doubling launches 4 "peak memory (KB)" 0
doubling timeline 3 "time (s)" 0.05
doubling timeline 4 "peak memory (KB)" 0
doubling timeline 5 "SVG bytes" 0

# The module is read once for all its launches, not once a launch: with strace, where it runs,
# the run of 100 launches opens it once (the one open that names it: the read goes through
# /proc/self/fd).
if command -v strace >/dev/null 2>&1 && strace -f -e trace=none true 2>/dev/null; then
    env ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" strace -f -e trace=open,openat -o "$TMP/strace" \
        "$PROFANA" --analysis "$TMP/many100.json" bf16 >/dev/null 2>&1
    check_eq "scaling: 100 launches over one module: the module opened once" "$(grep -c 'cabone.py' "$TMP/strace")" 1
else
    echo "SKIP scaling: the module opened once (strace cannot trace here)"
fi
