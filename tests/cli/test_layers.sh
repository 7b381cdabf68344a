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

bad=0
for f in src/main.c src/*/*.c src/*/*.h include/profana/*.h; do
    case $f in
    src/main.c) own=main ;;
    src/*) own=$(basename "$(dirname "$f")") ;;
    include/*) own=$(hlayer "${f#include/}") ;;
    esac
    me=$(rank "$own")
    # every #include "..." of the file: profana/x.h (a public header), ../LAYER/x.h, or x.h (own folder)
    for inc in $(sed -n 's|^#include "\([^"]*\)".*|\1|p' "$f"); do
        case $inc in
        profana/*) il=$(hlayer "$inc") ;;
        ../*/*) il=$(echo "$inc" | cut -d/ -f2) ;;
        */*) il=unknown ;;
        *) il=$own ;;
        esac
        them=$(rank "$il")
        if [ -z "$them" ] || [ "$them" -gt "$me" ]; then
            fail "layers: $f ($own) includes $inc" "layer ${il:-unknown} is above $own"
            bad=$((bad + 1))
        fi
    done
done
check_eq "no include runs up the layers" "$bad" 0
