# test_one_place.sh - one place per fact (issue 29; beside test_layers.sh): each fact below has
# one definition in src/, and the tests read the op list from the binary instead of a copy.
# Greps, so a second copy fails here before it can drift from the first.
. tests/cli/lib.sh
set -u

# count_fixed PATTERN FILES...: lines holding the fixed string PATTERN in the files
count_fixed() {
    pat=$1
    shift
    cat "$@" | grep -cF -- "$pat"
}

SRC=$(find src -name '*.[ch]' | sort)

# 1-2. Convolution argument positions and attention layouts: fields of the op table's rows
# (pf_conv_args, pf_attn_args in src/catalog/op_family.c). No formula file names one of those
# ops in a string, as a table of positions keyed by op name would.
ops=$("$PROFANA" --list-ops | awk -F'\t' '$1 ~ /^aten::/ && $2 ~ /^(conv|conv_backward|conv_transpose|attention|attention_backward)$/ { sub(/^aten::/, "", $1); print $1 }')
[ "$(echo "$ops" | grep -c .)" -ge 20 ] && pass "one place: at least 20 convolution and attention ops" || fail "one place: convolution and attention ops" "$(echo "$ops" | grep -c .)"
copies=
for op in $ops; do
    for f in src/formulas/*.[ch]; do
        grep -qF "\"$op\"" "$f" && copies="$copies $f:$op"
        grep -qF "\"aten::$op\"" "$f" && copies="$copies $f:aten::$op"
    done
done
check_eq "one place: no formula file names a convolution or attention op" "${copies:-none}" none
check_eq "one place: conv.c keeps no table of positions" "$(grep -c 'conv_layouts\[\]' src/formulas/conv.c)" 0
check_eq "one place: attention.c keeps no table of layouts" "$(grep -c 'attn_layouts\[\]' src/formulas/attention.c)" 0
check_eq "one place: the op table builds conv keys from the positions (no CONV_ARGS)" "$(grep -c 'define CONV_ARGS' src/catalog/op_family.c)" 0

# 3. Group names: pf_group_names (src/analysis/analysis.c), the one list of "kernel", "op", "shape".
check_eq "one place: the group names are written once in src/" "$(count_fixed '"kernel", "op", "shape"' $SRC)" 1
check_eq "one place: ... in src/analysis/analysis.c" "$(count_fixed '"kernel", "op", "shape"' src/analysis/analysis.c)" 1

# 4. Dtype names and column titles: src/catalog/dtype.c alone.
for d in FP64 FP32 TF32 BF16 FP16 FP8 INT8 FP6 FP4; do
    n=$(grep -lF "\"$d\"" $SRC | tr '\n' ' ')
    check_eq "one place: the dtype title \"$d\" is written only in catalog/dtype.c" "$n" "src/catalog/dtype.c "
done

# 5. The tests' op list comes from the binary: check_augment.py asks --list-ops and keeps no
# set of op names of its own.
grep -q -- '"--list-ops"' tests/cli/check_augment.py && pass "one place: check_augment.py reads --list-ops" || fail "one place: check_augment.py reads --list-ops" "it does not"
check_eq "one place: check_augment.py has no FORMULA_OPS literal" "$(grep -c 'FORMULA_OPS = {"' tests/cli/check_augment.py)" 0
"$PROFANA" --help | grep -q -- --list-ops && fail "one place: --list-ops is hidden" "in --help" || pass "one place: --list-ops is hidden from --help"

# 6. jscan_prim.h is private to the users it names: src/json/, src/trace/, src/rewrite/splice.c.
users=$(grep -l 'jscan_prim\.h"' $SRC | grep -v '^src/json/\|^src/trace/\|^src/rewrite/splice\.c$' | tr '\n' ' ')
check_eq "one place: jscan_prim.h is included only by the users it names" "${users:-none}" none
for u in src/json/jscan.c src/trace/ src/rewrite/splice.c; do
    grep -qF "$u" src/json/jscan_prim.h && pass "one place: jscan_prim.h names its user $u" || fail "one place: jscan_prim.h names its user $u" "not named"
done

# 7. One gzip test: pf_is_gzip (src/util/gzout.c); nothing else compares bytes with gzip's magic.
check_eq "one place: gzip's magic (0x8b) is tested once in src/" "$(grep -l '0x8b' $SRC | tr '\n' ' ')" "src/util/gzout.c "
check_eq "one place: no static is_gzip left" "$(grep -l 'static int is_gzip' $SRC | wc -l | tr -d ' ')" 0

# 8. The modes: what --explain and --steps do not take follows from the option rows; the
# conflict table keeps at most 4 pairs (issue 29).
rows=$(sed -n '/^static const conflict conflicts\[\] = {/,/^};/p' src/cmd/cli_check.c | grep -c '^    {"')
[ "$rows" -ge 1 ] && [ "$rows" -le 4 ] && pass "cli_check.c: the conflict table has $rows rows (at most 4)" || fail "cli_check.c: the conflict table" "$rows rows"
check_eq "the command line: no hard-coded is_input" "$(cat src/main.c src/cmd/cli_*.c | grep -c 'is_input')" 0

# 9. Contracts asserted (issue 29: at least 150 asserts in src/), and asserts on in every build
# the tests run: no -DNDEBUG in the Makefile.
n_asserts=$(grep -c 'assert(' -r src | awk -F: '{ s += $2 } END { print s }')
[ "$n_asserts" -ge 150 ] && pass "asserts: $n_asserts in src/ (at least 150)" || fail "asserts: at least 150 in src/" "$n_asserts"
check_eq "asserts: no build turns them off (NDEBUG)" "$(grep -c 'NDEBUG' Makefile)" 0
