# test_duckdb.sh - docs/ranks.md's DuckDB recipe (issue 46 item 5) with a real DuckDB engine (@duckdb/node-api: CI installs it into $PF_DUCKDB_DIR, /opt/profana-duckdb by default): per-rank NDJSON in rank=N folders, the recipe's SQL over them, each rank's busy, communication and exposed times equal --ranks' JSON over all ranks. Only in `make check-full` (PF_CHECK_FULL=1); without the engine it fails, never skips.
. tests/cli/lib.sh
[ "${PF_CHECK_FULL:-}" = 1 ] || exit 0
set -u

DUCK=${PF_DUCKDB_DIR:-/opt/profana-duckdb}
if [ ! -d "$DUCK/node_modules/@duckdb/node-api" ] || ! command -v node >/dev/null 2>&1; then
    fail "duckdb: the engine" "no $DUCK/node_modules/@duckdb/node-api or no node (npm install --prefix $DUCK @duckdb/node-api, as .ci/run does)"
    exit 0
fi
# the recipe's query, from the docs: the sql block of the section
awk '/^## Per-rank NDJSON in DuckDB or Spark/ { on = 1; next } on && /^## / { exit }
     on && /^```sql$/ { q = 1; next } q && /^```$/ { exit } q' docs/ranks.md >"$TMP/q.sql"
grep -q "read_json_auto('out/rank=\*/\*.ndjson', hive_partitioning = true)" "$TMP/q.sql" &&
    pass "duckdb: the recipe's query read from docs/ranks.md" || fail "duckdb: the recipe's query" "$(cat "$TMP/q.sql")"
# a module whose folder holds the engine's node_modules (an ES module resolves packages from its own folder up)
ln -s "$DUCK/node_modules" "$TMP/node_modules"
cat >"$TMP/profana_query.mjs" <<'JS'
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'fs';
const [sqlFile, dir] = process.argv.slice(2);
process.chdir(dir);
const c = await (await DuckDBInstance.create(':memory:')).connect();
const r = await c.runAndReadAll(readFileSync(sqlFile, 'utf8'));
console.log(JSON.stringify(r.getRowObjectsJson()));
JS
M=testdata/multirank
for run in fsdp2 tp_collectives; do
    mkdir -p "$TMP/$run"
    for r in 0 1; do
        mkdir -p "$TMP/$run/out/rank=$r"
        "$PROFANA" --ranks $M/${run}_bf16_rank$r.json.gz bf16 --format ndjson >"$TMP/$run/out/rank=$r/profana.ndjson"
    done
    "$PROFANA" --ranks $M/${run}_bf16_rank0.json.gz $M/${run}_bf16_rank1.json.gz bf16 --format json >"$TMP/$run/ranks.json"
    if node "$TMP/profana_query.mjs" "$TMP/q.sql" "$TMP/$run" >"$TMP/$run/duck.json" 2>"$TMP/err"; then
        pass "duckdb $run: the query runs"
    else
        fail "duckdb $run: the query runs" "$(head -c 300 "$TMP/err")"
        continue
    fi
    python3 - "$TMP/$run/duck.json" "$TMP/$run/ranks.json" "$run" <<'PY'
import json, sys
duck = json.load(open(sys.argv[1]))
ranks = json.load(open(sys.argv[2]))["ranks"]
run = sys.argv[3]
print(("PASS" if [int(d["rank"]) for d in duck] == [r["rank"] for r in ranks] == [0, 1] else "FAIL") +
      " duckdb %s: a row per rank, ranks 0 and 1 (%s)" % (run, [d["rank"] for d in duck]))
for d, r in zip(duck, ranks):
    for k in ["busy_us", "comm_us", "exposed_comm_us"]:
        ok = abs(float(d[k]) - r[k]) <= 1e-9 * max(1.0, abs(r[k])) and r[k] > 0
        print(("PASS" if ok else "FAIL") + " duckdb %s rank %s: %s equals --ranks' (%s, %s)" % (run, r["rank"], k, d[k], r[k]))
PY
done
