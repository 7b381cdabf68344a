# test_categories.sh - kernel categories against the Inductor compiled module's own -p report.
. tests/cli/lib.sh

# The report (testdata/reference/compiled_module_profile_0.inductor_report.txt) gives per
# category a "Total" in ms per run; the trace holds 100 runs. The report's pointwise total is
# 0.0533441 ms, persistent reduction 0.0487631 ms, and no reduction kernels.
"$PROFANA" --analysis "$TRACES/compiled_module_profile_0.json" bf16 --format json >"$TMP/c.json"
cat_us() { json "sum(c['total_us'] for c in d['devices'][0]['categories'] if c['category']=='$1')" "$TMP/c.json"; }
report_ms() { # CATEGORY -> the report's Total for it (ms per run), 0 when it lists none
    awk -v c="== $1 category kernels ==" 'index($0, c) { on = 1; next } on && $1 == "Total" { print $2; exit } /^  == / { on = 0 }
        END { if (!on) print 0 }' "$REFS/compiled_module_profile_0.inductor_report.txt" | head -n 1
}
for c in triton_pointwise triton_persistent_reduction; do
    want=$(report_ms "$c")
    check_near "compiled module: $c total / 100 runs = report's Total ($want ms)" \
        "$(python3 -c "print($(cat_us "$c") / 100 / 1000)")" "$want" 0.02
done
check_eq "compiled module: no triton_reduction kernels, as in the report" "$(cat_us triton_reduction)" "0"

# Each Triton kernel lands in the category the report lists it under.
awk '/^  == .* category kernels ==/ { cat = $2; next } cat != "" && $1 ~ /^triton_/ { print $1, cat }' \
    "$REFS/compiled_module_profile_0.inductor_report.txt" >"$TMP/report_cats"
while read -r kernel cat; do
    check_eq "compiled module: $kernel is $cat" \
        "$(json "[r['category'] for r in d['devices'][0]['rows'] if r['name']=='$kernel'][0]" "$TMP/c.json")" "$cat"
done <"$TMP/report_cats"
check_eq "compiled module: the report names 6 Triton kernels" "$(wc -l <"$TMP/report_cats" | tr -d ' ')" "6"

# Library kernels by their launching op: the GEMM, cuDNN SDPA and memset of the same module.
check_eq "nvjet GEMM kernel is gemm" "$(json "[r['category'] for r in d['devices'][0]['rows'] if r['name'].startswith('nvjet_')][0]" "$TMP/c.json")" "gemm"
check_eq "cuDNN SDPA kernel is attention" "$(json "[r['category'] for r in d['devices'][0]['rows'] if r['name'].startswith('cudnn_generated_fort_native_sdpa')][0]" "$TMP/c.json")" "attention"
check_eq "Memset is memset" "$(json "[r['category'] for r in d['devices'][0]['rows'] if r['name']=='Memset (Device)'][0]" "$TMP/c.json")" "memset"

# Category totals add up to the device's GPU time, on every trace.
for f in "$TRACES"/*.json; do
    "$PROFANA" --analysis "$f" bf16 --format json >"$TMP/t.json"
    check_near "$(basename "$f"): category times add up to the Total" \
        "$(json "sum(c['total_us'] for c in d['devices'][0]['categories'])" "$TMP/t.json")" \
        "$(json "d['devices'][0]['total']['total_us']" "$TMP/t.json")" 0.000001
done

# --by-category: one table per category, like the report's "== ... category kernels ==".
# (--wide: the whole kernel names are looked up; a pipe is 100 columns wide)
"$PROFANA" --analysis "$TRACES/compiled_module_profile_0.json" bf16 --by-category --name_limit 0 --wide >"$TMP/bc.txt"
section() { awk -v h="== $1 ==" '$0 == h { on = 1; next } on && /^$/ { exit } on' "$TMP/bc.txt"; }
check_eq "--by-category: persistent reduction lists 5 kernels + Total" "$(section triton_persistent_reduction | awk 'NR > 2' | wc -l | tr -d ' ')" "6"
check_eq "--by-category: its Total is the category's time" \
    "$(section triton_persistent_reduction | awk -F' [|] ' '$1 ~ /^Total/ { gsub(/ /, "", $2); print $2 }')" "4876.306"
# Each kernel's time per run (/100) is the report's Self CUDA time for it (ms).
awk '/^  == .* category kernels ==/ { cat = $2; next } cat != "" && $1 ~ /^triton_/ { print $1, $2 }' \
    "$REFS/compiled_module_profile_0.inductor_report.txt" | while read -r kernel ms; do
    us=$(awk -F' [|] ' -v k="$kernel" '/^== / { on = 1 } on { n = $1; sub(/ +$/, "", n); if (n == k) { gsub(/ /, "", $2); print $2; exit } }' "$TMP/bc.txt")
    check_near "--by-category: $kernel per run = report's $ms ms" "$(awk -v u="$us" 'BEGIN { print u / 100 / 1000 }')" "$ms" 0.001
done
