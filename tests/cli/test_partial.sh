# test_partial.sh - rows whose figures are known for part of their launches (issue 47): the table shows, marked '*', the rate of the launches with figures over their own time, with a footnote naming --group op; a copy of eager_bf16.json with half its device copies' bytes taken out, and TraceLens' MI300 ResNet trace.
. tests/cli/lib.sh

# A copy of eager_bf16.json whose every other Memcpy DtoD lost its recorded bytes (as ROCm records
# some); the oracle: the bytes left (a device copy reads and writes them: 2x) over those copies' time.
python3 - "$TRACES/eager_bf16.json" "$TMP/half.json" >"$TMP/want" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))  # floats: each writes back as the text it was read from
nbytes = dur = n = 0
for e in d["traceEvents"]:
    if e.get("cat") == "gpu_memcpy" and e["name"].startswith("Memcpy DtoD"):
        n += 1
        if n % 2 == 0:
            del e["args"]["bytes"]
        else:
            nbytes += 2 * int(e["args"]["bytes"])
            dur += round(e["dur"] * 1000)
json.dump(d, open(sys.argv[2], "w"))
print("%.1f" % (nbytes / dur), n)
PY
read -r want copies <"$TMP/want"
check_eq "half.json: device copies in the trace" "$([ "$copies" -ge 2 ] && echo yes)" yes
COLUMNS=200 "$PROFANA" --analysis "$TMP/half.json" bf16 --quiet --top 0 >"$TMP/out" 2>&1
row=$(grep '^Memcpy DtoD' "$TMP/out")
got=$(printf '%s\n' "$row" | tr '|' '\n' | grep -o '^ *[0-9.]*\*' | head -n 1 | tr -d ' *')
check_eq "half.json: the copies' GB/s over the ones with bytes, marked (raw events: $want GB/s)" "$got" "$want"
check_grep "half.json: the footnote of '*' names --group op" '^\*: the rate of the row.*--group op counts each op whole' "$TMP/out"
"$PROFANA" --analysis "$TMP/half.json" bf16 --quiet --top 0 --format json >"$TMP/out.json"
check_eq "half.json: JSON keeps the row's unknown rate null" "$(python3 -c '
import json, sys
rows = [r for r in json.load(open(sys.argv[1]))["devices"][0]["rows"] if r["name"].startswith("Memcpy DtoD")]
print(rows[0]["gbps"] if rows else "no row")' "$TMP/out.json")" None

# The control: the trace as recorded has every copy's bytes: no mark, no footnote.
COLUMNS=200 "$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --quiet --top 0 >"$TMP/whole" 2>&1
check_eq "eager_bf16.json: no '*' cell" "$(grep -c '[0-9]\*' "$TMP/whole")" 0
check_eq "eager_bf16.json: no '*' footnote" "$(grep -c '^\*:' "$TMP/whole")" 0

# TraceLens' MI300 ResNet trace (issue 47: every --group kernel row was '-'): its device copies with
# recorded bytes over their time, from the raw events.
M=../shared/testdata/public/tracelens/mi300_resnet_act_checkpoint.json.gz
if [ -f "$M" ]; then
    want=$(python3 - "$M" <<'PY'
import sys
sys.path.insert(0, "tests/cli")
from raw import gpu_acts, load, ns
b = t = 0
for e in gpu_acts(load(sys.argv[1])):
    if e["name"].startswith("Memcpy DtoD") and "bytes" in e["args"]:
        b += 2 * int(e["args"]["bytes"])
        t += ns(e["dur"])
print("%.1f" % (b / t))
PY
)
    COLUMNS=200 "$PROFANA" --analysis "$M" bf16 --quiet --top 0 >"$TMP/m" 2>&1
    got=$(grep '^Memcpy DtoD' "$TMP/m" | tr '|' '\n' | grep -o '^ *[0-9.]*\*' | head -n 1 | tr -d ' *')
    check_eq "mi300_resnet: Memcpy DtoD at $want GB/s over the copies with bytes" "$got" "$want"
    check_eq "mi300_resnet: conv kernels show a marked TFLOP/s" \
        "$(grep -c '^igemm_.*| *[0-9.]*\* |' "$TMP/m" | awk '$1 > 0 { print "yes" }')" yes
else
    echo "SKIP mi300_resnet: not in this checkout"
fi
