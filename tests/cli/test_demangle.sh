# test_demangle.sh - every mangled kernel name (_Z...) of the bundled and public traces demangled as GNU c++filt writes it (the independent oracle, where installed), and ROCm's ck_tile, aiter and sgl kernels shown demangled and shortened in the tables, by hand.
. tests/cli/lib.sh

# profana's demangler through the unit program's filter mode (tests/unit/test_demangle.c)
filter=$(dirname "$PROFANA")/tests/test_demangle
[ -x "$filter" ] || filter=build/tests/test_demangle

python3 tests/cli/mangled_names.py testdata ../shared/testdata/public >"$TMP/names" ||
    fail "mangled names extracted" "python exit $?"
n=$(wc -l <"$TMP/names")
# testdata/ alone holds 10 (the MI300 ResNet's 5 CK convolutions, vLLM's and the MoE trace's CUTLASS GEMMs)
if [ "$n" -ge 10 ]; then pass "mangled names found: $n"; else fail "mangled names found" "$n, want >= 10"; fi

if [ ! -x "$filter" ]; then
    fail "demangler filter" "no $filter (make units)"
else
    "$filter" "$TMP/names" >"$TMP/ours"
    check_eq "one line out per name" "$(wc -l <"$TMP/ours")" "$n"
    if command -v c++filt >/dev/null 2>&1; then
        # --no-recurse-limit: CK's names nest deeper than c++filt's default limit of 2048
        c++filt --no-recurse-limit <"$TMP/names" >"$TMP/theirs"
        # where c++filt reads a name, profana's text is the same byte for byte; where it
        # cannot (Clang's template-param-decl in SGLang's act_and_mul_kernel), the hand value
        bad=$(paste -d '\n' "$TMP/names" "$TMP/ours" "$TMP/theirs" | awk '
            NR % 3 == 1 { name = $0 } NR % 3 == 2 { ours = $0 }
            NR % 3 == 0 {
                theirs = $0; n++
                if (theirs != name) { same += ours == theirs; if (ours != theirs) print "differs: " name; next }
                hand["_ZN7sgl_hip10activation18act_and_mul_kernelI14__hip_bfloat16TnPFT_RKS3_EXadL_Z4siluIS2_ES3_S5_EEEEvPS3_PS4_i"] = \
                    "void sgl_hip::activation::act_and_mul_kernel<__hip_bfloat16, &silu<__hip_bfloat16> >(__hip_bfloat16*, __hip_bfloat16 const*, int)"
                if (name in hand) { if (ours != hand[name]) print "differs from the hand value: " name }
                else if (ours != name) print "c++filt cannot read it, profana did: " name
            }')
        check_eq "every mangled name as c++filt writes it" "$bad" ""
    else
        echo "SKIP c++filt not installed (binutils): the comparison with it"
    fi
fi

# the tables: ROCm's mangled kernels shortened like any signature (hand values from c++filt's
# text: void ck_tile::kentry<2, ck_tile::FmhaBatchPrefillWithPagedKVCacheKernel<...>, ...>)
sg=../shared/testdata/public/tracelens/mi300_sglang_qwen3_prefilldecode.json.gz
if [ -f "$sg" ]; then
    out=$(COLUMNS=200 "$PROFANA" --analysis "$sg" bf16 --columns total_us 2>&1)
    for want in "kentry<FmhaBatchPrefillWithPagedKVCacheKernel>" "act_and_mul_kernel<__hip_bfloat16>" \
        "add_rmsnorm_quant_kernel<bfloat16_t...64>" "add_rmsnorm_quant_kernel<bfloat16_t...256...false>"; do
        if printf '%s\n' "$out" | grep -q "^$want "; then pass "sglang MI300 table shows $want"; else fail "sglang MI300 table shows $want" "not found"; fi
    done
    check_eq "sglang MI300 table: no row still mangled" "$(printf '%s\n' "$out" | grep -c '^_Z')" 0
    # the findings' prose too: the heaviest-row finding names a kernel, never a mangled one
    check_eq "sglang MI300 findings: no mangled name" "$(printf '%s\n' "$out" | grep -c 'heaviest row _Z')" 0
fi
rc=$(COLUMNS=200 "$PROFANA" --analysis testdata/public/mi300_resnet_convs.json.gz bf16 --columns total_us >"$TMP/convs" 2>&1; echo $?)
check_eq "MI300 ResNet convolutions: exit 0" "$rc" 0
for want in "kernel_grouped_conv_fwd_xdl_cshuffle_v3<GridwiseGemm_xdl_cshuffle_v3" "kernel_batched_gemm_xdlops_bwd_weight<GridwiseGemm_bk0mk1_bk0nk1_mn_xdlops_bwd_weight"; do
    if grep -q "^$want" "$TMP/convs"; then pass "MI300 ResNet table shows $want"; else fail "MI300 ResNet table shows $want" "not found"; fi
done
check_eq "MI300 ResNet table: no row still mangled" "$(grep -c '^_Z' "$TMP/convs")" 0
