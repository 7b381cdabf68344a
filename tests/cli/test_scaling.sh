# test_scaling.sh - adversarial shapes doubled three times (issue 48): the Inductor module parser (a module of unclosed `tl.load(ptr + (` lines; many launches over one module), the timeline's output (one stream; a stream or a device a kernel: the lanes folded into "other", its figures by an oracle), graph matching over graphs that share kernel names, `--group shape` names wrapped, devices of a kernel each, distinct kernel names; time, peak memory and output bytes grow at most linearly (<= 2.5x a doubling).
# check: optimised
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

def lanes(path, n, devices):
    # n kernels, each on a stream (devices: on a device) of its own, at staggered times and
    # lengths: the lanes shape (issue 48 defect 5: 16,000 streams made a 1.5 GB SVG)
    dev = DEV if not devices else [dict(DEV[0], id=d) for d in range(n)]
    ev = [{"ph": "X", "cat": "kernel", "name": "k%d" % (i % 7), "pid": i if devices else 0, "tid": 7 if devices else 7 + i,
           "ts": 3 * i + i % 5, "dur": 1 + i % 9,
           "args": {"device": i if devices else 0, "stream": 7 if devices else 7 + i, "correlation": i + 1}}
          for i in range(n)]
    json.dump({"deviceProperties": dev, "traceEvents": ev}, open(path, "w"))

def streams(n):
    t, svg = os.path.join(tmp, "s%d.json" % n), os.path.join(tmp, "s%d.svg" % n)
    lanes(t, n, False)
    return [profana, "--analysis", t, "bf16", "--plot", "timeline", svg], svg

def devices(n):
    t, html = os.path.join(tmp, "d%d.json" % n), os.path.join(tmp, "d%d.html" % n)
    lanes(t, n, True)
    return [profana, "--analysis", t, "bf16", "--plot", "timeline", os.path.join(tmp, "d%d.svg" % n),
            "--report", html], html

def graphs(n, geo):
    # n captured graphs of one kernel each, all named "k" (graphs that share kernel names, issue
    # 48 defect 6: 20k/40k/80k kernels 3.1/11.8/56.6 s), told apart by their grid (geo) or not at
    # all (every replay then matches every graph: ambiguous); n replays, replay r of graph 7r mod n
    d = os.path.join(tmp, "g%d-%d" % (geo, n))
    os.makedirs(d, exist_ok=True)
    grid = lambda g: ', "grid": [%d, 1, 1], "block": [128, 1, 1]' % (g + 1) if geo else ""
    cap, rep = [], []
    for g in range(n):
        ts, c = 1000 + 10 * g, 2 * g + 1
        cap.append('{"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamBeginCapture", "pid": 1, "tid": 1, "ts": %d, '
                   '"dur": 1, "args": {"correlation": %d}}' % (ts, c))
        cap.append('{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": %d, "dur": 6, "args": '
                   '{"External id": %d, "Input Dims": [[64, 32], [32, 16]], "Input type": ["float", "float"]}}' % (ts + 2, g + 1))
        cap.append('{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": %d, "dur": 2, '
                   '"args": {"External id": %d, "correlation": %d, "kernel": "k"%s}}' % (ts + 3, g + 1, c + 1, grid(g)))
        c = 1000000 + g
        rep.append('{"ph": "X", "cat": "cuda_runtime", "name": "cudaGraphLaunch", "pid": 1, "tid": 1, "ts": %d, "dur": 2, '
                   '"args": {"correlation": %d}}' % (ts, c))
        rep.append('{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": %d, "dur": 4, "args": '
                   '{"device": 0, "stream": 7, "correlation": %d%s}}' % (ts + 3, c, grid(7 * g % n)))
    for name, ev in (("cap.json", cap), ("rep.json", rep)):
        with open(os.path.join(d, name), "w") as f:
            f.write('{"traceEvents": [\n' + ",\n".join(ev) + "]}\n")
    return [profana, "--analysis", os.path.join(d, "rep.json"), "fp32", "--graph-capture", os.path.join(d, "cap.json"),
            "--group", "op", "--format", "json"], None

def wrapped(n):
    # 10 names of n bytes with a comma every 4 (`--group shape`, text) at COLUMNS n/2: each name
    # wraps onto two lines; before, every cut from twice the column down to it was tried on the
    # whole name (issue 48 defect 6: one 40 KB name 9.1 s, 2,000 of 4 KB 191 s at COLUMNS=4000)
    t = os.path.join(tmp, "w%d.json" % n)
    ev = [{"ph": "X", "cat": "kernel", "name": "k%d_" % i + "ab, " * (n // 4), "pid": 0, "tid": 7, "ts": 20 * i,
           "dur": 1 + i, "args": {"device": 0, "stream": 7, "correlation": i + 1}} for i in range(10)]
    json.dump({"deviceProperties": DEV, "traceEvents": ev}, open(t, "w"))
    return ["/usr/bin/env", "COLUMNS=%d" % (n // 2), profana, "--analysis", t, "bf16", "--group", "shape"], None

def onekernel(n):
    # n devices declared and each running one kernel (issue 48 defect 6: 65,536 of them took
    # 1.05 GB): the memory a device costs
    t = os.path.join(tmp, "o%d.json" % n)
    ev = [{"ph": "X", "cat": "kernel", "name": "k", "pid": d, "tid": 7, "ts": 3 * d, "dur": 1 + d % 9,
           "args": {"device": d, "stream": 7, "correlation": d + 1}} for d in range(n)]
    json.dump({"deviceProperties": [dict(DEV[0], id=d) for d in range(n)], "traceEvents": ev}, open(t, "w"))
    return [profana, "--analysis", t, "bf16", "--format", "csv"], None

def names(n):
    # n kernels of n distinct names (issue 48 defect 6: about 20x the file in memory)
    t = os.path.join(tmp, "n%d.json" % n)
    ev = [{"ph": "X", "cat": "kernel", "name": "void kernel_%07d<float, 128>(float*, int)" % i, "pid": 0, "tid": 7,
           "ts": 2 * i, "dur": 1 + i % 5, "args": {"device": 0, "stream": 7, "correlation": i + 1}} for i in range(n)]
    json.dump({"deviceProperties": DEV, "traceEvents": ev}, open(t, "w"))
    return [profana, "--analysis", t, "bf16"], None

def timeline(n):
    t, svg = os.path.join(tmp, "k%d.json" % n), os.path.join(tmp, "k%d.svg" % n)
    kernels(t, n)
    return [profana, "--analysis", t, "bf16", "--plot", "timeline", svg], svg

shape("unclosed", [1, 2, 4, 8], unclosed)          # MB of `tl.load(in_ptr0 + (x0 + 1` lines
shape("launches", [50, 100, 200, 400], many)       # distinct launches over one module of 1 to 8 MB
shape("timeline", [2000, 4000, 8000, 16000], timeline)  # kernels on one stream
shape("streams", [2000, 4000, 8000, 16000], streams)    # a stream a kernel: the timeline's bytes
shape("devices", [256, 512, 1024, 2048], devices)       # a device a kernel: the report's bytes
shape("graphs", [2500, 5000, 10000, 20000], lambda n: graphs(n, 1))     # graphs told apart by grid
shape("ambiguous", [2500, 5000, 10000, 20000], lambda n: graphs(n, 0))  # graphs alike
shape("wrapped", [2000, 4000, 8000, 16000], wrapped)    # bytes of each of 10 names, COLUMNS half that
shape("onekernel", [256, 512, 1024, 2048], onekernel)   # devices of one kernel each
shape("names", [2500, 5000, 10000, 20000], names)       # distinct kernel names
for f in ("o2048", "n20000"):  # the file's bytes: memory as a multiple of them (docs/reliability.md)
    print("size", f, os.path.getsize(os.path.join(tmp, f + ".json")))
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
doubling streams 3 "time (s)" 0.05
doubling streams 5 "SVG bytes" 0
doubling devices 3 "time (s)" 0.05
doubling devices 4 "peak memory (KB)" 0
doubling devices 5 "report bytes" 0
doubling graphs 3 "time (s)" 0.05
doubling ambiguous 3 "time (s)" 0.05
doubling wrapped 3 "time (s)" 0.05
doubling onekernel 3 "time (s)" 0.05
doubling onekernel 4 "peak memory (KB)" 0
doubling names 3 "time (s)" 0.05
doubling names 4 "peak memory (KB)" 0
# Memory as a multiple of the file (docs/reliability.md: the bounds promised): 2,048 devices of
# a kernel each within 22x their file (18.3x measured, 8.9 MB for 488 KB: 2.8 KB a device, its
# report with its Total row, one row and one category row of 416 bytes and its waits, against
# 240 bytes of trace, and the process's own 3.2 MB; main bf36cf1 23x, d5b6da9 77x), 20,000
# distinct names within 10x (9.0x, 33.5 MB for 3.7 MB: a row of 416 bytes, 18 table cells of
# 16 bytes, their texts and the layout a name; main 12.5x). The issue asked for 5x: the floor
# is a report's rows and the text table, laid out whole (each column as wide as its widest
# cell), docs/reliability.md. Main's wrapped keys took 0.08, 0.24, 0.89 and 4.1 s of CPU (4.6x
# a doubling), these 0.03 to 0.07 s.
bound() {
    awk -v s="$1" -v n="$2" -v f="$3" -v x="$4" '$1 == s && $2 == n { kb = $4 } $1 == "size" && $2 == f { b = $3 }
        END { print (kb * 1024 <= x * b ? "ok" : kb " KB for " b " bytes") }' "$TMP/scaling"
}
if ! grep -q __asan_init "$PROFANA" 2>/dev/null && [ -z "${PF_VALGRIND_BIN:-}" ]; then
    check_eq "scaling: onekernel: 2,048 devices' peak memory within 22x the file" "$(bound onekernel 2048 o2048 22)" ok
    check_eq "scaling: names: 20,000 distinct names' peak memory within 10x the file" "$(bound names 20000 n20000 10)" ok
else
    echo "SKIP scaling: memory as a multiple of the file (a sanitizer's shadow memory is no figure of profana's)"
fi

# The matches are those of the rule (docs/analysis.md, --graph-capture): by hand, each of the
# 5,000 replays told apart by grid runs its graph's one aten::mm of 2 x 64 x 32 x 16 = 65,536
# FLOPs; the 5,000 alike are ambiguous, every one.
"$PROFANA" --analysis "$TMP/g1-5000/rep.json" fp32 --graph-capture "$TMP/g1-5000/cap.json" --group op --format json \
    >"$TMP/g1.json" 2>/dev/null
check_eq "scaling: graphs told apart by grid: each replay mapped to its aten::mm" "$(python3 -c '
import json, sys
print(" ".join("%s %d %d" % (r["name"], r["launches"], r["flop"]) for r in json.load(open(sys.argv[1]))["devices"][0]["rows"]))' \
    "$TMP/g1.json")" "aten::mm 5000 327680000"
"$PROFANA" --analysis "$TMP/g0-5000/rep.json" fp32 --graph-capture "$TMP/g0-5000/cap.json" --format json >/dev/null \
    2>"$TMP/g0.err"
check_eq "scaling: graphs alike: every replay ambiguous" \
    "$(grep -c '^profana: note: .*5000 graph-replayed kernels match several captured graphs alike' "$TMP/g0.err")" 1

# The lanes folded (docs/waits.md: at most 64 stream lanes a device, 16 devices): the SVG of
# 16,000 streams (2.4 MB of trace) under 1 MB, and of 2,048 devices too, their "other" lane the
# union of the folded lanes' intervals, by an oracle over the raw events that picks the lanes
# drawn by the rule written down (the busiest, ties to the lower stream or device id).
python3 - "$TMP" >"$TMP/lanes" <<'PY'
import json, os, re, sys
tmp = sys.argv[1]

def union(iv):
    tot, cur_s, cur_e = 0, None, None
    for s, e in sorted(iv):
        if cur_e is None or s > cur_e:
            if cur_e is not None:
                tot += cur_e - cur_s
            cur_s, cur_e = s, e
        else:
            cur_e = max(cur_e, e)
    return tot + (cur_e - cur_s if cur_e is not None else 0)

def check(name, trace, svg, key, keep):
    ev = json.load(open(trace))["traceEvents"]
    lanes = {}
    for e in ev:
        lanes.setdefault(e["args"][key], []).append((e["ts"] * 1000, (e["ts"] + e["dur"]) * 1000))
    busy = {k: union(v) for k, v in lanes.items()}
    shown = sorted(lanes, key=lambda k: (-busy[k], k))[:keep]
    folded = [k for k in lanes if k not in shown]
    text = open(svg).read()
    other = re.search(r'<g class="lane other"([^>]*)>', text)
    attrs = dict(re.findall(r'(data-[a-z-]+)="([^"]*)"', other.group(1))) if other else {}
    pat = r'<g class="lane" data-device="\d+" data-stream="(\d+)"' if key == "stream" else r'<g class="device" data-device="(\d+)"'
    drawn = sorted(int(x) for x in re.findall(pat, text))
    print(name, "size", "ok" if os.path.getsize(svg) < 1 << 20 else "%d bytes" % os.path.getsize(svg))
    print(name, "drawn", "ok" if drawn == sorted(shown) else "%s, want %s" % (drawn[:5], sorted(shown)[:5]))
    print(name, "busy", attrs.get("data-busy-ns"), union([iv for k in folded for iv in lanes[k]]))
    print(name, "lanes", attrs.get("data-lanes"), len(folded))
    print(name, "lanes-busy", attrs.get("data-lanes-busy-ns"), sum(busy[k] for k in folded))
    print(name, "count", attrs.get("data-count"), sum(len(lanes[k]) for k in folded))

check("streams", os.path.join(tmp, "s16000.json"), os.path.join(tmp, "s16000.svg"), "stream", 63)
check("devices", os.path.join(tmp, "d2048.json"), os.path.join(tmp, "d2048.svg"), "device", 15)

# the report of 2,048 devices: its charts those of the 16 busiest, a line saying so, and a
# section of tables for every device
ev = json.load(open(os.path.join(tmp, "d2048.json")))["traceEvents"]
busiest = sorted(sorted(ev, key=lambda e: (-e["dur"], e["args"]["device"]))[i]["args"]["device"] for i in range(16))
html = open(os.path.join(tmp, "d2048.html")).read()
charts = html[html.index("<h2>Charts</h2>"):html.index("<h2>", html.index("<h2>Charts</h2>") + 1)]
drawn = sorted(set(int(x) for x in re.findall(r">Device (\d+):", charts)))
print("report", "charts", "ok" if drawn == busiest else "%s, want %s" % (drawn, busiest))
print("report", "line", "ok" if "The charts show the 16 busiest of the 2048 devices" in charts else "missing")
print("report", "sections", html.count("<h2>Device "), len(ev))
PY
while read -r shape what got want; do
    case $what in
    size | drawn) check_eq "scaling: $shape: the timeline's $what" "$got" ok ;;
    charts | line) check_eq "scaling: $shape: the charts of the 16 busiest devices ($what)" "$got" ok ;;
    sections) check_eq "scaling: $shape: a section for every device" "$got" "$want" ;;
    *) check_eq "scaling: $shape: the other lane's $what (oracle)" "$got" "$want" ;;
    esac
done <"$TMP/lanes"
check_eq "scaling: lanes: the oracle's lines" "$(wc -l <"$TMP/lanes")" 15

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

# The figures of the three shapes above, by an oracle over the raw events: the 10 wrapped names
# in order of time, each on two lines within COLUMNS (its first ending at a comma, the second
# indented by two), with its Total (us) 1 + i; each of the 2,048 devices one row of its kernel
# and its time; each of the 20,000 names one row of one launch and its time.
COLUMNS=8000 "$PROFANA" --analysis "$TMP/w16000.json" bf16 --group shape >"$TMP/w.txt" 2>/dev/null
"$PROFANA" --analysis "$TMP/o2048.json" bf16 --format csv >"$TMP/o.csv" 2>/dev/null
"$PROFANA" --analysis "$TMP/n20000.json" bf16 --format csv >"$TMP/n.csv" 2>/dev/null
python3 - "$TMP" >"$TMP/shapes" <<'PY'
import csv, json, os, sys
tmp = sys.argv[1]
lines = open(os.path.join(tmp, "w.txt")).read().split("\n")
head = next(i for i, l in enumerate(lines) if l.startswith("Op (input shapes)"))
rows = lines[head + 2:head + 22]
names = [l.split(" | ")[0] for l in rows[0::2]]
totals = [l.split(" | ")[4].strip() for l in rows[0::2]]
ok = all(len(l) <= 8000 for l in lines)
ok = ok and [n.split("_")[0] for n in names] == ["k%d" % i for i in range(9, -1, -1)]
ok = ok and all(n.rstrip().endswith(",") for n in names) and all(l.startswith("  ab, ") for l in rows[1::2])
print("wrapped", "layout", "ok" if ok else "bad: %s" % [l[:40] for l in rows[:4]])
want = ["%.3f" % (1 + i) for i in range(9, -1, -1)]
print("wrapped", "totals", "ok" if totals == want else "%s, want %s" % (totals, want))
for name, f, key in (("onekernel", "o2048", "device"), ("names", "n20000", "name")):
    ev = json.load(open(os.path.join(tmp, f + ".json")))["traceEvents"]
    want = sorted(((str(e["args"]["device"]), e["name"]) if key == "device" else ("0", e["name"]), "1", "%.3f" % e["dur"])
                  for e in ev)
    got = sorted(((r["Device"], r["Kernel Name"]), r["Count"], r["Total (us)"])
                 for r in csv.DictReader(open(os.path.join(tmp, f[0] + ".csv"))) if r["Kernel Name"] != "Total")
    print(name, "rows", len(got), len(want))
    print(name, "figures", "ok" if got == want else "differ: %s against %s" % (got[:2], want[:2]))
PY
while read -r shape what got want; do
    case $what in
    figures) check_eq "scaling: $shape: each row's count and time (oracle)" "$got" ok ;;
    rows) check_eq "scaling: $shape: a row each (oracle)" "$got" "$want" ;;
    totals) check_eq "scaling: wrapped: the rows' Total (us), 10 down to 1 by hand" "$got" ok ;;
    *) check_eq "scaling: wrapped: two lines a name within COLUMNS" "$got" ok ;;
    esac
done <"$TMP/shapes"
check_eq "scaling: shapes: the oracle's lines" "$(wc -l <"$TMP/shapes")" 6
