# test_busy.sh - GPU busy time and per-stream figures against the union of intervals computed from the raw events.
. tests/cli/lib.sh

# Per device and stream: span, union of [ts, ts+dur) and launch count, from Python's parser.
raw_busy() {
    python3 - "$1" <<'PY'
import sys
sys.path.insert(0, "tests/cli")
from raw import load, gpu_acts, ns, union
iv = {}
for e in gpu_acts(load(sys.argv[1])):
    s = ns(e["ts"])
    key = (e["args"].get("device", e.get("pid")), e["args"].get("stream", 0))
    iv.setdefault(key, []).append((s, s + ns(e["dur"])))
devs = sorted({k[0] for k in iv})
for dev in devs:
    spans = [x for k, v in iv.items() if k[0] == dev for x in v]
    print("device", dev, min(s for s, _ in spans), max(e for _, e in spans), union(spans))
    for k in sorted(k for k in iv if k[0] == dev):
        print("stream", dev, k[1], len(iv[k]), union(iv[k]))
PY
}

for f in "$TRACES"/*.json; do
    base=$(basename "$f" .json)
    "$PROFANA" --analysis "$f" bf16 --format json >"$TMP/a.json"
    raw_busy "$f" >"$TMP/raw"
    while read -r kind dev a b c; do
        if [ "$kind" = device ]; then
            check_near "$base dev $dev: span" "$(json "[x for x in d['devices'] if x['id']==$dev][0]['busy']['span_us']*1000" "$TMP/a.json")" "$((b - a))" 0.000001
            check_near "$base dev $dev: busy = union of intervals" "$(json "[x for x in d['devices'] if x['id']==$dev][0]['busy']['busy_us']*1000" "$TMP/a.json")" "$c" 0.001
        else
            check_eq "$base dev $dev stream $a: launches" "$(json "[s['count'] for x in d['devices'] if x['id']==$dev for s in x['streams'] if s['stream']==$a][0]" "$TMP/a.json")" "$b"
            check_near "$base dev $dev stream $a: busy" "$(json "[s['busy_us'] for x in d['devices'] if x['id']==$dev for s in x['streams'] if s['stream']==$a][0]*1000" "$TMP/a.json")" "$c" 0.001
        fi
    done <"$TMP/raw"
done
