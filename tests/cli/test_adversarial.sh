# test_adversarial.sh - hostile and extreme inputs (issue 23): nothing hangs (each run under a time limit), dies of a signal, leaves a temporary file, or writes invalid output.
# (`make check` runs it under the sanitizers: the same paths on smaller inputs; `make check-full`
# on the optimised build too, where its time limits apply to the full inputs)
. tests/cli/lib.sh
set -u
. tests/cli/adversarial_lib.sh

# ---- 2. figures too large for a chart's axes, or for a double ----
# kernel_num_gb 1e300 is 1e309 bytes, beyond a double: unknown. kernel_flop 1e300 with 1 GB
# is an intensity of 1e291 FLOP/byte: a finite dot, on axes of a bounded number of decades.
for f in inductor_figures_1e300.json inductor_flop_1e300.json; do
    in=$PWD/$BROKEN/$f
    guarded "$f --plot roofline --report" 0 "$PROFANA" --analysis "$in" bf16 \
        --plot roofline "$TMP/w/r.svg" --plot breakdown "$TMP/w/b.svg" --report "$TMP/w/r.html" && {
        svg_ok "$f roofline" "$TMP/w/r.svg"
        svg_ok "$f breakdown" "$TMP/w/b.svg"
        check_eq "$f report under 1 MB" "$([ "$(wc -c <"$TMP/w/r.html")" -le 1048576 ] && echo yes)" yes
    }
    guarded "$f --diff --plot --report" 0 "$PROFANA" --diff "$in" a "$VALID" b bf16 \
        --plot roofline "$TMP/w/d.svg" --report "$TMP/w/d.html" && svg_ok "$f diff roofline" "$TMP/w/d.svg"
    guarded "$f --format json" 0 "$PROFANA" --analysis "$in" bf16 --format json && strict_json "$f" "$TMP/out"
    guarded "$f --group op --format json" 0 "$PROFANA" --analysis "$in" bf16 --group op --format json &&
        strict_json "$f --group op" "$TMP/out"
    guarded "$f --diff --format json" 0 "$PROFANA" --diff "$in" a "$VALID" b bf16 --format json &&
        strict_json "$f --diff" "$TMP/out"
    guarded "$f --augment_trace --extra" 0 "$PROFANA" --augment_trace "$in" "$TMP/w/aug.json" bf16 --extra &&
        strict_json "$f --augment_trace" "$TMP/w/aug.json"
done
"$PROFANA" --analysis "$BROKEN/inductor_figures_1e300.json" bf16 --format json >"$TMP/j" 2>/dev/null
check_eq "kernel_num_gb 1e300: bytes unknown (1e309 is beyond a double)" "$(json 'd["devices"][0]["rows"][0]["bytes"]' "$TMP/j")" None
check_eq "kernel_num_gb 1e300: GB/s unknown" "$(json 'd["devices"][0]["rows"][0]["gbps"]' "$TMP/j")" None
check_eq "kernel_flop 1e300: FLOPs as written" "$(json 'd["devices"][0]["rows"][0]["flop"]' "$TMP/j")" 1e+300
"$PROFANA" --analysis "$BROKEN/inductor_flop_1e300.json" bf16 --format json >"$TMP/j" 2>/dev/null
check_eq "kernel_num_gb 1: 1e9 bytes" "$(json 'd["devices"][0]["rows"][0]["bytes"]' "$TMP/j")" 1000000000
# 1e300 FLOP in 2.25 us (the fixture's dur) is 1e300 / 2.25e-6 / 1e12 TFLOP/s
check_near "kernel_flop 1e300: TFLOP/s" "$(json 'd["devices"][0]["rows"][0]["tflops"]' "$TMP/j")" \
    "$(python3 -c 'print(1e300 / 2.25e-6 / 1e12)')" 1e-9

# --explain writes the figure in full: 1e300 is not converted to an integer (undefined; the
# fuzzer's find, caught by UBSan in the sanitizer build)
guarded "kernel_flop 1e300: --explain" 0 "$PROFANA" --analysis "$BROKEN/inductor_flop_1e300.json" bf16 --explain nvjet &&
    check_grep "kernel_flop 1e300: --explain shows the figure" "flop 1e+300" "$TMP/out"

# ---- 1. the default -j on a host of more CPUs than PF_THREADS_MAX (64) ----
# tests/cli/preload.c, preloaded, shows the process 256 CPUs and counts the threads of each
# parallel step. A script wrapper (valgrind) is not a binary to preload into: skipped there.
PRELOAD=
if [ "$(head -c 4 "$PROFANA" | od -An -c | tr -d ' ')" = '177ELF' ]; then
    if cc -shared -fPIC -o "$TMP/preload.so" tests/cli/preload.c -ldl -lpthread 2>"$TMP/cc.err"; then
        PRELOAD=$TMP/preload.so
    else
        fail "preload.c builds" "$(head -c 300 "$TMP/cc.err")"
    fi
fi
if [ -n "$PRELOAD" ]; then
    BIG=$TRACES/compiled_module_profile_0.json # 4.3 MB: 65 stretches of 64 KB, more than 64 threads could take
    "$PROFANA" --analysis "$BIG" bf16 --group op --format json -j 1 >"$TMP/j1" 2>"$TMP/e1"
    guarded "256 CPUs, default -j: --analysis" 0 env FAKE_CPUS=256 FAKE_CPUS_LOG="$TMP/threads" LD_PRELOAD="$PRELOAD" \
        ASAN_OPTIONS=verify_asan_link_order=0 "$PROFANA" --analysis "$BIG" bf16 --group op --format json &&
        check_eq "256 CPUs, default -j: output = -j 1" "$(cmp -s "$TMP/j1" "$TMP/out" && echo same)" same
    check_eq "256 CPUs, default -j: at most 64 threads in a step" "$(awk '{ print ($1 >= 2 && $1 <= 64) }' "$TMP/threads")" 1
    "$PROFANA" --augment_trace "$BIG" "$TMP/aug1.json" bf16 -j 1 2>/dev/null
    guarded "256 CPUs, default -j: --augment_trace" 0 env FAKE_CPUS=256 FAKE_CPUS_LOG="$TMP/threads" LD_PRELOAD="$PRELOAD" \
        ASAN_OPTIONS=verify_asan_link_order=0 "$PROFANA" --augment_trace "$BIG" "$TMP/w/aug.json" bf16 &&
        check_eq "256 CPUs: --augment_trace output = -j 1" "$(cmp -s "$TMP/aug1.json" "$TMP/w/aug.json" && echo same)" same
    check_eq "256 CPUs, --augment_trace: at most 64 threads in a step" "$(awk '{ print ($1 <= 64) }' "$TMP/threads")" 1
    "$PROFANA" --combine "$BIG" "$BIG" "$TMP/comb1.json" -j 1 2>/dev/null
    guarded "256 CPUs, default -j: --combine" 0 env FAKE_CPUS=256 FAKE_CPUS_LOG="$TMP/threads" LD_PRELOAD="$PRELOAD" \
        ASAN_OPTIONS=verify_asan_link_order=0 "$PROFANA" --combine "$BIG" "$BIG" "$TMP/w/comb.json" &&
        check_eq "256 CPUs: --combine output = -j 1" "$(cmp -s "$TMP/comb1.json" "$TMP/w/comb.json" && echo same)" same
    check_eq "256 CPUs, --combine: at most 64 threads in a step" "$(awk '{ print ($1 <= 64) }' "$TMP/threads")" 1
fi

# ---- 5. --combine: a pid that is a JSON number but no int64 ----
# Two inputs share it: the second's must move. It cannot be an integer moved by a step, so it
# becomes a string with the input's number, as a shared string pid does ("Spans [2]").
for f in pid_fraction.json pid_exponent.json pid_int64_min.json; do
    in=$PWD/$BROKEN/$f
    guarded "$f --combine with itself" 0 "$PROFANA" --combine "$in" "$in" "$TMP/w/c.json" || continue
    cp "$TMP/w/c.json" "$TMP/c.json"
    strict_json "$f --combine" "$TMP/c.json"
    # the oracle: the pid text as the fixture writes it, read from the raw bytes
    raw=$(grep -o '"pid": [^,]*' "$in" | head -n 1 | sed 's/"pid": //')
    check_eq "$f --combine: input 1 keeps pid $raw, input 2 has \"$raw [2]\"" \
        "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
cpu = [e["pid"] for e in d["traceEvents"] if e.get("cat") == "cpu_op"]
print(json.dumps(cpu))' "$TMP/c.json")" "$(python3 -c 'import json, sys; print(json.dumps([json.loads(sys.argv[1]), sys.argv[1] + " [2]"]))' "$raw")"
    guarded "$f --combine output analysed" 0 "$PROFANA" --analysis "$TMP/c.json" bf16 --format json &&
        check_eq "$f --combine: both kernels linked to their op" "$(json 'sum(d["devices"][i]["activities"] for i in range(len(d["devices"]))) - d["unlinked"]' "$TMP/out")" 2
done

# ---- 8. names that are not valid UTF-8, or carry terminal escapes ----
# JSON output is valid UTF-8; text, CSV and Markdown (and stderr) carry no control character
# but newline from the trace (CSV keeps a name's newline inside quotes, as it keeps the name).
# check_outputs DIR: one PASS/FAIL line per file of DIR: *.json parse as strict UTF-8 JSON,
# the others (text, CSV, Markdown, stderr) are UTF-8 without control characters but newline.
check_outputs() {
    python3 -c '
import json, os, sys
def no(c): raise ValueError("non-finite number " + c)
for f in sorted(os.listdir(sys.argv[1])):
    name = f.replace("~", " ")
    try:
        t = open(os.path.join(sys.argv[1], f), "rb").read().decode("utf-8")
        if f.endswith(".json"):
            json.loads(t, parse_constant=no)
            print("PASS %s: valid JSON" % name)
            continue
        bad = [hex(ord(c)) for c in t if (ord(c) < 32 and c != "\n") or 0x7F <= ord(c) < 0xA0]
        if bad:
            print("FAIL %s: no control characters (%s)" % (name, " ".join(bad[:5])))
        else:
            print("PASS %s: valid UTF-8, no control characters" % name)
    except Exception as e:
        print("FAIL %s: valid (%s)" % (name, str(e)[:200]))' "$1"
}
for f in device_name_invalid_utf8.json input_type_invalid_utf8.json kernel_name_terminal_escape.json \
    op_name_terminal_escape.json device_name_terminal_escape.json; do
    rm -rf "$TMP/o" && mkdir "$TMP/o"
    for g in kernel op shape; do
        for fmt in json text csv md; do
            o=$TMP/o/$f~--group~$g~--format~$fmt
            limited "$PROFANA" --analysis "$BROKEN/$f" bf16 --group "$g" --format "$fmt" >"$o.$fmt" 2>"$o.stderr"
            check_eq "$f --group $g --format $fmt: exit 0" "$?" 0
        done
    done
    for fmt in json text; do
        o=$TMP/o/$f~--diff~--format~$fmt
        limited "$PROFANA" --diff "$BROKEN/$f" a "$VALID" b bf16 --group shape --format "$fmt" >"$o.$fmt" 2>"$o.stderr"
        check_eq "$f --diff --format $fmt: exit 0" "$?" 0
    done
    check_outputs "$TMP/o"
    guarded "$f --plot --report" 0 "$PROFANA" --analysis "$BROKEN/$f" bf16 --group shape \
        --plot roofline "$TMP/w/r.svg" --report "$TMP/w/r.html" && svg_ok "$f roofline" "$TMP/w/r.svg"
done
# The oracle for the names: python3's reading of the raw events, each control character but
# tab and newline shown as U+FFFD (README: "Names").
shown() { # FILE CAT: the first event name of category CAT, as profana is to show it
    python3 -c '
import json, sys
e = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e["cat"] == sys.argv[2]][0]
print(json.dumps("".join("\ufffd" if (ord(c) < 32 and c not in "\t\n") or 0x7F <= ord(c) < 0xA0 else c for c in e["name"])))' "$1" "$2"
}
"$PROFANA" --analysis "$BROKEN/kernel_name_terminal_escape.json" bf16 --format json >"$TMP/j" 2>/dev/null
check_eq "kernel name with escapes: controls shown as U+FFFD" "$(json 'json.dumps(d["devices"][0]["rows"][0]["name"])' "$TMP/j")" \
    "$(shown "$BROKEN/kernel_name_terminal_escape.json" kernel)"
"$PROFANA" --analysis "$BROKEN/op_name_terminal_escape.json" bf16 --group op --format json >"$TMP/j" 2>/dev/null
check_eq "op name with escapes: controls shown as U+FFFD" "$(json 'json.dumps(d["devices"][0]["rows"][0]["name"])' "$TMP/j")" \
    "$(shown "$BROKEN/op_name_terminal_escape.json" cpu_op)"
"$PROFANA" --analysis "$BROKEN/device_name_invalid_utf8.json" bf16 --format json >"$TMP/j" 2>/dev/null
check_eq "device name with bytes ff fe: each U+FFFD" "$(json 'd["devices"][0]["name"]' "$TMP/j")" "NVIDIA H100 $(printf '\357\277\275\357\277\275') 80GB"
# a path that is not UTF-8 is a name too
bad=$TMP/$(printf 'trace\377').json
cp "$VALID" "$bad"
guarded "path with byte ff --format json" 0 "$PROFANA" --analysis "$bad" bf16 --format json && strict_json "path with byte ff" "$TMP/out"

# ---- 6. signals and file-size limits while an output is written ----
# The shim raises the signal just as the finished output is about to get its name (rename or
# linkat): the moment a named temporary file would be complete and largest. The old OUT stays.
if [ -n "$PRELOAD" ]; then
    for sig in INT TERM HUP KILL; do
        n=$(kill -l "$sig" 2>/dev/null || echo 0)
        [ "$n" -gt 0 ] 2>/dev/null || n=$(python3 -c "import signal; print(int(signal.SIG$sig))")
        for out in new old; do
            rm -rf "$TMP/w" && mkdir "$TMP/w"
            [ "$out" = old ] && echo old >"$TMP/w/o.json"
            limited env FAKE_SIGNAL="$n" LD_PRELOAD="$PRELOAD" ASAN_OPTIONS=verify_asan_link_order=0 \
                "$PROFANA" --augment_trace "$VALID" "$TMP/w/o.json" bf16 >/dev/null 2>&1
            st=$?
            check_eq "SIG$sig while --augment_trace names its output ($out OUT): killed by it" "$st" $((128 + n))
            check_eq "SIG$sig, --augment_trace ($out OUT): no temporary file left" "$(ls -A "$TMP/w" | grep -v '^o\.json$')" ""
            check_eq "SIG$sig, --augment_trace ($out OUT): OUT as before" "$(cat "$TMP/w/o.json" 2>/dev/null)" "$([ "$out" = old ] && echo old)"
            rm -rf "$TMP/w" && mkdir "$TMP/w"
            limited env FAKE_SIGNAL="$n" LD_PRELOAD="$PRELOAD" ASAN_OPTIONS=verify_asan_link_order=0 "$PROFANA" \
                --analysis "$VALID" bf16 --plot roofline "$TMP/w/r.svg" --report "$TMP/w/r.html" >/dev/null 2>&1
            check_eq "SIG$sig while --report is named: no file left" "$(ls -A "$TMP/w")" ""
        done
    done
fi
# A file-size limit: the write fails (EFBIG), exit 1 with one error line, no temporary file.
rm -rf "$TMP/w" && mkdir "$TMP/w"
(ulimit -f 8 && exec "$PROFANA" --augment_trace "$TRACES/eager_bf16.json" "$TMP/w/o.json" bf16) >"$TMP/out" 2>"$TMP/err"
check_eq "ulimit -f: --augment_trace exits 1" "$?" 1
check_eq "ulimit -f: one error line" "$(grep -c '^profana: error: .*o.json: write failed' "$TMP/err")" 1
check_eq "ulimit -f: nothing left" "$(ls -A "$TMP/w")" ""
(ulimit -f 8 && exec "$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --report "$TMP/w/r.html") >"$TMP/out" 2>"$TMP/err"
check_eq "ulimit -f: --report exits 1" "$?" 1
check_eq "ulimit -f: --report nothing left" "$(ls -A "$TMP/w")" ""

# ---- 4. an input cut by another process while profana reads it ----
# The shim cuts the N-th file mapped for reading to half its size just after mapping it.
# Whichever read meets the cut (a read, a parse of the mapping, a SIGBUS past its end), the
# run ends with one error line saying so and exit 1; a run the cut missed succeeds.
if [ -n "$PRELOAD" ]; then
    for n in 1 2; do
        for cmd in analysis augment combine; do
            rm -rf "$TMP/s" && mkdir "$TMP/s"
            cp "$TRACES/compiled_module_profile_0.json" "$TMP/s/in.json"
            size=$(wc -c <"$TMP/s/in.json")
            case $cmd in
            analysis) set -- --analysis "$TMP/s/in.json" bf16 ;;
            augment) set -- --augment_trace "$TMP/s/in.json" "$TMP/w/o.json" bf16 ;;
            combine) set -- --combine "$TMP/s/in.json" "$TMP/s/in.json" "$TMP/w/o.json" ;;
            esac
            rm -rf "$TMP/w" && mkdir "$TMP/w"
            limited env FAKE_SHRINK=$n LD_PRELOAD="$PRELOAD" ASAN_OPTIONS=verify_asan_link_order=0:handle_sigbus=0 \
                "$PROFANA" "$@" >/dev/null 2>"$TMP/err"
            st=$?
            grep -v '^profana: note:' "$TMP/err" >"$TMP/err2"
            if [ "$(wc -c <"$TMP/s/in.json")" -eq "$size" ]; then
                check_eq "--$cmd, mapping $n not cut: exit 0" "$st" 0
            else
                check_eq "--$cmd, mapping $n cut: exit 1" "$st" 1
                check_eq "--$cmd, mapping $n cut: one error line saying so" \
                    "$(grep -c '^profana: error: .*changed (it shrank) while being read$' "$TMP/err2"),$(wc -l <"$TMP/err2" | tr -d ' ')" 1,1
                check_eq "--$cmd, mapping $n cut: no output, no temporary file" "$(ls -A "$TMP/w")" ""
            fi
        done
    done
fi

# ---- 3. long stretches without an event boundary, from a file, a pipe and gzip ----
# tests/broken/valid_minimal.json with MB MiB of whitespace (or of kernel name) put in;
# generated on the fly (gen MODE MB [gz] > stream), never stored but where a file is the point.
gen() {
    python3 -c '
import sys, zlib
mode, mb, gz = sys.argv[2], int(sys.argv[3]), len(sys.argv) > 4
src = open(sys.argv[1]).read()
i = src.index("{\n    \"ph\": \"X\", \"cat\": \"kernel\"")
if mode == "name":
    head, blk, tail = src[:i] + src[i:].split("nvjet_sm90_tst_64x16_bf16_NNT")[0], b"k", src[i:].split("nvjet_sm90_tst_64x16_bf16_NNT", 1)[1]
else:
    head, blk, tail = src[:i], b" ", src[i:]
co = zlib.compressobj(1, zlib.DEFLATED, 31) if gz else None
out = sys.stdout.buffer
put = (lambda b: out.write(co.compress(b))) if gz else out.write
put(head.encode())
chunk = blk * (1 << 20)
for _ in range(mb):
    put(chunk)
put(tail.encode())
if gz:
    out.write(co.flush())' "$VALID" "$@"
}
# rss_run NAME CMD...: runs CMD (stdin as given) under the limits of `limited`; prints "EXIT MAXRSS_KB"
rss_run() {
    python3 -c '
import resource, subprocess, sys
cpu = int(sys.argv[1])
r = subprocess.run(["timeout", str(cpu * 8)] + sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                   preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu)))
sys.stderr.write(r.stderr.decode("utf-8", "replace"))
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$LIMIT" "$@"
}
"$PROFANA" --analysis "$VALID" bf16 --format json >"$TMP/want.json" 2>/dev/null
# under valgrind neither time nor memory is profana's: the same paths on 64 and 32 MiB,
# checked for memory errors, with no bound on either
ws_big=512 ws_mid=256 name_mb=16 rss_max=131072
# the sanitizer build (`make check`; several times slower): the same paths on a quarter of the
# bytes; the optimised build (`make check-full`) reads the full sizes, where the limits mean most
grep -q __asan_init "$PROFANA" 2>/dev/null && ws_big=128 ws_mid=64 name_mb=4
[ -n "${PF_VALGRIND_BIN:-}" ] && ws_big=64 ws_mid=32 rss_max=99999999 LIMIT=300
gen ws $ws_big gz >"$TMP/ws512.json.gz"
set -- $(rss_run "$PROFANA" --analysis "$TMP/ws512.json.gz" bf16 2>"$TMP/err")
check_eq "$ws_big MiB of whitespace between events, .json.gz file: exit 0 within $LIMIT s of CPU" "$1" 0
check_eq "$ws_big MiB of whitespace, .json.gz file: under 128 MB of memory" "$([ "${2:-999999}" -lt $rss_max ] && echo yes)" yes
set -- $(rss_run "$PROFANA" --analysis - bf16 <"$TMP/ws512.json.gz" 2>"$TMP/err")
check_eq "$ws_big MiB of whitespace, gzip on stdin: exit 0 within $LIMIT s of CPU" "$1" 0
check_eq "$ws_big MiB of whitespace, gzip on stdin: under 128 MB of memory" "$([ "${2:-999999}" -lt $rss_max ] && echo yes)" yes
rm -f "$TMP/ws512.json.gz"
gen ws $ws_mid | (set -- $(rss_run "$PROFANA" --analysis - bf16 --format json 2>"$TMP/err")
    check_eq "$ws_mid MiB of whitespace through a pipe: exit 0 within $LIMIT s of CPU" "$1" 0
    check_eq "$ws_mid MiB of whitespace through a pipe: under 128 MB of memory" "$([ "${2:-999999}" -lt $rss_max ] && echo yes)" yes)
gen ws $ws_mid | limited "$PROFANA" --analysis - bf16 --format json >"$TMP/got.json" 2>/dev/null
check_eq "whitespace through a pipe: the same kernel rows as without it" \
    "$(json 'json.dumps(d["devices"][0]["rows"])' "$TMP/got.json")" "$(json 'json.dumps(d["devices"][0]["rows"])' "$TMP/want.json")"
# A file whose whitespace spans several of the parallel parts (64 KB each, -j 4)
gen ws 8 >"$TMP/ws8.json"
guarded "8 MiB of whitespace in a file, -j 4" 0 "$PROFANA" --analysis "$TMP/ws8.json" bf16 --format json -j 4 &&
    check_eq "8 MiB of whitespace, -j 4: the same kernel rows" \
        "$(json 'json.dumps(d["devices"][0]["rows"])' "$TMP/out")" "$(json 'json.dumps(d["devices"][0]["rows"])' "$TMP/want.json")"
rm -f "$TMP/ws8.json"
# One event larger than the 64 MiB limit: an error naming the byte where it starts (the
# offset of the kernel event's '{' in the raw text, found by python3).
at=$(python3 -c 'import sys; s = open(sys.argv[1]).read(); print(len(s[:s.index("{\n    \"ph\": \"X\", \"cat\": \"kernel\"")].encode()))' "$VALID")
for how in pipe gz; do
    # under valgrind (50 times slower) 65 MiB through the scanner outlast any time limit
    if [ -n "${PF_VALGRIND_BIN:-}" ]; then
        echo "SKIP a 65 MiB kernel name ($how) under valgrind"
        continue
    fi
    if [ $how = gz ]; then gen name 65 gz; else gen name 65; fi | limited "$PROFANA" --analysis - bf16 >"$TMP/out" 2>"$TMP/err"
    check_eq "a 65 MiB kernel name ($how): exit 1" "$?" 1
    check_eq "a 65 MiB kernel name ($how): the error" "$(cat "$TMP/err")" "profana: error: -: byte $at: an event larger than 64 MiB (the limit for one event)"
done
gen name $name_mb | limited "$PROFANA" --analysis - bf16 --format json >"$TMP/out" 2>/dev/null
check_eq "a $name_mb MiB kernel name through a pipe: kept whole" "$(json 'len(d["devices"][0]["rows"][0]["name"])' "$TMP/out")" $((name_mb << 20))

# ---- 9. smaller departures from the README ----
# Standard input can be read once: two inputs given as '-' are a usage error, not an empty second trace.
for args in "--diff - a - b bf16" "--combine - - $TMP/w/c.json"; do
    guarded "${args%% *} with '-' twice" 2 sh -c "exec \"\$0\" $args <\"\$1\"" "$PROFANA" "$VALID" &&
        check_eq "${args%% *} with '-' twice: says so" "$(head -n 1 "$TMP/err")" "profana: ${args%% *}: standard input ('-') can be only one of the inputs"
done
# A line end after the last gzip member (tests/broken/gzip_trailing_newline.json.gz) is read
# as gunzip reads it: the same table as the trace uncompressed.
"$PROFANA" --analysis "$VALID" bf16 >"$TMP/want" 2>/dev/null
guarded "gzip with a trailing newline" 0 "$PROFANA" --analysis "$BROKEN/gzip_trailing_newline.json.gz" bf16 &&
    check_eq "gzip with a trailing newline: the same table" "$(cmp -s "$TMP/out" "$TMP/want" && echo same)" same

# ---- 7. many devices ----
# 65,536 device ids (one kernel on each) and a deviceProperties list of 70,000 entries: each
# device's work costs its own activities, not a pass over all of them. The sanitizer build
# (several times slower, and its allocator copies on every realloc) takes 8,192 device ids.
# 20 s of CPU: since the waits, phases and collectives passes each device costs more (a constant per
# device: 8,192 devices take 1.3 s, as before); a pass over all activities per device would
# take minutes at 65,536.
ndev=65536 nprops=70000 dlimit=20
grep -q __asan_init "$PROFANA" 2>/dev/null && ndev=8192
# under valgrind the time limits say nothing: the same code on fewer devices, checked for memory errors
[ -n "${PF_VALGRIND_BIN:-}" ] && ndev=512 nprops=2000 dlimit=300
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
k = [e for e in d["traceEvents"] if e["cat"] == "kernel"][0]
ev = [e for e in d["traceEvents"] if e["cat"] != "kernel"]
for i in range(int(sys.argv[2])):
    e = json.loads(json.dumps(k)); e["args"]["device"] = i; e["pid"] = i; ev.append(e)
d["traceEvents"] = ev
json.dump(d, open(sys.argv[3], "w"))
p = d["deviceProperties"][0]
d["traceEvents"] = ev[:2]
d["deviceProperties"] = [dict(p, id=i) for i in range(int(sys.argv[5]))]
json.dump(d, open(sys.argv[4], "w"))' "$VALID" "$ndev" "$TMP/devs.json" "$TMP/props.json" "$nprops"
LIMIT=$dlimit guarded "$ndev device ids: --analysis --format json within $dlimit s of CPU" 0 "$PROFANA" --analysis "$TMP/devs.json" bf16 --format json && {
    # the oracle: the distinct device ids of the raw kernel events
    check_eq "$ndev device ids: one report per device" "$(json 'len(d["devices"])' "$TMP/out")" \
        "$(python3 -c 'import json, sys; print(len({e["args"]["device"] for e in json.load(open(sys.argv[1]))["traceEvents"] if e["cat"] == "kernel"}))' "$TMP/devs.json")"
    check_eq "$ndev device ids: at most 10 note lines" "$([ "$(wc -l <"$TMP/err")" -le 10 ] && echo yes)" yes
}
rm -f "$TMP/devs.json"
LIMIT=$dlimit guarded "$nprops deviceProperties entries within $dlimit s of CPU" 0 "$PROFANA" --analysis "$TMP/props.json" bf16 --format json &&
    check_eq "$nprops deviceProperties: device 0 named as declared" "$(json 'd["devices"][0]["name"]' "$TMP/out")" "NVIDIA H100 80GB HBM3"
rm -f "$TMP/props.json"
