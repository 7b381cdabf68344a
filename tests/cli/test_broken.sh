# test_broken.sh - the broken-input table: every trace of tests/broken/ against its line of tests/broken/EXPECTED (exit status, the message on stderr or in the notes, one error line, no crash, well-formed JSON when accepted; the same on standard input), every fixture listed, and what the accepted ones print.
# check: valgrind
. tests/cli/lib.sh
set -u
. tests/cli/errors_lib.sh

# ---- the fixtures of tests/broken ----

while read -r file want msg <&3; do
    case $file in '' | '#'*) continue ;; esac
    check_trace "$file" "$BROKEN/$file" "$want" "$msg"
    # The same bytes on standard input (read into memory, not mapped) behave the same.
    run_stdin "$BROKEN/$file" --analysis - bf16
    if check_status "$file on stdin" "$want" && [ "$msg" != - ]; then
        cat "$TMP/out" "$TMP/err" >"$TMP/said"
        check_has "$file on stdin: stderr or the text's notes have '$msg'" "$msg" "$TMP/said"
    fi
done 3<"$BROKEN/EXPECTED"

for f in "$BROKEN"/*.json "$BROKEN"/*.gz; do
    [ -e "$f" ] || continue
    base=$(basename "$f")
    if grep -q "^$base " "$BROKEN/EXPECTED"; then pass "$base: listed in EXPECTED"; else fail "$base: listed in EXPECTED" "no line"; fi
done

# What the run prints for the fixtures that are accepted.
check_json "valid_minimal.json: mm FLOP 2*64*32*16" valid_minimal.json 'd["devices"][0]["rows"][0]["flop"] == 65536'
check_json "valid_minimal.json: mm bytes (64*32+32*16+64*16)*2" valid_minimal.json 'd["devices"][0]["rows"][0]["bytes"] == 7168'
check_json "valid_minimal.json: device" valid_minimal.json 'd["devices"][0]["matched"] == "H100 SXM"'
check_json "kernel_dur_zero.json: counted, 0 us" kernel_dur_zero.json 'd["devices"][0]["total"]["count"] == 1 and d["devices"][0]["total"]["total_us"] == 0'
check_json "kernel_external_id_unmatched.json: unlinked" kernel_external_id_unmatched.json 'd["unlinked"] == 1'
check_json "kernel_unknown_category.json: only the known kernel analysed" kernel_unknown_category.json 'd["gpu_activities"] == 1 and d["unlinked"] == 0'
check_json "mm_wrong_arity.json: no FLOP figure" mm_wrong_arity.json 'd["devices"][0]["rows"][0]["flop"] is None'
check_json "conv_concrete_inputs_not_numbers.json: no FLOP figure" conv_concrete_inputs_not_numbers.json 'd["devices"][0]["rows"][0]["flop"] is None'
check_json "kernel_name_invalid_utf8.json: U+FFFD in name" kernel_name_invalid_utf8.json 'd["devices"][0]["rows"][0]["name"] == "nvjet_\ufffd\ufffd_bad\ufffd(_utf8"'
check_json "name_with_nul_escape.json: NUL shown as U+FFFD" name_with_nul_escape.json 'd["devices"][0]["rows"][0]["name"] == "nvjet\ufffdtail"'
check_json "bare_event_array.json: one kernel" bare_event_array.json 'd["gpu_activities"] == 1 and d["unlinked"] == 0'
check_json "kernel_missing_ts.json: kernel skipped" kernel_missing_ts.json 'd["gpu_activities"] == 0'
for f in utf8_bom.json crlf_line_ends.json missing_ph.json duplicate_external_id.json events_not_objects.json \
    gzip_valid.json.gz gzip_two_members.json.gz; do
    check_same_table "$f"
done

json_flush
