#!/bin/bash
# compare_outputs.sh - runs two profana binaries side by side on every trace in testdata/ and
# every subcommand (all groups, formats and options that change output), and reports any
# difference in stdout, stderr, exit status or written file. For refactors that must not
# change behaviour: tools/compare_outputs.sh OLD_BINARY NEW_BINARY [TRACE...]
# Prints one line per difference and "N commands, N differ"; exits 1 when any differ.
set -u
old=$(realpath "$1") new=$(realpath "$2")
shift 2
cd "$(dirname "$0")/.." || exit 2
traces=("$@")
[ ${#traces[@]} -eq 0 ] && traces=(testdata/traces/*.json testdata/peer/*.json.gz)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmds=$work/cmds
: >"$cmds"
add() { printf '%s\n' "$*" >>"$cmds"; }
for t in "${traces[@]}"; do
    for g in kernel op shape; do
        for f in text csv json md; do
            add --analysis "$t" bf16 --group $g --format $f
        done
        add --analysis "$t" bf16 --group $g --by-category
        add --analysis "$t" bf16 --group $g --by-category --format md
    done
    add --analysis "$t" fp32 --tf32 --top 5 --name_limit 0
    add --analysis "$t" fp16 --group op --top 3 --format json --device h100
    add --analysis "$t" bf16 --steps
    add --analysis "$t" bf16 --steps --format json
    add --analysis "$t" bf16 --step all --group op
    add --analysis "$t" bf16 --step 3 --format json
    add --analysis "$t" bf16 --plot roofline @OUT/r.svg --plot breakdown @OUT/b.svg --report @OUT/r.html
    add --analysis "$t" fp32 --explain aten::mm
    add --analysis "$t" bf16 --explain aten::addmm --format json
    add --analysis "$t" bf16 --explain aten::convolution
    add --analysis "$t" bf16 --explain aten::_scaled_dot_product_cudnn_attention
    add --analysis "$t" bf16 --explain triton_
    add --analysis "$t" bf16 --explain nvjet --format md
    add --augment_trace "$t" @OUT/aug.json bf16
    add --augment_trace "$t" @OUT/aug.json fp32 --extra --tf32
    add --combine "$t" testdata/traces/explicit_bf16.json @OUT/comb.json
done
pairs="testdata/traces/eager_bf16.json testdata/traces/eager_fp16.json
testdata/traces/compiled_pair_b8.json testdata/traces/compiled_pair_b16.json
testdata/peer/owlv2_h100.json.gz testdata/peer/owlv2_mi300.json.gz
testdata/traces/eager_fp32.json testdata/traces/cnn_fp32.json"
while read -r a b; do
    for g in kernel op shape; do
        for f in text csv json md; do
            add --diff "$a" A "$b" B bf16 --group $g --format $f
        done
    done
    add --diff "$a" A "$b" B fp16 --name_limit 50 --top 4 --fail-above 1
    add --diff "$a" A "$b" B bf16 --plot roofline @OUT/r.svg --plot breakdown @OUT/b.svg --report @OUT/d.html
done <<<"$pairs"
add --combine testdata/traces/eager_bf16.json testdata/traces/eager_fp16.json testdata/peer/owlv2_h100.json.gz @OUT/c.json
for f in text csv json md; do add --list-devices --format $f; done
add --help
add --version
add --analysis
add --analysis testdata/traces/eager_bf16.json bf17
add --bogus

run() { # BIN DIR CMDLINE
    mkdir -p "$2/out"
    local args=() a
    for a in $3; do args+=("${a//@OUT/$work/o}"); done
    rm -rf "$work/o"; mkdir -p "$work/o"
    "$1" "${args[@]}" -j 2 >"$2/stdout" 2>"$2/stderr"
    echo $? >"$2/rc"
    cp -r "$work/o/." "$2/out/" 2>/dev/null
}
n=0 bad=0
while read -r line; do
    n=$((n + 1))
    rm -rf "$work/A" "$work/B"
    run "$old" "$work/A" "$line"
    run "$new" "$work/B" "$line"
    if ! diff -r -q "$work/A" "$work/B" >/dev/null; then
        bad=$((bad + 1))
        echo "DIFFERS: $line"
        diff -r "$work/A" "$work/B" | head -8 | sed 's/^/    /'
    fi
done <"$cmds"
echo "$n commands, $bad differ"
[ "$bad" -eq 0 ]
