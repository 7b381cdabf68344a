# test_ranks_nodes.sh - --ranks groups ranks by their traces' host_name: the per-rank node (null without one), the node count, and the matched collectives within one node and across nodes (instances, transfer, skew) against tests/cli/ranks_nodes_gen.py's computation from the raw events, on 4 ranks made from the bundled tensor-parallel pair (2 nodes x 2 ranks, each pair on one node or split across two, 3 + 1); unknown without host_name, never 0; --summary carries host_name, so --ranks over summaries prints what it prints over the traces.
. tests/cli/lib.sh

GEN=tests/cli/ranks_nodes_gen.py
PAIR="testdata/multirank/tp_collectives_bf16_rank0.json.gz testdata/multirank/tp_collectives_bf16_rank1.json.gz"
if [ ! -f testdata/multirank/tp_collectives_bf16_rank0.json.gz ]; then
    echo "SKIP testdata/multirank/ not present"
    exit 0
fi

# case NAME NODES: ranks placed on NODES (one host per rank, '-' none), --ranks' JSON checked
case_of() {
    # shellcheck disable=SC2086
    if ! python3 "$GEN" gen "$TMP/$1" $PAIR "$2"; then
        fail "$1: generator" "$2"
        return
    fi
    check_run "$1: --ranks" 0 "$PROFANA" --ranks "$TMP/$1" bf16 --format json
    cp "$TMP/out" "$TMP/$1.json"
    python3 "$GEN" check "$TMP/$1" "$TMP/$1.json" | sed "s/^\(PASS\|FAIL\) /\1 $1: /"
}

case_of intra nodeA,nodeA,nodeB,nodeB     # each pair on its own node
case_of inter nodeA,nodeB,nodeA,nodeB     # each pair across the two nodes
case_of mixed nodeA,nodeA,nodeA,nodeB     # pair 0 within nodeA, pair 1 across
case_of unknown nodeA,-,nodeB,nodeB       # rank 1 without host_name

# the mixed case has figures on both sides (so the split is not vacuous)
check_eq "mixed: intra-node instances above 0" "$(json 'd["intra_node"]["instances"] > 0' "$TMP/mixed.json")" True
check_eq "mixed: inter-node instances above 0" "$(json 'd["inter_node"]["instances"] > 0' "$TMP/mixed.json")" True
check_eq "unknown: no intra figure" "$(json 'd["intra_node"]' "$TMP/unknown.json")" None
check_eq "unknown: instances with a rank of unknown node" "$(json 'd["node_unknown_instances"] > 0' "$TMP/unknown.json")" True

# text: the Node column and the split line
check_run "mixed: text" 0 "$PROFANA" --ranks "$TMP/mixed" bf16 --wide
check_grep "mixed: the nodes line splits intra and inter" "^Nodes: 2 (by host_name); intra-node [0-9]* instances, transfer [0-9.]* us, skew [0-9.]* us; inter-node [0-9]* instances" "$TMP/out"
check_grep "mixed: rank 3's node in the rank table" "^ *3 | rank03.json | nodeB |" "$TMP/out"
check_run "unknown: text" 0 "$PROFANA" --ranks "$TMP/unknown" bf16 --wide
check_grep "unknown: the split is unknown" "^Nodes: unknown (a trace without host_name)" "$TMP/out"
check_grep "unknown: rank 1's node is -" "^ *1 | rank01.json | -  *|" "$TMP/out"

# summaries carry host_name: --ranks over them equals --ranks over the traces
mkdir -p "$TMP/sums"
for r in 0 1 2 3; do
    "$PROFANA" --analysis "$TMP/mixed/rank0$r.json" bf16 --summary "$TMP/sums/rank0$r.summary.json" >/dev/null 2>&1
done
check_eq "summary: host_name" "$(json 'd["host_name"]' "$TMP/sums/rank03.summary.json")" nodeB
check_run "summaries: --ranks" 0 "$PROFANA" --ranks "$TMP/sums" bf16 --format json
python3 -c "
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
for r in a['ranks'] + b['ranks']: r.pop('trace')
print('same' if a == b else 'differ: %s' % [k for k in a if a[k] != b.get(k)])" "$TMP/mixed.json" "$TMP/out" >"$TMP/cmp"
check_eq "summaries: the same JSON as the traces (but the paths)" "$(cat "$TMP/cmp")" same
