# test_layers.sh - the layers (docs/HACKING.md, "Where things are"): every file under src/ includes only headers of its own layer or lower ones, and only main.c lies directly in src/.
. tests/cli/lib.sh
set -u

# Lowest first; main.c stands above them all.
ORDER="util json catalog trace formulas analysis render rewrite cmd main"
rank() { # LAYER -> its position in ORDER, or nothing
    i=0
    for l in $ORDER; do
        [ "$l" = "$1" ] && { echo $i; return; }
        i=$((i + 1))
    done
}

# A public header's layer is written in it: /* layer: NAME ... */
for h in include/profana/*.h; do
    l=$(sed -n 's|^/\* layer: \([a-z]*\) .*|\1|p' "$h" | head -n 1)
    if [ -n "$l" ] && [ -n "$(rank "$l")" ]; then pass "$(basename "$h") names its layer ($l)"; else fail "$(basename "$h") names its layer" "no '/* layer: NAME' line with a known layer"; fi
done
hlayer() { sed -n 's|^/\* layer: \([a-z]*\) .*|\1|p' "include/$1" | head -n 1; }

n_loose=$(find src -maxdepth 1 -type f ! -name main.c | wc -l)
check_eq "only main.c lies directly in src/" "$n_loose" 0
for d in src/*/; do
    l=$(basename "$d")
    [ -n "$(rank "$l")" ] && pass "src/$l/ is a layer" || fail "src/$l/ is a layer" "not in: $ORDER"
done

# every #include "..." of every file: profana/x.h (a public header, its layer written in it),
# ../LAYER/x.h, or x.h (own folder); one awk pass (a shell loop over them forked 11 s of processes)
awk -v order="$ORDER" '
BEGIN { n = split(order, o, " "); for (i = 1; i <= n; i++) rank[o[i]] = i - 1 }
FNR == 1 { base = FILENAME; sub(/.*\//, "", base) }
pass == 1 && /^\/\* layer: [a-z]+ / { if (!(base in hl)) { split($0, w, " "); hl[base] = w[3] } next }
pass == 1 { next }
FNR == 1 {
    if (FILENAME == "src/main.c") own = "main"
    else if (FILENAME ~ /^src\//) { split(FILENAME, p, "/"); own = p[2] }
    else own = hl[base]
}
/^#include "/ {
    inc = $0; sub(/^#include "/, "", inc); sub(/".*/, "", inc)
    if (inc ~ /^profana\//) { h = inc; sub(/^profana\//, "", h); il = hl[h] }
    else if (inc ~ /^\.\.\/[^\/]*\//) { split(inc, p, "/"); il = p[2] }
    else if (inc ~ /\//) il = "unknown"
    else il = own
    if (!(il in rank) || !(own in rank) || rank[il] > rank[own]) {
        printf "FAIL layers: %s (%s) includes %s (layer %s is above %s)\n", FILENAME, own, inc, il == "" ? "unknown" : il, own
        bad++
    }
}
END { print "bad " bad + 0 }' pass=1 include/profana/*.h pass=2 src/main.c src/*/*.c src/*/*.h include/profana/*.h >"$TMP/layers"
grep '^FAIL ' "$TMP/layers"
bad=$(sed -n 's/^bad //p' "$TMP/layers")
check_eq "no include runs up the layers" "$bad" 0
