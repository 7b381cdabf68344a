# test_augment.sh - --augment_trace: input bytes kept, figures checked by Python against hand formulas, in-place and stdout output, failing writes that leave OUT as it was.
# check: valgrind
. tests/cli/lib.sh

# check_augment NAME IN OUT [--extra]: the Python checks of tests/cli/check_augment.py.
check_augment() {
    python3 tests/cli/check_augment.py "$@" || fail "$1: checker" "exited $?"
}

# same NAME A B: files A and B are byte for byte equal.
same() {
    if cmp -s "$2" "$3"; then pass "$1"; else fail "$1" "$2 and $3 differ"; fi
}

# no_temp NAME DIR: no temporary file of profana's left in DIR.
no_temp() {
    left=$(ls -a "$2" | grep -c '\.tmp-')
    check_eq "$1: no temporary file left" "$left" 0
}

# ---- every trace: bytes kept, keys on every formula kernel, GEMM FLOPs = 2bMNK ----
# (and the MI300X peer trace: ROCm names, pid = device, a .json.gz read decompressed)
for f in "$TRACES"/*.json testdata/peer/owlv2_mi300.json.gz; do
    base=$(basename "$f")
    check_run "$base: augment" 0 "$PROFANA" --augment_trace "$f" "$TMP/aug.json" bf16
    check_augment "$base" "$f" "$TMP/aug.json"
done

# --extra on the H100 traces: rates over the event's own time, percent of the dense peaks.
for f in "$TRACES"/explicit_bf16.json "$TRACES"/explicit_fp32.json "$TRACES"/eager_fp16.json; do
    base=$(basename "$f")
    check_run "$base: augment --extra" 0 "$PROFANA" --augment_trace "$f" "$TMP/extra.json" bf16 --extra
    check_augment "$base --extra" "$f" "$TMP/extra.json" --extra
done

# A hand-checked op: aten::mm([512,2048] bf16 x [2048,512] bf16), External id 7188 in
# explicit_bf16: 2*512*512*2048 = 1073741824 FLOP; (512*2048 + 2048*512 + 512*512)*2 bytes
# = 4718592 = 0.004718592 GB.
"$PROFANA" --augment_trace "$TRACES/explicit_bf16.json" "$TMP/x.json" bf16 2>/dev/null
check_eq "explicit_bf16 aten::mm #7188: kernel_flop by hand" \
    "$(json "[e['args']['kernel_flop'] for e in d['traceEvents'] if e.get('cat')=='cpu_op' and e['args'].get('External id')==7188][0]" "$TMP/x.json")" 1073741824
check_eq "explicit_bf16 aten::mm #7188: kernel_num_gb by hand" \
    "$(json "[e['args']['kernel_num_gb'] for e in d['traceEvents'] if e.get('cat')=='cpu_op' and e['args'].get('External id')==7188][0]" "$TMP/x.json")" 0.004718592

# Augmenting an augmented trace replaces the keys in place: the output does not change.
"$PROFANA" --augment_trace "$TMP/x.json" "$TMP/xx.json" bf16 2>/dev/null
same "augmenting twice gives the same bytes" "$TMP/x.json" "$TMP/xx.json"

# ---- one answer after augment: analysing the output equals analysing the input ----
# Every row of every grouping (and the Total, coverage and category figures) with FLOPs,
# bytes, rates, percents and bound equal to the last bit; only a row's Source may differ
# (it says the figures were read from kernel_flop / kernel_num_gb).
roundtrip() { # NAME TRACE DTYPE [OPTS...]
    name=$1 trace=$2 dt=$3
    shift 3
    "$PROFANA" --augment_trace "$trace" "$TMP/rt.json" "$dt" --quiet "$@" 2>/dev/null
    for g in kernel op shape; do
        "$PROFANA" --analysis "$trace" "$dt" --quiet --format json --group $g "$@" >"$TMP/rt_in.json" 2>/dev/null
        "$PROFANA" --analysis "$TMP/rt.json" "$dt" --quiet --format json --group $g "$@" >"$TMP/rt_out.json" 2>/dev/null
        python3 - "$name --group $g" "$TMP/rt_in.json" "$TMP/rt_out.json" <<'PY' || fail "$name --group $g: checker" "exited $?"
import json
import sys

name, a, b = sys.argv[1:4]
a, b = json.load(open(a)), json.load(open(b))


def strip(x):
    """The document without what may differ: the file name, and each row's source."""
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in ("trace", "source")}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x


diffs = []
for da, db in zip(a["devices"], b["devices"]):
    for ra, rb in zip(da["rows"] + [da["total"]], db["rows"] + [db["total"]]):
        for k in ra:
            if k != "source" and ra[k] != rb.get(k):
                diffs.append("%s %s: %s vs %s" % (ra["name"][:40], k, ra[k], rb.get(k)))
n = sum(len(d["rows"]) for d in a["devices"])
ok = not diffs and strip(a) == strip(b) and n > 0
print("%s %s: augment then analyse = analyse, every row but Source (%d rows)%s"
      % ("PASS" if ok else "FAIL", name, n, "" if ok else " (%s)" % "; ".join(diffs[:3] or ["other fields differ"])))
PY
    done
}
roundtrip "eager_fp32 --tf32" "$TRACES/eager_fp32.json" fp32 --tf32
roundtrip "eager_bf16" "$TRACES/eager_bf16.json" bf16
roundtrip "cnn_fp32" "$TRACES/cnn_fp32.json" fp32
roundtrip "cnn_fp32 --no-tf32" "$TRACES/cnn_fp32.json" fp32 --no-tf32
# fp32 element-wise ops of an fp32 trace analysed with DTYPE bf16 keep their fp32 peak
roundtrip "eager_fp32 DTYPE bf16" "$TRACES/eager_fp32.json" bf16

# ---- output paths ----
T=$TRACES/explicit_fp32.json
"$PROFANA" --augment_trace "$T" "$TMP/ref.json" fp32 2>/dev/null
mkdir "$TMP/d"
cp "$T" "$TMP/d/t.json"
check_run "in place (OUT = IN)" 0 "$PROFANA" --augment_trace "$TMP/d/t.json" "$TMP/d/t.json" fp32
same "in place: same bytes as to another file" "$TMP/d/t.json" "$TMP/ref.json"
no_temp "in place" "$TMP/d"
check_run "OUT - is standard output" 0 "$PROFANA" --augment_trace "$T" - fp32
same "standard output: same bytes as to a file" "$TMP/out" "$TMP/ref.json"

echo previous >"$TMP/d/keep.json"
check_run "OUT /dev/full" 1 "$PROFANA" --augment_trace "$T" /dev/full fp32
check_grep "/dev/full: one error line naming it" "^profana: error: /dev/full: write failed" "$TMP/err"
check_eq "/dev/full: nothing left in /dev" "$(ls -a /dev | grep -c '\.tmp-')" 0

# A file-size limit makes the write fail half way (EFBIG, with SIGXFSZ ignored): whoever
# runs the test, root included, and OUT keeps its previous contents.
(trap '' XFSZ; ulimit -f 64; "$PROFANA" --augment_trace "$T" "$TMP/d/keep.json" fp32 >"$TMP/out" 2>"$TMP/err")
check_eq "write cut short by a file-size limit: exit 1" "$?" 1
check_grep "write cut short: error names OUT" "^profana: error: $TMP/d/keep.json: write failed" "$TMP/err"
check_eq "write cut short: OUT as it was" "$(cat "$TMP/d/keep.json")" previous
no_temp "write cut short" "$TMP/d"

# A directory nobody may write to; root writes anywhere, so as root the unwritable place is
# a path under a regular file (ENOTDIR), which stops root too.
if [ "$(id -u)" -ne 0 ]; then
    mkdir "$TMP/ro"
    echo previous >"$TMP/ro/out.json"
    chmod 555 "$TMP/ro"
    check_run "read-only directory" 1 "$PROFANA" --augment_trace "$T" "$TMP/ro/out.json" fp32
    check_eq "read-only directory: OUT as it was" "$(cat "$TMP/ro/out.json")" previous
    no_temp "read-only directory" "$TMP/ro"
    chmod 755 "$TMP/ro"
else
    check_run "OUT under a regular file (root: chmod would not stop it)" 1 \
        "$PROFANA" --augment_trace "$T" "$TMP/d/keep.json/out.json" fp32
    check_grep "under a regular file: the reason" "cannot create a file beside it: Not a directory" "$TMP/err"
    check_eq "under a regular file: the file as it was" "$(cat "$TMP/d/keep.json")" previous
fi

check_run "OUT a directory" 1 "$PROFANA" --augment_trace "$T" "$TMP/d" fp32
check_grep "OUT a directory: says so" "is a directory" "$TMP/err"

# ---- bad input: exit 1 (2 for usage), OUT untouched ----
check_run "IN missing" 1 "$PROFANA" --augment_trace "$TMP/nope.json" "$TMP/d/keep.json" fp32
check_eq "IN missing: OUT as it was" "$(cat "$TMP/d/keep.json")" previous
check_run "IN a broken trace" 1 "$PROFANA" --augment_trace tests/broken/cut_off_inside_event.json "$TMP/d/keep.json" fp32 --strict
check_grep "broken trace: byte offset in the message" "^profana: error: tests/broken/cut_off_inside_event.json: byte [0-9]*:" "$TMP/err"
check_eq "broken trace: OUT as it was" "$(cat "$TMP/d/keep.json")" previous
no_temp "errors" "$TMP/d"

# A .json.gz input is written out decompressed, with the pairs.
gzip -c "$T" >"$TMP/t.json.gz"
check_run "gzip input" 0 "$PROFANA" --augment_trace "$TMP/t.json.gz" "$TMP/gz.json" fp32
same "gzip input: same bytes as from the plain file" "$TMP/gz.json" "$TMP/ref.json"
