# test_schema.sh - versioned JSON (issue 46 item 4): every JSON document of a sweep of commands over the bundled traces opens with "schema": "profana/1" and validates against its schema in docs/schema/ (python3-jsonschema); the schemas' own validity; a summary of another schema refused.
# check: optimised (its cost is profana runs under the sanitizers checked only for their
# JSON; check-full runs it on both builds)
. tests/cli/lib.sh
set -u

LIST=$TMP/list
: >"$LIST"
n=0
# doc SCHEMA LABEL ARGS...: runs profana ARGS (exit 0 expected), its stdout to be validated against SCHEMA
doc() {
    s=$1 label=$2
    shift 2
    n=$((n + 1))
    if "$PROFANA" "$@" >"$TMP/d$n.json" 2>"$TMP/err"; then
        printf '%s\t%s\t%s\n' "$s" "$TMP/d$n.json" "$label" >>"$LIST"
    else
        fail "schema: $label" "exit $?: $(head -c 300 "$TMP/err")"
    fi
}

# --analysis over every bundled trace (the public and peer ones included), kernel rows
for f in $TRACES/*.json testdata/diagnosis/*.json.gz testdata/w2026/*.json.gz testdata/waits/*.json \
    testdata/multirank/*.json.gz testdata/public/*.json.gz testdata/peer/*.json.gz testdata/hta/*.json* \
    testdata/old/*.json* testdata/inductor/*.json*; do
    [ -f "$f" ] || continue
    doc analysis "--analysis $f" --analysis "$f" bf16 --format json --quiet
done
# the other groups, views and selections of --analysis
E=$TRACES/eager_bf16.json
S=$TRACES/steps_bf16.json
doc analysis "--group op" --analysis "$E" bf16 --group op --format json --quiet
doc analysis "--group shape --top 3" --analysis "$E" bf16 --group shape --top 3 --format json --quiet
doc analysis "--by-category" --analysis "$E" bf16 --by-category --format json --quiet
doc analysis "--steps" --analysis "$S" bf16 --steps --format json --quiet
doc analysis "--step 2" --analysis "$S" bf16 --step 2 --format json --quiet
doc analysis "--phase decode" --analysis testdata/public/vllm_decode_graph_execution.json.gz bf16 --phase decode --format json --quiet
doc analysis "--graph-capture" --analysis testdata/public/vllm_decode_graph_execution.json.gz bf16 --graph-capture testdata/public/vllm_decode_full --format json --quiet
doc modules "--group module (none)" --analysis testdata/modules/mlp_stack_nostack.json.gz bf16 --group module --format json --quiet
doc modules "--group module" --analysis testdata/diagnosis/numpy_preprocess.json.gz bf16 --group module --format json --quiet
doc modules "--group annotation" --analysis testdata/peer/owlv2_h100.json.gz bf16 --group annotation --format json --quiet
doc sequences "--group sequence" --analysis "$E" bf16 --group sequence --format json --quiet
doc critical-path "--group critical-path" --analysis testdata/diagnosis/load_batch.json.gz bf16 --group critical-path --format json --quiet
doc critical-path "--group critical-path (no steps)" --analysis "$E" bf16 --group critical-path --format json --quiet
doc explain "--explain aten::mm" --analysis $TRACES/explicit_bf16.json bf16 --explain aten::mm --format json --quiet
doc explain "--explain a kernel" --analysis $TRACES/cnn_fp32.json fp32 --explain aten::cudnn_convolution --format json --quiet
doc diff "--diff" --diff $TRACES/compiled_pair_b8.json b8 $TRACES/compiled_pair_b16.json b16 bf16 --format json --quiet
doc diff "--diff --group shape" --diff "$E" bf16 $TRACES/eager_fp16.json fp16 bf16 --group shape --format json --quiet
R=testdata/runs
doc diff "--diff of three runs a side" --diff $R/base_run1.json.gz,$R/base_run2.json.gz,$R/base_run3.json.gz base \
    $R/changed_run1.json.gz,$R/changed_run2.json.gz,$R/changed_run3.json.gz changed bf16 --format json --quiet
M=testdata/multirank
doc ranks "--ranks tp" --ranks $M/tp_collectives_bf16_rank0.json.gz $M/tp_collectives_bf16_rank1.json.gz bf16 --format json --quiet
doc ranks "--ranks fsdp2" --ranks $M/fsdp2_bf16_rank0.json.gz $M/fsdp2_bf16_rank1.json.gz bf16 --format json --quiet
mkdir -p "$TMP/sum"
for r in 0 1; do
    doc summary "--summary rank $r" --analysis $M/fsdp2_bf16_rank$r.json.gz bf16 --summary - --quiet
    cp "$TMP/d$n.json" "$TMP/sum/r$r.json"
done
doc ranks "--ranks over summaries" --ranks "$TMP/sum/r0.json" "$TMP/sum/r1.json" bf16 --format json --quiet
doc devices "--list-devices" --list-devices --format json
printf '[{"name": "Lab GPU", "match": "H100", "tflops": {"bf16": 900}, "gbps": 3000}]\n' >"$TMP/devs.json"
doc devices "--list-devices --device-file" --list-devices --device-file "$TMP/devs.json" --format json

# --format ndjson: each line a document of its own
for f in $TRACES/eager_bf16.json $TRACES/steps_bf16.json testdata/peer/owlv2_mi300.json.gz $M/fsdp2_bf16_rank0.json.gz; do
    doc ndjson "--analysis $f ndjson" --analysis "$f" bf16 --format ndjson --quiet
done
doc ndjson "--analysis --group shape --top 3 ndjson" --analysis "$E" bf16 --group shape --top 3 --format ndjson --quiet
doc ndjson "--ranks ndjson" --ranks $M/tp_collectives_bf16_rank0.json.gz $M/tp_collectives_bf16_rank1.json.gz bf16 --format ndjson

[ "$n" -ge 60 ] && pass "schema: $n documents swept" || fail "schema: documents swept" "$n, want at least 60"
python3 tests/cli/schema_check.py "$LIST"

# every schema file is one the sweep used, and names the version it checks
for f in docs/schema/*.schema.json; do
    s=$(basename "$f" .schema.json)
    grep -q "^$s	" "$LIST" && pass "schema: $s used by the sweep" || fail "schema: $s" "no document of the sweep checked against it"
    grep -q '"schema": {"const": "profana/1"}' "$f" && pass "schema: $s requires profana/1" || fail "schema: $s" "no const profana/1"
done

# A summary of another schema version is refused with the version named; one written before the
# schema member (opening with "profana_summary") is still read.
sed 's|"schema":"profana/1"|"schema":"profana/2"|' "$TMP/sum/r1.json" >"$TMP/sum/v2.json"
"$PROFANA" --ranks "$TMP/sum/r0.json" "$TMP/sum/v2.json" bf16 >"$TMP/out" 2>"$TMP/err"
check_eq "schema: a summary of profana/2 refused" "$?:$(cat "$TMP/err")" \
    "1:profana: error: $TMP/sum/v2.json: a profana document of schema \"profana/2\"; this profana reads profana/1 (write it again with this profana's --summary)"
sed 's|"schema":"profana/1",||' "$TMP/sum/r1.json" >"$TMP/sum/old.json"
"$PROFANA" --ranks "$TMP/sum/r0.json" "$TMP/sum/r1.json" bf16 --format json >"$TMP/new.out"
"$PROFANA" --ranks "$TMP/sum/r0.json" "$TMP/sum/old.json" bf16 --format json >"$TMP/old.out"
check_eq "schema: a summary without the member (written before it) reads the same" \
    "$(cmp -s "$TMP/new.out" "$TMP/old.out" && head -c 1 "$TMP/sum/old.json" && echo same)" "{same"

# The schemas refuse what they should: a document of another version, a row's time as text, a
# device without its rows' required members (each a FAIL line of the checker, as wanted).
A=$(awk -F'\t' '$1 == "analysis" { print $2; exit }' "$LIST")
python3 - "$A" "$TMP/neg" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
out = sys.argv[2]
def put(i, text):
    open("%s%d.json" % (out, i), "w").write(text)
put(1, json.dumps(dict(d, schema="profana/2"), separators=(",", ":")))
e = json.loads(json.dumps(d)); e["devices"][0]["rows"][0]["total_us"] = "12.5"
put(2, json.dumps(e, separators=(",", ":")))
e = json.loads(json.dumps(d)); del e["devices"][0]["rows"][0]["flop"]
put(3, json.dumps(e, separators=(",", ":")))
e = json.loads(json.dumps(d)); del e["schema"]
put(4, json.dumps(e, separators=(",", ":")))
PY
printf 'analysis\t%s\tneg%d\n' "$TMP/neg1.json" 1 "$TMP/neg2.json" 2 "$TMP/neg3.json" 3 "$TMP/neg4.json" 4 >"$TMP/neglist"
check_eq "schema: another version, a time as text, a row without flop, no schema member: each refused" \
    "$(python3 tests/cli/schema_check.py "$TMP/neglist" | cut -c1-4 | tr '\n' ' ')" "FAIL FAIL FAIL FAIL "
