#!/bin/sh
# run.sh - runs each libFuzzer target of a fuzz build for N seconds from the seed corpora; exits 1 on any finding.
# Usage: tests/fuzz/run.sh BUILD SECONDS [TARGET...]   (make fuzz FUZZ_SECONDS=N runs it on build-fuzz)
# The corpus grows in BUILD/corpus/TARGET (kept between runs); a crash, a leak, a contract
# violation or an input slower than 10 s is written to BUILD/crashes/TARGET-* and reported.
# Replay one: BUILD/fuzz/TARGET FILE.
cd "$(dirname "$0")/../.." || exit 2
build=${1:?usage: tests/fuzz/run.sh BUILD SECONDS [TARGET...]}
secs=${2:?usage: tests/fuzz/run.sh BUILD SECONDS [TARGET...]}
shift 2
targets=$*
# the targets are the executables (the build also writes header dependencies, fuzz_*.d, beside them)
[ -n "$targets" ] || targets=$(cd "$build/fuzz" && for f in fuzz_*; do [ -x "$f" ] && echo "$f"; done)
python3 tests/fuzz/seeds.py "$build/seeds" || exit 2
mkdir -p "$build/crashes"
failed=0
for t in $targets; do
    case $t in
    fuzz_args) seeds=$build/seeds/args ;;
    fuzz_triton) seeds=$build/seeds/triton ;;
    fuzz_demangle) seeds=$build/seeds/demangle ;;
    *) seeds=$build/seeds/trace ;;
    esac
    mkdir -p "$build/corpus/$t"
    log=$build/$t.log
    report=$build/$t.broken
    rm -f "$report"
    start=$(date +%s)
    # -close_fd_mask=3: the targets' own stdout/stderr (tables, notes) are dropped; libFuzzer
    # and the sanitizers still report on a saved stderr.
    # -max_len above the loader's 64 KB parts, so an input can cross them (seeds.py writes one
    # seed larger than that); -timeout: an input slower than 10 s is a finding
    PF_FUZZ_REPORT=$report "$build/fuzz/$t" -max_total_time="$secs" -max_len=262144 -timeout=10 -rss_limit_mb=2048 \
        -close_fd_mask=3 -print_final_stats=1 -dict=tests/fuzz/trace.dict \
        -artifact_prefix="$build/crashes/$t-" "$build/corpus/$t" "$seeds" >"$log" 2>&1
    st=$?
    took=$(($(date +%s) - start))
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
    if [ "$st" -eq 0 ]; then
        echo "$t: ${took} s, ${runs:-?} runs, ${cov:-cov: ?}, $(ls "$build/corpus/$t" | wc -l) corpus files: nothing found"
    else
        failed=1
        echo "$t: FOUND after ${took} s (exit $st):"
        grep -E 'ERROR|SUMMARY|contract broken|Test unit written|runtime error' "$log" | head -n 8 | sed 's/^/    /'
        # the contract the target saw broken (its own stderr is closed: tests/fuzz/common.h)
        [ -s "$report" ] && sed 's/^/    /' "$report"
        # the input itself where it is small, so a finding on a machine that is gone (CI) can
        # be replayed: base64 -d | gunzip >FILE; BUILD/fuzz/TARGET FILE
        art=$(sed -n 's/.*Test unit written to \([^ ]*\).*/\1/p' "$log" | tail -n 1)
        if [ -n "$art" ] && [ -f "$art" ] && [ "$(gzip -9c "$art" | wc -c)" -le 12288 ]; then
            echo "    input (gzip, base64):"
            gzip -9c "$art" | base64 -w 100 | sed 's/^/    /'
        fi
        echo "    log: $log"
    fi
done
exit $failed
