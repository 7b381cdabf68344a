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

# 10. Phase names: pf_phase_choices (src/analysis/phases.c), read by --phase's option row and
# the views; pf_phase_name reads it too. No other file spells a phase in a string.
# ("mixed" is also what a table's summary cell reads for a list of several values: tabulate.c.)
for ph in prefill decode mixed; do
    check_eq "one place: the phase name \"$ph\" is written once in analysis/phases.c" "$(count_fixed "\"$ph\"" src/analysis/phases.c)" 1
    [ "$ph" = mixed ] && continue
    check_eq "one place: ... and nowhere else in src/" "$(grep -lF "\"$ph\"" $SRC | tr '\n' ' ')" "src/analysis/phases.c "
done
check_eq "one place: the views format no phase name of their own (pf_phase_name)" "$(grep -lE '(prefill|decode|mixed|none) %' src/render/*.c | tr '\n' ' ')" ""
check_eq "one place: the command line keeps no list of phase names" "$(cat src/main.c src/cmd/cli_*.c | grep -c 'phase_names')" 0
cat src/cmd/cli_options.c | grep -q 'an\.phase, pf_phase_choices,'  && pass "one place: --phase's row reads pf_phase_choices" || fail "one place: --phase's row reads pf_phase_choices" "it does not"

# 11. The --columns help's column names: the views' column tables (src/render/analysis_view.c,
# diff_view.c), which --help reads through pf_view_columns_help. main.c spells no column, and
# the names --help lists are exactly the ones --columns takes (its error lists them).
check_eq "one place: the command line spells no column of --columns" "$(cat src/main.c src/cmd/cli_*.c | grep -cE 'total_us, pct|p50_us|cpu_total_us|a_mean_us|ratio_ci')" 0
help_cols=$("$PROFANA" --help | sed -n '/^  --columns LIST/,/^  --[a-z]/p' | sed '$d' | tr -s ' \n' '  ')
names() { tr ',;' '\n\n' | sed 's/^ *//; s/ *$//' | grep -v '^$' | sort; }
help_an=$(echo "$help_cols" | sed 's/.*(--analysis: //; s/; --diff: .*//; s/on request only: //; s/--group op also //' | names)
help_diff=$(echo "$help_cols" | sed 's/.*; --diff: //; s/).*//' | names)
taken_an=$("$PROFANA" --analysis "$TMP/none.json" bf16 --group op --columns no_such_column 2>&1 | sed -n 's/.*the columns are: //p' | tr ' ' '\n' | grep -vx name | sort)
taken_diff=$("$PROFANA" --diff "$TMP/none.json" A "$TMP/none.json" B bf16 --columns no_such_column 2>&1 | sed -n 's/.*the columns are: //p' | tr ' ' '\n' | grep -vx name | sort)
[ "$(echo "$help_an" | grep -c .)" -ge 20 ] && pass "one place: --help lists $(echo "$help_an" | grep -c .) --analysis columns" || fail "one place: --help's --analysis columns" "$(echo "$help_an" | grep -c .)"
check_eq "one place: --help's --analysis columns are the ones --columns takes (--group op)" "$(echo $help_an)" "$(echo $taken_an)"
check_eq "one place: --help's --diff columns are the ones --columns takes" "$(echo $help_diff)" "$(echo $taken_diff)"

# 12. The commands that read a device file (--device-file, $PROFANA_DEVICES): ON_DEVICE_FILE
# (src/cmd/cli_table.h), the mask of both the option's row and the environment's fallback.
check_eq "one place: the device-file commands are one mask (cli_table.h)" "$(cat src/main.c src/cmd/cli_*.c src/cmd/cli_table.h | grep -cF 'ON_ANALYSIS | ON_DIFF | ON_AUGMENT | ON_DEVICES')" 1
check_eq "one place: --device-file's row and \$PROFANA_DEVICES read ON_DEVICE_FILE" "$(cat src/cmd/cli_options.c src/cmd/cli_check.c | grep -c 'ON_DEVICE_FILE')" 2

# 13. vLLM's execution_details.json told from a trace: pf_capture_list_is (src/catalog/captures.c),
# its name PF_CAPTURE_LIST_NAME (include/profana/captures.h); cmd/ and main.c spell neither.
check_eq "one place: a capture list is sniffed in catalog/captures.c alone" "$(grep -lw 'batch_size' $SRC | tr '\n' ' ')" "src/catalog/captures.c "
check_eq "one place: no static is_vllm_details left" "$(grep -c 'is_vllm_details' -r src | awk -F: '{ s += $2 } END { print s }')" 0
check_eq "one place: cmd/ and main.c name execution_details.json only as PF_CAPTURE_LIST_NAME" "$(grep -lE '"[^"]*execution_details\.json' src/cmd/*.c src/main.c | tr '\n' ' ')" ""

# 14. One list per formula: include/profana/formula_list.h makes the formula enum
# (op_family.h), the prototypes (src/formulas/families.h) and the registry (registry.c); none
# of the three lists a formula by hand (docs/HACKING.md: Recipe: an op formula).
check_eq "one list: op_family.h enumerates no formula by hand" "$(grep -cE '^ *PF_OPF_[A-Z0-9_]+,' include/profana/op_family.h)" 0
check_eq "one list: families.h declares no formula by hand (only the generic guess)" "$(grep -c '^int pf_' src/formulas/families.h)" 1
check_eq "one list: registry.c keeps no row per formula" "$(grep -cE '^ *\[PF_OPF_[A-Z0-9_]+\] *=' src/formulas/registry.c)" 0
n_list=$(grep -c '^PF_FORMULA(' include/profana/formula_list.h)
[ "$n_list" -ge 40 ] && pass "one list: formula_list.h has $n_list formulas" || fail "one list: formula_list.h" "$n_list lines"
