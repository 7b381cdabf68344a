# test_load.sh - the loader: same output for every -j, gzip and pipes, gzip parsed in parallel, traces cut off (warning, --strict, 10 random cuts per trace, 20 in check-full), the progress bar.
# check: every build
# check: optimised
. tests/cli/lib.sh
set -u

TRACE_SET="$TRACES/*.json $PEER_TRACES"
CUTS=${PF_SWEEP_ALL:+20}
CUTS=${CUTS:-10} # 20 in `make check-full` (tests/cli/test_cut.sh cuts every trace too)
# the sanitizer build (several times slower) cuts each trace at 4 places: the loader's memory
# safety on cut input is also fuzz_load's and fuzz_chunks' job (make fuzz)
grep -q __asan_init "$PROFANA" 2>/dev/null && CUTS=4

# same NAME A B: files A and B are byte for byte equal.
same() {
    if cmp -s "$2" "$3"; then pass "$1"; else fail "$1" "$(diff "$2" "$3" | head -c 300)"; fi
}

# ---- -j N: the same output for every number of threads ----

# (tests/cli/test_jobs.sh compares every trace's JSON at -j 1, 2, 3, 7 and 16; here the text.)
for f in $TRACE_SET; do
    b=$(basename "$f")
    "$PROFANA" --analysis "$f" bf16 --group op -j 1 >"$TMP/j1" 2>"$TMP/e1"
    for j in 2 3 8; do
        "$PROFANA" --analysis "$f" bf16 --group op -j "$j" >"$TMP/jn" 2>"$TMP/en"
        same "$b --format text: -j $j output = -j 1" "$TMP/j1" "$TMP/jn"
        same "$b --format text: -j $j stderr = -j 1" "$TMP/e1" "$TMP/en"
    done
    "$PROFANA" --analysis "$f" bf16 --group op --format json -j 1 >"$TMP/j1" 2>"$TMP/e1"
    # More threads than PF_THREADS_MAX (64): every range still runs (once corrupted the model)
    "$PROFANA" --analysis "$f" bf16 --group op --format json -j 100 >"$TMP/jn" 2>"$TMP/en"
    same "$b: -j 100 output = -j 1" "$TMP/j1" "$TMP/jn"
    same "$b: -j 100 stderr = -j 1" "$TMP/e1" "$TMP/en"
    "$PROFANA" --analysis "$f" bf16 -j2 >"$TMP/j2" 2>/dev/null
    "$PROFANA" --analysis - bf16 -j2 <"$f" >"$TMP/stdin" 2>/dev/null
    same "$b: standard input = the file" "$TMP/j2" "$TMP/stdin"
done

# Events whose names hold "}, {" make the parallel split guess wrong starts; the guesses are
# checked, so the events and their order stay those of one thread (counted by python3).
# ("}, {}" in a name, and arrays of objects in args, look like the seam between two events.)
python3 - "$TMP/tricky.json" <<'EOF'
import json, sys
ev = []
for i in range(3000):
    ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10 * i, "dur": 5,
               "args": {"External id": i, "Input Dims": [[8, 4], [4, 2]], "Input type": ["float", "float"]}})
    ev.append({"ph": "X", "cat": "kernel", "name": "k%d }, {} }, {\"ph\": 1" % i, "pid": 0, "tid": 7,
               "ts": 10 * i + 1, "dur": 2, "args": {"External id": i, "device": 0, "stream": 7,
                                                   "x": [{"a": 1}, {"b": [{}, {"c": "}, {"}]}]}})
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"), indent=1)
EOF
"$PROFANA" --analysis "$TMP/tricky.json" bf16 --format json -j 1 >"$TMP/t1" 2>/dev/null
for j in 2 4 16; do
    "$PROFANA" --analysis "$TMP/tricky.json" bf16 --format json -j "$j" >"$TMP/tn" 2>/dev/null
    same "names with '}, {': -j $j = -j 1" "$TMP/t1" "$TMP/tn"
done
check_eq "names with '}, {': 3000 kernels" "$(json 'd["gpu_activities"]' "$TMP/tn")" 3000
check_eq "names with '}, {': 3000 distinct names" "$(json 'len(d["devices"][0]["rows"])' "$TMP/tn")" 3000
check_near "names with '}, {': total 6000 us" "$(json 'd["devices"][0]["total"]["total_us"]' "$TMP/tn")" 6000 0

# Events of a known shape with a small difference each (spacing, key order, escapes, repeated
# keys, another type) after many of that shape: each is read by its text, not by the shape.
python3 - "$TMP/shapes.json" "$TMP/shapes_expect.txt" <<'EOF'
import json, sys
kern = '{"ph": "X", "cat": "kernel", "name": "k%d", "pid": 0, "tid": 7, "ts": %d, "dur": %s, "args": {"External id": %d, "device": 0, "stream": 7}}'
op = '{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": %d, "dur": 50, "args": {"External id": %d, "Input Dims": [[8, 4], [4, 2]], "Input type": ["float", "float"]}}'
ev = []
for i in range(200):
    ev.append(op % (100 * i, i))
    ev.append(kern % (i % 3, 100 * i + 1, "2.5", i))
odd = [
    '{"ph": "X", "cat": "kernel", "name": "odd0", "pid": 0, "tid": 7, "ts": 30001, "dur": \t3.5, "args": {"External id": 1, "device": 0, "stream": 7}}',
    '{"ph": "X", "cat": "kernel", "name": "odd1", "pid": 0, "tid": 7, "dur": 4.5, "ts": 30002, "args": {"External id": 2, "device": 0, "stream": 7}}',
    '{"ph":"X", "cat": "kernel", "name": "odd2", "pid": 0, "tid": 7, "ts": 30003, "dur": 5.5, "args": {"External id": 3, "device": 0, "stream": 7}}',
    '{"ph": "X", "cat": "kernel", "name": "odd\\u0033", "pid": 0, "tid": 7, "ts": 30004, "dur": 6.5, "args": {"External id": 4, "device": 0, "stream": 7}}',
    '{"ph": "X", "cat": "kernel", "name": "odd4", "pid": 0, "tid": 7, "ts": 30005, "dur": 1, "dur": 7.5, "args": {"External id": 5, "device": 0, "stream": 7}}',
    '{"ph": "X", "cat": "kernel", "name": "odd5", "pid": 0, "tid": 7, "ts": 30006, "dur": "8.5", "args": {"External id": 6, "device": 0, "stream": 7}}',
    '{"ph": "X", "cat": "kernel", "name": "odd6", "pid": 0, "tid": 7, "ts": 30007, "dur": 9.5, "args": {"External id": 7, "device": 0, "stream": 7, "extra": [1, {"a": "}"}]}}',
    '{"ph": "X", "cat": "kernel" , "name": "odd7", "pid": 0, "tid": 7, "ts": 30008, "dur": 10.5, "args": {"External id": 8, "device": 0, "stream": 7}}',
]
ev += odd
open(sys.argv[1], "w").write('{"traceEvents": [\n' + ",\n".join(ev) + "\n]}\n")
d = json.load(open(sys.argv[1]))
rows = {}
for e in d["traceEvents"]:
    if e["cat"] == "kernel" and isinstance(e["dur"], (int, float)):
        rows.setdefault(e["name"], []).append(e["dur"])
with open(sys.argv[2], "w") as f:
    for name in sorted(rows):
        f.write("%s %d %.3f\n" % (name, len(rows[name]), sum(rows[name])))
EOF
for j in 1 3; do
    "$PROFANA" --analysis "$TMP/shapes.json" bf16 --format json -j "$j" >"$TMP/shapes_out" 2>"$TMP/shapes_err"
    json '"\n".join("%s %d %.3f" % (r["name"], r["count"], r["total_us"]) for r in sorted(d["devices"][0]["rows"], key=lambda r: r["name"]))' \
        "$TMP/shapes_out" >"$TMP/shapes_got"
    same "events that differ from a learnt shape: rows as python3 reads them (-j $j)" "$TMP/shapes_expect.txt" "$TMP/shapes_got"
    check_grep "events that differ from a learnt shape: the string dur skipped and counted (-j $j)" "1 events skipped" "$TMP/shapes_err"
done

# ---- gzip and pipes ----

gz=$TMP/eager.json.gz
gzip -c "$TRACES/eager_bf16.json" >"$gz"
"$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 >"$TMP/plain" 2>/dev/null
"$PROFANA" --analysis "$gz" bf16 >"$TMP/gz" 2>/dev/null
same "eager_bf16.json.gz = eager_bf16.json" "$TMP/plain" "$TMP/gz"
cat "$gz" | "$PROFANA" --analysis - bf16 >"$TMP/gzpipe" 2>/dev/null
same "eager_bf16.json.gz through a pipe = the file" "$TMP/plain" "$TMP/gzpipe"
cat "$TRACES/eager_bf16.json" | "$PROFANA" --analysis - bf16 >"$TMP/pipe" 2>/dev/null
same "eager_bf16.json through a pipe = the file" "$TMP/plain" "$TMP/pipe"
# Two gzip members (as `cat a.gz b.gz` makes) hold one text, as gunzip reads them.
head -c 500000 "$TRACES/eager_bf16.json" | gzip -c >"$TMP/two.json.gz"
tail -c +500001 "$TRACES/eager_bf16.json" | gzip -c >>"$TMP/two.json.gz"
"$PROFANA" --analysis "$TMP/two.json.gz" bf16 >"$TMP/two" 2>/dev/null
same "a trace split over two gzip members = the file" "$TMP/plain" "$TMP/two"

# ---- gzip parsed in place by several threads ----
# gzip is inflated into a growing mapping that -j 3 and more parse in parts (one thread
# inflates); the output is that of the plain file read by one thread. The big trace (over 16
# MB of text) makes the inflater reuse its memory; the trace with one event of 20 MB makes it
# take more while every parser waits inside that event.
python3 - "$TRACES/compiled_module_profile_0.json" "$TMP/big.json" "$TMP/huge_event.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
d["traceEvents"] = ev * 5
json.dump(d, open(sys.argv[2], "w"), indent=1)
huge = {"ph": "X", "cat": "kernel", "name": "huge", "pid": 0, "tid": 7, "ts": 5, "dur": 2,
        "args": {"External id": 99999, "device": 0, "stream": 7, "note": "x" * (20 << 20)}}
d["traceEvents"] = ev[:3000] + [huge] + ev[3000:6000]
json.dump(d, open(sys.argv[3], "w"))
EOF
# par INPUT OUT ERR ARGS...: --analysis --format json of INPUT, its name left out of both.
par() {
    in=$1 out=$2 err=$3
    shift 3
    "$PROFANA" --analysis "$in" bf16 --format json "$@" 2>"$err" | sed 's/"trace":"[^"]*",//' >"$out"
    sed -i "s|$in|INPUT|" "$err"
}
for f in "$TRACES/eager_bf16.json" "$TRACES/compiled_module_profile_0.json" "$TMP/tricky.json" "$TMP/big.json" \
    "$TMP/huge_event.json"; do
    b=$(basename "$f")
    gzip -1 -c "$f" >"$TMP/par.json.gz"
    par "$f" "$TMP/par_plain" "$TMP/par_plain_err" -j 1
    for j in 1 3 4 8; do
        par "$TMP/par.json.gz" "$TMP/par_gz" "$TMP/par_gz_err" -j "$j"
        same "$b.gz -j $j = the plain file" "$TMP/par_plain" "$TMP/par_gz"
        same "$b.gz -j $j: stderr = the plain file's" "$TMP/par_plain_err" "$TMP/par_gz_err"
    done
    cat "$TMP/par.json.gz" | par - "$TMP/par_gz" "$TMP/par_gz_err" -j 4
    same "$b.gz through a pipe -j 4 = the plain file" "$TMP/par_plain" "$TMP/par_gz"
done
check_eq "the trace with a 20 MB event: 1 kernel named huge" \
    "$(json '[r["count"] for r in d["devices"][0]["rows"] if r["name"] == "huge"]' "$TMP/par_gz")" "[1]"
# Where address space is short (here 1 GB; the growing mapping of a pipe asks for 1 TB) the
# text comes through a ring of small blocks instead, with the same result. Not where the
# checker itself needs more (AddressSanitizer, valgrind).
if (ulimit -v 1000000 && "$PROFANA" --help) >/dev/null 2>&1; then
    (ulimit -v 1000000 && cat "$TMP/par.json.gz" | par - "$TMP/par_gz" "$TMP/par_gz_err" -j 4)
    same "huge_event.json.gz with 1 GB of address space = the plain file" "$TMP/par_plain" "$TMP/par_gz"
fi
# Broken gzip reads the same with parts parsed in parallel: the same exit status and message.
for f in tests/broken/gzip_*.json.gz; do
    "$PROFANA" --analysis "$f" bf16 -j 1 >/dev/null 2>"$TMP/gz_e1"
    s1=$?
    "$PROFANA" --analysis "$f" bf16 -j 4 >/dev/null 2>"$TMP/gz_e4"
    s4=$? # before any command substitution below resets $?
    check_eq "$(basename "$f") -j 4: exit status of -j 1" "$s4" "$s1"
    same "$(basename "$f") -j 4: message of -j 1" "$TMP/gz_e1" "$TMP/gz_e4"
done

# Once a member's header is read, profana checks its CRC and length against the trailer
# itself (zlib's check is switched off). Members of eager_bf16.json (1.2 MB of text, so the
# check changes hands inside each member), made here: valid ones whose trailer straddles two
# 64 KB reads (a file name in the header of the right length moves it), and ones with a
# wrong CRC or length. zlib reports a wrong CRC after reading it (the trailer's start + 4)
# and a wrong length after that (the member's end): so must profana.
python3 - "$TRACES/eager_bf16.json" "$TMP" <<'EOF'
import struct, sys, zlib
text = open(sys.argv[1], "rb").read()
def member(data, name=0, crc=0, size=0):
    """A gzip member; name: length of the file name field; crc, size: xored into the trailer."""
    head = b"\x1f\x8b\x08" + (b"\x08" if name else b"\0") + b"\0\0\0\0\0\xff"
    head += b"n" * (name - 1) + b"\0" if name else b""
    c = zlib.compressobj(1, zlib.DEFLATED, -15)
    body = c.compress(data) + c.flush()
    return head + body + struct.pack("<II", zlib.crc32(data) ^ crc, (len(data) & 0xffffffff) ^ size)
def write(name, data):
    open(sys.argv[2] + "/" + name, "wb").write(data)
plain = len(member(text))
for s in range(1, 8):  # s bytes of the trailer in the last read, 8 - s in the one before
    name = (s - plain) % 65536
    write("split%d.json.gz" % s, member(text, name=name + (65536 if name < 2 else 0)))
write("bad_crc.json.gz", member(text, crc=1))
write("bad_crc_split.json.gz", member(text, name=(3 - plain) % 65536, crc=0x80000000))
write("bad_length.json.gz", member(text, size=4))
write("bad_second.json.gz", member(text[:400000]) + member(text[400000:], crc=0x100))
EOF
for s in 1 2 3 4 5 6 7; do
    f=$TMP/split$s.json.gz
    check_eq "a member whose trailer straddles two reads ($s bytes in the last): $(($(wc -c <"$f") % 65536)) bytes past 64 KB" \
        "$(($(wc -c <"$f") % 65536))" "$s"
    "$PROFANA" --analysis "$f" bf16 >"$TMP/split" 2>/dev/null
    same "split$s.json.gz read whole: output = the plain file" "$TMP/plain" "$TMP/split"
done
# gz_fail NAME FILE OFFSET: FILE fails at compressed byte OFFSET, as a file at -j 1 and 4 and
# through a pipe.
gz_fail() {
    for how in "-j 1" "-j 4" pipe; do
        if [ "$how" = pipe ]; then
            cat "$2" | "$PROFANA" --analysis - bf16 >/dev/null 2>"$TMP/gzc_err"
        else
            "$PROFANA" --analysis "$2" bf16 $how >/dev/null 2>"$TMP/gzc_err"
        fi
        check_eq "$1 ($how): exit 1" "$?" 1
        # the name as the command line spelled it: "-" for standard input, as the JSON errors
        name=$2
        [ "$how" = pipe ] && name=-
        check_eq "$1 ($how): compressed byte $3, named $name" "$(cat "$TMP/gzc_err")" \
            "profana: error: $name: compressed byte $3: corrupt or truncated gzip data"
    done
}
for f in bad_crc bad_crc_split bad_second; do
    n=$(wc -c <"$TMP/$f.json.gz")
    gz_fail "$f.json.gz: a wrong CRC" "$TMP/$f.json.gz" $((n - 4))
done
gz_fail "bad_length.json.gz: a wrong length" "$TMP/bad_length.json.gz" "$(wc -c <"$TMP/bad_length.json.gz")"

# ---- cut off: a warning and the complete events; --strict makes it an error ----

BROKEN=tests/broken
for f in cut_off_inside_event.json unterminated_string.json gzip_of_cut_off_trace.json.gz; do
    n=$(wc -c <"$BROKEN/$f")
    [ "$f" = gzip_of_cut_off_trace.json.gz ] && n=$(gzip -dc "$BROKEN/$f" | wc -c)
    check_run "$f" 0 "$PROFANA" --analysis "$BROKEN/$f" bf16
    check_eq "$f: the warning" "$(grep warning "$TMP/err")" \
        "profana: warning: $BROKEN/$f: byte $n: trace is cut off inside an event; analysed the 1 complete events"
    check_run "$f --strict" 1 "$PROFANA" --analysis "$BROKEN/$f" bf16 --strict
    check_eq "$f --strict: one error line" "$(cat "$TMP/err")" \
        "profana: error: $BROKEN/$f: byte $n: trace is cut off (unexpected end of input)"
    check_eq "$f --strict: no output" "$(wc -c <"$TMP/out" | tr -d ' ')" 0
done
# The one complete event is the cpu_op: its figures are there, the cut kernel is not.
check_run "cut_off_inside_event.json --format json" 0 "$PROFANA" --analysis "$BROKEN/cut_off_inside_event.json" bf16 --format json
check_eq "cut_off_inside_event.json: 1 event, no activity" "$(json '(d["events"], d["gpu_activities"])' "$TMP/out")" "(1, 0)"

# The Trace Event Format lets a bare event array end without ']' (the writer crashed): no
# warning, even with --strict; also after a trailing comma.
for strict in "" --strict; do
    check_run "bare array without ']' $strict" 0 "$PROFANA" --analysis "$BROKEN/bare_event_array_no_close.json" bf16 --format json $strict
    check_eq "bare array without ']' $strict: no warning" "$(grep -c warning "$TMP/err")" 0
    check_eq "bare array without ']' $strict: its kernel" "$(json 'd["gpu_activities"]' "$TMP/out")" 1
done
{ cat "$BROKEN/bare_event_array_no_close.json"; printf ',\n'; } >"$TMP/comma.json"
check_run "bare array ending in ','" 0 "$PROFANA" --analysis "$TMP/comma.json" bf16 --strict
# A bare array cut inside its last event is cut off like any trace.
head -c 600 "$BROKEN/bare_event_array.json" >"$TMP/bare_cut.json"
complete=$(python3 -c '
import json, sys
t = open(sys.argv[1]).read()
d, i, n = json.JSONDecoder(), t.index("[") + 1, 0
while True:
    i = len(t) - len(t[i:].lstrip(" \n,"))
    try:
        i = d.raw_decode(t, i)[1]
        n += 1
    except ValueError:
        break
print(n)' "$TMP/bare_cut.json")
check_run "bare array cut inside an event" 0 "$PROFANA" --analysis "$TMP/bare_cut.json" bf16
check_grep "bare array cut inside an event: warning" "byte 600: trace is cut off inside an event; analysed the $complete complete events" "$TMP/err"
check_eq "bare array cut inside an event: python3 finds 1 complete event" "$complete" 1

# Every testdata trace cut at random offsets: never a crash; exit 0 with the warning that
# python3's reading of the cut predicts, or exit 1 with one error line.
for f in $TRACE_SET; do
    case $f in *.gz) continue ;; esac
    b=$(basename "$f")
    mkdir -p "$TMP/cuts"
    python3 tests/cli/cuts.py "$f" "$TMP/cuts" "$CUTS" 7 >"$TMP/cuts.txt"
    bad=0
    while read -r piece at kind events; do
        "$PROFANA" --analysis "$piece" bf16 >"$TMP/out" 2>"$TMP/err"
        st=$?
        got="exit $st: $(grep -v '^profana: note:' "$TMP/err" | grep -e warning -e error | head -n 2 | tr '\n' '|')"
        e="profana: error: $piece: byte"
        case $kind in
        empty) want="exit 1: $e $at: empty file, expected a JSON trace object|" ;;
        error) want="exit 1: $e $at: trace is cut off (unexpected end of input)|" ;;
        inside) want="exit 0: profana: warning: $piece: byte $at: trace is cut off inside an event; analysed the $events complete events|" ;;
        between) want="exit 0: profana: warning: $piece: byte $at: trace is cut off after the last complete event; analysed the $events complete events|" ;;
        *) want="exit 0: " ;;
        esac
        if [ "$st" -ge 128 ] || [ "$got" != "$want" ]; then
            bad=$((bad + 1))
            fail "$b cut at byte $at ($kind)" "got '$got', want '$want'"
        fi
    done <"$TMP/cuts.txt"
    [ "$bad" -eq 0 ] && pass "$b: $CUTS random cuts answered as documented"
    rm -rf "$TMP/cuts"
done

# ---- the progress bar: only on a terminal, only for large inputs, never with --quiet ----

"$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 >/dev/null 2>"$TMP/err"
check_eq "no progress bar when stderr is not a terminal" "$(tr -cd '\r' <"$TMP/err" | wc -c | tr -d ' ')" 0
# (Not under valgrind: the bar's timing on 110 MB is what is tested, not memory safety,
# which the same runs without a terminal check in every pass.)
if command -v script >/dev/null 2>&1 && [ -z "${PF_VALGRIND_LOG:-}" ]; then
    # 110 MB of small events through a pipe that stays open a second longer: the bar shows
    # once 100 MB are read (the size of a pipe is unknown), and is erased at the end.
    big=$TMP/big.json
    { echo '['; yes '{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 1, "args": {"device": 0}},' |
        head -n 1100000; echo '{}]'; } >"$big"
    script -qec "(cat '$big'; sleep 1) | '$PROFANA' --analysis - bf16 >/dev/null" "$TMP/tty" >/dev/null 2>&1
    check_grep "progress bar on a terminal: MB and MB/s" 'profana: [0-9]* MB  [0-9]* MB/s' "$TMP/tty"
    script -qec "(cat '$big'; sleep 1) | '$PROFANA' --analysis - bf16 --quiet >/dev/null" "$TMP/tty" >/dev/null 2>&1
    check_eq "--quiet: no progress bar" "$(grep -c 'MB/s' "$TMP/tty")" 0
    rm -f "$big"
fi
