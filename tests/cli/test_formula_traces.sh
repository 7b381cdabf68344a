# test_formula_traces.sh - issue 3's checks on every trace in testdata: attention rows equal REFERENCE section 3 by hand from each invocation's shapes, bytes cover >= 95% of GPU time, and no percentage over 100 goes unmarked.
# check: optimised
. tests/cli/lib.sh

# Attention FLOPs by hand, per op name, summed over the invocations that launched GPU
# activity, read with Python from the raw cpu_ops: q, k, v positions and layout per op
# schema, is_causal / custom_mask_type halving. Prints "OP FLOP" lines.
hand_attention() {
    python3 - "$1" <<'PY'
import gzip, json, sys
# op: (q position, [B,S,H,D] layout, backward, is_causal position, custom_mask_type position)
layouts = {
    "aten::_cudnn_attention_forward": (0, 0, 0, 10, None),
    "aten::_cudnn_attention_backward": (1, 0, 1, 14, None),
    "aten::_efficient_attention_forward": (0, 1, 0, None, 9),
    "aten::_efficient_attention_backward": (1, 1, 1, None, 14),
    "aten::_scaled_dot_product_flash_attention": (0, 0, 0, 4, None),
    "aten::_scaled_dot_product_flash_attention_backward": (1, 0, 1, 11, None),
    "aten::_scaled_dot_product_efficient_attention": (0, 0, 0, 6, None),
    "aten::_scaled_dot_product_efficient_attention_backward": (1, 0, 1, 11, None),
    "aten::_flash_attention_forward": (0, 1, 0, 8, None),
    "aten::_flash_attention_backward": (1, 1, 1, 11, None),
}
p = sys.argv[1]
d = json.load(gzip.open(p) if p.endswith(".gz") else open(p))
ev = d["traceEvents"]
launched = {e["args"].get("External id") for e in ev if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")}
total = {}
for e in ev:
    if e.get("cat") != "cpu_op" or e["name"] not in layouts or e["args"].get("External id") not in launched:
        continue
    qp, seq_first, backward, cp, mp = layouts[e["name"]]
    q, k, v = e["args"]["Input Dims"][qp:qp + 3]
    b, h, sq, dq = (q[0], q[2], q[1], q[3]) if seq_first else q
    sk = k[1] if seq_first else k[2]
    dv = v[3]
    c = e["args"]["Concrete Inputs"]
    causal = (cp is not None and c[cp] == "True") or (mp is not None and c[mp] in ("1", "2"))
    flop = 2 * b * h * sq * sk * ((3 * dq + 2 * dv) if backward else (dq + dv))
    total[e["name"]] = total.get(e["name"], 0) + (flop // 2 if causal else flop)
for name in sorted(total):
    print(name, total[name])
PY
}

for f in "$TRACES"/*.json testdata/peer/*.json.gz; do
    base=$(basename "$f")
    "$PROFANA" --analysis "$f" bf16 --group op --top 0 --format json >"$TMP/op.json" 2>/dev/null
    hand_attention "$f" >"$TMP/hand"
    while read -r op want; do
        check_near "$base: $op FLOPs = REFERENCE section 3 by hand" \
            "$(json "[r['flop'] for dev in d['devices'] for r in dev['rows'] if r['name'] == '$op'][0]" "$TMP/op.json")" "$want" 0.001
    done <"$TMP/hand"
    check_eq "$base: bytes known for >= 95% of GPU time" \
        "$(json "all(dev['coverage']['bytes_pct'] + dev['coverage']['bytes_generic_pct'] >= 95 for dev in d['devices'])" "$TMP/op.json")" "True"
    # Every percentage over 100 carries the note in JSON and a '!' in the table (one place,
    # set_pct, marks every grouping: --group kernel stands for all three).
    "$PROFANA" --analysis "$f" bf16 --top 0 --format json >"$TMP/g.json" 2>/dev/null
    "$PROFANA" --analysis "$f" bf16 --top 0 --format csv >"$TMP/g.csv" 2>/dev/null
    for j in op.json g.json; do
        check_eq "$base ($j): every row over 100% has the note" \
            "$(json "[r['name'] for dev in d['devices'] for r in dev['rows'] + [dev['total']] if max(r['flops_pct'] or 0, r['bw_pct'] or 0) > 100 and not (r['note'] or '').startswith('over peak')]" "$TMP/$j")" "[]"
    done
    over=$(json "sum(((r['flops_pct'] or 0) > 100) + ((r['bw_pct'] or 0) > 100) for dev in d['devices'] for r in dev['rows'] + [dev['total']])" "$TMP/g.json")
    marked=$(python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(sum(r[c].endswith('!') for r in rows for c in ('FLOPS %', 'BW %')))" "$TMP/g.csv")
    check_eq "$base: each cell over 100% is marked '!' ($over)" "$marked" "$over"
done
