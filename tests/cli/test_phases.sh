# test_phases.sh - serving phases: each device's GPU time per phase and --phase's selection against the raw events read by Python (phases_oracle.py) on the serving traces and every trace of testdata/; a hand-made trace with every rule (vLLM and SGLang annotations, the innermost one, GPU-side annotations, attention query lengths) by hand.
# check: optimised
. tests/cli/lib.sh

PUBLIC=../shared/testdata/public/tracelens
VLLM=testdata/public/vllm_decode_graph_execution.json.gz

# --- every trace: the phases member against the raw events (null where no phase is known) ---
# testdata/hta/ is left out: its kernels link to ops by nesting, which this test's oracle (links by
# External id) does not follow; tests/cli/test_nesting.sh checks that trace.
for f in $(sweep_traces | grep -v '^testdata/hta/'); do
    base=$(echo "$f" | sed 's|.*testdata/||')
    if ! "$PROFANA" --analysis "$f" bf16 --format json >"$TMP/p.json" 2>"$TMP/p.err"; then
        fail "$base: analysed" "$(head -c 120 "$TMP/p.err")"
        continue
    fi
    check_eq "$base: GPU time per phase = the raw events' (Python)" \
        "$(run_oracle -i "$TMP/p.json" tests/cli/phases_oracle.py "$f" shares)" "ok"
done

# --- --phase P: the rows are that phase's GPU work (the Total = the oracle's time of P) ---
for f in "$VLLM" "$PUBLIC/mi300_sglang_qwen3_prefilldecode.json.gz" "$PUBLIC/b200_vllm_eager.json.gz" testdata/w2026/kv_decode.json.gz; do
    [ -f "$f" ] || { echo "SKIP phases: $f is absent"; continue; }
    base=$(echo "$f" | sed 's|.*testdata/||')
    run_oracle tests/cli/phases_oracle.py "$f" prefill,decode,mixed >"$TMP/want" # one parse, a line a phase
    for p in prefill decode mixed; do
        "$PROFANA" --analysis "$f" bf16 --phase "$p" --format json >"$TMP/s.json" 2>/dev/null
        got=$(json "' '.join('%s:%.3f' % (x['id'], x['total']['total_us']) for x in d['devices'])" "$TMP/s.json")
        check_eq "$base --phase $p: Total = the raw events' $p time" "$got" "$(head -n 1 "$TMP/want")"
        sed -i 1d "$TMP/want"
    done
done

# the real traces, as their annotations say: vLLM decode (32 generation requests, no context),
# SGLang prefill (context_15 / step[EXTEND bs=15]), vLLM eager prefill (context_1)
"$PROFANA" --analysis "$VLLM" bf16 --format json >"$TMP/v.json" 2>/dev/null
check_eq "vLLM decode graph: 100% decode, 1 annotation" \
    "$(json "float(d['devices'][0]['phases']['decode_pct']), d['devices'][0]['phases']['annotations']" "$TMP/v.json")" "(100.0, 1)"
if [ -f "$PUBLIC/mi300_sglang_qwen3_prefilldecode.json.gz" ]; then
    "$PROFANA" --analysis "$PUBLIC/mi300_sglang_qwen3_prefilldecode.json.gz" bf16 --format json >"$TMP/sg.json" 2>/dev/null
    check_eq "SGLang Qwen3: 100% prefill, 2 annotations (vLLM-style execute_ and step[EXTEND])" \
        "$(json "float(d['devices'][0]['phases']['prefill_pct']), d['devices'][0]['phases']['annotations']" "$TMP/sg.json")" "(100.0, 2)"
fi

# --- by hand: every rule on one made-up trace ---
# CPU annotations: vLLM prefill [1000, 2000) holding SGLang step[DECODE] [1500, 1800); vLLM mixed
# [3000, 4000). GPU annotation step[EXTEND] on device 0 [7000, 8000).
# k1 launched at 1100: prefill (10 us); k2 at 1600: decode, the innermost (20 us); k3 at 3100:
# mixed (40 us); k4 no launch call, starts at 7100 inside the GPU-side EXTEND: prefill (80 us);
# k5 under SDPA with query [1, 8, 1, 64]: decode (160 us); k6 under SDPA with query [1, 8, 128, 64]:
# prefill (320 us); k7 plain, launched at 6000: no phase (640 us).
# prefill 10 + 80 + 320 = 410 us; decode 20 + 160 = 180 us; mixed 40 us; none 640 us.
python3 - "$TMP/hand.json" <<'PY'
import json, sys
ev = [
    {"ph": "X", "cat": "user_annotation", "name": "execute_8_context_2(sq8sk8)_generation_0(sq0sk0)", "pid": 1, "tid": 1, "ts": 1000, "dur": 1000},
    {"ph": "X", "cat": "user_annotation", "name": "step[DECODE bs=4 toks=4]", "pid": 1, "tid": 1, "ts": 1500, "dur": 300},
    {"ph": "X", "cat": "user_annotation", "name": "execute_context_1(5_5)_generation_3(3)", "pid": 1, "tid": 1, "ts": 3000, "dur": 1000},
    {"ph": "X", "cat": "gpu_user_annotation", "name": "step[EXTEND bs=1 toks=9]", "pid": 0, "tid": 7, "ts": 7000, "dur": 1000, "args": {"device": 0}},
]
def kernel(name, corr, ts, dur, ext=None):
    a = {"device": 0, "stream": 7, "correlation": corr}
    if ext is not None:
        a["External id"] = ext
    return {"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7, "ts": ts, "dur": dur, "args": a}
def launch(corr, ts, ext=None):
    a = {"correlation": corr}
    if ext is not None:
        a["External id"] = ext
    return {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": ts, "dur": 5, "args": a}
def sdpa(ext, ts, q):
    return {"ph": "X", "cat": "cpu_op", "name": "aten::scaled_dot_product_attention", "pid": 1, "tid": 1, "ts": ts, "dur": 20,
            "args": {"External id": ext, "Input Dims": [q, [1, 8, 128, 64], [1, 8, 128, 64]],
                     "Input type": ["c10::BFloat16"] * 3, "Concrete Inputs": ["", "", ""]}}
ev += [launch(1, 1100), kernel("k1", 1, 9000, 10),
       launch(2, 1600), kernel("k2", 2, 9100, 20),
       launch(3, 3100), kernel("k3", 3, 9200, 40),
       kernel("k4", 99, 7100, 80),
       sdpa(50, 5000, [1, 8, 1, 64]), launch(5, 5005, 50), kernel("k5", 5, 9300, 160, 50),
       sdpa(60, 5500, [1, 8, 128, 64]), launch(6, 5505, 60), kernel("k6", 6, 9500, 320, 60),
       launch(7, 6000), kernel("k7", 7, 9900, 640)]
json.dump({"deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "numSms": 132}], "traceEvents": ev},
          open(sys.argv[1], "w"))
PY
"$PROFANA" --analysis "$TMP/hand.json" bf16 --format json >"$TMP/h.json" 2>/dev/null
check_eq "by hand: prefill 410, decode 180, mixed 40, none 640 us" \
    "$(json "tuple(float(d['devices'][0]['phases'][k + '_us']) for k in ('prefill', 'decode', 'mixed', 'none'))" "$TMP/h.json")" \
    "(410.0, 180.0, 40.0, 640.0)"
check_eq "by hand: the oracle agrees" "$(python3 tests/cli/phases_oracle.py "$TMP/hand.json" shares <"$TMP/h.json")" "ok"
for want in "prefill:k1 k4 k6" "decode:k2 k5" "mixed:k3"; do
    p=${want%%:*}
    "$PROFANA" --analysis "$TMP/hand.json" bf16 --phase "$p" --format json >"$TMP/hp.json" 2>/dev/null
    check_eq "by hand --phase $p: rows ${want#*:}" "$(json "' '.join(sorted(r['name'] for r in d['devices'][0]['rows']))" "$TMP/hp.json")" "${want#*:}"
done
# --phase P: the breakdown, idle causes, launches and queue over P's activities alone, against
# waits_oracle.py on the activities phases_oracle.py gives P (0.01 us)
waits_phase() { # NAME TRACE PHASE
    "$PROFANA" --analysis "$2" bf16 --phase "$3" --format json >"$TMP/wg.json" 2>/dev/null &&
        run_oracle tests/cli/waits_oracle.py "$2" --phase "$3" >"$TMP/ww.json" &&
        python3 tests/cli/waits_compare.py "$1 --phase $3" "$TMP/wg.json" "$TMP/ww.json" ||
        fail "$1 --phase $3: waits against the raw events" "profana or the oracle failed"
}
for p in prefill decode mixed; do waits_phase "by hand" "$TMP/hand.json" "$p"; done
waits_phase "vLLM decode graph" "$VLLM" decode
for f in "$PUBLIC/mi300_sglang_qwen3_prefilldecode.json.gz" "$PUBLIC/b200_vllm_eager.json.gz"; do
    [ -f "$f" ] && waits_phase "$(basename "$f")" "$f" prefill
done
"$PROFANA" --analysis "$TMP/hand.json" bf16 --phase decode >"$TMP/h.txt" 2>/dev/null
check_grep "text: the Phases line with its shares" "^Phases: prefill 32.28% of GPU time (410.000 us), decode 14.17%" "$TMP/h.txt"
check_grep "text: --phase named on the line" "phase decode: the figures below are that phase's" "$TMP/h.txt"
# of 410 + 180 + 40 + 640 = 1270 us: 410 / 1270 = 32.28%, 180 / 1270 = 14.17%
# 640 / 1270 = 50.39% has no phase: most of the time, so the headline leaves the item out
if grep -q "^- phases of GPU time" "$TMP/h.txt"; then
    fail "headline: no phases item when most of the GPU time (50.39%) has none" "shown"
else
    pass "headline: no phases item when most of the GPU time (50.39%) has none"
fi
# kv_decode (one decode step: a KV-cache write and SDPA over the cache, query 1 token) is all
# decode once the attention call's phase covers the step (the oracle's shares: above)
"$PROFANA" --analysis testdata/w2026/kv_decode.json.gz bf16 >"$TMP/kv.txt" 2>/dev/null
check_grep "headline: each phase's share of GPU time" \
    "^- phases of GPU time: prefill 0.00%, decode 100.00%, mixed 0.00%, none 0.00% (--phase)$" "$TMP/kv.txt"

# --- no serving trace: no line, phases null; a bad --phase is a usage error ---
"$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 >"$TMP/e.txt"
if grep -q "^Phases:" "$TMP/e.txt"; then fail "training trace: no Phases line" "shown"; else pass "training trace: no Phases line"; fi
if grep -q "^- phases of GPU time" "$TMP/e.txt"; then fail "training trace: no phases item in the headline" "shown"; else pass "training trace: no phases item in the headline"; fi
check_run "--phase prefil (typo)" 2 "$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --phase prefil
check_grep "--phase typo: the choices named" "all, prefill, decode or mixed" "$TMP/err"
# a training trace's attention (long queries, none of one token) is no prefill
"$PROFANA" --analysis "$TRACES/eager_bf16.json" bf16 --format json >"$TMP/e.json"
check_eq "training trace: phases null" "$(json "d['devices'][0]['phases']" "$TMP/e.json")" "None"
# standard input: the annotations cannot be read again; attention lengths still count
"$PROFANA" --analysis - bf16 --format json <"$TMP/hand.json" >"$TMP/in.json" 2>/dev/null
# (without annotations the attention calls' phases spread by launch order: k1, k2, k3, launched
# before the first attention call k5 (decode), take decode: 160 + 10 + 20 + 40 = 230; k7, after
# the last one k6 (prefill), prefill: 320 + 640 = 960; k4 has no launch call: none)
check_eq "standard input: the attention rule spread by launch order (decode 230, prefill 960)" \
    "$(json "float(d['devices'][0]['phases']['decode_us']), float(d['devices'][0]['phases']['prefill_us'])" "$TMP/in.json")" "(230.0, 960.0)"

# --- by hand: a generate loop, the attention calls' phases spread to their forwards ---
# One thread launches a prefill forward (module call LlamaForCausalLM [100, 300)), then two decode
# forwards ([400, 500), [600, 700)), a sampling kernel between forwards (s1 at 350, s2 at 550).
# Each forward: embedding e (launch +5), SDPA a (launch +25; query 16 tokens, then 1), MLP m
# (+50), lm_head h (launch 290 in the prefill: a host gap inside it; +80 in the decodes).
# With the module calls: e1 a1 m1 h1 prefill = 10 + 100 + 200 + 50 = 360; the decodes 11 + 20 +
# 30 + 40 and 12 + 21 + 31 + 41; s1 lies between h1 (prefill, 290) and e2 (decode, 405): the
# widest launch gap there is 290 -> 350 (60 > 55), so s1 (5) is decode, s2 (6) between decodes
# decode: decode 101 + 105 + 5 + 6 = 217.
# Without the module calls (the same trace, python_function events dropped): by launch order
# from the attention calls a1 (125, prefill), a2 (425), a3 (625) (decode): between a1 and a2 the
# launches 150 (m1), 290 (h1), 350 (s1), 405 (e2): gaps 25, 140, 60, 55, 20: the widest is
# before h1, so h1 (50) turns decode: prefill 310, decode 267.
python3 - "$TMP/gen.json" "$TMP/gen_flat.json" <<'PY'
import json, sys
ev, corr, gpu = [], [0], [9000]
def launch_kernel(name, ts, dur, q=None):
    corr[0] += 1
    c = corr[0]
    a = {"correlation": c}
    k = {"device": 0, "stream": 7, "correlation": c}
    if q is not None:
        ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::scaled_dot_product_attention", "pid": 1, "tid": 1,
                   "ts": ts - 2, "dur": 10, "args": {"External id": 1000 + c, "Input Dims": [[1, 8, q, 64], [1, 8, 128, 64],
                   [1, 8, 128, 64]], "Input type": ["c10::BFloat16"] * 3, "Concrete Inputs": ["", "", ""]}})
        a["External id"] = k["External id"] = 1000 + c
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": ts, "dur": 1, "args": a})
    ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7, "ts": gpu[0], "dur": dur, "args": k})
    gpu[0] += dur + 1
for start, q, n, durs, head in ((100, 16, 1, (10, 100, 200, 50), 290), (400, 1, 2, (11, 20, 30, 40), 480),
                                (600, 1, 3, (12, 21, 31, 41), 680)):
    ev.append({"ph": "X", "cat": "python_function", "name": "nn.Module: LlamaForCausalLM_0", "pid": 1, "tid": 1,
               "ts": start, "dur": 100 if start > 100 else 200})
    launch_kernel("e%d" % n, start + 5, durs[0])
    launch_kernel("a%d" % n, start + 25, durs[1], q)
    launch_kernel("m%d" % n, start + 50, durs[2])
    launch_kernel("h%d" % n, head, durs[3])
    if n < 3:
        launch_kernel("s%d" % n, start + 250 if n == 1 else 550, 5 if n == 1 else 6)
dev = [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "numSms": 132}]
json.dump({"deviceProperties": dev, "traceEvents": ev}, open(sys.argv[1], "w"))
json.dump({"deviceProperties": dev, "traceEvents": [e for e in ev if e["cat"] != "python_function"]}, open(sys.argv[2], "w"))
PY
for c in "gen:360.0, 217.0:the module calls" "gen_flat:310.0, 267.0:launch order"; do
    f=${c%%:*} rest=${c#*:}
    "$PROFANA" --analysis "$TMP/$f.json" bf16 --format json >"$TMP/g.json" 2>/dev/null
    check_eq "generate by hand ($f): prefill, decode by ${rest#*:}" \
        "$(json "float(d['devices'][0]['phases']['prefill_us']), float(d['devices'][0]['phases']['decode_us']), float(d['devices'][0]['phases']['none_us'])" "$TMP/g.json")" \
        "(${rest%%:*}, 0.0)"
    check_eq "generate by hand ($f): the oracle agrees" "$(python3 tests/cli/phases_oracle.py "$TMP/$f.json" shares <"$TMP/g.json")" "ok"
done
"$PROFANA" --analysis "$TMP/gen.json" bf16 >"$TMP/g.txt" 2>/dev/null
check_grep "generate by hand: the Phases line says how the phases were spread" "spread to the forward they sit in (nn.Module calls" "$TMP/g.txt"
"$PROFANA" --analysis "$TMP/gen.json" bf16 --phase prefill --format json >"$TMP/gp.json" 2>/dev/null
check_eq "generate by hand --phase prefill: the prefill forward's kernels" \
    "$(json "' '.join(sorted(r['name'] for r in d['devices'][0]['rows']))" "$TMP/gp.json")" "a1 e1 h1 m1"
# a phase with no GPU work (the vLLM decode replay has no prefill, as the raw events say): said so,
# not "the trace has no GPU activity"
check_eq "vLLM decode graph: no prefill in the raw events (Python)" "$(run_oracle tests/cli/phases_oracle.py "$VLLM" prefill)" ""
check_run "vLLM decode graph --phase prefill: runs" 0 "$PROFANA" --analysis "$VLLM" bf16 --phase prefill
check_grep "vLLM decode graph --phase prefill: no GPU activity in that phase" \
    "vllm_decode_graph_execution.json.gz: no GPU activity in phase prefill (--phase all: the Phases line" "$TMP/err"
