# test_output_edges.sh - the edges of output files and names (issue 23 item 9, the smaller departures from the docs): a lone surrogate in deviceProperties, a 255-byte output name, a dangling symbolic link OUT, one file named for two outputs, a failed standard output beside --plot, another user's file rewritten as root, a file under `ulimit -v`.
. tests/cli/lib.sh
set -u
. tests/cli/adversarial_lib.sh

# ---- a lone \ud800 in a deviceProperties name: the list is kept, the bad escape shown as U+FFFD ----
python3 -c '
import sys
s = open(sys.argv[1]).read()
i = s.index("\"name\"", s.index("deviceProperties"))
j = s.index("\"", i + 7) + 1
open(sys.argv[2], "w").write(s[:j] + "\\ud800" + s[j:])' "$VALID" "$TMP/surrogate.json"
guarded "lone \\ud800 in deviceProperties" 0 "$PROFANA" --analysis "$TMP/surrogate.json" bf16 --format json && {
    # the oracle: python3's own reading of the name, each surrogate as U+FFFD
    want=$(python3 -c '
import json, sys
n = json.load(open(sys.argv[1]))["deviceProperties"][0]["name"]
print("".join("\ufffd" if 0xD800 <= ord(c) < 0xE000 else c for c in n))' "$TMP/surrogate.json")
    check_eq "lone \\ud800: the device keeps its declared name" "$(json 'd["devices"][0]["name"]' "$TMP/out")" "$want"
    check_eq "lone \\ud800: the device is declared (no note)" "$(grep -c 'not in deviceProperties' "$TMP/err")" 0
    strict_json "lone \\ud800" "$TMP/out"
}
guarded "lone \\ud800: text" 0 "$PROFANA" --analysis "$TMP/surrogate.json" bf16 &&
    check_grep "lone \\ud800: the device is matched (H100 SXM)" "matched: H100 SXM" "$TMP/out"

# ---- a legal 255-byte output name (the temporary's suffix would not fit beside it) ----
long=$(python3 -c 'print("a" * 250 + ".json")')
"$PROFANA" --augment_trace "$VALID" "$TMP/aug.json" bf16 2>/dev/null
guarded "255-byte OUT, new" 0 "$PROFANA" --augment_trace "$VALID" "$TMP/w/$long" bf16 &&
    check_eq "255-byte OUT, new: written" "$(cmp -s "$TMP/aug.json" "$TMP/w/$long" && echo same)" same
guarded "255-byte OUT, replaced" 0 sh -c 'echo old >"$1/$2" && exec "$0" --augment_trace "$3" "$1/$2" bf16' \
    "$PROFANA" "$TMP/w" "$long" "$VALID" && {
    check_eq "255-byte OUT, replaced: the new contents" "$(cmp -s "$TMP/aug.json" "$TMP/w/$long" && echo same)" same
    check_eq "255-byte OUT, replaced: nothing else in the directory" "$(ls -A "$TMP/w" | wc -l)" 1
}
guarded "255-byte --plot, replaced" 0 sh -c 'echo old >"$1/$2" && exec "$0" --analysis "$3" bf16 --plot roofline "$1/$2"' \
    "$PROFANA" "$TMP/w" "$long" "$VALID" && svg_ok "255-byte --plot" "$TMP/w/$long"

# ---- a dangling symbolic link OUT: the link stays, the file it names is created ----
guarded "dangling symlink OUT" 0 sh -c 'ln -s t.json "$1/l.json" && exec "$0" --augment_trace "$2" "$1/l.json" bf16' \
    "$PROFANA" "$TMP/w" "$VALID" && {
    check_eq "dangling symlink OUT: still a link" "$([ -L "$TMP/w/l.json" ] && echo link)" link
    check_eq "dangling symlink OUT: its target written" "$(cmp -s "$TMP/aug.json" "$TMP/w/t.json" && echo same)" same
}
guarded "dangling symlink through a second link" 0 sh -c 'ln -s m.json "$1/l.json" && ln -s sub/t.svg "$1/m.json" &&
    mkdir "$1/sub" && exec "$0" --analysis "$2" bf16 --plot roofline "$1/l.json"' "$PROFANA" "$TMP/w" "$VALID" && {
    check_eq "two links: both stay links" "$([ -L "$TMP/w/l.json" ] && [ -L "$TMP/w/m.json" ] && echo links)" links
    svg_ok "two links: the last target" "$TMP/w/sub/t.svg"
}
guarded "a symlink loop OUT" 1 sh -c 'ln -s l.json "$1/l.json" && exec "$0" --augment_trace "$2" "$1/l.json" bf16' \
    "$PROFANA" "$TMP/w" "$VALID" &&
    check_grep "a symlink loop OUT: says so" "cannot follow the symbolic link" "$TMP/err"

# ---- one file named for two outputs, spelled differently: refused, nothing written ----
# (absolute names spelled differently: the test changes no directory, as the valgrind wrapper
# names its binary relative to this one)
for pair in "x.svg ./x.svg" "x.svg a/../x.svg" "x.svg .//a/..//x.svg" "h.svg hl.svg" "h.svg sl.svg" "x.svg dl.svg"; do
    set -- $pair
    guarded "one file as '$1' and '$2'" 1 sh -c 'mkdir "$1/a" && echo old >"$1/h.svg" && ln "$1/h.svg" "$1/hl.svg" &&
        ln -s h.svg "$1/sl.svg" && ln -s x.svg "$1/dl.svg" &&
        exec "$0" --analysis "$2" bf16 --plot roofline "$1/$3" --report "$1/$4"' "$PROFANA" "$TMP/w" "$VALID" "$1" "$2" && {
        check_grep "one file as '$1' and '$2': says so" "named for two outputs" "$TMP/err"
        check_eq "one file as '$1' and '$2': nothing written" "$([ ! -e "$TMP/w/x.svg" ] && cat "$TMP/w/h.svg")" old
    }
done

# ---- standard output fails: the --plot and --report files are not put in place ----
for cmd in "--analysis $VALID bf16" "--diff $VALID a $VALID b bf16"; do
    guarded "${cmd%% *} >/dev/full with --plot --report" 1 sh -c 'echo old >"$1/p.svg" && "$0" $2 --plot roofline "$1/p.svg" \
        --report "$1/r.html" >/dev/full' "$PROFANA" "$TMP/w" "$cmd" && {
        check_eq "${cmd%% *} >/dev/full: the error" "$(cat "$TMP/err")" "profana: error: cannot write to standard output"
        check_eq "${cmd%% *} >/dev/full: --plot's old file kept" "$(cat "$TMP/w/p.svg")" old
        check_eq "${cmd%% *} >/dev/full: no --report file" "$([ -e "$TMP/w/r.html" ] || echo none)" none
    }
done

# ---- another user's file rewritten by root keeps its owner and mode ----
if [ "$(id -u)" -eq 0 ]; then
    for out in o.json o.svg; do
        case $out in *.json) cmd="--augment_trace $VALID" ;; *) cmd="--analysis $VALID bf16 --plot roofline" ;; esac
        guarded "root rewrites $out of uid 65534" 0 sh -c 'echo old >"$1/$2" && chown 65534:65534 "$1/$2" && chmod 640 "$1/$2" &&
            exec "$0" $3 "$1/$2" $4' "$PROFANA" "$TMP/w" "$out" "$cmd" "$(case $out in *.json) echo bf16 ;; esac)" &&
            check_eq "root rewrites $out: owner, group and mode kept" "$(stat -c '%u %g %a' "$TMP/w/$out")" "65534 65534 640"
    done
else
    echo "SKIP another user's file: not root"
fi

# ---- under `ulimit -v` a file path works wherever the same file on standard input does ----
# A 64 MiB file mapped whole left no room for the rest at some limits (the mapping succeeds,
# the arrays then fail); the sanitizers and valgrind reserve address space of their own.
if grep -q __asan_init "$PROFANA" 2>/dev/null || [ -n "${PF_VALGRIND_BIN:-}" ]; then
    echo "SKIP ulimit -v: a sanitizer or valgrind build"
else
    python3 -c '
import sys
s = open(sys.argv[1]).read()
i = s.index("{\n    \"ph\": \"X\", \"cat\": \"kernel\"")
o = open(sys.argv[2], "w"); o.write(s[:i]); o.write(" " * (64 << 20)); o.write(s[i:])' "$VALID" "$TMP/ws64.json"
    both=0 bad=
    for kb in $(seq 60000 4000 140000); do
        (ulimit -v $kb && "$PROFANA" --analysis - bf16 <"$TMP/ws64.json" >/dev/null 2>&1) || continue
        both=$((both + 1))
        (ulimit -v $kb && limited "$PROFANA" --analysis "$TMP/ws64.json" bf16 >/dev/null 2>"$TMP/err") ||
            bad="$bad $kb($(head -c 100 "$TMP/err"))"
    done
    check_eq "ulimit -v: the file works at every limit standard input does" "$bad" ""
    check_eq "ulimit -v: standard input works at some limits" "$([ "$both" -gt 5 ] && echo yes)" yes
    rm -f "$TMP/ws64.json"
fi
