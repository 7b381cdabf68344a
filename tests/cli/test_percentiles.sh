# test_percentiles.sh - the spread of every row (p50, p90, p99 by nearest rank, population std; per launch for --group kernel, per invocation for op and shape) against the raw events read by Python (percentiles.py), on every trace of testdata/ and the public ones; where the columns show in each format.
# check: optimised
. tests/cli/lib.sh

PUBLIC=../shared/testdata/public/tracelens

# --- every row and the Total, every grouping, every trace: to 0.01 us ---
# testdata/hta/ is left out: its kernels link to ops by nesting, which this test's oracle (links by
# External id) does not follow; tests/cli/test_nesting.sh checks that trace.
for f in $(sweep_traces | grep -v '^testdata/hta/'); do
    base=$(echo "$f" | sed 's|.*testdata/||')
    gs="" outs=""
    for g in kernel op shape; do
        if ! "$PROFANA" --analysis "$f" bf16 --group "$g" --format json --top 0 >"$TMP/p_$g.json" 2>"$TMP/p.err"; then
            # every file listed is a trace profana reads (vLLM's execution_details.json, no trace, is left out)
            fail "$base --group $g: analysed" "$(head -c 120 "$TMP/p.err")"
            continue
        fi
        gs="$gs${gs:+,}$g" outs="$outs $TMP/p_$g.json"
    done
    [ -n "$gs" ] || continue
    # one oracle run a trace (it reads the trace once for the three groups): a line a group
    run_oracle tests/cli/percentiles.py "$gs" "$f" $outs >"$TMP/p.got"
    for g in $(echo "$gs" | tr , ' '); do
        got=$(head -n 1 "$TMP/p.got")
        sed -i 1d "$TMP/p.got"
        case $got in
        "ok "*) pass "$base --group $g: p50/p90/p99/std of ${got#ok } rows and the Total = the raw events' (Python, 0.01 us)" ;;
        *) fail "$base --group $g: spread against the raw events" "${got:-no verdict}" ;;
        esac
    done
done
[ -d "$PUBLIC" ] || echo "SKIP percentiles: $PUBLIC is absent"

# --- by hand: 5 launches of one kernel of 1, 2, 3, 4 and 10 us ---
python3 - "$TMP/hand.json" <<'PY'
import json, sys
ev = [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 100 + 20 * i, "dur": d,
       "args": {"device": 0, "stream": 7}} for i, d in enumerate([3, 1, 10, 2, 4])]
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$PROFANA" --analysis "$TMP/hand.json" bf16 --format json >"$TMP/hand.out" 2>/dev/null
# sorted 1 2 3 4 10: p50 = the ceil(2.5) = 3rd = 3; p90 = ceil(4.5) = 5th = 10; p99 = 5th = 10;
# mean 4, squares 9+4+1+0+36 = 50, std = sqrt(50/5) = sqrt(10) = 3.16227766
check_eq "by hand: 5 launches 1,2,3,4,10 us: p50 3, p90 10, p99 10" \
    "$(json "[float(d['devices'][0]['rows'][0][k]) for k in ('p50_us','p90_us','p99_us')]" "$TMP/hand.out")" "[3.0, 10.0, 10.0]"
check_near "by hand: std = sqrt(10) = 3.16227766 us" "$(json "d['devices'][0]['rows'][0]['std_us']" "$TMP/hand.out")" \
    3.16227766 0.0000001

# 100 launches of 1, 2, ..., 100 us (shuffled) and one launch of 7 us of another kernel:
# p50 = the 50th = 50, p90 = 90, p99 = 99; std = sqrt((100^2 - 1) / 12) = 28.86607005;
# a single launch: every percentile its time, std 0
python3 - "$TMP/hund.json" <<'PY'
import json, random, sys
d = list(range(1, 101))
random.Random(7).shuffle(d)
ev = [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1000 + 200 * i, "dur": v,
       "args": {"device": 0, "stream": 7}} for i, v in enumerate(d)]
ev.append({"ph": "X", "cat": "kernel", "name": "one", "pid": 0, "tid": 7, "ts": 90000, "dur": 7,
           "args": {"device": 0, "stream": 7}})
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$PROFANA" --analysis "$TMP/hund.json" bf16 --format json >"$TMP/hund.out" 2>/dev/null
check_eq "by hand: 1..100 us: p50 50, p90 90, p99 99" \
    "$(json "[float(r[k]) for r in d['devices'][0]['rows'] if r['name'] == 'k' for k in ('p50_us','p90_us','p99_us')]" "$TMP/hund.out")" "[50.0, 90.0, 99.0]"
check_near "by hand: 1..100 us: std = sqrt(9999 / 12)" \
    "$(json "[r['std_us'] for r in d['devices'][0]['rows'] if r['name'] == 'k'][0]" "$TMP/hund.out")" 28.86607005 0.0000001
check_eq "by hand: one launch of 7 us: p50 = p90 = p99 = 7, std 0" \
    "$(json "[float(r[k]) for r in d['devices'][0]['rows'] if r['name'] == 'one' for k in ('p50_us','p90_us','p99_us','std_us')]" "$TMP/hund.out")" "[7.0, 7.0, 7.0, 0.0]"

# --- formats: always in CSV and JSON, in text and Markdown only on request ---
T=$TRACES/eager_bf16.json
"$PROFANA" --analysis "$T" bf16 --format csv >"$TMP/p.csv"
check_grep "csv: p50, p90, p99, Std columns" "p50 (us),p90 (us),p99 (us),Std (us)" "$TMP/p.csv"
"$PROFANA" --analysis "$T" bf16 --wide >"$TMP/p.txt"
if grep -q "p50 (us)" "$TMP/p.txt"; then fail "text --wide: no spread columns unless asked" "p50 shown"; else
    pass "text --wide: no spread columns unless asked"; fi
"$PROFANA" --analysis "$T" bf16 --format md >"$TMP/p.md"
if grep -q "p50 (us)" "$TMP/p.md"; then fail "md: no spread columns unless asked" "p50 shown"; else
    pass "md: no spread columns unless asked"; fi
"$PROFANA" --analysis "$T" bf16 --columns total_us,p50_us,p90_us,p99_us,std_us >"$TMP/p.txt"
check_grep "text --columns p50_us,...: shown" "| Total (us) | p50 (us) | p90 (us) | p99 (us) | Std (us)$" "$TMP/p.txt"
"$PROFANA" --analysis "$T" bf16 --group op --format md --columns count,p50_us,std_us >"$TMP/p.md"
check_grep "md --group op --columns count,p50_us,std_us: shown" "| Count | p50 (us) | Std (us) |$" "$TMP/p.md"
# the text cell is the JSON figure at 3 decimals
"$PROFANA" --analysis "$T" bf16 --format json --top 1 >"$TMP/p1.json"
"$PROFANA" --analysis "$T" bf16 --columns p99_us --top 1 >"$TMP/p1.txt"
want=$(json "'%.3f' % d['devices'][0]['rows'][0]['p99_us']" "$TMP/p1.json")
check_grep "text p99 cell = JSON's at 3 decimals ($want)" "| *$want\$" "$TMP/p1.txt"
