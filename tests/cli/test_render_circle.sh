# test_render_circle.sh - no circle among the files of src/render/ (issue 29): a file's public functions called from another file make an edge, and the edges form no cycle; the shared view helpers live in view_common.c and the JSON writer in jsonw.c; no file in render/ over 950 lines.
. tests/cli/lib.sh
set -u

python3 - <<'PY' >"$TMP/circle"
import re, glob, os
files = sorted(glob.glob(os.environ.get("PF_RENDER_DIR", "src/render") + "/*.c"))
def strip(s): # comments, character literals, then strings
    s = re.sub(r'/\*.*?\*/', '', s, flags=re.S)
    s = re.sub(r"'(\\.|[^'\\])'", "''", s)
    return re.sub(r'"(\\.|[^"\\])*"', '""', s)
text = {f: strip(open(f).read()) for f in files}
# a definition: a line starting with a non-static type and a pf_ name followed by '('
defs = {}
for f, s in text.items():
    for m in re.finditer(r'^(?!static)[a-z][\w \*]*?\b(pf_\w+)\(', s, re.M):
        defs.setdefault(m.group(1), f)
edges = {f: set() for f in files}
for f, s in text.items():
    for name in set(re.findall(r'\b(pf_\w+)\(', s)):
        g = defs.get(name)
        if g and g != f:
            edges[f].add(g)
# a cycle: depth-first search with colours
state, cycle = {}, []
def visit(f, path):
    state[f] = 1
    for g in sorted(edges[f]):
        if state.get(g) == 1 and not cycle:
            cycle.extend(path[path.index(g):] + [g])
        elif g not in state:
            visit(g, path + [g])
    state[f] = 2
for f in files:
    if f not in state:
        visit(f, [f])
print("edges", sum(len(e) for e in edges.values()))
print("cycle", " -> ".join(os.path.basename(c) for c in cycle) if cycle else "none")
print("jw_home", defs.get("pf_jw_init", "?"), defs.get("pf_jw_str", "?"))
print("fit_home", defs.get("pf_view_fit", "?"), defs.get("pf_view_label_names", "?"), defs.get("pf_view_category_order", "?"))
PY
check_eq "render/: no circle among its files" "$(sed -n 's/^cycle //p' "$TMP/circle")" none
n=$(sed -n 's/^edges //p' "$TMP/circle")
[ "${n:-0}" -ge 10 ] && pass "render/: the call graph was read ($n edges between files)" || fail "render/: the call graph was read" "only ${n:-0} edges"
check_eq "the JSON writer lives in render/jsonw.c" "$(sed -n 's/^jw_home //p' "$TMP/circle")" "src/render/jsonw.c src/render/jsonw.c"
check_eq "the shared view helpers live in render/view_common.c" "$(sed -n 's/^fit_home //p' "$TMP/circle")" \
    "src/render/view_common.c src/render/view_common.c src/render/view_common.c"
for f in src/render/*.c; do
    n=$(wc -l <"$f")
    [ "$n" -le 950 ] || fail "$f is at most 950 lines" "$n lines"
done
pass "every file in src/render/ checked against 950 lines"
